"""The doctor's one-step fixes: each one previewed, done, undone and redone through audited curation, a
backup taken before the first write, and the rows then read by the agent's own statements as expected."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from core import audit, curation, sidefiles
from core.backups import AgentRunningError, list_backups_info
from core.changes.marks import database_key
from core.db import MemoryDB
from core.errors import ConflictError, Notice, ValidationError_
from core.facts import FactStore
from core.health import fixes, sidedata
from core.health.finding import Finding, Fix
from core.health.sidedata import HealthSideData, finding_to_json, saved_files
from core.notes import NotesStore
from core.prefix import build_memory_prefix
from core.schedules import ScheduleStore
from core.skill_reads import SkillReader
from core.skills import SkillStore
from tests.conftest import FIXED_NOW

DAY = 86_400_000
ACTOR = "tester@philont-desktop"
T0 = FIXED_NOW - 10 * DAY


@pytest.fixture
def path(tmp_path) -> Path:
    """A memory file that exists before it is opened for writing (so the first edit backs it up)."""
    p = tmp_path / "memory" / "memory.sqlite"
    MemoryDB.create(p, now=T0).close()
    return p


@pytest.fixture
def db(path):
    d = MemoryDB.open(path, writable=True)
    yield d
    d.close()


def rows(db, table, order="rowid"):
    with db.lock:
        rs = db.conn.execute(f"SELECT * FROM {table} ORDER BY {order}").fetchall()
    return [dict(zip(r.keys(), tuple(r))) for r in rs]


def round_trip(db, change, table):
    """Run ``change``; check undo puts ``table`` back exactly and redo makes it as the fix left it."""
    before = rows(db, table)
    edit = change.perform(db, ACTOR)
    after = rows(db, table)
    assert after != before
    curation.undo(db, edit.id, ACTOR)
    assert rows(db, table) == before
    curation.redo(db, edit.id, ACTOR)
    assert rows(db, table) == after
    return edit


def head_value(db, ns, key):
    fact = FactStore(db).get_fact(ns, key, bump=False)
    return None if fact is None else fact.value


def test_every_fix_code_is_known_and_its_actions_are_registered():
    assert len(fixes.CODES) == 9 and all(c.startswith("health.fix.") for c in fixes.CODES)
    for action in (
        "facts.merge",
        "facts.repair_chain",
        "facts.bulk_set_tau",
        "notes.merge",
        "indexes.rebuild",
    ):
        assert curation.handler(action).action == action
    assert curation.handler("calendar.schedule_resume").action == "calendar.schedule_resume"


def test_merging_duplicate_keys_keeps_the_chosen_fact_and_backs_up_first(db, path):
    agent = MemoryDB.open(path, writable=True, backup_before_write=False)  # the agent wrote them
    a = FactStore(agent).store_fact("user", "favorite_color", "blue", now=T0)
    b = FactStore(agent).store_fact("user", "favourite-color", "blue", now=T0 + 1)
    c = FactStore(agent).store_fact("user", "FavoriteColor", "blue", now=T0 + 2)
    agent.close()
    store = FactStore(db)
    fix = Fix(fixes.MERGE, {"ids": [a.id, b.id, c.id]})
    assert list_backups_info(path, check=False) == []
    shown = fixes.preview(db, fix, choice=b.id)
    assert [(r.id, r.column, r.before, r.after) for r in shown] == [
        (a.id, "superseded_by", None, b.id),
        (c.id, "superseded_by", None, b.id),
    ]
    assert rows(db, "memory_facts")[0]["superseded_by"] is None  # the preview wrote nothing
    edit = round_trip(db, fixes.change_for(db, fix, choice=b.id), "memory_facts")
    assert len(list_backups_info(path, check=False)) == 1  # a backup before the first write
    assert edit.action == "facts.merge" and edit.target_id == b.id
    # what the agent reads: only the kept fact is live; the others stay in the history
    assert head_value(db, "user", "favourite-color") == "blue"
    assert (
        head_value(db, "user", "favorite_color") is None and head_value(db, "user", "FavoriteColor") is None
    )
    assert [f.key for f in store.list_facts("user")] == ["favourite-color"]
    assert "favourite-color" in build_memory_prefix(db, now=FIXED_NOW).text
    assert "FavoriteColor" not in build_memory_prefix(db, now=FIXED_NOW).text


def test_merging_several_live_versions_of_one_key_leaves_one_head(db):
    store = FactStore(db)
    old = store.store_fact("project", "deadline", "May", now=T0)
    new = store.store_fact("project", "deadline", "June", now=T0 + 1)
    with db.write() as conn:  # a chain the agent left with two heads
        conn.execute("UPDATE memory_facts SET superseded_by = NULL WHERE id = ?", (old.id,))
    assert len(store.list_facts("project")) == 2
    round_trip(
        db, fixes.change_for(db, Fix(fixes.MERGE, {"ids": [old.id, new.id]}), choice=new.id), "memory_facts"
    )
    assert [f.value for f in store.list_facts("project")] == ["June"]


def test_a_merge_refuses_a_fact_the_agent_superseded_meanwhile(db):
    store = FactStore(db)
    a = store.store_fact("user", "city", "Paris", now=T0)
    b = store.store_fact("user", "town", "Paris", now=T0)
    change = fixes.change_for(db, Fix(fixes.MERGE, {"ids": [a.id, b.id]}), choice=a.id)
    store.store_fact("user", "town", "Lyon", now=T0 + 5)  # the agent writes before the fix runs
    with pytest.raises(ConflictError) as err:
        change.perform(db, ACTOR)
    assert err.value.code == "fact.merge_not_live"
    assert audit.list_entries(db) == []


def test_merge_needs_the_survivor(db):
    store = FactStore(db)
    a = store.store_fact("user", "x", 1, now=T0)
    with pytest.raises(ValidationError_):
        fixes.change_for(db, Fix(fixes.MERGE, {"ids": [a.id, "other"]}))
    assert fixes.needs_choice(Fix(fixes.MERGE)) == "survivor"


def test_merging_duplicate_notes_forgets_the_others(db):
    notes = NotesStore(db)
    keep = notes.upsert(None, "The user prefers tea", created_at=T0)
    dup = notes.upsert(None, "The user prefers tea.", created_at=T0 + 1)
    fix = Fix(fixes.MERGE, {"table": "memory_notes", "ids": [keep.id, dup.id]})
    shown = fixes.preview(db, fix, choice=keep.id, now=FIXED_NOW)
    assert [(r.id, r.column, r.after) for r in shown] == [(dup.id, "forgotten_at", FIXED_NOW)]
    round_trip(db, fixes.change_for(db, fix, choice=keep.id, now=FIXED_NOW), "memory_notes")
    assert [n.id for n in notes.top(10)] == [keep.id]


def test_forget_pin_and_shorten_tau(db):
    store = FactStore(db)
    a = store.store_fact("project", "stale", "old", now=T0)
    b = store.store_fact("project", "kept", "important", now=T0)
    fix = Fix(fixes.FORGET, {"ids": [a.id]})
    assert [(r.column, r.before) for r in fixes.preview(db, fix)] == [("forgotten_at", None)]
    round_trip(db, fixes.change_for(db, fix, now=FIXED_NOW), "memory_facts")
    assert head_value(db, "project", "stale") is None
    pin = Fix(fixes.PIN, {"ids": [b.id]})
    assert [(r.before, r.after) for r in fixes.preview(db, pin)] == [(None, -1.0)]
    round_trip(db, fixes.change_for(db, pin), "memory_facts")
    tau = Fix(fixes.SHORTEN_TAU, {"ids": [b.id], "tau_days": 7})
    assert [(r.before, r.after) for r in fixes.preview(db, tau)] == [(-1.0, 7)]
    edit = round_trip(db, fixes.change_for(db, tau), "memory_facts")
    assert edit.action == "facts.bulk_set_tau"
    assert FactStore(db).get_by_id(b.id).decay_tau_days == 7.0


def test_shorten_tau_takes_the_persons_value_and_refuses_none():
    assert fixes.needs_choice(Fix(fixes.SHORTEN_TAU, {"ids": ["x"]})) == "tau"
    assert fixes.needs_choice(Fix(fixes.SHORTEN_TAU, {"ids": ["x"], "tau_days": 3})) is None
    with pytest.raises(ValidationError_):
        fixes.change_for(None, Fix(fixes.SHORTEN_TAU, {"ids": ["x"]}))


def _break(db, fact_id, target):
    with db.write() as conn:
        conn.execute("UPDATE memory_facts SET superseded_by = ? WHERE id = ?", (target, fact_id))


def test_repair_links_a_version_naming_a_missing_fact_to_the_head(db):
    store = FactStore(db)
    v1 = store.store_fact("user", "job", "student", now=T0)
    v2 = store.store_fact("user", "job", "engineer", now=T0 + 1)
    _break(db, v1.id, "gone-id")
    fix = Fix(fixes.REPAIR_CHAIN, {"ids": [v1.id]})
    assert [(r.id, r.before, r.after) for r in fixes.preview(db, fix)] == [(v1.id, "gone-id", v2.id)]
    round_trip(db, fixes.change_for(db, fix), "memory_facts")
    assert FactStore(db).get_by_id(v1.id).superseded_by == v2.id
    assert head_value(db, "user", "job") == "engineer"


def test_repair_of_a_cycle_makes_the_newest_version_the_head(db):
    store = FactStore(db)
    v1 = store.store_fact("user", "pet", "cat", now=T0)
    v2 = store.store_fact("user", "pet", "dog", now=T0 + 1)
    _break(db, v2.id, v1.id)  # v1 -> v2 -> v1: the key has no head, the agent reads nothing
    assert head_value(db, "user", "pet") is None
    fix = Fix(fixes.REPAIR_CHAIN, {"ids": [v1.id, v2.id]})
    assert {(r.id, r.after) for r in fixes.preview(db, fix)} == {(v1.id, v2.id), (v2.id, None)}
    round_trip(db, fixes.change_for(db, fix), "memory_facts")
    assert head_value(db, "user", "pet") == "dog"


def test_repair_of_a_sound_chain_is_refused(db):
    v = FactStore(db).store_fact("user", "age", 30, now=T0)
    assert fixes.preview(db, Fix(fixes.REPAIR_CHAIN, {"ids": [v.id]})) == []
    with pytest.raises(ValidationError_):
        fixes.change_for(db, Fix(fixes.REPAIR_CHAIN, {"ids": [v.id]})).perform(db, ACTOR)


def test_demote_skill_keeps_the_reason_in_the_audit(db):
    SkillStore(db).create_skill(
        "deploy", "Deploy the site", ["deploy"], "run deploy", maturity="stable", now=T0
    )
    reason = "stable, but 1 success in 6 linked actions"
    fix = Fix(fixes.DEMOTE_SKILL, {"name": "deploy", "reason": reason})
    assert [(r.column, r.before, r.after) for r in fixes.preview(db, fix)] == [
        ("maturity", "stable", "confirmed")
    ]
    edit = round_trip(db, fixes.change_for(db, fix), "memory_skills")
    assert edit.note == reason and edit.action == "skills.bulk_set_maturity"
    assert SkillReader(db).get_by_name("deploy").maturity == "confirmed"


def test_demote_several_skills_by_id_to_the_grade_given(db):
    store = SkillStore(db)
    a = store.create_skill("a", "A", ["a"], "run a", maturity="stable", now=T0)
    b = store.create_skill("b", "B", ["b"], "run b", maturity="confirmed", now=T0)
    fix = Fix(fixes.DEMOTE_SKILL, {"ids": [a.id, b.id], "to": "draft", "reason": "no actions behind it"})
    assert [(r.label, r.before, r.after) for r in fixes.preview(db, fix)] == [
        ("a", "stable", "draft"),
        ("b", "confirmed", "draft"),
    ]
    round_trip(db, fixes.change_for(db, fix), "memory_skills")
    store.record_usage("a", at=FIXED_NOW)  # the agent's counters move on: undo still puts the grades back
    edit = audit.list_entries(db)[0]
    curation.undo(db, edit.original_id or edit.id, ACTOR)
    assert [SkillReader(db).get_by_name(n).maturity for n in "ab"] == ["stable", "confirmed"]


def test_merging_near_duplicate_skills_deprecates_the_others(db):
    store = SkillStore(db)
    a = store.create_skill("fetch-a", "Fetch", ["fetch"], "curl -s URL | jq .", maturity="confirmed", now=T0)
    b = store.create_skill("fetch-b", "Fetch", ["fetch"], "curl -s URL | jq . ", maturity="draft", now=T0)
    fix = Fix(fixes.MERGE, {"layer": "skills", "ids": [a.id, b.id]})
    assert [(r.label, r.after) for r in fixes.preview(db, fix, choice=a.id)] == [("fetch-b", "deprecated")]
    edit = round_trip(db, fixes.change_for(db, fix, choice=a.id), "memory_skills")
    assert "fetch-a" in edit.note
    assert SkillReader(db).get_by_name("fetch-b").maturity == "deprecated"


def test_demote_takes_the_persons_reason_and_the_findings_message(db):
    SkillStore(db).create_skill("sum", "Sum numbers", ["sum"], "add", maturity="confirmed", now=T0)
    finding = Finding(
        "health.skills.maturity_unbacked",
        "warn",
        "skills",
        ["sum"],
        Notice("health.skills.maturity_unbacked", "confirmed without actions"),
        fix=Fix(fixes.DEMOTE_SKILL, {"ids": ["sum"]}),
    )
    edit = fixes.change_for(db, finding.fix, finding=finding).perform(db, ACTOR)
    assert edit.note == "confirmed without actions"
    curation.undo(db, edit.id, ACTOR)
    edit = fixes.change_for(db, finding.fix, finding=finding, choice="checked by hand").perform(db, ACTOR)
    assert edit.note == "checked by hand"


def test_pause_enable_and_resume_a_task(db):
    tasks = ScheduleStore(db)
    task = tasks.create("daily digest", FIXED_NOW + DAY, now=T0)
    pause = Fix(fixes.PAUSE_TASK, {"id": task.id})
    assert [(r.column, r.before, r.after) for r in fixes.preview(db, pause)] == [("enabled", 1, 0)]
    round_trip(db, fixes.change_for(db, pause), "memory_schedules")
    assert not tasks.get(task.id).enabled
    enable = Fix(fixes.ENABLE_TASK, {"id": task.id})
    assert [(r.column, r.after) for r in fixes.preview(db, enable)] == [("enabled", 1)]
    edit = round_trip(db, fixes.change_for(db, enable), "memory_schedules")
    assert edit.action == "calendar.schedule_enable" and tasks.get(task.id).enabled
    with db.write() as conn:  # the scheduler paused it after failures
        conn.execute(
            "UPDATE memory_schedules SET paused_until = ?, consecutive_failures = 3 WHERE id = ?",
            (FIXED_NOW + DAY, task.id),
        )
    assert [(r.column, r.after) for r in fixes.preview(db, enable)] == [("paused_until", None)]
    edit = round_trip(db, fixes.change_for(db, enable), "memory_schedules")
    assert edit.action == "calendar.schedule_resume"
    assert [t.id for t in tasks.due_before(FIXED_NOW + 2 * DAY)] == [task.id]


def matches(db, word):
    """Hits of the notes' full-text index alone (the agent's search falls back to LIKE on a miss)."""
    with db.lock:
        sql = "SELECT count(*) FROM memory_notes_fts WHERE memory_notes_fts MATCH ?"
        return db.conn.execute(sql, (word,)).fetchone()[0]


def test_rebuild_index_fills_what_drifted_and_undo_changes_nothing(db, path):
    notes = NotesStore(db)
    notes.upsert(None, "a note about trains", created_at=T0)
    with db.write() as conn:  # the index lost its entries
        conn.execute("INSERT INTO memory_notes_fts(memory_notes_fts) VALUES('delete-all')")
    assert matches(db, "trains") == 0
    fix = Fix(fixes.REBUILD_INDEX, {"index": "memory_notes_fts"})
    assert [(r.column, r.before, r.after) for r in fixes.preview(db, fix)] == [("entries", 0, 1)]
    old = time.time() - 60  # the last write (ours) was a minute ago: nobody is writing now
    wal = Path(str(path) + "-wal")
    if wal.exists():
        os.utime(wal, (old, old))
    edit = fixes.change_for(db, fix).perform(db, ACTOR)
    assert matches(db, "trains") == 1
    assert edit.before["indexed"] == 0 and edit.after["indexed"] == 1
    step = curation.undo(db, edit.id, ACTOR)
    assert step.before == step.after  # nothing put back: the index holds what the table holds
    curation.redo(db, edit.id, ACTOR)
    assert matches(db, "trains") == 1


def test_rebuild_index_is_refused_while_the_agent_writes(db, path):
    agent = MemoryDB.open(path, writable=True, backup_before_write=False)
    try:
        NotesStore(agent).upsert(None, "written just now", created_at=FIXED_NOW)
        with pytest.raises(AgentRunningError):
            fixes.change_for(db, Fix(fixes.REBUILD_INDEX, {"index": "memory_notes_fts"}))
    finally:
        agent.close()
    assert audit.list_entries(db) == []


def test_unknown_fix_is_refused(db):
    with pytest.raises(ValidationError_) as err:
        fixes.change_for(db, Fix("health.fix.nonsense"))
    assert err.value.code == "health.fix_unknown"


def _dup(ids):
    return Finding(
        "health.facts.duplicate_value",
        "warn",
        "facts",
        list(ids),
        Notice("health.facts.duplicate_value", "one value under several keys"),
        fix=Fix(fixes.MERGE, {"ids": list(ids)}),
    )


def test_never_merge_these_is_remembered_outside_the_database(tmp_path, path):
    side = HealthSideData(tmp_path / "side" / "health.json")
    findings = [_dup(["a", "b"]), _dup(["c", "d"])]
    assert fixes.drop_dismissed(findings, side.dismissed(path)) == findings
    side.dismiss(path, ["b", "a"])
    again = HealthSideData(tmp_path / "side" / "health.json")
    assert again.dismissed(path) == {frozenset({"a", "b"})}
    assert fixes.drop_dismissed(findings, again.dismissed(path)) == [findings[1]]
    assert again.dismissed(tmp_path / "other.sqlite") == set()
    side.undismiss(path, ["a", "b"])
    assert fixes.drop_dismissed(findings, side.dismissed(path)) == findings


def test_the_last_report_is_kept_per_file(tmp_path, path):
    side = HealthSideData(tmp_path / "health.json")
    assert side.last(path) == (None, [], 0)
    findings = [_dup(["a", "b"])]
    side.save_last(path, FIXED_NOW, findings)
    at, kept, more = HealthSideData(tmp_path / "health.json").last(path)
    assert (at, kept, more) == (FIXED_NOW, findings, 0)


def test_the_last_report_is_a_file_of_its_own_a_finding_a_line(tmp_path, path, monkeypatch):
    """Read and written a finding at a time (a large report never holds the interpreter in one call); a
    damaged line is left out, the others kept; a report of another file is never taken for this one's."""
    monkeypatch.setenv(sidedata.ENV_VAR, str(tmp_path / "health.json"))
    side = HealthSideData()
    findings = [_dup(["a", "b"]), _dup(["c", "d"]), _dup(["e", "f"])]
    side.save_last(path, FIXED_NOW, findings)
    kept = side.last_path(path)
    assert kept.parent == tmp_path / "health-last" and kept.suffix == ".jsonl"
    lines = kept.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4 and json.loads(lines[0])["database"] == database_key(path)
    assert [json.loads(line)["targets"] for line in lines[1:]] == [["a", "b"], ["c", "d"], ["e", "f"]]
    lines[2] = lines[2][:40]  # cut short
    kept.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert side.last(path) == (FIXED_NOW, [findings[0], findings[2]], 0)
    other = side.last_path(tmp_path / "other.sqlite")
    other.write_text(kept.read_text(encoding="utf-8"), encoding="utf-8")  # this file's report, misnamed
    assert side.last(tmp_path / "other.sqlite") == (None, [], 0)
    assert saved_files(path) == [kept]
    kept.write_bytes(b"\xff\xfe not text")
    reports: list = []
    with sidefiles.reporting(reports.append):
        assert side.last(path) == (None, [], 0)
    assert [n.code for n in reports] == ["sidefile.set_aside"] and not kept.exists()
    side.save_last(path, FIXED_NOW, findings[:1])  # a new report where the damaged one was
    assert side.last(path) == (FIXED_NOW, findings[:1], 0)


