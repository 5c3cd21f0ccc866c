"""SkillStore: maturity through outcomes, usage, recipes and revisions, ranking, search, attribution."""

from __future__ import annotations

import json
import math

import pytest

from core.db import MemoryDB
from core.engine import sqlite3
from core.errors import ConflictError, NotFoundError, ReadOnlyError, ValidationError_
from core.facts import FactStore
from core.models import Action
from core.skills import SkillStore, score_skill
from tests.conftest import FIXED_NOW

DAY = 86_400_000
VER = {"kind": "assert", "check": "输出 ok ✓"}


@pytest.fixture
def skills(mem_db):
    return SkillStore(mem_db)


def col(db, name, column):
    return db.conn.execute(f"SELECT {column} FROM memory_skills WHERE name = ?", (name,)).fetchone()[0]


def set_cols(db, name, **values):
    sets = ", ".join(f"{k} = ?" for k in values)
    db.conn.execute(f"UPDATE memory_skills SET {sets} WHERE name = ?", (*values.values(), name))


def add_action(db, skill, tool, success, ts, session="global"):
    cur = db.conn.execute(
        "INSERT INTO memory_actions (session_id, tool_name, params_json, success, timestamp, linked_skill) "
        "VALUES (?, ?, '{}', ?, ?, ?)",
        (session, tool, int(success), ts, skill),
    )
    return cur.lastrowid


def act(skill, tool, success, ts, i=0):
    return Action.model_construct(
        id=i,
        session_id="global",
        tool_name=tool,
        params_json="{}",
        success=success,
        timestamp=ts,
        linked_skill=skill,
    )


# -- creating ----------------------------------------------------------------------------------------
def test_create_skill_stores_reference_shapes(skills, mem_db):
    s = skills.create_skill(
        "deploy-rust",
        "Deploy a Rust project",
        ["部署", "rust", 1.0],
        "cargo build",
        kind="weird",
        maturity="nonsense",
        when_to_use="",
        now=FIXED_NOW,
    )
    assert s.rowid == 1 and s.maturity == "draft" and s.kind == "positive"
    assert col(mem_db, "deploy-rust", "trigger_keywords") == '["部署","rust",1]'
    assert col(mem_db, "deploy-rust", "when_to_use") is None
    assert col(mem_db, "deploy-rust", "verification") is None
    assert col(mem_db, "deploy-rust", "tool_policy") is None
    assert s.created_at == FIXED_NOW and s.use_count == 0 and s.source is None
    r = skills.create_skill(
        "recipe",
        "d",
        [],
        "steps",
        kind="negative",
        maturity="stable",
        source="self:reflect-1",
        when_to_use="when asked",
        verification=VER,
        tool_policy=[],
        now=FIXED_NOW,
    )
    assert (r.kind, r.maturity, r.source, r.when_to_use) == (
        "negative",
        "stable",
        "self:reflect-1",
        "when asked",
    )
    assert col(mem_db, "recipe", "verification") == '{"kind":"assert","check":"输出 ok ✓"}'
    assert col(mem_db, "recipe", "tool_policy") == "[]"  # an empty array is truthy in JS
    assert r.is_recipe and r.rowid == 2
    with pytest.raises(ConflictError) as ei:
        skills.create_skill("recipe", "again", [], "")
    assert ei.value.current.name == "recipe"
    assert skills.count() == 2


def test_update_skill_partial_semantics(skills, mem_db):
    skills.create_skill("s", "desc", ["a"], "tpl", source="clawhub:x@1", when_to_use="w", now=FIXED_NOW)
    u = skills.update_skill("s", description="new", kind="bogus")
    assert (u.description, u.kind, u.source, u.when_to_use, u.action_template) == (
        "new",
        "positive",
        "clawhub:x@1",
        "w",
        "tpl",
    )
    u = skills.update_skill("s", source=None, when_to_use="", trigger_keywords=("x", "y"), kind="negative")
    assert u.source is None and u.kind == "negative" and u.trigger_keywords == ["x", "y"]
    assert col(mem_db, "s", "when_to_use") is None
    assert col(mem_db, "s", "trigger_keywords") == '["x","y"]'
    assert skills.update_skill("missing", description="x") is None
    with pytest.raises(TypeError):
        skills.update_skill("s", verification=VER)
    assert skills.delete_skill("s") is True and skills.delete_skill("s") is False


