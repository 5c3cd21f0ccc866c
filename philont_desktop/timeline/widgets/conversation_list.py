"""The conversation list: the one control of the Timeline's conversation filter.

Every conversation of the file (:class:`~philont_desktop.widgets.conversations.ConversationsModel`),
most recent first, after "All conversations"; choosing one (``conversationChosen``) filters the
conversation view, the chart and the search. A caption says what is listed, or that it is loading.
"""

from __future__ import annotations

from typing import Any

from philont_desktop.qt import (
    QItemSelectionModel,
    QLabel,
    QModelIndex,
    Qt,
    QTableView,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.widgets.conversations import COL_COUNT, COL_FIRST, COL_LAST, COL_NAME, ConversationsModel
from philont_desktop.widgets.rows_model import KeyRole
from philont_desktop.widgets.table import setup_table

NARROW_PX = 440


class ConversationList(QWidget):
    """``conversationChosen(id | None)`` when the user picks a row."""

    conversationChosen = Signal(object)

    def __init__(self, model: ConversationsModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.table = setup_table(
            QTableView(self),
            model,
            name="conversationsTable",
            widths={COL_COUNT: "1,000,000", COL_FIRST: "2026-12-31", COL_LAST: "11 months ago"},
            stretch=COL_NAME,
        )
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.caption = QLabel(self)
        self.caption.setObjectName("conversationsCaption")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.caption)
        self._quiet = False
        self.table.selectionModel().currentRowChanged.connect(self._on_current)

    def _on_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid() and not self._quiet:
            self.conversationChosen.emit(current.data(KeyRole))

    def current_id(self) -> str | None:
        idx = self.table.currentIndex()
        return idx.data(KeyRole) if idx.isValid() else None

    def select(self, conversation_id: str | None) -> bool:
        """Show ``conversation_id`` as the chosen row, without announcing it (``False``: not listed)."""
        row = self.model.row_of(conversation_id)
        if row < 0:
            return False
        idx = self.model.index(row, 0)
        if self.table.currentIndex().row() != row:
            self._quiet = True
            try:
                self.table.selectionModel().setCurrentIndex(
                    idx,
                    QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
                )
            finally:
                self._quiet = False
        self.table.scrollTo(idx)
        return True

    def set_caption(self, text: str) -> None:
        self.caption.setText(text)

    def resizeEvent(self, event: Any) -> None:
        # a narrow list (a small window) keeps room for the names: the first message's date goes (it
        # stays in each row's tooltip)
        super().resizeEvent(event)
        self.table.setColumnHidden(COL_FIRST, self.width() < NARROW_PX)
