"""The agent's recall search as the replay runs it, turn after turn: the same rows as
:class:`core.search.MessageSearch` with :class:`core.substring.SubstringProof` give (the search of
:func:`core.context.build_context`), with what one turn found kept for the next turns that send the same
text, and every full-text query bounded by the greatest id before the turn.

Why it is the same answer: the replay's turns come in ``(timestamp, id)`` order; the answer of each step
(full text, substring) is the newest ``limit`` matching rows before the turn, so the answer at a later
turn is the matching rows written between the two turns in front of the one kept. How a step was
answered (an FTS5 error; the substring step proven or scanned) depends on the text and the index only,
so it is kept too. A row before the turn has an id at most the greatest id before it
(:class:`core.replay.tops.TopIds`), so ``rowid <= top`` in the index changes no answer.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from core.engine import sqlite3
from core.models import Message
from core.search import Filters, MessageSearch
from core.search.fts import FullTextIndex
from core.search.index_state import IndexState
from core.search.sql import FTS, MSG, Keyset, Where, keyset_cond
from core.substring import SearchCancelledError, SubstringOutcome, SubstringProof
from core.timeline import RawStore

if TYPE_CHECKING:
    from core.db import MemoryDB
    from core.replay.tops import TopIds

__all__ = ["GAP_IDS", "ReplayCancelledError", "ReplayProof", "ReplaySearch"]


class ReplayCancelledError(SearchCancelledError):
    """Raised by :func:`core.replay.replay` when its ``cancelled()`` became true."""


#: A kept answer is extended over the rows written since it was kept when they are at most this many
#: ids, or when reading them (about :data:`GAP_ROW_SECONDS` each) costs less than answering anew did.
GAP_IDS = 2000
GAP_ROW_SECONDS = 1e-6

#: Windows (3-character substrings) are counted in the index up to this many rows: enough to tell the
#: rare from the common.
WINDOW_COUNT_BOUND = 2000
#: The substring step asks the index for the rows holding this many of the text's rarest windows.
WINDOWS_ASKED = 4
#: At most this many windows of a text are counted (spread over it): a long text has many.
WINDOWS_COUNTED = 48


def text_windows(text: str) -> list[str]:
    """The distinct 3-character substrings of ``text`` holding no ``LIKE`` wildcard (``%``, ``_``), at
    most :data:`WINDOWS_COUNTED` of them spread over the text."""
    step = max(1, (len(text) - 2) // (8 * WINDOWS_COUNTED))  # a long text: windows spread over it
    out = list(dict.fromkeys(text[i : i + 3] for i in range(0, len(text) - 2, step)))
    out = [w for w in out if "%" not in w and "_" not in w]
    if len(out) > WINDOWS_COUNTED:
        out = [out[i * len(out) // WINDOWS_COUNTED] for i in range(WINDOWS_COUNTED)]
    return out


_Kept = tuple[tuple[int, int], list[int], Any, float]


class _Kept_:
    """Answers kept per ``(text, sessions, limit)`` with the bound they were computed for (the least
    recently used dropped past ``size``)."""

    SIZE = 50_000

    def __init__(self, size: int = SIZE, *, any_gap: bool = False):
        self.size = size
        self.any_gap = any_gap  # extended over any gap (else see GAP_IDS)
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
        if not self.any_gap and gap > GAP_IDS and gap * GAP_ROW_SECONDS > kept[3]:
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
        self.tops: TopIds | None = None  # the least ids between the turns (TurnReader sets it)
        self._candidates: OrderedDict[str, int] = OrderedDict()
        self.window_counts: OrderedDict[str, int] = OrderedDict()  # window (lower case): its count

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
        row before the turn has no greater id) and taken from the rarest windows of ``safe``
        (:meth:`_rare_windows`) instead of every piece. Whether there are too many candidates (then the
        scan runs) is decided over the whole index and the pieces as there: when a piece has at most that
        many (a window inside it has fewer than :data:`WINDOW_COUNT_BOUND`, or the piece is counted), so
        has the conjunction; else the conjunction is counted. Each count once per replay."""
        top = self.top
        if top is None or f.before is None:
            return super()._from_candidates(search, safe, f, limit, query, pieces, state)
        cap = self.candidate_cap
        try:
            with self.db.lock:
                rare = self._rare_windows(safe, pieces)
                # A row with every piece holds every window inside them: few rows with the rarest of
                # those is few with every piece (one cheap count, else the pieces are counted).
                if rare[0] >= WINDOW_COUNT_BOUND and (not rare[2] or self._count(rare[2], cap) > cap):
                    longest = sorted(pieces, key=len, reverse=True)  # the rarest first, likely
                    counts = (self._count(f'"{p}"', cap) for p in longest)
                    n = next((c for c in counts if c <= cap), cap + 1)
                    if n > cap:  # every piece is common: count them together
                        n = self._count(query, cap)
                    if n > cap:
                        return None, SubstringOutcome(
                            "scanned", "substring.candidates", {"cap": cap, "pieces": pieces}, index=state
                        )
        except sqlite3.Error:
            return super()._from_candidates(search, safe, f, limit, query, pieces, state)
        # The candidates that pass LIKE and the filters, in one query: no candidate list in Python.
        w = search.where(f)
        sql = (
            f"SELECT m.* FROM {FTS} CROSS JOIN {MSG} AS m ON m.id = {FTS}.rowid "
            f"WHERE {FTS} MATCH ? AND {FTS}.rowid <= ? AND m.content LIKE '%' || ? || '%'{w.and_sql()} "
            "ORDER BY m.timestamp DESC, m.id DESC LIMIT ?"
        )
        try:
            rows = search.raw.select(sql, (rare[1], top, safe, *w.args, limit))
        except sqlite3.Error:
            return super()._from_candidates(search, safe, f, limit, query, pieces, state)
        code = "substring.proven_rows" if rows else "substring.proven_miss"
        return rows, SubstringOutcome("proven", code, {"pieces": pieces, "rows": len(rows)}, index=state)

    def _rare_windows(self, safe: str, pieces: list[str]) -> tuple[int, str, str]:
        """The FTS5 query over the :data:`WINDOWS_ASKED` rarest windows of ``safe`` (its 3-character
        substrings without a ``LIKE`` wildcard: every row matching ``'%'||safe||'%'`` holds each of them,
        up to case, so the rows holding all of them include the scan's rows); the least count of a
        window inside a piece (bounded by :data:`WINDOW_COUNT_BOUND`) and the query over the rarest of
        those ("" when none was counted). Reading only the rarest keeps the index from walking the long lists of common trigrams;
        which windows are asked changes the candidates, never the rows that pass ``LIKE``."""
        inside = {w for p in pieces for w in text_windows(p)}
        ranked = sorted((self._window_count(w), w) for w in text_windows(safe))
        within = [(n, w) for n, w in ranked if w in inside]
        least = within[0][0] if within else WINDOW_COUNT_BOUND
        asked = " ".join(f'"{w}"' for _n, w in ranked[:WINDOWS_ASKED])
        return least, asked, " ".join(f'"{w}"' for _n, w in within[:WINDOWS_ASKED])

    def _window_count(self, window: str) -> int:
        """How many rows of the whole index hold ``window``, counting up to :data:`WINDOW_COUNT_BOUND`
        (kept for the replay: a count only chooses which windows are asked)."""
        key = window.lower()
        n = self.window_counts.get(key)
        if n is not None:
            self.window_counts.move_to_end(key)  # the least recently used go first
        else:
            sql = f"SELECT count(*) FROM (SELECT 1 FROM {FTS} WHERE {FTS} MATCH ? LIMIT ?)"
            n = int(self.db.conn.execute(sql, (f'"{window}"', WINDOW_COUNT_BOUND)).fetchone()[0])
            self.window_counts[key] = n
            if len(self.window_counts) > _Kept_.SIZE:
                self.window_counts.popitem(last=False)
        return n

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

    def known_top(self, before: Keyset | None) -> int | None:
        """:attr:`ReplayProof.top`: every row before the turn has an id at most that, so a walk from it
        that finds fewer than a page of hits has found every hit (no second, sorted query)."""
        return None if before is None else self.proof.top


