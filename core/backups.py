"""Backups of a memory database: writing them, what ``backups/`` holds, and restoring one.

This is the one module that knows backups; :meth:`core.db.MemoryDB.backup` calls it.

**Writing** (:func:`copy_to_backup`, :func:`rotate`). ``backups/`` belongs to the agent: it writes
``memory-YYYYMMDDTHHmmss.sqlite`` every 6 hours and keeps the newest 28 names matching ``memory-*.sqlite``.
A backup this project writes is ``backups/philont-desktop-<database>-YYYYMMDDTHHmmss.sqlite`` (``<database>``
is the database's file name without ``.sqlite``, the time is UTC), which the agent's rotation neither counts
nor deletes. It is written with SQLite's online backup API into a private temporary file that is synced and
then given its name. A name that exists is never replaced: a backup waits up to two seconds for a second
whose name is free, and takes ``…-<second>-<n>.sqlite`` when another process claims the same name meanwhile.
Rotation keeps the newest 28 of this project's backups of the same database and touches nothing else: a
file this project did not write is never deleted. :func:`recent_own_backup` is the rule for a run of edits:
a write needs no new backup when this project backed the same database up less than ``RUN_WINDOW_S``
(10 minutes) ago.

**Looking** never creates, changes or locks a file in ``backups/``. A backup is a closed file: it is read
through an ``immutable=1`` connection, which opens no ``-wal``/``-shm`` (a WAL-mode copy written by the
agent would otherwise gain both). Files beside a backup (``-wal``, ``-shm``, ``-journal``, left by some
other program) are not part of it: they are ignored and reported in :attr:`BackupInfo.side_files`. A name
in ``backups/`` that is a FIFO, socket, device or directory is never opened (a FIFO would block).

**Restoring** (:func:`restore_backup`) replaces the live database with a backup, whatever state the live
file is in:

* a sound file is replaced in place while an exclusive lock keeps every other connection out: its
  content is first backed up (``safety_backup``), then the backup is copied in with the backup API, in
  one WAL transaction (from a private WAL copy with the live file's page size when the backup's page
  size or journal differ): a copy that fails (a full disk) leaves the live file as it was, in WAL mode,
  with no journal beside it;
* a damaged file (not a database, empty, truncated, corrupt pages, a stale ``-wal`` that makes it
  unreadable) is never written: it is moved aside, with its ``-wal``, ``-shm`` and ``-journal``, into
  ``backups/damaged-YYYYMMDDTHHmmss-<name>`` (byte for byte; nothing is deleted), and a copy of the backup
  takes its place;
* a missing file is created from the backup. An orphan ``-wal``/``-shm``/``-journal`` at the path
  (SQLite would merge a stray ``-wal`` into the restored file on its next open) is moved aside the same
  way, never merged and never deleted.

The restored file is in WAL mode, passes ``quick_check``, is 0600, and its audit trail ends with a
``database.restore`` row saying what was restored and where the replaced file went. A restore is refused
while the agent seems to run: its ``-wal`` was written in the last few seconds, another process holds a
lock on the file (or, for a sound file, the exclusive lock cannot be taken), or the file or its ``-wal``
changed while the restore looked at it (at least a second, until the lock is taken: an agent that opens
a connection for each write holds no lock between writes). The caller closes its own
connections first.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import stat
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core import MAX_KNOWN_SCHEMA_VERSION, paths
from core.db import SQLITE_MAGIC, connect_file, header_problem, open_in_this_process, quick_check
from core.engine import sqlite3
from core.errors import MemoryError_, NotFoundError, Notice, ReadOnlyError, ValidationError_
from core.jsutil import now_ms
from core.paths import backups_dir, chmod_private, ensure_private_dir, fsync_dir

BACKUP_RETAIN = 28
OWN_PREFIX = "philont-desktop-"
AGENT_OWNER = "agent"
OWN_OWNER = "philont-desktop"
# Either kind: the agent's ``memory-<UTC second>.sqlite`` (the reference's name; ``-<n>`` was added by
# earlier versions of this project) or this project's ``philont-desktop-<database>-<UTC second>[-n].sqlite``.
BACKUP_NAME_RE = re.compile(r"^(memory|philont-desktop-(.+))-(\d{8}T\d{6})(?:-(\d+))?\.sqlite$")
PARTIAL_RE = re.compile(
    r"^(?:memory|philont-desktop-.+)-\d{8}T\d{6}\.sqlite\.partial-(\d+)-\d+(?:-journal)?$"
)
DAMAGED_PREFIX = "damaged-"
SIDE_SUFFIXES = ("-wal", "-shm", "-journal")
RUN_WINDOW_S = 600
STALE_PARTIAL_S = 3600
NAME_WAIT_S = 2.0
LOCK_TIMEOUT_S = 0.25
WAL_RECENT_S = 5.0
OBSERVE_S = 1.0
RESTORE_ACTION = "database.restore"

__all__ = [
    "BACKUP_NAME_RE",
    "BACKUP_RETAIN",
    "OWN_PREFIX",
    "RUN_WINDOW_S",
    "AgentRunningError",
    "BackupInfo",
    "RestoreResult",
    "agent_activity",
    "backup_created_at",
    "backup_file_name",
    "backup_owner",
    "backups_dir",
    "browse_copy_needed",
    "check_backup",
    "check_backup_file",
    "copy_for_browsing",
    "copy_to_backup",
    "database_stem",
    "file_kind",
    "header_journal",
    "list_backups",
    "list_backups_info",
    "newest_good_backup",
    "own_backups",
    "recent_own_backup",
    "remove_stale_partials",
    "restore_backup",
    "rotate",
]


class AgentRunningError(MemoryError_):
    """The database seems to be in use by another process (the agent); nothing was changed.

    Code ``restore.agent_running``; params ``path``, ``reason`` (``wal_recent``, ``locked``, ``written``:
    the file changed while the restore watched it) and, for a recent ``-wal``, ``age_s``.
    """

    default_code = "restore.agent_running"


# -- names ----------------------------------------------------------------------------------------------


def database_stem(db_name: str) -> str:
    """The part of a database's file name this project's backups of it carry (``memory.sqlite`` ->
    ``memory``)."""
    name = Path(db_name).name
    return (name[: -len(".sqlite")] if name.endswith(".sqlite") and len(name) > 7 else name)[:120]


def backup_file_name(now: datetime | None = None, db_name: str = "memory.sqlite") -> str:
    """This project's backup name for the database ``db_name`` at the UTC time ``now``:
    ``philont-desktop-<database>-YYYYMMDDTHHmmss.sqlite``. It never matches the agent's ``memory-*.sqlite``,
    so the agent's rotation neither counts nor deletes it."""
    now = now or datetime.now(UTC)
    return f"{OWN_PREFIX}{database_stem(db_name)}-{now.strftime('%Y%m%dT%H%M%S')}.sqlite"


