"""Benchmark of the Facts tab with many facts: load, overview redraw, time control, sort and filter.

    python bench/bench_facts.py                  # 10,000 fact rows (built once, cached)
    python bench/bench_facts.py --facts 50000 --repeat 7

The database is built with ``core.demo.generate`` (facts in many namespaces, supersede chains, pins,
forgotten ones) and cached under ``bench/.cache/``. Every number is printed beside a floor measured in
the same run on the same machine:

* loading: ``FactStore.all_rows()`` alone (the SQL and the row models) against the worker's
  ``load_facts`` (rows prepared and scored) and the whole tab load (worker + GUI thread + first paint);
* overview redraw: a bare ``pg.ScatterPlotItem.setData`` of the same number of points with one brush,
  painted, against the tab's overview (one ScatterPlotItem, a brush per namespace), fully rebuilt and
  moved in place when the view time changes;
* the text filter typed key by key (as a person types, 90 ms apart): from the last key until the
  table shows the filtered rows, beside the filter's pause after typing plus a repaint of the table;
  and the longest event-loop stall while typing (a 2 ms heartbeat), beside a repaint of the table;
* time control, sort by score and the text filter are shown with the bare table repaint as the floor.

Times are medians of ``--repeat`` runs, in milliseconds; Qt runs offscreen. The interpreter is set as
the application sets it (the switch interval, and read jobs with the cyclic collector paused); the
floor of the load runs as a read job does, its runs alternating with the tab's loads.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import os
import statistics
import sys
import time
import weakref
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from core.db import MemoryDB  # noqa: E402
from core.facts import FactStore  # noqa: E402

CACHE = Path(__file__).resolve().parent / ".cache"
FIXED_NOW = 1_781_524_800_000  # 2026-06-15T12:00:00Z
DAY = 86_400_000


def build(path: Path, facts: int, seed: int) -> None:
    from core import demo

    print(f"building a demo database with {facts:,} fact rows ...", flush=True)
    t = time.perf_counter()
    path.parent.mkdir(parents=True, exist_ok=True)
    demo.generate(path, messages=500, facts=facts, seed=seed, now=FIXED_NOW)
    print(f"  built in {time.perf_counter() - t:.1f} s", flush=True)


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def line(name: str, ms: float, floor_name: str, floor_ms: float) -> None:
    ratio = ms / floor_ms if floor_ms > 0 else float("inf")
    print(f"  {name:<46} {ms:9.1f} ms   floor {floor_name:<34} {floor_ms:8.1f} ms   ×{ratio:5.2f}")


class PaintMark:
    """When ``window`` has been repainted for the first time after ``ready()`` holds: ``at``.

    Qt repaints a window in one ``UpdateRequest`` event: every widget that needs it is painted, then
    the window is flushed. The first such event after ``ready()`` is handled here (as Qt would) and
    timed to its end, so ``at`` (``perf_counter``) is when the window shows what was ready.

    The event filter is one class for every mark, holding its mark weakly: a QObject class made per
    mark (a closure over ``ready``) stays registered with PySide for the life of the process, and
    with it ``ready`` and the tab it looks at (each measured load kept ~53,000 objects alive, which
    made every later full garbage collection walk them, in the floor's runs and the tab's alike).
    """

    def __init__(self, window, ready: Callable[[], bool]):
        self.at: float | None = None
        self.ready = ready
        self._filter = _paint_filter(self)
        window.installEventFilter(self._filter)


_PaintFilter: type | None = None


def _paint_filter(mark: PaintMark):
    global _PaintFilter
    if _PaintFilter is None:
        from philont_desktop.qt import QEvent, QObject

        class PaintFilter(QObject):
            def __init__(self, mark: PaintMark):
                super().__init__()
                self.mark = weakref.ref(mark)

            def eventFilter(self, obj, event) -> bool:
                mark = self.mark()
                if mark is None:
                    return False
                if mark.at is None and event.type() == QEvent.Type.UpdateRequest and mark.ready():
                    obj.removeEventFilter(self)
                    obj.event(event)  # the repaint
                    mark.at = time.perf_counter()
                    return True
                return False

        _PaintFilter = PaintFilter
    return _PaintFilter(mark)


def pause(ms: float) -> None:
    """Run the event loop for ``ms`` (idle, as between a person's key presses)."""
    from philont_desktop.qt import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(max(0, round(ms)), loop.quit)
    loop.exec()


class Heartbeat:
    """A 2 ms timer on the GUI thread: ``longest`` is the longest gap between two of its beats (a stall)."""

    def __init__(self) -> None:
        from philont_desktop.qt import Qt, QTimer

        self.longest = 0.0
        self._last: float | None = None
        self._timer = QTimer()
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(2)
        self._timer.timeout.connect(self._beat)

    def start(self) -> None:
        self.longest, self._last = 0.0, time.perf_counter()
        self._timer.start()

    def stop(self) -> None:
        self._beat()
        self._timer.stop()

    def _beat(self) -> None:
        now = time.perf_counter()
        if self._last is not None:
            self.longest = max(self.longest, (now - self._last) * 1000)
        self._last = now


KEY_INTERVAL_MS = 90  # a fast typist
TYPED = ("deploy", "berlin", "plan", "user")


def filter_typed_ms(tab, word: str) -> tuple[float, float]:
    """Type ``word`` into the Facts tab's filter key by key; ``(ms from the last key until the window has
    painted the filtered rows, the longest event-loop stall from the first key until then)``. The filter
    is cleared afterwards (not timed)."""
    from philont_desktop.qt import QtTest
    from philont_desktop.workers import spin_until

    edit = tab.filter_edit
    edit.setFocus()
    target = word.strip().casefold()
    heart = Heartbeat()
    heart.start()
    for i, ch in enumerate(word):
        last = i == len(word) - 1
        if last:
            painted = PaintMark(tab.window(), lambda: tab.proxy.flt.text == target)
        QtTest.QTest.keyClicks(edit, ch)
        if last:
            t = time.perf_counter()
        else:
            pause(KEY_INTERVAL_MS)
    spin_until(lambda: painted.at is not None, 60_000)
    heart.stop()
    assert painted.at is not None, "the filtered table was not painted"
    elapsed = (painted.at - t) * 1000
    edit.clear()
    tab.bar.debounce.stop()
    tab.bar.queryChanged.emit()  # the filter cleared at once, before the next word
    pause(50)
    return elapsed, heart.longest


def measure_filter(tab, repeat: int) -> tuple[float, float, float, float]:
    """Medians over ``repeat`` typed words (a warm-up first): ``(last key to painted, the filter's pause
    plus a table repaint, the longest stall, a table repaint)``."""
    from philont_desktop.facts.widgets.filter_bar import FILTER_DEBOUNCE_MS

    words = itertools.cycle(TYPED)
    filter_typed_ms(tab, next(words))  # warm-up
    typed = [filter_typed_ms(tab, next(words)) for _ in range(repeat)]
    table_paint = median_ms(tab.table.grab, repeat)
    return (
        statistics.median(t for t, _stall in typed),
        FILTER_DEBOUNCE_MS + table_paint,
        statistics.median(stall for _t, stall in typed),
        table_paint,
    )


def tab_load_ms(path: Path, theme, now: int, n_rows: int) -> tuple[float, float]:
    """One load of the Facts tab, from activation until the table shows its ``n_rows`` rows on screen
    (the first paint of the window after they are in the model), and until the plots drawn after that
    paint are painted too. The tab is a shown window, painted by the event loop as on a screen."""
    from philont_desktop.context import AppContext
    from philont_desktop.facts.view import FactsTab
    from philont_desktop.qt import QApplication
    from philont_desktop.workers import spin_until

    app = QApplication.instance()
    ctx = AppContext.open(path, interactive=False, theme=theme)
    tab = FactsTab(ctx)
    tab.now_fn = lambda: now
    tab.resize(1500, 950)
    tab.show()
    spin_until(lambda: False, 300)  # the empty tab painted, as before a person clicks on it
    rows = PaintMark(tab.window(), lambda: tab.model.rowCount() == n_rows and tab.loading_overlay is None)
    plots = PaintMark(tab.window(), lambda: rows.at is not None and not tab._plots.pending)
    t = time.perf_counter()
    tab.ensure_activated()
    spin_until(lambda: plots.at is not None, 120_000)
    assert rows.at is not None and plots.at is not None, "the tab was not painted"
    elapsed = ((rows.at - t) * 1000, (plots.at - t) * 1000)
    spin_until(lambda: not tab.busy, 60_000)
    tab.close()
    ctx.close()
    tab.deleteLater()
    app.processEvents()
    return elapsed


def as_read(fn: Callable[[], object]) -> Callable[[], None]:
    """``fn`` run as the application runs a read job: with the cyclic collector paused while the
    application's interpreter settings are on (``favour_the_gui_thread``)."""
    from philont_desktop.interpreter import reads_collector

    def run() -> None:
        with reads_collector.job():
            fn()

    return run


def loads_beside_floor(
    path: Path, theme, now: int, n_rows: int, repeat: int
) -> tuple[float, list[tuple[float, float]]]:
    """``(the floor's median, the tab's loads)``: ``FactStore.all_rows()`` on the same file, run as the
    tab's read job runs (:func:`as_read`), and :func:`tab_load_ms`, alternately, one of each in turn
    after a warm-up of each, so that both see the same machine (its load, the heap)."""
    with MemoryDB.open(path) as db:
        floor = as_read(FactStore(db).all_rows)
        floor()  # warm-up
        tab_load_ms(path, theme, now, n_rows)  # warm-up (imports, fonts, caches)
        floors, loads = [], []
        for _ in range(repeat):
            floors.append(median_ms(floor, 1))
            loads.append(tab_load_ms(path, theme, now, n_rows))
    return statistics.median(floors), loads


def bare_scatter_redraw(ov, theme) -> Callable[[], None]:
    """The floor of an overview redraw: a bare ScatterPlotItem of the same points, one brush, painted."""
    from philont_desktop.widgets.plots import ThemedPlotWidget, pg

    bare = ThemedPlotWidget(theme)
    bare.resize(ov.plot.width(), ov.plot.height())
    bare.show()
    sp = pg.ScatterPlotItem(pxMode=True, size=5, pen=None)
    bare.addItem(sp)
    bare.setXRange(0, float(ov.x.max()) * 1.03 + 0.5, padding=0)
    bare.setYRange(0, 1.05, padding=0)
    bx, by = ov.x.copy(), ov.y.copy()
    brush = pg.mkBrush("#1f77b4")

    def bare_redraw() -> None:
        sp.setData(x=bx, y=by, brush=brush)
        bare.grab()

    return bare_redraw


def overview_moved(ov, now: int) -> Callable[[], None]:
    """The decay redraw: the overview at a new view time (every point moves), painted."""
    days = iter(range(1, 10_000))

    def moved() -> None:
        ov.set_view_time(now + next(days) * DAY)
        ov.plot.grab()

    return moved


def measure_facts(path: Path, repeat: int = 5, now: int = FIXED_NOW + 30 * DAY) -> list[dict]:
    """Facts tab load beside ``FactStore.all_rows()`` and the overview's decay redraw beside a bare
    ``ScatterPlotItem.setData``, as result rows for ``bench/run.py`` (a warm-up, then medians).

    The interpreter is set as the application sets it (``favour_the_gui_thread``): the tab's read job
    runs with the cyclic collector paused, and so does every run of the floor. The floor's runs and the
    tab's loads alternate, one of each in turn, after one warm-up of each."""
    from philont_desktop.interpreter import favour_the_gui_thread
    from philont_desktop.qt import QApplication
    from philont_desktop.theme import Theme
    from philont_desktop.workers import spin_until

    app = QApplication.instance() or QApplication([])
    favour_the_gui_thread()  # as the application does: the tab's read runs with the collector paused
    theme = Theme("light")
    theme.apply()
    with MemoryDB.open(path) as db:
        n_rows = len(FactStore(db).all_rows())
    floor_rows, loads = loads_beside_floor(path, theme, now, n_rows, repeat)
    whole = statistics.median(t for t, _plots in loads)

    from philont_desktop.context import AppContext
    from philont_desktop.facts.view import FactsTab

    ctx = AppContext.open(path, interactive=False, theme=theme)
    tab = FactsTab(ctx)
    tab.now_fn = lambda: now
    tab.resize(1500, 950)
    tab.show()
    tab.ensure_activated()
    spin_until(lambda: tab.model.rowCount() == n_rows, 120_000)
    spin_until(lambda: not tab.busy, 60_000)
    tab.bottom.setCurrentWidget(tab.overview)
    app.processEvents()
    ov = tab.overview
    n_points = int(ov.x.size)
    bare = bare_scatter_redraw(ov, theme)
    bare()  # warm-up
    floor_scatter = median_ms(bare, repeat)
    moved = overview_moved(ov, now)
    moved()  # warm-up
    redraw = median_ms(moved, repeat)
    ov.set_view_time(now)
    tab.bottom.setCurrentIndex(0)
    app.processEvents()
    typed, typed_floor, stall, table_paint = measure_filter(tab, repeat)
    ctx.close()
    return [
        {
            "name": f"facts tab load ({n_rows:,} facts, until painted)",
            "value": whole,
            "unit": "ms",
            "floor_name": "FactStore.all_rows()",
            "floor_value": floor_rows,
            "runs": repeat,
        },
        {
            "name": f"facts tab load ({n_rows:,} facts), its plots drawn after the rows, painted",
            "value": statistics.median(p for _rows, p in loads),
            "unit": "ms",
            "floor_name": "FactStore.all_rows()",
            "floor_value": floor_rows,
            "runs": repeat,
        },
        {
            "name": f"facts decay redraw (overview, {n_points:,} points at a new time)",
            "value": redraw,
            "unit": "ms",
            "floor_name": "bare ScatterPlotItem.setData, painted",
            "floor_value": floor_scatter,
            "runs": repeat,
        },
        {
            "name": f"facts filter typed ({n_rows:,} facts): last key to the filtered rows painted",
            "value": typed,
            "unit": "ms",
            "floor_name": "the filter's pause after typing + a table repaint",
            "floor_value": typed_floor,
            "runs": repeat,
        },
        {
            "name": f"facts filter typed ({n_rows:,} facts): longest event-loop stall (goal ≤ 50 ms)",
            "value": stall,
            "unit": "ms",
            "floor_name": "a repaint of the table",
            "floor_value": table_paint,
            "runs": repeat,
        },
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--facts", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)

    path = CACHE / f"facts-{args.facts}-{args.seed}.sqlite"
    if not path.exists():
        build(path, args.facts, args.seed)

    from philont_desktop.interpreter import favour_the_gui_thread
    from philont_desktop.qt import QApplication

    app = QApplication.instance() or QApplication([])
    favour_the_gui_thread()  # as the application does (see measure_facts)
    from philont_desktop.context import AppContext
    from philont_desktop.facts.columns import C_SCORE
    from philont_desktop.facts.data import load_facts
    from philont_desktop.facts.view import FactsTab
    from philont_desktop.qt import Qt
    from philont_desktop.theme import Theme
    from philont_desktop.workers import spin_until

    theme = Theme("light")
    theme.apply()
    now = FIXED_NOW + 30 * DAY  # a month after the data was made: a realistic mix of scores

    db = MemoryDB.open(path)
    store = FactStore(db)
    rows = store.all_rows()
    active = sum(1 for f in rows if f.active)
    print(
        f"{path.name}: {len(rows):,} fact rows, {active:,} active, {len(store.list_namespaces())} namespaces"
    )
    print(f"Qt offscreen, {args.repeat} runs each, medians\n")

    # -- loading ------------------------------------------------------------------------------------------
    print("loading")
    floor_rows, loads = loads_beside_floor(path, theme, now, len(rows), args.repeat)
    worker = median_ms(as_read(lambda: load_facts(db, now, now)), args.repeat)
    line("load_facts on the worker (prepare + score)", worker, "FactStore.all_rows()", floor_rows)
    whole = statistics.median(t for t, _plots in loads)
    line("facts tab load, rows painted (worker + GUI)", whole, "FactStore.all_rows()", floor_rows)
    plots = statistics.median(p for _rows, p in loads)
    line("  and the plots drawn after it, painted", plots, "FactStore.all_rows()", floor_rows)

    # GUI-thread share of the load, with the data already prepared
    data = load_facts(db, now, now)
    ctx = AppContext.open(path, interactive=False, theme=theme)
    tab = FactsTab(ctx)
    tab.now_fn = lambda: now
    tab.resize(1500, 950)
    tab.show()
    app.processEvents()

    loads = itertools.count(1)

    def gui_share() -> None:
        tab.model.clear()
        # a load of its own (the state ignores a load equal to the one it holds)
        tab.controller._on_loaded(dataclasses.replace(data, loaded_at=data.loaded_at + next(loads)))
        tab.grab()

    gui = median_ms(gui_share, args.repeat)
    bare_paint = median_ms(tab.grab, args.repeat)
    line(
        "  of which the GUI thread (model, tree, plots, paint)", gui, "repaint of the loaded tab", bare_paint
    )
    spin_until(lambda: not tab.busy, 60_000)

    # -- overview -------------------------------------------------------------------------------------------
    print("\noverview redraw")
    tab.bottom.setCurrentWidget(tab.overview)
    app.processEvents()
    ov = tab.overview
    n_points = int(ov.x.size)
    w, h = ov.plot.width(), ov.plot.height()
    floor_scatter = median_ms(bare_scatter_redraw(ov, theme), args.repeat)
    print(f"  ({n_points:,} points, {len(ov.namespaces)} namespace colours, plot {w}×{h} px)")

    def full() -> None:
        ov.set_rows(tab.model.rows(), tab.view_time)
        ov.plot.grab()

    line(
        "overview rebuilt (new data: points + brushes)",
        median_ms(full, args.repeat),
        "bare ScatterPlotItem.setData",
        floor_scatter,
    )
    line(
        "overview at a new view time (points moved)",
        median_ms(overview_moved(ov, now), args.repeat),
        "bare ScatterPlotItem.setData",
        floor_scatter,
    )
    ov.set_view_time(now)

    # -- time control, sort, filter ---------------------------------------------------------------------------
    print("\ntable")
    tab.bottom.setCurrentIndex(0)
    app.processEvents()
    table_paint = median_ms(tab.table.grab, args.repeat)
    offsets = iter(list(range(1, 366, 7)) * 10)

    def time_control() -> None:
        tab.set_offset_days(0)
        tab.set_offset_days(next(offsets))  # table rescored, pool reloaded
        tab.table.grab()
        tab._time_plots.flush()  # the curves and the overview follow after the table's paint

    line(
        "time control step (rescore 10k, move points)",
        median_ms(time_control, args.repeat),
        "table repaint",
        table_paint,
    )
    spin_until(lambda: not tab.busy, 60_000)
    orders = iter([Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder] * 100)

    def sort_score() -> None:
        tab.table.sortByColumn(C_SCORE, next(orders))
        tab.table.grab()

    line("sort by score", median_ms(sort_score, args.repeat), "table repaint", table_paint)
    texts = iter(["deploy", "", "旺财", "", "berlin", ""] * 20)

    def text_filter() -> None:
        tab.proxy.set_filter(text=next(texts))
        tab.table.grab()

    line(
        "text filter over keys and values", median_ms(text_filter, args.repeat), "table repaint", table_paint
    )
    tab.proxy.set_filter(text="")
    typed, typed_floor, stall, table_paint = measure_filter(tab, args.repeat)
    line("filter typed: last key to painted", typed, "the pause + table repaint", typed_floor)
    line("filter typed: longest event-loop stall", stall, "table repaint", table_paint)

    ctx.close()
    db.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