class ReplaySearch(MessageSearch):
    """The agent's search (:class:`core.search.MessageSearch`) whose full-text answers are kept per
    text: the newest ``limit`` hits before a turn are those kept at an earlier turn with the hits among
    the rows written in between in front (looked up in the index over those rows' id range). Valid
    because the replay's turns come in ``(timestamp, id)`` order and the step's rows are the newest
    ``limit`` hits before the bound; an FTS5 error depends on the text only and is kept too. A bound
    that does not move forward asks the index again. The substring step is a :class:`ReplayProof`."""

    def __init__(self, raw: RawStore, proof: ReplayProof):
        super().__init__(raw, proof)
        self.proof = proof
        # The hits among the rows written since are one index look-up over their id range, which costs
        # about the same however wide (0.5-0.9 ms for 2,000 to 200,000 ids on the 1M bench file, a new
        # answer 1.2 ms): a kept answer is always extended.
        self.kept = _Kept_(any_gap=True)
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
        tops, top = self.proof.tops, self.proof.top
        low = False if tops is None or top is None or f.before is None else tops.low(since, f.before)
        with self.db.lock:
            if low is False:  # not kept: read the rows' id range
                w = _gap_where(f, since)
                lo, hi = self.db.conn.execute(
                    f"SELECT min(id), max(id) FROM {MSG} AS m{w.where_sql()}", w.args
                ).fetchone()
            else:  # the least id kept, the greatest before the turn (the range holds no other row)
                lo, hi = low, top
            if lo is None:
                return []
            w = self.where(f)  # the turn's bound and sessions
            keyset_cond(w, "m.", None, (since[0], since[1] - 1))
            sql = (
                f"SELECT m.timestamp, m.id FROM {FTS} CROSS JOIN {MSG} AS m ON m.id = {FTS}.rowid "
                f"WHERE {FTS} MATCH ? AND {FTS}.rowid BETWEEN ? AND ?{w.and_sql()}"
            )
            return [(r[0], r[1]) for r in self.db.conn.execute(sql, (safe, lo, hi, *w.args))]
