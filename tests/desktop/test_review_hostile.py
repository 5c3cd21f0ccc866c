"""The Review tab on hostile input: "Export as JSON" on damaged rows (the file is written, in `changes
--json`'s shape), and a review-marks file that cannot be used (set aside, said in the status bar)."""

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


def test_the_review_tab_opens_with_a_marks_file_nested_too_deep(open_tab, db_path, tmp_path, monkeypatch):
    from core import sidefiles
    from core.changes.marks import ENV_VAR, ReviewMarks
    from philont_desktop.review.view import ReviewTab

    marks = tmp_path / "review-marks.json"
    marks.write_text('{"version": 1, "databases": ' + "[" * 100_000 + "]" * 100_000 + "}")
    monkeypatch.setenv(ENV_VAR, str(marks))
    with MemoryDB.create(db_path, now=NOW - 30 * 24 * HOUR) as db:
        FactStore(db).store_fact("user", "city", "Lyon", now=NOW - 2 * HOUR)
    said = []
    with sidefiles.reporting(said.append):
        said.clear()
        tab = open_tab(ReviewTab, db_path, size=(1300, 800), idle_ms=20_000)
        assert tab.ctx.errors == [] and tab.state.changes is not None
        assert [c.code for c in tab.state.changes.items] == ["change.fact.new"]
    assert [n.params["reason"] for n in said] == ["sidefile.why.too_deep"]
    assert not marks.exists() and len(list(tmp_path.glob("review-marks.json.bad-*"))) == 1
    ReviewMarks().mark_all(db_path, NOW)  # what "Mark all reviewed" writes: a new file
    assert ReviewMarks().get(db_path).at == NOW
