"""The privacy purge: findings of the scan (:class:`~core.privacy.finding.PrivacyFinding`) removed for real.

:func:`plan` reads (read-only) and says what will change: each row redacted (the span becomes
``[redacted: <kind>]``) or deleted, and every file that will be rewritten: the database, its ``-wal``
(checkpointed and truncated), each backup in ``backups/`` that holds the text (the agent's too: rewritten
in place, same name, still a valid database of the same page size and journal mode, never deleted), and
(``elsewhere``) the other files of the memory folder and of the app's data folder that still hold the
text and that no purge rewrites. :func:`purge` does it, one transaction per file
(all or nothing for each file): the rows, the full-text indexes (the 'delete' command with the old text
where no trigger does it; the raw layer has no UPDATE trigger), the audit trail's stored states (the
purge itself is recorded with the kind and a SHA-256 of the text, never the text), free pages
(``secure_delete``), the ``-wal``; ``VACUUM`` on request.

**A purge cannot be undone**, and no backup of the database is taken first: a backup would keep the very
text the purge removes. It is refused while the agent writes (:class:`PurgeRefused`, code
``privacy.purge.agent_running``), as a restore is.

What it cannot reach: copies outside the memory folder (exports, files a person copied, other
machines), snapshots of the file system or of a backup tool, and blocks of the disk a file system keeps
after a file shrinks or is replaced.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core import audit
from core.backups.activity import Watch, held_by_another_process, lock_exclusive, recent_wal
from core.backups.listing import list_backups, open_backup
from core.backups.names import LOCK_TIMEOUT_S, OBSERVE_S, WAL_RECENT_S, AgentRunningError, backup_owner
from core.engine import sqlite3
from core.errors import MemoryError_, Notice, ValidationError_
from core.files import connect_file, file_kind
from core.paths import backups_dir, real_path
from core.privacy.finding import PrivacyFinding
from core.privacy.rewrite import FileOutcome, Span, Target, quote, read_value, rewrite

MODES = ("redact", "delete")
PURGE_ACTION = "privacy.purge"

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


class PurgeRefused(AgentRunningError):
    """The database is in use (the agent writes): nothing was purged. Params as
    :class:`~core.backups.names.AgentRunningError` (``path``, ``reason``, ``age_s``)."""

    default_code = "privacy.purge.agent_running"


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class PlannedFile:
    """A file the purge rewrites. ``role``: ``live`` (the database), ``wal`` (its ``-wal``, checkpointed
    and truncated), ``backup`` (``owner`` ``agent`` or ``philont-desktop``); ``rows`` the rows changed in it, ``audit_rows`` the audit rows that hold the text."""

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


@dataclass
class PurgeResult:
    """What :func:`purge` did: one :class:`~core.privacy.rewrite.FileOutcome` per file (``error`` set
    for a file left as it was), the audit rows written, the seconds taken. ``ok`` when every file was
    rewritten."""

    db_path: str
    mode: str
    files: list[FileOutcome]
    audit_ids: list[int] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return all(f.error is None for f in self.files)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.db_path,
            "mode": self.mode,
            "ok": self.ok,
            "files": [f.to_json() for f in self.files],
            "audit_ids": list(self.audit_ids),
            "seconds": round(self.seconds, 3),
        }


# -- the plan -----------------------------------------------------------------------------------------------


def _live(db_path: str | os.PathLike[str]) -> Path:
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


def _plan_file(
    path: Path, key: str | None, findings: Sequence[PrivacyFinding], mode: str, live_targets: Sequence[Target]
) -> tuple[list[Target], list[Notice], int, tuple[tuple[str, str], ...]]:
    conn = _open_read(path, key is None)
    try:
        targets, skipped = _targets_from_findings(conn, key, findings, mode)
        if key is not None:
            have = {(t.table, t.column, t.row) for t in targets}
            targets += [
                t for t in _same_rows(conn, key, live_targets) if (t.table, t.column, t.row) not in have
            ]
        texts = _texts([*live_targets, *targets])
        return targets, skipped, _audit_rows(conn, texts), texts
    finally:
        conn.close()


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
    if mode not in MODES:
        raise ValidationError_(
            f"Unknown purge mode {mode!r}; the modes are redact and delete.",
            code="privacy.purge.mode",
            params={"mode": mode},
        )
    live = _live(db_path)
    app_dir = None if app_dir is None else Path(app_dir)
    if file_kind(live) != "file":
        raise ValidationError_(
            f"{live} is not a database file; nothing can be purged.",
            code="privacy.purge.no_database",
            params={"path": str(live)},
        )
    by_file, skipped = _by_file(findings, live)
    live_targets, live_skipped, live_audit, texts = _plan_file(live, None, by_file.pop(None, []), mode, [])
    skipped += live_skipped
    targets = list(live_targets)
    files = [PlannedFile(str(live), "live", None, len(live_targets), live_audit)]
    all_texts = dict(texts)
    backups = [p for p in list_backups(live) if include_backups or str(p) in by_file]
    for p in sorted(backups, key=lambda p: p.name):
        bt, bs, b_audit, b_texts = _plan_file(p, str(p), by_file.get(str(p), []), mode, live_targets)
        skipped += bs
        if bt or b_audit:
            targets += bt
            all_texts.update(dict(b_texts))
            files.append(PlannedFile(str(p), "backup", backup_owner(p.name), len(bt), b_audit))
    if os.path.exists(str(live) + "-wal"):
        files.insert(1, PlannedFile(str(live) + "-wal", "wal"))
    texts_all = tuple(sorted(all_texts.items(), key=lambda kv: (-len(kv[0]), kv[0])))
    rewritten = [f.path for f in files if f.role == "backup"] + [str(p) for p in list_backups(live)]
    elsewhere = _elsewhere(
        live, texts_all, rewritten if include_backups else [f.path for f in files], app_dir
    )
    return PurgePlan(
        str(live), mode, include_backups, tuple(findings), tuple(targets), tuple(files), tuple(skipped),
        elsewhere=tuple(elsewhere), texts=texts_all,
    )  # fmt: skip


# -- other files -------------------------------------------------------------------------------------------

#: Files larger than this are not searched for left-over text (the databases are rewritten, not searched).
MAX_SEARCHED_BYTES = 256 * 1024 * 1024


def app_data_dir() -> Path:
    """The app's own data folder (where the review marks live; :func:`core.changes.marks.default_marks_path`)."""
    from core.changes.marks import default_marks_path

    return default_marks_path().parent


