"""The application shell: opening, start page, status bar, editing mode, undo across tabs, backups,
the command line (--version, --self-test, --screenshot), the error dialog and the tab registry."""

from __future__ import annotations

import gc
import re
import weakref
from pathlib import Path

import pytest

from core import curation
from core.db import MemoryDB
from core.errors import ConflictError
from core.paths import backups_dir
from core.schema import AUDIT_TABLE
from philont_desktop import app as app_mod
from philont_desktop import tabs
from philont_desktop.main_window import MainWindow
from philont_desktop.qt import QApplication, QPalette
from philont_desktop.settings import Settings
from philont_desktop.tabs.base import BaseTab
from philont_desktop.theme import Theme
from philont_desktop.widgets.error_dialog import ErrorDialog, readable_message
from philont_desktop.workers import spin_until
from tests.support import FIXED_NOW


@pytest.fixture
def db_path(tmp_path):
    path = tmp_path / "memory" / "memory.sqlite"
    MemoryDB.create(path, now=FIXED_NOW).close()
    return path


@pytest.fixture
def settings(tmp_path, monkeypatch):
    monkeypatch.setenv("PHILONT_DESKTOP_SETTINGS_DIR", str(tmp_path / "settings"))
    return Settings()


@pytest.fixture
def make_window(qtbot, settings):
    def make(path=None, **kwargs) -> MainWindow:
        kwargs.setdefault("interactive", False)
        window = MainWindow(settings, Theme("light"), live_interval_ms=200, **kwargs)
        qtbot.addWidget(window)
        window.show()
        if path is not None:
            window.open_database(path)
            assert spin_until(lambda: window.ctx is not None, 10_000), window.open_error
        return window

    return make


