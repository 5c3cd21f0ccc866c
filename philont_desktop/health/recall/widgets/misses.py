"""The missed turns: a table model (the most needed first, then the newest) and its view.

Columns: when the user wrote, the message (its first line, as plain text with controls made visible),
how many earlier messages it needed (an estimate) and the cause in a few words. The message text is
read from the database with the result (a saved turn holds none); one no longer in the file reads as
"(no longer in the file)".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from core.models import Message
from core.replay import TurnReport
from philont_desktop import messages
from philont_desktop.health.recall import texts
from philont_desktop.qt import QAbstractTableModel, QModelIndex, Qt, QTableView, QWidget
from philont_desktop.widgets.plain import plain, tooltip
from philont_desktop.widgets.table import setup_table
from philont_desktop.widgets.text import first_line, format_local

ID_ROLE = Qt.ItemDataRole.UserRole + 1


class MissesModel(QAbstractTableModel):
    COLUMNS = ("when", "message", "needed", "cause")

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self._turns: list[TurnReport] = []
        self._texts: Mapping[int, Message] = {}

    def set_misses(self, turns: Sequence[TurnReport], texts_by_id: Mapping[int, Message]) -> None:
        self.beginResetModel()
        self._turns = list(turns)
        self._texts = dict(texts_by_id)
        self.endResetModel()

    def turn(self, row: int) -> TurnReport | None:
        return self._turns[row] if 0 <= row < len(self._turns) else None

    def row_of(self, message_id: int) -> int:
        return next((i for i, t in enumerate(self._turns) if t.message.id == message_id), -1)

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._turns)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        if not 0 <= section < len(self.COLUMNS):
            return None
        return (self.tr("When"), self.tr("Message"), self.tr("Needed"), self.tr("Cause"))[section]

    def _text(self, t: TurnReport) -> str:
        m = self._texts.get(t.message.id)
        if m is None:
            return self.tr("(no longer in the file)")
        return plain(first_line(m.content), one_line=True)

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._turns):
            return None
        t = self._turns[index.row()]
        col = self.COLUMNS[index.column()] if 0 <= index.column() < len(self.COLUMNS) else ""
        if role == ID_ROLE:
            return t.message.id
        if role == Qt.ItemDataRole.DisplayRole:
            if col == "when":
                return format_local(t.message.timestamp, with_seconds=False)
            if col == "message":
                return self._text(t)
            if col == "needed":
                return texts.number(len(t.needed))
            return texts.cause_name(t.cause.code) if t.cause is not None else ""
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == "message":
                m = self._texts.get(t.message.id)
                return tooltip(m.content) if m is not None else None
            if col == "cause" and t.cause is not None:
                return tooltip(messages.notice_text(t.cause))
        if role == Qt.ItemDataRole.TextAlignmentRole and col == "needed":
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


def misses_table(model: MissesModel, parent: QWidget | None = None) -> QTableView:
    view = QTableView(parent)
    setup_table(
        view,
        model,
        name="recallMissesTable",
        widths={0: "2026-12-31 23:59", 2: "Needed", 3: "cut by the budget"},
        stretch=1,
    )
    return view