def test_a_report_kept_in_the_side_file_by_an_earlier_version_is_dropped_when_the_next_is_saved(
    tmp_path, path
):
    f = tmp_path / "health.json"
    old = {"at": 1, "findings": [finding_to_json(_dup(["a", "b"]))]}
    entry = {"dismissed": [["x", "y"]], "last": old}
    f.write_text(json.dumps({"version": 1, "databases": {database_key(path): entry}}), encoding="utf-8")
    side = HealthSideData(f)
    assert side.last(path) == (None, [], 0)  # not read: the next check shows its own
    side.save_last(path, FIXED_NOW, [_dup(["c", "d"])])
    data = json.loads(f.read_text(encoding="utf-8"))
    assert data["databases"][database_key(path)] == {"dismissed": [["x", "y"]]}
    assert side.last(path)[1] == [_dup(["c", "d"])] and side.dismissed(path) == {frozenset({"x", "y"})}


def test_a_damaged_side_file_is_set_aside_not_trusted(tmp_path, path):
    f = tmp_path / "health.json"
    f.write_text("[1, 2", encoding="utf-8")
    side = HealthSideData(f)
    reports: list = []
    with sidefiles.reporting(reports.append):
        assert side.dismissed(path) == set()
    assert [n.code for n in reports] == ["sidefile.set_aside"]
    side.dismiss(path, ["x", "y"])
    assert side.dismissed(path) == {frozenset({"x", "y"})}
    assert any(p.name.startswith("health.json.bad-") for p in tmp_path.iterdir())


