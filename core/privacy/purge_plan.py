"""The plan of a privacy purge (:func:`plan`): which rows change how, and every file the purge rewrites or
leaves holding the text. Reads only: the database through a read-only connection, a backup through an
``immutable=1`` one. :mod:`core.privacy.purge` carries a plan out."""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core import audit
from core.backups.listing import list_backups, open_backup
from core.backups.names import backup_owner
from core.engine import sqlite3
from core.errors import MemoryError_, Notice, ValidationError_
from core.files import connect_file, file_kind
from core.paths import backups_dir, real_path
from core.privacy.copies import other_copies
from core.privacy.finding import PrivacyFinding
from core.privacy.rewrite import Span, Target, read_value

MODES = ("redact", "delete")

#: Said before anything is done (the command line prints it with the plan; the app shows it).
NOT_UNDOABLE = (
    "A purge cannot be undone: the text is removed from the database, its -wal, free pages, the full-text "
    "index, the audit trail and the backups listed, and no backup is taken first (it would keep the text)."
)

#: What a purge cannot reach (said with every plan).
UNREACHABLE = (
    "copies outside the memory folder (exports, copies a person made, other machines)",
    "file system or backup-tool snapshots of the memory folder",
    "disk blocks a file system keeps after a file is rewritten",
)


@dataclass(frozen=True)
class PlannedFile:
    """A file the purge rewrites. ``role``: ``live`` (the database), ``wal`` (its ``-wal``, checkpointed
    and truncated), ``backup`` (``owner`` ``agent`` or ``philont-desktop``), ``derived`` (a file the app keeps
    derived from the database's text, :data:`DERIVED`: deleted, recomputed when next needed); ``rows`` the rows changed in it, ``audit_rows`` the audit rows that hold the text."""

    path: str
    role: str
    owner: str | None = None
    rows: int = 0
    audit_rows: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "role": self.role,
            "owner": self.owner,
            "rows": self.rows,
            "auditRows": self.audit_rows,
        }


@dataclass(frozen=True)
class PurgePlan:
    """What :func:`purge` will do. ``targets`` are the rows (per file); ``files`` every file rewritten;
    ``skipped`` the findings left out (:class:`~core.errors.Notice`: ``privacy.purge.stale``, the row or
    span no longer there; ``privacy.purge.outside``, a file that is neither the database nor in its
    ``backups/``); ``elsewhere`` other files that hold a purged text and are not rewritten (a damaged file
    a restore moved aside, an export kept in the memory folder; without ``include_backups`` the backups
    that hold it); ``unreachable`` what no purge reaches. The purged texts are held privately (to find
    them again in backups and the audit trail) and never appear in :meth:`to_json`."""

    db_path: str
    mode: str
    include_backups: bool
    findings: tuple[PrivacyFinding, ...]
    targets: tuple[Target, ...]
    files: tuple[PlannedFile, ...]
    skipped: tuple[Notice, ...] = ()
    elsewhere: tuple[str, ...] = ()
    unsearched: tuple[dict[str, Any], ...] = ()
    warning: str = NOT_UNDOABLE
    unreachable: tuple[str, ...] = UNREACHABLE
    texts: tuple[tuple[str, str], ...] = field(default=(), repr=False)

    def targets_of(self, path: str | None) -> list[Target]:
        return [t for t in self.targets if t.file == path]

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.db_path,
            "mode": self.mode,
            "include_backups": self.include_backups,
            "warning": self.warning,
            "findings": len(self.findings),
            "rows": [_target_json(t) for t in self.targets],
            "files": [f.to_json() for f in self.files],
            "skipped": [n.to_json() for n in self.skipped],
            "elsewhere": list(self.elsewhere),
            "unsearched": [dict(u) for u in self.unsearched],
            "unreachable": list(self.unreachable),
        }


def _target_json(t: Target) -> dict[str, Any]:
    return {
        "file": t.file,
        "layer": t.layer,
        "table": t.table,
        "row": t.row,
        "column": t.column,
        "action": t.action,
        "kinds": sorted({s.kind for s in t.spans}),
        "findings": [s.finding for s in t.spans if s.finding],
    }


# -- the plan -----------------------------------------------------------------------------------------------


def live_path(db_path: str | os.PathLike[str]) -> Path:
    """The database's real path (symbolic links followed, as the agent's SQLite follows them)."""
    return real_path(db_path)


_STALE = {
    "table_unreadable": "its table cannot be read",
    "row_gone": "the row or its text is no longer there",
    "span_outside": "the span is outside the stored text",
}


