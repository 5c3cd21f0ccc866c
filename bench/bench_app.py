"""Desktop benchmarks: cold start to the first painted window and time to first search results.

    python bench/bench_app.py                          # 1,000,000 messages (built once, cached)
    python bench/bench_app.py --db /tmp/bench-1m.sqlite
    python bench/bench_app.py --messages 50000 --runs 3

Cold start. Each run starts a new process and measures, from just before the process is spawned, until

* **window**: the first paint event of any widget of the main window (``philont-desktop --db X``),
* **newest page**: the first paint of the Timeline's conversation with the newest page of the timeline
  in it (the tab the window opens on),

beside a floor measured in the same run: a separate process that starts a bare ``QMainWindow`` and
stops at its first paint. Floor and application runs alternate, so both see the same machine state.
The database file is in the OS page cache after the first run (this measures a warm file cache; the
application never counts the timeline, so a cold cache costs a few page reads, not a scan).

Search. In this process: the Timeline tab over the same database; for each benchmark term of
:data:`core.demo.BENCH_TERMS` the time from ``search()`` until the results list holds the first page,
and until that list has painted, beside the same page from ``RawStore.search_page`` called directly,
and beside the reference's raw SQL (``... JOIN fts ... MATCH ? ORDER BY m.timestamp DESC LIMIT 50``,
then ``LIKE`` when that gives no rows or the term is shorter than 3 characters) on its own connection.
The first run of each is shown, and the median of the warm runs after it. (Typing adds the search box's
300 ms debounce; Enter searches at once.)

The database is built with :func:`core.demo.generate` under ``bench/.cache/`` when ``--db`` is not given.
Qt runs on the ``offscreen`` platform unless ``QT_QPA_PLATFORM`` says otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CACHE = Path(__file__).resolve().parent / ".cache"
CHILD_TIMEOUT_S = 120
RESULT = "BENCH-RESULT "


# -- children (separate processes) ------------------------------------------------------------------------


def _child_floor() -> None:
    from philont_desktop.qt import QApplication, QEvent, QMainWindow, QObject, QTimer

    app = QApplication([sys.argv[0]])
    win = QMainWindow()
    win.resize(1280, 820)
    seen: dict[str, float] = {}

    class Probe(QObject):
        def eventFilter(self, obj, ev):
            paint = ev.type() == QEvent.Type.Paint and "window" not in seen and obj.isWidgetType()
            if paint and obj.window() is win:
                seen["window"] = time.time()
                QTimer.singleShot(0, app.quit)
            return False

    probe = Probe()
    app.installEventFilter(probe)
    win.show()
    QTimer.singleShot(CHILD_TIMEOUT_S * 1000, app.quit)
    app.exec()
    print(RESULT + json.dumps(seen), flush=True)
    os._exit(0)


def _child_app(db: str) -> None:
    from philont_desktop.qt import QApplication, QEvent, QObject, QTimer

    app = QApplication([sys.argv[0]])
    seen: dict[str, float] = {}
    info: dict[str, object] = {}

    class Probe(QObject):
        def eventFilter(self, obj, ev):
            if ev.type() != QEvent.Type.Paint or not obj.isWidgetType():
                return False
            if "window" not in seen and type(obj.window()).__name__ == "MainWindow":
                seen["window"] = time.time()
            # Looked up, never imported here: an import would count in the time to the first paint.
            conversation = sys.modules.get("philont_desktop.timeline.conversation")
            if conversation is None:
                return False
            parent = obj.parent()
            view = conversation.ConversationView
            if "page" not in seen and isinstance(parent, view) and obj is parent.viewport():
                model = parent.model()
                if model.rowCount() > 0:
                    seen["page"] = time.time()
                    info["rows"] = model.rowCount()
                    info["newest_id"] = model.message_at(model.rowCount() - 1).id
                    QTimer.singleShot(0, app.quit)
            return False

    probe = Probe()
    app.installEventFilter(probe)
    QTimer.singleShot(CHILD_TIMEOUT_S * 1000, app.quit)
    from philont_desktop.app import main

    main(["--db", db, "--read-only"])
    print(RESULT + json.dumps({**seen, **info}), flush=True)
    os._exit(0)


def _spawn(kind: str, db: str, env: dict[str, str]) -> dict[str, float]:
    t0 = time.time()
    p = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", kind, db],
        env=env,
        capture_output=True,
        text=True,
        timeout=CHILD_TIMEOUT_S + 30,
    )
    for line in p.stdout.splitlines():
        if line.startswith(RESULT):
            got = json.loads(line[len(RESULT) :])
            return {k: (v - t0 if k in ("window", "page") else v) for k, v in got.items()}
    raise RuntimeError(f"{kind} run gave no result (exit {p.returncode}):\n{p.stdout}\n{p.stderr[-2000:]}")


# -- the parent ---------------------------------------------------------------------------------------------


def ensure_db(messages: int, seed: int) -> Path:
    from core import demo

    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"demo-{messages}-seed{seed}.sqlite"
    if not path.exists():
        print(f"building {path} ({messages:,} messages) …", flush=True)
        t = time.perf_counter()
        demo.generate(path, messages=messages, seed=seed, now=1_781_524_800_000)
        print(f"built in {time.perf_counter() - t:.1f} s", flush=True)
    return path


def _ms(x: float) -> str:
    return f"{x * 1000:,.0f} ms" if x >= 0.1 else f"{x * 1000:,.1f} ms"


def bench_cold_start(db: Path, runs: int) -> list[tuple[str, list[float]]]:
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    floor: list[float] = []
    window: list[float] = []
    page: list[float] = []
    rows = None
    for i in range(runs):
        with tempfile.TemporaryDirectory(prefix="philont-bench-settings-") as d:
            env["PHILONT_DESKTOP_SETTINGS_DIR"] = d  # fresh settings: no restored state, Timeline first
            f = _spawn("floor", str(db), env)
            a = _spawn("app", str(db), env)
        floor.append(f["window"])
        window.append(a["window"])
        page.append(a["page"])
        rows = (a.get("rows"), a.get("newest_id"))
        print(
            f"  run {i + 1}: floor {_ms(f['window'])}, window {_ms(a['window'])}, newest page {_ms(a['page'])}",
            flush=True,
        )
    print(f"  (the conversation showed {rows[0]} rows, newest message id {rows[1]})")
    return [
        ("bare QMainWindow, first paint (floor)", floor),
        ("philont-desktop, first paint of the window", window),
        ("philont-desktop, newest page of the timeline painted", page),
    ]


def _raw_reference(conn, term: str, limit: int = 50) -> int:
    """The reference's searchMessages SQL, run raw (spec Part A §4.3)."""
    from core.timeline import sanitize_query

    safe = sanitize_query(term)
    rows: list = []
    if len(safe.encode("utf-16-le")) // 2 >= 3:
        try:
            rows = conn.execute(
                "SELECT m.* FROM memory_raw_messages m JOIN memory_raw_messages_fts fts ON fts.rowid = m.rowid "
                "WHERE memory_raw_messages_fts MATCH ? ORDER BY m.timestamp DESC LIMIT ?",
                (safe, limit),
            ).fetchall()
        except Exception:
            rows = []
    if not rows:
        rows = conn.execute(
            "SELECT m.* FROM memory_raw_messages m WHERE m.content LIKE '%'||?||'%' ORDER BY m.timestamp DESC LIMIT ?",
            (safe, limit),
        ).fetchall()
    return len(rows)


