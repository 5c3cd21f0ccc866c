"""Repeat rules as codes and parameters (core.repeats): what the Calendar tab words, without Qt."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from core.calendar import DAY_MS, WEEK_MS
from core.repeats import Repeat, event_repeat, step_units, task_repeat, weekday_of, zone_of

MONDAY_NOON_UTC = int(datetime(2026, 6, 15, 12, tzinfo=UTC).timestamp() * 1000)  # a Monday
UTC_ZONE = zone_of("UTC")


@pytest.mark.parametrize(
    ("rrule", "expected"),
    [
        (None, Repeat("once")),
        ("", Repeat("once")),
        ("FREQ=DAILY", Repeat("every", "day", 1)),
        ("FREQ=DAILY;COUNT=200", Repeat("every", "day", 1, count=200)),
        ("FREQ=DAILY;INTERVAL=3", Repeat("every", "day", 3)),
        ("FREQ=WEEKLY", Repeat("every", "week", 1, weekday=1)),
        ("FREQ=WEEKLY;INTERVAL=2;COUNT=10", Repeat("every", "week", 2, weekday=1, count=10)),
        ("FREQ=DAILY;INTERVAL=1.5", Repeat("every", "hour", 36)),
        ("FREQ=DAILY;COUNT=1", Repeat("once")),  # one occurrence is no repetition
        ("FREQ=DAILY;INTERVAL=abc", Repeat("once")),  # the agent expands only the first occurrence
        ("FREQ=DAILY;COUNT=abc", Repeat("every", "day", 1)),  # no count limit, as the agent reads it
        ("FREQ=MONTHLY", Repeat("unparsed", text="FREQ=MONTHLY")),
        ("freq=daily", Repeat("unparsed", text="freq=daily")),
    ],
)
def test_event_rules_become_codes_and_parameters(rrule, expected):
    assert event_repeat(rrule, MONDAY_NOON_UTC, UTC_ZONE) == expected


def test_until_is_kept_with_whether_it_was_a_date():
    r = event_repeat("FREQ=WEEKLY;UNTIL=20270301", MONDAY_NOON_UTC, UTC_ZONE)
    assert (r.code, r.unit, r.weekday) == ("every", "week", 1)
    assert r.until == int(datetime(2027, 3, 1, 23, 59, 59, tzinfo=UTC).timestamp() * 1000)
    assert r.until_date_only
    r = event_repeat("FREQ=DAILY;UNTIL=20270301T080000Z;COUNT=5", MONDAY_NOON_UTC, UTC_ZONE)
    assert r.until == int(datetime(2027, 3, 1, 8, tzinfo=UTC).timestamp() * 1000)
    assert not r.until_date_only and r.count == 5


def test_the_weekday_of_a_weekly_event_is_the_one_in_its_zone():
    late_monday_utc = MONDAY_NOON_UTC + 11 * 3_600_000  # 23:00 UTC Monday = 07:00 Tuesday in Shanghai
    assert event_repeat("FREQ=WEEKLY", late_monday_utc, zone_of("UTC")).weekday == 1
    assert event_repeat("FREQ=WEEKLY", late_monday_utc, zone_of("Asia/Shanghai")).weekday == 2
    assert zone_of("Not/AZone") is None and zone_of("") is None
    assert weekday_of(10**20) is None  # beyond any calendar: no weekday, no error


@pytest.mark.parametrize(
    ("cron", "expected"),
    [
        (None, Repeat("once")),
        ("interval:86400000", Repeat("every", "day", 1)),
        ("interval:3600000", Repeat("every", "hour", 1)),
        ("interval:1800000", Repeat("every", "minute", 30)),
        ("interval:604800000", Repeat("every", "week", 1)),
        ("interval:1500", Repeat("every", "millisecond", 1500)),
        ("interval:0", Repeat("unparsed", text="interval:0")),
        ("0 9 * * *", Repeat("unparsed", text="0 9 * * *")),
    ],
)
def test_task_intervals_become_codes_and_parameters(cron, expected):
    assert task_repeat(cron) == expected


def test_steps_are_said_in_their_largest_whole_unit():
    assert step_units(2 * WEEK_MS) == ("week", 2)
    assert step_units(10 * DAY_MS) == ("day", 10)
    assert step_units(90_000) == ("second", 90)
