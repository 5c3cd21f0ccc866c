"""Fact curation: audited edits with undo/redo, bulk actions, and a concurrent writer (the agent)."""

from __future__ import annotations

import pytest

from core import audit, curation
from core.curation import facts as cf
from core.db import MemoryDB
from core.errors import ConflictError, NotFoundError, ValidationError_
from core.facts import FactStore, SelfDescriptionWriteForbiddenError
from tests.conftest import FIXED_NOW

DAY = 86_400_000
ACTOR = "tester@philont-desktop"
T0 = FIXED_NOW - 10 * DAY


def row(db, fact_id):
    r = db.conn.execute("SELECT * FROM memory_facts WHERE id = ?", (fact_id,)).fetchone()
    return None if r is None else dict(zip(r.keys(), tuple(r)))


def all_rows(db):
    rs = db.conn.execute("SELECT * FROM memory_facts ORDER BY rowid").fetchall()
    return [dict(zip(r.keys(), tuple(r))) for r in rs]


def audit_actions(db):
    return [(e.action, e.undone_of) for e in reversed(audit.list_entries(db))]


@pytest.fixture
def store(mem_db):
    return FactStore(mem_db)


@pytest.fixture
def agent(file_db):
    """A second writable connection to the same file: the agent writing while a person curates."""
    other = MemoryDB.open(file_db.path, writable=True)
    yield FactStore(other)
    other.close()


def test_every_action_is_registered():
    for action in cf.ACTIONS:
        assert action in curation.registered_actions()
        assert curation.handler(action).action == action


# -- single-row field actions ----------------------------------------------------------------------------


def test_pin_audits_exact_before_and_after_and_round_trips(store, mem_db):
    f = store.store_fact("project", "repo", "github.com/x", now=T0)
    before = row(mem_db, f.id)
    edit = cf.pin(f.id).perform(mem_db, ACTOR, now=T0 + 1)
    assert (edit.action, edit.target_type, edit.target_id, edit.actor, edit.at) == (
        "facts.pin",
        "fact",
        f.id,
        ACTOR,
        T0 + 1,
    )
    assert edit.before == before
    assert edit.after == {**before, "decay_tau_days": -1}
    assert edit.changed_fields() == ["decay_tau_days"]
    assert row(mem_db, f.id)["decay_tau_days"] == -1.0

    curation.undo(mem_db, edit.id, ACTOR)
    assert row(mem_db, f.id) == before
    curation.redo(mem_db, edit.id, ACTOR)
    assert row(mem_db, f.id) == {**before, "decay_tau_days": -1.0}
    assert audit_actions(mem_db) == [("facts.pin", None), ("undo", edit.id), ("redo", edit.id)]


def test_unpin_set_tau_and_clear(store, mem_db):
    f = store.store_fact("travel", "seat", "aisle", decay_tau_days=-1, now=T0)
    e1 = cf.unpin(f.id).perform(mem_db, ACTOR)
    assert (e1.before["decay_tau_days"], e1.after["decay_tau_days"]) == (-1, None)
    e2 = cf.set_tau(f.id, 30).perform(mem_db, ACTOR)
    assert (e2.action, e2.before["decay_tau_days"], e2.after["decay_tau_days"]) == ("facts.set_tau", None, 30)
    e3 = cf.set_tau(f.id, None).perform(mem_db, ACTOR)
    assert row(mem_db, f.id)["decay_tau_days"] is None
    e4 = cf.set_tau(f.id, -5).perform(mem_db, ACTOR)  # negative pins with the sentinel
    assert row(mem_db, f.id)["decay_tau_days"] == -1.0
    for e, tau in ((e4, None), (e3, 30.0), (e2, None), (e1, -1.0)):
        curation.undo(mem_db, e.id, ACTOR)
        assert row(mem_db, f.id)["decay_tau_days"] == tau


@pytest.mark.parametrize("bad", [0, float("nan"), float("inf"), True, "30"])
def test_set_tau_refuses_unusable_values(bad):
    with pytest.raises(ValidationError_):
        cf.set_tau("x", bad)


