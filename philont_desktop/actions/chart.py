"""Failure rate per tool: horizontal bars (pyqtgraph), the most-called tool on top.

Each bar is ``failures / calls`` of one tool; the label at its end says ``12% (3 of 25)``. A click on
a bar announces the tool (the tab filters the log by it).
"""

from __future__ import annotations

from collections.abc import Sequence

from core.actions import ToolStat
from philont_desktop.actions.state import MAX_TOOLS, chart_height
from philont_desktop.qt import (
    QColor,
    QGraphicsItem,
    QGraphicsSimpleTextItem,
    QTransform,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.widgets import accessible
from philont_desktop.widgets.plots import ThemedPlotWidget, pg


def bar_label(text: str, color: object) -> QGraphicsSimpleTextItem:
    """A bar's label, drawn in screen pixels with its left middle at the position it is given.

    Plain text (never rich text), and cheap: a pyqtgraph ``TextItem`` (a text document that follows
    the view) took ~4 ms of the GUI thread to make, a dozen of them most of a chart's update.
    """
    item = QGraphicsSimpleTextItem(text)
    item.setBrush(QColor(color))
    item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
    item.setTransform(QTransform.fromTranslate(2, -item.boundingRect().height() / 2))
    return item


class FailureRateChart(QWidget):
    toolClicked = Signal(str)

    def __init__(self, theme, parent: QWidget | None = None):
        super().__init__(parent)
        self._theme = theme
        self._stats: list[ToolStat] = []
        self._all: list[ToolStat] = []
        self.plot = ThemedPlotWidget(theme, self)
        self.plot.setObjectName("failureRateChart")
        accessible.name_widget(self.plot)  # made after the tab, when first shown
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.getPlotItem().setTitle(self.tr("Failure rate per tool"))
        self.plot.getAxis("bottom").setLabel(self.tr("failed calls, % of calls"))
        self.plot.showGrid(x=True, y=False, alpha=0.15)
        self.plot.getAxis("left").setStyle(tickLength=0)
        self._items: list[object] = []
        self.plot.scene().sigMouseClicked.connect(self._clicked)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.plot)
        if hasattr(theme, "changed"):
            theme.changed.connect(lambda: self.set_stats(self._all))

    @property
    def stats(self) -> list[ToolStat]:
        """Every tool's numbers (the chart shows the most called of them)."""
        return list(self._all)

    def _bar_color(self, rate: float) -> QColor:
        c = QColor(self._theme.status_color("error"))
        c.setAlpha(90 + int(150 * max(0.0, min(1.0, rate * 2))))  # 50% and more: full colour
        return c

    def preferred_height(self) -> int:
        return chart_height(self.fontMetrics(), len(self._stats))

    def set_stats(self, stats: Sequence[ToolStat]) -> None:
        """Show the :data:`MAX_TOOLS` most called tools (``stats`` come most called first)."""
        self._all = list(stats)
        self._stats = self._all[:MAX_TOOLS]
        title = self.tr("Failure rate per tool")
        if len(self._all) > len(self._stats):
            title = (
                self.tr("Failure rate per tool (the %1 most called of %2)")
                .replace("%1", str(len(self._stats)))
                .replace("%2", str(len(self._all)))
            )
        self.plot.getPlotItem().setTitle(title)
        item = self.plot.getPlotItem()
        item.disableAutoRange()  # the range is set below: no range update per item added
        for it in self._items:
            self.plot.removeItem(it)
        self._items = []
        n = len(self._stats)
        ticks = []
        fg = self._theme.plot_foreground()
        pcts = [max(100.0 * s.failure_rate, 0.0) for s in self._stats]
        if n:  # one item for every bar
            bars = pg.BarGraphItem(
                x0=[0] * n,
                y=[n - 1 - i for i in range(n)],  # the first (most called) tool on top
                height=[0.7] * n,
                width=pcts,
                brushes=[pg.mkBrush(self._bar_color(s.failure_rate)) for s in self._stats],
                pen=None,
            )
            self.plot.addItem(bars)
            self._items.append(bars)
        for i, s in enumerate(self._stats):
            y = n - 1 - i
            pct = 100.0 * s.failure_rate
            label = bar_label(
                self.tr("%1% (%2 of %3)")
                .replace("%1", f"{pct:.0f}")
                .replace("%2", f"{s.failures:,}")
                .replace("%3", f"{s.total:,}"),
                fg,
            )
            label.setPos(pcts[i] + 1.0, y)
            self.plot.addItem(label)
            self._items.append(label)
            ticks.append((y, s.tool))
        self.plot.getAxis("left").setTicks([ticks, []])
        top = max([100.0 * s.failure_rate for s in self._stats] + [10.0])
        self.plot.setXRange(0, min(100.0, top * 1.35 + 5), padding=0)
        self.plot.setYRange(-0.6, max(n, 1) - 0.4, padding=0)
        self.setMinimumHeight(self.preferred_height())

    def _clicked(self, ev) -> None:
        if not self._stats:
            return
        vb = self.plot.getPlotItem().getViewBox()
        p = vb.mapSceneToView(ev.scenePos())
        n = len(self._stats)
        i = n - 1 - round(p.y())
        if 0 <= i < n and abs(p.y() - round(p.y())) <= 0.4:
            self.toolClicked.emit(self._stats[i].tool)
