"""Messages per day when some messages hold a time no date can hold: they are in no day, and counted."""

from __future__ import annotations

import pytest

from core.timeline import RawStore
from tests.conftest import FIXED_NOW

DAY = 86_400_000
MIDNIGHT = (FIXED_NOW // DAY) * DAY


@pytest.mark.parametrize("bad", [1e20, 2**63 - 1, -(2**63), -1e20, "yesterday", b"\x01\x02"])
def test_daily_counts_leave_out_a_time_no_date_holds_and_count_it(mem_db, bad):
    raw = RawStore(mem_db)
    raw.start_session("s2", FIXED_NOW)
    raw.append_message("global", "user", "a", MIDNIGHT + 1, origin_session_id="web-ui:a")
    raw.append_message("global", "user", "b", MIDNIGHT + DAY + 1, origin_session_id="web-ui:a")
    raw.append_message("s2", "user", "c", MIDNIGHT + 2, origin_session_id="web-ui:b")
    mem_db.conn.execute("UPDATE memory_raw_messages SET timestamp = ? WHERE content = 'c'", (bad,))
    assert raw.daily_counts() == [(MIDNIGHT, 1), (MIDNIGHT + DAY, 1)]
    assert raw.daily_counts(tz_offset_minutes=480)  # another time zone: the same two messages
    assert raw.daily_counts(conversations=["web-ui:b"]) == []
    assert raw.daily_counts(session_ids=["s2"]) == []
    assert raw.count_timeless() == 1
    assert raw.count_timeless(["web-ui:b"]) == 1 and raw.count_timeless(["web-ui:a"]) == 0
    assert raw.count_timeless([]) == 0


def test_the_largest_time_a_date_holds_still_has_its_day(mem_db):
    raw = RawStore(mem_db)
    raw.append_message("global", "user", "far", 8_640_000_000_000_000)
    assert raw.daily_counts() == [(8_640_000_000_000_000 // DAY * DAY, 1)]
    assert raw.count_timeless() == 0
