"""The About dialog lists every table of the open file, grouped as ``philont-memory info`` does, counted
in a worker."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from philont_desktop.about_dialog import AboutDialog
from philont_desktop.main_window import MainWindow
from philont_desktop.qt import QApplication
from philont_desktop.settings import Settings
from philont_desktop.theme import Theme
from philont_desktop.workers import spin_until
from tests.fixtures import agent_files


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("PHILONT_DESKTOP_SETTINGS_DIR", str(tmp_path / "settings"))
    path = agent_files.make_fresh(tmp_path / "memory.sqlite", 50)
    w = MainWindow(Settings(), Theme("light"), interactive=False, live_interval_ms=200)
    qtbot.addWidget(w)
    w.show()
    w.open_database(path)
    assert spin_until(lambda: w.ctx is not None, 10_000), w.open_error
    yield w
    w.close()


def test_the_about_dialog_lists_the_tables_by_group_with_counts(window):
    window.show_about()
    dlg = next(w for w in QApplication.topLevelWidgets() if isinstance(w, AboutDialog) and w.isVisible())
    tables = dlg.tables
    assert spin_until(lambda: tables.counted, 10_000)
    tree = tables.tree
    heads = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    assert [h.text(0) for h in heads] == [
        "Memory layers",
        "The agent's other tables",
        "Full-text indexes",
        "SQLite's own tables",
    ]
    memory = {heads[0].child(j).text(0): heads[0].child(j).text(1) for j in range(heads[0].childCount())}
    assert memory["memory_raw_messages"] == "20" and memory["memory_skills"] == "7"
    agent = {heads[1].child(j).text(0): heads[1].child(j).text(1) for j in range(heads[1].childCount())}
    assert agent["memory_cases"] == "3" and agent["deferred_pushes"] == "1"
    assert tables.status.text() == f"{sum(h.childCount() for h in heads)} tables"
    dlg.copy()
    copied = QApplication.clipboard().text()
    assert "Memory layers" in copied and "  memory_cases  3" in copied
    dlg.close()


def test_a_dialog_closed_before_the_counts_arrive_is_left_alone(window, qtbot):
    window.show_about()
    dlg = next(w for w in QApplication.topLevelWidgets() if isinstance(w, AboutDialog) and w.isVisible())
    dlg.close()  # deleted on close; the worker's results find nothing to fill
    assert window.ctx.workers.wait_idle(10_000)
    qtbot.wait(50)