def test_no_op_changes_are_refused_and_not_audited(store, mem_db):
    f = store.store_fact("user", "city", "杭州", now=T0)
    with pytest.raises(ValidationError_, match=r"^user\.city is not pinned; nothing to change\.$"):
        cf.unpin(f.id).perform(mem_db, ACTOR)
    with pytest.raises(ValidationError_, match="is not forgotten"):
        cf.unforget(f.id).perform(mem_db, ACTOR)
    with pytest.raises(NotFoundError):
        cf.pin("missing").perform(mem_db, ACTOR)
    assert audit.list_entries(mem_db) == []


def test_forget_and_unforget_round_trip(store, mem_db):
    f = store.store_fact("context", "mood", "tired", now=T0)
    before = row(mem_db, f.id)
    e = cf.forget(f.id, now=FIXED_NOW).perform(mem_db, ACTOR)
    assert e.after == {**before, "forgotten_at": FIXED_NOW}
    assert store.get_fact("context", "mood", bump=False) is None
    with pytest.raises(ValidationError_, match="already forgotten"):
        cf.forget(f.id).perform(mem_db, ACTOR)
    curation.undo(mem_db, e.id, ACTOR)
    assert row(mem_db, f.id) == before
    curation.redo(mem_db, e.id, ACTOR)
    assert row(mem_db, f.id)["forgotten_at"] == FIXED_NOW
    e2 = cf.unforget(f.id).perform(mem_db, ACTOR)
    assert (e2.before["forgotten_at"], e2.after["forgotten_at"]) == (FIXED_NOW, None)
    curation.undo(mem_db, e2.id, ACTOR)
    assert row(mem_db, f.id)["forgotten_at"] == FIXED_NOW


def test_undo_of_a_field_action_refuses_to_overwrite_a_later_change(store, mem_db):
    f = store.store_fact("project", "sla", "99.9%", now=T0)
    e = cf.pin(f.id).perform(mem_db, ACTOR)
    store.set_tau(f.id, 45)  # another writer changes the same column afterwards
    with pytest.raises(ConflictError) as ei:
        curation.undo(mem_db, e.id, ACTOR)
    assert str(ei.value) == (
        "project.sla was changed after this edit (decay_tau_days is 45 (expected -1)). Undoing it would "
        "overwrite that change, so nothing was changed."
    )
    assert row(mem_db, f.id)["decay_tau_days"] == 45.0
    assert audit_actions(mem_db) == [("facts.pin", None)]


def test_undo_ignores_the_agents_read_bookkeeping(store, mem_db):
    f = store.store_fact("project", "sla", "99.9%", now=T0)
    e = cf.pin(f.id).perform(mem_db, ACTOR)
    store.mark_accessed(f.id, at=FIXED_NOW)
    curation.undo(mem_db, e.id, ACTOR)
    assert row(mem_db, f.id)["decay_tau_days"] is None
    assert row(mem_db, f.id)["last_accessed_at"] == FIXED_NOW  # the agent's read is kept


# -- edit and add: versions ----------------------------------------------------------------------------------


def test_edit_is_a_new_version_and_undo_makes_the_old_one_the_head_again(store, mem_db):
    old = store.store_fact("user", "timezone", "Asia/Shanghai", confidence=0.9, now=T0)
    old_before = row(mem_db, old.id)
    e = cf.edit(old.id, value="Europe/Berlin", confidence=0.8, now=FIXED_NOW).perform(mem_db, ACTOR)
    new_id = e.target_id
    assert e.action == "facts.edit" and new_id != old.id
    assert e.before == old_before
    assert e.after == {
        "id": new_id,
        "namespace": "user",
        "key": "timezone",
        "value_json": '"Europe/Berlin"',
        "confidence": 0.8,
        "superseded_by": None,
        "supersedes": old.id,
        "created_at": FIXED_NOW,
        "occurred_at": None,
        "valid_from": None,
        "valid_until": None,
        "last_accessed_at": FIXED_NOW,
        "decay_tau_days": None,
        "forgotten_at": None,
        "fact_kind": "state",
        "root_pursuit_id": None,
    }
    assert row(mem_db, old.id) == {**old_before, "superseded_by": new_id}
    assert [f.id for f in store.history("user", "timezone")] == [new_id, old.id]
    new_row = row(mem_db, new_id)

    curation.undo(mem_db, e.id, ACTOR)
    assert all_rows(mem_db) == [old_before]
    assert store.get_fact("user", "timezone", bump=False).value == "Asia/Shanghai"

    curation.redo(mem_db, e.id, ACTOR)
    assert all_rows(mem_db) == [{**old_before, "superseded_by": new_id}, new_row]
    assert audit_actions(mem_db) == [("facts.edit", None), ("undo", e.id), ("redo", e.id)]


