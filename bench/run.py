"""The performance table: the benchmarks of ``bench/`` on one large database, each beside a floor.

    python bench/run.py               # 1M messages, 200k actions, 20k notes, 10k facts, 2k skills
    python bench/run.py --quick       # a tenth of every size
    python bench/run.py --build-only  # only build (or find) the cached database
    python bench/run.py --only search,timeline --runs 3   # some groups, nothing written
    python bench/run.py --markdown bench/results.json     # the table of a results file, as Markdown

The database is made by the project's generator (:func:`core.demo.generate`, English and Chinese, seed
0, a fixed ``now``) and cached under ``bench/.cache/``, keyed by size, seed and a hash of the generator
(``core/demo/`` with its data files) and ``core/schema/``: a changed generator builds a new one. On a
2-core machine building 1M messages takes about 3 minutes (a progress line every few seconds) and the
full table about 5 more; ``--quick`` takes about 10 seconds to build and 2-3 minutes in all.

Every figure is measured beside a floor measured in the same run on the same machine, and ``ratio`` is
figure / floor (below 1: faster than the floor). Each group of figures runs in a fresh process (one
``QApplication`` each, no state carried between groups); each figure is one warm-up run, then the
median of ``N`` runs (printed). The figures reuse the measurement functions of the area benchmarks
(``bench_search``, ``bench_context``, ``bench_facts``, ``bench_skills``, ``bench_changes``,
``bench_conversations``, ``bench_health``, ``bench_app``, ``bench_stall``), which print more detail when run alone.

Results go to ``bench/results.json`` (the latest run) and ``bench/results-<scale>.json``: a list of
``{name, value, unit, floor_name, floor_value, ratio, scale}``. Nothing here is run by CI or the tests.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
for _p in (ROOT, BENCH):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

CACHE = BENCH / ".cache"
FULL_MESSAGES = 1_000_000
SEED = 0
FIXED_NOW = 1_781_524_800_000  # 2026-06-15T12:00:00Z: every generated time is before it
DAY_MS = 86_400_000
RESULT_KEYS = ("name", "value", "unit", "floor_name", "floor_value", "ratio", "scale")
CHILD_MARK = "BENCH-JSON "
GROUP_TIMEOUT_S = 3600

# The English 4-letter word: "plan" is in about 0.7 % of the generated messages ("plan", "plans",
# "query plan"); the other terms are the generator's own benchmark terms (core.demo.BENCH_TERMS).
EN4 = "plan"

# Context assembly: a message whose recall query the trigram index answers, and one it does not (the
# reference then scans every message with LIKE; the context proves the miss from the index).
CONTEXT_HIT = "数据库迁移"
CONTEXT_MISS = "zzqxv"
# A miss too short for the trigram index (2 characters): the context scans, as the reference does.
CONTEXT_SHORT_MISS = "zq"


# -- results ---------------------------------------------------------------------------------------------


@dataclass
class Result:
    """One figure beside its floor. ``runs`` is N (printed, not written to the JSON)."""

    name: str
    value: float
    unit: str
    floor_name: str
    floor_value: float
    scale: str = "full"
    runs: int = 0

    @property
    def ratio(self) -> float | None:
        if not self.floor_value or not math.isfinite(self.value):
            return None
        return self.value / self.floor_value

    def to_json(self) -> dict[str, Any]:
        ratio = self.ratio
        return {
            "name": self.name,
            "value": round(float(self.value), 3),
            "unit": self.unit,
            "floor_name": self.floor_name,
            "floor_value": round(float(self.floor_value), 3),
            "ratio": None if ratio is None else round(ratio, 3),
            "scale": self.scale,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any], scale: str | None = None) -> Result:
        return cls(
            name=str(d["name"]),
            value=float(d["value"]),
            unit=str(d["unit"]),
            floor_name=str(d["floor_name"]),
            floor_value=float(d["floor_value"]),
            scale=scale or str(d.get("scale", "full")),
            runs=int(d.get("runs", 0)),
        )


def _num(x: float, unit: str) -> str:
    if unit == "MiB":
        return f"{x:,.0f} {unit}"
    if x >= 100:
        return f"{x:,.0f} {unit}"
    if x >= 10:
        return f"{x:.1f} {unit}"
    return f"{x:.2f} {unit}"


def _ratio(r: float | None) -> str:
    if r is None:
        return "-"
    if r < 0.1:
        return f"{r:.3f}x"
    return f"{r:.2f}x" if r < 100 else f"{r:,.0f}x"


def _rows(results: Sequence[Result]) -> list[list[str]]:
    return [
        [
            r.name,
            _num(r.value, r.unit),
            r.floor_name,
            _num(r.floor_value, r.unit),
            _ratio(r.ratio),
            str(r.runs) if r.runs else "-",
        ]
        for r in results
    ]


HEADERS = ["figure", "value", "floor (same run)", "floor", "ratio", "N"]
RIGHT = {1, 3, 4, 5}


def _width(text: str) -> int:
    """Terminal columns of ``text`` (CJK characters take two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def format_table(results: Sequence[Result]) -> str:
    """A plain-text table, one line per figure."""
    rows = _rows(results)
    widths = [max(_width(r[i]) for r in [HEADERS, *rows]) for i in range(len(HEADERS))]

    def fmt(row: Sequence[str]) -> str:
        cells = []
        for i, (c, w) in enumerate(zip(row, widths, strict=True)):
            fill = " " * (w - _width(c))
            cells.append(fill + c if i in RIGHT else c + fill)
        return "  ".join(cells).rstrip()

    return "\n".join([fmt(HEADERS), "  ".join("-" * w for w in widths), *(fmt(r) for r in rows)])


def format_markdown(results: Sequence[Result]) -> str:
    """The same table in Markdown (for the READMEs); without the N column when N is unknown (a table
    read back from a results file)."""
    n = len(HEADERS) if any(r.runs for r in results) else len(HEADERS) - 1
    out = ["| " + " | ".join(HEADERS[:n]) + " |"]
    out.append("|" + "|".join("---:" if i in RIGHT else "---" for i in range(n)) + "|")
    for row in _rows(results):
        out.append("| " + " | ".join(c.replace("|", "\\|") for c in row[:n]) + " |")
    return "\n".join(out)


README = BENCH / "README.md"


def update_readme(results: Sequence[Result], scale: str, header: str, path: Path = README) -> bool:
    """Replace the table between ``<!-- table:<scale>:start -->`` and ``<!-- table:<scale>:end -->``
    in ``path`` with ``header`` and the Markdown table. ``False`` (nothing written) without the markers."""
    start, end = f"<!-- table:{scale}:start -->", f"<!-- table:{scale}:end -->"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    i, j = text.find(start), text.find(end)
    if i < 0 or j < i:
        return False
    body = f"{start}\n{header}\n\n{format_markdown(results)}\n"
    path.write_text(text[:i] + body + text[j:], encoding="utf-8")
    return True


def write_results(results: Iterable[Result], path: Path) -> Path:
    """Write ``results`` as a JSON list of ``{name, value, unit, floor_name, floor_value, ratio, scale}``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = [r.to_json() for r in results]
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return path


def read_results(path: Path) -> list[Result]:
    return [Result.from_dict(d) for d in json.loads(Path(path).read_text(encoding="utf-8"))]


def result(name: str, value: float, unit: str, floor_name: str, floor_value: float, runs: int) -> dict:
    return {
        "name": name,
        "value": value,
        "unit": unit,
        "floor_name": floor_name,
        "floor_value": floor_value,
        "runs": runs,
    }


# -- the database ------------------------------------------------------------------------------------------


def generator_sources() -> list[Path]:
    """The files the generated database depends on: the generator package with its data files, the schema."""
    demo = ROOT / "core" / "demo"
    files = sorted(p for p in demo.rglob("*") if p.is_file() and p.suffix in (".py", ".toml"))
    return [*files, *sorted((ROOT / "core" / "schema").glob("*.py"))]


def generator_version() -> str:
    """A short hash of the generator, its data and the schema it writes: a change builds a new cache."""
    h = hashlib.sha256()
    for path in generator_sources():
        h.update(path.relative_to(ROOT).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:10]


def cache_path(messages: int, seed: int = SEED) -> Path:
    return CACHE / f"run-{messages}-s{seed}-g{generator_version()}.sqlite"


def ensure_db(messages: int, seed: int = SEED, *, log: Callable[[str], None] = print) -> Path:
    """The cached demo database of ``messages`` messages (the other layers by ``default_counts``)."""
    from core import demo

    path = cache_path(messages, seed)
    if path.exists():
        log(f"database: {path} (cached)")
        return path
    CACHE.mkdir(parents=True, exist_ok=True)
    counts = demo.default_counts(messages)
    log(
        f"building {path.name}: {messages:,} messages, {counts['actions']:,} actions, {counts['notes']:,} "
        f"notes, {counts['facts']:,} facts, {counts['skills']:,} skills (seed {seed}, now {FIXED_NOW})"
    )
    t0 = time.perf_counter()
    last = [0.0]

    def progress(phase: str, done: int, total: int) -> None:
        t = time.perf_counter() - t0
        if done >= total or t - last[0] >= 5:
            last[0] = t
            log(f"  [{t:5.0f} s] {phase}: {done:,} / {total:,}")

    demo.generate(path, messages=messages, seed=seed, now=FIXED_NOW, progress=progress)
    log(f"built {path} in {time.perf_counter() - t0:.0f} s ({path.stat().st_size / 2**20:,.0f} MiB)")
    for old in CACHE.glob(f"run-{messages}-s{seed}-g*.sqlite*"):  # made by an older generator
        if not old.name.startswith(path.name):
            old.unlink(missing_ok=True)
            log(f"removed {old.name} (an older generator's)")
    return path


# -- timing helpers ------------------------------------------------------------------------------------------


def timed_ms(fn: Callable[[], object], runs: int, warmup: int = 1) -> float:
    """Median wall time of ``fn()`` in milliseconds over ``runs`` runs, after ``warmup`` runs."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def _qt_env() -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if "PHILONT_DESKTOP_SETTINGS_DIR" not in os.environ:  # never the user's settings
        os.environ["PHILONT_DESKTOP_SETTINGS_DIR"] = tempfile.mkdtemp(prefix="philont-bench-settings-")


def _qapp():
    _qt_env()
    from philont_desktop.interpreter import favour_the_gui_thread
    from philont_desktop.qt import QApplication

    favour_the_gui_thread()  # as the application does (philont_desktop.app._make_app)
    return QApplication.instance() or QApplication([sys.argv[0]])


# -- the groups (each runs in a process of its own) ----------------------------------------------------------


def measure_search(db_path: Path, runs: int) -> list[dict]:
    """``RawStore.search_messages`` (first page of 20) beside the reference's SQL run raw."""
    import bench_search

    from core import demo
    from core.db import MemoryDB
    from core.timeline import RawStore

    terms = [
        (f"search '{EN4}' (English, 4 letters)", EN4),
        (f"search '{demo.BENCH_TERMS['rare_en']}' (English, rare)", demo.BENCH_TERMS["rare_en"]),
        (f"search '{demo.BENCH_TERMS['common']}' (English, common)", demo.BENCH_TERMS["common"]),
        (f"search '{demo.BENCH_TERMS['zh3']}' (Chinese, 3 characters)", demo.BENCH_TERMS["zh3"]),
        (f"search '{demo.BENCH_TERMS['zh2']}' (Chinese, 2 characters)", demo.BENCH_TERMS["zh2"]),
    ]
    out = []
    with MemoryDB.open(db_path) as db:
        raw = RawStore(db)
        for label, term in terms:
            ours = [(m.timestamp, m.id) for m in raw.search_messages(term, limit=20)]
            ref = bench_search.reference(db.conn, term, 20)
            if not bench_search.same_page(ours, ref):
                print(f"  WARNING: {label}: the first page differs from the reference's", flush=True)
            t_ours = bench_search.timeit(lambda t=term: raw.search_messages(t, limit=20), runs)
            t_ref = bench_search.timeit(lambda t=term: bench_search.reference(db.conn, t, 20), runs)
            print(f"  {label}: {len(ours)} hits on the page, {t_ours:.2f} ms vs {t_ref:.2f} ms", flush=True)
            out.append(result(label, t_ours, "ms", "reference SQL, raw", t_ref, runs))
    return out


def measure_context(db_path: Path, runs: int) -> list[dict]:
    """``build_context`` (prefix, recall trigger, timeline, recall explanation) beside the raw FTS query
    of its recall; a miss beside what it contains: the proven miss (no scan) beside the FTS query, and
    the whole assembly beside an assembly without recall plus that query; the scanned miss of a query
    too short for the index beside the reference's scan."""
    import bench_context

    from core.db import MemoryDB
    from core.substring import ProvingRawStore

    fts_floor = "raw FTS query (LIMIT 10)"
    out = []
    with MemoryDB.open(db_path) as db:

        def fts(m: str) -> float:
            return bench_context.median_ms(lambda: bench_context.floor_fts(db.conn, m), runs)

        # A hit: the assembly beside the FTS query it contains.
        t_ctx, _s, _e, r = bench_context.context_ms(db, CONTEXT_HIT, FIXED_NOW, runs)
        label = f"context assembly, recall hit '{CONTEXT_HIT}'"
        t_fts = fts(CONTEXT_HIT)
        print(
            f"  {label}: {r.search_mode} search, {r.timeline.recall_count} recalled, {t_ctx:.1f} ms vs {t_fts:.2f} ms"
        )
        out.append(result(label, t_ctx, "ms", fts_floor, t_fts, runs))

        # A miss, proven from the index.
        t_ctx, t_in_ctx, t_explain, r = bench_context.context_ms(db, CONTEXT_MISS, FIXED_NOW, runs)
        t_fts = fts(CONTEXT_MISS)
        # The recall search the context runs (the retriever asks for recall_limit + 5 rows), timed as
        # its floor is: alone, in a loop.
        t_search = bench_context.median_ms(
            lambda: ProvingRawStore(db).search_messages(CONTEXT_MISS, limit=15), runs
        )
        t_empty, _s, _e, _r = bench_context.context_ms(db, "", FIXED_NOW, runs)
        print(
            f"  miss '{CONTEXT_MISS}': {r.search_mode} search, substring {r.substring}, "
            f"{r.timeline.recall_count} recalled; assembly {t_ctx:.1f} ms (explanation {t_explain:.2f} ms), "
            f"its recall search {t_search:.3f} ms alone ({t_in_ctx:.3f} ms inside the assembly), raw FTS "
            f"{t_fts:.3f} ms, assembly without recall {t_empty:.1f} ms",
            flush=True,
        )
        out.append(
            result(
                f"recall search of a context, proven miss '{CONTEXT_MISS}'",
                t_search,
                "ms",
                fts_floor,
                t_fts,
                runs,
            )
        )
        out.append(
            result(
                f"context assembly, recall miss '{CONTEXT_MISS}' (proven)",
                t_ctx,
                "ms",
                "assembly without recall + raw FTS query",
                t_empty + t_fts,
                runs,
            )
        )
        out.append(
            result(
                f"context assembly, recall miss '{CONTEXT_MISS}' (proven)",
                t_ctx,
                "ms",
                fts_floor,
                t_fts,
                runs,
            )
        )

        # A miss the index cannot answer (2 characters): the reference's scan.
        t_ctx, t_search, _e, r = bench_context.context_ms(db, CONTEXT_SHORT_MISS, FIXED_NOW, runs)
        t_ref = bench_context.median_ms(lambda: bench_context.floor_ref(db.conn, CONTEXT_SHORT_MISS), runs)
        print(
            f"  miss '{CONTEXT_SHORT_MISS}': {r.search_mode} search, substring {r.substring}; assembly "
            f"{t_ctx:.1f} ms, its recall search {t_search:.1f} ms, the reference's scan {t_ref:.1f} ms",
            flush=True,
        )
        out.append(
            result(
                f"context assembly, recall miss '{CONTEXT_SHORT_MISS}' (scanned, 2 characters)",
                t_ctx,
                "ms",
                "raw LIKE scan (the reference's search)",
                t_ref,
                runs,
            )
        )
    return out


def _signal_waiter(signal, timeout_ms: int = 120_000) -> Callable[[Callable[[], object]], float]:
    """``wait(start)``: call ``start()``, run the event loop until ``signal`` fires; seconds elapsed.

    Timed at the emission (no polling granularity).
    """
    from philont_desktop.qt import QEventLoop, QTimer

    def wait(start: Callable[[], object]) -> float:
        loop = QEventLoop()
        got: dict[str, float] = {}

        def on(*_a: object) -> None:
            got.setdefault("t", time.perf_counter())
            loop.quit()

        signal.connect(on)
        try:
            timer = QTimer()
            timer.setSingleShot(True)
            timer.timeout.connect(loop.quit)
            timer.start(timeout_ms)
            t0 = time.perf_counter()
            start()
            if "t" not in got:
                loop.exec()
            timer.stop()
        finally:
            signal.disconnect(on)
        if "t" not in got:
            raise TimeoutError("no page within the timeout")
        return got["t"] - t0

    return wait


def measure_timeline(db_path: Path, runs: int) -> list[dict]:
    """The conversation model's pages through the worker layer beside the raw keyset SQL."""
    _qapp()
    from core.engine import sqlite3
    from philont_desktop.context import AppContext
    from philont_desktop.timeline.model import MessagesModel

    ctx = AppContext.open(db_path, interactive=False)
    model = MessagesModel(ctx.submit)
    wait = _signal_waiter(model.loaded)
    page = model.page_size
    raw = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    cols = "id, session_id, role, content, timestamp, origin_session_id"
    sql_newest = f"SELECT {cols} FROM memory_raw_messages ORDER BY timestamp DESC, id DESC LIMIT ?"
    sql_older = (
        f"SELECT {cols} FROM memory_raw_messages WHERE (timestamp, id) < (?, ?) "
        "ORDER BY timestamp DESC, id DESC LIMIT ?"
    )
    sql_newer = (
        f"SELECT {cols} FROM memory_raw_messages WHERE (timestamp, id) > (?, ?) "
        "ORDER BY timestamp ASC, id ASC LIMIT ?"
    )

    def median_s(fn: Callable[[], float], n: int) -> float:
        fn()
        return statistics.median(fn() for _ in range(n)) * 1000

    out = []
    first = median_s(lambda: wait(model.load_newest), runs)
    floor_first = timed_ms(lambda: raw.execute(sql_newest, (page,)).fetchall(), runs)
    out.append(
        result(
            f"timeline first page ({page} newest messages)",
            first,
            "ms",
            "raw SQL, newest page",
            floor_first,
            runs,
        )
    )

    # Scrolling up: one older page at a time from the newest page (the model keeps a bounded window).
    wait(model.load_newest)
    older = median_s(lambda: wait(model.fetch_older), runs)
    key = raw.execute(sql_newest, (page,)).fetchall()[-1]
    cur = [(key[4], key[0])]

    def raw_older() -> None:
        rows = raw.execute(sql_older, (*cur[0], page)).fetchall()
        cur[0] = (rows[-1][4], rows[-1][0])

    floor_older = timed_ms(raw_older, runs)
    out.append(
        result(
            "timeline scroll up: one older page", older, "ms", "raw keyset SQL, older page", floor_older, runs
        )
    )

    # fetchMore (Qt's request for the rows below): newer pages from the middle of the timeline.
    lo, hi = raw.execute("SELECT min(timestamp), max(timestamp) FROM memory_raw_messages").fetchone()
    mid = (lo + hi) // 2
    wait(lambda: model.show_time(mid))
    model.release_hold()
    from philont_desktop.qt import QModelIndex

    def fetch_more() -> float:
        if not model.canFetchMore(QModelIndex()):
            raise RuntimeError("the window reached the newest message")
        return wait(lambda: model.fetchMore(QModelIndex()))

    newer = median_s(fetch_more, runs)
    start = raw.execute(sql_newer, (mid, 0, 1)).fetchone()
    cur_n = [(start[4], start[0])]

    def raw_newer() -> None:
        rows = raw.execute(sql_newer, (*cur_n[0], page)).fetchall()
        cur_n[0] = (rows[-1][4], rows[-1][0])

    floor_newer = timed_ms(raw_newer, runs)
    out.append(
        result(
            "timeline fetchMore: one newer page", newer, "ms", "raw keyset SQL, newer page", floor_newer, runs
        )
    )
    for r in out:
        print(f"  {r['name']}: {r['value']:.2f} ms vs {r['floor_value']:.2f} ms", flush=True)
    raw.close()
    ctx.close()
    return out


def measure_facts(db_path: Path, runs: int) -> list[dict]:
    import bench_facts

    return bench_facts.measure_facts(db_path, runs, now=FIXED_NOW + 30 * DAY_MS)


def measure_skills(db_path: Path, runs: int) -> list[dict]:
    import bench_skills

    return bench_skills.measure_board(db_path, runs, now=FIXED_NOW)


def measure_changes(db_path: Path, runs: int) -> list[dict]:
    """The change set: a week with a time baseline, and a comparison with a week-old backup."""
    import bench_changes

    return bench_changes.measure(db_path, runs, FIXED_NOW, result)


def measure_conversations(db_path: Path, runs: int) -> list[dict]:
    """The conversations: listed from the indexes, refreshed, a page of one, a search in a small one."""
    import bench_conversations

    return bench_conversations.measure(db_path, runs, result)


def measure_health(db_path: Path, runs: int) -> list[dict]:
    """The doctor: every check of every layer beside reading each memory table once."""
    import bench_health

    return bench_health.measure(db_path, runs, FIXED_NOW, result)


def measure_start(db_path: Path, runs: int) -> list[dict]:
    """Cold start (a new process each run) beside a bare ``QMainWindow`` process."""
    import bench_app

    _qt_env()
    print("  warm-up run:", flush=True)
    bench_app.bench_cold_start(db_path, 1)
    print(f"  {runs} runs:", flush=True)
    (_f, floor), (_w, window), (_p, page) = bench_app.bench_cold_start(db_path, runs)
    floor_ms = statistics.median(floor) * 1000
    floor_name = "bare QMainWindow process, first paint"
    return [
        result(
            "app cold start: first paint of the window",
            statistics.median(window) * 1000,
            "ms",
            floor_name,
            floor_ms,
            runs,
        ),
        result(
            "app cold start: newest timeline page painted",
            statistics.median(page) * 1000,
            "ms",
            floor_name,
            floor_ms,
            runs,
        ),
    ]


def _child_rss(kind: str, db: str) -> None:
    """In a child process: the app visits every tab (``--screenshot``), or a bare window is painted."""
    _qt_env()
    if kind == "app":
        from philont_desktop.app import main

        with tempfile.TemporaryDirectory(prefix="philont-bench-shots-") as shots:
            code = main(["--db", db, "--screenshot", shots])
            tabs = len(list(Path(shots).glob("*.png")))
        if code != 0:
            raise SystemExit(f"the app's visit of every tab failed (exit {code})")
    else:
        from philont_desktop.qt import QApplication, QMainWindow

        app = QApplication.instance() or QApplication([sys.argv[0]])
        win = QMainWindow()
        win.resize(1280, 820)
        win.show()
        for _ in range(5):
            app.processEvents()
            time.sleep(0.02)
        win.grab()
        tabs = 0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(CHILD_MARK + json.dumps({"rss_mib": rss, "tabs": tabs}), flush=True)
    os._exit(0)


def _spawn_json(args: list[str], timeout: float) -> Any:
    p = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=_child_env(),
    )
    for line in p.stdout.splitlines():
        if line.startswith(CHILD_MARK):
            return json.loads(line[len(CHILD_MARK) :])
    raise RuntimeError(
        f"{args} gave no result (exit {p.returncode}):\n{p.stdout[-2000:]}\n{p.stderr[-3000:]}"
    )


