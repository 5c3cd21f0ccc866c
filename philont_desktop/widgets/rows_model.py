"""The table models of the app: rows with a stable key, loaded page by page off the GUI thread.

:class:`KeyedRowsModel` is a table over a list of row objects with a key (an id). Subclasses describe
their columns (:meth:`KeyedRowsModel.headers`, :meth:`display`, ...) and get:

* :meth:`set_rows` (a reset), :meth:`append_rows` / :meth:`prepend_rows` (lazy pages and live rows),
  :meth:`drop_first` / :meth:`drop_last` (a capped window), :meth:`update_row` (one row changed),
* :meth:`replace_rows`: a refresh that keeps the selection, the current row and every persistent index
  on the row with the same key (``layoutChanged`` with ``changePersistentIndexList``), or only emits
  ``dataChanged`` when the keys did not move. That is how a live refresh keeps what the user looks at.

:class:`PagedRowsModel` adds loading: the first page, more pages at the end (Qt's ``fetchMore``) and, for
models that open in the middle, at the start (:meth:`PagedRowsModel.fetch_start`), live rows, and a
refresh of what is loaded; every page is a :class:`~philont_desktop.ops.ReadOp` the subclass declares.

``data()`` never hands ``None`` to Qt for the roles views ask on every paint that this model answers
(see :mod:`philont_desktop.widgets.pyside_compat` for why that matters on PySide6 6.12 / CPython 3.11).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import philont_desktop.widgets.pyside_compat  # noqa: F401
from philont_desktop import i18n
from philont_desktop.ops import ReadOp
from philont_desktop.qt import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal
from philont_desktop.widgets import plain

RowRole = Qt.ItemDataRole.UserRole + 100
KeyRole = Qt.ItemDataRole.UserRole + 101

_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
_FONT = int(Qt.ItemDataRole.FontRole)
_ALIGNMENT = int(Qt.ItemDataRole.TextAlignmentRole)
# Roles a delegate asks that no model of this kind answers (a subclass that did would answer them in
# both data() and multiData()).
_UNANSWERED = frozenset(
    int(r)
    for r in (Qt.ItemDataRole.DecorationRole, Qt.ItemDataRole.CheckStateRole, Qt.ItemDataRole.BackgroundRole)
)


def fill_roles(role_data_span: Any, answer: Callable[[int], Any] | None) -> None:
    """Fill the span of a model's ``multiData()``: each slot gets ``answer(role)``, left empty when that
    is ``None`` (every slot empty without ``answer``: an index with no row)."""
    for k in range(len(role_data_span)):
        slot = role_data_span[k]
        value = answer(slot.role()) if answer is not None else None
        if value is None:
            slot.clearData()
        else:
            slot.setData(value)


class KeyedRowsModel(QAbstractTableModel):
    """Rows with keys; subclasses override :meth:`headers`, :meth:`key` and :meth:`display`."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._rows: list[Any] = []
        # Where each key's row is: row = slot - _base. Kept up to date as pages come and go at either
        # end (a prepend lowers _base, dropping rows at the start raises it), so a page costs work for its
        # own rows only, never for the whole window; None until first asked for after a reset.
        self._index: dict[Hashable, int] | None = None
        self._base = 0
        # The index lists the keys in row order (built from the rows or given with them, grown at the
        # end only): list(self._index) is every row's key without a call of key() per row.
        self._ordered = False
        self._headers: tuple[str, Sequence[str]] | None = None  # (language, titles)

    # -- to override ----------------------------------------------------------------------------------------
    def headers(self) -> list[str]:
        return []

    def key(self, row: Any) -> Hashable:
        return row.id

    def display(self, row: Any, column: int) -> str:
        return ""

    def tooltip(self, row: Any, column: int) -> str | None:
        """The tooltip as plain text (stored text may be in it: it is shown as text, never markup)."""
        return None

    def damage_columns(self, column: int) -> tuple[str, ...]:
        """The stored columns (SQL names) a view column shows: a damaged one puts the marker in front."""
        return ()

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

    def header_titles(self) -> Sequence[str]:
        """:meth:`headers`, translated once per language: views ask for the column count and the
        titles hundreds of times while they lay out and paint, and each title is a catalogue lookup."""
        lang = i18n.current_language()
        got = self._headers
        if got is None or got[0] != lang:
            got = self._headers = (lang, self.headers())
        return got[1]

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.header_titles())

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            h = self.header_titles()
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
            return self._shown(row, col)
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = self.tooltip(row, col)
            hurt = plain.damage_tooltip(row)
            text = "\n".join(t for t in (tip, hurt) if t)
            return plain.tooltip(text) if text else None
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

    def _shown(self, row: Any, col: int) -> str:
        """Stored text as text: controls and direction overrides visible, the damage marker in front."""
        text = plain.plain(self.display(row, col), None)
        cols = self.damage_columns(col)
        return plain.mark(text, row, cols) if cols else text

    def multiData(self, index: QModelIndex | QPersistentModelIndex, roleDataSpan: Any) -> None:
        """The roles an item delegate asks of a cell to paint it (seven), answered in one call from Qt
        instead of seven calls of :meth:`data`: a repaint of a table is a few hundred calls into Python,
        not a few thousand. A role these models do not answer is left empty; a subclass's own roles are
        asked of its :meth:`data`."""
        row = self._rows[index.row()] if index.isValid() and 0 <= index.row() < len(self._rows) else None
        if row is None:
            fill_roles(roleDataSpan, None)
            return
        col = index.column()

        def answer(role: int) -> Any:
            if role == _DISPLAY:
                return self._shown(row, col)
            if role == _FOREGROUND:
                return self.foreground(row, col)
            if role == _FONT:
                return self.font(row, col)
            if role == _ALIGNMENT:
                return self.alignment(col)
            if role in _UNANSWERED:
                return None
            return self.data(index, role)

        fill_roles(roleDataSpan, answer)

    # flags(): QAbstractTableModel's own (enabled and selectable, no children), answered without a
    # call into Python: a view asks it twice per cell at every paint.

    # -- rows ---------------------------------------------------------------------------------------------------
    def rows(self) -> list[Any]:
        return list(self._rows)

    def row_at(self, row: int) -> Any:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, key: Hashable) -> int:
        index = self._keys()
        slot = index.get(key)
        return -1 if slot is None else slot - self._base

    def _keys(self) -> dict[Hashable, int]:
        if self._index is None:
            key = self.key
            self._index = {key(r): i for i, r in enumerate(self._rows)}
            self._base = 0
            self._ordered = True
        return self._index

    def _loaded_keys(self) -> list[Hashable]:
        """Every loaded row's key, in row order: read off the index when it holds them in order (a
        list of tens of thousands of keys without a Python call per row on the GUI thread)."""
        index = self._index
        if index is not None and self._ordered and len(index) == len(self._rows):
            return list(index)
        return [self.key(r) for r in self._rows]

    def _new_rows(self, rows: Sequence[Any]) -> list[tuple[Hashable, Any]]:
        """``(key, row)`` of the rows whose key is not loaded yet (a key twice in ``rows``: its first row)."""
        index, key = self._keys(), self.key
        new: dict[Hashable, Any] = {}
        for r in rows:
            k = key(r)
            if k not in index and k not in new:
                new[k] = r
        return list(new.items())

    def _forget_keys(self, rows: Sequence[Any]) -> None:
        if self._index is not None:
            key, index = self.key, self._index
            for r in rows:
                index.pop(key(r), None)

    def set_rows(self, rows: Sequence[Any], index: dict[Hashable, int] | None = None) -> None:
        """New contents (a reset). ``index``: each row's key and row, made off the GUI thread along with
        the rows (see :attr:`Page.index`); without it, made when first needed."""
        self.beginResetModel()
        self._rows = list(rows)
        self._index, self._base, self._ordered = _checked_index(index, self._rows), 0, True
        self.endResetModel()

    def append_rows(self, rows: Sequence[Any]) -> int:
        new = self._new_rows(rows)
        if not new:
            return 0
        n = len(self._rows)
        self.beginInsertRows(QModelIndex(), n, n + len(new) - 1)
        self._rows.extend(r for _k, r in new)
        index, slot = self._keys(), n + self._base
        for i, (k, _r) in enumerate(new):
            index[k] = slot + i
        self.endInsertRows()
        return len(new)

    def prepend_rows(self, rows: Sequence[Any]) -> int:
        new = self._new_rows(rows)
        if not new:
            return 0
        self.beginInsertRows(QModelIndex(), 0, len(new) - 1)
        self._rows[0:0] = [r for _k, r in new]
        index = self._keys()
        self._ordered = False  # keys added before the first: the index's order is no longer the rows'
        self._base -= len(new)
        for i, (k, _r) in enumerate(new):
            index[k] = self._base + i
        self.endInsertRows()
        return len(new)

    def drop_first(self, n: int) -> None:
        """Remove the first ``n`` rows (a capped window growing at the end)."""
        n = min(n, len(self._rows))
        if n > 0:
            self.beginRemoveRows(QModelIndex(), 0, n - 1)
            self._forget_keys(self._rows[:n])
            del self._rows[:n]
            self._base += n
            self.endRemoveRows()

    def drop_last(self, n: int) -> None:
        """Remove the last ``n`` rows (a capped window growing at the start)."""
        n = min(n, len(self._rows))
        if n > 0:
            m = len(self._rows)
            self.beginRemoveRows(QModelIndex(), m - n, m - 1)
            self._forget_keys(self._rows[m - n :])
            del self._rows[m - n :]
            self.endRemoveRows()

    def update_row(self, row: Any) -> bool:
        """Replace the row with ``row``'s key (``False`` when it is not loaded)."""
        r = self.row_of(self.key(row))
        if r < 0:
            return False
        self._rows[r] = row
        self.dataChanged.emit(self.index(r, 0), self.index(r, max(0, self.columnCount() - 1)))
        return True

    def replace_rows(self, rows: Sequence[Any], index: dict[Hashable, int] | None = None) -> None:
        """New contents; persistent indexes (selection, current row) follow their keys.

        Same keys in the same order: only ``dataChanged``. Otherwise rows are first added at the end (if
        there are more now), then moved with ``layoutChanged`` so that every persistent index lands on
        its key's new row (or becomes invalid when the key is gone), then surplus rows are removed at
        the end; the view keeps its selection and current row throughout. ``index`` as for
        :meth:`set_rows`: with it, no call of :meth:`key` per row is made on the GUI thread.
        """
        rows = list(rows)
        given = _checked_index(index, rows)
        old_keys = self._loaded_keys()
        new_keys = list(given) if given is not None else [self.key(r) for r in rows]
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
        pos = given if given is not None else {k: i for i, k in enumerate(new_keys)}
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
        if given is not None:
            self._index, self._base, self._ordered = given, 0, True


