"""CalendarStore: validation, the minimal RRULE expansion and window rules (spec Part A §7, Part C d)."""

from __future__ import annotations

import math

import pytest

from core.calendar import (
    DAY_MS,
    MAX_EXPANSIONS,
    WEEK_MS,
    CalendarStore,
    expand_occurrences,
    js_string_to_number,
    parse_rrule,
)
from core.errors import ValidationError_
from core.jsutil import iso_ms
from tests.conftest import FIXED_NOW

T0 = FIXED_NOW  # 2026-06-15T12:00:00.000Z


@pytest.fixture
def cal(mem_db):
    return CalendarStore(mem_db)


def occ_isos(pairs):
    return [(ev.title, iso_ms(t)) for ev, t in pairs]


# -- create ------------------------------------------------------------------------------------------


def test_create_returns_the_stored_row(cal):
    ev = cal.create("周会", T0, T0 + 3_600_000, "FREQ=WEEKLY", "Asia/Shanghai", "fact-1", "ext-9", now=T0 - 5)
    assert ev.title == "周会"
    assert (ev.starts_at, ev.ends_at, ev.rrule, ev.timezone) == (
        T0,
        T0 + 3_600_000,
        "FREQ=WEEKLY",
        "Asia/Shanghai",
    )
    assert (ev.related_fact_id, ev.external_ref, ev.created_at) == ("fact-1", "ext-9", T0 - 5)
    assert cal.get(ev.id) == ev
    assert cal.find_by_external_ref("ext-9") == ev
    assert ev.to_json()["startsAt"] == T0


@pytest.mark.parametrize("tz", ["", None])
def test_timezone_is_required(cal, tz):
    with pytest.raises(ValidationError_) as ei:
        cal.create("x", T0, timezone=tz)
    assert str(ei.value) == "CalendarEvent: timezone is required (IANA string)"
    assert cal.count() == 0


def test_end_before_start_is_refused(cal):
    with pytest.raises(ValidationError_) as ei:
        cal.create("x", T0, T0 - 1, timezone="UTC")
    assert str(ei.value) == "CalendarEvent: ends_at cannot be earlier than starts_at"
    # Equal is fine.
    assert cal.create("x", T0, T0, timezone="UTC").ends_at == T0


def test_timezone_is_checked_before_the_end(cal):
    with pytest.raises(ValidationError_, match="timezone is required"):
        cal.create("x", T0, T0 - 1, timezone="")


def test_read_only_database_refuses_create(tmp_path):
    from core.db import MemoryDB
    from core.errors import ReadOnlyError

    path = tmp_path / "m.sqlite"
    MemoryDB.create(path, now=T0).close()
    db = MemoryDB.open(path)
    try:
        with pytest.raises(ReadOnlyError):
            CalendarStore(db).create("x", T0, timezone="UTC")
    finally:
        db.close()


def test_list_all_get_delete(cal):
    b = cal.create("B", T0 + 10, timezone="UTC")
    a = cal.create("A", T0, timezone="UTC")
    assert [e.title for e in cal.list_all()] == ["A", "B"]
    assert cal.delete(a.id) is True
    assert cal.delete(a.id) is False
    assert cal.get(a.id) is None
    assert [e.id for e in cal.list_all()] == [b.id]


# -- windows ---------------------------------------------------------------------------------------


def test_one_time_event_window_is_inclusive_at_both_ends(cal):
    cal.create("start", T0, timezone="UTC")
    cal.create("end", T0 + DAY_MS, timezone="UTC")
    cal.create("before", T0 - 1, timezone="UTC")
    cal.create("after", T0 + DAY_MS + 1, timezone="UTC")
    assert [ev.title for ev, _ in cal.list_between(T0, T0 + DAY_MS)] == ["start", "end"]
    assert cal.list_between(T0 + 1, T0) == []


def test_upcoming_is_list_between_now_and_now_plus_window(cal):
    cal.create("soon", T0 + 6 * DAY_MS, timezone="UTC")
    cal.create("later", T0 + 8 * DAY_MS, timezone="UTC")
    assert [e.title for e, _ in cal.upcoming(7 * DAY_MS, now=T0)] == ["soon"]
    assert [e.title for e, _ in cal.upcoming(now=T0)] == ["soon"]
    assert [e.title for e, _ in cal.upcoming(8 * DAY_MS, now=T0)] == ["soon", "later"]
    assert cal.upcoming(math.nan, now=T0) == []


def test_daily_with_count_counts_from_the_start(cal):
    # Started 2 days ago, COUNT=4: occurrences -2d, -1d, 0, +1d; the window sees the last two.
    cal.create("药", T0 - 2 * DAY_MS, rrule="FREQ=DAILY;COUNT=4", timezone="Asia/Shanghai")
    got = cal.list_between(T0, T0 + 10 * DAY_MS)
    assert [t for _, t in got] == [T0, T0 + DAY_MS]


def test_weekly_with_interval_and_until_date_is_inclusive_to_end_of_day(cal):
    start = 1_781_049_600_000  # 2026-06-10T00:00:00Z
    cal.create("review", start, rrule="FREQ=WEEKLY;INTERVAL=2;UNTIL=20260708", timezone="UTC")
    got = cal.list_between(start, start + 100 * DAY_MS)
    assert [iso_ms(t) for _, t in got] == [
        "2026-06-10T00:00:00.000Z",
        "2026-06-24T00:00:00.000Z",
        "2026-07-08T00:00:00.000Z",
    ]


