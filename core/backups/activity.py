"""Whether the agent is at work on a database: a recent ``-wal``, a lock another process holds, or the
file changing while a restore watches it.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from core.backups.names import LOCK_TIMEOUT_S, WAL_RECENT_S, AgentRunningError
from core.engine import sqlite3
from core.files import connect_file, file_kind, header_problem, open_in_this_process


def _wal_age_s(db_path: Path) -> float | None:
    wal = Path(str(db_path) + "-wal")
    try:
        st = wal.stat()
    except OSError:
        return None
    return max(0.0, time.time() - st.st_mtime) if st.st_size > 0 else None


def recent_wal(db_path: Path, wal_recent_s: float) -> AgentRunningError | None:
    age = _wal_age_s(db_path)
    if age is None or age >= wal_recent_s:
        return None
    return AgentRunningError(
        f"The database {db_path} seems to be in use: its -wal file was written {age:.1f} s ago (probably by "
        "the agent). Stop the agent, wait a few seconds and try again. Nothing was changed.",
        params={"path": str(db_path), "reason": "wal_recent", "age_s": round(age, 1)},
    )


def _fingerprint(db_path: Path) -> tuple[tuple[int, int, int] | None, ...]:
    """Identity, size and modification time of the file and of its ``-wal`` (an empty ``-wal`` counts as
    none: a read-only look may create one): what any write by another connection changes."""
    out: list[tuple[int, int, int] | None] = []
    for suffix in ("", "-wal"):
        try:
            st = os.stat(str(db_path) + suffix)
        except OSError:
            out.append(None)
            continue
        out.append(None if suffix and st.st_size == 0 else (st.st_ino, st.st_size, st.st_mtime_ns))
    return tuple(out)


class Watch:
    """Whether the live file is written while a restore looks at it: an agent that opens a connection for
    each write holds no lock and leaves no ``-wal`` between its writes, but every write changes the file
    (its connection's close folds the ``-wal`` in) or the ``-wal``."""

    def __init__(self, db_path: Path, observe_s: float):
        self.db_path = db_path
        self.observe_s = observe_s
        self.started = time.monotonic()
        self.first = _fingerprint(db_path)

    def check(self, *, wait: bool = False) -> None:
        """Raise :class:`AgentRunningError` when the file changed since the watch began; ``wait``: first
        let at least ``observe_s`` pass since then."""
        rest = self.observe_s - (time.monotonic() - self.started)
        if wait and rest > 0:
            time.sleep(rest)
        if _fingerprint(self.db_path) != self.first:
            raise AgentRunningError(
                f"The database {self.db_path} seems to be in use: it was written while the restore watched "
                "it (probably by the agent, which may open a connection for each write). Stop the agent, "
                "wait a few seconds and try again. Nothing was changed.",
                params={"path": str(self.db_path), "reason": "written"},
            )


def locked_error(db_path: Path) -> AgentRunningError:
    return AgentRunningError(
        f"The database {db_path} is open in another program (probably the agent): it could not be locked "
        "for the restore. Stop the agent (and close other windows or tools that show this file), then try "
        "again. Nothing was changed.",
        params={"path": str(db_path), "reason": "locked"},
    )


# SQLite's POSIX locks: the PENDING byte, the RESERVED byte and the SHARED range of the database file;
# the first 9 bytes past 120 of the -shm (WAL locks and the "dead man switch" every WAL connection holds).
_DB_LOCK_RANGE = (0x40000000, 2 + 510)


_SHM_LOCK_RANGE = (120, 9)


def held_by_another_process(db_path: Path) -> bool:
    """Whether another process holds an SQLite lock on the file or its ``-shm`` (POSIX ``F_GETLK``).


    Works whatever the file holds (a damaged file cannot be locked through SQLite) and opens nothing
    for writing. Locks of this process are not seen (close your own connections first); where POSIX
    locks do not exist (Windows) this says ``False`` and moving the file, which fails while another
    program has it open, is the test.
    """
    try:
        import fcntl
        import struct
    except ImportError:  # pragma: no cover - Windows
        return False
    if open_in_this_process(db_path):  # opening and closing a descriptor would drop this process's locks
        return False
    for path, (start, length) in ((db_path, _DB_LOCK_RANGE), (Path(str(db_path) + "-shm"), _SHM_LOCK_RANGE)):
        if file_kind(path) != "file":
            continue
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except OSError:
            continue
        try:
            probe = struct.pack("hhllhh", fcntl.F_WRLCK, 0, start, length, 0, 0)
            got = fcntl.fcntl(fd, fcntl.F_GETLK, probe)
            if struct.unpack("hhllhh", got)[0] != fcntl.F_UNLCK:
                return True
        except OSError:
            continue
        finally:
            os.close(fd)
    return False


def lock_exclusive(db_path: Path, timeout_s: float) -> sqlite3.Connection:
    """A connection to a sound ``db_path`` holding an exclusive lock until it is closed.


    Raises :class:`AgentRunningError` when another connection (of any process) has the file open in
    WAL mode or is writing.
    """
    conn = connect_file(db_path, mode="rw", timeout_s=timeout_s)
    try:
        conn.execute(f"PRAGMA busy_timeout={int(timeout_s * 1000)}")
        conn.execute("PRAGMA locking_mode=EXCLUSIVE")
        conn.execute("BEGIN EXCLUSIVE")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        conn.execute("COMMIT")
    except sqlite3.OperationalError as exc:
        conn.close()
        if "locked" in str(exc).lower() or "busy" in str(exc).lower():
            raise locked_error(db_path) from None
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
    recent = recent_wal(p, wal_recent_s)
    if recent is not None:
        return recent.message
    if held_by_another_process(p):
        return locked_error(p).message
    if header_problem(p) is not None:
        return None
    try:
        conn = lock_exclusive(p, lock_timeout_s)
    except AgentRunningError as exc:
        return exc.message
    except sqlite3.Error:
        return None
    conn.close()
    return None
