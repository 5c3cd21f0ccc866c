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
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from core import recall_trigger
from core.context_result import BudgetUse, ContextResult, LeftOut, SearchModeName, TriggerInfo
from core.damage import row_notice
from core.errors import NotFoundError
from core.jsutil import estimate_tokens, js_trim, now_ms, utf16_len
from core.models import Message
from core.paths import replaceable_target
from core.prefix import SERVER_ONLY_SECTIONS, PrefixResult, build_memory_prefix
from core.recall import RetrieveOptions, RetrieveResult, TimelineRetriever, origin_prefix
from core.recall_explain import RecallExplanation, add_details, explain_recall
from core.substring import ProvingRawStore, SearchCancelledError
from core.timeline import RawStore, sanitize_query, span_finder

if TYPE_CHECKING:
    from core.db import MemoryDB

__all__ = [
    "DEFAULTS",
    "TIME_TRAVEL_LIMITS",
    "BudgetUse",
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

_NEG_INF = -(2**63)


class ContextCancelledError(SearchCancelledError):
    """Raised inside :func:`build_context` when ``cancel_check()`` became true (a newer request)."""


# --------------------------------------------------------------------------------------------------
# The timeline seen at a moment, remembering how the recall search ran
# --------------------------------------------------------------------------------------------------


class _Timeline:
    """What :class:`core.recall.TimelineRetriever` reads, seen at a moment (``before``: an exclusive
    ``(timestamp, id)`` bound): the rows of :attr:`store` (a :class:`ProvingRawStore`, whose substring
    fallback is proven from the index where it can be and cancelled before and during a scan), with how
    the last search ran, the time spent and the damaged rows given out."""

    def __init__(
        self,
        db: MemoryDB,
        before: tuple[int, int] | None = None,
        cancel_check: Callable[[], bool] | None = None,
    ):
        self.store = ProvingRawStore(db, cancel_check, cancel_error=ContextCancelledError)
        self.before = before
        self.last_mode: SearchModeName = "none"
        self.last_safe = ""
        self.last_found = 0
        self.last_limit = 0
        self.times: dict[str, float] = {}
        self.damaged: dict[int, Message] = {}

    def _given(self, rows: list[Message]) -> list[Message]:
        for m in rows:
            if m.damaged:
                self.damaged[m.id] = m
        return rows

    def query_timeline(
        self,
        order: Literal["asc", "desc"] = "desc",
        limit: int | None = 50,
        session_ids: Sequence[str] | None = None,
        origin_session_ids: Sequence[str] | None = None,
    ) -> list[Message]:
        """:meth:`RawStore.query_timeline` before the moment."""
        t = time.perf_counter()
        try:
            return self._given(
                self.store.query_timeline(order, limit, session_ids, origin_session_ids, before=self.before)
            )
        finally:
            self.times["recent_query"] = self.times.get("recent_query", 0.0) + time.perf_counter() - t

    def search_messages(
        self, query: str, *, session_ids: Sequence[str] | None = None, limit: int = 20
    ) -> list[Message]:
        """:meth:`RawStore.search_messages` before the moment, the mode recorded."""
        self.store.proof.check_cancel()
        t = time.perf_counter()
        safe = sanitize_query(query)
        self.last_safe = safe
        self.last_limit = limit
        if not safe:
            self.last_mode = "empty"
            return []
        try:
            rows, mode = self.store.search_with_mode(
                query, session_ids=session_ids, limit=limit, before=self.before
            )
        finally:
            self.times["recall_query"] = self.times.get("recall_query", 0.0) + time.perf_counter() - t
        self.last_mode = mode
        self.last_found = len(rows)
        return self._given(rows)


# --------------------------------------------------------------------------------------------------
# The computation
# --------------------------------------------------------------------------------------------------


def prefix_session_id(session_ids: Sequence[str]) -> str:
    """The session the prefix is built for: the one session when exactly one is given, else ``global``
    (as the command line does)."""
    ids = list(session_ids or ())
    return ids[0] if len(ids) == 1 else "global"


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
    ids = list(dict.fromkeys(session_ids or ()))  # as given, de-duplicated; "" filters like any id
    as_of, as_of_msg, before = _moment(db, as_of, as_of_id)
    ask = _Ask(
        message=message if isinstance(message, str) else str(message),
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
        before=before,
        now=(as_of if as_of is not None else now_ms()) if now is None else now,
        explain=explain,
    )
    return _Run(db, ask, cancel_check, t_start).build(prefix)


@dataclass(frozen=True)
class _Ask:
    """What :func:`build_context` was asked, normalised."""

    message: str
    session_ids: list[str]
    recent_budget: int | float
    recall_budget: int | float
    recent_limit: int
    recall_limit: int
    host_os: str | None
    home_session_id: str | None
    as_of: int | None
    as_of_id: int | None
    as_of_message: Message | None
    before: tuple[int, int] | None
    now: int
    explain: bool


def _moment(
    db: MemoryDB, as_of: int | None, as_of_id: int | None
) -> tuple[int | None, Message | None, tuple[int, int] | None]:
    """``(as_of, the as_of_id message, the exclusive (timestamp, id) bound)`` of the moment looked from."""
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
    return as_of, as_of_msg, before


def _ms(t: float) -> float:
    return (time.perf_counter() - t) * 1000


class _Run:
    """The steps of one :func:`build_context`, each timed (:attr:`timings`, ms) and preceded by a
    cancellation check (the trigger, which reads no database, is not)."""

    def __init__(self, db: MemoryDB, ask: _Ask, cancel_check: Callable[[], bool] | None, t_start: float):
        self.db = db
        self.ask = ask
        self.cancel_check = cancel_check
        self.t_start = t_start
        self.timings: dict[str, float] = {}
        self.raw = _Timeline(db, ask.before, cancel_check)

    def build(self, prefix: PrefixResult | None) -> ContextResult:
        a = self.ask
        psid = prefix_session_id(a.session_ids)
        self.check()
        if prefix is None:
            prefix = self.prefix(psid)
        else:
            self.timings["prefix"] = 0.0
        trigger = self.trigger()
        result = self.timeline()
        fields = self.details(result, prefix)
        fields.update(self.explain(result, trigger))
        self.timings["total"] = _ms(self.t_start)
        return ContextResult(
            message=a.message,
            session_ids=a.session_ids,
            recent_budget=a.recent_budget,
            recall_budget=a.recall_budget,
            recent_limit=a.recent_limit,
            recall_limit=a.recall_limit,
            host_os=a.host_os,
            home_session_id=a.home_session_id,
            as_of=a.as_of,
            as_of_id=a.as_of_id,
            as_of_message=a.as_of_message,
            now=int(a.now),
            prefix_session_id=psid,
            prefix=prefix,
            trigger=trigger,
            timeline=result,
            recall_query=js_trim(a.message),
            omitted={k: SERVER_ONLY_SECTIONS[k] for k in prefix.omitted if k in SERVER_ONLY_SECTIONS},
            limits=dict(TIME_TRAVEL_LIMITS) if a.as_of is not None else {},
            timings_ms=self.timings,
            **fields,
        )

    def check(self) -> None:
        if self.cancel_check is not None and self.cancel_check():
            raise ContextCancelledError()

    def prefix(self, psid: str) -> PrefixResult:
        """1. The memory prefix (does not depend on the message)."""
        a = self.ask
        t = time.perf_counter()
        prefix = build_memory_prefix(
            self.db, host_os=a.host_os, session_id=psid, bump_self=False, now=a.now, as_of=a.as_of
        )
        self.timings["prefix"] = _ms(t)
        return prefix

    def trigger(self) -> TriggerInfo | None:
        """2. The recall trigger (no database)."""
        t = time.perf_counter()
        hit = recall_trigger.detect(self.ask.message)
        info = (
            None
            if hit is None
            else TriggerInfo(
                hit=hit.hit,
                snippet=hit.snippet,
                pattern=hit.pattern,
                injected=recall_trigger.injected_text(hit.snippet),
            )
        )
        self.timings["trigger"] = _ms(t)
        return info

    def timeline(self) -> RetrieveResult:
        """3. The timeline."""
        a = self.ask
        self.check()
        t = time.perf_counter()
        opts = RetrieveOptions(
            recent_budget_tokens=a.recent_budget,
            recall_budget_tokens=a.recall_budget,
            recall_query=a.message,
            recent_limit_messages=a.recent_limit,
            recall_limit_candidates=a.recall_limit,
            restrict_to_session_ids=a.session_ids or None,
            home_session_id=a.home_session_id,
        )
        result = TimelineRetriever(self.raw).retrieve(opts)
        self.timings["timeline"] = _ms(t)
        self.timings["recent_query"] = self.raw.times.get("recent_query", 0.0) * 1000
        self.timings["recall_query"] = self.raw.times.get("recall_query", 0.0) * 1000
        return result

    def details(self, result: RetrieveResult, prefix: PrefixResult) -> dict[str, Any]:
        """4. For the viewer: highlights, what was left out, the budgets, the damaged rows."""
        self.check()
        t = time.perf_counter()
        left_out = _left_out(self.db, result)
        sys_tokens = {"recent": 0, "recall": 0}
        for left in left_out:
            if left.reason == "system_message" and left.tokens is not None:
                sys_tokens[left.section] += left.tokens
        notices = list(prefix.row_notices)
        for m in result.messages:
            d = self.raw.damaged.get(m.id) if m.id is not None else None
            if d is not None:
                notices.append(row_notice("messages", m.id, f"message #{m.id}", m.section, d.damaged))
        fields = {
            "highlights": _highlights(self.raw, result, self.ask.home_session_id),
            "left_out": left_out,
            "recent_tokens": _tokens(result, "recent") + sys_tokens["recent"],
            "recall_tokens": _tokens(result, "recall") + sys_tokens["recall"],
            "row_notices": notices,
        }
        self.timings["details"] = _ms(t)
        return fields

    def explain(self, result: RetrieveResult, trigger: TriggerInfo | None) -> dict[str, Any]:
        """5. Why the recall section holds what it holds."""
        self.check()
        t = time.perf_counter()
        raw, store = self.raw, self.raw.store
        a = self.ask
        message, recall_budget = a.message, a.recall_budget
        searched = utf16_len(js_trim(message)) >= 2 and recall_budget > 0
        substring = store.last_substring if searched and raw.last_mode == "like" else None
        recall = explain_recall(
            store,
            message=message,
            searched=searched,
            budget_zero=not recall_budget > 0,
            mode=raw.last_mode,
            safe=raw.last_safe,
            fts=store.last_fts if searched else None,
            substring=substring,
            found=raw.last_found if searched else 0,
            limit=a.recall_limit,
            recalled=result.recall_count,
            recalled_shown=sum(1 for m in result.messages if m.section == "recall"),
            all_recent=searched and raw.last_found > 0 and result.recall_count == 0,
            session_ids=a.session_ids or None,
            before=a.before,
            trigger_snippet=None if trigger is None else trigger.snippet,
            detailed=a.explain,
        )
        self.timings["explain"] = _ms(t)
        return {
            "search_mode": raw.last_mode,
            "search_safe": raw.last_safe,
            "substring": None if substring is None else substring.how,
            "recall": recall,
        }


def _tokens(result: RetrieveResult, section: str) -> int:
    return sum(m.tokens for m in result.messages if m.section == section)


def _highlights(raw: _Timeline, result: RetrieveResult, home: str | None) -> dict[int, list[tuple[int, int]]]:
    """The spans the recall search matched in each recalled message (after an origin prefix added)."""
    highlights: dict[int, list[tuple[int, int]]] = {}
    if raw.last_mode not in ("fts", "like") or not raw.last_safe:
        return highlights
    spans = span_finder(raw.last_safe, raw.last_mode)
    for m in result.messages:
        if m.section != "recall" or m.id is None:
            continue
        shift = 0
        content = m.content
        if m.origin_session_id and home and m.origin_session_id != home:
            op = origin_prefix(m.origin_session_id)
            if content.startswith(op):
                shift = len(op)
        found = spans(content[shift:])
        if found:
            highlights[m.id] = [(a + shift, b + shift) for a, b in found]
    return highlights


def _left_out(db: MemoryDB, result: RetrieveResult) -> list[LeftOut]:
    """The messages considered and left out, with their role, time and size."""
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
    return left_out


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
    return add_details(
        _Timeline(db, before, cancel_check).store,
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
