"""The filter over :class:`~philont_desktop.facts.model.FactsModel`: the rows the filter keeps, in the
model's order.

A ``QSortFilterProxyModel`` asked ``filterAcceptsRow()`` of every row at each filter change, load and
sort (10,000 calls from Qt into Python), and told the view about the rows a filter change hid or showed
range by range: a key typed in the filter box of 10,000 facts made thousands of removals, each updating
the view's row headers. This proxy keeps the list of the source rows shown (the model answers the filter
for every row in one pass, :meth:`~philont_desktop.facts.model.FactsModel.accepted`) and tells the view
one layout change; the persistent indexes (selection, current row) follow their facts.

The model sorts itself (a Python sort of prepared keys): ``sort()`` is forwarded to it. A cell is painted
through ``multiData()``: a delegate asks a cell for seven roles at once, answered in one call from Python.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any

from philont_desktop.facts.columns import N_COLUMNS, FactsFilter
from philont_desktop.facts.data import FactRow
from philont_desktop.facts.model import ANSWERED_ROLES, FactsModel
from philont_desktop.qt import (
    QAbstractProxyModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from philont_desktop.widgets.rows_model import fill_roles

__all__ = ["FactsProxy"]

_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_NO_FLAGS = Qt.ItemFlag.NoItemFlags
Index = QModelIndex | QPersistentModelIndex


class FactsProxy(QAbstractProxyModel):
    """The rows of :class:`FactsModel` that :attr:`flt` keeps; ``sort()`` is forwarded to the model."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.flt = FactsFilter()
        self._src: FactsModel | None = None
        self._shown: list[int] = []  # proxy row → source row
        self._at: list[int] = []  # source row → proxy row (-1: filtered out)
        self._held: list[tuple[QModelIndex, str | None]] = []  # persistent indexes across a change
        self._links: list[tuple[Any, Any]] = []

    @property
    def time_dependent(self) -> bool:
        """Whether the filter looks at values that move with the view time (score, status, crossing)."""
        return self.flt.time_dependent

    # -- the source ------------------------------------------------------------------------------------
    def setSourceModel(self, model: Any) -> None:
        for signal, slot in self._links:
            signal.disconnect(slot)
        self.beginResetModel()
        self._src = model
        super().setSourceModel(model)
        self._links = [
            (model.modelAboutToBeReset, self.beginResetModel),
            (model.modelReset, self._source_reset),
            (model.layoutAboutToBeChanged, self._hold),
            (model.layoutChanged, self._release),
            (model.rowsAboutToBeRemoved, self._hold),
            (model.rowsRemoved, self._release),
            (model.rowsAboutToBeInserted, self._hold),
            (model.rowsInserted, self._release),
            (model.dataChanged, self._source_data_changed),
            (model.headerDataChanged, self.headerDataChanged),
        ]
        for signal, slot in self._links:
            signal.connect(slot)
        self._remap()
        self.endResetModel()

    def source(self) -> FactsModel:
        assert self._src is not None
        return self._src

    def _remap(self) -> None:
        src = self._src
        keep = src.accepted(self.flt) if src is not None else []
        self._shown = shown = [i for i, k in enumerate(keep) if k]
        at = [-1] * len(keep)
        for p, i in enumerate(shown):
            at[i] = p
        self._at = at

    def _source_reset(self) -> None:
        self._remap()
        self.endResetModel()

    def _hold(self, *_: Any) -> None:
        """Before the rows change: the facts of the persistent indexes (selection, current row)."""
        self.layoutAboutToBeChanged.emit()
        src, shown = self._src, self._shown
        held: list[tuple[QModelIndex, str | None]] = []
        for p in self.persistentIndexList():
            row = p.row()
            fid = src.row(shown[row]).fid if src is not None and 0 <= row < len(shown) else None
            held.append((p, fid))
        self._held = held

    def _release(self, *_: Any) -> None:
        """After the rows changed: the shown rows again, and every persistent index at its fact's row."""
        self._remap()
        held, self._held = self._held, []
        if held:
            src, at = self.source(), self._at
            new: list[QModelIndex] = []
            for p, fid in held:
                i = src.find(fid) if fid is not None else -1
                row = at[i] if i >= 0 else -1
                new.append(self.createIndex(row, p.column()) if row >= 0 else QModelIndex())
            self.changePersistentIndexList([p for p, _fid in held], new)
        self.layoutChanged.emit()

    def _source_data_changed(self, top_left: QModelIndex, bottom_right: QModelIndex, roles: Any = ()) -> None:
        # the rows shown are in the model's order: the ones in the changed range are found by bisection
        # (a step of the time control changes the score of every row, in blocks of 64)
        shown = self._shown
        first = bisect_left(shown, top_left.row())
        last = bisect_right(shown, bottom_right.row()) - 1
        if first <= last:
            self.dataChanged.emit(
                self.createIndex(first, top_left.column()),
                self.createIndex(last, bottom_right.column()),
                list(roles),
            )

    # -- filtering -------------------------------------------------------------------------------------
    def refilter(self) -> None:
        """Filter again (the rows changed in place, or the view time moved under a time filter)."""
        self._hold()
        self._release()

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
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._shown)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else N_COLUMNS

    def hasChildren(self, parent: Index = QModelIndex()) -> bool:  # noqa: B008
        return not parent.isValid() and bool(self._shown)

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if 0 <= row < len(self._shown) and 0 <= column < N_COLUMNS and not parent.isValid():
            return self.createIndex(row, column)
        return QModelIndex()

    def parent(self, index: Index | None = None) -> Any:  # type: ignore[override]
        if index is None:
            return super().parent()  # the QObject's parent
        return QModelIndex()

    def sibling(self, row: int, column: int, index: Index) -> QModelIndex:
        return self.index(row, column)

    def mapToSource(self, proxy_index: Index) -> QModelIndex:
        src, row = self._src, proxy_index.row()
        if src is None or not proxy_index.isValid() or not 0 <= row < len(self._shown):
            return QModelIndex()
        return src.index(self._shown[row], proxy_index.column())

    def mapFromSource(self, source_index: Index) -> QModelIndex:
        row = source_index.row()
        if not source_index.isValid() or not 0 <= row < len(self._at) or self._at[row] < 0:
            return QModelIndex()
        return self.createIndex(self._at[row], source_index.column())

    def flags(self, index: Index) -> Qt.ItemFlag:
        return _FLAGS if index.isValid() else _NO_FLAGS

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        src = self._src
        return src.headerData(section, orientation, role) if src is not None else None

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
