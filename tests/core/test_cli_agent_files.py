"""philont-memory on a file written by the current agent: conversations, search by origin, the skills'
disk flag and repair attempts, and a write that keeps the schema stamp."""

from __future__ import annotations

import json
import sqlite3

import pytest

from core.cli import main
from tests.fixtures import agent_files


@pytest.fixture(scope="module")
def v48(tmp_path_factory):
    return agent_files.make_fresh(tmp_path_factory.mktemp("agent") / "memory.sqlite", 48)


def run_json(capsys, db, *argv):
    assert main(["--db", str(db), "--json", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_search_by_origin(capsys, v48):
    res = run_json(capsys, v48, "search", "hello", "--origin", "web-ui:abc")
    assert res["count"] == 3
    assert all(
        m["originSessionId"] == "web-ui:abc" and "hello" in m["content"].lower() for m in res["results"]
    )
    both = run_json(capsys, v48, "search", "hello", "--origin", "web-ui:abc", "--origin", "global")
    assert {m["originSessionId"] for m in both["results"]} == {"web-ui:abc", None}
    assert run_json(capsys, v48, "search", "hello", "--origin", "telegram:50211873")["count"] == 0
    assert main(["--db", str(v48), "search", "hello", "--layer", "notes", "--origin", "x"]) == 2
    assert "--origin" in capsys.readouterr().err


def test_conversations(capsys, v48):
    convs = run_json(capsys, v48, "conversations")["conversations"]
    assert set(convs[0]) == {"id", "kind", "channel", "detail", "messageCount", "firstAt", "lastAt"}
    by_id = {c["id"]: c for c in convs}
    assert by_id["web-ui:abc"]["messageCount"] == 7 and by_id["global"]["kind"] == "unknown"
    assert main(["--db", str(v48), "conversations"]) == 0
    out = capsys.readouterr().out
    assert "wechat:wxid_lin_xiao" in out and out.rstrip().endswith("(6 conversations)")


def test_skills_show_the_disk_flag_and_repair_attempts(capsys, v48):
    skills = {s["name"]: s for s in run_json(capsys, v48, "skills")["skills"]}
    assert skills["weather-lookup"]["fromDisk"] is True and skills["summarise-day"]["fromDisk"] is False
    assert (skills["rerun-backup"]["repairAttempts"], skills["rerun-backup"]["revisionCount"]) == (2, 3)


def test_info_and_a_write_keep_version_48(capsys, v48, tmp_path):
    db = tmp_path / "memory.sqlite"
    db.write_bytes(v48.read_bytes())
    info = run_json(capsys, db, "info")
    assert (info["schema_version"], info["writable"], info["read_only_code"]) == (48, True, None)
    assert {t["name"] for t in info["tables"]["agent"]} >= {
        "deferred_pushes",
        "routing_rules",
        "learning_metrics",
    }
    out = run_json(
        capsys, db, "tool", "store_fact", '{"namespace":"user","key":"pet","value":"旺财"}', "--write"
    )
    assert out["success"] is True
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("SELECT value FROM memory_meta WHERE key = 'schema_version'").fetchone() == (
            "48",
        )
    finally:
        conn.close()