def _stale(f: PrivacyFinding, why: str, detail: str = "") -> Notice:
    """``privacy.purge.stale`` ``{finding, table, row, column, why, detail}``; ``why`` is a key of
    :data:`_STALE`."""
    text = _STALE[why] + (f" ({detail})" if detail else "")
    return Notice(
        "privacy.purge.stale",
        f"Finding {f.id} is left out: {text}.",
        {"finding": f.id, "table": f.table, "row": f.row, "column": f.column, "why": why, "detail": detail},
    )


def _file_key(f: PrivacyFinding, live: Path, folder: Path) -> str | Notice | None:
    """``None`` for the live file, the backup's path, or a notice for a file out of reach."""
    if f.file is None:
        return None
    p = real_path(f.file)
    if p == live:
        return None
    if p.parent == folder and backup_owner(p.name) is not None:
        return str(p)
    return Notice(
        "privacy.purge.outside",
        f"Finding {f.id} is in {p}, which is neither the database nor one of its backups; it is left out.",
        {"finding": f.id, "path": str(p)},
    )


def _by_file(
    findings: Sequence[PrivacyFinding], live: Path
) -> tuple[dict[str | None, list[PrivacyFinding]], list[Notice]]:
    """The findings by file (``None``: the database), and notices for those out of reach."""
    folder = backups_dir(live)
    by_file: dict[str | None, list[PrivacyFinding]] = {}
    skipped: list[Notice] = []
    for f in findings:
        key = _file_key(f, live, folder)
        if isinstance(key, Notice):
            skipped.append(key)
        else:
            by_file.setdefault(key, []).append(f)
    return by_file, skipped


def _targets_from_findings(
    conn: sqlite3.Connection, file: str | None, findings: Sequence[PrivacyFinding], mode: str
) -> tuple[list[Target], list[Notice]]:
    """The findings of one file grouped by row and checked against what the file holds now."""
    groups: dict[tuple[str, str, Any], list[PrivacyFinding]] = {}
    for f in findings:
        groups.setdefault((f.table, f.column, f.row), []).append(f)
    targets: list[Target] = []
    skipped: list[Notice] = []
    for (table, column, row), fs in groups.items():
        try:
            got = read_value(conn, table, column, row)
        except sqlite3.Error as exc:
            skipped.extend(_stale(f, "table_unreadable", str(exc)) for f in fs)
            continue
        if got is None or not isinstance(got[1], str):
            skipped.extend(_stale(f, "row_gone") for f in fs)
            continue
        text = got[1]
        spans: list[Span] = []
        for f in fs:
            if not 0 <= f.start < f.end <= len(text):
                skipped.append(_stale(f, "span_outside"))
                continue
            spans.append(Span(f.start, f.end, f.kind, text[f.start : f.end], f.id))
        if spans:
            targets.append(Target(file, fs[0].layer, table, column, row, mode, tuple(spans)))
    return targets, skipped


def _same_rows(conn: sqlite3.Connection, file: str, live_targets: Sequence[Target]) -> list[Target]:
    """In a backup: the rows (by the same key) that still hold a text purged from the live file."""
    out: list[Target] = []
    for t in live_targets:
        try:
            got = read_value(conn, t.table, t.column, t.row)
        except sqlite3.Error:
            continue
        if got is None or not isinstance(got[1], str):
            continue
        text = got[1]
        spans: list[Span] = []
        for s in t.spans:
            at = text.find(s.text)
            while at >= 0:
                spans.append(Span(at, at + len(s.text), s.kind, s.text))
                at = text.find(s.text, at + len(s.text))
        if spans:
            out.append(Target(file, t.layer, t.table, t.column, t.row, t.action, tuple(spans)))
    return out


def _audit_rows(conn: sqlite3.Connection, texts: Sequence[tuple[str, str]]) -> int:
    from core.jsutil import js_stringify

    if not texts or not audit.audit_table_exists(conn):
        return 0
    ids: set[int] = set()
    for text, _kind in texts:
        inner = js_stringify(text)[1:-1]
        for r in conn.execute(
            f"SELECT id FROM {audit.AUDIT_TABLE} WHERE instr(before_json, ?1) > 0 OR instr(after_json, ?1) > 0 "
            "OR instr(note, ?2) > 0",
            (inner, text),
        ):
            ids.add(int(r[0]))
    return len(ids)


def _texts(targets: Sequence[Target]) -> tuple[tuple[str, str], ...]:
    seen: dict[str, str] = {}
    for t in targets:
        for s in t.spans:
            seen.setdefault(s.text, s.kind)
    return tuple(sorted(seen.items(), key=lambda kv: (-len(kv[0]), kv[0])))


def _open_read(path: Path, live: bool) -> sqlite3.Connection:
    if live:
        conn = connect_file(path, mode="ro")
        conn.execute("PRAGMA query_only=1")
        return conn
    return open_backup(path)


