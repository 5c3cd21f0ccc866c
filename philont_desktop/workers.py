"""The one place that owns threads: every core call of the application runs here, off the GUI thread.

Four lanes, each a ``QThreadPool`` whose threads never expire:

* ``read`` (2-4 threads): ``fn(db, *args)`` on a read-only :class:`core.db.MemoryDB` owned by the thread
  (opened on first use with ``check=False``, closed at shutdown). Autocommit: every query is its own
  short read transaction, nothing pins a WAL snapshot.
* ``monitor`` (1 thread): the same, for the cheap periodic probes (``PRAGMA data_version`` must always be
  asked on the same connection, and a long search must not delay the live indicator).
* ``write`` (1 thread): ``fn(db, *args)`` on the single writable ``MemoryDB`` (editing mode only).
* ``task`` (1 thread): ``fn(*args)`` without a database (opening a file, generating a demo database).
* ``background`` (1 thread): ``fn(*args)`` without a database, on a thread the system schedules after
  the others (:data:`BACKGROUND_NICE`): long work nobody waits for (the integrity check) takes the
  processors the window and the tabs' reads leave, instead of sharing them (two cores: a check beside
  an import and the GUI thread made each wait for a processor).

Results come back on the GUI thread: ``on_result(value)`` / ``on_error(exc)`` and the :class:`Job`'s
signals. A job started with a ``key`` cancels the unfinished job with the same key (its result is
dropped; a queued job never runs; a running read is interrupted with ``sqlite3_interrupt``). ``fn`` may
take a keyword argument ``job`` to report ``job.progress(done, total)`` and to look at
``job.cancelled``.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.errors import ReadOnlyError
from philont_desktop import interpreter
from philont_desktop.jobs import Job, JobCancelledError, courier, spin_until
from philont_desktop.ops import ReadOp
from philont_desktop.qt import (
    QObject,
    QRunnable,
    Qt,
    QThread,
    QThreadPool,
    QTimer,
    Signal,
    Slot,
)

if TYPE_CHECKING:
    from core.db import MemoryDB

REINTERRUPT_MS = 50  # how often a cancelled job that is still running is interrupted again
BACKGROUND_NICE = 10  # the background lane's niceness (Linux; a tenth of a normal thread's share)


def _lower_this_thread() -> None:
    """Let the system schedule the calling thread (the background lane's) after the others.

    Linux only, where a thread has a niceness of its own (``setpriority`` on its thread id); the lane's
    thread keeps it (an unprivileged process cannot raise it back), which is why the lane is its own.
    """
    if not sys.platform.startswith("linux"):
        return
    tid = threading.get_native_id()
    with contextlib.suppress(OSError):
        if os.getpriority(os.PRIO_PROCESS, tid) < BACKGROUND_NICE:
            os.setpriority(os.PRIO_PROCESS, tid, BACKGROUND_NICE)


class _Runnable(QRunnable):
    def __init__(self, workers: Workers, job: Job):
        super().__init__()
        self.setAutoDelete(False)
        self.workers = workers
        self.job = job

    def run(self) -> None:
        workers, job = self.workers, self.job
        # The pool keeps this wrapper alive; drop what it refers to so that jobs and results are freed.
        self.workers = self.job = None
        if workers is not None and job is not None:
            workers._execute(job)

    def release(self) -> None:
        self.workers = self.job = None


class Workers(QObject):
    """Thread pools, per-thread read-only connections and the writer of one database.

    ``Workers(None)`` (no database) only runs ``task`` jobs.
    """

    jobStarted = Signal(object)  # a job started with progress=True (the shell shows it)
    jobDone = Signal(object)  # every job, once, after its own signals (finished/failed/cancelled)
    jobProgress = Signal(object, int, int)  # job, done, total
    unhandledError = Signal(object, object)  # job, exception: a failed job without on_error
    writerChanged = Signal(bool)

    _delivered = Signal(object)
    _progress = Signal(object, int, int)
    _take_requested = Signal(object)

    def __init__(self, db_path: str | Path | None = None, *, readers: int | None = None, parent=None):
        super().__init__(parent)
        self.db_path = Path(db_path) if db_path is not None else None
        # The file opened: a connection to a different file at the same path (replaced or deleted and
        # created again) is refused, so no tab and no edit ever reaches another file than the one shown.
        if self.db_path is not None:
            from core.db import file_identity

            self.identity = file_identity(self.db_path)
        else:
            self.identity = None
        ideal = QThread.idealThreadCount()
        n_readers = readers if readers is not None else max(2, min(4, ideal))
        self._pools: dict[str, QThreadPool] = {}
        for lane, n in (("read", n_readers), ("monitor", 1), ("write", 1), ("task", 1), ("background", 1)):
            pool = QThreadPool(self)
            pool.setMaxThreadCount(n)
            pool.setExpiryTimeout(-1)
            pool.setObjectName(f"philont-{lane}")
            self._pools[lane] = pool
        # Per-thread reader connections, keyed by the OS thread id: threading.local does not survive
        # between runnables on pool threads (each run gets a fresh Python thread state).
        self._readers: dict[int, MemoryDB] = {}
        self._conn_lock = threading.Lock()
        self._writer: MemoryDB | None = None
        self._writer_open = False  # GUI-thread view of the writer state
        self._runnables: dict[Job, _Runnable] = {}
        self._keyed: dict[str, Job] = {}
        self._closed = False
        self._delivered.connect(self._on_arrived, Qt.ConnectionType.QueuedConnection)
        self._progress.connect(self._on_progress, Qt.ConnectionType.QueuedConnection)
        self._take_requested.connect(self._on_take_requested, Qt.ConnectionType.QueuedConnection)
        # sqlite3_interrupt() only stops statements running at that moment: a cancel that lands between
        # a job taking its connection and starting its statement would be lost, so cancelled jobs that
        # are still running are interrupted again until they end (no cost while nothing is cancelled).
        self._reinterrupt = QTimer(self)
        self._reinterrupt.setInterval(REINTERRUPT_MS)
        self._reinterrupt.timeout.connect(self._interrupt_cancelled)

    # -- submitting ---------------------------------------------------------------------------------------
    def submit(
        self,
        op: ReadOp,
        *,
        on_result: Callable[[Any], Any] | None = None,
        on_error: Callable[[BaseException], Any] | None = None,
        on_progress: Callable[[int, int], Any] | None = None,
    ) -> Job:
        """Run the read op (see :class:`philont_desktop.ops.ReadOp`) off the GUI thread."""
        if op.lane not in ("task", "background") and self.db_path is None:
            raise RuntimeError("no database: only task jobs can run")
        job = Job(
            op.fn,
            op.args,
            lane=op.lane,
            key=op.key,
            label=op.label,
            show_progress=op.progress,
            on_result=on_result,
            on_error=on_error,
            on_progress=on_progress,
        )
        return self._submit(job)

    def run(
        self,
        fn: Callable[..., Any],
        *args: Any,
        on_result: Callable[[Any], Any] | None = None,
        on_error: Callable[[BaseException], Any] | None = None,
        on_progress: Callable[[int, int], Any] | None = None,
        lane: str = "read",
        **op: Any,
    ) -> Job:
        """Run ``fn(db, *args)`` (``fn(*args)`` on the ``task`` lane); ``op``: ``key``, ``label``, ``progress``."""
        if lane == "write":
            return self.write(fn, *args, on_result=on_result, on_error=on_error, **op)
        return self.submit(
            ReadOp(fn, args, lane=lane, **op), on_result=on_result, on_error=on_error, on_progress=on_progress
        )

    def _submit(self, job: Job) -> Job:
        job._workers = self
        key, lane = job.key, job.lane
        if self._closed:
            job._cancel = True
            job.state = "cancelled"
            return job
        if key is not None:
            old = self._keyed.get(key)
            if old is not None and not old.is_done:
                old.cancel()
            self._keyed[key] = job
        runnable = _Runnable(self, job)
        self._runnables[job] = runnable
        self._pools[lane].start(runnable)
        if job.show_progress:
            self.jobStarted.emit(job)
        return job

    def write(
        self,
        fn: Callable[..., Any],
        *args: Any,
        on_result: Callable[[Any], Any] | None = None,
        on_error: Callable[[BaseException], Any] | None = None,
        progress: bool = False,
        label: str = "",
    ) -> Job:
        """Run ``fn(writer_db, *args)`` on the writer thread (fails with ReadOnlyError when it is closed)."""
        job = Job(
            fn,
            args,
            lane="write",
            key=None,
            label=label,
            show_progress=progress,
            on_result=on_result,
            on_error=on_error,
        )
        return self._submit(job)

    def task(
        self,
        fn: Callable[..., Any],
        *args: Any,
        on_result: Callable[[Any], Any] | None = None,
        on_error: Callable[[BaseException], Any] | None = None,
        progress: bool = False,
        label: str = "",
    ) -> Job:
        """Run ``fn(*args)`` (no database) on the task thread."""
        return self.submit(
            ReadOp(fn, args, lane="task", progress=progress, label=label),
            on_result=on_result,
            on_error=on_error,
        )

    # -- the writer ---------------------------------------------------------------------------------------
    @property
    def writer_open(self) -> bool:
        return self._writer_open

    def open_writer(
        self,
        *,
        check: bool = False,
        on_result: Callable[[Any], Any] | None = None,
        on_error: Callable[[BaseException], Any] | None = None,
        progress: bool = True,
        label: str = "",
    ) -> Job:
        """Take a backup, then open the writable connection and prepare the schema for writing.

        The backup is copied through a read-only connection (with progress) before the writable
        connection exists, so nothing of ours has touched the file when it is taken. Returns (by
        ``on_result``) the path of the backup, or ``None`` for a database this project just created.
        ``check`` runs ``quick_check`` first (when the background check has not finished yet).
        """

        def _done(value: Any) -> None:
            self._writer_open = True
            self.writerChanged.emit(True)
            if on_result is not None:
                on_result(value)

        job = Job(
            lambda _db, job: self._open_writer(check, job),
            (),
            lane="write",
            key=None,
            label=label,
            show_progress=progress,
            on_result=_done,
            on_error=on_error,
        )
        job.needs_writer = False
        return self._submit(job)

    def _open_writer(self, check: bool, job: Job) -> Path | None:
        """On the write lane: the backup through a read-only connection, then the writable one."""
        if self._writer is not None:
            return self._writer.last_backup
        assert self.db_path is not None
        from core.db import MemoryDB

        ro = MemoryDB.open(self.db_path, check=check, expect=self.identity)
        try:
            refusal = ro.report.read_only_notice()
            if refusal is not None:
                raise ReadOnlyError(
                    f"Writing is refused: {refusal.message}.",
                    code="db.write_refused",
                    params={
                        "path": str(self.db_path),
                        "reason": refusal.code,
                        "reason_params": dict(refusal.params),
                    },
                )
            job.raise_if_cancelled()
            backup = ro.backup(progress=job.progress)
        finally:
            ro.close()
        job.raise_if_cancelled()
        db = MemoryDB.open(
            self.db_path, writable=True, check=False, backup_before_write=False, expect=self.identity
        )
        db.last_backup = backup
        try:
            db.ensure_writable_schema()
        except BaseException:
            db.close()
            raise
        self._writer = db
        return backup

    def close_writer(self, *, on_result: Callable[[Any], Any] | None = None) -> Job:
        def _close(db: Any) -> None:
            w, self._writer = self._writer, None
            if w is not None:
                w.close()

        def _done(value: Any) -> None:
            self._writer_open = False
            self.writerChanged.emit(False)
            if on_result is not None:
                on_result(value)

        job = Job(
            _close,
            (),
            lane="write",
            key=None,
            label="close writer",
            show_progress=False,
            on_result=_done,
            on_error=None,
        )
        job.needs_writer = False
        return self._submit(job)

    # -- waiting ------------------------------------------------------------------------------------------
    def pending(self, lane: str | None = None) -> int:
        return sum(1 for j in self._runnables if lane is None or j.lane == lane)

    def active_jobs(self) -> list[Job]:
        return list(self._runnables)

    def wait_idle(self, timeout_ms: int = 30_000, lane: str | None = None) -> bool:
        return spin_until(lambda: self.pending(lane) == 0, timeout_ms)

    def wait_lane(self, lane: str, timeout_ms: int) -> bool:
        """Block (no event loop) until the jobs started on ``lane`` have run; their results are
        delivered later, as always. For a short wait that must not let other events in."""
        return self._pools[lane].waitForDone(timeout_ms)

    # -- shutting down ------------------------------------------------------------------------------------
    @property
    def closed(self) -> bool:
        return self._closed

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel what is queued, interrupt reads, wait for the threads, close every connection.

        Returns ``False`` when some job was still running after ``timeout_ms`` (its connection is then
        left for the process exit to close).
        """
        if self._closed:
            return True
        self._closed = True
        self._reinterrupt.stop()
        reads = [job for job in self._runnables if job.lane != "write"]
        for job in reads:
            job._cancel = True
            job._interrupt()
        for lane, pool in self._pools.items():
            if lane != "write":
                pool.clear()
        deadline = time.monotonic() + timeout_ms / 1000
        ok = True
        for pool in self._pools.values():
            while True:  # interrupting again between waits: see _reinterrupt in __init__
                left = max(0, int((deadline - time.monotonic()) * 1000))
                done = pool.waitForDone(min(left, REINTERRUPT_MS))
                if done or left <= REINTERRUPT_MS:
                    break
                for job in reads:
                    job._interrupt()
            ok = done and ok
        if ok:
            w, self._writer = self._writer, None
            if w is not None:
                w.close()
            with self._conn_lock:
                conns, self._readers = list(self._readers.values()), {}
            for db in conns:
                db.close()
        self._writer_open = False
        self._runnables.clear()
        self._keyed.clear()
        return ok

    # -- worker-thread side ---------------------------------------------------------------------------------
    def _reader_db(self) -> MemoryDB:
        tid = threading.get_ident()
        with self._conn_lock:
            db = self._readers.get(tid)
        if db is None:
            assert self.db_path is not None
            from core.db import MemoryDB

            db = MemoryDB.open(self.db_path, check=False, expect=self.identity)
            with self._conn_lock:
                self._readers[tid] = db
        return db

    @property
    def reader_connections(self) -> int:
        """How many read-only connections the pool threads have opened."""
        with self._conn_lock:
            return len(self._readers)

    def _execute(self, job: Job) -> None:
        if not job._cancel:
            job.state = "running"
            try:
                args: tuple[Any, ...]
                if job.lane in ("read", "monitor"):
                    db = self._reader_db()
                    with job._lock:
                        job._db = db
                    # A cancel that came before the connection was known could not interrupt it.
                    job.raise_if_cancelled()
                    args = (db, *job.args)
                elif job.lane == "write":
                    if self._writer is None and job.needs_writer:
                        raise ReadOnlyError("Editing mode is off: turn it on to change the database.")
                    args = (self._writer, *job.args)
                else:
                    if job.lane == "background":
                        _lower_this_thread()
                    args = job.args
                kwargs = {"job": job} if job.wants_job else {}
                if job.lane == "read" and not job.show_progress:
                    with interpreter.reads_collector.job():
                        job.result = job.fn(*args, **kwargs)
                else:
                    job.result = job.fn(*args, **kwargs)
            except BaseException as exc:
                job.error = exc
            finally:
                with job._lock:
                    job._db = None
        with contextlib.suppress(RuntimeError):
            self._delivered.emit(job)

    # -- GUI-thread side ----------------------------------------------------------------------------------
    @Slot(object)
    def _on_take_requested(self, job: Job) -> None:
        runnable = self._runnables.get(job)
        if runnable is None or job.is_done:
            return
        if self._pools[job.lane].tryTake(runnable):
            runnable.release()
            self._on_delivered(job)
        elif job.lane != "write" and not self._reinterrupt.isActive():
            self._reinterrupt.start()

    @Slot()
    def _interrupt_cancelled(self) -> None:
        running = [j for j in self._runnables if j._cancel and j.lane != "write" and not j.is_done]
        for job in running:
            job._interrupt()
        if not running:
            self._reinterrupt.stop()

    @Slot(object, int, int)
    def _on_progress(self, job: Job, done: int, total: int) -> None:
        if job.is_done or job._cancel:
            return
        if job.on_progress is not None:
            job.on_progress(done, total)
        job.progressed.emit(done, total)
        self.jobProgress.emit(job, done, total)

    @Slot(object)
    def _on_arrived(self, job: Job) -> None:
        """A job ended (on the GUI thread now): delivered by the courier, one per event-loop turn."""
        courier().arrive(self, job)

    @Slot(object)
    def _on_delivered(self, job: Job) -> None:
        if job.is_done:
            return
        self._runnables.pop(job, None)
        if job.key is not None and self._keyed.get(job.key) is job:
            del self._keyed[job.key]
        try:
            if job._cancel or isinstance(job.error, JobCancelledError) or self._closed:
                job.state = "cancelled"
            elif job.error is None:
                job.state = "finished"
                if job.on_result is not None:
                    job.on_result(job.result)
                job.finished.emit(job.result)
            else:
                job.state = "failed"
                if job.on_error is not None:
                    job.on_error(job.error)
                else:
                    self.unhandledError.emit(job, job.error)
                job.failed.emit(job.error)
        finally:
            job.done.emit()
            self.jobDone.emit(job)
