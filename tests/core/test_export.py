"""core.export: formats, 0600 files written atomically, cancel leaves nothing, streaming with progress."""

from __future__ import annotations

import csv
import io
import itertools
import json
import os
import stat
import tracemalloc

import pytest

from core.errors import ValidationError_
from core.export import (
    LAYERS,
    ExportCancelledError,
    default_file_name,
    export_layer,
    export_rows,
    layer_columns,
)
from core.facts import FactStore
from core.schedules import ScheduleStore
from core.timeline import RawStore
from tests.conftest import FIXED_NOW

T0 = FIXED_NOW


@pytest.fixture
def db(file_db):
    raw = RawStore(file_db)
    raw.start_session("s1", started_at=T0)
    raw.append_message("s1", "user", 'hello, "quoted"\nsecond line', timestamp=T0)
    raw.append_message("s1", "assistant", "你好 🌏", timestamp=T0 + 1)
    raw.append_message("s1", "user", "third", timestamp=T0 + 2)
    FactStore(file_db).store_fact("user", "city", {"name": "上海", "n": 1}, now=T0)
    ScheduleStore(file_db).create("digest", T0 + 5, "prompt", {"message": "每日"}, now=T0)
    return file_db


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def _leftovers(d):
    return sorted(p.name for p in d.iterdir() if ".partial-" in p.name)


def test_jsonl_of_messages(db, tmp_path):
    out = tmp_path / "m.jsonl"
    r = export_layer(db, "messages", out, "jsonl")
    assert r.rows == 3 and r.path == out and r.columns == layer_columns(db, "messages")
    lines = out.read_text("utf-8").splitlines()
    rows = [json.loads(line) for line in lines]
    assert [x["content"] for x in rows] == ['hello, "quoted"\nsecond line', "你好 🌏", "third"]
    assert rows[0] == {
        "id": rows[0]["id"],
        "session_id": "s1",
        "role": "user",
        "content": 'hello, "quoted"\nsecond line',
        "timestamp": T0,
        "origin_session_id": None,
    }
    assert "你好" in lines[1]  # UTF-8, not \u escapes
    assert _mode(out) == 0o600
    assert r.bytes == out.stat().st_size


def test_json_array_parses_json_columns(db, tmp_path):
    out = tmp_path / "facts.json"
    export_layer(db, "facts", out, "json")
    data = json.loads(out.read_text("utf-8"))
    assert isinstance(data, list) and len(data) == 1
    assert data[0]["value_json"] == {"name": "上海", "n": 1}
    out2 = tmp_path / "facts-text.json"
    export_layer(db, "facts", out2, "json", parse_json=False)
    assert json.loads(out2.read_text("utf-8"))[0]["value_json"] == '{"name":"上海","n":1}'


def test_empty_json_is_an_empty_array(file_db, tmp_path):
    out = tmp_path / "none.json"
    r = export_layer(file_db, "notes", out, "json")
    assert r.rows == 0 and json.loads(out.read_text("utf-8")) == []


def test_csv_has_a_header_json_as_text_and_optional_bom(db, tmp_path):
    out = tmp_path / "s.csv"
    export_layer(db, "schedules", out, "csv")
    raw = out.read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8"), newline="")))
    assert rows[0] == layer_columns(db, "schedules")
    rec = dict(zip(rows[0], rows[1], strict=True))
    assert rec["payload_json"] == '{"message":"每日"}'
    assert rec["last_run_at"] == "" and rec["enabled"] == "1"
    out_bom = tmp_path / "m.csv"
    export_layer(db, "messages", out_bom, "csv", bom=True)
    raw = out_bom.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"), newline="")))
    assert len(rows) == 4 and rows[1][3] == 'hello, "quoted"\nsecond line'
    assert _mode(out_bom) == 0o600


def test_filters_and_time_bounds(db, tmp_path):
    out = tmp_path / "f.jsonl"
    r = export_layer(db, "messages", out, "jsonl", filters={"role": "user"}, since=T0 + 1)
    assert r.rows == 1 and json.loads(out.read_text("utf-8"))["content"] == "third"
    r = export_layer(db, "messages", out, "jsonl", filters={"role": ["user", "assistant"]}, until=T0 + 1)
    assert r.rows == 2
    with pytest.raises(ValidationError_, match="no column 'nope'"):
        export_layer(db, "messages", out, "jsonl", filters={"nope": 1})
    with pytest.raises(ValidationError_, match="Unknown layer"):
        export_layer(db, "sessions", out, "jsonl")
    with pytest.raises(ValidationError_, match="Unknown export format"):
        export_layer(db, "messages", out, "xml")


def test_overwrites_atomically_and_leaves_no_temp(db, tmp_path):
    out = tmp_path / "m.json"
    out.write_text("old", "utf-8")
    os.chmod(out, 0o644)
    export_layer(db, "messages", out, "json")
    assert json.loads(out.read_text("utf-8"))[2]["content"] == "third"
    assert _mode(out) == 0o600
    assert _leftovers(tmp_path) == []


