"""Damaged rows, table-driven: one bad value breaks one row, never a layer.

Each case of :data:`badfiles.DAMAGED_ROWS` damages rows of every layer in one way (text that is not
UTF-8, NULL in NOT NULL columns, JSON 100,000 levels deep, numbers beyond range and NaN/Infinity, text and
BLOBs in time and number columns, BLOBs in text columns, invalid JSON everywhere), with one more damaged
row still in the ``-wal`` (a connection of "the agent" stays open, nothing checkpointed). On each file,
every read command of the command line and the app's ``--self-test`` run and must:

* end normally, exit status 0 (the agent's own tools may fail on such a row exactly as the agent would:
  those are the reference's failures, listed in :data:`AGENT_FAILURES`), no traceback, no hang;
* report every damaged row (``damaged`` in ``--json``, ``_damaged`` in exports) and list its neighbours;
* leave the main file and its ``-wal`` byte for byte as they were.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from core import cli
from core.engine import sqlite3
from philont_desktop import app as app_mod
from tests.reliability import badfiles
from tests.reliability.helpers import fingerprint

NOW = str(badfiles.NOW)
LEAKED = re.compile(r"\bTraceback\b|^\s*File \"", re.MULTILINE)
# Failures of the agent's own tools on a damaged row (the reference fails the same way; the tool's output
# is a compatibility contract).
AGENT_FAILURES = (
    "SyntaxError: trigger_keywords of skill",
    "TypeError: trigger_keywords of skill",
    "SyntaxError: payload_json of schedule",
    "No matching skills found",
)
READ_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("info",),
    ("info", "--json"),
    ("search", "deploy"),
    ("search", "deploy", "--json"),
    ("search", "note", "--layer", "notes"),
    ("search", "note", "--layer", "notes", "--json"),
    ("search", "deploy", "--layer", "skills"),
    ("search", "deploy", "--layer", "skills", "--json"),
    ("facts", "--include-inactive"),
    ("facts", "--include-inactive", "--json"),
    ("forget-candidates", "--threshold", "1"),
    ("history", "user", "pref_1"),
    ("history", "user", "pref_1", "--json"),
    ("skills",),
    ("skills", "--json"),
    ("check", "--quick"),
    ("context", "remember when we deployed the 数据库 migration?"),
    ("context", "remember when we deployed the 数据库 migration?", "--json"),
    ("upcoming", "--days", "90"),
    ("upcoming", "--days", "90", "--json"),
    ("audit",),
    ("backups", "--no-check"),
    ("recall-trigger", "remember when"),
)
TOOLS: tuple[tuple[str, str], ...] = (
    ("get_fact", '{"namespace":"user","key":"pref_1"}'),
    ("list_facts", '{"namespace":"user"}'),
    ("search_notes", '{"query":"note"}'),
    ("search_skills", '{"query":"deploy"}'),
    ("use_skill", '{"name":"skill-1"}'),
    ("list_upcoming", '{"window_days":90}'),
    ("recall_sessions", '{"query":"deploy"}'),
)
LAYERS = ("messages", "actions", "notes", "facts", "skills", "calendar", "schedules")
KEY_COLUMN = {"facts": "key", "skills": "name"}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, object]:
    return {"_root": tmp_path_factory.mktemp("bad-rows")}


@pytest.fixture(params=list(badfiles.DAMAGED_ROWS), ids=list(badfiles.DAMAGED_ROWS))
def damaged_file(request, built, tmp_path):
    """A copy of the case's file with one more damaged message committed into its -wal by a writer that
    stays open (as the agent would), and the rows that are damaged."""
    name: str = request.param
    if name not in built:
        original = built["_root"] / name / "memory.sqlite"  # type: ignore[operator]
        original.parent.mkdir()
        built[name] = (original, badfiles.DAMAGED_ROWS[name](original))
    original, damaged = built[name]  # type: ignore[misc]
    path = tmp_path / "memory" / "memory.sqlite"
    path.parent.mkdir(mode=0o700)
    path.write_bytes(original.read_bytes())
    writer = sqlite3.connect(str(path), isolation_level=None)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    cur = writer.execute(
        "INSERT INTO memory_raw_messages (session_id, role, content, timestamp) "
        "VALUES ('s-1', 'user', CAST(X'64656570FF6C6F79' AS TEXT), 'not a time')"
    )
    damaged = {k: set(v) for k, v in damaged.items()}
    damaged.setdefault("messages", set()).add(cur.lastrowid)
    assert Path(str(path) + "-wal").stat().st_size > 0
    yield name, path, damaged
    writer.close()


def _run(capsys, path: Path, *args: str) -> tuple[int, str, str]:
    rc = cli.main(["--db", str(path), "--now", NOW, *args])
    out, err = capsys.readouterr()
    return rc, out, err


def _damaged_keys(rows: list[dict], layer: str, marker: str) -> set:
    col = KEY_COLUMN.get(layer, "id")
    return {r.get(col) for r in rows if r.get(marker)}


def test_every_read_command_shows_the_damaged_rows_and_their_neighbours(damaged_file, capsys, tmp_path):
    name, path, damaged = damaged_file
    before = fingerprint(path)
    problems: list[str] = []
    for args in READ_COMMANDS:
        rc, out, err = _run(capsys, path, *args)
        where = f"[{name}] philont-memory {' '.join(args)}"
        if rc != 0:
            problems.append(f"{where}: exit {rc}: {err.strip()[:300]}")
        if LEAKED.search(out + err):
            problems.append(f"{where}: a traceback")
        if "--json" in args and rc == 0:
            json.loads(out)
    for tool, tool_args in TOOLS:
        rc, out, err = _run(capsys, path, "tool", tool, tool_args)
        where = f"[{name}] philont-memory tool {tool}"
        if rc != 0 and not any(f in err for f in AGENT_FAILURES):
            problems.append(f"{where}: exit {rc}: {err.strip()[:300]}")
        if LEAKED.search(out + err):
            problems.append(f"{where}: a traceback")
    # Every damaged row is reported, and every row of the layer is there.
    exports = tmp_path / "exports"
    exports.mkdir()
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        counts = {
            layer: conn.execute(f"SELECT count(*) FROM {badfiles_table(layer)}").fetchone()[0]
            for layer in LAYERS
        }
    finally:
        conn.close()
    for layer in LAYERS:
        out_file = exports / f"{layer}.jsonl"
        rc, out, err = _run(capsys, path, "export", layer, str(out_file), "--json")
        if rc != 0:
            problems.append(f"[{name}] export {layer}: exit {rc}: {err.strip()[:300]}")
            continue
        rows = [json.loads(line) for line in out_file.read_text("utf-8").splitlines()]
        if len(rows) != counts[layer]:
            problems.append(f"[{name}] export {layer}: {len(rows)} rows of {counts[layer]}")
        missing = damaged.get(layer, set()) - _damaged_keys(rows, layer, "_damaged")
        if missing:
            problems.append(
                f"[{name}] export {layer}: damaged rows not reported: {sorted(map(str, missing))}"
            )
        if json.loads(out)["damaged_rows"] < len(damaged.get(layer, ())):
            problems.append(f"[{name}] export {layer}: damaged_rows {json.loads(out)['damaged_rows']}")
    for layer, args, key in (
        ("facts", ("facts", "--include-inactive", "--json"), "facts"),
        ("skills", ("skills", "--json"), "skills"),
    ):
        rc, out, _err = _run(capsys, path, *args)
        rows = json.loads(out)[key] if rc == 0 else []
        if len(rows) != counts[layer]:
            problems.append(f"[{name}] {' '.join(args)}: {len(rows)} rows of {counts[layer]}")
        missing = damaged.get(layer, set()) - _damaged_keys(rows, layer, "damaged")
        # JSON of the reference's shape that parses (an out-of-range number) is damage only in exports.
        if missing and name != "non-finite-numbers":
            problems.append(
                f"[{name}] {' '.join(args)}: damaged rows not reported: {sorted(map(str, missing))}"
            )
    assert fingerprint(path) == before, f"[{name}] the file or its -wal changed"
    assert not problems, "\n".join(problems)


def badfiles_table(layer: str) -> str:
    return {
        "messages": "memory_raw_messages",
        "actions": "memory_actions",
        "notes": "memory_notes",
        "facts": "memory_facts",
        "skills": "memory_skills",
        "calendar": "memory_calendar",
        "schedules": "memory_schedules",
    }[layer]


def test_plain_output_marks_the_damaged_rows(damaged_file, capsys):
    name, path, damaged = damaged_file
    rc, out, _ = _run(capsys, path, "facts", "--include-inactive")
    assert rc == 0
    for key in damaged.get("facts", ()):
        lines = [ln for ln in out.splitlines() if f".{key} = " in ln or ". = " in ln]
        if name != "non-finite-numbers" or key in ("pref_0", "pref_2", "pref_3", "pref_4"):
            assert any("⚠ unreadable: " in ln for ln in lines), (name, key, lines)
    rc, out, _ = _run(capsys, path, "context", "deploy")
    assert rc == 0


def test_the_app_self_test_passes(damaged_file, capfd):
    name, path, _damaged = damaged_file
    before = fingerprint(path)
    code = app_mod.main(["--db", str(path), "--self-test"])
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err, (out + err)[-3000:]
    assert code == 0, f"[{name}] --self-test: {out[-3000:]}"
    assert fingerprint(path) == before
