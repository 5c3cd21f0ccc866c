"""The Calendar tab: list_upcoming's semantics, all events and tasks, audited and undoable curation."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from core import audit
from core.calendar import DAY_MS, CalendarStore
from core.db import MemoryDB
from core.schedules import ScheduleStore
from core.upcoming import upcoming_items
from philont_desktop.calendar.cells import fmt_local
from philont_desktop.qt import QLocale, Qt
from philont_desktop.selftest import check_tab
from philont_desktop.workers import spin_until
from tests.support import FIXED_NOW as T0
from tests.support import multi_data

HOUR = 3_600_000


def build_db(path: Path) -> Path:
    db = MemoryDB.create(path, now=T0)
    try:
        cal = CalendarStore(db)
        sch = ScheduleStore(db)
        cal.create("Dentist", T0 + 2 * DAY_MS, T0 + 2 * DAY_MS + HOUR, None, "Europe/Berlin", now=T0)
        cal.create("周会", T0 - 3 * DAY_MS, None, "FREQ=WEEKLY", "Asia/Shanghai", now=T0)
        cal.create("Standup", T0 - DAY_MS + HOUR, None, "FREQ=DAILY;COUNT=4", "UTC", now=T0)
        cal.create("Long ago", T0 - 40 * DAY_MS, None, None, "UTC", now=T0)
        sch.create("交房租", T0 - 2 * HOUR, "prompt", {"message": "交房租，别忘了"}, now=T0)
        sch.create(
            "daily-digest", T0 + 5 * HOUR, "prompt", {"message": "digest"}, "interval:86400000", now=T0
        )
        sch.create("paused-one", T0 + HOUR, "reflect", {}, enabled=False, now=T0)
        sch.create("far-away", T0 + 60 * DAY_MS, "prompt", {"message": "later"}, now=T0)
    finally:
        db.close()
    return path


@pytest.fixture
def db_path(tmp_path) -> Path:
    return build_db(tmp_path / "memory" / "memory.sqlite")


def _fixed_clock_and_live(tab) -> None:
    tab.fixed_now = T0
    tab.ctx.dataChanged.connect(tab.refresh)  # what the main window does for the visible tab
    tab.ctx.start(quick_check=False)


@pytest.fixture
def make_tab(open_tab):
    from philont_desktop.calendar.view import CalendarTab

    def make(path: Path, *, editing: bool = False):
        tab = open_tab(CalendarTab, path, idle_ms=15_000, prepare=_fixed_clock_and_live, live_interval_ms=200)
        if editing:
            tab.ctx.set_editing(True)
            assert spin_until(lambda: tab.ctx.editing, 10_000)
            tab.set_editing(True)
        return tab

    return make


def _texts(tab, view_name, col):
    view = tab.views[view_name]
    proxy = view.model()
    model = proxy.sourceModel()
    c = model.COLUMNS.index(col)
    return [proxy.index(r, c).data() for r in range(proxy.rowCount())]


def _weekday(ms: int, zone: str) -> int:
    from core.repeats import weekday_of, zone_of

    return weekday_of(ms, zone_of(zone))


def _wait_rows(tab, view_name, n):
    return spin_until(lambda: tab.views[view_name].model().rowCount() == n and tab.wait_idle(100), 10_000)


def test_models_pass_the_model_tester(make_tab, db_path, qtmodeltester):
    tab = make_tab(db_path)
    for m in (tab.upcoming_model, tab.events_model, tab.schedules_model):
        qtmodeltester.check(m)
    for view in tab.views.values():
        qtmodeltester.check(view.model())


def test_upcoming_follows_list_upcoming(make_tab, db_path):
    tab = make_tab(db_path)
    db = MemoryDB.open(db_path)
    try:
        expected = upcoming_items(db, 7, now=T0)
    finally:
        db.close()
    # The same items as the tool, as an agenda: the overdue task first, then everything by time.
    assert sorted(i.line for i in tab.upcoming_model.rows) == sorted(i.line for i in expected)
    assert _texts(tab, "upcoming", "title") == [
        "交房租",
        "Standup",
        "daily-digest",
        "Standup",
        "Dentist",
        "Standup",
        "周会",
    ]
    assert _texts(tab, "upcoming", "status")[0] == "overdue"
    assert _texts(tab, "upcoming", "repeats") == [
        "once",
        "every day, 4 times",
        "every day",
        "every day, 4 times",
        "once",
        "every day, 4 times",
        "weekly on " + QLocale().dayName(_weekday(T0 - 3 * DAY_MS, "Asia/Shanghai")),
    ]
    assert [tab.inner.tabText(i) for i in range(tab.inner.count())] == [
        "Agenda (7)",
        "Month",
        "All events (4)",
        "All tasks (4)",
    ]
    assert "1 overdue" in tab.summary.text() and "1 disabled task(s) not listed" in tab.summary.text()
    assert check_tab(tab) == []


def test_overdue_rows_are_highlighted(make_tab, db_path):
    tab = make_tab(db_path)
    bg, fg, _ = tab.ctx.theme.banner_colors("error")
    model = tab.upcoming_model
    row = [i.title for i in model.rows].index("交房租")
    idx = model.index(row, model.COLUMNS.index("when"))
    assert idx.data(Qt.ItemDataRole.BackgroundRole) == bg
    assert idx.data(Qt.ItemDataRole.ForegroundRole) == fg
    other = model.index([i.title for i in model.rows].index("Dentist"), 0)
    assert other.data(Qt.ItemDataRole.BackgroundRole) is None
    smodel = tab.schedules_model
    srow = [s.name for s in smodel.rows].index("交房租")
    assert smodel.index(srow, smodel.COLUMNS.index("state")).data() == "overdue"
    drow = [s.name for s in smodel.rows].index("paused-one")
    assert smodel.index(drow, smodel.COLUMNS.index("state")).data() == "disabled"


def test_a_painted_cell_gets_in_one_call_what_data_answers(make_tab, db_path):
    """A delegate asks a cell's painting roles in one multiData() call, through the sorting proxy."""
    tab = make_tab(db_path)
    roles = [
        int(r)
        for r in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.FontRole, Qt.ItemDataRole.ForegroundRole)
    ]
    roles += [int(r) for r in (Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.DecorationRole)]
    overdue = 0
    for view in tab.views.values():
        proxy = view.model()
        for r in range(proxy.rowCount()):
            for c in range(proxy.columnCount()):
                idx = proxy.index(r, c)
                for role in roles:
                    got = multi_data(proxy, idx, role)
                    assert got == idx.data(role), (r, c, role)
                    overdue += role == int(Qt.ItemDataRole.BackgroundRole) and got is not None
    assert overdue  # the overdue rows' colours come through too


