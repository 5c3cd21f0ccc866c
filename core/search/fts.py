"""The full-text step of the search: the reference's FTS5 query, its first page found without sorting
every hit (spec Part A §4.3).

The reference sorts every FTS hit before its ``LIMIT`` (about a second for a word in a quarter of a
million rows). Here the hits are walked in descending id order, which FTS5 does without sorting, and the
walk stops as soon as the page is provably the reference's first page:

1. let ``upper`` be the time bound (``until``, or the keyset's timestamp; none: +inf) and ``top`` the id
   to start from: the newest id, or with a bound the id of the newest row (by time) at or before it;
   take the first ``k`` hits with ``id <= top`` in descending id order. Without a bound, fewer than
   ``k`` are all the hits; with one, the exact sort runs instead;
2. let ``t_k`` be the lowest timestamp of those ``k`` and ``x`` the lowest id walked: every hit with an
   id in ``[x, top]`` has been seen;
3. list the rows (any rows, matching or not) with ``t_k <= timestamp <= upper`` whose id is outside
   ``[x, top]``, through the timestamp index. When there are none, every hit not seen has a timestamp
   below ``t_k`` (or above ``upper``, where the filter drops it), so it ranks below all ``k``: the page
   is exact. When there are a few ("out of order" rows: an imported or clock-skewed message), those
   rows are checked against the query and the filters explicitly and merged.
4. when that index range is larger than what sorting the estimated number of hits would cost (a rare
   word whose ``k``-th newest hit is old: few hits, cheap to sort) or the out-of-order rows are many,
   the page is computed exactly the slow way: without a time bound by finishing the walk (every hit)
   and sorting, with one by the reference's sort. The step-3 read is capped at that cost, so a page
   costs at most about twice the cheaper of the two ways.

In an append-only timeline ids grow with time, so step 3 reads a few index entries and a first page
costs about as much as ``k`` row look-ups, with or without a time bound.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.engine import sqlite3
from core.jsutil import utf16_len
from core.models import Message
from core.search.rows import RowReader
from core.search.sql import FTS, INT64_MAX, MSG, Keyset, Where, placeholders

# Fast-path bounds of the FTS search (see the module docstring, steps 3 and 4). The index range read in
# step 3 is capped at about what the exact sort would cost: FAST_COST_RATIO index entries per estimated
# hit (an index entry costs ~0.1 µs, a sorted hit ~2-3 µs), never fewer than FAST_SCAN_MIN nor more than
# FAST_SCAN_CAP entries.
FAST_SCAN_MIN = 4096
FAST_SCAN_CAP = 200_000
FAST_COST_RATIO = 20
FAST_OUT_OF_ORDER_CAP = 500


class FullTextIndex:
    """The full-text queries of the search over one :class:`~core.timeline.RawStore`'s file."""

    def __init__(self, raw: RowReader):
        self.raw = raw
        self.db = raw.db

    def page(
        self, safe: str, w: Where, k: int | None, until: float | None, before: Keyset | None
    ) -> list[Message]:
        """The reference's first ``k`` hits of ``MATCH safe`` passing ``w`` (every hit for None), newest
        ``(timestamp, id)`` first. SQLite's errors (a query the FTS5 syntax refuses) propagate."""
        with self.db.lock:
            if k is None:
                keys = self._fts_exact(safe, w, None)
            elif k == 0:
                keys = []
            else:
                keys = self._fts_fast(safe, w, k, until, before)
        return self.raw.get_messages([i for _t, i in keys])

    def has_any(self, safe: str, w: Where) -> bool:
        """Whether ``MATCH safe`` has a hit passing ``w`` (an error counts as none)."""
        if utf16_len(safe) < 3:
            return False
        sql = (
            f"SELECT 1 FROM {FTS} CROSS JOIN {MSG} AS m ON m.id = {FTS}.rowid "
            f"WHERE {FTS} MATCH ?{w.and_sql()} LIMIT 1"
        )
        try:
            with self.db.lock:
                return self.db.conn.execute(sql, (safe, *w.args)).fetchone() is not None
        except sqlite3.Error:
            return False

    def _fts_exact(self, safe: str, w: Where, k: int | None) -> list[tuple[int, int]]:
        """The reference's query (every hit sorted), as ``(timestamp, id)`` pairs, ties by id."""
        sql = (
            f"SELECT m.timestamp, m.id FROM {FTS} CROSS JOIN {MSG} AS m ON m.id = {FTS}.rowid "
            f"WHERE {FTS} MATCH ?{w.and_sql()} ORDER BY m.timestamp DESC, m.id DESC LIMIT ?"
        )
        return [(r[0], r[1]) for r in self.db.conn.execute(sql, (safe, *w.args, -1 if k is None else k))]

    def _fts_check_ids(self, safe: str, w: Where, ids: Sequence[int]) -> list[tuple[int, int]]:
        """Which of ``ids`` match the query and the filters (driven by the id list, not the FTS)."""
        sql = (
            f"SELECT m.timestamp, m.id FROM {MSG} AS m CROSS JOIN {FTS} ON {FTS}.rowid = m.id "
            f"WHERE m.id IN ({placeholders(len(ids))}) AND {FTS} MATCH ?{w.and_sql()}"
        )
        return [(r[0], r[1]) for r in self.db.conn.execute(sql, (*ids, safe, *w.args))]

    def known_top(self, before: Keyset | None) -> int | None:
        """An id that no row before ``before`` exceeds, when the caller knows one (the replay does for
        its turn); None here."""
        return None

    def _fts_fast(self, safe: str, w: Where, k: int, until: float | None, before: Keyset | None) -> list:
        """Top ``k`` hits by ``(timestamp, id)`` descending; see the module docstring for the proof.
        With a :meth:`known_top` the walk starts there, and fewer than ``k`` hits are all of them."""
        upper = INT64_MAX
        if until is not None:
            upper = min(upper, int(until))
        if before is not None:
            upper = min(upper, int(before[0]))
        known = self.known_top(before)
        if known is not None:
            return self._walk_from(safe, w, k, known, upper, complete=True)
        if upper == INT64_MAX:
            top = self.db.conn.execute(f"SELECT max(rowid) FROM {MSG}").fetchone()[0]
        else:
            # Start the walk at the newest row allowed by the time bound, not at the newest row.
            row = self.db.conn.execute(
                f"SELECT id FROM {MSG} WHERE timestamp <= ? ORDER BY timestamp DESC, id DESC LIMIT 1",
                (upper,),
            ).fetchone()
            top = None if row is None else row[0]
        if top is None:
            return []  # no row at all within the time bound
        return self._walk_from(safe, w, k, top, upper, complete=upper == INT64_MAX)

    def _walk_from(self, safe: str, w: Where, k: int, top: int, upper: int, *, complete: bool) -> list:
        """Steps 1-4 from ``top``; ``complete``: no hit passing ``w`` has a greater id."""
        walk = (
            f"SELECT m.timestamp, m.id FROM {FTS} CROSS JOIN {MSG} AS m ON m.id = {FTS}.rowid "
            f"WHERE {FTS} MATCH ? AND {FTS}.rowid <= ?{w.and_sql()} ORDER BY {FTS}.rowid DESC"
        )
        cur = self.db.conn.execute(walk, (safe, top, *w.args))
        try:
            return self._fts_fast_walk(cur, safe, w, k, top, upper, complete)
        finally:
            cur.close()

    def _fts_fast_walk(
        self, cur: Any, safe: str, w: Where, k: int, top: int, upper: int, complete: bool
    ) -> list:
        walked = [(r[0], r[1]) for r in cur.fetchmany(k)]

        def exact() -> list:
            if upper == INT64_MAX:
                # The walk started at the newest id: the rest of it is every other hit. Few are
                # expected here, so finishing the walk is cheaper than a second FTS query.
                everything = walked + [(r[0], r[1]) for r in cur]
                if all(type(t) is int for t, _ in everything):
                    return sorted(everything, reverse=True)[:k]
            return self._fts_exact(safe, w, k)

        if not all(type(t) is int for t, _ in walked):
            return self._fts_exact(safe, w, k)  # non-integer timestamps: no shortcut
        walked.sort(reverse=True)
        if len(walked) < k:
            # Every hit up to ``top``: all of them when no hit has a greater id, else ask the index.
            return walked if complete else self._fts_exact(safe, w, k)
        t_k = walked[-1][0]
        x_last = min(i for _t, i in walked)
        cap = self._scan_cap(k, x_last, top)
        # Rows outside the walked id interval [x_last, top] that could still rank in the page.
        n, n_out, out_ids = self.db.conn.execute(
            "SELECT count(*), count(CASE WHEN id < :x OR id > :top THEN 1 END), "
            "group_concat(CASE WHEN id < :x OR id > :top THEN id END) "
            f"FROM (SELECT id FROM {MSG} WHERE timestamp >= :tk AND timestamp <= :up LIMIT :cap)",
            {"x": x_last, "top": top, "tk": t_k, "up": upper, "cap": cap},
        ).fetchone()
        if n >= cap or n_out > FAST_OUT_OF_ORDER_CAP:
            return exact()
        if n_out == 0:
            return walked
        extra = self._fts_check_ids(safe, w, [int(s) for s in out_ids.split(",")])
        merged = sorted(set(walked) | set(extra), reverse=True)
        return merged[:k]

    def _scan_cap(self, k: int, x_last: int, top: int) -> int:
        """How many timestamp-index entries step 3 may read before the exact sort is cheaper.

        The walk found ``k`` hits among the ``span`` newest ids, so the query has about
        ``k * rows / span`` hits in all (a uniform estimate); reading more index entries than
        :data:`FAST_COST_RATIO` times that would cost more than sorting them.
        """
        hi = self.db.conn.execute(f"SELECT max(rowid) FROM {MSG}").fetchone()[0]
        lo = self.db.conn.execute(f"SELECT min(rowid) FROM {MSG}").fetchone()[0]
        if hi is None or lo is None:
            return FAST_SCAN_MIN
        span = max(1, top - x_last + 1)
        est_hits = k * (int(hi) - int(lo) + 1) / span
        return int(min(FAST_SCAN_CAP, max(FAST_SCAN_MIN, FAST_COST_RATIO * est_hits)))
