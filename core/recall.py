"""TimelineRetriever: the timeline messages the agent is given each turn (spec Part A §4.1-4.2, Part B §7
timeline.ts, Part C a-b).

:meth:`TimelineRetriever.retrieve` reproduces the reference: a recency section (newest messages within a
token budget), a recall section (search hits for the turn's query within another budget), a separator
between them, ``system`` messages counted and then dropped, ``tool`` shown as ``user``. Beyond the
reference's output it explains what was left out (:attr:`RetrieveResult.excluded`), for the context
preview.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from core.jsutil import estimate_tokens, js_trim, utf16_len
from core.models import Message

SEPARATOR_CONTENT = "[—— 旧记忆与近期对话之间 ——]"
# Extra search hits fetched past ``recall_limit_candidates`` to report a few ``candidate_limit`` exclusions.
EXTRA_CANDIDATES = 5

Section = Literal["recall", "separator", "recent"]
ExcludedReason = Literal["over_budget", "already_recent", "system_message", "candidate_limit"]


def describe_session_origin(origin: str) -> str:
    """``describeSessionOrigin`` (Part B §7): how a message's origin conversation is named."""
    if origin.startswith("wechat:"):
        return "WeChat"
    if origin.startswith("telegram:"):
        return "Telegram"
    if origin.startswith("system:scheduled:"):
        name = origin[len("system:scheduled:") :]
        return f"scheduled task {name or '(unnamed)'}"
    if origin.startswith("system:"):
        return "a background run"
    return "the web UI"


def origin_prefix(origin: str) -> str:
    """The prefix of a recalled message from another conversation."""
    return f"[from another conversation — {describe_session_origin(origin)}] "


