"""Bars with a label at their end, in the house style of the charts (:class:`ThemedPlotWidget`): the
Recall page's three pictures are made of these.

:class:`BarChart` draws one bar per category, horizontal (categories down the left axis, the first on
top) or vertical (categories along the bottom), each with a short plain-text label at its end. Colours
come from the theme and are redrawn when it changes; fonts follow the zoom through the plot widget.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from philont_desktop.qt import (
    QApplication,
    QColor,
    QGraphicsItem,
    QGraphicsSimpleTextItem,
    QTransform,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.theme import Theme
from philont_desktop.widgets import accessible
from philont_desktop.widgets.plots import ThemedPlotWidget, pg


@dataclass(frozen=True)
class Bar:
    category: str  # the axis tick
    value: float  # the bar's length
    label: str  # the text at its end
    color: str = "changed"  # a theme status colour: changed, live, error, paused
    short: str = ""  # the label where the full one does not fit (vertical bars)


def end_label(text: str, color: QColor, *, vertical: bool) -> QGraphicsSimpleTextItem:
    """A bar's label in screen pixels (plain text, the application's font): left-middle at its position, or bottom-centre above a
    vertical bar."""
    item = QGraphicsSimpleTextItem(text)
    item.setFont(QApplication.font())  # at the zoom level (the chart is redrawn when it changes)
    item.setBrush(color)
    item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
    rect = item.boundingRect()
    if vertical:
        item.setTransform(QTransform.fromTranslate(-rect.width() / 2, -rect.height() - 2))
    else:
        item.setTransform(QTransform.fromTranslate(3, -rect.height() / 2))
    return item


class BarChart(QWidget):
    """A titled bar chart (see the module docstring); ``name`` is the plot's object name."""

    def __init__(self, theme: Theme, name: str, *, vertical: bool = False, parent: QWidget | None = None):
        super().__init__(parent)
        self.theme = theme
        self.vertical = vertical
        self.bars: list[Bar] = []
        self.top = 1.0
        self.plot = ThemedPlotWidget(theme, self)
        self.plot.setObjectName(name)
        accessible.name_widget(self.plot)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.showGrid(x=not vertical, y=vertical, alpha=0.15)
        self.plot.getAxis("bottom" if not vertical else "left").setStyle(tickLength=0)
        self.plot.getAxis("left" if not vertical else "bottom").setStyle(tickLength=0)
        self._items: list[object] = []
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.plot)
        self.plot.themeChanged.connect(self._draw)

    def set_title(self, title: str) -> None:
        self.plot.getPlotItem().setTitle(title)

    def set_value_label(self, text: str) -> None:
        self.plot.getAxis("left" if self.vertical else "bottom").setLabel(text)

    def set_bars(self, bars: Sequence[Bar], top: float) -> None:
        """Show ``bars`` on an axis from 0 to ``top``."""
        self.bars = list(bars)
        self.top = max(top, 1e-9)
        self._draw()

    def _draw(self) -> None:
        item = self.plot.getPlotItem()
        item.disableAutoRange()
        for it in self._items:
            self.plot.removeItem(it)
        self._items = []
        n = len(self.bars)
        fg = QColor(self.theme.plot_foreground())
        pos = list(range(n)) if self.vertical else [n - 1 - i for i in range(n)]
        if n:
            brushes = [pg.mkBrush(self._color(b.color)) for b in self.bars]
            values = [max(b.value, 0.0) for b in self.bars]
            if self.vertical:
                bars = pg.BarGraphItem(x=pos, height=values, width=0.7, brushes=brushes, pen=None)
            else:
                bars = pg.BarGraphItem(
                    x0=[0] * n, y=pos, height=[0.7] * n, width=values, brushes=brushes, pen=None
                )
            self.plot.addItem(bars)
            self._items.append(bars)
        for p, b in zip(pos, self.bars, strict=True):
            label = self._label(b, fg)
            if label is None:
                continue
            label.setPos(p, max(b.value, 0.0)) if self.vertical else label.setPos(max(b.value, 0.0), p)
            self.plot.addItem(label)
            self._items.append(label)
        ticks = [(p, b.category) for p, b in zip(pos, self.bars, strict=True)]
        self.plot.getAxis("bottom" if self.vertical else "left").setTicks([ticks, []])
        span = (-0.6, max(n, 1) - 0.4)
        if self.vertical:
            self.plot.setXRange(*span, padding=0)
            self.plot.setYRange(0, self.top * 1.25, padding=0)
        else:
            self.plot.setYRange(*span, padding=0)
            self.plot.setXRange(0, self.top * 1.3, padding=0)

    def _label(self, b: Bar, fg: QColor) -> QGraphicsSimpleTextItem | None:
        """The label of ``b``: at the end of the bar; inside a long horizontal bar (in the background's
        colour); above a vertical one, its short form (or none) where the
        bars are narrower than it."""
        fm = self.plot.fontMetrics()
        if self.vertical:
            room = self.plot.getPlotItem().getViewBox().width() / max(len(self.bars), 1) * 0.85
            text = b.label
            if fm.horizontalAdvance(text) > room:
                text = b.short or ""
            if not text or fm.horizontalAdvance(text) > room:
                return None
            return end_label(text, fg, vertical=True)
        if b.value > self.top * 0.55:
            item = end_label(b.label, QColor(self.theme.plot_background()), vertical=False)
            width = item.boundingRect().width()
            item.setTransform(QTransform.fromTranslate(-width - 4, -item.boundingRect().height() / 2))
            return item
        return end_label(b.label, fg, vertical=False)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.vertical and self.bars:
            self._draw()  # the labels that fit depend on the width

    def _color(self, kind: str) -> QColor:
        c = QColor(self.theme.status_color(kind))
        c.setAlpha(210)
        return c
