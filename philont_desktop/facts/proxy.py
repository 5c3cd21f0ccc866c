"""The filter proxy over :class:`~philont_desktop.facts.model.FactsModel`.

It filters and forwards ``sort()`` to the model, which sorts itself. A cell is painted
through ``multiData()``: Qt's item delegate asks a cell for seven roles at once, and answering them in
one call from Python, instead of seven calls of ``data()`` that each map the index to the source
again, makes a repaint of the table (and every step of the time control) several times cheaper.

Filtering asks ``filterAcceptsRow()`` of every row (10,000 calls from Qt into Python at each filter
change, each sort and each load): the model answers for all rows in one pass
(:meth:`~philont_desktop.facts.model.FactsModel.accepted`), kept until the rows or the filter change,
so that each call is a look-up.
"""

from __future__ import annotations

from typing import Any

from philont_desktop.facts.columns import FactsFilter
from philont_desktop.facts.data import FactRow
from philont_desktop.facts.model import ANSWERED_ROLES, FactsModel
from philont_desktop.qt import QModelIndex, QObject, QPersistentModelIndex, QSortFilterProxyModel, Qt

__all__ = ["FactsProxy"]


class FactsProxy(QSortFilterProxyModel):
    """Filters :class:`FactsModel`; ``sort()`` is forwarded to the source (see :mod:`.model`)."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.flt = FactsFilter()
        self._src: FactsModel | None = None
        self._accepted: list[bool] = []  # every source row's answer, for (model version, filter)
        self._accepted_for: tuple[int, int] | None = None
        self._flt_version = 0
        # Rows are re-filtered when the filter or the rows change (refilter()), not on every score update.
        self.setDynamicSortFilter(False)

    @property
    def time_dependent(self) -> bool:
        """Whether the filter looks at values that move with the view time (score, status, crossing)."""
        return self.flt.time_dependent

    def refilter(self) -> None:
        self._flt_version += 1
        self.beginFilterChange()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def setSourceModel(self, model: Any) -> None:
        self._src = model
        super().setSourceModel(model)

    def source(self) -> FactsModel:
        assert self._src is not None
        return self._src

    def multiData(self, index: QModelIndex | QPersistentModelIndex, roleDataSpan: Any) -> None:
        """Every role a delegate asks of a cell in one call (see the module docstring)."""
        src = self._src
        source = self.mapToSource(index) if src is not None and index.isValid() else None
        if source is None or not source.isValid():
            for k in range(len(roleDataSpan)):
                roleDataSpan[k].clearData()
            return
        row, c = src.row(source.row()), source.column()
        answered, value = ANSWERED_ROLES, src.value
        for k in range(len(roleDataSpan)):
            slot = roleDataSpan[k]
            role = slot.role()
            if role in answered:
                slot.setData(value(row, c, role))
            else:
                slot.clearData()

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex) -> bool:
        src = self._src
        assert src is not None
        key = (src.version, self._flt_version)
        if self._accepted_for != key:
            self._accepted = src.accepted(self.flt)
            self._accepted_for = key
        accepted = self._accepted
        if source_row < len(accepted):
            return accepted[source_row]
        return src.accepts(source_row, self.flt)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.source().sort(column, order)

    def set_filter(self, **changes: Any) -> None:
        """Change filter fields (``text``, ``namespace``, ``column``/``expr``, ``show_*``, ``ids``)."""
        self.beginFilterChange()
        for k, v in changes.items():
            if k == "text":
                v = v.strip().casefold()
            setattr(self.flt, k, v)
        self.flt.compile()
        self._flt_version += 1
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def fact_at(self, proxy_row: int) -> FactRow:
        return self.source().row(self.mapToSource(self.index(proxy_row, 0)).row())
