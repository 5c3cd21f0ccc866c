"""What the Timeline tab shows, without Qt: the conversation, the dates, the search and what is loaded.

One conversation filter (:attr:`TimelineState.conversation`: a conversation id, ``None`` for all of
them) applies to the conversation view, the activity chart and the search alike; the date range
(``since``/``until``) too; the role filter applies to the search. The controller writes the loading
state (``loading``, ``loaded``, ``complete``, ``complete_at_start`` of the conversation window, and the
search's ``hits``, ``hit_total``, ``searching``), the view listens (``state.changed``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.errors import Notice
from core.models import Message
from philont_desktop.tabs.state import TabState


@dataclass(frozen=True)
class TimelineFilter:
    """What the conversation view shows: one conversation (None: every one) and a time range."""

    conversation: str | None = None
    since: int | None = None
    until: int | None = None

    def query_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of ``RawStore.query_timeline`` and ``daily_counts`` for this filter."""
        return {
            "conversations": [self.conversation] if self.conversation is not None else None,
            "since": self.since,
            "until": self.until,
        }

    def admits(self, m: Message) -> bool:
        from core.conversations import conversation_of

        if self.conversation is not None and conversation_of(m) != self.conversation:
            return False
        if self.since is not None and m.timestamp < self.since:
            return False
        return not (self.until is not None and m.timestamp > self.until)


@dataclass(frozen=True)
class SearchQuery:
    """A search of the timeline: the text and the filters it runs with."""

    text: str
    roles: tuple[str, ...] | None = None
    conversation: str | None = None
    since: int | None = None
    until: int | None = None

    def search_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of ``RawStore.search_page`` for this query's filters."""
        return {
            "since": self.since,
            "until": self.until,
            "roles": list(self.roles) if self.roles else None,
            "conversations": [self.conversation] if self.conversation is not None else None,
        }


@dataclass(eq=False)
class TimelineState(TabState):
    """``selected`` is the id of the message the view shows selected (a hit, a jump target)."""

    conversation: str | None = None  # the one conversation filter; None: all conversations
    since: int | None = None
    until: int | None = None
    role: str | None = None  # the search's role filter
    search_text: str = ""  # the text of the search that runs or ran ("" : no search)
    current_hit: int = -1  # the row of the hit shown in the conversation
    complete_at_start: bool = True  # no older message before the first one loaded
    conversations_loaded: bool = False
    day_counts: tuple[tuple[int, int], ...] | None = None  # messages per local day (None: not yet)
    timeless_messages: int = 0  # messages whose time no date can hold: in no day of day_counts
    # the search
    searching: bool = False  # the first page of hits is being looked for
    hits: int = 0  # hits loaded
    hits_complete: bool = True  # every hit is loaded
    hit_total: int | None = None  # the exact number of hits, once counted
    search_mode: str | None = None  # "fts" | "like" | "empty"
    search_error: Notice | None = None  # why the search could not run

    @property
    def filter(self) -> TimelineFilter:
        return TimelineFilter(self.conversation, self.since, self.until)

    @property
    def searching_text(self) -> bool:
        """A search is asked for (its text is not blank)."""
        return bool(self.search_text.strip())

    def query(self, text: str | None = None) -> SearchQuery:
        """The search of ``text`` (default: :attr:`search_text`) with the current filters."""
        return SearchQuery(
            text=self.search_text if text is None else text,
            roles=(self.role,) if self.role else None,
            conversation=self.conversation,
            since=self.since,
            until=self.until,
        )

    @property
    def hit_count_known(self) -> int | None:
        """The number of hits when it is known exactly (all loaded, or counted), else None."""
        if self.searching:
            return None
        if self.hits_complete:
            return self.hits
        return self.hit_total
