"""Messages per day, for the timeline's chart (the day counts of :meth:`core.timeline.RawStore.daily_counts`),
and the messages whose time no date can hold, which are in no day.

Read from the indexes only: the timestamp index without a session filter, the session index or the
origin index (:mod:`core.conversations`) with one.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.damage import JS_TIME_MAX
from core.schema import GLOBAL_SESSION_ID, ORIGIN_INDEX
from core.search.rows import RowReader
from core.search.sql import INT64_MAX, INT64_MIN, MSG, placeholders

DAY_MS = 86_400_000


class DailyCounts:
    """The day counts of one :class:`~core.timeline.RawStore`'s file."""

    def __init__(self, raw: RowReader):
        self.raw = raw
        self.db = raw.db

    def daily_counts(
        self,
        since: int | None = None,
        until: int | None = None,
        session_ids: Sequence[str] | None = None,
        tz_offset_minutes: int = 0,
        *,
        conversations: Sequence[str] | None = None,
    ) -> list[tuple[int, int]]:
        """Messages per day: ``[(day_start_ms, count)]`` for the days that have messages, oldest first.

        A day is a UTC day shifted by ``tz_offset_minutes`` (minutes east of UTC, e.g. 480 for UTC+8;
        a fixed offset, so DST changes are not followed). ``day_start_ms`` is that local midnight in
        epoch ms. ``since``/``until`` bound the timestamps counted (inclusive).

        Without a session filter the counts come from the timestamp index only (two index seeks and one
        range count per day with messages). With one, whichever of "the selected sessions" and "all
        minus the other sessions" holds fewer rows is counted through the session index.
        ``conversations`` (not in the reference) counts the rows of those conversations only (see
        :meth:`query_timeline`; an empty list counts nothing), read through the indexes that list them.

        A message whose time no date can hold (beyond ±8.64e15 ms, text, a BLOB, NULL) is in no day:
        :meth:`count_timeless` counts those.
        """
        off = int(tz_offset_minutes) * 60_000
        lo = max(-JS_TIME_MAX, INT64_MIN if since is None else int(since))
        hi = min(JS_TIME_MAX, INT64_MAX if until is None else int(until))
        if lo > hi:
            return []
        if conversations is not None:
            return self._daily_conversations(conversations, lo, hi, off)
        if session_ids:
            wanted = set(session_ids)
            present = self.raw.session_ids_with_messages()
            inc = [s for s in present if s in wanted]
            exc = [s for s in present if s not in wanted]
            if not inc:
                return []
            if exc:
                n_inc = self._session_rows(inc)
                n_exc = self._session_rows(exc)
                if n_inc <= n_exc:
                    return self._daily_grouped(inc, lo, hi, off)
                base = dict(self._daily_all(lo, hi, off))
                for day, c in self._daily_grouped(exc, lo, hi, off):
                    base[day] = base.get(day, 0) - c
                return sorted((d, c) for d, c in base.items() if c > 0)
        return self._daily_all(lo, hi, off)

    def _session_rows(self, session_ids: Sequence[str]) -> int:
        sql = f"SELECT count(*) FROM {MSG} WHERE session_id IN ({placeholders(len(session_ids))})"
        with self.db.lock:
            return self.db.conn.execute(sql, tuple(session_ids)).fetchone()[0]

    def _daily_all(self, lo: int, hi: int, off: int) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        with self.db.lock:
            c = self.db.conn
            t = c.execute(
                f"SELECT min(timestamp) FROM {MSG} WHERE timestamp >= ? AND timestamp <= ?", (lo, hi)
            ).fetchone()[0]
            while t is not None:
                start = ((int(t) + off) // DAY_MS) * DAY_MS - off
                end = start + DAY_MS
                n = c.execute(
                    f"SELECT count(*) FROM {MSG} WHERE timestamp >= ? AND timestamp < ? AND timestamp <= ?",
                    (t, end, hi),
                ).fetchone()[0]
                out.append((start, n))
                if end > hi:
                    break
                t = c.execute(
                    f"SELECT min(timestamp) FROM {MSG} WHERE timestamp >= ? AND timestamp <= ?", (end, hi)
                ).fetchone()[0]
        return out

    @staticmethod
    def _day_sql(off: int) -> str:
        return f"((timestamp + {off}) - (((timestamp + {off}) % {DAY_MS}) + {DAY_MS}) % {DAY_MS}) - {off}"

    def _daily_grouped(self, session_ids: Sequence[str], lo: int, hi: int, off: int) -> list[tuple[int, int]]:
        sql = (
            f"SELECT {self._day_sql(off)} AS d, count(*) FROM {MSG} "
            f"WHERE session_id IN ({placeholders(len(session_ids))}) AND timestamp >= ? AND timestamp <= ? "
            "GROUP BY d ORDER BY d"
        )
        with self.db.lock:
            return [(r[0], r[1]) for r in self.db.conn.execute(sql, (*session_ids, lo, hi))]

    def _daily_conversations(
        self, conversations: Sequence[str], lo: int, hi: int, off: int
    ) -> list[tuple[int, int]]:
        """Per-day counts of the rows of some conversations: each origin's rows from the origin index,
        the rows without origin of the named sessions as :meth:`core.timeline.RawStore.query_timeline` reads them."""
        ids = list(dict.fromkeys(conversations))
        if not ids:
            return []
        if not self.raw.has_origin():
            return self._daily_grouped(ids, lo, hi, off)
        parts = self._conversation_parts(ids)
        days: dict[int, int] = {}
        with self.db.lock:
            for where in parts:
                sql = (
                    f"SELECT {self._day_sql(off)} AS d, count(*) FROM {MSG} {where} "
                    "AND timestamp >= ? AND timestamp <= ? GROUP BY d"
                )
                for d, n in self.db.conn.execute(sql, (*ids, lo, hi)):
                    days[d] = days.get(d, 0) + n
        return sorted(days.items())

    def _conversation_parts(self, ids: Sequence[str]) -> tuple[str, str]:
        """The two ``FROM … WHERE`` tails (each bound to ``ids``) that list the rows of some conversations
        on a file with origins: the origins' rows, and the origin-less rows of the named sessions."""
        ph = placeholders(len(ids))
        indexed = f"INDEXED BY {ORIGIN_INDEX}" if self.raw.has_origin_index() else ""
        null_part = (
            f"{indexed} WHERE origin_session_id IS NULL AND +session_id IN ({ph})"
            if GLOBAL_SESSION_ID in ids and indexed
            else f"WHERE session_id IN ({ph}) AND +origin_session_id IS NULL"
        )
        return f"{indexed} WHERE origin_session_id IN ({ph})", null_part

    def count_timeless(self, conversations: Sequence[str] | None = None) -> int:
        """The messages :meth:`daily_counts` leaves out: a time no date can hold (beyond ±8.64e15 ms, text,
        a BLOB, NULL). Without ``conversations`` three seeks of the timestamp index (text and BLOBs sort
        after every number); with them, the rows of those conversations are read through their indexes."""
        rng = (-JS_TIME_MAX, JS_TIME_MAX)
        bad = "(timestamp IS NULL OR NOT (timestamp BETWEEN ? AND ?))"
        with self.db.lock:
            c = self.db.conn
            if conversations is None:
                return sum(
                    c.execute(f"SELECT count(*) FROM {MSG} WHERE {cond}", args).fetchone()[0]
                    for cond, args in (
                        ("timestamp < ?", (rng[0],)),
                        ("timestamp > ?", (rng[1],)),
                        ("timestamp IS NULL", ()),
                    )
                )
            ids = list(dict.fromkeys(conversations))
            if not ids:
                return 0
            if not self.raw.has_origin():
                sql = f"SELECT count(*) FROM {MSG} WHERE session_id IN ({placeholders(len(ids))}) AND {bad}"
                return c.execute(sql, (*ids, *rng)).fetchone()[0]
            return sum(
                c.execute(f"SELECT count(*) FROM {MSG} {where} AND {bad}", (*ids, *rng)).fetchone()[0]
                for where in self._conversation_parts(ids)
            )