def holding(texts: Sequence[tuple[str, str]], folders: Sequence[Path], skip: set[str]) -> list[str]:
    """Regular files in ``folders`` (not below them; ``backups/`` is passed on its own) that hold one of
    ``texts`` as UTF-8 bytes, other than those in ``skip``: files a purge does not rewrite (a damaged file
    a restore moved aside, an export saved there, a file set aside as ``.bad-…``)."""
    needles = [t.encode("utf-8") for t, _k in texts if t]
    found: list[str] = []
    for folder in folders:
        try:
            entries = sorted(folder.iterdir())
        except OSError:
            continue
        for p in entries:
            if str(p) in skip or file_kind(p) != "file":
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
    folders = [live.parent, backups_dir(live), app_dir if app_dir is not None else app_data_dir()]
    return holding(texts, folders, skip)


# -- the purge ----------------------------------------------------------------------------------------------


def _refuse_if_busy(
    live: Path, wal_recent_s: float, observe_s: float, lock_timeout_s: float
) -> sqlite3.Connection:
    """The live file locked for the purge, or :class:`PurgeRefused` while another program writes it."""
    watch = Watch(live, observe_s)
    recent = recent_wal(live, wal_recent_s)
    if recent is not None:
        raise _refused(recent, "wal_recent")
    if held_by_another_process(live):
        raise _refused(None, "locked", live)
    try:
        watch.check(wait=True)
    except AgentRunningError as exc:
        raise _refused(exc, "written") from None
    try:
        return lock_exclusive(live, lock_timeout_s)
    except AgentRunningError as exc:
        raise _refused(exc, "locked") from None


def _refused(exc: AgentRunningError | None, reason: str, path: Path | None = None) -> PurgeRefused:
    params = dict(exc.params) if exc is not None else {"path": str(path), "reason": reason}
    where = params.get("path")
    why = {
        "wal_recent": f"its -wal file was written {params.get('age_s')} s ago",
        "locked": "another program holds a lock on it",
        "written": "it was written while the purge watched it",
    }.get(str(params.get("reason")), "it is in use")
    return PurgeRefused(
        f"The database {where} seems to be in use (probably by the agent): {why}. Stop the agent, wait a few "
        "seconds and try again. Nothing was purged.",
        params=params,
    )


