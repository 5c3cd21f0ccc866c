"""One user turn replayed: the agent's timeline as of that message, and why recall missed.

The turn is computed as the agent's server computes it (spec §4.1, Part B §7): only the messages before
the user's message (by ``(timestamp, id)``), the default budgets and limits (:data:`core.context.DEFAULTS`),
``restrictToSessionIds=[session]`` for a scheduled session (``system:scheduled:…``), and the message's
origin as the home conversation when it has one. The memory prefix does not take part in recall and is
not rebuilt.

Two computations give the same :class:`AgentTurn`:

* :func:`agent_turn`: one :func:`core.context.build_context` call (the Context preview's computation:
  the recall trigger, :class:`core.recall.TimelineRetriever`, the search of :mod:`core.search` and the
  substring proof of :mod:`core.substring`); the reference, a few milliseconds a turn;
* :class:`TurnReader`: what the replay runs. The same steps without what a preview adds (highlights,
  the recall explanation, the left-out rows read again, the retriever's output objects): the recency
  query and the agent's search (:class:`core.replay.search.ReplaySearch`: the same rows, with what a
  turn found kept for the later turns sending the same text) through the same store methods, then the
  retriever's budget walk on their rows. A test compares both on every turn of the demo and of a
  planted history.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core import recall_trigger
from core.context import DEFAULTS, ContextResult, build_context
from core.jsutil import estimate_tokens, js_trim, utf16_len
from core.models import Message
from core.prefix import PrefixResult
from core.prefix_text import SCHEDULED_SESSION_PREFIX
from core.recall import EXTRA_CANDIDATES, budget_walk
from core.replay.search import ReplayCancelledError, ReplayProof, ReplaySearch
from core.replay.tops import TopIds
from core.search.index_state import index_state
from core.search.sql import MSG, Where, keyset_cond, sanitize_query
from core.timeline import RawStore

if TYPE_CHECKING:
    from core.db import MemoryDB

__all__ = [
    "AgentTurn",
    "Miss",
    "ReplayCancelledError",
    "ReplayProof",
    "TurnReader",
    "agent_turn",
    "miss_cause",
    "restriction",
]

# The prefix is not part of recall: an empty one is passed so that it is not rebuilt every turn.
_NO_PREFIX = PrefixResult(text="")
#: The recency windows kept, one per home conversation, the least recently used dropped first.
WINDOWS_KEPT = 64


@dataclass(frozen=True)
class AgentTurn:
    """What the agent had at one user message.

    ``recalled``: the recall section's messages (``system`` ones dropped); ``recency``: the recency
    window's ids (``system`` ones included: they were counted); ``tokens``: the timeline's total;
    ``recall_tokens``: the recall section's tokens as given; ``walk_tokens``: the recall budget used
    (``system`` rows counted); ``excluded``: the recall candidates left out, ``(id, reason)`` in the
    retriever's order; ``over``: the tokens of each candidate cut by the budget.
    """

    message: Message
    restricted: list[str] | None
    recalled: list[int]
    recency: list[int]
    path: str
    tokens: int
    trigger: str | None = None
    recall_tokens: int = 0
    walk_tokens: int = 0
    search_safe: str = ""
    fts_ran: bool = False
    fts_error: str | None = None
    excluded: list[tuple[int, str]] = field(default_factory=list)
    over: dict[int, int] = field(default_factory=dict)
    recall_limit: int = DEFAULTS["recall_limit"]
    recall_budget: int = DEFAULTS["recall_budget"]
    damaged: list[int] = field(default_factory=list)


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


def _path(search_mode: str, substring: str | None) -> str:
    """How recall was answered: ``fts``, ``substring_scan``, ``substring_proven`` (answered from the
    trigram index without a scan), ``empty`` (nothing left to query) or ``none`` (no recall ran)."""
    if search_mode == "like":
        return "substring_proven" if substring == "proven" else "substring_scan"
    return search_mode


def _damaged_ids(m: Message, given: Sequence[Message]) -> list[int]:
    ids = {g.id for g in given if g.damaged}
    if m.damaged:
        ids.add(m.id)
    return sorted(ids)


def agent_turn(db: MemoryDB, m: Message) -> AgentTurn:
    """The agent's turn at user message ``m`` through :func:`core.context.build_context` (reads only)."""
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
    return _from_context(m, restricted, r)


