"""The longest event-loop stall: how long the GUI thread can be away while a person uses the app.

    python bench/bench_stall.py --db PATH            # one scripted session, its stalls named
    python bench/bench_stall.py --db PATH --runs 3   # three sessions (each a new process), medians
    python bench/bench_stall.py --db PATH --profile  # also where the GUI thread was during each stall

A heartbeat timer fires every 2 ms on the GUI thread (a precise ``QTimer``); every gap between two beats
is time during which the window could not react to input or paint. A scripted session runs in a new
process, as a person would use the app, step after step:

1. open the database (the window is shown on its start page first), then wait while the other tabs
   are built in the background and ``quick_check`` runs;
2. visit every tab (the first visit: each tab loads);
3. search the Timeline in English and in Chinese, typed key by key;
4. scroll the Timeline up a few pages, jump to its oldest day and scroll to its first message;
5. type a message in the Context tab's message box, key by key (English, then Chinese);
6. move the Facts tab's time control as a drag would, in steps;
7. open a skill that has revisions in the Skills tab.

Going back to a tab used before (steps 3, 5, 6 and 7) is a step of its own ("back to the ... tab"), so
that the switch's repaints are not charged to what is done in the tab.
Each step waits until the tab it used is idle, then a little longer (late paints belong to the step).
A gap is charged to the step that was running when the beat after it came. The output names the worst
three stalls (step, length, and with ``--profile`` the functions the GUI thread was in: a watchdog
thread samples its stack while a beat is late). The floor is the same heartbeat in a process that shows
a bare ``QMainWindow`` and does nothing for as long (what the machine's scheduling alone costs).
Beside each gap, the GUI thread's own CPU time in it (``time.thread_time``): on a busy machine a gap
also holds the time other processes had the processor, the CPU time is what the app itself did.

Peak memory: the session process's peak RSS when it ends, beside the bare process's.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

RESULT = "BENCH-STALL "
HEARTBEAT_MS = 2
RECORD_MS = 8  # gaps shorter than this are not kept (only the longest is reported anyway)
SETTLE_MS = 250  # after a step's tab is idle: late paints and follow-up work still belong to the step
KEY_INTERVAL_MS = 90  # a fast typist
CHILD_TIMEOUT_S = 1800
TYPED_EN = "Do you remember what we discussed about the Berlin trip last time?"
TYPED_ZH = "你还记得我们上次讨论的数据库迁移吗？"
SEARCH_EN = "plan"
SEARCH_ZH = "数据库"
PYCACHE = ROOT / "bench" / ".cache" / "pycache"  # bench/run.py's: byte-code cached as installed


# -- the heartbeat and the stack sampler -------------------------------------------------------------------


class Heartbeat:
    """A 2 ms timer on the GUI thread; keeps the gaps between its beats and the step they fell in."""

    def __init__(self, interval_ms: int = HEARTBEAT_MS):
        from philont_desktop.qt import Qt, QTimer

        self.step = "start"
        self.last: float | None = None
        self.last_cpu = 0.0
        self.gaps: list[dict[str, Any]] = []
        self.by_step: dict[str, float] = {}
        # The GUI thread's own CPU time in its longest turn of each step (time.thread_time between two
        # beats): what the app did, without the time a busy machine took the processor away from it.
        self.cpu_by_step: dict[str, float] = {}
        self.beats = 0
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._beat)
        self.sampler: StackSampler | None = None
        self.watchdog: ThreadsWatchdog | None = None

    def start(self) -> None:
        self.last = time.perf_counter()
        self.last_cpu = time.thread_time()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def _beat(self) -> None:
        now = time.perf_counter()
        cpu_now = time.thread_time()
        cpu = (cpu_now - self.last_cpu) * 1000
        self.last_cpu = cpu_now
        self.beats += 1
        if self.last is not None:
            gap = (now - self.last) * 1000
            self.by_step[self.step] = max(self.by_step.get(self.step, 0.0), gap)
            self.cpu_by_step[self.step] = max(self.cpu_by_step.get(self.step, 0.0), cpu)
            if gap >= RECORD_MS:
                g: dict[str, Any] = {"ms": gap, "cpu_ms": cpu, "step": self.step, "at": self.last}
                if self.sampler is not None:
                    g["where"] = self.sampler.where(self.last, now)
                if self.watchdog is not None:
                    g["span"] = (self.last, now)
                self.gaps.append(g)
        self.last = now

    @property
    def longest(self) -> float:
        return max(self.by_step.values(), default=0.0)


class StackSampler(threading.Thread):
    """While a beat is late, samples where the GUI thread is (the project's frames only).

    The stacks are taken with :mod:`faulthandler` (written from C, safe while the GUI thread runs),
    into a temporary file, and the GUI thread's part is kept.
    """

    def __init__(self, heart: Heartbeat, late_ms: float = 20.0, every_s: float = 0.01):
        super().__init__(daemon=True, name="stall-sampler")
        self.heart = heart
        self.late = late_ms / 1000
        self.every = every_s
        self.gui = threading.get_ident()
        self.samples: collections.deque[tuple[float, str]] = collections.deque(maxlen=20_000)
        self.running = True

    def run(self) -> None:
        import faulthandler

        with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as f:
            while self.running:
                time.sleep(self.every)
                last = self.heart.last
                now = time.perf_counter()
                if last is None or now - last < self.late:
                    continue
                f.seek(0)
                f.truncate()
                faulthandler.dump_traceback(f, all_threads=True)
                f.flush()
                f.seek(0)
                self.samples.append((now, _gui_stack(f.read(), self.gui)))

    def where(self, t0: float, t1: float) -> list[tuple[str, int]]:
        """The stacks seen in ``(t0, t1)``, most frequent first (at most three)."""
        seen = collections.Counter(s for t, s in list(self.samples) if t0 < t <= t1)
        return seen.most_common(3)


class ThreadsWatchdog(threading.Thread):
    """Who kept the interpreter: every thread's CPU time and stack when a 1 ms sleep wakes up late.

    A thread of Python sleeps 1 ms at a time. When it wakes up late (``late_ms``), the interpreter was
    kept by another thread all that while (on a quiet machine; on a busy one the scheduler shares the
    blame): it reads every thread's own CPU clock (``time.pthread_getcpuclockid``, so which thread
    ran, and how long) and stack (``sys._current_frames``, taken holding the interpreter, so safe: the
    thread that just let it go is still at, or just after, the call that kept it). A long C call
    (a ``fetchall`` of many rows, a validation of a whole list, a module's C initialisation) shows as
    one thread's CPU for the whole wait and its frame at that call. (``faulthandler``'s watchdog
    would dump stacks during the wait itself, but reading frames without the interpreter crashes.)
    """

    def __init__(self, late_ms: float = 10.0):
        super().__init__(daemon=True, name="stall-watchdog")
        self.late = late_ms / 1000
        self.running = True
        self.events: collections.deque[tuple[float, float, list[tuple[str, float, str]]]] = collections.deque(
            maxlen=5000
        )
        self.gui = threading.get_ident()
        self.clocks: collections.deque[tuple[float, dict[int, float]]] = collections.deque(maxlen=60_000)
        self.names: dict[int, str] = {}

    def run(self) -> None:
        clocks: dict[int, float] = {}
        me = threading.get_ident()
        while self.running:
            t0 = time.perf_counter()
            time.sleep(0.001)
            t1 = time.perf_counter()
            frames = sys._current_frames()
            cpu: dict[int, float] = {}
            for ident in frames:
                if ident == me:
                    continue
                try:
                    cpu[ident] = time.clock_gettime(time.pthread_getcpuclockid(ident))
                except (OSError, OverflowError):
                    continue
            self.clocks.append((t1, cpu))
            if t1 - t0 >= self.late:
                names = {t.ident: t.name for t in threading.enumerate()}
                self.names.update(names)
                rows = []
                for ident, c in cpu.items():
                    used = (c - clocks.get(ident, c)) * 1000
                    if used >= 1.0:
                        who = "GUI" if ident == self.gui else names.get(ident, "?")
                        who = f"worker {ident >> 12 & 0xFFF:03x}" if who.startswith(("Dummy-", "?")) else who
                        rows.append((who, used, _summary(_frames_of(frames[ident]))))
                rows.sort(key=lambda r: -r[1])
                self.events.append((t0, t1, rows))
            clocks = cpu
            del frames

    def cpu_in(self, t0: float, t1: float) -> str:
        """Each thread's CPU time between the last wake before ``t0`` and the first after ``t1``."""
        before = after = None
        for t, c in list(self.clocks):
            if t <= t0:
                before = (t, c)
            elif t >= t1:
                after = (t, c)
                break
        if before is None or after is None:
            return ""
        parts = []
        for ident, c in after[1].items():
            used = (c - before[1].get(ident, c)) * 1000
            if used >= 1.0:
                who = "GUI" if ident == self.gui else self.names.get(ident, f"0x{ident:x}")
                parts.append(
                    (used, f"worker {ident >> 12 & 0xFFF:03x}" if who.startswith(("Dummy-", "0x")) else who)
                )
        span = (after[0] - before[0]) * 1000
        return f"CPU in {span:.0f} ms: " + ", ".join(
            f"{who} {u:.0f} ms" for u, who in sorted(parts, reverse=True)
        )

    def stacks(self, t0: float, t1: float) -> list[tuple[str, int]]:
        """What the threads did during ``(t0, t1)``: each late wake, its threads' CPU and stacks."""
        out = [(self.cpu_in(t0, t1), 0)]
        for a, b, rows in list(self.events):
            if b > t0 and a < t1:
                out.append((f"watchdog woke {1000 * (b - a):.0f} ms late", 0))
                out += [(f"  {who} {used:.0f} ms CPU: {where}", 0) for who, used, where in rows[:4]]
        return out


