"""Plots of the Facts tab: decay curves of the selected facts and the overview of all active facts.

Times on the x axis of the curve plot are epoch **seconds** (pyqtgraph's date axis); the core's epoch
milliseconds are divided by 1000 at the edge. Scores are computed with numpy with the exact semantics
of :func:`core.decay.score_memory` (pinned and ``user.*``: flat; tau 0: NaN at age 0, then 0).

Performance: the overview is ONE ``ScatterPlotItem`` (per-point brushes shared per namespace), and many
curves are drawn as ONE ``PlotDataItem`` with ``connect='finite'`` (NaN between facts), with
``setDownsampling``/``setClipToView`` on, as pyqtgraph's MultiPlotSpeedTest/scrollingPlots examples do.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from core.decay import DEFAULT_FORGET_THRESHOLD, effective_tau, forget_crossing_time
from philont_desktop import i18n
from philont_desktop.facts.model import DAY_MS, FactRow, fmt_number, fmt_relative, fmt_tau, fmt_time
from philont_desktop.qt import (
    QColor,
    QCoreApplication,
    QGraphicsRectItem,
    QLabel,
    QPointF,
    QRectF,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.widgets.plots import ThemedPlotWidget, pg

MAX_INDIVIDUAL = 12  # up to this many selected facts: one coloured curve each, with a legend
MAX_CURVES = 500  # beyond this, only the first MAX_CURVES selected facts are drawn
CURVE_POINTS = 240
PICK_RADIUS_PX = 8

_PALETTE_LIGHT = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#9467bd",
    "#ff7f0e",
    "#17becf",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#0b5394",
    "#a61c00",
)
_PALETTE_DARK = (
    "#58a6ff",
    "#ff7b72",
    "#56d364",
    "#d2a8ff",
    "#ffa657",
    "#39c5cf",
    "#e3b341",
    "#f778ba",
    "#a5b1bd",
    "#bdd55c",
    "#79c0ff",
    "#ffa198",
)


def palette(n: int, dark: bool) -> list[QColor]:
    """``n`` distinguishable colours: a fixed palette up to 12; beyond, evenly spaced hues whose
    neighbours alternate in brightness and saturation (adjacent hues stay apart)."""
    base = _PALETTE_DARK if dark else _PALETTE_LIGHT
    if n <= len(base):
        return [QColor(c) for c in base[:n]]
    out = []
    for i in range(n):
        level = i % 3
        sat = (0.5, 0.75, 0.35)[level] if dark else (0.85, 0.6, 0.95)[level]
        val = (0.98, 0.8, 0.9)[level] if dark else (0.8, 0.55, 0.65)[level]
        out.append(QColor.fromHsvF((0.58 + i * 0.618034) % 1.0, sat, val))
    return out


# -- confidences that cannot be drawn ---------------------------------------------------------------------

_Y_LIMIT = 1e6  # the y axis never extends beyond this (a finite but absurd confidence is clipped)


def drawable_confidence(confidence: Any) -> bool:
    """Whether a stored confidence can be drawn as a score: a finite number, not negative.

    NaN (or text), ±Infinity and negative values come only from a damaged or hand-edited database; the
    plots leave them out of the overview and draw their decay curve at 0 with a note instead of letting
    pyqtgraph fail on a non-finite range.
    """
    return (
        isinstance(confidence, int | float)
        and not isinstance(confidence, bool)
        and math.isfinite(confidence)
        and confidence >= 0
    )


def clamped_confidence(confidence: Any) -> float:
    """The confidence a curve is drawn with: itself when drawable, otherwise 0."""
    return min(float(confidence), _Y_LIMIT) if drawable_confidence(confidence) else 0.0


def y_top(values: Any, floor: float = 1.0) -> float:
    """The top of a score axis for these values: the largest finite one (at least ``floor``), capped."""
    arr = np.asarray(values, dtype=float).ravel()
    arr = arr[np.isfinite(arr)]
    top = float(arr.max()) if arr.size else floor
    return min(max(floor, top), _Y_LIMIT)


# -- scores with numpy ----------------------------------------------------------------------------------------


def scores_over_time(confidence: float, anchor: float, tau_days: float, times_ms: np.ndarray) -> np.ndarray:
    """``confidence × exp(−max(0, t − anchor)/tau)`` for each t; ``tau_days`` is the *effective* tau."""
    t = np.asarray(times_ms, dtype=float)
    if not math.isfinite(tau_days) and not math.isnan(tau_days):
        return np.full(t.shape, float(confidence))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        age = np.maximum(0.0, (t - float(anchor)) / DAY_MS)
        return float(confidence) * np.exp(-age / float(tau_days))


def scores_at(conf: np.ndarray, anchor: np.ndarray, tau: np.ndarray, at: float) -> np.ndarray:
    """The score of many facts at one time (arrays of confidence, anchor ms, effective tau)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        age = np.maximum(0.0, (float(at) - anchor) / DAY_MS)
        s = conf * np.exp(-age / tau)
    flat = np.isinf(tau)
    s[flat] = conf[flat]
    return s