def _meta(path, key):
    db = MemoryDB.open(path)
    try:
        row = db.conn.execute("SELECT value FROM memory_meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None
    finally:
        db.close()


# -- opening and the status bar ------------------------------------------------------------------------


def test_open_shows_path_schema_mode_live_and_counts(make_window, db_path):
    w = make_window(db_path)
    assert w.pages.currentWidget() is w.db_page
    assert w.path_label.text() == str(db_path)
    assert w.schema_label.text() == "schema 31"
    assert w.mode_label.text() == "read-only"
    assert w.windowTitle() == "memory.sqlite [read-only] — philont-desktop"
    assert spin_until(lambda: w.counts_loaded, 5000)
    assert "messages ~0" in w.counts_label.text()
    assert spin_until(lambda: "live" in w.live_label.text(), 5000)
    assert spin_until(lambda: w.integrity_label.text() == "integrity ok", 10_000)
    assert not w.banner.isVisible()
    assert w.ctx.report.quick_check == "ok"


def test_the_window_asks_the_session_for_what_the_session_owns(make_window, settings):
    w = make_window(read_only=True)
    owned = ("settings", "theme", "read_only", "interactive", "live_interval_ms")
    assert [getattr(w, n) for n in owned] == [getattr(w.session, n) for n in owned]
    assert w.settings is settings and w.read_only and not w.interactive and w.live_interval_ms == 200
    assert not set(owned) & set(vars(w))  # no copies kept beside the session's
    w.interactive = True  # one owner: changing it through the window changes the session's
    assert w.session.interactive
    w.session.read_only = False
    assert not w.read_only


def test_tabs_come_from_the_registry_in_order(make_window, db_path):
    w = make_window(db_path)
    names = [w.tab_widget.widget(i).name for i in range(w.tab_widget.count())]
    order = tabs.tab_names()
    assert names == sorted(names, key=order.index)
    assert names[-1] == "health"
    assert w.tab_errors == []


def test_only_the_shown_tab_is_built_when_a_database_opens(make_window, db_path):
    w = make_window(db_path)
    order = tabs.tab_names()
    assert [w.tab_widget.tabText(i) for i in range(w.tab_widget.count())] == [
        tabs.tab_titles()[n] for n in order
    ]
    assert [t.name for t in w.built_tabs()] == ["timeline"]
    assert list(w.tabs_by_name) == order and "facts" in w.tabs_by_name and "nope" not in w.tabs_by_name
    assert [t.name for t in w.built_tabs()] == ["timeline"]

    facts = w.tabs_by_name["facts"]  # looking a tab up builds it in its place, without selecting it
    assert isinstance(facts, BaseTab) and facts.name == "facts" and not facts.activated
    assert w.tab_widget.widget(order.index("facts")) is facts
    assert w.tab_widget.currentIndex() == 0 and w.tab_widget.tabText(order.index("facts")) == "Facts"
    assert w.tab(order[1]) is w.tab_at(1) and w.tab("nope") is None

    w.tab_widget.setCurrentIndex(order.index("notes"))  # selecting a tab builds and activates it
    notes = w.tab_widget.currentWidget()
    assert isinstance(notes, BaseTab) and notes.name == "notes" and notes.activated
    assert w.show_tab("skills") is w.tab_widget.currentWidget() is w.tabs_by_name["skills"]
    assert [t.name for t in w.built_tabs()] == ["timeline", "facts", "actions", "notes", "skills"]
    assert w.tab_errors == []


def test_while_a_file_opens_the_once_per_process_work_runs_each_piece_in_a_later_turn(
    make_window, db_path, monkeypatch, qtbot
):
    from philont_desktop.shell import warm

    done: list[str] = []
    monkeypatch.setattr(warm, "find_widget_classes", lambda: done.append("classes"))
    monkeypatch.setattr(warm, "load_glyphs", lambda: done.append("glyphs"))
    w = make_window()
    w.open_database(db_path)
    assert done == []  # not in the turn that starts the open
    qtbot.waitUntil(lambda: done == ["classes", "glyphs"], timeout=5000)
    assert spin_until(lambda: w.ctx is not None, 10_000)


def test_the_glyphs_warmed_are_chinese_and_the_symbols_cards_draw(qapp):
    from philont_desktop.fonts import WARM_TEXT, warm_glyphs

    assert {"数", "✓", "✗", "●", "…"} <= set(WARM_TEXT)
    warm_glyphs()  # draws offscreen, in the three fonts, without a window


def test_the_other_tabs_are_built_once_the_shown_one_is_idle(make_window, db_path):
    w = make_window()
    w.prebuild_tabs = True
    w.open_database(db_path)
    assert spin_until(lambda: len(w.built_tabs()) == len(tabs.tab_names()), 20_000)
    assert [w.tab_widget.widget(i) for i in range(w.tab_widget.count())] == w.built_tabs()
    assert w.tab_widget.currentIndex() == 0
    assert [t.name for t in w.built_tabs() if t.activated] == ["timeline"]


def test_after_a_close_the_collector_settles_again_once_the_next_database_is_built(
    make_window, db_path, tmp_path, monkeypatch, qtbot
):
    import gc
    import shutil

    from philont_desktop import interpreter

    monkeypatch.setattr(interpreter, "_tuned", True)  # as the application sets it
    monkeypatch.setattr(interpreter, "_settling", True)
    other = tmp_path / "other" / "memory.sqlite"
    other.parent.mkdir()
    shutil.copy(db_path, other)
    try:
        w = make_window(db_path)
        w.prebuild_tabs = True
        w.close_database()
        assert not interpreter._settling and gc.get_freeze_count() == 0  # the closed file's objects
        w.open_database(other)
        qtbot.waitUntil(lambda: len(w.built_tabs()) == len(tabs.tab_names()), timeout=20_000)
        qtbot.waitUntil(lambda: interpreter._settling, timeout=5000)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_the_background_imports_are_the_plots_and_each_tab_with_what_it_imports_later(
    make_window, db_path, monkeypatch
):
    from philont_desktop import preload

    asked = []
    start = preload.start
    monkeypatch.setattr(
        preload, "start", lambda modules, **kw: (asked.append(list(modules)), start(modules, **kw))
    )
    w = make_window()
    w.prebuild_tabs = True
    w.open_database(db_path)
    assert spin_until(lambda: len(w.built_tabs()) == len(tabs.tab_names()), 20_000)
    reg = tabs.registry()
    expected = [preload.PLOTS, *reg.get("timeline").preload]  # the shown tab's first
    for entry in reg:
        if entry.name != "timeline":
            expected += [entry.module, *entry.preload]
    assert asked[0] == expected and "philont_desktop.timeline.widgets.chart" in expected


def test_a_tab_declares_modules_by_name(qapp):
    reg = tabs.TabRegistry()
    with pytest.raises(tabs.TabRegistrationError):
        reg.register("x", "philont_desktop.notes.view:NotesTab", "X", preload=("not a module",))
    entry = reg.register("x", "philont_desktop.notes.view:NotesTab", "X", preload=("a.b",))
    assert entry.preload == ("a.b",)


def test_the_quick_check_waits_for_the_other_tabs_to_be_built(make_window, db_path):
    w = make_window()
    w.prebuild_tabs = True
    w.open_database(db_path)
    seen = []  # (every tab built, quick_check done) at each turn of the event loop

    def probe():
        if w.ctx is not None:
            seen.append((len(w.built_tabs()) == len(tabs.tab_names()), w.ctx.report.quick_check is not None))
        return bool(seen) and seen[-1][1]

    assert spin_until(probe, 30_000)
    assert w.ctx.report.quick_check == "ok"
    assert not [s for s in seen if s[1] and not s[0]]  # never checked before every tab was built
    assert w.integrity_label.text() == "integrity ok"


def test_without_the_background_build_the_quick_check_starts_at_once(make_window, db_path):
    w = make_window(db_path)  # prebuild off (as in batch runs)
    assert spin_until(lambda: w.ctx.report.quick_check == "ok", 10_000)
    assert [t.name for t in w.built_tabs()] == ["timeline"]


def test_tab_titles_come_from_their_registration_in_every_language(qapp, make_window, db_path):
    from philont_desktop import fonts, i18n

    w = make_window(db_path)
    font = qapp.font()
    try:
        for code, audit in (("en", "Audit"), ("zh_CN", "审计")):
            i18n.install(code)
            titles = tabs.tab_titles()
            assert titles["audit"] == audit
            assert [w.tab_widget.tabText(i) for i in range(w.tab_widget.count())] == list(titles.values())
            assert w.tabs_by_name["audit"].title() == audit
    finally:
        i18n.uninstall()
        qapp.setFont(font)
        fonts._fonts_applied = False


def test_missing_database_shows_the_start_page(make_window, tmp_path):
    w = make_window()
    missing = tmp_path / "nothing" / "memory.sqlite"
    job = w.open_database(missing)
    assert job.wait(5000)
    assert w.pages.currentWidget() is w.start_page
    assert str(missing) in w.start_page.problem.text()
    assert w.ctx is None
    assert not w.action_backup.isEnabled()


def test_a_file_that_is_not_a_database_is_explained(make_window, tmp_path):
    bad = tmp_path / "bad.sqlite"
    bad.write_text("hello")
    w = make_window()
    w.open_database(bad).wait(5000)
    assert w.pages.currentWidget() is w.start_page
    assert "not an SQLite database" in w.start_page.problem.text()


def test_create_empty_database_then_open_it(make_window, tmp_path):
    w = make_window()
    target = tmp_path / "new" / "memory.sqlite"
    w.create_empty(target)
    assert spin_until(lambda: w.ctx is not None, 10_000)
    assert target.exists()
    assert w.ctx.db_path == target
    assert w.ctx.report.schema_version == 31


def test_create_demo_database_then_open_it(make_window, tmp_path):
    w = make_window()
    target = tmp_path / "demo" / "memory.sqlite"
    job = w.create_demo(target, messages=300)
    assert job is not None
    assert spin_until(lambda: w.ctx is not None, 60_000), w.ctx
    assert job.last_progress is not None and job.last_progress[0] == job.last_progress[1]
    assert w.ctx.db_path == target
    assert spin_until(lambda: w.counts_loaded, 5000)
    assert "messages ~300" in w.counts_label.text()


def test_a_demo_database_is_marked_in_the_title_the_status_bar_and_a_badge(make_window, tmp_path, db_path):
    from core import demo

    target = tmp_path / "cli-demo.sqlite"
    demo.generate(target, messages=200, now=FIXED_NOW)  # as `philont-memory demo --out` writes it
    w = make_window(target)
    assert w.is_demo
    assert w.windowTitle() == "cli-demo.sqlite (demo) [read-only] — philont-desktop"
    assert w.demo_badge.isVisible() and w.demo_badge.text() == "Demo"
    assert w.demo_status.isVisible() and "made up" in w.demo_status.toolTip()
    w.open_database(db_path)
    assert spin_until(lambda: w.ctx is not None and w.ctx.db_path == db_path, 10_000)
    assert not w.is_demo and "(demo)" not in w.windowTitle()
    assert not w.demo_badge.isVisible() and not w.demo_status.isVisible()


def test_create_demo_saves_where_the_start_page_says(make_window, tmp_path, monkeypatch):
    import philont_desktop.shell.start_page as sp

    default = tmp_path / "data" / "demo" / "memory.sqlite"
    monkeypatch.setattr(sp, "demo_default_path", lambda: default)
    default.parent.mkdir(parents=True)
    default.write_bytes(b"an earlier demo")  # never written over: the next free name is proposed
    w = make_window()
    w.show_start_page()
    proposed = sp.free_demo_path()
    assert proposed == default.with_name("memory-2.sqlite")
    assert str(proposed) in w.start_page.demo_hint.text()
    assert w.create_demo(proposed, messages=200) is not None
    assert spin_until(lambda: w.ctx is not None, 60_000)
    assert w.ctx.db_path == proposed and w.is_demo
    assert str(proposed) in w.statusBar().currentMessage()
    assert default.read_bytes() == b"an earlier demo"


def test_create_demo_refuses_an_existing_file(make_window, db_path):
    w = make_window()
    assert w.create_demo(db_path) is None
    assert w.ctx is None


def test_recent_files_and_last_database_are_remembered(make_window, db_path, settings):
    w = make_window(interactive=True)
    w.open_database(db_path)
    assert spin_until(lambda: w.ctx is not None, 10_000)
    assert settings.recent_files[0] == str(db_path)
    assert settings.last_database == str(db_path)
    w.recent_menu.aboutToShow.emit()
    assert w.recent_menu.actions()[0].text() == str(db_path)


# -- editing mode --------------------------------------------------------------------------------------


def test_editing_mode_takes_a_backup_first_and_says_where(make_window, db_path):
    w = make_window(db_path)
    assert w.action_editing.isEnabled()
    w.action_editing.trigger()
    assert spin_until(lambda: w.ctx.editing, 10_000)
    backup = w.ctx.last_backup
    assert backup is not None and backup.parent == backups_dir(db_path) and backup.exists()
    assert w.banner.isVisible() and w.banner.kind == "editing"
    assert str(backup) in w.banner.text()
    assert "EDITING" in w.mode_label.text()
    assert w.windowTitle() == "memory.sqlite [EDITING] — philont-desktop"
    assert w.action_editing.isChecked()
    assert w.ctx.workers.writer_open
    w.action_editing.trigger()
    assert spin_until(lambda: not w.ctx.workers.writer_open, 5000)
    assert not w.ctx.editing
    assert not w.banner.isVisible()
    assert w.windowTitle() == "memory.sqlite [read-only] — philont-desktop"


def test_a_newer_schema_is_read_only_with_a_banner_and_editing_is_refused(make_window, db_path):
    db = MemoryDB.open(db_path, writable=True, backup_before_write=False)
    with db.write() as conn:
        conn.execute("UPDATE memory_meta SET value = '99' WHERE key = 'schema_version'")
    db.close()
    w = make_window(db_path)
    assert w.banner.isVisible() and w.banner.kind == "readonly"
    assert "schema version 99, newer than 50" in w.banner.text()
    assert w.schema_label.text() == "schema 99 (newer)"
    assert not w.action_editing.isEnabled()
    w.ctx.set_editing(True)
    assert not w.ctx.editing
    assert w.ctx.errors[-1].startswith(
        "Editing is not possible: This database cannot be edited: the database"
    )
    assert not backups_dir(db_path).exists()


def test_read_only_flag_refuses_editing(make_window, db_path):
    w = make_window(db_path, read_only=True)
    assert not w.action_editing.isEnabled()
    assert not w.action_open_edit.isEnabled()
    w.ctx.set_editing(True)
    assert not w.ctx.editing
    assert w.ctx.errors[-1] == (
        "Editing is not possible: This database cannot be edited: the app was started with --read-only."
    )


def test_writes_are_refused_outside_editing_mode(make_window, db_path):
    w = make_window(db_path)
    errors = []
    w.ctx.write(lambda db: 1, on_error=errors.append).wait(5000)
    assert str(errors[0]) == "Editing mode is off: turn it on to change the database."


# -- undo and redo across tabs ---------------------------------------------------------------------------


def _meta_state(conn, key):
    row = conn.execute("SELECT key, value FROM memory_meta WHERE key = ?", (key,)).fetchone()
    return dict(row) if row else None


def _put(conn, key, value):
    before = _meta_state(conn, key)
    if value is None:
        conn.execute("DELETE FROM memory_meta WHERE key = ?", (key,))
    else:
        conn.execute("INSERT OR REPLACE INTO memory_meta (key, value) VALUES (?, ?)", (key, value))
    return before, _meta_state(conn, key)


def _undo_put(conn, entry):
    if _meta_state(conn, entry.target_id) != entry.after:
        raise ConflictError("The value changed since this edit; it was left alone.")
    return _put(conn, entry.target_id, (entry.before or {}).get("value"))


def _redo_put(conn, entry):
    if _meta_state(conn, entry.target_id) != entry.before:
        raise ConflictError("The value changed since the undo; it was left alone.")
    return _put(conn, entry.target_id, (entry.after or {}).get("value"))


def _set(key, value):
    return curation.Change("shelltest.put", "meta", key, lambda conn: _put(conn, key, value))


@pytest.fixture
def toy_meta_action():
    curation.register("shelltest.put", _undo_put, _redo_put)
    yield "shelltest.put"
    curation.unregister("shelltest.put")


def _editing_window(make_window, db_path):
    w = make_window(db_path)
    w.set_editing(True)
    assert spin_until(lambda: w.ctx.editing, 10_000)
    return w


def test_undo_and_redo_through_the_shared_stack(make_window, db_path, toy_meta_action):
    w = _editing_window(make_window, db_path)
    ctx = w.ctx
    edits = []
    job = ctx.curate(_set("colour", "blue"), text="Set colour", on_result=lambda c: edits.append(c.entry))
    assert job.wait(5000) and job.state == "finished", job.error
    assert _meta(db_path, "colour") == "blue"
    assert ctx.undo_stack.count() == 1
    assert w.action_undo.isEnabled() and w.action_undo.text() == "&Undo Set colour"
    assert not w.action_redo.isEnabled()

    w.action_undo.trigger()
    assert ctx.undo.busy
    assert spin_until(lambda: not ctx.undo.busy, 5000)
    assert _meta(db_path, "colour") is None
    assert w.action_redo.isEnabled() and w.action_redo.text() == "&Redo Set colour"
    assert w.statusBar().currentMessage() == "Undone: Set colour"

    w.action_redo.trigger()
    assert spin_until(lambda: not ctx.undo.busy, 5000)
    assert _meta(db_path, "colour") == "blue"
    assert w.statusBar().currentMessage() == "Redone: Set colour"

    db = MemoryDB.open(db_path)
    try:
        rows = db.conn.execute(f"SELECT action, undone_of, actor FROM {AUDIT_TABLE} ORDER BY id").fetchall()
    finally:
        db.close()
    assert [tuple(r) for r in rows] == [
        ("shelltest.put", None, ctx.actor),
        ("undo", edits[0].id, ctx.actor),
        ("redo", edits[0].id, ctx.actor),
    ]
    assert ctx.errors == []


def test_a_failed_undo_is_reported_and_dropped_from_the_stack(make_window, db_path, toy_meta_action):
    w = _editing_window(make_window, db_path)
    ctx = w.ctx
    assert ctx.curate(_set("colour", "blue"), text="Set colour").wait(5000)
    other = MemoryDB.open(db_path, writable=True, backup_before_write=False)
    with other.write() as conn:
        conn.execute("UPDATE memory_meta SET value = 'green' WHERE key = 'colour'")
    other.close()
    ctx.undo.undo()
    assert spin_until(lambda: not ctx.undo.busy, 5000)
    assert ctx.errors == ["Undo failed: The value changed since this edit; it was left alone."]
    assert ctx.undo_stack.count() == 0
    assert not w.action_undo.isEnabled() and not w.action_redo.isEnabled()
    assert _meta(db_path, "colour") == "green"


def test_undo_and_redo_outlive_editing_mode_and_need_it_on_again(make_window, db_path, toy_meta_action):
    w = _editing_window(make_window, db_path)
    ctx = w.ctx
    assert ctx.curate(_set("c", "x"), text="Set colour").wait(5000)
    w.action_editing.trigger()  # off, through the menu
    assert spin_until(lambda: not ctx.workers.writer_open and not ctx.editing_busy, 5000)
    assert ctx.undo_stack.count() == 1
    assert w.action_undo.isEnabled() and w.action_undo.text() == "&Undo Set colour"
    assert "turned on first" in w.action_undo.toolTip()

    w.action_undo.trigger()  # not interactive: the status bar says what is needed; nothing changes
    assert w.statusBar().currentMessage() == (
        "Undo needs editing mode: turn it on (Edit › Editing mode) to undo “Set colour”."
    )
    assert not ctx.undo.busy and ctx.undo_stack.index() == 1 and _meta(db_path, "c") == "x"
    assert ctx.errors == []

    w.action_editing.trigger()  # on again: the same history is undone
    assert spin_until(lambda: ctx.editing, 10_000)
    w.action_undo.trigger()
    assert spin_until(lambda: not ctx.undo.busy and ctx.undo_stack.index() == 0, 5000)
    assert _meta(db_path, "c") is None
    assert w.statusBar().currentMessage() == "Undone: Set colour"

    w.action_editing.trigger()
    assert spin_until(lambda: not ctx.workers.writer_open and not ctx.editing_busy, 5000)
    assert w.action_redo.isEnabled() and w.action_redo.text() == "&Redo Set colour"
    w.action_redo.trigger()
    assert w.statusBar().currentMessage() == (
        "Redo needs editing mode: turn it on (Edit › Editing mode) to redo “Set colour”."
    )
    assert _meta(db_path, "c") is None and ctx.undo_stack.index() == 0


def test_undo_with_editing_off_offers_to_turn_it_on(make_window, db_path, toy_meta_action, monkeypatch):
    from philont_desktop.qt import QMessageBox

    w = _editing_window(make_window, db_path)
    ctx = w.ctx
    assert ctx.curate(_set("c", "x"), text="Set colour").wait(5000)
    w.set_editing(False)
    assert spin_until(lambda: not ctx.workers.writer_open and not ctx.editing_busy, 5000)
    w.interactive = True
    asked = []

    def _question(parent, title, text, *args):
        asked.append(text)
        return QMessageBox.StandardButton.No if len(asked) == 1 else QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", _question)
    w.action_undo.trigger()  # declined: nothing changes, the status bar says how
    assert asked == [
        "Undoing “Set colour” changes the database. Turn editing mode on (a backup is taken first) and undo it?"
    ]
    assert not ctx.editing and _meta(db_path, "c") == "x"
    assert "turn it on" in w.statusBar().currentMessage()
    w.action_undo.trigger()  # accepted: editing turns on (a backup first), then the undo runs
    assert spin_until(lambda: ctx.editing and not ctx.undo.busy and ctx.undo_stack.index() == 0, 10_000)
    assert _meta(db_path, "c") is None
    assert w.statusBar().currentMessage() == "Undone: Set colour"
    assert w.action_editing.isChecked()


def test_a_read_only_database_keeps_undo_disabled(make_window, db_path, toy_meta_action):
    w = _editing_window(make_window, db_path)
    assert w.ctx.curate(_set("c", "x"), text="Set colour").wait(5000)
    w.set_editing(False)
    assert spin_until(lambda: not w.ctx.workers.writer_open and not w.ctx.editing_busy, 5000)
    w.ctx.forced_read_only = True
    w.menus.update_undo()
    assert not w.action_undo.isEnabled()


# -- backups, theme, about ---------------------------------------------------------------------------------


def test_backup_now_writes_a_file_and_says_where(make_window, db_path):
    w = make_window(db_path)
    job = w.backup_now()
    assert job.wait(10_000) and job.state == "finished"
    assert job.result.parent == backups_dir(db_path) and job.result.exists()
    assert w.statusBar().currentMessage() == f"Backup written to {job.result}"


def test_theme_switch_changes_the_palette(make_window, db_path, settings):
    w = make_window(db_path)
    w.set_theme("dark")
    assert w.theme.is_dark
    assert QApplication.palette().color(QPalette.ColorRole.Window).lightness() < 80
    assert w.theme_actions["dark"].isChecked()
    w.set_theme("light")
    assert QApplication.palette().color(QPalette.ColorRole.Window).lightness() > 200


def test_about_names_the_versions(make_window, db_path):
    from core.engine import SQLITE_VERSION
    from philont_desktop.qt import QT_VERSION

    w = make_window(db_path)
    text = w.about_text()
    assert f"Qt</td><td>{QT_VERSION}" in text
    assert f"SQLite</td><td>{SQLITE_VERSION}" in text
    assert "Schema of this database</td><td>31" in text


# -- error dialog ------------------------------------------------------------------------------------------


def test_error_dialog_is_readable_and_copies_details(qapp):
    try:
        1 / 0  # noqa: B018
    except ZeroDivisionError as exc:
        error = exc
    dlg = ErrorDialog("Loading failed", error)
    assert dlg.message_label.text() == "Something went wrong: division by zero"
    assert "Traceback" not in dlg.message_label.text()
    assert "Traceback (most recent call last)" in dlg.details
    assert "ZeroDivisionError: division by zero" in dlg.details
    assert not dlg.details_view.isVisible()
    dlg.copy_details()
    assert (
        QApplication.clipboard()
        .text()
        .startswith("Something went wrong: division by zero\n\nphilont-desktop ")
    )
    dlg.deleteLater()


def test_core_errors_are_shown_as_they_are():
    assert readable_message(ConflictError("The note changed since you opened it.")) == (
        "The note changed since you opened it."
    )
    assert readable_message(FileNotFoundError(2, "No such file or directory", "/x")) == (
        "The operating system reported: No such file or directory (/x)."
    )


# -- registry and BaseTab ---------------------------------------------------------------------------------


def test_a_bad_tab_declaration_raises():
    reg = tabs.TabRegistry()
    reg.register("audit", "philont_desktop.audit.view:AuditTab", "Audit")
    for name, path, title in (
        ("audit", "philont_desktop.audit.view:AuditTab", "Audit"),  # twice
        ("not a name", "philont_desktop.audit.view:AuditTab", "Audit"),
        ("x", "philont_desktop.audit.view", "X"),  # no class
        ("x", "philont_desktop.audit.view:Audit Tab", "X"),
        ("x", "philont_desktop.audit.view:AuditTab", " "),  # no title
    ):
        with pytest.raises(tabs.TabRegistrationError):
            reg.register(name, path, title)
    reg.register("home1", "philont_desktop.audit.view:AuditTab", "H", home=True)
    with pytest.raises(tabs.TabRegistrationError, match="home"):
        reg.register("home2", "philont_desktop.audit.view:AuditTab", "H", home=True)
    assert reg.names() == ["audit", "home1"] and reg.home().name == "home1"


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("philont_desktop.nonexistent.view:NopeTab", "cannot be imported: ModuleNotFoundError"),
        ("philont_desktop.audit.view:NoSuchClassTab", "has no class NoSuchClassTab"),
        ("philont_desktop.qt:QWidget", "is not a BaseTab"),
        ("philont_desktop.notes.view:NotesTab", "is named 'notes', registered as 'audit'"),
    ],
)
def test_a_tab_that_does_not_match_its_declaration_raises_when_loaded(path, message):
    reg = tabs.TabRegistry()
    entry = reg.register("audit", path, "Audit")
    with pytest.raises(tabs.TabRegistrationError, match=message):
        reg.load_class(entry)


