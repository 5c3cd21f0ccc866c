"""The demo generator: reproducible, complete (every grade, shape and layer), bilingual, and coherent.

Coherent means: a fact key only ever holds values of its own family; every stored fact was stored by a
tool call at the same moment; supersede chains are linked both ways; a skill's grade is what its linked
actions and revisions give when replayed through the state machine; calendar entries and reminders were
asked for; conversations that look back quote what was really said before.
"""

from __future__ import annotations

import collections
import itertools
import json
import re
from pathlib import Path

import pytest

from core import demo, schema
from core.db import MemoryDB
from core.demo import data, factbook, skillbook
from core.demo.stories import fact_kwargs
from core.demo.text import Slots
from core.engine import sqlite3
from core.maturity import next_maturity
from core.recall_trigger import detect
from core.skills import RECIPE_DECAY_KEY, recipe_decay_text
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


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> sqlite3.Connection:
    """The size the app's demo uses (3,000 messages): room for every story and its conversations."""
    path = tmp_path_factory.mktemp("demo-3k") / "memory.sqlite"
    demo.generate(path, messages=3000, seed=7, now=NOW)
    conn = _conn(path)
    yield conn
    conn.close()


# -- the data files --------------------------------------------------------------------------------------------


def test_every_data_file_loads_and_every_template_resolves():
    names = data.data_files()
    assert {"world.toml", "tools.toml", "stories.toml", "facts.toml", "skills.toml", "agenda.toml"} <= set(
        names
    )
    assert any(n.startswith("dialogues/") for n in names)
    for name in names:
        assert data.raw(name.removesuffix(".toml"))
    assert data.check_dialogues() == []
    assert skillbook.check_skills() == []
    for topic in data.topics():  # every topic talks in both languages
        assert all(topic.by_lang), topic.name


# -- reproducible, complete ------------------------------------------------------------------------------------


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
    assert report.schedules == sizes["schedules"]
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
        "schedules": 15,
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


# -- the timeline ----------------------------------------------------------------------------------------------


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
    assert 0.02 < common / len(rows) < 0.32  # more in bigger timelines, where everyday talk dominates
    assert any(demo.BENCH_TERMS["zh2"] in r["content"] for r in rows)
    assert any(demo.BENCH_TERMS["zh3"] in r["content"] for r in rows)


def test_conversations_are_varied(big):
    users = [r[0] for r in big.execute("SELECT content FROM memory_raw_messages WHERE role = 'user'")]
    courtesy = {line for lines in data.phrases("thanks").values() for line in lines}
    asked = collections.Counter(u for u in users if len(u) >= 16 and u not in courtesy)  # not "thanks"
    line, times = asked.most_common(1)[0]
    assert times <= 8, line  # no question asked again and again
    assert len(asked) > 0.6 * sum(asked.values())


def test_recall_trigger_phrases_in_both_languages(db):
    users = [r[0] for r in db.execute("SELECT content FROM memory_raw_messages WHERE role = 'user'")]
    hits = [detect(u) for u in users]
    patterns = {h.pattern for h in hits if h is not None}
    assert any(p.startswith("Z") for p in patterns)
    assert any(p.startswith("E") for p in patterns)


def test_looking_back_quotes_what_was_said_before(big):
    rows = big.execute("SELECT id, role, content, timestamp FROM memory_raw_messages ORDER BY id").fetchall()
    said = [(r["timestamp"], r["content"]) for r in rows if r["role"] in ("user", "assistant")]
    recalls = [
        r for r in rows if r["role"] == "tool" and json.loads(r["content"])["tool"] == "recall_sessions"
    ]
    assert len(recalls) >= 3
    for r in recalls:
        hit = json.loads(r["content"])["result"].split("hits:\n", 1)[1].strip()
        quoted = re.sub(r"^\[(user|assistant)\] ", "", hit)[:60]
        earlier = [text for t, text in said if t < r["timestamp"] - 3_600_000]
        assert any(text.startswith(quoted) for text in earlier), quoted


def test_the_berlin_trip_is_talked_about_over_days_then_looked_back_on(big):
    rows = big.execute("SELECT content, timestamp FROM memory_raw_messages ORDER BY id").fetchall()
    ask_en = [
        r
        for r in rows
        if r[0].startswith("Do you remember what we discussed about the Berlin trip last time?")
    ]
    ask_zh = [r for r in rows if r[0].startswith("上次讨论过的柏林之行")]
    assert ask_en and ask_zh
    assert detect(ask_en[0][0]) is not None and detect(ask_zh[0][0]) is not None
    days = {
        r[1] // DAY for r in rows if ("Berlin" in r[0] or "柏林" in r[0]) and r[1] < ask_en[0][1] - 2 * DAY
    }
    assert len(days) >= 5


