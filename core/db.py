"""Opening a memory database: read-only by default, writable on request, never changed by a look.

This module owns every connection the project makes to a memory file.

* **Read-only** (the default for an existing file): ``file:…?mode=ro`` URI plus ``query_only``. No write
  transaction is ever started, so the main file and its ``-wal`` keep their bytes. Only where the
  directory cannot be written and no ``-shm`` exists is ``immutable=1`` used, with a warning.
* **Writable**: WAL, ``synchronous=NORMAL``, ``foreign_keys=ON``, ``busy_timeout=5000``; every write is
  a short ``BEGIN IMMEDIATE`` transaction through :meth:`MemoryDB.write`. Before the first write to an
  existing file a backup is taken in ``backups/`` and the missing additive columns are added.

The connection runs in autocommit mode: a ``SELECT`` is its own short read transaction, so browsing
never pins a WAL snapshot while a person reads the screen.
"""

from __future__ import annotations

import contextlib
import os
import stat
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import quote

from pydantic import BaseModel, Field

from core import MAX_KNOWN_SCHEMA_VERSION, MIN_KNOWN_SCHEMA_VERSION
from core.damage import decode_text
from core.engine import ENGINE, SQLITE_VERSION, sqlite3
from core.errors import DatabaseClosedError, DatabaseOpenError, Notice, ReadOnlyError
from core.paths import (
    NOTHING,
    chmod_private,
    describe_kind,
    ensure_private_dir,
    expand_user,
    inspect_path,
    real_path,
    tilde_note,
)

SQLITE_MAGIC = b"SQLite format 3\x00"
BUSY_TIMEOUT_MS = 5000


class OpenReport(BaseModel):
    """What opening a file found: shown by ``philont-memory info`` and the app's status bar."""

    path: str
    engine: str = ENGINE
    sqlite_version: str = SQLITE_VERSION
    schema_version: int | None = None
    schema_version_raw: str | None = None
    schema_status: str = "missing"
    journal_mode: str | None = None
    read_only: bool = True
    immutable: bool = False
    created: bool = False
    missing_tables: list[str] = Field(default_factory=list)
    missing_core_columns: list[str] = Field(default_factory=list)
    missing_peripheral_tables: list[str] = Field(default_factory=list)
    missing_fts: list[str] = Field(default_factory=list)
    missing_triggers: list[str] = Field(default_factory=list)
    missing_indexes: list[str] = Field(default_factory=list)
    missing_additive_columns: list[str] = Field(default_factory=list)
    quick_check: str | None = None
    writable: bool = False
    read_only_reason: str | None = None
    read_only_code: str | None = None
    read_only_params: dict[str, Any] = Field(default_factory=dict)
    warnings: list[str] = Field(default_factory=list)
    #: :attr:`warnings` with their codes and parameters (what the GUI translates).
    notices: list[Notice] = Field(default_factory=list)

    def warn(self, notice: Notice) -> None:
        """Add a warning: its English text to :attr:`warnings`, the notice to :attr:`notices`."""
        self.warnings.append(notice.message)
        self.notices.append(notice)

    @property
    def complete(self) -> bool:
        return not (self.missing_tables or self.missing_fts or self.missing_triggers)

    def read_only_notice(self) -> Notice | None:
        """Why writing is refused, as a coded :class:`~core.errors.Notice` (``None`` when writable).

        Codes: ``db.read_only.schema_newer`` / ``schema_older`` (``version``, ``min_known``,
        ``max_known``), ``schema_invalid`` (``value``), ``schema_missing``, ``missing_tables`` /
        ``missing_columns`` / ``missing_fts`` (``names``), ``damaged`` (``quick_check``), ``immutable``,
        ``file_not_writable``, ``dir_not_writable``.
        """
        if self.read_only_reason is None:
            return None
        return Notice(self.read_only_code or "db.read_only", self.read_only_reason, self.read_only_params)


def _connect_uri(uri: str, timeout_s: float) -> sqlite3.Connection:
    conn = sqlite3.connect(uri, uri=True, timeout=timeout_s, isolation_level=None, check_same_thread=False)
    _configure(conn)
    return conn