def _frames_of(frame: Any) -> list[tuple[str, str, str]]:
    out = []
    while frame is not None:
        out.append((frame.f_code.co_filename, str(frame.f_lineno), frame.f_code.co_name))
        frame = frame.f_back
    return out


def _short(name: str) -> str:
    rel = _project_file(name)
    if rel is not None:
        return rel
    parts = Path(name).parts
    for i, part in enumerate(parts):
        if part in ("site-packages", "lib-dynload") or part.startswith("python3"):
            return "/".join(parts[i + 1 :]) or name
    return name


def _summary(frames: list[tuple[str, str, str]], outer: int = 2, project: int = 3) -> str:
    """The innermost frames of a thread, then its innermost frames in the project."""
    inner = [f"{_short(n)}:{ln} {fn}" for n, ln, fn in frames[:outer]]
    mine = [f"{_project_file(n)}:{ln} {fn}" for n, ln, fn in frames[outer:] if _project_file(n)][:project]
    return " < ".join(inner + (["..."] if mine else []) + mine) or "(no Python frame)"


_PROJECT: dict[str, str | None] = {}


def _project_file(filename: str) -> str | None:
    """``core/x.py`` for a file of the project's packages, else ``None`` (cached)."""
    if filename not in _PROJECT:
        rel = None
        try:
            r = Path(filename).resolve().relative_to(ROOT)
            if r.parts and r.parts[0] in ("core", "philont_desktop"):
                rel = r.as_posix()
        except (ValueError, OSError):
            pass
        _PROJECT[filename] = rel
    return _PROJECT[filename]


