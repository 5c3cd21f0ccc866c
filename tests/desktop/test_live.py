"""Live refresh: a write by another process (or by our own writer) makes ``dataChanged`` fire, and the
visible tab shows the new rows."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from core.db import MemoryDB
from philont_desktop.context import AppContext
from philont_desktop.live import LiveMonitor
from philont_desktop.settings import Settings
from philont_desktop.workers import Workers, spin_until
from tests.support import FIXED_NOW

REPO = Path(__file__).resolve().parents[2]

APPEND_MESSAGES = textwrap.dedent(
    """
    import sys
    from core.db import MemoryDB
    from core.timeline import RawStore
    db = MemoryDB.open(sys.argv[1], writable=True, backup_before_write=False)
    store = RawStore(db)
    for i in range(int(sys.argv[2])):
        store.append_message("global", "assistant", f"written by the agent {i}", timestamp=1781524800000 + i)
    db.close()
    """
)

AUDITED_EDIT = textwrap.dedent(
    """
    import sys
    from core import curation
    from core.db import MemoryDB
    db = MemoryDB.open(sys.argv[1], writable=True, backup_before_write=False)
    curation.perform(db, actor="other@philont-desktop", action="toy.note", target_type="note",
                     target_id="n1", fn=lambda conn: ({"v": 1}, {"v": 2}))
    db.close()
    """
)


def _run_other_process(script: str, *args: str) -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    subprocess.run([sys.executable, "-c", script, *args], check=True, cwd=REPO, env=env, timeout=60)


@pytest.fixture
def db_path(tmp_path):
    path = tmp_path / "memory" / "memory.sqlite"
    MemoryDB.create(path, now=FIXED_NOW).close()
    return path


@pytest.fixture
def ctx(qapp, db_path):
    c = AppContext.open(db_path, settings=Settings(), interactive=False, live_interval_ms=100)
    c.start(quick_check=False)
    assert spin_until(lambda: c.live.polls > 0, 5000)
    yield c
    c.close()


def test_a_second_writer_process_makes_data_changed_fire(ctx, db_path, qtbot):
    assert ctx.live.state == "live"
    with qtbot.waitSignal(ctx.dataChanged, timeout=10_000):
        _run_other_process(APPEND_MESSAGES, str(db_path), "3")
    assert ctx.live.changes_seen >= 1
    # The next probes see no further change: the state returns to "live".
    assert spin_until(lambda: ctx.live.state == "live", 5000)


def test_no_change_no_signal(ctx, qtbot):
    with qtbot.assertNotEmitted(ctx.dataChanged, wait=600):
        pass
    assert ctx.live.polls >= 3


def test_our_own_write_is_reported_at_once(ctx, qtbot):
    ctx.set_editing(True)
    assert spin_until(lambda: ctx.editing, 10_000)
    ctx.live.stop()  # no timer: only the probe that follows our write can notice
    with qtbot.waitSignal(ctx.dataChanged, timeout=5000):
        job = ctx.write(_touch)
        assert job.wait(5000) and job.state == "finished"


def _touch(db):
    with db.write() as conn:
        conn.execute("INSERT INTO memory_meta (key, value) VALUES ('live-test', '1')")


def test_stopped_monitor_is_paused_and_probes_nothing(qapp, db_path):
    w = Workers(db_path)
    try:
        m = LiveMonitor(w, interval_ms=50)
        m.start()
        assert spin_until(lambda: m.polls > 0, 5000)
        m.stop()
        assert m.state == "paused"
        polls = m.polls
        spin_until(lambda: False, 300)
        assert m.polls == polls
    finally:
        w.shutdown()


def test_immutable_files_are_not_watched(qapp, db_path):
    w = Workers(db_path)
    try:
        m = LiveMonitor(w, interval_ms=50, immutable=True)
        m.start()
        assert m.state == "static"
        assert not m.running
    finally:
        w.shutdown()


def test_the_visible_audit_tab_shows_an_edit_made_by_another_process(qapp, db_path, qtbot):
    from philont_desktop.main_window import MainWindow
    from philont_desktop.theme import Theme

    window = MainWindow(Settings(), Theme("light"), interactive=False, live_interval_ms=100)
    qtbot.addWidget(window)
    window.open_database(db_path)
    assert spin_until(lambda: window.ctx is not None, 10_000)
    tab = window.show_tab("audit")
    assert tab is not None
    tab.ensure_activated()
    assert tab.wait_idle(5000)
    assert tab.model.rowCount() == 0
    assert spin_until(lambda: window.ctx.live.polls > 0, 5000)
    _run_other_process(AUDITED_EDIT, str(db_path))
    assert spin_until(lambda: tab.model.rowCount() == 1, 10_000)
    assert tab.model.entry(0).actor == "other@philont-desktop"
    window.close()