# -- outcomes, usage and the maturity state machine ---------------------------------------------------
def test_draft_with_nine_successes_becomes_confirmed_not_stable(skills, mem_db):
    skills.create_skill("s", "d", [], "", now=FIXED_NOW)
    set_cols(mem_db, "s", success_count=8)
    s = skills.record_skill_outcome("s", True, at=FIXED_NOW + 1)
    assert (s.maturity, s.success_count, s.use_count) == ("confirmed", 9, 1)
    assert (s.last_used_at, s.last_success_at, s.consecutive_failures) == (FIXED_NOW + 1, FIXED_NOW + 1, 0)
    s = skills.record_skill_outcome("s", True, at=FIXED_NOW + 2)
    assert s.maturity == "stable"


def test_success_progression_one_tier_at_a_time(skills):
    skills.create_skill("s", "d", [], "", now=FIXED_NOW)
    grades = [skills.record_skill_outcome("s", True, at=FIXED_NOW + i).maturity for i in range(6)]
    assert grades == ["draft", "confirmed", "confirmed", "confirmed", "stable", "stable"]


def test_failures_demote_one_tier_then_deprecate(skills, mem_db):
    skills.create_skill("s", "d", [], "", maturity="stable", now=FIXED_NOW)
    set_cols(mem_db, "s", success_count=20)
    s = skills.record_skill_outcome("s", False, at=FIXED_NOW + 1)
    assert (s.maturity, s.failure_count, s.consecutive_failures, s.last_failure_at) == (
        "confirmed",
        1,
        1,
        FIXED_NOW + 1,
    )
    assert skills.record_skill_outcome("s", False, at=FIXED_NOW + 2).maturity == "draft"
    assert skills.record_skill_outcome("s", False, at=FIXED_NOW + 3).maturity == "deprecated"  # 3 in a row
    assert skills.record_skill_outcome("s", True, at=FIXED_NOW + 4).maturity == "deprecated"  # terminal
    # Failure ratio above 0.3 with at least 5 successes deprecates at once.
    skills.create_skill("r", "d", [], "", maturity="stable", now=FIXED_NOW)
    set_cols(mem_db, "r", success_count=10, failure_count=3)
    assert skills.record_skill_outcome("r", False, at=FIXED_NOW).maturity == "deprecated"  # 4/10 > 0.3
    skills.create_skill("q", "d", [], "", maturity="stable", now=FIXED_NOW)
    set_cols(mem_db, "q", success_count=10, failure_count=2)
    assert skills.record_skill_outcome("q", False, at=FIXED_NOW).maturity == "confirmed"  # 3/10 is not > 0.3
    skills.create_skill("d", "d", [], "", now=FIXED_NOW)
    assert skills.record_skill_outcome("d", False, at=FIXED_NOW).maturity == "draft"
    assert skills.record_skill_outcome("missing", True) is None


def test_playbook_deprecates_after_three_consecutive_failures(skills):
    skills.create_skill("p", "lesson", [], "", maturity="playbook", now=FIXED_NOW)
    assert skills.record_skill_outcome("p", True, at=FIXED_NOW).maturity == "playbook"
    assert skills.record_skill_outcome("p", False, at=FIXED_NOW).maturity == "playbook"
    assert skills.record_skill_outcome("p", False, at=FIXED_NOW).maturity == "playbook"
    assert skills.record_skill_outcome("p", True, at=FIXED_NOW).maturity == "playbook"  # resets the run
    for _ in range(2):
        assert skills.record_skill_outcome("p", False, at=FIXED_NOW).maturity == "playbook"
    s = skills.record_skill_outcome("p", False, at=FIXED_NOW)
    assert (s.maturity, s.consecutive_failures) == ("deprecated", 3)


