"""The Recall page's pictures, side by side: hit rate by month, misses by cause, strategies compared.

* **Hit rate by month**: of the turns of a month that needed an earlier message (an estimate), the share
  whose recall brought one back; the label says "n of m". The last :data:`MONTHS` months are shown.
* **Misses by cause**: the missed turns by their one cause (the core's ``replay.cause.*`` codes).
* **Strategies compared**: each what-if strategy's hit rate on the same turns, its label the tokens
  it recalled per hit (what the hits cost in the agent's context).
"""

from __future__ import annotations

from philont_desktop.health.recall import texts
from philont_desktop.health.recall.data import RecallView, by_cause, by_month, strategies
from philont_desktop.health.recall.widgets.bars import Bar, BarChart
from philont_desktop.qt import QDate, QHBoxLayout, QLocale, QWidget
from philont_desktop.retranslate import Retranslatable
from philont_desktop.theme import Theme

MONTHS = 12


def _month_tick(locale: QLocale, year: int, month: int, *, first: bool) -> str:
    """The month's name, with its year on the first month shown and on every January."""
    if first or month == 1:
        return locale.toString(QDate(year, month, 1), "MMM yyyy")
    return locale.monthName(month, QLocale.FormatType.ShortFormat)


class RecallCharts(Retranslatable, QWidget):
    def __init__(self, theme: Theme, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("recallCharts")
        self.months = BarChart(theme, "recallMonthChart", vertical=True, parent=self)
        self.causes = BarChart(theme, "recallCauseChart", parent=self)
        self.strategies = BarChart(theme, "recallStrategyChart", parent=self)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        for chart, stretch in ((self.months, 4), (self.causes, 3), (self.strategies, 3)):
            lay.addWidget(chart, stretch)
        self._view: RecallView | None = None
        self.retranslate()

    def show_view(self, view: RecallView | None) -> None:
        self._view = view
        self._months(view)
        self._causes(view)
        self._strategies(view)

    def retranslate(self) -> None:
        self.months.set_value_label(self.tr("hit rate, %"))
        self.causes.set_value_label(self.tr("missed turns"))
        self.strategies.set_value_label(self.tr("hit rate, %"))
        self.show_view(self._view)

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