def _timed(fn, runs: int) -> tuple[float, float]:
    first = None
    warm: list[float] = []
    for i in range(runs + 1):
        t = time.perf_counter()
        fn()
        dt = time.perf_counter() - t
        if i == 0:
            first = dt
        else:
            warm.append(dt)
    return first or 0.0, statistics.median(warm) if warm else first or 0.0


def bench_search(db: Path, runs: int) -> list[tuple[str, str, str, str, str, str, str]]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("PHILONT_DESKTOP_SETTINGS_DIR", tempfile.mkdtemp(prefix="philont-bench-settings-"))
    from core import demo
    from core.db import MemoryDB
    from core.engine import sqlite3
    from core.timeline import RawStore
    from philont_desktop.context import AppContext
    from philont_desktop.qt import QApplication, QEvent, QObject
    from philont_desktop.timeline.view import TimelineTab
    from philont_desktop.workers import spin_until

    app = QApplication.instance() or QApplication([sys.argv[0]])
    ctx = AppContext.open(db, interactive=False)
    tab = TimelineTab(ctx)
    tab.resize(1280, 800)
    tab.show()
    tab.ensure_activated()
    tab.wait_idle(120_000)
    painted: dict[str, float] = {}

    class Probe(QObject):
        def eventFilter(self, obj, ev):
            if ev.type() == QEvent.Type.Paint and tab.results.rowCount() > 0 and "t" not in painted:
                painted["t"] = time.perf_counter()
            return False

    probe = Probe()
    tab.results_view.viewport().installEventFilter(probe)

    arrived: dict[str, float] = {}
    tab.results.searchFinished.connect(lambda _res: arrived.setdefault("t", time.perf_counter()))

    def gui_once(term: str) -> tuple[float, float, int]:
        tab.search("")
        app.processEvents()
        painted.clear()
        arrived.clear()
        t = time.perf_counter()
        tab.search(term)
        spin_until(lambda: "t" in arrived, 60_000)
        spin_until(lambda: "t" in painted or tab.results.rowCount() == 0, 5_000)
        t_rows = arrived["t"] - t
        t_paint = painted.get("t", arrived["t"]) - t
        return t_rows, t_paint, tab.results.rowCount()

    store_db = MemoryDB.open(db, check=False)
    store = RawStore(store_db)
    raw = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    out = []
    for name, term in demo.BENCH_TERMS.items():
        g = [gui_once(term) for _ in range(runs + 1)]
        first_rows, first_paint, n = g[0]
        warm_rows = statistics.median(x[0] for x in g[1:])
        warm_paint = statistics.median(x[1] for x in g[1:])
        core_first, core_warm = _timed(lambda t=term: store.search_page(t, limit=50), runs)
        raw_first, raw_warm = _timed(lambda t=term: _raw_reference(raw, t), runs)
        mode = tab.results.mode or ""
        out.append(
            (
                f"{name} {term!r} ({mode}, {n} hits)",
                f"{_ms(first_rows)} / {_ms(warm_rows)}",
                f"{_ms(first_paint)} / {_ms(warm_paint)}",
                f"{_ms(core_first)} / {_ms(core_warm)}",
                f"{_ms(raw_first)} / {_ms(raw_warm)}",
                f"{warm_paint / raw_warm:.2f}x" if raw_warm else "-",
                "",
            )
        )
    raw.close()
    store_db.close()
    ctx.close()
    return out