def measure_memory(db_path: Path, runs: int) -> list[dict]:
    """Peak RSS of the app after visiting every tab beside a bare QApplication + QMainWindow process."""
    n = max(1, runs)
    app_rss, floor_rss = [], []
    for i in range(n + 1):  # the first pair is the warm-up (file cache, font cache)
        f = _spawn_json(["--child-rss", "floor", str(db_path)], 600)
        a = _spawn_json(["--child-rss", "app", str(db_path)], 1800)
        print(
            f"  run {i}: app {a['rss_mib']:.0f} MiB ({a['tabs']} tabs), bare {f['rss_mib']:.0f} MiB",
            flush=True,
        )
        if i:
            app_rss.append(a["rss_mib"])
            floor_rss.append(f["rss_mib"])
    return [
        result(
            "peak memory (RSS) after visiting every tab",
            statistics.median(app_rss),
            "MiB",
            "bare QApplication + QMainWindow process",
            statistics.median(floor_rss),
            n,
        )
    ]


def measure_stall(db_path: Path, runs: int) -> list[dict]:
    """The longest event-loop stall of a scripted session (a 2 ms heartbeat; the worst three named by
    step) and the session's peak memory, beside a bare window's (see ``bench_stall``)."""
    import bench_stall

    _qt_env()
    return bench_stall.measure(db_path, runs, result, log=lambda m: print(m, flush=True))