def test_record_usage_never_moves_maturity(skills, mem_db):
    skills.create_skill("s", "d", [], "", now=FIXED_NOW)
    set_cols(mem_db, "s", success_count=1)
    for i in range(5):
        s = skills.record_usage("s", at=FIXED_NOW + i)
    assert (s.use_count, s.last_used_at, s.maturity, s.success_count, s.failure_count) == (
        5,
        FIXED_NOW + 4,
        "draft",
        1,
        0,
    )
    assert s.last_success_at is None and s.consecutive_failures == 0
    assert skills.record_usage("missing") is None


def test_set_maturity_and_offered_counters(skills):
    skills.create_skill("a", "d", [], "", now=FIXED_NOW)
    skills.create_skill("b", "d", [], "", now=FIXED_NOW)
    assert skills.set_maturity("a", "playbook").maturity == "playbook"
    assert skills.set_maturity("missing", "draft") is None
    with pytest.raises(ValidationError_):
        skills.set_maturity("a", "gold")
    skills.record_skills_offered(["a", "b", "nope"], matched=["b"])
    skills.record_skills_offered(["b"])
    skills.record_skills_offered([])
    a, b = skills.get_by_name("a"), skills.get_by_name("b")
    assert (a.offered_count, a.matched_count, b.offered_count, b.matched_count) == (1, 0, 2, 1)


# -- recipes and revisions ---------------------------------------------------------------------------
def _recipe(skills, mem_db, name="r", **kw):
    skills.create_skill(
        name,
        "desc",
        ["k"],
        "步骤 one",
        verification=VER,
        tool_policy=["shell", "readFile"],
        now=FIXED_NOW,
        **kw,
    )
    set_cols(
        mem_db,
        name,
        maturity="playbook",
        use_count=7,
        success_count=3,
        failure_count=2,
        consecutive_failures=1,
        last_used_at=FIXED_NOW - 5,
        offered_count=4,
        matched_count=2,
    )


def test_revise_recipe_snapshot_is_byte_exact_and_counters_untouched(skills, mem_db):
    _recipe(skills, mem_db)
    s = skills.revise_recipe(
        "r", action_template="step two", reason="skill_repair:i1: 修复", now=FIXED_NOW + 5
    )
    assert col(mem_db, "r", "revision_history") == (
        '[{"at":1781524800005,"actionTemplate":"步骤 one","verification":{"kind":"assert","check":"输出 ok ✓"},'
        '"toolPolicy":["shell","readFile"],"reason":"skill_repair:i1: 修复"}]'
    )
    assert col(mem_db, "r", "verification") == '{"kind":"assert","check":"输出 ok ✓"}'
    assert col(mem_db, "r", "tool_policy") == '["shell","readFile"]'
    assert (s.action_template, s.maturity) == ("step two", "draft")
    assert (s.use_count, s.success_count, s.failure_count, s.consecutive_failures, s.last_used_at) == (
        7,
        3,
        2,
        1,
        FIXED_NOW - 5,
    )
    assert (s.offered_count, s.matched_count) == (4, 2)
    # A second revision is appended (oldest first) and keeps the template when none is given.
    s = skills.revise_recipe("r", tool_policy=["shell"], reason="narrow", now=FIXED_NOW + 6)
    hist = json.loads(col(mem_db, "r", "revision_history"))
    assert [h["reason"] for h in hist] == ["skill_repair:i1: 修复", "narrow"]
    assert hist[1] == {
        "at": FIXED_NOW + 6,
        "actionTemplate": "step two",
        "verification": VER,
        "toolPolicy": ["shell", "readFile"],
        "reason": "narrow",
    }
    assert s.action_template == "step two" and col(mem_db, "r", "tool_policy") == '["shell"]'
    assert [r.reason for r in s.revision_history] == ["skill_repair:i1: 修复", "narrow"]


