"""Writes of the memory tools made on a person's behalf (``tool --write``, the MCP server): one transaction
with their audit row, undone and redone only when nobody changed the rows since."""

from __future__ import annotations

import json

import pytest

from core import audit, curation
from core.calendar import CalendarStore
from core.cli import main
from core.curation.tools import run_audited
from core.db import MemoryDB
from core.errors import ConflictError
from core.facts import FactStore
from core.schedules import ScheduleStore
from core.tools import run_tool
from tests.conftest import FIXED_NOW

ACTOR = "tester@philont-memory-mcp"


def _undo(db, entry):
    return curation.undo(db, entry.id, "tester@philont-desktop")


def _redo(db, entry):
    return curation.redo(db, entry.id, "tester@philont-desktop")


def test_store_fact_is_audited_with_both_versions_and_undone(file_db):
    FactStore(file_db).store_fact("user", "tea", "绿茶", now=FIXED_NOW - 10)
    old = FactStore(file_db).get_fact("user", "tea", bump=False)
    run = run_audited(
        file_db,
        "store_fact",
        {"namespace": "user", "key": "tea", "value": "龙井"},
        actor=ACTOR,
        note="n",
        now=FIXED_NOW,
    )
    assert run.result.success
    assert run.result.output.startswith("Stored user.tea [state ? → ∞ | recorded 2026-06-15T12:00:00.000Z]")
    e = run.entry
    assert (e.action, e.actor, e.note, e.target_type) == ("facts.store_fact", ACTOR, "n", "fact")
    new = FactStore(file_db).get_fact("user", "tea", bump=False)
    assert e.target_id == new.id and new.supersedes == old.id
    assert e.before["table"] == e.after["table"] == "memory_facts"
    assert e.before["ids"] == e.after["ids"] == [old.id, new.id]
    assert e.before["rows"][1] is None and e.after["rows"][0]["superseded_by"] == new.id
    assert e.before["rows"][0]["superseded_by"] is None and e.after["rows"][1]["value_json"] == '"龙井"'

    _undo(file_db, e)
    head = FactStore(file_db).get_fact("user", "tea", bump=False)
    assert head.id == old.id and head.superseded_by is None
    assert FactStore(file_db).get_by_id(new.id) is None
    _redo(file_db, e)
    assert FactStore(file_db).get_fact("user", "tea", bump=False).id == new.id


def test_undo_refuses_when_the_agent_wrote_a_newer_version(file_db):
    run = run_audited(file_db, "store_fact", {"namespace": "user", "key": "k", "value": 1}, actor=ACTOR)
    FactStore(file_db).store_fact("user", "k", 2)  # the agent, meanwhile
    with pytest.raises(ConflictError) as info:
        _undo(file_db, run.entry)
    assert info.value.code == "tools.undo_conflict"
    p = info.value.params
    assert (p["table"], p["step"], p["problem"]) == ("memory_facts", "undo", "changed")
    assert "superseded_by" in p["fields"]
    assert FactStore(file_db).get_fact("user", "k", bump=False).value == 2


def test_a_failing_or_refused_call_writes_nothing(file_db):
    before = audit.list_entries(file_db)
    bad = [
        ("store_fact", {"namespace": "user", "key": "a b", "value": 1}),
        ("store_fact", {"namespace": "self", "key": "summary", "value": {"content": "x"}}),
        ("create_calendar_event", {"title": "t", "starts_at": "soon", "timezone": "UTC"}),
        ("cancel_schedule", {"name": "nothing matches this"}),
        ("store_fact", "{not json"),
        ("schedule_reminder", {"name": 3}),
        ("store_fact", {"namespace": {"a": 1}, "key": ["k"], "value": 1}),
    ]
    for name, args in bad:
        run = run_audited(file_db, name, args, actor=ACTOR, now=FIXED_NOW)
        assert not run.result.success and run.entry is None
        assert run.result == run_tool(file_db, name, args, now=FIXED_NOW)  # the dispatcher's own answer
    assert audit.list_entries(file_db) == before
    assert FactStore(file_db).list_facts("user") == []


def test_read_tools_are_not_audited(file_db):
    FactStore(file_db).store_fact("user", "k", 1, now=FIXED_NOW - 10)
    run = run_audited(file_db, "get_fact", {"namespace": "user", "key": "k"}, actor=ACTOR, now=FIXED_NOW)
    assert run.result.success and run.entry is None
    assert FactStore(file_db).get_fact("user", "k", bump=False).last_accessed_at == FIXED_NOW  # the bump


