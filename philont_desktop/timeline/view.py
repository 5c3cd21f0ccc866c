"""The Timeline tab: its conversations, the conversation itself, the activity chart and search.

The shape of every tab (see :mod:`philont_desktop.tabs`): :mod:`.state` holds the conversation filter,
the dates, the search and what is loaded without Qt; :mod:`.controller` runs the reads; this view
composes the widgets (``widgets/``: the search bar, the conversation list, the results, the activity
chart; :mod:`.conversation`: the messages) and wires them to state and controller.
"""

from __future__ import annotations

from typing import Any

from philont_desktop import zoom
from philont_desktop.qt import (
    QKeySequence,
    QLabel,
    QShortcut,
    QSplitter,
    Qt,
    QTimer,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.tabs.base import BaseTab
from philont_desktop.tabs.navigation import ShowMessage, ShowTime, Target
from philont_desktop.timeline.controller import TimelineController
from philont_desktop.timeline.conversation import ConversationView
from philont_desktop.timeline.model import MessagesModel
from philont_desktop.timeline.search import SearchResultsModel
from philont_desktop.timeline.state import SearchQuery, TimelineState
from philont_desktop.timeline.texts import TimelineTexts
from philont_desktop.timeline.widgets.activity import ActivityPane
from philont_desktop.timeline.widgets.conversation_list import ConversationList
from philont_desktop.timeline.widgets.results import ResultsPane
from philont_desktop.timeline.widgets.search_bar import SearchBar
from philont_desktop.widgets.conversations import ConversationsModel
from philont_desktop.workers import spin_until

SEARCH_DEBOUNCE_MS = 300
SECONDARY_FALLBACK_MS = 1500  # the list and counts start then even if nothing was painted (hidden)


class TimelineTab(BaseTab):
    """Conversations on the left, the conversation (lazy both ways) under its activity chart, search."""

    name = "timeline"
    loading_sign = False  # its list, chart and conversation say "loading…" themselves
    targets = (ShowTime, ShowMessage)

    def __init__(self, ctx: Any, parent: QWidget | None = None):
        super().__init__(ctx, parent)
        theme = ctx.theme
        self.texts = TimelineTexts(self.state, self.controller.conversations)
        self.bar = SearchBar(self)
        self.conversation_list = ConversationList(self.conversations, self)
        self.results_pane = ResultsPane(self.results, theme, self)
        self.results_pane.hide()
        self.activity = ActivityPane(theme, self.controller.tz, self)
        self.conversation = ConversationView(self.messages, theme, self)
        self.conversation.setObjectName("conversation")
        self.status_label = QLabel(self)
        self.status_label.setObjectName("conversationStatus")
        self.status_label.setWordWrap(True)  # whole in large text, on two lines if need be
        self.status_label.setTextFormat(Qt.TextFormat.PlainText)
        self._layout()
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(SEARCH_DEBOUNCE_MS)
        self._debounce.timeout.connect(lambda: self.controller.search(self.bar.text()))
        self._fallback = QTimer(self)
        self._fallback.setSingleShot(True)
        self._fallback.timeout.connect(self.controller.start_secondary)
        self._wire()
        self._update_texts(self.state.field_names())

    def create_state(self) -> TimelineState:
        return TimelineState()

    def create_controller(self) -> TimelineController:
        return TimelineController(self.ctx, self.state, self.name, self)

    def _layout(self) -> None:
        left = QSplitter(Qt.Orientation.Vertical, self)
        left.setObjectName("timelineLeft")
        left.addWidget(self.conversation_list)
        left.addWidget(self.results_pane)
        left.setStretchFactor(0, 2)
        left.setStretchFactor(1, 3)
        left.setChildrenCollapsible(False)
        conv_box = QWidget(self)
        cl = QVBoxLayout(conv_box)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.setSpacing(2)
        cl.addWidget(self.status_label)
        cl.addWidget(self.conversation, 1)
        right = QSplitter(Qt.Orientation.Vertical, self)
        right.setObjectName("timelineRight")
        right.addWidget(self.activity)
        right.addWidget(conv_box)
        right.setStretchFactor(0, 1)
        right.setStretchFactor(1, 4)
        right.setSizes([150, 600])
        right.setChildrenCollapsible(False)
        main = QSplitter(Qt.Orientation.Horizontal, self)
        main.setObjectName("timelineMain")
        main.addWidget(left)
        main.addWidget(right)
        main.setStretchFactor(0, 2)
        main.setStretchFactor(1, 5)
        # The conversation list grows with the text; the conversation keeps at least 45 % of the width.
        zoom.set_splitter_sizes(main, [480, 900], rest_share=0.45)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(self.bar)
        lay.addWidget(main, 1)
        self.register_splitter(main, "main")
        self.register_splitter(left, "left")
        self.register_splitter(right, "right")

    def _wire(self) -> None:
        c = self.controller
        self.bar.textChanged.connect(self._on_text)
        self.bar.search_edit.nextRequested.connect(self.next_hit)
        self.bar.search_edit.previousRequested.connect(c.previous_hit)
        self.bar.roleChanged.connect(c.set_role)
        self.bar.rangeEdited.connect(c.set_range)
        self.activity.rangeSelected.connect(c.set_range)
        self.conversation_list.conversationChosen.connect(c.set_conversation)
        self.results_pane.hitChosen.connect(c.choose_hit)
        c.hitShown.connect(self.results_pane.show_current)
        self.conversation.messageActivated.connect(self._open_full_text)
        self.conversation.firstRowsPainted.connect(c.start_secondary)
        self.conversation.firstRowsPainted.connect(self.activity.build_later)
        self.activity.reads_running = lambda: self.busy
        self.conversations.loaded.connect(lambda: self.conversation_list.select(self.state.conversation))
        self.conversations.loaded.connect(lambda: self._update_texts({"conversations_loaded"}))
        self.state.changed.connect(self._on_state)
        QShortcut(QKeySequence.StandardKey.Find, self, activated=self.focus_search)

    # -- the parts, by name (tests, the self-test and the benchmarks use them) ----------------------------
    @property
    def messages(self) -> MessagesModel:
        return self.controller.messages

    @property
    def conversations(self) -> ConversationsModel:
        return self.controller.conversations

    @property
    def results(self) -> SearchResultsModel:
        return self.controller.results

    @property
    def search_edit(self):
        return self.bar.search_edit

    @property
    def role_combo(self):
        return self.bar.role_combo

    @property
    def range_check(self):
        return self.bar.range_check

    @property
    def hits_label(self):
        return self.bar.hits_label

    @property
    def results_header(self):
        return self.results_pane.header

    @property
    def results_view(self):
        return self.results_pane.view

    @property
    def conversations_view(self):
        return self.conversation_list.table

    @property
    def chart(self) -> Any:
        """The activity chart (built on first use; normally right after the first page is shown)."""
        return self.activity.chart

    @property
    def hit_count(self) -> int:
        return self.results.rowCount()

    @property
    def date_range(self) -> tuple[int | None, int | None]:
        return self.state.since, self.state.until

    # -- BaseTab -------------------------------------------------------------------------------------------
    def activate(self) -> None:
        self.controller.activate()
        self._fallback.start(SECONDARY_FALLBACK_MS)

    def wait_idle(self, timeout_ms: int = 10_000) -> bool:
        """Until the tab's reads are done (their pages in the conversation), the list and counts that
        follow the first page included."""
        c, m = self.controller, self.messages
        return spin_until(
            lambda: not c.pending and not m.loading and (c.secondary_started or not self.activated),
            timeout_ms,
        )

    def retranslate(self) -> None:
        self.conversations.all_label = self.tr("All conversations")
        super().retranslate()
        self.conversation.delegate.invalidate()
        self._update_texts(self.state.field_names())

    def navigate(self, target: Target) -> bool:
        if isinstance(target, ShowTime):
            self.show_time(target.timestamp, target.conversation)
            return True
        if isinstance(target, ShowMessage):
            self.show_message(target.message_id)
            return True
        return False

    # -- state → widgets -----------------------------------------------------------------------------------
    def _on_state(self, names: frozenset[str]) -> None:
        s = self.state
        if "conversation" in names:
            self.conversation_list.select(s.conversation)
            self.conversation.delegate.show_conversation = s.conversation is None
            self.conversation.viewport().update()
        if names & {"since", "until"}:
            self.bar.show_range(s.since, s.until)
            self.activity.set_range(s.since, s.until)
        if "day_counts" in names and s.day_counts is not None:
            self.activity.set_counts(list(s.day_counts), s.timeless_messages)
            if s.day_counts:
                self.bar.suggest_dates(s.day_counts[-1][0])
        if "search_text" in names:
            self.results_pane.setVisible(s.searching_text)
        self._update_texts(names)

    def _update_texts(self, names: frozenset[str] | set[str]) -> None:
        t = self.texts
        self.status_label.setText(t.status())
        self.conversation.set_placeholder(t.conversation_placeholder())
        self.conversation_list.set_caption(t.list_caption())
        hits, tip = t.hits(), t.hits_tooltip()
        self.bar.set_hits(hits, tip)
        self.results_pane.set_texts(t.results_header(), t.results_placeholder())

    # -- search ----------------------------------------------------------------------------------------------
    def _on_text(self, text: str) -> None:
        if not text.strip():
            self._debounce.stop()
            self.controller.search(text)
            return
        self._debounce.start()

    def focus_search(self) -> None:
        self.search_edit.setFocus()
        self.search_edit.selectAll()

    def search(self, text: str) -> None:
        """Set the search text and search at once (no debounce)."""
        self._debounce.stop()
        self.bar.set_text(text)
        self.controller.search(text)

    def run_search(self) -> None:
        """Search now with the text and filters of the bar (cancels a running search)."""
        self.search(self.bar.text())

    def next_hit(self) -> None:
        """Enter in the search box: search now if the text changed (and show the first hit), else the
        next hit."""
        text = self.bar.text()
        if self._debounce.isActive() or text != self.state.search_text:
            self._debounce.stop()
            self.controller.search(text, show_first=True)
            return
        self.controller.next_hit()

    def previous_hit(self) -> None:
        self.controller.previous_hit()

    def query(self, text: str) -> SearchQuery:
        """The search of ``text`` with the tab's filters."""
        return self.state.query(text)

    # -- filters and jumps -------------------------------------------------------------------------------------
    def select_conversation(self, conversation: str | None) -> None:
        """Show one conversation (``None``: all of them), as a click in the list does."""
        self.controller.set_conversation(conversation)

    def set_date_range(self, since: int | None, until: int | None) -> None:
        """Filter the conversation (and search) to ``[since, until]`` (epoch ms; None: open end)."""
        self.controller.set_range(since, until)

    def show_time(self, ts: int, conversation: str | None = None) -> None:
        """The conversation around the time ``ts`` (an action's time): in ``conversation``, or in the
        one the moment belongs to when it can be told."""
        self.ensure_activated()
        self.controller.show_time(ts, conversation)

    def show_message(self, message_id: int) -> None:
        """One message with the messages around it, in its conversation."""
        self.ensure_activated()
        self.controller.show_message(message_id)

    def _open_full_text(self, m: Any) -> None:
        from philont_desktop.widgets.fulltext import FullTextDialog
        from philont_desktop.widgets.readable import readable_form

        tool = m.role == "tool"
        form = readable_form(m.content) if tool else None
        if form is not None and form.is_json:
            dlg = FullTextDialog(self.texts.message_title(m), form.text, self, monospace=True, raw=m.content)
        else:
            dlg = FullTextDialog(self.texts.message_title(m), m.content, self, monospace=tool)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        dlg.show()