def test_revise_recipe_key_present_semantics(skills, mem_db):
    _recipe(skills, mem_db)
    s = skills.revise_recipe("r", action_template="", tool_policy=[], reason="x", now=FIXED_NOW)
    assert s.action_template == ""  # an empty string is kept as empty
    assert col(mem_db, "r", "tool_policy") == "[]"
    s = skills.revise_recipe("r", tool_policy=None, reason="y", now=FIXED_NOW)
    assert col(mem_db, "r", "tool_policy") is None and s.is_recipe
    s = skills.revise_recipe("r", verification=None, reason="z", now=FIXED_NOW + 1)
    assert col(mem_db, "r", "verification") is None and not s.is_recipe
    assert json.loads(col(mem_db, "r", "revision_history"))[-1]["toolPolicy"] is None
    before = col(mem_db, "r", "revision_history")
    assert skills.revise_recipe("r", reason="refused now") is None  # no longer a recipe
    assert col(mem_db, "r", "revision_history") == before


def test_revise_recipe_refusals_write_nothing(skills, mem_db):
    assert skills.revise_recipe("missing", reason="x") is None
    skills.create_skill("prose", "d", [], "t", maturity="playbook", now=FIXED_NOW)
    assert skills.revise_recipe("prose", action_template="new", reason="x") is None
    assert (col(mem_db, "prose", "action_template"), col(mem_db, "prose", "maturity")) == ("t", "playbook")
    assert col(mem_db, "prose", "revision_history") is None
    skills.create_skill("bad", "d", [], "t", maturity="playbook", now=FIXED_NOW)
    set_cols(mem_db, "bad", verification="{not json")
    assert skills.revise_recipe("bad", reason="x") is None
    assert col(mem_db, "bad", "maturity") == "playbook"


def test_revise_recipe_restarts_a_corrupt_history(skills, mem_db):
    _recipe(skills, mem_db)
    set_cols(mem_db, "r", revision_history='{"not": "an array"}', tool_policy="oops")
    skills.revise_recipe("r", reason="again", now=FIXED_NOW)
    assert col(mem_db, "r", "revision_history") == (
        '[{"at":1781524800000,"actionTemplate":"步骤 one","verification":{"kind":"assert","check":"输出 ok ✓"},'
        '"toolPolicy":null,"reason":"again"}]'
    )
    assert col(mem_db, "r", "tool_policy") is None


def test_revert_to_revision(skills, mem_db):
    _recipe(skills, mem_db)
    skills.revise_recipe("r", action_template="v2", reason="first", now=FIXED_NOW + 1)
    skills.revise_recipe(
        "r",
        action_template="v3",
        verification={"kind": "tool_result_ok", "check": ""},
        reason="second",
        now=FIXED_NOW + 2,
    )
    s = skills.revert_to_revision("r", 0, now=FIXED_NOW + 3)
    assert (
        s.action_template == "步骤 one" and s.verification == VER and s.tool_policy == ["shell", "readFile"]
    )
    assert s.maturity == "draft"
    assert [r.reason for r in s.revision_history] == [
        "first",
        "second",
        "revert to revision 1 (2026-06-15T12:00:00.001Z)",
    ]
    assert s.revision_history[-1].action_template == "v3"
    s = skills.revert_to_revision("r", 1, reason="v2 was better", now=FIXED_NOW + 4)
    assert s.action_template == "v2"
    assert s.revision_history[-1].reason == "revert to revision 2 (2026-06-15T12:00:00.002Z): v2 was better"
    with pytest.raises(NotFoundError):
        skills.revert_to_revision("r", 9)
    assert skills.revert_to_revision("missing", 0) is None


# -- scoring and listings ----------------------------------------------------------------------------
def test_score_skill_exact_values(skills, mem_db):
    skills.create_skill("p", "d", [], "", now=FIXED_NOW)
    skills.create_skill("n", "d", [], "", kind="negative", now=FIXED_NOW)
    for name in ("p", "n"):
        set_cols(
            mem_db, name, use_count=3, success_count=2, failure_count=1, last_used_at=FIXED_NOW - 15 * DAY
        )
    p, n = skills.get_by_name("p"), skills.get_by_name("n")
    assert score_skill(p, FIXED_NOW) == math.log(5) * (3 / 5) * math.exp(-15 / 30)
    assert skills.score_skill(n, FIXED_NOW) == math.log(5) * (3 / 5) * math.exp(-15 / 90)
    assert score_skill(p, FIXED_NOW - 20 * DAY) == math.log(5) * (3 / 5)  # future use: recency 1
    skills.create_skill("never", "d", [], "", now=FIXED_NOW)
    assert score_skill(skills.get_by_name("never"), FIXED_NOW) == math.log(2) * 0.5 * 0.1