def _table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]
    line = "  ".join("-" * w for w in widths)
    fmt = lambda r: "  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True))  # noqa: E731
    return "\n".join([fmt(headers), line, *(fmt(r) for r in rows)])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", help="an existing memory database (default: a generated one, cached)")
    ap.add_argument("--messages", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--skip-start", action="store_true", help="only the search benchmark")
    ap.add_argument("--skip-search", action="store_true", help="only the cold-start benchmark")
    ap.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        if args.child[0] == "floor":
            _child_floor()
        else:
            _child_app(args.child[1])
        return 0

    db = Path(args.db).expanduser() if args.db else ensure_db(args.messages, args.seed)
    from core.db import MemoryDB
    from core.timeline import RawStore

    with MemoryDB.open(db, check=False) as mdb:
        n = RawStore(mdb).count_estimate()
    print(f"database: {db} (~{n:,} messages, {db.stat().st_size / 2**20:,.0f} MiB)")
    print(
        f"platform: QT_QPA_PLATFORM={os.environ.get('QT_QPA_PLATFORM', 'offscreen')}, {os.cpu_count()} CPUs"
    )

    if not args.skip_start:
        print(f"\ncold start ({args.runs} runs, each a new process; floor and app alternate)")
        res = bench_cold_start(db, args.runs)
        floor_med = statistics.median(res[0][1])
        rows = []
        for label, xs in res:
            med = statistics.median(xs)
            rows.append([label, _ms(med), _ms(min(xs)), _ms(max(xs)), f"{med / floor_med:.2f}x"])
        print()
        print(_table(["cold start", "median", "min", "max", "vs floor"], rows))

    if not args.skip_search:
        print(f"\ntime to first search results (first run / median of {args.runs} warm runs)")
        res2 = bench_search(db, args.runs)
        print()
        print(
            _table(
                [
                    "term",
                    "GUI: first page in list",
                    "GUI: list painted",
                    "core search_page",
                    "raw SQL (reference)",
                    "painted vs raw",
                ],
                [list(r[:6]) for r in res2],
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