class RetrieveOptions(BaseModel):
    """Options of ``retrieve`` (camelCase names are accepted too: ``recentBudgetTokens`` ...)."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)

    recent_budget_tokens: int | float = 8000
    recall_budget_tokens: int | float = 4000
    recall_query: str = ""
    recent_limit_messages: int = 30
    recall_limit_candidates: int = 10
    restrict_to_session_ids: list[str] | None = None
    home_session_id: str | None = None


class RetrievedMessage(BaseModel):
    """One output message. ``role`` is what the model sees (``tool`` becomes ``user``); ``raw_role`` is
    the stored role. ``tokens`` is the estimate that was counted (of the stored content; 0 for the
    separator). The separator has ``id`` None."""

    id: int | None
    role: str
    content: str
    timestamp: int
    section: Section
    tokens: int = 0
    raw_role: str | None = None
    origin_session_id: str | None = None


class Excluded(BaseModel):
    """A message that was considered and is not in the output, with the reason."""

    id: int
    reason: ExcludedReason
    section: Literal["recent", "recall"]


class RetrieveResult(BaseModel):
    messages: list[RetrievedMessage] = Field(default_factory=list)
    total_tokens: int = 0
    recency_count: int = 0
    recall_count: int = 0
    excluded: list[Excluded] = Field(default_factory=list)
    recall_query: str = ""


def budget_walk(
    rows: Sequence[Message], budget: float, skip: set[int] | None = None
) -> tuple[list[Message], int, int]:
    """The reference's budget walk: the first message is always taken; the walk stops at the first
    message that would push the total past the budget. Returns ``(chosen, tokens, stop_index)``."""
    chosen: list[Message] = []
    used = 0
    for i, m in enumerate(rows):
        if skip is not None and m.id in skip:
            continue
        t = estimate_tokens(m.content)
        if chosen and used + t > budget:
            return chosen, used, i
        chosen.append(m)
        used += t
    return chosen, used, len(rows)


class MessageSource(Protocol):
    """What the retriever reads: :class:`core.timeline.RawStore` or a view of it (the context's, bounded
    in time)."""

    def query_timeline(
        self,
        order: Literal["asc", "desc"] = "desc",
        limit: int | None = 50,
        session_ids: Sequence[str] | None = None,
        origin_session_ids: Sequence[str] | None = None,
    ) -> list[Message]: ...

    def search_messages(
        self, query: str, *, session_ids: Sequence[str] | None = None, limit: int = 20
    ) -> list[Message]: ...


class TimelineRetriever:
    """``TimelineRetriever`` over a :class:`core.timeline.RawStore` (any :class:`MessageSource`)."""

    def __init__(self, raw: MessageSource):
        self.raw = raw

    def retrieve(self, opts: RetrieveOptions | None = None) -> RetrieveResult:
        o = opts or RetrieveOptions()
        session_ids = list(o.restrict_to_session_ids) if o.restrict_to_session_ids else None
        home = o.home_session_id or None
        excluded: list[Excluded] = []
        recent, recent_tokens = self._recency(o, session_ids, home, excluded)
        query = js_trim(o.recall_query or "")
        recall: list[Message] = []
        recall_tokens = 0
        if utf16_len(query) >= 2 and o.recall_budget_tokens > 0:
            recall, recall_tokens = self._recall(o, query, session_ids, {m.id for m in recent}, excluded)
        return RetrieveResult(
            messages=self._output(recall, recent, home, excluded),
            total_tokens=recent_tokens + recall_tokens,
            recency_count=len(recent),
            recall_count=len(recall),
            excluded=excluded,
            recall_query=query,
        )

    def _recency(
        self, o: RetrieveOptions, session_ids: list[str] | None, home: str | None, excluded: list[Excluded]
    ) -> tuple[list[Message], int]:
        """1. Recency: the newest messages within the budget, chronological."""
        recent_rows = self.raw.query_timeline(
            order="desc",
            limit=o.recent_limit_messages,
            session_ids=session_ids,
            origin_session_ids=[home] if home else None,
        )
        recent, recent_tokens, stop = budget_walk(recent_rows, o.recent_budget_tokens)
        excluded += [Excluded(id=m.id, reason="over_budget", section="recent") for m in recent_rows[stop:]]
        recent.reverse()  # chronological
        return recent, recent_tokens

    def _recall(
        self,
        o: RetrieveOptions,
        query: str,
        session_ids: list[str] | None,
        recent_ids: set[int],
        excluded: list[Excluded],
    ) -> tuple[list[Message], int]:
        """2. Recall: the search hits within the budget, oldest first, without the recent ones."""
        lim = o.recall_limit_candidates
        extra = EXTRA_CANDIDATES if isinstance(lim, int) and lim > 0 else 0
        hits = self.raw.search_messages(query, session_ids=session_ids, limit=lim + extra)
        cands, beyond = (hits[:lim], hits[lim:]) if extra else (hits, [])
        cands = sorted(cands, key=lambda m: (m.timestamp, m.id))
        recall, recall_tokens, stop = budget_walk(cands, o.recall_budget_tokens, skip=recent_ids)
        for i, m in enumerate(cands):
            if m.id in recent_ids:
                excluded.append(Excluded(id=m.id, reason="already_recent", section="recall"))
            elif i >= stop:
                excluded.append(Excluded(id=m.id, reason="over_budget", section="recall"))
        excluded += [Excluded(id=m.id, reason="candidate_limit", section="recall") for m in beyond]
        return recall, recall_tokens

    def _output(
        self, recall: list[Message], recent: list[Message], home: str | None, excluded: list[Excluded]
    ) -> list[RetrievedMessage]:
        """3. Output: recall, the separator, recency; ``system`` messages counted and dropped."""
        out: list[RetrievedMessage] = []
        for m in recall:
            if m.role == "system":
                excluded.append(Excluded(id=m.id, reason="system_message", section="recall"))
                continue
            content = m.content
            if home and m.origin_session_id and m.origin_session_id != home:
                content = origin_prefix(m.origin_session_id) + content
            out.append(self._out(m, content, "recall"))
        if recall and recent:
            out.append(
                RetrievedMessage(
                    id=None,
                    role="user",
                    content=SEPARATOR_CONTENT,
                    timestamp=recent[0].timestamp - 1,
                    section="separator",
                )
            )
        for m in recent:
            if m.role == "system":
                excluded.append(Excluded(id=m.id, reason="system_message", section="recent"))
                continue
            out.append(self._out(m, m.content, "recent"))
        return out

    @staticmethod
    def _out(m: Message, content: str, section: Section) -> RetrievedMessage:
        return RetrievedMessage(
            id=m.id,
            role="user" if m.role == "tool" else m.role,
            content=content,
            timestamp=m.timestamp,
            section=section,
            tokens=estimate_tokens(m.content),
            raw_role=m.role,
            origin_session_id=m.origin_session_id,
        )