def test_list_all_order_and_deprecated_filter(skills, mem_db):
    for i, name in enumerate(["a", "b", "c", "d", "e"]):
        skills.create_skill(name, "d", [], "", now=FIXED_NOW + (i % 2))
    set_cols(mem_db, "e", maturity="deprecated", use_count=50, last_used_at=FIXED_NOW)
    set_cols(mem_db, "d", use_count=1, last_used_at=FIXED_NOW)  # used: the best score
    # a, c share created_at FIXED_NOW; b shares FIXED_NOW+1 with d. Ties: use_count DESC, created_at DESC, rowid.
    assert [s.name for s in skills.list_all(now=FIXED_NOW)] == ["d", "b", "a", "c"]
    assert [s.name for s in skills.list_all(limit=2, now=FIXED_NOW)] == ["d", "b"]
    assert [s.name for s in skills.list_every()] == ["a", "b", "c", "d", "e"]
    assert [s.rowid for s in skills.list_every()] == [1, 2, 3, 4, 5]
    assert skills.get_by_name("e").maturity == "deprecated"  # getByName does not filter


def test_names_are_every_skills_name_sorted_deprecated_and_damaged_included(skills, mem_db):
    for i, name in enumerate(["部署", "b", "a", "c"]):
        skills.create_skill(name, "d", [], "", now=FIXED_NOW + i)
    set_cols(mem_db, "c", maturity="deprecated", revision_history="not json")
    assert skills.names() == ["a", "b", "c", "部署"]
    assert skills.names() == sorted(s.name for s in skills.list_every())
    assert SkillStore(mem_db, created_before=FIXED_NOW + 2).names() == ["b", "部署"]
    mem_db.conn.execute("UPDATE memory_skills SET name = CAST(X'FF' AS TEXT) WHERE name = 'b'")
    assert skills.names() == sorted(s.name for s in skills.list_every()) == ["a", "c", "部署", "\ufffd"]


def test_list_negative_and_by_maturity_order(skills, mem_db):
    skills.create_skill("n1", "d", [], "", kind="negative", now=FIXED_NOW)
    skills.create_skill("n2", "d", [], "", kind="negative", now=FIXED_NOW + 1)
    skills.create_skill("n3", "d", [], "", kind="negative", now=FIXED_NOW + 1)
    skills.create_skill("n4", "d", [], "", kind="negative", maturity="deprecated", now=FIXED_NOW)
    skills.create_skill("pos", "d", [], "", now=FIXED_NOW)
    assert [s.name for s in skills.list_negative(now=FIXED_NOW)] == ["n2", "n3", "n1"]
    set_cols(mem_db, "n1", last_used_at=FIXED_NOW - 1000 * DAY)  # used long ago: recency ~0, last
    assert [s.name for s in skills.list_negative(limit=2, now=FIXED_NOW)] == ["n2", "n3"]
    skills.create_skill("pb1", "d", [], "", maturity="playbook", now=FIXED_NOW)
    skills.create_skill("pb2", "d", [], "", maturity="playbook", now=FIXED_NOW + 9)
    skills.create_skill("pb3", "d", [], "", maturity="playbook", now=FIXED_NOW)
    ids = {s.name: s.id for s in skills.list_every()}
    expected_tail = sorted(["pb1", "pb3"], key=lambda n: ids[n], reverse=True)
    assert [s.name for s in skills.list_by_maturity("playbook", 10)] == ["pb2", *expected_tail]
    assert len(skills.list_by_maturity("playbook")) == 3


def test_search_filters_deprecated_in_sql(skills, mem_db):
    for i in range(25):
        skills.create_skill(f"old-deploy-{i}", "deploy things", [], "", maturity="deprecated", now=FIXED_NOW)
    for i in range(3):
        skills.create_skill(f"deploy-{i}", "deploy things", [], "", now=FIXED_NOW)
    assert [s.name for s in skills.search("deploy", now=FIXED_NOW)] == ["deploy-0", "deploy-1", "deploy-2"]


