"""Damaged rows in the app: each tab shows a damaged row marked (⚠, what is unreadable and the stored bytes
on hover) and its neighbours as they are.

The files are the hostile-file suite's (tests/reliability/badfiles.py): rows of every layer damaged in one
way each. Each file is opened in the main window and the tab's own model is read, as a person hovering the
cells would.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from philont_desktop.main_window import MainWindow
from philont_desktop.qt import QAbstractItemModel, QApplication, Qt
from philont_desktop.settings import Settings
from philont_desktop.theme import Theme
from philont_desktop.widgets.plain import MARK
from philont_desktop.workers import spin_until
from tests.reliability import badfiles

IDLE_MS = 30_000
CASES = ("not-utf8", "null-in-not-null", "text-and-blobs-in-times-and-numbers", "invalid-json-everywhere")
DISPLAY = Qt.ItemDataRole.DisplayRole
TIP = Qt.ItemDataRole.ToolTipRole


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, tuple[Path, dict[str, set]]]:
    root = tmp_path_factory.mktemp("damaged-gui")
    out = {}
    for name in CASES:
        path = root / name / "memory.sqlite"
        path.parent.mkdir()
        out[name] = (path, badfiles.DAMAGED_ROWS[name](path))
    return out


@pytest.fixture
def open_window(qtbot, tmp_path):
    windows: list[MainWindow] = []

    def _open(original: Path) -> MainWindow:
        path = tmp_path / "memory.sqlite"
        shutil.copy2(original, path)
        window = MainWindow(Settings(), Theme("light"), interactive=False, live_interval_ms=60_000)
        qtbot.addWidget(window)
        window.show()
        window.open_database(path)
        assert spin_until(lambda: window.ctx is not None or window.open_error is not None, IDLE_MS)
        assert window.ctx is not None, window.open_error
        windows.append(window)
        return window

    yield _open
    for w in windows:
        w.close()


def _visit(window: MainWindow, name: str):
    tab = window.show_tab(name)
    assert tab is not None
    tab.ensure_activated()
    assert tab.wait_idle(IDLE_MS), name
    QApplication.processEvents()
    return tab


def _cells(model: QAbstractItemModel, row: int) -> list[tuple[str, str]]:
    """(display, tooltip) of every cell of ``row``."""
    out = []
    for c in range(model.columnCount()):
        idx = model.index(row, c)
        out.append((str(model.data(idx, DISPLAY) or ""), str(model.data(idx, TIP) or "")))
    return out


def _marked(cells: list[tuple[str, str]]) -> bool:
    """A cell reads ⚠ … and its tooltip says what is unreadable."""
    return any(d.startswith(MARK) and MARK in t for d, t in cells)


@pytest.mark.parametrize("case", CASES)
def test_facts_tab_marks_the_damaged_facts_and_shows_their_neighbours(case, built, open_window):
    from philont_desktop.facts.model import FactsModel

    original, damaged = built[case]
    window = open_window(original)
    tab = _visit(window, "facts")
    model = tab.findChildren(FactsModel)[0]
    keys = {model.row(i).fact.key: i for i in range(model.rowCount())}
    assert set(keys) == {f"pref_{i}" for i in range(5)} | {"deadline"}  # every fact, the damaged ones too
    expected = damaged.get("facts", set())
    assert expected
    for key, i in keys.items():
        cells = _cells(model, i)
        if key in expected:
            assert _marked(cells), (case, key, cells)
        else:
            assert not any(MARK in d or MARK in t for d, t in cells), (case, key, cells)
    if case == "not-utf8":  # the stored bytes, in hex, on hover
        tips = " ".join(t for _d, t in _cells(model, keys["pref_1"]))
        assert "22 ff 22" in tips
    if case == "text-and-blobs-in-times-and-numbers":  # an unreadable time reads as unreadable
        row = _cells(model, keys["pref_1"])
        assert any(d == "⚠ unreadable" for d, _t in row), row


def test_facts_history_says_what_is_unreadable_in_each_version(built, open_window):
    from philont_desktop.facts.model import FactsModel

    window = open_window(built["not-utf8"][0])
    tab = _visit(window, "facts")
    model = tab.findChildren(FactsModel)[0]
    fid = next(model.row(i).fact.id for i in range(model.rowCount()) if model.row(i).fact.key == "pref_1")
    assert tab.select_ids([fid]) == 1
    assert tab.wait_idle(IDLE_MS)
    QApplication.processEvents()
    text = tab.history.toPlainText()
    assert "Unreadable" in text and "value_json: not valid UTF-8" in text and "22 ff 22" in text


@pytest.mark.parametrize("case", CASES)
def test_skills_board_marks_the_damaged_skills_and_shows_their_neighbours(case, built, open_window):
    original, damaged = built[case]
    window = open_window(original)
    tab = _visit(window, "skills")
    model = tab.board.model
    rows = {model.data(model.index(i, 0), model.SkillRole).name: i for i in range(model.rowCount())}
    assert set(rows) == {f"skill-{i}" for i in range(5)}
    expected = damaged.get("skills", set())
    assert expected
    for name, i in rows.items():
        idx = model.index(i, 0)
        display, tip = str(model.data(idx, DISPLAY)), str(model.data(idx, TIP))
        skill = model.data(idx, model.SkillRole)
        caveat, _color = tab.board.delegate.caveat_line(skill)
        if name in expected:
            assert display == f"{MARK} {name}" and MARK in tip and caveat.startswith(MARK), (case, name, tip)
        else:
            assert display == name and MARK not in tip and MARK not in caveat, (case, name, tip)


def test_skill_detail_says_what_is_unreadable_with_the_stored_bytes(built, open_window):
    window = open_window(built["not-utf8"][0])
    tab = _visit(window, "skills")
    assert tab.select_skill("skill-1")
    assert tab.wait_idle(IDLE_MS)
    QApplication.processEvents()
    pane = tab.detail_pane
    assert pane.title.text().count(MARK) == 1
    fields = pane.overview.fields_view.toPlainText()
    assert "description: not valid UTF-8" in fields and "ff fe" in fields
    assert tab.select_skill("skill-2")  # its neighbour: nothing to say
    assert tab.wait_idle(IDLE_MS)
    QApplication.processEvents()
    assert MARK not in pane.title.text() and MARK not in pane.overview.fields_view.toPlainText()