def measure_big(db_path: Path, runs: int) -> list[dict]:
    """Visiting every tab with a 10 MB message beside the same visit without it (see ``bench_big``)."""
    import bench_big

    return bench_big.measure(db_path, runs, result, env=_child_env(), log=lambda m: print(m, flush=True))


def measure_privacy(db_path: Path, runs: int) -> list[dict]:
    """The privacy scan of every layer beside reading every text column it reads once."""
    import bench_privacy

    return bench_privacy.measure(db_path, runs, result)


def measure_purge(db_path: Path, runs: int) -> list[dict]:
    """The privacy purge of 100 findings on a copy of the database, and the VACUUM it offers."""
    import bench_privacy_purge

    return bench_privacy_purge.measure(db_path, runs, result, log=lambda m: print(m, flush=True))


GROUPS: dict[str, tuple[Callable[[Path, int], list[dict]], int]] = {
    # name: (function, N)
    "search": (measure_search, 9),
    "context": (measure_context, 7),
    "timeline": (measure_timeline, 15),
    "facts": (measure_facts, 7),
    "skills": (measure_skills, 7),
    "changes": (measure_changes, 7),
    "conversations": (measure_conversations, 7),
    "health": (measure_health, 5),
    "start": (measure_start, 7),
    "memory": (measure_memory, 3),
    "stall": (measure_stall, 3),
    "big": (measure_big, 3),
    "privacy": (measure_privacy, 3),
    "purge": (measure_purge, 3),
}


