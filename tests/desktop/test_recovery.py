"""Recovery in the app: a file that cannot be opened offers "Restore this backup" and "Open the backup
read-only"; the Backups tab restores over a damaged file; the damaged files are kept byte for byte, the
result passes ``check`` and the audit trail says what happened; nothing is written into ``backups/`` by
looking."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from core.audit import list_entries
from core.backups import AgentRunningError
from core.cli import main as cli_main
from core.db import MemoryDB
from core.errors import DatabaseOpenError
from philont_desktop import recovery
from philont_desktop.main_window import MainWindow
from philont_desktop.settings import Settings
from philont_desktop.theme import Theme
from philont_desktop.workers import spin_until
from tests.damage import KINDS, damage, files, make_memory, notes

A_NOTES = [f"A {i:03d} " + "x" * 200 for i in range(200)]


@pytest.fixture
def settings(tmp_path, monkeypatch):
    monkeypatch.setenv("PHILONT_DESKTOP_SETTINGS_DIR", str(tmp_path / "settings"))
    return Settings()


@pytest.fixture
def window(qtbot, settings):
    made = []

    def make(*, interactive: bool = False) -> MainWindow:
        w = MainWindow(settings, Theme("light"), interactive=interactive, live_interval_ms=200)
        qtbot.addWidget(w)
        w.show()
        made.append(w)
        return w

    yield make
    for w in made:
        w.close()


@pytest.fixture
def restores(monkeypatch):
    """Each restore the app runs: (the files at the live path just before it, its result)."""
    seen: list = []
    real = recovery._run_restore

    def run(db_path, backup, job):
        before = files(db_path)
        result = real(db_path, backup, job)
        seen.append((before, result))
        return result

    monkeypatch.setattr(recovery, "_run_restore", run)
    return seen


def _listing(d: Path):
    return sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in d.iterdir())


def _kept(damaged: tuple[Path, ...], live: Path) -> dict[str, bytes]:
    return {p.name.split(live.name, 1)[1]: p.read_bytes() for p in damaged}


def _assert_restored(live: Path, result, before: dict[str, bytes]) -> None:
    assert _kept(result.damaged, live) == before
    assert cli_main(["--db", str(live), "check"]) == 0
    with MemoryDB.open(live, writable=True) as db:
        assert db.report.writable
        entry = list_entries(db, limit=1)[0]
    assert entry.action == "database.restore" and entry.before["keptAs"] == [str(p) for p in result.damaged]
    assert notes(live) == A_NOTES


def _fail_open(w: MainWindow, live: Path) -> DatabaseOpenError:
    w.open_database(live)
    assert spin_until(lambda: w.open_error is not None, 10_000)
    assert isinstance(w.open_error, DatabaseOpenError)
    return w.open_error


def test_the_start_page_offers_restore_and_read_only_open(window, tmp_path, restores):
    live = tmp_path / "memory" / "memory.sqlite"
    backup = make_memory(live)
    before = damage(live, "not-sqlite")
    w = window()
    exc = _fail_open(w, live)
    assert exc.backup == backup
    page = w.start_page
    assert w.pages.currentWidget() is page
    assert page.restore_button.isVisibleTo(page) and page.backup_button.isVisibleTo(page)
    assert str(backup) in page.problem.text()
    page.restore_button.click()
    assert spin_until(lambda: w.ctx is not None, 30_000), w.open_error
    assert w.ctx.db_path == live and w.ctx.errors == []
    ((at_restore, result),) = restores
    assert at_restore == before and result.problem == "not-sqlite"
    _assert_restored(live, result, before)
    assert "moved, unchanged, to" in w.statusBar().currentMessage()


def test_the_start_page_opens_the_backup_read_only_without_writing_beside_it(window, tmp_path):
    live = tmp_path / "memory" / "memory.sqlite"
    make_memory(live)
    d = live.parent / "backups"
    # A backup as the agent writes it: a WAL-mode copy.
    agent_copy = d / "memory-29990101T000000.sqlite"
    src = MemoryDB.open(live)
    try:
        from core.engine import sqlite3

        dst = sqlite3.connect(str(agent_copy))
        src.conn.backup(dst)
        dst.close()
    finally:
        src.close()
    for s in ("-wal", "-shm"):
        Path(str(agent_copy) + s).unlink(missing_ok=True)
    damage(live, "empty")
    before = _listing(d)
    w = window()
    exc = _fail_open(w, live)
    assert exc.backup == agent_copy
    assert _listing(d) == before
    w.start_page.backup_button.click()
    browse = next(x for x in recovery._BROWSE_WINDOWS.values())
    assert spin_until(lambda: browse.ctx is not None, 20_000), browse.open_error
    assert browse.ctx.forced_read_only and browse.ctx.db_path != agent_copy
    assert _listing(d) == before
    browse.close()
    assert w.pages.currentWidget() is w.start_page  # the choice is still there


def test_restore_from_the_start_page_asks_first_and_respects_no(window, tmp_path, monkeypatch):
    live = tmp_path / "memory" / "memory.sqlite"
    backup = make_memory(live)
    before = damage(live, "truncated")
    asked = []

    def confirm(parent, db_path, chosen, problem=None):
        asked.append((db_path, chosen, problem))
        return False

    monkeypatch.setattr(recovery, "confirm_restore", confirm)
    w = window(interactive=True)
    _fail_open(w, live)
    assert recovery.restore_over_start_problem(w, str(backup)) is None
    assert asked == [(live, backup, "truncated")]
    assert files(live) == before


def test_a_failed_open_while_another_database_is_shown_offers_the_backup(window, tmp_path, monkeypatch):
    other = tmp_path / "other" / "memory.sqlite"
    make_memory(other)
    live = tmp_path / "memory" / "memory.sqlite"
    backup = make_memory(live)
    damage(live, "corrupt-schema")
    seen = {}

    def choose(w, exc):
        seen.update(files(live))  # what is there when the person chooses (the failed open's look made a -shm)
        return "restore"

    monkeypatch.setattr(recovery, "ask_backup_choice", choose)
    monkeypatch.setattr(recovery, "confirm_restore", lambda *a, **k: True)
    offered = []
    real_offer = recovery.offer_backup

    def offer(w, path, exc):
        job = real_offer(w, path, exc)
        offered.append(job)
        return job

    monkeypatch.setattr(recovery, "offer_backup", offer)
    w = window(interactive=True)
    w.open_database(other)
    assert spin_until(lambda: w.ctx is not None, 10_000)
    w.open_database(live)
    assert spin_until(lambda: bool(offered), 10_000)
    job = offered[0]
    assert job.wait(30_000) and job.state == "finished", job.error
    assert job.result.restored_from == backup and job.result.problem == "corrupt"
    assert spin_until(lambda: w.ctx is not None and w.ctx.db_path == live, 20_000)
    _assert_restored(live, job.result, seen)


def test_the_backups_tab_restores_over_a_damaged_file(window, tmp_path, restores):
    live = tmp_path / "memory" / "memory.sqlite"
    backup = make_memory(live)
    damage(live, "corrupt-page")  # opens read-only: quick_check fails
    w = window()
    w.open_database(live)
    assert spin_until(lambda: w.ctx is not None, 10_000), w.open_error
    tab = w.show_tab("backups")
    tab.ensure_activated()
    assert spin_until(lambda: tab.model.rowCount() == 1 and tab._checking is None, 15_000)
    tab.select_path(backup)
    job = tab.restore_selected(confirm=False)
    assert job.wait(30_000) and job.state == "finished", job.error
    result = job.result
    assert result.problem == "corrupt" and result.safety_backup is None
    assert spin_until(lambda: w.ctx is not None and w.tab_widget.currentWidget().name == "backups", 10_000)
    ((before, _),) = restores  # (the app's own look had left a -wal and -shm: kept with the file)
    assert set(before) == {"", "-wal", "-shm"}
    _assert_restored(live, result, before)
    assert "was moved, unchanged, to" in w.statusBar().currentMessage()
    new_tab = w.show_tab("backups")
    new_tab.ensure_activated()
    assert spin_until(lambda: "damaged file(s) kept" in new_tab.summary.text(), 10_000)


PROBLEM = {
    "not-sqlite": "not-sqlite",
    "empty": "empty",
    "truncated": "truncated",
    "corrupt-page": "corrupt",
    "corrupt-schema": "corrupt",
    "missing": "missing",
    "orphan-wal": "missing",
    "stale-wal": "corrupt",
}


@pytest.mark.parametrize("kind", KINDS)
def test_the_backups_tab_restores_over_each_kind_of_damage(window, tmp_path, restores, kind):
    """The file shown is damaged underneath the app (every kind the open path recognises); the Backups
    tab's restore keeps what was there byte for byte, and the result passes ``check`` and opens."""
    live = tmp_path / "memory" / "memory.sqlite"
    backup = make_memory(live)
    w = window()
    w.open_database(live)
    assert spin_until(lambda: w.ctx is not None, 10_000), w.open_error
    tab = w.show_tab("backups")
    tab.ensure_activated()
    assert spin_until(lambda: tab.model.rowCount() == 1 and tab._checking is None, 15_000)
    assert tab.select_path(backup)
    if kind == "stale-wal":
        # A -wal of another state of the file: made beside a twin (with the app's reader open, the
        # rewrite of the main file would only reach the app's own -wal), then moved in.
        twin = tmp_path / "twin" / "memory.sqlite"
        make_memory(twin)
        damage(twin, kind)
        for s in ("", "-wal", "-shm"):
            os.replace(str(twin) + s, str(live) + s)
    else:
        damage(live, kind)
    for s in ("", "-wal", "-shm"):  # damaged a while ago: not an agent writing now
        if Path(str(live) + s).exists():
            os.utime(str(live) + s, (os.stat(str(live) + s).st_mtime - 3600,) * 2)
    job = tab.restore_selected(confirm=False)
    assert job is not None
    assert job.wait(30_000) and job.state == "finished", job.error
    ((before, result),) = restores
    assert result.problem == PROBLEM[kind] and result.restored_from == backup
    if kind == "missing":
        assert "" not in before
    _assert_restored(live, result, before)
    assert spin_until(lambda: w.ctx is not None and w.ctx.db_path == live, 20_000), w.open_error
    assert w.ctx.errors == []