def test_a_tab_that_cannot_be_loaded_is_shown_as_an_error_and_reported(make_window, db_path):
    from philont_desktop.selftest import check_tab

    tabs.register("broken", "philont_desktop.nonexistent.view:BrokenTab", "Broken")
    try:
        w = make_window(db_path)
        tab = w.show_tab("broken")
        assert tab.title() == "Broken" and w.tab_widget.tabText(w.tab_widget.indexOf(tab)) == "Broken"
        assert w.tab_errors == [tab.load_error] and "cannot be imported" in tab.load_error
        assert check_tab(tab) == [f"broken: {tab.load_error}"]
    finally:
        tabs.registry().unregister("broken")


def test_the_home_tab_is_shown_first_when_none_is_remembered(make_window, db_path):
    reg = tabs.registry()
    old = reg._entries.copy()
    try:
        reg._entries["notes"] = tabs.TabEntry(**{**vars(reg.get("notes")), "home": True})
        w = make_window(db_path)
        assert w.tab_widget.currentWidget().name == "notes"
    finally:
        reg._entries.clear()
        reg._entries.update(old)


def test_navigation_shows_a_target_in_its_tab_without_importing_it(make_window, db_path):
    from philont_desktop.tabs.navigation import Navigator, ShowNote, ShowTime

    w = make_window(db_path)
    assert w.ctx.navigator.go(ShowTime(FIXED_NOW))
    assert w.tab_widget.currentWidget().name == "timeline"
    assert not w.ctx.navigator.go(ShowNote("no-such-note"))  # the tab is shown, the note is not there
    assert w.tab_widget.currentWidget().name == "notes"
    assert w.ctx.navigator.history == [ShowTime(FIXED_NOW)]
    assert not Navigator().go(ShowTime(0))  # no window: nothing to show it in
    with pytest.raises(TypeError):
        w.ctx.navigator.go("timeline")


