"""Decay curves of the selected facts: the threshold, a live "now" line and the view time.

Times on the x axis are epoch **seconds** (pyqtgraph's date axis); the core's epoch milliseconds are
divided by 1000 at the edge. Up to :data:`MAX_INDIVIDUAL` facts get a coloured curve each with a legend;
more are drawn as ONE grey ``PlotDataItem`` with ``connect='finite'`` (NaN between facts), with
``setDownsampling``/``setClipToView`` on, as pyqtgraph's MultiPlotSpeedTest/scrollingPlots examples do.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from core.decay import DEFAULT_FORGET_THRESHOLD, forget_crossing_time
from philont_desktop.facts.curves import (
    clamped_confidence,
    curve_xy,
    drawable_confidence,
    flat_reason,
    joined,
    split_at,
    with_values,
    y_top,
)
from philont_desktop.facts.data import DAY_MS, FactRow
from philont_desktop.facts.text import fmt_number, fmt_relative, fmt_tau, fmt_time
from philont_desktop.facts.widgets.palette import palette
from philont_desktop.qt import (
    QColor,
    QCoreApplication,
    QFrame,
    QLabel,
    QScrollArea,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.retranslate import on_language_changed
from philont_desktop.widgets import accessible, plain
from philont_desktop.widgets.narrow import LinesHigh
from philont_desktop.widgets.plots import ThemedPlotWidget, pg

PLOT_LINES = 6  # the plot's least height, in lines of text
MAX_INDIVIDUAL = 12  # up to this many selected facts: one coloured curve each, with a legend
MAX_CURVES = 500  # beyond this, only the first MAX_CURVES selected facts are drawn


def fmt_confidence(confidence: Any) -> str:
    """A stored confidence for a note (``NaN``, ``Infinity``, ``-0.5``)."""
    if isinstance(confidence, int | float) and not isinstance(confidence, bool):
        if math.isnan(confidence):
            return "NaN"
        if math.isinf(confidence):
            return "Infinity" if confidence > 0 else "-Infinity"
        return fmt_number(confidence)
    return repr(confidence)


def invalid_note(count: int, color: str, *, left_out: bool = False) -> str:
    """The legend note about facts whose confidence cannot be drawn (rich text)."""
    if left_out:
        text = QCoreApplication.translate(
            "FactsPlots",
            "{0} active fact(s) with an invalid confidence (NaN, infinite or negative) are not shown; "
            "edit their confidence to repair them",
        )
    else:
        text = QCoreApplication.translate(
            "FactsPlots",
            "{0} fact(s) with an invalid confidence (NaN, infinite or negative), drawn at 0 and marked ×; "
            "edit their confidence to repair them",
        )
    return f'<span style="color:{color}">⚠&nbsp;{plain.html(text.format(count))}</span>'


def with_month_and_day(axis: Any) -> None:
    """Ticks of ``axis`` (a date axis) name the month and the day (``Sep 15``), not a bare month or day
    number, at the zoom levels of weeks to months; the axis gets its own copy of pyqtgraph's levels."""
    levels = copy.deepcopy(axis.zoomLevels)
    for level in levels.values():
        if level.exampleText not in ("MMM", "YYYY"):
            continue
        if level.exampleText == "MMM":
            level.exampleText = "MMM 00"
        for spec in level.tickSpecs:
            if spec.format in ("%b", "%d"):
                spec.format = "%b %d"
    axis.zoomLevels = levels


@dataclass
class _Drawing:
    """What one redraw collects before handing it to the plot items."""

    spots: list[dict[str, Any]] = field(default_factory=list)
    crosses: list[dict[str, Any]] = field(default_factory=list)
    legend: list[str] = field(default_factory=list)
    past: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)
    future: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)
    ymax: float = 1.0
    invalid: int = 0
    flat_levels: dict[float, int] = field(default_factory=dict)


