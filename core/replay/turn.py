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
  query and the agent's search through the same store methods, then the retriever's budget walk on
  their rows. A substring scan (no proof from the index: pieces under 3 characters, too many
  candidates) is kept per text and extended over the messages written since the previous turn
  instead of scanning the whole history again (:class:`ReplayProof`). A test compares both on every
  turn of the demo and of a planted history.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from core import recall_trigger
from core.context import DEFAULTS, ContextResult, build_context
from core.engine import sqlite3
from core.jsutil import estimate_tokens, js_trim, utf16_len
from core.models import Message
from core.prefix import PrefixResult
from core.prefix_text import SCHEDULED_SESSION_PREFIX
from core.recall import EXTRA_CANDIDATES
from core.replay.need import TopIds
from core.search import Filters, MessageSearch
from core.search.fts import FullTextIndex
from core.search.index_state import IndexState, index_state
from core.search.sql import FTS, MSG, Keyset, Where, keyset_cond, sanitize_query
from core.substring import SearchCancelledError, SubstringOutcome, SubstringProof
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


class ReplayCancelledError(SearchCancelledError):
    """Raised by :func:`core.replay.replay` when its ``cancelled()`` became true."""


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


#: A kept answer is extended over the rows written since it was kept when they are at most this many
#: ids, or when reading them (about :data:`GAP_ROW_SECONDS` each) costs less than answering anew did.
GAP_IDS = 2000
GAP_ROW_SECONDS = 1e-6

_Kept = tuple[tuple[int, int], list[int], Any, float]


class _Kept_:
    """Answers kept per ``(text, sessions, limit)`` with the bound they were computed for (the least
    recently used dropped past ``size``)."""

    SIZE = 50_000

    def __init__(self, size: int = SIZE):
        self.size = size
        self.items: OrderedDict[tuple[Any, ...], _Kept] = OrderedDict()

    @staticmethod
    def key(safe: str, f: Filters, limit: Any) -> tuple[Any, ...] | None:
        """The key of a search the kept answers apply to (a plain bound, a positive limit, only the
        sessions as filter), else None."""
        b = f.before
        if b is None or type(b[0]) is not int or type(limit) is not int or limit <= 0:
            return None
        if (f.since, f.until, f.roles, f.conversations) != (None, None, None, None):
            return None
        return (safe, tuple(f.session_ids or ()), limit)

    def get(self, key: tuple[Any, ...], before: tuple[int, int]) -> _Kept | None:
        kept = self.items.get(key)
        if kept is None or not kept[0] < before:
            return None
        gap = before[1] - kept[0][1]
        if gap > GAP_IDS and gap * GAP_ROW_SECONDS > kept[3]:
            return None
        self.items.move_to_end(key)
        return kept

    def put(
        self, key: tuple[Any, ...], before: tuple[int, int], rows: Sequence[Message], extra: Any, cost: float
    ) -> None:
        """Keep ``rows`` (and ``extra``) for ``before``; ``cost``: the seconds answering anew took."""
        self.items[key] = (before, [r.id for r in rows], extra, cost)
        self.items.move_to_end(key)
        if len(self.items) > self.size:
            self.items.popitem(last=False)


def _gap_where(f: Filters, since: tuple[int, int]) -> Where:
    """The rows from ``since`` (inclusive) to ``f.before`` (exclusive)."""
    w = Where()
    keyset_cond(w, "m.", f.before, (since[0], since[1] - 1))
    return w