def backup_owner(name: str) -> str | None:
    """Who wrote a backup, by its name: ``"agent"`` (``memory-…``), ``"philont-desktop"`` (this project's
    ``philont-desktop-…``), ``None`` for a name that is no backup name."""
    m = BACKUP_NAME_RE.match(name)
    if m is None:
        return None
    return AGENT_OWNER if m.group(1) == "memory" else OWN_OWNER


def backup_created_at(name: str) -> int | None:
    """Epoch ms of a backup name of either kind (the time in the name is UTC), else ``None``."""
    m = BACKUP_NAME_RE.match(name)
    if m is None:
        return None
    try:
        dt = datetime.strptime(m.group(3), "%Y%m%dT%H%M%S").replace(tzinfo=UTC)
    except ValueError:
        return None
    return int(dt.timestamp() * 1000)


def _name_key(p: Path) -> tuple[str, int, str]:
    m = BACKUP_NAME_RE.match(p.name)
    return (m.group(3), int(m.group(4) or 0), p.name) if m else ("", 0, p.name)


def _own_of(p: Path, stem: str) -> bool:
    """Whether ``p`` is this project's backup of the database whose stem is ``stem``."""
    m = BACKUP_NAME_RE.match(p.name)
    return m is not None and m.group(1) != "memory" and m.group(2) == stem


# -- files that are not regular files are never opened ------------------------------------------------------