def _gui_stack(dump: str, gui: int) -> str:
    """Thread ``gui``'s innermost frames, then its innermost frames of the project, in a dump."""
    frames: list[tuple[str, str, str]] = []
    mine = False
    for line in dump.splitlines():
        if line.startswith(("Thread 0x", "Current thread 0x")):
            mine = int(line.split("0x", 1)[1].split()[0], 16) == gui
            continue
        line = line.strip()
        if mine and line.startswith('File "'):
            name, _, rest = line[6:].partition('", line ')
            lineno, _, func = rest.partition(" in ")
            frames.append((name, lineno, func))
    return _summary(frames) if frames else "(no Python frame: in Qt, or waiting for the interpreter)"


# -- waiting without stalling --------------------------------------------------------------------------------


def wait_until(pred: Callable[[], bool], timeout_ms: int) -> bool:
    """Run the event loop (idle, not spinning) until ``pred()`` or the timeout."""
    from philont_desktop.qt import QEventLoop, QTimer

    if pred():
        return True
    deadline = time.monotonic() + timeout_ms / 1000
    loop = QEventLoop()
    check = QTimer()
    check.setInterval(5)
    check.timeout.connect(lambda: (pred() or time.monotonic() >= deadline) and loop.quit())
    check.start()
    loop.exec()
    check.stop()
    return pred()


def pause(ms: int) -> None:
    end = time.monotonic() + ms / 1000
    wait_until(lambda: time.monotonic() >= end, ms + 1000)


# -- the scripted session ---------------------------------------------------------------------------------


