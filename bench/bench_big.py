"""A 10 MB message: what it costs to visit every tab with it, beside the same visit without it.

    python bench/bench_big.py --db PATH            # both visits, three runs each, medians
    python bench/bench_big.py --db PATH --runs 5

The goal (issue #17): visiting every tab takes at most one second more with the message than without.
Cards, previews and tables show a bounded excerpt of a long message (with "Show more"), so a 10 MB
message must never be laid out whole.

The message is added to a copy of the database (``bench/.cache/<name>-big10mb.sqlite``, made once and
kept): a tool's output of 10 MiB, log lines in English and Chinese, the newest message of the newest
conversation, so it is on the Timeline's first page, among the Context preview's recent messages and
in the Actions/Conversations lists' neighbourhood. Each visit is a new process that opens the file and
visits every tab as ``--screenshot`` does (each tab shown, loaded, painted and grabbed); the figure is
the time from opening to the last tab's picture, the floor the same visit of the original file, the
runs of the two interleaved so that the machine's load falls on both alike.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

BIG_BYTES = 10 * 1024 * 1024
MARK = "BENCH-BIG "
CHILD_TIMEOUT_S = 900
LINES = (
    "2026-11-30T09:14:{s:02d}Z INFO  migrate: copied batch {i} of the 数据库 (orders, 4,096 rows) in {ms} ms",
    "2026-11-30T09:14:{s:02d}Z WARN  迁移: 第 {i} 批有 {ms} 行校验和不一致，已重试一次",
    "2026-11-30T09:14:{s:02d}Z DEBUG http GET /api/v2/orders?page={i} -> 200 ({ms} ms, 18.2 KiB)",
)


def big_text(size: int = BIG_BYTES) -> str:
    """About ``size`` bytes (UTF-8) of a tool's log output, English and Chinese lines."""
    parts: list[str] = []
    total = i = 0
    while total < size:
        line = LINES[i % len(LINES)].format(s=i % 60, i=i, ms=(i * 37) % 900 + 12)
        parts.append(line)
        total += len(line.encode("utf-8")) + 1
        i += 1
    return "\n".join(parts)


def big_copy(db_path: Path) -> Path:
    """A copy of ``db_path`` with the 10 MB message as its newest message (made once, then reused)."""
    target = db_path.with_name(db_path.stem + "-big10mb.sqlite")
    if target.exists() and target.stat().st_mtime >= db_path.stat().st_mtime:
        return target
    tmp = target.with_suffix(".part")
    tmp.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    dst = sqlite3.connect(tmp)
    try:
        src.backup(dst)
        session, last = dst.execute(
            "SELECT session_id, timestamp FROM memory_raw_messages ORDER BY timestamp DESC, id DESC LIMIT 1"
        ).fetchone()
        with dst:
            dst.execute(
                "INSERT INTO memory_raw_messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)",
                (session, "tool", big_text(), int(last) + 1000),
            )
    finally:
        dst.close()
        src.close()
    os.replace(tmp, target)
    return target


def _child_visit(db: str) -> None:
    """In a new process: open ``db`` and visit every tab (``--screenshot``); print how long it took."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from philont_desktop.app import main

    with tempfile.TemporaryDirectory(prefix="philont-bench-big-") as shots:
        t0 = time.perf_counter()
        code = main(["--db", db, "--screenshot", shots])
        ms = (time.perf_counter() - t0) * 1000
        tabs = len(list(Path(shots).glob("*.png")))
    if code != 0:
        raise SystemExit(f"visiting every tab failed (exit {code})")
    print(MARK + json.dumps({"ms": ms, "tabs": tabs}), flush=True)
    os._exit(0)


def _visit(db: Path, env: dict[str, str]) -> dict[str, Any]:
    p = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", str(db)],
        capture_output=True,
        text=True,
        timeout=CHILD_TIMEOUT_S,
        env=env,
    )
    for line in p.stdout.splitlines():
        if line.startswith(MARK):
            return json.loads(line[len(MARK) :])
    raise RuntimeError(f"no result from the visit of {db} (exit {p.returncode}):\n{p.stderr[-3000:]}")


def measure(
    db_path: Path,
    runs: int,
    result: Callable[..., dict],
    *,
    env: dict[str, str] | None = None,
    log: Callable[[str], None] = print,
) -> list[dict]:
    """The visit with the 10 MB message beside the visit without it (medians of ``runs``, after a
    warm-up pair)."""
    big = big_copy(db_path)
    env = dict(os.environ if env is None else env)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    with_big: list[float] = []
    without: list[float] = []
    for i in range(runs + 1):
        a = _visit(db_path, env)
        b = _visit(big, env)
        log(
            f"  run {i}: without {a['ms']:.0f} ms, with the 10 MB message {b['ms']:.0f} ms ({b['tabs']} tabs)"
        )
        if i:
            without.append(a["ms"])
            with_big.append(b["ms"])
    value, floor = statistics.median(with_big), statistics.median(without)
    log(f"  10 MB message: {value - floor:+.0f} ms over the visit without it (goal: at most +1,000 ms)")
    return [
        result(
            "visiting every tab with a 10 MB message (goal: ≤ 1 s more)",
            value,
            "ms",
            "the same visit without it",
            floor,
            runs,
        )
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", help="the database (default: the quick benchmark's)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        _child_visit(args.child)
        return 0
    import run

    db = Path(args.db) if args.db else run.ensure_db(run.FULL_MESSAGES // 10)
    out = measure(db, args.runs, run.result)
    print(json.dumps(out, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
