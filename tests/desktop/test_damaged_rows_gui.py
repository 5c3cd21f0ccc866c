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
CASES = (
    "not-utf8",
    "null-in-not-null",
    "text-and-blobs-in-times-and-numbers",
    "invalid-json-everywhere",
    "times-beyond-any-date",
)
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


def test_skill_detail_of_a_skill_whose_action_time_is_text(built, open_window):
    window = open_window(built["times-beyond-any-date"][0])
    tab = _visit(window, "skills")
    assert tab.select_skill("skill-1")  # linked actions: one at 'yesterday', one beyond any date
    assert tab.wait_idle(IDLE_MS)
    QApplication.processEvents()
    assert window.ctx.errors == []
    detail = tab.detail_pane.detail
    assert detail is not None and detail.skill.name == "skill-1"
    assert len(detail.outcomes) == 3 and [w.is_current for w in detail.windows] == [False, True]


def test_timeline_chart_keeps_its_days_and_counts_the_messages_on_no_day(built, open_window):
    window = open_window(built["times-beyond-any-date"][0])
    tab = _visit(window, "timeline")
    chart = tab.activity.chart
    assert spin_until(lambda: bool(chart.counts), IDLE_MS)
    QApplication.processEvents()
    assert window.ctx.errors == []
    days = chart.counts  # messages 3, 4 and 5 (1e20, 2^63-1, -2^63) are on no day; the other 37 are
    assert sum(n for _d, n in days) == 37 and len(days) <= 3
    assert chart.timeless == 3
    caption = chart.caption.text()  # "message(s)", or "messages" where the English plural forms are loaded
    assert f"{MARK} 3 message" in caption and caption.endswith("with an unreadable time, on no day")


def _with_calendar_neighbours(original: Path, tmp_path: Path) -> Path:
    """A copy of ``original`` with a sound event and a sound task beside the damaged ones."""
    from core.calendar import CalendarStore
    from core.db import MemoryDB
    from core.schedules import ScheduleStore

    path = tmp_path / "with-neighbours" / "memory.sqlite"
    path.parent.mkdir()
    shutil.copy2(original, path)
    db = MemoryDB.open(path, writable=True, backup_before_write=False)
    try:
        CalendarStore(db).create("neighbour event", badfiles.NOW + 2 * badfiles.DAY, None, None, "UTC")
        ScheduleStore(db).create("neighbour task", badfiles.NOW + badfiles.DAY, "prompt", {"message": "hi"})
    finally:
        db.close()
    return path


@pytest.mark.parametrize("case", CASES)
def test_calendar_marks_the_damaged_event_and_task_and_shows_their_neighbours(
    case, built, open_window, tmp_path
):
    from philont_desktop.calendar.agenda import month_days, month_entries
    from philont_desktop.calendar.widgets.month import entry_line

    original, damaged = built[case]
    window = open_window(_with_calendar_neighbours(original, tmp_path))
    tab = _visit(window, "calendar")
    bad = damaged.get("calendar", set()) | damaged.get("schedules", set())
    assert bad
    seen: dict[str, bool] = {}
    for model in (tab.events_model, tab.schedules_model, tab.upcoming_model):
        for i in range(model.rowCount()):
            row = model.row_at(i)
            sid = getattr(row, "source_id", None) or row.id
            marked = _marked(_cells(model, i))
            assert marked == (sid in bad), (case, type(model).__name__, sid, _cells(model, i))
            seen[sid] = marked
    assert len(seen) == 4 and sum(seen.values()) == len(bad)  # two damaged rows, two neighbours
    days = month_days(2026, 6)  # the month of the files' rows: the grid's lines marked alike
    state = tab.state
    entries = [e for day in month_entries(state.events, state.schedules, days, state.now, state.paused).values()
               for e in day]  # fmt: skip
    assert entries
    for e in entries:
        assert (MARK in entry_line(e)) == (e.source_id in bad), (case, entry_line(e))
    if case == "text-and-blobs-in-times-and-numbers":  # an unreadable time reads as unreadable
        event = next(i for i in range(tab.events_model.rowCount()) if tab.events_model.row_at(i).id in bad)
        shown = [d for d, _t in _cells(tab.events_model, event)]
        assert "⚠ unreadable" in shown, shown


def test_calendar_details_say_what_is_unreadable_with_the_stored_bytes(built, open_window, tmp_path):
    original, damaged = built["not-utf8"]
    window = open_window(_with_calendar_neighbours(original, tmp_path))
    tab = _visit(window, "calendar")
    model = tab.events_model
    for i in range(model.rowCount()):
        row = model.row_at(i)
        tab.details.show_row(row, tab.state)
        text = tab.details.toPlainText()
        if row.id in damaged["calendar"]:
            assert text.startswith(MARK) and "title: not valid UTF-8" in text and "stored bytes: ff" in text
        else:
            assert MARK not in text


NOTES = {  # what the preview says on the damaged fact, in words from the core's code
    "not-utf8": "⚠ The fact user.pref_1: value holds bytes that are not UTF-8; the agent reads them as U+FFFD",
    "null-in-not-null": "⚠ The fact user.pref_1 has damaged values (value, confidence); the agent reads them",
    "invalid-json-everywhere": "⚠ The fact user.pref_1 cannot be read by the agent (value): its own reading",
}


@pytest.mark.parametrize("case", list(NOTES))
def test_context_preview_notes_each_damaged_row_the_agent_would_be_given(case, built, open_window):
    window = open_window(built[case][0])
    tab = _visit(window, "context")
    tab.set_fixed_now(badfiles.NOW)
    tab.set_host_os("linux")
    tab.set_home_session("s-2")
    tab.set_budgets(recent_limit=50)
    tab.set_message("remember when we deployed the 数据库 migration?")
    assert tab.wait_idle(IDLE_MS)
    assert tab.error is None and tab.result is not None
    tab.expand_all(True)
    QApplication.processEvents()
    text = tab.preview_text().replace("\xa0", " ").replace("\u2029", "\n")
    assert NOTES[case] in text, text
    noted = {n.params["label"] for n in tab.result.row_notices if n.params["layer"] == "facts"}
    assert noted == {"user.pref_1"}  # its neighbours are given to the agent as they are, without a note
    assert "user.pref_0" in text and "The fact user.pref_0" not in text
    assert text.count("⚠ The fact ") == 1
    if case == "not-utf8":  # a damaged message in the recent ones is noted under its own header
        assert {n.params["id"] for n in tab.result.row_notices if n.params["layer"] == "messages"} == {3, 5}
        assert text.count("⚠ This message: ") == 2  # #3's content, #5's role
        assert "⚠ This message: text holds bytes that are not UTF-8" in text