def test_a_restore_error_is_shown_in_the_interface_language(window, tmp_path):
    live = tmp_path / "memory" / "memory.sqlite"
    backup = make_memory(live)
    damage(live, "not-sqlite")
    os.utime(live)
    Path(str(live) + "-wal").write_bytes(b"\x01" * 64)  # just written: the agent seems to run
    w = window()
    _fail_open(w, live)
    job = recovery.restore_over_start_problem(w, str(backup))
    assert job.wait(20_000) and job.state == "failed"
    assert isinstance(job.error, AgentRunningError)
    text = recovery.error_text(job.error)
    assert text.startswith(f"{live} seems to be in use") and "Nothing was changed." in text
    assert spin_until(lambda: w.pages.currentWidget() is w.start_page, 10_000)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_the_backups_tab_lists_a_fifo_without_opening_it(window, tmp_path):
    live = tmp_path / "memory" / "memory.sqlite"
    make_memory(live)
    fifo = live.parent / "backups" / "memory-29991231T000000.sqlite"
    os.mkfifo(fifo)
    w = window()
    w.open_database(live)
    assert spin_until(lambda: w.ctx is not None, 10_000), w.open_error
    tab = w.show_tab("backups")
    tab.ensure_activated()
    try:
        assert spin_until(lambda: tab.model.rowCount() == 2 and tab._checking is None, 15_000)
    finally:
        os.close(os.open(fifo, os.O_RDWR | os.O_NONBLOCK))  # would release a reader stuck on it
    m = tab.model
    row = m.row_of(str(fifo))
    assert m.index(row, m.COLUMNS.index("check")).data() == "not a regular file (FIFO): never opened"
    tab.select_path(fifo)
    assert not tab.restore_button.isEnabled()


