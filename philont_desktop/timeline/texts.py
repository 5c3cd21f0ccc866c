"""The Timeline tab's texts made from its state: the status line, the hit count, what an empty list
says. One place, so that the counts read the same everywhere ("N+" only while they are not known)."""

from __future__ import annotations

from typing import Any

from core.conversations import conversation_of
from philont_desktop import humanize, messages
from philont_desktop.qt import QObject
from philont_desktop.timeline.search import describe_mode
from philont_desktop.timeline.state import TimelineState
from philont_desktop.widgets.conversations import ConversationsModel, conversation_label, label_of_id


class TimelineTexts(QObject):
    def __init__(self, state: TimelineState, conversations: ConversationsModel):
        super().__init__()
        self.state = state
        self.conversations = conversations

    # -- the conversation ------------------------------------------------------------------------------
    def conversation_name(self) -> str:
        cid = self.state.conversation
        if cid is None:
            return self.tr("All conversations")
        conv = self.conversations.conversation(cid)
        return conversation_label(conv) if conv is not None else label_of_id(cid)

    def conversation_count(self) -> int | None:
        """Messages of the shown conversation (all of them), as the list counts them."""
        cid = self.state.conversation
        if cid is None:
            return self.conversations.total()
        conv = self.conversations.conversation(cid)
        return conv.message_count if conv is not None else None

    def range_text(self) -> str:
        s = self.state
        a = humanize.abs_time(s.since, date_only=True) if s.since is not None else "…"
        b = humanize.abs_time(s.until, date_only=True) if s.until is not None else "…"
        return self.tr("dates %1 – %2").replace("%1", a).replace("%2", b)

    def status(self) -> str:
        """``WeChat · wxid_… · 274 messages · 100 shown, more as you scroll``."""
        s = self.state
        parts = [self.conversation_name()]
        n = self.conversation_count()
        if n is not None:
            parts.append(self.tr("%Ln message(s)", None, n))
        if s.since is not None or s.until is not None:
            parts.append(self.range_text())
        if s.loading:
            parts.append(self.tr("loading…"))
        elif s.loaded:
            if s.complete and s.complete_at_start:
                parts.append(self.tr("all %Ln shown", None, s.loaded))
            else:
                parts.append(self.tr("%Ln shown, more load as you scroll", None, s.loaded))
        return "  ·  ".join(parts)

    def conversation_placeholder(self) -> str:
        s = self.state
        if s.loaded:
            return ""
        if s.loading or not s.complete:
            return self.tr("Loading messages…")
        if s.since is not None or s.until is not None:
            return self.tr("No messages between these dates. Clear the dates to see the others.")
        if s.conversation is not None:
            return self.tr("No messages in this conversation.")
        return self.tr("No messages yet: the agent has not written any.")

    def list_caption(self) -> str:
        if not self.state.conversations_loaded:
            return self.tr("Listing conversations…")
        n = self.conversations.count()  # at every update of the tab's texts: not a list of thousands
        return self.tr("%Ln conversation(s), the most recent first", None, n)

    # -- the search -----------------------------------------------------------------------------------------
    def count(self) -> str:
        """``1 hit``, ``30 hits``, or ``50+ hits`` while the rest are counted."""
        s = self.state
        known = s.hit_count_known
        if known is not None:
            return self.tr("%Ln hit(s)", None, known)
        return self.tr("%1+ hits").replace("%1", humanize.count_text(s.hits))

    def hits(self) -> str:
        s = self.state
        if not s.searching_text:
            return ""
        if s.searching:
            return self.tr("Searching…")
        if s.search_error:
            return self.tr("The search could not run")
        if s.search_mode == "empty":
            return self.tr("Nothing to search for")
        if s.hits == 0:
            return self.tr("No hits")
        return self.count()

    def hits_tooltip(self) -> str:
        s = self.state
        if s.search_error:
            return messages.notice_text(s.search_error)
        if s.searching_text and not s.searching and s.hit_count_known is None and s.hits:
            return self.tr("Counting every hit…")
        return ""

    def results_header(self) -> str:
        s = self.state
        text = self.hits()
        if not text or s.searching or s.search_error or not s.hits:
            return text
        extra = [describe_mode(s.search_mode, self.tr)]
        if 0 <= s.current_hit < s.hits:
            total = s.hit_count_known
            of = humanize.count_text(total) if total is not None else f"{humanize.count_text(s.hits)}+"
            extra.append(f"{s.current_hit + 1}/{of}")
        extra = [e for e in extra if e]
        return text + (f"  ({', '.join(extra)})" if extra else "")

    def results_placeholder(self) -> str:
        s = self.state
        if not s.searching_text:
            return ""
        if s.searching:
            return self.tr("Searching…")
        if s.search_error:
            return self.tr("The search could not run: %1").replace("%1", messages.notice_text(s.search_error))
        if s.search_mode == "empty":
            return self.tr("Nothing to search for: quotes, stars and brackets alone are left out.")
        if s.hits:
            return ""
        text = self.tr("No message contains “%1”.").replace("%1", s.search_text.strip())
        if s.conversation is not None:
            text += "\n" + self.tr(
                "Only this conversation was searched: choose “All conversations” to search all."
            )
        if s.since is not None or s.until is not None:
            text += "\n" + self.tr("Only the chosen dates were searched.")
        if s.role is not None:
            text += "\n" + self.tr("Only messages of one role were searched.")
        return text

    # -- a message ----------------------------------------------------------------------------------------
    def message_title(self, m: Any) -> str:
        return (
            self.tr("Message #%1 · %2 · %3 · %4")
            .replace("%1", str(m.id))
            .replace("%2", m.role)
            .replace("%3", label_of_id(conversation_of(m)))
            .replace("%4", humanize.abs_time(m.timestamp, seconds=True))
        )
