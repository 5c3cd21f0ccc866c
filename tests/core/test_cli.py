"""``philont-memory``: every command through ``main([...])``, its JSON shapes, errors and the read-only promise."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from core import schema
from core.cli import main, parse_time
from core.engine import sqlite3
from core.jsutil import now_ms
from tests.support import FIXED_NOW as NOW

NOW_ARGS = ["--now", str(NOW)]

FACT_KEYS = {
    "id", "namespace", "key", "value", "valueJson", "confidence", "supersededBy", "supersedes", "createdAt",
    "occurredAt", "validFrom", "validUntil", "lastAccessedAt", "decayTauDays", "forgottenAt", "factKind",
    "rootPursuitId", "jsonErrors", "damaged", "status", "pinned", "tauDays", "tauSource", "score",
}  # fmt: skip
SKILL_KEYS = {
    "name", "id", "kind", "maturity", "source", "description", "triggerKeywords", "whenToUse", "useCount",
    "successCount", "failureCount", "consecutiveFailures", "lastUsedAt", "lastSuccessAt", "lastFailureAt",
    "offeredCount", "matchedCount", "createdAt", "callable", "isRecipe", "verification", "toolPolicy",
    "revisionCount", "repairAttempts", "fromDisk", "score", "jsonErrors", "damaged",
}  # fmt: skip
MESSAGE_KEYS = {"id", "sessionId", "role", "content", "timestamp", "originSessionId", "damaged"}
NOTE_KEYS = {
    "id",
    "content",
    "importance",
    "sessionId",
    "createdAt",
    "lastAccessedAt",
    "forgottenAt",
    "rootPursuitId",
    "damaged",
}


@pytest.fixture
def db_copy(demo_db_path, tmp_path) -> Path:
    """A private copy of the demo database (the session fixture is shared read-only)."""
    dest = tmp_path / "memory" / "memory.sqlite"
    dest.parent.mkdir(mode=0o700)
    shutil.copyfile(demo_db_path, dest)
    os.chmod(dest, 0o600)
    return dest


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


WRITE_COMMANDS = ("undo", "redo", "task", "event", "restore")


def run_json(capsys, db: Path, *argv: str):
    """``--json`` output of a command; reading commands run at NOW (writes record the current time)."""
    writes = argv[0] in WRITE_COMMANDS or "--write" in argv
    code, out, err = run(capsys, "--db", str(db), "--json", *([] if writes else NOW_ARGS), *argv)
    assert code == 0, err
    assert err == ""
    return json.loads(out)


def assert_one_error_line(err: str, text: str | None = None) -> None:
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("philont-memory: error: ")
    if text is not None:
        assert text in err


# --------------------------------------------------------------------------------------------------
# Read commands and their JSON shapes
# --------------------------------------------------------------------------------------------------


def test_info(capsys, demo_db_path):
    info = run_json(capsys, demo_db_path, "info")
    assert set(info) == {
        "path", "engine", "sqlite_version", "schema_version", "schema_version_raw", "schema_status",
        "journal_mode", "read_only", "writable", "read_only_reason", "read_only_code", "read_only_params",
        "immutable", "quick_check", "complete", "missing", "row_counts", "tables", "warnings", "notices",
    }  # fmt: skip
    assert info["schema_version"] == 31
    assert (info["schema_version_raw"], info["schema_status"]) == ("31", "known")
    assert (info["read_only_code"], info["read_only_params"]) == (None, {})
    assert info["journal_mode"] == "wal"
    assert info["read_only"] is True and info["writable"] is True and info["read_only_reason"] is None
    assert info["quick_check"] == "ok" and info["complete"] is True
    assert set(info["missing"]) == {
        "tables",
        "peripheral_tables",
        "fts",
        "triggers",
        "indexes",
        "additive_columns",
    }
    assert all(v == [] for v in info["missing"].values())
    assert list(info["row_counts"]) == list(schema.CORE_TABLES)
    assert info["row_counts"]["memory_raw_messages"] == 3000
    groups = info["tables"]
    assert list(groups) == ["memory", "agent", "project", "search", "sqlite", "unknown"]
    assert [t["name"] for t in groups["memory"]] == sorted(schema.CORE_TABLES)
    assert {"name": "memory_raw_messages", "rows": 3000, "virtual": False} in groups["memory"]
    assert {"memory_pursuits", "routing_rules", "reasoning_nodes"} <= {t["name"] for t in groups["agent"]}
    assert [t["name"] for t in groups["project"]] == [schema.AUDIT_TABLE]
    assert {"name": "memory_notes_fts", "rows": None, "virtual": True} in groups["search"]
    assert groups["unknown"] == []
    code, out, err = run(capsys, "--db", str(demo_db_path), "info")
    assert code == 0 and err == ""
    assert "schema version  31" in out and "memory_raw_messages    3000" in out
    assert "agent tables" in out and "unknown tables" not in out


def test_global_options_are_also_accepted_after_the_command(capsys, demo_db_path):
    code, out, _err = run(capsys, "info", "--db", str(demo_db_path), "--json")
    assert code == 0 and json.loads(out)["row_counts"]["memory_raw_messages"] == 3000


def test_search_messages(capsys, demo_db_path):
    res = run_json(capsys, demo_db_path, "search", "数据库", "--limit", "5")
    assert set(res) == {"layer", "query", "count", "results"}
    assert (res["layer"], res["query"], res["count"]) == ("messages", "数据库", 5)
    assert all(set(m) == MESSAGE_KEYS and "数据库" in m["content"] for m in res["results"])
    times = [m["timestamp"] for m in res["results"]]
    assert times == sorted(times, reverse=True)
    # Default limit 20; a 2-character Chinese word goes through the LIKE fallback.
    res = run_json(capsys, demo_db_path, "search", "旺财")
    assert res["count"] == 20 and all("旺财" in m["content"] for m in res["results"])


def test_search_messages_filters(capsys, demo_db_path):
    everything = run_json(capsys, demo_db_path, "search", "update", "--limit", "3000")["results"]
    session = next(m["sessionId"] for m in everything if m["sessionId"].startswith("sess-"))
    res = run_json(capsys, demo_db_path, "search", "update", "--session", session, "--session", "nope")
    assert res["results"] and {m["sessionId"] for m in res["results"]} == {session}
    since, until = "2026-05-01T00:00:00Z", "2026-05-15T00:00:00Z"
    res = run_json(
        capsys, demo_db_path, "search", "update", "--since", since, "--until", str(parse_time(until))
    )
    assert res["results"]
    assert all(parse_time(since) <= m["timestamp"] <= parse_time(until) for m in res["results"])


def test_search_notes_and_skills(capsys, demo_db_path):
    notes = run_json(capsys, demo_db_path, "search", "旺财", "--layer", "notes", "--limit", "3")
    assert notes["layer"] == "notes" and 0 < notes["count"] <= 3
    assert all(set(n) == NOTE_KEYS and "旺财" in n["content"] for n in notes["results"])
    skills = run_json(capsys, demo_db_path, "search", "deploy", "--layer", "skills")
    assert 3 < skills["count"] == len(skills["results"]) <= 20
    assert (
        run_json(capsys, demo_db_path, "search", "deploy", "--layer", "skills", "--limit", "3")["count"] == 3
    )
    assert all(set(s) == SKILL_KEYS and s["maturity"] != "deprecated" for s in skills["results"])
    scores = [s["score"] for s in skills["results"]]
    assert scores == sorted(scores, reverse=True)


def test_search_text_output(capsys, demo_db_path):
    code, out, _ = run(capsys, "--db", str(demo_db_path), "search", "数据库", "--limit", "2")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 3 and lines[-1] == "(2 results)"
    assert re.match(r"#\d+  2026-\d\d-\d\dT[\d:.]+Z  \[", lines[0])


def test_facts(capsys, demo_db_path):
    res = run_json(capsys, demo_db_path, "facts")
    assert set(res) == {"now", "namespace", "include_inactive", "facts"}
    assert res["now"] == NOW and res["include_inactive"] is False
    facts = res["facts"]
    assert all(set(f) == FACT_KEYS for f in facts)
    assert all(f["status"] == "active" for f in facts)
    name = next(f for f in facts if (f["namespace"], f["key"]) == ("user", "name"))
    assert (name["tauDays"], name["tauSource"], name["score"], name["pinned"]) == (
        None,
        "namespace",
        1,
        False,
    )
    main_db = next(f for f in facts if (f["namespace"], f["key"]) == ("project", "main_db"))
    assert main_db["pinned"] is True and main_db["tauSource"] == "pinned" and main_db["score"] == 1
    seat = next(f for f in facts if (f["namespace"], f["key"]) == ("travel", "preferred_seat"))
    assert seat["tauSource"] == "custom" and seat["tauDays"] == 30
    # exp(-80/30): created 80 days before --now, never accessed.
    assert seat["score"] == pytest.approx(0.0694834512228, rel=1e-9)


def test_facts_namespace_and_inactive(capsys, demo_db_path):
    project = run_json(capsys, demo_db_path, "facts", "--namespace", "project")["facts"]
    assert {f["namespace"] for f in project} == {"project"}
    keys = [f["key"] for f in project]
    assert keys == sorted(keys, key=lambda k: k.encode())
    everything = run_json(capsys, demo_db_path, "facts", "--namespace", "project", "--include-inactive")[
        "facts"
    ]
    statuses = {f["status"] for f in everything}
    assert "superseded" in statuses and len(everything) > len(project)


def test_forget_candidates(capsys, demo_db_path):
    res = run_json(capsys, demo_db_path, "forget-candidates", "--threshold", "0.1", "--limit", "7")
    assert set(res) == {"now", "threshold", "limit", "namespace", "candidates"}
    assert (res["threshold"], res["limit"], res["namespace"]) == (0.1, 7, None)
    cands = res["candidates"]
    assert len(cands) == 7
    assert all(set(c) == {"fact", "score"} and set(c["fact"]) == FACT_KEYS for c in cands)
    scores = [c["score"] for c in cands]
    assert scores == sorted(scores) and all(s < 0.1 for s in scores)
    assert all(not c["fact"]["pinned"] and c["fact"]["status"] == "active" for c in cands)
    ctx = run_json(capsys, demo_db_path, "forget-candidates", "--namespace", "context")
    assert ctx["candidates"] and {c["fact"]["namespace"] for c in ctx["candidates"]} == {"context"}


def test_history(capsys, demo_db_path):
    res = run_json(capsys, demo_db_path, "history", "project", "deploy_target")
    assert set(res) == {"namespace", "key", "versions"}
    versions = res["versions"]
    assert [v["value"] for v in versions] == ["k8s (ACK 杭州)", "fly.io", "heroku"]
    assert [v["status"] for v in versions] == ["active", "superseded", "superseded"]
    assert versions[0]["supersedes"] == versions[1]["id"]


def test_skills(capsys, demo_db_path):
    res = run_json(capsys, demo_db_path, "skills")
    assert set(res) == {"now", "skills"}
    skills = {s["name"]: s for s in res["skills"]}
    assert all(set(s) == SKILL_KEYS for s in skills.values())
    assert {s["maturity"] for s in skills.values()} == {
        "playbook",
        "draft",
        "confirmed",
        "stable",
        "deprecated",
    }
    bg = skills["deploy-blue-green"]
    assert bg["isRecipe"] and bg["revisionCount"] >= 2 and bg["callable"] and bg["maturity"] == "stable"
    assert all(s["callable"] == (s["maturity"] in ("draft", "confirmed", "stable")) for s in skills.values())
    code, out, _ = run(capsys, "--db", str(demo_db_path), *NOW_ARGS, "skills")
    assert code == 0 and "deploy-blue-green  [stable, positive, callable, recipe r2]" in out


def test_check(capsys, demo_db_path):
    res = run_json(capsys, demo_db_path, "check")
    assert res == {
        "path": str(demo_db_path),
        "quick_check": "ok",
        "integrity_check": "ok",
        "fts": [],
        "ok": True,
    }
    res = run_json(capsys, demo_db_path, "check", "--quick")
    assert res["integrity_check"] is None and res["ok"] is True


def test_check_reports_fts_drift(capsys, db_copy):
    conn = sqlite3.connect(db_copy, isolation_level=None)
    conn.execute("DROP TRIGGER memory_raw_messages_ai")
    conn.execute(
        "INSERT INTO memory_raw_messages (session_id, role, content, timestamp) VALUES ('global', 'user', 'x', 1)"
    )
    conn.close()
    code, out, err = run(capsys, "--db", str(db_copy), "--json", "check", "--quick")
    assert code == 1
    res = json.loads(out)
    assert res["ok"] is False and res["quick_check"] == "ok"
    assert res["fts"] == [
        "memory_raw_messages_fts: the index has 3000 rows, memory_raw_messages has 3001 "
        "(1 not indexed, 0 indexed without a content row)"
    ]
    assert_one_error_line(err, "check failed: memory_raw_messages_fts: the index has 3000 rows")


def test_context_json_shape(capsys, demo_db_path):
    res = run_json(capsys, demo_db_path, "context", "数据库迁移", "--host-os", "linux", "--recent-limit", "5")
    assert set(res) == {"prefix", "sections", "recall_trigger", "timeline", "recall", "damaged_rows"}
    assert res["recall"]["mode"] == "fts" and res["recall"]["reason"]["code"] == "recall.found"
    assert res["prefix"].startswith("\n\n[Memory layer — the following is already known")
    assert all(set(s) == {"name", "text", "chars", "tokens"} for s in res["sections"])
    names = [s["name"] for s in res["sections"]]
    assert names[0] == "runtime" and "user_facts" in names and "skill_index" in names
    assert res["sections"][0]["text"] == "## Runtime environment\nHost OS: **linux** (POSIX sh/bash).\n"
    assert res["recall_trigger"] is None
    tl = res["timeline"]
    assert set(tl) == {"messages", "totalTokens", "recencyCount", "recallCount", "excluded"}
    assert all(set(m) == {"id", "role", "content", "timestamp", "section"} for m in tl["messages"])
    assert all(set(e) == {"id", "reason"} for e in tl["excluded"])
    sections = [m["section"] for m in tl["messages"]]
    assert sections[0] == "recall" and sections[-1] == "recent" and sections.count("separator") == 1
    assert tl["recencyCount"] <= 5 and tl["recallCount"] >= 1
    assert {m["role"] for m in tl["messages"]} <= {"user", "assistant"}


def test_context_recall_trigger(capsys, demo_db_path):
    res = run_json(capsys, demo_db_path, "context", "上次讨论过的数据库迁移方案还记得吗？")
    assert res["recall_trigger"] == {"hit": True, "snippet": "上次讨论过", "pattern": "Z1"}
    code, out, _ = run(capsys, "--db", str(demo_db_path), *NOW_ARGS, "context", "上次讨论过的方案")
    assert code == 0 and "=== recall trigger: hit Z1 '上次讨论过' ===" in out
    assert '## ⚠️ 用户在引用过去对话(命中"上次讨论过")' in out


def test_context_empty_message_has_no_recall(capsys, demo_db_path):
    res = run_json(capsys, demo_db_path, "context", "", "--recent-limit", "3")
    assert res["recall_trigger"] is None
    tl = res["timeline"]
    assert tl["recallCount"] == 0 and tl["recencyCount"] == 3
    assert {m["section"] for m in tl["messages"]} == {"recent"}
    code, out, _ = run(capsys, "--db", str(demo_db_path), *NOW_ARGS, "context", "", "--recent-limit", "3")
    assert code == 0 and "=== recall trigger: no hit ===" in out and "[End of memory layer]" in out


def test_context_session_restriction(capsys, demo_db_path):
    conn = sqlite3.connect(f"file:{demo_db_path}?mode=ro", uri=True)
    sid = conn.execute(
        "SELECT id FROM memory_raw_sessions WHERE id LIKE 'system:scheduled:%' LIMIT 1"
    ).fetchone()[0]
    own = {r[0] for r in conn.execute("SELECT id FROM memory_raw_messages WHERE session_id = ?", (sid,))}
    conn.close()
    res = run_json(capsys, demo_db_path, "context", "daily digest", "--session", sid)
    ids = {m["id"] for m in res["timeline"]["messages"] if m["id"] is not None}
    assert ids and ids <= own


def test_recall_trigger(capsys):
    code, out, err = run(capsys, "--json", "recall-trigger", "我刚才说搞不定就算了…")
    assert (code, err) == (0, "")
    assert json.loads(out) == {"hit": True, "snippet": "我刚才说", "pattern": "Z3"}
    code, out, _ = run(capsys, "--json", "recall-trigger", "Please remember to buy milk")
    assert json.loads(out) is None
    code, out, _ = run(capsys, "recall-trigger", "As we said previously, the index helps")
    assert out == "hit E2: we said previously\n"
    code, out, _ = run(capsys, "recall-trigger", "他说过")
    assert out == "no hit\n"


def test_tool_read(capsys, demo_db_path):
    res = run_json(capsys, demo_db_path, "tool", "get_fact", '{"namespace":"user","key":"city"}')
    assert res["success"] is True and res["output"].startswith('"杭州" [state ? → ∞ | recorded ')
    assert set(res) == {"success", "output", "data"}
    code, out, err = run(
        capsys, "--db", str(demo_db_path), "tool", "list_facts", '{"namespace":"project.mycox"}'
    )
    assert code == 0 and err == "" and 'project.mycox.billing_owner = "Alice"  [state' in out


def test_tool_failure_and_bad_arguments(capsys, demo_db_path):
    code, out, err = run(
        capsys, "--db", str(demo_db_path), "--json", "tool", "get_fact", '{"namespace":"user","key":"zzz"}'
    )
    assert code == 1
    assert json.loads(out) == {"success": False, "error": "Not found: user.zzz"}
    assert_one_error_line(err, "Not found: user.zzz")
    code, out, err = run(capsys, "--db", str(demo_db_path), "tool", "get_fact", "{not json")
    assert code == 1 and out == ""
    assert_one_error_line(err, "Invalid JSON arguments for get_fact")
    code, out, err = run(capsys, "--db", str(demo_db_path), "tool", "no_such_tool")
    assert code == 2 and out == ""
    assert_one_error_line(err, "unknown tool 'no_such_tool'")


def test_write_tool_needs_write_flag(capsys, db_copy):
    before = db_copy.read_bytes()
    code, out, err = run(
        capsys, "--db", str(db_copy), "tool", "store_fact", '{"namespace":"user","key":"tea","value":"龙井"}'
    )
    assert code == 2 and out == ""
    assert_one_error_line(err, "store_fact writes to the memory; run it with --write")
    assert db_copy.read_bytes() == before


def test_write_tool_with_write_flag(capsys, db_copy):
    res = run_json(
        capsys, db_copy, "tool", "store_fact", '{"namespace":"user","key":"tea","value":"龙井"}', "--write"
    )
    assert res["success"] is True and res["output"].startswith("Stored user.tea [state ? → ∞ | recorded ")
    backups = list((db_copy.parent / "backups").iterdir())
    assert len(backups) == 1 and re.fullmatch(r"philont-desktop-memory-\d{8}T\d{6}\.sqlite", backups[0].name)
    res = run_json(capsys, db_copy, "tool", "get_fact", '{"namespace":"user","key":"tea"}')
    assert res["output"].startswith('"龙井" ')


def test_tools(capsys):
    code, out, _ = run(capsys, "tools", "--schema")
    schemas = json.loads(out)
    assert code == 0 and len(schemas) == 11
    assert all(set(s) == {"type", "function"} and s["type"] == "function" for s in schemas)
    assert all(set(s["function"]) == {"name", "description", "parameters"} for s in schemas)
    assert schemas[0]["function"]["name"] == "store_fact"
    rows = json.loads(run(capsys, "--json", "tools")[1])
    assert [set(r) for r in rows] == [{"name", "description", "capability"}] * 11
    assert {r["name"]: r["capability"] for r in rows}["store_fact"] == "write"
    code, out, _ = run(capsys, "tools")
    assert code == 0 and out.splitlines()[1].startswith("get_fact               read   ")


def test_backup(capsys, db_copy):
    res = run_json(capsys, db_copy, "backup")
    assert set(res) == {"path", "backup", "bytes"}
    dest = Path(res["backup"])
    assert dest.parent == db_copy.parent / "backups"
    assert re.fullmatch(r"philont-desktop-memory-\d{8}T\d{6}\.sqlite", dest.name)
    assert dest.stat().st_mode & 0o777 == 0o600 and res["bytes"] == dest.stat().st_size
    conn = sqlite3.connect(f"file:{dest}?mode=ro", uri=True)
    assert conn.execute("SELECT count(*) FROM memory_raw_messages").fetchone()[0] == 3000
    conn.close()


def test_demo_command(capsys, tmp_path):
    out_path = tmp_path / "demo" / "memory.sqlite"
    res = run_json(capsys, Path("unused"), "demo", "--out", str(out_path), "--messages", "200", "--seed", "5")
    assert set(res) == {
        "path", "seed", "now", "span_days", "messages", "sessions", "actions", "notes", "facts", "skills",
        "calendar_events", "schedules", "seconds", "phases",
    }  # fmt: skip
    assert (res["path"], res["seed"], res["now"], res["messages"]) == (str(out_path), 5, NOW, 200)
    code, out, err = run(capsys, "demo", "--out", str(out_path))
    assert code == 1 and out == ""
    assert_one_error_line(err, "A file already exists at this path; it was left alone")


def test_python_dash_m_core(demo_db_path):
    proc = subprocess.run(
        [sys.executable, "-m", "core", "--db", str(demo_db_path), "--json", "info"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=Path(__file__).resolve().parents[2],
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["row_counts"]["memory_raw_messages"] == 3000


# --------------------------------------------------------------------------------------------------
# Errors: non-zero exit, one line on stderr, nothing written
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "text"),
    [
        (None, "No database file exists at this path."),
        (b"", "The file is empty (0 bytes)"),
        (b"hello, not a database at all" * 10, "This is not an SQLite database"),
    ],
)
def test_unusable_files(capsys, tmp_path, content, text):
    path = tmp_path / "memory.sqlite"
    if content is not None:
        path.write_bytes(content)
    for argv in (["info"], ["search", "x"], ["facts"], ["context", "hi"], ["check"], ["backup"]):
        code, out, err = run(capsys, "--db", str(path), *argv)
        assert code == 1 and out == ""
        assert_one_error_line(err, text)
    assert sorted(p.name for p in tmp_path.iterdir()) == ([] if content is None else ["memory.sqlite"])
    if content is not None:
        assert path.read_bytes() == content


def test_corrupt_file_names_the_newest_good_backup(capsys, db_copy):
    run_json(capsys, db_copy, "backup")
    good = next((db_copy.parent / "backups").iterdir())
    data = bytearray(db_copy.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)  # wreck the schema page
    db_copy.write_bytes(bytes(data))
    code, out, err = run(capsys, "--db", str(db_copy), "info")
    assert code == 1 and out == ""
    assert_one_error_line(err, f"The newest backup that passes quick_check is {good} (written by this app).")
    assert db_copy.read_bytes() == bytes(data)
    # An agent's backup, newer than ours, is named first, and said to be the agent's.
    agent = good.parent / "memory-29990101T000000.sqlite"
    shutil.copyfile(good, agent)
    code, out, err = run(capsys, "--db", str(db_copy), "info")
    assert_one_error_line(err, f"The newest backup that passes quick_check is {agent} (the agent's).")


@pytest.mark.parametrize(
    ("argv", "text"),
    [
        ([], "the following arguments are required: COMMAND"),
        (["search"], "the following arguments are required: QUERY"),
        (["search", "x", "--layer", "facts"], "argument --layer: invalid choice: 'facts'"),
        (["search", "x", "--limit", "0"], "argument --limit: must be at least 1: '0'"),
        (
            ["search", "x", "--since", "someday"],
            "--since: not an ISO 8601 time or epoch milliseconds: 'someday'",
        ),
        (["search", "x", "--layer", "notes", "--session", "s"], "apply only to --layer messages"),
        (["--now", "yesterday", "facts"], "--now: not an ISO 8601 time or epoch milliseconds: 'yesterday'"),
        (["context", "hi", "--host-os", "beos"], "argument --host-os: invalid choice: 'beos'"),
        (["nope"], "argument COMMAND: invalid choice: 'nope'"),
    ],
)
def test_usage_errors(capsys, demo_db_path, argv, text):
    code, out, err = run(capsys, "--db", str(demo_db_path), *argv)
    assert code == 2 and out == ""
    assert_one_error_line(err, text)


def test_history_of_an_unknown_fact(capsys, demo_db_path):
    code, out, err = run(capsys, "--db", str(demo_db_path), "--json", "history", "user", "nope")
    assert code == 1 and out == ""
    assert_one_error_line(err, "no fact user.nope")


def test_newer_schema_is_read_but_never_written(capsys, db_copy):
    conn = sqlite3.connect(db_copy, isolation_level=None)
    conn.execute("UPDATE memory_meta SET value = '51' WHERE key = 'schema_version'")
    conn.close()
    info = run_json(capsys, db_copy, "info")
    assert info["schema_version"] == 51 and info["writable"] is False
    assert "newer than 50" in info["read_only_reason"]
    before = db_copy.read_bytes()
    code, out, err = run(capsys, "--db", str(db_copy), "tool", "store_fact", '{"namespace":"a","key":"b","value":1}',
                         "--write")  # fmt: skip
    assert code == 1 and out == ""
    assert_one_error_line(err, "writing is refused")
    assert db_copy.read_bytes() == before
    assert not (db_copy.parent / "backups").exists()


def test_parse_time():
    assert parse_time("1781524800000") == NOW
    assert parse_time("2026-06-15T12:00:00.000Z") == NOW
    assert parse_time("2026-06-15") == NOW - 12 * 3_600_000  # a date alone is UTC midnight
    with pytest.raises(Exception, match="not an ISO 8601 time"):
        parse_time("soon")


# --------------------------------------------------------------------------------------------------
# Read-only guarantee
# --------------------------------------------------------------------------------------------------


def _fingerprint(path: Path) -> tuple[str, str]:
    """Hashes of the database file and of its -wal (a missing -wal holds no bytes, like an empty one)."""
    wal = Path(str(path) + "-wal")
    return (
        hashlib.sha256(path.read_bytes()).hexdigest(),
        hashlib.sha256(wal.read_bytes() if wal.exists() else b"").hexdigest(),
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["info"],
        ["search", "数据库"],
        ["search", "旺财", "--layer", "notes"],
        ["search", "deploy", "--layer", "skills"],
        ["facts", "--include-inactive"],
        ["forget-candidates"],
        ["history", "project", "deploy_target"],
        ["skills"],
        ["check"],
        ["context", "remember when we talked about the backup rotation?"],
        ["tool", "get_fact", '{"namespace":"self","key":"summary"}'],
        ["tool", "use_skill", '{"name":"deploy-blue-green"}'],
        ["tool", "recall_sessions", '{"query":"数据库"}'],
    ],
)
def test_read_commands_leave_the_files_unchanged(capsys, db_copy, argv):
    before = _fingerprint(db_copy)
    mtime = db_copy.stat().st_mtime_ns
    code, _out, err = run(capsys, "--db", str(db_copy), "--json", *NOW_ARGS, *argv)
    assert code == 0, err
    assert _fingerprint(db_copy) == before
    assert db_copy.stat().st_mtime_ns == mtime
    assert not (db_copy.parent / "backups").exists()


def test_read_only_with_a_live_wal(capsys, db_copy):
    """A database with committed pages still in its -wal (a running agent): both files keep their bytes."""
    writer = sqlite3.connect(db_copy, isolation_level=None)
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute(
        "INSERT INTO memory_raw_messages (session_id, role, content, timestamp) "
        "VALUES ('global', 'user', 'a fresh zeppelin sighting', ?)",
        (NOW,),
    )
    try:
        before = _fingerprint(db_copy)
        assert Path(str(db_copy) + "-wal").stat().st_size > 0
        for argv in (["info"], ["search", "zeppelin sighting"], ["facts"], ["context", "zeppelin?"],
                     ["tool", "get_fact", '{"namespace":"user","key":"city"}']):  # fmt: skip
            code, out, err = run(capsys, "--db", str(db_copy), "--json", *NOW_ARGS, *argv)
            assert code == 0, err
            if argv[0] == "search":
                assert json.loads(out)["results"][0]["content"] == "a fresh zeppelin sighting"
            assert _fingerprint(db_copy) == before
    finally:
        writer.close()


# --------------------------------------------------------------------------------------------------
# upcoming, export, backups, restore, audit, undo/redo, task, event
# --------------------------------------------------------------------------------------------------

UPCOMING_KEYS = {
    "kind", "title", "at", "atIso", "timezone", "rrule", "actionType", "overdue", "sourceId", "endsAt",
    "cronExpr", "project", "message", "payloadError",
}  # fmt: skip
AUDIT_KEYS = {
    "id", "at", "actor", "action", "targetType", "targetId", "before", "after", "undoneOf", "note", "undone",
    "originalAction", "summary", "jsonErrors",
}  # fmt: skip
BACKUP_KEYS = {"name", "path", "owner", "createdAt", "age", "size", "kind", "quickCheck"}


def _row_id(db: Path, sql: str) -> str:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return conn.execute(sql).fetchone()[0]
    finally:
        conn.close()


def _task_id(db: Path, name: str = "backup-check") -> str:
    return _row_id(db, f"SELECT id FROM memory_schedules WHERE name = '{name}' AND enabled = 1")


def _event_id(db: Path, title: str = "Dentist") -> str:
    return _row_id(db, f"SELECT id FROM memory_calendar WHERE title = '{title}'")


def _enabled(db: Path, sched_id: str) -> int | None:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        row = conn.execute("SELECT enabled FROM memory_schedules WHERE id = ?", (sched_id,)).fetchone()
    finally:
        conn.close()
    return None if row is None else row[0]


def _backups(db: Path) -> list[str]:
    d = db.parent / "backups"
    return sorted(p.name for p in d.iterdir()) if d.exists() else []


def _mode(p: Path) -> int:
    return p.stat().st_mode & 0o777


def test_upcoming_agent_text_is_what_list_upcoming_prints(capsys, demo_db_path):
    from core.db import MemoryDB
    from core.tools import run_tool

    with MemoryDB.open(demo_db_path) as db:
        week = run_tool(db, "list_upcoming", {}, now=NOW).output
        two_days = run_tool(db, "list_upcoming", {"window_days": 2}, now=NOW).output
    code, out, err = run(capsys, "--db", str(demo_db_path), *NOW_ARGS, "upcoming", "--agent")
    assert (code, err) == (0, "") and out == week + "\n"
    code, out, _ = run(capsys, "--db", str(demo_db_path), *NOW_ARGS, "upcoming", "--days", "2", "--agent")
    assert out == two_days + "\n"
    lines = out.splitlines()
    assert lines[0] == (
        "- [event] Daily standup @ 2026-06-16T01:00:00.000Z (Asia/Shanghai, FREQ=DAILY;INTERVAL=1;COUNT=200)"
    )
    assert "- [task] 交房租 @ 2026-06-14T12:00:00.000Z (prompt)" in lines


def test_upcoming_text_says_repetitions_in_words(capsys, demo_db_path):
    code, out, err = run(capsys, "--db", str(demo_db_path), *NOW_ARGS, "upcoming", "--days", "2")
    lines = out.splitlines()
    assert (code, err) == (0, "")
    assert (
        lines[0] == "- [event] Daily standup @ 2026-06-16T01:00:00.000Z (Asia/Shanghai, every day, 200 times)"
    )
    assert "- [task] 交房租 @ 2026-06-14T12:00:00.000Z (prompt, once, overdue)" in lines
    assert not any("FREQ=" in line or "interval:" in line for line in lines)


def test_repeat_words_in_english():
    from core.cli.upcoming import _repeat_words
    from core.repeats import Repeat

    assert _repeat_words(Repeat("once")) == "once"
    assert _repeat_words(Repeat("every", "hour", 6)) == "every 6 hours"
    assert _repeat_words(Repeat("every", "week", 1, weekday=1, count=1)) == "weekly on Monday, 1 time"
    assert (
        _repeat_words(Repeat("every", "week", 2, weekday=3, until=1_803_859_200_000, until_date_only=True))
        == "every 2 weeks on Wednesday until 2027-03-01"
    )
    assert _repeat_words(Repeat("unparsed", text="FREQ=YEARLY")) == "once (rule not understood: FREQ=YEARLY)"


def test_fact_and_skill_lines_say_scores_in_decimals_and_tau_with_its_unit(capsys, demo_db_path):
    code, out, _ = run(capsys, "--db", str(demo_db_path), *NOW_ARGS, "facts")
    assert code == 0
    facts = out.splitlines()[:-1]
    assert not any(re.search(r"e-\d", line) for line in facts)  # never "score 3.595e-13"
    assert all(re.search(r"score (\d\.\d{3}|<0\.001)[,\]]", line) for line in facts), facts
    assert all(re.search(r"tau (\d+(\.\d+)? d|∞) \((namespace|custom|pinned)\)", line) for line in facts)
    assert any("tau ∞ (pinned), score 1.000" in line for line in facts)
    assert any(" d (namespace), score <0.001," in line for line in facts)
    code, out, _ = run(capsys, "--db", str(demo_db_path), *NOW_ARGS, "skills")
    assert all(re.search(r"score \d\.\d{3}$|score <0\.001$", line) for line in out.splitlines()[:-1])


def test_upcoming_json(capsys, demo_db_path):
    res = run_json(capsys, demo_db_path, "upcoming", "--days", "2")
    assert set(res) == {"now", "window_days", "items"}
    assert (res["now"], res["window_days"]) == (NOW, 2)
    items = res["items"]
    assert items and all(set(i) == UPCOMING_KEYS for i in items)
    kinds = [i["kind"] for i in items]
    assert kinds == sorted(kinds)  # events first, then tasks
    assert all(i["at"] <= NOW + 2 * 86_400_000 for i in items)
    rent = next(i for i in items if i["title"] == "交房租")
    assert (rent["kind"], rent["overdue"], rent["atIso"], rent["actionType"]) == (
        "task",
        True,
        "2026-06-14T12:00:00.000Z",
        "prompt",
    )
    standup = items[0]
    assert (standup["title"], standup["at"], standup["overdue"]) == ("Daily standup", 1781571600000, False)
    assert run_json(capsys, demo_db_path, "upcoming")["window_days"] == 7
    assert run_json(capsys, demo_db_path, "upcoming", "--days", "500")["window_days"] == 90
    assert run_json(capsys, demo_db_path, "upcoming", "--days", "0")["window_days"] == 1


def test_upcoming_on_an_empty_database(capsys, tmp_path):
    from core.db import MemoryDB

    path = tmp_path / "memory.sqlite"
    MemoryDB.create(path, now=NOW).close()
    code, out, _ = run(capsys, "--db", str(path), *NOW_ARGS, "upcoming", "--days", "3")
    assert code == 0 and out == "No events in the next 3 days\n"
    assert run_json(capsys, path, "upcoming")["items"] == []


def test_export_formats_and_0600(capsys, demo_db_path, tmp_path):
    jsonl = tmp_path / "messages.jsonl"
    res = run_json(capsys, demo_db_path, "export", "messages", str(jsonl))
    assert set(res) == {"path", "layer", "format", "rows", "bytes", "columns", "damaged_rows"}
    assert (res["path"], res["layer"], res["format"], res["rows"]) == (str(jsonl), "messages", "jsonl", 3000)
    assert res["columns"] == ["id", "session_id", "role", "content", "timestamp", "origin_session_id"]
    assert _mode(jsonl) == 0o600 and res["bytes"] == jsonl.stat().st_size
    rows = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 3000 and set(rows[0]) == set(res["columns"])
    # The format follows OUT's extension unless --format says otherwise.
    csv_path = tmp_path / "facts.csv"
    res = run_json(capsys, demo_db_path, "export", "facts", str(csv_path), "--bom")
    data = csv_path.read_bytes()
    assert res["format"] == "csv" and data.startswith(b"\xef\xbb\xbfid,namespace,key,")
    assert _mode(csv_path) == 0o600 and res["bytes"] == len(data)
    as_json = tmp_path / "skills.txt"
    res = run_json(capsys, demo_db_path, "export", "skills", str(as_json), "--format", "json")
    skills = json.loads(as_json.read_text(encoding="utf-8"))
    assert res["format"] == "json" and len(skills) == res["rows"] > 0
    assert isinstance(skills[0]["trigger_keywords"], list)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["facts.csv", "messages.jsonl", "skills.txt"]
    code, out, err = run(capsys, "--db", str(demo_db_path), "export", "notes", str(tmp_path / "n.jsonl"))
    assert (
        code == 0
        and err == ""
        and re.fullmatch(r"wrote \d+ rows of notes to .*n\.jsonl \(jsonl, \d+ bytes\)\n", out)
    )


def test_export_filters(capsys, demo_db_path, tmp_path):
    conn = sqlite3.connect(f"file:{demo_db_path}?mode=ro", uri=True)
    sid = conn.execute(
        "SELECT session_id FROM memory_raw_messages WHERE session_id LIKE 'sess-%' LIMIT 1"
    ).fetchone()[0]
    in_session = conn.execute(
        "SELECT count(*) FROM memory_raw_messages WHERE session_id = ?", (sid,)
    ).fetchone()
    since, until = parse_time("2026-05-01T00:00:00Z"), parse_time("2026-05-15T00:00:00Z")
    in_window = conn.execute(
        "SELECT count(*) FROM memory_raw_messages WHERE timestamp BETWEEN ? AND ?", (since, until)
    ).fetchone()
    conn.close()
    out = tmp_path / "s.jsonl"
    res = run_json(
        capsys, demo_db_path, "export", "messages", str(out), "--session", sid, "--session", "nope"
    )
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert res["rows"] == in_session[0] == len(rows) > 0 and {r["session_id"] for r in rows} == {sid}
    out = tmp_path / "w.jsonl"
    res = run_json(
        capsys,
        demo_db_path,
        "export",
        "messages",
        str(out),
        "--since",
        "2026-05-01T00:00:00Z",
        "--until",
        str(until),
    )
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert res["rows"] == in_window[0] == len(rows) > 0
    assert all(since <= r["timestamp"] <= until for r in rows)


def test_export_refusals(capsys, demo_db_path, tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_bytes(b"keep me")
    code, stdout, err = run(capsys, "--db", str(demo_db_path), "export", "notes", str(out))
    assert code == 1 and stdout == ""
    assert_one_error_line(err, "already exists; it was left alone (--force replaces it)")
    assert out.read_bytes() == b"keep me"
    res = run_json(capsys, demo_db_path, "export", "notes", str(out), "--force")
    assert res["rows"] > 0 and out.read_bytes() != b"keep me" and _mode(out) == 0o600
    for argv, text in (
        (["export", "notes", str(demo_db_path), "--force"], "is the database itself"),
        (["export", "facts", str(tmp_path / "f.jsonl"), "--session", "s"], "--session does not apply to the facts layer"),
        (["export", "bogus", str(tmp_path / "b.jsonl")], "argument LAYER: invalid choice: 'bogus'"),
        (["export", "notes", str(tmp_path / "b.jsonl"), "--format", "xml"], "argument --format: invalid choice"),
        (["export", "notes", str(tmp_path / "b.jsonl"), "--since", "whenever"], "--since: not an ISO 8601 time"),
    ):  # fmt: skip
        code, stdout, err = run(capsys, "--db", str(demo_db_path), *argv)
        assert code == 2 and stdout == ""
        assert_one_error_line(err, text)
    code, stdout, err = run(
        capsys, "--db", str(demo_db_path), "export", "notes", str(tmp_path / "no" / "x.csv")
    )
    assert code == 1 and stdout == ""
    assert_one_error_line(err, "does not exist")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl"]


def test_export_from_an_unusable_file_writes_nothing(capsys, tmp_path):
    bad = tmp_path / "memory.sqlite"
    bad.write_bytes(b"hello, not a database at all" * 10)
    code, out, err = run(capsys, "--db", str(bad), "export", "messages", str(tmp_path / "m.jsonl"))
    assert code == 1 and out == ""
    assert_one_error_line(err, "This is not an SQLite database")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memory.sqlite"]


def test_backups(capsys, db_copy):
    res = run_json(capsys, db_copy, "backups")
    assert res == {
        "path": str(db_copy),
        "backups_dir": str(db_copy.parent / "backups"),
        "now": NOW,
        "checked": True,
        "backups": [],
    }
    made = Path(run_json(capsys, db_copy, "backup")["backup"])
    # A backup as the agent writes it: a copy whose header still says WAL, one second older.
    stamp = made.name[len("philont-desktop-memory-") :]
    agent_name = f"memory-{int(stamp[:8]) - 1:08d}T000000.sqlite"
    shutil.copyfile(db_copy, made.parent / agent_name)
    listing = sorted(p.name for p in made.parent.iterdir())
    res = run_json(capsys, db_copy, "backups")
    rows = res["backups"]
    assert [r["name"] for r in rows] == [made.name, agent_name]  # newest first
    assert all(set(r) == BACKUP_KEYS for r in rows)
    assert [(r["kind"], r["quickCheck"]) for r in rows] == [("rollback", "ok"), ("wal", "ok")]
    assert [r["owner"] for r in rows] == ["philont-desktop", "agent"]
    mine = rows[0]
    assert mine["path"] == str(made) and mine["size"] == made.stat().st_size
    assert mine["createdAt"] == parse_time(
        f"{stamp[:4]}-{stamp[4:6]}-{stamp[6:8]}T{stamp[9:11]}:{stamp[11:13]}:{stamp[13:15]}Z"
    )
    assert mine["age"] == NOW - mine["createdAt"]
    assert sorted(p.name for p in made.parent.iterdir()) == listing  # nothing written beside the backups
    res = run_json(capsys, db_copy, "backups", "--no-check")
    assert res["checked"] is False and [r["quickCheck"] for r in res["backups"]] == [None, None]
    code, out, _ = run(capsys, "--db", str(db_copy), "backups", "--no-check")
    lines = out.splitlines()
    assert code == 0 and lines[-1] == f"(2 backups in {made.parent})"
    assert (
        lines[0].startswith(f"{made.name}  this app  ")
        and "self-contained" in lines[0]
        and "not checked" in lines[0]
    )
    assert lines[1].split()[:2] == [agent_name, "agent"] and "agent (WAL)" in lines[1]
    assert lines[0].index("this app") == lines[1].index("agent  ")  # the names are padded to one width


def test_backups_work_when_the_database_cannot_be_opened(capsys, db_copy):
    run_json(capsys, db_copy, "backup")
    db_copy.write_bytes(b"")
    res = run_json(capsys, db_copy, "backups")
    assert len(res["backups"]) == 1 and res["backups"][0]["quickCheck"] == "ok"


def test_restore(capsys, db_copy):
    sched = _task_id(db_copy)
    backup = Path(run_json(capsys, db_copy, "backup")["backup"])
    run_json(capsys, db_copy, "task", "disable", sched)
    assert _enabled(db_copy, sched) == 0
    before = _fingerprint(db_copy)
    listing = _backups(db_copy)
    # Without --yes: a usage error that says what would happen; nothing is written.
    code, out, err = run(capsys, "--db", str(db_copy), "restore", backup.name)
    assert code == 2 and out == ""
    assert_one_error_line(err, f"restore replaces {db_copy} with {backup}")
    assert "The current file is kept in" in err and "--yes" in err
    assert _fingerprint(db_copy) == before and _backups(db_copy) == listing
    code, out, err = run(capsys, "--db", str(db_copy), "restore", "memory-20000101T000000.sqlite", "--yes")
    assert code == 1 and out == ""
    assert_one_error_line(err, "does not exist")
    res = run_json(capsys, db_copy, "restore", backup.name, "--yes")
    assert set(res) == {"path", "restored_from", "safety_backup", "problem", "damaged", "pages", "audit_id"}
    assert (res["problem"], res["damaged"]) == (None, [])
    assert (res["path"], res["restored_from"]) == (str(db_copy), str(backup))
    safety = Path(res["safety_backup"])
    assert safety.parent == backup.parent and safety != backup and _mode(safety) == 0o600
    assert _enabled(db_copy, sched) == 1 and _enabled(safety, sched) == 0
    assert _mode(db_copy) == 0o600
    # Text mode prints both paths (a path to the backup works as well as its name).
    code, out, err = run(capsys, "--db", str(db_copy), "restore", str(safety), "-y")
    assert code == 0 and err == ""
    first, second, third = out.splitlines()
    assert first == f"restored {db_copy} from {safety}"
    assert second.startswith(f"the replaced content is in {backup.parent}{os.sep}philont-desktop-memory-")
    assert third.startswith("audit entry #")
    assert _enabled(db_copy, sched) == 0


def test_restore_while_the_database_is_held_open_exits_3(capsys, db_copy):
    from core.db import MemoryDB

    backup = Path(run_json(capsys, db_copy, "backup")["backup"])
    listing = _backups(db_copy)
    agent = MemoryDB.open(db_copy)
    agent.conn.execute("SELECT count(*) FROM memory_notes").fetchone()
    try:
        before = _fingerprint(db_copy)
        code, out, err = run(capsys, "--db", str(db_copy), "--json", "restore", backup.name, "--yes")
        assert code == 3 and out == ""
        assert_one_error_line(err, "is open in another program (probably the agent)")
        assert "Nothing was changed." in err
        assert _fingerprint(db_copy) == before
    finally:
        agent.close()
    assert _backups(db_copy) == listing  # no safety backup either


def test_audit_without_an_audit_table(capsys, db_copy):
    conn = sqlite3.connect(db_copy, isolation_level=None)
    conn.execute("DROP TABLE philont_desktop_audit")
    conn.close()
    before = _fingerprint(db_copy)
    res = run_json(capsys, db_copy, "audit")
    assert res == {"limit": 100, "target_type": None, "target_id": None, "entries": []}
    code, out, _ = run(capsys, "--db", str(db_copy), "audit", "--target", "schedule:x")
    assert code == 0 and out == "(0 audit entries)\n"
    assert _fingerprint(db_copy) == before
    # The first audited edit creates the table (after the backup).
    run_json(capsys, db_copy, "task", "disable", _task_id(db_copy))
    assert [e["action"] for e in run_json(capsys, db_copy, "audit")["entries"]] == [
        "calendar.schedule_disable"
    ]


def test_task_disable_enable_delete_are_audited(capsys, db_copy):
    sched = _task_id(db_copy)
    t0 = now_ms()
    res = run_json(capsys, db_copy, "task", "disable", sched)
    t1 = now_ms()
    assert set(res) == {"entry", "backup", "backup_reused"} and res["backup_reused"] is False
    entry = res["entry"]
    assert set(entry) == AUDIT_KEYS
    assert (entry["action"], entry["targetType"], entry["targetId"]) == (
        "calendar.schedule_disable",
        "schedule",
        sched,
    )
    assert t0 <= entry["at"] <= t1  # the real time of the write, whatever --now says elsewhere
    assert entry["actor"].endswith("@philont-desktop")
    assert (entry["before"]["enabled"], entry["after"]["enabled"], entry["summary"]) == (1, 0, "enabled")
    assert (entry["undoneOf"], entry["undone"], entry["note"]) == (None, False, None)
    assert _enabled(db_copy, sched) == 0
    assert res["backup"] is not None and _backups(db_copy) == [Path(res["backup"]).name]
    assert _mode(Path(res["backup"])) == 0o600 and _enabled(Path(res["backup"]), sched) == 1
    first_backup = res["backup"]
    res = run_json(capsys, db_copy, "task", "enable", sched)
    assert res["entry"]["action"] == "calendar.schedule_enable" and _enabled(db_copy, sched) == 1
    assert (res["backup"], res["backup_reused"]) == (first_backup, True)  # the same run of edits
    code, out, err = run(capsys, "--db", str(db_copy), "task", "delete", sched)
    assert code == 0 and err == ""
    assert out == (
        f"deleted task 'backup-check' ({sched}): audit entry #3\n"
        f"no new backup: {first_backup}, taken less than 10 minutes ago, covers this run of edits\n"
    )
    assert _backups(db_copy) == [Path(first_backup).name]
    assert _enabled(db_copy, sched) is None
    trail = run_json(capsys, db_copy, "audit", "--target", f"schedule:{sched}")["entries"]
    assert [(e["id"], e["action"], e["summary"]) for e in trail] == [
        (3, "calendar.schedule_delete", "deleted"),
        (2, "calendar.schedule_enable", "enabled"),
        (1, "calendar.schedule_disable", "enabled"),
    ]
    assert [e["id"] for e in run_json(capsys, db_copy, "audit", "--limit", "1")["entries"]] == [3]
    assert run_json(capsys, db_copy, "audit", "--target", "calendar_event")["entries"] == []


def test_task_and_event_refusals_write_nothing(capsys, db_copy):
    sched = _task_id(db_copy)
    disabled = _row_id(db_copy, "SELECT id FROM memory_schedules WHERE enabled = 0 LIMIT 1")
    before = _fingerprint(db_copy)
    for argv, status, text in (
        (["task", "enable", "nope"], 1, "no task 'nope'"),
        (["task", "disable", disabled], 1, f"({disabled}) is already disabled; nothing to change"),
        (["task", "enable", sched], 1, "is already enabled; nothing to change"),
        (["event", "delete", "nope"], 1, "no calendar event 'nope'"),
        (["task", "pause", sched], 2, "argument action: invalid choice: 'pause'"),
        (["event", "disable", "x"], 2, "argument action: invalid choice: 'disable'"),
        (["task", "delete"], 2, "the following arguments are required: ID"),
        (["undo", "99"], 1, "There is no audit entry #99."),
        (["redo", "99"], 1, "There is no audit entry #99."),
        (["undo", "zero"], 2, "argument AUDIT_ID: not an integer: 'zero'"),
        (["audit", "--target", "schedule:"], 2, "--target: expected TYPE or TYPE:ID"),
        (["audit", "--limit", "0"], 2, "argument --limit: must be at least 1: '0'"),
    ):
        code, out, err = run(capsys, "--db", str(db_copy), "--json", *argv)
        assert code == status and out == "", argv
        assert_one_error_line(err, text)
        assert _fingerprint(db_copy) == before
    assert not (db_copy.parent / "backups").exists()


def test_undo_and_redo(capsys, db_copy):
    sched = _task_id(db_copy)
    run_json(capsys, db_copy, "task", "disable", sched)
    res = run_json(capsys, db_copy, "undo", "1")
    assert set(res) == {"entry", "backup", "backup_reused"} and res["backup"] is not None
    undo = res["entry"]
    assert (undo["id"], undo["action"], undo["undoneOf"], undo["originalAction"]) == (
        2,
        "undo",
        1,
        "calendar.schedule_disable",
    )
    assert (undo["before"]["enabled"], undo["after"]["enabled"]) == (0, 1)
    assert _enabled(db_copy, sched) == 1
    assert run_json(capsys, db_copy, "audit", "--limit", "5")["entries"][1]["undone"] is True
    # Undoing it again is refused before anything is written.
    before, listing = _fingerprint(db_copy), _backups(db_copy)
    code, out, err = run(capsys, "--db", str(db_copy), "undo", "1")
    assert code == 1 and out == ""
    assert_one_error_line(err, "Edit #1 (calendar.schedule_disable) is already undone.")
    assert _fingerprint(db_copy) == before and _backups(db_copy) == listing
    # Redo through the id of the undo row (it names the same edit).
    code, out, err = run(capsys, "--db", str(db_copy), "redo", "2")
    assert code == 0 and err == ""
    assert out.splitlines()[0] == (
        f"redid edit #1 (calendar.schedule_disable of schedule:{sched}): audit entry #3"
    )
    assert _enabled(db_copy, sched) == 0
    before = _fingerprint(db_copy)
    code, out, err = run(capsys, "--db", str(db_copy), "redo", "1")
    assert code == 1 and out == ""
    assert_one_error_line(
        err, "Edit #1 (calendar.schedule_disable) is not undone, so there is nothing to redo."
    )
    assert _fingerprint(db_copy) == before
    code, out, _ = run(capsys, "--db", str(db_copy), "audit")
    t = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"  # the real time of each write
    actor, s = re.escape(undo["actor"]), re.escape(sched)
    expected = [
        rf"#3  {t}  {actor}  redo of #1 \(calendar.schedule_disable\)  schedule:{s}  enabled",
        rf"#2  {t}  {actor}  undo of #1 \(calendar.schedule_disable\)  schedule:{s}  enabled",
        rf"#1  {t}  {actor}  calendar.schedule_disable  schedule:{s}  enabled",
        r"\(3 audit entries\)",
    ]
    lines = out.splitlines()
    assert len(lines) == 4 and all(re.fullmatch(e, ln) for e, ln in zip(expected, lines, strict=True)), lines


def test_event_delete_and_undo(capsys, db_copy):
    event = _event_id(db_copy)
    res = run_json(capsys, db_copy, "event", "delete", event)
    entry = res["entry"]
    assert (entry["action"], entry["targetType"], entry["targetId"], entry["summary"]) == (
        "calendar.event_delete",
        "calendar_event",
        event,
        "deleted",
    )
    assert entry["before"]["title"] == "Dentist" and entry["after"] is None
    conn = sqlite3.connect(f"file:{db_copy}?mode=ro", uri=True)
    assert conn.execute("SELECT count(*) FROM memory_calendar WHERE id = ?", (event,)).fetchone()[0] == 0
    conn.close()
    code, out, err = run(capsys, "--db", str(db_copy), "event", "delete", event)
    assert code == 1 and out == ""
    assert_one_error_line(err, f"no calendar event '{event}'")
    run_json(capsys, db_copy, "undo", str(entry["id"]))
    assert _event_id(db_copy) == event


def _export_target(db: Path) -> str:
    return str(db.parent.parent / "export.jsonl")


@pytest.mark.parametrize(
    "argv",
    [
        ["upcoming"],
        ["upcoming", "--days", "90"],
        ["export", "messages", "{out}"],
        ["export", "facts", "{out}", "--format", "csv", "--since", "2026-01-01"],
        ["backups"],
        ["audit"],
        ["audit", "--target", "schedule:x", "--limit", "3"],
    ],
)
def test_new_read_commands_leave_the_files_unchanged(capsys, db_copy, argv):
    argv = [_export_target(db_copy) if a == "{out}" else a for a in argv]
    before = _fingerprint(db_copy)
    mtime = db_copy.stat().st_mtime_ns
    code, _out, err = run(capsys, "--db", str(db_copy), "--json", *NOW_ARGS, *argv)
    assert code == 0, err
    assert _fingerprint(db_copy) == before
    assert db_copy.stat().st_mtime_ns == mtime
    assert not (db_copy.parent / "backups").exists()
    assert sorted(p.name for p in db_copy.parent.iterdir() if not p.name.endswith(("-wal", "-shm"))) == [
        "memory.sqlite"
    ]


def test_new_read_commands_with_a_live_wal(capsys, db_copy):
    """Committed pages still in the -wal (a running agent): read, and both files keep their bytes."""
    writer = sqlite3.connect(db_copy, isolation_level=None)
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("UPDATE memory_calendar SET title = 'Dentist (moved)' WHERE title = 'Dentist'")
    try:
        before = _fingerprint(db_copy)
        assert Path(str(db_copy) + "-wal").stat().st_size > 0
        out_path = _export_target(db_copy)
        for argv in (["upcoming", "--days", "90"], ["export", "calendar", out_path], ["backups"], ["audit"]):
            code, _out, err = run(capsys, "--db", str(db_copy), "--json", *NOW_ARGS, *argv)
            assert code == 0, err
            assert _fingerprint(db_copy) == before
        exported = [json.loads(line)["title"] for line in Path(out_path).read_text("utf-8").splitlines()]
        assert "Dentist (moved)" in exported and "Dentist" not in exported
    finally:
        writer.close()


def test_export_progress_only_on_a_terminal(capsys, monkeypatch, demo_db_path, tmp_path):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, out, err = run(capsys, "--db", str(demo_db_path), "export", "messages", str(tmp_path / "m.jsonl"))
    assert code == 0 and out.startswith("wrote 3000 rows of messages")
    assert "\rexporting messages: 0/3000" in err and "\rexporting messages: 3000/3000" in err
    assert err.endswith("\r" + " " * 40 + "\r") and "\n" not in err
    code, out, err = run(
        capsys, "--db", str(demo_db_path), "--json", "export", "notes", str(tmp_path / "n.jsonl")
    )
    assert code == 0 and err == ""


@pytest.mark.parametrize("argv", [["upcoming"], ["audit"], ["undo", "1"], ["task", "enable", "x"]])
def test_new_commands_on_a_missing_file(capsys, tmp_path, argv):
    path = tmp_path / "memory.sqlite"
    code, out, err = run(capsys, "--db", str(path), *argv)
    assert code == 1 and out == ""
    assert_one_error_line(err, "No database file exists at this path.")
    assert list(tmp_path.iterdir()) == []
