"""What the Recall page reads, off the GUI thread, and the numbers its pictures show (Qt-free).

* :func:`job_load`: the saved replay of the open file (:mod:`core.replay.store`), shown at once.
* :func:`job_update`: the saved replay brought up to date (only the user turns written since are
  replayed, unless it must be recomputed), with progress and cancel.
* :func:`job_turn`: one missed turn as the agent had it (the Context preview's computation as of that
  message, :func:`core.context.build_context`) and the messages it needed.

A saved turn holds no text: the missed turns' messages are read from the database with the result.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import heapq
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.context import DEFAULTS, ContextResult, build_context
from core.db import MemoryDB
from core.models import Message
from core.replay import TurnReport
from core.replay.saved import SavedReplayError, turn_from_json
from core.replay.store import ReplayStore, Updated
from core.replay.turn import restriction
from core.timeline import RawStore

#: The missed turns kept for the list (the most needed first), whose messages are read with a result.
MAX_LISTED = 5000
_CHUNK = 500


def _miss_key(t: TurnReport) -> tuple[int, int, int]:
    """Larger is listed first: the most needed, then the newest (:meth:`core.replay.Replay.misses`)."""
    return (len(t.needed), t.message.timestamp, t.message.id)


@dataclass(frozen=True)
class RecallView:
    """What the page shows of a saved result, without holding every turn: the summary (``None``: none
    saved), the messages the file held, the turns that needed a message and the hits by month, the
    missed turns listed (at most :data:`MAX_LISTED`, the most needed first) and their messages by id;
    ``updated``: what the update that made it did (``None``: read as saved)."""

    summary: dict[str, Any] | None = None
    history: int = 0
    months: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    misses: list[TurnReport] = field(default_factory=list)
    texts: dict[int, Message] = field(default_factory=dict)
    updated: Updated | None = None

    def plus(self, turns: Iterable[TurnReport], summary: dict[str, Any], history: int) -> RecallView:
        """This view with ``turns`` added (their months counted, their misses listed)."""
        fold = RecallFold(self)
        for t in turns:
            fold.add(t)
        return fold.view(summary, history, self.texts)

    def plus_records(
        self,
        records: Iterable[dict[str, Any]],
        strategies: tuple[str, ...],
        summary: dict[str, Any],
        history: int,
    ) -> RecallView:
        """:meth:`plus` for saved turns as their JSON objects (:meth:`ReplayStore.records`): only the
        misses that are listed are made whole (reading a long history's turns stays quick)."""
        months = dict(self.months)
        heap = [(*_miss_key(t), t) for t in self.misses]
        heapq.heapify(heap)
        for d in records:
            hit, ts, mid, needed = d.get("hit"), d.get("timestamp"), d.get("messageId"), d.get("needed")
            if hit is None:
                continue
            if (
                type(hit) is not bool
                or type(ts) is not int
                or type(mid) is not int
                or not isinstance(needed, list)
            ):
                raise SavedReplayError("a turn lacks its hit, time, id or needed messages")
            key = _month_of(ts)
            if key is not None:
                n, hits = months.get(key, (0, 0))
                months[key] = (n + 1, hits + (1 if hit else 0))
            if hit is False and (len(heap) < MAX_LISTED or (len(needed), ts, mid) > heap[0][:3]):
                t = turn_from_json(d, strategies)
                heapq.heappush(heap, (*_miss_key(t), t))
                if len(heap) > MAX_LISTED:
                    heapq.heappop(heap)
        misses = [e[3] for e in sorted(heap, key=lambda e: e[:3], reverse=True)]
        return RecallView(summary, history, months, misses, self.texts)


class RecallFold:
    """The months and listed misses of a view (``base``, else none), turns added one at a time
    (:meth:`add`, a sink of :meth:`core.replay.store.ReplayStore.update`): what the page shows of a
    replay, never its every turn."""

    def __init__(self, base: RecallView | None = None):
        self.months: dict[tuple[int, int], tuple[int, int]] = {}
        self.heap: list[tuple[int, int, int, TurnReport]] = []
        if base is not None:
            self.add_view(base)

    def add(self, t: TurnReport) -> None:
        if t.hit is None:
            return
        key = _month_of(t.message.timestamp)
        if key is not None:
            n, hits = self.months.get(key, (0, 0))
            self.months[key] = (n + 1, hits + (1 if t.hit else 0))
        if t.hit is False:
            self._list(t)

    def add_view(self, view: RecallView) -> None:
        """The months and listed misses of ``view`` added (the turns before those added here)."""
        for key, (n, hits) in view.months.items():
            had = self.months.get(key, (0, 0))
            self.months[key] = (had[0] + n, had[1] + hits)
        for t in view.misses:
            self._list(t)

    def _list(self, t: TurnReport) -> None:
        heapq.heappush(self.heap, (*_miss_key(t), t))
        if len(self.heap) > MAX_LISTED:
            heapq.heappop(self.heap)

    def view(self, summary: dict[str, Any], history: int, texts: dict[int, Message]) -> RecallView:
        misses = [e[3] for e in sorted(self.heap, key=lambda e: e[:3], reverse=True)]
        return RecallView(summary, history, dict(self.months), misses, texts)


def _messages(db: Any, ids: Iterable[int]) -> dict[int, Message]:
    raw, out = RawStore(db), {}
    wanted = list(ids)
    for i in range(0, len(wanted), _CHUNK):
        out.update({m.id: m for m in raw.get_messages(wanted[i : i + _CHUNK])})
    return out


def _with_texts(db: Any, view: RecallView, updated: Updated | None) -> RecallView:
    """``view`` with the listed misses' messages read (those not read before)."""
    known = {i: m for i, m in view.texts.items()}
    wanted = [t.message.id for t in view.misses if t.message.id not in known]
    known.update(_messages(db, wanted))
    listed = {t.message.id for t in view.misses}
    texts = {i: m for i, m in known.items() if i in listed}
    return RecallView(view.summary, view.history, view.months, view.misses, texts, updated)


def job_load(db: Any, db_path: Path, store: ReplayStore | None = None, job: Any = None) -> RecallView:
    """The saved replay of ``db_path``, its turns read one at a time (a file beside the database), and
    the listed misses' messages."""
    store = store or ReplayStore()
    saved = store.header(db_path)
    if saved is None:
        return RecallView()
    strategies = tuple(saved.summary.get("strategies") or ())
    try:
        records = _checked(store.records(db_path, saved), job)
        view = RecallView().plus_records(records, strategies, saved.summary, saved.history)
    except SavedReplayError as exc:
        store.set_aside(db_path, str(exc))
        return RecallView()  # set aside and reported: the update replays every turn
    return _with_texts(db, view, None)


def _checked(items: Iterable[Any], job: Any) -> Iterator[Any]:
    """``items``, stopping when ``job`` is cancelled."""
    for i, t in enumerate(items):
        if job is not None and i % 1000 == 0:
            job.raise_if_cancelled()
        yield t


def job_update(
    db_path: Path, view: RecallView, store: ReplayStore | None = None, job: Any = None
) -> RecallView:
    """The saved replay brought up to date and saved, on a read-only connection of its own (the
    ``background`` lane: a replay of a long history takes minutes and must not hold a reader the tabs
    need); the new turns added to ``view`` one at a time as they are replayed, never all held (the view
    made again when every turn was replayed). ``job`` reports progress (the turns replayed now) and
    stops the replay when cancelled."""
    progress: Callable[[int, int], None] | None = None
    if job is not None:

        def progress(done: int, total: int) -> None:
            job.raise_if_cancelled()
            job.progress(done, total)

    db = MemoryDB.open(db_path, check=False)
    try:
        with job.interruptible(db) if job is not None else contextlib.nullcontext(db):
            cancelled = (lambda: job.cancelled) if job is not None else None
            fold = RecallFold()  # the turns replayed now, folded in as they come
            updated = (store or ReplayStore()).update(
                db, db_path, progress=progress, cancelled=cancelled, on_turn=fold.add
            )
            base = view if updated.how == "extended" and view.summary is not None else RecallView()
            fold.add_view(base)
            new = fold.view(updated.saved.summary, updated.saved.history, base.texts)
            return _with_texts(db, new, updated)
    finally:
        db.close()


@dataclass(frozen=True)
class TurnDetail:
    """A missed turn: its message, what the agent was given then (``context``) and the needed messages."""

    message: Message
    context: ContextResult
    needed: list[Message]


def job_turn(db: Any, message_id: int, needed: Sequence[int], job: Any = None) -> TurnDetail | None:
    """The agent's turn at user message ``message_id`` as the Context tab's past-turn view computes it
    (the same restriction to a scheduled session, the conversation as home, the default budgets);
    ``None`` when the message is no longer in the file."""
    found = RawStore(db).get_messages([message_id])
    if not found:
        return None
    m = found[0]
    check = (lambda: job.cancelled) if job is not None else None
    context = build_context(
        db,
        m.content,
        session_ids=restriction(m) or (),
        home_session_id=m.origin_session_id or None,
        as_of_id=m.id,
        recent_budget=DEFAULTS["recent_budget"],
        recall_budget=DEFAULTS["recall_budget"],
        recent_limit=DEFAULTS["recent_limit"],
        recall_limit=DEFAULTS["recall_limit"],
        cancel_check=check,
        explain=True,  # the preview's "why, word by word" is there to follow
    )
    rows = _messages(db, needed)
    return TurnDetail(m, context, [rows[i] for i in needed if i in rows])


# -- the numbers of the pictures ------------------------------------------------------------------------


@dataclass(frozen=True)
class Month:
    """The turns of one calendar month (local time) that needed an earlier message, and the hits."""

    year: int
    month: int
    with_need: int
    hits: int

    @property
    def rate(self) -> float:
        return self.hits / self.with_need if self.with_need else 0.0


def _month_of(ms: int) -> tuple[int, int] | None:
    try:
        d = dt.datetime.fromtimestamp(ms / 1000)
    except (OverflowError, OSError, ValueError):
        return None
    return (d.year, d.month)


def by_month(view: RecallView) -> list[Month]:
    """Hit rate by month, oldest first (turns without a need, or without a readable time, left out)."""
    return [Month(y, m, n, h) for (y, m), (n, h) in sorted(view.months.items())]


def by_cause(summary: dict[str, Any] | None) -> list[tuple[str, int]]:
    """Misses by cause code, the most frequent first."""
    causes = (summary or {}).get("byCause") or {}
    return sorted(((str(k), int(v)) for k, v in causes.items()), key=lambda kv: (-kv[1], kv[0]))


@dataclass(frozen=True)
class StrategyRow:
    name: str
    hits: int
    rate: float | None
    tokens: int
    tokens_per_hit: float | None


def strategies(summary: dict[str, Any] | None) -> list[StrategyRow]:
    """The what-if strategies of the summary, in its order."""
    rows = []
    for name, s in ((summary or {}).get("strategies") or {}).items():
        rows.append(StrategyRow(str(name), s["hits"], s["hitRate"], s["tokens"], s.get("tokensPerHit")))
    return rows


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float] | None:
    """The 95 % Wilson interval of a rate of ``hits`` in ``n`` (how far the sample alone lets it move)."""
    if n <= 0:
        return None
    p = hits / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))
