"""Backups of a memory database: what ``backups/`` holds, and restoring one into the live file.

Looking never writes into ``backups/``. A backup the reference agent wrote is a copy of a WAL database
(its header says WAL); opening such a file even read-only makes SQLite create ``-wal`` and ``-shm``
files beside it. The checks here therefore open backups with ``immutable=1`` (a backup never changes),
and :func:`browse_copy_needed` tells the app when a backup must be copied elsewhere before it can be
browsed with ordinary read-only connections.

Restoring (:func:`restore_backup`) is refused while the agent seems to be running:

* another connection has the database open: a connection in exclusive locking mode cannot take the
  lock (in WAL mode every open connection holds a shared lock on the file, even when idle), or
* the ``-wal`` file was modified within the last few seconds (something wrote just now).

Both are conservative: a false "running" only asks the person to stop the agent (or wait a moment)
and try again. The app must close its own connections first. The restore itself holds the exclusive
lock from the check to the end, so the agent cannot start writing in between; it first backs up the
current file to ``backups/`` (never rotating older backups away), then copies the backup into the live
path with SQLite's online backup API (never a file copy over an open database), keeps the file in WAL
mode, checks the result with ``quick_check`` and makes the files 0600.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

from core import SCHEMA_VERSION
from core.db import BACKUP_NAME_RE, SQLITE_MAGIC, check_file_header, copy_to_backup, list_backups
from core.engine import sqlite3
from core.errors import DatabaseOpenError, MemoryError_, NotFoundError, ValidationError_
from core.jsutil import now_ms
from core.paths import backups_dir, chmod_private, ensure_private_dir
from core.schema import CORE_TABLES

LOCK_TIMEOUT_S = 0.25
WAL_RECENT_S = 5.0

__all__ = [
    "AgentRunningError",
    "BackupInfo",
    "RestoreResult",
    "agent_activity",
    "backup_created_at",
    "browse_copy_needed",
    "check_backup_file",
    "copy_for_browsing",
    "header_journal",
    "list_backups_info",
    "restore_backup",
]


class AgentRunningError(MemoryError_):
    """The database seems to be in use by another process (the agent); nothing was changed."""


@dataclass(frozen=True)
class BackupInfo:
    """One file in ``backups/``.

    ``created_at`` comes from the name (``memory-YYYYMMDDTHHmmss.sqlite`` is UTC), ``age`` is ``now -
    created_at`` in ms, ``size`` is in bytes, ``quick_check`` is ``"ok"``, SQLite's complaint, or
    ``None`` when not checked. ``journal`` is ``"wal"`` or ``"rollback"`` from the file header (``None``
    when the header cannot be read).
    """

    path: Path
    created_at: int | None
    age: int | None
    size: int
    quick_check: str | None = None
    journal: str | None = None

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def ok(self) -> bool:
        return self.quick_check == "ok"


@dataclass(frozen=True)
class RestoreResult:
    """``db_path`` now holds the content of ``restored_from``; ``safety_backup`` is the replaced file."""

    db_path: Path
    restored_from: Path
    safety_backup: Path
    pages: int = 0


def backup_created_at(name: str) -> int | None:
    """Epoch ms of a reference-named backup (``memory-20260615T120000.sqlite`` is UTC), else ``None``."""
    if not BACKUP_NAME_RE.match(name):
        return None
    try:
        dt = datetime.strptime(name[7:22], "%Y%m%dT%H%M%S").replace(tzinfo=UTC)
    except ValueError:
        return None
    return int(dt.timestamp() * 1000)


def header_journal(path: str | os.PathLike[str]) -> str | None:
    """``"wal"`` when the file header says WAL (bytes 18-19 are 2), ``"rollback"`` for 1, else ``None``."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(20)
    except OSError:
        return None
    if len(head) < 20 or not head.startswith(SQLITE_MAGIC):
        return None
    if head[18] == 2 or head[19] == 2:
        return "wal"
    return "rollback"


