"""The Audit tab: the trail newest first, filters, the entry's detail, undo / redo of one entry from the
tab, and entries added meanwhile put on top without moving the rows in view."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.curation import notes as note_curation
from core.db import MemoryDB
from core.notes import NotesStore
from philont_desktop.qt import QModelIndex, Qt, QUrl

ACTOR = "alice@philont-desktop"


def _add_notes(path: Path, n: int, start: int = 0) -> None:
    db = MemoryDB.open(path, writable=True, backup_before_write=False)
    try:
        for i in range(start, start + n):
            note_curation.add(f"note {i}", 0.5, note_id=f"n{i:03d}").perform(db, ACTOR)
    finally:
        db.close()


@pytest.fixture
def audit_db(db_path) -> Path:
    MemoryDB.create(db_path).close()
    _add_notes(db_path, 40)
    return db_path


@pytest.fixture
def make_tab(open_tab):
    from philont_desktop.audit.view import AuditTab

    return lambda path: open_tab(AuditTab, path, size=(1100, 600))


def _note(path: Path, note_id: str):
    db = MemoryDB.open(path)
    try:
        return NotesStore(db).get(note_id)
    finally:
        db.close()


def test_the_trail_newest_first_with_the_entry_in_detail(qtbot, qtmodeltester, audit_db, make_tab):
    tab = make_tab(audit_db)
    assert tab.model.rowCount() == 40 and tab.bar.count_label.text() == "40 entries"
    assert [tab.model.index(0, c).data() for c in (1, 2, 3, 4)] == [
        ACTOR,
        "notes.add",
        "“note 39”",  # a note is known by its first words
        "created",
    ]
    assert "note n039" in tab.detail.toPlainText() and "note 39" in tab.detail.toPlainText()
    assert '"content"' not in tab.detail.toPlainText()  # the raw JSON is behind a link
    tab.detail._on_link(QUrl("raw"))
    assert '"content": "note 39"' in tab.detail.toPlainText()
    tab.table.selectRow(5)
    assert "note n034" in tab.detail.toPlainText()
    assert tab.bar.filter.findData("note") > 0
    qtmodeltester.check(tab.model)
    assert not tab.bar.undo_button.isVisible()  # read-only: no undo from here


def test_undo_and_redo_of_one_entry_from_the_tab(qtbot, audit_db, make_tab, start_editing):
    tab = make_tab(audit_db)
    start_editing(tab)
    tab.table.selectRow(2)  # note n037
    assert tab.bar.undo_button.isEnabled() and not tab.bar.redo_button.isEnabled()
    announced = []
    tab.ctx.changed.connect(announced.append)
    qtbot.mouseClick(tab.bar.undo_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(announced), timeout=10_000)
    assert [(c.kind, c.layer, c.ids) for c in announced] == [("undo", "notes", {"n037"})]
    assert _note(audit_db, "n037") is None
    # The controller hears the change: the undo row comes on top, the entry shows as undone.
    qtbot.waitUntil(lambda: tab.model.rowCount() == 41, timeout=10_000)
    assert tab.model.index(0, 2).data() == "undo notes.add"
    row = tab.model.row_of(tab.state.shown.id)
    assert tab.model.index(row, 5).data() == "undone" and tab.state.shown.undone
    assert tab.bar.redo_button.isEnabled() and not tab.bar.undo_button.isEnabled()
    qtbot.mouseClick(tab.bar.redo_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: _note(audit_db, "n037") is not None, timeout=10_000)
    qtbot.waitUntil(lambda: tab.model.rowCount() == 42, timeout=10_000)
    assert tab.ctx.errors == []


def test_a_long_trail_gives_its_exact_count_not_n_plus(qtbot, audit_db, make_tab):
    tab = make_tab(audit_db)
    tab.model.page_size = 15  # 40 entries: three pages
    tab.model.reload()
    assert tab.wait_idle(10_000)
    assert tab.model.rowCount() == 15
    assert tab.bar.count_label.text() == "40 entries · 15 shown, more as you scroll"
    while tab.model.canFetchMore(QModelIndex()):
        tab.model.fetchMore(QModelIndex())
        assert tab.wait_idle(10_000)
    assert tab.model.rowCount() == 40
    qtbot.waitUntil(lambda: tab.bar.count_label.text() == "40 entries", timeout=10_000)


def test_entries_added_meanwhile_come_on_top_without_moving_the_rows_in_view(qtbot, audit_db, make_tab):
    tab = make_tab(audit_db)
    tab.table.resize(900, 250)
    tab.table.scrollTo(tab.model.index(20, 0), tab.table.ScrollHint.PositionAtTop)
    top = tab.model.row_at(tab.table.rowAt(0)).id
    _add_notes(audit_db, 3, start=100)
    tab.refresh()
    assert tab.wait_idle(10_000)
    assert tab.model.rowCount() == 43
    assert tab.model.row_at(tab.table.rowAt(0)).id == top
    assert tab.bar.new_button.isVisible() and tab.bar.new_button.text() == "3 new ↑"
    qtbot.mouseClick(tab.bar.new_button, Qt.MouseButton.LeftButton)
    assert tab.table.verticalScrollBar().value() == 0 and not tab.bar.new_button.isVisible()
    assert tab.model.index(0, 3).data() == "“note 102”"


def _curate(qtbot, tab, change, text: str) -> None:
    done = []
    tab.ctx.curate(change, text=text, on_result=done.append)
    qtbot.waitUntil(lambda: bool(done), timeout=10_000)


def _select_entry_of(tab, qtbot, note_id: str) -> None:
    """Select the original entry of ``note_id`` once the tab shows it (it hears new entries by itself)."""

    def row_of() -> int:
        for row in range(tab.model.rowCount()):
            e = tab.model.entry(row)
            if e.is_original and str(e.target_id) == note_id:
                return row
        return -1

    qtbot.waitUntil(lambda: row_of() >= 0, timeout=10_000)
    assert tab.wait_idle(10_000)
    tab.table.selectRow(row_of())
    assert str(tab.state.shown.target_id) == note_id


def test_edit_undo_after_an_undo_from_the_tab_takes_the_next_step(qtbot, audit_db, make_tab, start_editing):
    """Undoing the stack's last edit from the Audit tab is Edit › Undo's own step: Ctrl+Z then undoes the
    edit before it (never "already undone"), and Edit › Redo brings the first one back."""
    tab = make_tab(audit_db)
    start_editing(tab)
    stack = tab.ctx.undo_stack
    _curate(qtbot, tab, note_curation.add("first", 0.5, note_id="x1"), "add first")
    _curate(qtbot, tab, note_curation.add("second", 0.5, note_id="x2"), "add second")
    _select_entry_of(tab, qtbot, "x2")
    qtbot.mouseClick(tab.bar.undo_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: _note(audit_db, "x2") is None and not tab.ctx.undo.busy, timeout=10_000)
    assert stack.undoText() == "add first" and stack.redoText() == "add second"
    tab.ctx.undo.undo()  # Ctrl+Z
    qtbot.waitUntil(lambda: _note(audit_db, "x1") is None and not tab.ctx.undo.busy, timeout=10_000)
    tab.ctx.undo.redo()
    qtbot.waitUntil(lambda: _note(audit_db, "x1") is not None and not tab.ctx.undo.busy, timeout=10_000)
    assert tab.ctx.errors == []


def test_edit_undo_after_the_tab_undid_an_older_edit_skips_it(qtbot, audit_db, make_tab, start_editing):
    """An edit undone from the Audit tab out of the stack's order leaves the stack: Ctrl+Z undoes the
    newer edit, and then has nothing left to offer instead of failing with "already undone"."""
    tab = make_tab(audit_db)
    start_editing(tab)
    stack = tab.ctx.undo_stack
    _curate(qtbot, tab, note_curation.add("first", 0.5, note_id="x1"), "add first")
    _curate(qtbot, tab, note_curation.add("second", 0.5, note_id="x2"), "add second")
    _select_entry_of(tab, qtbot, "x1")
    qtbot.mouseClick(tab.bar.undo_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: _note(audit_db, "x1") is None and not tab.ctx.undo.busy, timeout=10_000)
    assert stack.undoText() == "add second"
    tab.ctx.undo.undo()
    qtbot.waitUntil(lambda: _note(audit_db, "x2") is None and not tab.ctx.undo.busy, timeout=10_000)
    assert not stack.canUndo()
    tab.ctx.undo.undo()  # nothing left: no step, no error
    assert tab.ctx.errors == []
    # Redo from the tab brings the older edit back; Edit › Redo then re-applies the newer one.
    _select_entry_of(tab, qtbot, "x1")
    qtbot.waitUntil(lambda: tab.bar.redo_button.isEnabled(), timeout=10_000)
    qtbot.mouseClick(tab.bar.redo_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: _note(audit_db, "x1") is not None and not tab.ctx.undo.busy, timeout=10_000)
    tab.ctx.undo.redo()
    qtbot.waitUntil(lambda: _note(audit_db, "x2") is not None and not tab.ctx.undo.busy, timeout=10_000)
    assert tab.ctx.errors == []


def test_the_edit_menu_follows_an_undo_from_the_tab(qtbot, audit_db, open_window):
    """In the window: after the Audit tab undid the last edit, Edit › Undo names the edit before it and
    undoes it when triggered, without an error."""
    from philont_desktop.workers import spin_until

    w = open_window(audit_db)
    w.set_editing(True)
    assert spin_until(lambda: w.ctx.editing, 20_000)
    tab = w.show_tab("audit")
    tab.ensure_activated()
    assert tab.wait_idle(20_000)
    _curate(qtbot, tab, note_curation.add("first", 0.5, note_id="x1"), "add first")
    _curate(qtbot, tab, note_curation.add("second", 0.5, note_id="x2"), "add second")
    _select_entry_of(tab, qtbot, "x2")
    qtbot.mouseClick(tab.bar.undo_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: _note(audit_db, "x2") is None and not w.ctx.undo.busy, timeout=10_000)
    assert w.action_undo.isEnabled() and w.action_undo.text().endswith("add first")
    assert w.action_redo.text().endswith("add second")
    w.action_undo.trigger()
    qtbot.waitUntil(lambda: _note(audit_db, "x1") is None and not w.ctx.undo.busy, timeout=10_000)
    assert not w.action_undo.isEnabled()
    assert w.ctx.errors == []