def test_sessions_and_origins(db, big):
    sessions = {r["id"]: r for r in db.execute("SELECT * FROM memory_raw_sessions")}
    assert "global" in sessions
    named = [s for s in sessions if s.startswith("sess-")]
    scheduled = [s for s in sessions if s.startswith("system:scheduled:")]
    assert named and scheduled
    assert any(sessions[s]["ended_at"] is not None for s in named)
    origins = {r[0] for r in db.execute("SELECT DISTINCT origin_session_id FROM memory_raw_messages")}
    assert None in origins
    for prefix in ("wechat:", "telegram:", "web-ui:", "system:scheduled:"):
        assert any(o and o.startswith(prefix) for o in origins), prefix
    assert big.execute(
        "SELECT count(*) FROM memory_raw_messages WHERE origin_session_id LIKE 'system:autonomous-%'"
    ).fetchone()[0]
    assert sum(1 for o in origins if o and o.startswith("web-ui:")) > 3  # several web conversations
    # Every message lies within its session's lifetime, and a named session lies within its day.
    bad = db.execute(
        "SELECT count(*) FROM memory_raw_messages m JOIN memory_raw_sessions s ON s.id = m.session_id "
        "WHERE m.timestamp < s.started_at OR (s.ended_at IS NOT NULL AND m.timestamp > s.ended_at)"
    ).fetchone()[0]
    assert bad == 0
    for sid in named:
        first = db.execute(
            "SELECT min(timestamp) FROM memory_raw_messages WHERE session_id = ?", (sid,)
        ).fetchone()[0]
        assert abs(first - sessions[sid]["started_at"]) < DAY


# -- skills ----------------------------------------------------------------------------------------------------


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
    assert {"deploy-blue-green", "nightly-backup-verify", "billing-invoice-rerun"} <= set(revised)
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
    # Three repair attempts: exhausted, it stays a playbook.
    rerun = json.loads(revised["billing-invoice-rerun"]["revision_history"])
    assert sum(h["reason"].startswith("skill_repair:") for h in rerun) == 3
    assert revised["billing-invoice-rerun"]["maturity"] == "playbook"


def test_a_repair_names_the_failure_before_it_and_adds_a_step(db):
    for s in db.execute(
        "SELECT name, action_template, revision_history FROM memory_skills WHERE revision_history IS NOT NULL"
    ):
        history = json.loads(s["revision_history"])
        templates = [h["actionTemplate"] for h in history] + [s["action_template"]]
        assert all(b.startswith(a) and len(b) > len(a) for a, b in itertools.pairwise(templates)), s["name"]
        for h in history:
            if not h["reason"].startswith("skill_repair:"):
                continue
            failed = db.execute(
                "SELECT result FROM memory_actions WHERE linked_skill = ? AND success = 0 AND timestamp < ? "
                "ORDER BY timestamp DESC LIMIT 1",
                (s["name"], h["at"]),
            ).fetchone()
            assert failed is not None, (s["name"], h["reason"])


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


def _replay(conn: sqlite3.Connection, skill: sqlite3.Row, until: int | None = None) -> str:
    """The grade the action log and the revisions give (before ``until``), as the reflector and the store would."""
    recipe = skill["verification"] is not None and bool(json.loads(skill["tool_policy"] or "[]"))
    events = [(r[0], 0, bool(r[1])) for r in conn.execute(
        "SELECT timestamp, success FROM memory_actions WHERE linked_skill = ? ORDER BY timestamp, id", (skill["name"],)
    )]  # fmt: skip
    events += [(h["at"], 1, None) for h in json.loads(skill["revision_history"] or "[]")]
    grade = "playbook" if skill["name"].startswith("playbook-") else "draft"
    s = f = c = 0
    for t, kind, ok in sorted(events, key=lambda e: (e[0], e[1])):
        if until is not None and t >= until:
            break
        if kind == 1:  # a revision: back to draft, counters kept
            grade = "draft"
            continue
        s, f, c = (s + 1, f, 0) if ok else (s, f + 1, c + 1)
        grade = next_maturity(grade, s, f, c, ok)
        if not ok and recipe:  # a recipe that failed its verification is demoted by the reflector
            grade = "playbook"
    return grade


def test_every_grade_follows_from_replaying_the_action_log(db):
    for skill in db.execute("SELECT * FROM memory_skills"):
        assert _replay(db, skill) == skill["maturity"], skill["name"]


def test_a_skill_is_retrieved_only_while_its_grade_allows_it(big):
    skills = {s["name"]: s for s in big.execute("SELECT * FROM memory_skills")}
    uses = big.execute(
        "SELECT params_json, timestamp FROM memory_actions WHERE tool_name = 'use_skill'"
    ).fetchall()
    assert len(uses) > 10
    for params, t in uses:
        skill = skills[json.loads(params)["name"]]
        if skill["kind"] == "positive":
            assert _replay(big, skill, until=t) in ("draft", "confirmed", "stable"), skill["name"]
    in_chat = [
        json.loads(r[0]) for r in big.execute("SELECT content FROM memory_raw_messages WHERE role = 'tool'")
    ]
    assert any(m["tool"] == "use_skill" and m["result"].startswith("# Skill: ") for m in in_chat)