def test_window_of_days_is_clamped_and_reloads(make_tab, db_path):
    tab = make_tab(db_path)
    assert (tab.days_spin.minimum(), tab.days_spin.maximum()) == (1, 90)
    tab.days_spin.setValue(1)
    assert _wait_rows(tab, "upcoming", 3)  # tomorrow's standup (13:00) is past the window's end
    assert _texts(tab, "upcoming", "title") == ["交房租", "Standup", "daily-digest"]
    tab.days_spin.setValue(90)
    assert spin_until(lambda: "far-away" in _texts(tab, "upcoming", "title"), 10_000)
    assert tab.result.days == 90


def test_filter_applies_to_every_table(make_tab, db_path):
    tab = make_tab(db_path)
    tab.filter_edit.setText("standup")
    assert _texts(tab, "upcoming", "title") == ["Standup", "Standup", "Standup"]
    assert _texts(tab, "events", "title") == ["Standup"]
    assert _texts(tab, "tasks", "name") == []
    tab.filter_edit.clear()
    assert len(_texts(tab, "tasks", "name")) == 4


def test_details_show_what_the_agent_is_told(make_tab, db_path):
    tab = make_tab(db_path)
    item = next(i for i in tab.upcoming_model.rows if i.title == "周会")
    tab.select("upcoming", tab.upcoming_model.key(item))
    html = tab.details.toHtml()
    assert "- [event] 周会 @ 2026-06-19T12:00:00.000Z (Asia/Shanghai, FREQ=WEEKLY)" in html
    assert "Asia/Shanghai" in html
    text = tab.details.toPlainText()
    assert "weekly on" in text and "FREQ=WEEKLY" in text  # the rule in words, and as stored


