"""Benchmark of the turn context on a large database: core timings and keystroke-to-updated-preview.

    python bench/bench_context.py                      # 1,000,000 messages
    python bench/bench_context.py --db /path/to/memory.sqlite
    python bench/bench_context.py --messages 50000 --no-gui

The database is ``--db``, else ``/tmp/bench-1m.sqlite`` when it exists (1M messages), else a demo
database built with ``core.demo.generate`` and cached under ``bench/.cache/`` (a few minutes for 1M).

Part 1, core (median of ``--repeat`` warm runs, milliseconds), for messages whose recall query hits
through the trigram index, and for messages that miss (then the reference falls back to a ``LIKE`` scan
of every message's content, which the context answers from the index when it can prove the answer is
the same: ``sub`` is ``proven`` or ``scanned``):

* ``floor FTS``: the reference's raw FTS query alone (``... MATCH ? ORDER BY m.timestamp DESC LIMIT 10``);
* ``floor ref``: the reference's whole search (the FTS query, then ``LIKE`` when it found nothing);
* ``retrieve``: ``TimelineRetriever.retrieve`` over the reference's store (recency + recall, with its scan);
* ``search``: the recall search ``build_context`` runs (``ProvingRawStore.search_messages``, alone);
* ``context``: ``build_context`` with the memory prefix reused (what a keystroke costs);
* ``cold``: ``build_context`` building the prefix too (first preview, or after the database changed);
* ``explain``: the part of ``cold`` spent on the recall explanation (word counts, keyword query).

Part 2, the Context tab (offscreen Qt): a message is typed one character every 120 ms (faster than the
250 ms debounce); ``to preview`` is the time from the last keystroke to the updated preview on screen
(debounce included), ``work`` the same minus the debounce wait (compute + render), ``render`` the HTML
layout alone. While the recall search runs, the rest of the preview (prefix, trigger, recent
messages) is shown first when the search takes more than 150 ms: ``first paint`` is the time to
whichever appeared first. ``runs`` counts the computations started while typing (1 = the debounce merged the
keystrokes). A second pass types with a 400 ms pause in the middle so that a computation starts and is
cancelled by the next keystroke (``cancelled``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from core.context import build_context  # noqa: E402
from core.db import MemoryDB  # noqa: E402
from core.recall import RetrieveOptions, TimelineRetriever  # noqa: E402
from core.substring import ProvingRawStore  # noqa: E402
from core.timeline import RawStore  # noqa: E402

CACHE = Path(__file__).resolve().parent / ".cache"
DEFAULT_1M = Path("/tmp/bench-1m.sqlite")
DEMO_NOW = 1_781_524_800_000

CASES = [
    ("zh recall hit", "数据库迁移"),
    ("en recall hit", "rollback script"),
    ("zh trigger, recall miss", "你还记得我们上次讨论的数据库迁移吗？"),
    ("en trigger, recall miss", "Do you still remember the rollback plan?"),
    ("en miss", "zzqxv"),
    ("en question, recall miss", "Do you remember what we discussed about the Berlin trip last time?"),
    ("short miss (scanned)", "zq"),
    ("empty message", ""),
]

REF_FTS = (
    "SELECT m.* FROM memory_raw_messages m JOIN memory_raw_messages_fts fts ON fts.rowid = m.rowid "
    "WHERE memory_raw_messages_fts MATCH ? ORDER BY m.timestamp DESC LIMIT ?"
)
REF_LIKE = "SELECT m.* FROM memory_raw_messages m WHERE m.content LIKE '%' || ? || '%' ORDER BY m.timestamp DESC LIMIT ?"


def resolve_db(args: argparse.Namespace) -> Path:
    if args.db:
        return Path(args.db)
    if args.messages == 1_000_000 and DEFAULT_1M.exists():
        return DEFAULT_1M
    path = CACHE / f"context-demo-{args.messages}-s7.sqlite"
    if not path.exists():
        from core import demo

        CACHE.mkdir(parents=True, exist_ok=True)
        print(f"building {args.messages:,} messages with core.demo.generate ...", flush=True)
        t0 = time.perf_counter()
        demo.generate(path, messages=args.messages, seed=7, now=DEMO_NOW)
        print(f"built {path} in {time.perf_counter() - t0:.0f} s", flush=True)
    return path


def safe(q: str) -> str:
    for ch in "'\"*()":
        q = q.replace(ch, " ")
    return q.strip()


def floor_fts(conn, q: str, limit: int = 10) -> list:
    s = safe(q)
    if len(s.encode("utf-16-le")) // 2 < 3:
        return []
    try:
        return conn.execute(REF_FTS, (s, limit)).fetchall()
    except Exception:
        return []


def floor_ref(conn, q: str, limit: int = 10) -> list:
    s = safe(q)
    if not s or len(q.strip()) < 2:
        return []
    rows = floor_fts(conn, q, limit)
    return rows or conn.execute(REF_LIKE, (s, limit)).fetchall()


def context_ms(db, msg: str, now: int, repeat: int, **kw) -> tuple[float, float, float, object]:
    """Cold ``build_context`` (the prefix built too): medians of the whole call, of the recall search
    inside it and of the explanation, in ms, and the last result."""
    build_context(db, msg, host_os="linux", now=now, **kw)
    total, search, explain = [], [], []
    r = None
    for _ in range(repeat):
        t = time.perf_counter()
        r = build_context(db, msg, host_os="linux", now=now, **kw)
        total.append((time.perf_counter() - t) * 1000)
        search.append(r.timings_ms.get("recall_query", 0.0))
        explain.append(r.timings_ms.get("explain", 0.0))
    return statistics.median(total), statistics.median(search), statistics.median(explain), r


def median_ms(fn, repeat: int) -> float:
    fn()
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return statistics.median(out)


def bench_core(path: Path, now: int, repeat: int) -> None:
    db = MemoryDB.open(path)
    raw = RawStore(db)
    print(f"{path}: ~{raw.count_estimate():,} messages, SQLite {db.report.sqlite_version}, now={now}\n")
    prefix = build_context(db, "", host_os="linux", now=now).prefix
    head = (
        f"{'case':<26} {'mode':<5} {'sub':<8} {'recalled':>8} {'floor FTS':>10} {'floor ref':>10} "
        f"{'retrieve':>9} {'search':>8} {'context':>8} {'cold':>8} {'explain':>8}"
    )
    print("Core, milliseconds (median of warm runs)")
    print(head)
    print("-" * len(head))
    for label, msg in CASES:
        r = build_context(db, msg, host_os="linux", now=now, prefix=prefix)
        t_fts = median_ms(lambda m=msg: floor_fts(db.conn, m), repeat)
        t_ref = median_ms(lambda m=msg: floor_ref(db.conn, m), repeat)
        t_ret = median_ms(
            lambda m=msg: TimelineRetriever(raw).retrieve(RetrieveOptions(recall_query=m)), repeat
        )
        t_ctx = median_ms(lambda m=msg: build_context(db, m, host_os="linux", now=now, prefix=prefix), repeat)
        t_search = median_ms(lambda m=msg: ProvingRawStore(db).search_messages(m, limit=15), repeat)
        t_cold, _t, t_explain, _ = context_ms(db, msg, now, repeat)
        print(
            f"{label:<26} {r.search_mode:<5} {r.substring or '-':<8} {r.timeline.recall_count:>8} "
            f"{t_fts:>10.2f} {t_ref:>10.1f} {t_ret:>9.1f} {t_search:>8.2f} {t_ctx:>8.1f} {t_cold:>8.1f} "
            f"{t_explain:>8.1f}"
        )
    t_prefix = median_ms(lambda: build_context(db, "", host_os="linux", now=now, recent_limit=0), repeat)
    print(f"\nmemory prefix alone (build_context with recent_limit=0, empty message): {t_prefix:.1f} ms")
    db.close()


def bench_gui(path: Path, now: int, repeat: int) -> None:
    import tempfile

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    # the benchmark must not change the user's settings (budgets, host OS)
    os.environ["PHILONT_DESKTOP_SETTINGS_DIR"] = tempfile.mkdtemp(prefix="bench-context-settings-")
    from philont_desktop.context import AppContext
    from philont_desktop.context_tab.view import DEBOUNCE_MS, ContextTab
    from philont_desktop.qt import QApplication, QtTest
    from philont_desktop.theme import Theme

    app = QApplication.instance() or QApplication(sys.argv[:1])
    theme = Theme("light")
    theme.apply()
    ctx = AppContext.open(path, interactive=False, theme=theme)
    tab = ContextTab(ctx)
    tab.resize(1400, 900)
    tab.show()
    tab.set_fixed_now(now)
    tab.set_host_os("linux")
    tab.reset_defaults()
    tab.ensure_activated()
    tab.wait_idle(120_000)

    def clear() -> None:
        tab.message_edit.clear()
        tab.wait_idle(120_000)

    def type_text(text: str, pause_at: int | None = None) -> None:
        for i, ch in enumerate(text):
            tab.message_edit.moveCursor(tab.message_edit.textCursor().MoveOperation.End)
            tab.message_edit.insertPlainText(ch)
            QtTest.QTest.qWait(400 if pause_at is not None and i == pause_at else 120)

    print(f"\nContext tab, keystroke to updated preview (debounce {DEBOUNCE_MS} ms, one key every 120 ms)")
    head = (
        f"{'case':<26} {'first paint':>12} {'to preview':>11} {'work':>8} {'render':>7} {'runs':>5}"
        f" {'paused: to preview':>19} {'runs':>5} {'cancelled':>10}"
    )
    print(head)
    print("-" * len(head))
    for label, msg in CASES:
        if not msg:
            continue
        lat, work, render, runs, cancelled, first = [], [], [], [], [], []
        p_lat, p_runs = [], []
        for k in range(2 * repeat):
            pause = len(msg) // 2 if k % 2 == 1 else None
            clear()
            before = tab.computations_started
            shown = tab.results_shown
            done_jobs: list = []
            ctx.workers.jobDone.connect(done_jobs.append)
            try:
                type_text(msg, pause)
                deadline = time.perf_counter() + 120
                while tab.results_shown == shown or tab.result is None or tab.result.message != msg:
                    app.processEvents()
                    time.sleep(0.002)
                    if time.perf_counter() > deadline:
                        raise RuntimeError(f"no preview for {msg!r}")
                tab.wait_idle(120_000)
            finally:
                ctx.workers.jobDone.disconnect(done_jobs.append)
            n_cancelled = sum(1 for j in done_jobs if j.key == "context:preview" and j.state == "cancelled")
            if pause is None:
                lat.append(tab.last_input_to_shown_ms or 0.0)
                first.append(tab.last_input_to_first_paint_ms or 0.0)
                work.append((tab.last_input_to_shown_ms or 0.0) - DEBOUNCE_MS)
                render.append(tab.last_render_ms or 0.0)
                runs.append(tab.computations_started - before)
            else:
                p_lat.append(tab.last_input_to_shown_ms or 0.0)
                p_runs.append(tab.computations_started - before)
                cancelled.append(n_cancelled)
        print(
            f"{label:<26} {statistics.median(first):>10.0f}ms {statistics.median(lat):>9.0f}ms {statistics.median(work):>6.0f}ms "
            f"{statistics.median(render):>5.0f}ms {max(runs):>5} {statistics.median(p_lat):>17.0f}ms"
            f" {max(p_runs):>5} {sum(cancelled):>10}"
        )
    ctx.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", metavar="PATH", help="benchmark this database (read-only)")
    ap.add_argument("--messages", type=int, default=1_000_000, help="size of the generated database")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-gui", action="store_true", help="core timings only")
    args = ap.parse_args(argv)
    path = resolve_db(args)
    with MemoryDB.open(path) as db:
        now = RawStore(db).time_range()
        now_ms = (now[1] + 60_000) if now else DEMO_NOW
    bench_core(path, now_ms, args.repeat)
    if not args.no_gui:
        bench_gui(path, now_ms, max(2, min(args.repeat, 4)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
