"""A full browsing session in read-only mode leaves the database and its -wal byte for byte.

The "agent" keeps the file open with committed pages still in its -wal (no checkpoint), as a running
agent does. The app then visits every tab, searches, scrolls every list to both ends (lazy pages are
fetched), runs each tab's self-test, lets live refresh poll for a few seconds, tries to turn editing
on where that must be refused, and closes. Decision 2: the main file and the -wal keep their bytes
(the -shm index is updated by readers too, which is expected); no backup is taken, no audit table is
created.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.audit import AUDIT_TABLE
from core.db import MemoryDB
from core.paths import backups_dir
from philont_desktop.main_window import MainWindow
from philont_desktop.qt import QAbstractItemView
from philont_desktop.selftest import check_tab
from philont_desktop.settings import Settings
from philont_desktop.theme import Theme
from philont_desktop.workers import spin_until
from tests.reliability.helpers import fingerprint, settle

IDLE_MS = 20_000
POLL_MS = 1500
TERMS = {
    "timeline": ("deploy", "数据库", "role:user", 'say "hi" (now)*'),
    "notes": ("deploy", "记住", "NEAR(x y)", "-"),
}


def _scroll_everything(qtbot, tab) -> int:
    """Scroll each list of ``tab`` to the end and back, fetching lazy pages; returns the views seen."""
    views = [v for v in tab.findChildren(QAbstractItemView) if v.model() is not None]
    for view in views:
        model = view.model()
        for _ in range(3):
            view.scrollToBottom()
            root = view.rootIndex()
            if model.canFetchMore(root):
                model.fetchMore(root)
            assert settle(tab, IDLE_MS)
        view.scrollToTop()
        bar = view.verticalScrollBar()
        bar.setValue(bar.minimum())
        qtbot.wait(20)
        assert settle(tab, IDLE_MS)
    return len(views)


def _browse(qtbot, window: MainWindow) -> None:
    ctx = window.ctx
    seen_views = 0
    for name in list(window.tabs_by_name):
        tab = window.show_tab(name)
        tab.ensure_activated()
        assert settle(tab, IDLE_MS), f"{name} did not finish loading"
        if name == "timeline":
            for term in TERMS["timeline"]:
                tab.search(term)
                assert settle(tab, IDLE_MS)
            tab.search("")
            assert settle(tab, IDLE_MS)
            for _ in range(3):
                tab.messages.fetch_older()
                assert settle(tab, IDLE_MS)
        elif name == "notes":
            for term in TERMS["notes"]:
                tab.search_edit.setText(term)
                tab.reload()
                assert settle(tab, IDLE_MS)
            tab.search_edit.setText("")
            tab.reload()
            assert settle(tab, IDLE_MS)
        seen_views += _scroll_everything(qtbot, tab)
        problems = check_tab(tab)
        assert problems == [], f"{name}: {problems}"
        assert settle(tab, IDLE_MS)
        tab.refresh()
        assert settle(tab, IDLE_MS)
    assert seen_views >= len(window.tabs_by_name)
    # Live refresh keeps polling while the session is open.
    window.show_tab("timeline")
    polls = ctx.live.polls
    qtbot.wait(POLL_MS)
    assert ctx.live.polls >= polls + 3, "live refresh did not poll"
    assert ctx.errors == []


@pytest.mark.parametrize("read_only_flag", [True, False], ids=["read-only-flag", "editing-off"])
def test_a_browsing_session_leaves_database_and_wal_byte_identical(qtbot, live_copy, read_only_flag):
    agent = MemoryDB.open(live_copy, writable=True, backup_before_write=False)
    try:
        agent.conn.execute("PRAGMA wal_autocheckpoint=0")
        with agent.write() as conn:
            conn.execute("INSERT INTO memory_meta (key, value) VALUES ('agent-was-here', '1')")
            conn.execute(f"DROP TABLE IF EXISTS {AUDIT_TABLE}")  # the agent's file has no trail
        wal = Path(str(live_copy) + "-wal")
        assert wal.exists() and wal.stat().st_size > 0
        before = fingerprint(live_copy)

        window = MainWindow(
            Settings(), Theme("light"), read_only=read_only_flag, interactive=False, live_interval_ms=100
        )
        qtbot.addWidget(window)
        window.show()
        window.open_database(live_copy)
        assert spin_until(lambda: window.ctx is not None, IDLE_MS), window.open_error
        ctx = window.ctx
        assert not ctx.editing
        _browse(qtbot, window)
        if read_only_flag:
            # Asking for editing under --read-only is refused without touching the file.
            window.set_editing(True)
            qtbot.wait(200)
            assert not ctx.editing and ctx.errors and "--read-only" in ctx.errors[-1]
        assert fingerprint(live_copy) == before  # also while the app is still open
        window.close()
        assert fingerprint(live_copy) == before
        assert not backups_dir(live_copy).exists()
        row = agent.conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (AUDIT_TABLE,)).fetchone()
        assert row is None
    finally:
        agent.close()