def test_after_a_load_the_details_follow_in_a_turn_of_their_own(make_tab, db_path, qtbot):
    tab = make_tab(db_path)
    shown = tab.details.toPlainText()
    assert shown  # the selected row's details
    tab.details.clear()
    tab.days_spin.setValue(tab.days_spin.value() + 1)  # a new window: the rows load again
    assert tab.controller.wait_idle(10_000)  # the rows are in; the details come a turn later
    qtbot.waitUntil(lambda: tab.details.toPlainText() == shown, timeout=2000)


def test_editing_controls_only_in_editing_mode(make_tab, db_path):
    tab = make_tab(db_path)
    assert not tab.edit_box.isVisible()
    assert tab.set_selected_enabled(False) is None
    assert tab.delete_selected(confirm=False) is None


def _select_task(tab, name):
    s = next(s for s in tab.schedules_model.rows if s.name == name)
    assert tab.select("tasks", f"task:{s.id}")
    return s


def test_disable_enable_are_audited_and_undoable(make_tab, db_path):
    tab = make_tab(db_path, editing=True)
    assert tab.edit_box.isVisible()
    s = _select_task(tab, "daily-digest")
    assert tab.disable_button.isEnabled() and not tab.enable_button.isEnabled()
    job = tab.set_selected_enabled(False)
    assert job.wait(10_000) and job.state == "finished", job.error
    assert spin_until(lambda: not next(x for x in tab.schedules_model.rows if x.id == s.id).enabled, 10_000)
    assert tab.selected_target()[1].id == s.id  # the selection survived the reload
    assert "daily-digest" not in _texts(tab, "upcoming", "title")
    with MemoryDB.open(db_path) as db:
        entry = audit.list_entries(db)[0]
    assert (entry.action, entry.target_type, entry.target_id) == (
        "calendar.schedule_disable",
        "schedule",
        s.id,
    )
    assert tab.ctx.undo_stack.undoText() == "Disable task “daily-digest”"
    tab.ctx.undo.undo()
    assert spin_until(lambda: next(x for x in tab.schedules_model.rows if x.id == s.id).enabled, 10_000)
    with MemoryDB.open(db_path) as db:
        assert ScheduleStore(db).get(s.id).enabled is True
        assert [e.action for e in audit.list_entries(db)][:2] == ["undo", "calendar.schedule_disable"]


def test_delete_task_asks_first_and_undo_restores_it(make_tab, db_path):
    tab = make_tab(db_path, editing=True)
    s = _select_task(tab, "交房租")
    asked = []
    tab._ask = lambda title, text: asked.append(text) or False
    assert tab.delete_selected() is None
    assert "交房租" in asked[0]
    with MemoryDB.open(db_path) as db:
        before = db.conn.execute(
            'SELECT rowid AS "rowid", * FROM memory_schedules WHERE id=?', (s.id,)
        ).fetchone()
        before = dict(zip(before.keys(), tuple(before), strict=True))
    tab._ask = lambda title, text: True
    job = tab.delete_selected()
    assert job.wait(10_000) and job.state == "finished", job.error
    assert spin_until(lambda: all(x.id != s.id for x in tab.schedules_model.rows), 10_000)
    tab.ctx.undo.undo()
    assert spin_until(lambda: any(x.id == s.id for x in tab.schedules_model.rows), 10_000)
    with MemoryDB.open(db_path) as db:
        after = db.conn.execute(
            'SELECT rowid AS "rowid", * FROM memory_schedules WHERE id=?', (s.id,)
        ).fetchone()
        assert dict(zip(after.keys(), tuple(after), strict=True)) == before