def _checked_index(index: dict[Hashable, int] | None, rows: Sequence[Any]) -> dict[Hashable, int] | None:
    """``index`` when it can stand for the rows' keys in order (one key per row), else ``None``."""
    return index if index is not None and len(index) == len(rows) else None


@dataclass
class Page:
    """A loaded page: its rows in the model's order, and whether more rows are there to load."""

    rows: list[Any]
    exhausted: bool  # nothing more in the direction asked (after the rows; before them for fetch_start)
    more_before: bool = False  # a first page opened in the middle: there are rows before it too
    # For a first page or a reload of many rows: ``{key(row): i}`` in row order, made by the job with the
    # rows (off the GUI thread; ~35 ms of Python for 50,000 conversations). Ignored unless it has one
    # entry per row.
    index: dict[Hashable, int] | None = None


Submit = Callable[..., Any]  # submit(op: ReadOp, *, on_result=, on_error=) -> Job: a TabController's


class PagedRowsModel(KeyedRowsModel):
    """Rows loaded page by page off the GUI thread, declared as read ops.

    A subclass declares the ops (``submit`` is its tab controller's :meth:`~TabController.submit`, so the
    tab knows when it is idle):

    * :meth:`page_op` (required): the rows after a row (``None``: the first page);
    * :meth:`start_op`: the rows before the first row, for a model whose first page is in the middle
      (the timeline opens at the newest messages, oldest at the top; :meth:`fetch_start` loads older);
    * :meth:`live_op`: the rows newer than those loaded, for a live refresh that puts new rows on top
      (the action log) or, with :attr:`live_at` ``"end"``, below (the timeline, oldest on top); without
      it :meth:`refresh` reloads every loaded row in one op, keeping the selection;
    * :meth:`unpack`: the :class:`Page` of a result (default: a list, ending when shorter than asked).

    A generation counter drops the answers to requests that a newer first page has superseded, so a slow
    page of an old filter never lands in the new one. With ``max_rows`` the loaded rows are a window:
    growing it at one end drops rows at the other, which can be loaded again.
    """

    #: Where the rows of a live refresh go: ``"start"`` (newest on top) or ``"end"`` (oldest on top).
    live_at = "start"

    loaded = Signal()  # a first page, a page, a refresh or live rows arrived
    failed = Signal(object)  # the exception of a failed load
    loadingChanged = Signal(bool)
    rowsPrepended = Signal(int)  # rows a live refresh put on top

    def __init__(
        self,
        submit: Submit,
        key_prefix: str,
        page_size: int,
        parent: QObject | None = None,
        *,
        max_rows: int | None = None,
    ):
        super().__init__(parent)
        self._submit = submit
        self.page_size = page_size
        self.max_rows = max_rows
        self._complete = True
        self._at_start = True
        self._inflight: set[str] = set()
        self._gen = 0
        self._key = f"{key_prefix}.{id(self):x}"

    # -- hooks ---------------------------------------------------------------------------------------------
    def page_op(self, after: Any | None, limit: int) -> ReadOp:
        """The op loading up to ``limit`` rows after row ``after`` (``None``: the first page)."""
        raise NotImplementedError

    def start_op(self, before: Any, limit: int) -> ReadOp | None:
        """The op loading up to ``limit`` rows before row ``before`` (``None``: not a two-way model)."""
        return None

    def live_op(self, first: Any) -> ReadOp | None:
        """The op loading the rows newer than ``first``, the row at the :attr:`live_at` edge (``None``: a
        refresh reloads what is loaded)."""
        return None

    def unpack(self, result: Any, limit: int) -> Page:
        """The page of a result; by default a list, exhausted when shorter than ``limit``."""
        return Page(list(result), len(result) < limit)

    def before_apply(self, kind: str, result: Any, apply: Callable[[], None]) -> None:
        """An answer (of request ``kind``: ``"first"``, ``"start"``, ``"end"``, ``"reload"``, ``"live"``)
        arrived: ``apply()`` puts it in the model. By default at once; a subclass may prepare the rows'
        display in later event-loop turns first (the request stays in flight meanwhile: :attr:`loading`,
        no second request of the kind, dropped when a new first page supersedes it)."""
        apply()

    def merge_live(self, result: Any) -> int:
        """Put the rows of a live refresh (the result of :meth:`live_op`) in at the :attr:`live_at` edge;
        return how many were new."""
        rows = list(result)
        if self.live_at == "end":
            n = self.append_rows(rows)
            self.trim_window("end")
            return n
        n = self.prepend_rows(rows)
        if n:
            self.rowsPrepended.emit(n)
        return n

    # -- state ---------------------------------------------------------------------------------------------
    @property
    def loading(self) -> bool:
        return bool(self._inflight)

    @property
    def complete(self) -> bool:
        """No more rows after the last one loaded."""
        return self._complete

    @property
    def complete_at_start(self) -> bool:
        """No more rows before the first one loaded."""
        return self._at_start

    def load_first_page(self) -> None:
        """Start again from the first page (a new filter or query)."""
        self._new_generation()
        limit = self.page_size
        self._request("first", self.page_op(None, limit), lambda res: self._on_first(res, limit))

    def refresh(self) -> None:
        """The database changed: live rows on top (:meth:`live_op`), else reload what is loaded."""
        if self._inflight & {"first", "reload", "live"}:
            return
        edge = (self._rows[0] if self.live_at == "start" else self._rows[-1]) if self._rows else None
        op = self.live_op(edge) if edge is not None else None
        if op is not None:
            self._request("live", op, self._on_live)
            return
        self._new_generation()
        limit = max(self.page_size, len(self._rows))
        self._request("reload", self.page_op(None, limit), lambda res: self._on_reload(res, limit))

    # -- Qt's lazy loading at the end, ours at the start ---------------------------------------------------
    def canFetchMore(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> bool:  # noqa: B008
        return not parent.isValid() and not self._complete and not self._inflight & {"first", "reload", "end"}

    def fetchMore(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> None:  # noqa: B008
        if not self.canFetchMore(parent) or not self._rows:
            return
        limit = self.page_size
        self._request("end", self.page_op(self._rows[-1], limit), lambda res: self._on_end(res, limit))

    def can_fetch_start(self) -> bool:
        return bool(self._rows) and not self._at_start and not self._inflight & {"first", "reload", "start"}

    def fetch_start(self) -> bool:
        """Load the page before the first row (two-way models); ``False`` when there is nothing to do."""
        if not self.can_fetch_start():
            return False
        limit = self.page_size
        op = self.start_op(self._rows[0], limit)
        if op is None:
            return False
        self._request("start", op, lambda res: self._on_start(res, limit))
        return True

    # -- requests ------------------------------------------------------------------------------------------
    def _new_generation(self) -> None:
        self._gen += 1
        had = bool(self._inflight)
        self._inflight.clear()
        if had:
            self.loadingChanged.emit(False)

    def _request(self, kind: str, op: ReadOp, done: Callable[[Any], None]) -> None:
        gen = self._gen
        was = bool(self._inflight)
        self._inflight.add(kind)

        def _ok(result: Any) -> None:
            if gen != self._gen:
                return
            self.before_apply(kind, result, lambda: _apply(result))

        def _apply(result: Any) -> None:
            if gen != self._gen:
                return
            self._inflight.discard(kind)
            try:
                done(result)
            finally:
                if not self._inflight:
                    self.loadingChanged.emit(False)
            self.loaded.emit()

        def _err(exc: BaseException) -> None:
            if gen != self._gen:
                return
            self._inflight.discard(kind)
            if not self._inflight:
                self.loadingChanged.emit(False)
            self.failed.emit(exc)

        if not was:
            self.loadingChanged.emit(True)
        self._submit(replace(op, key=f"{self._key}.{kind}"), on_result=_ok, on_error=_err)

    def _on_first(self, result: Any, limit: int) -> None:
        page = self.unpack(result, limit)
        self._complete, self._at_start = page.exhausted, not page.more_before
        self.set_rows(page.rows, page.index)

    def _on_reload(self, result: Any, limit: int) -> None:
        page = self.unpack(result, limit)
        self._complete, self._at_start = page.exhausted, not page.more_before
        self.replace_rows(page.rows, page.index)

    def trim_window(self, grew_at: str) -> None:
        """With ``max_rows``: drop the rows over it at the other end than ``grew_at`` (``"end"`` or
        ``"start"``), which then has more rows to load."""
        over = len(self._rows) - self.max_rows if self.max_rows else 0
        if over <= 0:
            return
        if grew_at == "end":
            self.drop_first(over)
            self._at_start = False
        else:
            self.drop_last(over)
            self._complete = False

    def _on_end(self, result: Any, limit: int) -> None:
        page = self.unpack(result, limit)
        self._complete = page.exhausted
        self.append_rows(page.rows)
        self.trim_window("end")

    def _on_start(self, result: Any, limit: int) -> None:
        page = self.unpack(result, limit)
        self._at_start = page.exhausted
        self.prepend_rows(page.rows)
        self.trim_window("start")

    def _on_live(self, result: Any) -> None:
        self.merge_live(result)