class ReplayProof(SubstringProof):
    """The substring step of the agent's search (:class:`core.substring.SubstringProof`: from the index
    when provably the same as the scan, else the scan) whose answers are kept per text (see
    :class:`ReplaySearch`); how the step was answered (proven or scanned) depends on the text and the
    index only, so it is kept too."""

    def __init__(self, db: MemoryDB, cancel_check: Callable[[], bool] | None = None):
        super().__init__(db, cancel_check, cancel_error=ReplayCancelledError)
        self.kept = _Kept_()
        self.top: int | None = None  # the greatest id before the current turn (TurnReader sets it)
        self._candidates: OrderedDict[str, int] = OrderedDict()

    def _from_candidates(
        self,
        search: MessageSearch,
        safe: str,
        f: Filters,
        limit: Any,
        query: str,
        pieces: list[str],
        state: IndexState,
    ) -> tuple[list[Message] | None, SubstringOutcome]:
        """:meth:`SubstringProof._from_candidates` with the candidates read only up to :attr:`top` (a
        row before the turn has no greater id). Whether there are too many candidates (then the scan
        runs) is decided over the whole index as there: when a piece has at most that many, so has the
        conjunction; else the conjunction is counted. Each count once per replay."""
        top = self.top
        if top is None or f.before is None:
            return super()._from_candidates(search, safe, f, limit, query, pieces, state)
        cap = self.candidate_cap
        try:
            with self.db.lock:
                longest = sorted(pieces, key=len, reverse=True)  # the rarest first, likely
                n = next((c for c in (self._count(f'"{p}"', cap) for p in longest) if c <= cap), cap + 1)
                if n > cap:  # every piece is common: count them together
                    n = self._count(query, cap)
                if n > cap:
                    return None, SubstringOutcome(
                        "scanned", "substring.candidates", {"cap": cap, "pieces": pieces}, index=state
                    )
                sql = f"SELECT rowid FROM {FTS} WHERE {FTS} MATCH ? AND rowid <= ?"
                cands = [r[0] for r in self.db.conn.execute(sql, (query, top))]
        except sqlite3.Error:
            return super()._from_candidates(search, safe, f, limit, query, pieces, state)
        if not cands:
            return [], SubstringOutcome("proven", "substring.proven_miss", {"pieces": pieces}, index=state)
        w = search.where(f)
        sql = (
            f"SELECT m.* FROM json_each(?) AS j CROSS JOIN {MSG} AS m ON m.id = j.value "
            f"WHERE m.content LIKE '%' || ? || '%'{w.and_sql()} "
            "ORDER BY m.timestamp DESC, m.id DESC LIMIT ?"
        )
        rows = search.raw.select(sql, (json.dumps(cands), safe, *w.args, limit))
        return rows, SubstringOutcome(
            "proven",
            "substring.proven_rows",
            {"pieces": pieces, "candidates": len(cands), "rows": len(rows)},
            index=state,
        )

    def substring(self, search: MessageSearch, safe: str, f: Filters, limit: Any) -> list[Message]:
        key = _Kept_.key(safe, f, limit)
        kept = None if key is None or f.before is None else self.kept.get(key, f.before)
        if key is None or f.before is None:
            return super().substring(search, safe, f, limit)
        if kept is not None:
            self.check_cancel()
            rest = Where()
            rest.add("m.content LIKE '%' || ? || '%'", safe)
            gap = search.raw.select_ordered(_gap_where(f, kept[0]), rest, f.session_ids, limit)
            rows = (gap + search.raw.get_messages(kept[1]))[:limit]
            outcome, cost = replace(kept[2], rows=len(rows)), kept[3]
        else:
            t = time.perf_counter()
            rows = super().substring(search, safe, f, limit)
            if self.last_substring is None:
                return rows
            outcome, cost = self.last_substring, time.perf_counter() - t
        self.kept.put(key, f.before, rows, outcome, cost)
        self.last_substring = outcome
        return rows

    def _count(self, query: str, cap: int) -> int:
        """How many rows of the whole index match ``query``, counting up to ``cap + 1``."""
        n = self._candidates.get(query)
        if n is None:
            sql = f"SELECT count(*) FROM (SELECT 1 FROM {FTS} WHERE {FTS} MATCH ? LIMIT ?)"
            n = int(self.db.conn.execute(sql, (query, cap + 1)).fetchone()[0])
            self._candidates[query] = n
            if len(self._candidates) > _Kept_.SIZE:
                self._candidates.popitem(last=False)
        return n


class _BoundedIndex(FullTextIndex):
    """The full-text queries of :class:`core.search.fts.FullTextIndex` with ``rowid <= top`` (the
    greatest id before the turn, :attr:`ReplayProof.top`) added: the same hits, without reading those
    of the rows written after the turn."""

    def __init__(self, raw: RawStore, proof: ReplayProof):
        super().__init__(raw)
        self.proof = proof

    def page(
        self, safe: str, w: Where, k: int | None, until: float | None, before: Keyset | None
    ) -> list[Message]:
        top = self.proof.top
        if top is not None and before is not None:
            w = w.copy()
            w.add(f"{FTS}.rowid <= ?", top)
        return super().page(safe, w, k, until, before)