def test_search_caps_candidates_before_scoring_in_rowid_order(skills, mem_db):
    for i in range(21):
        skills.create_skill(f"migrate-{i:02d}", "database migration", [], "", now=FIXED_NOW)
    set_cols(mem_db, "migrate-20", use_count=100, last_used_at=FIXED_NOW)  # best score, highest rowid
    names = [s.name for s in skills.search("migration", limit=5, now=FIXED_NOW)]
    assert names == ["migrate-00", "migrate-01", "migrate-02", "migrate-03", "migrate-04"]
    assert "migrate-20" in [s.name for s in skills.search("migration", limit=6, now=FIXED_NOW)]  # cap 24


def test_search_tie_order_follows_rowid_after_recreate(skills):
    for name in ("alpha-job", "beta-job", "gamma-job"):
        skills.create_skill(name, "nightly job", [], "", now=FIXED_NOW)
    assert [s.name for s in skills.search("nightly")] == ["alpha-job", "beta-job", "gamma-job"]
    skills.delete_skill("alpha-job")
    skills.create_skill("alpha-job", "nightly job", [], "", now=FIXED_NOW)
    assert [s.name for s in skills.search("nightly")] == ["beta-job", "gamma-job", "alpha-job"]


def test_search_falls_back_to_like_and_never_raises(skills):
    skills.create_skill("shell-run", "run deploy.sh on the host", ["部署", "a-b"], "", now=FIXED_NOW)
    skills.create_skill("旺财", "the dog", [], "", now=FIXED_NOW)
    assert [s.name for s in skills.search("deploy.sh")] == ["shell-run"]  # FTS syntax error -> LIKE
    assert [s.name for s in skills.search("a-b")] == ["shell-run"]  # "no such column" -> LIKE
    assert [s.name for s in skills.search("旺财")] == ["旺财"]  # < 3 units -> LIKE
    assert [s.name for s in skills.search("部署")] == ["shell-run"]  # keywords are searched too
    assert skills.search("  \"()*'  ") == []
    for q in ["NEAR(", "AND", "a:b", "x OR", "'", "%", "^x", "💥💥"]:
        skills.search(q)
    with pytest.raises(sqlite3.Error):  # a non-integer cap is the reference's "datatype mismatch"
        skills.search("zzz-nothing", limit=5.3)


def test_find_duplicate_candidates(skills):
    skills.create_skill("deploy-rust-project", "d", [], "", when_to_use="rust deploy", now=FIXED_NOW)
    skills.create_skill("deploy-python", "d", [], "", now=FIXED_NOW)
    skills.create_skill("deploy-rust-old", "d", [], "", maturity="deprecated", now=FIXED_NOW)
    skills.create_skill("avoid-deploy-rust", "d", [], "", kind="negative", now=FIXED_NOW)
    got = skills.find_duplicate_candidates("rust-deploy-project")
    assert [(s.name, j) for s, j in got] == [("deploy-rust-project", 1.0)]
    assert [(s.name, j) for s, j in skills.find_duplicate_candidates("deploy python now")] == [
        ("deploy-python", 2 / 3)
    ]
    assert skills.find_duplicate_candidates("a b") == []


# -- attribution (Part B §6) -------------------------------------------------------------------------
def test_attribution_non_recipe_one_failure_at_first_failing_action(skills):
    skills.create_skill("s", "d", [], "", now=FIXED_NOW)
    res = skills.record_linked_skill_outcomes(
        [
            act("s", "shell", True, 10),
            act("s", "shell", False, 20),
            act("s", "web", False, 30),
            act(None, "x", False, 5),
        ]
    )
    assert res == (0, 1, 0) and res.failures == 1
    s = skills.get_by_name("s")
    assert (s.use_count, s.failure_count, s.success_count, s.last_failure_at, s.maturity) == (
        1,
        1,
        0,
        20,
        "draft",
    )


