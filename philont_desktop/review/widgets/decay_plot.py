"""A fact's decay curve around a change: the score over time, the forget threshold, the change's time
and now (the shared plots module; the score from :func:`core.decay.score_curve`)."""

from __future__ import annotations

import math
from typing import Any

from core.decay import DEFAULT_FORGET_THRESHOLD, score_curve
from philont_desktop.qt import Qt, QVBoxLayout, QWidget
from philont_desktop.widgets import accessible

__all__ = ["DecayPlot"]

DAY_MS = 86_400_000
POINTS = 160


class DecayPlot(QWidget):
    """``show_fact(state, at, now)``: ``state`` is a fact's JSON form (a change's ``after``/``before``)."""

    def __init__(self, theme: Any, parent: QWidget | None = None):
        super().__init__(parent)
        self.theme = theme
        self.plot: Any = None  # the plot widget, made when this page is first shown (pyqtgraph is slow
        # to build: the Review tab is built while a person looks at another tab)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._args: tuple[Any, ...] | None = None
        self.points: int = 0  # how many points the curve has (tests, self-test)

    def _make_plot(self) -> None:
        from philont_desktop.widgets.plots import ThemedPlotWidget

        self.plot = ThemedPlotWidget(self.theme, self, date_axis=True)
        self.plot.setObjectName("reviewDecayPlot")
        accessible.name_widget(self.plot)  # made when first shown
        self.plot.setLabel("left", self.tr("Score"))
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.themeChanged.connect(self._redraw)
        self._layout.addWidget(self.plot)
        self.plot.show()  # made while this widget is being shown: a late child is shown by hand

    def showEvent(self, event: Any) -> None:
        if self.plot is None:
            self._make_plot()
            self._redraw()
        super().showEvent(event)

    def show_fact(self, state: dict[str, Any] | None, at: int | None, now: int) -> None:
        self._args = (state, at, now) if isinstance(state, dict) else None
        self._redraw()

    def _redraw(self) -> None:
        if self.plot is not None:
            self.plot.clear()
        self.points = 0
        if self._args is None:
            return
        state, at, now = self._args
        anchor = state.get("lastAccessedAt") or state.get("createdAt")
        if not isinstance(anchor, int | float):
            return
        start = min(int(anchor), at or int(anchor)) - DAY_MS
        end = max(now, at or now) + 7 * DAY_MS
        step = max(1, (end - start) // POINTS)
        times = list(range(int(start), int(end) + 1, int(step)))
        conf = state.get("confidence")
        conf = conf if isinstance(conf, int | float) and math.isfinite(conf) else math.nan
        scores = score_curve(
            state.get("namespace") or "",
            conf,
            state.get("createdAt"),
            state.get("lastAccessedAt"),
            state.get("decayTauDays"),
            times,
        )
        xs = [t / 1000 for t, s in zip(times, scores, strict=True) if math.isfinite(s)]
        ys = [s for s in scores if math.isfinite(s)]
        self.points = len(xs)
        if self.plot is None:
            return
        from philont_desktop.widgets.plots import pg, role_pen

        self.plot.plot(xs, ys, pen=role_pen(self.theme, "assistant"))
        muted = self.theme.muted_text()
        self.plot.addItem(
            pg.InfiniteLine(
                DEFAULT_FORGET_THRESHOLD, angle=0, pen=pg.mkPen(muted, style=Qt.PenStyle.DashLine)
            )
        )
        self.plot.addItem(pg.InfiniteLine(now / 1000, angle=90, pen=pg.mkPen(muted)))
        if at is not None:
            self.plot.addItem(pg.InfiniteLine(at / 1000, angle=90, pen=role_pen(self.theme, "user", 1.5)))
        self.plot.setYRange(0, max(1.0, max(ys, default=1.0)), padding=0.05)
