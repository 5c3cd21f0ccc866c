"""The Review tab's "Export as JSON" on damaged rows: the file is written, in `changes --json`'s shape."""

from __future__ import annotations

import json
import time

from core.db import MemoryDB
from core.engine import sqlite3
from core.facts import FactStore
from core.notes import NotesStore

HOUR = 3_600_000
NOW = int(time.time() * 1000)


def test_export_json_with_damaged_rows_and_a_lone_surrogate(open_tab, db_path, tmp_path):
    from philont_desktop.review.view import ReviewTab

    with MemoryDB.create(db_path, now=NOW - 30 * 24 * HOUR) as db:
        FactStore(db).store_fact("user", "city", "Lyon", now=NOW - 2 * HOUR)
        FactStore(db).store_fact("user", "half", "x", now=NOW - 2 * HOUR)
        NotesStore(db).upsert("n-1", "remember the checklist", 0.5, "s-1", NOW - HOUR)
    conn = sqlite3.connect(str(db_path), isolation_level=None)
    try:
        conn.execute("UPDATE memory_notes SET content = CAST(X'6E6F7465FF' AS TEXT) WHERE id = 'n-1'")
        conn.execute("UPDATE memory_facts SET last_accessed_at = 'yesterday' WHERE key = 'city'")
        conn.execute("UPDATE memory_facts SET value_json = ? WHERE key = 'half'", ('"a\\ud800b"',))
    finally:
        conn.close()
    tab = open_tab(ReviewTab, db_path, size=(1300, 800), idle_ms=20_000)
    out = tmp_path / "review.json"
    tab.export("json", str(out))
    assert tab.wait_idle(20_000)
    data = json.loads(out.read_text(encoding="utf-8"))
    after = {
        (c["after"].get("key") or c["after"].get("id")): c["after"]
        for c in data["changes"]
        if isinstance(c["after"], dict) and c["code"] in ("change.fact.new", "change.note.new")
    }
    assert after["n-1"]["damaged"]["content"]["hex"] == "6e6f7465ff"
    assert after["city"]["damaged"]["lastAccessedAt"]["stored"] == "yesterday"
    assert after["half"]["value"] == "a\ud800b"  # written as JSON.stringify writes it: "a\ud800b"
    assert "\\ud800" in out.read_text(encoding="utf-8")