def test_edit_validity_kind_and_tau_keeps_other_fields(store, mem_db):
    old = store.store_fact("travel", "hotel", {"name": "Baixa"}, decay_tau_days=30, now=T0)
    e = cf.edit(
        old.id, fact_kind="event", occurred_at=T0 - DAY, valid_from=T0, valid_until=T0 + DAY, now=FIXED_NOW
    ).perform(mem_db, ACTOR)
    new = row(mem_db, e.target_id)
    assert (new["value_json"], new["decay_tau_days"], new["fact_kind"]) == ('{"name":"Baixa"}', 30.0, "event")
    assert (new["occurred_at"], new["valid_from"], new["valid_until"]) == (T0 - DAY, T0, T0 + DAY)
    with pytest.raises(ValidationError_, match=r"valid_until \(1\) 早于 valid_from \(2\)"):
        cf.edit(e.target_id, valid_from=2, valid_until=1).perform(mem_db, ACTOR)


def test_edit_refuses_self_and_bad_confidence(store, mem_db):
    s = store.update_self_fact("summary", "I help.", ["session:global"], now=T0)
    with pytest.raises(SelfDescriptionWriteForbiddenError):
        cf.edit(s.id, value="x").perform(mem_db, ACTOR)
    with pytest.raises(ValidationError_, match="between 0 and 1"):
        cf.edit(s.id, confidence=1.5)
    with pytest.raises(ValidationError_, match="at least one"):
        cf.edit(s.id)


def test_edit_of_an_old_version_restores_it_on_top(store, mem_db):
    v1 = store.store_fact("decisions", "db_choice", "MySQL 8", now=T0)
    v2 = store.store_fact("decisions", "db_choice", "PostgreSQL 16", now=T0 + DAY)
    e = cf.edit(v1.id, expected_head=v2.id, now=FIXED_NOW).perform(mem_db, ACTOR)  # a revert
    assert store.get_fact("decisions", "db_choice", bump=False).value == "MySQL 8"
    assert e.before["id"] == v2.id and e.after["supersedes"] == v2.id
    curation.undo(mem_db, e.id, ACTOR)
    assert store.get_fact("decisions", "db_choice", bump=False).id == v2.id


def test_add_fact_with_the_cores_validation(store, mem_db):
    e = cf.add("工作", "周会时间", "周三下午 3 点", confidence=0.7, now=FIXED_NOW).perform(mem_db, ACTOR)
    assert (e.action, e.before) == ("facts.add", None)
    assert e.after["value_json"] == '"周三下午 3 点"' and e.after["confidence"] == 0.7
    curation.undo(mem_db, e.id, ACTOR)
    assert all_rows(mem_db) == []
    curation.redo(mem_db, e.id, ACTOR)
    assert [r["id"] for r in all_rows(mem_db)] == [e.target_id]

    with pytest.raises(SelfDescriptionWriteForbiddenError):
        cf.add("self", "summary", "x")
    with pytest.raises(ValidationError_, match="namespace must not be empty"):
        cf.add(" ", "k", 1)
    with pytest.raises(ValidationError_, match="key must not be empty"):
        cf.add("user", "", 1)
    with pytest.raises(ValidationError_, match="between 0 and 1"):
        cf.add("user", "k", 1, confidence=-0.1)
    with pytest.raises(ValidationError_) as ei:
        cf.add("travel", "trip", "x", valid_from=2000, valid_until=1000).perform(mem_db, ACTOR)
    assert str(ei.value) == "storeFact: valid_until (1000) 早于 valid_from (2000)"
    assert len(all_rows(mem_db)) == 1


def test_add_over_an_existing_key_supersedes_and_undo_restores(store, mem_db):
    old = store.store_fact("pets", "weight_kg", 10.4, now=T0)
    old_before = row(mem_db, old.id)
    e = cf.add("pets", "weight_kg", 10.8, expected_head=old.id, now=FIXED_NOW).perform(mem_db, ACTOR)
    assert e.before == old_before
    assert row(mem_db, old.id)["superseded_by"] == e.target_id
    curation.undo(mem_db, e.id, ACTOR)
    assert all_rows(mem_db) == [old_before]
    with pytest.raises(ConflictError, match=r"^pets\.weight_kg has a newer version written meanwhile"):
        cf.add("pets", "weight_kg", 11, expected_head=None).perform(mem_db, ACTOR)


