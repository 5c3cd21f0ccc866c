"""Calendar events (``memory_calendar``): one-time and minimally recurring events.

Times are epoch milliseconds in UTC; ``timezone`` is an IANA name kept for display only. A recurring event
carries an iCalendar-style ``rrule`` of which only ``FREQ=DAILY|WEEKLY``, ``INTERVAL``, ``COUNT`` and
``UNTIL`` are understood (spec Part A §7, Part C d), exactly as the reference's minimal parser reads them:

* occurrences step by a fixed 86 400 000 or 604 800 000 ms times the interval (no DST, no BYDAY);
* ``COUNT`` counts occurrences from the start, including those before the window;
* ``UNTIL`` (``YYYYMMDD`` = 23:59:59Z that day, ``YYYYMMDDTHHMMSSZ``, or any ``Date.parse`` string)
  is inclusive;
* expansion stops after 10 000 occurrences;
* an rrule that cannot be parsed (or an empty one) makes the event one-time;
* both ends of a window are inclusive.

Numbers inside the rrule are read with JavaScript's ``Number()`` semantics, so ``INTERVAL=abc`` (NaN)
yields only the first occurrence and ``COUNT=abc`` means no count limit, as in the reference.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, NamedTuple

from core.errors import ValidationError_
from core.ids import new_id
from core.jsutil import date_parse, js_max, js_slice, js_string_to_number, js_trim, now_ms, utf16_len
from core.models import CalendarEvent

if TYPE_CHECKING:
    from core.db import MemoryDB

DAY_MS = 86_400_000
WEEK_MS = 7 * DAY_MS
MAX_EXPANSIONS = 10_000


class ParsedRrule(NamedTuple):
    freq: str
    interval: float
    count: float | None  # type: ignore[assignment]  # the RRULE's COUNT, shadowing tuple.count
    until: int | float | None


def parse_rrule(rrule: str) -> ParsedRrule | None:
    """The reference's minimal RRULE parser; ``None`` when FREQ is not exactly DAILY or WEEKLY."""
    kv: dict[str, str] = {}
    for part in rrule.split(";"):
        p = js_trim(part)
        eq = p.find("=")
        if eq == -1:
            continue
        kv[p[:eq].upper()] = p[eq + 1 :]
    freq = kv.get("FREQ")
    if freq not in ("DAILY", "WEEKLY"):
        return None
    interval = js_max(1, js_string_to_number(kv.get("INTERVAL", "1")))
    count_raw = kv.get("COUNT")
    count = js_max(1, js_string_to_number(count_raw)) if count_raw else None
    until: int | float | None = None
    until_raw = kv.get("UNTIL")
    if until_raw:
        n = utf16_len(until_raw)
        u = until_raw
        if n == 8:
            iso = f"{js_slice(u, 0, 4)}-{js_slice(u, 4, 6)}-{js_slice(u, 6, 8)}T23:59:59Z"
        elif n >= 15:
            iso = (
                f"{js_slice(u, 0, 4)}-{js_slice(u, 4, 6)}-{js_slice(u, 6, 8)}"
                f"T{js_slice(u, 9, 11)}:{js_slice(u, 11, 13)}:{js_slice(u, 13, 15)}Z"
            )
        else:
            iso = u
        until = date_parse(iso)
    return ParsedRrule(freq, interval, count, until)


def expand_occurrences(starts_at: int, rrule: str | None, from_ms: float, to_ms: float) -> list[int]:
    """Occurrence starts of one event inside ``[from_ms, to_ms]`` (both inclusive)."""
    parsed = parse_rrule(str(rrule)) if rrule else None
    if parsed is None:
        return [starts_at] if from_ms <= starts_at <= to_ms else []
    step = parsed.interval * (DAY_MS if parsed.freq == "DAILY" else WEEK_MS)
    if isinstance(step, float) and step.is_integer():
        step = int(step)
    out: list[int] = []
    n = 0
    current: float | int = starts_at
    while n < MAX_EXPANSIONS:
        if parsed.count is not None and n >= parsed.count:
            break
        if parsed.until is not None and current > parsed.until:
            break
        if current > to_ms:
            break
        if current >= from_ms:
            out.append(current if isinstance(current, int) else math.trunc(current))
        n += 1
        current = current + step
        if isinstance(current, float) and math.isnan(current):
            break  # every later comparison is false: nothing more can be emitted
    return out


