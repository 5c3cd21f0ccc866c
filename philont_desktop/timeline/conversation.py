"""The conversation view: messages as cards in a ``QListView``, lazily grown at both ends.

:class:`ConversationView` keeps the reading position when rows are prepended (older pages) or dropped
at the top, asks the model for older rows near the top, follows the newest end when it is at the
bottom, and otherwise shows an "N new" pill when a live refresh appended rows. The cards are painted by
:class:`~philont_desktop.timeline.widgets.message_card.MessageDelegate`. While nothing is shown it
says why (loading, or no message in the conversation and dates chosen).
"""

from __future__ import annotations

import collections
import time
from collections.abc import Callable
from typing import Any

from philont_desktop import humanize
from philont_desktop.qt import (
    QAbstractItemView,
    QApplication,
    QColor,
    QEvent,
    QKeySequence,
    QListView,
    QMenu,
    QModelIndex,
    QPoint,
    QPushButton,
    Qt,
    Signal,
)
from philont_desktop.timeline.model import MessageRole, MessagesModel
from philont_desktop.timeline.widgets.message_card import OUTER_H, MessageDelegate
from philont_desktop.timeline.widgets.placeholder import PlaceholderListView
from philont_desktop.widgets.after_paint import next_turn

FETCH_MARGIN_PX = 120
WARM_SLICE_MS = 8  # laying out the cards of a page that waits to go in, per event-loop turn
WARM_CHUNK = 10


class NewPill(QPushButton):
    """The floating "N new" button at the bottom of the conversation."""

    def __init__(self, parent):
        super().__init__(parent)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setObjectName("newMessagesPill")
        self.count = 0
        self.hide()

    def restyle(self, theme: Any) -> None:
        accent = theme.role_color("user") if theme is not None else QColor("#1f6feb")
        self.setStyleSheet(
            f"QPushButton#newMessagesPill {{ background: {accent.name()}; color: white; border: none;"
            " border-radius: 12px; padding: 4px 14px; font-weight: bold; }"
        )