def test_tab_names_in_display_order():
    assert tabs.tab_names() == [
        "timeline",
        "actions",
        "notes",
        "facts",
        "skills",
        "context",
        "calendar",
        "backups",
        "audit",
        "review",
        "health",
    ]


def test_base_tab_wait_idle_tracks_its_jobs(make_window, db_path):
    import time

    w = make_window(db_path)

    class Probe(BaseTab):
        name = "probe"

    tab = Probe(w.ctx)
    results = []
    job = tab.run(lambda db: time.sleep(0.2) or "done", on_result=results.append)
    assert tab.busy
    assert tab.wait_idle(5000)
    assert results == ["done"] and not tab.busy
    ref = weakref.ref(job)
    del job
    gc.collect()
    assert ref() is None  # tracking does not keep finished jobs alive
    tab.deleteLater()


# -- the command line --------------------------------------------------------------------------------------


def test_version(capsys):
    assert app_mod.main(["--version"]) == 0
    out = capsys.readouterr().out.strip()
    assert re.fullmatch(
        r"philont-desktop \d+\.\d+\.\d+ \(Qt [\d.]+, PySide6 [\d.]+, SQLite [\d.]+ \w+, schema 31\)", out
    )


def test_self_test_passes_on_a_good_database(qapp, db_path, capsys, settings):
    assert app_mod.main(["--db", str(db_path), "--self-test"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"self-test passed \(\d+ tabs\)", out)


def test_self_test_fails_on_a_bad_file(qapp, tmp_path, capsys, settings):
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"x" * 200)
    assert app_mod.main(["--db", str(bad), "--self-test"]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"database: {bad}: This is not an SQLite database")


