"""Restoring a backup (:func:`restore_backup`): the checks that refuse it with nothing changed (the
backup, the live path, the agent at work), a look at the live file, then the way to replace it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path

from core import MAX_KNOWN_SCHEMA_VERSION, audit
from core.backups.activity import Watch, held_by_another_process, locked_error, recent_wal
from core.backups.listing import check_backup_file, not_regular, open_backup
from core.backups.names import LOCK_TIMEOUT_S, OBSERVE_S, WAL_RECENT_S
from core.backups.replace import (
    LiveState,
    RestoreResult,
    restore_in_place,
    restore_over_damaged,
)
from core.engine import sqlite3
from core.errors import ReadOnlyError, ValidationError_
from core.files import connect_file, file_kind, header_problem, quick_check, side_files


def _live_path(db_path: str | os.PathLike[str]) -> Path:
    """The live file's real path (a symbolic link is followed: the agent's SQLite follows it too)."""
    p = Path(db_path).expanduser().absolute()
    with contextlib.suppress(OSError, RuntimeError):
        if p.is_symlink():
            return p.resolve()
    return p


def _validate_backup(src: Path, db: Path) -> None:
    """Raise unless ``src`` is a regular, sound memory database this version understands."""
    kind = file_kind(src)
    if kind != "file":
        raise not_regular(src, kind)
    if os.path.lexists(db) and file_kind(db) == "file" and os.path.samefile(db, src):
        raise ValidationError_(
            "The backup and the database are the same file.",
            code="restore.same_file",
            params={"path": str(db)},
        )
    qc = check_backup_file(src)
    if qc != "ok":
        problem = qc.splitlines()[0].rstrip(".")  # a sentence of its own: the template adds the period
        raise ValidationError_(
            f"The backup {src.name} cannot be restored: {problem}. Nothing was changed.",
            code="restore.backup_bad",
            params={"backup": str(src), "problem": problem},
        )
    conn = open_backup(src)
    try:
        row = None
        with contextlib.suppress(sqlite3.Error):
            row = conn.execute("SELECT value FROM memory_meta WHERE key = 'schema_version'").fetchone()
    finally:
        conn.close()
    version = None
    with contextlib.suppress(TypeError, ValueError):
        version = int(row[0]) if row is not None else None
    if version is not None and version > MAX_KNOWN_SCHEMA_VERSION:
        raise ValidationError_(
            f"The backup {src.name} has schema version {version}, newer than {MAX_KNOWN_SCHEMA_VERSION}, "
            "which this version understands; it is not restored. Nothing was changed.",
            code="restore.backup_newer",
            params={"backup": str(src), "version": version, "known": MAX_KNOWN_SCHEMA_VERSION},
        )


def _inspect_live(db: Path, timeout_s: float) -> LiveState:
    """Sound, damaged (and how) or missing: judged by the header, then by ``quick_check`` on a read-only
    connection. The main file and its ``-wal`` are never written; :meth:`LiveState.undo_look` undoes
    what the look did to the ``-shm``."""
    kind = file_kind(db)
    if kind is None:
        return LiveState("missing", "No database file exists at this path.", side_files(db))
    if kind != "file":
        raise ValidationError_(
            f"{db} is a {kind}, not a database file: nothing can be restored there.",
            code="restore.live_not_regular",
            params={"path": str(db), "kind": kind},
        )
    found = header_problem(db)
    if found is not None and found.problem == "unreadable":
        raise ValidationError_(
            f"{db}: {found.detail} Nothing was changed.",
            code="restore.live_unreadable",
            params={"path": str(db), "detail": found.detail},
        )
    existed = side_files(db)
    if found is not None:
        return LiveState(found.problem, found.detail, existed)
    shm = Path(str(db) + "-shm")
    snapshot = shm.read_bytes() if file_kind(shm) == "file" else None
    state = LiveState(None, None, existed, snapshot)
    try:
        conn = connect_file(db, mode="ro", timeout_s=timeout_s)
        try:
            conn.execute(f"PRAGMA busy_timeout={int(timeout_s * 1000)}")
            result = quick_check(conn)
        finally:
            conn.close()
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc).lower() or "busy" in str(exc).lower():
            raise locked_error(db) from None
        state.problem, state.detail = "corrupt", f"The database cannot be read ({exc})."
        return state
    except sqlite3.DatabaseError as exc:
        state.problem, state.detail = "corrupt", f"The database is damaged ({exc})."
        return state
    if result != "ok":
        state.problem, state.detail = (
            "corrupt",
            f"The database is damaged (quick_check: {result.splitlines()[0]}).",
        )
    return state


def restore_backup(
    db_path: str | os.PathLike[str],
    backup_path: str | os.PathLike[str],
    *,
    agent_running_check: bool = True,
    wal_recent_s: float = WAL_RECENT_S,
    lock_timeout_s: float = LOCK_TIMEOUT_S,
    observe_s: float = OBSERVE_S,
    progress: Callable[[int, int], object] | None = None,
    actor: str | None = None,
) -> RestoreResult:
    """Replace the database at ``db_path`` with ``backup_path`` (see :mod:`core.backups`).


    Refuses, with nothing changed: while the database seems to be in use (:class:`AgentRunningError`);
    a backup that is missing, not a regular file, damaged, not a memory database or of a newer schema
    (:class:`ValidationError_` / :class:`NotFoundError`); a live path that is a directory or a special
    file. While it looks, for ``observe_s`` at least, the file and its ``-wal`` must not change: an agent
    that opens a connection for each write holds no lock between its writes (reason ``written``).
    ``agent_running_check=False`` skips the recent-``-wal`` test and that watch, and waits up to 5 s for
    the lock; a lock another process holds is always respected.
    """
    db = _live_path(db_path)
    src = Path(backup_path).expanduser().absolute()
    watch = Watch(db, observe_s if agent_running_check else 0.0)
    _validate_backup(src, db)
    if not os.access(_existing_parent(db), os.W_OK):
        raise ReadOnlyError(
            f"{db}: its directory cannot be written, so nothing can be restored there.",
            code="restore.dir_not_writable",
            params={"path": str(db)},
        )
    if agent_running_check:
        recent = recent_wal(db, wal_recent_s)
        if recent is not None:
            raise recent
    if held_by_another_process(db):
        raise locked_error(db)
    live = _inspect_live(db, lock_timeout_s)
    if agent_running_check:
        watch.check(wait=True)
    actor = actor or audit.default_actor()
    if live.problem is None:
        timeout = lock_timeout_s if agent_running_check else 5.0
        return restore_in_place(db, src, timeout, progress, actor, watch if agent_running_check else None)
    return restore_over_damaged(db, src, live, progress, actor, watch if agent_running_check else None)


def _existing_parent(p: Path) -> Path:
    """The nearest directory above ``p`` that exists (where a missing directory would be created)."""
    return next((parent for parent in p.parents if parent.exists()), Path(p.anchor or "."))