def test_schedule_tools_undo_and_redo_every_row(file_db):
    store = ScheduleStore(file_db)
    old = store.create("water", FIXED_NOW + 1000, now=FIXED_NOW - 5)
    other = store.create("stretch", FIXED_NOW + 2000, now=FIXED_NOW - 4)
    snapshot = {s.id: s.to_json() for s in store.list_all()}
    rem = run_audited(
        file_db,
        "schedule_reminder",
        {"name": "water", "message": "drink", "interval_ms": 60_000},
        actor=ACTOR,
    ).entry
    assert rem.target_type == "schedule" and rem.target_id not in (old.id, other.id)
    assert not store.get(old.id).enabled
    cancel = run_audited(file_db, "cancel_schedule", {"name": "t"}, actor=ACTOR).entry  # water, stretch
    assert store.list_all() == []
    assert set(cancel.target_id.split(",")) == {old.id, other.id, rem.target_id}

    _undo(file_db, cancel)
    _undo(file_db, rem)
    assert {s.id: s.to_json() for s in store.list_all()} == snapshot
    rowids = dict(file_db.conn.execute("SELECT id, rowid FROM memory_schedules").fetchall())
    _redo(file_db, rem)
    _redo(file_db, cancel)
    assert store.list_all() == []
    _undo(file_db, cancel)
    assert (
        dict(file_db.conn.execute("SELECT id, rowid FROM memory_schedules").fetchall())[old.id]
        == rowids[old.id]
    )


def test_the_schedulers_bookkeeping_does_not_block_undo(file_db):
    rem = run_audited(
        file_db, "schedule_reminder", {"name": "ping", "message": "hi", "interval_ms": 60_000}, actor=ACTOR
    ).entry
    with file_db.write() as conn:  # the agent fired the task meanwhile
        conn.execute(
            "UPDATE memory_schedules SET last_run_at = ?, next_run_at = next_run_at + 60000 WHERE id = ?",
            (FIXED_NOW, rem.target_id),
        )
    _undo(file_db, rem)
    assert ScheduleStore(file_db).list_all() == []


def test_calendar_event_undo_and_conflict(file_db):
    args = {"title": "Review", "starts_at": "2026-06-20T09:00:00Z", "timezone": "UTC"}
    e = run_audited(file_db, "create_calendar_event", args, actor=ACTOR).entry
    assert e.target_type == "calendar_event"
    with file_db.write() as conn:
        conn.execute("UPDATE memory_calendar SET title = 'Renamed' WHERE id = ?", (e.target_id,))
    with pytest.raises(ConflictError, match="was changed since"):
        _undo(file_db, e)
    with file_db.write() as conn:
        conn.execute("UPDATE memory_calendar SET title = 'Review' WHERE id = ?", (e.target_id,))
    _undo(file_db, e)
    assert CalendarStore(file_db).list_all() == []


def test_an_entry_without_its_rows_cannot_be_undone(file_db):
    e = run_audited(file_db, "store_fact", {"namespace": "p", "key": "k", "value": 1}, actor=ACTOR).entry
    with file_db.write() as conn:
        conn.execute("UPDATE philont_desktop_audit SET before_json = '{}' WHERE id = ?", (e.id,))
    with pytest.raises(ConflictError) as info:
        _undo(file_db, e)
    assert info.value.code == "tools.audit_unreadable" and info.value.params == {"audit_id": e.id}


def test_cli_tool_write_is_audited_and_undone_by_the_cli(capsys, tmp_path):
    path = tmp_path / "memory" / "memory.sqlite"
    MemoryDB.create(path, now=FIXED_NOW).close()
    base = ["--db", str(path), "--json"]
    assert (
        main([*base, "tool", "store_fact", '{"namespace":"user","key":"tea","value":"龙井"}', "--write"]) == 0
    )
    capsys.readouterr()
    assert main([*base, "audit"]) == 0
    (entry,) = json.loads(capsys.readouterr().out)["entries"]
    assert entry["action"] == "facts.store_fact" and entry["actor"].endswith("@philont-desktop")
    assert main([*base, "undo", str(entry["id"])]) == 0
    capsys.readouterr()
    assert main([*base, "tool", "get_fact", '{"namespace":"user","key":"tea"}']) == 1
    assert json.loads(capsys.readouterr().out) == {"success": False, "error": "Not found: user.tea"}


def test_the_change_set_credits_a_tool_write_to_its_actor(file_db):
    from core.changes import changes_since

    FactStore(file_db).store_fact("user", "tea", "绿茶", now=FIXED_NOW - 10_000)
    args = {"namespace": "user", "key": "tea", "value": "龙井"}
    run_audited(file_db, "store_fact", args, actor=ACTOR, now=FIXED_NOW)
    cs = changes_since(file_db, FIXED_NOW - 1000, until=FIXED_NOW + 1000, layers=["facts"])
    (item,) = [i for i in cs.items if i.target.id.endswith("tea") or "tea" in str(i.params.get("name"))]
    assert item.code == "change.fact.replaced" and item.actor == ACTOR


def test_the_app_refreshes_the_layer_a_tool_write_touched(file_db):
    sched = run_audited(
        file_db, "schedule_reminder", {"name": "p", "message": "m", "at": "2026-07-01"}, actor=ACTOR
    )
    fact = run_audited(file_db, "store_fact", {"namespace": "user", "key": "k", "value": 1}, actor=ACTOR)
    changes = curation.Changes.of(fact.entry)
    assert changes.touches("facts", [fact.entry.target_id]) and ("user", "k") in changes.keys
    undo = curation.Changes.of(_undo(file_db, sched.entry), "undo")
    assert undo.layer == "calendar" and undo.touches("calendar", [sched.entry.target_id])