def test_screenshot_writes_one_png_per_tab_and_per_health_page(qapp, db_path, tmp_path, capsys, settings):
    out_dir = tmp_path / "shots"
    assert app_mod.main(["--db", str(db_path), "--screenshot", str(out_dir), "--theme", "dark"]) == 0
    names = {p.stem for p in out_dir.glob("*.png")}
    assert "audit" in names
    assert names == set(tabs.tab_names()) | {"health-recall", "health-privacy"}
    assert all(p.stat().st_size > 5000 for p in out_dir.glob("*.png"))


def test_screenshot_of_the_start_page_when_nothing_exists(qapp, tmp_path, capsys, settings):
    out_dir = tmp_path / "shots"
    assert app_mod.main(["--db", str(tmp_path / "none.sqlite"), "--screenshot", str(out_dir)]) == 0
    assert [p.name for p in out_dir.iterdir()] == ["start.png"]


def test_demo_flag_generates_the_demo_at_the_given_path(qapp, tmp_path, capsys, settings, monkeypatch):
    import philont_desktop.main_window as mw

    monkeypatch.setattr(mw, "DEMO_MESSAGES", 200)
    target = tmp_path / "demo" / "memory.sqlite"
    assert app_mod.main(["--demo", "--db", str(target), "--self-test"]) == 0
    assert target.exists()
    assert Path(target).stat().st_size > 0