# -- facts -----------------------------------------------------------------------------------------------------


def _curated_values() -> dict[tuple[str, str], list]:
    slots = Slots({}, NOW, NOW)
    out: dict[tuple[str, str], list] = collections.defaultdict(list)
    from core.demo.stories import _fill

    for ep in data.raw("stories")["episode"]:
        for turn in ep["turn"]:
            for f in turn.get("facts", ()):
                out[(f["ns"], f["key"])].append(_fill(f["value"], slots))
    for f in data.raw("facts").get("fact", ()):
        out[(f["ns"], f["key"])].append(f["value"])
    return out


def test_every_fact_holds_a_value_of_its_own_family(db):
    curated = _curated_values()
    specs = factbook.key_specs()
    selfs = {d["key"] for d in data.raw("facts")["self"]} | {RECIPE_DECAY_KEY}
    for f in db.execute("SELECT namespace, key, value_json FROM memory_facts"):
        ns, key, value = f["namespace"], f["key"], json.loads(f["value_json"])
        if ns == "self":
            assert key in selfs
            if key == RECIPE_DECAY_KEY:
                assert value["content"] in {
                    recipe_decay_text(n) for (n,) in db.execute("SELECT name FROM memory_skills")
                }
            continue
        if (ns, key) in curated:
            assert value in curated[(ns, key)], (ns, key, value)
            continue
        owners = [s for s in specs if s.ns == ns and s.key_pattern().fullmatch(key)]
        assert owners, (ns, key)
        assert any(s.accepts(value) for s in owners), (ns, key, value)


def test_supersede_chains_are_linked_both_ways_in_time_order(db):
    facts = db.execute("SELECT * FROM memory_facts ORDER BY rowid").fetchall()
    by_key = collections.defaultdict(list)
    for f in facts:
        by_key[(f["namespace"], f["key"])].append(f)
    chains = 0
    for versions in by_key.values():
        versions.sort(key=lambda f: f["created_at"])  # stable: rows of the same time keep their order
        assert [v["supersedes"] for v in versions] == [None] + [v["id"] for v in versions[:-1]]
        assert [v["superseded_by"] for v in versions] == [v["id"] for v in versions[1:]] + [None]
        chains += len(versions) > 1
    assert chains >= 10
    chain = [json.loads(f["value_json"]) for f in by_key[("project", "deploy_target")]]
    assert chain == ["heroku", "fly.io", "k8s (ACK 杭州)"]
    tz = [json.loads(f["value_json"]) for f in by_key[("user", "timezone")]]
    assert tz == ["Asia/Shanghai", "Europe/Berlin", "Asia/Shanghai"]


def test_facts_said_in_conversations_were_stored_by_their_tool_call(big):
    stored = {
        (r["namespace"], r["key"], r["value_json"], r["created_at"])
        for r in big.execute("SELECT namespace, key, value_json, created_at FROM memory_facts")
    }
    calls = big.execute("SELECT content, timestamp FROM memory_raw_messages WHERE role = 'tool'").fetchall()
    said = 0
    for content, ts in calls:
        msg = json.loads(content)
        if msg["tool"] != "store_fact":
            continue
        said += 1
        action = big.execute(
            "SELECT params_json FROM memory_actions WHERE tool_name = 'store_fact' AND timestamp = ?", (ts,)
        ).fetchone()
        p = json.loads(action[0])
        value = json.dumps(p["value"], ensure_ascii=False, separators=(",", ":"))
        assert (p["namespace"], p["key"], value, ts) in stored, p
        assert msg["result"].startswith(f"Stored {p['namespace']}.{p['key']} [")
    assert said > 50