class Session:
    """The steps of the scripted session over one window."""

    def __init__(self, db: Path, heart: Heartbeat, log: Callable[[str], None], replay_seconds: float = 0.0):
        from philont_desktop import i18n
        from philont_desktop.app import _make_app
        from philont_desktop.main_window import MainWindow
        from philont_desktop.settings import Settings
        from philont_desktop.theme import Theme

        self.app = _make_app(sys.argv[0])
        self.db = db
        self.heart = heart
        self.log = log
        settings = Settings()
        i18n.install("en")
        theme = Theme("light")
        theme.apply()
        self.window = MainWindow(settings, theme, read_only=True, interactive=True)
        self.window.resize(1280, 820)
        self.steps: list[tuple[str, float]] = []
        self.problems: list[str] = []
        self.replay_seconds = replay_seconds
        self.replayed: tuple[int, int] | None = None  # turns replayed, of how many

    # -- helpers --------------------------------------------------------------------------------------
    def step(self, name: str, fn: Callable[[], object]) -> None:
        self.heart.step = name
        t = time.perf_counter()
        try:
            fn()
        except Exception as exc:  # a step that fails is reported, the session goes on
            self.problems.append(f"{name}: {type(exc).__name__}: {exc}")
        pause(SETTLE_MS)
        self.steps.append((name, time.perf_counter() - t))
        self.log(
            f"    {name}: {time.perf_counter() - t:.1f} s, longest gap {self.heart.by_step.get(name, 0):.0f} ms"
            f" (longest GUI-thread CPU between two beats {self.heart.cpu_by_step.get(name, 0):.0f} ms)"
        )

    def idle(self, tab: Any, timeout_ms: int = 300_000) -> None:
        if not tab.wait_idle(timeout_ms):
            self.problems.append(f"{tab.name}: still busy after {timeout_ms // 1000} s")

    def type_into(self, widget: Any, text: str) -> None:
        """Key by key; a character that is not ASCII is committed as an input method does."""
        from philont_desktop.qt import QApplication, QInputMethodEvent, QtTest

        widget.setFocus()
        for ch in text:
            if ch.isascii():
                QtTest.QTest.keyClicks(widget, ch)
            else:
                ev = QInputMethodEvent()
                ev.setCommitString(ch)
                QApplication.sendEvent(widget, ev)
            pause(KEY_INTERVAL_MS)

    # -- the steps ------------------------------------------------------------------------------------
    def run(self) -> None:
        w = self.window
        w.show()
        pause(300)  # the start page painted, the beat steady
        self.step("open the database", self.open_database)
        self.step("after opening: the other tabs built in the background, quick_check", self.after_open)
        if self.replay_seconds > 0:
            self.step("visit health", lambda: self.visit("health"))
            self.step(
                "health: show the Recall page", lambda: self.window.show_tab("health").show_page("recall")
            )
            self.step(f"health: the Recall page replays ({self.replay_seconds:.0f} s)", self.replay)
            return
        for name in w.tab_names():
            self.step(f"visit {name}", lambda n=name: self.visit(n))
        # going back to a tab is a step of its own: its repaints are not charged to what follows
        self.step("back to the timeline", lambda: self.visit("timeline"))
        tl = w.show_tab("timeline")
        self.step(f"timeline: search English '{SEARCH_EN}' (typed)", lambda: self.search(tl, SEARCH_EN))
        self.step(f"timeline: search Chinese '{SEARCH_ZH}' (typed)", lambda: self.search(tl, SEARCH_ZH))
        self.step("timeline: clear the search", lambda: self.search(tl, ""))
        self.step("timeline: scroll up five pages", lambda: self.scroll_up(tl, 5))
        self.step("timeline: jump to the oldest day", lambda: self.oldest(tl))
        self.step("timeline: scroll up to the first message", lambda: self.scroll_up(tl, 50))
        self.step("back to the context tab", lambda: self.visit("context"))
        cx = w.show_tab("context")
        self.step("context: type a message (English)", lambda: self.type_message(cx, TYPED_EN))
        self.step("context: type a message (Chinese)", lambda: self.type_message(cx, TYPED_ZH))
        self.step("back to the facts tab", lambda: self.visit("facts"))
        fx = w.show_tab("facts")
        self.step("facts: move the time control", lambda: self.drag_time(fx))
        self.step("back to the skills tab", lambda: self.visit("skills"))
        sk = w.show_tab("skills")
        self.step("skills: open a skill with revisions", lambda: self.open_skill(sk))

    def replay(self) -> None:
        """The Recall page (shown in the step before, with no saved result) replays every user turn in the
        background while the heartbeat runs for :attr:`replay_seconds`; then the replay is cancelled."""
        page = self.window.show_tab("health").page("recall")
        pause(int(self.replay_seconds * 1000))
        bar = page.progress.bar
        self.replayed = (bar.value(), bar.maximum())
        if page.job is None:
            self.problems.append("recall: no replay was running at the end of the step")
        page.cancel()

    def open_database(self) -> None:
        w = self.window
        w.open_database(self.db)
        if not wait_until(lambda: w.ctx is not None or w.open_error is not None, 300_000):
            raise RuntimeError("the database did not open")
        if w.ctx is None:
            raise RuntimeError(f"the database did not open: {w.open_error}")
        tab = w.tabs.current()
        if tab is not None:
            self.idle(tab)

    def after_open(self) -> None:
        from philont_desktop.shell.tab_host import TabSlot

        w = self.window
        ctx = w.ctx
        tw = w.tab_widget
        wait_until(lambda: not any(isinstance(tw.widget(i), TabSlot) for i in range(tw.count())), 120_000)
        wait_until(lambda: w.counts_loaded, 60_000)
        wait_until(lambda: ctx.report.quick_check is not None, 600_000)

    def visit(self, name: str) -> None:
        tab = self.window.show_tab(name)
        if tab is not None:
            tab.ensure_activated()
            self.idle(tab)

    def search(self, tab: Any, text: str) -> None:
        edit = tab.search_edit
        edit.setFocus()
        edit.selectAll()
        if not text:
            edit.clear()
        else:
            self.type_into(edit, text)
        wait_until(lambda: not tab.results.searching, 120_000)
        self.idle(tab)

    def scroll_up(self, tab: Any, pages: int) -> None:
        view = tab.conversation if hasattr(tab, "conversation") else _conversation_view(tab)
        model = view.model()
        bar = view.verticalScrollBar()
        for _ in range(pages):
            if not model.has_older:
                break
            before = model.rowCount()
            first = model.message_at(0)
            bar.setValue(0)
            wait_until(
                lambda b=before, f=first: (
                    model.message_at(0) is not f or not model.has_older or model.rowCount() != b
                ),
                60_000,
            )
            self.idle(tab)
            pause(60)
        bar.setValue(0)

    def oldest(self, tab: Any) -> None:
        from core.db import MemoryDB

        with MemoryDB.open(self.db, check=False) as db:  # where the oldest day is (not the app's work)
            oldest = db.conn.execute("SELECT min(timestamp) FROM memory_raw_messages").fetchone()[0]
        tab.show_time(int(oldest))
        self.idle(tab)

    def type_message(self, tab: Any, text: str) -> None:
        tab.message_edit.clear()
        self.type_into(tab.message_edit, text)
        self.idle(tab)

    def drag_time(self, tab: Any) -> None:
        slider = tab.time_slider
        for v in range(0, min(slider.maximum(), 360) + 1, 12):
            slider.setValue(v)
            pause(40)
        self.idle(tab)

    def open_skill(self, tab: Any) -> None:
        # the skill with the most revisions, found in the model's list (a person clicks a card: going
        # through 2,000 Qt indexes here would be the script's own work in the step's turn)
        skills = tab.board.model.skills
        best = max(skills, key=lambda s: len(s.revision_history), default=None)
        if best is None or not best.revision_history:
            raise RuntimeError("no skill with revisions")
        self.log(f"    (skill {best.name!r}, {len(best.revision_history)} revisions)")
        tab.select_skill(best.name)
        self.idle(tab)