def test_demo_flag_uses_the_demo_only_when_there_is_no_database(
    qapp, tmp_path, capsys, settings, monkeypatch
):
    import philont_desktop.main_window as mw

    monkeypatch.setattr(mw, "DEMO_MESSAGES", 200)
    demo_path = tmp_path / "data" / "demo.sqlite"
    monkeypatch.setattr(mw, "demo_default_path", lambda: demo_path)
    own = tmp_path / "own" / "memory.sqlite"
    monkeypatch.setenv("MEMORY_DB_PATH", str(own))

    # No database of one's own: the demo is generated and opened.
    assert app_mod.main(["--demo", "--self-test"]) == 0
    assert demo_path.exists()

    # With a database of one's own, --demo opens it and leaves the demo alone.
    from core.db import MemoryDB

    MemoryDB.create(own).close()
    demo_bytes = demo_path.read_bytes()
    opened: list[Path] = []
    real_open = mw.MainWindow.open_database
    monkeypatch.setattr(
        mw.MainWindow,
        "open_database",
        lambda self, p, *a, **k: (opened.append(Path(p)), real_open(self, p, *a, **k))[1],
    )
    assert app_mod.main(["--demo", "--self-test"]) == 0
    assert opened == [own]
    assert demo_path.read_bytes() == demo_bytes