def _record(plan_: PurgePlan, targets: Sequence[Target], actor: str, ids: list[int]) -> Callable[[Any], None]:
    """The audit rows of the purge, one per row: the kinds and SHA-256 of the purged texts, never them."""
    backups = [f.path for f in plan_.files if f.role == "backup"]

    def write(conn: Any) -> None:
        for t in targets:
            before = {
                "column": t.column,
                "purged": [
                    {"finding": s.finding, "kind": s.kind, "sha256": sha256(s.text), "chars": len(s.text)}
                    for s in t.spans
                ],
            }
            after = {
                "mode": t.action,
                "file": None if t.file is None else Path(t.file).name,
                "backups": [Path(b).name for b in backups],
            }
            entry = audit.record(
                conn,
                actor=actor,
                action=PURGE_ACTION,
                target_type=t.layer,
                target_id=t.row,
                before=before,
                after=after,
                note="privacy purge: not undoable",
            )
            ids.append(entry.id)

    return write


def _error(exc: BaseException) -> dict[str, Any]:
    if isinstance(exc, MemoryError_):
        return {"code": exc.code, "message": exc.message, "params": dict(exc.params)}
    return {"code": "privacy.purge.failed", "message": str(exc), "params": {"error": str(exc)}}


def purge(
    db_path: str | os.PathLike[str],
    plan_: PurgePlan,
    *,
    progress: Callable[[int, int], object] | None = None,
    vacuum: bool = False,
    actor: str | None = None,
    wal_recent_s: float = WAL_RECENT_S,
    observe_s: float = OBSERVE_S,
    lock_timeout_s: float = LOCK_TIMEOUT_S,
) -> PurgeResult:
    """Carry out ``plan_`` (from :func:`plan` on the same ``db_path``). **Not undoable.**

    Refused with nothing changed while another program writes the database (:class:`PurgeRefused`).
    Each file is rewritten in one transaction: a file that fails (a row changed since the plan,
    ``privacy.purge.changed``; a backup that cannot be written) is left exactly as it was and reported
    in its outcome's ``error``; the others are purged. ``progress(done, total)`` counts files.
    ``vacuum`` rebuilds each rewritten file afterwards (its time is in ``vacuum_s``)."""
    started = time.monotonic()
    live = _live(db_path)
    if str(live) != plan_.db_path:
        raise ValidationError_(
            f"The plan was made for {plan_.db_path}, not {live}.",
            code="privacy.purge.other_database",
            params={"path": str(live), "planned": plan_.db_path},
        )
    conn = _refuse_if_busy(live, wal_recent_s, observe_s, lock_timeout_s)
    result = PurgeResult(str(live), plan_.mode, [])
    dbs = [f for f in plan_.files if f.role in ("live", "backup")]
    total = len(dbs) + 1
    actor = actor or audit.default_actor()
    try:
        outcome = FileOutcome(str(live), "live")
        result.files.append(outcome)
        try:
            rewrite(
                conn,
                outcome,
                plan_.targets_of(None),
                plan_.texts,
                audit_fn=_record(plan_, plan_.targets, actor, result.audit_ids),
                vacuum=vacuum,
            )
        except (MemoryError_, sqlite3.Error, OSError) as exc:
            outcome.error = _error(exc)
            result.audit_ids.clear()
    finally:
        conn.close()
    if progress is not None:
        progress(1, total)
    for i, f in enumerate(x for x in dbs if x.role == "backup"):
        result.files.append(_purge_backup(Path(f.path), plan_, vacuum))
        if progress is not None:
            progress(i + 2, total)
    if progress is not None:
        progress(total, total)
    result.seconds = time.monotonic() - started
    return result


def _purge_backup(path: Path, plan_: PurgePlan, vacuum: bool) -> FileOutcome:
    outcome = FileOutcome(str(path), "backup")
    try:
        if held_by_another_process(path):
            raise _refused(None, "locked", path)
        conn = connect_file(path, mode="rw", timeout_s=1.0)
        try:
            conn.execute("PRAGMA busy_timeout=1000")
            rewrite(conn, outcome, plan_.targets_of(str(path)), plan_.texts, vacuum=vacuum)
        finally:
            conn.close()
    except (MemoryError_, sqlite3.Error, OSError) as exc:
        outcome.error = _error(exc)
    return outcome


__all__ = [
    "MODES",
    "NOT_UNDOABLE",
    "PURGE_ACTION",
    "UNREACHABLE",
    "PlannedFile",
    "PurgePlan",
    "PurgeRefused",
    "PurgeResult",
    "Span",
    "Target",
    "plan",
    "purge",
    "quote",
    "sha256",
]
