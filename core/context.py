"""The turn context: what the agent would be given if a message arrived now (or arrived at some past time).

:func:`build_context` is the one computation behind ``philont-memory context`` and the desktop app's
Context tab, so both give the same answer for the same inputs. It combines, without re-implementing
them:

* the memory prefix (:func:`core.prefix.build_memory_prefix`, never bumping ``self.*`` facts);
* the recall trigger (:func:`core.recall_trigger.detect`) and the text the server injects on a hit;
* the timeline messages (:class:`core.recall.TimelineRetriever`), with what was left out and why.

:meth:`ContextResult.to_json` is exactly the ``context --json`` shape of the command line::

    {prefix, sections: [{name, text, chars, tokens}], recall_trigger: {hit, snippet, pattern} | null,
     timeline: {messages: [{id, role, content, timestamp, section}], totalTokens, recencyCount,
                recallCount, excluded: [{id, reason}]}}

The result carries more for a viewer: the search mode and the highlight spans of the recalled
messages, the left-out messages with their role, time and size, per-budget usage, the prefix sections
the agent's server adds that cannot be reproduced here, and :meth:`ContextResult.to_text` (the whole
context as plain text, in the order the agent receives it).

Time travel (``as_of``): "what did the agent see here?". Only messages before ``as_of`` exist then
(``timestamp < as_of``; with ``as_of_id`` the bound is the ``(timestamp, id)`` position of that
message, so messages of the same millisecond stored before it count). The memory prefix is rebuilt
(:func:`core.prefix.build_memory_prefix` with ``as_of``) from what the database can tell about that
moment:

* facts created before ``as_of``, not forgotten before it and not superseded by a version created
  before it (a superseded version is active again if its successor is newer);
* a fact's ``last_accessed_at`` after ``as_of`` is unknown at that time and is replaced by its
  ``created_at`` (the ordering of the facts sections may differ from what the agent saw);
* skills created before ``as_of``; their counters, maturity, description and ranking inputs are
  today's values (they are updated in place and cannot be rewound), and a deleted skill is not seen;
* plans created before ``as_of``; schedules as they are now;
* a fact or note that was forgotten and then restored, or edited in place, cannot be rewound.

:data:`TIME_TRAVEL_LIMITS` lists these limits (a viewer shows them next to a time-travel preview).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from core import recall_trigger
from core.damage import row_notice
from core.errors import NotFoundError, Notice
from core.jsutil import estimate_tokens, iso_ms, js_trim, now_ms, utf16_len
from core.models import Message
from core.paths import replaceable_target
from core.prefix import (
    MEMORY_PREFIX_TOTAL_CAP,
    SERVER_ONLY_SECTIONS,
    PrefixResult,
    build_memory_prefix,
)
from core.recall import RetrievedMessage, RetrieveOptions, RetrieveResult, TimelineRetriever, origin_prefix
from core.recall_explain import RecallExplanation, add_details, explain_recall
from core.substring import ProvingRawStore, SearchCancelledError
from core.timeline import RawStore, sanitize_query, span_finder

if TYPE_CHECKING:
    from core.db import MemoryDB

__all__ = [
    "DEFAULTS",
    "TIME_TRAVEL_LIMITS",
    "ContextCancelledError",
    "ContextResult",
    "LeftOut",
    "TriggerInfo",
    "build_context",
    "explain_context",
    "export_json",
    "prefix_session_id",
]

#: The retriever's defaults (spec §4.1), also the command line's.
DEFAULTS: dict[str, int] = {
    "recent_budget": 8000,
    "recall_budget": 4000,
    "recent_limit": 30,
    "recall_limit": 10,
}

#: What a time-travel preview cannot rewind (code -> English text; a viewer may translate by code).
TIME_TRAVEL_LIMITS: dict[str, str] = {
    "skill_state": "Skills are shown with today's counters, maturity and descriptions (they change in "
    "place); only skills created later are left out, and deleted skills are missing.",
    "fact_access": "Facts read after that moment are ordered by their creation time instead of their "
    "last access then (not recorded).",
    "restored_rows": "A fact forgotten and restored since, or a row edited in place, shows its current state.",
    "schedules": "Scheduled tasks are read as they are now.",
}

SearchModeName = Literal["none", "empty", "fts", "like"]
_NEG_INF = -(2**63)


class ContextCancelledError(SearchCancelledError):
    """Raised inside :func:`build_context` when ``cancel_check()`` became true (a newer request)."""


class TriggerInfo(BaseModel):
    """The recall trigger's result: the matched ``snippet`` and rule, and the text the server injects."""

    hit: bool = True
    snippet: str
    pattern: str
    injected: str


