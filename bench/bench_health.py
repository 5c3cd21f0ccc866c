"""Benchmark of the doctor (:func:`core.health.run_checks`): every check of every layer on one database,
beside the floor of reading each memory table once.

    python bench/bench_health.py --db bench/.cache/run-1000000-s0-<hash>.sqlite   # the full-scale file
    python bench/bench_health.py --messages 20000 --repeat 5                      # a demo built once

The floor is one pass of SQLite over every row and every column of the seven memory tables (messages,
actions, notes, facts, skills, tasks, events): ``SELECT total(length(c1)) + ... FROM t``, which reads each
value once and hands nothing to Python. The checks read less than that where an index answers (counts
per month and per day, the index comparison) and more where Python must look at rows (facts, skills,
notes). Times are medians of ``--repeat`` runs after one warm-up, in milliseconds; the time of each layer
is printed too. The database is opened read-only and left as it was.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from core.db import MemoryDB  # noqa: E402
from core.health import LAYERS, run_checks  # noqa: E402

CACHE = Path(__file__).resolve().parent / ".cache"
FIXED_NOW = 1_781_524_800_000  # 2026-06-15T12:00:00Z
TABLES = (
    "memory_raw_messages",
    "memory_actions",
    "memory_notes",
    "memory_facts",
    "memory_skills",
    "memory_schedules",
    "memory_calendar",
)
FLOOR_NAME = "each memory table read once (every row and column, in SQLite)"


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def read_every_table(db: MemoryDB) -> int:
    """The floor: every value of every memory table read once by SQLite; returns the rows read."""
    rows = 0
    conn = db.conn
    for table in TABLES:
        cols = [r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')]
        if not cols:
            continue
        total = " + ".join(f'total(length("{c}"))' for c in cols)
        n, _ = conn.execute(f'SELECT count(*), {total} FROM "{table}"').fetchone()
        rows += int(n)
    return rows


def measure(
    path: Path, repeat: int, now: int = FIXED_NOW, result: Callable[..., Any] | None = None
) -> list[dict]:
    """The doctor beside its floor, as result rows for ``bench/run.py``."""
    with MemoryDB.open(path) as db:
        messages = int(db.conn.execute("SELECT count(*) FROM memory_raw_messages").fetchone()[0])
        floor = median_ms(lambda: read_every_table(db), repeat)
        value = median_ms(lambda: run_checks(db, now_ms=now), repeat)
        report = run_checks(db, now_ms=now)
        for layer in LAYERS:
            ms = median_ms(
                lambda layer=layer: run_checks(db, layers=[layer], now_ms=now), max(1, repeat // 2)
            )
            s = report.summary()[layer]
            print(
                f"  {layer:<9} {ms:8.1f} ms  {s['fail']} fail, {s['warn']} warn, {s['info']} info", flush=True
            )
    row = {
        "name": f"doctor: every check of every layer ({messages:,} messages)",
        "value": value,
        "unit": "ms",
        "floor_name": FLOOR_NAME,
        "floor_value": floor,
        "runs": repeat,
    }
    return [row if result is None else result(**row)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", help="measure this database (read-only)")
    ap.add_argument(
        "--messages", type=int, default=20_000, help="size of the demo built when --db is not given"
    )
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    if args.db:
        path = Path(args.db).expanduser()
    else:
        from core import demo

        path = CACHE / f"health-{args.messages}.sqlite"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            demo.generate(path, messages=args.messages, seed=0, now=FIXED_NOW)
    for r in measure(path, args.repeat):
        print(f"{r['name']}: {r['value']:.1f} ms beside {r['floor_value']:.1f} ms ({r['floor_name']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
