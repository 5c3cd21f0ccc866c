"""The activity chart above the conversation: messages per local day as bars.

Dragging with the left button across the chart selects a range of days (a ``LinearRegionItem``, which
can then be moved or resized by its edges); :attr:`ActivityChart.rangeSelected` gives the range in epoch
ms, whole local days. The wheel zooms the time axis, the right button drags it.
"""

from __future__ import annotations

from collections.abc import Sequence

from philont_desktop.qt import QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget, Signal
from philont_desktop.retranslate import on_language_changed
from philont_desktop.widgets import accessible
from philont_desktop.widgets.plots import ThemedPlotWidget, pg, role_brush

DAY_MS = 86_400_000


class _RangeViewBox(pg.ViewBox):
    """A view box where a left-button drag draws a range instead of panning."""

    sigDragRange = Signal(float, float, bool)  # x0, x1 (seconds), finished

    def mouseDragEvent(self, ev, axis=None):
        from philont_desktop.qt import Qt

        if ev.button() == Qt.MouseButton.LeftButton and axis is None:
            ev.accept()
            a = self.mapSceneToView(ev.buttonDownScenePos()).x()
            b = self.mapSceneToView(ev.scenePos()).x()
            self.sigDragRange.emit(min(a, b), max(a, b), bool(ev.isFinish()))
            return
        if ev.button() == Qt.MouseButton.RightButton:
            # pan with the right button (the default right-drag zooms)
            ev.accept()
            last = self.mapSceneToView(ev.lastScenePos()).x()
            now = self.mapSceneToView(ev.scenePos()).x()
            self.translateBy(x=last - now)
            return
        super().mouseDragEvent(ev, axis)


