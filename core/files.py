"""The file helpers a memory file and its backups share: connections by ``file:`` URI, which files this
process has open, what kind of file a path names, what its header says, side files, and giving a file
a name without replacing one.

:mod:`core.db` opens memory databases and :mod:`core.backups` writes, checks and restores their copies;
both build on this module, which imports neither. Nothing here writes to a database file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import threading
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import quote

from core import paths
from core.damage import decode_text
from core.engine import sqlite3
from core.errors import DatabaseOpenError
from core.paths import NOTHING, describe_kind, fsync_dir, inspect_path, tilde_note

SQLITE_MAGIC = b"SQLite format 3\x00"
SIDE_SUFFIXES = ("-wal", "-shm", "-journal")


# -- connections ----------------------------------------------------------------------------------------


def connect_uri(uri: str, timeout_s: float) -> sqlite3.Connection:
    conn = sqlite3.connect(uri, uri=True, timeout=timeout_s, isolation_level=None, check_same_thread=False)
    configure(conn)
    return conn


def configure(conn: sqlite3.Connection) -> None:
    """Rows by name, and TEXT that is not UTF-8 read as a value (see :mod:`core.damage`)."""
    conn.row_factory = sqlite3.Row
    conn.text_factory = decode_text


def file_uri(path: Path, **params: str) -> str:
    q = "&".join(f"{k}={v}" for k, v in params.items())
    # os.fsencode: a file name that is not UTF-8 reaches SQLite as the bytes it has on disk.
    return f"file:{quote(os.fsencode(path.resolve()))}" + (f"?{q}" if q else "")


def connect_file(
    path: str | os.PathLike[str], *, timeout_s: float = 1.0, **uri_params: str
) -> sqlite3.Connection:
    """A raw connection to ``path`` through a ``file:`` URI with ``uri_params`` (``mode="ro"``, ``immutable="1"``).

    For the backups module, which reads closed backup files and locks the live file for a restore; everything
    else opens a :class:`core.db.MemoryDB`. Autocommit, ``sqlite3.Row`` rows, usable from any thread.
    """
    return connect_uri(file_uri(Path(path), **uri_params), timeout_s)


# -- files this process has open ---------------------------------------------------------------

# The database files this process has open through MemoryDB, by (device, inode), with how many connections.
_OPEN_FILES: dict[tuple[int, int], int] = {}
_OPEN_FILES_LOCK = threading.Lock()


def file_key(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def open_in_this_process(path: str | os.PathLike[str]) -> bool:
    """Whether a :class:`MemoryDB` of this process has ``path`` open (then no descriptor of it may be
    opened and closed here: the close would release the connection's locks)."""
    key = file_key(Path(path))
    with _OPEN_FILES_LOCK:
        return key is not None and key in _OPEN_FILES


def track_open(key: tuple[int, int] | None, delta: int) -> None:
    if key is None:
        return
    with _OPEN_FILES_LOCK:
        n = _OPEN_FILES.get(key, 0) + delta
        if n > 0:
            _OPEN_FILES[key] = n
        else:
            _OPEN_FILES.pop(key, None)


FileIdentity = tuple[int, int]


def file_identity(path: str | os.PathLike[str]) -> FileIdentity | None:
    """``(device, inode)`` of the file at ``path`` (``None`` when there is none): which file a path
    names, to notice it being replaced by another file under the same name."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


# -- what a path names --------------------------------------------------------------------------


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


# core.paths.file_kind's classification, in the words of the backups' messages.
_KIND_WORDS = {
    "regular": "file",
    "folder": "directory",
    "fifo": "FIFO",
    "socket": "socket",
    "char-device": "device",
    "block-device": "device",
    "other": "special file",
}


def read_head(path: Path, n: int) -> bytes | None:
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
    head = read_head(Path(path), 20)
    if head is None or len(head) < 20 or not head.startswith(SQLITE_MAGIC):
        return None
    if head[18] == 2 or head[19] == 2:
        return "wal"
    return "rollback"


def side_files(path: Path) -> tuple[str, ...]:
    """The suffixes of the files beside ``path`` (``-wal``, ``-shm``, ``-journal``) that exist."""
    return tuple(s for s in SIDE_SUFFIXES if os.path.lexists(str(path) + s))


def has_wal(p: Path) -> bool:
    """Whether a ``-wal`` with content is beside ``p``."""
    w = Path(str(p) + "-wal")
    return w.exists() and w.stat().st_size > 0


# -- whether a file can be a database ---------------------------------------------------------------


class HeaderProblem(NamedTuple):
    """What :func:`header_problem` found: a :class:`DatabaseOpenError` problem, its detail, and whether
    naming the newest good backup helps (not for a missing file or a directory)."""

    problem: str
    detail: str
    name_backup: bool = True
    reason: str = ""  # the code of ``detail`` (``db.open.why.<what>``)
    params: dict[str, Any] = {}


def _path_problem(path: Path) -> HeaderProblem | None:
    """What is wrong with what ``path`` names, judged without opening it (``None``: a regular file).

    A FIFO, a socket or a device is ``special-file`` (reading one can block forever), a folder
    ``not-sqlite``, a loop of links ``symlink-loop``; a path that names nothing is ``missing`` with what is
    wrong (a link to nothing, a part of the path that is a file, ``~user`` of an unknown user).
    """
    kind, _st, detail = inspect_path(path)
    if kind == "regular":
        return None
    if kind == "folder":
        return HeaderProblem(
            "not-sqlite", "This path is a directory, not a database file.", False, "db.open.why.folder"
        )
    if kind == "symlink-loop":
        return HeaderProblem(
            "symlink-loop",
            f"This path names {describe_kind(kind)}.",
            False,
            "db.open.why.path_names",
            {"kind": kind, "kind_detail": ""},
        )
    if kind == "missing":
        note = tilde_note(path)
        if note:
            return HeaderProblem(
                "missing",
                "No database file exists at this path." + note,
                False,
                "db.open.why.missing_tilde",
                {"user": os.fspath(path)[1:].split(os.sep, 1)[0]},
            )
        return HeaderProblem("missing", "No database file exists at this path.", False, "db.open.why.missing")
    if kind in NOTHING:
        problem = "unreadable" if kind == "unreachable" else "missing"
        return HeaderProblem(
            problem,
            f"This path names {describe_kind(kind, detail)}.",
            False,
            "db.open.why.path_names",
            {"kind": kind, "kind_detail": os.fsdecode(detail)},
        )
    return HeaderProblem(
        "special-file",
        f"This is {describe_kind(kind)}, not a database file; it was not opened.",
        False,
        "db.open.why.special_file",
        {"kind": kind},
    )


def header_problem(path: Path) -> HeaderProblem | None:
    """Why ``path`` cannot be an SQLite database judging by the file alone, or ``None`` when it may be.

    Missing, a directory or another non-regular file (never opened: a FIFO would block), unreadable,
    empty, not starting with the SQLite header, or shorter than its header says (allowing for a WAL
    checkpoint in progress, see :func:`_content_problem`). Nothing is written.
    """
    found = _path_problem(path)
    if found is not None:
        return found
    with _OPEN_FILES_LOCK:
        if file_key(path) in _OPEN_FILES:
            # Checked when it was opened, and open here since. Closing a descriptor of it would release every
            # POSIX lock this process holds on it, SQLite's included: another process closing its last
            # connection would then checkpoint and delete the -wal under the connections still open here.
            return None
    opened = _read_header(path)
    if isinstance(opened, HeaderProblem):
        return opened
    return _content_problem(path, *opened)


def _read_header(path: Path) -> tuple[int, bytes] | HeaderProblem:
    """The size and first 100 bytes of the regular file at ``path`` (opened without blocking), or why
    it cannot be read."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):  # replaced between the look and the open
                return HeaderProblem(
                    "special-file",
                    "This is not a regular file; it was not read.",
                    False,
                    "db.open.why.not_regular",
                )
            header = os.read(fd, 100)
        finally:
            os.close(fd)
    except PermissionError:
        return HeaderProblem(
            "unreadable", "The file cannot be read: permission denied.", reason="db.open.why.permission"
        )
    except OSError as exc:
        return HeaderProblem(
            "unreadable",
            f"The file cannot be read: {exc.strerror}.",
            False,
            "db.open.why.os_error",
            {"error": exc.strerror or str(exc)},
        )
    return st.st_size, header


def _content_problem(path: Path, size: int, header: bytes) -> HeaderProblem | None:
    """What the first 100 bytes and the size of a regular file say against it being a database."""
    if size == 0:
        return HeaderProblem(
            "empty", "The file is empty (0 bytes): it holds no database.", reason="db.open.why.empty"
        )
    if not header.startswith(SQLITE_MAGIC):
        return HeaderProblem(
            "not-sqlite",
            "This is not an SQLite database (the file does not start with the SQLite header).",
            reason="db.open.why.no_header",
        )
    if len(header) < 100:
        return HeaderProblem(
            "truncated",
            "The file is truncated: its SQLite header is incomplete.",
            reason="db.open.why.short_header",
        )
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    n_pages = int.from_bytes(header[28:32], "big")
    change = int.from_bytes(header[24:28], "big")
    valid_for = int.from_bytes(header[92:96], "big")
    # In WAL mode a checkpoint writes page 1 (with the new page count) before the pages that extend
    # the file; until it completes, the rest of the database is in the -wal. A writer killed in
    # between (or a look during the checkpoint) leaves a main file shorter than its header says
    # while the database is whole: only the -wal's absence makes the short file a truncation.
    wal_mode = header[18] == 2 or header[19] == 2
    if wal_mode and has_wal(path):
        n_pages = 0
    if n_pages and change == valid_for and page_size and size < n_pages * page_size:
        return HeaderProblem(
            "truncated",
            f"The file is truncated: the header declares {n_pages} pages of {page_size} bytes "
            f"({n_pages * page_size} bytes) but the file has {size} bytes.",
            reason="db.open.why.truncated",
            params={"pages": n_pages, "page_size": page_size, "expected": n_pages * page_size, "size": size},
        )
    return None


def check_new_database_path(p: Path) -> None:
    """Raise :class:`DatabaseOpenError` unless a new database may be created at ``p``: nothing there
    (or an empty regular file), and no ``-wal``/``-shm`` beside it. An orphan ``-wal`` would be merged
    into the new database by SQLite (and a ``-shm`` describe another one): they are named, never
    deleted (problem ``orphan-files``)."""
    kind, st, detail = inspect_path(p)
    if kind == "regular" and st is not None and st.st_size > 0:
        raise DatabaseOpenError(
            p, "exists", "A file already exists at this path; it was left alone.", reason="db.open.why.exists"
        )
    if kind not in ("regular", "missing"):
        what = describe_kind(kind, detail)
        raise DatabaseOpenError(
            p,
            "exists",
            f"A new database cannot be created here: this path names {what}.",
            reason="db.open.why.cannot_create",
            reason_params={"kind": kind, "kind_detail": os.fsdecode(detail)},
        )
    orphans = [Path(str(p) + s) for s in ("-wal", "-shm") if os.path.lexists(str(p) + s)]
    if orphans:
        names = " and ".join(str(o) for o in orphans)
        many = len(orphans) > 1
        raise DatabaseOpenError(
            p,
            "orphan-files",
            f"{names} {'exist' if many else 'exists'} without a database: left by a database that was "
            f"moved or deleted, and SQLite would merge {'them' if many else 'it'} into a new one. Move "
            f"{'them' if many else 'it'} away first; nothing was written.",
            reason="db.open.why.orphan_files",
            reason_params={"names": [str(o) for o in orphans]},
        )


def quick_check(conn: sqlite3.Connection) -> str:
    """``PRAGMA quick_check`` as one string (``ok`` when healthy)."""
    rows = conn.execute("PRAGMA quick_check").fetchall()
    return "\n".join(str(r[0]) for r in rows) or "ok"


# -- names that are never replaced --------------------------------------------------------------


def link_no_clobber(src: Path, dst: Path) -> bool:
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


def move_no_clobber(source: Path, target: Path) -> bool:
    """Move one file keeping its bytes; across file systems, a synced copy under a temporary name that
    is then given the target's name, then the original goes. A copy that fails (a full disk) leaves
    nothing behind: the target exists whole or not at all."""
    try:
        return link_no_clobber(source, target)
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
        placed = link_no_clobber(tmp, target)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    if not placed:
        return False
    fsync_dir(target.parent)
    os.unlink(source)
    return True


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` may still run (the writer of a partial file): ``False`` only when it
    provably does not. Another user's process, an unexpected error and a system with no harmless probe
    (Windows: the file's age decides there) all count as alive, so nothing of a live run is deleted."""
    if os.name != "posix":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True
