"""Skill curation: audited edits with undo/redo, conflict safety, exact restoration of rows."""

from __future__ import annotations

import json

import pytest

from core import curation, schema
from core.audit import list_entries
from core.curation import skills as sc
from core.errors import ConflictError, NotFoundError, ValidationError_
from core.skills import SkillStore
from tests.conftest import FIXED_NOW

ACTOR = "tester@philont-desktop"
VER = {"kind": "assert", "check": "输出 ok ✓"}
DAY = 86_400_000


@pytest.fixture
def store(mem_db):
    return SkillStore(mem_db)


def raw_row(db, name):
    row = db.conn.execute("SELECT rowid AS rowid, * FROM memory_skills WHERE name = ?", (name,)).fetchone()
    return None if row is None else dict(zip(row.keys(), tuple(row), strict=True))


def audit_count(db):
    return len(list_entries(db, limit=1000))


def make_recipe(store, name="deploy-blue-green", **kw):
    kw.setdefault("verification", VER)
    kw.setdefault("tool_policy", ["shell", "readFile"])
    return store.create_skill(
        name,
        kw.pop("description", "Blue/green deploy"),
        kw.pop("keywords", ["deploy", "部署"]),
        kw.pop("template", "1. build the image\n2. switch traffic"),
        now=FIXED_NOW - 30 * DAY,
        **kw,
    )


# -- revise ---------------------------------------------------------------------------------------------
def test_revise_recipe_is_one_audited_transaction_with_exact_undo_and_redo(mem_db, store):
    s = make_recipe(store, maturity="stable")
    store.record_skill_outcome(s.name, True, FIXED_NOW - 10 * DAY)
    s = store.get_by_name(s.name)
    before = raw_row(mem_db, s.name)

    edit = sc.revise_recipe(
        s,
        reason="the switch needs a health check",
        action_template="1. build the image\n2. check health\n3. switch",
        now=FIXED_NOW,
    ).perform(mem_db, ACTOR, now=FIXED_NOW)
    after = raw_row(mem_db, s.name)
    assert edit.action == "skills.revise_recipe"
    assert edit.target_type == "skill" and edit.target_id == s.id
    assert edit.note == "the switch needs a health check"
    assert after["maturity"] == "draft"
    assert after["action_template"] == "1. build the image\n2. check health\n3. switch"
    assert json.loads(after["revision_history"]) == [
        {
            "at": FIXED_NOW,
            "actionTemplate": "1. build the image\n2. switch traffic",
            "verification": VER,
            "toolPolicy": ["shell", "readFile"],
            "reason": "the switch needs a health check",
        }
    ]
    # counters untouched
    assert (after["success_count"], after["use_count"]) == (before["success_count"], before["use_count"])
    assert edit.before["maturity"] == "stable" and edit.after["maturity"] == "draft"
    assert edit.before["revision_history"] is None

    curation.undo(mem_db, edit.id, ACTOR)
    assert raw_row(mem_db, s.name) == before
    curation.redo(mem_db, edit.id, ACTOR)
    assert raw_row(mem_db, s.name) == after
    assert [e.action for e in list_entries(mem_db)] == ["redo", "undo", "skills.revise_recipe"]


def test_revise_recipe_can_change_verification_and_policy(mem_db, store):
    s = make_recipe(store)
    sc.revise_recipe(
        s,
        reason="stricter",
        verification={"kind": "tool_result_ok", "check": "exit 0"},
        tool_policy=["shell"],
    ).perform(mem_db, ACTOR, now=FIXED_NOW)
    row = raw_row(mem_db, s.name)
    assert row["verification"] == '{"kind":"tool_result_ok","check":"exit 0"}'
    assert row["tool_policy"] == '["shell"]'


def test_revise_refusals_write_nothing(mem_db, store):
    prose = store.create_skill("lesson", "advice", [], "do it", now=FIXED_NOW)
    with pytest.raises(ValidationError_, match="not a recipe"):
        sc.revise_recipe(prose, reason="x", action_template="new").perform(mem_db, ACTOR)
    s = make_recipe(store)
    with pytest.raises(ValidationError_, match="reason is required"):
        sc.revise_recipe(s, reason="  ", action_template="new")
    with pytest.raises(ValidationError_, match="unchanged"):
        sc.revise_recipe(s, reason="x", action_template=s.action_template).perform(mem_db, ACTOR)
    with pytest.raises(ValidationError_, match="kind one of"):
        sc.revise_recipe(s, reason="x", verification={"kind": "bogus", "check": ""})
    assert audit_count(mem_db) == 0
    assert raw_row(mem_db, s.name)["revision_history"] is None


