"""The table of what was considered and left out of a preview, with the reason for each message."""

from __future__ import annotations

from core.context import LeftOut
from philont_desktop import humanize
from philont_desktop.context_tab import texts
from philont_desktop.context_tab.htmltext import fmt_int
from philont_desktop.qt import (
    QAbstractItemView,
    QFont,
    QLabel,
    Qt,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.widgets.table import setup_table

COLUMNS = 6
COL_ID, COL_SECTION, COL_REASON, COL_ROLE, COL_TOKENS, COL_TEXT = range(COLUMNS)


def plain_tip(text: str) -> str:
    """A tooltip showing ``text`` literally (stored text is never read as rich text)."""
    from philont_desktop.context_tab.htmltext import esc

    return "<qt>" + esc(text).replace("\n", "<br/>") + "</qt>"


class LeftOutTable(QWidget):
    """ "Left out: N" and a row per message (id, section, reason, role, tokens, text)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel(self)
        f = QFont(self.label.font())
        f.setBold(True)
        self.label.setFont(f)
        self.label.setWordWrap(True)  # large text in a narrow pane: a second line
        lay.addWidget(self.label)
        self.table = QTableWidget(0, COLUMNS, self)
        self.table.setHorizontalHeaderLabels(
            [
                self.tr("Message"),
                self.tr("Section"),
                self.tr("Reason"),
                self.tr("Role"),
                self.tr("Tokens"),
                self.tr("Text"),
            ]
        )
        setup_table(
            self.table,
            name="leftOutTable",
            widths={
                COL_ID: "#000000",
                COL_SECTION: self.tr("recall"),
                COL_REASON: self.tr("already recent"),
                COL_ROLE: self.tr("Assistant"),
                COL_TOKENS: "00,000",
            },
            stretch=COL_TEXT,
        )
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        lay.addWidget(self.table, 1)
        self._filler = QWidget(self)  # takes the table's room while nothing is left out
        lay.addWidget(self._filler, 1)
        self.rows: list[LeftOut] = []

    def set_rows(self, rows: list[LeftOut], now: int) -> None:
        self.rows = list(rows)
        self.label.setText(
            self.tr("Left out: %n message(s)", None, len(rows)) if rows else self.tr("Nothing was left out.")
        )
        self.table.setRowCount(len(rows))
        self.table.setVisible(bool(rows))
        self._filler.setVisible(not rows)
        for i, e in enumerate(rows):
            cells = [
                f"#{e.id}",
                texts.section_name(e.section),
                texts.reason_short(e.reason),
                texts.role_name(e.role) if e.role else "–",
                fmt_int(e.tokens) if e.tokens is not None else "–",
                e.preview,
            ]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if col == COL_ID:
                    item.setData(Qt.ItemDataRole.UserRole, e.id)
                elif col == COL_REASON:
                    item.setToolTip(texts.reason_text(e.reason))
                elif col == COL_TOKENS:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                elif col == COL_TEXT:
                    when = humanize.when(e.timestamp, now, seconds=True)
                    item.setToolTip(plain_tip(f"{when} · {e.session_id or ''}\n{e.preview}"))
                self.table.setItem(i, col, item)
