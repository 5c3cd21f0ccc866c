"""The Calendar tab's agenda and month, without Qt: what happens when, from the rows the tab loaded.

* :func:`agenda_order`: the ``list_upcoming`` items merged by time, overdue tasks first (a paused task is
  not overdue: it waits for its pause), events before tasks at the same time.
* :func:`month_days` and :func:`month_entries`: the 6 × 7 days of a month grid (weeks start on Monday) and
  what falls on each, in the computer's time zone: the occurrences of every event (expanded as the agent
  expands them, :func:`core.calendar.expand_occurrences`) and the next run of every enabled task.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from core.calendar import expand_occurrences
from core.models import CalendarEvent, Schedule
from core.upcoming import UpcomingItem


def agenda_order(items: Iterable[UpcomingItem], paused: Mapping[str, int]) -> list[UpcomingItem]:
    """Overdue tasks first (oldest first), then everything by time; ties keep ``list_upcoming``'s order."""

    def key(i: UpcomingItem) -> tuple[int, int, int]:
        late = i.kind == "task" and i.overdue and i.source_id not in paused
        return (0 if late else 1, i.at, 0 if i.kind == "event" else 1)

    return sorted(items, key=key)


@dataclass(frozen=True)
class DayEntry:
    """One thing on a day: ``status`` is ``""``, ``"overdue"`` or ``"paused"``."""

    at: int
    kind: str  # "event" | "task"
    title: str
    source_id: str
    status: str = ""
    damaged: bool = False  # a value of the event or task is unreadable (core.damage): marked where shown


def local_ms(day: dt.date) -> int:
    """Midnight of ``day`` in the computer's time zone, in epoch ms."""
    return int(dt.datetime(day.year, day.month, day.day).timestamp() * 1000)


def local_date(ms: int) -> dt.date:
    return dt.datetime.fromtimestamp(ms / 1000).date()


def month_of(ms: int) -> tuple[int, int]:
    d = local_date(ms)
    return d.year, d.month


def shift_month(year: int, month: int, delta: int) -> tuple[int, int]:
    k = year * 12 + (month - 1) + delta
    return k // 12, k % 12 + 1


def month_days(year: int, month: int) -> list[dt.date]:
    """The 42 days of the grid: from the Monday on or before the 1st."""
    first = dt.date(year, month, 1)
    start = first - dt.timedelta(days=first.weekday())
    return [start + dt.timedelta(days=i) for i in range(42)]


def _task_run(s: Schedule, now: int, paused: Mapping[str, int]) -> DayEntry:
    """A task on the day of its next run (what the agent has scheduled; later runs depend on when it
    actually runs, so they are not guessed)."""
    until = paused.get(s.id)
    if until is not None:
        status = "paused"
    elif s.next_run_at < now:
        status = "overdue"
    else:
        status = ""
    return DayEntry(s.next_run_at, "task", s.name, s.id, status, bool(s.damaged))


def month_entries(
    events: Iterable[CalendarEvent],
    schedules: Iterable[Schedule],
    days: list[dt.date],
    now: int,
    paused: Mapping[str, int],
) -> dict[dt.date, list[DayEntry]]:
    """What falls on each of ``days`` (consecutive), by time; disabled tasks are left out."""
    from_ms = local_ms(days[0])
    to_ms = local_ms(days[-1] + dt.timedelta(days=1)) - 1
    found: list[DayEntry] = []
    for e in events:
        for at in expand_occurrences(e.starts_at, e.rrule, from_ms, to_ms):
            found.append(DayEntry(at, "event", e.title, e.id, damaged=bool(e.damaged)))
    for s in schedules:
        if s.enabled and from_ms <= s.next_run_at <= to_ms:
            found.append(_task_run(s, now, paused))
    out: dict[dt.date, list[DayEntry]] = {d: [] for d in days}
    for entry in sorted(found, key=lambda x: (x.at, 0 if x.kind == "event" else 1)):
        day = local_date(entry.at)
        if day in out:
            out[day].append(entry)
    return out
