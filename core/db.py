"""Opening a memory database: read-only by default, writable on request, never changed by a look.

This module owns every connection the project makes to a memory file (:mod:`core.files` has the
file-level helpers it shares with :mod:`core.backups`; :mod:`core.openreport` what an open found).

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
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from core import backups, schema
from core.backups import list_backups, newest_good_backup
from core.engine import sqlite3
from core.errors import DatabaseClosedError, DatabaseOpenError, Notice, ReadOnlyError
from core.files import (
    SQLITE_MAGIC,
    FileIdentity,
    HeaderProblem,
    check_new_database_path,
    configure,
    connect_file,
    connect_uri,
    file_identity,
    file_key,
    file_uri,
    has_wal,
    header_problem,
    open_in_this_process,
    quick_check,
    track_open,
)
from core.openreport import OpenReport, classify_open_error, write_refusal
from core.paths import chmod_private, ensure_private_dir, expand_user, inspect_path, real_path

BUSY_TIMEOUT_MS = 5000

__all__ = [
    "BUSY_TIMEOUT_MS",
    "SQLITE_MAGIC",
    "FileIdentity",
    "HeaderProblem",
    "MemoryDB",
    "OpenReport",
    "backup_search",
    "check_file_header",
    "check_new_database_path",
    "connect_file",
    "file_identity",
    "header_problem",
    "newest_good_backup",
    "open_in_this_process",
    "quick_check",
]


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


def backup_search(db_path: str | os.PathLike[str]) -> tuple[Path | None, bool]:
    """``(the newest good backup, whether there were backups to look at)``: an error says that no
    backup passes ``quick_check`` only when some were looked at."""
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
        self._file_key = file_key(path) if path is not None else None
        track_open(self._file_key, 1)
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
            empty = kind == "regular" and st is not None and st.st_size == 0 and not has_wal(p)
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
        uri = file_uri(p, mode="ro", **({"immutable": "1"} if immutable else {}))
        try:
            conn = connect_uri(uri, BUSY_TIMEOUT_MS / 1000)
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
            conn = connect_uri(file_uri(p, mode="rw"), BUSY_TIMEOUT_MS / 1000)
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
        p = expand_user(path)
        check_new_database_path(p)
        ensure_private_dir(p.parent)
        conn = connect_uri(file_uri(p, mode="rwc"), BUSY_TIMEOUT_MS / 1000)
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
        conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        configure(conn)
        conn.execute("PRAGMA foreign_keys=ON")
        schema.create_schema(conn, now=now)
        schema.create_audit_table(conn)
        report = OpenReport(path=":memory:", read_only=False, created=True)
        db = cls(conn, None, report, fresh=True)
        db._fill_report(check=False, writable_requested=True)
        return db

    def _fill_report(self, *, check: bool, writable_requested: bool) -> None:
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
        return write_refusal(self.report, self.path)

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
            track_open(self._file_key, -1)

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


def _classify_open_error(p: Path, exc: Exception) -> DatabaseOpenError:
    return classify_open_error(p, exc, *backup_search(p))
