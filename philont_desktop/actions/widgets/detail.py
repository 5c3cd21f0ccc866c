"""The detail pane of the Actions tab: one tool call's header, parameters and result, and the way to
the messages around it. Parameters and result are shown in readable form with a "Raw" toggle
(:class:`~philont_desktop.widgets.readable.ReadableText`); long texts are shown in part and a double-click
opens the whole text."""

from __future__ import annotations

from typing import Any

from core.models import Action
from philont_desktop.qt import QLabel, QPushButton, Qt, QVBoxLayout, QWidget, Signal
from philont_desktop.widgets import plain
from philont_desktop.widgets.conversations import label_of_id
from philont_desktop.widgets.readable import SHOWN_CHARS, ReadableText
from philont_desktop.widgets.text import format_local

__all__ = ["SHOWN_CHARS", "ActionDetail"]


class ActionDetail(QWidget):
    """Shows one action (:meth:`show_action`); ``timelineRequested`` asks for the messages around it."""

    timelineRequested = Signal()

    def __init__(self, theme: Any, parent: QWidget | None = None):
        super().__init__(parent)
        self.theme = theme
        self.action: Action | None = None
        self.header = QLabel(self)
        self.header.setObjectName("actionHeader")
        self.header.setWordWrap(True)
        self.header.setTextFormat(Qt.TextFormat.RichText)
        self.header.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.params_view = ReadableText(self, name="actionParams", title=self.tr("Parameters"))
        self.result_view = ReadableText(self, name="actionResult", title=self.tr("Result"))
        self.jump_btn = QPushButton(self.tr("Show the messages around this action"), self)
        self.jump_btn.setObjectName("jumpToTimeline")
        self.jump_btn.clicked.connect(self.timelineRequested)
        self.jump_btn.setEnabled(False)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 0, 6, 6)
        lay.addWidget(self.header)
        lay.addWidget(self.params_view, 3)
        lay.addWidget(self.result_view, 2)
        lay.addWidget(self.jump_btn)

    def show_action(self, a: Action | None) -> None:
        self.action = a
        self.jump_btn.setEnabled(a is not None)
        if a is None:
            self.header.setText(plain.html(self.tr("Select an action to see its parameters and result.")))
            self.params_view.set_message("")
            self.result_view.set_message("")
            return
        self.header.setText(self._header_html(a))
        # The conversation in words above; its id as stored (``global``, ``web-ui:…``) here.
        self.header.setToolTip(
            plain.tooltip(self.tr("Conversation id as stored: %1").replace("%1", a.session_id))
        )
        self.params_view.set_text(a.params_json)
        if a.result is None:
            self.result_view.set_message(self.tr("(no result recorded)"))
        else:
            self.result_view.set_text(a.result)

    def _header_html(self, a: Action) -> str:
        ok = self.theme.status_color("live" if a.success else "error").name()
        outcome = self.tr("succeeded") if a.success else self.tr("failed")
        rows = [
            f"<b>{plain.html(a.tool_name)}</b> &nbsp;<span style='color:{ok}'>"
            f"{'&#10003;' if a.success else '&#10007;'} {plain.html(outcome)}</span>",
            plain.html(self.tr("Time: %1").replace("%1", format_local(a.timestamp))),
            plain.html(self.tr("Conversation: %1").replace("%1", label_of_id(a.session_id))),
        ]
        if a.linked_skill:
            rows.append(plain.html(self.tr("Linked skill: %1").replace("%1", a.linked_skill)))
        if a.trigger:
            rows.append(plain.html(self.tr("Trigger: %1").replace("%1", a.trigger)))
        if a.json_errors:
            rows.append(plain.html(self.tr("The parameters are not valid JSON; shown as stored.")))
        return "<br>".join(rows)

    def open_full_text(self, view: ReadableText) -> None:
        view.open_full_text()
