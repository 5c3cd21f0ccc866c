"""The detail pane of one change: what it is and when, before and after side by side, the fact's decay
curve, the skill's ladder steps, the messages around it (with a way to the Timeline), and its actions.

Stored text is shown as plain text everywhere (labels are ``PlainText``, the diff escapes what it shows).
"""

from __future__ import annotations

import json
import time
from typing import Any

from core.changes import ChangeItem
from core.readable import Readable, is_time_field, readable_value
from philont_desktop import humanize
from philont_desktop.qt import (
    QAbstractItemView,
    QCoreApplication,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    Qt,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.review.texts import dating_text, grade, summary
from philont_desktop.review.widgets.decay_plot import DecayPlot
from philont_desktop.review.widgets.item_actions import ItemActions
from philont_desktop.widgets.diff import DiffField, SideBySideDiff
from philont_desktop.widgets.readable import ReadableText, readable_form

TOOL_LINES = 12  # lines of a tool message's readable form among the messages near a change

__all__ = ["ReviewDetailPane", "diff_fields"]


def _show(value: Any, key: str | None = None) -> str:
    """A value of a before/after row in readable form: text as it is, an epoch-ms time (``updatedAt``) as a
    local date and time, a structure laid out by :mod:`core.readable`."""
    if value is None:
        return ""
    if isinstance(value, str):
        return _json_value(value) if key and key.lower().endswith("json") else value
    if is_time_field(key, value):
        return humanize.abs_time(value, seconds=True)
    if isinstance(value, dict | list):
        return readable_value(value).text
    return json.dumps(value, ensure_ascii=False, default=str)


def _json_value(text: Any) -> str:
    """A fact's stored JSON value as the value it holds: a string without its quotes and escapes."""
    if not isinstance(text, str):
        return _show(text)
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return text
    return _show(value)


def _tau(state: dict[str, Any]) -> str:
    if state.get("pinned"):
        return QCoreApplication.translate("ReviewDetail", "pinned: never decays")
    tau = state.get("tauDays")
    if tau is None:
        return QCoreApplication.translate("ReviewDetail", "never decays")
    return QCoreApplication.translate("ReviewDetail", "τ = {0}").format(humanize.days(tau))


def _status(value: Any) -> str:
    names = {
        "active": QCoreApplication.translate("ReviewDetail", "active"),
        "superseded": QCoreApplication.translate("ReviewDetail", "superseded"),
        "forgotten": QCoreApplication.translate("ReviewDetail", "forgotten"),
    }
    return names.get(str(value), _show(value))


def _fields_of(item: ChangeItem) -> list[tuple[str, Any]]:
    """``(label, getter)`` of the rows the before/after view shows for ``item``."""
    when = lambda key: lambda st: humanize.abs_time(st.get(key), seconds=True)  # noqa: E731
    raw = lambda key: lambda st: _show(st.get(key), key)  # noqa: E731
    if item.code == "change.skill.revised":
        return [
            (QCoreApplication.translate("ReviewDetail", "Action template"), raw("actionTemplate")),
            (QCoreApplication.translate("ReviewDetail", "Verification"), raw("verification")),
            (QCoreApplication.translate("ReviewDetail", "Tool policy"), raw("toolPolicy")),
        ]
    if item.target.type == "fact":
        return [
            (
                QCoreApplication.translate("ReviewDetail", "Value"),
                lambda st: _json_value(st.get("valueJson")),
            ),
            (
                QCoreApplication.translate("ReviewDetail", "Confidence"),
                lambda st: humanize.exact_number(st.get("confidence")),
            ),
            (QCoreApplication.translate("ReviewDetail", "Status"), lambda st: _status(st.get("status"))),
            (QCoreApplication.translate("ReviewDetail", "Decay"), _tau),
            (QCoreApplication.translate("ReviewDetail", "Created"), when("createdAt")),
            (QCoreApplication.translate("ReviewDetail", "Forgotten"), when("forgottenAt")),
        ]
    if item.target.type == "note":
        return [
            (QCoreApplication.translate("ReviewDetail", "Text"), raw("content")),
            (
                QCoreApplication.translate("ReviewDetail", "Importance"),
                lambda st: humanize.exact_number(st.get("importance")),
            ),
            (QCoreApplication.translate("ReviewDetail", "Created"), when("createdAt")),
            (QCoreApplication.translate("ReviewDetail", "Forgotten"), when("forgottenAt")),
        ]
    keys = dict.fromkeys([*(item.before or {}), *(item.after or {})])
    return [(k, raw(k)) for k in keys]


def diff_fields(item: ChangeItem) -> list[DiffField]:
    """The rows of the before/after view of ``item`` (a side that did not exist shows empty)."""
    before = item.before if isinstance(item.before, dict) else None
    after = item.after if isinstance(item.after, dict) else None
    out = []
    prose = {QCoreApplication.translate("ReviewDetail", "Text")}
    for label, get in _fields_of(item):
        old = get(before) if before is not None else ""
        new = get(after) if after is not None else ""
        out.append(DiffField(label, old, new, monospace=label not in prose))
    return out


def messages_text(messages: list[Any]) -> tuple[str, Readable]:
    """The messages near a change, one line each (their text on one line, cut), and their readable form:
    a tool message holding JSON laid out below its line (:mod:`core.readable`, at most
    :data:`TOOL_LINES` lines)."""
    raw, shown, structured = [], [], False
    for m in messages:
        head = f"{humanize.abs_time(m.timestamp, seconds=True)}  {m.role}: "
        line = head + " ".join(m.content[:1200].split())[:300]
        raw.append(line)
        form = readable_form(m.content) if m.role == "tool" and len(m.content) <= 100_000 else None
        if form is None or not form.is_json:
            shown.append(line)
            continue
        structured = True
        body = form.text.split("\n")
        cut = body[:TOOL_LINES] + (["…"] if len(body) > TOOL_LINES else [])
        shown.append(head.rstrip())
        shown.extend("    " + ln[:300] for ln in cut)
    return "\n".join(raw), Readable("\n".join(shown), structured)


class ReviewDetailPane(QWidget):
    """Shows one change; ``timelineRequested`` asks for the messages in the Timeline tab."""

    timelineRequested = Signal()

    def __init__(self, theme: Any, parent: QWidget | None = None):
        super().__init__(parent)
        self.theme = theme
        self.item: ChangeItem | None = None
        self._messages: list[Any] | None = None
        self.title = QLabel(self)
        self.title.setObjectName("reviewDetailTitle")
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setWordWrap(True)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.meta = QLabel(self)
        self.meta.setObjectName("reviewDetailMeta")
        self.meta.setTextFormat(Qt.TextFormat.PlainText)
        self.meta.setWordWrap(True)
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("reviewDetailTabs")
        self.diff = SideBySideDiff(self)
        self.diff.setObjectName("reviewDiff")
        self.plot = DecayPlot(theme, self)
        self.ladder = self._ladder_table()
        self.messages = ReadableText(self, name="reviewMessages")
        self.messages.edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.to_timeline = QPushButton(self.tr("Show in the Timeline"), self)
        self.to_timeline.setObjectName("reviewToTimeline")
        self.to_timeline.clicked.connect(self.timelineRequested)
        self.actions = ItemActions(self)
        self._build_tabs()
        lay = QVBoxLayout(self)
        lay.addWidget(self.title)
        lay.addWidget(self.meta)
        lay.addWidget(self.actions)
        lay.addWidget(self.tabs, 1)
        self.show_item(None)

    def _ladder_table(self) -> QTableWidget:
        table = QTableWidget(0, 4, self)
        table.setObjectName("reviewLadder")
        table.setHorizontalHeaderLabels(
            [self.tr("Time"), self.tr("Event"), self.tr("Tool"), self.tr("Grade")]
        )
        table.verticalHeader().hide()
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.horizontalHeader().setStretchLastSection(True)
        return table

    def _build_tabs(self) -> None:
        msgs = QWidget(self)
        lay = QVBoxLayout(msgs)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.messages, 1)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.to_timeline)
        lay.addLayout(row)
        self.tabs.addTab(self.diff, self.tr("Before and after"))
        self.tabs.addTab(self.plot, self.tr("Decay"))
        self.tabs.addTab(self.ladder, self.tr("Ladder"))
        self.tabs.addTab(msgs, self.tr("Messages around"))

    # -- showing ------------------------------------------------------------------------------------------
    def show_item(self, item: ChangeItem | None, *, editing: bool = False) -> None:
        self.item, self._messages = item, None
        self.actions.show_item(item, editing)
        if item is None:
            self.title.setText(self.tr("Select a change to see it in full."))
            self.meta.setText("")
            for i in range(1, 4):
                self.tabs.setTabVisible(i, False)
            self.diff.setPlainText("")
            self.messages.set_message("")
            return
        now = int(time.time() * 1000)
        self.title.setText(summary(item))
        when = humanize.when(item.at, now) if item.at is not None else self.tr("time unknown")
        parts = [when, dating_text(item)]
        if item.actor:
            parts.append(self.tr("made in this app by {0}").format(item.actor))
        self.meta.setText(" · ".join(parts))
        self._fill_diff(item)
        is_fact = item.target.type == "fact"
        self.tabs.setTabVisible(1, is_fact)
        if is_fact:
            self.plot.show_fact(item.after if isinstance(item.after, dict) else item.before, item.at, now)
        steps = item.details.get("steps") or []
        self.tabs.setTabVisible(2, bool(steps))
        self._fill_ladder(steps)
        self.tabs.setTabVisible(3, True)
        self.messages.set_message(self.tr("Loading…"))

    def _fill_diff(self, item: ChangeItem) -> None:
        removed, added = self.theme.diff_colors()
        left = self.tr("Before") if isinstance(item.before, dict) else self.tr("Before (did not exist)")
        right = self.tr("After") if isinstance(item.after, dict) else self.tr("After (gone)")
        self.diff.set_diff(
            left,
            right,
            diff_fields(item),
            removed=removed,
            added=added,
            muted=self.theme.muted_text(),
        )

    def _fill_ladder(self, steps: list[dict[str, Any]]) -> None:
        self.ladder.setRowCount(len(steps))
        for row, st in enumerate(steps):
            if st.get("kind") == "revision":
                event = self.tr("revision")
            else:
                event = self.tr("success") if st.get("success") else self.tr("failure")
            cells = (
                humanize.abs_time(st.get("at")),
                event,
                str(st.get("tool") or ""),
                f"{grade(st.get('before'))} → {grade(st.get('after'))}",
            )
            for col, text in enumerate(cells):
                self.ladder.setItem(row, col, QTableWidgetItem(text))
        self.ladder.resizeColumnsToContents()

    def show_messages(self, messages: list[Any]) -> None:
        self._messages = list(messages)
        if not messages:
            self.messages.set_message(self.tr("No messages near this change."))
        else:
            self.messages.set_text(*messages_text(messages))
        self.to_timeline.setEnabled(bool(messages))

    def retranslate(self) -> None:
        messages = self._messages
        self.show_item(self.item, editing=self.actions.editing)
        if self.item is not None and messages is not None:
            self.show_messages(messages)