def _finding_targets(
    path: Path, key: str | None, findings: Sequence[PrivacyFinding], mode: str, live_targets: Sequence[Target]
) -> tuple[list[Target], list[Notice]]:
    """The rows of one file its findings name (in a backup also the rows the database's targets name)."""
    conn = _open_read(path, key is None)
    try:
        targets, skipped = _targets_from_findings(conn, key, findings, mode)
        if key is not None:
            have = {(t.table, t.column, t.row) for t in targets}
            targets += [
                t for t in _same_rows(conn, key, live_targets) if (t.table, t.column, t.row) not in have
            ]
        return targets, skipped
    finally:
        conn.close()


def _merge(targets: Sequence[Target], copies: Sequence[Target]) -> list[Target]:
    """``targets`` with the other copies of their texts: added to the target of the same row and column
    (where they do not overlap its spans), else as targets of their own."""
    by_place = {(t.table, t.column, t.row): t for t in targets}
    out = list(targets)
    for c in copies:
        t = by_place.get((c.table, c.column, c.row))
        if t is None:
            out.append(c)
            continue
        extra = tuple(s for s in c.spans if all(s.end <= x.start or s.start >= x.end for x in t.spans))
        if extra:
            merged = Target(t.file, t.layer, t.table, t.column, t.row, t.action, t.spans + extra)
            out[out.index(t)] = merged
            by_place[(t.table, t.column, t.row)] = merged
    return out


def _complete(
    path: Path, key: str | None, targets: Sequence[Target], texts: tuple[tuple[str, str], ...]
) -> tuple[list[Target], int, list[dict[str, Any]]]:
    """One file's targets with every other copy of the texts, its audit rows holding one, and the tables
    not searched (:func:`core.privacy.copies.other_copies`)."""
    conn = _open_read(path, key is None)
    try:
        copies, unsearched = other_copies(conn, key, texts)
        return _merge(targets, copies), _audit_rows(conn, texts), unsearched
    finally:
        conn.close()


def _unreadable(path: Path, exc: BaseException) -> Notice:
    """``privacy.purge.backup_unreadable`` ``{path, error}``: a backup the plan leaves as it is."""
    return Notice(
        "privacy.purge.backup_unreadable",
        f"The backup {path} cannot be read ({exc}); it is left as it is.",
        {"path": str(path), "error": str(exc)},
    )


def _checked(db_path: str | os.PathLike[str], mode: str) -> Path:
    """The database's real path, once the mode is known and a file is there."""
    if mode not in MODES:
        raise ValidationError_(
            f"Unknown purge mode {mode!r}; the modes are redact and delete.",
            code="privacy.purge.mode",
            params={"mode": mode},
        )
    live = live_path(db_path)
    if file_kind(live) != "file":
        raise ValidationError_(
            f"{live} is not a database file; nothing can be purged.",
            code="privacy.purge.no_database",
            params={"path": str(live)},
        )
    return live


def plan(
    db_path: str | os.PathLike[str],
    findings: Sequence[PrivacyFinding],
    mode: str = "redact",
    *,
    include_backups: bool = False,
    app_dir: str | os.PathLike[str] | None = None,
) -> PurgePlan:
    """What a purge of ``findings`` would do; reads only. ``mode`` ``redact`` (each span becomes
    ``[redacted: <kind>]``) or ``delete`` (each row holding one is deleted; a skill's revision history
    loses the revisions that hold one). Findings in backups are purged there; ``include_backups`` also
    rewrites every backup that holds a text purged from the database (same row). The plan also lists
    (``elsewhere``) the other files of the memory folder, of ``backups/`` and of the app's data folder
    (``app_dir``, default :func:`app_data_dir`) that hold a purged text and that no purge rewrites."""
    live = _checked(db_path, mode)
    app_dir = None if app_dir is None else Path(app_dir)
    by_file, skipped = _by_file(findings, live)
    live_found, live_skipped = _finding_targets(live, None, by_file.pop(None, []), mode, [])
    skipped += live_skipped
    per_file: list[tuple[Path, str | None, list[Target]]] = [(live, None, live_found)]
    for p in sorted(
        (p for p in list_backups(live) if include_backups or str(p) in by_file), key=lambda p: p.name
    ):
        try:
            found, bs = _finding_targets(p, str(p), by_file.get(str(p), []), mode, live_found)
        except (sqlite3.Error, MemoryError_, OSError) as exc:
            skipped.append(_unreadable(p, exc))
            continue
        skipped += bs
        per_file.append((p, str(p), found))
    texts_all = _texts([t for _p, _k, ts in per_file for t in ts])
    targets: list[Target] = []
    files: list[PlannedFile] = []
    unsearched: list[dict[str, Any]] = []
    for p, key, found in per_file:
        try:
            done, n_audit, not_searched = _complete(p, key, found, texts_all)
        except (sqlite3.Error, MemoryError_, OSError) as exc:
            if key is None:
                raise
            skipped.append(_unreadable(p, exc))
            continue
        unsearched += not_searched
        if key is None or done or n_audit:
            targets += done
            role, owner = ("live", None) if key is None else ("backup", backup_owner(p.name))
            files.append(PlannedFile(str(p), role, owner, len(done), n_audit))
    if os.path.exists(str(live) + "-wal"):
        files.insert(1, PlannedFile(str(live) + "-wal", "wal"))
    files += [PlannedFile(p, "derived", "philont-desktop") for p in derived_files(live)]
    rewritten = [f.path for f in files if f.role in ("backup", "derived")] + [
        str(p) for p in list_backups(live)
    ]
    elsewhere = _elsewhere(
        live, texts_all, rewritten if include_backups else [f.path for f in files], app_dir
    )
    return PurgePlan(
        str(live), mode, include_backups, tuple(findings), tuple(targets), tuple(files), tuple(skipped),
        elsewhere=tuple(elsewhere), unsearched=tuple(unsearched), texts=texts_all,
    )  # fmt: skip


