"""The calendar tools: ``create_calendar_event`` and ``list_upcoming`` (events and scheduled tasks)."""

from __future__ import annotations

from typing import Any

from core.calendar import DAY_MS, CalendarStore
from core.jsutil import (
    date_parse_string,
    int_if_integral,
    iso_ms,
    js_max,
    js_min,
    js_number_str,
    js_to_number,
    js_truthy,
)
from core.schedules import ScheduleStore
from core.tool_params import CreateCalendarEventParams, ListUpcomingParams
from core.tools.result import Ctx, ToolResult, fail, ok
from core.tools.schedules import check_payloads


def create_calendar_event(ctx: Ctx, p: CreateCalendarEventParams) -> ToolResult:
    start = date_parse_string(p.starts_at)
    if start is None:
        return fail("starts_at is not a valid ISO8601 string")
    end = None
    if js_truthy(p.ends_at):
        end = date_parse_string(p.ends_at)
        if end is None:
            return fail("ends_at is not a valid ISO8601 string")
    ev = CalendarStore(ctx.db).create(p.title, start, end, p.rrule, p.timezone or "", now=ctx.now)
    return ok(f"Created calendar event '{p.title}' @ {iso_ms(start)}", ev.to_json())


def _occurrence_json(ev: Any, occ: int) -> dict[str, Any]:
    d = ev.to_json()
    d["occurrenceStartsAt"] = occ
    d["occurrenceEndsAt"] = None if ev.ends_at is None else occ + (ev.ends_at - ev.starts_at)
    return d


def list_upcoming(ctx: Ctx, p: ListUpcomingParams) -> ToolResult:
    raw = 7 if p.window_days is None else js_to_number(p.window_days)
    days = int_if_integral(js_max(1, js_min(90, raw)))
    now = ctx.now
    window = days * DAY_MS
    events = CalendarStore(ctx.db).upcoming(window, now)
    enabled = ScheduleStore(ctx.db).list_enabled()
    check_payloads(enabled)
    task_lines = [
        f"- [task] {s.name} @ {iso_ms(s.next_run_at)} ({s.action_type})"
        for s in enabled
        if s.next_run_at <= now + window
    ]
    event_lines = [
        f"- [event] {ev.title} @ {iso_ms(occ)} ({ev.timezone}{', ' + ev.rrule if ev.rrule else ''})"
        for ev, occ in events
    ]
    lines = event_lines + task_lines
    data = {
        "events": [_occurrence_json(ev, occ) for ev, occ in events],
        "schedules": [s.to_json() for s in enabled],
    }
    return ok("\n".join(lines) if lines else f"No events in the next {js_number_str(days)} days", data)
