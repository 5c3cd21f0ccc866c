"""``setup_table``: every table view of the app set up the same way, in one call.

::

    self.table = setup_table(
        QTableView(self), model, name="notesTable",
        widths={COL_CONTENT: 420, COL_IMPORTANCE: "Importance", COL_CREATED: "2026-12-31"},
        stretch=COL_CONTENT,
    )

What it sets: whole-row selection (single, or ``multi=True`` for extended), a hidden vertical header with
fixed rows one line high, alternating row colours, Tab that leaves the table (arrows move inside it), no grid, no word wrap, interactive column widths
(``widths``: pixels, or a sample text the column must fit) with one ``stretch`` column (or the last
one with ``stretch_last=True``), ``sortable`` when the model sorts. ``keep_position=True`` keeps the rows
in view where they are when rows are inserted on top (a live refresh); :class:`PrependKeeper` counts them
for an "N new" button.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from philont_desktop.qt import (
    QAbstractItemModel,
    QAbstractItemView,
    QEvent,
    QHeaderView,
    QLabel,
    QModelIndex,
    QObject,
    QPalette,
    Qt,
    QTableView,
    Signal,
)

SAMPLE_PADDING = 16


def setup_table(
    view: QTableView,
    model: QAbstractItemModel | None = None,
    *,
    name: str | None = None,
    widths: Mapping[int, int | str] | None = None,
    stretch: int | None = None,
    stretch_last: bool = False,
    multi: bool = False,
    sortable: bool = False,
    per_pixel: bool = False,
    keep_position: bool = False,
) -> QTableView:
    """Set ``view`` up as a table of rows (see the module doc) and return it."""
    if name:
        view.setObjectName(name)
    if model is not None:
        view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(
        QAbstractItemView.SelectionMode.ExtendedSelection
        if multi
        else QAbstractItemView.SelectionMode.SingleSelection
    )
    if per_pixel:
        view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
    vh = view.verticalHeader()
    vh.hide()
    vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    vh.setDefaultSectionSize(row_height(view))
    view.setAlternatingRowColors(True)
    view.setTabKeyNavigation(False)  # arrows move between cells; Tab goes on to the next pane
    view.setShowGrid(False)
    view.setWordWrap(False)
    hh = view.horizontalHeader()
    hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    hh.setHighlightSections(False)
    hh.setStretchLastSection(stretch_last)
    for column, width in (widths or {}).items():
        hh.resizeSection(column, column_width(view, width))
    if stretch is not None:
        hh.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
    if sortable:
        view.setSortingEnabled(True)
    if keep_position:
        PrependKeeper(view)
    return view


def row_height(view: QTableView) -> int:
    """One line of text plus padding."""
    return view.fontMetrics().height() + 8


def column_width(view: QTableView, width: int | str) -> int:
    """``width`` pixels, or the width of the sample text ``width`` plus padding."""
    if isinstance(width, str):
        return view.fontMetrics().horizontalAdvance(width) + SAMPLE_PADDING
    return int(width)


class PrependKeeper(QObject):
    """Keeps the rows in view still when rows are inserted above them; counts them (``newRows``).

    Created by ``setup_table(..., keep_position=True)``; find it with :func:`prepend_keeper`.
    Rows inserted at the top while the view is scrolled to the very top are simply shown.
    """

    newRows = Signal(int)  # rows put above the rows in view since the last reset()

    def __init__(self, view: QTableView):
        super().__init__(view)
        self.setObjectName("prependKeeper")
        self.view = view
        self.pending = 0
        self._keep: int | None = None
        self._model: Any = None
        self._attach()

    def _attach(self) -> None:
        model = self.view.model()
        if model is self._model or model is None:
            return
        self._model = model
        model.rowsAboutToBeInserted.connect(self._before)
        model.rowsInserted.connect(self._after)
        model.modelReset.connect(self.reset)

    def reset(self) -> None:
        self.pending = 0

    def _before(self, parent: QModelIndex, first: int, last: int) -> None:
        sb = self.view.verticalScrollBar()
        self._keep = sb.value() if first == 0 and sb.value() > 0 and not parent.isValid() else None

    def _after(self, parent: QModelIndex, first: int, last: int) -> None:
        if self._keep is None:
            return
        keep, self._keep = self._keep, None
        n = last - first + 1
        self.view.doItemsLayout()
        per_pixel = self.view.verticalScrollMode() == QAbstractItemView.ScrollMode.ScrollPerPixel
        step = self.view.verticalHeader().defaultSectionSize() if per_pixel else 1
        self.view.verticalScrollBar().setValue(keep + n * step)
        self.pending += n
        self.newRows.emit(self.pending)


def prepend_keeper(view: QTableView) -> PrependKeeper | None:
    """The :class:`PrependKeeper` of a view set up with ``keep_position=True``."""
    return view.findChild(PrependKeeper, "prependKeeper")


class EmptyHint(QLabel):
    """A muted sentence in the middle of a table while it has no rows ("No backups yet."), so that an
    empty table says why it is empty; ``text_fn`` gives the sentence (in the current language), ``ready``
    whether the rows have been read (before that the table is loading, not empty: call
    :meth:`update_hint` when that changes)."""

    def __init__(
        self, view: QTableView, text_fn: Callable[[], str], ready: Callable[[], bool] = lambda: True
    ):
        super().__init__(view.viewport())
        self.setObjectName("emptyHint")
        self.view = view
        self.text_fn = text_fn
        self.ready = ready
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        view.viewport().installEventFilter(self)
        model = view.model()
        for signal in (model.modelReset, model.rowsInserted, model.rowsRemoved, model.layoutChanged):
            signal.connect(self.update_hint)
        self.update_hint()

    def update_hint(self, *_: Any) -> None:
        empty = self.view.model().rowCount() == 0 and self.ready()
        if empty:
            self.setText(self.text_fn())
            self.setGeometry(self.view.viewport().rect().adjusted(24, 24, -24, -24))
        self.setVisible(empty)

    def eventFilter(self, watched: QObject, event: Any) -> bool:
        if event.type() == QEvent.Type.Resize and self.isVisible():
            self.setGeometry(self.view.viewport().rect().adjusted(24, 24, -24, -24))
        return False
