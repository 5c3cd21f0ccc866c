"""The privacy scan: every text column of every layer of the database, and of every backup on request,
through the detectors of :mod:`.secrets`, :mod:`.personal` and :mod:`.instructions`.

Read-only: the live file is opened like any look (``mode=ro``, :class:`core.db.MemoryDB`), a backup
through an ``immutable=1`` connection (:func:`core.backups.open_backup`); nothing is written to either or
beside them. Tables are read in pages by ``rowid`` (each page its own short read), so a scan never pins a
WAL snapshot while the agent writes. A column missing from an older schema (v31 has no
``revision_history``) is left out; a table that cannot be read (a damaged page) and a value that is not
text (bytes that are not UTF-8, a BLOB) are skipped and reported in :attr:`ScanResult.skipped`; a backup
that cannot be opened is reported in :attr:`ScanResult.files` with its error, never raised.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from core.damage import UnreadableText
from core.db import MemoryDB
from core.engine import sqlite3
from core.errors import MemoryError_
from core.privacy import gate, instructions, personal, secrets
from core.privacy.allow import Allowed, AllowList
from core.privacy.finding import PrivacyFinding
from core.privacy.hits import Hit, mask, merge

PAGE_ROWS = 2000


class Source(NamedTuple):
    """Where a layer is stored: its table, the text columns read (those the file has), and whether the
    prefix shows it (then planted instructions are looked for too)."""

    layer: str
    table: str
    columns: tuple[str, ...]
    prefix: bool = False


#: Every layer, in the order they are scanned and listed.
SOURCES: tuple[Source, ...] = (
    Source("messages", "memory_raw_messages", ("content",)),
    Source("actions", "memory_actions", ("params_json", "result")),
    Source("notes", "memory_notes", ("content",), True),
    Source("facts", "memory_facts", ("value_json",), True),
    Source(
        "skills",
        "memory_skills",
        ("description", "trigger_keywords", "when_to_use", "action_template", "verification", "tool_policy"),
        True,
    ),
    Source("skill_revisions", "memory_skills", ("revision_history",), True),
    Source("calendar", "memory_calendar", ("title", "external_ref")),
    Source("tasks", "memory_schedules", ("name", "payload_json")),
)
LAYERS: tuple[str, ...] = tuple(s.layer for s in SOURCES)
#: Every kind of finding, secrets first, then personal data, then planted instructions.
KINDS: tuple[str, ...] = (
    *sorted({r.kind for r in secrets.RULES}),
    *personal.KINDS,
    *instructions.KINDS,
)


class ScanCancelled(MemoryError_):
    """The scan was cancelled; nothing is returned."""

    default_code = "privacy.scan_cancelled"


@dataclass(frozen=True)
class Skipped:
    """Something not scanned: a value that is not text (``row``/``column`` set; ``problem``
    ``value.not_utf8`` or ``value.blob``) or a table that could not be read (``row`` ``None``,
    ``problem`` ``table.unreadable``, ``detail`` SQLite's words)."""

    file: str | None
    layer: str
    table: str
    row: int | str | None
    column: str | None
    problem: str
    detail: str = ""


@dataclass
class ScannedFile:
    """One file the scan read (``file`` ``None``: the live database): the rows read per layer, and
    ``error`` (a code and SQLite's or the header check's words) when it could not be opened at all."""

    file: str | None
    layers: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    error_code: str | None = None


@dataclass
class ScanResult:
    """What a scan found: ``findings`` (not allowed), ``allowed`` (on the person's allow-list), the
    ``files`` read and what was ``skipped``."""

    findings: list[PrivacyFinding] = field(default_factory=list)
    allowed: list[PrivacyFinding] = field(default_factory=list)
    files: list[ScannedFile] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)

    def by_kind(self) -> dict[str, int]:
        return dict(sorted(Counter(f.kind for f in self.findings).items()))

    def by_layer(self) -> dict[str, int]:
        found = Counter(f.layer for f in self.findings)
        return {layer: found[layer] for layer in LAYERS if found[layer]}


def finding_id(file: str | None, table: str, row: Any, column: str, start: int, end: int, kind: str) -> str:
    """Stable for the same span of the same row of the same file (a backup by its name)."""
    where = "" if file is None else Path(file).name
    text = f"{where}\0{table}\0{row}\0{column}\0{start}\0{end}\0{kind}"
    return "pf-" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def detect(text: str, *, prefix: bool = False) -> list[Hit]:
    """Every hit in one text: secrets, then personal data, then (``prefix``) planted instructions; an
    overlapping hit of a later detector is dropped."""
    low = text.lower()
    hits = secrets.find(text, low) + personal.find(text)
    if prefix:
        hits += instructions.find(text, low)
    return merge(hits) if hits else hits