# -- a concurrent writer (the agent) -----------------------------------------------------------------------


def test_edit_against_a_version_the_agent_superseded_is_refused(file_db, agent):
    mine = FactStore(file_db)
    old = mine.store_fact("project", "deploy_target", "fly.io", now=T0)
    newer = agent.store_fact("project", "deploy_target", "k8s (ACK 杭州)", now=FIXED_NOW - DAY)
    with pytest.raises(ConflictError) as ei:
        cf.edit(old.id, value="heroku", now=FIXED_NOW).perform(file_db, ACTOR)
    assert str(ei.value) == (
        "project.deploy_target has a newer version written meanwhile (stored 2026-06-14T12:00:00.000Z: "
        "k8s (ACK 杭州)). Your edit was made against an older version and was not applied; the newer "
        "version is kept. Look at it and edit again if needed."
    )
    assert ei.value.current["id"] == newer.id
    assert mine.get_fact("project", "deploy_target", bump=False).id == newer.id
    assert len(mine.history("project", "deploy_target")) == 2
    assert audit.list_entries(file_db) == []


def test_single_row_action_with_seen_row_refuses_after_agent_superseded(file_db, agent):
    mine = FactStore(file_db)
    shown = mine.store_fact("context", "task", "review 0042", now=T0)
    agent.store_fact("context", "task", "review 0043", now=FIXED_NOW)
    with pytest.raises(ConflictError, match=r"^context\.task has a newer version written meanwhile"):
        cf.forget(shown.id, seen=shown, now=FIXED_NOW).perform(file_db, ACTOR)
    assert mine.get_by_id(shown.id).forgotten_at is None


def test_undo_of_an_edit_after_the_agent_wrote_a_newer_version_is_refused(file_db, agent):
    mine = FactStore(file_db)
    old = mine.store_fact("user", "city", "Berlin", now=T0)
    e = cf.edit(old.id, value="杭州", now=FIXED_NOW - DAY).perform(file_db, ACTOR)
    agents = agent.store_fact("user", "city", "Lisbon", now=FIXED_NOW)
    before = all_rows(file_db)
    with pytest.raises(ConflictError) as ei:
        curation.undo(file_db, e.id, ACTOR)
    assert str(ei.value) == (
        "user.city has a newer version written meanwhile (stored 2026-06-15T12:00:00.000Z: Lisbon). "
        "Undoing it would drop or overwrite that newer version, so nothing was changed."
    )
    assert all_rows(file_db) == before
    assert mine.get_fact("user", "city", bump=False).id == agents.id
    assert audit_actions(file_db) == [("facts.edit", None)]


def test_undo_of_an_edit_survives_the_agent_reading_it(file_db, agent):
    mine = FactStore(file_db)
    old = mine.store_fact("user", "city", "Berlin", now=T0)
    e = cf.edit(old.id, value="杭州", now=FIXED_NOW - DAY).perform(file_db, ACTOR)
    assert agent.get_fact("user", "city", now=FIXED_NOW).value == "杭州"  # bumps last_accessed_at
    curation.undo(file_db, e.id, ACTOR)
    assert mine.get_fact("user", "city", bump=False).id == old.id


def test_redo_after_the_agent_wrote_a_newer_version_is_refused(file_db, agent):
    mine = FactStore(file_db)
    old = mine.store_fact("user", "city", "Berlin", now=T0)
    e = cf.edit(old.id, value="杭州", now=FIXED_NOW - DAY).perform(file_db, ACTOR)
    curation.undo(file_db, e.id, ACTOR)
    agents = agent.store_fact("user", "city", "Lisbon", now=FIXED_NOW)
    with pytest.raises(ConflictError, match=r"^user\.city has a newer version written meanwhile .*Lisbon"):
        curation.redo(file_db, e.id, ACTOR)
    assert [f.id for f in mine.history("user", "city")] == [agents.id, old.id]


# -- bulk actions --------------------------------------------------------------------------------------------


