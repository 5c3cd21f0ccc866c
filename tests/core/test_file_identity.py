"""Which file is open: the database replaced, emptied or deleted on disk is noticed, and a file that is
not the one opened before is refused; the damage of a raw stored row is what its model reads."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from core.damage import unreadable_time
from core.db import MemoryDB, file_identity
from core.errors import DatabaseOpenError
from core.export import export_layer
from core.models import row_damage
from core.timeline import RawStore
from core.visible import neutral, visible
from tests.support import FIXED_NOW


def _db(path: Path, text: str) -> Path:
    db = MemoryDB.create(path, now=FIXED_NOW)
    RawStore(db).append_message("global", "user", text, FIXED_NOW)
    db.close()
    return path


def test_file_change_names_what_happened_to_the_opened_file(tmp_path):
    path = _db(tmp_path / "memory.sqlite", "x")
    db = MemoryDB.open(path)
    try:
        assert db.identity == file_identity(path) and db.file_change() is None
        os.truncate(path, 0)
        assert db.file_change() == "emptied"
        path.unlink()
        assert db.file_change() == "deleted"
        assert file_identity(path) is None
        os.replace(_db(tmp_path / "other.sqlite", "y"), path)
        assert db.file_change() == "replaced"
    finally:
        db.close()


def test_open_refuses_another_file_than_the_one_expected(tmp_path):
    path = _db(tmp_path / "memory.sqlite", "the original")
    first = file_identity(path)
    MemoryDB.open(path, expect=first).close()
    os.replace(_db(tmp_path / "other.sqlite", "another"), path)
    with pytest.raises(DatabaseOpenError) as exc:
        MemoryDB.open(path, expect=first)
    assert exc.value.problem == "replaced" and exc.value.code == "db.open.replaced"
    assert "No backup" not in str(exc.value)


def test_row_damage_is_what_the_model_reads(tmp_path):
    path = _db(tmp_path / "memory.sqlite", "fine")
    db = MemoryDB.open(path, writable=True)
    try:
        raw = RawStore(db)
        raw.append_message("global", "user", "second", FIXED_NOW + 1)
        with db.write() as conn:
            conn.execute("UPDATE memory_raw_messages SET timestamp = X'0102' WHERE id = 2")
        rows = {r["id"]: r for r in db.conn.execute("SELECT * FROM memory_raw_messages")}
        assert row_damage("memory_raw_messages", rows[1]) == {}
        damaged = row_damage("memory_raw_messages", rows[2])
        assert set(damaged) == {"timestamp"} and damaged["timestamp"].problem == "not_a_time"
        assert row_damage("not_a_core_table", rows[2]) == {}
        msgs = {m.id: m for m in raw.query_timeline("asc", None)}
        assert unreadable_time(msgs[2].timestamp) and not unreadable_time(msgs[1].timestamp)
        out = tmp_path / "messages.jsonl"
        export_layer(db, "messages", out, "jsonl")
        lines = [json.loads(s) for s in out.read_text().splitlines()]
        by_id = {o["id"]: o for o in lines}
        assert "_damaged" not in by_id[1]
        assert by_id[2]["_damaged"]["timestamp"]["hex"] == "0102"
    finally:
        db.close()


def test_neutral_keeps_one_character_for_one():
    text = "a\x1b[31mb\u202ec\x7f\x85\nd"
    shown = neutral(text)
    assert len(shown) == len(text)
    assert shown == "a\u241b[31mb\u2370c\u2421\u2370\nd"
    assert neutral(text, keep_newlines=False).endswith("\u240ad")
    assert neutral("plain") == "plain" and visible("plain") == "plain"