@pytest.mark.parametrize("read_only", [False, True])
def test_the_dialog_of_a_failed_open_offers_both_choices(qtbot, settings, tmp_path, read_only):
    """What a failed open shows while another database is open: "Restore this backup…" (never when the
    app was started read-only) and "Open the backup read-only", with the reason and the backup named."""
    live = tmp_path / "memory" / "memory.sqlite"
    backup = make_memory(live)
    damage(live, "empty")
    with pytest.raises(DatabaseOpenError) as ei:
        MemoryDB.open(live)
    w = MainWindow(settings, Theme("light"), read_only=read_only, interactive=False)
    qtbot.addWidget(w)
    box, restore, browse = recovery.backup_offer(w, ei.value)
    assert restore.text() == "Restore this backup…" and browse.text() == "Open the backup read-only"
    assert restore.isVisibleTo(box) is not read_only and browse.isVisibleTo(box)
    assert str(backup) in box.text()
    start = w.start_page
    assert (start.restore_button.text(), start.backup_button.text()) == (
        "Restore this backup…",
        "Open the backup read-only",
    )
    box.deleteLater()


def test_a_backup_is_browsed_in_a_window_the_given_factory_makes(window, tmp_path):
    live = tmp_path / "memory" / "memory.sqlite"
    backup = make_memory(live)
    w = window()
    made = []

    def factory(*args, **kw):
        made.append(kw)
        return MainWindow(*args, **kw)

    browse = recovery.open_backup_window(w, backup, factory)
    assert made == [{"read_only": True, "interactive": False, "live_interval_ms": 200}]
    assert spin_until(lambda: browse.ctx is not None, 20_000), browse.open_error
    assert browse.ctx.forced_read_only
    assert browse.property(recovery.BROWSING_PROPERTY) == str(backup)
    browse.close()
