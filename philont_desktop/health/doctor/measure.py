"""A finding's measurement: its values as lines of text, and as a small picture where people would rather
look than read (a series per month against its cap; scores against their threshold; a value against its
limit).

:func:`picture_of` decides from the ``measure`` alone (Qt-free) what is drawn: ``("months", labels,
values, cap)`` for a list of per-month rows (``"days"`` for per-day rows), ``("scores", labels, values, threshold)`` for per-row scores
and ``("bar", labels, values, limit)`` for a value and its limit; ``None`` when numbers read better.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from philont_desktop.qt import QCoreApplication, Qt, QVBoxLayout, QWidget
from philont_desktop.widgets import accessible, plain

__all__ = ["MeasurePlot", "measure_lines", "picture_of"]

#: the value a bar shows, by preference, and the limit it is held against
VALUE_KEYS = ("chars", "live", "wal_mb", "size_mb", "free_mb", "offered", "failures", "count", "total_mb")
LIMIT_KEYS = ("cap", "limit", "limit_mb", "threshold")
MONTH_VALUE_KEYS = ("chars", "size_mb", "mb", "bytes", "messages", "tokens", "count", "value")
MAX_BARS = 40


def _num(v: Any) -> float | None:
    if isinstance(v, bool) or not isinstance(v, int | float):
        return None
    return float(v) if math.isfinite(v) else None


def _short(v: Any) -> str:
    if isinstance(v, dict):
        return QCoreApplication.translate("MeasureNames", "{0} values").format(len(v))
    if isinstance(v, list | tuple):
        if len(v) <= 6 and all(not isinstance(x, dict | list) for x in v):
            return ", ".join(_short(x) for x in v)
        return QCoreApplication.translate("MeasureNames", "{0} entries").format(len(v))
    if isinstance(v, float):
        return f"{v:.4g}"
    return plain.plain(v, 200, one_line=True)


def measure_name(key: str) -> str:
    """A measured value's name in the interface's language (the key itself for one not named here)."""
    names = {
        "cap": QCoreApplication.translate("MeasureNames", "cap"),
        "chars": QCoreApplication.translate("MeasureNames", "characters"),
        "shown_chars": QCoreApplication.translate("MeasureNames", "characters shown"),
        "tokens": QCoreApplication.translate("MeasureNames", "tokens"),
        "count": QCoreApplication.translate("MeasureNames", "count"),
        "threshold": QCoreApplication.translate("MeasureNames", "threshold"),
        "limit": QCoreApplication.translate("MeasureNames", "limit"),
        "days": QCoreApplication.translate("MeasureNames", "days"),
        "live": QCoreApplication.translate("MeasureNames", "live facts"),
        "over": QCoreApplication.translate("MeasureNames", "over the cap"),
        "messages": QCoreApplication.translate("MeasureNames", "messages"),
        "months": QCoreApplication.translate("MeasureNames", "per month"),
        "per_day": QCoreApplication.translate("MeasureNames", "per day"),
        "score": QCoreApplication.translate("MeasureNames", "score"),
        "scores": QCoreApplication.translate("MeasureNames", "scores"),
        "failures": QCoreApplication.translate("MeasureNames", "failures"),
        "namespace": QCoreApplication.translate("MeasureNames", "namespace"),
        "total": QCoreApplication.translate("MeasureNames", "total"),
        "average": QCoreApplication.translate("MeasureNames", "average"),
        "max": QCoreApplication.translate("MeasureNames", "busiest day"),
        "keys": QCoreApplication.translate("MeasureNames", "keys"),
        "names": QCoreApplication.translate("MeasureNames", "names"),
        "similarity": QCoreApplication.translate("MeasureNames", "similarity"),
        "maturity": QCoreApplication.translate("MeasureNames", "grade"),
        "backed": QCoreApplication.translate("MeasureNames", "grade the actions back"),
        "actions": QCoreApplication.translate("MeasureNames", "linked actions"),
        "paused_until": QCoreApplication.translate("MeasureNames", "paused until"),
        "oldest_read": QCoreApplication.translate("MeasureNames", "read longest ago"),
        "facts": QCoreApplication.translate("MeasureNames", "facts"),
        "labels": QCoreApplication.translate("MeasureNames", "rows"),
        "shown": QCoreApplication.translate("MeasureNames", "shown in the prefix"),
        "cut": QCoreApplication.translate("MeasureNames", "characters cut"),
    }
    return names.get(key, key)


def measure_lines(measure: Mapping[str, Any]) -> list[str]:
    """``name: value`` per measured value (lists and mappings of many rows as their size)."""
    return [
        f"{plain.plain(measure_name(str(k)), 80, one_line=True)}: {_short(v)}" for k, v in measure.items()
    ]


def _months(measure: Mapping[str, Any]) -> tuple[str, list[str], list[float], float | None] | None:
    for rows in measure.values():
        label = (
            "month"
            if isinstance(rows, list) and rows and isinstance(rows[0], dict) and "month" in rows[0]
            else "day"
        )
        if not (isinstance(rows, list) and rows and all(isinstance(r, dict) and label in r for r in rows)):
            continue
        key = next((k for k in MONTH_VALUE_KEYS if _num(rows[0].get(k)) is not None), None)
        if key is None:
            continue
        rows = rows[-MAX_BARS:]
        cap = _num(measure.get("cap")) or _num(rows[-1].get("cap"))
        return (
            "months" if label == "month" else "days",
            [str(r[label]) for r in rows],
            [_num(r.get(key)) or 0.0 for r in rows],
            cap,
            key,
        )
    return None


Picture = tuple[str, list[str], list[float], float | None, str]


def picture_of(measure: Mapping[str, Any]) -> Picture | None:
    """What to draw for ``measure`` (see the module docstring), or ``None``."""
    got = _months(measure)
    if got is not None:
        return got
    scores = measure.get("scores")
    threshold = _num(measure.get("threshold"))
    if isinstance(scores, dict) and scores and threshold is not None:
        pairs = sorted(((str(k), _num(v)) for k, v in scores.items()), key=lambda kv: kv[1] or 0.0)
        pairs = [(k, v) for k, v in pairs if v is not None][:MAX_BARS]
        return "scores", [k[:8] for k, _ in pairs], [v for _, v in pairs if v is not None], threshold, "score"
    limit = next((_num(measure.get(k)) for k in LIMIT_KEYS if _num(measure.get(k)) is not None), None)
    value_key = next((k for k in VALUE_KEYS if _num(measure.get(k)) is not None), None)
    if limit is not None and value_key is not None:
        return "bar", [measure_name(value_key)], [_num(measure[value_key]) or 0.0], limit, value_key
    return None


class MeasurePlot(QWidget):
    """The picture of a finding's measure (built when first needed: pyqtgraph is slow to build)."""

    def __init__(self, theme: Any, parent: QWidget | None = None):
        super().__init__(parent)
        self.theme = theme
        self.plot: Any = None
        self.picture: Picture | None = None
        self.severity = "warn"
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)

    def _make_plot(self) -> None:
        from philont_desktop.widgets.plots import ThemedPlotWidget

        self.plot = ThemedPlotWidget(self.theme, self)
        self.plot.setObjectName("doctorPlot")
        accessible.name_widget(self.plot)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.themeChanged.connect(self._redraw)
        self._layout.addWidget(self.plot)

    def show_measure(self, measure: Mapping[str, Any] | None, severity: str = "warn") -> bool:
        """Draw ``measure``; hides itself (and returns ``False``) when it has no picture."""
        self.picture = picture_of(measure or {})
        self.severity = severity
        self.setVisible(self.picture is not None)
        if self.picture is not None:
            if self.plot is None:
                self._make_plot()
            self._redraw()
        return self.picture is not None

    def _redraw(self) -> None:
        from philont_desktop.health.doctor.model import severity_role
        from philont_desktop.widgets.plots import pg

        if self.plot is None or self.picture is None:
            return
        self.plot.clear()
        _kind, labels, values, limit, what = self.picture
        color = self.theme.status_color(severity_role(self.severity))
        xs = list(range(len(values)))
        self.plot.addItem(pg.BarGraphItem(x=xs, height=values, width=0.6, brush=pg.mkBrush(color), pen=None))
        if limit is not None:
            line = pg.InfiniteLine(
                pos=limit, angle=0, pen=pg.mkPen(self.theme.muted_text(), width=2, style=Qt.PenStyle.DashLine)
            )
            self.plot.addItem(line)
        axis = self.plot.getAxis("bottom")
        step = max(1, -(-len(labels) // 6))  # at most six labels: dates stay readable
        axis.setTicks([[(i, labels[i]) for i in range(0, len(labels), step)]])
        top = max([*values, limit or 0.0, 1e-9])
        self.plot.setYRange(0, top * 1.1, padding=0)
        self.plot.setXRange(-0.6, len(values) - 0.4, padding=0)
        self.plot.setLabel("left", measure_name(what))
