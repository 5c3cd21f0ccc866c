"""A filter proxy that keeps a list of the source rows it shows, computed by the model in one pass.

A ``QSortFilterProxyModel`` asks ``filterAcceptsRow()`` of every source row at each reset, filter change
and sort: thousands of calls from Qt into Python, each a few microseconds, in one event-loop turn (the
Skills board has five such columns over 2,000 skills: 10,000 calls at each load). It also tells the view
about the rows a filter change hid or showed range by range. :class:`KeptRowsProxy` instead asks its
subclass once for the list of source rows to show (:meth:`KeptRowsProxy.shown_rows`, ascending: the
source's order, the source sorts itself) and announces any change of that list as one layout change; the
persistent indexes (selection, current row) follow their item by key (:meth:`KeptRowsProxy.row_key`,
:meth:`KeptRowsProxy.source_row_of`).

Source signals are followed as follows: a reset is a reset; row moves, removals and insertions become
one layout change each; ``dataChanged`` is passed on for the rows shown (found by bisection), or becomes a
layout change when :meth:`KeptRowsProxy.membership_changed` says a changed row entered or left the list.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Hashable
from typing import Any

from philont_desktop.qt import QAbstractProxyModel, QModelIndex, QObject, QPersistentModelIndex, Qt

__all__ = ["KeptRowsProxy"]

_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_NO_FLAGS = Qt.ItemFlag.NoItemFlags
Index = QModelIndex | QPersistentModelIndex


class KeptRowsProxy(QAbstractProxyModel):
    """The source rows of :meth:`shown_rows`, in the source's order, over a flat (list or table) model.

    Subclasses implement :meth:`shown_rows`, :meth:`row_key` and :meth:`source_row_of`, set
    :attr:`columns` for a table, and may override :meth:`membership_changed`. Call :meth:`refilter` after
    the filter changed.
    """

    #: The source's column count (a list model's ``columnCount`` is private in PySide).
    columns = 1

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._shown: list[int] = []  # proxy row → source row
        self._at: list[int] = []  # source row → proxy row (-1: not shown)
        self._held: list[tuple[QPersistentModelIndex, Hashable | None]] = []  # across a change
        self._links: list[tuple[Any, Any]] = []

    # -- what subclasses say ---------------------------------------------------------------------------
    def shown_rows(self) -> list[int]:
        """The source rows to show, ascending (read once per change)."""
        raise NotImplementedError

    def row_key(self, source_row: int) -> Hashable | None:
        """What identifies the item of ``source_row`` across changes (``None``: nothing)."""
        raise NotImplementedError

    def source_row_of(self, key: Hashable) -> int:
        """The source row of the item ``key`` now (``-1``: gone)."""
        raise NotImplementedError

    def membership_changed(self, first: int, last: int) -> bool:
        """Whether a change of the source rows ``first..last`` (``dataChanged``) may show or hide rows."""
        return False

    # -- the source ------------------------------------------------------------------------------------
    def setSourceModel(self, model: Any) -> None:
        for signal, slot in self._links:
            signal.disconnect(slot)
        self.beginResetModel()
        super().setSourceModel(model)
        self._links = []
        if model is not None:
            self._links = [
                (model.modelAboutToBeReset, self.beginResetModel),
                (model.modelReset, self._source_reset),
                (model.layoutAboutToBeChanged, self._hold),
                (model.layoutChanged, self._release),
                (model.rowsAboutToBeRemoved, self._hold),
                (model.rowsRemoved, self._release),
                (model.rowsAboutToBeInserted, self._hold),
                (model.rowsInserted, self._release),
                (model.rowsAboutToBeMoved, self._hold),
                (model.rowsMoved, self._release),
                (model.dataChanged, self._source_data_changed),
                (model.headerDataChanged, self.headerDataChanged),
            ]
            for signal, slot in self._links:
                signal.connect(slot)
        self._remap()
        self.endResetModel()

    def _remap(self) -> None:
        source = self.sourceModel()
        shown = self.shown_rows() if source is not None else []
        at = [-1] * (source.rowCount() if source is not None else 0)
        for p, i in enumerate(shown):
            at[i] = p
        self._shown, self._at = shown, at

    def _source_reset(self) -> None:
        self._remap()
        self.endResetModel()

    def _hold(self, *_: Any) -> None:
        """Before the rows change: the item of each persistent index (selection, current row)."""
        self.layoutAboutToBeChanged.emit()
        shown = self._shown
        held: list[tuple[QPersistentModelIndex, Hashable | None]] = []
        for p in self.persistentIndexList():
            row = p.row()
            held.append((p, self.row_key(shown[row]) if 0 <= row < len(shown) else None))
        self._held = held

    def _release(self, *_: Any) -> None:
        """After the rows changed: the shown rows again, and every persistent index at its item's row."""
        self._remap()
        held, self._held = self._held, []
        if held:
            at = self._at
            new: list[QModelIndex] = []
            for p, key in held:
                i = self.source_row_of(key) if key is not None else -1
                row = at[i] if 0 <= i < len(at) else -1
                new.append(self.createIndex(row, p.column()) if row >= 0 else QModelIndex())
            self.changePersistentIndexList([p for p, _key in held], new)
        self.layoutChanged.emit()

    def _source_data_changed(self, top_left: QModelIndex, bottom_right: QModelIndex, roles: Any = ()) -> None:
        if self.membership_changed(top_left.row(), bottom_right.row()):
            self.refilter()
            return
        shown = self._shown
        first = bisect_left(shown, top_left.row())
        last = bisect_right(shown, bottom_right.row()) - 1
        if first <= last:
            self.dataChanged.emit(
                self.createIndex(first, top_left.column()),
                self.createIndex(last, bottom_right.column()),
                list(roles),
            )

    def refilter(self) -> None:
        """Ask :meth:`shown_rows` again (the filter changed): one layout change."""
        self._hold()
        self._release()

    def is_shown(self, source_row: int) -> bool:
        """Whether ``source_row`` is in the list as last read."""
        return 0 <= source_row < len(self._at) and self._at[source_row] >= 0

    # -- Qt API ----------------------------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._shown)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self.columns

    def hasChildren(self, parent: Index = QModelIndex()) -> bool:  # noqa: B008
        return not parent.isValid() and bool(self._shown)

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if 0 <= row < len(self._shown) and 0 <= column < self.columns and not parent.isValid():
            return self.createIndex(row, column)
        return QModelIndex()

    def parent(self, index: Index | None = None) -> Any:  # type: ignore[override]
        if index is None:
            return super().parent()  # the QObject's parent
        return QModelIndex()

    def sibling(self, row: int, column: int, index: Index) -> QModelIndex:
        return self.index(row, column)

    def mapToSource(self, proxy_index: Index) -> QModelIndex:
        source, row = self.sourceModel(), proxy_index.row()
        if source is None or not proxy_index.isValid() or not 0 <= row < len(self._shown):
            return QModelIndex()
        return source.index(self._shown[row], proxy_index.column())

    def mapFromSource(self, source_index: Index) -> QModelIndex:
        row = source_index.row()
        if not source_index.isValid() or not 0 <= row < len(self._at) or self._at[row] < 0:
            return QModelIndex()
        return self.createIndex(self._at[row], source_index.column())

    def flags(self, index: Index) -> Qt.ItemFlag:
        return _FLAGS if index.isValid() else _NO_FLAGS

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        source = self.sourceModel()
        return source.headerData(section, orientation, role) if source is not None else None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        return self.sourceModel().data(self.mapToSource(index), role) if index.isValid() else None


class FilterProxy(KeptRowsProxy):
    """A :class:`KeptRowsProxy` over a source model that answers, in one pass, which of its rows a filter
    keeps (``accepted(flt) -> list[bool]``) and finds a row by its key (``find(key) -> int``): the rows
    :attr:`flt` keeps, in the model's order. Subclasses set ``flt`` and give :meth:`row_key`."""

    flt: Any = None

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._src: Any = None

    def setSourceModel(self, model: Any) -> None:
        self._src = model
        super().setSourceModel(model)

    def source(self) -> Any:
        assert self._src is not None
        return self._src

    def shown_rows(self) -> list[int]:
        src = self._src
        return [i for i, k in enumerate(src.accepted(self.flt)) if k] if src is not None else []

    def source_row_of(self, key: Any) -> int:
        return int(self.source().find(key))