# -- conflicts --------------------------------------------------------------------------------------------
def test_edit_of_a_skill_the_agent_changed_is_refused(mem_db, store):
    s = make_recipe(store)
    shown = store.get_by_name(s.name)
    # The agent revises the recipe meanwhile.
    store.revise_recipe(s.name, reason="skill_repair:i1: x", action_template="agent's version", now=FIXED_NOW)
    agent_row = raw_row(mem_db, s.name)
    with pytest.raises(ConflictError) as info:
        sc.revise_recipe(shown, reason="mine", action_template="my version").perform(mem_db, ACTOR)
    assert info.value.current.action_template == "agent's version"
    with pytest.raises(ConflictError):
        sc.set_maturity(shown, "stable", reason="trust it").perform(mem_db, ACTOR)
    with pytest.raises(ConflictError):
        sc.delete(shown).perform(mem_db, ACTOR)
    assert raw_row(mem_db, s.name) == agent_row
    assert audit_count(mem_db) == 0


def test_usage_counters_moving_is_not_a_conflict(mem_db, store):
    s = make_recipe(store)
    store.record_usage(s.name, FIXED_NOW)  # the agent retrieves it while the user edits
    sc.update(s, description="Blue/green deploy with health checks").perform(mem_db, ACTOR)
    assert raw_row(mem_db, s.name)["use_count"] == 1


def test_grade_change_by_an_outcome_is_a_conflict(mem_db, store):
    s = store.create_skill("probe", "d", [], "t", now=FIXED_NOW)
    store.record_skill_outcome("probe", True, FIXED_NOW)
    store.record_skill_outcome("probe", True, FIXED_NOW + 1)  # draft -> confirmed
    with pytest.raises(ConflictError):
        sc.update(s, description="new").perform(mem_db, ACTOR)


def test_a_deleted_skill_is_a_conflict(mem_db, store):
    s = make_recipe(store)
    store.delete_skill(s.name)
    with pytest.raises(ConflictError, match="no longer exists"):
        sc.update(s, description="x").perform(mem_db, ACTOR)


def test_undo_refuses_to_overwrite_a_later_change_and_keeps_it(mem_db, store):
    s = make_recipe(store, maturity="stable")
    edit = sc.revise_recipe(s, reason="r", action_template="v2", now=FIXED_NOW).perform(mem_db, ACTOR)
    # The agent credits two successes: draft -> confirmed.
    store.record_skill_outcome(s.name, True, FIXED_NOW + 1)
    store.record_skill_outcome(s.name, True, FIXED_NOW + 2)
    row = raw_row(mem_db, s.name)
    assert row["maturity"] == "confirmed"
    with pytest.raises(ConflictError, match="maturity changed since"):
        curation.undo(mem_db, edit.id, ACTOR)
    assert raw_row(mem_db, s.name) == row
    assert [e.action for e in list_entries(mem_db)] == ["skills.revise_recipe"]


def test_undo_keeps_counters_that_moved_meanwhile(mem_db, store):
    s = make_recipe(store)
    edit = sc.update(s, description="new text").perform(mem_db, ACTOR)
    store.record_usage(s.name, FIXED_NOW)
    curation.undo(mem_db, edit.id, ACTOR)
    row = raw_row(mem_db, s.name)
    assert row["description"] == "Blue/green deploy"
    assert row["use_count"] == 1 and row["last_used_at"] == FIXED_NOW


# -- revert -------------------------------------------------------------------------------------------------
def test_revert_creates_a_new_revision_naming_the_restored_one(mem_db, store):
    s = make_recipe(store)
    store.revise_recipe(s.name, reason="v2", action_template="v2 text", now=FIXED_NOW - 2 * DAY)
    store.revise_recipe(s.name, reason="v3", action_template="v3 text", now=FIXED_NOW - DAY)
    s = store.get_by_name(s.name)
    before = raw_row(mem_db, s.name)
    edit = sc.revert(s, 0, "v1 was better", now=FIXED_NOW).perform(mem_db, ACTOR)
    s2 = store.get_by_name(s.name)
    assert s2.action_template == "1. build the image\n2. switch traffic"
    assert len(s2.revision_history) == 3
    last = s2.revision_history[-1]
    assert last.reason == "revert to revision 1 (2026-06-13T12:00:00.000Z): v1 was better"
    assert last.action_template == "v3 text" and last.at == FIXED_NOW
    assert edit.action == "skills.revert" and edit.note == "v1 was better"
    curation.undo(mem_db, edit.id, ACTOR)
    assert raw_row(mem_db, s.name) == before
    with pytest.raises(NotFoundError):
        sc.revert(s, 5).perform(mem_db, ACTOR)