def test_cancel_leaves_no_file_and_keeps_an_existing_one(db, tmp_path):
    out = tmp_path / "c.jsonl"
    with pytest.raises(ExportCancelledError):
        export_layer(db, "messages", out, "jsonl", cancel=lambda: True)
    assert not out.exists() and _leftovers(tmp_path) == []
    out.write_text("keep", "utf-8")
    calls = iter([False, True])
    with pytest.raises(ExportCancelledError):
        export_layer(db, "messages", out, "jsonl", page_size=1, cancel=lambda: next(calls, True))
    assert out.read_text("utf-8") == "keep" and _leftovers(tmp_path) == []


def test_a_failure_midway_removes_the_temp_file(db, tmp_path):
    def boom(done, total):
        if done:
            raise RuntimeError("disk on fire")

    out_dir = tmp_path / "out"
    out_dir.mkdir()
    with pytest.raises(RuntimeError):
        export_layer(db, "messages", out_dir / "x.csv", "csv", page_size=1, progress=boom)
    assert list(out_dir.iterdir()) == []


def test_large_export_streams_in_pages_with_progress(file_db, tmp_path):
    n = 30_000
    raw = RawStore(file_db)
    raw.start_session("big", started_at=T0)
    text = "x" * 800
    with file_db.write() as conn:
        conn.executemany(
            "INSERT INTO memory_raw_messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)",
            (("big", "user", text, T0 + i) for i in range(n)),
        )
    seen: list[tuple[int, int]] = []
    out = tmp_path / "big.jsonl"
    tracemalloc.start()
    r = export_layer(
        file_db, "messages", out, "jsonl", progress=lambda d, t: seen.append((d, t)), page_size=1000
    )
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert r.rows == n
    assert out.stat().st_size > n * 800
    assert peak < 8 * 1024 * 1024  # a page and a write buffer, never the table (~24 MB here)
    assert seen[0] == (0, n) and seen[-1] == (n, n)
    assert len(seen) >= n // 1000
    assert all(b[0] >= a[0] for a, b in itertools.pairwise(seen))
    with out.open(encoding="utf-8") as fh:
        last = None
        for last in fh:  # noqa: B007
            pass
    assert json.loads(last)["timestamp"] == T0 + n - 1


def test_export_rows_of_a_view(tmp_path):
    rows = ({"when": i, "title": f"t{i}", "extra": {"a": i}} for i in range(5))
    progress: list[tuple[int, int]] = []
    out = tmp_path / "view.csv"
    r = export_rows(
        rows,
        out,
        "csv",
        columns=["when", "title", "extra"],
        total=5,
        progress=lambda d, t: progress.append((d, t)),
        every=2,
    )
    assert r.rows == 5
    lines = out.read_text("utf-8").splitlines()
    assert lines[0] == "when,title,extra" and lines[1] == '0,t0,"{""a"":0}"'
    assert progress[0] == (0, 5) and progress[-1] == (5, 5)
    assert _mode(out) == 0o600
    with pytest.raises(ExportCancelledError):
        export_rows(iter([{"a": 1}]), tmp_path / "v.json", "json", columns=["a"], cancel=lambda: True)
    assert not (tmp_path / "v.json").exists()


def test_every_layer_exports(db, tmp_path):
    for layer in LAYERS:
        for fmt in ("json", "jsonl", "csv"):
            r = export_layer(db, layer, tmp_path / default_file_name(layer, fmt, "20260615-1200"), fmt)
            assert r.path.name == f"{layer}-20260615-1200.{fmt}"
            assert r.path.exists()


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_a_lone_surrogate_in_json_is_exported_with_its_stored_text_in_damaged(db, tmp_path, fmt):
    FactStore(db).store_fact("user", "half", "x", now=T0)
    FactStore(db).store_fact("user", "pair", "x", now=T0)
    db.conn.execute(
        "UPDATE memory_facts SET value_json = ? WHERE key = 'half'", ('{"k\\udc00": ["a\\uD800b"]}',)
    )
    db.conn.execute("UPDATE memory_facts SET value_json = ? WHERE key = 'pair'", ('"\\ud83d\\ude00"',))
    out = tmp_path / f"facts.{fmt}"
    r = export_layer(db, "facts", out, fmt)
    text = out.read_text("utf-8")
    rows = json.loads(text) if fmt == "json" else [json.loads(line) for line in text.splitlines()]
    by_key = {row["key"]: row for row in rows}
    assert r.rows == 3 and r.damaged_rows == 1
    half = by_key["half"]
    assert half["value_json"] == {"k\ufffd": ["a\ufffdb"]}
    damage = half["_damaged"]["value_json"]
    assert damage["problem"] == "lone_surrogate"
    assert bytes.fromhex(damage["hex"]).decode("utf-8") == '{"k\\udc00": ["a\\uD800b"]}'
    assert by_key["pair"]["value_json"] == "😀" and "_damaged" not in by_key["pair"]
    assert "_damaged" not in by_key["city"]
