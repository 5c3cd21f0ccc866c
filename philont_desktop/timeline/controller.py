"""The Timeline tab's controller: loads the conversation, the conversations, the per-day counts and the
search off the GUI thread, and keeps :class:`~philont_desktop.timeline.state.TimelineState` up to date.

The newest page comes first and alone (:meth:`activate`); the conversation list and the per-day counts
follow once it is shown (:meth:`start_secondary`). A live refresh appends new messages (or counts them),
updates the counts from the last day on and the conversation list from the rows appended since (at
most every :data:`LIST_REFRESH_MIN_MS`). Jumps from other tabs (:meth:`show_time`,
:meth:`show_message`) open the conversation the moment or message belongs to.
"""

from __future__ import annotations

from typing import Any

from core.conversations import ConversationMatch, conversation_of
from core.timeline import RawStore
from philont_desktop.ops import ReadOp
from philont_desktop.qt import QDateTime, QObject, QTimer, Signal
from philont_desktop.tabs.controller import TabController
from philont_desktop.timeline.model import (
    MessagesModel,
    job_conversation_at,
    job_daily_counts,
    local_offset_minutes,
)
from philont_desktop.timeline.search import SearchResultsModel
from philont_desktop.timeline.state import TimelineState
from philont_desktop.widgets.conversations import ConversationsModel, conversation_index

LIST_REFRESH_MIN_MS = 2000


def job_conversation_of_message(db: Any, message_id: int) -> str | None:
    m = RawStore(db).get_message(int(message_id))
    return None if m is None else conversation_of(m)


