"""`changes --json` on damaged rows: each row state reports `damaged` as every other `--json` does."""

from __future__ import annotations

import json

from core.cli import main
from core.db import MemoryDB
from core.engine import sqlite3
from core.facts import FactStore
from core.notes import NotesStore
from tests.support import FIXED_NOW

DAY = 86_400_000


def _damaged_file(tmp_path):
    path = tmp_path / "memory.sqlite"
    with MemoryDB.create(path, now=FIXED_NOW - 10 * DAY) as db:
        FactStore(db).store_fact("user", "city", "Lyon", now=FIXED_NOW - DAY)
        FactStore(db).store_fact("user", "tea", "green", now=FIXED_NOW - DAY)
        NotesStore(db).upsert("n-1", "remember the checklist", 0.5, "s-1", FIXED_NOW - DAY)
        NotesStore(db).upsert("n-2", "a neighbour", 0.5, "s-1", FIXED_NOW - DAY)
    conn = sqlite3.connect(str(path), isolation_level=None)
    try:
        conn.execute("UPDATE memory_notes SET content = CAST(X'6E6F7465FF' AS TEXT) WHERE id = 'n-1'")
        conn.execute("UPDATE memory_facts SET last_accessed_at = 'yesterday' WHERE key = 'city'")
    finally:
        conn.close()
    return path


def test_changes_json_reports_damaged_rows_as_damaged(tmp_path, capsys):
    path = _damaged_file(tmp_path)
    args = [
        "--db",
        str(path),
        "--json",
        "--now",
        str(FIXED_NOW),
        "changes",
        "--since",
        str(FIXED_NOW - 2 * DAY),
    ]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    after = {
        (c["after"].get("key") or c["after"].get("id")): c["after"]
        for c in out["changes"]
        if isinstance(c["after"], dict) and c["code"] in ("change.fact.new", "change.note.new")
    }
    assert set(after) == {"city", "tea", "n-1", "n-2"}
    note = after["n-1"]["damaged"]["content"]
    assert (note["problem"], note["hex"], after["n-1"]["content"]) == ("not_utf8", "6e6f7465ff", "note\ufffd")
    fact = after["city"]["damaged"]["lastAccessedAt"]
    assert fact["problem"] == "not_a_time" and fact["stored"] == "yesterday"
    assert after["city"]["lastAccessedAt"] is None  # nothing readable stored: null, as in `facts --json`
    assert after["tea"]["damaged"] == {} and after["n-2"]["damaged"] == {}
