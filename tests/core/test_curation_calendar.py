"""core.curation.calendar: enable/disable/delete of tasks and events, audited, undone and redone exactly."""

from __future__ import annotations

import pytest

from core import audit, curation
from core.calendar import CalendarStore
from core.curation import calendar as cc
from core.errors import ConflictError, NotFoundError, ValidationError_
from core.schedules import ScheduleStore
from tests.conftest import FIXED_NOW

T0 = FIXED_NOW
ACTOR = "tester@philont-desktop"


def _row(db, table, row_id):
    r = db.conn.execute(f'SELECT rowid AS "rowid", * FROM {table} WHERE id = ?', (row_id,)).fetchone()
    return None if r is None else dict(zip(r.keys(), tuple(r), strict=True))


@pytest.fixture
def items(mem_db):
    cal = CalendarStore(mem_db)
    sch = ScheduleStore(mem_db)
    e1 = cal.create("first", T0, None, None, "UTC", now=T0)
    e2 = cal.create(
        "周会", T0, T0 + 60_000, "FREQ=WEEKLY;COUNT=3", "Asia/Shanghai", "fact-1", "ext-1", now=T0
    )
    e3 = cal.create("third", T0, None, None, "UTC", now=T0)
    s1 = sch.create(
        "check-in", T0 + 1000, "prompt", {"message": "每天 check in"}, "interval:60000", project="p-1", now=T0
    )
    return mem_db, e1, e2, e3, s1


def test_disable_enable_are_audited_and_undoable(items):
    db, *_, s1 = items
    edit = cc.disable_schedule(s1.id, seen=s1).perform(db, ACTOR, now=T0)
    assert edit.action == "calendar.schedule_disable" and edit.target == f"schedule:{s1.id}"
    assert edit.before["enabled"] == 1 and edit.after["enabled"] == 0
    assert ScheduleStore(db).get(s1.id).enabled is False
    with pytest.raises(ValidationError_, match="already disabled"):
        cc.disable_schedule(s1.id).perform(db, ACTOR)
    # The scheduler moves next_run_at meanwhile: undo only touches `enabled`.
    with db.write() as conn:
        conn.execute("UPDATE memory_schedules SET next_run_at = ? WHERE id = ?", (T0 + 5000, s1.id))
    curation.undo(db, edit.id, ACTOR)
    s = ScheduleStore(db).get(s1.id)
    assert s.enabled is True and s.next_run_at == T0 + 5000
    curation.redo(db, edit.id, ACTOR)
    assert ScheduleStore(db).get(s1.id).enabled is False
    assert [e.action for e in audit.list_entries(db)] == ["redo", "undo", "calendar.schedule_disable"]
    edit2 = cc.enable_schedule(s1.id).perform(db, ACTOR)
    assert edit2.action == "calendar.schedule_enable"
    assert ScheduleStore(db).get(s1.id).enabled is True


def test_undo_refuses_to_overwrite_a_later_change(items):
    db, *_, s1 = items
    edit = cc.disable_schedule(s1.id).perform(db, ACTOR)
    ScheduleStore(db).set_enabled(s1.id, True)  # the agent (or someone) re-enabled it
    with pytest.raises(ConflictError, match="enabled now"):
        curation.undo(db, edit.id, ACTOR)
    assert ScheduleStore(db).get(s1.id).enabled is True


def test_seen_state_must_match(items):
    db, *_, s1 = items
    ScheduleStore(db).set_enabled(s1.id, False)
    with pytest.raises(ConflictError, match="changed since it was shown"):
        cc.delete_schedule(s1.id, seen=s1).perform(db, ACTOR)
    assert ScheduleStore(db).get(s1.id) is not None


def test_delete_schedule_undo_restores_the_row_exactly(items):
    db, *_, s1 = items
    before = _row(db, "memory_schedules", s1.id)
    edit = cc.delete_schedule(s1.id).perform(db, ACTOR)
    assert edit.after is None and edit.before == before
    assert ScheduleStore(db).get(s1.id) is None
    curation.undo(db, edit.id, ACTOR)
    assert _row(db, "memory_schedules", s1.id) == before
    curation.redo(db, edit.id, ACTOR)
    assert ScheduleStore(db).get(s1.id) is None
    with pytest.raises(NotFoundError):
        cc.delete_schedule(s1.id).perform(db, ACTOR)


def test_delete_event_undo_keeps_rowid_and_storage_order(items):
    db, _e1, e2, _e3, _ = items
    before = _row(db, "memory_calendar", e2.id)
    order = [e.id for e in CalendarStore(db).list_all()]
    edit = cc.delete_event(e2.id, seen=e2).perform(db, ACTOR)
    assert CalendarStore(db).get(e2.id) is None
    curation.undo(db, edit.id, ACTOR)
    assert _row(db, "memory_calendar", e2.id) == before
    assert [e.id for e in CalendarStore(db).list_all()] == order