def test_attribution_all_success_credits_every_action(skills):
    skills.create_skill("s", "d", [], "", now=FIXED_NOW)
    res = skills.record_linked_skill_outcomes(
        [
            act("s", "a", True, 10),
            {"linkedSkill": "s", "toolName": "b", "success": 1, "timestamp": 20},
            act("s", "c", True, 30),
        ]
    )
    assert res.successes == 3 and res.recipes_demoted == 0
    s = skills.get_by_name("s")
    assert (s.use_count, s.success_count, s.last_used_at, s.maturity) == (3, 3, 30, "confirmed")


def test_attribution_recipe_judges_only_policy_tools(skills, mem_db):
    skills.create_skill(
        "r", "d", [], "t", verification=VER, tool_policy=["shell"], maturity="confirmed", now=FIXED_NOW
    )
    facts = FactStore(mem_db)
    # A stray failure outside the policy does not count, and every action is credited.
    res = skills.record_linked_skill_outcomes(
        [act("r", "shell", True, 10), act("r", "readFile", False, 11)], facts
    )
    assert tuple(res) == (2, 0, 0)
    assert skills.get_by_name("r").success_count == 2
    assert facts.get_fact("self", "obs.recipe-decay", bump=False) is None
    # A policy-tool failure: one failure, demoted to playbook, and a self observation.
    res = skills.record_linked_skill_outcomes(
        [act("r", "readFile", True, 20), act("r", "shell", False, 21), act("r", "shell", False, 22)],
        facts,
        now=77,
    )
    assert tuple(res) == (0, 1, 1)
    r = skills.get_by_name("r")
    assert (r.maturity, r.failure_count, r.last_failure_at) == ("playbook", 1, 21)
    obs = facts.get_fact("self", "obs.recipe-decay", bump=False)
    assert obs.value == {
        "content": 'My recipe "r" failed its own verification when I reused it — it has been demoted to an '
        "advisory lesson. I re-verify old recipes against current reality instead of trusting past success.",
        "sourceRefs": [f"skill:{r.id}"],
        "updatedAt": 77,
    }


def test_attribution_recipe_without_policy_actions_falls_back_to_all(skills):
    skills.create_skill(
        "r", "d", [], "t", verification=VER, tool_policy=["shell"], maturity="stable", now=FIXED_NOW
    )
    res = skills.record_linked_skill_outcomes([act("r", "web", True, 1), act("r", "readFile", False, 2)])
    assert tuple(res) == (0, 1, 1)
    assert skills.get_by_name("r").maturity == "playbook"


def test_attribution_playbook_override_wins_over_deprecation(skills, mem_db):
    skills.create_skill("r", "d", [], "t", verification=VER, tool_policy=["shell"], now=FIXED_NOW)
    set_cols(mem_db, "r", consecutive_failures=2)
    skills.record_linked_skill_outcomes([act("r", "shell", False, 5)])
    assert skills.get_by_name("r").maturity == "playbook"  # setMaturity overrides "deprecated"


def test_attribution_env_switch_and_non_recipes(skills, monkeypatch):
    skills.create_skill(
        "r", "d", [], "t", verification=VER, tool_policy=["shell"], maturity="stable", now=FIXED_NOW
    )
    skills.create_skill("p", "d", [], "t", verification=VER, tool_policy=[], maturity="stable", now=FIXED_NOW)
    monkeypatch.setenv("PHILONT_RECIPE_REUSE_VERIFY", " Off ")
    res = skills.record_linked_skill_outcomes([act("r", "web", True, 1), act("r", "shell", False, 2)])
    assert tuple(res) == (0, 1, 0)
    assert skills.get_by_name("r").maturity == "confirmed"  # the state machine only
    monkeypatch.setenv("PHILONT_RECIPE_REUSE_VERIFY", "yes")
    res = skills.record_linked_skill_outcomes([act("p", "shell", False, 2), act("ghost", "x", True, 3)])
    assert tuple(res) == (1, 1, 0)  # empty policy: not a recipe; a missing skill still counts
    assert skills.get_by_name("p").maturity == "confirmed"