# -- the parent ---------------------------------------------------------------------------------------------


def _child_env() -> dict[str, str]:
    """The measuring processes' environment: offscreen Qt, and byte-code caching on (in a cache of
    our own), as an installed application has it: a start never pays for compiling the sources."""
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    env["PYTHONUNBUFFERED"] = "1"
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(CACHE / "pycache")
    return env


def run_group(name: str, db: Path, runs: int, log: Callable[[str], None]) -> list[dict]:
    """Run one group in a new process; its progress lines are passed through, its results returned."""
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--measure",
        name,
        "--db",
        str(db),
        "--runs",
        str(runs),
    ]
    with (
        tempfile.TemporaryDirectory(prefix="philont-bench-settings-") as settings,
        tempfile.TemporaryFile("w+", encoding="utf-8") as errf,  # Qt's warnings: never a full pipe
    ):
        env = _child_env()
        env["PHILONT_DESKTOP_SETTINGS_DIR"] = settings
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=errf, text=True, env=env)
        found: list[dict] | None = None
        assert p.stdout is not None
        deadline = time.monotonic() + GROUP_TIMEOUT_S
        for line in p.stdout:
            line = line.rstrip("\n")
            if line.startswith(CHILD_MARK):
                found = json.loads(line[len(CHILD_MARK) :])
            elif line.strip():
                log(line)
            if time.monotonic() > deadline:
                p.kill()
                break
        code = p.wait()
        errf.seek(0)
        err = errf.read()
    if found is None:
        tail = "\n".join(err.strip().splitlines()[-15:])
        raise RuntimeError(f"exit {code}, no results\n{tail}")
    return found