def file_kind(path: str | os.PathLike[str]) -> str | None:
    """``file``, ``directory``, ``FIFO``, ``socket``, ``device``, ``special file`` or ``unreadable``;
    ``None`` when nothing is there. Symbolic links are followed; nothing is opened."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError:
        return "unreadable"
    return _KIND_WORDS[paths.file_kind(mode)]


# core.paths.file_kind's classification, in the words of this module's messages.
_KIND_WORDS = {
    "regular": "file",
    "folder": "directory",
    "fifo": "FIFO",
    "socket": "socket",
    "char-device": "device",
    "block-device": "device",
    "other": "special file",
}


def _read_head(path: Path, n: int) -> bytes | None:
    """The first ``n`` bytes of a regular file (``None`` for anything else, or when unreadable)."""
    if file_kind(path) != "file":
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # replaced between the look and the open
            return None
        return os.read(fd, n)
    except OSError:
        return None
    finally:
        os.close(fd)


def header_journal(path: str | os.PathLike[str]) -> str | None:
    """``"wal"`` when the file header says WAL (bytes 18-19 are 2), ``"rollback"`` for 1, else ``None``."""
    head = _read_head(Path(path), 20)
    if head is None or len(head) < 20 or not head.startswith(SQLITE_MAGIC):
        return None
    if head[18] == 2 or head[19] == 2:
        return "wal"
    return "rollback"


def _side_files(path: Path) -> tuple[str, ...]:
    return tuple(s for s in SIDE_SUFFIXES if os.path.lexists(str(path) + s))


# -- looking at backups ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class BackupInfo:
    """One entry of ``backups/`` with a backup name.

    ``created_at`` comes from the name (UTC), ``age`` is ``now - created_at`` in ms, ``size`` is in
    bytes, ``quick_check`` is ``"ok"``, the reason it is not usable, or ``None`` when not checked.
    ``journal`` is ``"wal"`` or ``"rollback"`` from the file header (``None`` when it cannot be read).
    ``kind`` is ``file`` for a regular file (anything else is never opened and never ok).
    ``side_files`` are the suffixes of files beside it (``-wal``, ``-shm``, ``-journal``): not part of
    the backup, ignored. :attr:`owner` says whose it is, by its name.
    """

    path: Path
    created_at: int | None
    age: int | None
    size: int
    quick_check: str | None = None
    journal: str | None = None
    kind: str = "file"
    side_files: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def ok(self) -> bool:
        return self.quick_check == "ok"

    @property
    def owner(self) -> str | None:
        """``"agent"`` for the agent's ``memory-…`` backups, ``"philont-desktop"`` for this project's."""
        return backup_owner(self.name)


def _open_backup(path: Path, timeout_s: float = 1.0) -> sqlite3.Connection:
    """A read-only ``immutable=1`` connection to a closed backup: no file is created, changed or locked
    beside it (files already there are ignored)."""
    kind = file_kind(path)
    if kind != "file":
        raise _not_regular(path, kind)
    conn = connect_file(path, mode="ro", immutable="1", timeout_s=timeout_s)
    conn.execute("PRAGMA query_only=1")
    return conn


def _not_regular(path: Path, kind: str | None) -> MemoryError_:
    if kind is None:
        return NotFoundError(
            f"The backup {path} does not exist.", code="backup.not_found", params={"path": str(path)}
        )
    return ValidationError_(
        f"{path} is a {kind}, not a backup file; it was not opened.",
        code="backup.not_regular",
        params={"path": str(path), "kind": kind},
    )


def check_backup(path: str | os.PathLike[str]) -> Notice:
    """``quick_check`` of a backup without writing anything beside it, as a :class:`Notice`.

    Codes: ``backup.ok``; ``backup.missing``; ``backup.not_regular`` (``kind``: a FIFO, device or other
    special file is never opened); ``db.open.<problem>`` (``problem``, ``detail``: the header says it is
    empty, not SQLite, truncated or unreadable); ``backup.unreadable`` (``error``: SQLite cannot read it);
    ``backup.quick_check`` (``result``: SQLite's complaint); ``backup.not_memory`` (``missing``: the core
    tables it lacks). The message is the English text, ``"ok"`` when sound.
    """
    from core.schema import CORE_TABLES

    p = Path(path)
    kind = file_kind(p)
    if kind is None:
        return Notice("backup.missing", "missing", {"path": str(p)})
    if kind != "file":
        return Notice("backup.not_regular", f"not a regular file ({kind}): not opened", {"kind": kind})
    found = header_problem(p)
    if found is not None:
        return Notice(
            f"db.open.{found.problem}", found.detail, {"problem": found.problem, "detail": found.detail}
        )
    try:
        conn = _open_backup(p)
        try:
            result = quick_check(conn)
            if result != "ok":
                return Notice("backup.quick_check", result, {"result": result})
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        finally:
            conn.close()
    except (sqlite3.Error, MemoryError_) as exc:
        return Notice("backup.unreadable", f"cannot be read: {exc}", {"error": str(exc)})
    missing = [t for t in CORE_TABLES if t not in names]
    if missing:
        return Notice(
            "backup.not_memory", "not a memory database: missing " + ", ".join(missing), {"missing": missing}
        )
    return Notice("backup.ok", "ok")


def check_backup_file(path: str | os.PathLike[str]) -> str:
    """:func:`check_backup`'s English text: ``"ok"`` for a sound memory database, else the reason."""
    return check_backup(path).message


def list_backups(db_path: str | os.PathLike[str]) -> list[Path]:
    """The regular files of ``backups/`` with a backup name of either kind (the agent's and this
    project's; :func:`backup_owner` says whose), newest first."""
    d = backups_dir(db_path)
    if not d.is_dir():
        return []
    found = [p for p in d.iterdir() if BACKUP_NAME_RE.match(p.name) and file_kind(p) == "file"]
    return sorted(found, key=_name_key, reverse=True)


def list_backups_info(
    db_path: str | os.PathLike[str], *, check: bool = True, now: int | None = None
) -> list[BackupInfo]:
    """Every entry of ``backups/`` with a backup name of either kind, newest first: age, size, kind,
    owner and (``check``) ``quick_check``. Entries that are not regular files are listed as not usable,
    never opened."""
    t = now_ms() if now is None else int(now)
    d = backups_dir(db_path)
    if not d.is_dir():
        return []
    out: list[BackupInfo] = []
    for p in sorted((p for p in d.iterdir() if BACKUP_NAME_RE.match(p.name)), key=_name_key, reverse=True):
        kind = file_kind(p)
        if kind is None:
            continue  # rotated away meanwhile
        created = backup_created_at(p.name)
        age = None if created is None else t - created
        if kind != "file":
            reason = f"not a regular file ({kind}): not opened"
            out.append(BackupInfo(p, created, age, 0, reason, None, kind, _side_files(p)))
            continue
        try:
            size = p.stat().st_size
        except OSError:
            continue
        qc = check_backup_file(p) if check else None
        out.append(BackupInfo(p, created, age, size, qc, header_journal(p), "file", _side_files(p)))
    return out


def newest_good_backup(db_path: str | os.PathLike[str]) -> Path | None:
    """The newest backup of either kind that passes ``quick_check`` and is a memory database (read-only
    look); :func:`backup_owner` of its name says whose it is."""
    for p in list_backups(db_path):
        if check_backup_file(p) == "ok":
            return p
    return None


