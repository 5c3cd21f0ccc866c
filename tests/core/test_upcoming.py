"""core.upcoming: the structured list_upcoming (spec Part A §7, Part C d) agrees with the tool line for line."""

from __future__ import annotations

import math

import pytest

from core.calendar import DAY_MS, CalendarStore
from core.jsutil import iso_ms
from core.schedules import ScheduleStore
from core.tools import run_tool
from core.upcoming import (
    UpcomingItem,
    clamp_window_days,
    list_upcoming_text,
    upcoming,
    upcoming_items,
)
from tests.conftest import FIXED_NOW

T0 = FIXED_NOW  # 2026-06-15T12:00:00.000Z
HOUR = 3_600_000


@pytest.fixture
def filled(mem_db):
    cal = CalendarStore(mem_db)
    sched = ScheduleStore(mem_db)
    cal.create("Dentist", T0 + 2 * DAY_MS, T0 + 2 * DAY_MS + HOUR, None, "Europe/Berlin", now=T0)
    cal.create("周会", T0 - 3 * DAY_MS, T0 - 3 * DAY_MS + HOUR, "FREQ=WEEKLY", "Asia/Shanghai", now=T0)
    cal.create("Standup", T0 - DAY_MS + HOUR, None, "FREQ=DAILY;COUNT=4", "UTC", now=T0)
    cal.create("Past", T0 - DAY_MS, None, None, "UTC", now=T0)
    cal.create("Far", T0 + 30 * DAY_MS, None, None, "UTC", now=T0)
    cal.create("Bad rule", T0 + DAY_MS, None, "FREQ=MONTHLY", "UTC", now=T0)
    sched.create("overdue check-in", T0 - 2 * HOUR, "prompt", {"message": "check in"}, now=T0)
    sched.create(
        "daily digest", T0 + 5 * HOUR, "autonomous_turn", {"prompt": "digest"}, "interval:86400000", now=T0
    )
    sched.create("disabled one", T0 + HOUR, "prompt", {"message": "x"}, enabled=False, now=T0)
    sched.create("later", T0 + 20 * DAY_MS, "prompt", {"message": "later"}, now=T0)
    return mem_db


def test_items_match_the_tool_output_line_for_line(filled):
    for window in (None, 1, 3, 7, 2.5, "3", 30, 90, 1000, 0, -4):
        tool = run_tool(filled, "list_upcoming", {} if window is None else {"window_days": window}, now=T0)
        assert tool.success, tool.error
        assert upcoming(filled, window, now=T0).text() == tool.output
        assert list_upcoming_text(filled, window, now=T0) == tool.output


def test_events_first_then_tasks_with_overdue_flag(filled):
    items = upcoming_items(filled, 7, now=T0)
    assert [(i.kind, i.title, iso_ms(i.at)) for i in items] == [
        ("event", "Standup", "2026-06-15T13:00:00.000Z"),
        ("event", "Bad rule", "2026-06-16T12:00:00.000Z"),
        ("event", "Standup", "2026-06-16T13:00:00.000Z"),
        ("event", "Dentist", "2026-06-17T12:00:00.000Z"),
        ("event", "Standup", "2026-06-17T13:00:00.000Z"),
        ("event", "周会", "2026-06-19T12:00:00.000Z"),
        ("task", "overdue check-in", "2026-06-15T10:00:00.000Z"),
        ("task", "daily digest", "2026-06-15T17:00:00.000Z"),
    ]
    overdue = [i.title for i in items if i.overdue]
    assert overdue == ["overdue check-in"]
    digest = items[-1]
    assert (digest.action_type, digest.interval_ms, digest.cron_expr, digest.message) == (
        "autonomous_turn",
        86_400_000,
        "interval:86400000",
        "digest",
    )
    assert digest.recurring and not items[-2].recurring
    dentist = items[3]
    assert (dentist.timezone, dentist.rrule, dentist.ends_at) == (
        "Europe/Berlin",
        None,
        T0 + 2 * DAY_MS + HOUR,
    )
    weekly = items[5]
    assert weekly.line == "- [event] 周会 @ 2026-06-19T12:00:00.000Z (Asia/Shanghai, FREQ=WEEKLY)"
    assert weekly.ends_at == weekly.at + HOUR and weekly.base_starts_at == T0 - 3 * DAY_MS
    assert items[-1].line == "- [task] daily digest @ 2026-06-15T17:00:00.000Z (autonomous_turn)"


def test_window_bounds_are_inclusive(mem_db):
    cal = CalendarStore(mem_db)
    cal.create("at now", T0, None, None, "UTC", now=T0)
    cal.create("at end", T0 + DAY_MS, None, None, "UTC", now=T0)
    cal.create("after end", T0 + DAY_MS + 1, None, None, "UTC", now=T0)
    ScheduleStore(mem_db).create("edge task", T0 + DAY_MS, "prompt", {}, now=T0)
    assert [i.title for i in upcoming_items(mem_db, 1, now=T0)] == ["at now", "at end", "edge task"]


def test_clamp_follows_js_number_semantics():
    assert clamp_window_days(None) == 7
    assert clamp_window_days(0) == 1 and clamp_window_days(-3) == 1
    assert clamp_window_days(1000) == 90 and clamp_window_days(90.5) == 90
    assert clamp_window_days("2.50") == 2.5 and clamp_window_days(True) == 1
    assert isinstance(clamp_window_days(7.0), int)
    assert math.isnan(clamp_window_days("abc"))


def test_nan_window_lists_nothing(filled):
    r = upcoming(filled, "abc", now=T0)
    assert r.items == []
    assert r.text() == "No events in the next NaN days"
    assert run_tool(filled, "list_upcoming", {"window_days": "abc"}, now=T0).output == r.text()


def test_empty_text_uses_the_clamped_days(mem_db):
    assert upcoming(mem_db, 1000, now=T0).text() == "No events in the next 90 days"
    assert upcoming(mem_db, 2.5, now=T0).text() == "No events in the next 2.5 days"


def test_malformed_payload_is_listed_not_fatal(mem_db):
    s = ScheduleStore(mem_db).create("broken", T0 + HOUR, "prompt", {"message": "m"}, now=T0)
    with mem_db.write() as conn:
        conn.execute("UPDATE memory_schedules SET payload_json = '{bad' WHERE id = ?", (s.id,))
    items = upcoming_items(mem_db, 7, now=T0)
    assert [i.title for i in items] == ["broken"]
    assert items[0].payload_error and items[0].message is None
    assert run_tool(mem_db, "list_upcoming", {}, now=T0).success is False


def test_item_json_shape():
    item = UpcomingItem("task", "t", T0, action_type="prompt", overdue=True, source_id="s1")
    assert item.to_json()["atIso"] == "2026-06-15T12:00:00.000Z"
    assert item.to_json()["overdue"] is True