# -- fields, grade, kind --------------------------------------------------------------------------------------
def test_update_fields_keeps_the_bytes_of_fields_not_edited(mem_db, store):
    s = store.create_skill("trip", "Plan a trip", ["travel"], "steps", when_to_use="", now=FIXED_NOW)
    mem_db.conn.execute(
        "UPDATE memory_skills SET trigger_keywords = ?, when_to_use = '' WHERE name = 'trip'",
        ('["travel", "旅行"]',),
    )
    s = store.get_by_name("trip")
    edit = sc.update(s, description="Plan a trip (with visas)").perform(mem_db, ACTOR)
    row = raw_row(mem_db, "trip")
    assert row["trigger_keywords"] == '["travel", "旅行"]'
    assert row["when_to_use"] == ""
    assert (
        edit.before["description"] == "Plan a trip"
        and edit.after["description"] == "Plan a trip (with visas)"
    )

    s = store.get_by_name("trip")
    edit2 = sc.update(s, trigger_keywords=["travel", "签证"], when_to_use="before booking").perform(
        mem_db, ACTOR
    )
    row = raw_row(mem_db, "trip")
    assert row["trigger_keywords"] == '["travel","签证"]'
    assert row["when_to_use"] == "before booking"
    curation.undo(mem_db, edit2.id, ACTOR)
    curation.undo(mem_db, edit.id, ACTOR)
    row = raw_row(mem_db, "trip")
    assert (row["description"], row["trigger_keywords"], row["when_to_use"]) == (
        "Plan a trip",
        '["travel", "旅行"]',
        "",
    )


def test_update_action_template_only_for_skills_that_are_not_recipes(mem_db, store):
    s = make_recipe(store)
    with pytest.raises(ValidationError_, match="revising the recipe"):
        sc.update(s, action_template="sneaky").perform(mem_db, ACTOR)
    p = store.create_skill("prose", "d", [], "old", now=FIXED_NOW)
    sc.update(p, action_template="new").perform(mem_db, ACTOR)
    assert raw_row(mem_db, "prose")["action_template"] == "new"
    with pytest.raises(ValidationError_, match="Nothing to change"):
        sc.update(store.get_by_name("prose"), action_template="new").perform(mem_db, ACTOR)


def test_set_maturity_by_hand_is_audited_with_its_reason(mem_db, store):
    s = make_recipe(store, maturity="deprecated")
    edit = sc.set_maturity(s, "draft", reason="the API was fixed upstream").perform(mem_db, ACTOR)
    assert raw_row(mem_db, s.name)["maturity"] == "draft"
    assert edit.note == "the API was fixed upstream"
    assert (edit.before["maturity"], edit.after["maturity"]) == ("deprecated", "draft")
    curation.undo(mem_db, edit.id, ACTOR)
    assert raw_row(mem_db, s.name)["maturity"] == "deprecated"
    curation.redo(mem_db, edit.id, ACTOR)
    assert raw_row(mem_db, s.name)["maturity"] == "draft"
    with pytest.raises(ValidationError_, match="reason is required"):
        sc.set_maturity(s, "stable", reason="")
    with pytest.raises(ValidationError_, match="already draft"):
        sc.set_maturity(store.get_by_name(s.name), "draft", reason="x").perform(mem_db, ACTOR)
    with pytest.raises(ValidationError_, match="Unknown maturity"):
        sc.set_maturity(s, "gold", reason="x")


def test_flip_kind(mem_db, store):
    s = make_recipe(store)
    edit = sc.set_kind(s, "negative").perform(mem_db, ACTOR)
    assert raw_row(mem_db, s.name)["kind"] == "negative"
    assert raw_row(mem_db, s.name)["trigger_keywords"] == '["deploy","部署"]'
    curation.undo(mem_db, edit.id, ACTOR)
    assert raw_row(mem_db, s.name)["kind"] == "positive"