class ReplaySearch(MessageSearch):
    """The agent's search (:class:`core.search.MessageSearch`) whose full-text answers are kept per
    text: the newest ``limit`` hits before a turn are those kept at an earlier turn with the hits among
    the rows written in between in front (looked up in the index over those rows' id range). Valid
    because the replay's turns come in ``(timestamp, id)`` order and the step's rows are the newest
    ``limit`` hits before the bound; an FTS5 error depends on the text only and is kept too. A bound
    that does not move forward, or a gap that costs more to read than answering anew
    (:data:`GAP_IDS`), asks the index again. The substring step is a :class:`ReplayProof`."""

    def __init__(self, raw: RawStore, proof: ReplayProof):
        super().__init__(raw, proof)
        self.proof = proof
        self.kept = _Kept_()
        self.fts = _BoundedIndex(raw, proof)

    def _full_text(self, safe: str, f: Filters, limit: Any) -> list[Message]:
        key = _Kept_.key(safe, f, limit)
        kept = None if key is None or f.before is None else self.kept.get(key, f.before)
        if key is None or f.before is None:
            return super()._full_text(safe, f, limit)
        if kept is None:
            t = time.perf_counter()
            rows = super()._full_text(safe, f, limit)
            fts = self.proof.last_fts
            error = None if fts is None else fts.error
            self.kept.put(key, f.before, rows, error, time.perf_counter() - t)
            return rows
        if kept[2] is not None:
            self.proof.fts_ran(0, kept[2], True)
            self.kept.put(key, f.before, [], kept[2], kept[3])
            return []
        ids = [i for _t, i in sorted(self._gap_hits(safe, f, kept[0]), reverse=True)] + kept[1]
        rows = self.raw.get_messages(ids[:limit])
        self.proof.fts_ran(len(rows), None, True)
        self.kept.put(key, f.before, rows, None, kept[3])
        return rows

    def _gap_hits(self, safe: str, f: Filters, since: tuple[int, int]) -> list[tuple[int, int]]:
        """The hits among the rows from ``since`` to ``f.before``, ``(timestamp, id)``, looked up in
        the index over those rows' id range."""
        w = _gap_where(f, since)
        with self.db.lock:
            lo, hi = self.db.conn.execute(
                f"SELECT min(id), max(id) FROM {MSG} AS m{w.where_sql()}", w.args
            ).fetchone()
            if lo is None:
                return []
            w = self.where(f)  # the turn's bound and sessions
            keyset_cond(w, "m.", None, (since[0], since[1] - 1))
            sql = (
                f"SELECT m.timestamp, m.id FROM {FTS} CROSS JOIN {MSG} AS m ON m.id = {FTS}.rowid "
                f"WHERE {FTS} MATCH ? AND {FTS}.rowid BETWEEN ? AND ?{w.and_sql()}"
            )
            return [(r[0], r[1]) for r in self.db.conn.execute(sql, (safe, lo, hi, *w.args))]


class TurnReader:
    """The agent's turns of one replay (:class:`AgentTurn`, equal to :func:`agent_turn`'s), reading
    only what recall uses. ``cancel_check`` is asked before each search and during a scan."""

    def __init__(self, db: MemoryDB, cancel_check: Callable[[], bool] | None = None):
        self.proof = ReplayProof(db, cancel_check)
        self.store = RawStore(db, substring=self.proof)
        self.store.searcher = ReplaySearch(self.store, self.proof)
        self.tops = TopIds(db)
        with db.lock:
            self.indexed = index_state(db).consistent
        self.recent_budget = DEFAULTS["recent_budget"]
        self.recall_budget = DEFAULTS["recall_budget"]
        self.recent_limit = DEFAULTS["recent_limit"]
        self.recall_limit = DEFAULTS["recall_limit"]

    def recency(self, m: Message, restricted: list[str] | None) -> tuple[list[Message], int]:
        """The recency window at ``m`` (chronological, ``system`` rows included) and its tokens."""
        chosen, used, _stop = walk(self._recent_rows(m, restricted), self.recent_budget)
        chosen.reverse()
        return chosen, used

    def _recent_rows(self, m: Message, restricted: list[str] | None) -> list[Message]:
        """The agent's recency query (:meth:`core.timeline.RawStore.query_timeline`: the newest rows
        before ``m`` of its home conversation or of no known origin). With a home and no session
        restriction it is answered as two reads of the origin index, one per side of that ``OR``, merged:
        the same rows, without walking every newer row of other conversations."""
        home = m.origin_session_id or None
        before = (int(m.timestamp), m.id)
        store = self.store
        if home is None or restricted or not store.has_origin() or not store.has_origin_index():
            return store.query_timeline(
                "desc", self.recent_limit, restricted, [home] if home else None, before=before
            )
        w = Where()
        keyset_cond(w, "m.", before, None)
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
        rows.sort(key=lambda r: (r.timestamp, r.id), reverse=True)
        return rows[: self.recent_limit]

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
        chosen, used, stop = walk(cands, self.recall_budget, recent_ids)
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


def walk(
    rows: Sequence[Message], budget: float, skip: set[int] | None = None
) -> tuple[list[Message], int, int]:
    """The reference's budget walk (:class:`core.recall.TimelineRetriever`): the first message is
    always taken; the walk stops at the first message that would push the total past the budget.
    Returns ``(chosen, tokens, stop_index)``."""
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