def test_facts_that_decayed_or_are_unread_may_be_pinned_or_given_a_shorter_tau_instead():
    forget = Fix(fixes.FORGET, {"layer": "facts", "ids": ["a", "b"]})
    unread = Finding("health.facts.unread", "info", "facts", ["a", "b"], Notice("x", "x"), fix=forget)
    assert [f.code for f in fixes.alternatives(unread)] == [fixes.FORGET, fixes.PIN, fixes.SHORTEN_TAU]
    assert all(fixes.fix_ids(f) == ["a", "b"] for f in fixes.alternatives(unread))
    expired = Finding("health.facts.expired_live", "warn", "facts", ["a"], Notice("x", "x"), fix=forget)
    assert fixes.alternatives(expired) == [forget]


def test_a_demotion_whose_reason_is_a_code_keeps_the_findings_words(db):
    SkillStore(db).create_skill("s", "S", ["s"], "run s", maturity="stable", now=T0)
    fix = Fix(fixes.DEMOTE_SKILL, {"ids": ["s"], "to": "draft", "reason": "health.skills.maturity_unbacked"})
    finding = Finding(
        "health.skills.maturity_unbacked",
        "warn",
        "skills",
        ["s"],
        Notice("c", "Skill s is stable, but..."),
        fix=fix,
    )
    edit = fixes.change_for(db, fix, finding=finding).perform(db, ACTOR)
    assert edit.note == "Skill s is stable, but..."


