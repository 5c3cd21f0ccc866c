"""Benchmark of the change set (issue "Review"): a week with a time baseline, and a comparison with a
backup of the same size.

    python bench/bench_changes.py --db bench/.cache/run-100000-s0-g....sqlite [--runs N]

Figures, as medians of warm runs (``bench/run.py`` runs them as the ``changes`` group):

* ``changes since a week ago``: :func:`core.changes.changes_since` over the 7 days before ``now`` (every
  layer, the audit trail, the decay model) beside the floor **raw SQL: the week's rows of every layer
  read** (the window's messages and actions through their timestamp index, and the fact, note, skill,
  event and schedule rows dated in the window), the least any answer must read;
* ``changes against a backup``: :func:`core.changes.changes_against` between a backup made a week before
  ``now`` (the benchmark database without the last week, cached beside it) and the database, streaming
  with progress, beside the floor **raw SQL: every column of both files read once**;
* ``peak memory of the comparison``: the process's peak RSS after the comparison beside its RSS before
  it (bounded memory: the ratio stays near 1 whatever the size).
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from core.changes import changes_against, changes_since  # noqa: E402
from core.db import MemoryDB  # noqa: E402
from core.engine import sqlite3  # noqa: E402

DAY = 86_400_000
WEEK = 7 * DAY
TABLES = (
    "memory_facts",
    "memory_skills",
    "memory_notes",
    "memory_raw_messages",
    "memory_actions",
    "memory_calendar",
    "memory_schedules",
)


def median_ms(fn: Callable[[], Any], runs: int) -> float:
    fn()
    times = []
    for _ in range(max(1, runs)):
        gc.collect()
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


# -- floors -------------------------------------------------------------------------------------------------


def floor_week(conn: Any, since: int, until: int) -> int:
    """The week's rows of every layer, read (no grouping, no model, no Python objects)."""
    rng = (since, until)
    n = 0
    for sql in (
        "SELECT id, session_id, role, timestamp, origin_session_id FROM memory_raw_messages "
        "WHERE timestamp > ? AND timestamp <= ?",
        "SELECT id, tool_name, success, timestamp, linked_skill FROM memory_actions WHERE timestamp > ? AND timestamp <= ?",
        "SELECT * FROM memory_facts WHERE (created_at > ?1 AND created_at <= ?2) OR (forgotten_at > ?1 AND forgotten_at <= ?2)",
        "SELECT * FROM memory_notes WHERE (created_at > ?1 AND created_at <= ?2) OR (forgotten_at > ?1 AND forgotten_at <= ?2)",
        "SELECT * FROM memory_skills WHERE created_at > ? AND created_at <= ?",
        "SELECT * FROM memory_calendar WHERE created_at > ? AND created_at <= ?",
        "SELECT * FROM memory_schedules WHERE created_at > ? AND created_at <= ?",
    ):
        n += len(conn.execute(sql, rng).fetchall())
    return n


def floor_read_both(paths: tuple[Path, Path]) -> int:
    """Every column of the compared tables of both files, read once inside SQLite."""
    total = 0
    for p in paths:
        conn = sqlite3.connect(f"file:{p.resolve()}?mode=ro&immutable=1", uri=True)
        try:
            for t in TABLES:
                cols = [r[1] for r in conn.execute(f'PRAGMA table_info("{t}")')]
                expr = " + ".join(f'coalesce(length(CAST("{c}" AS BLOB)), 0)' for c in cols)
                total += conn.execute(f"SELECT sum({expr}) FROM {t}").fetchone()[0] or 0
        finally:
            conn.close()
    return total


# -- the week-old backup ---------------------------------------------------------------------------------------


def week_old_backup(db_path: Path, now: int) -> Path:
    """The benchmark database as a backup taken a week before ``now`` would hold it (cached beside it as
    ``<name>-weekago.sqlite``, its modification time the week-old moment it stands for)."""
    t0 = now - WEEK
    path = db_path.with_name(db_path.stem + "-weekago.sqlite")
    if not path.exists():
        tmp = path.with_name(path.name + ".partial")
        tmp.unlink(missing_ok=True)
        src = sqlite3.connect(f"file:{db_path.resolve()}?mode=ro&immutable=1", uri=True)
        dst = sqlite3.connect(str(tmp), isolation_level=None)
        try:
            src.backup(dst)
            _roll_back_a_week(dst, t0)
            dst.execute("PRAGMA journal_mode=DELETE")
        finally:
            dst.close()
            src.close()
        os.replace(tmp, path)
    os.utime(path, (t0 / 1000, t0 / 1000))
    return path