def test_a_revised_fact_is_revised_where_the_conversation_says_so(big):
    def said_before(value: str) -> str:
        row = big.execute(
            "SELECT m.content FROM memory_facts f JOIN memory_raw_messages m ON m.role = 'user' "
            "AND m.timestamp < f.created_at WHERE f.namespace = 'project' AND f.key = 'deploy_target' "
            "AND f.value_json = ? ORDER BY m.timestamp DESC LIMIT 1",
            (json.dumps(value, ensure_ascii=False),),
        ).fetchone()
        return row[0]

    assert "Heroku" in said_before("fly.io")
    assert "Fly.io" in said_before("k8s (ACK 杭州)")


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
    assert 12 <= len(namespaces) <= 22
    assert len({ns.split(".")[0] for ns in namespaces}) >= 8
    assert any(f["decay_tau_days"] == -1 for f in facts)  # pinned
    assert any(f["decay_tau_days"] is not None and f["decay_tau_days"] > 0 for f in facts)  # custom tau
    assert any(f["fact_kind"] == "event" and f["occurred_at"] is not None for f in facts)
    assert any(f["valid_from"] is not None and f["valid_until"] is not None for f in facts)
    assert any(f["forgotten_at"] is not None for f in facts)
    assert any(f["last_accessed_at"] is not None and f["last_accessed_at"] > f["created_at"] for f in facts)
    ages = sorted((NOW - f["created_at"]) / DAY for f in facts)
    assert ages[0] < 1 and ages[-1] > 150
    assert all(0 <= f["confidence"] <= 1 for f in facts)
    selfs = {f["key"] for f in facts if f["namespace"] == "self"}
    assert {"summary", "strengths", "growth_edges"} <= selfs
    summary = db.execute(
        "SELECT value_json FROM memory_facts WHERE namespace = 'self' AND key = 'summary' AND superseded_by IS NULL"
    ).fetchone()[0]
    assert list(json.loads(summary)) == ["content", "sourceRefs", "updatedAt"]
    skill_ids = {r[0] for r in db.execute("SELECT id FROM memory_skills")}
    for (value,) in db.execute("SELECT value_json FROM memory_facts WHERE namespace = 'self'"):
        for ref in json.loads(value)["sourceRefs"]:
            assert not ref.startswith("skill:") or ref[6:] in skill_ids, ref


def test_story_fact_times_become_the_tool_parameters():
    spec = {
        "occurred": "-62friT17:00",
        "from": "-21sat-1T19:00",
        "until": "-21sat+9T10:00",
        "confidence": 0.7,
    }
    kw, iso = fact_kwargs(spec, NOW)
    assert kw["confidence"] == 0.7 and kw["valid_from"] < kw["valid_until"] < NOW
    assert iso["occurred_at"].endswith("T17:00:00+08:00") and iso["valid_from"].endswith("T19:00:00+08:00")


# -- notes, calendar, schedules ----------------------------------------------------------------------------------


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
    assert all(s["created_at"] < NOW for s in schedules)


def test_summaries_repeat_what_their_session_talked_about(big):
    for note in big.execute(
        "SELECT id, content, session_id FROM memory_notes WHERE id LIKE 'session-summary-%'"
    ):
        sid = note["session_id"]
        col = "session_id" if sid.startswith("sess-") or sid == "global" else "origin_session_id"
        first = big.execute(
            f"SELECT min(timestamp) FROM memory_raw_messages WHERE {col} = ?", (sid,)
        ).fetchone()[0]
        assert first is not None, sid  # a summary of a conversation that exists


def test_calendar_entries_and_reminders_were_asked_for(big):
    synced = {e["title"] for e in data.raw("agenda")["event"]}
    for e in big.execute("SELECT title, created_at FROM memory_calendar"):
        if e["title"] in synced:
            continue
        asked = big.execute(
            "SELECT params_json FROM memory_actions WHERE tool_name = 'create_calendar_event' AND timestamp = ?",
            (e["created_at"],),
        ).fetchone()
        assert asked is not None and json.loads(asked[0])["title"] == e["title"], e["title"]
    start = NOW - demo.DEFAULT_SPAN_DAYS * DAY
    asked_names = {
        json.loads(r[0])["name"]
        for r in big.execute("SELECT params_json FROM memory_actions WHERE tool_name = 'schedule_reminder'")
    }
    for s in big.execute("SELECT name, created_at, created_by, next_run_at, cron_expr FROM memory_schedules"):
        if s["created_by"] == "llm_external" and s["created_at"] >= start:
            assert s["name"] in asked_names, s["name"]
        if s["cron_expr"] is None:  # a one-shot runs after it was made
            assert s["next_run_at"] > s["created_at"], s["name"]


def test_what_the_agent_said_it_put_in_the_calendar_is_there(big):
    """Every calendar entry a conversation created is in the calendar, and every recurring reminder is a
    schedule (a one-time reminder may have fired and be gone)."""
    titles = {r[0] for r in big.execute("SELECT title FROM memory_calendar")}
    names = {r[0] for r in big.execute("SELECT name FROM memory_schedules")}
    made = 0
    for (content,) in big.execute("SELECT content FROM memory_raw_messages WHERE role = 'tool'"):
        msg = json.loads(content)
        if msg["tool"] == "create_calendar_event" and msg["success"]:
            made += 1
            assert msg["result"].split("'")[1] in titles, msg["result"]
        if msg["tool"] == "schedule_reminder" and "recurring(" in msg["result"]:
            made += 1
            assert msg["result"].split("'")[1] in names, msg["result"]
    assert made >= 5
