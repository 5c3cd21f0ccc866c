"""Template text of the demo data: slot values, days relative to now, placeholders.

Templates are :meth:`str.format_map` strings. A conversation's values live in a :class:`Slots` mapping;
a name it does not hold is computed from the conversation's time and the generator's ``now``:

* ``{date}`` is the conversation's day, ``{@+3}`` the day 3 days after it, ``{#-24}`` the day 24 days
  before ``now`` (the persona's calendar days, Asia/Shanghai: stories are dated relative to ``now``). A
  format spec chooses the form: "22 May", ``:zh`` "5月22日", ``:wd`` "Friday", ``:wd_zh`` "周五",
  ``:full`` "Friday 22 May", ``:full_zh`` "5月22日（周五）", ``:iso`` "2026-05-22";
* ``{@+7sat}`` is the Saturday on or before that day (``mon`` … ``sun``): with ``+7``, next Saturday;
  ``{#-21sat+2}`` is two days after the Saturday on or before day -21.

Standard library only.
"""

from __future__ import annotations

import re
import string
from datetime import UTC, datetime
from typing import Any

DAY_MS = 86_400_000
HOUR_MS = 3_600_000
MINUTE_MS = 60_000
#: The persona lives in Hangzhou: her calendar days and "local" times are UTC+8.
LOCAL_OFFSET_MS = 8 * HOUR_MS

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_WD_EN = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_WD_ZH = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")  # fmt: skip
_DAY_KEY = re.compile(r"([@#])([+-]\d+)(mon|tue|wed|thu|fri|sat|sun)?([+-]\d+)?")
_FORMATTER = string.Formatter()


def placeholders(template: str) -> set[str]:
    """The field names a template uses (``{a}``, ``{@-3:zh}`` → ``{"a", "@-3"}``)."""
    return {name for _lit, name, _spec, _conv in _FORMATTER.parse(template) if name}


def local_day_start(t: int) -> int:
    """Epoch ms of the local midnight that begins the day holding ``t``."""
    return (t + LOCAL_OFFSET_MS) // DAY_MS * DAY_MS - LOCAL_OFFSET_MS


def day_at(now: int, day: int, hhmm: str = "00:00", weekday: str | None = None) -> int:
    """Epoch ms of local ``hhmm`` on the day ``day`` days from the local day of ``now``.

    With ``weekday`` (``mon`` … ``sun``) the day moves back to that weekday (0-6 days earlier).
    """
    start = local_day_start(now) + day * DAY_MS
    if weekday is not None:
        back = (Day(start).weekday - WEEKDAYS.index(weekday)) % 7
        start -= back * DAY_MS
    h, m = hhmm.split(":")
    return start + int(h) * HOUR_MS + int(m) * MINUTE_MS


class Day:
    """A local calendar day, formatted by spec (see the module docstring)."""

    __slots__ = ("dt",)

    def __init__(self, t: int):
        self.dt = datetime.fromtimestamp((t + LOCAL_OFFSET_MS) / 1000, UTC)

    @property
    def weekday(self) -> int:
        return self.dt.weekday()

    def __format__(self, spec: str) -> str:
        d = self.dt
        if spec in ("", "en"):
            return f"{d.day} {_MONTHS[d.month - 1]}"
        if spec == "zh":
            return f"{d.month}月{d.day}日"
        if spec == "wd":
            return _WD_EN[d.weekday()]
        if spec == "wd_zh":
            return _WD_ZH[d.weekday()]
        if spec == "full":
            return f"{_WD_EN[d.weekday()]} {d.day} {_MONTHS[d.month - 1]}"
        if spec == "full_zh":
            return f"{d.month}月{d.day}日（{_WD_ZH[d.weekday()]}）"
        if spec == "iso":
            return d.strftime("%Y-%m-%d")
        if spec == "ymd":
            return d.strftime("%Y%m%d")
        raise ValueError(f"unknown day format {spec!r}")


class Slots(dict):
    """The values of one conversation's templates; day names are computed on first use."""

    __slots__ = ("now", "t")

    def __init__(self, values: dict[str, Any], t: int, now: int):
        super().__init__(values)
        self.t = t
        self.now = now

    def __missing__(self, key: str) -> Any:
        if key == "date":
            value: Any = Day(self.t)
        else:
            m = _DAY_KEY.fullmatch(key)
            if m is None:
                raise KeyError(key)
            base = self.t if m.group(1) == "@" else self.now
            value = Day(day_at(base, int(m.group(2)), weekday=m.group(3)) + int(m.group(4) or 0) * DAY_MS)
        self[key] = value
        return value


def is_computed(name: str) -> bool:
    """Whether a placeholder is one :class:`Slots` computes (``date``, ``@±N``, ``#±N``)."""
    return name == "date" or _DAY_KEY.fullmatch(name) is not None


_AT = re.compile(r"([+-]\d+)(mon|tue|wed|thu|fri|sat|sun)?([+-]\d+)?(?:T(\d\d):(\d\d))?")


def at_spec(now: int, spec: str, tz: str = "Asia/Shanghai") -> int:
    """Epoch ms of a dated moment of the data files, relative to ``now``'s local day.

    ``-24`` is local midnight 24 days before today, ``-24T13:40`` 13:40 that day in the zone ``tz``,
    ``-62fri`` the Friday on or before day -62 and ``-62fri+1T10:00`` 10:00 on the day after it
    (``-62fri-1`` the day before).
    """
    m = _AT.fullmatch(spec)
    if m is None:
        raise ValueError(f"not a time of the data files: {spec!r}")
    day = day_at(now, int(m.group(1)), weekday=m.group(2)) + int(m.group(3) or 0) * DAY_MS
    if m.group(4) is None:
        return day
    utc_midnight = day + LOCAL_OFFSET_MS  # the same calendar date, midnight UTC
    t = utc_midnight + int(m.group(4)) * HOUR_MS + int(m.group(5)) * MINUTE_MS
    return t - zone_offset_ms(tz, t)


def local_iso(t: int, offset_ms: int = LOCAL_OFFSET_MS) -> str:
    """``2026-05-22T16:00:00+08:00``: ``t`` written in a fixed UTC offset, as the agent passes times."""
    d = datetime.fromtimestamp((t + offset_ms) / 1000, UTC)
    sign = "+" if offset_ms >= 0 else "-"
    off = abs(offset_ms) // MINUTE_MS
    return d.strftime("%Y-%m-%dT%H:%M:%S") + f"{sign}{off // 60:02d}:{off % 60:02d}"


def europe_offset_ms(t: int) -> int:
    """UTC offset of Central European time at ``t`` (EU summer time: last Sunday of March to October)."""
    d = datetime.fromtimestamp(t / 1000, UTC)

    def last_sunday(month: int) -> int:
        day = 31
        while datetime(d.year, month, day, tzinfo=UTC).weekday() != 6:
            day -= 1
        return int(datetime(d.year, month, day, 1, tzinfo=UTC).timestamp() * 1000)

    summer = last_sunday(3) <= t < last_sunday(10)
    return (2 if summer else 1) * HOUR_MS


def zone_offset_ms(tz: str, t: int) -> int:
    """UTC offset of the few zones the demo uses (no tz database needed)."""
    if tz in ("Asia/Shanghai", "Asia/Singapore"):
        return 8 * HOUR_MS
    if tz == "Asia/Tokyo":
        return 9 * HOUR_MS
    if tz == "Europe/Berlin":
        return europe_offset_ms(t)
    if tz == "Europe/Lisbon":
        return europe_offset_ms(t) - HOUR_MS
    return 0
