"""A table model over a list of row objects with a stable key (an id).

Subclasses describe their columns (:meth:`KeyedRowsModel.headers`, :meth:`display`, ...) and get:

* :meth:`set_rows` (a reset), :meth:`append_rows` / :meth:`prepend_rows` (lazy pages and live rows),
* :meth:`replace_rows`: a refresh that keeps the selection, the current row and every persistent index
  on the row with the same key (``layoutChanged`` with ``changePersistentIndexList``), or only emits
  ``dataChanged`` when the keys did not move. That is how a live refresh keeps what the user looks at.

``data()`` never hands ``None`` to Qt for the roles views ask on every paint that this model answers
(see :mod:`philont_desktop.widgets.pyside_compat` for why that matters on PySide6 6.12 / CPython 3.11).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import philont_desktop.widgets.pyside_compat  # noqa: F401
from philont_desktop.qt import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

RowRole = Qt.ItemDataRole.UserRole + 100
KeyRole = Qt.ItemDataRole.UserRole + 101


class KeyedRowsModel(QAbstractTableModel):
    """Rows with keys; subclasses override :meth:`headers`, :meth:`key` and :meth:`display`."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._rows: list[Any] = []
        self._index: dict[Hashable, int] | None = None

    # -- to override ----------------------------------------------------------------------------------------
    def headers(self) -> list[str]:
        return []

    def key(self, row: Any) -> Hashable:
        return row.id

    def display(self, row: Any, column: int) -> str:
        return ""

    def tooltip(self, row: Any, column: int) -> str | None:
        return None

    def foreground(self, row: Any, column: int) -> Any:
        return None

    def font(self, row: Any, column: int) -> Any:
        return None

    def alignment(self, column: int) -> Any:
        return None

    def sort_value(self, row: Any, column: int) -> Any:
        return self.display(row, column)

    # -- Qt API -----------------------------------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.headers())

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            h = self.headers()
            return h[section] if 0 <= section < len(h) else None
        return None

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self.display(row, col)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tooltip(row, col)
        if role == Qt.ItemDataRole.ForegroundRole:
            return self.foreground(row, col)
        if role == Qt.ItemDataRole.FontRole:
            return self.font(row, col)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return self.alignment(col)
        if role == RowRole:
            return row
        if role == KeyRole:
            return self.key(row)
        return None

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    # -- rows ---------------------------------------------------------------------------------------------------
    def rows(self) -> list[Any]:
        return list(self._rows)

    def row_at(self, row: int) -> Any:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, key: Hashable) -> int:
        if self._index is None:
            self._index = {self.key(r): i for i, r in enumerate(self._rows)}
        return self._index.get(key, -1)

    def set_rows(self, rows: Sequence[Any]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self._index = None
        self.endResetModel()

    def append_rows(self, rows: Sequence[Any]) -> int:
        rows = [r for r in rows if self.row_of(self.key(r)) < 0]
        if not rows:
            return 0
        n = len(self._rows)
        self.beginInsertRows(QModelIndex(), n, n + len(rows) - 1)
        self._rows.extend(rows)
        self._index = None
        self.endInsertRows()
        return len(rows)

    def prepend_rows(self, rows: Sequence[Any]) -> int:
        rows = [r for r in rows if self.row_of(self.key(r)) < 0]
        if not rows:
            return 0
        self.beginInsertRows(QModelIndex(), 0, len(rows) - 1)
        self._rows[0:0] = rows
        self._index = None
        self.endInsertRows()
        return len(rows)

    def replace_rows(self, rows: Sequence[Any]) -> None:
        """New contents; persistent indexes (selection, current row) follow their keys.

        Same keys in the same order: only ``dataChanged``. Otherwise rows are first added at the end (if
        there are more now), then moved with ``layoutChanged`` so that every persistent index lands on
        its key's new row (or becomes invalid when the key is gone), then surplus rows are removed at
        the end; the view keeps its selection and current row throughout.
        """
        rows = list(rows)
        old_keys = [self.key(r) for r in self._rows]
        new_keys = [self.key(r) for r in rows]
        if old_keys == new_keys:
            self._rows = rows
            if rows:
                self.dataChanged.emit(
                    self.index(0, 0), self.index(len(rows) - 1, max(0, self.columnCount() - 1))
                )
            return
        n, m = len(self._rows), len(rows)
        if m > n:
            self.beginInsertRows(QModelIndex(), n, m - 1)
            self._rows.extend(rows[n:])
            old_keys.extend(object() for _ in range(m - n))  # placeholders nobody points at
            self._index = None
            self.endInsertRows()
            n = m
        self.layoutAboutToBeChanged.emit()
        persistent = self.persistentIndexList()
        keys = [(old_keys[i.row()] if 0 <= i.row() < len(old_keys) else None, i.column()) for i in persistent]
        self._rows = rows + self._rows[m:n] if m < n else rows
        self._index = None
        pos = {k: i for i, k in enumerate(new_keys)}
        new_list = []
        for k, col in keys:
            r = pos.get(k, -1) if k is not None else -1
            new_list.append(self.index(r, col) if r >= 0 else QModelIndex())
        self.changePersistentIndexList(persistent, new_list)
        self.layoutChanged.emit()
        if m < n:
            self.beginRemoveRows(QModelIndex(), m, n - 1)
            del self._rows[m:]
            self._index = None
            self.endRemoveRows()
