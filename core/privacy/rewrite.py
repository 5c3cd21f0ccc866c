"""Rewriting one file for a purge: the rows of the plan redacted or deleted, the full-text indexes kept in
step (and their old entries removed, not only marked deleted), the audit trail scrubbed of the purged
text, in one transaction; then the ``-wal`` checkpointed and truncated, and on request a ``VACUUM``.

The connection runs with ``PRAGMA secure_delete=ON``, so the pages and cells the transaction frees are
overwritten with zeros. FTS5's own ``secure-delete`` option is switched on for the transaction (entries
are removed from the index pages instead of being marked deleted) and off again before the commit; once
it has been used, FTS5 marks the table as needing SQLite 3.42 or newer (the agent's better-sqlite3 and
this project's engine are newer).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core import schema
from core.audit import AUDIT_TABLE, audit_table_exists
from core.engine import sqlite3
from core.errors import ConflictError
from core.jsutil import js_stringify

REDACTED = "[redacted: {kind}]"


def marker(kind: str) -> str:
    """What a redacted span becomes: ``[redacted: <kind>]``."""
    return REDACTED.format(kind=kind)


@dataclass(frozen=True)
class Span:
    """One purged span of a value: ``[start, end)`` in characters, the text it must hold (checked again
    inside the transaction) and its kind."""

    start: int
    end: int
    kind: str
    text: str
    finding: str | None = None


@dataclass(frozen=True)
class Target:
    """One row of one file to change: its spans redacted (``action`` ``redact``) or the row deleted
    (``delete``; for ``memory_skills.revision_history`` the revisions holding a span are dropped)."""

    file: str | None
    layer: str
    table: str
    column: str
    row: int | str
    action: str
    spans: tuple[Span, ...]


def quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def key_column(conn: sqlite3.Connection, table: str) -> str:
    """``id`` where the table has it (every memory layer), else ``rowid``."""
    cols = {str(r[1]) for r in conn.execute(f"PRAGMA table_info({quote(table)})")}
    return '"id"' if "id" in cols else "rowid"


def read_value(conn: sqlite3.Connection, table: str, column: str, row: int | str) -> tuple[int, Any] | None:
    """``(rowid, value)`` of one column of one row, ``None`` when the row is gone. A table or column the
    file does not have raises (SQLite would read an unknown double-quoted name as a string)."""
    cols = {str(r[1]) for r in conn.execute(f"PRAGMA table_info({quote(table)})")}
    if column not in cols:
        raise sqlite3.OperationalError(f"no such column: {table}.{column}")
    key = key_column(conn, table)
    found = conn.execute(
        f"SELECT rowid, {quote(column)} FROM {quote(table)} WHERE {key} = ?", (row,)
    ).fetchone()
    return None if found is None else (int(found[0]), found[1])


def merged(spans: Sequence[Span]) -> list[Span]:
    """Overlapping or touching spans joined into one (of the kind of the widest), in order."""
    out: list[Span] = []
    for s in sorted(spans, key=lambda s: (s.start, -s.end)):
        if out and s.start <= out[-1].end:
            last = out[-1]
            wider = s if (s.end - s.start) > (last.end - last.start) else last
            out[-1] = Span(last.start, max(last.end, s.end), wider.kind, "", last.finding)
            continue
        out.append(s)
    return out


def redact_text(text: str, spans: Sequence[Span]) -> str:
    """``text`` with each span replaced by its marker (overlapping spans become one marker)."""
    out = text
    for s in reversed(merged(spans)):
        out = out[: s.start] + marker(s.kind) + out[s.end :]
    return out


def _json_or_none(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return _NOT_JSON


_NOT_JSON = object()


def _walk_replace(value: Any, old: str, new: str) -> Any:
    if isinstance(value, str):
        return value.replace(old, new)
    if isinstance(value, list):
        return [_walk_replace(v, old, new) for v in value]
    if isinstance(value, dict):
        return {_walk_replace(k, old, new): _walk_replace(v, old, new) for k, v in value.items()}
    return value


def decoded(text: str) -> str:
    """How ``text`` (a piece of stored JSON) reads once parsed, when it is the inside of a JSON string."""
    with contextlib.suppress(ValueError, RecursionError):
        got = json.loads('"' + text + '"')
        if isinstance(got, str):
            return got
    return text


def new_value(text: str, spans: Sequence[Span]) -> str:
    """The redacted value. In a column holding JSON a span that cuts through an escape would leave JSON
    that no longer parses: then the text is replaced inside the parsed strings instead."""
    out = redact_text(text, spans)
    before = _json_or_none(text)
    if before is _NOT_JSON or _json_or_none(out) is not _NOT_JSON:
        return out
    value = before
    for s in spans:
        value = _walk_replace(value, decoded(s.text), marker(s.kind))
    return js_stringify(value)


def drop_revisions(text: str, spans: Sequence[Span]) -> str | None:
    """``revision_history`` without the revisions that hold a span; ``None`` when it is not a JSON list
    (the spans are then redacted instead)."""
    value = _json_or_none(text)
    if not isinstance(value, list):
        return None
    needles = [decoded(s.text) for s in spans] + [s.text for s in spans]
    kept = [r for r in value if not any(n and n in js_stringify(r) for n in needles)]
    return js_stringify(kept)


# -- the full-text indexes ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fts:
    name: str
    columns: tuple[str, ...]
    on_update: bool  # an AFTER UPDATE trigger keeps it in step
    on_delete: bool


def fts_of(conn: sqlite3.Connection, table: str) -> Fts | None:
    """The full-text table over ``table`` in this file, with which of its triggers the file has."""
    names = {str(r[0]): str(r[1]) for r in conn.execute("SELECT name, type FROM sqlite_master")}
    for fts in schema.FTS_TABLES:
        if fts.content_table == table and names.get(fts.name) == "table":
            return Fts(
                fts.name,
                tuple(fts.columns),
                names.get(f"{table}_au") == "trigger",
                names.get(f"{table}_ad") == "trigger",
            )
    return None


def _fts_command(conn: sqlite3.Connection, fts: Fts, rowid: int, values: Sequence[Any], delete: bool) -> None:
    cols = ", ".join(quote(c) for c in fts.columns)
    marks = ", ".join("?" for _ in fts.columns)
    if delete:
        conn.execute(
            f"INSERT INTO {quote(fts.name)} ({quote(fts.name)}, rowid, {cols}) VALUES ('delete', ?, {marks})",
            (rowid, *values),
        )
    else:
        conn.execute(f"INSERT INTO {quote(fts.name)} (rowid, {cols}) VALUES (?, {marks})", (rowid, *values))


def _fts_values(conn: sqlite3.Connection, table: str, fts: Fts, rowid: int) -> tuple[Any, ...]:
    cols = ", ".join(quote(c) for c in fts.columns)
    row = conn.execute(f"SELECT {cols} FROM {quote(table)} WHERE rowid = ?", (rowid,)).fetchone()
    return tuple(row)


def set_fts_secure_delete(conn: sqlite3.Connection, fts_names: Iterable[str], on: bool) -> bool:
    """FTS5's ``secure-delete`` on or off for these tables; ``False`` where the engine lacks it. Off
    also removes the option's row, so the table's configuration reads as before."""
    done = True
    for name in fts_names:
        try:
            conn.execute(
                f"INSERT INTO {quote(name)} ({quote(name)}, rank) VALUES ('secure-delete', ?)", (int(on),)
            )
            if not on:
                conn.execute(f"DELETE FROM {quote(name + '_config')} WHERE k = 'secure-delete'")
        except sqlite3.Error:
            done = False
    return done


# -- applying the targets -------------------------------------------------------------------------------------


def changed(target: Target, file: str) -> ConflictError:
    return ConflictError(
        f"{file}: {target.table} row {target.row} changed since the plan was made (its {target.column} no "
        "longer holds the text to purge). Nothing was changed in this file; scan again and purge anew.",
        code="privacy.purge.changed",
        params={"path": file, "table": target.table, "row": target.row, "column": target.column},
    )


def apply_target(
    conn: sqlite3.Connection, target: Target, file: str, deleted: set[tuple[str, Any]], fts: Fts | None
) -> None:
    """Redact or delete one row inside the caller's transaction; the full-text index kept in step.
    ``deleted`` holds the rows this transaction deleted (another target of such a row has nothing left
    to do); ``fts`` the full-text table over the target's table (:func:`fts_of`)."""
    if (target.table, target.row) in deleted:
        return
    got = read_value(conn, target.table, target.column, target.row)
    if got is None or not isinstance(got[1], str):
        raise changed(target, file)
    rowid, text = got
    if any(text[s.start : s.end] != s.text for s in target.spans):
        raise changed(target, file)
    if target.action == "delete" and target.column != "revision_history":
        if fts is not None and not fts.on_delete:
            _fts_command(conn, fts, rowid, _fts_values(conn, target.table, fts, rowid), delete=True)
        conn.execute(f"DELETE FROM {quote(target.table)} WHERE rowid = ?", (rowid,))
        deleted.add((target.table, target.row))
        return
    value = drop_revisions(text, target.spans) if target.action == "delete" else None
    if value is None:
        value = new_value(text, target.spans)
    manual = fts is not None and not fts.on_update and target.column in fts.columns
    if manual and fts is not None:
        _fts_command(conn, fts, rowid, _fts_values(conn, target.table, fts, rowid), delete=True)
    conn.execute(
        f"UPDATE {quote(target.table)} SET {quote(target.column)} = ? WHERE rowid = ?", (value, rowid)
    )
    if manual and fts is not None:
        _fts_command(conn, fts, rowid, _fts_values(conn, target.table, fts, rowid), delete=False)


