"""The Recall page's pictures, side by side: hit rate by month, misses by cause, strategies compared.

* **Hit rate by month**: of the turns of a month that needed an earlier message (an estimate), the share
  whose recall brought one back; the label says "n of m". The last :data:`MONTHS` months are shown.
* **Misses by cause**: the missed turns by their one cause (the core's ``replay.cause.*`` codes).
* **Strategies compared**: each what-if strategy's hit rate on the same turns, its label the tokens
  it recalled per hit (what the hits cost in the agent's context).

Each picture is a pyqtgraph plot that takes about 20 ms to make, so the page (built in the turn that
shows it) makes them in the turns after it, one per turn, or at once when something asks for one
first; :attr:`RecallCharts.made` is emitted when all three are there.
"""

from __future__ import annotations

from philont_desktop.health.recall import texts
from philont_desktop.health.recall.data import RecallView, by_cause, by_month, strategies
from philont_desktop.health.recall.widgets.bars import Bar, BarChart
from philont_desktop.qt import QDate, QHBoxLayout, QLocale, QVBoxLayout, QWidget, Signal
from philont_desktop.retranslate import Retranslatable
from philont_desktop.theme import Theme
from philont_desktop.widgets.after_paint import next_turn

MONTHS = 12


def _month_tick(locale: QLocale, year: int, month: int, *, first: bool) -> str:
    """The month's name, with its year on the first month shown and on every January."""
    if first or month == 1:
        return locale.toString(QDate(year, month, 1), "MMM yyyy")
    return locale.monthName(month, QLocale.FormatType.ShortFormat)


class RecallCharts(Retranslatable, QWidget):
    made = Signal()  # the three pictures are made

    # (attribute, the plot's object name, vertical bars, share of the width)
    CHARTS = (
        ("months", "recallMonthChart", True, 4),
        ("causes", "recallCauseChart", False, 3),
        ("strategies", "recallStrategyChart", False, 3),
    )

    def __init__(self, theme: Theme, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("recallCharts")
        self._theme = theme
        self._made: dict[str, BarChart] = {}
        self._slots: dict[str, QVBoxLayout] = {}
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        for name, _object_name, _vertical, stretch in self.CHARTS:
            slot = QWidget(self)
            self._slots[name] = QVBoxLayout(slot)
            self._slots[name].setContentsMargins(0, 0, 0, 0)
            lay.addWidget(slot, stretch)
        self._view: RecallView | None = None
        self._next = next_turn(self, self._make_next)
        self._next.start()

    @property
    def months(self) -> BarChart:
        return self._chart("months")

    @property
    def causes(self) -> BarChart:
        return self._chart("causes")

    @property
    def strategies(self) -> BarChart:
        return self._chart("strategies")

    @property
    def ready(self) -> bool:
        return len(self._made) == len(self.CHARTS)

    def _chart(self, name: str) -> BarChart:
        chart = self._made.get(name)
        if chart is None:
            spec = next(c for c in self.CHARTS if c[0] == name)
            chart = BarChart(self._theme, spec[1], vertical=spec[2], parent=self)
            self._slots[name].addWidget(chart)
            self._made[name] = chart
            self._label(name)
            self._draw(name)
            if self.ready:
                self.made.emit()
        return chart

    def _make_next(self) -> None:
        rest = [c[0] for c in self.CHARTS if c[0] not in self._made]
        if rest:
            self._chart(rest[0])
        if len(rest) > 1:
            self._next.start()

    def show_view(self, view: RecallView | None) -> None:
        self._view = view
        for name in self._made:
            self._draw(name)

    def retranslate(self) -> None:
        for name in self._made:
            self._label(name)
        self.show_view(self._view)

    def _label(self, name: str) -> None:
        text = self.tr("missed turns") if name == "causes" else self.tr("hit rate, %")
        self._made[name].set_value_label(text)

    def _draw(self, name: str) -> None:
        {"months": self._months, "causes": self._causes, "strategies": self._strategies}[name](self._view)

    def _months(self, view: RecallView | None) -> None:
        months = by_month(view) if view is not None else []
        shown = months[-MONTHS:]
        title = self.tr("Hit rate by month")
        if len(months) > len(shown):
            title = self.tr("Hit rate by month (the last %n months)", "", len(shown))
        self.months.set_title(title)
        locale = QLocale()
        bars = [
            Bar(
                _month_tick(locale, m.year, m.month, first=i == 0),
                100 * m.rate,
                self.tr("%1 of %2")
                .replace("%1", texts.number(m.hits))
                .replace("%2", texts.number(m.with_need)),
                "live",
                texts.percent(m.rate),
            )
            for i, m in enumerate(shown)
        ]
        self.months.set_bars(bars, 100.0)

    def _causes(self, view: RecallView | None) -> None:
        causes = by_cause(view.summary if view is not None else None)
        self.causes.set_title(self.tr("Misses by cause"))
        bars = [Bar(texts.cause_name(code), n, texts.number(n), "error") for code, n in causes]
        self.causes.set_bars(bars, max([n for _c, n in causes] + [1]))

    def _strategies(self, view: RecallView | None) -> None:
        rows = strategies(view.summary if view is not None else None)
        self.strategies.set_title(self.tr("Strategies compared"))
        bars = []
        for s in rows:
            rate = 100 * (s.rate or 0.0)
            if s.tokens_per_hit is None:
                label = texts.percent(s.rate)
            else:
                label = self.tr("%1 · %2 tokens per hit").replace("%1", texts.percent(s.rate))
                label = label.replace("%2", texts.number(round(s.tokens_per_hit)))
            bars.append(
                Bar(texts.strategy_name(s.name), rate, label, "changed" if s.name != "agent" else "paused")
            )
        self.strategies.set_bars(bars, 100.0)
