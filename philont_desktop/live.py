"""Live refresh: notice when another process (the agent) wrote to the database, or replaced it.

About once a second the monitor lane asks ``PRAGMA data_version`` on its own read-only connection
(the value only means something compared with earlier answers of the same connection). When it
moved, :attr:`LiveMonitor.changed` fires; the shell turns that into ``ctx.dataChanged`` and the
visible tab refreshes, keeping selection and scroll position.

The same probe looks at the file itself (:meth:`core.db.MemoryDB.file_change`: its device and inode,
its size). An open connection keeps reading the file it opened, so a file replaced, deleted or emptied
on disk would otherwise go unnoticed while the app shows the old one: the monitor then stops, says so
(state ``replaced``, :attr:`LiveMonitor.fileChanged` with ``replaced``, ``deleted`` or ``emptied``),
and the shell shows a banner and keeps editing off.
"""

from __future__ import annotations

import time

from philont_desktop.qt import QObject, QTimer, Signal
from philont_desktop.workers import Job, Workers

DEFAULT_INTERVAL_MS = 1000
CHANGED_HIGHLIGHT_S = 2.0


def _probe(db) -> tuple[int, str | None]:
    return db.data_version(), db.file_change()


class LiveMonitor(QObject):
    """Polls ``PRAGMA data_version`` through :class:`~philont_desktop.workers.Workers`.

    States (``stateChanged(state, detail)``): ``starting``, ``live`` (watching), ``changed`` (a change
    was seen in the last two seconds), ``paused``, ``static`` (opened with ``immutable=1``: changes
    cannot be seen), ``error`` (the last probe failed; detail says why) and ``replaced`` (the file at the
    path is no longer the one shown: polling stopped, :attr:`file_problem` says what happened).
    """

    changed = Signal()
    stateChanged = Signal(str, str)
    fileChanged = Signal(str)  # replaced | deleted | emptied: the shown file is no longer at its path

    def __init__(
        self,
        workers: Workers,
        *,
        interval_ms: int = DEFAULT_INTERVAL_MS,
        immutable: bool = False,
        parent: QObject | None = None,
    ):
        super().__init__(parent)
        self._workers = workers
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.check_now)
        self._version: int | None = None
        self._inflight: Job | None = None
        self._again = False
        self._immutable = immutable
        self._state = "static" if immutable else "paused"
        self._detail = ""
        self._last_change = 0.0
        self.changes_seen = 0
        self.polls = 0
        self.file_problem: str | None = None

    # -- control --------------------------------------------------------------------------------------
    @property
    def state(self) -> str:
        return self._state

    @property
    def detail(self) -> str:
        return self._detail

    @property
    def running(self) -> bool:
        return self._timer.isActive()

    @property
    def interval_ms(self) -> int:
        return self._timer.interval()

    def start(self) -> None:
        if self.file_problem is not None:
            return  # the file shown is gone from its path: nothing more to watch
        if self._immutable:
            self._set_state("static", self.tr("Opened as an immutable file: changes are not seen."))
            return
        if not self._timer.isActive():
            self._timer.start()
            if self._state in ("paused", "error"):
                self._set_state("starting", "")
            self.check_now()

    def stop(self) -> None:
        self._timer.stop()
        if self._inflight is not None:
            self._inflight.cancel()
            self._inflight = None
        if not self._immutable:
            self._set_state("paused", self.tr("Live refresh is paused."))

    def check_now(self) -> Job | None:
        """Probe now (after our own writes: the change is reported without waiting for the timer); the
        probe started, or ``None`` when none was (one already in flight probes again when it is done)."""
        if self._immutable or self._workers.closed:
            return None
        if self._inflight is not None and not self._inflight.is_done:
            self._again = True
            return None
        self._again = False
        self._inflight = self._workers.run(
            _probe, on_result=self._on_version, on_error=self._on_error, lane="monitor", label="data_version"
        )
        return self._inflight

    # -- results --------------------------------------------------------------------------------------
    def _on_version(self, result: tuple[int, str | None] | int) -> None:
        self._inflight = None
        self.polls += 1
        version, problem = result if isinstance(result, tuple) else (result, None)
        if problem is not None:
            self._on_file_changed(problem)
            return
        previous, self._version = self._version, int(version)
        if previous is not None and previous != self._version:
            self.changes_seen += 1
            self._last_change = time.monotonic()
            self._set_state("changed", self.tr("The database changed just now."))
            self.changed.emit()
        elif self._state != "changed" or time.monotonic() - self._last_change > CHANGED_HIGHLIGHT_S:
            self._set_state("live", self.tr("Watching the database for changes (every second)."))
        if self._again:
            self.check_now()

    def _on_file_changed(self, problem: str) -> None:
        self.file_problem = problem
        self._timer.stop()
        detail = {
            "replaced": self.tr(
                "The database file was replaced on disk: what is shown is the file as it was opened."
            ),
            "deleted": self.tr(
                "The database file was deleted on disk: what is shown is the file as it was opened."
            ),
            "emptied": self.tr(
                "The database file was emptied on disk: what is shown is the file as it was opened."
            ),
        }.get(problem, problem)
        self._set_state("replaced", detail)
        self.fileChanged.emit(problem)

    def _on_error(self, exc: BaseException) -> None:
        self._inflight = None
        self._set_state("error", self.tr("Cannot check the database for changes: {0}").format(exc))

    def _set_state(self, state: str, detail: str) -> None:
        if (state, detail) != (self._state, self._detail):
            self._state, self._detail = state, detail
            self.stateChanged.emit(state, detail)