# -- delete -------------------------------------------------------------------------------------------------
def test_delete_and_undo_recreate_every_column_and_the_fts_entry(mem_db, store):
    make_recipe(store, name="first")
    s = make_recipe(store, source="github:acme/skills@1a2b3c4")
    store.revise_recipe(s.name, reason="r", action_template="v2", now=FIXED_NOW - DAY)
    store.record_skill_outcome(s.name, False, FIXED_NOW - 1000)
    store.record_skills_offered([s.name], [s.name])
    s = store.get_by_name(s.name)
    before = raw_row(mem_db, s.name)
    edit = sc.delete(s).perform(mem_db, ACTOR)
    assert raw_row(mem_db, s.name) is None
    assert {x.name for x in store.search("Blue/green")} == {"first"}
    assert edit.before == before
    assert edit.after is None

    curation.undo(mem_db, edit.id, ACTOR)
    assert raw_row(mem_db, s.name) == before  # same rowid too: it was free
    assert {x.name for x in store.search("Blue/green")} == {"first", s.name}
    assert schema.fts_consistency(mem_db.conn) == []

    curation.redo(mem_db, edit.id, ACTOR)
    assert raw_row(mem_db, s.name) is None
    assert schema.fts_consistency(mem_db.conn) == []


def test_undo_delete_uses_a_new_rowid_when_the_old_one_was_taken(mem_db, store):
    s = make_recipe(store)
    old = raw_row(mem_db, s.name)
    edit = sc.delete(s).perform(mem_db, ACTOR)
    store.create_skill("newcomer", "takes the freed rowid", [], "t", now=FIXED_NOW)
    assert raw_row(mem_db, "newcomer")["rowid"] == old["rowid"]
    curation.undo(mem_db, edit.id, ACTOR)
    new = raw_row(mem_db, s.name)
    assert new["rowid"] != old["rowid"]
    assert {k: v for k, v in new.items() if k != "rowid"} == {k: v for k, v in old.items() if k != "rowid"}
    assert s.name in [x.name for x in store.search("Blue/green deploy")]
    assert schema.fts_consistency(mem_db.conn) == []


def test_redo_delete_then_undo_restores_the_newest_counters(mem_db, store):
    s = make_recipe(store)
    edit = sc.delete(s).perform(mem_db, ACTOR)
    curation.undo(mem_db, edit.id, ACTOR)
    store.record_usage(s.name, FIXED_NOW)  # the agent used it after it came back
    curation.redo(mem_db, edit.id, ACTOR)
    curation.undo(mem_db, edit.id, ACTOR)
    assert raw_row(mem_db, s.name)["use_count"] == 1


def test_undo_delete_refused_when_the_name_is_taken_again(mem_db, store):
    s = make_recipe(store)
    edit = sc.delete(s).perform(mem_db, ACTOR)
    store.create_skill(s.name, "the agent learned it again", [], "t", now=FIXED_NOW)
    with pytest.raises(ConflictError, match="exists again"):
        curation.undo(mem_db, edit.id, ACTOR)
    assert raw_row(mem_db, s.name)["description"] == "the agent learned it again"


def test_redo_delete_refused_when_the_restored_skill_was_revised(mem_db, store):
    s = make_recipe(store)
    edit = sc.delete(s).perform(mem_db, ACTOR)
    curation.undo(mem_db, edit.id, ACTOR)
    store.revise_recipe(s.name, reason="agent", action_template="agent v2", now=FIXED_NOW)
    with pytest.raises(ConflictError, match="changed since it was restored"):
        curation.redo(mem_db, edit.id, ACTOR)
    assert raw_row(mem_db, s.name)["action_template"] == "agent v2"


def test_handlers_are_found_through_the_registry():
    for action in sc.ACTIONS:
        h = curation.handler(action)
        assert h.action == action


def test_version_is_stable_and_sensitive(store):
    s = make_recipe(store)
    assert sc.skill_version(s) == sc.skill_version(store.get_by_name(s.name))
    store.record_usage(s.name, FIXED_NOW)
    assert sc.skill_version(s) == sc.skill_version(store.get_by_name(s.name))
    store.set_maturity(s.name, "stable")
    assert sc.skill_version(s) != sc.skill_version(store.get_by_name(s.name))
