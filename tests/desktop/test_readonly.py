"""Browsing never changes the file: after opening, visiting every tab, the self-test and closing, the
main database file and its -wal keep their bytes (the -shm index may change: readers update it)."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from core.db import MemoryDB
from core.paths import backups_dir
from philont_desktop.main_window import MainWindow
from philont_desktop.selftest import run_self_test
from philont_desktop.settings import Settings
from philont_desktop.theme import Theme
from philont_desktop.workers import spin_until


def _digest(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None


def _fingerprint(path: Path) -> dict[str, str | None]:
    return {suffix: _digest(Path(str(path) + suffix)) for suffix in ("", "-wal")}


@pytest.fixture
def browsed_copy(demo_db_path, tmp_path):
    target = tmp_path / "memory" / "memory.sqlite"
    target.parent.mkdir(mode=0o700)
    shutil.copy2(demo_db_path, target)
    return target


def _browse_everything(qtbot, path: Path) -> MainWindow:
    window = MainWindow(Settings(), Theme("light"), interactive=False, live_interval_ms=100)
    qtbot.addWidget(window)
    window.show()
    window.open_database(path)
    assert spin_until(lambda: window.ctx is not None, 20_000), window.open_error
    assert window.tab_widget.count() >= 1
    for i in range(window.tab_widget.count()):
        window.tab_widget.setCurrentIndex(i)
        tab = window.tab_widget.widget(i)
        tab.ensure_activated()
        assert tab.wait_idle(30_000), tab.name
        tab.refresh()
        assert tab.wait_idle(30_000), tab.name
    assert run_self_test(window) == 0
    assert spin_until(lambda: window.ctx.report.quick_check == "ok", 30_000)
    window.close()
    return window


def test_browsing_a_database_the_agent_holds_open_changes_neither_file_nor_wal(qtbot, browsed_copy):
    # The "agent": a writer that keeps its WAL (no checkpoint) while the app browses.
    agent = MemoryDB.open(browsed_copy, writable=True, backup_before_write=False)
    agent.conn.execute("PRAGMA wal_autocheckpoint=0")
    with agent.write() as conn:
        conn.execute("INSERT INTO memory_meta (key, value) VALUES ('agent-was-here', '1')")
    wal = Path(str(browsed_copy) + "-wal")
    assert wal.exists() and wal.stat().st_size > 0
    try:
        before = _fingerprint(browsed_copy)
        _browse_everything(qtbot, browsed_copy)
        assert _fingerprint(browsed_copy) == before
        assert not backups_dir(browsed_copy).exists()
    finally:
        agent.close()


def test_browsing_a_closed_database_leaves_it_byte_for_byte(qtbot, browsed_copy):
    before = _digest(browsed_copy)
    _browse_everything(qtbot, browsed_copy)
    assert _digest(browsed_copy) == before
    wal = Path(str(browsed_copy) + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    assert not backups_dir(browsed_copy).exists()
