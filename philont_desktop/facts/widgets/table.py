"""The facts table: every fact of the chosen namespace and filter, sortable, several rows selectable."""

from __future__ import annotations

from typing import Any

from philont_desktop.facts.columns import (
    C_CONFIDENCE,
    C_CROSSES,
    C_KEY,
    C_KIND,
    C_NAMESPACE,
    C_SCORE,
    C_STATUS,
    C_TAU,
    C_TAU_SOURCE,
    C_VALUE,
    N_COLUMNS,
    TIME_COLUMNS,
)
from philont_desktop.facts.data import FactRow, ranges
from philont_desktop.facts.model import FactsModel, ScoreRole
from philont_desktop.facts.proxy import FactsProxy
from philont_desktop.facts.widgets.score_bar import ScoreBarDelegate
from philont_desktop.humanize import MONTH_MS, rel_time
from philont_desktop.qt import (
    QAbstractItemView,
    QItemSelection,
    QItemSelectionModel,
    Qt,
    QTableView,
    QTimer,
    QWidget,
    Signal,
)
from philont_desktop.widgets.narrow import LinesHigh
from philont_desktop.widgets.table import setup_table

SELECTION_DEBOUNCE_MS = 30
TIME_SAMPLE = "2026-06-15 12:00"
#: The columns seen without scrolling: the value takes the width they leave (at least VALUE_MIN).
FIRST_COLUMNS = (C_NAMESPACE, C_KEY, C_SCORE, C_STATUS, C_CROSSES)
VALUE_MIN = 180
# Who gives up width first when the window is narrow.
NARROWING = (C_STATUS, C_NAMESPACE, C_KEY, C_CROSSES)


