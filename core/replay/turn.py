"""One user turn replayed: the agent's timeline as of that message, through :func:`core.context.build_context`
(the Context preview's computation: the recall trigger, :class:`core.recall.TimelineRetriever`, the search
of :mod:`core.search` and the substring proof of :mod:`core.substring`), and why recall missed.

The turn is computed as the agent's server computes it (spec §4.1, Part B §7): only the messages before
the user's message (by ``(timestamp, id)``), the default budgets and limits (:data:`core.context.DEFAULTS`),
``restrictToSessionIds=[session]`` for a scheduled session (``system:scheduled:…``), and the message's
origin as the home conversation when it has one. The memory prefix does not take part in recall and is
not rebuilt.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.context import DEFAULTS, ContextResult, build_context
from core.models import Message
from core.prefix import PrefixResult
from core.prefix_text import SCHEDULED_SESSION_PREFIX

if TYPE_CHECKING:
    from core.db import MemoryDB

__all__ = ["AgentTurn", "Miss", "agent_turn", "miss_cause", "restriction"]

# The prefix is not part of recall: an empty one is passed so that it is not rebuilt every turn.
_NO_PREFIX = PrefixResult(text="")


@dataclass(frozen=True)
class AgentTurn:
    """What the agent had at one user message."""

    message: Message
    context: ContextResult
    restricted: list[str] | None
    recalled: list[int]
    recency: list[int]
    path: str
    tokens: int


@dataclass(frozen=True)
class Miss:
    code: str
    params: dict[str, Any]


def restriction(m: Message) -> list[str] | None:
    """``restrictToSessionIds`` as the agent's server passes it for the session of ``m``."""
    sid = m.session_id
    if sid.startswith(SCHEDULED_SESSION_PREFIX):
        return [sid]
    return None


def _path(r: ContextResult) -> str:
    """How recall was answered: ``fts``, ``substring_scan``, ``substring_proven`` (answered from the
    trigram index without a scan), ``empty`` (nothing left to query) or ``none`` (no recall ran)."""
    if r.search_mode == "like":
        return "substring_proven" if r.substring == "proven" else "substring_scan"
    return r.search_mode


def agent_turn(db: MemoryDB, m: Message) -> AgentTurn:
    """The agent's turn at user message ``m`` (reads only)."""
    restricted = restriction(m)
    r = build_context(
        db,
        m.content,
        session_ids=restricted or (),
        home_session_id=m.origin_session_id or None,
        as_of_id=m.id,
        prefix=_NO_PREFIX,
        explain=False,
        recent_budget=DEFAULTS["recent_budget"],
        recall_budget=DEFAULTS["recall_budget"],
        recent_limit=DEFAULTS["recent_limit"],
        recall_limit=DEFAULTS["recall_limit"],
    )
    t = r.timeline
    recency = [x.id for x in t.messages if x.section == "recent" and x.id is not None]
    recency += [e.id for e in t.excluded if e.section == "recent" and e.reason == "system_message"]
    return AgentTurn(
        message=m,
        context=r,
        restricted=restricted,
        recalled=[x.id for x in t.messages if x.section == "recall" and x.id is not None],
        recency=sorted(recency),
        path=_path(r),
        tokens=t.total_tokens,
    )


def miss_cause(turn: AgentTurn, needed: Sequence[int], rows: dict[int, Message]) -> Miss:
    """The one cause of a turn whose recall holds none of ``needed`` (see :mod:`core.replay.causes`)."""
    r = turn.context
    if turn.restricted:
        outside = [i for i in needed if i in rows and rows[i].session_id not in turn.restricted]
        if len(outside) == len(needed):
            return Miss(
                "replay.cause.session_restricted", {"id": outside[0], "session": rows[outside[0]].session_id}
            )
        needed = [i for i in needed if i not in outside]
    if turn.path == "none":
        return Miss("replay.cause.not_searched", {})
    considered = [e for e in r.timeline.excluded if e.section == "recall"]
    if not turn.recalled and not considered:
        fts = r.recall.fts if r.recall is not None else {}
        if not fts.get("ran") or fts.get("error") is not None:
            return Miss("replay.cause.query_failed", {"path": turn.path})
        return _no_overlap(r, needed, rows)
    cut = _budget_cut(r, needed)
    if cut is not None:
        return cut
    for e in considered:
        if e.reason == "candidate_limit" and e.id in needed:
            return Miss("replay.cause.candidate_limit", {"id": e.id, "limit": r.recall_limit})
    if turn.path == "fts" and _no_overlap(r, needed, rows).params["missing"] is None:
        return Miss("replay.cause.candidate_limit", {"id": needed[0], "limit": r.recall_limit})
    return _no_overlap(r, needed, rows)


def _no_overlap(r: ContextResult, needed: Sequence[int], rows: dict[int, Message]) -> Miss:
    """The first needed message lacking a word of the full-text query (``missing``: that word; None
    when every needed message holds every word, or the search was the substring scan)."""
    if r.search_mode == "fts" or (r.recall is not None and r.recall.fts.get("ran")):
        words = r.search_safe.split()
        for i in needed:
            content = rows[i].content.lower() if i in rows else ""
            missing = next((w for w in words if len(w) < 3 or w.lower() not in content), None)
            if missing is not None:
                return Miss("replay.cause.no_overlap", {"id": i, "missing": missing})
    return Miss("replay.cause.no_overlap", {"id": needed[0], "missing": None})


def _budget_cut(r: ContextResult, needed: Sequence[int]) -> Miss | None:
    """A needed candidate dropped by the recall budget, with how many tokens were missing."""
    want = set(needed)
    used = r.recall_tokens
    for left in r.left_out:
        if left.section != "recall" or left.reason != "over_budget":
            continue
        used += left.tokens or 0
        if left.id in want:
            return Miss("replay.cause.budget_cut", {"id": left.id, "tokens": int(used - r.recall_budget)})
    return None
