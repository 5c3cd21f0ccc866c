"""The Facts tab's lower half: decay curves with the what-if box, the overview, history, forget pool.

The two plots are pyqtgraph widgets that take tens of milliseconds each to make. The tab is built in
one event-loop turn while the window builds its tabs in the background, so the plots are made in the
turns after it, one per turn (the curves' plot widget, then the curves with their lines and markers,
then the curve items the first drawing needs, each in a turn of its own), or at once when something
asks for them first.

Until the tab's first load has been drawn into them (:meth:`FactsBottom.release`) the plots do not paint:
under the loading veil they would be painted empty, and again when the rows arrive, before the drawing
that follows the rows (each paint of a plot is 10-20 ms of the GUI thread, in the visit's longest turns).
"""

from __future__ import annotations

from typing import Any

from philont_desktop.facts.sealed import Sealed
from philont_desktop.facts.widgets.forget_pool import ForgetPool
from philont_desktop.facts.widgets.history import HistoryView
from philont_desktop.facts.widgets.narrow import TAB_NARROW, Narrowing
from philont_desktop.qt import QHBoxLayout, QTabWidget, QTimer, QWidget, Signal
from philont_desktop.widgets.after_paint import next_turn

CURVES, OVERVIEW, HISTORY, POOL = range(4)
SPARE_CURVES = 6  # curve items made ahead: the leading curves drawn while nothing is selected


class FactsBottom(QTabWidget):
    """The pages, ``titles`` in order; ``curves`` and ``overview`` are made when first needed."""

    viewTimeDragged = Signal(float)  # the decay plot's view-time line dragged (epoch ms)
    overviewSelection = Signal(list, bool)  # fact ids chosen in the overview, added to the selection

    def __init__(self, theme: Any, titles: tuple[str, str, str, str], parent: QWidget | None = None):
        super().__init__(parent)
        # Imported here, when the tab is built, as before the plots were made later: importing
        # pyqtgraph on the GUI thread while a worker imports Qt modules is a race PySide can lose.
        from philont_desktop.facts.widgets.decay_plot import DecayCurvePlot
        from philont_desktop.facts.widgets.overview import OverviewPlot
        from philont_desktop.facts.widgets.what_if import WhatIfBox

        self._plot_classes = (DecayCurvePlot, OverviewPlot)

        self.setObjectName("factsBottom")
        self._theme = theme
        self._curves: Any = None
        self._overview: Any = None
        self._held = True  # the plots do not paint until release()
        self._release = next_turn(self, self.release)
        self.whatif = WhatIfBox(self)
        self.curves_page = Sealed(self)  # the legend filled after a load: the other pages stay
        self._curves_layout = QHBoxLayout(self.curves_page.body)
        self._curves_layout.setContentsMargins(4, 4, 4, 4)
        self._curves_layout.addWidget(self.whatif)
        self._overview_slot = QWidget(self)
        self.history = HistoryView(theme, self)
        self.pool = ForgetPool(theme, self)
        Narrowing(parent or self, TAB_NARROW, self.pool.place_buttons)  # the forget buttons on a second line
        for page, title in zip((self.curves_page, self._overview_slot, self.history, self.pool), titles):
            self.addTab(page, title)
        self._curves_plot: Any = None  # the curves' plot widget, made a turn before the curves
        self._steps = [
            self._make_curves_plot,
            lambda: self.curves,
            lambda: self.curves.prepare(SPARE_CURVES),
            lambda: self.overview,
        ]
        self._maker = QTimer(self)
        self._maker.setSingleShot(True)
        self._maker.timeout.connect(self._make_next)
        self._maker.start(0)

    def _make_next(self) -> None:
        if self._steps:
            self._steps.pop(0)()
            self._maker.start(0)

    def _make_curves_plot(self) -> None:
        if self._curves is None and self._curves_plot is None:
            from philont_desktop.widgets.plots import ThemedPlotWidget

            self._curves_plot = ThemedPlotWidget(self._theme, date_axis=True)

    @property
    def curves(self) -> Any:
        """The decay curves (:class:`~philont_desktop.facts.widgets.decay_plot.DecayCurvePlot`)."""
        if self._curves is None:
            plot, self._curves_plot = self._curves_plot, None
            self._curves = self._plot_classes[0](self._theme, self.curves_page.body, plot=plot)
            self._curves.plot.setUpdatesEnabled(not self._held)
            self._curves_layout.insertWidget(0, self._curves, 1)
            self._curves.viewTimeDragged.connect(self.viewTimeDragged)
        return self._curves

    @property
    def overview(self) -> Any:
        """The overview (:class:`~philont_desktop.facts.widgets.overview.OverviewPlot`), in its page."""
        if self._overview is None:
            self._overview = self._plot_classes[1](self._theme, self)
            self._overview.plot.setUpdatesEnabled(not self._held)
            self._overview.selectionRequested.connect(self.overviewSelection)
            current = self.currentIndex()
            blocked = self.blockSignals(True)
            try:
                self.insertTab(OVERVIEW, self._overview, self.tabText(OVERVIEW))
                self.removeTab(OVERVIEW + 1)
                self.setCurrentIndex(current)
            finally:
                self.blockSignals(blocked)
            self._overview_slot.deleteLater()
            if current == OVERVIEW:
                self.currentChanged.emit(current)
        return self._overview

    @property
    def held(self) -> bool:
        """The plots do not paint yet (the tab's first load is not drawn into them)."""
        return self._held

    def move_curves(self, real_now: float, view_time: float) -> None:
        """The curves at new times (the time control moved); drawn anew (a view time near the plot's
        right edge), they are drawn in this event-loop turn and painted in the next."""
        curves = self.curves
        if curves.redraws_at(view_time):
            self.hold()
            curves.set_times(real_now, view_time)
            self.release_later()
        else:
            curves.set_times(real_now, view_time)

    def settle(self) -> None:
        """A release asked for a later turn happens now (screenshots, tests: what is drawn is painted)."""
        if self.pending:
            self.release()

    def hold(self) -> None:
        """The plots do not paint until :meth:`release` (e.g. the curves drawn anew in this turn, painted
        in the next: :meth:`release_later`)."""
        self._release.stop()
        self._held = True
        for made in (self._curves, self._overview):
            if made is not None:
                made.plot.setUpdatesEnabled(False)

    @property
    def pending(self) -> bool:
        """A paint is still to come: :meth:`release_later` was asked and has not run yet."""
        return self._release.isActive()

    def release_later(self) -> None:
        """:meth:`release` in a later event-loop turn: the first drawing into the plots is one turn, their
        first paint another."""
        if self._held:
            for made in (self._curves, self._overview):
                if made is not None and made.isVisible():
                    made.plot.fit_axes()  # sized to their ticks before the first paint, not after it
            self._release.start()

    def release(self) -> None:
        """Let the plots paint from now on (what they hold is drawn, or there is nothing to wait for)."""
        self._release.stop()
        if self._held:
            self._held = False
            for made in (self._curves, self._overview):
                if made is not None:
                    made.plot.setUpdatesEnabled(True)

    def overview_shown(self) -> bool:
        return self._overview is not None and self.currentWidget() is self._overview