# -- languages ----------------------------------------------------------------------------------------------


def test_language_plumbing_installs_qt_catalogues_and_falls_back_to_english(qapp):
    from philont_desktop import i18n
    from philont_desktop.qt import QLocale

    try:
        assert i18n.resolve_language("zh_CN") == "zh_CN"
        assert i18n.resolve_language("zh_TW") == "zh_CN"
        assert i18n.resolve_language("fr_FR") == "en"
        loaded = i18n.install("zh_CN")
        assert any(Path(p).name == "qtbase_zh_CN.qm" for p in loaded)
        assert i18n.current_language() == "zh_CN"
        assert QLocale().name() == "zh_CN"
    finally:
        assert i18n.install("en") == []
    assert QLocale().name() == "en_US"


def test_curate_runs_a_change_and_reports_what_changed(make_window, db_path):
    from core.curation import notes as note_curation

    w = _editing_window(make_window, db_path)
    announced, results = [], []
    w.ctx.changed.connect(announced.append)
    change = note_curation.add("Remember the tea preference", importance=0.8)
    job = w.ctx.curate(change, on_result=results.append)
    assert job.wait(5000) and job.state == "finished", job.error
    assert w.ctx.undo_stack.count() == 1
    assert w.ctx.undo_stack.undoText() == (change.description or change.action)
    [changes] = results
    assert announced == [changes]
    assert (changes.kind, changes.layer, changes.target_type) == ("perform", "notes", "note")
    assert changes.ids == {change.target_id} and changes.entry.action == "notes.add"
    assert changes.touches("notes", [change.target_id]) and not changes.touches("facts")
    assert not changes.touches("notes", ["another-note"])
    w.ctx.undo.undo()
    assert spin_until(lambda: not w.ctx.undo.busy, 5000)
    assert [(c.kind, c.layer, c.ids) for c in announced[1:]] == [("undo", "notes", {change.target_id})]
    assert w.ctx.errors == []
    with pytest.raises(TypeError):
        w.ctx.curate("Set colour")


