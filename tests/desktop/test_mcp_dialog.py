"""Help › Use with AI clients (MCP): the command line and a client configuration for the open database,
plain text that the server's own command line accepts."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from core.cli import build_parser
from core.db import MemoryDB
from philont_desktop.main_window import MainWindow
from philont_desktop.mcp_dialog import McpDialog
from philont_desktop.qt import QApplication, QLabel, Qt
from philont_desktop.settings import Settings
from philont_desktop.theme import Theme
from philont_desktop.workers import spin_until

T0 = 1_781_524_800_000


@pytest.fixture
def db_path(tmp_path) -> Path:
    path = tmp_path / "my memory" / "memory.sqlite"  # a space, which the shell line must quote
    MemoryDB.create(path, now=T0).close()
    return path


def test_dialog_shows_a_command_the_server_accepts(qtbot, db_path):
    dlg = McpDialog(db_path)
    qtbot.addWidget(dlg)
    args = shlex.split(dlg.command_edit.toPlainText())
    assert args[:2] == ["philont-memory", "mcp"]
    parsed = build_parser().parse_args(args[1:])
    assert (parsed.command, parsed.db, parsed.write) == ("mcp", str(db_path), False)
    config = json.loads(dlg.config_edit.toPlainText())
    assert config["mcpServers"]["philont-memory"] == {"command": "philont-memory", "args": args[1:]}

    dlg.write_box.setChecked(True)
    args = shlex.split(dlg.command_edit.toPlainText())
    assert build_parser().parse_args(args[1:]).write is True
    assert json.loads(dlg.config_edit.toPlainText())["mcpServers"]["philont-memory"]["args"][-1] == "--write"

    dlg.copy_command.click()
    assert QApplication.clipboard().text() == dlg.command_edit.toPlainText()
    dlg.copy_config.click()
    assert QApplication.clipboard().text() == dlg.config_edit.toPlainText()
    # Every label is plain text (a path is data, never markup).
    assert all(lbl.textFormat() == Qt.TextFormat.PlainText for lbl in dlg.findChildren(QLabel))
    assert dlg.command_edit.isReadOnly() and dlg.config_edit.isReadOnly()


def test_without_a_database_the_command_has_no_db_option(qtbot):
    dlg = McpDialog(None)
    qtbot.addWidget(dlg)
    assert dlg.command_edit.toPlainText() == "philont-memory mcp"
    assert "$MEMORY_DB_PATH" in " ".join(lbl.text() for lbl in dlg.findChildren(QLabel))


def test_help_menu_opens_it_for_the_open_database(qtbot, db_path, tmp_path, monkeypatch):
    monkeypatch.setenv("PHILONT_DESKTOP_SETTINGS_DIR", str(tmp_path / "settings"))
    w = MainWindow(Settings(), Theme("light"), interactive=False, live_interval_ms=200)
    qtbot.addWidget(w)
    w.show()
    w.open_database(db_path)
    assert spin_until(lambda: w.ctx is not None, 10_000), w.open_error
    try:
        w.action_mcp.trigger()
        dialogs = [d for d in w.findChildren(McpDialog) if d.isVisible()]
        assert len(dialogs) == 1 and dialogs[0].db_path == str(db_path)
        dialogs[0].close()
    finally:
        w.close()


def test_the_command_is_seen_whole_in_a_1024_px_window(qtbot, tmp_path):
    """A long database path: the command wraps inside its box instead of hiding behind a scroll bar."""
    from philont_desktop.mcp_dialog import McpDialog
    from philont_desktop.qt import QWidget

    window = QWidget()
    qtbot.addWidget(window)
    window.resize(1024, 640)
    deep = tmp_path / ("very-long-folder-name-" * 4) / "memory" / "memory.sqlite"
    dlg = McpDialog(deep, window)
    qtbot.addWidget(dlg)
    dlg.write_box.setChecked(True)
    dlg.show()
    qtbot.waitExposed(dlg)
    box = dlg.command_edit
    assert dlg.width() <= 1024 and dlg.height() <= 640
    # Nothing off to the side, every line in view (once the dialog is laid out).
    qtbot.waitUntil(
        lambda: (box.horizontalScrollBar().maximum(), box.verticalScrollBar().maximum()) == (0, 0),
        timeout=3000,
    )
    assert box.toPlainText().endswith("--write")