class LeftOut(BaseModel):
    """A message that was considered and is not in the timeline output, with the reason."""

    id: int
    reason: str  # over_budget | already_recent | system_message | candidate_limit
    section: Literal["recent", "recall"]
    role: str | None = None
    timestamp: int | None = None
    session_id: str | None = None
    tokens: int | None = None
    chars: int | None = None
    preview: str = ""


class BudgetUse(BaseModel):
    """One budget: what was used against its limit (``used`` may pass ``limit``: the first message is
    always taken)."""

    name: Literal["recent_tokens", "recall_tokens", "recent_messages", "recall_candidates", "prefix_chars"]
    used: int
    limit: int
    parts: list[tuple[str, int]] = Field(default_factory=list)  # (label, amount) stacked segments


class ContextResult(BaseModel):
    """Everything :func:`build_context` computed. :meth:`to_json` is the command line's shape."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    message: str
    session_ids: list[str] = Field(default_factory=list)
    recent_budget: int | float = 8000
    recall_budget: int | float = 4000
    recent_limit: int = 30
    recall_limit: int = 10
    host_os: str | None = None
    home_session_id: str | None = None
    as_of: int | None = None
    as_of_id: int | None = None
    as_of_message: Message | None = None
    now: int
    prefix_session_id: str
    prefix: PrefixResult
    trigger: TriggerInfo | None = None
    timeline: RetrieveResult
    recall_query: str = ""
    search_mode: SearchModeName = "none"
    search_safe: str = ""
    substring: Literal["proven", "scanned"] | None = None
    recall: RecallExplanation | None = None
    highlights: dict[int, list[tuple[int, int]]] = Field(default_factory=dict)
    left_out: list[LeftOut] = Field(default_factory=list)
    recent_tokens: int = 0
    recall_tokens: int = 0
    omitted: dict[str, str] = Field(default_factory=dict)
    limits: dict[str, str] = Field(default_factory=dict)
    timings_ms: dict[str, float] = Field(default_factory=dict)
    #: For each damaged row the agent would be given (a prefix fact or skill, a timeline message): what
    #: the agent makes of it (:func:`core.damage.row_notice`); the prefix's first.
    row_notices: list[Notice] = Field(default_factory=list)

    # -- the command line's shape ----------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """``philont-memory context --json`` (issue 3): exactly these keys, in this order; ``damaged_rows``
        lists :attr:`row_notices` (``{code, message, params}``)."""
        t = self.timeline
        return {
            "prefix": self.prefix.text,
            "sections": [
                {"name": s.name, "text": s.text, "chars": s.chars, "tokens": s.tokens}
                for s in self.prefix.sections
            ],
            "recall_trigger": None
            if self.trigger is None
            else {"hit": self.trigger.hit, "snippet": self.trigger.snippet, "pattern": self.trigger.pattern},
            "timeline": {
                "messages": [
                    {
                        "id": m.id,
                        "role": m.role,
                        "content": m.content,
                        "timestamp": m.timestamp,
                        "section": m.section,
                    }
                    for m in t.messages
                ],
                "totalTokens": t.total_tokens,
                "recencyCount": t.recency_count,
                "recallCount": t.recall_count,
                "excluded": [{"id": e.id, "reason": e.reason} for e in t.excluded],
            },
            "recall": None if self.recall is None else self.recall.to_json(),
            "damaged_rows": [n.to_json() for n in self.row_notices],
        }

    def to_json_text(self) -> str:
        """:meth:`to_json` as the command line prints it (UTF-8, two-space indent, final newline)."""
        return json.dumps(self.to_json(), ensure_ascii=False, indent=2) + "\n"

    # -- views -----------------------------------------------------------------------------------------
    def messages_in(self, section: str) -> list[RetrievedMessage]:
        return [m for m in self.timeline.messages if m.section == section]

    def budgets(self) -> list[BudgetUse]:
        """The five budgets, each with what the sections use (tokens are the retriever's estimates)."""
        t = self.timeline
        # Candidates the recall walk saw and did not take (the rest of the recall_limit search hits).
        skipped = sum(
            1
            for e in self.left_out
            if e.section == "recall" and e.reason in ("already_recent", "over_budget")
        )
        recent_out = sum(m.tokens for m in self.messages_in("recent"))
        recall_out = sum(m.tokens for m in self.messages_in("recall"))
        return [
            BudgetUse(
                name="recent_tokens",
                used=self.recent_tokens,
                limit=int(self.recent_budget),
                parts=[("shown", recent_out), ("system", self.recent_tokens - recent_out)],
            ),
            BudgetUse(
                name="recall_tokens",
                used=self.recall_tokens,
                limit=int(self.recall_budget),
                parts=[("shown", recall_out), ("system", self.recall_tokens - recall_out)],
            ),
            BudgetUse(name="recent_messages", used=t.recency_count, limit=self.recent_limit),
            BudgetUse(
                name="recall_candidates",
                used=t.recall_count + skipped,
                limit=self.recall_limit,
                parts=[("chosen", t.recall_count), ("skipped", skipped)],
            ),
            BudgetUse(
                name="prefix_chars",
                used=self.prefix.chars,
                limit=MEMORY_PREFIX_TOTAL_CAP,
                parts=[(s.name, s.chars) for s in self.prefix.sections],
            ),
        ]

    def to_text(self) -> str:
        """The whole context as text, in the order the agent receives it (for copying)."""
        p = self.prefix
        out: list[str] = []
        head = f"=== Memory prefix: {len(p.sections)} sections, {p.chars} chars, {p.tokens} tokens"
        if self.as_of is not None:
            head += f" (as of {_iso(self.as_of)}"
            head += f", before message #{self.as_of_id})" if self.as_of_id is not None else ")"
        out += [head + " ===", p.text, ""]
        if self.trigger is None:
            out += ["=== Recall trigger: no hit ===", ""]
        else:
            out += [
                f'=== Recall trigger: {self.trigger.pattern} "{self.trigger.snippet}" ===',
                self.trigger.injected,
                "",
            ]
        t = self.timeline
        out.append(
            f"=== Timeline: {len(t.messages)} messages, {t.total_tokens} tokens "
            f"(recent {t.recency_count}, recalled {t.recall_count}) ==="
        )
        for m in t.messages:
            ident = "" if m.id is None else f"#{m.id} "
            out.append(f"[{m.section}] {ident}{_iso(m.timestamp)} {m.role}: {m.content}")
        out.append("")
        out += ["=== This turn ===", f"user: {self.message}", ""]
        if self.left_out:
            out.append("=== Left out ===")
            out += [f"#{e.id} ({e.section}, {e.reason})" for e in self.left_out]
            out.append("")
        if self.omitted:
            out.append("=== Not reproduced (filled only by the agent's server) ===")
            out += [f"- {v}" for v in self.omitted.values()]
            out.append("")
        return "\n".join(out)


# --------------------------------------------------------------------------------------------------
# The timeline, optionally bounded in time, remembering how the recall search ran
# --------------------------------------------------------------------------------------------------


class _ContextRawStore(ProvingRawStore):
    """:class:`ProvingRawStore` seen at a moment (``before``: an exclusive ``(timestamp, id)`` bound) that
    remembers how its last search ran; cancelled before and during the slow ``LIKE`` scan."""

    cancel_error = ContextCancelledError

    def __init__(
        self,
        db: MemoryDB,
        before: tuple[int, int] | None = None,
        cancel_check: Callable[[], bool] | None = None,
    ):
        super().__init__(db, cancel_check)
        self.before = before
        self.last_mode: SearchModeName = "none"
        self.last_safe = ""
        self.last_found = 0
        self.last_limit = 0
        self.times: dict[str, float] = {}
        self.damaged: dict[int, Message] = {}

    def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[Message]:
        rows = super()._rows(sql, args)
        for m in rows:
            if m.damaged:
                self.damaged[m.id] = m
        return rows

    def _check(self) -> None:
        self.check_cancel()

    def query_timeline(  # type: ignore[override]
        self,
        order: Any = "desc",
        limit: int | None = 50,
        session_ids: Sequence[str] | None = None,
        origin_session_ids: Sequence[str] | None = None,
        before: tuple[int, int] | None = None,
        after: tuple[int, int] | None = None,
        roles: Sequence[str] | None = None,
        since: int | None = None,
        until: int | None = None,
    ) -> list[Message]:
        if self.before is not None:
            before = self.before if before is None else min((before[0], before[1]), self.before)
        t = time.perf_counter()
        try:
            return super().query_timeline(
                order, limit, session_ids, origin_session_ids, before, after, roles, since, until
            )
        finally:
            self.times["recent_query"] = self.times.get("recent_query", 0.0) + time.perf_counter() - t

    def search_messages(  # type: ignore[override]
        self,
        query: str,
        since: int | None = None,
        until: int | None = None,
        session_id: str | None = None,
        session_ids: Sequence[str] | None = None,
        limit: int = 20,
    ) -> list[Message]:
        """``RawStore.search_messages`` with the time bound, the mode recorded, the substring fallback
        proven from the index where it can be and cancellation before and during a scan."""
        self._check()
        t = time.perf_counter()
        safe = sanitize_query(query)
        self.last_safe = safe
        self.last_limit = limit
        if not safe:
            self.last_mode = "empty"
            return []
        try:
            rows, mode = self.search_with_mode(
                query,
                since=since,
                until=until,
                session_id=session_id,
                session_ids=session_ids,
                limit=limit,
                before=self.before,
            )
        finally:
            self.times["recall_query"] = self.times.get("recall_query", 0.0) + time.perf_counter() - t
        self.last_mode = mode
        self.last_found = len(rows)
        return rows


# --------------------------------------------------------------------------------------------------
# The computation
# --------------------------------------------------------------------------------------------------


def prefix_session_id(session_ids: Sequence[str]) -> str:
    """The session the prefix is built for: the one session when exactly one is given, else ``global``
    (as the command line does)."""
    ids = list(session_ids or ())
    return ids[0] if len(ids) == 1 else "global"


def _iso(ms: int | float | None) -> str:
    if ms is None:
        return "-"
    try:
        return iso_ms(ms)
    except (ValueError, OverflowError, TypeError):
        return str(ms)


def _preview(text: str, n: int = 160) -> str:
    """A one-line excerpt of at most ``n`` characters (bounded work for a message of any size)."""
    one = " ".join(text[: n * 2].split())
    if len(one) > n:
        return one[: n - 1] + "…"
    return one + "…" if len(text) > n * 2 else one


def build_context(
    db: MemoryDB,
    message: str,
    *,
    session_ids: Sequence[str] = (),
    recent_budget: int | float = 8000,
    recall_budget: int | float = 4000,
    recent_limit: int = 30,
    recall_limit: int = 10,
    host_os: str | None = None,
    home_session_id: str | None = None,
    as_of: int | None = None,
    as_of_id: int | None = None,
    now: int | None = None,
    prefix: PrefixResult | None = None,
    cancel_check: Callable[[], bool] | None = None,
    explain: bool = True,
) -> ContextResult:
    """What the agent would be given for ``message`` (see the module docstring).

    ``session_ids`` restrict the timeline (empty: every session) and, when there is exactly one,
    choose the session the prefix is built for. ``as_of`` / ``as_of_id``: the moment to look from
    (``as_of_id`` alone takes that message's timestamp; the message itself is not part of what was
    seen). ``now`` (default: ``as_of`` when given, else the current time) is the time the skill ranking
    is computed at. ``prefix`` reuses a prefix computed earlier for the same database state, host OS,
    prefix session and moment (the prefix does not depend on the message). ``cancel_check`` is asked
    between the steps and before a slow ``LIKE`` scan; when it returns true
    :class:`ContextCancelledError` is raised. ``explain`` adds the recall explanation's word counts and
    keyword query (:mod:`core.recall_explain`; its summary is always there). Reads only.
    """
    t_start = time.perf_counter()
    message = message if isinstance(message, str) else str(message)
    ids = list(dict.fromkeys(session_ids or ()))  # as given, de-duplicated; "" filters like any id
    as_of_msg: Message | None = None
    if as_of_id is not None:
        as_of_msg = RawStore(db).get_message(int(as_of_id))
        if as_of_msg is None:
            raise NotFoundError(f"No message {as_of_id}.", code="message.not_found", params={"id": as_of_id})
        if as_of is None:
            as_of = as_of_msg.timestamp
    before: tuple[int, int] | None = None
    if as_of is not None:
        as_of = int(as_of)
        before = (as_of, int(as_of_id)) if as_of_id is not None else (as_of, _NEG_INF)
    if now is None:
        now = as_of if as_of is not None else now_ms()
    psid = prefix_session_id(ids)
    timings: dict[str, float] = {}

    def check() -> None:
        if cancel_check is not None and cancel_check():
            raise ContextCancelledError()

    # 1. The memory prefix (does not depend on the message).
    check()
    t = time.perf_counter()
    if prefix is None:
        prefix = build_memory_prefix(
            db, host_os=host_os, session_id=psid, bump_self=False, now=now, as_of=as_of
        )
        timings["prefix"] = (time.perf_counter() - t) * 1000
    else:
        timings["prefix"] = 0.0

    # 2. The recall trigger (no database).
    t = time.perf_counter()
    hit = recall_trigger.detect(message)
    trigger = (
        None
        if hit is None
        else TriggerInfo(
            hit=hit.hit,
            snippet=hit.snippet,
            pattern=hit.pattern,
            injected=recall_trigger.injected_text(hit.snippet),
        )
    )
    timings["trigger"] = (time.perf_counter() - t) * 1000

    # 3. The timeline.
    check()
    raw = _ContextRawStore(db, before, cancel_check)
    t = time.perf_counter()
    result = TimelineRetriever(raw).retrieve(
        RetrieveOptions(
            recent_budget_tokens=recent_budget,
            recall_budget_tokens=recall_budget,
            recall_query=message,
            recent_limit_messages=recent_limit,
            recall_limit_candidates=recall_limit,
            restrict_to_session_ids=ids or None,
            home_session_id=home_session_id,
        )
    )
    timings["timeline"] = (time.perf_counter() - t) * 1000
    timings["recent_query"] = raw.times.get("recent_query", 0.0) * 1000
    timings["recall_query"] = raw.times.get("recall_query", 0.0) * 1000

    # 4. For the viewer: highlights, what was left out, the budgets.
    check()
    t = time.perf_counter()
    highlights: dict[int, list[tuple[int, int]]] = {}
    if raw.last_mode in ("fts", "like") and raw.last_safe:
        spans = span_finder(raw.last_safe, raw.last_mode)
        for m in result.messages:
            if m.section != "recall" or m.id is None:
                continue
            shift = 0
            content = m.content
            if m.origin_session_id and home_session_id and m.origin_session_id != home_session_id:
                op = origin_prefix(m.origin_session_id)
                if content.startswith(op):
                    shift = len(op)
            found = spans(content[shift:])
            if found:
                highlights[m.id] = [(a + shift, b + shift) for a, b in found]
    by_id = {m.id: m for m in RawStore(db).get_messages([e.id for e in result.excluded])}
    left_out: list[LeftOut] = []
    for e in result.excluded:
        row = by_id.get(e.id)
        left_out.append(
            LeftOut(
                id=e.id,
                reason=e.reason,
                section=e.section,
                role=None if row is None else row.role,
                timestamp=None if row is None else row.timestamp,
                session_id=None if row is None else row.session_id,
                tokens=None if row is None else estimate_tokens(row.content),
                chars=None if row is None else utf16_len(row.content),
                preview="" if row is None else _preview(row.content),
            )
        )
    sys_tokens = {"recent": 0, "recall": 0}
    for left in left_out:
        if left.reason == "system_message" and left.tokens is not None:
            sys_tokens[left.section] += left.tokens
    recent_tokens = sum(m.tokens for m in result.messages if m.section == "recent") + sys_tokens["recent"]
    recall_tokens = sum(m.tokens for m in result.messages if m.section == "recall") + sys_tokens["recall"]
    notices = list(prefix.row_notices)
    for m in result.messages:
        d = raw.damaged.get(m.id) if m.id is not None else None
        if d is not None:
            notices.append(row_notice("messages", m.id, f"message #{m.id}", m.section, d.damaged))
    timings["details"] = (time.perf_counter() - t) * 1000

    # 5. Why the recall section holds what it holds.
    check()
    t = time.perf_counter()
    query = js_trim(message)
    searched = utf16_len(query) >= 2 and recall_budget > 0
    substring = raw.last_substring if searched and raw.last_mode == "like" else None
    recall = explain_recall(
        raw,
        message=message,
        searched=searched,
        budget_zero=not recall_budget > 0,
        mode=raw.last_mode,
        safe=raw.last_safe,
        fts=raw.last_fts if searched else None,
        substring=substring,
        found=raw.last_found if searched else 0,
        limit=recall_limit,
        recalled=result.recall_count,
        recalled_shown=sum(1 for m in result.messages if m.section == "recall"),
        all_recent=searched and raw.last_found > 0 and result.recall_count == 0,
        session_ids=ids or None,
        before=before,
        trigger_snippet=None if trigger is None else trigger.snippet,
        detailed=explain,
    )
    timings["explain"] = (time.perf_counter() - t) * 1000
    timings["total"] = (time.perf_counter() - t_start) * 1000

    return ContextResult(
        message=message,
        session_ids=ids,
        recent_budget=recent_budget,
        recall_budget=recall_budget,
        recent_limit=recent_limit,
        recall_limit=recall_limit,
        host_os=host_os,
        home_session_id=home_session_id,
        as_of=as_of,
        as_of_id=None if as_of_id is None else int(as_of_id),
        as_of_message=as_of_msg,
        now=int(now),
        prefix_session_id=psid,
        prefix=prefix,
        trigger=trigger,
        timeline=result,
        recall_query=js_trim(message),
        search_mode=raw.last_mode,
        search_safe=raw.last_safe,
        substring=None if substring is None else substring.how,
        recall=recall,
        highlights=highlights,
        left_out=left_out,
        recent_tokens=recent_tokens,
        recall_tokens=recall_tokens,
        omitted={k: SERVER_ONLY_SECTIONS[k] for k in prefix.omitted if k in SERVER_ONLY_SECTIONS},
        limits=dict(TIME_TRAVEL_LIMITS) if as_of is not None else {},
        timings_ms=timings,
        row_notices=notices,
    )


def explain_context(
    db: MemoryDB, result: ContextResult, *, cancel_check: Callable[[], bool] | None = None
) -> RecallExplanation:
    """The recall explanation of ``result`` with its word counts and keyword query, computed now if
    ``result`` was built with ``explain=False`` (a preview can show itself first and explain after).
    Reads only; the same database state as ``result`` gives the same answer as ``explain=True``."""
    e = result.recall
    if e is None:
        raise ValueError("the result has no recall explanation")
    if e.detailed:
        return e
    before: tuple[int, int] | None = None
    if result.as_of is not None:
        before = (result.as_of, result.as_of_id if result.as_of_id is not None else _NEG_INF)
    raw = _ContextRawStore(db, before, cancel_check)
    return add_details(
        raw,
        e,
        message=result.message,
        trigger_snippet=None if result.trigger is None else result.trigger.snippet,
        session_ids=result.session_ids or None,
        before=before,
    )


def export_json(result: ContextResult | dict[str, Any], path: str | os.PathLike[str]) -> Path:
    """Write the command line's JSON (:meth:`ContextResult.to_json_text`) to ``path`` with mode 0600.

    The file is written next to its destination and renamed into place, so a reader never sees half a
    file and an existing file is replaced (its mode becomes 0600 too).
    """
    target = replaceable_target(path, "the context")  # never a FIFO, socket or device
    text = (
        result.to_json_text()
        if isinstance(result, ContextResult)
        else json.dumps(result, ensure_ascii=False, indent=2) + "\n"
    )
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=str(target.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            os.chmod(tmp, 0o600)
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return target