def _configure(conn: sqlite3.Connection) -> None:
    """Rows by name, and TEXT that is not UTF-8 read as a value (see :mod:`core.damage`)."""
    conn.row_factory = sqlite3.Row
    conn.text_factory = decode_text


def _file_uri(path: Path, **params: str) -> str:
    q = "&".join(f"{k}={v}" for k, v in params.items())
    # os.fsencode: a file name that is not UTF-8 reaches SQLite as the bytes it has on disk.
    return f"file:{quote(os.fsencode(path.resolve()))}" + (f"?{q}" if q else "")


def connect_file(
    path: str | os.PathLike[str], *, timeout_s: float = 1.0, **uri_params: str
) -> sqlite3.Connection:
    """A raw connection to ``path`` through a ``file:`` URI with ``uri_params`` (``mode="ro"``, ``immutable="1"``).

    For the backups module, which reads closed backup files and locks the live file for a restore; everything
    else opens a :class:`MemoryDB`. Autocommit, ``sqlite3.Row`` rows, usable from any thread.
    """
    return _connect_uri(_file_uri(Path(path), **uri_params), timeout_s)


# The database files this process has open through MemoryDB, by (device, inode), with how many connections.
_OPEN_FILES: dict[tuple[int, int], int] = {}
_OPEN_FILES_LOCK = threading.Lock()


def _file_key(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def open_in_this_process(path: str | os.PathLike[str]) -> bool:
    """Whether a :class:`MemoryDB` of this process has ``path`` open (then no descriptor of it may be
    opened and closed here: the close would release the connection's locks)."""
    key = _file_key(Path(path))
    with _OPEN_FILES_LOCK:
        return key is not None and key in _OPEN_FILES


def _track_open(key: tuple[int, int] | None, delta: int) -> None:
    if key is None:
        return
    with _OPEN_FILES_LOCK:
        n = _OPEN_FILES.get(key, 0) + delta
        if n > 0:
            _OPEN_FILES[key] = n
        else:
            _OPEN_FILES.pop(key, None)


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
    checkpoint in progress, see below). Nothing is written.
    """
    found = _path_problem(path)
    if found is not None:
        return found
    with _OPEN_FILES_LOCK:
        if _file_key(path) in _OPEN_FILES:
            # Checked when it was opened, and open here since. Closing a descriptor of it would release every
            # POSIX lock this process holds on it, SQLite's included: another process closing its last
            # connection would then checkpoint and delete the -wal under the connections still open here.
            return None
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
    size = st.st_size
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
    if wal_mode and _has_wal(path):
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


def check_file_header(path: Path, *, name_backup: bool = True) -> None:
    """Raise :class:`DatabaseOpenError` when ``path`` is missing, empty, not SQLite or truncated.

    The error names the newest backup that passes ``quick_check`` (``name_backup=False`` skips that
    search, which reads every backup).
    """
    found = header_problem(path)
    if found is None:
        return
    backup, searched = backup_search(path) if name_backup and found.name_backup else (None, False)
    raise DatabaseOpenError(
        path,
        found.problem,
        found.detail,
        backup,
        reason=found.reason,
        reason_params=found.params,
        searched=searched,
    )


FileIdentity = tuple[int, int]


def file_identity(path: str | os.PathLike[str]) -> FileIdentity | None:
    """``(device, inode)`` of the file at ``path`` (``None`` when there is none): which file a path
    names, to notice it being replaced by another file under the same name."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


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


def newest_good_backup(db_path: str | os.PathLike[str]) -> Path | None:
    """The newest file in ``backups/`` that passes ``quick_check`` (see :mod:`core.backups`)."""
    from core.backups import newest_good_backup as newest

    return newest(db_path)


def backup_search(db_path: str | os.PathLike[str]) -> tuple[Path | None, bool]:
    """``(the newest good backup, whether there were backups to look at)``: an error says that no
    backup passes ``quick_check`` only when some were looked at."""
    from core.backups import list_backups

    try:
        searched = bool(list_backups(db_path))
    except OSError:
        return None, False
    return (newest_good_backup(db_path) if searched else None), searched