def _conversation_view(tab: Any) -> Any:
    from philont_desktop.timeline.conversation import ConversationView

    views = tab.findChildren(ConversationView)
    if not views:
        raise RuntimeError("the timeline has no conversation view")
    return views[0]


# -- child processes ----------------------------------------------------------------------------------------


def _peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def child_session(db: str, profile: bool, replay_seconds: float = 0.0) -> dict[str, Any]:
    from philont_desktop.app import _install_message_filter

    messages = _install_message_filter()
    log = lambda m: print(m, flush=True)  # noqa: E731
    heart = Heartbeat()
    session = Session(Path(db), heart, log, replay_seconds)
    messages.started()
    if profile:
        heart.sampler = StackSampler(heart)
        heart.sampler.start()
        heart.watchdog = ThreadsWatchdog()
        heart.watchdog.start()
    heart.start()
    t0 = time.perf_counter()
    session.run()
    heart.stop()
    if heart.sampler is not None:
        heart.sampler.running = False
    if heart.watchdog is not None:
        heart.watchdog.running = False
        for g in heart.gaps:
            if "span" in g:
                g["threads"] = heart.watchdog.stacks(*g.pop("span"))
    duration = time.perf_counter() - t0
    rss = _peak_rss_mib()
    worst = sorted(heart.gaps, key=lambda g: -g["ms"])[:10]
    by_step: dict[str, list[dict[str, Any]]] = {}
    for g in sorted(heart.gaps, key=lambda g: -g["ms"]):
        if len(by_step.setdefault(g["step"], [])) < 3:
            by_step[g["step"]].append({k: v for k, v in g.items() if k != "at"})
    session.window.close()
    return {
        "longest_ms": heart.longest,
        "worst": [{k: v for k, v in g.items() if k != "at"} for g in worst],
        "worst_by_step": by_step,  # the worst three gaps of every step
        "by_step": heart.by_step,
        "cpu_by_step": heart.cpu_by_step,
        "steps": session.steps,
        "problems": session.problems,
        "duration_s": duration,
        "beats": heart.beats,
        "rss_mib": rss,
        "replayed": session.replayed,
    }


