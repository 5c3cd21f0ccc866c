"""The demo generator: reproducible, complete (every grade, shape and layer), bilingual, consistent."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from core import demo, schema
from core.db import MemoryDB
from core.engine import sqlite3
from core.recall_trigger import detect
from tests.support import FIXED_NOW as NOW

DAY = 86_400_000
N_MESSAGES = 1500
CJK = re.compile("[\u4e00-\u9fff]")


def _conn(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    return conn


def _dump(path: Path) -> dict[str, list[tuple]]:
    """Every row of every table (shadow tables of the FTS indexes included), in a canonical order."""
    conn = _conn(path)
    try:
        names = [
            r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        ]
        out = {}
        for name in names:
            if name.endswith("_fts"):
                continue  # the virtual table itself: its rows are the shadow tables' and the content's
            rows = [tuple(r) for r in conn.execute(f'SELECT * FROM "{name}"')]
            out[name] = sorted(rows, key=repr)
        return out
    finally:
        conn.close()


@pytest.fixture(scope="module")
def demo_file(tmp_path_factory) -> tuple[Path, demo.GenerateReport]:
    path = tmp_path_factory.mktemp("demo") / "memory.sqlite"
    report = demo.generate(path, messages=N_MESSAGES, seed=3, now=NOW)
    return path, report


@pytest.fixture(scope="module")
def db(demo_file) -> sqlite3.Connection:
    conn = _conn(demo_file[0])
    yield conn
    conn.close()


def test_same_seed_and_now_give_the_same_rows(demo_file, tmp_path):
    again = tmp_path / "again.sqlite"
    demo.generate(again, messages=N_MESSAGES, seed=3, now=NOW)
    first, second = _dump(demo_file[0]), _dump(again)
    assert first.keys() == second.keys()
    for table in first:
        assert first[table] == second[table], table


def test_another_seed_or_now_gives_other_rows(demo_file, tmp_path):
    other_seed = tmp_path / "seed.sqlite"
    demo.generate(other_seed, messages=N_MESSAGES, seed=4, now=NOW)
    assert _dump(other_seed)["memory_raw_messages"] != _dump(demo_file[0])["memory_raw_messages"]
    other_now = tmp_path / "now.sqlite"
    demo.generate(other_now, messages=200, seed=3, now=NOW + DAY)
    ts = [r[0] for r in _conn(other_now).execute("SELECT max(timestamp) FROM memory_raw_messages")]
    assert NOW < ts[0] < NOW + DAY


def test_report_counts_match_the_database(demo_file, db):
    _path, report = demo_file
    sizes = demo.default_counts(N_MESSAGES)
    assert report.messages == N_MESSAGES
    assert report.actions == sizes["actions"]
    assert report.notes == sizes["notes"]
    assert report.facts == sizes["facts"]
    assert report.skills == sizes["skills"]
    assert report.calendar_events == sizes["calendar_events"]
    count = {t: db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in schema.CORE_TABLES}
    assert count["memory_raw_messages"] == report.messages
    assert count["memory_actions"] == report.actions
    assert count["memory_notes"] == report.notes
    assert count["memory_facts"] == report.facts
    assert count["memory_skills"] == report.skills
    assert count["memory_calendar"] == report.calendar_events
    assert count["memory_schedules"] == report.schedules
    assert count["memory_raw_sessions"] == report.sessions


def test_default_sizes_follow_the_benchmark_scale():
    assert demo.default_counts(1_000_000) == {
        "actions": 200_000,
        "notes": 20_000,
        "facts": 10_000,
        "skills": 2_000,
        "calendar_events": 50,
        "schedules": 14,
    }


def test_schema_is_complete_and_full_text_indexes_are_consistent(demo_file):
    with MemoryDB.open(demo_file[0]) as mdb:
        r = mdb.report
        assert r.schema_version == 31
        assert r.quick_check == "ok"
        assert (r.missing_tables, r.missing_fts, r.missing_triggers, r.missing_indexes) == ([], [], [], [])
        assert r.missing_additive_columns == []
        assert r.writable
        assert schema.fts_consistency(mdb.conn) == []
        assert mdb.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        # The trigger suspended during the bulk load is back.
        assert (
            mdb.conn.execute(
                "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'memory_raw_messages_ai'"
            ).fetchone()[0]
            == 1
        )
        # The index answers queries: every row holding the word is found through FTS.
        like = mdb.conn.execute(
            "SELECT count(*) FROM memory_raw_messages WHERE content LIKE '%数据库%'"
        ).fetchone()[0]
        fts = mdb.conn.execute(
            "SELECT count(*) FROM memory_raw_messages_fts WHERE memory_raw_messages_fts MATCH '数据库'"
        ).fetchone()[0]
        assert like == fts > 0


def test_no_partial_or_extra_files_are_left(tmp_path):
    path = tmp_path / "fresh" / "memory.sqlite"
    demo.generate(path, messages=100, now=NOW)
    assert path.parent.stat().st_mode & 0o777 == 0o700
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
    assert path.stat().st_mode & 0o777 == 0o600


def test_an_existing_file_is_never_touched(tmp_path):
    target = tmp_path / "memory.sqlite"
    target.write_bytes(b"precious")
    with pytest.raises(FileExistsError):
        demo.generate(target, messages=10, now=NOW)
    assert target.read_bytes() == b"precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memory.sqlite"]


def test_messages_are_bilingual_and_in_time_order(db):
    rows = db.execute("SELECT id, role, content, timestamp FROM memory_raw_messages ORDER BY id").fetchall()
    zh = sum(1 for r in rows if CJK.search(r["content"]))
    en = sum(1 for r in rows if r["content"].isascii())
    assert zh / len(rows) > 0.3
    assert en / len(rows) > 0.3
    assert {r["role"] for r in rows} == {"user", "assistant", "tool", "system"}
    times = [r["timestamp"] for r in rows]
    assert times == sorted(times)
    assert times[0] >= NOW - demo.DEFAULT_SPAN_DAYS * DAY and times[-1] < NOW
    assert times[-1] > NOW - DAY  # there is a recent conversation
    common = sum(1 for r in rows if demo.BENCH_TERMS["common"] in r["content"].lower())
    assert 0.18 < common / len(rows) < 0.32
    assert any(demo.BENCH_TERMS["zh2"] in r["content"] for r in rows)
    assert any(demo.BENCH_TERMS["zh3"] in r["content"] for r in rows)


def test_recall_trigger_phrases_in_both_languages(db):
    users = [r[0] for r in db.execute("SELECT content FROM memory_raw_messages WHERE role = 'user'")]
    hits = [detect(u) for u in users]
    patterns = {h.pattern for h in hits if h is not None}
    assert any(p.startswith("Z") for p in patterns)
    assert any(p.startswith("E") for p in patterns)


def test_sessions_and_origins(db):
    sessions = {r["id"]: r for r in db.execute("SELECT * FROM memory_raw_sessions")}
    assert "global" in sessions
    named = [s for s in sessions if s.startswith("sess-")]
    scheduled = [s for s in sessions if s.startswith("system:scheduled:")]
    assert named and scheduled
    assert any(sessions[s]["ended_at"] is not None for s in named)
    origins = {r[0] for r in db.execute("SELECT DISTINCT origin_session_id FROM memory_raw_messages")}
    assert None in origins
    for prefix in ("wechat:", "telegram:", "conv-", "system:scheduled:"):
        assert any(o and o.startswith(prefix) for o in origins), prefix
    # Every message lies within its session's lifetime.
    bad = db.execute(
        "SELECT count(*) FROM memory_raw_messages m JOIN memory_raw_sessions s ON s.id = m.session_id "
        "WHERE m.timestamp < s.started_at OR (s.ended_at IS NOT NULL AND m.timestamp > s.ended_at)"
    ).fetchone()[0]
    assert bad == 0


def test_every_maturity_grade_kind_and_shape_of_skill(db):
    skills = db.execute("SELECT * FROM memory_skills").fetchall()
    grades = {(s["maturity"], s["kind"]) for s in skills}
    for grade in ("playbook", "draft", "confirmed", "stable", "deprecated"):
        assert any(g == grade for g, _k in grades), grade
    assert {k for _g, k in grades} == {"positive", "negative"}
    names = {s["name"]: s for s in skills}
    assert any(re.fullmatch(r"playbook-[a-z-]+-[0-9a-f]{6}", n) for n in names)
    failures = [s for s in skills if (s["source"] or "").startswith("plan-failure:")]
    assert failures and all(re.fullmatch(r"playbook-.+-fail-[0-9a-f]{6}", s["name"]) for s in failures)
    assert any(CJK.search(n) for n in names)
    sources = {(s["source"] or "").split(":")[0] for s in skills}
    assert {"", "self", "plan-failure", "clawhub", "github"} <= sources


def test_recipes_have_two_or_more_revisions(db):
    revised = {
        r["name"]: r for r in db.execute("SELECT * FROM memory_skills WHERE revision_history IS NOT NULL")
    }
    assert {"deploy-blue-green", "nightly-backup-verify"} <= set(revised)
    for name in ("deploy-blue-green", "nightly-backup-verify"):
        history = json.loads(revised[name]["revision_history"])
        assert len(history) >= 2
        assert [list(h) for h in history] == [
            ["at", "actionTemplate", "verification", "toolPolicy", "reason"]
        ] * len(history)
        assert [h["at"] for h in history] == sorted(h["at"] for h in history)
        assert json.loads(revised[name]["verification"]) is not None
    repaired = json.loads(revised["nightly-backup-verify"]["revision_history"])
    assert all(h["reason"].startswith("skill_repair:init-") for h in repaired)
    # A revision sends a recipe back to draft; deploy-blue-green then earned stable again.
    assert revised["deploy-blue-green"]["maturity"] == "stable"
    assert revised["nightly-backup-verify"]["maturity"] == "draft"
    # The recipe demoted after its last failure is a playbook with a verification: a repair candidate.
    fts = db.execute(
        "SELECT maturity, verification FROM memory_skills WHERE name = 'sqlite-fts-rebuild'"
    ).fetchone()
    assert fts["maturity"] == "playbook" and fts["verification"] is not None


def test_skill_counters_follow_the_linked_actions(db):
    linked = {
        (r[0], r[1]): r[2]
        for r in db.execute(
            "SELECT linked_skill, success, count(*) FROM memory_actions WHERE linked_skill IS NOT NULL GROUP BY 1, 2"
        )
    }
    assert linked
    for s in db.execute("SELECT name, success_count, failure_count FROM memory_skills"):
        assert linked.get((s["name"], 1), 0) == s["success_count"], s["name"]
        assert linked.get((s["name"], 0), 0) == s["failure_count"], s["name"]
    tools = db.execute("SELECT count(*), sum(success) FROM memory_actions").fetchone()
    assert 0 < tools[1] < tools[0]  # successes and failures


def test_facts_cover_namespaces_ages_and_time_semantics(db):
    facts = db.execute("SELECT * FROM memory_facts").fetchall()
    namespaces = {f["namespace"] for f in facts}
    assert {
        "user",
        "user.preferences",
        "project",
        "project.mycox",
        "context",
        "session",
        "decisions",
        "travel",
        "self",
        "USER",
        "工作",
    } <= namespaces
    assert any(f["decay_tau_days"] == -1 for f in facts)  # pinned
    assert any(f["decay_tau_days"] is not None and f["decay_tau_days"] > 0 for f in facts)  # custom tau
    assert any(f["fact_kind"] == "event" and f["occurred_at"] is not None for f in facts)
    assert any(f["valid_from"] is not None and f["valid_until"] is not None for f in facts)
    assert any(f["forgotten_at"] is not None for f in facts)
    assert any(f["last_accessed_at"] is not None and f["last_accessed_at"] > f["created_at"] for f in facts)
    ages = sorted((NOW - f["created_at"]) / DAY for f in facts)
    assert ages[0] < 1 and ages[-1] > 150
    assert all(0 <= f["confidence"] <= 1 for f in facts)
    # A supersede chain of three versions, linked both ways.
    chain = db.execute(
        "SELECT * FROM memory_facts WHERE namespace = 'project' AND key = 'deploy_target' ORDER BY created_at"
    ).fetchall()
    assert [json.loads(f["value_json"]) for f in chain] == ["heroku", "fly.io", "k8s (ACK 杭州)"]
    assert [f["superseded_by"] for f in chain] == [chain[1]["id"], chain[2]["id"], None]
    assert [f["supersedes"] for f in chain] == [None, chain[0]["id"], chain[1]["id"]]
    selfs = {f["key"] for f in facts if f["namespace"] == "self"}
    assert {"summary", "strengths", "growth_edges"} <= selfs
    summary = db.execute(
        "SELECT value_json FROM memory_facts WHERE namespace = 'self' AND key = 'summary' AND superseded_by IS NULL"
    ).fetchone()[0]
    assert list(json.loads(summary)) == ["content", "sourceRefs", "updatedAt"]


def test_notes_calendar_and_schedules(db):
    notes = db.execute("SELECT * FROM memory_notes").fetchall()
    summaries = [n for n in notes if n["id"].startswith("session-summary-")]
    assert summaries and any(n["id"] == "session-summary-global" for n in summaries)
    assert any(n["forgotten_at"] is not None for n in notes)
    assert any(CJK.search(n["content"]) for n in notes) and any(n["content"].isascii() for n in notes)
    events = db.execute("SELECT * FROM memory_calendar").fetchall()
    assert any(e["rrule"] is None for e in events)
    assert any((e["rrule"] or "").startswith("FREQ=WEEKLY") for e in events)
    assert any("UNTIL=" in (e["rrule"] or "") for e in events)
    assert any(e["related_fact_id"] for e in events)
    related = {e["related_fact_id"] for e in events if e["related_fact_id"]}
    found = {r[0] for r in db.execute("SELECT id FROM memory_facts")}
    assert related <= found
    schedules = db.execute("SELECT * FROM memory_schedules").fetchall()
    assert any(s["cron_expr"] is None for s in schedules)  # one-shot
    assert any((s["cron_expr"] or "").startswith("interval:") for s in schedules)
    assert any(s["enabled"] == 0 for s in schedules)
    assert any(s["action_type"] == "autonomous_turn" and s["project"] for s in schedules)
    ids = {s["id"] for s in schedules}
    scheduled_sessions = {
        r[0][len("system:scheduled:") :]
        for r in db.execute("SELECT id FROM memory_raw_sessions WHERE id LIKE 'system:scheduled:%'")
    }
    assert scheduled_sessions and scheduled_sessions <= ids


def test_zero_messages_still_makes_a_complete_database(tmp_path):
    path = tmp_path / "empty-timeline.sqlite"
    report = demo.generate(path, messages=0, seed=1, now=NOW, actions=5, notes=3, facts=60, skills=19)
    assert (report.messages, report.notes, report.facts, report.skills) == (0, 3, 60, 19)
    # Every skill outcome is a linked action, so the action log never has fewer rows than outcomes.
    assert report.actions > 5
    with MemoryDB.open(path) as mdb:
        assert mdb.conn.execute("SELECT count(*) FROM memory_actions").fetchone()[0] == report.actions
        assert (
            mdb.conn.execute("SELECT count(*) FROM memory_actions WHERE linked_skill IS NULL").fetchone()[0]
            == 0
        )
        assert mdb.report.complete and schema.fts_consistency(mdb.conn) == []


def test_progress_is_reported(tmp_path):
    seen = []
    demo.generate(tmp_path / "p.sqlite", messages=300, now=NOW, progress=lambda ph, d, t: seen.append(ph))
    assert {"schedules", "plan", "messages", "fts", "skills", "actions", "facts", "notes", "calendar"} <= set(
        seen
    )