def test_delete_event_from_the_upcoming_list(make_tab, db_path):
    tab = make_tab(db_path, editing=True)
    item = next(i for i in tab.upcoming_model.rows if i.title == "Dentist")
    tab.select("upcoming", tab.upcoming_model.key(item))
    assert tab.selected_target()[0] == "event"
    assert tab.delete_button.text() == "Delete event…"
    job = tab.delete_selected(confirm=False)
    assert job.wait(10_000) and job.state == "finished", job.error
    assert spin_until(lambda: "Dentist" not in _texts(tab, "events", "title"), 10_000)
    with MemoryDB.open(db_path) as db:
        assert CalendarStore(db).get(item.source_id) is None
        assert audit.list_entries(db)[0].action == "calendar.event_delete"
    tab.ctx.undo.undo()
    assert spin_until(lambda: "Dentist" in _texts(tab, "events", "title"), 10_000)


def test_live_refresh_keeps_the_selection(make_tab, db_path):
    tab = make_tab(db_path)
    s = _select_task(tab, "daily-digest")
    db = MemoryDB.open(db_path, writable=True, backup_before_write=False)
    try:
        ScheduleStore(db).create("new-task", T0 + HOUR, "prompt", {"message": "n"}, now=T0)
    finally:
        db.close()
    tab.refresh()
    assert _wait_rows(tab, "tasks", 5)
    assert tab.selected_target()[1].id == s.id


def test_export_view_lists_the_shown_rows(make_tab, db_path):
    tab = make_tab(db_path)
    spec = tab.export_view()
    assert spec["name"] == "calendar-upcoming"
    assert spec["columns"] == list(tab.upcoming_model.COLUMNS)
    assert [r["title"] for r in spec["rows"]][:2] == ["交房租", "Standup"]


def test_a_paused_task_shows_as_paused(make_tab, db_path):
    """The agent's scheduler skips a task until its paused_until (after repeated failures); the tab says
    so everywhere, and a paused task is not counted or coloured as overdue. list_upcoming still lists it."""
    db = MemoryDB.open(db_path, writable=True, backup_before_write=False)
    try:
        sch = ScheduleStore(db)
        rent = next(s for s in sch.list_all() if s.name == "交房租")  # overdue by 2 h
        with db.write() as conn:
            conn.execute(
                "UPDATE memory_schedules SET paused_until = ? WHERE id = ?", (T0 + 3 * HOUR, rent.id)
            )
        assert rent.id not in {s.id for s in sch.due_before(T0)}
        assert rent.id in {s.id for s in sch.due_before(T0 + 3 * HOUR)}
    finally:
        db.close()
    tab = make_tab(db_path)
    paused_text = "paused until " + fmt_local(T0 + 3 * HOUR)
    smodel = tab.schedules_model
    srow = [s.name for s in smodel.rows].index("交房租")
    state = smodel.index(srow, smodel.COLUMNS.index("state"))
    assert state.data() == paused_text
    assert "skips this task until" in state.data(Qt.ItemDataRole.ToolTipRole)
    assert state.data(Qt.ItemDataRole.ForegroundRole) == tab.ctx.theme.status_color("paused")
    assert state.data(Qt.ItemDataRole.BackgroundRole) is None  # not highlighted as overdue
    titles = _texts(tab, "upcoming", "title")
    assert "交房租" in titles  # as list_upcoming lists it
    assert _texts(tab, "upcoming", "status")[titles.index("交房租")] == paused_text
    assert "1 paused task(s)" in tab.summary.text() and "overdue" not in tab.summary.text()
    tab.select("tasks", f"task:{rent.id}")
    assert "paused: the agent's scheduler skips it until" in tab.details.toPlainText()