class MemoryDB:
    """One connection to one memory file. Thread-safe through :attr:`lock`."""

    def __init__(
        self, conn: sqlite3.Connection, path: Path | None, report: OpenReport, *, fresh: bool = False
    ):
        self._conn = conn
        self.path = path
        self.report = report
        self.lock = threading.RLock()
        self._depth = 0
        self._prepared = fresh or path is None
        self._backup_before_write = True
        self.last_backup: Path | None = None
        self.backup_reused = False  # last_backup was taken earlier in this run of edits
        self._closed = False
        self._file_key = _file_key(path) if path is not None else None
        _track_open(self._file_key, 1)
        #: Which file was opened (:func:`file_identity`), to notice it being replaced or deleted.
        self.identity: FileIdentity | None = self._file_key

    # -- the connection -------------------------------------------------------------------------------
    @property
    def conn(self) -> sqlite3.Connection:
        """The connection; after :meth:`close`, :class:`DatabaseClosedError` (never a crash in the binding)."""
        if self._closed:
            raise self._closed_error()
        return self._conn

    @property
    def closed(self) -> bool:
        return self._closed

    def _closed_error(self) -> DatabaseClosedError:
        where = str(self.path) if self.path is not None else ":memory:"
        return DatabaseClosedError(
            f"{where}: the database has been closed; open it again to use it.",
            code="db.closed",
            params={"path": where},
        )

    def _check_open(self) -> None:
        if self._closed:
            raise self._closed_error()

    # -- opening -------------------------------------------------------------------------------------
    @property
    def read_only(self) -> bool:
        return self.report.read_only

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        writable: bool = False,
        create: bool = False,
        check: bool = True,
        backup_before_write: bool = True,
        expect: FileIdentity | None = None,
    ) -> MemoryDB:
        """Open ``path``. See the module docstring for the two modes.

        ``create`` makes a new database when the file does not exist. ``expect`` (a
        :func:`file_identity`) refuses a file that is not the one opened before (``replaced``). ``check`` runs ``quick_check``
        (seconds on a gigabyte file; the app runs it later in a worker with ``check=False`` here).
        Raises :class:`DatabaseOpenError` for a file that is not a usable SQLite database and
        :class:`ReadOnlyError` when ``writable`` is asked for a file that must not be written.
        """
        p = expand_user(path)
        if create:
            kind, st, _detail = inspect_path(p)
            empty = kind == "regular" and st is not None and st.st_size == 0 and not _has_wal(p)
            if kind == "missing" or empty:
                return cls.create(p)
        check_file_header(p)
        if expect is not None and file_identity(p) != expect:
            raise DatabaseOpenError(
                p,
                "replaced",
                "This is no longer the file that was opened: another file has taken its place (it was "
                "replaced, or deleted and created again). Nothing was read from or written to it; open it "
                "again to see it.",
                reason="db.open.why.replaced",
            )
        if writable:
            return cls._open_writable(p, check=check, backup_before_write=backup_before_write)
        return cls._open_readonly(p, check=check)

    @classmethod
    def _open_readonly(cls, p: Path, *, check: bool) -> MemoryDB:
        report = OpenReport(path=str(p), read_only=True)
        immutable = False
        shm = Path(str(p) + "-shm")
        if not os.access(p.parent, os.W_OK) and not shm.exists():
            immutable = True
            report.warn(
                Notice(
                    "db.warning.immutable",
                    "The directory cannot be written and has no -shm file: the database is opened with "
                    "immutable=1, so changes made by the agent while the app runs will not be seen.",
                    {"path": str(p.parent)},
                )
            )
        uri = _file_uri(p, mode="ro", **({"immutable": "1"} if immutable else {}))
        try:
            conn = _connect_uri(uri, BUSY_TIMEOUT_MS / 1000)
            conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            conn.execute("PRAGMA query_only=1")
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.DatabaseError as exc:
            raise _classify_open_error(p, exc) from None
        report.immutable = immutable
        db = cls(conn, p, report)
        db._fill_report(check=check, writable_requested=False)
        return db

    @classmethod
    def _open_writable(cls, p: Path, *, check: bool, backup_before_write: bool) -> MemoryDB:
        report = OpenReport(path=str(p), read_only=False)
        if not os.access(p, os.W_OK):
            raise ReadOnlyError(
                f"{p}: writing is refused: the file is not writable.",
                code="db.write_refused.file_not_writable",
                params={"path": str(p)},
            )
        if not os.access(p.parent, os.W_OK):
            raise ReadOnlyError(
                f"{p}: writing is refused: its directory is not writable.",
                code="db.write_refused.dir_not_writable",
                params={"path": str(p), "folder": str(p.parent)},
            )
        try:
            conn = _connect_uri(_file_uri(p, mode="rw"), BUSY_TIMEOUT_MS / 1000)
            conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.DatabaseError as exc:
            raise _classify_open_error(p, exc) from None
        db = cls(conn, p, report)
        db._fill_report(check=check, writable_requested=True)
        if report.read_only_reason:
            conn.close()
            refusal = report.read_only_notice()
            raise ReadOnlyError(
                f"{p}: writing is refused: {report.read_only_reason}",
                code="db.write_refused",
                params={
                    "path": str(p),
                    "reason": refusal.code if refusal else "",
                    "reason_params": dict(refusal.params) if refusal else {},
                },
            )
        db._backup_before_write = backup_before_write
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        if report.journal_mode != "wal":
            # Switching to WAL writes the header: it comes after the pre-write backup. The reference
            # keeps its files in WAL mode, so this is for files made by other tools.
            db._prepare_first_write()
            conn.execute("PRAGMA journal_mode=WAL")
            report.journal_mode = "wal"
        return db

    @classmethod
    def create(cls, path: str | os.PathLike[str], *, now: int | None = None) -> MemoryDB:
        """Create a new memory database at ``path`` (directory 0700 when created, files 0600)."""
        from core import schema

        p = expand_user(path)
        check_new_database_path(p)
        ensure_private_dir(p.parent)
        conn = _connect_uri(_file_uri(p, mode="rwc"), BUSY_TIMEOUT_MS / 1000)
        chmod_private(p)
        conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("BEGIN IMMEDIATE")
        try:
            schema.create_schema(conn, now=now)
            schema.create_audit_table(conn)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            conn.close()
            raise
        for suffix in ("", "-wal", "-shm"):
            f = Path(str(p) + suffix)
            if f.exists():
                chmod_private(f)
        report = OpenReport(path=str(p), read_only=False, created=True)
        db = cls(conn, p, report, fresh=True)
        db._fill_report(check=False, writable_requested=True)
        db.report.quick_check = "ok"
        return db

    @classmethod
    def memory(cls, *, now: int | None = None) -> MemoryDB:
        """A private in-memory database with the full schema (tests, previews)."""
        from core import schema

        conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        _configure(conn)
        conn.execute("PRAGMA foreign_keys=ON")
        schema.create_schema(conn, now=now)
        schema.create_audit_table(conn)
        report = OpenReport(path=":memory:", read_only=False, created=True)
        db = cls(conn, None, report, fresh=True)
        db._fill_report(check=False, writable_requested=True)
        return db

    def _fill_report(self, *, check: bool, writable_requested: bool) -> None:
        from core import schema

        r = self.report
        try:
            r.journal_mode = str(self.conn.execute("PRAGMA journal_mode").fetchone()[0]).lower()
            info = schema.inspect_schema(self.conn)
        except sqlite3.DatabaseError as exc:
            if self.path is not None:
                raise _classify_open_error(self.path, exc) from None
            raise
        r.schema_version = info.schema_version
        r.schema_version_raw = info.schema_version_raw
        r.schema_status = info.version_status
        r.missing_tables = sorted(info.missing_core_tables)
        r.missing_core_columns = sorted(info.missing_core_columns)
        r.missing_peripheral_tables = sorted(info.missing_peripheral_tables)
        r.missing_fts = sorted(info.missing_fts)
        r.missing_triggers = sorted(info.missing_triggers)
        r.missing_indexes = sorted(info.missing_indexes)
        r.missing_additive_columns = list(info.missing_additive_columns)
        if check:
            self.run_quick_check()
        self._update_writability(writable_requested)

    def run_quick_check(self) -> str:
        """Run ``quick_check`` now and record it in the report (seconds on big files)."""
        with self.lock:
            try:
                result = quick_check(self.conn)
            except sqlite3.DatabaseError as exc:
                result = f"quick_check failed: {exc}"
        self.report.quick_check = result
        self._update_writability(not self.report.read_only)
        return result

    def _update_writability(self, writable_requested: bool) -> None:
        r = self.report
        refusal = self._refusal()
        r.read_only_reason = None if refusal is None else refusal.message
        r.read_only_code = None if refusal is None else refusal.code
        r.read_only_params = {} if refusal is None else dict(refusal.params)
        r.writable = refusal is None

    def _refusal(self) -> Notice | None:
        """Why this file must not be written (``db.read_only.<why>``), or ``None``."""
        r = self.report
        versions = {
            "version": r.schema_version,
            "min_known": MIN_KNOWN_SCHEMA_VERSION,
            "max_known": MAX_KNOWN_SCHEMA_VERSION,
        }
        if r.schema_status == "newer":
            return Notice(
                "db.read_only.schema_newer",
                f"the database has schema version {r.schema_version}, newer than {MAX_KNOWN_SCHEMA_VERSION}, "
                "which this version understands; it is shown read-only and never re-stamped",
                versions,
            )
        if r.missing_tables:
            return Notice(
                "db.read_only.missing_tables",
                "core tables are missing: " + ", ".join(r.missing_tables),
                {"names": r.missing_tables},
            )
        if r.schema_status == "invalid":
            return Notice(
                "db.read_only.schema_invalid",
                f"the database's schema version {r.schema_version_raw!r} is not a version number; it is "
                "shown read-only and never re-stamped",
                {"value": r.schema_version_raw},
            )
        if r.schema_status == "older":
            return Notice(
                "db.read_only.schema_older",
                f"the database has schema version {r.schema_version}, older than {MIN_KNOWN_SCHEMA_VERSION}; "
                "this version does not migrate it, so it is shown read-only",
                versions,
            )
        if r.schema_status == "missing":
            return Notice(
                "db.read_only.schema_missing",
                "the database has no schema version; it is shown read-only and never stamped",
                {},
            )
        if r.missing_core_columns:
            names = r.missing_core_columns
            return Notice(
                "db.read_only.missing_columns",
                "core columns are missing: " + ", ".join(names),
                {"names": names},
            )
        if r.missing_fts:
            names = r.missing_fts
            return Notice(
                "db.read_only.missing_fts",
                "full-text tables are missing: " + ", ".join(names),
                {"names": names},
            )
        if r.quick_check not in (None, "ok"):
            first = r.quick_check.splitlines()[0]
            return Notice(
                "db.read_only.damaged",
                "the database is damaged (quick_check: " + first + ")",
                {"quick_check": first},
            )
        if r.immutable:
            return Notice("db.read_only.immutable", "the database directory cannot be written", {})
        if self.path is not None and not os.access(self.path, os.W_OK):
            return Notice(
                "db.read_only.file_not_writable", "the file is not writable", {"path": str(self.path)}
            )
        if self.path is not None and not os.access(self.path.parent, os.W_OK):
            return Notice(
                "db.read_only.dir_not_writable",
                "the directory is not writable",
                {"path": str(self.path.parent)},
            )
        return None

    # -- writing -------------------------------------------------------------------------------------
    @contextlib.contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """A short ``BEGIN IMMEDIATE`` transaction; nested uses join the outer one."""
        self._check_open()
        if self.report.read_only:
            raise ReadOnlyError("The database is open read-only.", code="db.read_only")
        if self.report.read_only_reason:
            refusal = self.report.read_only_notice()
            raise ReadOnlyError(
                f"Writing is refused: {self.report.read_only_reason}.",
                code="db.write_refused",
                params={
                    "path": str(self.path),
                    "reason": refusal.code if refusal else "",
                    "reason_params": dict(refusal.params) if refusal else {},
                },
            )
        with self.lock:
            if self._depth == 0:
                if not self._prepared:
                    self._prepare_first_write()
                self.conn.execute("BEGIN IMMEDIATE")
            self._depth += 1
            try:
                yield self.conn
            except BaseException:
                self._depth -= 1
                if self._depth == 0:
                    with contextlib.suppress(sqlite3.Error):
                        self.conn.execute("ROLLBACK")
                raise
            else:
                self._depth -= 1
                if self._depth == 0:
                    try:
                        self.conn.execute("COMMIT")
                    except BaseException:
                        with contextlib.suppress(sqlite3.Error):
                            self.conn.execute("ROLLBACK")
                        raise

    @property
    def in_transaction(self) -> bool:
        return self._depth > 0

    def _prepare_first_write(self) -> None:
        """Before the first write to an existing file: a backup, then the additive columns."""
        from core import schema

        self._prepared = True
        if self._backup_before_write and self.path is not None and not self.report.created:
            self._backup_for_run()
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            added = schema.add_additive_columns(self.conn)
            schema.create_audit_table(self.conn)
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            self._prepared = False
            raise
        if added:
            self.report.missing_additive_columns = []

    def _backup_for_run(self) -> None:
        """One backup per run of edits: a new one unless this project backed this database up less than
        :data:`core.backups.RUN_WINDOW_S` ago (then :attr:`last_backup` is that one and
        :attr:`backup_reused` is true)."""
        from core import backups

        assert self.path is not None
        recent = backups.recent_own_backup(self.path)
        self.backup_reused = recent is not None
        self.last_backup = recent if recent is not None else self.backup()

    def ensure_writable_schema(self) -> Path | None:
        """Take the pre-write backup and add missing additive columns now; returns the backup path."""
        self._check_open()
        if self.report.read_only:
            raise ReadOnlyError("The database is open read-only.", code="db.read_only")
        with self.lock:
            if not self._prepared:
                self._prepare_first_write()
        return self.last_backup

    # -- reading helpers ------------------------------------------------------------------------------
    def file_change(self) -> str | None:
        """What happened to the opened file on disk: ``deleted`` (nothing at its path any more),
        ``replaced`` (another file at its path) or ``emptied`` (cut to 0 bytes); ``None`` while the
        path still names the opened file. The connection keeps reading the opened file either way.
        Raises :class:`DatabaseClosedError` once closed, as every other method does."""
        self._check_open()
        if self.path is None or self.identity is None:
            return None
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return "deleted"
        except OSError:
            return None
        if (st.st_dev, st.st_ino) != self.identity:
            return "replaced"
        if st.st_size == 0:
            return "emptied"
        return None

    @contextlib.contextmanager
    def read_snapshot(self) -> Iterator[sqlite3.Connection]:
        """One read transaction: every query inside sees the same committed state (two counts taken
        while the agent writes agree with each other). Keep it short: it pins a WAL snapshot."""
        with self.lock:
            self._check_open()
            if self._depth > 0 or self.conn.in_transaction:
                yield self.conn  # already inside a transaction: it is the snapshot
                return
            self.conn.execute("BEGIN")
            try:
                yield self.conn
            finally:
                with contextlib.suppress(sqlite3.Error):
                    self.conn.execute("COMMIT")

    def fetch_tuples(self, sql: str, args: Sequence[Any] = ()) -> tuple[list[tuple[Any, ...]], list[str]]:
        """The rows of ``sql`` as plain tuples, and the names of its columns: for pages read while a
        person scrolls (a page of the timeline is a hundred rows of four texts each).

        Text is decoded by the binding itself (strict UTF-8, in C), not by a call of
        :func:`~core.damage.decode_text` per value. A value that is not valid UTF-8 makes the binding
        refuse the query; it is then read again through the connection's text factory, so that text
        still arrives as an :class:`~core.damage.UnreadableText` with its bytes: a page that holds one
        pays for the second read, a clean page never does.
        """
        with self.lock:
            conn = self.conn
            try:
                return _fetch_tuples(conn, sql, args, str)
            except sqlite3.OperationalError as exc:
                if not str(exc).startswith("Could not decode to UTF-8"):
                    raise
            return _fetch_tuples(conn, sql, args, conn.text_factory)

    def data_version(self) -> int:
        """``PRAGMA data_version``: changes when another connection committed."""
        with self.lock:
            return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    def total_changes(self) -> int:
        with self.lock:
            return self.conn.total_changes

    def table_exists(self, name: str) -> bool:
        with self.lock:
            row = self.conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type IN ('table','view') AND name=?", (name,)
            ).fetchone()
        return row is not None

    def has_column(self, table: str, column: str) -> bool:
        with self.lock:
            return any(r[1] == column for r in self.conn.execute(f'PRAGMA table_info("{table}")'))

    # -- backups --------------------------------------------------------------------------------------
    def backup(
        self,
        dest_dir: str | os.PathLike[str] | None = None,
        *,
        retain: int | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> Path:
        """Copy the database to a new backup of this project's,
        ``backups/philont-desktop-<database>-<UTC>.sqlite`` (see :func:`core.backups.copy_to_backup`).

        Rotation keeps the newest ``retain`` (default 28) of this project's backups of this database and
        never touches the agent's; ``progress(done_pages, total_pages)`` is called as the copy proceeds.
        """
        from core import backups

        self._check_open()
        if self.path is None:
            raise ReadOnlyError("An in-memory database has no backups.", code="backup.in_memory")
        d = Path(dest_dir) if dest_dir is not None else backups.backups_dir(self.path)
        name = real_path(self.path).name
        with self.lock:
            final = backups.copy_to_backup(self.conn, d, db_name=name, progress=progress)
        backups.rotate(d, backups.BACKUP_RETAIN if retain is None else retain, db_name=name)
        return final

    # -- closing --------------------------------------------------------------------------------------
    def close(self) -> None:
        """Close the connection (again: nothing). Every later use raises :class:`DatabaseClosedError`."""
        with self.lock:
            if self._closed:
                return
            self._closed = True
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
            _track_open(self._file_key, -1)

    def __enter__(self) -> MemoryDB:
        self._check_open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _fetch_tuples(
    conn: sqlite3.Connection, sql: str, args: Sequence[Any], text_factory: Any
) -> tuple[list[tuple[Any, ...]], list[str]]:
    """:meth:`MemoryDB.fetch_tuples` with ``text_factory`` for this query (the lock is held)."""
    saved = conn.text_factory
    conn.text_factory = text_factory
    try:
        cur = conn.cursor()
        cur.row_factory = None
        rows = cur.execute(sql, tuple(args)).fetchall()
        return rows, [d[0] for d in cur.description or ()]
    finally:
        conn.text_factory = saved


def _has_wal(p: Path) -> bool:
    w = Path(str(p) + "-wal")
    return w.exists() and w.stat().st_size > 0


def _classify_open_error(p: Path, exc: Exception) -> DatabaseOpenError:
    msg = str(exc)
    low = msg.lower()
    e = {"error": msg}
    backup, searched = backup_search(p)
    if "not a database" in low or "file is encrypted" in low:
        return DatabaseOpenError(
            p,
            "not-sqlite",
            f"This is not an SQLite database ({msg}).",
            backup,
            searched=searched,
            reason="db.open.why.not_sqlite",
            reason_params=e,
        )
    if "malformed" in low or "corrupt" in low:
        return DatabaseOpenError(
            p,
            "corrupt",
            f"The database is damaged ({msg}).",
            backup,
            searched=searched,
            reason="db.open.why.damaged",
            reason_params=e,
        )
    if "unable to open" in low or "readonly" in low or "permission" in low:
        return DatabaseOpenError(
            p,
            "unreadable",
            f"The database cannot be opened ({msg}).",
            backup,
            searched=searched,
            reason="db.open.why.cannot_open",
            reason_params=e,
        )
    return DatabaseOpenError(
        p,
        "corrupt",
        f"The database cannot be read ({msg}).",
        backup,
        searched=searched,
        reason="db.open.why.cannot_read",
        reason_params=e,
    )
