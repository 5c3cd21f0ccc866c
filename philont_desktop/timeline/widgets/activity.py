"""The place of the activity chart above the conversation: says it is loading until the per-day counts
arrive, and builds the chart (pyqtgraph's first paint is not free) only once the first messages are
shown and the tab's reads are done (or when it is first asked for)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from philont_desktop import preload
from philont_desktop.qt import QLabel, Qt, QTimer, QVBoxLayout, QWidget, Signal, is_valid
from philont_desktop.widgets.after_paint import next_turn

#: How long the chart waits for the tab's reads to end before it is made anyway.
QUIET_WAIT_S = 3.0
RETRY_MS = 30


class ActivityPane(QWidget):
    """Holds the :class:`~philont_desktop.timeline.widgets.chart.ActivityChart`; ``rangeSelected`` as it."""

    rangeSelected = Signal(object, object)

    def __init__(self, theme: Any, tz_offset_minutes: int, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("activityChartBox")
        self.setMinimumHeight(110)
        self._theme = theme
        self._tz = tz_offset_minutes
        self._chart: Any = None
        self._counts: list[tuple[int, int]] | None = None
        self._timeless = 0
        self._range: tuple[int | None, int | None] = (None, None)
        self.loading_label = QLabel(self.tr("Counting messages per day…"), self)
        self.loading_label.setObjectName("activityLoading")
        self.loading_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.addWidget(self.loading_label)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._make_when_quiet)
        self._reveal = next_turn(self, self._show)
        #: Whether the tab's reads still run: making a plot is ~25 ms of Python, which beside workers
        #: running Python (the first pages of a big file) became a 60 ms stall.
        self.reads_running: Callable[[], bool] = lambda: False
        self._waiting_since = 0.0

    @property
    def chart(self) -> Any:
        """The chart (built on first use), with its counts."""
        self._make()
        self._show()
        return self._chart

    def _make(self) -> None:
        """Make the chart, hidden: its bars and its first paint come in the next event-loop turns (making
        a pyqtgraph plot and drawing a few hundred days in one turn held the GUI thread ~40 ms)."""
        if self._chart is None:
            from philont_desktop.timeline.widgets.chart import ActivityChart

            self._chart = ActivityChart(self._theme, self, tz_offset_minutes=self._tz)
            self._chart.rangeSelected.connect(self.rangeSelected)
            self._chart.hide()
            self._layout.addWidget(self._chart)
            self._reveal.start()

    def _show(self) -> None:
        self._reveal.stop()
        if self._chart is not None and self._chart.isHidden():
            if self._counts is not None:
                self._chart.set_counts(self._counts, self._timeless)
            if self._range != (None, None):
                self._chart.set_range(*self._range)
            self.loading_label.setVisible(self._counts is None)
            self._chart.show()

    @property
    def built(self) -> bool:
        return self._chart is not None

    def build_later(self) -> None:
        if self._chart is None:  # once pyqtgraph is imported (off the GUI thread when preloading)
            preload.when_loaded(preload.PLOTS, self._start_timer)

    def _start_timer(self) -> None:
        if is_valid(self) and self._chart is None:
            self._waiting_since = time.monotonic()
            self._timer.start(RETRY_MS)

    def _make_when_quiet(self) -> None:
        if self._chart is not None:
            return
        if self.reads_running() and time.monotonic() - self._waiting_since < QUIET_WAIT_S:
            self._timer.start(RETRY_MS)
            return
        self._make()

    @property
    def counts(self) -> list[tuple[int, int]]:
        return list(self._counts or [])

    def set_counts(self, counts: list[tuple[int, int]], timeless: int = 0) -> None:
        """The bars, and how many messages have no day (a time no date can hold)."""
        self._counts = list(counts)
        self._timeless = int(timeless)
        if self._chart is not None and not self._chart.isHidden():
            self.loading_label.hide()
            self._chart.set_counts(self._counts, self._timeless)
            if self._range != (None, None):
                self._chart.set_range(*self._range)

    def set_range(self, since: int | None, until: int | None) -> None:
        self._range = (since, until)
        if self._chart is not None and not self._chart.isHidden():
            self._chart.set_range(since, until)