def _pool(store):
    a = store.store_fact("context", "a", 1, now=T0)  # 10 days at tau 1: a candidate
    b = store.store_fact("session", "b", 2, now=T0)  # candidate
    c = store.store_fact("project", "c", 3, now=T0)  # 10 days at tau 60: not a candidate
    d = store.store_fact("context", "d", 4, decay_tau_days=-1, now=T0)  # pinned
    return a, b, c, d


def test_plan_lists_what_a_bulk_forget_of_candidates_changes(store, mem_db):
    a, b, c, d = _pool(store)
    plan = cf.plan_bulk(mem_db, "forget", [a.id, b.id, c.id, d.id], candidates_only=True, now=FIXED_NOW)
    assert [it.fact.id for it in plan.items] == [a.id, b.id]
    assert [(f.id, r) for f, _i, r in plan.skipped] == [
        (c.id, "not a forget candidate (score 0.8465 at 2026-06-15T12:00:00.000Z)"),
        (d.id, "pinned: not a forget candidate"),
    ]
    assert plan.signature == ((a.id, None), (b.id, None))


def test_bulk_forget_is_one_edit_with_one_undo(store, mem_db):
    a, b, _c, _d = _pool(store)
    before = all_rows(mem_db)
    plan = cf.plan_bulk(mem_db, "forget", [a.id, b.id], candidates_only=True, now=FIXED_NOW)
    e = cf.bulk("forget", [a.id, b.id], candidates_only=True, expected=plan.signature, now=FIXED_NOW).perform(
        mem_db, ACTOR
    )
    assert (e.action, e.target_type, e.target_id) == ("facts.bulk_forget", "facts", "2 facts")
    assert e.before == {"op": "forget", "count": 2, "rows": [before[0], before[1]]}
    assert e.after == {
        "op": "forget",
        "count": 2,
        "rows": [{**before[0], "forgotten_at": FIXED_NOW}, {**before[1], "forgotten_at": FIXED_NOW}],
    }
    assert [f.id for f, _s in store.forget_candidates(now=FIXED_NOW)] == []
    curation.undo(mem_db, e.id, ACTOR)
    assert all_rows(mem_db) == before
    curation.redo(mem_db, e.id, ACTOR)
    assert [r["forgotten_at"] for r in all_rows(mem_db)] == [FIXED_NOW, FIXED_NOW, None, None]


def test_bulk_forget_refuses_when_the_agent_used_a_candidate_meanwhile(file_db, agent):
    mine = FactStore(file_db)
    a, b, _c, _d = _pool(mine)
    plan = cf.plan_bulk(file_db, "forget", [a.id, b.id], candidates_only=True, now=FIXED_NOW)
    agent.get_fact("session", "b", now=FIXED_NOW - 1000)  # the agent read it: no longer fading
    with pytest.raises(ConflictError) as ei:
        cf.bulk("forget", [a.id, b.id], candidates_only=True, expected=plan.signature, now=FIXED_NOW).perform(
            file_db, ACTOR
        )
    assert str(ei.value) == (
        "The facts changed since the confirmation was shown (the agent wrote meanwhile); nothing was "
        "changed. Look at the list again:\n"
        "session.b: not a forget candidate (score 1.0000 at 2026-06-15T12:00:00.000Z)"
    )
    assert [r["forgotten_at"] for r in all_rows(file_db)] == [None, None, None, None]


def test_bulk_pin_and_unpin(store, mem_db):
    a, _b, c, d = _pool(store)
    e = cf.bulk("pin", [a.id, c.id, d.id]).perform(mem_db, ACTOR)
    assert e.before["count"] == 2  # d is already pinned and left out
    assert [r["decay_tau_days"] for r in all_rows(mem_db)] == [-1.0, None, -1.0, -1.0]
    curation.undo(mem_db, e.id, ACTOR)
    assert [r["decay_tau_days"] for r in all_rows(mem_db)] == [None, None, None, -1.0]
    e2 = cf.bulk("unpin", [d.id]).perform(mem_db, ACTOR)
    assert e2.target_id == d.id
    with pytest.raises(ValidationError_, match=r"Nothing to change \(context\.a: not pinned\)\."):
        cf.bulk("unpin", [a.id]).perform(mem_db, ACTOR)