def child_floor(seconds: float) -> dict[str, Any]:
    from philont_desktop.qt import QApplication, QMainWindow

    app = QApplication.instance() or QApplication([sys.argv[0]])
    win = QMainWindow()
    win.resize(1280, 820)
    win.show()
    heart = Heartbeat()
    heart.step = "idle"
    heart.start()
    pause(int(seconds * 1000))
    heart.stop()
    win.close()
    app.processEvents()
    return {"longest_ms": heart.longest, "beats": heart.beats, "rss_mib": _peak_rss_mib()}


def child_warm() -> dict[str, Any]:
    """Compile what a session imports into the byte-code cache, so that no session pays for it."""
    import compileall
    import importlib

    from philont_desktop.tabs import registry

    t = time.perf_counter()
    for name in ("philont_desktop.main_window", "philont_desktop.context", "philont_desktop.widgets.plots"):
        importlib.import_module(name)
    for entry in registry():
        importlib.import_module(entry.module)
    for package in ("core", "philont_desktop"):
        compileall.compile_dir(ROOT / package, quiet=1)
    return {"seconds": time.perf_counter() - t}


def session_env(settings_dir: str) -> dict[str, str]:
    """A session's environment: offscreen Qt, settings of its own, and byte-code caching on (as
    ``bench/run.py`` has it, in its cache): an installed application never compiles its sources
    while it runs, and a compilation (one C call of tens of milliseconds on whichever thread imports)
    keeps the interpreter from the GUI thread."""
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    env["PHILONT_DESKTOP_SETTINGS_DIR"] = settings_dir
    env["PYTHONUNBUFFERED"] = "1"
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.setdefault("PYTHONPYCACHEPREFIX", str(PYCACHE))
    return env


def _spawn(args: list[str], env: dict[str, str], log: Callable[[str], None]) -> dict[str, Any]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", *args]
    with tempfile.TemporaryFile("w+", encoding="utf-8") as errf:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=errf, text=True, env=env)
        assert p.stdout is not None
        found = None
        for line in p.stdout:
            line = line.rstrip("\n")
            if line.startswith(RESULT):
                found = json.loads(line[len(RESULT) :])
            elif line.strip():
                log(line)
        code = p.wait(timeout=CHILD_TIMEOUT_S)
        errf.seek(0)
        err = errf.read()
    if found is None:
        raise RuntimeError(f"{args[0]} run gave no result (exit {code}):\n{err[-3000:]}")
    return found


# -- the parent -----------------------------------------------------------------------------------------------


def describe(g: dict[str, Any]) -> str:
    text = f"{g['ms']:,.0f} ms in '{g['step']}'"
    if "cpu_ms" in g:
        text += f" (GUI-thread CPU {g['cpu_ms']:,.0f} ms)"
    where = g.get("where") or []
    if where:
        text += "\n        " + "\n        ".join(f"[{n}x] {s}" for s, n in where)
    threads = g.get("threads") or []
    if threads:
        text += "\n      the threads that ran while the watchdog waited for the interpreter:"
        text += "\n        " + "\n        ".join(s for s, _n in threads)
    return text


