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

NOW = 1_781_524_800_000  # 2026-06-15T12:00:00.000Z, the demo_db_path fixture's time
NOW_ARGS = ["--now", str(NOW)]

FACT_KEYS = {
    "id", "namespace", "key", "value", "valueJson", "confidence", "supersededBy", "supersedes", "createdAt",
    "occurredAt", "validFrom", "validUntil", "lastAccessedAt", "decayTauDays", "forgottenAt", "factKind",
    "rootPursuitId", "jsonErrors", "status", "pinned", "tauDays", "tauSource", "score",
}  # fmt: skip
SKILL_KEYS = {
    "name", "id", "kind", "maturity", "source", "description", "triggerKeywords", "whenToUse", "useCount",
    "successCount", "failureCount", "consecutiveFailures", "lastUsedAt", "lastSuccessAt", "lastFailureAt",
    "offeredCount", "matchedCount", "createdAt", "callable", "isRecipe", "verification", "toolPolicy",
    "revisionCount", "score",
}  # fmt: skip
MESSAGE_KEYS = {"id", "sessionId", "role", "content", "timestamp", "originSessionId"}
NOTE_KEYS = {
    "id",
    "content",
    "importance",
    "sessionId",
    "createdAt",
    "lastAccessedAt",
    "forgottenAt",
    "rootPursuitId",
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


def run_json(capsys, db: Path, *argv: str):
    code, out, err = run(capsys, "--db", str(db), "--json", *NOW_ARGS, *argv)
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
        "path", "engine", "sqlite_version", "schema_version", "journal_mode", "read_only", "writable",
        "read_only_reason", "immutable", "quick_check", "complete", "missing", "row_counts", "warnings",
    }  # fmt: skip
    assert info["schema_version"] == 31
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
    code, out, err = run(capsys, "--db", str(demo_db_path), "info")
    assert code == 0 and err == ""
    assert "schema version  31" in out and "memory_raw_messages    3000" in out


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
    assert set(res) == {"prefix", "sections", "recall_trigger", "timeline"}
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
    assert len(backups) == 1 and re.fullmatch(r"memory-\d{8}T\d{6}\.sqlite", backups[0].name)
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
    assert re.fullmatch(r"memory-\d{8}T\d{6}\.sqlite", dest.name)
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
    assert_one_error_line(err, f"The newest backup that passes quick_check is {good}.")
    assert db_copy.read_bytes() == bytes(data)


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
    conn.execute("UPDATE memory_meta SET value = '50' WHERE key = 'schema_version'")
    conn.close()
    info = run_json(capsys, db_copy, "info")
    assert info["schema_version"] == 50 and info["writable"] is False
    assert "newer than 31" in info["read_only_reason"]
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
