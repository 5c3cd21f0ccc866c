"""A unit of work for :mod:`philont_desktop.workers` (which owns the threads that run it): its state,
cancellation and progress, with signals delivered on the GUI thread (by the :class:`Courier`, one
finished job per event-loop turn); and :func:`spin_until`, which runs the event loop until a condition
holds (tests and the self-test)."""

from __future__ import annotations

import collections
import contextlib
import inspect
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from philont_desktop.qt import QCoreApplication, QEventLoop, QObject, QTimer, Signal, Slot, is_valid

if TYPE_CHECKING:
    from core.db import MemoryDB
    from philont_desktop.workers import Workers

PROGRESS_INTERVAL_S = 0.05

__all__ = ["Job", "JobCancelledError", "spin_until"]


def _wants_job(fn: Callable[..., Any]) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    p = params.get("job")
    return p is not None and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)


class JobCancelledError(Exception):
    """Raised by :meth:`Job.raise_if_cancelled` inside a job that was cancelled."""


def spin_until(predicate: Callable[[], bool], timeout_ms: int = 10_000) -> bool:
    """Run the GUI event loop until ``predicate()`` is true or ``timeout_ms`` passed (tests, self-test).

    Returns the final value of ``predicate()``. Never use it in reaction to user input.
    """
    if predicate():
        return True
    deadline = time.monotonic() + timeout_ms / 1000
    loop = QEventLoop()
    timer = QTimer()
    timer.setInterval(10)

    def _tick() -> None:
        if predicate() or time.monotonic() >= deadline:
            loop.quit()

    timer.timeout.connect(_tick)
    timer.start()
    try:
        while True:
            loop.exec()
            # Posted results may start follow-up work (a page load after the first page): spin on
            # until the predicate holds after the queue is drained, or the time is up.
            QCoreApplication.processEvents()
            if predicate():
                return True
            if time.monotonic() >= deadline:
                return False
    finally:
        timer.stop()


class Job(QObject):
    """One unit of background work. Lives on the GUI thread; its signals are emitted there.

    Do not connect a job's signals to a lambda that holds the job itself: the connection keeps the job
    (and its result) alive for ever. Use ``on_result``/``on_error``, or ``Workers.jobDone`` /
    ``Workers.jobProgress``, which pass the job.
    """

    finished = Signal(object)  # the result
    failed = Signal(object)  # the exception
    progressed = Signal(int, int)  # done, total
    done = Signal()  # always, once, at the end (finished, failed or cancelled)

    def __init__(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        *,
        lane: str,
        key: str | None,
        label: str,
        show_progress: bool,
        on_result: Callable[[Any], Any] | None,
        on_error: Callable[[BaseException], Any] | None,
        on_progress: Callable[[int, int], Any] | None = None,
    ):
        super().__init__()
        self.fn = fn
        self.args = args
        self.lane = lane
        self.key = key
        self.label = label
        self.show_progress = show_progress
        self.on_result = on_result
        self.on_error = on_error
        self.on_progress = on_progress
        self.wants_job = _wants_job(fn)
        self.needs_writer = lane == "write"
        self.state = "queued"  # queued, running, finished, failed, cancelled
        self.result: Any = None
        self.error: BaseException | None = None
        self.last_progress: tuple[int, int] | None = None
        self._cancel = False
        self._lock = threading.Lock()
        self._db: MemoryDB | None = None  # the reader connection while running (for interrupt)
        self._workers: Workers | None = None
        self._last_emit = 0.0

    # -- state ------------------------------------------------------------------------------------------
    @property
    def cancelled(self) -> bool:
        return self._cancel

    @property
    def is_done(self) -> bool:
        return self.state in ("finished", "failed", "cancelled")

    def raise_if_cancelled(self) -> None:
        if self._cancel:
            raise JobCancelledError(self.label or "cancelled")

    def cancel(self) -> None:
        """Drop this job's result; a queued job never runs, a running read is interrupted."""
        if self.is_done or self._cancel:
            return
        self._cancel = True
        self._interrupt()
        if self._workers is not None:
            self._workers._take_requested.emit(self)

    def _interrupt(self) -> None:
        """Interrupt the statement this job's connection is running (reads and tasks, never a write)."""
        with self._lock:
            db = self._db
            if db is not None and self.lane != "write":
                with contextlib.suppress(Exception):
                    db.conn.interrupt()

    # -- from the worker thread ---------------------------------------------------------------------------
    @contextlib.contextmanager
    def interruptible(self, db: MemoryDB) -> Iterator[MemoryDB]:
        """Let :meth:`cancel` interrupt the queries of ``db`` (a connection a task opened itself)."""
        with self._lock:
            self._db = db
        try:
            yield db
        finally:
            with self._lock:
                self._db = None

    def progress(self, done: int, total: int) -> None:
        """Report progress (thread-safe; throttled to about 20 updates a second)."""
        now = time.monotonic()
        if done < total and now - self._last_emit < PROGRESS_INTERVAL_S:
            return
        self._last_emit = now
        self.last_progress = (int(done), int(total))
        if self._workers is not None:
            with contextlib.suppress(RuntimeError):
                self._workers._progress.emit(self, int(done), int(total))

    # -- waiting (tests, self-test, screenshots) ----------------------------------------------------------
    def wait(self, timeout_ms: int = 30_000) -> bool:
        """Spin the event loop until the job is done; ``True`` when it finished in time."""
        return spin_until(lambda: self.is_done, timeout_ms)

    def __repr__(self) -> str:
        return f"<Job {self.label or getattr(self.fn, '__name__', 'fn')} lane={self.lane} {self.state}>"


class Courier(QObject):
    """Delivers finished jobs on the GUI thread, of every :class:`~philont_desktop.workers.Workers`
    (``workers._on_delivered(job)``), one per event-loop turn.

    A lone result is delivered at once. Results that arrive in the same turn (a database's context
    and its first page of rows, a preview without and then with recall) wait for the next turns, in
    the order they came: their handlers (a model filled, a view rendered) would otherwise run back to
    back in one long turn during which the window can neither paint nor react. The next delivery is
    due from the end of the last one, so the timers that came due while it ran (a paint put off to
    the next turn, an animation's step) fire before it, not after.
    """

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._inbox: collections.deque[tuple[Any, Job]] = collections.deque()
        self._pacer = QTimer(self)
        self._pacer.setSingleShot(True)
        self._pacer.setInterval(0)
        self._pacer.timeout.connect(self._next)

    def arrive(self, workers: Any, job: Job) -> None:
        if self._pacer.isActive() or self._inbox:
            self._inbox.append((workers, job))
            if not self._pacer.isActive():
                self._pacer.start()
            return
        self._pacer.start()  # what arrives in this same turn waits for the next
        workers._on_delivered(job)
        self._pacer.start()  # due from now: timers that came due meanwhile go first

    @Slot()
    def _next(self) -> None:
        while self._inbox:
            workers, job = self._inbox.popleft()
            if is_valid(workers) and not job.is_done:
                self._pacer.start()
                workers._on_delivered(job)
                self._pacer.start()
                return


_courier: Courier | None = None


def courier() -> Courier:
    """The application's courier (made on first use, owned by the application object)."""
    global _courier
    if _courier is None or not is_valid(_courier):
        _courier = Courier(QCoreApplication.instance())
    return _courier
