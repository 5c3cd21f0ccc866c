"""The Backups tab: listing with quick_check, back up now, restore (refused while the database is in use),
and browsing a backup read-only without writing into backups/."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from core.backups import AgentRunningError
from core.db import MemoryDB
from core.engine import sqlite3
from core.notes import NotesStore
from core.paths import backups_dir
from philont_desktop.main_window import MainWindow
from philont_desktop.qt import QMessageBox
from philont_desktop.selftest import check_tab
from philont_desktop.settings import RECENT_FILES, Settings
from philont_desktop.theme import Theme
from philont_desktop.workers import spin_until
from tests.support import FIXED_NOW as T0


def _notes(path) -> list[str]:
    with MemoryDB.open(path) as db:
        return sorted(n.content for n in NotesStore(db).list(limit=100))


def _add_note(path, text):
    db = MemoryDB.open(path, writable=True, backup_before_write=False)
    try:
        NotesStore(db).upsert(None, text, created_at=T0)
    finally:
        db.close()


def _listing(d: Path):
    return sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in d.iterdir())


@pytest.fixture
def db_path(tmp_path) -> Path:
    path = tmp_path / "memory" / "memory.sqlite"
    MemoryDB.create(path, now=T0).close()
    _add_note(path, "version A")
    d = backups_dir(path)
    d.mkdir(mode=0o700)
    db = MemoryDB.open(path)
    db.backup().rename(d / "philont-desktop-memory-20260615T110000.sqlite")
    db.close()
    # As the agent writes them: a copy of its WAL database (the header says WAL).
    src = sqlite3.connect(str(path))
    dst = sqlite3.connect(str(d / "memory-20260614T120000.sqlite"))
    src.backup(dst)
    src.close()
    dst.close()
    for suffix in ("-wal", "-shm"):
        p = d / ("memory-20260614T120000.sqlite" + suffix)
        if p.exists():
            p.unlink()
    (d / "memory-20260613T120000.sqlite").write_bytes(b"SQLite format 3\x00" + b"\x01" * 3000)
    _add_note(path, "version B")
    return path


@pytest.fixture
def settings(tmp_path, monkeypatch):
    monkeypatch.setenv("PHILONT_DESKTOP_SETTINGS_DIR", str(tmp_path / "settings"))
    return Settings()


@pytest.fixture
def make_window(qtbot, settings):
    made = []

    def make(path) -> MainWindow:
        w = MainWindow(settings, Theme("light"), interactive=False, live_interval_ms=200)
        qtbot.addWidget(w)
        w.show()
        w.open_database(path)
        assert spin_until(lambda: w.ctx is not None, 10_000), w.open_error
        made.append(w)
        return w

    yield make
    for w in made:
        w.close()


def _tab(w):
    tab = w.show_tab("backups")
    assert tab is not None
    tab.ensure_activated()
    assert tab.wait_idle(15_000)
    assert spin_until(lambda: tab.model.rowCount() > 0 and tab._checking is None, 15_000)
    return tab


def test_list_shows_age_size_kind_and_quick_check(make_window, db_path, qtmodeltester):
    before = _listing(backups_dir(db_path))
    w = make_window(db_path)
    tab = _tab(w)
    qtmodeltester.check(tab.model)
    m = tab.model
    names = [i.name for i in m.rows]
    assert names == [
        "philont-desktop-memory-20260615T110000.sqlite",
        "memory-20260614T120000.sqlite",
        "memory-20260613T120000.sqlite",
    ]
    col = {c: m.COLUMNS.index(c) for c in m.COLUMNS}
    assert [m.index(r, col["check"]).data() for r in range(2)] == ["ok", "ok"]
    assert m.index(2, col["check"]).data().startswith("The file is truncated")
    assert [m.index(r, col["journal"]).data() for r in range(2)] == ["self-contained", "agent (WAL)"]
    assert [m.index(r, col["owner"]).data() for r in range(3)] == ["this app", "the agent", "the agent"]
    assert m.index(0, col["age"]).data().endswith("d ago")
    assert (
        "3 backup(s)" in tab.summary.text() and "The quick integrity check fails for 1." in tab.summary.text()
    )
    assert _listing(backups_dir(db_path)) == before  # looking wrote nothing there
    tab.select_path(m.rows[2].path)
    assert not tab.restore_button.isEnabled()  # a damaged backup cannot be restored
    tab.select_path(m.rows[0].path)
    assert tab.restore_button.isEnabled() and tab.compare_button.isEnabled()
    assert check_tab(tab) == []


def test_back_up_now_adds_a_private_file(make_window, db_path):
    w = make_window(db_path)
    tab = _tab(w)
    job = tab.backup_now()
    assert job.wait(10_000) and job.state == "finished", job.error
    path = job.result
    assert spin_until(lambda: any(i.path == path for i in tab.model.rows), 10_000)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert _notes(path) == ["version A", "version B"]


def test_confirmation_names_both_files(make_window, db_path, monkeypatch):
    w = make_window(db_path)
    tab = _tab(w)
    info = tab.model.rows[0]
    tab.select_path(info.path)
    shown = []

    def fake_exec(box):
        shown.append(box.text())
        return 0  # closed without choosing "Restore"

    monkeypatch.setattr(QMessageBox, "exec", fake_exec)
    assert tab.restore_selected() is None
    assert str(db_path) in shown[0] and str(info.path) in shown[0]
    assert str(backups_dir(db_path)) in shown[0]
    assert w.ctx is not None and _notes(db_path) == ["version A", "version B"]


def test_restore_is_refused_while_another_program_has_the_database_open(make_window, db_path):
    w = make_window(db_path)
    tab = _tab(w)
    tab.select_path(tab.model.rows[0].path)
    agent = MemoryDB.open(db_path)
    agent.conn.execute("SELECT count(*) FROM memory_notes").fetchone()
    try:
        job = tab.restore_selected(confirm=False)
        assert job.wait(20_000) and job.state == "failed"
        assert isinstance(job.error, AgentRunningError)
        assert spin_until(lambda: w.ctx is not None, 10_000)  # opened again
    finally:
        agent.close()
    assert _notes(db_path) == ["version A", "version B"]
    assert len(list(backups_dir(db_path).iterdir())) == 3  # no safety backup either


def test_restore_replaces_the_content_and_backs_up_the_current_file(make_window, db_path):
    w = make_window(db_path)
    tab = _tab(w)
    chosen = tab.model.rows[0].path
    tab.select_path(chosen)
    job = tab.restore_selected(confirm=False)
    assert job.wait(20_000) and job.state == "finished", job.error
    result = job.result
    assert result.restored_from == chosen and result.db_path == db_path
    assert spin_until(lambda: w.ctx is not None and w.tab_widget.currentWidget().name == "backups", 10_000)
    assert _notes(db_path) == ["version A"]
    assert _notes(result.safety_backup) == ["version A", "version B"]
    assert "was backed up to" in w.statusBar().currentMessage()
    new_tab = _tab(w)
    assert any(i.path == result.safety_backup for i in new_tab.model.rows)


def test_open_an_agent_backup_read_only_without_touching_backups(make_window, db_path, settings):
    w = make_window(db_path)
    tab = _tab(w)
    d = backups_dir(db_path)
    before = _listing(d)
    recent = settings.get(RECENT_FILES)
    wal_backup = next(i.path for i in tab.model.rows if i.journal == "wal")
    tab.select_path(wal_backup)
    bw = tab.open_selected()
    assert spin_until(lambda: bw.ctx is not None, 20_000), bw.open_error
    assert bw.ctx.forced_read_only and not bw.ctx.can_edit
    assert bw.ctx.db_path != wal_backup and bw.ctx.db_path.name == wal_backup.name  # a private copy
    copy_dir = bw.ctx.db_path.parent
    assert "This is the backup" in bw.notice.text()
    assert not bw.action_backup.isVisible()
    inner = bw.show_tab("backups")
    inner.ensure_activated()
    assert inner.wait_idle(10_000)
    assert inner.browsing == str(wal_backup) and inner.model.rowCount() == 0
    assert inner.backup_now() is None
    notes = bw.show_tab("notes")
    if notes is not None:
        notes.ensure_activated()
        notes.wait_idle(10_000)
    assert _listing(d) == before
    assert settings.get(RECENT_FILES) == recent
    bw.close()
    assert spin_until(lambda: not copy_dir.exists(), 10_000)
    assert _listing(d) == before


def test_open_one_of_our_backups_in_place(make_window, db_path):
    w = make_window(db_path)
    tab = _tab(w)
    d = backups_dir(db_path)
    before = _listing(d)
    ours = next(
        i.path for i in tab.model.rows if i.journal == "rollback" and i.name.endswith("110000.sqlite")
    )
    tab.select_path(ours)
    bw = tab.open_selected()
    assert spin_until(lambda: bw.ctx is not None, 20_000), bw.open_error
    assert bw.ctx.db_path == ours
    assert spin_until(lambda: bw.ctx.report.quick_check == "ok", 10_000)
    bw.close()
    assert _listing(d) == before