def test_redo_of_a_delete_refuses_a_changed_row(items):
    db, _, e2, *_ = items
    edit = cc.delete_event(e2.id).perform(db, ACTOR)
    curation.undo(db, edit.id, ACTOR)
    with db.write() as conn:
        conn.execute("UPDATE memory_calendar SET title = 'renamed' WHERE id = ?", (e2.id,))
    with pytest.raises(ConflictError, match="title is now 'renamed'"):
        curation.redo(db, edit.id, ACTOR)
    assert CalendarStore(db).get(e2.id).title == "renamed"


def test_undo_of_a_delete_refuses_when_the_id_exists_again(items):
    db, *_, s1 = items
    before = _row(db, "memory_schedules", s1.id)
    edit = cc.delete_schedule(s1.id).perform(db, ACTOR)
    with db.write() as conn:
        cols = [k for k in before if k != "rowid"]
        conn.execute(
            f"INSERT INTO memory_schedules ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
            tuple(before[k] for k in cols),
        )
    with pytest.raises(ConflictError, match="exists again"):
        curation.undo(db, edit.id, ACTOR)


def test_a_taken_rowid_still_restores_the_row(items):
    db, *_, s1 = items
    before = _row(db, "memory_schedules", s1.id)
    edit = cc.delete_schedule(s1.id).perform(db, ACTOR)
    other = ScheduleStore(db).create("other", T0, "prompt", {}, now=T0)
    with db.write() as conn:
        conn.execute("UPDATE memory_schedules SET rowid = ? WHERE id = ?", (before["rowid"], other.id))
    curation.undo(db, edit.id, ACTOR)
    restored = _row(db, "memory_schedules", s1.id)
    assert {k: v for k, v in restored.items() if k != "rowid"} == {
        k: v for k, v in before.items() if k != "rowid"
    }


def test_actions_are_registered():
    assert set(cc.ACTIONS) <= set(curation.registered_actions())
    assert curation.handler("calendar.event_delete").action == "calendar.event_delete"


def _agent_makes_a_task_named(db, name: str):
    """As the agent's schedule_reminder does, a second after the edit at T0: a new task, the other enabled
    tasks of its name disabled."""
    store = ScheduleStore(db)
    new = store.create(name, T0 + 2000, "prompt", {"message": "again"}, "interval:60000", now=T0 + 1000)
    with db.write() as conn:
        conn.execute("UPDATE memory_schedules SET enabled = 0 WHERE name = ? AND id != ?", (name, new.id))
    return new


def test_undoing_a_task_deletion_refuses_a_second_enabled_task_of_the_same_name(items):
    db, *_, s1 = items
    edit = cc.delete_schedule(s1.id).perform(db, ACTOR, now=T0)
    new = _agent_makes_a_task_named(db, s1.name)
    with pytest.raises(ConflictError) as ei:
        curation.undo(db, edit.id, ACTOR)
    assert ei.value.code == "calendar.step_name_taken"
    assert ei.value.params["other_id"] == new.id and "both would fire" in ei.value.message
    assert "Nothing was changed" in ei.value.message
    enabled = [t.id for t in ScheduleStore(db).list_enabled() if t.name == s1.name]
    assert enabled == [new.id] and ScheduleStore(db).get(s1.id) is None
    # Once the agent's task is gone (or disabled), the undo goes ahead.
    ScheduleStore(db).set_enabled(new.id, False)
    curation.undo(db, edit.id, ACTOR)
    assert ScheduleStore(db).get(s1.id).enabled is True


def test_undoing_a_disable_refuses_a_second_enabled_task_of_the_same_name(items):
    db, *_, s1 = items
    edit = cc.disable_schedule(s1.id).perform(db, ACTOR, now=T0)
    new = _agent_makes_a_task_named(db, s1.name)
    with pytest.raises(ConflictError) as ei:
        curation.undo(db, edit.id, ACTOR)
    assert ei.value.code == "calendar.step_name_taken" and ei.value.params["other_id"] == new.id
    assert ScheduleStore(db).get(s1.id).enabled is False and ScheduleStore(db).get(new.id).enabled is True


def test_undoing_a_disable_keeps_two_enabled_tasks_that_were_both_there_before_the_edit(items):
    db, *_, s1 = items
    twin = ScheduleStore(db).create(s1.name, T0 + 2000, "prompt", {}, "interval:60000", now=T0 - 1000)
    edit = cc.disable_schedule(s1.id).perform(db, ACTOR, now=T0)
    curation.undo(
        db, edit.id, ACTOR
    )  # the file as it was before the edit: both enabled, as the agent left it
    assert ScheduleStore(db).get(s1.id).enabled is True and ScheduleStore(db).get(twin.id).enabled is True
