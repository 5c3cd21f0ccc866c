"""Benchmark of the privacy purge (issue "Privacy", item 2): 100 findings purged from a copy of the large
database, and the VACUUM a person may add.

    python bench/bench_privacy_purge.py --db bench/.cache/run-1000000-s0-g....sqlite [--runs N]

The database is never written: it is copied (a plain file copy) into a temporary folder, and
every run plants 100 made-up secrets there first (60 messages, 15 actions, 10 notes, 10 facts, 5 skills,
appended through the triggers as the agent writes them) and builds their findings by hand (the scan has
its own benchmark). Figures, as medians of the runs (``bench/run.py`` runs them as the ``purge`` group):

* ``privacy purge of 100 findings``: :func:`core.privacy.purge.plan` then :func:`~core.privacy.purge.purge`
  (redact; the database only, no backups), the 1 s watch for a writer included, beside the floor **raw
  SQL: the same 100 values updated in one transaction** (``SET col = col`` on the purged rows, after the
  purge: the notes' and skills' triggers reindex them; no secure_delete, no checkpoint). The goal is
  10 s. Each run's line says how long the plan took, how long the file was held, and what the search of
  its free space found (a file this size is ``unchecked``: too large to search within the budget).
* ``VACUUM after the purge`` (one run): the purge's ``vacuum=True`` extra, beside the floor **a copy of
  the database file** (the least a rebuild writes).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from core.files import connect_file  # noqa: E402
from core.jsutil import js_stringify  # noqa: E402
from core.privacy.finding import PrivacyFinding  # noqa: E402
from core.privacy.purge import plan, purge  # noqa: E402

FINDINGS = 100
SHAPE = (("messages", 60), ("actions", 15), ("notes", 10), ("facts", 10), ("skills", 5))


def _secret(run: int, i: int) -> str:
    return f"sk-proj-Bench{run:02d}x{i:03d}Q9zT4kLm2Xw8Rv7Pn3Hy"


def _insert(c: Any, layer: str, text: str, n: int, t: int) -> tuple[str, str, Any]:
    """One planted row; ``(table, column, key)``."""
    if layer == "messages":
        cur = c.execute(
            "INSERT INTO memory_raw_messages (session_id, role, content, timestamp) VALUES ('global', 'user', ?, ?)",
            (f"here is my key {text} thanks", t),
        )
        return "memory_raw_messages", "content", cur.lastrowid
    if layer == "actions":
        cur = c.execute(
            "INSERT INTO memory_actions (session_id, tool_name, params_json, result, success, timestamp) "
            "VALUES ('global', 'http_request', ?, 'ok', 1, ?)",
            (js_stringify({"headers": {"Authorization": f"Bearer {text}"}}), t),
        )
        return "memory_actions", "params_json", cur.lastrowid
    key = f"bench-{layer}-{text[13:16]}-{n}"
    if layer == "notes":
        c.execute(
            "INSERT INTO memory_notes (id, content, created_at) VALUES (?, ?, ?)", (key, f"api key {text}", t)
        )
        return "memory_notes", "content", key
    if layer == "facts":
        c.execute(
            "INSERT INTO memory_facts (id, namespace, key, value_json, created_at) VALUES (?, 'user', ?, ?, ?)",
            (key, key, js_stringify(f"token {text}"), t),
        )
        return "memory_facts", "value_json", key
    c.execute(
        "INSERT INTO memory_skills (id, name, description, trigger_keywords, action_template, created_at) "
        "VALUES (?, ?, ?, '[]', 'x', ?)",
        (key, key, f"call with {text}", t),
    )
    return "memory_skills", "description", key


def plant(path: Path, run: int) -> list[PrivacyFinding]:
    """100 secrets written into ``path`` and their findings."""
    c = connect_file(path, mode="rw", timeout_s=5.0)
    out: list[PrivacyFinding] = []
    try:
        c.execute("BEGIN IMMEDIATE")
        n = 0
        for layer, count in SHAPE:
            for _ in range(count):
                text = _secret(run, n)
                table, column, key = _insert(c, layer, text, n, 1_781_524_800_000 + n)
                stored = c.execute(f"SELECT {column} FROM {table} WHERE id = ?", (key,)).fetchone()[0]
                at = stored.index(text)
                out.append(
                    PrivacyFinding(
                        f"bench-{run}-{n}", "secret.openai_key", "secret", layer, table, key, column, at,
                        at + len(text), "sk-p…", 0.99,
                    )
                )  # fmt: skip
                n += 1
        c.execute("COMMIT")
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        c.close()
    return out


def _floor(path: Path, findings: list[PrivacyFinding]) -> float:
    """Seconds for the same 100 values rewritten by plain UPDATEs in one transaction (what a person is
    told to run; the notes' and skills' triggers reindex them)."""
    c = connect_file(path, mode="rw", timeout_s=5.0)
    try:
        t0 = time.perf_counter()
        c.execute("BEGIN IMMEDIATE")
        for f in findings:
            c.execute(f"UPDATE {f.table} SET {f.column} = {f.column} WHERE id = ?", (f.row,))
        c.execute("COMMIT")
        return time.perf_counter() - t0
    finally:
        c.close()


def _purge_once(path: Path, run: int, *, vacuum: bool = False) -> tuple[float, float, float, Any]:
    """``(seconds, floor seconds, plan seconds, result)``; the floor runs after the purge, on its rows."""
    findings = plant(path, run)
    t0 = time.perf_counter()
    p = plan(path, findings)
    planned = time.perf_counter() - t0
    result = purge(path, p, vacuum=vacuum, wal_recent_s=0)
    took = time.perf_counter() - t0
    if not result.ok:
        raise RuntimeError(f"the purge failed: {result.to_json()}")
    return took, _floor(path, findings), planned, result


def measure(
    db_path: Path,
    runs: int,
    result: Callable[..., dict],
    log: Callable[[str], None] = print,
) -> list[dict]:
    with tempfile.TemporaryDirectory(prefix="philont-bench-purge-") as tmp:
        copy = Path(tmp) / "memory.sqlite"
        t0 = time.perf_counter()
        shutil.copyfile(db_path, copy)
        copy_s = time.perf_counter() - t0
        log(f"  copied the database in {copy_s:.1f} s")
        _purge_once(copy, 0)  # warm-up
        took, floors = [], []
        for i in range(1, runs + 1):
            s, f, planned, r = _purge_once(copy, i)
            took.append(s)
            floors.append(f)
            live = r.files[0]
            log(
                f"  run {i}: {s * 1000:.0f} ms ({live.rows} rows): plan {planned * 1000:.0f} ms, the file "
                f"rewritten in {live.seconds * 1000:.0f} ms (free space {live.free_space}); floor {f * 1000:.1f} ms"
            )
        _s, _f, _p, vac = _purge_once(copy, runs + 1, vacuum=True)
        vacuum_s = vac.files[0].vacuum_s or 0.0
        t0 = time.perf_counter()
        shutil.copyfile(copy, Path(tmp) / "again.sqlite")
        copy2_s = time.perf_counter() - t0
        log(f"  VACUUM {vacuum_s:.1f} s, file copy {copy2_s:.1f} s")
    return [
        result(
            f"privacy purge of {FINDINGS} findings (plan + purge, writer watch included; goal ≤ 10 s)",
            statistics.median(took) * 1000,
            "ms",
            "raw SQL: the same 100 values updated in one transaction",
            statistics.median(floors) * 1000,
            runs,
        ),
        result(
            "VACUUM after the purge", vacuum_s * 1000, "ms", "a copy of the database file", copy2_s * 1000, 1
        ),
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", required=True, help="the database (copied, never written)")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()

    def result(name: str, value: float, unit: str, floor_name: str, floor_value: float, runs: int) -> dict:
        return {
            "name": name,
            "value": value,
            "unit": unit,
            "floor_name": floor_name,
            "floor_value": floor_value,
        }

    for r in measure(Path(args.db), args.runs, result):
        print(f"{r['name']}: {r['value']:.0f} {r['unit']} (floor {r['floor_name']}: {r['floor_value']:.0f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