def scrub_audit(conn: sqlite3.Connection, texts: Sequence[tuple[str, str]]) -> int:
    """Replace the purged texts in the audit trail's before/after states and notes (as the trail stores
    them: inside JSON strings) by their markers; returns the number of rows rewritten."""
    if not texts or not audit_table_exists(conn):
        return 0
    rows = 0
    for text, kind in texts:
        inner = js_stringify(text)[1:-1]
        found = conn.execute(
            f"SELECT id, before_json, after_json, note FROM {AUDIT_TABLE} WHERE instr(before_json, ?1) > 0 "
            "OR instr(after_json, ?1) > 0 OR instr(note, ?2) > 0 OR instr(before_json, ?2) > 0 "
            "OR instr(after_json, ?2) > 0",
            (inner, text),
        ).fetchall()
        for r in found:
            new = [
                None if v is None else str(v).replace(inner, marker(kind)).replace(text, marker(kind))
                for v in (r[1], r[2], r[3])
            ]
            conn.execute(
                f"UPDATE {AUDIT_TABLE} SET before_json = ?, after_json = ?, note = ? WHERE id = ?",
                (*new, r[0]),
            )
            rows += 1
    return rows


@dataclass
class FileOutcome:
    """What the purge did to one database file."""

    path: str
    role: str
    rows: int = 0
    audit_rows: int = 0
    wal_truncated: bool | None = None
    fts_secure_delete: bool | None = None
    free_space: str | None = None
    vacuum_s: float | None = None
    seconds: float = 0.0
    error: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "role": self.role,
            "rows": self.rows,
            "audit_rows": self.audit_rows,
            "wal_truncated": self.wal_truncated,
            "fts_secure_delete": self.fts_secure_delete,
            "free_space": self.free_space,
            "vacuum_s": self.vacuum_s,
            "seconds": round(self.seconds, 3),
            "error": self.error,
        }