def curve_xy(
    row: FactRow, start_ms: float, end_ms: float, n: int = CURVE_POINTS, extra: Sequence[float] = ()
) -> tuple[np.ndarray, np.ndarray]:
    """The score curve of one fact from ``start_ms`` to ``end_ms`` (epoch ms), assuming no further read.

    From creation to the last access the score is drawn as it decayed from creation (the database keeps
    only the last access, so earlier reads are unknown); at the last access it resets to the confidence
    (a vertical step); from then on it is exactly :func:`core.decay.score_memory` at each time. The
    times in ``extra`` (e.g. now) are sampled exactly too.
    """
    f = row.fact
    conf = float(f.confidence)
    tau = row.tau_eff
    created = float(f.created_at)
    anchor = float(row.anchor)
    lo = max(start_ms, created)
    if end_ms <= lo:
        return np.empty(0), np.empty(0)
    extra_arr = np.asarray([e for e in extra if math.isfinite(e)], dtype=float)

    def times(a: float, b: float, k: int) -> np.ndarray:
        inside = extra_arr[(extra_arr > a) & (extra_arr < b)]
        return np.union1d(np.linspace(a, b, k), inside)

    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    if anchor > lo:
        pre = times(lo, min(anchor, end_ms), max(2, n // 3))
        xs.append(pre)
        ys.append(scores_over_time(conf, created, tau, pre))
        lo = min(anchor, end_ms)
    if end_ms > lo or not xs:
        post = times(lo, end_ms, n)
        xs.append(post)
        ys.append(scores_over_time(conf, anchor, tau, post))
    return np.concatenate(xs), np.concatenate(ys)


def split_at(
    x: np.ndarray, y: np.ndarray, t: float
) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """``(past, future)`` parts of a curve, both including the point at ``t`` when it is sampled."""
    if x.size == 0:
        return (x, y), (x, y)
    if t <= x[0]:
        return (x[:0], y[:0]), (x, y)
    if t >= x[-1]:
        return (x, y), (x[:0], y[:0])
    k = int(np.searchsorted(x, t, side="right"))  # x[k-1] <= t < x[k]
    if x[k - 1] == t:
        return (x[:k], y[:k]), (x[k - 1 :], y[k - 1 :])
    yt = np.interp(t, x[k - 1 : k + 1], y[k - 1 : k + 1])
    return (np.append(x[:k], t), np.append(y[:k], yt)), (np.insert(x[k:], 0, t), np.insert(y[k:], 0, yt))


def _joined(parts: Sequence[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """Curves joined with NaN separators for one ``connect='finite'`` item."""
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    for x, y in parts:
        if x.size == 0:
            continue
        xs.extend((x, np.array([np.nan])))
        ys.extend((y, np.array([np.nan])))
    if not xs:
        return np.empty(0), np.empty(0)
    return np.concatenate(xs), np.concatenate(ys)


def flat_reason(row: FactRow) -> str | None:
    """Why a fact's curve is flat: ``pinned``, ``user`` (namespace never decays), or ``None``."""
    if row.tau_src == "pinned":
        return "pinned"
    if math.isinf(row.tau_eff):
        return "user"
    return None


# -- decay curves ---------------------------------------------------------------------------------------------


class DecayCurvePlot(QWidget):
    """Score over time of the selected facts, the threshold, a live "now" line and the view time."""

    viewTimeDragged = Signal(float)  # epoch ms, when the view-time line is dragged

    def __init__(self, theme: Any, parent: QWidget | None = None):
        super().__init__(parent)
        self._theme = theme
        self.plot = ThemedPlotWidget(theme, self, date_axis=True)
        self.plot.setObjectName("decayCurves")
        pi = self.plot.getPlotItem()
        pi.setDownsampling(auto=True, mode="peak")
        pi.setClipToView(True)
        pi.setLabel("left", self.tr("score"))
        self.plot.setMouseEnabled(x=True, y=False)
        self.legend = QLabel(self)
        self.legend.setObjectName("curveLegend")
        self.legend.setWordWrap(True)
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.legend.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(self.plot, 1)
        lay.addWidget(self.legend)

        self.threshold = DEFAULT_FORGET_THRESHOLD
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
        self.curve_items: dict[str, tuple[Any, Any]] = {}
        self.labels: list[Any] = []
        self.rows: list[FactRow] = []
        self.current_id: str | None = None
        self.real_now = 0.0
        self.view_time = 0.0
        self.whatif: tuple[FactRow, float, float] | None = None  # row, confidence, effective tau
        self.x_range: tuple[float, float] = (0.0, 1.0)
        theme.changed.connect(self._restyle)
        self._restyle()
        i18n.on_language_changed(self, self._retranslate_lines)

    def _retranslate_lines(self) -> None:
        self.threshold_line.label.setFormat(self.tr("forget threshold {0}").format(self.threshold))
        self.now_line.label.setFormat(self.tr("now"))

    def _on_view_dragged(self, line: Any) -> None:
        self.viewTimeDragged.emit(float(line.value()) * 1000)

    @staticmethod
    def _tip(x: float, y: float, data: Any) -> str:
        return str(data) if data is not None else ""

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
    def set_times(self, real_now: float, view_time: float) -> None:
        moved_view = view_time != self.view_time
        first = not self.real_now
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
        if (moved_view and self.rows and self.view_time > self.x_range[1] * 1000 - 5 * DAY_MS) or (
            first and not self.rows
        ):
            self._redraw()

    def tick(self, real_now: float) -> None:
        """Move the "now" line (called every second)."""
        self.real_now = float(real_now)
        self.now_line.setPos(self.real_now / 1000)

    def set_facts(self, rows: Sequence[FactRow], current_id: str | None = None) -> None:
        self.rows = list(rows)
        self.current_id = current_id
        if self.whatif is not None and self.whatif[0].fact.id not in {r.fact.id for r in self.rows}:
            self.whatif = None
        self._redraw()

    def set_whatif(self, row: FactRow | None, confidence: float = 1.0, tau_days: float = math.inf) -> None:
        """Draw the curve ``row`` would have with ``confidence`` and effective ``tau_days`` (None: clear)."""
        self.whatif = None if row is None else (row, float(confidence), float(tau_days))
        self._redraw()

    def set_threshold(self, thr: float) -> None:
        self.threshold = thr
        self.threshold_line.setPos(thr)
        self.threshold_line.label.setFormat(self.tr("forget threshold {0}").format(thr))

    # -- drawing -----------------------------------------------------------------------------------------
    def _clear_items(self) -> None:
        for past, fut in self.curve_items.values():
            self.plot.removeItem(past)
            self.plot.removeItem(fut)
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

    def _redraw(self) -> None:
        self._clear_items()
        shown = self.rows[:MAX_CURVES]
        if not shown:
            for item in (self.past_all, self.future_all, self.whatif_item):
                item.setData([], [])
            self.anchors.setData([], [])
            self.crossings.setData([], [])
            self.legend.setText(self.tr("Select facts in the table to see how their scores fade."))
            if self.real_now:
                self.plot.setXRange(
                    (self.real_now - 60 * DAY_MS) / 1000,
                    (max(self.real_now, self.view_time) + 30 * DAY_MS) / 1000,
                    padding=0,
                )
                self.plot.setYRange(0, 1.08, padding=0)
            return
        start, end = self._span()
        self.x_range = (start / 1000, end / 1000)
        now = self.real_now
        dark = self._dark()
        individual = len(shown) <= MAX_INDIVIDUAL
        colors = palette(len(shown), dark) if individual else []
        muted = QColor(self._theme.muted_text())
        spots: list[dict[str, Any]] = []
        cross_spots: list[dict[str, Any]] = []
        legend: list[str] = []
        past_parts: list[tuple[np.ndarray, np.ndarray]] = []
        future_parts: list[tuple[np.ndarray, np.ndarray]] = []
        ymax = 1.0
        invalid_count = 0
        flat_levels: dict[float, int] = {}
        for i, r in enumerate(shown):
            f = r.fact
            conf = clamped_confidence(f.confidence)
            invalid = not drawable_confidence(f.confidence)
            x, y = curve_xy(
                _with(r, conf, r.tau_eff) if invalid else r, start, end, extra=(now, self.view_time)
            )
            past, fut = split_at(x, y, now)
            color = (
                colors[i]
                if individual
                else (self._theme.status_color("changed") if f.id == self.current_id else muted)
            )
            ymax = max(ymax, conf)
            if individual or f.id == self.current_id:
                width = 2.5 if f.id == self.current_id else 1.8
                p_item = pg.PlotDataItem(past[0] / 1000, past[1], pen=pg.mkPen(color, width=width))
                f_item = pg.PlotDataItem(
                    fut[0] / 1000, fut[1], pen=pg.mkPen(color, width=width, style=Qt.PenStyle.DashLine)
                )
                for item in (p_item, f_item):
                    item.setZValue(3 if f.id == self.current_id else 2)
                    self.plot.addItem(item)
                self.curve_items[f.id] = (p_item, f_item)
            else:
                past_parts.append((past[0] / 1000, past[1]))
                future_parts.append((fut[0] / 1000, fut[1]))
            reason = flat_reason(r)
            brush = pg.mkBrush(color)
            if f.last_accessed_at is not None and f.last_accessed_at != f.created_at:
                spots.append(
                    {
                        "pos": (f.last_accessed_at / 1000, conf),
                        "symbol": "d",
                        "brush": brush,
                        "pen": pg.mkPen(color),
                        "data": self.tr("{0}: last read {1} (the score restarts here)").format(
                            r.name, fmt_time(f.last_accessed_at)
                        ),
                    }
                )
            spots.append(
                {
                    "pos": (f.created_at / 1000, conf),
                    "symbol": "o",
                    "brush": pg.mkBrush(None),
                    "pen": pg.mkPen(color, width=1.5),
                    "data": self.tr("{0}: stored {1}").format(r.name, fmt_time(f.created_at)),
                }
            )
            if r.crossing is not None and reason is None and start <= r.crossing <= end:
                cross_spots.append(
                    {
                        "pos": (r.crossing / 1000, self.threshold),
                        "brush": brush,
                        "pen": pg.mkPen(color, width=2),
                        "data": self.tr("{0}: below {1} from {2}").format(
                            r.name, self.threshold, fmt_time(r.crossing)
                        ),
                    }
                )
            if reason is not None and individual:
                text = (
                    self.tr("pinned · no decay") if reason == "pinned" else self.tr("user.* · never decays")
                )
                stacked = flat_levels.get(round(conf, 3), 0)
                flat_levels[round(conf, 3)] = stacked + 1
                # the first label above its line, further ones below it
                lab = pg.TextItem(
                    text, color=color, anchor=(1, 1.05 if stacked == 0 else -0.05 - 1.1 * (stacked - 1))
                )
                lab.setPos(end / 1000, conf)
                self.plot.addItem(lab, ignoreBounds=True)
                self.labels.append(lab)
            if invalid:
                invalid_count += 1
                # the curve is drawn at 0: a cross at its start marks it as invalid
                spots.append(
                    {
                        "pos": (f.created_at / 1000, 0.0),
                        "symbol": "x",
                        "size": 12,
                        "brush": pg.mkBrush(self._theme.status_color("error")),
                        "pen": pg.mkPen(self._theme.status_color("error"), width=2),
                        "data": self.tr("{0}: invalid confidence {1}, drawn at 0").format(
                            r.name, fmt_confidence(f.confidence)
                        ),
                    }
                )
            if individual:
                legend.append(self._legend_entry(r, color, reason))
        self.past_all.setData(*_joined(past_parts), pen=pg.mkPen(muted, width=1))
        self.future_all.setData(
            *_joined(future_parts), pen=pg.mkPen(muted, width=1, style=Qt.PenStyle.DashLine)
        )
        self.anchors.setData(spots)
        self.crossings.setData(cross_spots)
        self._draw_whatif(start, end)
        if not individual:
            legend.append(self._summary(shown))
        if self.whatif is not None:
            accent = self._theme.status_color("editing").name()
            w_row, w_conf, w_tau = self.whatif
            note = self.tr("what if: tau {0}, confidence {1}").format(fmt_tau(w_tau), fmt_number(w_conf))
            legend.append(
                f'<span style="color:{accent}; font-weight:bold">━·━</span>&nbsp;'
                + html.escape(f"{w_row.name} — {note}").replace(" ", "&nbsp;")
            )
        if invalid_count:
            legend.append(invalid_note(invalid_count, self._theme.status_color("error").name()))
        if len(self.rows) > MAX_CURVES:
            legend.append(
                html.escape(
                    self.tr("Showing the first {0} of {1} selected facts.").format(MAX_CURVES, len(self.rows))
                )
            )
        self.legend.setText("&nbsp;&nbsp; ".join(legend))
        self.plot.setXRange(start / 1000, end / 1000, padding=0)
        self.plot.setYRange(0, y_top([ymax]) * 1.08, padding=0)

    def _draw_whatif(self, start: float, end: float) -> None:
        if self.whatif is None:
            self.whatif_item.setData([], [])
            return
        row, conf, tau = self.whatif
        x, y = curve_xy(_with(row, conf, tau), start, end)
        accent = self._theme.status_color("editing")
        self.whatif_item.setData(x / 1000, y, pen=pg.mkPen(accent, width=2.5, style=Qt.PenStyle.DashDotLine))

    def _legend_entry(self, r: FactRow, color: QColor, reason: str | None) -> str:
        name = html.escape(r.name)
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
        note = html.escape(note).replace(" ", "&nbsp;")
        return (
            f'<span style="color:{color.name()}; font-weight:bold">━━</span>&nbsp;'
            f'<span style="font-weight:{weight}">{name}</span>&nbsp;—&nbsp;{note}'
        )

    def _summary(self, rows: Sequence[FactRow]) -> str:
        flat = sum(1 for r in rows if flat_reason(r) is not None)
        soon = sorted(
            r.crossing
            for r in rows
            if r.crossing is not None and r.crossing > self.real_now and flat_reason(r) is None
        )
        below = sum(
            1
            for r in rows
            if r.crossing is not None and r.crossing <= self.real_now and flat_reason(r) is None
        )
        parts = [self.tr("{0} facts").format(len(rows))]
        if flat:
            parts.append(self.tr("{0} never decay (pinned or user.*)").format(flat))
        if below:
            parts.append(self.tr("{0} already below the threshold").format(below))
        if soon:
            parts.append(self.tr("next crossing {0}").format(fmt_relative(soon[0], int(self.real_now))))
        return html.escape(" · ".join(parts))


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
    return f'<span style="color:{color}">⚠&nbsp;{html.escape(text.format(count))}</span>'


def _with(row: FactRow, confidence: float, tau: float) -> FactRow:
    from dataclasses import replace

    f = row.fact.model_copy(update={"confidence": confidence})
    return replace(row, fact=f, tau_eff=tau)


def whatif_crossing(row: FactRow, confidence: float, decay_tau_days: float | None) -> int | None:
    """When the fact would fall below the threshold with these values (``decay_tau_days`` as stored)."""
    f = row.fact
    return forget_crossing_time(f.namespace, confidence, f.created_at, f.last_accessed_at, decay_tau_days)


def whatif_tau(row: FactRow, decay_tau_days: float | None) -> float:
    return effective_tau(row.fact.namespace, decay_tau_days)


# -- overview -----------------------------------------------------------------------------------------------------


class SelectViewBox(pg.ViewBox):
    """Left drag selects a rectangle, left click picks a point, wheel zooms, middle drag pans."""

    sigRectSelected = Signal(object, object)  # QRectF in data coordinates, keyboard modifiers
    sigPointClicked = Signal(object, object)  # QPointF in data coordinates, keyboard modifiers

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.band = QGraphicsRectItem(0, 0, 1, 1)
        self.band.setPen(pg.mkPen((80, 140, 255), width=1))
        self.band.setBrush(pg.mkBrush(80, 140, 255, 50))
        self.band.setZValue(1e9)
        self.band.hide()
        self.addItem(self.band, ignoreBounds=True)

    def mouseDragEvent(self, ev: Any, axis: Any = None) -> None:
        if ev.button() != Qt.MouseButton.LeftButton or axis is not None:
            super().mouseDragEvent(ev, axis)
            return
        ev.accept()
        p0 = self.mapToView(ev.buttonDownPos())
        p1 = self.mapToView(ev.pos())
        rect = QRectF(p0, p1).normalized()
        if ev.isFinish():
            self.band.hide()
            self.sigRectSelected.emit(rect, ev.modifiers())
        else:
            self.band.setRect(rect)
            self.band.show()

    def mouseClickEvent(self, ev: Any) -> None:
        if ev.button() == Qt.MouseButton.LeftButton:
            ev.accept()
            self.sigPointClicked.emit(self.mapToView(ev.pos()), ev.modifiers())
            return
        super().mouseClickEvent(ev)

    def mouseDoubleClickEvent(self, ev: Any) -> None:
        self.autoRange()


class _PassiveScatter(pg.ScatterPlotItem):
    """Points that leave clicks to the view box, which picks the nearest point itself (numpy)."""

    def mouseClickEvent(self, ev: Any) -> None:
        ev.ignore()


class OverviewPlot(QWidget):
    """All active facts as points: score at the view time against days since their decay anchor."""

    selectionRequested = Signal(list, bool)  # fact ids, add to the current selection

    def __init__(self, theme: Any, parent: QWidget | None = None):
        super().__init__(parent)
        self._theme = theme
        self.vb = SelectViewBox()
        self.plot = ThemedPlotWidget(theme, self, viewBox=self.vb)
        self.plot.setObjectName("factsOverview")
        pi = self.plot.getPlotItem()
        pi.setLabel("left", self.tr("score"))
        pi.setLabel("bottom", self.tr("days since last read (or since stored)"))
        self.scatter = _PassiveScatter(pxMode=True, size=5, pen=None, hoverable=False)
        self.scatter.opts["useCache"] = True
        self.selected = _PassiveScatter(pxMode=True, size=10, brush=None)
        self.selected.setZValue(3)
        self.threshold_line = pg.InfiniteLine(pos=DEFAULT_FORGET_THRESHOLD, angle=0, movable=False)
        self.plot.addItem(self.scatter)
        self.plot.addItem(self.selected)
        self.plot.addItem(self.threshold_line, ignoreBounds=True)
        self.legend = QLabel(self)
        self.legend.setObjectName("overviewLegend")
        self.legend.setWordWrap(True)
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.hint = QLabel(
            self.tr(
                "Drag: select a rectangle · Click: one point · Ctrl/Shift: add · Wheel: zoom · Double-click: fit"
            ),
            self,
        )
        self.hint.setObjectName("overviewHint")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(self.plot, 1)
        lay.addWidget(self.legend)
        lay.addWidget(self.hint)
        self.vb.sigRectSelected.connect(self._on_rect)
        self.vb.sigPointClicked.connect(self._on_click)

        self.ids: np.ndarray = np.empty(0, dtype=object)
        self.conf = np.empty(0)
        self.anchor = np.empty(0)
        self.tau = np.empty(0)
        self.ns_index = np.empty(0, dtype=np.int32)
        self.namespaces: list[str] = []
        self.invalid_ids: list[str] = []  # active facts left out: their confidence cannot be drawn
        self.x = np.empty(0)
        self.y = np.empty(0)
        self._brushes: list[Any] = []
        self._point_brushes: np.ndarray = np.empty(0, dtype=object)
        self.view_time = 0.0
        self._selected_ids: set[str] = set()
        self._drawn_ok: np.ndarray | None = None
        self.focus: str | None = None
        self._fitted = False
        theme.changed.connect(self._restyle)
        self._restyle()

    def _restyle(self) -> None:
        err = self._theme.status_color("error")
        self.threshold_line.setPen(pg.mkPen(err, width=1.2, style=Qt.PenStyle.DashLine))
        self.selected.setPen(pg.mkPen(self._theme.plot_foreground(), width=1.6))
        if self.namespaces:
            self._make_brushes()
            self._draw(refit=False)

    def _make_brushes(self) -> None:
        colors = palette(len(self.namespaces), bool(getattr(self._theme, "is_dark", False)))
        self._colors = colors
        self._brushes = [pg.mkBrush(c) for c in colors]
        table = np.empty(len(self._brushes), dtype=object)
        for i, b in enumerate(self._brushes):
            table[i] = b
        focus = self.focus
        muted = QColor(self._theme.muted_text())
        muted.setAlpha(90)
        other = pg.mkBrush(muted)
        items = []
        for i, (ns, c) in enumerate(zip(self.namespaces, colors)):
            inside = focus is None or ns == focus or ns.startswith(focus + ".")
            if not inside:
                table[i] = other
            color = c.name() if inside else muted.name()
            items.append(f'<span style="color:{color}">●</span>&nbsp;{html.escape(ns)}')
        if focus is not None and self.ids.size:
            # draw the focused namespace last, on top of the grey points
            inside_ns = np.array(
                [ns == focus or ns.startswith(focus + ".") for ns in self.namespaces], dtype=bool
            )
            order = np.argsort(inside_ns[self.ns_index], kind="stable")
            for name in ("ids", "conf", "anchor", "tau", "ns_index"):
                setattr(self, name, getattr(self, name)[order])
        self._point_brushes = table[self.ns_index] if len(table) else np.empty(0, dtype=object)
        self._drawn_ok = None  # the point order may have changed: the next draw is a full one
        if self.invalid_ids:
            err = self._theme.status_color("error").name()
            items.append(invalid_note(len(self.invalid_ids), err, left_out=True))
        self.legend.setText("&nbsp;&nbsp; ".join(items))

    def set_focus(self, namespace: str | None) -> None:
        """Colour only ``namespace`` (and its sub-namespaces); the other points turn grey."""
        if namespace == self.focus:
            return
        self.focus = namespace
        if self.namespaces:
            self._make_brushes()
            self._draw(refit=False)

    def set_rows(self, rows: Sequence[FactRow], view_time: float) -> None:
        """The points: active facts (not superseded, not forgotten) of ``rows``."""
        active = [r for r in rows if r.fact.superseded_by is None and r.fact.forgotten_at is None]
        # a confidence that is not a finite number >= 0 has no place on a score axis: left out, with a note
        drawable = [r for r in active if drawable_confidence(r.fact.confidence)]
        self.invalid_ids = [r.fact.id for r in active if not drawable_confidence(r.fact.confidence)]
        active = drawable
        self.namespaces = sorted({r.fact.namespace for r in active})
        index = {ns: i for i, ns in enumerate(self.namespaces)}
        n = len(active)
        self.ids = np.array([r.fact.id for r in active], dtype=object) if n else np.empty(0, dtype=object)
        self.conf = np.fromiter((r.fact.confidence for r in active), dtype=float, count=n)
        self.anchor = np.fromiter((r.anchor for r in active), dtype=float, count=n)
        self.tau = np.fromiter((r.tau_eff for r in active), dtype=float, count=n)
        self.ns_index = np.fromiter((index[r.fact.namespace] for r in active), dtype=np.int32, count=n)
        self.view_time = float(view_time)
        self._make_brushes()
        self._draw(refit=not self._fitted)
        self._fitted = self._fitted or n > 0

    def set_view_time(self, view_time: float) -> None:
        self.view_time = float(view_time)
        self._draw(refit=False, positions_only=True)

    def _draw(self, refit: bool, positions_only: bool = False) -> None:
        self.x = np.maximum(0.0, (self.view_time - self.anchor) / DAY_MS)
        self.y = scores_at(self.conf, self.anchor, self.tau, self.view_time)
        ok = np.isfinite(self.y)
        if positions_only and self._drawn_ok is not None and np.array_equal(ok, self._drawn_ok):
            # Same points, same styles: move them in place (getData() returns views of the item's
            # record array), which skips re-resolving 10,000 per-point brushes.
            xs, ys = self.scatter.getData()
            xs[:] = self.x[ok]
            ys[:] = self.y[ok]
            self.scatter.prepareGeometryChange()
            self.scatter.bounds = [None, None]
            self.scatter.informViewBoundsChanged()
            self.scatter.invalidate()
        elif ok.all():
            self.scatter.setData(x=self.x, y=self.y, brush=self._point_brushes)
        else:
            self.scatter.setData(x=self.x[ok], y=self.y[ok], brush=self._point_brushes[ok])
        self._drawn_ok = ok
        self._draw_selected()
        if refit and self.x.size:
            xs = self.x[np.isfinite(self.x)]
            xmax = min(float(xs.max()), 1e9) if xs.size else 1.0
            self.plot.setXRange(0, xmax * 1.03 + 0.5, padding=0)
            self.plot.setYRange(0, y_top(self.conf) * 1.05, padding=0)

    def set_selected(self, ids: set[str]) -> None:
        self._selected_ids = set(ids)
        self._draw_selected()

    def _draw_selected(self) -> None:
        if not self._selected_ids or self.ids.size == 0:
            self.selected.setData([], [])
            return
        mask = np.fromiter((i in self._selected_ids for i in self.ids), dtype=bool, count=self.ids.size)
        mask &= np.isfinite(self.y)
        self.selected.setData(x=self.x[mask], y=self.y[mask])

    # -- picking ------------------------------------------------------------------------------------------------
    def ids_in_rect(self, rect: QRectF) -> list[str]:
        if self.x.size == 0:
            return []
        m = (
            (self.x >= rect.left())
            & (self.x <= rect.right())
            & (self.y >= rect.top())
            & (self.y <= rect.bottom())
        )
        return [str(i) for i in self.ids[m]]

    def id_near(self, pos: QPointF, radius_px: float = PICK_RADIUS_PX) -> str | None:
        if self.x.size == 0:
            return None
        sx, sy = self.vb.viewPixelSize()
        if not sx or not sy:
            return None
        with np.errstate(invalid="ignore"):
            d2 = ((self.x - pos.x()) / sx) ** 2 + ((self.y - pos.y()) / sy) ** 2
        d2 = np.where(np.isfinite(d2), d2, np.inf)
        k = int(np.argmin(d2))
        return str(self.ids[k]) if d2[k] <= radius_px**2 else None

    def data_to_scene(self, x: float, y: float) -> QPointF:
        return self.vb.mapViewToScene(QPointF(x, y))

    def _adds(self, modifiers: Any) -> bool:
        return bool(modifiers & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier))

    def _on_rect(self, rect: QRectF, modifiers: Any) -> None:
        self.selectionRequested.emit(self.ids_in_rect(rect), self._adds(modifiers))

    def _on_click(self, pos: QPointF, modifiers: Any) -> None:
        fid = self.id_near(pos)
        if fid is not None:
            self.selectionRequested.emit([fid], self._adds(modifiers))
