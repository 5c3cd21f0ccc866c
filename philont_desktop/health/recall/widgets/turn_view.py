"""A missed turn: why recall missed (the cause in words), what the agent saw at that turn and, beside
it, the message it needed.

What the agent saw is the Context tab's past-turn preview (:class:`PreviewRenderer`, rendered from the
same computation the Context tab makes for a past message); its section links fold and unfold the
memory prefix here too. The needed messages are stored text: shown as plain text, controls made
visible. "Open in the Context tab" asks the window to show the turn there.
"""

from __future__ import annotations

from core.replay import TurnReport
from philont_desktop import messages
from philont_desktop.context_tab.render import PreviewRenderer
from philont_desktop.health.recall import texts
from philont_desktop.health.recall.data import TurnDetail
from philont_desktop.qt import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    Qt,
    QTextBrowser,
    QUrl,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.retranslate import Retranslatable
from philont_desktop.theme import Theme
from philont_desktop.widgets.plain import plain
from philont_desktop.widgets.text import format_local

NEEDED_CHARS = 20_000  # characters of a needed message shown


class TurnView(Retranslatable, QWidget):
    openInContext = Signal(int)  # the message id of the turn

    def __init__(self, theme: Theme, parent: QWidget | None = None):
        super().__init__(parent)
        self.theme = theme
        self.turn: TurnReport | None = None
        self.detail: TurnDetail | None = None
        self._expanded: set[str] = set()
        self.cause = QLabel(self)
        self.cause.setObjectName("recallCause")
        self.cause.setTextFormat(Qt.TextFormat.PlainText)
        self.cause.setWordWrap(True)
        self.cause.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.open_button = QPushButton(self.tr("Open in the Context tab"), self)
        self.open_button.setObjectName("recallOpenContext")
        self.open_button.setEnabled(False)
        self.open_button.clicked.connect(self._open)
        self.seen_label = QLabel(self.tr("What the agent saw at that turn"), self)
        self.needed_label = QLabel(self.tr("The message it needed"), self)
        self.preview = QTextBrowser(self)
        self.preview.setObjectName("recallTurnPreview")
        self.preview.setOpenLinks(False)
        self.preview.anchorClicked.connect(self._follow)
        self.renderer = PreviewRenderer(theme, self)
        self.needed = QPlainTextEdit(self)
        self.needed.setObjectName("recallNeededText")
        self.needed.setReadOnly(True)
        self._layout()
        theme.changed.connect(self._render)
        self.clear()

    def _layout(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.cause, 1)
        top.addWidget(self.open_button, 0, Qt.AlignmentFlag.AlignTop)
        left, right = QWidget(self), QWidget(self)
        for pane, label, body in (
            (left, self.seen_label, self.preview),
            (right, self.needed_label, self.needed),
        ):
            lay = QVBoxLayout(pane)
            lay.setContentsMargins(0, 0, 0, 0)
            lay.addWidget(label)
            lay.addWidget(body, 1)
            label.setBuddy(body)
        self.split = QSplitter(Qt.Orientation.Horizontal, self)
        self.split.setObjectName("recallTurnSplit")
        self.split.setChildrenCollapsible(False)
        self.split.addWidget(left)
        self.split.addWidget(right)
        self.split.setSizes([600, 400])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(top)
        lay.addWidget(self.split, 1)
        self.setTabOrder(self.open_button, self.preview)
        self.setTabOrder(self.preview, self.needed)

    # -- what is shown --------------------------------------------------------------------------------
    def clear(self, text: str = "") -> None:
        self.turn, self.detail = None, None
        self.cause.setText(text or self.tr("Select a missed turn to see what the agent saw then."))
        self.open_button.setEnabled(False)
        self.preview.clear()
        self.needed.clear()

    def show_turn(self, turn: TurnReport) -> None:
        """The turn is selected: its cause now, the rest when :meth:`show_detail` brings it."""
        self.turn, self.detail = turn, None
        self._expanded = set()
        self.cause.setText(self.cause_text(turn))
        self.open_button.setEnabled(True)
        self.preview.setPlainText(self.tr("Computing what the agent saw…"))
        self.needed.clear()

    def show_detail(self, detail: TurnDetail | None) -> None:
        if detail is None:
            self.preview.setPlainText(self.tr("This message is no longer in the file."))
            self.open_button.setEnabled(False)
            return
        self.detail = detail
        self._render()
        self.needed.setPlainText("\n\n".join(self._needed_text(m) for m in detail.needed))

    def cause_text(self, t: TurnReport) -> str:
        lines = [
            self.tr("Why recall missed: %1").replace("%1", messages.notice_text(t.cause) if t.cause else "—")
        ]
        if t.terms:
            lines.append(
                self.tr("Rare words it shares with earlier messages: %1").replace("%1", ", ".join(t.terms))
            )
        lines.append(
            self.tr("Recall answered by: %1").replace("%1", texts.path_name(t.path)) if t.path else ""
        )
        if t.correction:
            lines.append(self.tr('The user corrected the agent ("%1").').replace("%1", t.correction))
        return plain("\n".join(x for x in lines if x))

    def _needed_text(self, m) -> str:
        head = self.tr("#%1 · %2 · %3").replace("%1", str(m.id)).replace("%2", format_local(m.timestamp))
        return head.replace("%3", plain(m.role, 40, one_line=True)) + "\n" + plain(m.content, NEEDED_CHARS)

    def _render(self) -> None:
        if self.detail is None:
            return
        sb = self.preview.verticalScrollBar()
        pos = sb.value()
        self.preview.setHtml(self.renderer.render(self.detail.context, self._expanded))
        sb.setValue(pos)

    def _follow(self, url: QUrl) -> None:
        kind, _, arg = url.toString().partition(":")
        if kind == "toggle":
            self._expanded ^= {arg}
        elif kind == "expand":
            self._expanded = (
                {s.name for s in self.detail.context.prefix.sections} if self.detail is not None else set()
            )
        elif kind == "collapse":
            self._expanded = set()
        elif kind == "why":
            self.preview.scrollToAnchor(arg)
            return
        else:
            return
        self._render()

    def _open(self) -> None:
        if self.turn is not None:
            self.openInContext.emit(self.turn.message.id)

    def retranslate(self) -> None:
        if self.turn is not None:
            self.cause.setText(self.cause_text(self.turn))
            self._render()
            if self.detail is not None:
                self.needed.setPlainText("\n\n".join(self._needed_text(m) for m in self.detail.needed))