def _roll_back_a_week(conn: Any, t0: int) -> None:
    conn.execute("BEGIN")
    for t in ("memory_raw_messages", "memory_actions"):
        conn.execute(f"DELETE FROM {t} WHERE timestamp > ?", (t0,))
    conn.execute(
        "UPDATE memory_facts SET superseded_by = NULL WHERE superseded_by IN "
        "(SELECT id FROM memory_facts WHERE created_at > ?)",
        (t0,),
    )
    for t in ("memory_facts", "memory_notes", "memory_skills", "memory_calendar", "memory_schedules"):
        conn.execute(f"DELETE FROM {t} WHERE created_at > ?", (t0,))
    for t in ("memory_facts", "memory_notes"):
        conn.execute(f"UPDATE {t} SET forgotten_at = NULL WHERE forgotten_at > ?", (t0,))
    conn.execute("COMMIT")


# -- the figures -------------------------------------------------------------------------------------------------


def _status_mib(field: str) -> float | None:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return None


def _reset_peak() -> None:
    """Start a new peak (Linux: writing 5 to clear_refs resets VmHWM to the current RSS)."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
    except OSError:
        pass


def _rss_mib() -> float:
    got = _status_mib("VmRSS")
    return got if got is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _peak_mib() -> float:
    got = _status_mib("VmHWM")
    return got if got is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(db_path: Path, runs: int, now: int, result: Callable[..., dict]) -> list[dict]:
    out = []
    since = now - WEEK
    with MemoryDB.open(db_path, check=False) as db:
        cs = changes_since(db, since, until=now)
        t_ours = median_ms(lambda: changes_since(db, since, until=now), runs)
        t_floor = median_ms(lambda: floor_week(db.conn, since, now), runs)
    counts = ", ".join(f"{k} {v}" for k, v in cs.counts().items())
    print(
        f"  changes since a week ago: {len(cs.items)} changes ({counts}), {t_ours:.0f} ms vs {t_floor:.1f} ms",
        flush=True,
    )
    out.append(
        result(
            "changes since a week ago (time baseline)",
            t_ours,
            "ms",
            "raw SQL: the week's rows of every layer read",
            t_floor,
            runs,
        )
    )
    backup = week_old_backup(db_path, now)
    cmp_runs = max(1, runs // 3)
    gc.collect()
    _reset_peak()
    rss_before = _rss_mib()
    ticks: list[int] = []
    cs = changes_against(backup, db_path=db_path, now=now, progress=lambda d, t: ticks.append(d))
    rss_peak = _peak_mib()
    t_cmp = median_ms(lambda: changes_against(backup, db_path=db_path, now=now), cmp_runs)
    t_read = median_ms(lambda: floor_read_both((backup, db_path)), cmp_runs)
    print(
        f"  changes against a week-old backup: {len(cs.items)} changes, {len(ticks)} progress reports, "
        f"{t_cmp:.0f} ms vs {t_read:.0f} ms; RSS {rss_before:.0f} MiB before, peak {rss_peak:.0f} MiB",
        flush=True,
    )
    out.append(
        result(
            "changes against a backup of the same size (streamed)",
            t_cmp,
            "ms",
            "raw SQL: every column of both files read once",
            t_read,
            cmp_runs,
        )
    )
    out.append(
        result(
            "peak memory of the backup comparison",
            rss_peak,
            "MiB",
            "the same process before it",
            rss_before,
            1,
        )
    )
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", required=True, help="a benchmark database (bench/run.py --build-only makes one)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--now", type=int, default=1_781_524_800_000)
    args = ap.parse_args()

    def result(name: str, value: float, unit: str, floor_name: str, floor_value: float, runs: int) -> dict:
        return {
            "name": name,
            "value": value,
            "unit": unit,
            "floor_name": floor_name,
            "floor_value": floor_value,
            "runs": runs,
        }

    for r in measure(Path(args.db), args.runs, args.now, result):
        print(r)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
