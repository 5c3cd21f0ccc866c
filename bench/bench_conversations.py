"""Benchmark of the conversations (the timeline by origin): listing them, a page of one, a search in one.

    python bench/bench_conversations.py --db bench/.cache/run-100000-s0-g....sqlite [--runs N]

Figures, as medians of warm runs (``bench/run.py`` runs them as the ``conversations`` group):

* ``conversations listed``: :class:`core.conversations.ConversationIndex` computing every conversation
  with its count and time span from scratch, beside the floor **raw SQL: one GROUP BY pass over the
  messages** (origin and session of every row: what a listing without the indexes must read);
* ``conversations refreshed``: the index asked again with nothing appended (what each live tick
  costs), beside the floor **raw SQL: the lowest and highest rowid**;
* ``conversation page``: the 100 newest messages of the biggest origin, then of the unknown-origin
  rows (``global``), beside the floor **raw SQL: that origin's 100 newest rows through its index**;
* ``search in a small conversation``: the common word of the generator searched in the smallest
  origin with at least 20 messages, beside the floor **reference SQL, raw** (the unfiltered search).
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
for _p in (ROOT, ROOT / "bench"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from core import demo  # noqa: E402
from core.conversations import ConversationIndex  # noqa: E402
from core.db import MemoryDB  # noqa: E402
from core.timeline import RawStore  # noqa: E402


def median_ms(fn: Callable[[], Any], runs: int) -> float:
    fn()
    times = []
    for _ in range(max(1, runs)):
        gc.collect()
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def floor_group_by(conn: Any) -> list:
    return conn.execute(
        "SELECT origin_session_id, session_id, count(*), min(timestamp), max(timestamp) "
        "FROM memory_raw_messages GROUP BY 1, 2"
    ).fetchall()


def floor_bounds(conn: Any) -> tuple:
    hi = conn.execute("SELECT max(rowid) FROM memory_raw_messages").fetchone()[0]
    lo = conn.execute("SELECT min(rowid) FROM memory_raw_messages").fetchone()[0]
    return lo, hi


def floor_page(conn: Any, origin: str) -> list:
    return conn.execute(
        "SELECT * FROM memory_raw_messages WHERE origin_session_id = ? ORDER BY timestamp DESC, id DESC LIMIT 100",
        (origin,),
    ).fetchall()


def floor_search(conn: Any, term: str) -> list:
    """The reference's FTS query (RawStore.searchMessages), unfiltered, first page of 20."""
    return conn.execute(
        "SELECT m.* FROM memory_raw_messages m JOIN memory_raw_messages_fts fts ON fts.rowid = m.rowid "
        "WHERE memory_raw_messages_fts MATCH ? ORDER BY m.timestamp DESC LIMIT 20",
        (term,),
    ).fetchall()


def measure(db_path: Path, runs: int, result: Callable[..., dict]) -> list[dict]:
    out = []
    with MemoryDB.open(db_path, check=False) as db:
        conn = db.conn
        convs = ConversationIndex(db).list()
        t_list = median_ms(lambda: ConversationIndex(db).list(), max(1, runs // 2))
        t_group = median_ms(lambda: floor_group_by(conn), max(1, runs // 2))
        print(f"  {len(convs)} conversations listed: {t_list:.0f} ms vs {t_group:.0f} ms", flush=True)
        out.append(
            result(
                "conversations listed (counts and spans, from the indexes)",
                t_list,
                "ms",
                "raw SQL: one GROUP BY pass over the messages",
                t_group,
                runs,
            )
        )
        index = ConversationIndex(db)
        index.list()
        t_refresh = median_ms(index.list, runs)
        t_bounds = median_ms(lambda: floor_bounds(conn), runs)
        out.append(
            result(
                "conversations refreshed (nothing new)",
                t_refresh,
                "ms",
                "raw SQL: min and max rowid",
                t_bounds,
                runs,
            )
        )
        raw = RawStore(db)
        origins = [c for c in convs if c.kind == "origin"]
        big = max(origins, key=lambda c: c.message_count)
        t_page = median_ms(lambda: raw.query_timeline("desc", 100, conversations=[big.id]), runs)
        t_floor = median_ms(lambda: floor_page(conn, big.id), runs)
        out.append(
            result(
                f"conversation page: 100 newest of the biggest origin ({big.message_count:,} messages)",
                t_page,
                "ms",
                "raw SQL: its 100 newest rows through the origin index",
                t_floor,
                runs,
            )
        )
        t_unknown = median_ms(lambda: raw.query_timeline("desc", 100, conversations=["global"]), runs)
        out.append(
            result(
                "conversation page: 100 newest of unknown origin",
                t_unknown,
                "ms",
                "raw SQL: its 100 newest rows through the origin index",
                t_floor,
                runs,
            )
        )
        small = min((c for c in origins if c.message_count >= 20), key=lambda c: c.message_count)
        term = demo.BENCH_TERMS["common"]
        t_search = median_ms(lambda: raw.search_messages(term, limit=20, conversations=[small.id]), runs)
        t_ref = median_ms(lambda: floor_search(conn, term), runs)
        out.append(
            result(
                f"search '{term}' in a conversation of {small.message_count} messages",
                t_search,
                "ms",
                "reference SQL, raw (unfiltered)",
                t_ref,
                runs,
            )
        )
    for r in out:
        print(f"  {r['name']}: {r['value']:.2f} ms vs {r['floor_value']:.2f} ms", flush=True)
    return out


def _plain_result(name: str, value: float, unit: str, floor_name: str, floor_value: float, runs: int) -> dict:
    return {"name": name, "value": value, "unit": unit, "floor_name": floor_name, "floor_value": floor_value}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--db", required=True, type=Path)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    measure(args.db, args.runs, _plain_result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