class DecayCurvePlot(QWidget):
    """Score over time of the selected facts, the threshold, a live "now" line and the view time."""

    viewTimeDragged = Signal(float)  # epoch ms, when the view-time line is dragged

    def __init__(self, theme: Any, parent: QWidget | None = None, *, plot: ThemedPlotWidget | None = None):
        """``plot``: the plot widget (a ``ThemedPlotWidget`` with a date axis) when it was made before,
        in an event-loop turn of its own."""
        super().__init__(parent)
        self._theme = theme
        if plot is None:
            plot = ThemedPlotWidget(theme, self, date_axis=True)
        else:
            plot.setParent(self)
        self.plot = plot
        self.plot.setObjectName("decayCurves")
        pi = self.plot.getPlotItem()
        pi.setDownsampling(auto=True, mode="peak")
        pi.setClipToView(True)
        pi.setLabel("left", self.tr("score"))
        pi.setLabel("bottom", self.tr("date (local time)"))
        with_month_and_day(self.plot.getAxis("bottom"))
        self.plot.setMouseEnabled(x=True, y=False)
        # Every drawing sets both ranges: no automatic range, which walks the bounds of every item
        # (the spare curves too) before a paint (~15 ms in the first paint, under the loading veil)
        self.plot.getViewBox().disableAutoRange()
        self.legend = QLabel(self)
        self.legend.setObjectName("curveLegend")
        self.legend.setWordWrap(True)
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.legend.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.legend.setMinimumWidth(1)  # never wider than its pane: a name longer than the line breaks
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(self.plot, 1)
        self.legend_area = QScrollArea(self)
        self.legend_area.setObjectName("curveLegendArea")
        self.legend_area.setWidgetResizable(True)
        self.legend_area.setFrameShape(QFrame.Shape.NoFrame)
        self.legend_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.legend_area.setWidget(self.legend)
        lay.addWidget(self.legend_area)
        self.threshold = DEFAULT_FORGET_THRESHOLD
        LinesHigh(self.plot, PLOT_LINES)  # the score's ticks apart in large text
        self._make_items()
        self.curve_items: dict[str, tuple[Any, Any]] = {}
        self._spare: list[tuple[Any, Any]] = []  # curve items not in use, shown again when needed
        self._drawn: Any = None  # what the last drawing showed (the same again is not redrawn)
        self.labels: list[Any] = []
        self.rows: list[FactRow] = []
        self.current_id: str | None = None
        self.note = ""
        self.real_now = 0.0
        self.view_time = 0.0
        self.whatif: tuple[FactRow, float, float] | None = None  # row, confidence, effective tau
        self.x_range: tuple[float, float] = (0.0, 1.0)
        theme.changed.connect(self._restyle)
        self._restyle()
        on_language_changed(self, self._retranslate_lines)
        accessible.prepare(self)  # built after the tab: named here

    def _make_items(self) -> None:
        self.threshold_line = pg.InfiniteLine(
            pos=self.threshold,
            angle=0,
            movable=False,
            label=self.tr("forget threshold {0}").format(self.threshold),
            labelOpts={"position": 0.02, "anchors": [(0, 1), (0, 1)]},
        )
        self.now_line = pg.InfiniteLine(
            angle=90, movable=False, label=self.tr("now"), labelOpts={"position": 0.16}
        )
        self.view_line = pg.InfiniteLine(angle=90, movable=True, label="", labelOpts={"position": 0.26})
        self.view_line.sigDragged.connect(self._on_view_dragged)
        for item in (self.threshold_line, self.now_line, self.view_line):
            item.setZValue(5)
            self.plot.addItem(item, ignoreBounds=True)
        self.plot.getViewBox().sigResized.connect(self._place_now_label)
        self.view_line.hide()
        self.past_all = pg.PlotDataItem(connect="finite", skipFiniteCheck=True)
        self.future_all = pg.PlotDataItem(connect="finite", skipFiniteCheck=True)
        self.whatif_item = pg.PlotDataItem(connect="finite")
        self.anchors = pg.ScatterPlotItem(size=8, hoverable=True, tip=self._tip)
        self.crossings = pg.ScatterPlotItem(size=11, symbol="x", hoverable=True, tip=self._tip)
        for item in (self.past_all, self.future_all, self.whatif_item, self.anchors, self.crossings):
            self.plot.addItem(item)
        self.whatif_item.setZValue(4)
        self.anchors.setZValue(6)
        self.crossings.setZValue(6)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._fit_legend()

    def _place_now_label(self, *_: Any) -> None:
        """The "now" label above the threshold's at the bottom: in a short plot or large text 16 % of the
        height is less than their two lines, and the two overlapped."""
        height, line = self.plot.getViewBox().height(), self.now_line.label.boundingRect().height()
        if height > 0:
            self.now_line.label.setPosition(min(0.85, max(0.16, 0.05 + 2.5 * line / height)))

    def _fit_legend(self) -> None:
        """The legend takes the height of its text, at most a third of the widget: the plot stays usable
        in a small window (the rest of the legend scrolls)."""
        needed = self.legend.heightForWidth(max(1, self.legend_area.viewport().width())) + 4
        self.legend_area.setFixedHeight(max(0, min(needed, self.height() // 3)))

    def _retranslate_lines(self) -> None:
        self.threshold_line.label.setFormat(self.tr("forget threshold {0}").format(self.threshold))
        self.now_line.label.setFormat(self.tr("now"))
        self._drawn = None  # the legend is in the old language
        if self.rows:
            self._redraw()

    def _on_view_dragged(self, line: Any) -> None:
        self.viewTimeDragged.emit(float(line.value()) * 1000)

    @staticmethod
    def _tip(x: float, y: float, data: Any) -> str:
        return plain.tooltip(data)  # names a fact: stored text, shown as text

    # -- style ---------------------------------------------------------------------------------------------
    def _dark(self) -> bool:
        return bool(getattr(self._theme, "is_dark", False))

    def _restyle(self) -> None:
        err = self._theme.status_color("error")
        fg = self._theme.plot_foreground()
        self.threshold_line.setPen(pg.mkPen(err, width=1.5, style=Qt.PenStyle.DashLine))
        self.threshold_line.label.setColor(err)
        self.now_line.setPen(pg.mkPen(fg, width=1.5))
        self.now_line.label.setColor(fg)
        accent = self._theme.status_color("changed")
        self.view_line.setPen(pg.mkPen(accent, width=2, style=Qt.PenStyle.DotLine))
        self.view_line.setHoverPen(pg.mkPen(accent, width=3))
        self.view_line.label.setColor(accent)
        if self.rows:
            self._redraw()

    # -- inputs ----------------------------------------------------------------------------------------------
    def set_times(self, real_now: float, view_time: float, *, redraw: bool = True) -> None:
        """Move the "now" line and the view time; ``redraw=False`` when :meth:`set_facts` follows (it
        draws what moved)."""
        redraws = redraw and self.redraws_at(view_time)
        self.real_now, self.view_time = float(real_now), float(view_time)
        self.now_line.setPos(self.real_now / 1000)
        if self.view_time > self.real_now + 1000:
            self.view_line.show()
            self.view_line.setPos(self.view_time / 1000)
            self.view_line.label.setFormat(
                self.tr("view: {0}").format(fmt_relative(int(self.view_time), int(self.real_now)))
            )
        else:
            self.view_line.hide()
        self.view_line.setBounds([self.real_now / 1000, (self.real_now + 366 * DAY_MS) / 1000])
        if redraws:
            self._redraw()

    def redraws_at(self, view_time: float) -> bool:
        """Whether :meth:`set_times` with this view time draws the curves anew (a view time near the
        right edge widens the range; the first times given draw the empty plot), not only moves lines."""
        if not self.real_now and not self.rows:
            return True
        return bool(
            view_time != self.view_time and self.rows and view_time > self.x_range[1] * 1000 - 5 * DAY_MS
        )

    def tick(self, real_now: float) -> None:
        """Move the "now" line (called every second)."""
        self.real_now = float(real_now)
        self.now_line.setPos(self.real_now / 1000)

    def set_facts(self, rows: Sequence[FactRow], current_id: str | None = None, note: str = "") -> None:
        """Draw ``rows``; ``note`` (plain text) opens the legend (e.g. why these facts are shown)."""
        self.rows = list(rows)
        self.current_id = current_id
        self.note = note
        if self.whatif is not None and self.whatif[0].fact.id not in {r.fact.id for r in self.rows}:
            self.whatif = None
        self._redraw_if_changed()

    def set_whatif(self, row: FactRow | None, confidence: float = 1.0, tau_days: float = math.inf) -> None:
        """Draw the curve ``row`` would have with ``confidence`` and effective ``tau_days`` (None: clear)."""
        self.whatif = None if row is None else (row, float(confidence), float(tau_days))
        self._redraw_if_changed()

    def _redraw_if_changed(self) -> None:
        """Redraw unless the same facts (same versions), current fact, note, what-if and view time are
        drawn already (a reload that changed nothing shown)."""
        w = self.whatif
        key = (
            tuple((r.fid, r.sig) for r in self.rows[:MAX_CURVES]),
            len(self.rows),
            self.current_id,
            self.note,
            None if w is None else (w[0].fid, w[0].sig, w[1], w[2]),
            self.view_time,
            self._dark(),
        )
        if key != self._drawn:
            self._redraw()
            self._drawn = key

    def set_threshold(self, thr: float) -> None:
        self.threshold = thr
        self.threshold_line.setPos(thr)
        self.threshold_line.label.setFormat(self.tr("forget threshold {0}").format(thr))

    # -- drawing -----------------------------------------------------------------------------------------
    def prepare(self, curves: int) -> None:
        """Make the items of ``curves`` curves ahead (hidden), so that a first drawing only fills them."""
        while len(self._spare) + len(self.curve_items) < curves:
            items = (pg.PlotCurveItem(), pg.PlotCurveItem())
            for item in items:
                item.hide()
                self.plot.addItem(item)
            self._spare.append(items)

    def _clear_items(self) -> None:
        """Hide the curves (kept for the next drawing: making plot items is what costs) and the labels."""
        for past, fut in self.curve_items.values():
            past.hide()
            fut.hide()
        self._spare = list(self.curve_items.values()) + self._spare
        self.curve_items = {}
        for lab in self.labels:
            self.plot.removeItem(lab)
        self.labels = []

    def _span(self) -> tuple[float, float]:
        shown = self.rows[:MAX_CURVES]
        now = self.real_now or float(max((r.fact.created_at for r in shown), default=0))
        start = min((float(r.fact.created_at) for r in shown), default=now - 30 * DAY_MS)
        end = max(now, self.view_time)
        for r in shown:
            if r.crossing is not None and now < r.crossing < now + 366 * DAY_MS:
                end = max(end, float(r.crossing))
        if self.whatif is not None:
            w_row, w_conf, w_tau = self.whatif
            w_cross = forget_crossing_time(
                w_row.fact.namespace,
                w_conf,
                w_row.fact.created_at,
                w_row.fact.last_accessed_at,
                -1.0 if math.isinf(w_tau) and w_row.tau_src != "namespace" else w_tau,
            )
            if w_cross is not None and now < w_cross < now + 366 * DAY_MS:
                end = max(end, float(w_cross))
        span = max(end - start, DAY_MS)
        return start - 0.03 * span, end + max(0.3 * span, 14 * DAY_MS)

    def _draw_empty(self) -> None:
        for item in (self.past_all, self.future_all, self.whatif_item):
            item.setData([], [])
        self.anchors.setData([], [])
        self.crossings.setData([], [])
        self.legend.setText(self.tr("Select facts in the table to see how their scores fade."))
        self._fit_legend()
        if self.real_now:
            self.plot.setXRange(
                (self.real_now - 60 * DAY_MS) / 1000,
                (max(self.real_now, self.view_time) + 30 * DAY_MS) / 1000,
                padding=0,
            )
            self.plot.setYRange(0, 1.08, padding=0)

    def _redraw(self) -> None:
        self._clear_items()
        shown = self.rows[:MAX_CURVES]
        if not shown:
            self._draw_empty()
            return
        start, end = self._span()
        self.x_range = (start / 1000, end / 1000)
        individual = len(shown) <= MAX_INDIVIDUAL
        colors = palette(len(shown), self._dark()) if individual else []
        muted = QColor(self._theme.muted_text())
        d = _Drawing()
        for i, r in enumerate(shown):
            if individual:
                color = colors[i]
            else:
                color = self._theme.status_color("changed") if r.fact.id == self.current_id else muted
            self._draw_fact(d, r, color, individual, start, end)
        self.past_all.setData(*joined(d.past), pen=pg.mkPen(muted, width=1))
        self.future_all.setData(*joined(d.future), pen=pg.mkPen(muted, width=1, style=Qt.PenStyle.DashLine))
        self.anchors.setData(d.spots)
        self.crossings.setData(d.crosses)
        self._draw_whatif(start, end)
        if not individual:
            d.legend.append(self._summary(shown))
        intro = [f"<i>{plain.html(self.note)}</i>"] if self.note else []
        # One entry per line: an entry never wraps into the next (Chinese text breaks between any characters).
        self.legend.setText("<br/>".join(intro + d.legend + self._legend_notes(d.invalid)))
        self._fit_legend()
        self.plot.setXRange(start / 1000, end / 1000, padding=0)
        self.plot.setYRange(0, y_top([d.ymax]) * 1.08, padding=0)

    def _draw_fact(
        self, d: _Drawing, r: FactRow, color: QColor, individual: bool, start: float, end: float
    ) -> None:
        f = r.fact
        conf = clamped_confidence(f.confidence)
        invalid = not drawable_confidence(f.confidence)
        x, y = curve_xy(
            with_values(r, conf, r.tau_eff) if invalid else r,
            start,
            end,
            extra=(self.real_now, self.view_time),
        )
        past, fut = split_at(x, y, self.real_now)
        d.ymax = max(d.ymax, conf)
        if individual or f.id == self.current_id:
            self._add_curve(f.id, past, fut, color)
        else:
            d.past.append((past[0] / 1000, past[1]))
            d.future.append((fut[0] / 1000, fut[1]))
        reason = flat_reason(r)
        self._mark_points(d, r, conf, color, reason, start, end)
        if reason is not None and individual:
            self._flat_label(d, reason, conf, color, end)
        if invalid:
            d.invalid += 1
            self._mark_invalid(d, r)
        if individual:
            d.legend.append(self._legend_entry(r, color, reason))

    def _add_curve(
        self, fid: str, past: tuple[np.ndarray, np.ndarray], fut: tuple[np.ndarray, np.ndarray], color: QColor
    ) -> None:
        current = fid == self.current_id
        width = 2.5 if current else 1.8
        if not self._spare:
            # PlotCurveItem, not PlotDataItem: a third of the cost to make and add, and these curves
            # (a few hundred points each) need neither downsampling nor clipping
            self.prepare(len(self.curve_items) + 1)
        p_item, f_item = self._spare.pop()
        p_item.setData(past[0] / 1000, past[1], pen=pg.mkPen(color, width=width))
        f_item.setData(fut[0] / 1000, fut[1], pen=pg.mkPen(color, width=width, style=Qt.PenStyle.DashLine))
        for item in (p_item, f_item):
            item.setZValue(3 if current else 2)
            item.show()
        self.curve_items[fid] = (p_item, f_item)

    def _mark_points(
        self,
        d: _Drawing,
        r: FactRow,
        conf: float,
        color: QColor,
        reason: str | None,
        start: float,
        end: float,
    ) -> None:
        """The last read (the score restarts there), the storing time, and the threshold crossing."""
        f = r.fact
        brush = pg.mkBrush(color)
        if f.last_accessed_at is not None and f.last_accessed_at != f.created_at:
            tip = self.tr("{0}: last read {1} (the score restarts here)").format(
                r.name, fmt_time(f.last_accessed_at)
            )
            d.spots.append(
                {
                    "pos": (f.last_accessed_at / 1000, conf),
                    "symbol": "d",
                    "brush": brush,
                    "pen": pg.mkPen(color),
                    "data": tip,
                }
            )
        d.spots.append(
            {
                "pos": (f.created_at / 1000, conf),
                "symbol": "o",
                "brush": pg.mkBrush(None),
                "pen": pg.mkPen(color, width=1.5),
                "data": self.tr("{0}: stored {1}").format(r.name, fmt_time(f.created_at)),
            }
        )
        if r.crossing is not None and reason is None and start <= r.crossing <= end:
            d.crosses.append(
                {
                    "pos": (r.crossing / 1000, self.threshold),
                    "brush": brush,
                    "pen": pg.mkPen(color, width=2),
                    "data": self.tr("{0}: below {1} from {2}").format(
                        r.name, self.threshold, fmt_time(r.crossing)
                    ),
                }
            )

    def _flat_label(self, d: _Drawing, reason: str, conf: float, color: QColor, end: float) -> None:
        text = self.tr("pinned · no decay") if reason == "pinned" else self.tr("user.* · never decays")
        level = round(conf, 3)
        stacked = d.flat_levels.get(level, 0)
        d.flat_levels[level] = stacked + 1
        # the first label above its line, further ones below it
        lab = pg.TextItem(
            text, color=color, anchor=(1, 1.05 if stacked == 0 else -0.05 - 1.1 * (stacked - 1))
        )
        lab.setPos(end / 1000, conf)
        self.plot.addItem(lab, ignoreBounds=True)
        self.labels.append(lab)

    def _mark_invalid(self, d: _Drawing, r: FactRow) -> None:
        """The curve is drawn at 0: a cross at its start marks it as invalid."""
        err = self._theme.status_color("error")
        d.spots.append(
            {
                "pos": (r.fact.created_at / 1000, 0.0),
                "symbol": "x",
                "size": 12,
                "brush": pg.mkBrush(err),
                "pen": pg.mkPen(err, width=2),
                "data": self.tr("{0}: invalid confidence {1}, drawn at 0").format(
                    r.name, fmt_confidence(r.fact.confidence)
                ),
            }
        )

    def _legend_notes(self, invalid: int) -> list[str]:
        notes: list[str] = []
        if self.whatif is not None:
            accent = self._theme.status_color("editing").name()
            w_row, w_conf, w_tau = self.whatif
            note = self.tr("what if: tau {0}, confidence {1}").format(fmt_tau(w_tau), fmt_number(w_conf))
            notes.append(
                f'<span style="color:{accent}; font-weight:bold">━·━</span>&nbsp;'
                + plain.html(f"{w_row.name} — {note}").replace(" ", "&nbsp;")
            )
        if invalid:
            notes.append(invalid_note(invalid, self._theme.status_color("error").name()))
        if len(self.rows) > MAX_CURVES:
            notes.append(
                plain.html(
                    self.tr("Showing the first {0} of {1} selected facts.").format(MAX_CURVES, len(self.rows))
                )
            )
        return notes

    def _draw_whatif(self, start: float, end: float) -> None:
        if self.whatif is None:
            self.whatif_item.setData([], [])
            return
        row, conf, tau = self.whatif
        x, y = curve_xy(with_values(row, conf, tau), start, end)
        accent = self._theme.status_color("editing")
        self.whatif_item.setData(x / 1000, y, pen=pg.mkPen(accent, width=2.5, style=Qt.PenStyle.DashDotLine))

    def _legend_entry(self, r: FactRow, color: QColor, reason: str | None) -> str:
        name = plain.html(r.name, 200, one_line=True)
        if not drawable_confidence(r.fact.confidence):
            note = self.tr("invalid confidence {0}: drawn at 0").format(fmt_confidence(r.fact.confidence))
        elif reason == "pinned":
            note = self.tr("pinned: never decays")
        elif reason == "user":
            note = self.tr("user.*: never decays")
        elif r.crossing is None:
            note = self.tr("stays above the threshold")
        elif r.crossing <= self.real_now:
            note = self.tr("below the threshold since {0}").format(fmt_time(r.crossing))
        else:
            note = self.tr("below the threshold {0} ({1})").format(
                fmt_relative(r.crossing, int(self.real_now)), fmt_time(r.crossing)
            )
        weight = "bold" if r.fact.id == self.current_id else "normal"
        note = plain.html(note)  # may wrap: large text in a narrow pane
        return (
            f'<span style="color:{color.name()}; font-weight:bold">━━</span>&nbsp;'
            f'<span style="font-weight:{weight}">{name}</span>&nbsp;—&nbsp;{note}'
        )

    def _summary(self, rows: Sequence[FactRow]) -> str:
        decaying = [r for r in rows if flat_reason(r) is None and r.crossing is not None]
        flat = sum(1 for r in rows if flat_reason(r) is not None)
        soon = sorted(r.crossing for r in decaying if r.crossing > self.real_now)
        below = sum(1 for r in decaying if r.crossing <= self.real_now)
        parts = [self.tr("%n fact(s)", None, len(rows))]
        if flat:
            parts.append(self.tr("%n without decay (pinned or user.*)", None, flat))
        if below:
            parts.append(self.tr("%n already below the threshold", None, below))
        if soon:
            parts.append(self.tr("next crossing {0}").format(fmt_relative(soon[0], int(self.real_now))))
        return plain.html(" · ".join(parts))