# -- other files -------------------------------------------------------------------------------------------

#: Files larger than this are not searched for left-over text (the databases are rewritten, not searched).
MAX_SEARCHED_BYTES = 256 * 1024 * 1024


def app_data_dir() -> Path:
    """The app's own data folder (where the review marks live; :func:`core.changes.marks.default_marks_path`)."""
    from core.changes.marks import default_marks_path

    return default_marks_path().parent


Derived = Callable[[Path], Sequence[Path]]

#: What a purge deletes besides rewriting the databases: for a database, the files the app keeps outside it
#: that are derived from its text and made again when next needed (a saved replay, a kept report). Each
#: entry is a function of the database's real path that names them, or ``"module:function"`` of one,
#: imported when a plan is made (so that the module that keeps the files need not be imported first, as
#: the tab registry names its tabs); the agent's files are never named. :func:`register_derived` adds one.
DERIVED: list[Derived | str] = [
    "core.replay.store:saved_files",  # saved replays (the Recall page)
    "core.health.sidedata:saved_files",  # the doctor's last report
]


def register_derived(fn: Derived | str) -> Derived | str:
    """Add ``fn`` (a function, or ``"module:function"``) to :data:`DERIVED` once; returns it."""
    if fn not in DERIVED:
        DERIVED.append(fn)
    return fn


def _resolve(entry: Derived | str) -> Derived:
    if callable(entry):
        return entry
    module, _, name = entry.partition(":")
    fn: Derived = getattr(importlib.import_module(module), name)
    return fn


def derived_files(live: Path) -> list[str]:
    """The regular files :data:`DERIVED` names for the database ``live``."""
    out: list[str] = []
    for entry in DERIVED:
        out += [str(p) for p in _resolve(entry)(live) if file_kind(p) == "file" and str(p) not in out]
    return out


def _files_in(folder: Path, depth: int) -> list[Path]:
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return []
    out: list[Path] = []
    for p in entries:
        kind = file_kind(p)
        if kind == "file":
            out.append(p)
        elif kind == "directory" and depth > 0 and not p.is_symlink():
            out += _files_in(p, depth - 1)
    return out


def holding(
    texts: Sequence[tuple[str, str]], folders: Sequence[tuple[Path, int]], skip: set[str]
) -> list[str]:
    """Regular files in ``folders`` (each with how many levels of folders below it are looked in too) that
    hold one of ``texts`` as UTF-8 bytes, other than those in ``skip``: files a purge does not rewrite (a
    damaged file a restore moved aside, an export saved there, a file set aside as ``.bad-…``)."""
    needles = [t.encode("utf-8") for t, _k in texts if t]
    found: list[str] = []
    for folder, depth in folders:
        for p in _files_in(folder, depth):
            if str(p) in skip or str(p) in found:
                continue
            try:
                if p.stat().st_size > MAX_SEARCHED_BYTES:
                    continue
                data = p.read_bytes()
            except OSError:
                continue
            if any(n in data for n in needles):
                found.append(str(p))
    return found


def _elsewhere(
    live: Path, texts: Sequence[tuple[str, str]], rewritten: Sequence[str], app_dir: Path | None
) -> list[str]:
    skip = {*rewritten, str(live), str(live) + "-wal", str(live) + "-shm"}
    app = app_dir if app_dir is not None else app_data_dir()
    return holding(texts, [(live.parent, 0), (backups_dir(live), 0), (app, 2)], skip)