def test_a_long_report_keeps_its_worst_findings_in_their_order(tmp_path, path, monkeypatch):
    monkeypatch.setattr(sidedata, "MAX_KEPT_FINDINGS", 2)
    notes = [Finding(f"health.facts.{c}", s, "facts", [], Notice(c, c)) for c, s in
             (("unread", "info"), ("live_conflict", "fail"), ("same_value", "warn"))]  # fmt: skip
    side = HealthSideData(tmp_path / "health.json")
    side.save_last(path, FIXED_NOW, notes)
    _at, kept, more = side.last(path)
    assert [f.code for f in kept] == ["health.facts.live_conflict", "health.facts.same_value"] and more == 1


def _has(db, kind, name):
    with db.lock:
        sql = "SELECT 1 FROM sqlite_master WHERE type = ? AND name = ?"
        return db.conn.execute(sql, (kind, name)).fetchone() is not None


def test_an_absent_index_is_created_and_built_and_undo_drops_what_it_created(db, path):
    NotesStore(db).upsert(None, "a note about trains", created_at=T0)
    with db.write() as conn:  # a file whose notes index is gone, with the triggers that kept it
        for trigger in ("memory_notes_ai", "memory_notes_ad", "memory_notes_au"):
            conn.execute(f"DROP TRIGGER {trigger}")
        conn.execute("DROP TABLE memory_notes_fts")
    fix = Fix(fixes.REBUILD_INDEX, {"index": "memory_notes_fts", "table": "memory_notes"})
    assert [(r.before, r.after) for r in fixes.preview(db, fix)] == [(None, 1)]
    old = time.time() - 60
    wal = Path(str(path) + "-wal")
    if wal.exists():
        os.utime(wal, (old, old))
    edit = fixes.change_for(db, fix).perform(db, ACTOR)
    assert matches(db, "trains") == 1 and _has(db, "trigger", "memory_notes_au")
    assert edit.after["created"] == [
        "memory_notes_fts",
        "memory_notes_ai",
        "memory_notes_ad",
        "memory_notes_au",
    ]
    curation.undo(db, edit.id, ACTOR)
    assert not _has(db, "table", "memory_notes_fts") and not _has(db, "trigger", "memory_notes_ai")
    NotesStore(db).upsert(None, "written while the index is gone", created_at=T0)  # the agent still writes
    curation.redo(db, edit.id, ACTOR)
    assert matches(db, "trains") == 1 and matches(db, "index") == 1