def environment_line(db: Path) -> str:
    from core.db import MemoryDB
    from core.engine import SQLITE_VERSION

    with MemoryDB.open(db, check=False) as mdb:
        counts = {
            t: mdb.conn.execute(f"SELECT max(rowid) FROM {t}").fetchone()[0] or 0
            for t in (
                "memory_raw_messages",
                "memory_actions",
                "memory_notes",
                "memory_facts",
                "memory_skills",
            )
        }
    try:
        import PySide6

        qt = f"PySide6 {PySide6.__version__}"
    except ImportError:
        qt = "no PySide6"
    sizes = ", ".join(f"{v:,} {k.removeprefix('memory_').replace('raw_', '')}" for k, v in counts.items())
    return (
        f"{sizes} ({db.stat().st_size / 2**20:,.0f} MiB); Python {platform.python_version()}, "
        f"SQLite {SQLITE_VERSION}, {qt}, {os.cpu_count()} CPUs, "
        f"QT_QPA_PLATFORM={os.environ.get('QT_QPA_PLATFORM', 'offscreen')}"
    )


def load_average() -> str:
    """The machine's load (other work running beside the benchmark makes every figure slower)."""
    try:
        one, five, _ = os.getloadavg()
    except OSError:
        return "load average unknown"
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="a tenth of every size (100k messages)")
    ap.add_argument("--build-only", action="store_true", help="only build or find the cached database")
    ap.add_argument("--only", help="comma-separated groups: " + ",".join(GROUPS) + " (writes nothing)")
    ap.add_argument("--runs", type=int, help="N for every group (default: per group, 3-9)")
    ap.add_argument("--db", help="measure this database instead of the generated one (writes nothing)")
    ap.add_argument("--markdown", metavar="RESULTS_JSON", help="print a results file as a Markdown table")
    ap.add_argument("--measure", help=argparse.SUPPRESS)
    ap.add_argument("--child-rss", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.child_rss:
        _child_rss(*args.child_rss)
        return 0
    if args.measure:
        fn, default_runs = GROUPS[args.measure]
        out = fn(Path(args.db), args.runs or default_runs)
        print(CHILD_MARK + json.dumps(out, ensure_ascii=False), flush=True)
        return 0
    if args.markdown:
        print(format_markdown(read_results(Path(args.markdown))))
        return 0

    def log(msg: str) -> None:
        print(msg, flush=True)

    scale = "quick" if args.quick else "full"
    messages = FULL_MESSAGES // 10 if args.quick else FULL_MESSAGES
    db = Path(args.db).expanduser() if args.db else ensure_db(messages, log=log)
    if args.build_only:
        return 0
    groups = [g.strip() for g in args.only.split(",")] if args.only else list(GROUPS)
    unknown = [g for g in groups if g not in GROUPS]
    if unknown:
        ap.error(f"unknown group(s): {', '.join(unknown)}")
    env_line = environment_line(db)
    load_start = load_average()
    log(f"{db}\n{env_line}\n{load_start} at the start")
    t_all = time.perf_counter()
    results: list[Result] = []
    failed: list[str] = []
    for g in groups:
        runs = args.runs or GROUPS[g][1]
        log(f"\n[{g}] N={runs}")
        t = time.perf_counter()
        try:
            got = run_group(g, db, runs, log)
        except Exception as exc:
            failed.append(g)
            log(f"[{g}] FAILED: {exc}")
            continue
        for d in got:
            r = Result.from_dict({**d, "runs": d.get("runs", runs)}, scale)
            results.append(r)
            log(
                f"  = {r.name}: {_num(r.value, r.unit)} beside {_num(r.floor_value, r.unit)} ({_ratio(r.ratio)})"
            )
        log(f"[{g}] {time.perf_counter() - t:.0f} s")
    log(
        f"\n{scale} run, {time.perf_counter() - t_all:.0f} s, {load_average()} at the end; "
        "value and floor are medians of N runs after a warm-up"
    )
    log(format_table(results))
    if args.only or args.db:
        log("\n(--only / --db: nothing written)")
    else:
        for p in (BENCH / "results.json", BENCH / f"results-{scale}.json"):
            write_results(results, p)
        header = (
            f"{time.strftime('%Y-%m-%d')}, {scale} scale: {env_line}; {load_start} at the start, "
            f"{load_average()} at the end."
        )
        shown = not failed and update_readme(results, scale, header)
        log(f"\nwrote {BENCH / 'results.json'} and {BENCH / f'results-{scale}.json'}")
        if shown:
            log(f"updated the {scale} table in {README}")
        log("\n" + format_markdown(results))
    if failed:
        log(f"FAILED groups: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