def _from_context(m: Message, restricted: list[str] | None, r: ContextResult) -> AgentTurn:
    t = r.timeline
    recency = [x.id for x in t.messages if x.section == "recent" and x.id is not None]
    recency += [e.id for e in t.excluded if e.section == "recent" and e.reason == "system_message"]
    shown = [x for x in t.messages if x.section == "recall" and x.id is not None]
    ids = {int(n.params["id"]) for n in r.row_notices if isinstance(n.params.get("id"), int)}
    if m.damaged:
        ids.add(m.id)
    fts = r.recall.fts if r.recall is not None else {}
    return AgentTurn(
        message=m,
        restricted=restricted,
        recalled=[x.id for x in shown if x.id is not None],
        recency=sorted(recency),
        path=_path(r.search_mode, r.substring),
        tokens=t.total_tokens,
        trigger=None if r.trigger is None else r.trigger.snippet,
        recall_tokens=sum(x.tokens for x in shown),
        walk_tokens=r.recall_tokens,
        search_safe=r.search_safe,
        fts_ran=bool(fts.get("ran")),
        fts_error=fts.get("error"),
        excluded=[(e.id, e.reason) for e in t.excluded if e.section == "recall"],
        over={x.id: x.tokens or 0 for x in r.left_out if x.section == "recall" and x.reason == "over_budget"},
        recall_limit=int(r.recall_limit),
        recall_budget=int(r.recall_budget),
        damaged=sorted(ids),
    )


# --------------------------------------------------------------------------------------------------
# The replay's computation
# --------------------------------------------------------------------------------------------------


class TurnReader:
    """The agent's turns of one replay (:class:`AgentTurn`, equal to :func:`agent_turn`'s), reading
    only what recall uses. ``cancel_check`` is asked before each search and during a scan."""

    def __init__(self, db: MemoryDB, cancel_check: Callable[[], bool] | None = None):
        self.proof = ReplayProof(db, cancel_check)
        self.store = RawStore(db, substring=self.proof)
        self.store.searcher = ReplaySearch(self.store, self.proof)
        self.tops = TopIds(db)
        self.proof.tops = self.tops
        with db.lock:
            self.indexed = index_state(db).consistent
        self._windows: OrderedDict[str, tuple[tuple[int, int], list[Message]]] = OrderedDict()
        self.recent_budget = DEFAULTS["recent_budget"]
        self.recall_budget = DEFAULTS["recall_budget"]
        self.recent_limit = DEFAULTS["recent_limit"]
        self.recall_limit = DEFAULTS["recall_limit"]

    def recency(self, m: Message, restricted: list[str] | None) -> tuple[list[Message], int]:
        """The recency window at ``m`` (chronological, ``system`` rows included) and its tokens."""
        chosen, used, _stop = budget_walk(self._recent_rows(m, restricted), self.recent_budget)
        chosen.reverse()
        return chosen, used

    def _recent_rows(self, m: Message, restricted: list[str] | None) -> list[Message]:
        """The agent's recency query (:meth:`core.timeline.RawStore.query_timeline`: the newest rows
        before ``m`` of its home conversation or of no known origin). With a home and no session
        restriction it is answered as two reads of the origin index, one per side of that ``OR``, merged:
        the same rows, without walking every newer row of other conversations. The window is kept per
        home (the last :data:`WINDOWS_KEPT` homes): the next turn of that home reads only the rows from
        the kept turn to it, and its window is the newest of those and of the kept window (every other
        row before the kept turn is older than the kept window's), as the search's kept answers are
        extended over the rows since."""
        home = m.origin_session_id or None
        before = (int(m.timestamp), m.id)
        store = self.store
        if home is None or restricted or not store.has_origin() or not store.has_origin_index():
            return store.query_timeline(
                "desc", self.recent_limit, restricted, [home] if home else None, before=before
            )
        kept = self._windows.pop(home, None)
        since = kept[0] if kept is not None and kept[0] <= before else None
        w = Where()
        keyset_cond(w, "m.", before, None if since is None else (since[0], since[1] - 1))
        order = f"{w.and_sql()} ORDER BY m.timestamp DESC, m.id DESC LIMIT ?"
        rows = store.select(
            f"SELECT m.* FROM {MSG} AS m WHERE m.origin_session_id = ?{order}",
            (home, *w.args, self.recent_limit),
        )
        rows += store.select(
            f"SELECT m.* FROM {MSG} AS m WHERE m.origin_session_id IS NULL{order}",
            (*w.args, self.recent_limit),
        )
        if any(type(r.timestamp) is not int for r in rows):  # a damaged time sorts as stored: ask SQLite
            return store.query_timeline("desc", self.recent_limit, None, [home], before=before)
        if since is not None and kept is not None:
            rows += kept[1]  # the window at ``since``: the newest rows before it
        rows.sort(key=lambda r: (r.timestamp, r.id), reverse=True)
        rows = rows[: self.recent_limit]
        self._windows[home] = (before, rows)
        if len(self._windows) > WINDOWS_KEPT:
            self._windows.popitem(last=False)
        return rows

    def search(self, m: Message, restricted: list[str] | None, limit: int) -> tuple[list[Message], str, str]:
        """The agent's recall search at ``m``: ``(rows, path, safe)``."""
        self.proof.check_cancel()
        self.proof.last_fts = None
        self.proof.last_substring = None
        query = js_trim(m.content)
        safe = sanitize_query(query)
        if not safe:
            return [], "empty", safe
        rows, mode = self.store.search_with_mode(
            query, session_ids=restricted, limit=limit, before=(int(m.timestamp), m.id)
        )
        sub = self.proof.last_substring
        return rows, _path(mode, None if sub is None else sub.how), safe

    def turn(self, m: Message) -> AgentTurn:
        """The agent's turn at user message ``m`` (reads only)."""
        restricted = restriction(m)
        self.proof.top = self.tops.top((int(m.timestamp), m.id)) if self.indexed else None
        recent, recent_tokens = self.recency(m, restricted)
        recent_ids = {r.id for r in recent}
        hit = recall_trigger.detect(m.content)
        base: dict[str, Any] = {
            "message": m,
            "restricted": restricted,
            "recency": sorted(recent_ids),
            "trigger": None if hit is None else hit.snippet,
            "recall_limit": self.recall_limit,
            "recall_budget": self.recall_budget,
        }
        given = [r for r in recent if r.role != "system"]
        if not (utf16_len(js_trim(m.content)) >= 2 and self.recall_budget > 0):
            return AgentTurn(
                recalled=[], path="none", tokens=recent_tokens, damaged=_damaged_ids(m, given), **base
            )
        lim = self.recall_limit
        hits, path, safe = self.search(m, restricted, lim + EXTRA_CANDIDATES)
        cands = sorted(hits[:lim], key=lambda r: (r.timestamp, r.id))
        chosen, used, stop = budget_walk(cands, self.recall_budget, recent_ids)
        excluded: list[tuple[int, str]] = []
        over: dict[int, int] = {}
        for i, r in enumerate(cands):
            if r.id in recent_ids:
                excluded.append((r.id, "already_recent"))
            elif i >= stop:
                excluded.append((r.id, "over_budget"))
                over[r.id] = estimate_tokens(r.content)
        excluded += [(r.id, "candidate_limit") for r in hits[lim:]]
        excluded += [(r.id, "system_message") for r in chosen if r.role == "system"]
        shown = [r for r in chosen if r.role != "system"]
        fts = self.proof.last_fts
        return AgentTurn(
            recalled=[r.id for r in shown],
            path=path,
            tokens=recent_tokens + used,
            recall_tokens=sum(estimate_tokens(r.content) for r in shown),
            walk_tokens=used,
            search_safe=safe,
            fts_ran=fts is not None,
            fts_error=None if fts is None else fts.error,
            excluded=excluded,
            over=over,
            damaged=_damaged_ids(m, given + shown),
            **base,
        )


