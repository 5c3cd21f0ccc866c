"""What the Calendar tab shows, without Qt: the window of days, the clock, what was loaded, the filter."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from core.models import CalendarEvent, Schedule
from core.upcoming import DEFAULT_WINDOW_DAYS, UpcomingItem, UpcomingResult
from philont_desktop.tabs.state import TabState

VIEWS = ("upcoming", "events", "tasks")


@dataclass(frozen=True)
class CalendarCounts:
    """The summary line's numbers: occurrences and tasks in the window, and how many tasks are overdue
    (paused ones are not: they wait for their pause), paused, disabled."""

    events: int = 0
    tasks: int = 0
    overdue: int = 0
    paused: int = 0
    disabled: int = 0


@dataclass(eq=False)
class CalendarState(TabState):
    """``selected`` is ``(view, key)`` of the current row (``view`` one of :data:`VIEWS`)."""

    days: int = DEFAULT_WINDOW_DAYS
    filter_text: str = ""
    fixed_now: int | None = None  # tests and screenshots pin the clock
    now: int = 0
    result: UpcomingResult | None = None
    events: tuple[CalendarEvent, ...] = ()
    schedules: tuple[Schedule, ...] = ()
    paused: Mapping[str, int] = field(default_factory=dict)  # task id -> paused_until, paused at ``now``
    view: str = "upcoming"
    editing: bool = False

    def counts(self) -> CalendarCounts:
        r = self.result
        if r is None:
            return CalendarCounts()
        return CalendarCounts(
            events=len(r.events),
            tasks=len(r.tasks),
            overdue=sum(1 for i in r.overdue if i.source_id not in self.paused),
            paused=len(self.paused),
            disabled=sum(1 for s in self.schedules if not s.enabled),
        )

    def task(self, task_id: str) -> Schedule | None:
        return next((s for s in self.schedules if s.id == task_id), None)

    def event(self, event_id: str) -> CalendarEvent | None:
        return next((e for e in self.events if e.id == event_id), None)

    def target_of(self, row: Any) -> tuple[str, Any] | None:
        """``("task", Schedule)`` or ``("event", CalendarEvent)`` behind a row of any of the tables."""
        if isinstance(row, Schedule):
            return "task", row
        if isinstance(row, CalendarEvent):
            return "event", row
        if isinstance(row, UpcomingItem):
            found = self.task(row.source_id) if row.kind == "task" else self.event(row.source_id)
            return (row.kind, found) if found is not None else None
        return None
