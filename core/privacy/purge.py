"""The privacy purge: findings of the scan (:class:`~core.privacy.finding.PrivacyFinding`) removed for real.

:func:`plan` (:mod:`core.privacy.purge_plan`, read-only) says what will change: each row redacted (the span
becomes ``[redacted: <kind>]``) or deleted, every other copy of a purged text in the file
(:mod:`core.privacy.copies`), and every file that will be rewritten: the database, its ``-wal``
(checkpointed and truncated), each backup in ``backups/`` that holds the text (the agent's too: rewritten
in place, same name, still a valid database of the same page size and journal mode, never deleted), the
app's files derived from the database (deleted), and (``elsewhere``) the other files of the memory folder
and of the app's data folder that still hold the text and that no purge rewrites. :func:`purge` does it,
one transaction per file (all or nothing for each file; :mod:`core.privacy.rewrite`): the rows, the
full-text indexes (the 'delete' command with the old text where no trigger does it; the raw layer has no
UPDATE trigger), the audit trail's stored states (the purge itself is recorded with the kind and a
SHA-256 of the text, never the text), free pages (``secure_delete``), the ``-wal``; ``VACUUM`` on
request, or when old copies are found in a file's free space.

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
from core.backups.names import LOCK_TIMEOUT_S, OBSERVE_S, WAL_RECENT_S, AgentRunningError
from core.engine import sqlite3
from core.errors import MemoryError_, ValidationError_
from core.files import connect_file, open_in_this_process
from core.privacy.purge_plan import (
    MODES,
    NOT_UNDOABLE,
    UNREACHABLE,
    PlannedFile,
    PurgePlan,
    live_path,
    plan,
)
from core.privacy.rewrite import FileOutcome, Span, Target, quote, rewrite

PURGE_ACTION = "privacy.purge"
#: The audit trail's target type of a purged row, by layer (the types the trail's other edits use).
TARGET_TYPES = {
    "messages": "message",
    "actions": "action",
    "notes": "note",
    "facts": "fact",
    "skills": "skill",
    "skill_revisions": "skill",
    "calendar": "calendar_event",
    "tasks": "schedule",
}


class PurgeRefused(AgentRunningError):
    """The database is in use (the agent writes): nothing was purged. Params as
    :class:`~core.backups.names.AgentRunningError` (``path``, ``reason``, ``age_s``)."""

    default_code = "privacy.purge.agent_running"


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class PurgeResult:
    """What :func:`purge` did: one :class:`~core.privacy.rewrite.FileOutcome` per file (``error`` set
    for a file left as it was), the audit rows written, the app's derived files deleted
    (``derived_removed``), the seconds taken. ``ok`` when every file was rewritten."""

    db_path: str
    mode: str
    files: list[FileOutcome]
    audit_ids: list[int] = field(default_factory=list)
    derived_removed: list[str] = field(default_factory=list)
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
            "derived_removed": list(self.derived_removed),
            "seconds": round(self.seconds, 3),
        }


# -- the purge ----------------------------------------------------------------------------------------------


def _refuse_if_busy(
    live: Path, wal_recent_s: float, observe_s: float, lock_timeout_s: float
) -> sqlite3.Connection:
    """The live file locked for the purge, or :class:`PurgeRefused` while another program writes it."""
    if open_in_this_process(live):
        raise ValidationError_(
            f"The database {live} is open in this program: close its connections first (the purge locks the "
            "file for itself). Nothing was purged.",
            code="privacy.purge.open_here",
            params={"path": str(live)},
        )
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
                "layer": t.layer,
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
                target_type=TARGET_TYPES.get(t.layer, t.layer),
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
    in its outcome's ``error``; the others are purged. ``progress(done, total)`` counts the rows of the
    plan and one step for each file's checkpoint (and rebuild); it is called from the calling thread.
    ``vacuum`` rebuilds each rewritten file afterwards (its time is in ``vacuum_s``)."""
    started = time.monotonic()
    live = live_path(db_path)
    if str(live) != plan_.db_path:
        raise ValidationError_(
            f"The plan was made for {plan_.db_path}, not {live}.",
            code="privacy.purge.other_database",
            params={"path": str(live), "planned": plan_.db_path},
        )
    conn = _refuse_if_busy(live, wal_recent_s, observe_s, lock_timeout_s)
    result = PurgeResult(str(live), plan_.mode, [])
    backups = [Path(f.path) for f in plan_.files if f.role == "backup"]
    step = _Steps(progress, len(plan_.targets) + 1 + len(backups))
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
                step=step,
            )
        except (MemoryError_, sqlite3.Error, OSError) as exc:
            outcome.error = _error(exc)
            result.audit_ids.clear()
    finally:
        conn.close()
    for b in backups:
        result.files.append(_purge_backup(b, plan_, vacuum, step))
    result.derived_removed = _remove_derived([f.path for f in plan_.files if f.role == "derived"])
    step.finish()
    result.seconds = time.monotonic() - started
    return result


class _Steps:
    """``progress(done, total)`` called as the rows and files of a purge are done."""

    def __init__(self, progress: Callable[[int, int], object] | None, total: int):
        self.progress, self.total, self.done = progress, total, 0

    def __call__(self) -> None:
        self.done = min(self.total, self.done + 1)
        if self.progress is not None:
            self.progress(self.done, self.total)

    def finish(self) -> None:
        if self.progress is not None:
            self.progress(self.total, self.total)


def _remove_derived(paths: Sequence[str]) -> list[str]:
    """Delete the app's derived files of the database (a saved replay): recomputed when next needed."""
    removed: list[str] = []
    for p in paths:
        try:
            os.unlink(p)
        except FileNotFoundError:
            continue
        except OSError:
            continue  # left: the result does not name it as removed
        removed.append(p)
    return removed


def _purge_backup(path: Path, plan_: PurgePlan, vacuum: bool, step: _Steps) -> FileOutcome:
    outcome = FileOutcome(str(path), "backup")
    try:
        if held_by_another_process(path):
            raise _refused(None, "locked", path)
        conn = connect_file(path, mode="rw", timeout_s=1.0)
        try:
            conn.execute("PRAGMA busy_timeout=1000")
            rewrite(conn, outcome, plan_.targets_of(str(path)), plan_.texts, vacuum=vacuum, step=step)
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
