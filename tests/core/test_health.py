"""The doctor's checks (core.health): a planted file gives every finding with its exact targets, the demo
gives no false failure, the report's JSON shape, and a check changes no byte of the file."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from core.backups import backup_created_at
from core.db import MemoryDB
from core.errors import ValidationError_
from core.health.checks import HealthOptions, HealthReport, run_checks
from core.health.finding import LAYERS, Fix
from core.prefix import build_memory_prefix
from tests.conftest import FIXED_NOW

NOW = FIXED_NOW
D = 86_400_000

FACT_COLS = (
    "id, namespace, key, value_json, confidence, superseded_by, supersedes, created_at, valid_until, "
    "last_accessed_at, decay_tau_days, forgotten_at"
)


def fact(conn, fid, ns, key, value='"v"', *, conf=1.0, sup_by=None, sups=None, created=NOW - D,
         until=None, read=None, tau=None, forgotten=None):  # fmt: skip
    conn.execute(
        f"INSERT INTO memory_facts ({FACT_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
        (fid, ns, key, value, conf, sup_by, sups, created, until, read, tau, forgotten),
    )


def plant_facts(conn) -> None:
    # several live values for one key
    fact(conn, "conflict-a", "user", "city", '"Lyon"', created=NOW - 2 * D)
    fact(conn, "conflict-b", "user", "city", '"Paris"', created=NOW - D)
    # a chain naming a missing fact; a cycle of two
    fact(conn, "broken", "project", "stage", '"alpha"', sup_by="nowhere")
    fact(conn, "cyc-1", "misc", "loop", '"one"', sup_by="cyc-2")
    fact(conn, "cyc-2", "misc", "loop", '"two"', sup_by="cyc-1")
    # one value under two keys (normalised: case and white space)
    fact(conn, "same-1", "contacts", "boss", '"Ada  Lovelace"')
    fact(conn, "same-2", "contacts", "manager", '"ada lovelace"')
    # statuses are shared by nature: not the same value under several keys
    fact(conn, "status-1", "tickets", "A-1", '"done"')
    fact(conn, "status-2", "tickets", "A-2", '"done"')
    # valid_until passed, live and shown in the prefix
    fact(conn, "expired", "user", "trip", '"Rome"', until=NOW - D, read=NOW - 3600_000)
    # shown in the prefix while decayed below 0.05 (project τ 60 d, a year old)
    fact(conn, "decayed", "project", "deadline", '"march"', created=NOW - 365 * D)
    # damaged values
    fact(conn, "nan-conf", "misc", "nan", '"x"', conf="high")
    fact(conn, "big-conf", "misc", "big", '"x"', conf=7)
    fact(conn, "bad-json", "misc", "json", "{not json")
    fact(conn, "inf-conf", "misc", "inf", '"x"')
    conn.execute("UPDATE memory_facts SET confidence = 1e999999 WHERE id = 'inf-conf'")
    # never read for 200 days (not in the prefix)
    fact(conn, "unread", "notes", "old", '"kept"', created=NOW - 200 * D)


SKILL_COLS = (
    "id, name, description, trigger_keywords, action_template, created_at, last_used_at, success_count, "
    "maturity, offered_count, matched_count, verification, revision_history"
)


def skill(conn, sid, recipe, *, maturity="draft", created=NOW - D, used=None, successes=0, offered=0,
          matched=0, verification=None, history=None, keywords="[]"):  # fmt: skip
    conn.execute(
        f"INSERT INTO memory_skills ({SKILL_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (sid, f"{sid}-skill", "d", keywords, recipe, created, used, successes, maturity, offered, matched,
         verification, history),
    )  # fmt: skip


def action(conn, skill_name, at, ok=1):
    conn.execute(
        "INSERT INTO memory_actions (session_id, tool_name, params_json, success, timestamp, linked_skill) "
        "VALUES ('global', 'use_skill', '{}', ?, ?, ?)",
        (ok, at, skill_name),
    )


def plant_skills(conn) -> None:
    # stable with no linked action: unbacked; confirmed with two linked successes: backed
    skill(conn, "unbacked", "open the ledger and reconcile", maturity="stable", successes=9)
    skill(conn, "backed", "tag the release and publish notes", maturity="confirmed", successes=2)
    action(conn, "backed-skill", NOW - 3 * D)
    action(conn, "backed-skill", NOW - 2 * D)
    skill(conn, "offered", "water the plants on the balcony", offered=50)
    repairs = json.dumps(
        [{"at": NOW - (5 - i) * D, "actionTemplate": "x", "verification": "ok", "reason": f"skill_repair:i{i}: d"}
         for i in range(3)]
    )  # fmt: skip
    skill(conn, "repaired", "restart the worker then check its queue", maturity="playbook",
          verification='"queue empty"', history=repairs)  # fmt: skip
    recipe = "1. pip install -U the package\n2. run the tests\n3. fix the breaking changes"
    skill(conn, "dup-a", recipe)
    skill(conn, "dup-b", recipe.replace("  ", " ").upper())
    skill(conn, "stale-draft", "print the quarterly report for finance", created=NOW - 60 * D)
    skill(conn, "bad-json", "feed the cat", keywords="{not json")


def plant_notes(conn) -> None:
    note = "INSERT INTO memory_notes (id, content, created_at, forgotten_at) VALUES (?, ?, ?, ?)"
    conn.execute(note, ("note-1", "Buy  milk on Friday", NOW - 3 * D, None))
    conn.execute(note, ("note-2", "buy milk on friday ", NOW - 2 * D, None))
    conn.execute(note, ("note-forgotten", "the old password hint", NOW - 9 * D, NOW - D))
    conn.execute(note, ("note-ok", "call the dentist", NOW - D, None))


def plant_index_damage(conn) -> None:
    msg = "INSERT INTO memory_raw_messages (session_id, role, content, timestamp) VALUES ('global', ?, ?, ?)"
    for i in range(5):
        conn.execute(msg, ("user", f"message {i}", NOW - (5 - i) * 3600_000))
    # message 3 dropped from its index; a skills-index document whose skill does not exist
    conn.execute(
        "INSERT INTO memory_raw_messages_fts (memory_raw_messages_fts, rowid, content, role) "
        "SELECT 'delete', rowid, content, role FROM memory_raw_messages WHERE id = 3"
    )
    conn.execute(
        "INSERT INTO memory_skills_fts (rowid, name, description, trigger_keywords) VALUES (9999, 'ghost', '', '')"
    )


def plant_tasks(conn) -> None:
    task = (
        "INSERT INTO memory_schedules (id, name, cron_expr, next_run_at, last_run_at, action_type, "
        "payload_json, enabled, created_at, consecutive_failures, paused_until) VALUES (?,?,?,?,?,'prompt','{}',?,?,?,?)"
    )
    every = "interval:3600000"
    conn.execute(task, ("failing", "sync mail", every, NOW + 3600_000, NOW - 60_000, 1, NOW - 9 * D, 4, None))
    conn.execute(task, ("paused", "backup photos", every, NOW + D, NOW - D, 1, NOW - 9 * D, 3, NOW + D))
    conn.execute(task, ("overdue", "call mum", None, NOW - 5 * 3600_000, None, 1, NOW - 9 * D, 0, None))
    conn.execute(task, ("fine", "water plants", None, NOW + D, None, 1, NOW - D, 0, None))
    conn.execute(task, ("off", "old reminder", None, NOW - 9 * D, None, 0, NOW - 9 * D, 7, None))
    # the counter was reset, but its three newest runs failed
    conn.execute(
        task, ("outcomes", "fetch news", every, NOW + 3600_000, NOW - 60_000, 1, NOW - 9 * D, 0, None)
    )
    outcome = (
        "INSERT INTO schedule_outcomes (id, schedule_id, fired_at, duration_ms, outcome, text_summary, created_at) "
        "VALUES (?, 'outcomes', ?, 10, ?, '', ?)"
    )
    for i, result in enumerate(["ok", "failed", "failed", "failed"]):
        conn.execute(outcome, (f"o{i}", NOW - (5 - i) * 3600_000, result, NOW))


@pytest.fixture(scope="module")
def planted(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("planted") / "memory.sqlite"
    db = MemoryDB.create(path, now=NOW)
    with db.write() as conn:
        plant_facts(conn)
        plant_skills(conn)
        plant_notes(conn)
        plant_index_damage(conn)
        plant_tasks(conn)
    db.close()
    return path


@pytest.fixture(scope="module")
def report(planted):
    db = MemoryDB.open(planted)
    try:
        yield run_checks(db, now_ms=NOW)
    finally:
        db.close()


def targets(report, code) -> list[list]:
    return [f.targets for f in report.findings if f.code == code]


def one(report, code):
    found = [f for f in report.findings if f.code == code]
    assert len(found) == 1, (code, found)
    return found[0]


def test_live_conflict(report):
    f = one(report, "health.facts.live_conflict")
    assert f.measure["labels"] == ["user.city", "user.city"]
    assert (f.severity, f.layer, f.targets) == ("fail", "facts", ["conflict-b", "conflict-a"])
    assert f.fix.code == "health.fix.merge_duplicates"
    assert f.fix.params == {"layer": "facts", "ids": ["conflict-b", "conflict-a"]}
    assert str(f.message) == "user.city has 2 live values at once; the agent reads only one."


def test_broken_chains(report):
    assert targets(report, "health.facts.chain_missing") == [["broken"]]
    assert targets(report, "health.facts.chain_cycle") == [["cyc-1", "cyc-2"]]
    assert one(report, "health.facts.chain_cycle").fix.code == "health.fix.repair_chain"


def test_same_value_under_several_keys(report):
    f = one(report, "health.facts.same_value")
    assert (f.severity, f.targets, f.measure["keys"]) == ("warn", ["same-1", "same-2"], ["boss", "manager"])


def test_expired_live_and_shown(report):
    f = one(report, "health.facts.expired_live")
    assert (f.severity, f.targets, f.measure["shown"]) == ("warn", ["expired"], 1)
    assert f.fix.code == "health.fix.forget"


def test_decayed_but_shown(report):
    f = one(report, "health.facts.decayed_shown")
    assert f.targets == ["decayed"]
    assert f.measure["scores"]["decayed"] < 0.05


def test_damaged_values_are_findings(report):
    found = [f for f in report.findings if f.code == "health.facts.confidence_invalid"]
    assert sorted((f.targets[0], f.measure["value"]) for f in found) == [
        ("big-conf", "7"),
        ("inf-conf", "Infinity"),
        ("nan-conf", "'high'"),
    ]
    assert targets(report, "health.facts.invalid_json") == [["bad-json"]]


def test_unread_facts(report):
    f = one(report, "health.facts.unread")
    assert (f.severity, f.targets) == ("info", ["unread"])


def test_maturity_the_log_does_not_back(report):
    f = one(report, "health.skills.maturity_unbacked")
    assert (f.severity, f.layer, f.targets) == ("warn", "skills", ["unbacked"])
    assert (f.measure["maturity"], f.measure["backed"], f.measure["actions"]) == ("stable", "draft", 0)
    assert f.fix.code == "health.fix.demote_skill"
    assert f.fix.params == {"ids": ["unbacked"], "to": "draft", "reason": "health.skills.maturity_unbacked"}


def test_other_skill_findings(report):
    assert targets(report, "health.skills.offered_unmatched") == [["offered"]]
    assert targets(report, "health.skills.repairs_exhausted") == [["repaired"]]
    assert one(report, "health.skills.repairs_exhausted").measure["count"] == 3
    assert targets(report, "health.skills.near_duplicate") == [["dup-a", "dup-b"]]
    assert targets(report, "health.skills.draft_unused") == [["stale-draft"]]
    assert targets(report, "health.skills.invalid_json") == [["bad-json"]]
    assert one(report, "health.skills.near_duplicate").measure["labels"] == ["dup-a-skill", "dup-b-skill"]


def test_notes(report):
    f = one(report, "health.notes.duplicate")
    assert (f.targets, f.fix.params) == (
        ["note-1", "note-2"],
        {"layer": "notes", "ids": ["note-1", "note-2"]},
    )
    assert targets(report, "health.notes.forgotten_found") == [["note-forgotten"]]
    assert f.measure["labels"] == ["Buy milk on Friday", "buy milk on friday"]


def test_indexes_against_their_tables(report):
    missing = one(report, "health.indexes.missing_rows")
    assert (missing.severity, missing.targets, missing.measure["index"]) == (
        "fail",
        [3],
        "memory_raw_messages_fts",
    )
    orphan = one(report, "health.indexes.orphan_rows")
    assert (orphan.targets, orphan.measure["index"]) == ([9999], "memory_skills_fts")
    assert orphan.fix.params == {"index": "memory_skills_fts", "table": "memory_skills"}
    assert str(orphan.message) == "memory_skills_fts holds 1 rows that memory_skills no longer has."


def test_tasks(report):
    assert targets(report, "health.calendar.task_failing") == [["failing"], ["outcomes"]]
    for f in report.findings:
        if f.code == "health.calendar.task_failing":
            assert f.fix == Fix("health.fix.pause_task", {"ids": f.targets})
    by_outcomes = next(f for f in report.findings if f.targets == ["outcomes"])
    measured = by_outcomes.measure
    assert (measured["failed_outcomes_in_a_row"], measured["consecutive_failures"], measured["failures"]) == (
        3,
        0,
        3,
    )
    assert targets(report, "health.calendar.task_paused") == [["paused"]]
    assert one(report, "health.calendar.task_paused").fix.code == "health.fix.enable_task"
    f = one(report, "health.calendar.oneshot_overdue")
    assert (f.targets, str(f.message)) == (
        ["overdue"],
        "One-shot task call mum was due 5.0 hours ago and never ran.",
    )


def test_file_measurements(report):
    size = one(report, "health.file.size")
    assert size.severity == "info" and size.measure["months"][-1]["messages"] == 5
    assert one(report, "health.file.no_backup").severity == "warn"
    prefix = one(report, "health.file.prefix_size")
    assert prefix.severity == "info" and len(prefix.measure["months"]) == 12
    per_day = one(report, "health.file.messages_per_day")
    assert (per_day.measure["total"], per_day.measure["days"]) == (5, 30)


def test_file_thresholds(planted):
    opts = {"free_min_mb": 0, "free_ratio": 0, "wal_max_mb": -1, "size_max_mb": 0, "messages_per_day_max": 1}
    with MemoryDB.open(planted) as db:
        r = run_checks(db, now_ms=NOW, layers=["file"], options=opts)
    codes = {f.code: f.severity for f in r.findings}
    assert codes["health.file.free_pages"] == codes["health.file.wal_size"] == "warn"
    assert codes["health.file.size"] == codes["health.file.messages_per_day"] == "warn"


def test_backups_measured(tmp_path):
    db = MemoryDB.create(tmp_path / "m" / "memory.sqlite", now=NOW)
    made = db.backup()
    at = backup_created_at(made.name)
    r = run_checks(db, layers=["file"], now_ms=at + 8 * D)
    f = one(r, "health.file.backups")
    assert (f.severity, f.targets, f.measure["count"]) == ("warn", [made.name], 1)
    assert f.measure["age_ms"] == 8 * D
    r = run_checks(db, layers=["file"], now_ms=at + 6 * D)
    assert one(r, "health.file.backups").severity == "info"
    db.close()


def test_thresholds_are_options(planted):
    with MemoryDB.open(planted) as db:
        r = run_checks(db, now_ms=NOW, layers=["facts"], options={"unread_days": 500})
    assert targets(r, "health.facts.unread") == []
    with pytest.raises(ValidationError_) as e:
        HealthOptions.of({"nope": 1})
    assert e.value.code == "health.option_unknown"


def test_unknown_layer_refused(planted):
    with MemoryDB.open(planted) as db, pytest.raises(ValidationError_) as e:
        run_checks(db, layers=["facts", "moon"])
    assert e.value.code == "health.layer_unknown"


def test_json_shape(report):
    js = json.loads(json.dumps(report.to_json()))
    assert list(js) == ["summary", "findings"]
    assert list(js["summary"]) == list(LAYERS)
    assert js["summary"]["facts"]["status"] == "fail"
    first = js["findings"][0]
    assert list(first) == ["code", "severity", "layer", "targets", "message", "measure", "fix"]
    assert list(first["message"]) == ["code", "message", "params"]


def test_a_kept_report_reads_back(report):
    kept = json.loads(json.dumps(report.to_json()))
    back = HealthReport.from_json(kept, now_ms=NOW)
    assert back.findings == report.findings and back.summary() == report.summary()
    assert back.to_json() == kept


def _digest(path: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(path.parent.iterdir())
        if p.name.endswith((".sqlite", ".sqlite-wal"))
    }


def test_health_changes_no_byte(planted):
    before = _digest(planted)
    with MemoryDB.open(planted) as db:
        run_checks(db, now_ms=NOW)
    assert _digest(planted) == before


def test_demo_has_no_false_failure(demo_db_path):
    with MemoryDB.open(demo_db_path) as db:
        r = run_checks(db, now_ms=NOW)
    assert [f.code for f in r.findings if f.severity == "fail"] == []


@pytest.fixture(scope="module")
def crowded(tmp_path_factory) -> Path:
    """60 user facts of 900 characters each (the prefix overflows its cap) and 25 project facts."""
    path = tmp_path_factory.mktemp("crowded") / "memory.sqlite"
    db = MemoryDB.create(path, now=NOW)
    with db.write() as conn:
        for i in range(60):
            fact(
                conn,
                f"u{i:02d}",
                "user",
                f"k{i:02d}",
                json.dumps(f"{i:02d}" + "x" * 898),
                read=NOW - i * 60_000,
            )
        for i in range(25):
            fact(conn, f"p{i:02d}", "project", f"k{i:02d}", f'"p{i}"', created=NOW - i * 60_000)
    db.close()
    return path


def test_prefix_limits_and_cap(crowded):
    with MemoryDB.open(crowded) as db:
        r = run_checks(db, now_ms=NOW, layers=["facts", "file"])
        text = build_memory_prefix(db, now=NOW).text
    by_limit = one(r, "health.facts.cut_by_limit")
    assert by_limit.targets == ["p20", "p21", "p22", "p23", "p24"]  # the oldest five beyond 20
    assert by_limit.measure == {
        "namespace": "project",
        "limit": 20,
        "live": 25,
        "count": 5,
        "labels": ["project.k20", "project.k21", "project.k22", "project.k23", "project.k24"],
    }
    by_chars = one(r, "health.facts.cut_by_chars")
    cut = by_chars.targets
    user_cut = [t for t in cut if t.startswith("u")]
    # the newest user facts fit, the rest are cut, and every shown project fact is beyond the cap too
    assert user_cut == [f"u{i:02d}" for i in range(60 - len(user_cut), 60)] and 0 < len(user_cut) < 60
    assert [t for t in cut if t.startswith("p")] == [f"p{i:02d}" for i in range(20)]
    first = int(user_cut[0][1:])
    assert f"  user.k{first - 1:02d} = " in text and f'"{first - 1:02d}' + "x" * 898 + '"' in text
    assert f'"{first:02d}' + "x" * 898 + '"' not in text
    assert by_chars.measure["over"] == by_chars.measure["chars"] - 40_000 > 0
    assert one(r, "health.file.prefix_size").severity == "warn"


def test_every_code_has_an_english_text_and_is_documented(report):
    import core.health
    from core.health.messages import TEXTS

    for f in report.findings:
        assert f.code in TEXTS and "{" not in f.message.message, f.code
    assert all(code in core.health.__doc__ for code in TEXTS)


def test_damaged_values_everywhere_are_findings_never_errors():
    db = MemoryDB.memory(now=NOW)
    c = db.conn
    c.execute(
        "INSERT INTO memory_facts (id, namespace, key, value_json, confidence, created_at, valid_until, "
        "last_accessed_at, decay_tau_days) VALUES ('f1', 'user', 'k', '\"v\"', 'high', 'yesterday', 'soon', "
        "X'00ff', 'abc')"
    )
    c.execute(
        "INSERT INTO memory_facts (id, namespace, key, value_json, confidence, created_at, superseded_by) "
        "VALUES (X'01', 'misc', X'ff00', 'NaN', 0.5, 1, X'02')"
    )
    c.execute(
        "INSERT INTO memory_skills (id, name, description, trigger_keywords, action_template, created_at, "
        "maturity, revision_history, last_used_at) VALUES ('s1', X'ff', 'd', '[1,', X'00', 'old', 'stable', "
        "'{bad', 'never')"
    )
    c.execute(
        "INSERT INTO memory_notes (id, content, created_at, forgotten_at) VALUES ('n1', X'ff00', 'x', 'y')"
    )
    c.execute("INSERT INTO memory_notes (id, content, created_at) VALUES ('n2', 12, 1)")
    c.execute(
        "INSERT INTO memory_schedules (id, name, cron_expr, next_run_at, action_type, payload_json, created_at, "
        "consecutive_failures, paused_until) VALUES ('t1', X'ff', NULL, 'tomorrow', 'prompt', '{', 1, 'lots', "
        "'later')"
    )
    c.execute(
        "INSERT INTO memory_raw_messages (session_id, role, content, timestamp) VALUES ('global', 'user', X'ff', 'noon')"
    )
    c.execute(
        "INSERT INTO memory_actions (session_id, tool_name, params_json, success, timestamp, linked_skill) "
        "VALUES ('global', 't', '{}', 'maybe', 'x', X'ff')"
    )
    r = run_checks(db, now_ms=NOW)
    db.close()
    assert targets(r, "health.facts.confidence_invalid") == [["f1"]]
    assert targets(r, "health.facts.chain_missing") == [["\x01"]]
    assert targets(r, "health.facts.invalid_json") == [["\x01"]]
    assert targets(r, "health.skills.invalid_json") == [["s1"]]
    assert targets(r, "health.calendar.oneshot_overdue") == []  # no time is no overdue
    json.dumps(r.to_json())


def test_progress_is_reported_per_layer(planted):
    seen = []
    with MemoryDB.open(planted) as db:
        run_checks(db, layers=["notes", "facts"], now_ms=NOW, progress=lambda *a: seen.append(a))
    assert seen == [("facts", 0, 2), ("notes", 1, 2), ("done", 2, 2)]


def test_offered_and_matched_only_where_the_file_has_them():
    db = MemoryDB.memory(now=NOW)
    with db.write() as conn:
        skill(conn, "offered", "water the plants on the balcony", offered=50)
    assert targets(run_checks(db, layers=["skills"], now_ms=NOW), "health.skills.offered_unmatched") == [
        ["offered"]
    ]
    db.conn.execute("ALTER TABLE memory_skills DROP COLUMN matched_count")  # an older file
    assert targets(run_checks(db, layers=["skills"], now_ms=NOW), "health.skills.offered_unmatched") == []
    db.close()


def test_a_fact_cut_off_by_the_cap_is_not_shown(tmp_path):
    """Expired facts beyond the cap are not "shown in the prefix": info, not a warning."""
    path = tmp_path / "memory.sqlite"
    db = MemoryDB.create(path, now=NOW)
    with db.write() as conn:
        for i in range(60):
            fact(conn, f"u{i:02d}", "user", f"k{i:02d}", json.dumps("x" * 900), read=NOW - i * 60_000)
        fact(conn, "gone", "user", "old", '"trip"', until=NOW - D, read=NOW - 3 * D)
    r = run_checks(db, now_ms=NOW, layers=["facts"])
    db.close()
    assert "gone" in one(r, "health.facts.cut_by_chars").targets
    f = one(r, "health.facts.expired_live")
    assert (f.targets, f.severity, f.measure["shown"]) == (["gone"], "info", 0)


def test_a_check_that_cannot_run_is_a_finding():
    db = MemoryDB.memory(now=NOW)
    db.conn.execute("DROP TABLE memory_schedules")
    r = run_checks(db, now_ms=NOW)
    db.close()
    f = one(r, "health.calendar.check_failed")
    assert (f.severity, f.measure["check"]) == ("warn", "tasks")
    assert f.measure["error"] == "OperationalError: no such table: memory_schedules"
    assert (
        str(f.message) == "The check tasks could not run: OperationalError: no such table: memory_schedules"
    )
    assert r.summary()["facts"]["status"] == "ok"  # the other layers still ran
    assert one(r, "health.file.prefix_size").severity == "info"


def test_a_closed_database_is_an_error_not_a_finding():
    from core.errors import DatabaseClosedError

    db = MemoryDB.memory(now=NOW)
    db.close()
    with pytest.raises(DatabaseClosedError):
        run_checks(db, now_ms=NOW)