def test_move_namespace_stores_under_the_new_namespace_and_forgets_the_old(store, mem_db):
    x = store.store_fact("project", "owner", {"name": "Alice"}, confidence=0.7, decay_tau_days=30, now=T0)
    store.mark_accessed(x.id, at=T0 + DAY)
    y = store.store_fact("project", "sla", "99.9%", now=T0)
    existing = store.store_fact("project.mycox", "sla", "99.5%", now=T0)
    x_before, y_before, ex_before = row(mem_db, x.id), row(mem_db, y.id), row(mem_db, existing.id)

    plan = cf.plan_bulk(mem_db, "move", [x.id, y.id], new_namespace="project.mycox", now=FIXED_NOW)
    assert [(it.fact.id, it.replaces.id if it.replaces else None) for it in plan.items] == [
        (x.id, None),
        (y.id, existing.id),
    ]
    e = cf.move_namespace([x.id, y.id], "project.mycox", expected=plan.signature, now=FIXED_NOW).perform(
        mem_db, ACTOR
    )
    assert e.action == "facts.move_namespace" and e.before["namespace"] == "project.mycox"
    moved_x = store.get_fact("project.mycox", "owner", bump=False)
    moved_y = store.get_fact("project.mycox", "sla", bump=False)
    assert row(mem_db, moved_x.id) == {
        **x_before,
        "id": moved_x.id,
        "namespace": "project.mycox",
        "created_at": FIXED_NOW,
        "last_accessed_at": T0 + DAY,
        "supersedes": None,
    }
    assert moved_y.supersedes == existing.id and row(mem_db, existing.id)["superseded_by"] == moved_y.id
    assert row(mem_db, x.id)["forgotten_at"] == FIXED_NOW and row(mem_db, y.id)["forgotten_at"] == FIXED_NOW
    assert store.score(moved_x, FIXED_NOW) == store.score(store.get_by_id(x.id), FIXED_NOW)
    assert e.before["rows"] == [None, x_before, ex_before, None, y_before]

    curation.undo(mem_db, e.id, ACTOR)
    assert all_rows(mem_db) == [x_before, y_before, ex_before]
    curation.redo(mem_db, e.id, ACTOR)
    assert store.get_fact("project.mycox", "owner", bump=False).id == moved_x.id
    assert store.get_fact("project", "sla", bump=False) is None


def test_move_namespace_refusals(store, mem_db):
    a = store.store_fact("project", "k", 1, now=T0)
    b = store.store_fact("travel", "k", 2, now=T0)
    s = store.update_self_fact("summary", "x", [], now=T0)
    with pytest.raises(ValidationError_, match=r"project\.k and travel\.k|travel\.k and project\.k"):
        cf.move_namespace([a.id, b.id], "misc").perform(mem_db, ACTOR)
    with pytest.raises(SelfDescriptionWriteForbiddenError):
        cf.move_namespace([a.id], "self").perform(mem_db, ACTOR)
    with pytest.raises(ValidationError_, match="must not be empty"):
        cf.plan_bulk(mem_db, "move", [a.id], new_namespace="")
    plan = cf.plan_bulk(mem_db, "move", [s.id, a.id], new_namespace="project")
    assert plan.items == [] and [r for _f, _i, r in plan.skipped] == [
        "self facts are written by the kernel only",
        "already in this namespace",
    ]
    assert audit.list_entries(mem_db) == []


def test_move_namespace_undo_refuses_when_the_agent_superseded_the_moved_fact(file_db, agent):
    mine = FactStore(file_db)
    x = mine.store_fact("project", "owner", "Alice", now=T0)
    e = cf.move_namespace([x.id], "team", now=FIXED_NOW - DAY).perform(file_db, ACTOR)
    agent.store_fact("team", "owner", "Bob", now=FIXED_NOW)
    with pytest.raises(ConflictError, match=r"^team\.owner has a newer version written meanwhile .*Bob"):
        curation.undo(file_db, e.id, ACTOR)
    assert mine.get_fact("team", "owner", bump=False).value == "Bob"
    assert mine.get_by_id(x.id).forgotten_at == FIXED_NOW - DAY


