"""The past-message picker: "what did the agent see here?" for a user message chosen from the timeline
(newest first, searchable with the timeline's search)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from core.models import Message
from core.visible import neutral
from philont_desktop import humanize, messages
from philont_desktop.context_tab.htmltext import esc, first_line, highlight_html
from philont_desktop.context_tab.model import PickerPage, job_user_messages
from philont_desktop.context_tab.widgets.left_out import plain_tip
from philont_desktop.qt import (
    QAbstractTextDocumentLayout,
    QApplication,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPainter,
    QPalette,
    QPushButton,
    QSize,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    Qt,
    QTextDocument,
    QTimer,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.theme import Theme


def hit_snippet(
    content: str, spans: Sequence[tuple[int, int]], width: int = 220
) -> tuple[str, list[tuple[int, int]]]:
    """One line of ``content`` around its first hit, with the hits moved into it."""
    start = max(0, spans[0][0] - 40) if spans else 0
    end = min(len(content), start + width)
    text = "".join(" " if c in "\r\n\t" else c for c in content[start:end])
    shift = start
    if start > 0:
        text = "…" + text
        shift -= 1
    if end < len(content):
        text += "…"
    inside = [(max(a, start) - shift, min(b, end) - shift) for a, b in spans if b > start and a < end]
    return text, inside


class PickerDelegate(QStyledItemDelegate):
    """Two lines per message: time and session (muted), then the text with the search hits marked."""

    def __init__(self, theme: Theme, parent: QWidget | None = None):
        super().__init__(parent)
        self.theme = theme

    def _doc(self, index: Any, width: int) -> QTextDocument:
        meta, text, spans = index.data(Qt.ItemDataRole.UserRole + 1)
        mark = (
            "background-color: #7a6200; color: #ffffff;"
            if self.theme.is_dark
            else "background-color: #ffe066; color: #000000;"
        )
        doc = QTextDocument()
        doc.setDocumentMargin(4)
        doc.setHtml(
            f"<span style='color:{self.theme.muted_text().name()}'>{esc(meta)}</span><br/>"
            + highlight_html(text, spans, mark)
        )
        doc.setTextWidth(width)
        return doc

    def paint(self, painter: QPainter, option: Any, index: Any) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        style = opt.widget.style() if opt.widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        doc = self._doc(index, opt.rect.width())
        painter.save()
        painter.translate(opt.rect.topLeft())
        ctx = QAbstractTextDocumentLayout.PaintContext()
        if opt.state & QStyle.StateFlag.State_Selected:
            ctx.palette.setColor(
                QPalette.ColorRole.Text, opt.palette.color(QPalette.ColorRole.HighlightedText)
            )
        else:
            ctx.palette.setColor(QPalette.ColorRole.Text, opt.palette.color(QPalette.ColorRole.Text))
        doc.documentLayout().draw(painter, ctx)
        painter.restore()

    def sizeHint(self, option: Any, index: Any) -> QSize:
        width = option.rect.width() if option.rect.width() > 0 else 600
        doc = self._doc(index, width)
        return QSize(width, int(doc.size().height()))


class MessagePicker(QDialog):
    """Pick a past user message (newest first, searchable): "what did the agent see here?"."""

    picked = Signal(object)  # Message

    def __init__(self, run: Callable[..., Any], theme: Theme, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("contextMessagePicker")
        self.setWindowTitle(self.tr("What did the agent see here? Pick a user message"))
        self.resize(760, 560)
        self._run = run
        self.theme = theme
        self.messages: list[Message] = []
        self._next: tuple[int, int] | None = None
        self._query = ""
        self.loading = False
        self.search = QLineEdit(self)
        self.search.setObjectName("pickerSearch")
        self.search.setClearButtonEnabled(True)
        self.search.setPlaceholderText(self.tr("Search user messages (3+ characters full-text)"))
        self.list = QListWidget(self)
        self.list.setObjectName("pickerList")
        self.list.setWordWrap(True)
        self.list.setUniformItemSizes(False)
        self.list.setAlternatingRowColors(True)
        self.list.setItemDelegate(PickerDelegate(theme, self.list))
        self.status = QLabel(self)
        self.more = QPushButton(self.tr("Load older"), self)
        self.more.setEnabled(False)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.ok = self.buttons.addButton(
            self.tr("Show what the agent saw"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.ok.setEnabled(False)
        lay = QVBoxLayout(self)
        lay.addWidget(self.search)
        lay.addWidget(self.list, 1)
        row = QHBoxLayout()
        row.addWidget(self.status, 1)
        row.addWidget(self.more)
        lay.addLayout(row)
        lay.addWidget(self.buttons)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(250)
        self._debounce.timeout.connect(lambda: self.load(self.search.text()))
        self.search.textChanged.connect(lambda _t: self._debounce.start())
        self.more.clicked.connect(self.load_more)
        self.list.currentRowChanged.connect(lambda row: self.ok.setEnabled(row >= 0))
        self.list.itemDoubleClicked.connect(lambda _i: self.accept())
        self.buttons.rejected.connect(self.reject)
        self.buttons.accepted.connect(self.accept)
        self.list.verticalScrollBar().valueChanged.connect(self._maybe_more)

    def load(self, query: str = "") -> None:
        self._query = query
        self._next = None
        self.messages = []
        self.list.clear()
        self._fetch()

    def load_more(self) -> None:
        if self._next is not None and not self.loading:
            self._fetch()

    def _maybe_more(self, value: int) -> None:
        sb = self.list.verticalScrollBar()
        if value >= sb.maximum() - 4:
            self.load_more()

    def _fetch(self) -> None:
        self.loading = True
        self.status.setText(self.tr("Loading…"))
        self._run(
            job_user_messages,
            self._query,
            self._next,
            on_result=self._on_page,
            on_error=self._on_error,
            key="picker",
        )

    def _on_error(self, exc: BaseException) -> None:
        self.loading = False
        self.status.setText(
            self.tr("The messages could not be read: %1").replace("%1", messages.error_text(exc))
        )

    def _on_page(self, page: PickerPage) -> None:
        self.loading = False
        if page.query != self._query:
            return
        for m in page.messages:
            meta = neutral(f"#{m.id} · {humanize.abs_time(m.timestamp)} · {m.session_id}")
            text, spans = hit_snippet(m.content, page.spans.get(m.id, []))
            text = neutral(text)  # one character for one: the spans stay valid
            item = QListWidgetItem(f"{meta}\n{neutral(first_line(m.content, 200))}")
            item.setData(Qt.ItemDataRole.UserRole, m.id)
            item.setData(Qt.ItemDataRole.UserRole + 1, (meta, text, spans))
            item.setToolTip(plain_tip(m.content[:2000]))
            self.list.addItem(item)
        self.messages += page.messages
        self._next = page.next_before
        self.more.setEnabled(self._next is not None)
        n = len(self.messages)
        if page.error:
            self.status.setText(self.tr("The search could not run: %1").replace("%1", page.error))
        elif n == 0:
            self.status.setText(self.tr("No user messages found."))
        else:
            text = self.tr("%n user message(s), newest first", None, n)
            if self._next is not None:
                text += " " + self.tr("(more below)")
            self.status.setText(text)
        if self.list.currentRow() < 0 and self.list.count():
            self.list.setCurrentRow(0)

    def current_message(self) -> Message | None:
        row = self.list.currentRow()
        return self.messages[row] if 0 <= row < len(self.messages) else None

    def accept(self) -> None:
        m = self.current_message()
        if m is None:
            return
        super().accept()
        self.picked.emit(m)
