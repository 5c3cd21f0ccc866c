"""The ids of the messages before each replayed turn, read once as the turns come in order.

:class:`TopIds` reads the messages between one turn's bound and the next (a "step", a few rows) and keeps
what later questions need without reading them again:

* the greatest id before the bound (:meth:`TopIds.top`): every message before the turn has an id at most
  that, so a full-text query bounded by it in the index (``rowid <= top``) skips the hits written later
  without changing its answer;
* the least id of the messages from an earlier bound to the current one (:meth:`TopIds.low`, from the
  least id of each step kept as the minima of every suffix of the steps).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from typing import TYPE_CHECKING

from core.search.sql import MSG, Where, keyset_cond

if TYPE_CHECKING:
    from core.db import MemoryDB

__all__ = ["TopIds"]


class TopIds:
    """See the module docstring. The bounds must come in order for what is kept to extend; a bound that
    does not move forward starts again."""

    def __init__(self, db: MemoryDB):
        self.db = db
        self.last: tuple[tuple[int, int], int | None] | None = None
        self._bounds = (array("q"), array("q"))  # every bound since the first, in order: times, ids
        self._suffix = (array("q"), array("q"))  # (step, least id) with least ids increasing

    def top(self, before: tuple[int, int]) -> int | None:
        """The greatest id before ``before`` (None: no message)."""
        prev = self.last
        if prev is not None and prev[0] == before:
            return prev[1]
        w = Where()
        conn = self.db.conn
        with self.db.lock:
            if prev is not None and prev[0] < before:
                keyset_cond(w, "", before, (prev[0][0], prev[0][1] - 1))
                sql = f"SELECT min(id), max(id) FROM {MSG}{w.where_sql()}"
                least, got = conn.execute(sql, w.args).fetchone()
            else:
                prev = None
                keyset_cond(w, "", before, None)
                # One each: SQLite then walks the ids from either end, not every row before.
                got = conn.execute(f"SELECT max(id) FROM {MSG}{w.where_sql()}", w.args).fetchone()[0]
                least = conn.execute(f"SELECT min(id) FROM {MSG}{w.where_sql()}", w.args).fetchone()[0]
        top = got if prev is None or prev[1] is None else max(prev[1], got or prev[1])
        self.last = (before, top)
        self._step(before, least, restart=prev is None)
        return top

    def _step(self, before: tuple[int, int], least: int | None, *, restart: bool) -> None:
        times, ids = self._bounds
        steps, lows = self._suffix
        if restart:
            for a in (times, ids, steps, lows):
                del a[:]
        times.append(before[0])
        ids.append(before[1])
        if least is None:
            return
        while lows and lows[-1] >= least:
            steps.pop()
            lows.pop()
        steps.append(len(times) - 1)
        lows.append(least)

    def low(self, since: tuple[int, int], before: tuple[int, int]) -> int | bool | None:
        """The least id of the messages from ``since`` (inclusive) to ``before`` (exclusive), when both are
        bounds :meth:`top` was given and ``before`` the latest: an int, None when there are none; else
        False (not known: ask the database)."""
        times, ids = self._bounds
        if self.last is None or self.last[0] != before or not times:
            return False
        i = bisect_left(times, since[0])
        while i < len(times) and times[i] == since[0] and ids[i] < since[1]:
            i += 1
        if i >= len(times) or (times[i], ids[i]) != since:
            return False
        steps, lows = self._suffix
        k = bisect_left(steps, i + 1)  # the first step after ``since``'s: the least of them all
        return lows[k] if k < len(steps) else None
