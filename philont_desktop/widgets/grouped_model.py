"""``GroupedModel``: a two-level tree model, groups on top (``self.layers``) and each group's rows under it
(``self.rows[group]``); a top row's internal id is 0, a row's is its group's row + 1. Subclasses set
:attr:`columns` and give ``data`` and ``headerData`` (the Review tab's changes, the doctor's findings)."""

from __future__ import annotations

from typing import Any

from philont_desktop.qt import QAbstractItemModel, QModelIndex, QPersistentModelIndex

Index = QModelIndex | QPersistentModelIndex


class GroupedModel(QAbstractItemModel):
    columns = 1

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self.layers: list[str] = []
        self.rows: dict[str, list[Any]] = {}

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if not 0 <= column < self.columns:
            return QModelIndex()
        if parent.isValid():
            if parent.internalId() != 0 or not 0 <= parent.row() < len(self.layers):
                return QModelIndex()
            if not 0 <= row < len(self.rows[self.layers[parent.row()]]):
                return QModelIndex()
            return self.createIndex(row, column, parent.row() + 1)
        if not 0 <= row < len(self.layers):
            return QModelIndex()
        return self.createIndex(row, column, 0)

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not index.isValid() or index.internalId() == 0:
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, 0)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if not parent.isValid():
            return len(self.layers)
        if parent.internalId() != 0 or parent.column() != 0:
            return 0
        return len(self.rows[self.layers[parent.row()]])

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return self.columns