# -- reading ------------------------------------------------------------------------------------------


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [str(r[1]) for r in conn.execute(f'PRAGMA table_info("{table}")')]


def _page(conn: sqlite3.Connection, sql: str, args: Sequence[Any]) -> list[tuple[Any, ...]]:
    """One page, text decoded strictly by the binding; a page holding bytes that are not UTF-8 is read
    again with the project's text factory (each such value an :class:`UnreadableText`)."""
    from core.damage import decode_text

    saved = conn.text_factory
    try:
        conn.text_factory = str
        try:
            cur = conn.cursor()
            cur.row_factory = None
            return cur.execute(sql, args).fetchall()
        except sqlite3.OperationalError as exc:
            if not str(exc).startswith("Could not decode to UTF-8"):
                raise
        conn.text_factory = decode_text
        cur = conn.cursor()
        cur.row_factory = None
        return cur.execute(sql, args).fetchall()
    finally:
        conn.text_factory = saved


def _key(conn: sqlite3.Connection, table: str) -> tuple[str, int]:
    """What names a row of ``table`` and where its first scanned column stands in a page's rows: ``id``
    that is the rowid (an ``INTEGER PRIMARY KEY``: read once, rows ``(rowid, *columns)``), another
    ``id`` (rows ``(rowid, id, *columns)``), or the rowid when there is no ``id``."""
    info = list(conn.execute(f'PRAGMA table_info("{table}")'))
    ids = [r for r in info if r[1] == "id"]
    pks = [r for r in info if r[5]]
    if not ids:
        return "", 1
    if len(pks) == 1 and pks[0][1] == "id" and str(pks[0][2]).upper() == "INTEGER":
        return "", 1
    return '"id", ', 2


def _rows(
    conn: sqlite3.Connection, table: str, cols: Sequence[str], key: str
) -> Iterator[list[tuple[Any, ...]]]:
    """The rows of ``table`` as ``(rowid, [id,] *cols)`` (``key``: see :func:`_key`) in pages, by rowid."""
    sql = (
        f'SELECT rowid, {key}{", ".join(f"{chr(34)}{c}{chr(34)}" for c in cols)} FROM "{table}" '
        f"WHERE rowid > ? ORDER BY rowid LIMIT {PAGE_ROWS}"
    )
    last: Any = None
    while True:
        page = _page(conn, sql, (-(2**63) if last is None else last,))
        if not page:
            return
        yield page
        last = page[-1][0]
        if len(page) < PAGE_ROWS:
            return