REFERENCE = Path(__file__).resolve().parents[1] / "fixtures" / "reference" / "reference-v31.sqlite"


def _content(db):
    """Every row of every content table (not the indexes, not the audit trail), as stored."""
    with db.lock:
        names = [
            r[0]
            for r in db.conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'memory%' "
                "AND name NOT LIKE '%fts%' ORDER BY name"
            )
        ]
        return {
            n: sorted(map(tuple, db.conn.execute(f"SELECT * FROM {n}").fetchall()), key=repr) for n in names
        }


def test_each_fix_on_a_file_the_reference_wrote_reads_as_the_agent_expects_and_undoes_to_the_same_rows(
    tmp_path,
):
    import shutil

    path = tmp_path / "reference.sqlite"
    shutil.copyfile(REFERENCE, path)
    db = MemoryDB.open(path, writable=True)
    try:
        with db.lock:
            atlas = [
                r[0]
                for r in db.conn.execute(
                    "SELECT id FROM memory_facts WHERE namespace = 'project.atlas' AND superseded_by IS NULL "
                    "AND forgotten_at IS NULL ORDER BY key LIMIT 2"
                )
            ]
            skill = db.conn.execute(
                "SELECT id FROM memory_skills WHERE maturity != 'draft' LIMIT 1"
            ).fetchone()[0]
            task = db.conn.execute("SELECT id FROM memory_schedules WHERE enabled = 1 LIMIT 1").fetchone()[0]
        original = _content(db)
        steps = [
            (Fix(fixes.MERGE, {"layer": "facts", "ids": atlas}), atlas[0]),
            (Fix(fixes.PIN, {"layer": "facts", "ids": atlas[:1]}), None),
            (Fix(fixes.SHORTEN_TAU, {"layer": "facts", "ids": atlas[:1], "tau_days": 3}), None),
            (Fix(fixes.FORGET, {"layer": "facts", "ids": atlas[1:]}), None),
            (Fix(fixes.DEMOTE_SKILL, {"ids": [skill], "to": "draft", "reason": "test"}), None),
            (Fix(fixes.PAUSE_TASK, {"ids": [task]}), None),
            (Fix(fixes.REBUILD_INDEX, {"index": "memory_raw_messages_fts"}), None),
        ]
        for fix, choice in steps:
            wal = Path(str(path) + "-wal")
            if wal.exists():  # our own last write, a minute ago: the agent is not writing
                os.utime(wal, (time.time() - 60, time.time() - 60))
            edit = fixes.change_for(db, fix, choice=choice).perform(db, ACTOR)
            assert _content(db) != original or fix.code == fixes.REBUILD_INDEX, fix.code
            live = FactStore(db).list_facts("project.atlas")  # the agent's own read of the namespace
            assert all(f.superseded_by is None and f.forgotten_at is None for f in live)
            curation.undo(db, edit.id, ACTOR)
            assert _content(db) == original, fix.code
    finally:
        db.close()
    again = MemoryDB.open(path)  # the file still opens as the reference's, read-only and complete
    try:
        assert not again.report.read_only_reason
        assert len(FactStore(again).list_facts("project.atlas")) >= 2
    finally:
        again.close()
