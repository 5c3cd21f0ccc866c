"""bench/bench_health.py: the doctor's figure on the demo, named with its floor, the file left as it was."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

RUN_PY = Path(__file__).resolve().parent.parent / "bench" / "run.py"


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_the_doctor_figure_names_its_floor(demo_db_path):
    run = _load("bench_run_for_health", RUN_PY)
    health = _load("bench_health_under_test", RUN_PY.with_name("bench_health.py"))
    try:
        before = demo_db_path.read_bytes()
        (row,) = health.measure(demo_db_path, 1, run.FIXED_NOW, run.result)
    finally:
        sys.modules.pop("bench_run_for_health", None)
        sys.modules.pop("bench_health_under_test", None)
    assert row["name"] == "doctor: every check of every layer (3,000 messages)"
    assert row["floor_name"] == "each memory table read once (every row and column, in SQLite)"
    assert row["value"] > 0 and row["floor_value"] > 0 and row["runs"] == 1
    assert "health" in run.GROUPS and demo_db_path.read_bytes() == before
