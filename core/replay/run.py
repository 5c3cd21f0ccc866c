"""The replay of a range of user turns: each turn as the agent had it, what it needed (an estimate), hit
or miss with the cause, and the what-if strategies; the summary and the JSON of ``replay --json``."""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core.errors import Notice, ValidationError_
from core.models import Message
from core.replay.causes import cause_notice
from core.replay.need import NeedIndex, NeedRule, TurnNeed, needed_ids
from core.replay.relearn import Relearned, relearned_facts
from core.replay.strategies import STRATEGIES, run_strategies
from core.replay.turn import AgentTurn, ReplayCancelledError, TurnReader, miss_cause
from core.search import Filters
from core.search.sql import MSG, Keyset, Where
from core.timeline import RawStore

if TYPE_CHECKING:
    from core.db import MemoryDB
    from core.replay.windows import WindowCounts

__all__ = ["Replay", "ReplayOptions", "ReplaySummary", "TurnReport", "WhatIf", "replay"]

PAGE = 500  # user turns read at a time


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


@dataclass
class ReplaySummary:
    """What :meth:`Replay.summary` counts, added up one turn at a time (:meth:`add`): a replay whose turns
    go to a sink keeps this instead of the turns, and its summary is the same."""

    strategies: tuple[str, ...]
    rule: NeedRule
    turns: int = 0
    with_need: int = 0
    hits: int = 0
    by_cause: Counter[str] = field(default_factory=Counter)
    strategy_hits: dict[str, int] = field(default_factory=dict)
    strategy_tokens: dict[str, int] = field(default_factory=dict)

    def add(self, t: TurnReport) -> None:
        self.turns += 1
        if t.hit is not None:
            self.with_need += 1
            self.hits += 1 if t.hit else 0
        if t.cause is not None:
            self.by_cause[t.cause.code] += 1
        for name in self.strategies:
            w = t.what_if[name]
            if t.hit is not None and w.hit:
                self.strategy_hits[name] = self.strategy_hits.get(name, 0) + 1
            self.strategy_tokens[name] = self.strategy_tokens.get(name, 0) + w.tokens

    def to_json(self) -> dict[str, Any]:
        strategies: dict[str, Any] = {}
        for name in self.strategies:
            s_hits = self.strategy_hits.get(name, 0)
            tokens = self.strategy_tokens.get(name, 0)
            strategies[name] = {
                "hits": s_hits,
                "hitRate": _rate(s_hits, self.with_need),
                "tokens": tokens,
                "tokensPerHit": None if s_hits == 0 else round(tokens / s_hits, 1),
            }
        return {
            "turns": self.turns,
            "withNeed": self.with_need,
            "hits": self.hits,
            "hitRate": _rate(self.hits, self.with_need),
            "byCause": dict(sorted(self.by_cause.items())),
            "strategies": strategies,
            "estimate": {"kind": "silver", "maxDf": self.rule.max_df},
        }


@dataclass(frozen=True)
class Replay:
    """The replayed turns, the strategies compared and the rule of need that labelled them. A replay
    whose turns went to a sink (:func:`replay`) holds none (``turns`` is empty) and its summary in
    ``tally``; else the summary is counted from ``turns``."""

    turns: list[TurnReport]
    strategies: tuple[str, ...]
    rule: NeedRule
    history: int  # messages in the file (every conversation)
    tally: ReplaySummary | None = None

    def summary(self) -> dict[str, Any]:
        if self.tally is not None:
            return self.tally.to_json()
        tally = ReplaySummary(self.strategies, self.rule)
        for t in self.turns:
            tally.add(t)
        return tally.to_json()

    def to_json(self) -> dict[str, Any]:
        return {"summary": self.summary(), "turns": [t.to_json() for t in self.turns]}

    def misses(self) -> list[TurnReport]:
        """The missed turns, the most needed first (then the newest)."""
        missed = [t for t in self.turns if t.hit is False]
        return sorted(missed, key=lambda t: (-len(t.needed), -t.message.timestamp, -t.message.id))


def _range_where(raw: RawStore, o: ReplayOptions) -> Where:
    """The conditions of the replayed user turns (``memory_raw_messages AS m``)."""
    f = Filters(
        since=o.since,
        until=o.until,
        roles=["user"],
        conversations=None if o.origin is None else [o.origin],
    )
    w = raw.searcher.where(f)
    if o.after_id is not None:
        w.add("m.id > ?", int(o.after_id))
    return w


def _count(raw: RawStore, w: Where) -> int:
    with raw.db.lock:
        return int(raw.conn.execute(f"SELECT count(*) FROM {MSG} AS m{w.where_sql()}", w.args).fetchone()[0])


def _turns(raw: RawStore, o: ReplayOptions, total: int) -> Iterator[Message]:
    """The user turns of the range in ``(timestamp, id)`` order, a page at a time."""
    f: dict[str, Any] = {
        "roles": ["user"],
        "since": o.since,
        "until": o.until,
        "conversations": None if o.origin is None else [o.origin],
    }
    if o.limit is not None:
        if o.limit <= 0 or total == 0:
            return
        if o.after_id is None or total <= o.limit:
            newest = raw.query_timeline("desc", o.limit, **f)
            yield from reversed([r for r in newest if o.after_id is None or r.id > o.after_id])
            return
    after: Keyset | None = None
    if o.after_id is not None:
        first = raw.select(
            f"SELECT m.* FROM {MSG} AS m WHERE m.id > ? AND m.role = 'user' "
            "ORDER BY m.timestamp, m.id LIMIT 1",
            (int(o.after_id),),
        )
        if not first:
            return
        after = (first[0].timestamp, first[0].id - 1)
    left = total if o.limit is None else o.limit
    skip = 0 if o.limit is None else total - o.limit
    while left > 0:
        page = raw.query_timeline("asc", PAGE, after=after, **f)
        for r in page:
            if o.after_id is not None and r.id <= o.after_id:
                continue
            if skip > 0:
                skip -= 1
                continue
            yield r
            left -= 1
            if left == 0:
                return
        if len(page) < PAGE:
            return
        after = (page[-1].timestamp, page[-1].id)


