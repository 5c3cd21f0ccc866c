"""Benchmark of the privacy scan (issue "Privacy"): every text column of every layer through the
detectors, beside reading those columns once.

    python bench/bench_privacy.py --db bench/.cache/run-100000-s0-g....sqlite [--runs N]

Figures, as medians of warm runs (``bench/run.py`` runs them as the ``privacy`` group):

* ``privacy scan of every layer``: :func:`core.privacy.scan` of the database (no backups, no allow-list)
  beside the floor **raw SQL: every text column the scan reads, read once** (the same columns of the same
  tables, each row fetched as Python text, nothing else done with it). The target is 3x the floor.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from core.files import connect_file  # noqa: E402
from core.privacy import SOURCES, Allowed, scan  # noqa: E402
from core.privacy.gate import ENGINE  # noqa: E402


def median_s(fn: Callable[[], Any], runs: int) -> float:
    fn()
    times = []
    for _ in range(max(1, runs)):
        gc.collect()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def read_text_columns(db_path: Path) -> int:
    """The floor: every column the scan reads, of every row, fetched once as Python text (``memory_skills``
    in two reads, as the scan reads it: its texts, then its revision history). Returns the rows read."""
    conn = connect_file(db_path, mode="ro")
    conn.row_factory = None
    conn.text_factory = str
    rows = 0
    try:
        seen: set[tuple[str, str]] = set()
        for s in SOURCES:
            have = {r[1] for r in conn.execute(f'PRAGMA table_info("{s.table}")')}
            cols = [c for c in s.columns if c in have and (s.table, c) not in seen]
            seen.update((s.table, c) for c in cols)
            if not cols:
                continue
            cur = conn.execute(f'SELECT rowid, id, {", ".join(cols)} FROM "{s.table}"')
            while True:
                page = cur.fetchmany(2000)
                if not page:
                    break
                rows += len(page)
    finally:
        conn.close()
    return rows


def scan_all(db_path: Path) -> int:
    return len(scan(db_path, allow=Allowed()).findings)


def measure(db_path: Path, runs: int, result: Callable[..., dict]) -> list[dict]:
    print(f"  gate engine: {ENGINE}", flush=True)
    floor = median_s(lambda: read_text_columns(db_path), runs)
    found = scan_all(db_path)
    value = median_s(lambda: scan_all(db_path), runs)
    print(f"  {found} findings", flush=True)
    floor_name = "raw SQL: every text column the scan reads, read once"
    return [result("privacy scan of every layer", value * 1000, "ms", floor_name, floor * 1000, runs)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args(argv)

    def result(name: str, value: float, unit: str, floor_name: str, floor_value: float, runs: int) -> dict:
        return {
            "name": name,
            "value": value,
            "unit": unit,
            "floor_name": floor_name,
            "floor_value": floor_value,
        }

    for r in measure(Path(a.db), a.runs, result):
        print(
            f"{r['name']}: {r['value']:.0f} ms beside {r['floor_value']:.0f} ms ({r['value'] / r['floor_value']:.2f}x)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
