"""What-if strategies: the same turns recalled with another query, limit or budget.

* ``agent``: the agent's own recall (the baseline; the turn as replayed).
* ``terms-or``: the turn's distinctive terms (:mod:`core.replay.need`), each quoted for FTS5 and ORed
  (``"zephyrine" OR "张三丰"``), with the agent's candidate limit and recall budget.
* ``terms-or-wide``: the same query with :data:`WIDE_LIMIT` candidates and a recall budget of
  :data:`WIDE_BUDGET` tokens.

A strategy runs :class:`core.recall.TimelineRetriever` (the same recency, ordering and budget walk as
the agent) over the messages before the turn; only the search is replaced, by the full-text step of
:mod:`core.search` with the strategy's query. A turn without distinctive terms recalls nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from core.context import DEFAULTS
from core.engine import sqlite3
from core.models import Message
from core.recall import RetrieveOptions, TimelineRetriever
from core.search import Filters
from core.search.sql import Keyset
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


class _TermsSource:
    """The messages before ``before`` as :class:`core.recall.TimelineRetriever` reads them, searched with
    a fixed FTS5 expression (an FTS error counts as no rows, as the agent's search counts it)."""

    def __init__(self, db: MemoryDB, before: Keyset, expression: str):
        self.raw = RawStore(db)
        self.before = before
        self.expression = expression

    def query_timeline(
        self,
        order: Literal["asc", "desc"] = "desc",
        limit: int | None = 50,
        session_ids: Sequence[str] | None = None,
        origin_session_ids: Sequence[str] | None = None,
    ) -> list[Message]:
        return self.raw.query_timeline(order, limit, session_ids, origin_session_ids, before=self.before)

    def search_messages(
        self, query: str, *, session_ids: Sequence[str] | None = None, limit: int = 20
    ) -> list[Message]:
        if not self.expression:
            return []
        search = self.raw.searcher
        f = Filters(session_ids=list(session_ids) if session_ids else None, before=self.before)
        try:
            return search.fts.page(self.expression, search.where(f), limit, None, self.before)
        except sqlite3.Error:
            return []


def run_strategy(db: MemoryDB, s: Strategy, turn: AgentTurn, terms: Sequence[str]) -> StrategyResult:
    """The recall of ``turn`` under strategy ``s`` (reads only)."""
    if s.query == "agent":
        shown = [x for x in turn.context.timeline.messages if x.section == "recall"]
        return StrategyResult(turn.recalled, sum(x.tokens for x in shown))
    m = turn.message
    source = _TermsSource(db, (m.timestamp, m.id), fts_or_query(terms))
    opts = RetrieveOptions(
        recent_budget_tokens=DEFAULTS["recent_budget"],
        recall_budget_tokens=s.recall_budget,
        recall_query=m.content,
        recent_limit_messages=DEFAULTS["recent_limit"],
        recall_limit_candidates=s.recall_limit,
        restrict_to_session_ids=turn.restricted,
        home_session_id=m.origin_session_id or None,
    )
    result = TimelineRetriever(source).retrieve(opts)
    recalled = [x for x in result.messages if x.section == "recall" and x.id is not None]
    return StrategyResult([x.id for x in recalled if x.id is not None], sum(x.tokens for x in recalled))
