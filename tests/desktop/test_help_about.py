"""Keyboard shortcuts (installed and listed from the live window) and the About dialog."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from core import SCHEMA_VERSION
from core.db import MemoryDB
from core.engine import ENGINE, SQLITE_VERSION
from philont_desktop import __version__
from philont_desktop.about_dialog import AboutDialog, about_rows, pyqtgraph_version
from philont_desktop.help_dialog import HelpDialog, collect_shortcuts, show_help
from philont_desktop.main_window import MainWindow
from philont_desktop.qt import PYSIDE_VERSION, QT_VERSION, QAction, QApplication, QKeySequence, QShortcut
from philont_desktop.settings import Settings
from philont_desktop.theme import Theme
from philont_desktop.workers import spin_until
from tests.support import FIXED_NOW as T0


@pytest.fixture
def db_path(tmp_path) -> Path:
    path = tmp_path / "memory" / "memory.sqlite"
    MemoryDB.create(path, now=T0).close()
    return path


@pytest.fixture
def window(qtbot, db_path, tmp_path, monkeypatch):
    monkeypatch.setenv("PHILONT_DESKTOP_SETTINGS_DIR", str(tmp_path / "settings"))
    w = MainWindow(Settings(), Theme("light"), interactive=False, live_interval_ms=200)
    qtbot.addWidget(w)
    w.show()
    w.open_database(db_path)
    assert spin_until(lambda: w.ctx is not None, 10_000), w.open_error
    yield w
    w.close()


def _keys(entries) -> dict[str, tuple[str, ...]]:
    return {e.text: e.keys for e in entries}


def test_the_frequent_actions_have_their_standard_keys(window):
    keys = _keys(collect_shortcuts(window))
    assert keys["Open (read-only)"][0] == "Ctrl+O"
    assert keys["Open for editing"] == ("Ctrl+Shift+O",)
    assert keys["Backup now"] == ("Ctrl+B",)
    assert keys["Editing mode"] == ("Ctrl+E",)
    assert keys["Undo"][0] == "Ctrl+Z"
    assert keys["Redo"][0] == "Ctrl+Shift+Z"
    assert keys["Refresh"][0] == "F5"
    assert keys["Keyboard shortcuts"][0] == "F1"
    assert keys["Export"] == ("Ctrl+Shift+E",)
    assert "Ctrl+Q" in keys["Quit"]
    n = window.tab_widget.count()
    for i in range(min(n, 10)):  # Ctrl+1..9 for the first nine; Alt+1..9, Alt+0 for the first ten
        title = window.tab_widget.tabText(i)
        ctrl = (f"Ctrl+{i + 1}",) if i < 9 else ()
        assert keys[f"Tab {i + 1}: {title}"] == (*ctrl, f"Alt+{(i + 1) % 10}")
    assert keys["Next tab"][0] == "Ctrl+Tab"
    assert keys["Previous tab"][0] == "Ctrl+Shift+Tab"


def test_find_is_window_wide_unless_the_tab_has_its_own(window):
    window.show_tab("calendar")
    assert window.action_find.shortcut().toString() == "Ctrl+F"
    called = []
    tab = window.tabs_by_name["calendar"]
    tab.focus_search = lambda: called.append("calendar")
    window.action_find.trigger()
    assert called == ["calendar"]
    # A tab with its own Ctrl+F keeps it; the window-wide one steps back so the key is not ambiguous.
    own = QShortcut(QKeySequence("Ctrl+F"), window.tabs_by_name["backups"])
    window.show_tab("backups")
    assert window.action_find.shortcuts() == []
    assert _keys(collect_shortcuts(window))["Find in this tab"] == ("Ctrl+F",)
    window.show_tab("calendar")
    assert window.action_find.shortcut().toString() == "Ctrl+F"
    own.setEnabled(False)


def test_ctrl_digit_switches_tabs(window):
    window.tab_actions[1].trigger()
    assert window.tab_widget.currentIndex() == 1
    last = window.tab_widget.count() - 1
    if last < 9:
        window.tab_actions[last].trigger()
        assert window.tab_widget.currentIndex() == last
    assert not window.tab_actions[8].isEnabled() or window.tab_widget.count() >= 9


def test_the_list_follows_what_is_registered(window):
    extra = QAction("Frobnicate", window)
    extra.setShortcut(QKeySequence("Ctrl+Alt+J"))
    window.addAction(extra)
    dlg = HelpDialog(window)
    assert ("Window", "Frobnicate", "Ctrl+Alt+J") in dlg.texts()
    sc = QShortcut(QKeySequence("Ctrl+Alt+K"), window.tabs_by_name["calendar"])
    sc.setWhatsThis("Do the calendar thing")
    dlg.reload()
    assert ("Calendar", "Do the calendar thing", "Ctrl+Alt+K") in dlg.texts()
    dlg.filter_edit.setText("frob")
    assert dlg.tree.topLevelItemCount() == 1
    assert dlg.tree.topLevelItem(0).child(0).text(1) == "Ctrl+Alt+J"
    dlg.close()


def test_f1_opens_the_dialog(window):
    assert window.action_shortcuts.shortcut().toString() == "F1"
    help_menu = window.menuBar().actions()[-1].menu()
    assert help_menu.actions()[0] is window.action_shortcuts
    dlg = show_help(window)
    assert dlg.isVisible() and dlg.windowTitle() == "Keyboard shortcuts"
    dlg.close()


def test_about_names_every_version_and_the_database(window, db_path):
    text = window.about_text()
    assert f"Qt</td><td>{QT_VERSION} (PySide6 {PYSIDE_VERSION})" in text
    assert f"SQLite</td><td>{SQLITE_VERSION} ({ENGINE})" in text
    assert f"pyqtgraph</td><td>{pyqtgraph_version()}" in text
    assert f"Schema of this database</td><td>{SCHEMA_VERSION}" in text
    assert f"Database</td><td>{db_path}" in text
    rows = dict(about_rows(window.ctx.report, window.ctx.db_path))
    assert rows["philont-desktop"] == __version__
    assert rows["Journal mode"] == "wal"
    assert rows["Access"] == "read-only until editing mode is turned on"
    assert pyqtgraph_version()[0].isdigit()


def test_about_dialog_copies_plain_text(window, db_path):
    window.show_about()
    dlg = next(w for w in QApplication.topLevelWidgets() if isinstance(w, AboutDialog) and w.isVisible())
    assert dlg.windowTitle() == "About philont-desktop"
    dlg.copy()
    copied = QApplication.clipboard().text()
    assert "SQLite" in copied and SQLITE_VERSION in copied and str(db_path) in copied
    assert "<" not in copied
    dlg.close()


def test_about_without_a_database(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("PHILONT_DESKTOP_SETTINGS_DIR", str(tmp_path / "settings"))
    w = MainWindow(Settings(), Theme("light"), interactive=False)
    qtbot.addWidget(w)
    assert "Database</td><td>none open" in w.about_text()
    assert not w.action_export.isEnabled() and not w.action_find.isEnabled()