def test_bulk_forget_scores_at_the_plans_time_so_waiting_in_the_dialog_is_no_conflict(store, mem_db):
    a, b, _c, _d = _pool(store)
    late = store.store_fact("context", "late", 5, now=FIXED_NOW - int(2.9 * DAY))  # crosses at ~3.0 d
    ids = [a.id, b.id, late.id]
    plan = cf.plan_bulk(mem_db, "forget", ids, candidates_only=True, now=FIXED_NOW)
    assert [it.fact.id for it in plan.items] == [a.id, b.id]
    later = FIXED_NOW + DAY  # the person waited: "late" is a candidate by now, but was not confirmed
    e = cf.bulk(
        "forget", ids, candidates_only=True, expected=plan.signature, now=later, score_at=plan.now
    ).perform(mem_db, ACTOR)
    assert [r["id"] for r in e.after["rows"]] == [a.id, b.id]
    assert [r["forgotten_at"] for r in e.after["rows"]] == [later, later]
    assert row(mem_db, late.id)["forgotten_at"] is None


def test_editor_refuses_what_it_would_store_differently(mem_db, store):
    """add/edit refuse (nothing written) what JSON or the INTEGER time columns would change."""
    base = store.store_fact("project", "k", "start", now=FIXED_NOW)
    before = all_rows(mem_db)
    refusals = [
        (dict(value=float("nan")), "value: NaN cannot be stored in JSON (it would become null)"),
        (dict(value={"a": [1, float("-inf")]}), "value.a[1]: -Infinity cannot be stored in JSON"),
        (dict(value=2**53 + 1), "is beyond ±2^53 (9007199254740992); JSON readers (JavaScript) would round"),
        (dict(occurred_at="2026-06-16"), "occurred_at must be a time in epoch milliseconds (an integer)"),
        (
            dict(valid_from=1.5),
            "valid_from must be a time in epoch milliseconds (an integer), not a fraction",
        ),
        (dict(valid_until=True), "not the boolean true"),
        (dict(valid_until=2**64), "between -8.64e15 and 8.64e15 (what a date holds)"),
        (dict(occurred_at=-(10**18)), "between -8.64e15 and 8.64e15 (what a date holds)"),
        (dict(confidence=float("inf")), "confidence must be between 0 and 1, not Infinity"),
        (dict(confidence=10**400), "confidence must be between 0 and 1"),
    ]
    for fields, message in refusals:
        add_fields = {"value": 1, **fields}
        with pytest.raises(ValidationError_) as exc:
            cf.add("project", "new", **add_fields).perform(mem_db)
        assert message in str(exc.value), (fields, str(exc.value))
        with pytest.raises(ValidationError_) as exc:
            cf.edit(base.id, **fields).perform(mem_db)
        assert message in str(exc.value), (fields, str(exc.value))
    with pytest.raises(ValidationError_, match="lone surrogate"):
        cf.add("project", "a\ud83dz", 1).perform(mem_db)
    with pytest.raises(ValidationError_, match="lone surrogate"):
        cf.add("\udfff", "k", 1).perform(mem_db)
    assert all_rows(mem_db) == before
    # exact values pass: ±2^53, an integral float time, a surrogate pair (one character in JS)
    entry = cf.add("project", "x\ud83d\ude00", [2**53, -(2**53)], valid_from=2.0e12, now=FIXED_NOW).perform(
        mem_db
    )
    fact = store.get_by_id(entry.target_id)
    assert fact.key == "x😀" and fact.value == [2**53, -(2**53)] and fact.valid_from == 2_000_000_000_000


def test_changes_name_the_layer_and_every_row_an_edit_touched(store, mem_db):
    a, b, c, _d = _pool(store)
    e = cf.edit(a.id, value="new", now=FIXED_NOW).perform(mem_db, ACTOR)
    changes = curation.Changes.of(e)
    assert (changes.kind, changes.layer, changes.target_type) == ("perform", "facts", "fact")
    assert changes.ids == {a.id, e.target_id} and changes.keys == {(a.namespace, a.key)}
    assert changes.touches("facts", [a.id]) and not changes.touches("notes", [a.id])
    bulk = cf.bulk("pin", [b.id, c.id], now=FIXED_NOW).perform(mem_db, ACTOR)
    assert bulk.target_id == "2 facts" and curation.Changes.of(bulk).ids == {b.id, c.id}
    undo = curation.undo(mem_db, e.id, ACTOR)
    assert (curation.Changes.of(undo, "undo").layer, curation.Changes.of(undo, "undo").ids) == (
        "facts",
        {a.id, e.target_id},
    )