def browse_copy_needed(path: str | os.PathLike[str]) -> bool:
    """Whether an ordinary read-only connection to ``path`` would create or read files beside it.

    False only for a rollback-journal file (this project's backups) with nothing beside it: that can be
    browsed in place. A WAL-mode copy (the agent's backups) must be copied first.
    """
    p = Path(path)
    return header_journal(p) != "rollback" or bool(_side_files(p))


def copy_for_browsing(
    path: str | os.PathLike[str],
    dest_dir: str | os.PathLike[str] | None = None,
    *,
    progress: Callable[[int, int], object] | None = None,
    cancel: Callable[[], bool] | None = None,
) -> Path:
    """Copy a backup into a private folder (0700; file 0600, rollback journal) and return the copy's path.

    Read through an immutable connection with the backup API, so nothing is written beside the original.
    Without ``dest_dir`` a new folder in the system's temporary directory; the caller removes it.
    """
    src_path = Path(path)
    kind = file_kind(src_path)
    if kind != "file":
        raise _not_regular(src_path, kind)
    found = header_problem(src_path)
    if found is not None:
        raise ValidationError_(
            f"The backup {src_path.name} cannot be read: {found.detail}",
            code="backup.unreadable",
            params={"path": str(src_path), "problem": found.problem, "detail": found.detail},
        )
    d = Path(dest_dir) if dest_dir is not None else Path(tempfile.mkdtemp(prefix="philont-browse-"))
    ensure_private_dir(d)
    with contextlib.suppress(OSError):
        os.chmod(d, 0o700)
    target = d / src_path.name
    src = _open_backup(src_path)
    try:
        _backup_api_copy(src, target, progress=progress, cancel=cancel)
    except BaseException:
        with contextlib.suppress(OSError):
            target.unlink()
        raise
    finally:
        src.close()
    return target