def replay(
    db: MemoryDB,
    options: ReplayOptions | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    sink: Callable[[TurnReport], None] | None = None,
    windows: WindowCounts | None = None,
) -> Replay:
    """Replay the user turns of the range (see :mod:`core.replay`). Reads only.

    ``progress(done, total)`` is called once the turns are counted (``done`` 0) and after each turn.
    To stop a replay, either raise from ``progress`` (the exception propagates, nothing is returned)
    or pass ``cancelled``: it is asked before each turn and during a slow substring scan, and when it
    returns true :class:`core.replay.turn.ReplayCancelledError` is raised.

    ``sink(turn)``: each turn is handed to it as soon as it is made and not kept (the result's ``turns``
    is empty, its summary still counts every turn): a long history's turns are never all held at once.

    ``windows``: window counts kept from an earlier replay (:mod:`core.replay.windows`); those still
    sound are used, and it is given back the counts this replay used.
    """
    o = options or ReplayOptions()
    unknown = [s for s in o.strategies if s not in STRATEGIES]
    if unknown:
        raise ValidationError_(
            f"Unknown strategy {unknown[0]!r}: one of {', '.join(STRATEGIES)}.",
            code="replay.unknown_strategy",
            params={"strategy": unknown[0], "known": list(STRATEGIES)},
        )
    raw = RawStore(db)
    total = raw.count()
    in_range = wanted = _count(raw, _range_where(raw, o))
    if o.limit is not None:
        wanted = min(wanted, max(o.limit, 0))
    if progress is not None:
        progress(0, wanted)
    reports: list[TurnReport] = []
    tally = ReplaySummary(tuple(o.strategies), o.rule)
    if wanted:
        reader = TurnReader(db, cancelled)
        index = NeedIndex(db, o.rule, reader.tops)
        given, top = _seed(db, reader, index, windows)
        learned = relearned_facts(db)
        for m, facts in _with_relearned(raw, _turns(raw, o, in_range), learned):
            if cancelled is not None and cancelled():
                raise ReplayCancelledError()
            turn = reader.turn(m)
            need = index.need(m.content, (int(m.timestamp), m.id), " ".join(r.text for r in facts))
            report = _replay_turn(reader, raw, turn, need, o.strategies, facts)
            tally.add(report)
            if sink is None:
                reports.append(report)
            else:
                sink(report)
            if progress is not None:
                progress(tally.turns, wanted)
        if windows is not None:
            windows.keep(reader.proof.window_counts, given, top, (index.cap, index.frequent))
    return Replay(reports, tuple(o.strategies), o.rule, total, None if sink is None else tally)


def _seed(
    db: MemoryDB, reader: TurnReader, index: NeedIndex, windows: WindowCounts | None
) -> tuple[dict[str, int], int]:
    """The kept window counts still sound, given to ``reader``, and the greatest id now; the kept
    frequent terms given to ``index`` when made under its cap."""
    if windows is None:
        return {}, 0
    if windows.frequent is not None and windows.frequent[0] == index.cap:
        index.frequent |= windows.frequent[1]
    with db.lock:
        top = db.conn.execute(f"SELECT coalesce(max(id), 0) FROM {MSG}").fetchone()[0]
    given = windows.usable(db)
    reader.proof.window_counts.update(given)
    return given, int(top)


def _with_relearned(
    raw: RawStore, turns: Iterator[Message], learned: list[Relearned]
) -> Iterator[tuple[Message, list[Relearned]]]:
    """Each turn with the facts re-learned in it (as :func:`core.replay.relearn.attribute` gives them:
    written at or after the turn's time and before the next turn's; after the last turn, before the
    next user message of the file)."""
    at = [r.at for r in learned]
    prev: Message | None = None
    for m in turns:
        if prev is not None:
            yield prev, learned[bisect.bisect_left(at, prev.timestamp) : bisect.bisect_left(at, m.timestamp)]
        prev = m
    if prev is not None:
        after = raw.query_timeline("asc", 1, roles=["user"], after=(prev.timestamp, prev.id))
        end = bisect.bisect_left(at, after[0].timestamp) if after else len(at)
        yield prev, learned[bisect.bisect_left(at, prev.timestamp) : end]


def _replay_turn(
    reader: TurnReader,
    raw: RawStore,
    turn: AgentTurn,
    need: TurnNeed,
    names: Sequence[str],
    relearned: list[Relearned],
) -> TurnReport:
    m = turn.message
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
    for name, s in run_strategies(reader.store.db, names, turn, need.terms, reader.store.searcher).items():
        s_hit = None if not needed else bool(set(s.recalled) & set(needed))
        what_if[name] = WhatIf(s.recalled, s_hit, s.tokens)
    return TurnReport(
        message=m,
        trigger=turn.trigger,
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
        damaged=turn.damaged,
        relearned=[r.name for r in relearned],
    )