class ActivityChart(QWidget):
    """Messages per day; drag to pick a date range."""

    rangeSelected = Signal(object, object)  # since_ms | None, until_ms | None

    def __init__(self, theme, parent: QWidget | None = None, *, tz_offset_minutes: int = 0):
        super().__init__(parent)
        self._theme = theme
        self._off = int(tz_offset_minutes) * 60_000
        self._counts: list[tuple[int, int]] = []
        self._timeless = 0  # messages whose time no date can hold: on no day of the chart
        self._range: tuple[int, int] | None = None
        self._vb = _RangeViewBox(enableMenu=False)  # no context menu: not built at all
        self._vb.setMouseEnabled(x=True, y=False)
        self.plot = ThemedPlotWidget(theme, self, date_axis=True, viewBox=self._vb)
        self.plot.setObjectName("activityChart")
        accessible.name_widget(self.plot)  # made after the tab, when first shown
        self.plot.setMinimumHeight(90)
        self.plot.getPlotItem().setContentsMargins(2, 2, 6, 2)
        self.plot.getAxis("left").setWidth(44)
        self._bars: pg.BarGraphItem | None = None
        self.region = pg.LinearRegionItem(values=(0, 1), movable=True)
        self.region.setZValue(10)
        self.region.hide()
        self.plot.addItem(self.region, ignoreBounds=True)
        self.region.sigRegionChangeFinished.connect(self._region_finished)
        self._vb.sigDragRange.connect(self._dragged)
        self.caption = QLabel(self)
        self.caption.setObjectName("activityCaption")
        self.caption.setWordWrap(True)  # whole in large text, on two lines if need be
        self.clear_btn = QToolButton(self)
        self.clear_btn.setText(self.tr("Clear range"))
        self.clear_btn.setAutoRaise(True)
        self.clear_btn.clicked.connect(self.clear_range)
        self.clear_btn.hide()
        top = QHBoxLayout()
        top.setContentsMargins(4, 0, 4, 0)
        top.addWidget(self.caption, 1)
        top.addWidget(self.clear_btn)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        lay.addLayout(top)
        lay.addWidget(self.plot, 1)
        if hasattr(theme, "changed"):
            theme.changed.connect(self._restyle)
        self._restyle()
        self._update_caption()
        on_language_changed(self, self._update_caption)

    # -- data ----------------------------------------------------------------------------------------------
    @property
    def counts(self) -> list[tuple[int, int]]:
        return list(self._counts)

    @property
    def selected_range(self) -> tuple[int, int] | None:
        return self._range

    @property
    def timeless(self) -> int:
        return self._timeless

    def set_counts(self, counts: Sequence[tuple[int, int]], timeless: int = 0) -> None:
        """Messages per day; ``timeless`` messages hold a time no date can hold and are in no bar (the
        caption says how many)."""
        self._counts = [(int(d), int(c)) for d, c in counts]
        self._timeless = int(timeless)
        if self._bars is not None:
            self.plot.removeItem(self._bars)
            self._bars = None
        if self._counts:
            xs = [d / 1000 + 43_200 for d, _ in self._counts]
            hs = [c for _, c in self._counts]
            self._bars = pg.BarGraphItem(
                x=xs, height=hs, width=86_400 * 0.85, brush=role_brush(self._theme, "user", 200), pen=None
            )
            self.plot.addItem(self._bars)
            lo = self._counts[0][0] / 1000 - 86_400
            hi = self._counts[-1][0] / 1000 + 2 * 86_400
            self._vb.setLimits(xMin=lo - 30 * 86_400, xMax=hi + 30 * 86_400, yMin=0)
            self._vb.setXRange(lo, hi, padding=0.01)
            self._vb.setYRange(0, max(hs) * 1.08 or 1, padding=0)
        self._update_caption()

    def _restyle(self) -> None:
        if self._bars is not None:
            self._bars.setOpts(brush=role_brush(self._theme, "user", 200))
        accent = self._theme.role_color("assistant")
        accent.setAlpha(60)
        self.region.setBrush(pg.mkBrush(accent))
        edge = self._theme.role_color("assistant")
        for line in self.region.lines:
            line.setPen(pg.mkPen(edge, width=2))

    # -- range ---------------------------------------------------------------------------------------------
    def _day_floor(self, ms: int) -> int:
        return ((ms + self._off) // DAY_MS) * DAY_MS - self._off

    def _snap(self, x0: float, x1: float) -> tuple[int, int]:
        a = self._day_floor(int(x0 * 1000))
        b = self._day_floor(int(x1 * 1000)) + DAY_MS - 1
        return a, max(a + DAY_MS - 1, b)

    def _dragged(self, x0: float, x1: float, finished: bool) -> None:
        self.region.blockSignals(True)
        self.region.setRegion((x0, x1))
        self.region.show()
        self.region.blockSignals(False)
        if finished:
            self._region_finished()

    def _region_finished(self, *_: object) -> None:
        if not self.region.isVisible():
            return
        x0, x1 = self.region.getRegion()
        since, until = self._snap(x0, x1)
        self.set_range(since, until, emit=True)

    def set_range(self, since: int | None, until: int | None, *, emit: bool = False) -> None:
        """Show (and with ``emit`` announce) a range; ``None`` for both clears it."""
        if since is None and until is None:
            self._range = None
            self.region.hide()
        else:
            lo = since if since is not None else (self._counts[0][0] if self._counts else 0)
            hi = until if until is not None else (self._counts[-1][0] + DAY_MS - 1 if self._counts else lo)
            self._range = (lo, hi)
            self.region.blockSignals(True)
            self.region.setRegion((lo / 1000, (hi + 1) / 1000))
            self.region.blockSignals(False)
            self.region.show()
        self.clear_btn.setVisible(self._range is not None)
        self._update_caption()
        if emit:
            self.rangeSelected.emit(*(self._range if self._range else (None, None)))

    def clear_range(self) -> None:
        self.set_range(None, None, emit=True)

    def _update_caption(self) -> None:
        from philont_desktop.humanize import abs_time

        total = sum(c for _, c in self._counts)
        if self._range is not None:
            a, b = self._range
            n = sum(c for d, c in self._counts if a <= d <= b)
            text = (
                self.tr("Messages per day · range %1 – %2 (%3) · drag to change")
                .replace("%1", abs_time(a, date_only=True))
                .replace("%2", abs_time(b, date_only=True))
                .replace("%3", self.tr("%Ln message(s)", None, n))
            )
        elif self._counts:
            text = (
                self.tr("Messages per day · %1 on %2 · drag across the chart to filter by date")
                .replace("%1", self.tr("%Ln message(s)", None, total))
                .replace("%2", self.tr("%Ln day(s)", None, len(self._counts)))
            )
        else:
            text = self.tr("Messages per day")
        if self._timeless:
            text += " · " + self.tr("⚠ %n message(s) with an unreadable time, on no day", "", self._timeless)
        self.caption.setText(text)