def _uri(path: Path, **params: str) -> str:
    q = "&".join(f"{k}={v}" for k, v in params.items())
    return f"file:{quote(str(path.resolve()))}" + (f"?{q}" if q else "")


def _has_wal(path: Path) -> bool:
    wal = Path(str(path) + "-wal")
    try:
        return wal.stat().st_size > 0
    except OSError:
        return False


def _open_backup(path: Path, timeout_s: float = 1.0) -> sqlite3.Connection:
    """A read-only connection to a backup that creates no file beside it.

    ``immutable=1`` unless a non-empty ``-wal`` already lies beside it (then its content counts, and
    the files SQLite needs exist already).
    """
    params = {"mode": "ro"} if _has_wal(path) else {"mode": "ro", "immutable": "1"}
    conn = sqlite3.connect(_uri(path, **params), uri=True, timeout=timeout_s, isolation_level=None)
    conn.execute("PRAGMA query_only=1")
    return conn


def check_backup_file(path: str | os.PathLike[str]) -> str:
    """``quick_check`` of a backup without writing anything beside it; a readable message on failure.

    A file that is not a memory database (no ``memory_meta`` / core tables) is reported as such.
    """
    p = Path(path)
    try:
        check_file_header(p)
        conn = _open_backup(p)
        try:
            rows = conn.execute("PRAGMA quick_check").fetchall()
            result = "\n".join(str(r[0]) for r in rows) or "ok"
            if result == "ok":
                names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
                missing = [t for t in CORE_TABLES if t not in names]
                if missing:
                    return "not a memory database: missing " + ", ".join(missing)
            return result
        finally:
            conn.close()
    except DatabaseOpenError as exc:
        return exc.detail if getattr(exc, "detail", None) else str(exc)
    except sqlite3.Error as exc:
        return f"cannot be read: {exc}"


def list_backups_info(
    db_path: str | os.PathLike[str], *, check: bool = True, now: int | None = None
) -> list[BackupInfo]:
    """The reference-named backups of ``db_path``, newest first, with age, size and (``check``) quick_check."""
    t = now_ms() if now is None else int(now)
    out: list[BackupInfo] = []
    for p in list_backups(db_path):
        try:
            size = p.stat().st_size
        except OSError:
            continue  # rotated away meanwhile
        created = backup_created_at(p.name)
        out.append(
            BackupInfo(
                path=p,
                created_at=created,
                age=None if created is None else t - created,
                size=size,
                quick_check=check_backup_file(p) if check else None,
                journal=header_journal(p),
            )
        )
    return out


def browse_copy_needed(path: str | os.PathLike[str]) -> bool:
    """Whether an ordinary read-only connection to ``path`` would create files beside it.

    True for a WAL-mode file (the reference's backups) and when ``-wal``/``-shm`` files are missing for
    it; False for rollback-journal files (this project's backups), which can be browsed in place.
    """
    return header_journal(path) != "rollback"


