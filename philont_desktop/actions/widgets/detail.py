"""The detail pane of the Actions tab: one tool call's header, parameters and result, and the way to
the messages around it. Long texts are shown in part; a double-click opens the whole text."""

from __future__ import annotations

from typing import Any

from core.models import Action
from philont_desktop.actions.model import pretty_json
from philont_desktop.fonts import monospace_font
from philont_desktop.qt import QEvent, QLabel, QPlainTextEdit, QPushButton, Qt, QVBoxLayout, QWidget, Signal
from philont_desktop.widgets import plain
from philont_desktop.widgets.text import format_local

SHOWN_CHARS = 200_000


class ActionDetail(QWidget):
    """Shows one action (:meth:`show_action`); ``timelineRequested`` asks for the messages around it."""

    timelineRequested = Signal()

    def __init__(self, theme: Any, parent: QWidget | None = None):
        super().__init__(parent)
        self.theme = theme
        self.action: Action | None = None
        mono = monospace_font()
        self.header = QLabel(self)
        self.header.setObjectName("actionHeader")
        self.header.setWordWrap(True)
        self.header.setTextFormat(Qt.TextFormat.RichText)
        self.header.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.params_view = self._text_view("actionParams", mono)
        self.result_view = self._text_view("actionResult", mono)
        self.jump_btn = QPushButton(self.tr("Show the messages around this action"), self)
        self.jump_btn.setObjectName("jumpToTimeline")
        self.jump_btn.clicked.connect(self.timelineRequested)
        self.jump_btn.setEnabled(False)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 0, 6, 6)
        lay.addWidget(self.header)
        lay.addWidget(QLabel(self.tr("Parameters"), self))
        lay.addWidget(self.params_view, 3)
        lay.addWidget(QLabel(self.tr("Result"), self))
        lay.addWidget(self.result_view, 2)
        lay.addWidget(self.jump_btn)

    def _text_view(self, name: str, font: Any) -> QPlainTextEdit:
        edit = QPlainTextEdit(self)
        edit.setObjectName(name)
        edit.setReadOnly(True)
        edit.setFont(font)
        edit.viewport().installEventFilter(self)
        return edit

    def show_action(self, a: Action | None) -> None:
        self.action = a
        self.jump_btn.setEnabled(a is not None)
        if a is None:
            self.header.setText(plain.html(self.tr("Select an action to see its parameters and result.")))
            self.params_view.setPlainText("")
            self.result_view.setPlainText("")
            return
        self.header.setText(self._header_html(a))
        self._set_bounded(self.params_view, pretty_json(a), self.tr("Parameters"))
        result = a.result if a.result is not None else self.tr("(no result recorded)")
        self._set_bounded(self.result_view, result, self.tr("Result"))

    def _header_html(self, a: Action) -> str:
        ok = self.theme.status_color("live" if a.success else "error").name()
        outcome = self.tr("succeeded") if a.success else self.tr("failed")
        rows = [
            f"<b>{plain.html(a.tool_name)}</b> &nbsp;<span style='color:{ok}'>"
            f"{'&#10003;' if a.success else '&#10007;'} {plain.html(outcome)}</span>",
            plain.html(self.tr("Time: %1").replace("%1", format_local(a.timestamp))),
            plain.html(self.tr("Session: %1").replace("%1", a.session_id)),
        ]
        if a.linked_skill:
            rows.append(plain.html(self.tr("Linked skill: %1").replace("%1", a.linked_skill)))
        if a.trigger:
            rows.append(plain.html(self.tr("Trigger: %1").replace("%1", a.trigger)))
        if a.json_errors:
            rows.append(plain.html(self.tr("The parameters are not valid JSON; shown as stored.")))
        return "<br>".join(rows)

    def _set_bounded(self, edit: QPlainTextEdit, text: str, what: str) -> None:
        """Show at most :data:`SHOWN_CHARS` characters; the whole text opens in a viewer on demand."""
        from philont_desktop.widgets.fulltext import break_long_lines

        shown, broken = break_long_lines(plain.plain(text[:SHOWN_CHARS], None))
        edit.setProperty("fullText", text if (broken or len(text) > SHOWN_CHARS) else None)
        edit.setProperty("fullTitle", what)
        notes = []
        if len(text) > SHOWN_CHARS:
            notes.append(
                self.tr("[… %1 more characters: double-click to see the whole text]").replace(
                    "%1", f"{len(text) - SHOWN_CHARS:,}"
                )
            )
        if broken:
            notes.append(
                self.tr("[long lines are broken for display: double-click to see the text as it is]")
            )
        edit.setPlainText(shown + ("\n" + "\n".join(notes) if notes else ""))

    def eventFilter(self, obj: Any, event: Any) -> bool:
        if event.type() == QEvent.Type.MouseButtonDblClick:
            for edit in (self.params_view, self.result_view):
                if obj is edit.viewport() and edit.property("fullText"):
                    self.open_full_text(edit)
                    return True
        return super().eventFilter(obj, event)

    def open_full_text(self, edit: QPlainTextEdit) -> None:
        from philont_desktop.widgets.fulltext import FullTextDialog

        text = edit.property("fullText")
        if not text:
            return
        dlg = FullTextDialog(str(edit.property("fullTitle") or ""), text, self, monospace=True)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        dlg.show()