class TimelineController(TabController):
    """Owns the tab's three models (messages, conversations, search results) and its reads."""

    #: A hit became the shown one (its row), so the view can select it in the results.
    hitShown = Signal(int)

    def __init__(self, ctx: Any, state: TimelineState, name: str, parent: QObject | None = None):
        super().__init__(ctx, state, name, parent)
        self.state: TimelineState = state
        self.tz = local_offset_minutes()
        self.messages = MessagesModel(self.submit, self)
        self.conversations = ConversationsModel(
            self.submit, conversation_index(ctx), self, all_label=self.tr("All conversations")
        )
        self.results = SearchResultsModel(self.submit, self)
        self._show_first_hit = False
        self._next_after_more = False
        self._secondary_started = True
        self._last_list_refresh = 0
        self._list_timer = QTimer(self)
        self._list_timer.setSingleShot(True)
        self._list_timer.timeout.connect(self._refresh_list)
        self._wire()

    def _wire(self) -> None:
        m, r = self.messages, self.results
        m.loadingChanged.connect(lambda on: self.state.update(loading=on))
        m.loaded.connect(self._on_messages)
        m.failed.connect(lambda exc: self.ctx.show_error(self.tr("The timeline could not be read"), exc))
        self.conversations.loaded.connect(lambda: self.state.update(conversations_loaded=True))
        self.conversations.failed.connect(
            lambda exc: self.ctx.show_error(self.tr("The conversations could not be listed"), exc)
        )
        r.searchStarted.connect(self._on_search_state)
        r.countChanged.connect(self._on_search_state)
        r.searchFinished.connect(self._on_search_finished)

    # -- loading ---------------------------------------------------------------------------------------------
    @property
    def secondary_started(self) -> bool:
        return self._secondary_started

    def activate(self) -> None:
        """The newest page first, alone: the list and the counts follow once it is shown."""
        self._secondary_started = False
        self.messages.set_filter(self.state.filter)

    def start_secondary(self) -> None:
        """The conversation list and the per-day counts (after the first page is shown)."""
        if self._secondary_started:
            return
        self._secondary_started = True
        self.conversations.load_first_page()
        self._last_list_refresh = QDateTime.currentMSecsSinceEpoch()
        self.load_counts()

    def refresh(self) -> None:
        """The database changed: new messages below (or counted), counts and list brought up to date."""
        if not self.active:
            return
        self.messages.refresh()
        if not self._secondary_started:
            return
        self.load_counts(incremental=True)
        if not self._list_timer.isActive():
            wait = LIST_REFRESH_MIN_MS - (QDateTime.currentMSecsSinceEpoch() - self._last_list_refresh)
            self._list_timer.start(max(0, int(wait)))

    def _refresh_list(self) -> None:
        self._last_list_refresh = QDateTime.currentMSecsSinceEpoch()
        self.conversations.refresh()

    def _on_messages(self) -> None:
        m = self.messages
        self.state.update(loaded=m.rowCount(), complete=m.complete, complete_at_start=m.complete_at_start)

    def load_counts(self, *, incremental: bool = False) -> None:
        counts = self.state.day_counts
        since = counts[-1][0] if incremental and counts else None
        flt = self.state.filter

        def done(result: tuple[int | None, list[tuple[int, int]], int]) -> None:
            if flt.conversation != self.state.conversation:
                return
            since, got, timeless = result
            old = self.state.day_counts or ()
            merged = tuple(got) if since is None else (*(c for c in old if c[0] < since), *got)
            self.state.update(day_counts=merged, timeless_messages=timeless)

        self.submit(
            ReadOp(
                job_daily_counts,
                (flt, self.tz, since),
                key="counts",
                label=self.tr("Counting messages per day"),
            ),
            on_result=done,
        )

    # -- filters -----------------------------------------------------------------------------------------------
    def set_conversation(self, conversation: str | None) -> None:
        """Show one conversation (``None``: all of them) in the view, the chart and the search."""
        if conversation == self.state.conversation:
            return
        self.state.update(conversation=conversation, selected=None, day_counts=None)
        self.messages.set_highlight(None, None)
        self.messages.set_filter(self.state.filter)
        if self._secondary_started:
            self.load_counts()
        self._search_again()

    def set_range(self, since: int | None, until: int | None) -> None:
        """Show ``[since, until]`` (epoch ms; ``None``: open end) in the view and the search."""
        if (since, until) == (self.state.since, self.state.until):
            return
        self.state.update(since=since, until=until)
        self.messages.set_filter(self.state.filter)
        self._search_again()

    def set_role(self, role: str | None) -> None:
        if role != self.state.role:
            self.state.update(role=role)
            self._search_again()

    # -- search ---------------------------------------------------------------------------------------------------
    def search(self, text: str, *, show_first: bool = False) -> None:
        """Search ``text`` with the filters (a blank text clears the search and its highlights)."""
        self._show_first_hit = show_first
        self._next_after_more = False
        self.state.update(search_text=text, current_hit=-1)
        if not text.strip():
            self.results.clear()
            self.messages.set_highlight(None, None)
            return
        self.results.search(self.state.query(text))

    def _search_again(self) -> None:
        if self.state.searching_text:
            self.search(self.state.search_text)

    def _on_search_state(self, *_: object) -> None:
        r = self.results
        self.state.update(
            searching=r.searching,
            hits=r.rowCount(),
            hits_complete=not r.has_more,
            hit_total=r.total,
            search_mode=r.mode,
            search_error=r.error,
        )
        if self._next_after_more and not r.loading:
            self._next_after_more = False
            if self.state.current_hit + 1 < r.rowCount():
                self.choose_hit(self.state.current_hit + 1)

    def _on_search_finished(self, _res: object) -> None:
        self._on_search_state()
        if self._show_first_hit:
            self._show_first_hit = False
            if self.results.rowCount():
                self.choose_hit(0)

    def choose_hit(self, row: int) -> None:
        """Show hit ``row`` in its conversation: the page around it, its matches highlighted."""
        h = self.results.hit_at(row)
        if h is None:
            return
        self.state.update(current_hit=row, selected=h.message_id)
        self.messages.set_highlight(h.message_id, h.spans)
        self.messages.show_message(h.message_id, self.state.filter)
        self.hitShown.emit(row)

    def next_hit(self) -> None:
        """The hit after the shown one (the next page of hits is loaded first when needed)."""
        if self.results.searching:
            self._show_first_hit = True
            return
        n = self.results.rowCount()
        if n == 0:
            return
        row = self.state.current_hit + 1
        if row >= n:
            if self.results.canFetchMore(self.results.index(0, 0).parent()):
                self._next_after_more = True
                self.results.fetchMore(self.results.index(0, 0).parent())
                return
            row = 0
        self.choose_hit(row)

    def previous_hit(self) -> None:
        n = self.results.rowCount()
        if n:
            self.choose_hit((self.state.current_hit - 1) % n)

    # -- jumps from other tabs ---------------------------------------------------------------------------------
    def show_time(self, ts: int, conversation: str | None = None, *, tie: bool = True) -> None:
        """The messages around ``ts`` in ``conversation``; with ``tie`` and no conversation given, in
        the conversation the moment belongs to (the message it is tied to selected), when one is."""
        if (self.state.since is not None and ts < self.state.since) or (
            self.state.until is not None and ts > self.state.until
        ):
            self.state.update(since=None, until=None)
        self.messages.set_highlight(None, None)
        if conversation is not None or not tie:
            self._open(conversation)
            self.messages.show_time(ts, self.state.filter)
            return

        def tied(match: ConversationMatch | None) -> None:
            if match is None:
                self._open(None)
                self.messages.show_time(ts, self.state.filter)
                return
            self._open(match.conversation_id)
            self.state.update(selected=match.message_id)
            self.messages.show_message(match.message_id, self.state.filter)

        self.submit(
            ReadOp(job_conversation_at, (int(ts),), key="jump", label=self.tr("Finding the conversation")),
            on_result=tied,
        )

    def show_message(self, message_id: int) -> None:
        """One message with the messages around it, in its conversation."""

        def located(conversation: str | None) -> None:
            if conversation is not None and self.state.conversation not in (None, conversation):
                self._open(conversation)
            self.state.update(selected=message_id)
            self.messages.show_message(message_id, self.state.filter)

        self.submit(ReadOp(job_conversation_of_message, (int(message_id),), key="jump"), on_result=located)

    def _open(self, conversation: str | None) -> None:
        if conversation != self.state.conversation:
            self.state.update(conversation=conversation, day_counts=None)
            if self._secondary_started:
                self.load_counts()
            self._search_again()
