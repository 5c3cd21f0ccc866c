"""How often an event or a task repeats, as a code and parameters a person's words can be made from.

The agent stores two kinds of repetition: an event's ``rrule`` (``FREQ=DAILY|WEEKLY`` with ``INTERVAL``,
``COUNT`` and ``UNTIL``, read exactly as :func:`core.calendar.parse_rrule` reads it) and a task's
``cron_expr`` (``interval:<ms>``, :func:`core.schedules.parse_interval`). :func:`event_repeat` and
:func:`task_repeat` turn either into a :class:`Repeat`; the desktop app words it ("every day, 200 times",
"weekly on Monday until 1 March") in the interface's language. Nothing here is English a person reads.

* ``once``: one occurrence (no rule, ``COUNT=1``, or an ``INTERVAL`` that is not a number, which the
  agent's parser expands to the first occurrence only);
* ``every``: ``n`` ``unit`` (``week``, ``day``, ``hour``, ``minute``, ``second``, ``millisecond``), with
  ``weekday`` (ISO: 1 = Monday … 7 = Sunday) for a weekly event, ``count`` and ``until`` (epoch ms,
  inclusive; ``until_date_only`` when the rule gave a date, which means 23:59:59 UTC that day);
* ``unparsed``: the stored text, which the agent reads as "no repetition" (events) or "runs once" (tasks).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from core.calendar import DAY_MS, WEEK_MS, parse_rrule
from core.jsutil import js_trim
from core.schedules import parse_interval

HOUR_MS = 3_600_000
MINUTE_MS = 60_000
# Largest first: a step is said in the largest unit it is a whole number of.
_UNITS = (("week", WEEK_MS), ("day", DAY_MS), ("hour", HOUR_MS), ("minute", MINUTE_MS), ("second", 1000))


@dataclass(frozen=True)
class Repeat:
    code: str  # "once" | "every" | "unparsed"
    unit: str | None = None
    n: int = 1
    weekday: int | None = None
    count: int | None = None
    until: int | None = None
    until_date_only: bool = False
    text: str | None = None  # the stored rule ("unparsed")


def step_units(step_ms: int) -> tuple[str, int]:
    """``(unit, n)``: a step in the largest unit it is a whole number of (``(“millisecond”, ms)`` else)."""
    for unit, size in _UNITS:
        if step_ms % size == 0:
            return unit, step_ms // size
    return "millisecond", step_ms


def zone_of(name: str | None) -> tzinfo | None:
    """The IANA zone ``name``, or ``None`` (the computer's zone) when it is empty or unknown."""
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None


def weekday_of(ms: int, zone: tzinfo | None = None) -> int | None:
    """ISO weekday (1 = Monday) of ``ms`` in ``zone`` (the computer's zone for ``None``)."""
    try:
        if zone is None:
            return datetime.fromtimestamp(ms / 1000).isoweekday()
        return datetime.fromtimestamp(ms / 1000, UTC).astimezone(zone).isoweekday()
    except (OverflowError, OSError, ValueError):
        return None


def _whole(x: float | int | None) -> int | None:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return None
    return int(x) if float(x).is_integer() else None


def event_repeat(rrule: str | None, starts_at: int, zone: tzinfo | None = None) -> Repeat:
    """The repetition of an event starting at ``starts_at``; ``zone`` decides the weekday of a weekly one."""
    if not rrule:
        return Repeat("once")
    parsed = parse_rrule(str(rrule))
    if parsed is None:
        return Repeat("unparsed", text=str(rrule))
    if isinstance(parsed.interval, float) and math.isnan(parsed.interval):
        return Repeat("once")
    count = _whole(parsed.count) if parsed.count is not None else None
    if parsed.count is not None and count is None and not math.isnan(parsed.count):
        count = math.ceil(parsed.count)  # COUNT=2.5: occurrences 0, 1, 2
    if count == 1:
        return Repeat("once")
    until_raw = next(
        (js_trim(p)[6:] for p in str(rrule).split(";") if js_trim(p).upper().startswith("UNTIL=")), ""
    )
    extra: dict[str, Any] = {
        "count": count,
        "until": parsed.until,
        "until_date_only": parsed.until is not None and len(until_raw) == 8,
    }
    n = _whole(parsed.interval)
    if parsed.freq == "WEEKLY" and n is not None:
        return Repeat("every", "week", n, weekday=weekday_of(starts_at, zone), **extra)
    if parsed.freq == "DAILY" and n is not None:
        return Repeat("every", "day", n, **extra)
    step = parsed.interval * (DAY_MS if parsed.freq == "DAILY" else WEEK_MS)
    unit, k = step_units(round(step))
    return Repeat("every", unit, k, **extra)


def task_repeat(cron_expr: str | None) -> Repeat:
    """The repetition of a task: ``once`` (NULL), ``every`` for ``interval:<ms>``, else ``unparsed``."""
    step = parse_interval(cron_expr)
    if step is not None:
        unit, n = step_units(step)
        return Repeat("every", unit, n)
    if cron_expr:
        return Repeat("unparsed", text=str(cron_expr))
    return Repeat("once")
