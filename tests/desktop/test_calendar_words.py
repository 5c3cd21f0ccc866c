"""The Calendar tab in human form: repeat rules in words (English and Chinese, with Qt's plural forms),
the agenda's order (overdue first, then by time) and what a month grid shows on each day."""

from __future__ import annotations

import datetime as dt
from datetime import UTC, datetime

import pytest

from core.calendar import DAY_MS
from core.models import CalendarEvent, Schedule
from core.upcoming import UpcomingItem
from philont_desktop.calendar.agenda import agenda_order, local_ms, month_days, month_entries, shift_month

NOW = int(datetime(2026, 6, 15, 12, tzinfo=UTC).timestamp() * 1000)  # a Monday
HOUR = 3_600_000


ENGLISH = [
    ("FREQ=DAILY;COUNT=200", "every day, 200 times"),
    ("FREQ=DAILY;COUNT=2", "every day, 2 times"),
    ("FREQ=WEEKLY;UNTIL=20260301", "weekly on Monday until 1 March"),
    ("FREQ=WEEKLY;UNTIL=20270301", "weekly on Monday until 1 March 2027"),
    ("FREQ=WEEKLY;INTERVAL=2", "every 2 weeks on Monday"),
    ("FREQ=DAILY;INTERVAL=3;COUNT=5", "every 3 days, 5 times"),
    ("FREQ=DAILY;INTERVAL=1.5", "every 36 hours"),
    (None, "once"),
    ("FREQ=YEARLY", "once (rule not understood: FREQ=YEARLY)"),
]
CHINESE = [
    ("FREQ=DAILY;COUNT=200", "每天，共 200 次"),
    ("FREQ=DAILY;COUNT=2", "每天，共 2 次"),
    ("FREQ=WEEKLY;UNTIL=20260301", "每星期一，直到 3月1日"),
    ("FREQ=WEEKLY;UNTIL=20270301", "每星期一，直到 2027年3月1日"),
    ("FREQ=WEEKLY;INTERVAL=2", "每 2 周的星期一"),
    ("FREQ=DAILY;INTERVAL=3;COUNT=5", "每 3 天，共 5 次"),
    (None, "一次"),
    ("FREQ=YEARLY", "一次（无法理解的规则：FREQ=YEARLY）"),
]


@pytest.mark.parametrize(("rrule", "words"), ENGLISH)
def test_event_rules_in_english(english, rrule, words):
    from philont_desktop.calendar.words import event_words

    assert event_words(rrule, NOW, "UTC", NOW) == words


@pytest.mark.parametrize(("rrule", "words"), CHINESE)
def test_event_rules_in_chinese(chinese, rrule, words):
    from philont_desktop.calendar.words import event_words

    assert event_words(rrule, NOW, "UTC", NOW) == words


@pytest.mark.parametrize(
    ("cron", "en", "zh"),
    [
        ("interval:86400000", "every day", "每天"),
        ("interval:172800000", "every 2 days", "每 2 天"),
        ("interval:3600000", "every hour", "每小时"),
        ("interval:1800000", "every 30 minutes", "每 30 分钟"),
        (None, "once", "一次"),
    ],
)
def test_task_intervals_in_both_languages(qapp, cron, en, zh):
    from philont_desktop import i18n
    from philont_desktop.calendar.words import task_words

    try:
        i18n.install("en")
        assert task_words(cron, NOW) == en
        i18n.install("zh_CN")
        assert task_words(cron, NOW) == zh
    finally:
        i18n.uninstall()


def _task(at: int, *, overdue: bool = False, sid: str = "t") -> UpcomingItem:
    return UpcomingItem(kind="task", title=sid, at=at, overdue=overdue, source_id=sid)


def _event(at: int, sid: str = "e") -> UpcomingItem:
    return UpcomingItem(kind="event", title=sid, at=at, source_id=sid)


def test_the_agenda_merges_by_time_with_overdue_tasks_first():
    items = [
        _event(NOW + 3 * HOUR, "dentist"),
        _event(NOW + HOUR, "standup"),
        _task(NOW - 2 * HOUR, overdue=True, sid="rent"),
        _task(NOW - 5 * HOUR, overdue=True, sid="held"),  # paused: waits for its pause, not overdue
        _task(NOW + HOUR, sid="digest"),
        _task(NOW - DAY_MS, overdue=True, sid="older"),
    ]
    order = [i.source_id for i in agenda_order(items, {"held": NOW + HOUR})]
    assert order == ["older", "rent", "held", "standup", "digest", "dentist"]


def _schedule(sid: str, at: int, cron: str | None = None, *, enabled: bool = True) -> Schedule:
    return Schedule(
        id=sid,
        name=sid,
        cron_expr=cron,
        next_run_at=at,
        action_type="prompt",
        payload_json="{}",
        enabled=enabled,
        created_at=NOW,
        created_by="test",
    )


def test_a_month_grid_has_six_weeks_from_monday():
    days = month_days(2026, 7)
    assert len(days) == 42 and days[0].weekday() == 0 and days[0] <= dt.date(2026, 7, 1) < days[7]
    assert shift_month(2026, 12, 1) == (2027, 1) and shift_month(2026, 1, -1) == (2025, 12)


def test_month_entries_place_occurrences_and_runs_on_their_days():
    days = month_days(2026, 6)
    first = local_ms(dt.date(2026, 6, 1))
    events = [
        CalendarEvent(
            id="e",
            title="Standup",
            starts_at=first + 9 * HOUR,
            rrule="FREQ=DAILY;COUNT=3",
            timezone="UTC",
            created_at=NOW,
        )
    ]
    schedules = [
        _schedule("digest", first + 8 * HOUR, "interval:604800000"),
        _schedule("late", first + 7 * HOUR),
        _schedule("held", first + 2 * DAY_MS + 6 * HOUR),
        _schedule("off", first + 6 * HOUR, enabled=False),
    ]
    now = first + DAY_MS
    out = month_entries(events, schedules, days, now, {"held": now + 5 * DAY_MS})
    on = {d: [(e.title, e.status) for e in out[d]] for d in days if out[d]}
    june = dt.date(2026, 6, 1)
    assert on[june] == [("late", "overdue"), ("digest", "overdue"), ("Standup", "")]
    assert on[june + dt.timedelta(days=1)] == [("Standup", "")]
    assert on[june + dt.timedelta(days=2)] == [("held", "paused"), ("Standup", "")]
    # A task is on the day of its next run only: later runs depend on when the agent actually runs it.
    assert [d for d in days for e in out[d] if e.title == "digest"] == [june]
    assert not any(e.title == "off" for d in days for e in out[d])  # disabled: never runs


def test_task_actions_and_creators_in_both_languages(qapp):
    from philont_desktop import i18n
    from philont_desktop.calendar.words import action_words, created_by_words, stored_as

    try:
        i18n.install("en")
        assert [action_words(a) for a in ("prompt", "tool_call", "reflect", "autonomous_turn", "x")] == [
            "reminder message",
            "tool call",
            "reflection",
            "agent turn (acts on its own)",
            "x",
        ]
        assert created_by_words("llm_external") == "the agent" and created_by_words("cli") == "cli"
        assert stored_as("tool call", "tool_call") == "Stored as: tool_call" and stored_as("x", "x") is None
        i18n.install("zh_CN")
        words = [action_words(a) for a in ("prompt", "tool_call", "reflect", "autonomous_turn")]
        words.append(created_by_words("llm_external"))
        assert all(w.isascii() is False for w in words), words
    finally:
        i18n.uninstall()