def copy_for_browsing(
    path: str | os.PathLike[str],
    dest_dir: str | os.PathLike[str] | None = None,
    *,
    progress: Callable[[int, int], object] | None = None,
    cancel: Callable[[], bool] | None = None,
) -> Path:
    """Copy a backup into a private temporary folder (0700; file 0600) and return the copy's path.

    Read through an immutable connection with the backup API, so nothing is written beside the original.
    The caller removes the folder (``copy.parent``) when done.
    """
    src_path = Path(path)
    check_file_header(src_path)
    d = Path(dest_dir) if dest_dir is not None else Path(tempfile.mkdtemp(prefix="philont-browse-"))
    ensure_private_dir(d)
    with contextlib.suppress(OSError):
        os.chmod(d, 0o700)
    target = d / src_path.name
    src = _open_backup(src_path)
    try:
        dst = sqlite3.connect(str(target), isolation_level=None)
        chmod_private(target)
        try:
            total_pages = int(src.execute("PRAGMA page_count").fetchone()[0]) or 1
            step = max(64, total_pages // 100)

            def _cb(status: int, remaining: int, total: int) -> None:
                if cancel is not None and cancel():
                    raise MemoryError_("The copy was cancelled.")
                if progress is not None:
                    progress(total - remaining, total)

            src.backup(dst, pages=step, progress=_cb)
            dst.execute("PRAGMA journal_mode=DELETE")
        finally:
            dst.close()
    except BaseException:
        with contextlib.suppress(OSError):
            target.unlink()
        raise
    finally:
        src.close()
    return target


# -- is the agent running? ---------------------------------------------------------------------------------


def _wal_age_s(db_path: Path) -> float | None:
    wal = Path(str(db_path) + "-wal")
    try:
        return max(0.0, time.time() - wal.stat().st_mtime)
    except OSError:
        return None


def _lock_exclusive(db_path: Path, timeout_s: float) -> sqlite3.Connection:
    """A connection to ``db_path`` holding an exclusive lock until it is closed.

    Raises :class:`AgentRunningError` when another connection (of any process) has the file open in
    WAL mode or is writing.
    """
    conn = sqlite3.connect(
        _uri(db_path, mode="rw"), uri=True, timeout=timeout_s, isolation_level=None, check_same_thread=False
    )
    try:
        conn.execute(f"PRAGMA busy_timeout={int(timeout_s * 1000)}")
        conn.execute("PRAGMA locking_mode=EXCLUSIVE")
        conn.execute("BEGIN EXCLUSIVE")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        conn.execute("COMMIT")
    except sqlite3.OperationalError as exc:
        conn.close()
        if "locked" in str(exc).lower() or "busy" in str(exc).lower():
            raise AgentRunningError(
                f"The database {db_path} is open in another program (probably the agent): it could not be "
                "locked for the restore. Stop the agent (and close other windows or tools that show this "
                "file), then try again. Nothing was changed."
            ) from None
        raise
    except BaseException:
        conn.close()
        raise
    return conn


def agent_activity(
    db_path: str | os.PathLike[str],
    *,
    wal_recent_s: float = WAL_RECENT_S,
    lock_timeout_s: float = LOCK_TIMEOUT_S,
) -> str | None:
    """Why the database seems to be in use by another process, or ``None`` when it seems free.

    The caller's own connections to the file count as "another process": close them first.
    """
    p = Path(db_path)
    age = _wal_age_s(p)
    if age is not None and age < wal_recent_s and _has_wal(p):
        return (
            f"its -wal file was written {age:.1f} s ago, so something (probably the agent) is writing to "
            "it. Stop the agent, wait a few seconds and try again."
        )
    try:
        conn = _lock_exclusive(p, lock_timeout_s)
    except AgentRunningError as exc:
        return str(exc)
    conn.close()
    return None


# -- restoring ------------------------------------------------------------------------------------------


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a.resolve() == b.resolve()


def _safety_backup(conn: sqlite3.Connection, db_path: Path) -> Path:
    """Back up the live file through ``conn`` (which holds the lock) into ``backups/`` (0600)."""
    return copy_to_backup(conn, backups_dir(db_path))  # a new name: never the backup being restored


def _stage_rollback_copy(src: sqlite3.Connection, where: Path) -> tuple[sqlite3.Connection, Path]:
    """A rollback-journal copy of the backup (used when page sizes differ: WAL forbids changing them)."""
    d = Path(tempfile.mkdtemp(prefix=".philont-restore-", dir=where))
    with contextlib.suppress(OSError):
        os.chmod(d, 0o700)
    staged = d / "staged.sqlite"
    conn = sqlite3.connect(str(staged), isolation_level=None, check_same_thread=False)
    chmod_private(staged)
    src.backup(conn, pages=-1)
    conn.execute("PRAGMA journal_mode=DELETE")
    return conn, d


def restore_backup(
    db_path: str | os.PathLike[str],
    backup_path: str | os.PathLike[str],
    *,
    agent_running_check: bool = True,
    wal_recent_s: float = WAL_RECENT_S,
    lock_timeout_s: float = LOCK_TIMEOUT_S,
    progress: Callable[[int, int], object] | None = None,
) -> RestoreResult:
    """Replace the content of ``db_path`` with ``backup_path``; returns both paths and the safety backup.

    Refuses (:class:`AgentRunningError`, nothing changed) while the database seems to be in use, a
    damaged backup or one that is not a memory database (:class:`ValidationError_`), and a backup whose
    schema is newer than this version understands. With ``agent_running_check=False`` the recent-WAL
    test is skipped and the lock is waited for up to 5 s (still never writing under another writer).
    """
    db = Path(db_path).expanduser()
    src_path = Path(backup_path).expanduser()
    if not src_path.is_file():
        raise NotFoundError(f"The backup {src_path} does not exist.")
    if not db.is_file():
        raise NotFoundError(f"There is no database at {db} to restore into.")
    if _same_file(db, src_path):
        raise ValidationError_("The backup and the database are the same file.")
    qc = check_backup_file(src_path)
    if qc != "ok":
        raise ValidationError_(
            f"The backup {src_path.name} cannot be restored: {qc.splitlines()[0]}. Nothing was changed."
        )
    src = _open_backup(src_path)
    try:
        row = None
        with contextlib.suppress(sqlite3.Error):
            row = src.execute("SELECT value FROM memory_meta WHERE key = 'schema_version'").fetchone()
        version = None
        with contextlib.suppress(TypeError, ValueError):
            version = int(row[0]) if row is not None else None
        if version is not None and version > SCHEMA_VERSION:
            raise ValidationError_(
                f"The backup {src_path.name} has schema version {version}, newer than {SCHEMA_VERSION}, "
                "which this version understands; it is not restored. Nothing was changed."
            )
        if agent_running_check:
            age = _wal_age_s(db)
            if age is not None and age < wal_recent_s and _has_wal(db):
                raise AgentRunningError(
                    f"The database {db} seems to be in use: its -wal file was written {age:.1f} s ago "
                    "(probably by the agent). Stop the agent, wait a few seconds and try again. Nothing "
                    "was changed."
                )
        dest = _lock_exclusive(db, lock_timeout_s if agent_running_check else 5.0)
        staged_dir: Path | None = None
        source = src
        done = [0]
        try:
            safety = _safety_backup(dest, db)
            src_ps = int(src.execute("PRAGMA page_size").fetchone()[0])
            dst_ps = int(dest.execute("PRAGMA page_size").fetchone()[0])
            dest_wal = str(dest.execute("PRAGMA journal_mode").fetchone()[0]).lower() == "wal"
            if src_ps != dst_ps and dest_wal:
                source, staged_dir = _stage_rollback_copy(src, db.parent)
                dest.execute("PRAGMA journal_mode=DELETE")
            total_pages = int(source.execute("PRAGMA page_count").fetchone()[0]) or 1
            step = max(64, total_pages // 100)

            def _cb(status: int, remaining: int, total: int) -> None:
                done[0] = total
                if progress is not None:
                    progress(total - remaining, total)

            source.backup(dest, pages=step, progress=_cb)
            if str(dest.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
                dest.execute("PRAGMA journal_mode=WAL")
            result = "\n".join(str(r[0]) for r in dest.execute("PRAGMA quick_check").fetchall())
            if result != "ok":
                raise MemoryError_(
                    f"The restored database fails quick_check ({result.splitlines()[0]}). The file that was "
                    f"replaced is in {safety}."
                )
        finally:
            dest.close()
            if staged_dir is not None:
                if source is not src:
                    with contextlib.suppress(sqlite3.Error):
                        source.close()
                shutil.rmtree(staged_dir, ignore_errors=True)
    finally:
        src.close()
    for suffix in ("", "-wal", "-shm"):
        f = Path(str(db) + suffix)
        if f.exists():
            chmod_private(f)
    return RestoreResult(db_path=db, restored_from=src_path, safety_backup=safety, pages=done[0])