class ConversationView(PlaceholderListView):
    """A list of message cards that keeps its reading position while pages arrive at either end."""

    messageActivated = Signal(object)  # the Message double-clicked / opened
    newPillClicked = Signal()
    firstRowsPainted = Signal()  # once: messages were painted for the first time

    def __init__(self, model: MessagesModel, theme: Any, parent=None):
        super().__init__(theme, parent)
        self._model = model
        self._theme = theme
        self.setModel(model)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # always there: a scroll bar that appears would change the width and lay every card out again
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setUniformItemSizes(False)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setWordWrap(True)
        self.setMouseTracking(True)
        self.setFrameShape(QListView.Shape.NoFrame)
        self.verticalScrollBar().setSingleStep(24)
        self.delegate = MessageDelegate(self, theme)
        self.setItemDelegate(self.delegate)
        self.delegate.toggleRequested.connect(self._toggle)
        self.delegate.openRequested.connect(self._open)
        self.pill = NewPill(self.viewport())
        self.pill.clicked.connect(self._pill_clicked)
        self.pill.restyle(theme)
        if hasattr(theme, "changed"):
            theme.changed.connect(lambda: self.pill.restyle(theme))
        self._anchor: tuple[int, int] | None = None  # (message id, top y) kept across top changes
        self._stick_bottom = True
        self._pending_new = 0
        self._scroll_to_row_after_reset: int | None = None
        model.rowsAboutToBeInserted.connect(self._before_insert)
        model.rowsInserted.connect(self._after_insert)
        model.rowsAboutToBeRemoved.connect(self._before_remove)
        model.rowsRemoved.connect(self._after_remove)
        model.modelAboutToBeReset.connect(self._before_reset)
        model.modelReset.connect(self._after_reset)
        model.anchorReady.connect(self.scroll_to_anchor)
        model.liveAppended.connect(self._on_live)
        model.newerPending.connect(self._on_newer_pending)
        self.verticalScrollBar().valueChanged.connect(self._on_scroll)
        self.verticalScrollBar().rangeChanged.connect(self._on_range)
        self._bottom_timer = next_turn(self, self.scrollToBottom)
        self._anchor_timer = next_turn(self, self._apply_anchor)
        self._fill_timer = next_turn(self, self._maybe_fetch_older)
        self._anchor_row: int | None = None
        self._rows_painted = False
        # Pages waiting for their cards to be laid out (a slice per event-loop turn) before they go in.
        self._warming: collections.deque[tuple[list[Any], Callable[[], None]]] = collections.deque()
        self._warm_timer = next_turn(self, self._warm_step)
        model.warm = self._warm

    # -- pages laid out before they go in ---------------------------------------------------------------
    def _warm(self, rows: list[Any], apply: Callable[[], None]) -> None:
        self._warming.append((list(rows), apply))
        self._warm_timer.start()

    def _warm_step(self) -> None:
        """Lay out cards of the waiting page for up to ``WARM_SLICE_MS``; a page whose cards are all laid
        out goes in, in a turn of its own (the list's layout then finds every height made)."""
        if not self._warming:
            return
        rows, apply = self._warming[0]
        if rows:
            end = time.perf_counter() + WARM_SLICE_MS / 1000
            while rows and time.perf_counter() < end:
                chunk = rows[-WARM_CHUNK:]
                del rows[-WARM_CHUNK:]
                self.delegate.warm(chunk, self._model)
        else:
            self._warming.popleft()
            apply()
        if self._warming:
            self._warm_timer.start()

    @property
    def warming(self) -> bool:
        """A page waits for its cards to be laid out."""
        return bool(self._warming)

    # -- position --------------------------------------------------------------------------------------
    def at_bottom(self) -> bool:
        sb = self.verticalScrollBar()
        return sb.value() >= sb.maximum() - 4

    def _top_anchor(self) -> tuple[int, int] | None:
        idx = self.indexAt(QPoint(OUTER_H + 2, 1))
        if not idx.isValid():
            idx = self.indexAt(self.viewport().rect().center())
        if not idx.isValid():
            return None
        m = idx.data(MessageRole)
        return (m.id, self.visualRect(idx).top()) if m is not None else None

    def _restore_anchor(self) -> None:
        anchor, self._anchor = self._anchor, None
        if anchor is None:
            return
        row = self._model.row_of(anchor[0])
        if row < 0:
            return
        self.doItemsLayout()
        idx = self._model.index(row, 0)
        delta = self.visualRect(idx).top() - anchor[1]
        if delta:
            sb = self.verticalScrollBar()
            sb.setValue(sb.value() + delta)

    def _before_insert(self, parent: QModelIndex, first: int, last: int) -> None:
        self._stick_bottom = self.at_bottom() and self._model.rowCount() > 0 and not self._model.has_newer
        if first == 0 and self._model.rowCount() > 0:
            self._anchor = self._top_anchor()

    def _after_insert(self, parent: QModelIndex, first: int, last: int) -> None:
        if first == 0 and self._anchor is not None:
            self._restore_anchor()
        elif self._stick_bottom and first > 0:
            self._bottom_timer.start()
        self._fill_timer.start()

    def _before_remove(self, parent: QModelIndex, first: int, last: int) -> None:
        if first == 0:
            self._anchor = self._top_anchor()

    def _after_remove(self, parent: QModelIndex, first: int, last: int) -> None:
        if first == 0:
            self._restore_anchor()

    def _before_reset(self) -> None:
        self.hide_pill()

    def _after_reset(self) -> None:
        if self._anchor_row is None and self._model.anchor_pending is None:
            self._settle_bottom()
        self._fill_timer.start()

    def _settle_bottom(self) -> None:
        if self._model.rowCount():
            self.doItemsLayout()
        self.scrollToBottom()
        self._stick_bottom = True

    def scroll_to_anchor(self, row: int) -> None:
        """Show ``row`` (a search hit, a time) in the middle of the view and select it."""
        self._anchor_row = row
        self._anchor_timer.start()

    def _apply_anchor(self) -> None:
        row, self._anchor_row = self._anchor_row, None
        if row is None or not 0 <= row < self._model.rowCount():
            self._model.release_hold()
            return
        idx = self._model.index(row, 0)
        self.doItemsLayout()
        self.scrollTo(idx, QAbstractItemView.ScrollHint.PositionAtCenter)
        self.setCurrentIndex(idx)
        self._stick_bottom = self.at_bottom() and not self._model.has_newer
        self._model.release_hold()
        if self.at_bottom() and self._model.canFetchMore(QModelIndex()):
            self._model.fetchMore(QModelIndex())
        self._fill_timer.start()

    def _on_range(self, _lo: int, _hi: int) -> None:
        self._fill_timer.start()

    def _on_scroll(self, value: int) -> None:
        if value <= FETCH_MARGIN_PX:
            self._fill_timer.start()
        if self.at_bottom():
            if self._model.has_newer and self._model.canFetchMore(QModelIndex()):
                self._model.fetchMore(QModelIndex())
            elif not self._model.has_newer:
                self.hide_pill()
                self._stick_bottom = True
        else:
            self._stick_bottom = False

    def _maybe_fetch_older(self) -> None:
        if self._anchor_row is not None:
            return
        sb = self.verticalScrollBar()
        if sb.value() <= FETCH_MARGIN_PX or sb.maximum() == 0:
            self._model.fetch_older()

    # -- live ----------------------------------------------------------------------------------------------
    def _on_live(self, n: int) -> None:
        if self._stick_bottom:
            self._bottom_timer.start()
            return
        self._pending_new += n
        self.show_pill(self._pending_new)

    def _on_newer_pending(self, n: int) -> None:
        self._pending_new = n
        self.show_pill(n)

    def show_pill(self, n: int) -> None:
        self.pill.count = n
        if n == 1:
            text = self.tr("1 new message")
        elif n < 1000:
            text = self.tr("%1 new messages").replace("%1", str(n))
        else:
            text = self.tr("999+ new messages")
        self.pill.setText("\u2193 " + text)
        self.pill.adjustSize()
        self._place_pill()
        self.pill.show()
        self.pill.raise_()

    def hide_pill(self) -> None:
        self._pending_new = 0
        self.pill.count = 0
        self.pill.hide()

    @property
    def pill_visible(self) -> bool:
        return not self.pill.isHidden()

    def _place_pill(self) -> None:
        vp = self.viewport()
        self.pill.move((vp.width() - self.pill.width()) // 2, vp.height() - self.pill.height() - 12)

    def resizeEvent(self, event) -> None:
        self.delegate.set_width(self.viewport().width())
        super().resizeEvent(event)
        self.delegate.set_width(self.viewport().width())
        self._place_pill()

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        if not self._rows_painted and self._model.rowCount() > 0:
            self._rows_painted = True
            self.firstRowsPainted.emit()

    def changeEvent(self, event) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.LanguageChange):
            self.delegate.invalidate()
        super().changeEvent(event)

    def _pill_clicked(self) -> None:
        self.hide_pill()
        if self._model.has_newer:
            self._model.load_newest()
        else:
            self.scrollToBottom()
            self._stick_bottom = True
        self.newPillClicked.emit()

    # -- interaction -----------------------------------------------------------------------------------
    def _toggle(self, row: int) -> None:
        self._model.toggle_expanded(row)
        idx = self._model.index(row, 0)
        self.doItemsLayout()
        self.scrollTo(idx, QAbstractItemView.ScrollHint.EnsureVisible)

    def _open(self, row: int) -> None:
        m = self._model.message_at(row)
        if m is not None:
            self.messageActivated.emit(m)

    def selected_messages(self) -> list[Any]:
        rows = sorted(i.row() for i in self.selectionModel().selectedIndexes())
        return [m for m in (self._model.message_at(r) for r in rows) if m is not None]

    def copy_selection(self) -> None:
        msgs = self.selected_messages()
        if not msgs:
            return
        parts = [f"[{humanize.abs_time(m.timestamp, seconds=True)}] {m.role}: {m.content}" for m in msgs]
        QApplication.clipboard().setText("\n\n".join(parts))

    def contextMenuEvent(self, event) -> None:
        idx = self.indexAt(event.pos())
        if not idx.isValid():
            return
        if not self.selectionModel().isSelected(idx):
            self.setCurrentIndex(idx)
        m = idx.data(MessageRole)
        menu = QMenu(self)
        expanded = self._model.is_expanded(m.id)
        menu.addAction(
            self.tr("Collapse") if expanded else self.tr("Expand"), lambda: self._toggle(idx.row())
        )
        menu.addAction(self.tr("Open full text…"), lambda: self.messageActivated.emit(m))
        menu.addAction(self.tr("Copy"), self.copy_selection)
        menu.exec(event.globalPos())

    def keyPressEvent(self, event) -> None:
        if event.matches(QKeySequence.StandardKey.Copy):
            self.copy_selection()
            return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            idx = self.currentIndex()
            if idx.isValid():
                self._toggle(idx.row())
                return
        super().keyPressEvent(event)
