"""What-if strategies: the same turns recalled with another query, limit or budget.

* ``agent``: the agent's own recall (the baseline; the turn as replayed).
* ``terms-or``: the turn's distinctive terms (:mod:`core.replay.need`), each quoted for FTS5 and ORed
  (``"zephyrine" OR "张三丰"``), with the agent's candidate limit and recall budget.
* ``terms-or-wide``: the same query with :data:`WIDE_LIMIT` candidates and a recall budget of
  :data:`WIDE_BUDGET` tokens.

A strategy runs the recall step of :class:`core.recall.TimelineRetriever` (the same candidate limit with
its extra candidates, ordering, budget walk skipping the turn's recency window, ``system`` rows dropped)
over the messages before the turn; only the search is replaced, by the full-text step of
:mod:`core.search` with the strategy's query. A turn without distinctive terms recalls nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from core.context import DEFAULTS
from core.engine import sqlite3
from core.jsutil import estimate_tokens
from core.models import Message
from core.recall import EXTRA_CANDIDATES, budget_walk
from core.search import Filters, MessageSearch
from core.timeline import RawStore

if TYPE_CHECKING:
    from core.db import MemoryDB
    from core.replay.turn import AgentTurn

__all__ = [
    "STRATEGIES",
    "WIDE_BUDGET",
    "WIDE_LIMIT",
    "Strategy",
    "StrategyResult",
    "fts_or_query",
    "run_strategies",
    "run_strategy",
]

WIDE_LIMIT = 30
WIDE_BUDGET = 12000


@dataclass(frozen=True)
class Strategy:
    name: str
    query: Literal["agent", "terms-or"]
    recall_limit: int
    recall_budget: int


STRATEGIES: dict[str, Strategy] = {
    s.name: s
    for s in (
        Strategy("agent", "agent", DEFAULTS["recall_limit"], DEFAULTS["recall_budget"]),
        Strategy("terms-or", "terms-or", DEFAULTS["recall_limit"], DEFAULTS["recall_budget"]),
        Strategy("terms-or-wide", "terms-or", WIDE_LIMIT, WIDE_BUDGET),
    )
}


@dataclass(frozen=True)
class StrategyResult:
    recalled: list[int]
    tokens: int


def fts_or_query(terms: Sequence[str]) -> str:
    """The terms, each quoted for FTS5 (``"`` doubled), joined by ``OR``."""
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


def run_strategies(
    db: MemoryDB,
    names: Sequence[str],
    turn: AgentTurn,
    terms: Sequence[str],
    search: MessageSearch | None = None,
) -> dict[str, StrategyResult]:
    """The recall of ``turn`` under each strategy of ``names`` (reads only). The ``terms-or`` ones share
    one full-text query: the hits of a smaller limit are the first ones of a larger limit's (the same
    order, newest first). ``search``: the search to query with (default: the file's)."""
    out: dict[str, StrategyResult] = {}
    wanted = [STRATEGIES[n] for n in names]
    ors = [s for s in wanted if s.query == "terms-or"]
    hits: list[Message] = []
    if ors and terms:
        widest = max(s.recall_limit for s in ors)
        hits = _search(search or RawStore(db).searcher, turn, fts_or_query(terms), widest + EXTRA_CANDIDATES)
    for s in wanted:
        out[s.name] = run_strategy(db, s, turn, terms, hits)
    return out


def _search(search: MessageSearch, turn: AgentTurn, expression: str, limit: int) -> list[Message]:
    """The newest ``limit`` messages before the turn matching the FTS5 ``expression`` (in the turn's
    session when restricted); an FTS error counts as no rows, as the agent's search counts it."""
    m = turn.message
    before = (int(m.timestamp), m.id)
    f = Filters(session_ids=list(turn.restricted) if turn.restricted else None, before=before)
    try:
        return search.fts.page(expression, search.where(f), limit, None, before)
    except sqlite3.Error:
        return []


def run_strategy(
    db: MemoryDB, s: Strategy, turn: AgentTurn, terms: Sequence[str], hits: Sequence[Message] | None = None
) -> StrategyResult:
    """The recall of ``turn`` under strategy ``s`` (reads only): the retriever's recall step (candidate
    limit, oldest first, the budget walk skipping the recency window, ``system`` rows dropped) on the
    strategy's hits (``hits``: those of a limit at least ``s.recall_limit + EXTRA_CANDIDATES``, else
    searched here)."""
    if s.query == "agent":
        return StrategyResult(turn.recalled, turn.recall_tokens)
    if not terms:
        return StrategyResult([], 0)
    if hits is None:
        hits = _search(RawStore(db).searcher, turn, fts_or_query(terms), s.recall_limit + EXTRA_CANDIDATES)
    cands = sorted(hits[: s.recall_limit], key=lambda r: (r.timestamp, r.id))
    chosen, _used, _stop = budget_walk(cands, s.recall_budget, set(turn.recency))
    shown = [r for r in chosen if r.role != "system"]
    return StrategyResult([r.id for r in shown], sum(estimate_tokens(r.content) for r in shown))
