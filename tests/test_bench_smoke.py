"""bench/run.py: the table and results.json on made-up measurements (no database, nothing timed)."""

from __future__ import annotations

import importlib.util
import json
import sqlite3
import sys
from pathlib import Path

import pytest

RUN_PY = Path(__file__).resolve().parent.parent / "bench" / "run.py"
KEYS = {"name", "value", "unit", "floor_name", "floor_value", "ratio", "scale"}


@pytest.fixture(scope="module")
def run():
    spec = importlib.util.spec_from_file_location("bench_run_under_test", RUN_PY)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop(spec.name, None)


@pytest.fixture
def fake(run):
    return [
        run.Result("search 'plan' (English, 4 letters)", 0.5, "ms", "reference SQL, raw", 50.0, "quick", 7),
        run.Result(
            "search '数据库' (Chinese, 3 characters)", 12.26, "ms", "reference SQL, raw", 4.9, "quick", 7
        ),
        run.Result(
            "app cold start: first paint of the window", 1500.0, "ms", "bare QMainWindow", 600.0, "quick", 5
        ),
        run.Result(
            "peak memory (RSS) after visiting every tab", 250.0, "MiB", "bare QMainWindow", 0.0, "quick", 3
        ),
    ]


def test_results_json_shape(run, fake, tmp_path):
    path = run.write_results(fake, tmp_path / "out" / "results.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, list) and len(data) == 4
    for item in data:
        assert set(item) == KEYS
        assert item["scale"] == "quick"
        assert isinstance(item["value"], float) and isinstance(item["floor_value"], float)
    assert data[0] == {
        "name": "search 'plan' (English, 4 letters)",
        "value": 0.5,
        "unit": "ms",
        "floor_name": "reference SQL, raw",
        "floor_value": 50.0,
        "ratio": 0.01,
        "scale": "quick",
    }
    assert data[1]["name"] == "search '数据库' (Chinese, 3 characters)"  # kept as text, not escaped
    assert "数据库" in path.read_text(encoding="utf-8")
    assert data[1]["value"] == 12.26 and data[1]["ratio"] == 2.502
    assert data[2]["ratio"] == 2.5
    assert data[3]["ratio"] is None  # no floor: no ratio
    assert not list((tmp_path / "out").glob("*.tmp"))


def test_results_round_trip(run, fake, tmp_path):
    path = run.write_results(fake, tmp_path / "results.json")
    back = run.read_results(path)
    assert [r.to_json() for r in back] == [r.to_json() for r in fake]


def test_table(run, fake):
    lines = run.format_table(fake).splitlines()
    assert len(lines) == 2 + len(fake)
    assert lines[0].split() == ["figure", "value", "floor", "(same", "run)", "floor", "ratio", "N"]
    assert set(lines[1]) == {"-", " "}
    assert lines[2].endswith("0.50 ms  reference SQL, raw  50.0 ms  0.010x  7")
    assert lines[3].endswith("12.3 ms  reference SQL, raw  4.90 ms   2.50x  7")
    assert lines[4].endswith("1,500 ms  bare QMainWindow     600 ms   2.50x  5")
    assert lines[5].endswith("250 MiB  bare QMainWindow      0 MiB       -  3")
    # columns line up in terminal cells (a CJK character takes two)
    assert len({run._width(line) for line in lines}) == 1


def test_markdown(run, fake, tmp_path):
    md = run.format_markdown(fake).splitlines()
    assert md[0] == "| figure | value | floor (same run) | floor | ratio | N |"
    assert md[1] == "|---|---:|---|---:|---:|---:|"
    assert (
        md[2]
        == "| search 'plan' (English, 4 letters) | 0.50 ms | reference SQL, raw | 50.0 ms | 0.010x | 7 |"
    )
    path = run.write_results(fake, tmp_path / "results.json")
    assert run.main(["--markdown", str(path)]) == 0


def test_markdown_of_a_results_file_has_no_n(run, fake, tmp_path):
    back = run.read_results(run.write_results(fake, tmp_path / "results.json"))
    md = run.format_markdown(back).splitlines()
    assert md[0] == "| figure | value | floor (same run) | floor | ratio |"
    assert md[2] == "| search 'plan' (English, 4 letters) | 0.50 ms | reference SQL, raw | 50.0 ms | 0.010x |"


def test_readme_table_is_replaced_between_its_markers(run, fake, tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(
        "# Bench\n\n<!-- table:quick:start -->\nold table\n<!-- table:quick:end -->\n\nafter\n",
        encoding="utf-8",
    )
    assert run.update_readme(fake, "quick", "2026-06-15, quick scale.", readme)
    text = readme.read_text(encoding="utf-8")
    assert "old table" not in text
    assert text.startswith("# Bench\n\n<!-- table:quick:start -->\n2026-06-15, quick scale.\n\n| figure |")
    assert text.count("| search '数据库' (Chinese, 3 characters) | 12.3 ms |") == 1
    assert text.endswith("<!-- table:quick:end -->\n\nafter\n")
    assert run.update_readme(fake, "quick", "again", readme)
    assert readme.read_text(encoding="utf-8").count("<!-- table:quick:start -->") == 1
    assert not run.update_readme(fake, "full", "no markers for this scale", readme)
    assert "no markers" not in readme.read_text(encoding="utf-8")


def test_the_cache_key_covers_the_generator_and_its_data(run):
    names = {p.relative_to(run.ROOT).as_posix() for p in run.generator_sources()}
    assert {"core/demo/__init__.py", "core/schema/ddl.py", "core/demo/data/stories.toml"} <= names
    assert any(n.startswith("core/demo/data/dialogues/") for n in names)
    assert len(run.generator_version()) == 10


def test_the_10_mb_message_is_added_to_a_copy_as_its_newest_message(tmp_path):
    spec = importlib.util.spec_from_file_location("bench_big_under_test", RUN_PY.with_name("bench_big.py"))
    big = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(big)
    from core.db import MemoryDB
    from core.timeline import RawStore

    path = tmp_path / "m.sqlite"
    db = MemoryDB.create(path, now=1_700_000_000_000)
    raw = RawStore(db)
    raw.start_session("s-1", started_at=1_700_000_000_000)
    raw.append_many([("s-1", "user", f"message {i}", 1_700_000_000_000 + i) for i in range(3)])
    db.close()
    before = path.read_bytes()
    copy = big.big_copy(path)
    assert path.read_bytes() == before  # the original is only read
    assert big.big_copy(path) == copy  # made once
    conn = sqlite3.connect(copy)
    try:
        session, role, size, chinese = conn.execute(
            "SELECT session_id, role, length(CAST(content AS BLOB)), instr(content, '迁移') > 0 "
            "FROM memory_raw_messages ORDER BY timestamp DESC LIMIT 1"
        ).fetchone()
        assert conn.execute("SELECT count(*) FROM memory_raw_messages").fetchone()[0] == 4
    finally:
        conn.close()
    assert (session, role, chinese) == ("s-1", "tool", 1)
    assert big.BIG_BYTES <= size < big.BIG_BYTES + 200


def test_the_privacy_group_measures_the_scan_beside_its_floor(run, tmp_path, capsys):
    """The privacy group's floor reads the rows the scan reads; its figure is the scan (nothing timed here)."""
    spec = importlib.util.spec_from_file_location(
        "bench_privacy_under_test", RUN_PY.with_name("bench_privacy.py")
    )
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    from core.db import MemoryDB
    from tests.fixtures.privacy_planted import expected, plant

    path = tmp_path / "memory" / "memory.sqlite"
    db = MemoryDB.create(path, now=1_781_524_800_000)
    plant(db)
    db.close()
    # 22 messages, an action, a note, a fact, the skill twice (its texts, then its revisions), an event, a task
    assert bench.read_text_columns(path) == 22 + 1 + 1 + 1 + 2 + 1 + 1
    assert bench.scan_all(path) == len(expected())
    (got,) = bench.measure(path, 1, run.result)
    assert set(got) >= {"name", "value", "unit", "floor_name", "floor_value"}
    assert got["name"] == "privacy scan of every layer" and got["unit"] == "ms"
    assert run.GROUPS["privacy"][0] is run.measure_privacy
