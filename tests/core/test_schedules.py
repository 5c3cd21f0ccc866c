"""ScheduleStore: creation rules, the interval parser and the listings (spec Part A §1.2, §7)."""

from __future__ import annotations

import pytest

from core.errors import ValidationError_
from core.schedules import ScheduleStore, compute_next_run, parse_interval
from tests.conftest import FIXED_NOW

T0 = FIXED_NOW


@pytest.fixture
def sched(mem_db):
    return ScheduleStore(mem_db)


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("interval:60000", 60000),
        ("interval:1", 1),
        ("interval:0", None),
        ("interval:-5", None),
        ("interval:1.5", None),
        ("interval:60000\n", None),
        (" interval:5", None),
        ("interval:６０", None),  # full-width digits are not JS \d
        ("INTERVAL:5", None),
        ("cron:* * * * *", None),
        ("", None),
        (None, None),
    ],
)
def test_parse_interval(expr, expected):
    assert parse_interval(expr) == expected


def test_compute_next_run():
    assert compute_next_run("interval:1000", T0) == T0 + 1000
    assert compute_next_run(None, T0) is None


def test_create_one_shot_and_recurring(sched):
    one = sched.create("喝水", T0 + 60_000, "prompt", {"message": "记得喝水"}, now=T0)
    assert (one.name, one.cron_expr, one.next_run_at, one.action_type) == (
        "喝水",
        None,
        T0 + 60_000,
        "prompt",
    )
    assert one.payload_json == '{"message":"记得喝水"}'
    assert one.payload == {"message": "记得喝水"}
    assert (one.enabled, one.created_at, one.created_by, one.project) == (True, T0, "llm_external", None)
    rec = sched.create(
        "beat",
        T0 + 5,
        "autonomous_turn",
        {"prompt": "check", "replyChannel": "silent"},
        "interval:300000",
        enabled=False,
        created_by="user",
        project="mycox",
        now=T0,
    )
    assert (rec.cron_expr, rec.enabled, rec.created_by, rec.project) == (
        "interval:300000",
        False,
        "user",
        "mycox",
    )
    assert sched.get(rec.id) == rec
    assert sched.create("p", T0, now=T0).payload_json == "{}"


def test_create_validation_texts(sched):
    with pytest.raises(ValidationError_) as ei:
        sched.create("x", T0, "bogus", {})
    assert str(ei.value) == "Schedule: 未知 action_type bogus"
    with pytest.raises(ValidationError_) as ei:
        sched.create("x", T0, "prompt", {}, "interval:1.5")
    assert str(ei.value) == "Schedule: 无法解析 cron_expr 'interval:1.5'"
    assert sched.count() == 0


def test_listings_order_and_filters(sched):
    c = sched.create("c", T0 + 300, now=T0)
    a = sched.create("a", T0 - 100, now=T0)  # overdue
    b = sched.create("b", T0 + 200, enabled=False, now=T0)
    d = sched.create("d", T0 + 10_000, now=T0)
    assert [s.name for s in sched.list_all()] == ["a", "b", "c", "d"]
    assert [s.name for s in sched.list_enabled()] == ["a", "c", "d"]
    assert [s.name for s in sched.due_within(T0 + 300)] == ["a", "c"]  # inclusive, overdue included
    assert [s.name for s in sched.due_within(T0 - 101)] == []
    assert sched.set_enabled(b.id, True) is True
    assert [s.name for s in sched.due_within(T0 + 300)] == ["a", "b", "c"]
    assert sched.set_enabled("missing", True) is False
    assert sched.delete(d.id) is True
    assert sched.delete(d.id) is False
    assert sched.get(d.id) is None
    assert {s.id for s in sched.list_all()} == {a.id, b.id, c.id}


def test_disable_by_name_keeps_rows(sched):
    x1 = sched.create("同名", T0 + 1, now=T0)
    x2 = sched.create("同名", T0 + 2, now=T0 + 1)
    other = sched.create("同名 2", T0 + 3, now=T0)
    off = sched.create("同名", T0 + 4, enabled=False, now=T0)
    replaced = sched.disable_by_name("同名")
    assert [s.id for s in replaced] == [x1.id, x2.id]
    assert all(s.enabled for s in replaced)  # as they were
    assert [s.id for s in sched.list_enabled()] == [other.id]
    assert sched.count() == 4
    assert sched.get(off.id).enabled is False


def test_find_by_name_is_the_newest_enabled(sched):
    sched.create("job", T0, project="old", now=T0)
    sched.create("job", T0, project="new", now=T0 + 10)
    sched.create("job", T0, project="disabled", enabled=False, now=T0 + 20)
    assert sched.find_by_name("job").project == "new"
    assert sched.find_by_name("nope") is None


def test_set_project(sched):
    s = sched.create("job", T0, now=T0)
    assert sched.set_project(s.id, "mycox").project == "mycox"
    assert sched.set_project(s.id, None).project is None


def test_malformed_payload_is_read_leniently(mem_db, sched):
    s = sched.create("job", T0, now=T0)
    with mem_db.write() as conn:
        conn.execute("UPDATE memory_schedules SET payload_json = 'not json' WHERE id = ?", (s.id,))
    got = sched.get(s.id)
    assert got.payload is None
    assert got.json_errors


def _pause(sched, sched_id, until):
    """As the agent's scheduler pauses a task after repeated failures."""
    with sched.db.write() as conn:
        conn.execute("UPDATE memory_schedules SET paused_until = ? WHERE id = ?", (until, sched_id))


def test_due_before_skips_a_paused_task_until_its_pause_ends(sched):
    """The reference's dueBefore: a task in its pause is not run; after the pause it is again."""
    paused = sched.create("paused", 100, "reflect", {}, "interval:60000", now=T0)
    _pause(sched, paused.id, 10_000)
    assert sched.due_before(5_000) == []
    assert [s.name for s in sched.due_before(10_000)] == ["paused"]  # the pause has ended at 10 000
    assert [s.name for s in sched.due_before(15_000)] == ["paused"]
    # due_within(until) is what the scheduler will have run by then.
    assert sched.due_within(5_000) == [] and len(sched.due_within(15_000)) == 1
    # The task is still listed everywhere else (list_upcoming shows paused tasks).
    assert [s.name for s in sched.list_enabled()] == ["paused"]


def test_due_before_a_task_never_paused_always_counts(sched):
    sched.create("old", 100, "reflect", {}, "interval:60000", now=T0)
    assert sched.get(sched.list_all()[0].id).paused_until is None
    assert len(sched.due_before(5_000)) == 1