class _Scan:
    """One scan's state: the result, the allow-list, progress and cancellation."""

    def __init__(
        self,
        layers: Sequence[str],
        allowed: Allowed,
        progress: Callable[[int, int], object] | None,
        cancelled: Callable[[], bool] | None,
    ):
        self.layers = set(layers)
        self.allowed = allowed
        self.progress = progress
        self.cancelled = cancelled
        self.result = ScanResult()
        self.done = 0
        self.total = 0

    def check_cancelled(self) -> None:
        if self.cancelled is not None and self.cancelled():
            raise ScanCancelled("The privacy scan was cancelled.")

    def sources(self, conn: sqlite3.Connection) -> list[tuple[Source, list[str]]]:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        out = []
        for s in SOURCES:
            if s.layer in self.layers and s.table in names:
                have = set(_columns(conn, s.table))
                cols = [c for c in s.columns if c in have]
                if cols:
                    out.append((s, cols))
        return out

    def count(self, conn: sqlite3.Connection) -> int:
        total = 0
        for s, _cols in self.sources(conn):
            with contextlib.suppress(sqlite3.Error):
                total += int(conn.execute(f'SELECT count(*) FROM "{s.table}"').fetchone()[0])
        return total

    def file(self, conn: sqlite3.Connection, file: str | None, lock: Any) -> None:
        scanned = ScannedFile(file)
        self.result.files.append(scanned)
        with lock:
            found = self.sources(conn)
        for source, cols in found:
            scanned.layers[source.layer] = 0
            try:
                with lock:
                    key, first = _key(conn, source.table)
                pages = _rows(conn, source.table, cols, key)
                while True:
                    self.check_cancelled()
                    with lock:
                        page = next(pages, None)
                    if page is None:
                        break
                    self.page(page, first, source, cols, file)
                    scanned.layers[source.layer] += len(page)
                    self.done += len(page)
                    if self.progress is not None:
                        self.progress(self.done, max(self.total, self.done))
            except sqlite3.DatabaseError as exc:
                self.result.skipped.append(
                    Skipped(file, source.layer, source.table, None, None, "table.unreadable", str(exc))
                )

    def page(
        self, page: list[tuple[Any, ...]], first: int, source: Source, cols: Sequence[str], file: str | None
    ) -> None:
        """Scan one page, column by column: the gate marks the values worth a look (every value of a
        layer the prefix shows is looked at for instructions)."""
        at = first - 1  # the row's key
        for ci, column in enumerate(cols):
            values = [r[first + ci] for r in page]
            if set(map(type, values)) <= {str}:
                keys, texts = [r[at] for r in page], values
            else:
                keys, texts = self.texts([r[at] for r in page], values, source, column, file)
            marked = gate.marks(texts)
            if source.prefix:
                looked = set(marked)
                for k, text in enumerate(texts):
                    low = text.lower()
                    hits = instructions.find(text, low)
                    if k in looked:
                        hits = secrets.find(text, low) + personal.find(text) + hits
                    if hits:
                        self.add(merge(hits), text, source, keys[k], column, file)
                continue
            for k in marked:
                text = texts[k]
                hits = secrets.find(text, text.lower()) + personal.find(text)
                if hits:
                    self.add(merge(hits), text, source, keys[k], column, file)

    def texts(
        self, rows: list[Any], values: list[Any], source: Source, column: str, file: str | None
    ) -> tuple[list[Any], list[str]]:
        """The row keys and texts of a column holding more than text: a number or NULL is left out, a
        value that is not text (bytes that are not UTF-8, a BLOB) is skipped with a marker."""
        keys, texts = [], []
        for row, value in zip(rows, values):
            if type(value) is str:
                keys.append(row)
                texts.append(value)
            elif value is not None and not isinstance(value, (int, float)):
                problem = "value.not_utf8" if isinstance(value, UnreadableText) else "value.blob"
                self.result.skipped.append(Skipped(file, source.layer, source.table, row, column, problem))
        return keys, texts

    def add(
        self, hits: list[Hit], text: str, source: Source, row: Any, column: str, file: str | None
    ) -> None:
        for h in hits:
            fid = finding_id(file, source.table, row, column, h.start, h.end, h.kind)
            value = text[h.start : h.end]
            finding = PrivacyFinding(
                id=fid,
                kind=h.kind,
                category=h.kind.split(".", 1)[0],
                layer=source.layer,
                table=source.table,
                row=row,
                column=column,
                start=h.start,
                end=h.end,
                preview=mask(value),
                confidence=h.confidence,
                file=file,
            )
            allowed = self.allowed.allows(fid, h.kind, value)
            (self.result.allowed if allowed else self.result.findings).append(finding)


def _backup_conn(path: Path) -> sqlite3.Connection:
    from core.backups.listing import open_backup
    from core.files import header_problem

    found = header_problem(path)
    if found is not None:
        raise sqlite3.DatabaseError(f"{found.problem}: {found.detail}")
    return open_backup(path)


def scan(
    db_path_or_db: str | os.PathLike[str] | MemoryDB,
    *,
    include_backups: bool = False,
    layers: Sequence[str] | None = None,
    progress: Callable[[int, int], object] | None = None,
    cancelled: Callable[[], bool] | None = None,
    allow: Allowed | None = None,
) -> ScanResult:
    """Scan a database (a path, opened read-only here, or an open :class:`core.db.MemoryDB`) and, with
    ``include_backups``, every backup in its ``backups/`` folder.

    ``layers`` limits the scan (default :data:`LAYERS`); ``progress(done_rows, total_rows)`` is called
    after each page; ``cancelled()`` returning true stops the scan with :class:`ScanCancelled`.
    ``allow`` is the allow-list to apply (default: the person's, :class:`AllowList`, for this database).
    """
    unknown = [x for x in (layers or ()) if x not in LAYERS]
    if unknown:
        from core.errors import ValidationError_

        raise ValidationError_(
            f"Unknown layer {unknown[0]!r}; the layers are {', '.join(LAYERS)}.",
            code="privacy.unknown_layer",
            params={"layer": unknown[0], "layers": list(LAYERS)},
        )
    own = not isinstance(db_path_or_db, MemoryDB)
    db: MemoryDB = (
        db_path_or_db if isinstance(db_path_or_db, MemoryDB) else MemoryDB.open(db_path_or_db, check=False)
    )
    try:
        path = db.path
        if allow is None:
            allow = AllowList().get(path) if path is not None else Allowed()
        state = _Scan(layers or LAYERS, allow, progress, cancelled)
        backups = _backup_paths(path) if include_backups and path is not None else []
        with db.lock:
            state.total = state.count(db.conn)
        state.total += sum(_backup_rows(state, b) for b in backups)  # counted first: progress never goes back
        state.file(db.conn, None, db.lock)
        for b in backups:
            _scan_backup(state, b)
        return state.result
    finally:
        if own:
            db.close()