def run_sessions(
    db: Path,
    runs: int,
    *,
    profile: bool = False,
    log: Callable[[str], None] = print,
    replay_seconds: float = 0.0,
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """``runs`` scripted sessions (each a new process), each followed by a floor run as long."""
    out = []
    with tempfile.TemporaryDirectory(prefix="philont-bench-settings-") as d:
        _spawn(["warm"], session_env(d), log)
    for i in range(runs):
        with tempfile.TemporaryDirectory(prefix="philont-bench-settings-") as d:
            env = session_env(d)
            log(f"  session {i + 1}:")
            s = _spawn(["session", str(db), "1" if profile else "0", str(replay_seconds)], env, log)
            seconds = min(max(s["duration_s"], 3.0), 60.0)
            f = _spawn(["floor", f"{seconds:.1f}"], env, log)
        log(
            f"  session {i + 1}: longest stall {s['longest_ms']:,.0f} ms over {s['duration_s']:.0f} s "
            f"({s['beats']:,} beats), peak RSS {s['rss_mib']:,.0f} MiB; bare window: longest gap "
            f"{f['longest_ms']:,.0f} ms over {seconds:.0f} s, {f['rss_mib']:,.0f} MiB"
        )
        for n, g in enumerate(s["worst"][: 8 if profile else 3], 1):
            log(f"    worst {n}: {describe(g)}")
        for p in s["problems"]:
            log(f"    PROBLEM: {p}")
        out.append((s, f))
    return out


def measure(
    db: Path, runs: int, result: Callable[..., dict], log: Callable[[str], None] = print
) -> list[dict]:
    """The figures for ``bench/run.py``: the longest stall and the peak memory, medians of ``runs``."""
    pairs = run_sessions(db, runs, log=log)
    stall = statistics.median(s["longest_ms"] for s, _f in pairs)
    floor = statistics.median(f["longest_ms"] for _s, f in pairs)
    rss = statistics.median(s["rss_mib"] for s, _f in pairs)
    rss_floor = statistics.median(f["rss_mib"] for _s, f in pairs)
    worst = sorted((g for s, _f in pairs for g in s["worst"]), key=lambda g: -g["ms"])
    named: list[str] = []
    for g in worst:
        if g["step"] not in named:
            named.append(g["step"])
            log(f"  worst stall of '{g['step']}': {g['ms']:,.0f} ms")
        if len(named) == 3:
            break
    return [
        result(
            "longest event-loop stall (scripted session, 2 ms heartbeat)",
            stall,
            "ms",
            "bare QMainWindow, same heartbeat, idle",
            floor,
            runs,
        ),
        result(
            "peak memory (RSS) after the scripted session",
            rss,
            "MiB",
            "bare QApplication + QMainWindow process",
            rss_floor,
            runs,
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", help="the memory database (default: bench/run.py's quick database)")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--profile", action="store_true", help="sample the GUI thread's stack during stalls")
    ap.add_argument(
        "--replay-seconds",
        type=float,
        default=0.0,
        help="instead of the scripted session: open, show Health > Recall (no saved result: every user "
        "turn is replayed in the background) and keep the heartbeat for this many seconds",
    )
    ap.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        if args.child[0] == "session":
            got = child_session(args.child[1], args.child[2] == "1", float(args.child[3]))
        elif args.child[0] == "warm":
            got = child_warm()
        else:
            got = child_floor(float(args.child[1]))
        print(RESULT + json.dumps(got, ensure_ascii=False), flush=True)
        os._exit(0)
    if args.db:
        db = Path(args.db).expanduser()
    else:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import run

        db = run.ensure_db(run.FULL_MESSAGES // 10)
    pairs = run_sessions(db, args.runs, profile=args.profile, replay_seconds=args.replay_seconds)
    s0 = pairs[0][0]
    if s0.get("replayed"):
        print(f"\nthe Recall page replayed {s0['replayed'][0]:,} of {s0['replayed'][1]:,} user turns")
    print("\nlongest gap by step (first session), and the GUI thread's CPU time in its longest turn:")
    cpu = s0.get("cpu_by_step", {})
    for name, _secs in s0["steps"]:
        print(f"  {s0['by_step'].get(name, 0):7,.0f} ms  {cpu.get(name, 0):5,.0f} ms CPU  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