def _now(now: int | None) -> int:
    return now_ms() if now is None else int(now)


class CalendarStore:
    """Events of one memory database."""

    def __init__(self, db: MemoryDB):
        self.db = db

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[CalendarEvent]:
        with self.db.lock:
            rows = self.db.conn.execute(sql, params).fetchall()
        return [CalendarEvent.from_row(r) for r in rows]

    def create(
        self,
        title: str,
        starts_at: float,
        ends_at: float | None = None,
        rrule: str | None = None,
        timezone: str = "",
        related_fact_id: str | None = None,
        external_ref: str | None = None,
        *,
        now: int | None = None,
    ) -> CalendarEvent:
        """Insert an event. Raises :class:`ValidationError_` with the reference's messages:

        ``CalendarEvent: timezone is required (IANA string)`` and
        ``CalendarEvent: ends_at cannot be earlier than starts_at``.
        """
        if not timezone:
            raise ValidationError_(
                "CalendarEvent: timezone is required (IANA string)", code="calendar.timezone_required"
            )
        if ends_at is not None and ends_at < starts_at:
            raise ValidationError_(
                "CalendarEvent: ends_at cannot be earlier than starts_at", code="calendar.ends_before_start"
            )
        event_id = new_id()
        with self.db.write() as conn:
            conn.execute(
                "INSERT INTO memory_calendar (id, title, starts_at, ends_at, rrule, timezone, "
                "related_fact_id, external_ref, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    event_id,
                    title,
                    starts_at,
                    ends_at,
                    rrule,
                    timezone,
                    related_fact_id,
                    external_ref,
                    _now(now),
                ),
            )
            row = conn.execute("SELECT * FROM memory_calendar WHERE id = ?", (event_id,)).fetchone()
        return CalendarEvent.from_row(row)

    def get(self, event_id: str) -> CalendarEvent | None:
        rows = self._rows("SELECT * FROM memory_calendar WHERE id = ? LIMIT 1", (event_id,))
        return rows[0] if rows else None

    def find_by_external_ref(self, ref: str) -> CalendarEvent | None:
        rows = self._rows("SELECT * FROM memory_calendar WHERE external_ref = ? LIMIT 1", (ref,))
        return rows[0] if rows else None

    def list_all(self) -> list[CalendarEvent]:
        """Every event, by base start then storage order."""
        return self._rows("SELECT * FROM memory_calendar ORDER BY starts_at ASC, rowid ASC")

    def count(self) -> int:
        with self.db.lock:
            return int(self.db.conn.execute("SELECT COUNT(*) FROM memory_calendar").fetchone()[0])

    def delete(self, event_id: str) -> bool:
        with self.db.write() as conn:
            cur = conn.execute("DELETE FROM memory_calendar WHERE id = ?", (event_id,))
        return cur.rowcount > 0

    def list_between(self, from_ms: float, to_ms: float) -> list[tuple[CalendarEvent, int]]:
        """Occurrences in ``[from_ms, to_ms]`` as ``(event, occurrence_start_ms)``, by occurrence start.

        One-time events qualify when ``from <= starts_at <= to``; recurring ones are expanded when they
        start at or before ``to``. Ties keep the SQL order (``starts_at``, then storage order).
        """
        if any(isinstance(x, float) and math.isnan(x) for x in (from_ms, to_ms)) or to_ms < from_ms:
            return []
        events = self._rows(
            "SELECT * FROM memory_calendar WHERE (rrule IS NULL AND starts_at BETWEEN ? AND ?) "
            "OR (rrule IS NOT NULL AND starts_at <= ?) ORDER BY starts_at ASC",
            (from_ms, to_ms, to_ms),
        )
        out: list[tuple[CalendarEvent, int]] = []
        for ev in events:
            for occ in expand_occurrences(ev.starts_at, ev.rrule, from_ms, to_ms):
                out.append((ev, occ))
        out.sort(key=lambda pair: pair[1])
        return out

    def upcoming(
        self, window_ms: float = 7 * DAY_MS, now: int | None = None
    ) -> list[tuple[CalendarEvent, int]]:
        """``list_between(now, now + window_ms)``."""
        start = _now(now)
        return self.list_between(start, start + window_ms)
