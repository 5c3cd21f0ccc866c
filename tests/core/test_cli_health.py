"""``philont-memory health``: the exact plain output (stored text made visible), the JSON, the exit status
with and without ``--fail-on``, thresholds and layers from the command line, and the file left as it was."""

from __future__ import annotations

import json

import pytest

from core import cli
from core.db import MemoryDB
from tests.core.test_health import NOW, D, fact
from tests.reliability.helpers import fingerprint


def _run(capsys, path, *args):
    rc = cli.main(["--db", str(path), "--now", str(NOW), "health", *args])
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def sick(tmp_path):
    path = tmp_path / "memory.sqlite"
    db = MemoryDB.create(path, now=NOW)
    with db.write() as conn:
        fact(conn, "a", "user", "ci\x1bty", '"Lyon"', created=NOW - 2 * D)
        fact(conn, "b", "user", "ci\x1bty", '"Paris"', created=NOW - D)
        conn.execute(
            "INSERT INTO memory_schedules (id, name, cron_expr, next_run_at, action_type, payload_json, "
            "created_at, consecutive_failures) VALUES ('t1', 'sync\u202email', 'interval:60000', ?, 'prompt', "
            "'{}', ?, 5)",
            (NOW + 60_000, NOW - D),
        )
    db.close()
    return path


@pytest.fixture
def healthy(tmp_path):
    path = tmp_path / "memory.sqlite"
    MemoryDB.create(path, now=NOW).close()
    return path


PLAIN = """facts     1 failure
calendar  1 warning

[fail] facts: user.ci\\x1bty has 2 live values at once; the agent reads only one.
  code: health.facts.live_conflict
  targets: user.ci\\x1bty (b), user.ci\\x1bty (a)
  fix: health.fix.merge_duplicates

[warn] calendar: Task sync\\u202email has failed 5 times in a row.
  code: health.calendar.task_failing
  targets: sync\\u202email (t1)
  fix: health.fix.pause_task
"""


def test_plain_output_is_exact_and_visible(sick, capsys):
    rc, out, err = _run(capsys, sick, "--layer", "facts", "--layer", "calendar")
    assert (rc, err) == (0, "")
    assert out == PLAIN


def test_exit_status_with_fail_on(sick, capsys):
    assert _run(capsys, sick, "--layer", "calendar", "--fail-on", "warn")[0] == 3
    assert _run(capsys, sick, "--layer", "calendar", "--fail-on", "fail")[0] == 0
    assert _run(capsys, sick, "--layer", "facts", "--fail-on", "fail")[0] == 3
    assert _run(capsys, sick, "--layer", "facts")[0] == 0


def test_healthy_file(healthy, capsys):
    rc, out, _ = _run(capsys, healthy, "--layer", "facts", "--layer", "skills", "--fail-on", "warn")
    assert (rc, out) == (0, "facts   ok\nskills  ok\n")


def test_json(sick, capsys):
    rc, out, _ = _run(capsys, sick, "--layer", "facts", "--json", "--fail-on", "fail")
    assert rc == 3
    js = json.loads(out)
    assert js["summary"] == {"facts": {"status": "fail", "fail": 1, "warn": 0, "info": 0}}
    assert js["findings"] == [
        {
            "code": "health.facts.live_conflict",
            "severity": "fail",
            "layer": "facts",
            "targets": ["b", "a"],
            "message": {
                "code": "health.facts.live_conflict",
                "message": "user.ci\x1bty has 2 live values at once; the agent reads only one.",
                "params": {"namespace": "user", "key": "ci\x1bty", "count": 2},
            },
            "measure": {"count": 2, "limit": 1, "labels": ["user.ci\x1bty", "user.ci\x1bty"]},
            "fix": {"code": "health.fix.merge_duplicates", "params": {"layer": "facts", "ids": ["b", "a"]}},
        }
    ]


def test_thresholds_and_bad_arguments(sick, capsys):
    rc, out, _ = _run(capsys, sick, "--layer", "calendar", "--threshold", "task_failures=6")
    assert (rc, out) == (0, "calendar  ok\n")
    rc, _, err = _run(capsys, sick, "--threshold", "nope=1")
    assert (rc, err) == (2, "philont-memory: error: --threshold: Unknown health option 'nope'.\n")
    assert _run(capsys, sick, "--threshold", "unread_days")[0] == 2
    assert _run(capsys, sick, "--layer", "moon")[0] == 2


def test_health_leaves_the_file_as_it_was(sick, capsys):
    before = fingerprint(sick)
    assert _run(capsys, sick)[0] == 0
    assert _run(capsys, sick, "--json")[0] == 0
    assert fingerprint(sick) == before


def test_health_leaves_a_live_wal_as_it_was(sick, capsys):
    """The agent is writing: its -wal holds a commit no checkpoint has moved into the file yet."""
    from core.engine import sqlite3

    writer = sqlite3.connect(sick, isolation_level=None)
    try:
        writer.execute("PRAGMA wal_autocheckpoint=0")
        writer.execute(
            "INSERT INTO memory_raw_messages (session_id, role, content, timestamp) VALUES ('global', 'user', 'hi', ?)",
            (NOW,),
        )
        before = fingerprint(sick)
        assert before["-wal"] is not None
        rc, out, _ = _run(capsys, sick, "--json")
        assert rc == 0 and json.loads(out)["summary"]["file"]["status"] == "warn"  # no backup
        assert fingerprint(sick) == before
    finally:
        writer.close()
