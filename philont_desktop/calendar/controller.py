"""The Calendar tab's controller: loads what ``list_upcoming`` sees and every event and task; runs the
audited edits of tasks and events (:mod:`core.curation.calendar`)."""

from __future__ import annotations

from typing import Any

from core.calendar import CalendarStore
from core.curation import Changes
from core.curation import calendar as cal_curation
from core.jsutil import now_ms
from core.models import CalendarEvent, Schedule
from core.schedules import ScheduleStore
from core.tools import run_tool
from core.upcoming import UpcomingResult, upcoming
from philont_desktop.calendar.cells import paused_tasks
from philont_desktop.calendar.state import CalendarState
from philont_desktop.qt import QObject
from philont_desktop.tabs.controller import TabController
from philont_desktop.workers import Job


def load_calendar(db: Any, days: int, now: int) -> tuple[UpcomingResult, list[CalendarEvent], list[Schedule]]:
    """Everything the tab shows, read in one worker job."""
    return upcoming(db, days, now), CalendarStore(db).list_all(), ScheduleStore(db).list_all()


def compare_with_tool(db: Any, days: int, now: int) -> tuple[str, bool, str]:
    """The tab's upcoming text and what the ``list_upcoming`` tool prints (the self-test compares them)."""
    res = run_tool(db, "list_upcoming", {"window_days": days}, now=now)
    return upcoming(db, days, now).text(), bool(res.success), res.output or res.error or ""


class CalendarController(TabController):
    layers = ("calendar",)

    def __init__(self, ctx: Any, state: CalendarState, name: str, parent: QObject | None = None):
        super().__init__(ctx, state, name, parent)
        self.state: CalendarState = state

    # -- reading --------------------------------------------------------------------------------------
    def refresh(self) -> None:
        s = self.state
        now = s.fixed_now if s.fixed_now is not None else now_ms()
        s.update(now=now, loading=True)
        self.run(
            load_calendar,
            s.days,
            now,
            on_result=self._on_loaded,
            on_error=self._on_failed,
            key="load",
            label=self.tr("Loading the calendar"),
        )

    def _on_loaded(self, data: tuple[UpcomingResult, list[CalendarEvent], list[Schedule]]) -> None:
        result, events, schedules = data
        self.state.update(
            result=result,
            events=tuple(events),
            schedules=tuple(schedules),
            paused=paused_tasks(schedules, result.now),
            now=result.now,
            loading=False,
            loaded=len(result.items),
        )

    def _on_failed(self, exc: BaseException) -> None:
        self.state.update(loading=False)
        self.ctx.show_error(self.tr("The calendar could not be loaded"), exc)

    def set_days(self, days: int) -> None:
        if self.state.update(days=int(days)):
            self.refresh()

    def compare_with_tool(self) -> Job:
        s = self.state
        now = s.fixed_now if s.fixed_now is not None else now_ms()
        return self.run(compare_with_tool, s.days, now, label="calendar tab-test")

    # -- editing --------------------------------------------------------------------------------------
    def set_editing(self, on: bool) -> None:
        self.state.update(editing=bool(on))

    def changes_applied(self, changes: Changes) -> None:
        self.refresh()

    def set_enabled(self, task: Schedule, enabled: bool, text: str) -> Job | None:
        if not self.state.editing:
            return None
        return self._curate(cal_curation.set_schedule_enabled(task.id, enabled, seen=task), text)

    def delete(self, kind: str, row: Any, text: str) -> Job | None:
        if not self.state.editing:
            return None
        if kind == "task":
            change = cal_curation.delete_schedule(row.id, seen=row)
        else:
            change = cal_curation.delete_event(row.id, seen=row)
        return self._curate(change, text)

    def _curate(self, change: Any, text: str) -> Job:
        """One audited, undoable edit; the tab reloads when it is done (:meth:`changes_applied`)."""
        return self.curate(change, text)
