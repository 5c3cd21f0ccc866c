"""Live refresh of the Facts tab while another process keeps writing: reloads are coalesced (one in
flight, one waiting), paced so the tab becomes idle in between, and reuse the rows that did not change."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from core.db import MemoryDB
from core.facts import FactStore
from philont_desktop.facts import controller as facts_controller
from philont_desktop.qt import QObject, QTimer, Signal
from philont_desktop.tabs.pacing import LivePacer
from philont_desktop.workers import spin_until
from tests.support import FIXED_NOW

DAY = 86_400_000


def build_db(path: Path, n: int = 30) -> None:
    db = MemoryDB.create(path, now=FIXED_NOW - 100 * DAY)
    s = FactStore(db)
    try:
        for i in range(n):
            s.store_fact(f"project.p{i % 4}", f"k{i}", {"n": i}, now=FIXED_NOW - (50 - i) * DAY)
    finally:
        db.close()


def write_fact(path: Path, key: str) -> None:
    """The agent: its own writable connection."""
    db = MemoryDB.open(path, writable=True)
    try:
        FactStore(db).store_fact("agent", key, "written by the agent", now=FIXED_NOW)
    finally:
        db.close()


@pytest.fixture
def tab(qtbot, tmp_path, monkeypatch):
    from philont_desktop.context import AppContext
    from philont_desktop.facts.view import FactsTab

    path = tmp_path / "memory.sqlite"
    build_db(path)
    loads: list[dict | None] = []
    real_load = facts_controller.load_facts

    def slow_load(db, at=None, real_now=None, previous=None, job=None):
        loads.append(previous)
        time.sleep(0.15)  # a large memory on a busy machine: a load outlasts a live poll
        return real_load(db, at, real_now, previous, job)

    monkeypatch.setattr(facts_controller, "load_facts", slow_load)
    ctx = AppContext.open(path, interactive=False)
    t = FactsTab(ctx)
    t.now_fn = lambda: FIXED_NOW
    qtbot.addWidget(t)
    t.show()
    t.ensure_activated()
    assert spin_until(lambda: not t.busy and t.model.rowCount() == 30, 20_000)
    t.loads = loads
    t.path = path
    yield t
    ctx.close()


def names(tab) -> set[str]:
    return {r.name for r in tab.model.rows()}


def test_refresh_while_loading_runs_one_more_load_not_one_per_call(tab):
    before = len(tab.loads)
    tab.refresh()
    write_fact(tab.path, "late")
    tab.refresh()
    tab.refresh()
    tab.refresh()
    assert spin_until(lambda: not tab.busy, 20_000)
    assert len(tab.loads) - before == 2  # the one in flight, then one for the three calls
    assert "agent.late" in names(tab)  # written before the waiting load started


def test_a_reload_reuses_the_rows_of_unchanged_facts(tab):
    first = {r.fid: r for r in tab.model.rows()}
    shown = tab.model.rows()[0]
    text = shown.value_text  # computed once, when first shown
    write_fact(tab.path, "new")
    tab.refresh()
    assert spin_until(lambda: not tab.busy and "agent.new" in names(tab), 20_000)
    assert tab.loads[-1] is not None and set(tab.loads[-1]) == set(first)
    again = tab.model.fact_row(shown.fid)
    assert again is shown and again.value_text == text  # the row kept, with its text


def test_a_stream_of_live_changes_leaves_the_tab_idle_between_reloads(qtbot, tab):
    """An agent writing all the time: live_refresh at every 50 ms poll, each load outlasting it."""
    before = len(tab.loads)
    written = []

    def agent_writes() -> None:
        key = f"stream{len(written)}"
        write_fact(tab.path, key)
        written.append(key)
        tab.live_refresh()

    stream = QTimer()
    stream.setInterval(50)
    stream.timeout.connect(agent_writes)
    stream.start()
    try:
        assert spin_until(lambda: len(written) >= 3, 20_000)
        # Idle while the agent keeps writing: a test, the self-test or a screenshot can finish.
        assert spin_until(lambda: not tab.busy, 20_000)
        assert stream.isActive()
        assert spin_until(lambda: len(written) >= 40, 60_000)
    finally:
        stream.stop()
    calls = len(written)
    assert len(tab.loads) - before < calls / 3  # coalesced, not one load per change
    # Once the agent stops, the last change is shown (after at most one gap).
    last = f"agent.{written[-1]}"
    assert spin_until(lambda: last in names(tab) and not tab.busy, 20_000)


class FakeTab(QObject):
    busyChanged = Signal(bool)

    def __init__(self) -> None:
        super().__init__()
        self.busy = False
        self.refreshes = 0

    def refresh(self) -> None:
        self.refreshes += 1
        self.busy = True
        self.busyChanged.emit(True)

    def done(self) -> None:
        self.busy = False
        self.busyChanged.emit(False)


def test_the_pacer_reloads_at_once_when_idle_and_folds_changes_seen_meanwhile(qtbot):
    fake = FakeTab()
    pacer = LivePacer(fake.refresh, lambda: fake.busy, fake.busyChanged)
    pacer.request()
    assert fake.refreshes == 1  # the first change: at once
    for _ in range(5):
        pacer.request()  # changes while it loads
    assert fake.refreshes == 1 and pacer.waiting
    fake.done()
    assert fake.refreshes == 1  # not right away: the tab is idle for a while first
    assert not fake.busy
    qtbot.waitUntil(lambda: fake.refreshes == 2, timeout=10_000)  # then one reload for all five
    fake.done()
    assert not pacer.waiting
    qtbot.wait(50)
    assert fake.refreshes == 2  # nothing changed since: no reload
