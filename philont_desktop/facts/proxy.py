"""The filter over :class:`~philont_desktop.facts.model.FactsModel`: the rows the filter keeps, in the
model's order.

A ``QSortFilterProxyModel`` asked ``filterAcceptsRow()`` of every row at each filter change, load and
sort (10,000 calls from Qt into Python), and told the view about the rows a filter change hid or showed
range by range: a key typed in the filter box of 10,000 facts made thousands of removals, each updating
the view's row headers. This proxy is a :class:`~philont_desktop.widgets.kept_rows.KeptRowsProxy`: it
keeps the list of the source rows shown (the model answers the filter for every row in one pass,
:meth:`~philont_desktop.facts.model.FactsModel.accepted`) and tells the view one layout change; the
persistent indexes (selection, current row) follow their facts.

The model sorts itself (a Python sort of prepared keys): ``sort()`` is forwarded to it. A cell is painted
through ``multiData()``: a delegate asks a cell for seven roles at once, answered in one call from Python.
"""

from __future__ import annotations

from typing import Any

from philont_desktop.facts.columns import N_COLUMNS, FactsFilter
from philont_desktop.facts.data import FactRow
from philont_desktop.facts.model import ANSWERED_ROLES
from philont_desktop.qt import QModelIndex, QObject, QPersistentModelIndex, Qt
from philont_desktop.widgets.kept_rows import FilterProxy
from philont_desktop.widgets.rows_model import fill_roles

__all__ = ["FactsProxy"]

Index = QModelIndex | QPersistentModelIndex


class FactsProxy(FilterProxy):
    """The rows of :class:`FactsModel` that :attr:`flt` keeps; ``sort()`` is forwarded to the model."""

    columns = N_COLUMNS

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.flt = FactsFilter()

    @property
    def time_dependent(self) -> bool:
        """Whether the filter looks at values that move with the view time (score, status, crossing)."""
        return self.flt.time_dependent

    # -- the source ------------------------------------------------------------------------------------
    def row_key(self, source_row: int) -> str | None:
        return self.source().row(source_row).fid

    # -- filtering -------------------------------------------------------------------------------------
    def set_filter(self, **changes: Any) -> None:
        """Change filter fields (``text``, ``namespace``, ``column``/``expr``, ``show_*``, ``ids``)."""
        self._hold()
        for k, v in changes.items():
            if k == "text":
                v = v.strip().casefold()
            setattr(self.flt, k, v)
        self.flt.compile()
        self._release()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.source().sort(column, order)

    def fact_at(self, proxy_row: int) -> FactRow:
        return self.source().row(self._shown[proxy_row])

    # -- Qt API ----------------------------------------------------------------------------------------
    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row = self._row(index)
        return (
            None
            if row is None or role not in ANSWERED_ROLES
            else self.source().value(row, index.column(), role)
        )

    def multiData(self, index: Index, roleDataSpan: Any) -> None:
        """Every role a delegate asks of a cell in one call (see the module docstring)."""
        row = self._row(index)
        if row is None:
            fill_roles(roleDataSpan, None)
            return
        c = index.column()
        answered, value = ANSWERED_ROLES, self.source().value
        fill_roles(roleDataSpan, lambda role: value(row, c, role) if role in answered else None)

    def _row(self, index: Index) -> FactRow | None:
        src = self._src
        if src is None or not index.isValid():
            return None
        row = index.row()
        return src.row(self._shown[row]) if 0 <= row < len(self._shown) else None
