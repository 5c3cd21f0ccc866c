"""The replay of a range of user turns: each turn as the agent had it, what it needed (an estimate), hit
or miss with the cause, and the what-if strategies; the summary and the JSON of ``replay --json``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core.errors import Notice, ValidationError_
from core.models import Message
from core.replay.causes import cause_notice
from core.replay.need import NeedIndex, NeedRule, TurnNeed, needed_ids
from core.replay.relearn import Relearned, attribute, relearned_facts
from core.replay.strategies import STRATEGIES, run_strategy
from core.replay.turn import AgentTurn, agent_turn, miss_cause
from core.timeline import RawStore

if TYPE_CHECKING:
    from core.db import MemoryDB

__all__ = ["Replay", "ReplayOptions", "TurnReport", "WhatIf", "replay"]

PAGE = 2000  # messages read at a time while the history is counted


@dataclass(frozen=True)
class ReplayOptions:
    """The range (``since`` / ``until`` inclusive epoch ms, ``origin`` a conversation of
    :mod:`core.conversations`, ``after_id`` only the user turns with a greater id (those written since a
    saved replay), ``limit`` the newest N user turns of the range), the strategies and the need rule."""

    since: int | None = None
    after_id: int | None = None
    until: int | None = None
    origin: str | None = None
    limit: int | None = None
    strategies: tuple[str, ...] = tuple(STRATEGIES)
    rule: NeedRule = field(default_factory=NeedRule)


@dataclass(frozen=True)
class WhatIf:
    recalled: list[int]
    hit: bool | None
    tokens: int

    def to_json(self) -> dict[str, Any]:
        return {"recalled": self.recalled, "hit": self.hit, "tokens": self.tokens}


@dataclass(frozen=True)
class TurnReport:
    """One replayed user turn. ``hit`` is None without a need; ``cause`` is set on a miss."""

    message: Message
    trigger: str | None
    recalled: list[int]
    recency: list[int]
    needed: list[int]
    terms: list[str]
    correction: str | None
    hit: bool | None
    cause: Notice | None
    tokens: int
    path: str
    what_if: dict[str, WhatIf]
    damaged: list[int]  # the damaged rows of this turn: the message itself, the messages it was given
    relearned: list[str] = field(default_factory=list)  # facts re-learned in this turn (namespace.key)

    def to_json(self) -> dict[str, Any]:
        m = self.message
        return {
            "messageId": m.id,
            "timestamp": m.timestamp,
            "trigger": self.trigger,
            "recalled": self.recalled,
            "needed": self.needed,
            "hit": self.hit,
            "cause": None if self.cause is None else self.cause.to_json(),
            "tokens": self.tokens,
            "whatIf": {k: v.to_json() for k, v in self.what_if.items()},
            "recency": self.recency,
            "path": self.path,
            "terms": self.terms,
            "correction": self.correction,
            "damaged": self.damaged,
            "relearned": self.relearned,
        }


def _rate(hits: int, n: int) -> float | None:
    return None if n == 0 else round(hits / n, 4)


@dataclass(frozen=True)
class Replay:
    """The replayed turns, the strategies compared and the rule of need that labelled them."""

    turns: list[TurnReport]
    strategies: tuple[str, ...]
    rule: NeedRule
    history: int  # messages in the file (every conversation)

    def summary(self) -> dict[str, Any]:
        with_need = [t for t in self.turns if t.hit is not None]
        hits = sum(1 for t in with_need if t.hit)
        by_cause = Counter(t.cause.code for t in self.turns if t.cause is not None)
        strategies: dict[str, Any] = {}
        for name in self.strategies:
            s_hits = sum(1 for t in with_need if t.what_if[name].hit)
            tokens = sum(t.what_if[name].tokens for t in self.turns)
            strategies[name] = {
                "hits": s_hits,
                "hitRate": _rate(s_hits, len(with_need)),
                "tokens": tokens,
                "tokensPerHit": None if s_hits == 0 else round(tokens / s_hits, 1),
            }
        return {
            "turns": len(self.turns),
            "withNeed": len(with_need),
            "hits": hits,
            "hitRate": _rate(hits, len(with_need)),
            "byCause": dict(sorted(by_cause.items())),
            "strategies": strategies,
            "estimate": {"kind": "silver", "maxDf": self.rule.max_df},
        }

    def to_json(self) -> dict[str, Any]:
        return {"summary": self.summary(), "turns": [t.to_json() for t in self.turns]}

    def misses(self) -> list[TurnReport]:
        """The missed turns, the most needed first (then the newest)."""
        missed = [t for t in self.turns if t.hit is False]
        return sorted(missed, key=lambda t: (-len(t.needed), -t.message.timestamp, -t.message.id))


def _turns(raw: RawStore, o: ReplayOptions) -> list[Message]:
    rows = raw.query_timeline(
        "asc",
        None,
        roles=["user"],
        since=o.since,
        until=o.until,
        conversations=None if o.origin is None else [o.origin],
    )
    if o.after_id is not None:
        rows = [r for r in rows if r.id > o.after_id]
    if o.limit is not None:
        rows = rows[-o.limit :] if o.limit > 0 else []
    return rows


def _history(raw: RawStore, last: Message) -> Iterator[Message]:
    """Every message up to and including ``last``, in ``(timestamp, id)`` order, a page at a time."""
    after: tuple[int, int] | None = None
    end = (last.timestamp, last.id)
    while True:
        page = raw.query_timeline("asc", PAGE, after=after, before=(end[0], end[1] + 1))
        yield from page
        if len(page) < PAGE:
            return
        after = (page[-1].timestamp, page[-1].id)


def replay(
    db: MemoryDB,
    options: ReplayOptions | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> Replay:
    """Replay the user turns of the range (see :mod:`core.replay`). Reads only. ``progress(done, total)``
    is called after each turn."""
    o = options or ReplayOptions()
    unknown = [s for s in o.strategies if s not in STRATEGIES]
    if unknown:
        raise ValidationError_(
            f"Unknown strategy {unknown[0]!r}: one of {', '.join(STRATEGIES)}.",
            code="replay.unknown_strategy",
            params={"strategy": unknown[0], "known": list(STRATEGIES)},
        )
    raw = RawStore(db)
    wanted = _turns(raw, o)
    total = raw.count()
    reports: list[TurnReport] = []
    if wanted:
        index = NeedIndex(o.rule)
        relearned = dict(zip((m.id for m in wanted), _relearned(db, raw, wanted), strict=True))
        for m in _history(raw, wanted[-1]):
            if m.id in relearned and m.role == "user":
                need = index.need(m.content, " ".join(r.text for r in relearned[m.id]))
                reports.append(_replay_turn(db, raw, m, need, o.strategies, relearned[m.id]))
                if progress is not None:
                    progress(len(reports), len(wanted))
            index.add(m.id, m.content, m.role)
    return Replay(reports, tuple(o.strategies), o.rule, total)


def _relearned(db: MemoryDB, raw: RawStore, wanted: list[Message]) -> list[list[Relearned]]:
    """The facts re-learned in each wanted turn."""
    last = wanted[-1]
    after = raw.query_timeline("asc", 1, roles=["user"], after=(last.timestamp, last.id))
    return attribute(
        relearned_facts(db), [m.timestamp for m in wanted], after[0].timestamp if after else None
    )


def _replay_turn(
    db: MemoryDB, raw: RawStore, m: Message, need: TurnNeed, names: Sequence[str], relearned: list[Relearned]
) -> TurnReport:
    turn: AgentTurn = agent_turn(db, m)
    rows = {r.id: r for r in raw.get_messages(needed_ids(need, turn.recency))}
    # Only what the turn saw as before it (a damaged time reads as 0 and sees nothing, as in the app).
    needed = sorted(i for i, r in rows.items() if (r.timestamp, i) < (m.timestamp, m.id))
    hit: bool | None = None
    cause: Notice | None = None
    if needed:
        hit = bool(set(turn.recalled) & set(needed))
        if not hit:
            miss = miss_cause(turn, needed, rows)
            cause = cause_notice(miss.code, miss.params)
    what_if: dict[str, WhatIf] = {}
    for name in names:
        s = run_strategy(db, STRATEGIES[name], turn, need.terms)
        s_hit = None if not needed else bool(set(s.recalled) & set(needed))
        what_if[name] = WhatIf(s.recalled, s_hit, s.tokens)
    trigger = turn.context.trigger
    return TurnReport(
        message=m,
        trigger=None if trigger is None else trigger.snippet,
        recalled=turn.recalled,
        recency=turn.recency,
        needed=needed,
        terms=need.terms,
        correction=need.correction,
        hit=hit,
        cause=cause,
        tokens=turn.tokens,
        path=turn.path,
        what_if=what_if,
        damaged=_damaged(turn),
        relearned=[r.name for r in relearned],
    )


def _damaged(turn: AgentTurn) -> list[int]:
    """The ids of the damaged rows of a turn (each read as the rest of the app reads it)."""
    ids = {int(n.params["id"]) for n in turn.context.row_notices if isinstance(n.params.get("id"), int)}
    if turn.message.damaged:
        ids.add(turn.message.id)
    return sorted(ids)