def _backup_paths(path: Path) -> list[Path]:
    from core.backups import list_backups

    return list_backups(path)


def _backup_rows(state: _Scan, path: Path) -> int:
    """The rows a backup holds in the layers scanned (0 when it cannot be read)."""
    try:
        conn = _backup_conn(path)
    except (sqlite3.Error, MemoryError_, OSError):
        return 0
    try:
        return state.count(conn)
    except sqlite3.Error:
        return 0
    finally:
        conn.close()


def _scan_backup(state: _Scan, path: Path) -> None:
    state.check_cancelled()
    try:
        conn = _backup_conn(path)
    except (sqlite3.Error, MemoryError_, OSError) as exc:
        code = getattr(exc, "code", None) or "backup.unreadable"
        state.result.files.append(ScannedFile(str(path), error=str(exc), error_code=code))
        return
    try:
        try:
            state.file(conn, str(path), contextlib.nullcontext())
        except sqlite3.DatabaseError as exc:  # sqlite_master itself unreadable
            state.result.files[-1].error, state.result.files[-1].error_code = str(exc), "backup.unreadable"
    finally:
        conn.close()


# -- JSON ---------------------------------------------------------------------------------------------


def finding_json(f: PrivacyFinding) -> dict[str, Any]:
    """A finding as the command line's ``--json`` and the MCP tool give it (the preview, never the value)."""
    return {
        "id": f.id,
        "kind": f.kind,
        "category": f.category,
        "layer": f.layer,
        "table": f.table,
        "row": f.row,
        "column": f.column,
        "start": f.start,
        "end": f.end,
        "preview": f.preview,
        "confidence": f.confidence,
        "file": f.file,
    }


def result_json(result: ScanResult) -> dict[str, Any]:
    """``{files, by_kind, by_layer, findings, allowed, skipped}`` of a scan."""
    return {
        "files": [
            {"file": s.file, "layers": dict(s.layers), "error": s.error, "error_code": s.error_code}
            for s in result.files
        ],
        "by_kind": result.by_kind(),
        "by_layer": result.by_layer(),
        "findings": [finding_json(f) for f in result.findings],
        "allowed": [finding_json(f) for f in result.allowed],
        "skipped": [
            {
                "file": s.file,
                "layer": s.layer,
                "table": s.table,
                "row": s.row,
                "column": s.column,
                "problem": s.problem,
                "detail": s.detail,
            }
            for s in result.skipped
        ],
    }


# -- the text of a finding ------------------------------------------------------------------------------


def context(db: MemoryDB, finding: PrivacyFinding, around: int = 40) -> tuple[str, str, str] | None:
    """``(before, value, after)``: the finding's span and up to ``around`` characters each side, read
    again from its file (the live database through ``db``, a backup read-only); ``None`` when the row
    or the value is no longer there as it was scanned. For showing on demand: never printed by the scan."""
    text = _stored_text(db, finding)
    if text is None or finding.end > len(text):
        return None
    s, e = finding.start, finding.end
    return text[max(0, s - around) : s], text[s:e], text[e : e + around]


def span_text(db: MemoryDB, finding: PrivacyFinding) -> str:
    """The text of a finding's span as stored now (``''`` when the row is gone)."""
    found = context(db, finding, 0)
    return "" if found is None else found[1]


def _stored_text(db: MemoryDB, finding: PrivacyFinding) -> str | None:
    t, c = finding.table, finding.column
    if t not in {s.table for s in SOURCES} or c not in {col for s in SOURCES for col in s.columns}:
        return None
    if finding.file is None:
        with db.lock:
            conn = db.conn
            key = '"id"' if "id" in _columns(conn, t) else "rowid"
            page = _page(conn, f'SELECT "{c}" FROM "{t}" WHERE {key} = ?', (finding.row,))
    else:
        conn = _backup_conn(Path(finding.file))
        try:
            key = '"id"' if "id" in _columns(conn, t) else "rowid"
            page = _page(conn, f'SELECT "{c}" FROM "{t}" WHERE {key} = ?', (finding.row,))
        finally:
            conn.close()
    value = page[0][0] if page else None
    return value if type(value) is str else None
