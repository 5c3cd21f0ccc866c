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
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.context import DEFAULTS, ContextResult, build_context
from core.db import MemoryDB
from core.models import Message
from core.replay import Replay, TurnReport
from core.replay.store import ReplayStore, SavedReplay, Updated
from core.replay.turn import restriction
from core.timeline import RawStore

#: The missed turns whose messages are read with a result (the list shows these, most needed first).
MAX_LISTED = 5000
_CHUNK = 500


@dataclass(frozen=True)
class RecallData:
    """A result to show: the saved replay (``None``: none yet), what the update did (``None``: loaded,
    not updated), the missed turns' messages by id, and whether the file has messages at all."""

    saved: SavedReplay | None
    updated: Updated | None = None
    texts: dict[int, Message] = field(default_factory=dict)

    @property
    def replay(self) -> Replay | None:
        return None if self.saved is None else self.saved.replay


def _messages(db: Any, ids: Iterable[int]) -> dict[int, Message]:
    raw, out = RawStore(db), {}
    wanted = list(ids)
    for i in range(0, len(wanted), _CHUNK):
        out.update({m.id: m for m in raw.get_messages(wanted[i : i + _CHUNK])})
    return out


def _with_texts(db: Any, saved: SavedReplay | None, updated: Updated | None = None) -> RecallData:
    ids = [] if saved is None else [t.message.id for t in saved.replay.misses()[:MAX_LISTED]]
    return RecallData(saved, updated, _messages(db, ids))


def job_load(db: Any, db_path: Path, store: ReplayStore | None = None) -> RecallData:
    """The saved replay of ``db_path`` (reads a file beside the database and the missed messages)."""
    return _with_texts(db, (store or ReplayStore()).load(db_path))


def job_update(db_path: Path, store: ReplayStore | None = None, job: Any = None) -> RecallData:
    """The saved replay brought up to date and saved, on a read-only connection of its own (the
    ``background`` lane: a replay of a long history takes minutes and must not hold a reader the tabs
    need); ``job`` reports progress (the turns replayed now) and stops the replay when cancelled."""
    progress: Callable[[int, int], None] | None = None
    if job is not None:

        def progress(done: int, total: int) -> None:
            job.raise_if_cancelled()
            job.progress(done, total)

    db = MemoryDB.open(db_path, check=False)
    try:
        with job.interruptible(db) if job is not None else contextlib.nullcontext(db):
            updated = (store or ReplayStore()).update(db, db_path, progress=progress)
            return _with_texts(db, updated.saved, updated)
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
        explain=False,
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


def by_month(turns: Iterable[TurnReport]) -> list[Month]:
    """Hit rate by month, oldest first (turns without a need, or without a readable time, left out)."""
    counts: dict[tuple[int, int], list[int]] = {}
    for t in turns:
        if t.hit is None:
            continue
        key = _month_of(t.message.timestamp)
        if key is None:
            continue
        c = counts.setdefault(key, [0, 0])
        c[0] += 1
        c[1] += 1 if t.hit else 0
    return [Month(y, m, n, h) for (y, m), (n, h) in sorted(counts.items())]


def by_cause(summary: dict[str, Any]) -> list[tuple[str, int]]:
    """Misses by cause code, the most frequent first."""
    causes = summary.get("byCause") or {}
    return sorted(((str(k), int(v)) for k, v in causes.items()), key=lambda kv: (-kv[1], kv[0]))


@dataclass(frozen=True)
class StrategyRow:
    name: str
    hits: int
    rate: float | None
    tokens: int
    tokens_per_hit: float | None


def strategies(summary: dict[str, Any]) -> list[StrategyRow]:
    """The what-if strategies of the summary, in its order."""
    rows = []
    for name, s in (summary.get("strategies") or {}).items():
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