def test_until_datetime_form_and_exact_boundary(cal):
    start = 1_781_049_600_000  # 2026-06-10T00:00:00Z
    cal.create("x", start, rrule="FREQ=DAILY;UNTIL=20260612T000000Z", timezone="UTC")
    got = cal.list_between(start, start + 30 * DAY_MS)
    assert [iso_ms(t) for _, t in got] == [
        "2026-06-10T00:00:00.000Z",
        "2026-06-11T00:00:00.000Z",
        "2026-06-12T00:00:00.000Z",
    ]


@pytest.mark.parametrize("rrule", ["FREQ=MONTHLY", "FREQ=daily", "", "garbage", "INTERVAL=2"])
def test_unparsable_or_empty_rrule_is_one_time(cal, rrule):
    cal.create("once", T0 + 5, rrule=rrule, timezone="UTC")
    cal.create("once-early", T0 - DAY_MS, rrule=rrule, timezone="UTC")
    got = cal.list_between(T0, T0 + 30 * DAY_MS)
    assert [(e.title, t) for e, t in got] == [("once", T0 + 5)]


def test_keys_are_case_insensitive_and_parts_trimmed(cal):
    cal.create("x", T0, rrule=" freq=DAILY ; count=2 ", timezone="UTC")
    assert [t for _, t in cal.list_between(T0, T0 + 10 * DAY_MS)] == [T0, T0 + DAY_MS]


def test_occurrences_sorted_with_stable_ties(cal):
    cal.create("daily", T0 - DAY_MS, rrule="FREQ=DAILY", timezone="UTC")
    cal.create("once", T0 + DAY_MS, timezone="UTC")
    cal.create("weekly", T0, rrule="FREQ=WEEKLY", timezone="UTC")
    got = occ_isos(cal.list_between(T0, T0 + 2 * DAY_MS))
    assert got == [
        ("daily", "2026-06-15T12:00:00.000Z"),
        ("weekly", "2026-06-15T12:00:00.000Z"),
        ("daily", "2026-06-16T12:00:00.000Z"),
        ("once", "2026-06-16T12:00:00.000Z"),
        ("daily", "2026-06-17T12:00:00.000Z"),
    ]


def test_recurring_event_starting_after_the_window_is_not_listed(cal):
    cal.create("future", T0 + 10 * DAY_MS, rrule="FREQ=DAILY", timezone="UTC")
    assert cal.list_between(T0, T0 + DAY_MS) == []


def test_expansion_stops_after_10000_occurrences():
    start = T0 - 20_000 * DAY_MS
    assert expand_occurrences(start, "FREQ=DAILY", T0, T0 + DAY_MS) == []
    # The 10 000th occurrence is the last one emitted.
    last = start + (MAX_EXPANSIONS - 1) * DAY_MS
    assert expand_occurrences(start, "FREQ=DAILY", last - 1, last + 10 * DAY_MS) == [last]


def test_interval_nan_gives_only_the_first_occurrence_and_count_nan_no_limit():
    assert expand_occurrences(T0, "FREQ=DAILY;INTERVAL=abc", T0, T0 + 10 * DAY_MS) == [T0]
    assert len(expand_occurrences(T0, "FREQ=DAILY;COUNT=abc", T0, T0 + 9 * DAY_MS)) == 10
    # INTERVAL below 1 becomes 1; a fractional COUNT counts up to its ceiling.
    assert expand_occurrences(T0, "FREQ=DAILY;INTERVAL=0;COUNT=2.5", T0, T0 + 9 * DAY_MS) == [
        T0,
        T0 + DAY_MS,
        T0 + 2 * DAY_MS,
    ]
    assert expand_occurrences(T0, "FREQ=WEEKLY;INTERVAL=1.5", T0, T0 + 3 * WEEK_MS) == [
        T0,
        T0 + 3 * WEEK_MS // 2,
        T0 + 3 * WEEK_MS,
    ]


def test_parse_rrule_fields():
    p = parse_rrule("FREQ=WEEKLY;INTERVAL=3;COUNT=5;UNTIL=20260101")
    assert p is not None
    assert (p.freq, p.interval, p.count, p.until) == ("WEEKLY", 3, 5, 1_767_311_999_000)
    assert parse_rrule("FREQ=YEARLY") is None
    assert parse_rrule("FREQ=DAILY;UNTIL=nonsense").until is None
    # 9-14 characters are parsed as they are; 15 or more are read as the compact form, so a full ISO
    # date-time is cut into garbage and ignored, as in the reference.
    assert parse_rrule("FREQ=DAILY;UNTIL=2026-01-02").until == 1_767_312_000_000
    assert parse_rrule("FREQ=DAILY;UNTIL=2026-01-02T00:00:00Z").until is None
    assert parse_rrule("FREQ=DAILY;COUNT=").count is None  # an empty COUNT is no COUNT


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", 0),
        ("  ", 0),
        ("3", 3),
        (" 2.50 ", 2.5),
        ("1e1", 10),
        ("0x10", 16),
        ("-5", -5),
        (".5", 0.5),
        ("5.", 5),
        ("Infinity", math.inf),
        ("-Infinity", -math.inf),
    ],
)
def test_js_string_to_number(text, expected):
    assert js_string_to_number(text) == expected


@pytest.mark.parametrize("text", ["abc", "1_000", "inf", "nan", "0x", "--1", "1e", "1 2"])
def test_js_string_to_number_nan(text):
    assert math.isnan(js_string_to_number(text))