def _backup_api_copy(
    src: sqlite3.Connection,
    target: Path,
    *,
    progress: Callable[[int, int], object] | None = None,
    cancel: Callable[[], bool] | None = None,
    journal: str = "DELETE",
) -> int:
    """Copy ``src`` into a new file ``target`` (0600) with the backup API; returns the page count."""
    dst = sqlite3.connect(str(target), isolation_level=None, check_same_thread=False)
    chmod_private(target)
    try:
        total_pages = int(src.execute("PRAGMA page_count").fetchone()[0]) or 1
        step = max(64, total_pages // 100)

        def _cb(status: int, remaining: int, total: int) -> None:
            if cancel is not None and cancel():
                raise MemoryError_("The copy was cancelled.", code="backup.cancelled")
            if progress is not None:
                progress(total - remaining, total)

        src.backup(dst, pages=step, progress=_cb)
        dst.execute(f"PRAGMA journal_mode={journal}")
    finally:
        dst.close()
    return total_pages


# -- writing backups ------------------------------------------------------------------------------------


def _process_alive(pid: int) -> bool:
    if os.name != "posix":  # no harmless liveness probe there: age decides
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale_partials(d: Path) -> list[Path]:
    """Delete temporary backup files left by a process that died while backing up.

    Only ``memory-<time>.sqlite.partial-<pid>-<thread>`` files (and their ``-journal``) are touched:
    those of a process that no longer runs, or older than an hour. Backups proper never match.
    """
    removed: list[Path] = []
    if not d.is_dir():
        return removed
    now = time.time()
    for p in d.iterdir():
        m = PARTIAL_RE.match(p.name)
        if not m or int(m.group(1)) == os.getpid() or file_kind(p) != "file":
            continue
        try:
            old = now - p.stat().st_mtime > STALE_PARTIAL_S
        except OSError:
            continue
        if old or not _process_alive(int(m.group(1))):
            with contextlib.suppress(OSError):
                p.unlink()
                removed.append(p)
    return removed


def _free_backup_name(d: Path, db_name: str, *, timeout_s: float = NAME_WAIT_S) -> str:
    """A backup name whose second is not taken yet, waiting up to ``timeout_s`` for the next second."""
    deadline = time.monotonic() + timeout_s
    while True:
        name = backup_file_name(db_name=db_name)
        if not os.path.lexists(d / name) or time.monotonic() >= deadline:
            return name
        time.sleep(0.05)


def _link_no_clobber(src: Path, dst: Path) -> bool:
    """Give ``src`` the name ``dst`` unless ``dst`` exists (then ``False``; ``src`` stays).

    A hard link followed by removing the old name never replaces anything; where hard links are not
    supported (some file systems) a rename after a last look for ``dst``.
    """
    try:
        os.link(src, dst)
    except FileExistsError:
        return False
    except OSError:
        if os.path.lexists(dst):
            return False
        os.rename(src, dst)  # Windows refuses to replace an existing name
        return True
    try:
        os.unlink(src)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(dst)
        raise
    return True


def _place_backup(tmp: Path, d: Path, name: str) -> Path:
    """Rename the finished ``tmp`` to ``name`` in ``d``, or ``<name>-<n>.sqlite`` when taken."""
    stem = name[: -len(".sqlite")]
    for n in range(0, 10_000):
        final = d / (name if n == 0 else f"{stem}-{n}.sqlite")
        if _link_no_clobber(tmp, final):
            return final
    raise MemoryError_(f"No free backup name in {d}.", code="backup.no_free_name", params={"dir": str(d)})


def _folder_not_writable(d: Path) -> ReadOnlyError:
    return ReadOnlyError(
        f"The backups folder {d} cannot be written (backups, and the files a restore moves aside, are kept "
        "there). Nothing was changed.",
        code="backup.folder_not_writable",
        params={"path": str(d)},
    )


def ensure_backup_folder(d: Path) -> None:
    """Create the backups folder ``d`` if missing, or raise an error that says why no backup can be
    written there: a loop of symbolic links (``backup.folder_symlink_loop``), something that is not a
    folder (``backup.folder_not_folder``, ``kind``), a folder that cannot be written
    (``backup.folder_not_writable``). ``path`` is the folder."""
    kind, _st, detail = paths.inspect_path(d)
    if kind == "symlink-loop":
        raise MemoryError_(
            f"The backups folder {d} is a symbolic link loop (a link that leads back to itself), so "
            "nothing can be kept there. Nothing was changed.",
            code="backup.folder_symlink_loop",
            params={"path": str(d)},
        )
    if kind not in ("folder", "missing"):
        raise MemoryError_(
            f"The backups folder {d} is not a folder (this path names {paths.describe_kind(kind, detail)}), "
            "so nothing can be kept there. Nothing was changed.",
            code="backup.folder_not_folder",
            params={"path": str(d), "kind": kind},
        )
    try:
        ensure_private_dir(d)
    except PermissionError as exc:
        raise _folder_not_writable(d) from exc
    if not os.access(d, os.W_OK):
        raise _folder_not_writable(d)


def copy_to_backup(
    conn: sqlite3.Connection,
    d: Path,
    *,
    db_name: str = "memory.sqlite",
    progress: Callable[[int, int], None] | None = None,
) -> Path:
    """Copy the database behind ``conn`` into a new backup of this project's in ``d`` and return its
    path (``philont-desktop-<database>-<UTC second>.sqlite``, the database named by ``db_name``).

    SQLite's online backup API in one step (a consistent snapshot even while the agent writes; a
    stepwise copy restarts on every write from another process), into a private temporary file that
    is synced and then named: an interrupted backup never leaves a file under a backup name, and an
    existing backup is never replaced.
    """
    ensure_backup_folder(d)
    remove_stale_partials(d)
    name = _free_backup_name(d, db_name)
    tmp = d / f"{name}.partial-{os.getpid()}-{threading.get_ident()}"
    try:
        os.close(os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except PermissionError as exc:
        raise _folder_not_writable(d) from exc
    dst = sqlite3.connect(str(tmp), isolation_level=None)
    try:

        def _cb(status: int, remaining: int, total: int) -> None:
            if progress is not None:
                progress(total - remaining, total)

        conn.backup(dst, pages=-1, progress=_cb)
        dst.execute("PRAGMA journal_mode=DELETE")
        dst.close()
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        final = _place_backup(tmp, d, name)
    except BaseException:
        dst.close()
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    fsync_dir(d)
    return final


def own_backups(d: Path, db_name: str) -> list[Path]:
    """This project's backups of the database named ``db_name`` in ``d`` (regular files), newest first."""
    if not d.is_dir():
        return []
    stem = database_stem(db_name)
    found = (p for p in d.iterdir() if _own_of(p, stem) and file_kind(p) == "file")
    return sorted(found, key=_name_key, reverse=True)


def rotate(d: Path, retain: int = BACKUP_RETAIN, *, db_name: str = "memory.sqlite") -> list[Path]:
    """Delete all but the newest ``retain`` (at least 1) of this project's backups of ``db_name`` in
    ``d``; returns what was deleted.

    Only this project's own backups of that database count and go: the agent's ``memory-*.sqlite``
    backups, damaged files kept aside by a restore, backups of other databases, other files and special
    files are never touched.
    """
    removed = []
    for old in own_backups(d, db_name)[max(1, retain) :]:
        with contextlib.suppress(OSError):
            old.unlink()
            removed.append(old)
    return removed


def recent_own_backup(
    db_path: str | os.PathLike[str], *, window_s: float = RUN_WINDOW_S, now: int | None = None
) -> Path | None:
    """This project's newest backup of ``db_path`` when it was taken less than ``window_s`` ago (by the
    time in its name), else ``None``: a write within that window belongs to the same run of edits, which
    one backup covers."""
    t = now_ms() if now is None else int(now)
    p = Path(db_path)
    for b in own_backups(backups_dir(p), paths.real_path(p).name)[:1]:
        created = backup_created_at(b.name)
        if created is not None and 0 <= t - created < window_s * 1000 and header_problem(b) is None:
            return b  # (a cut or emptied one does not count: the write takes a new one)
    return None


# -- is the agent running? ---------------------------------------------------------------------------------


def _wal_age_s(db_path: Path) -> float | None:
    wal = Path(str(db_path) + "-wal")
    try:
        st = wal.stat()
    except OSError:
        return None
    return max(0.0, time.time() - st.st_mtime) if st.st_size > 0 else None


def _recent_wal(db_path: Path, wal_recent_s: float) -> AgentRunningError | None:
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


class _Watch:
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


def _locked_error(db_path: Path) -> AgentRunningError:
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


def _held_by_another_process(db_path: Path) -> bool:
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


def _lock_exclusive(db_path: Path, timeout_s: float) -> sqlite3.Connection:
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
            raise _locked_error(db_path) from None
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
    recent = _recent_wal(p, wal_recent_s)
    if recent is not None:
        return recent.message
    if _held_by_another_process(p):
        return _locked_error(p).message
    if header_problem(p) is not None:
        return None
    try:
        conn = _lock_exclusive(p, lock_timeout_s)
    except AgentRunningError as exc:
        return exc.message
    except sqlite3.Error:
        return None
    conn.close()
    return None


# -- restoring ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RestoreResult:
    """``db_path`` now holds the content of ``restored_from``.

    For a sound file, ``safety_backup`` is the backup of the content it replaced. For a damaged or
    missing one, ``problem`` says what was wrong (``not-sqlite``, ``empty``, ``truncated``, ``corrupt``,
    ``missing``) and ``damaged`` lists the files moved aside, byte for byte, into ``backups/`` (the main
    file first, then its ``-wal``/``-shm``/``-journal``; empty when there was nothing). ``audit_id`` is the
    ``database.restore`` row of the restored file's audit trail.
    """

    db_path: Path
    restored_from: Path
    safety_backup: Path | None = None
    damaged: tuple[Path, ...] = ()
    problem: str | None = None
    detail: str | None = None
    pages: int = 0
    audit_id: int | None = None

    @property
    def kept_as(self) -> Path | None:
        """Where the replaced content is: the safety backup, or the damaged file moved aside."""
        return self.safety_backup or (self.damaged[0] if self.damaged else None)


@dataclass
class _LiveState:
    """What a look at the live file found; ``problem`` is ``None`` for a sound database."""

    problem: str | None
    detail: str | None = None
    existed: tuple[str, ...] = ()  # side-file suffixes present before the look
    shm: bytes | None = None  # the -shm's bytes before the look

    def undo_look(self, db: Path) -> None:
        """Remove the side files a read-only look created, and put the ``-shm`` bytes back."""
        for suffix in ("-wal", "-shm"):
            if suffix not in self.existed and file_kind(str(db) + suffix) == "file":
                with contextlib.suppress(OSError):
                    os.unlink(str(db) + suffix)
        shm = Path(str(db) + "-shm")
        if self.shm is not None and file_kind(shm) == "file" and shm.read_bytes() != self.shm:
            shm.write_bytes(self.shm)


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
        raise _not_regular(src, kind)
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
    conn = _open_backup(src)
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


def _inspect_live(db: Path, timeout_s: float) -> _LiveState:
    """Sound, damaged (and how) or missing: judged by the header, then by ``quick_check`` on a read-only
    connection. The main file and its ``-wal`` are never written; :meth:`_LiveState.undo_look` undoes
    what the look did to the ``-shm``."""
    kind = file_kind(db)
    if kind is None:
        return _LiveState("missing", "No database file exists at this path.", _side_files(db))
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
    existed = _side_files(db)
    if found is not None:
        return _LiveState(found.problem, found.detail, existed)
    shm = Path(str(db) + "-shm")
    snapshot = shm.read_bytes() if file_kind(shm) == "file" else None
    state = _LiveState(None, None, existed, snapshot)
    try:
        conn = connect_file(db, mode="ro", timeout_s=timeout_s)
        try:
            conn.execute(f"PRAGMA busy_timeout={int(timeout_s * 1000)}")
            result = quick_check(conn)
        finally:
            conn.close()
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc).lower() or "busy" in str(exc).lower():
            raise _locked_error(db) from None
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
    """Replace the database at ``db_path`` with ``backup_path`` (see the module docstring).

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
    watch = _Watch(db, observe_s if agent_running_check else 0.0)
    _validate_backup(src, db)
    if not os.access(_existing_parent(db), os.W_OK):
        raise ReadOnlyError(
            f"{db}: its directory cannot be written, so nothing can be restored there.",
            code="restore.dir_not_writable",
            params={"path": str(db)},
        )
    if agent_running_check:
        recent = _recent_wal(db, wal_recent_s)
        if recent is not None:
            raise recent
    if _held_by_another_process(db):
        raise _locked_error(db)
    live = _inspect_live(db, lock_timeout_s)
    if agent_running_check:
        watch.check(wait=True)
    actor = actor or _default_actor()
    if live.problem is None:
        timeout = lock_timeout_s if agent_running_check else 5.0
        return _restore_in_place(db, src, timeout, progress, actor, watch if agent_running_check else None)
    return _restore_over_damaged(db, src, live, progress, actor, watch if agent_running_check else None)


def _existing_parent(p: Path) -> Path:
    """The nearest directory above ``p`` that exists (where a missing directory would be created)."""
    return next((parent for parent in p.parents if parent.exists()), Path(p.anchor or "."))


def _default_actor() -> str:
    from core.audit import default_actor

    return default_actor()


def _record_restore(conn: sqlite3.Connection, actor: str, db: Path, src: Path, before: dict[str, Any]) -> int:
    """The ``database.restore`` audit row, written in the restored file in a transaction of its own."""
    from core import audit, schema

    schema.create_audit_table(conn)
    conn.execute("BEGIN IMMEDIATE")
    try:
        entry = audit.record(
            conn,
            actor=actor,
            action=RESTORE_ACTION,
            target_type="database",
            target_id=db.name,
            before=before,
            after={"restoredFrom": str(src), "backupCreatedAt": backup_created_at(src.name)},
        )
        conn.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise
    return entry.id


def _chmod_live(db: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        f = Path(str(db) + suffix)
        if file_kind(f) == "file":
            chmod_private(f)


def _stage_with_page_size(
    src: sqlite3.Connection, where: Path, page_size: int
) -> tuple[sqlite3.Connection, Path]:
    """A private WAL-mode copy of the backup beside the live file, with the live file's page size.

    A WAL database cannot take pages of another size, and a page 1 that says "rollback journal" (this
    project's backups) switches the live file out of WAL as it is copied in: a copy that failed then left
    it in a rollback journal with a hot journal beside it. From this copy the copy into the live file is
    one WAL transaction: it commits whole or leaves the file as it was."""
    d = Path(tempfile.mkdtemp(prefix=".philont-restore-", dir=where))
    with contextlib.suppress(OSError):
        os.chmod(d, 0o700)
    staged = d / "staged.sqlite"
    conn = sqlite3.connect(str(staged), isolation_level=None, check_same_thread=False)
    try:
        chmod_private(staged)
        src.backup(conn, pages=-1)
        conn.execute("PRAGMA journal_mode=DELETE")
        conn.execute(f"PRAGMA page_size={int(page_size)}")
        conn.execute("VACUUM")
        conn.execute("PRAGMA journal_mode=WAL")  # page 1 is copied too: it must keep the live file in WAL
    except BaseException:
        conn.close()
        shutil.rmtree(d, ignore_errors=True)
        raise
    return conn, d


def _restore_in_place(
    db: Path,
    src_path: Path,
    lock_timeout_s: float,
    progress: Callable[[int, int], object] | None,
    actor: str,
    watch: _Watch | None,
) -> RestoreResult:
    """The live file is sound: back its content up, then copy the backup in under an exclusive lock."""
    src = _open_backup(src_path)
    dest = None
    staged_dir: Path | None = None
    source = src
    done = [0]
    try:
        dest = _lock_exclusive(db, lock_timeout_s)
        if watch is not None:  # written between the look and the lock: the agent is at work
            watch.check()
        safety = copy_to_backup(dest, backups_dir(db), db_name=db.name)  # a new name, never the one restored
        src_ps = int(src.execute("PRAGMA page_size").fetchone()[0])
        dst_ps = int(dest.execute("PRAGMA page_size").fetchone()[0])
        dest_wal = str(dest.execute("PRAGMA journal_mode").fetchone()[0]).lower() == "wal"
        # The live file stays in WAL: the copy takes its page size, and a header that says WAL.
        if dest_wal and (src_ps != dst_ps or header_journal(src_path) != "wal"):
            source, staged_dir = _stage_with_page_size(src, db.parent, dst_ps)
        total_pages = int(source.execute("PRAGMA page_count").fetchone()[0]) or 1
        step = max(64, total_pages // 100)

        def _cb(status: int, remaining: int, total: int) -> None:
            done[0] = total
            if progress is not None:
                progress(total - remaining, total)

        source.backup(dest, pages=step, progress=_cb)
        if str(dest.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
            dest.execute("PRAGMA journal_mode=WAL")
        result = quick_check(dest)
        if result != "ok":
            raise MemoryError_(
                f"The restored database fails quick_check ({result.splitlines()[0]}). The file that was "
                f"replaced is in {safety}.",
                code="restore.result_bad",
                params={"path": str(db), "problem": result.splitlines()[0], "kept": str(safety)},
            )
        before = {"path": str(db), "state": "replaced", "problem": None, "keptAs": [str(safety)]}
        audit_id = _record_restore(dest, actor, db, src_path, before)
    finally:
        if dest is not None:
            dest.close()
        if staged_dir is not None:
            if source is not src:
                with contextlib.suppress(sqlite3.Error):
                    source.close()
            shutil.rmtree(staged_dir, ignore_errors=True)
        src.close()
    _chmod_live(db)
    return RestoreResult(db, src_path, safety_backup=safety, pages=done[0], audit_id=audit_id)


def _damaged_names(db: Path, d: Path, suffixes: tuple[str, ...]) -> dict[str, Path]:
    """``backups/damaged-<UTC second>[-n]-<name><suffix>`` for each suffix, none of them taken."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    for n in range(0, 10_000):
        stem = f"{DAMAGED_PREFIX}{stamp}{'' if n == 0 else f'-{n}'}-{db.name}"
        names = {s: d / (stem + s) for s in suffixes}
        if not any(os.path.lexists(p) for p in names.values()):
            return names
    raise MemoryError_(f"No free name in {d}.", code="backup.no_free_name", params={"dir": str(d)})


def _move_aside(db: Path, names: dict[str, Path]) -> list[Path]:
    """Move the live file and its side files to ``names`` (suffix -> path), all or none.

    On a failure the files already moved are moved back. The error says what is where: code
    ``restore.move_failed`` (``path``, ``error``, ``errno``: its symbolic name) when everything is back
    in place, ``restore.move_incomplete`` (also ``moved``: the files that stayed in ``backups/``) when
    something could not be moved back."""
    moved: list[tuple[Path, Path]] = []
    try:
        for suffix, target in names.items():
            source = Path(str(db) + suffix)
            if not _move_no_clobber(source, target):
                raise FileExistsError(errno.EEXIST, "a file of that name appeared", str(target))
            moved.append((source, target))
    except OSError as exc:
        stuck = []
        for source, target in reversed(moved):
            try:
                if not _move_no_clobber(target, source):
                    stuck.append(target)
            except OSError:
                stuck.append(target)
        folder = next(iter(names.values())).parent
        if isinstance(exc, PermissionError) and not stuck and not os.access(folder, os.W_OK):
            raise _folder_not_writable(folder) from None
        if isinstance(exc, PermissionError) and not stuck:
            raise _locked_error(db) from None
        params: dict[str, Any] = {
            "path": str(db),
            "error": exc.strerror or str(exc),
            "errno": errno.errorcode.get(exc.errno or 0),
        }
        if stuck:
            raise MemoryError_(
                f"The damaged file {db} could not be moved into {folder}: {params['error']}. Moving back "
                f"what was moved failed too: {', '.join(str(p) for p in stuck)} stayed there, byte for "
                "byte. Move them back beside the database before anything else.",
                code="restore.move_incomplete",
                params={**params, "moved": [str(p) for p in stuck]},
            ) from None
        raise MemoryError_(
            f"The damaged file {db} could not be moved into {folder}: {params['error']}. "
            "Nothing was changed.",
            code="restore.move_failed",
            params=params,
        ) from None
    return [t for _, t in moved]


def _move_no_clobber(source: Path, target: Path) -> bool:
    """Move one file keeping its bytes; across file systems, a synced copy under a temporary name that
    is then given the target's name, then the original goes. A copy that fails (a full disk) leaves
    nothing behind: the target exists whole or not at all."""
    try:
        return _link_no_clobber(source, target)
    except OSError as exc:
        if getattr(exc, "errno", None) != errno.EXDEV:  # backups/ on another file system
            raise
    if os.path.lexists(target):
        return False
    tmp = target.with_name(f".{target.name}.partial-{os.getpid()}-{threading.get_ident()}")
    try:
        shutil.copyfile(source, tmp)
        shutil.copystat(source, tmp)
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        placed = _link_no_clobber(tmp, target)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    if not placed:
        return False
    fsync_dir(target.parent)
    os.unlink(source)
    return True


def _restore_over_damaged(
    db: Path,
    src_path: Path,
    live: _LiveState,
    progress: Callable[[int, int], object] | None,
    actor: str,
    watch: _Watch | None,
) -> RestoreResult:
    """The live file is damaged or missing: stage the backup beside it, move the damaged files aside
    into ``backups/``, then give the staged copy the live name."""
    ensure_private_dir(db.parent)
    stage = Path(tempfile.mkdtemp(prefix=".philont-restore-", dir=db.parent))
    keep_stage = False
    try:
        with contextlib.suppress(OSError):
            os.chmod(stage, 0o700)
        staged = stage / db.name
        src = _open_backup(src_path)
        try:
            pages = _backup_api_copy(src, staged, progress=progress, journal="WAL")
        finally:
            src.close()
        d = backups_dir(db)
        ensure_backup_folder(d)
        live.undo_look(db)
        suffixes = (("",) if file_kind(db) == "file" else ()) + _side_files(db)
        names = _damaged_names(db, d, suffixes) if suffixes else {}
        conn = connect_file(staged, mode="rw", timeout_s=5.0)
        try:
            result = quick_check(conn)
            if result != "ok":
                raise MemoryError_(
                    f"The copy of the backup fails quick_check ({result.splitlines()[0]}). Nothing was changed.",
                    code="restore.result_bad",
                    params={"path": str(db), "problem": result.splitlines()[0], "kept": None},
                )
            before = {
                "path": str(db),
                "state": "missing" if live.problem == "missing" else "damaged",
                "problem": live.problem,
                "keptAs": [str(p) for p in names.values()],
            }
            audit_id = _record_restore(conn, actor, db, src_path, before)
        finally:
            conn.close()  # the last connection: the -wal is folded in and removed
        with open(staged, "rb") as fh:
            os.fsync(fh.fileno())
        if _held_by_another_process(db):
            raise _locked_error(db)
        if watch is not None:
            watch.check()
        moved = _move_aside(db, names) if names else []
        if not _link_no_clobber(staged, db):
            keep_stage = True
            raise MemoryError_(
                f"A new file appeared at {db} during the restore (did the agent start?); it was left alone. "
                f"The damaged files are in {d}; the restored copy is {staged}.",
                code="restore.live_reappeared",
                params={"path": str(db), "staged": str(staged), "kept": [str(p) for p in moved]},
            )
        fsync_dir(db.parent)
        fsync_dir(d)
    finally:
        if not keep_stage:
            shutil.rmtree(stage, ignore_errors=True)
    _chmod_live(db)
    return RestoreResult(
        db,
        src_path,
        damaged=tuple(moved),
        problem=live.problem,
        detail=live.detail,
        pages=pages,
        audit_id=audit_id,
    )


def damaged_files(db_path: str | os.PathLike[str]) -> list[Path]:
    """The files a restore moved aside into ``backups/`` (``damaged-*``), newest first."""
    d = backups_dir(db_path)
    if not d.is_dir():
        return []
    return sorted(
        (p for p in d.iterdir() if p.name.startswith(DAMAGED_PREFIX)), key=lambda p: p.name, reverse=True
    )
