"""The Calendar tab's three tables (upcoming, every event, every task) in one tab widget.

Each table sits on a filter proxy (the toolbar's filter matches any column); the events and tasks can
be sorted by a click on a header, and a second click on a sorted header gives the store's order back.
Rows are found by their stable key (``kind:id[:occurrence]``), so a reload keeps the selection and the
scroll position.
"""

from __future__ import annotations

from typing import Any

from philont_desktop.calendar.agenda import agenda_order
from philont_desktop.calendar.model import EventsModel, SchedulesModel, UpcomingModel, _Table
from philont_desktop.calendar.state import VIEWS, CalendarState
from philont_desktop.calendar.widgets.month import MonthView
from philont_desktop.qt import (
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    QStyle,
    Qt,
    QTableView,
    QTabWidget,
    QWidget,
    Signal,
)
from philont_desktop.widgets.table import setup_table

TITLE_CAP_PX = 320  # no column wider than this when sized to its contents
#: The time columns of each table and a sample of their longest text: a restored header never makes
#: them narrower than that (widths saved in another language, font or screen clipped the times).
TIME_SAMPLES = {
    "upcoming": {"when": "2026-12-31 23:59"},
    "events": {"starts": "2026-12-31 23:59", "ends": "2026-12-31 23:59", "created": "2026-12-31 23:59"},
    "tasks": {"next": "2026-12-31 23:59  (23 h ago)", "last": "2026-12-31 23:59"},
}
SAMPLE_ROWS = 40  # sizing to contents reads the visible rows and this many more (Qt's default: 1000)


class _Proxy(QSortFilterProxyModel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setSortRole(_Table.SortRole)
        self.setFilterKeyColumn(-1)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)

    def multiData(self, index: QModelIndex | QPersistentModelIndex, roleDataSpan: Any) -> None:
        """A cell's painting roles from the table's own ``multiData`` (one call into Python per cell)."""
        source = self.mapToSource(index) if index.isValid() else QModelIndex()
        self.sourceModel().multiData(source, roleDataSpan)