def test_the_context_module_is_not_shadowed_by_a_tab_folder():
    # A package "philont_desktop/context/" would hide philont_desktop/context.py (AppContext); the Context
    # tab lives in philont_desktop/context_tab/ instead.
    import philont_desktop.context as context_module

    assert Path(context_module.__file__).name == "context.py"
    assert not (Path(context_module.__file__).parent / "context").is_dir()
    assert tabs.registry().get("context").path == "philont_desktop.context_tab.view:ContextTab"


def test_a_missing_core_table_is_read_only_and_counts_leave_it_out(make_window, db_path):
    from core.engine import sqlite3

    conn = sqlite3.connect(str(db_path))
    conn.execute("DROP TABLE memory_facts")
    conn.commit()
    conn.close()
    w = make_window(db_path)
    assert w.banner.isVisible() and w.banner.kind == "readonly"
    assert "core tables are missing: memory_facts" in w.banner.text()
    assert spin_until(lambda: w.counts_loaded, 5000)
    assert w.counts["facts"] is None
    assert "facts" not in w.counts_label.text()
    assert "notes 0" in w.counts_label.text()


def test_the_shell_has_room_for_a_badge_a_banner_and_a_way_out_of_an_open_failure(
    qtbot, make_window, db_path
):
    from philont_desktop.qt import QLabel, QPushButton, Qt

    w = make_window(db_path)
    badge = w.status.add_badge(QLabel("Demo"))
    assert badge.isVisible()
    extra = w.banners.add("demo")
    assert not extra.isVisible()
    extra.show_message("info", "A generated demo database")
    assert extra.isVisible() and extra.text() == "A generated demo database"
    w.close_database_to_start()
    assert not badge.isVisible()
    clicked = []
    w.start_page.set_problem("<b>This file cannot be opened.</b>", backup="/x/memory-1.sqlite")
    button = w.start_page.add_problem_action("Restore this backup", lambda: clicked.append(True))
    assert button.isVisible() and w.start_page.backup_button.isVisible()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert clicked == [True]
    w.start_page.set_problem("No database is open.")
    qtbot.waitUntil(
        lambda: "Restore this backup" not in [b.text() for b in w.start_page.findChildren(QPushButton)]
    )