class FactsTable(QTableView):
    """The table over ``proxy``; ``selectionMoved`` after the selection settles (30 ms)."""

    selectionMoved = Signal()

    def __init__(self, model: FactsModel, proxy: FactsProxy, settings: Any, parent: QWidget | None = None):
        super().__init__(parent)
        self.facts = model
        self.proxy = proxy
        self._settings = settings
        fm = self.fontMetrics()
        time_w = fm.horizontalAdvance(self.tr("%n month(s) ago", None, 11) + " · " + TIME_SAMPLE) + 18
        widths: dict[int, int | str] = {c: time_w for c in range(N_COLUMNS)}
        widths.update(
            {
                C_NAMESPACE: 120,
                C_KEY: 150,
                C_VALUE: 260,
                C_CONFIDENCE: fm.horizontalAdvance("Confidence") + 20,
                C_KIND: 60,
                C_TAU: 64,
                C_TAU_SOURCE: 130,
                C_SCORE: fm.horizontalAdvance("Score (+365 d)") + 24,
                C_CROSSES: time_w,
                C_STATUS: 150,
            }
        )
        self._time_w = time_w
        setup_table(
            self, proxy, name="factsTable", widths=widths, stretch_last=True, multi=True, sortable=True
        )
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        # The vertical scroll bar is always there: shown only when needed, it appeared after the first
        # paint of a load (the view lays its rows out in a later turn), narrowed the viewport, and the
        # value column fitted to the new width made the whole table paint a second time
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        LinesHigh(self, 6)  # its header and a few rows in large text (the tab scrolls instead)
        state = settings.header_state("facts/table")
        if state:
            self.horizontalHeader().restoreState(state)
        self.sortByColumn(C_NAMESPACE, Qt.SortOrder.AscendingOrder)
        self.score_bars = ScoreBarDelegate(ScoreRole, self)
        self.setItemDelegateForColumn(C_SCORE, self.score_bars)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(SELECTION_DEBOUNCE_MS)
        self._debounce.timeout.connect(self.selectionMoved)
        self.selectionModel().selectionChanged.connect(lambda *_: self._debounce.start())
        self.selectionModel().currentRowChanged.connect(lambda *_: self._debounce.start())

    def save_state(self) -> None:
        self._settings.set_header_state("facts/table", self.horizontalHeader().saveState())

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self.fit_value_column()

    def fit_value_column(self) -> None:
        """Give the value the width the first columns leave, so values are read without scrolling.

        In a narrow window (1024 px) the first columns give up width first, down to what still reads
        (the rest is elided; every cell's tooltip holds its whole text), so that the "below threshold
        from" column is seen without scrolling sideways."""
        hh = self.horizontalHeader()
        shown = [c for c in FIRST_COLUMNS if not hh.isSectionHidden(c)]
        room = self.viewport().width() - VALUE_MIN - 2
        excess = sum(hh.sectionSize(c) for c in shown) - room
        for c in NARROWING:
            if excess <= 0:
                break
            if c in shown:
                size = hh.sectionSize(c)
                new = max(self._narrowest(c), size - excess)
                if new < size:
                    hh.resizeSection(c, new)
                    excess -= size - new
        others = sum(hh.sectionSize(c) for c in shown)
        hh.resizeSection(C_VALUE, max(VALUE_MIN, self.viewport().width() - others - 2))

    def _narrowest(self, column: int) -> int:
        """How narrow a first column may become: its title, or the relative part of a time."""
        fm = self.fontMetrics()
        if column == C_CROSSES:
            return fm.horizontalAdvance(rel_time(0, 11 * MONTH_MS) + " · 2026") + 18
        title = self.model().headerData(column, Qt.Orientation.Horizontal) or ""
        return max(70, fm.horizontalAdvance(str(title)) + 24)

    def shrink_empty_columns(self, empty: set[int]) -> None:
        """Columns without a value in any row take only their title's width (and grow back when filled)."""
        hh = self.horizontalHeader()
        for c in TIME_COLUMNS:
            if c in empty:
                hh.resizeSection(c, hh.sectionSizeHint(c))
            elif hh.sectionSize(c) <= hh.sectionSizeHint(c):
                hh.resizeSection(c, self._time_w)

    def settle(self) -> None:
        """The selection changed in code: say so now rather than after the pause."""
        self._debounce.stop()
        self.selectionMoved.emit()

    def selected_rows(self) -> list[FactRow]:
        rows = sorted(i.row() for i in self.selectionModel().selectedRows())
        return [self.proxy.fact_at(r) for r in rows]

    def current_row(self) -> FactRow | None:
        """The current row when it is selected, else the only selected row (``None``: none or several)."""
        sm = self.selectionModel()
        idx = sm.currentIndex()
        if not idx.isValid() or not sm.isRowSelected(idx.row(), idx.parent()):
            sel = self.selected_rows()
            return sel[0] if len(sel) == 1 else None
        return self.facts.row(self.proxy.mapToSource(idx).row())

    def select_ids(self, ids: list[str], add: bool = False) -> tuple[int, int]:
        """Select the rows of ``ids`` the filter shows; ``(selected, hidden by the filter)``."""
        proxy_rows: list[int] = []
        hidden = 0
        for fid in ids:
            src = self.facts.row_of(fid)
            if src < 0:
                continue
            p = self.proxy.mapFromSource(self.facts.index(src, 0))
            if p.isValid():
                proxy_rows.append(p.row())
            else:
                hidden += 1
        proxy_rows.sort()
        sel = QItemSelection()
        for start, end in ranges(proxy_rows):
            sel.select(self.proxy.index(start, 0), self.proxy.index(end, N_COLUMNS - 1))
        sm = self.selectionModel()
        flag = QItemSelectionModel.SelectionFlag
        sm.select(sel, (flag.Select if add else flag.ClearAndSelect) | flag.Rows)
        if proxy_rows:
            first = self.proxy.index(proxy_rows[0], 0)
            sm.setCurrentIndex(first, flag.NoUpdate)
            self.scrollTo(first, QAbstractItemView.ScrollHint.EnsureVisible)
        return len(proxy_rows), hidden