# --------------------------------------------------------------------------------------------------
# The cause of a miss
# --------------------------------------------------------------------------------------------------


def miss_cause(turn: AgentTurn, needed: Sequence[int], rows: dict[int, Message]) -> Miss:
    """The one cause of a turn whose recall holds none of ``needed`` (see :mod:`core.replay.causes`)."""
    late = [i for i in needed if i > turn.message.id]
    if late and len(late) == len(needed):
        return Miss("replay.cause.not_yet_written", {"id": late[0]})
    needed = [i for i in needed if i not in late]
    if turn.restricted:
        outside = [i for i in needed if i in rows and rows[i].session_id not in turn.restricted]
        if len(outside) == len(needed):
            return Miss(
                "replay.cause.session_restricted", {"id": outside[0], "session": rows[outside[0]].session_id}
            )
        needed = [i for i in needed if i not in outside]
    if turn.path == "none":
        return Miss("replay.cause.not_searched", {})
    if not turn.recalled and not turn.excluded:
        if not turn.fts_ran or turn.fts_error is not None:
            return Miss("replay.cause.query_failed", {"path": turn.path})
        return _no_overlap(turn, needed, rows)
    cut = _budget_cut(turn, needed)
    if cut is not None:
        return cut
    for i, reason in turn.excluded:
        if reason == "candidate_limit" and i in needed:
            return Miss("replay.cause.candidate_limit", {"id": i, "limit": turn.recall_limit})
    if turn.path == "fts" and _no_overlap(turn, needed, rows).params["missing"] is None:
        return Miss("replay.cause.candidate_limit", {"id": needed[0], "limit": turn.recall_limit})
    return _no_overlap(turn, needed, rows)


def _no_overlap(turn: AgentTurn, needed: Sequence[int], rows: dict[int, Message]) -> Miss:
    """The first needed message lacking a word of the full-text query (``missing``: that word; None
    when every needed message holds every word, or the search was the substring scan)."""
    if turn.path == "fts" or turn.fts_ran:
        words = turn.search_safe.split()
        for i in needed:
            content = rows[i].content.lower() if i in rows else ""
            missing = next((w for w in words if len(w) < 3 or w.lower() not in content), None)
            if missing is not None:
                return Miss("replay.cause.no_overlap", {"id": i, "missing": missing})
    return Miss("replay.cause.no_overlap", {"id": needed[0], "missing": None})


def _budget_cut(turn: AgentTurn, needed: Sequence[int]) -> Miss | None:
    """A needed candidate dropped by the recall budget, with how many tokens were missing."""
    want = set(needed)
    used = turn.walk_tokens
    for i, reason in turn.excluded:
        if reason != "over_budget":
            continue
        used += turn.over.get(i, 0)
        if i in want:
            return Miss("replay.cause.budget_cut", {"id": i, "tokens": int(used - turn.recall_budget)})
    return None