def test_the_month_grid_shows_each_day_and_its_details(make_tab, db_path):
    import datetime as dt

    db = MemoryDB.open(db_path, writable=True, backup_before_write=False)
    try:
        CalendarStore(db).create("<b>bold</b> & co", T0 + 3 * DAY_MS, None, None, "UTC", now=T0)
    finally:
        db.close()
    tab = make_tab(db_path)
    month = tab.tables.month
    tab.tables.setCurrentWidget(month)
    assert tab.tables.view_name() == "month" and tab.selected_target() is None
    day = dt.datetime.fromtimestamp((T0 + 2 * DAY_MS) / 1000).date()
    idx = month.model.index_of_day(day)
    assert idx.isValid()
    month.grid.setCurrentIndex(idx)
    assert "Dentist" in tab.details.toPlainText()
    odd = month.model.index_of_day(dt.datetime.fromtimestamp((T0 + 3 * DAY_MS) / 1000).date())
    tip = odd.data(Qt.ItemDataRole.ToolTipRole)
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; co" in tip  # stored text shown as it is, never as markup
    overdue = month.model.index_of_day(dt.datetime.fromtimestamp((T0 - 2 * HOUR) / 1000).date())
    assert any(
        e.title == "交房租" and e.status == "overdue" for e in overdue.data(Qt.ItemDataRole.UserRole + 2)
    )
    shown = month.model.month
    month.go(1)
    assert month.model.month != shown
    month.go(0)
    assert month.model.month == shown


def test_a_hidden_table_is_sized_when_first_shown(make_tab, db_path):
    """Sizing columns to their contents reads rows of every column on the GUI thread: the table shown is
    sized on the first load, a hidden one when it is first shown, and a table never shown saves no header
    (so that it is sized when it is shown, next time too)."""
    from philont_desktop.settings import Settings

    for name in ("upcoming", "events", "tasks"):
        Settings().set_header_state(f"calendar/{name}", b"")
    tab = make_tab(db_path)
    tables = tab.tables
    assert tables.currentWidget() is tables.views["upcoming"]
    assert tables.sized("upcoming") and not tables.sized("events")
    header = tables.views["events"].horizontalHeader()
    before = [header.sectionSize(i) for i in range(header.count() - 1)]
    tab.save_state()
    assert not tab.ctx.settings.header_state("calendar/events")
    assert tab.ctx.settings.header_state("calendar/upcoming")

    tables.setCurrentWidget(tables.views["events"])
    assert tables.sized("events") and not tables.sized("tasks")
    assert [header.sectionSize(i) for i in range(header.count() - 1)] != before
    tab.save_state()
    assert tab.ctx.settings.header_state("calendar/events")


def test_task_actions_and_creators_are_in_words_with_the_stored_value_kept(make_tab, db_path):
    tab = make_tab(db_path)
    detail = _texts(tab, "upcoming", "detail")
    assert detail[0] == "reminder message" and "prompt" not in detail  # 交房租, a prompt task
    view = tab.views["upcoming"]
    col = view.model().sourceModel().COLUMNS.index("detail")
    assert "Stored as: prompt" in view.model().index(0, col).data(Qt.ItemDataRole.ToolTipRole)
    assert sorted(set(_texts(tab, "tasks", "action"))) == ["reflection", "reminder message"]
    item = next(i for i in tab.upcoming_model.rows if i.title == "交房租")
    tab.select("upcoming", tab.upcoming_model.key(item))
    text = tab.details.toPlainText()
    assert "reminder message" in text and "the agent" in text
    assert "prompt" in text and "llm_external" in text  # as stored, muted under the words


def test_column_widths_saved_narrow_never_clip_the_times_next_time(make_tab, db_path):
    """Widths saved in one session (another font, language or screen) are restored, but a time column
    is never narrower than its time."""
    tab = make_tab(db_path)
    for name, col in (("upcoming", "when"), ("tasks", "next"), ("events", "starts")):
        view = tab.views[name]
        view.horizontalHeader().resizeSection(view.model().sourceModel().COLUMNS.index(col), 30)
        view.horizontalHeader().resizeSection(view.model().sourceModel().COLUMNS.index("repeats"), 61)
        tab.tables._unsized.discard(name)  # as if shown: its header is saved
    tab.save_state()
    again = make_tab(db_path)
    for name, col in (("upcoming", "when"), ("tasks", "next"), ("events", "starts")):
        view = again.views[name]
        cols = view.model().sourceModel().COLUMNS
        header = view.horizontalHeader()
        assert header.sectionSize(cols.index(col)) > view.fontMetrics().horizontalAdvance(fmt_local(T0)), name
        assert header.sectionSize(cols.index("repeats")) == 61  # the other widths as saved