def rewrite(
    conn: sqlite3.Connection,
    outcome: FileOutcome,
    targets: Sequence[Target],
    texts: Sequence[tuple[str, str]],
    *,
    audit_fn: Any = None,
    vacuum: bool = False,
    step: Callable[[], object] | None = None,
) -> None:
    """One file's purge on ``conn`` (writable, nobody else writing): one transaction, then the checkpoint
    that empties the ``-wal`` and, on request, ``VACUUM``. A failure rolls the file back and raises.
    ``step()`` is called after each row and once at the end."""
    started = time.monotonic()
    conn.execute("PRAGMA secure_delete=ON")
    fts = {t: fts_of(conn, t) for t in sorted({t.table for t in targets})}
    fts_names = [f.name for f in fts.values() if f is not None]
    conn.execute("BEGIN IMMEDIATE")
    try:
        outcome.fts_secure_delete = set_fts_secure_delete(conn, fts_names, True) if fts_names else None
        deleted: set[tuple[str, Any]] = set()
        for t in sorted(targets, key=lambda t: t.column == "revision_history"):
            apply_target(conn, t, outcome.path, deleted, fts[t.table])
            if step is not None:
                step()
        outcome.rows = len(targets)
        outcome.audit_rows = scrub_audit(conn, texts)
        if fts_names:
            set_fts_secure_delete(conn, fts_names, False)
        if audit_fn is not None:
            audit_fn(conn)
        conn.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise
    outcome.wal_truncated = checkpoint(conn)
    outcome.free_space = "vacuum" if vacuum else free_space(Path(outcome.path), texts)
    if vacuum or outcome.free_space == "vacuumed":
        t0 = time.monotonic()
        conn.execute("VACUUM")
        outcome.wal_truncated = checkpoint(conn)
        outcome.vacuum_s = round(time.monotonic() - t0, 3)
    outcome.seconds = time.monotonic() - started
    if step is not None:
        step()


#: The most bytes :func:`free_space` searches (file size times texts): about a second of searching.
SEARCH_BUDGET = 2 * 1024**3


def free_space(path: Path, texts: Sequence[tuple[str, str]]) -> str:
    """Whether the file, purged and checkpointed, still holds a purged text somewhere (an old copy an
    earlier edit left in the free space of a page, written without ``secure_delete``): ``vacuumed`` when
    it does (the caller then rebuilds it), ``clean`` when it does not, ``unchecked`` when the file is too
    large to search within :data:`SEARCH_BUDGET` (``VACUUM`` on request clears such copies)."""
    needles = [t.encode("utf-8") for t, _k in texts if t]
    try:
        size = path.stat().st_size
        if size * max(1, len(needles)) > SEARCH_BUDGET:
            return "unchecked"
        data = path.read_bytes()
    except OSError:
        return "unchecked"
    return "vacuumed" if any(n in data for n in needles) else "clean"


def checkpoint(conn: sqlite3.Connection) -> bool | None:
    """``wal_checkpoint(TRUNCATE)``: ``True`` when the ``-wal`` was emptied, ``None`` outside WAL mode."""
    mode = str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower()
    if mode != "wal":
        return None
    busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
    return int(busy) == 0