# -- evidence for the GUI ----------------------------------------------------------------------------
def test_outcome_history_and_revision_outcomes(skills, mem_db):
    _recipe(skills, mem_db)
    a1 = add_action(mem_db, "r", "shell", True, FIXED_NOW - 10)
    add_action(mem_db, "r", "shell", False, FIXED_NOW - 5)
    add_action(mem_db, "other", "shell", False, FIXED_NOW - 5)
    skills.revise_recipe("r", action_template="v2", reason="fix", now=FIXED_NOW)
    add_action(mem_db, "r", "readFile", True, FIXED_NOW)
    add_action(mem_db, "r", "shell", True, FIXED_NOW + 10)
    hist = skills.outcome_history("r")
    assert [(p.timestamp, p.tool_name, p.success) for p in hist] == [
        (FIXED_NOW - 10, "shell", True),
        (FIXED_NOW - 5, "shell", False),
        (FIXED_NOW, "readFile", True),
        (FIXED_NOW + 10, "shell", True),
    ]
    assert hist[0].action_id == a1
    assert [p.timestamp for p in skills.outcome_history("r", limit=2)] == [FIXED_NOW, FIXED_NOW + 10]
    wins = skills.revision_outcomes("r")
    assert [(w.revision, w.start, w.end, w.is_current, w.successes, w.failures) for w in wins] == [
        (1, None, FIXED_NOW, False, 1, 1),
        (2, FIXED_NOW, None, True, 2, 0),
    ]
    assert (wins[0].action_template, wins[0].reason, wins[1].action_template) == ("步骤 one", "fix", "v2")
    assert skills.revision_outcomes("missing") == []


def test_an_action_whose_time_is_text_is_counted_without_breaking_the_evidence(skills, mem_db):
    from core.damage import unreadable_time
    from core.ladder import build_ladder

    _recipe(skills, mem_db)
    add_action(mem_db, "r", "shell", True, FIXED_NOW - 10)
    skills.revise_recipe("r", action_template="v2", reason="fix", now=FIXED_NOW)
    add_action(mem_db, "r", "shell", False, "yesterday")
    add_action(mem_db, "r", "shell", True, b"\x01\x02")
    hist = skills.outcome_history("r")
    assert len(hist) == 3 and [unreadable_time(p.timestamp) for p in hist].count(True) == 2
    wins = skills.revision_outcomes("r")  # a time that is no time belongs to no version
    assert [(w.successes, w.failures) for w in wins] == [(1, 0), (0, 0)]
    skill = skills.get_by_name("r")
    assert len(build_ladder(skill, hist).steps) >= 3


# -- an older v31 file without the additive columns ---------------------------------------------------
def test_reads_work_without_additive_columns(tmp_path):
    path = tmp_path / "m" / "memory.sqlite"
    with MemoryDB.create(path, now=FIXED_NOW) as db:
        st = SkillStore(db)
        st.create_skill("deploy-x", "deploy x", ["k"], "t", now=FIXED_NOW)
        st.create_skill("neg", "avoid", [], "t", kind="negative", now=FIXED_NOW)
    conn = sqlite3.connect(str(path))
    for c in (
        "verification",
        "tool_policy",
        "revision_history",
        "offered_count",
        "from_disk",
        "matched_count",
    ):
        conn.execute(f"ALTER TABLE memory_skills DROP COLUMN {c}")
    conn.commit()
    conn.close()
    with MemoryDB.open(path) as ro:
        st = SkillStore(ro)
        assert "verification" not in st.columns()
        s = st.get_by_name("deploy-x")
        assert (s.verification, s.tool_policy, s.revision_history, s.offered_count) == (None, None, [], 0)
        assert [x.name for x in st.list_all(now=FIXED_NOW)] == ["deploy-x", "neg"]
        assert [x.name for x in st.search("deploy")] == ["deploy-x"]
        assert [x.name for x in st.list_negative()] == ["neg"]
        assert len(st.list_every()) == 2
        assert st.revision_outcomes("deploy-x")[0].is_current
        assert st.find_duplicate_candidates("deploy-x")[0][1] == 1.0
        with pytest.raises(ReadOnlyError):
            st.record_usage("deploy-x")
        st.record_skills_offered(["deploy-x"])  # swallowed, as in the reference
        with pytest.raises(ReadOnlyError):
            st.revise_recipe("deploy-x", reason="x")