class CalendarTables(QTabWidget):
    """Emits ``currentChanged(str, object)``: the view's name and the row under the cursor (or ``None``)."""

    rowChanged = Signal(str, object)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setDocumentMode(True)
        self.upcoming_model = UpcomingModel(self)
        self.events_model = EventsModel(self)
        self.schedules_model = SchedulesModel(self)
        models = {"upcoming": self.upcoming_model, "events": self.events_model, "tasks": self.schedules_model}
        self.views: dict[str, QTableView] = {
            name: self._table(models[name], name, sortable=name != "upcoming") for name in VIEWS
        }
        self.month = MonthView(self)
        for name in VIEWS:
            self.addTab(self.views[name], "")
        self.insertTab(1, self.month, "")
        self._month_state: CalendarState | None = None  # rows the month grid has not shown yet
        self.currentChanged.connect(lambda *_: self._fill_month())  # before the row is told
        self.currentChanged.connect(lambda *_: self._emit_row())
        self.currentChanged.connect(lambda *_: self._size_shown())
        self._sized = False
        self._unsized: set[str] = set()  # tables to size to their contents when first shown

    def _table(self, model: _Table, name: str, *, sortable: bool) -> QTableView:
        proxy = _Proxy(self)
        proxy.setSourceModel(model)
        view = setup_table(QTableView(self), proxy, name=f"calendar_{name}", stretch_last=True)
        view.horizontalHeader().setResizeContentsPrecision(SAMPLE_ROWS)
        if sortable:
            h = view.horizontalHeader()
            h.setSortIndicatorClearable(True)
            h.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
            view.setSortingEnabled(True)
            proxy.sort(-1)  # the store's order until a header is clicked
        view.selectionModel().currentRowChanged.connect(lambda *_: self._emit_row())
        view.doubleClicked.connect(lambda *_: self._emit_row())
        return view

    # -- which row ------------------------------------------------------------------------------------
    def view_name(self, view: QTableView | None = None) -> str:
        view = view if view is not None else self.currentWidget()
        if view is self.month:
            return "month"
        return next(k for k, v in self.views.items() if v is view)

    def current_view(self) -> QTableView:
        """The table shown (the agenda while the month is shown)."""
        w = self.currentWidget()
        return w if isinstance(w, QTableView) else self.views["upcoming"]

    def row(self, view: QTableView) -> Any:
        idx = view.selectionModel().currentIndex()
        if not idx.isValid():
            rows = view.selectionModel().selectedRows()
            if not rows:
                return None
            idx = rows[0]
        proxy = view.model()
        return proxy.sourceModel().row_at(proxy.mapToSource(idx).row())

    def current_row(self) -> Any:
        if self.currentWidget() is self.month:
            return None
        return self.row(self.current_view())

    def key_of(self, view: QTableView) -> str | None:
        row = self.row(view)
        return None if row is None else view.model().sourceModel().key(row)

    def index_of_key(self, view_name: str, key: str) -> QModelIndex:
        proxy = self.views[view_name].model()
        row = proxy.sourceModel().row_of_key(key)
        return QModelIndex() if row is None else proxy.mapFromSource(proxy.sourceModel().index(row, 0))

    def select_key(self, view_name: str, key: str) -> bool:
        idx = self.index_of_key(view_name, key)
        if not idx.isValid():
            return False
        self.views[view_name].selectionModel().setCurrentIndex(
            idx, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        )
        return True

    def _emit_row(self) -> None:
        self.rowChanged.emit(self.view_name(), self.current_row())

    # -- content --------------------------------------------------------------------------------------
    def show_state(self, state: CalendarState, restore_header: Any) -> None:
        """Load the rows of ``state``; keep each table's selection and scroll position (first load: the
        first row; headers sized to their contents, when first shown, unless ``restore_header(name)``
        restored them). ``rowChanged`` is not emitted on the way: the caller shows the selection after."""
        keep = {name: self.key_of(view) for name, view in self.views.items()}
        scroll = {name: view.verticalScrollBar().value() for name, view in self.views.items()}
        r = state.result
        self.upcoming_model.set_sources(state.events, state.schedules)
        self.upcoming_model.set_rows(
            agenda_order(r.items, state.paused) if r else [], state.now, dict(state.paused)
        )
        self.events_model.set_rows(list(state.events), state.now)
        self.schedules_model.set_rows(list(state.schedules), state.now, dict(state.paused))
        first = not self._sized
        # Quiet while the rows are reselected: the view shows the selected row once, after the load,
        # instead of once per table (each a document laid out on the GUI thread).
        blocked = self.blockSignals(True)
        try:
            for name, view in self.views.items():
                reselected = bool(keep[name]) and self.select_key(name, keep[name])
                if not reselected and view.model().rowCount() and (first or keep[name]):
                    view.selectRow(0)  # first load, or the selected row went away
                view.verticalScrollBar().setValue(scroll[name])
                if first and not restore_header(name):
                    self._unsized.add(name)
        finally:
            self.blockSignals(blocked)
        self._sized = True
        self._size_shown()
        self._month_state = state
        self._fill_month()
        self.update_titles(len(r.items) if r else 0)

    def _fill_month(self) -> None:
        """The month grid shows the last rows loaded, when it is the page shown (filling a hidden grid
        made its 42 days and showed the selected day's details, a document, for nothing)."""
        if self._month_state is not None and self.currentWidget() is self.month:
            state, self._month_state = self._month_state, None
            self.month.show_state(state)

    def _size_shown(self) -> None:
        """Size the shown table's columns to its contents the first time it is shown: a hidden table is
        not sized (Qt reads every row of a hidden table's columns to size them, on the GUI thread; a shown
        one is sized from its visible rows and ``SAMPLE_ROWS`` more)."""
        view = self.currentWidget()
        name = next((k for k, v in self.views.items() if v is view), None)
        if name in self._unsized:
            self._unsized.discard(name)
            view.resizeColumnsToContents()
            _cap_columns(view)

    def keep_times_whole(self, name: str) -> None:
        """After a saved header is restored: widen each time column of table ``name`` to its sample."""
        view = self.views[name]
        model = view.model().sourceModel()
        header = view.horizontalHeader()
        fm = view.fontMetrics()
        for col, sample in TIME_SAMPLES.get(name, {}).items():
            if col in model.COLUMNS:
                i = model.COLUMNS.index(col)
                need = (
                    fm.horizontalAdvance(sample)
                    + 2 * view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin)
                    + 12
                )
                if header.sectionSize(i) < need:
                    header.resizeSection(i, need)

    def sized(self, name: str) -> bool:
        """False while table ``name`` waits to be sized when first shown (its header is not worth saving)."""
        return name not in self._unsized

    def update_titles(self, n_upcoming: int) -> None:
        v = self.views
        self.setTabText(self.indexOf(v["upcoming"]), self.tr("Agenda ({0})").format(n_upcoming))
        self.setTabText(self.indexOf(self.month), self.tr("Month"))
        self.setTabText(
            self.indexOf(v["events"]), self.tr("All events ({0})").format(self.events_model.rowCount())
        )
        self.setTabText(
            self.indexOf(v["tasks"]), self.tr("All tasks ({0})").format(self.schedules_model.rowCount())
        )

    def set_filter(self, text: str) -> None:
        for view in self.views.values():
            view.model().setFilterFixedString(text)
        self._emit_row()

    def set_colors(self, colors: dict[str, Any]) -> None:
        for m in (self.upcoming_model, self.events_model, self.schedules_model):
            m.set_colors(colors)
        self.month.set_colors(colors)

    def export_view(self) -> dict[str, Any]:
        """What the current table shows (filter and sort applied), for the export dialog."""
        view = self.current_view()
        proxy = view.model()
        model: _Table = proxy.sourceModel()
        rows = [
            model.export_row(model.row_at(proxy.mapToSource(proxy.index(r, 0)).row()))
            for r in range(proxy.rowCount())
        ]
        return {
            "name": f"calendar-{self.view_name(view)}",
            "description": self.tabText(self.indexOf(view)),
            "columns": [c for c, _ in model.export_columns()],
            "rows": rows,
        }


def _cap_columns(view: QTableView, cap: int = TITLE_CAP_PX) -> None:
    h = view.horizontalHeader()
    for i in range(h.count()):
        if h.sectionSize(i) > cap:
            h.resizeSection(i, cap)
    h.setStretchLastSection(False)  # re-apply: sizing to contents can leave the last section narrow
    h.setStretchLastSection(True)
