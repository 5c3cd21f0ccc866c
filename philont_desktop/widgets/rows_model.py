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

from collections.abc import Callable, Hashable, Sequence
from typing import Any

import philont_desktop.widgets.pyside_compat  # noqa: F401
from philont_desktop.qt import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal

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


class PagedRowsModel(KeyedRowsModel):
    """Rows loaded page by page off the GUI thread: a first page, then ``canFetchMore``/``fetchMore``.

    Subclasses say which worker job loads a page (:meth:`page_job`) and how to read its result
    (:meth:`unpack_page`). A generation counter drops the answers to requests that a newer first page
    has superseded, so a slow page of an old filter never lands in the new one.
    """

    loaded = Signal()
    failed = Signal(object)

    def __init__(
        self, run: Callable[..., Any], key_prefix: str, page_size: int, parent: QObject | None = None
    ):
        super().__init__(parent)
        self._run = run
        self.page_size = page_size
        self._complete = True
        self._loading = False
        self._fetching = False
        self._gen = 0
        self._key = f"{key_prefix}.{id(self):x}"

    # -- hooks ---------------------------------------------------------------------------------------------
    def page_job(self, after: Any | None) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        """``(job, args)`` that loads the page after row ``after`` (``None``: the first page)."""
        raise NotImplementedError

    def unpack_page(self, result: Any) -> tuple[list[Any], bool]:
        """``(rows, complete)`` of a page result; by default a list, complete when shorter than a page."""
        return result, len(result) < self.page_size

    # -- state ---------------------------------------------------------------------------------------------
    @property
    def loading(self) -> bool:
        return self._loading or self._fetching

    @property
    def complete(self) -> bool:
        return self._complete

    def load_first_page(self) -> None:
        """Start again from the first page (a new filter or query)."""
        self._gen += 1
        gen = self._gen
        self._loading = True
        self._fetching = False
        job, args = self.page_job(None)
        self._run(
            job,
            *args,
            on_result=lambda result: self._on_first(gen, result),
            on_error=lambda exc: self._on_error(gen, exc),
            key=self._key,
        )

    def _on_first(self, gen: int, result: Any) -> None:
        if gen != self._gen:
            return
        self._loading = False
        rows, self._complete = self.unpack_page(result)
        self.set_rows(rows)
        self.loaded.emit()

    def _on_error(self, gen: int, exc: BaseException) -> None:
        if gen != self._gen:
            return
        self._loading = self._fetching = False
        self.failed.emit(exc)

    def canFetchMore(self, parent: QModelIndex | QPersistentModelIndex) -> bool:
        return not parent.isValid() and not self._complete and not self._fetching and not self._loading

    def fetchMore(self, parent: QModelIndex | QPersistentModelIndex) -> None:
        if not self.canFetchMore(parent) or not self._rows:
            return
        self._fetching = True
        gen = self._gen
        job, args = self.page_job(self._rows[-1])
        self._run(
            job,
            *args,
            on_result=lambda result: self._on_more(gen, result),
            on_error=lambda exc: self._on_error(gen, exc),
            key=f"{self._key}.more",
        )

    def _on_more(self, gen: int, result: Any) -> None:
        if gen != self._gen:
            return
        self._fetching = False
        rows, self._complete = self.unpack_page(result)
        self.append_rows(rows)
        self.loaded.emit()
