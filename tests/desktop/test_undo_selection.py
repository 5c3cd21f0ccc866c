"""Undo and redo through the Edit menu keep what was edited selected and in view, on the demo
database: a fact edited to a new version, a skill moved to another grade, a note rewritten."""

from __future__ import annotations

import shutil

import pytest

pytest.importorskip("pytestqt")

from philont_desktop.qt import QRect
from philont_desktop.workers import spin_until


@pytest.fixture
def window(open_window, demo_db_path, tmp_path):
    path = tmp_path / "memory" / "memory.sqlite"
    path.parent.mkdir()
    shutil.copy(demo_db_path, path)
    w = open_window(path)
    w.set_editing(True)
    assert spin_until(lambda: w.ctx.editing, 20_000)
    return w


def _step(w, action, tab) -> None:
    ctx = w.ctx
    before = ctx.undo_stack.index()
    action.trigger()
    assert spin_until(lambda: not ctx.undo.busy and ctx.undo_stack.index() != before, 10_000)
    assert tab.wait_idle(20_000)
    spin_until(lambda: False, 100)  # the reload's follow-ups (selection settles after 30 ms)
    assert tab.wait_idle(20_000)
    assert ctx.errors == []


def _in_view(view, index) -> bool:
    rect: QRect = view.visualRect(index)
    return rect.isValid() and view.viewport().rect().intersects(rect)


def test_a_fact_stays_selected_and_in_view_after_undo_and_redo(window):
    w = window
    tab = w.show_tab("facts")
    assert tab.wait_idle(20_000)
    rows = tab.table.facts.rows()
    target = max((r for r in rows if r.status == "active"), key=lambda r: r.name)  # near the end
    assert tab.select_ids([target.fid]) == 1
    tab.edit_fact(target, {"value": "edited by hand"})
    assert tab.wait_idle(20_000)
    assert spin_until(lambda: [r.name for r in tab.selected_rows()] == [target.name], 10_000)
    tab.table.scrollToTop()

    for action, value in ((w.action_undo, target.fact.value), (w.action_redo, "edited by hand")):
        _step(w, action, tab)
        assert [r.name for r in tab.selected_rows()] == [target.name], action.text()
        assert tab.selected_rows()[0].fact.value == value
        current = tab.table.currentIndex()
        assert _in_view(tab.table, current), action.text()
    assert w.statusBar().currentMessage().startswith("Redone: ")


def test_a_skill_moved_to_another_grade_stays_selected_after_undo_and_redo(window):
    w = window
    tab = w.show_tab("skills")
    assert tab.wait_idle(20_000)
    skill = next(s for s in tab.state.skills if s.maturity == "draft")
    assert tab.select_skill(skill.name)
    assert tab.set_grade(skill, "deprecated", "checking undo") is not None
    assert tab.wait_idle(20_000)
    assert spin_until(lambda: tab.current_skill().maturity == "deprecated", 10_000)

    for action, grade in ((w.action_undo, "draft"), (w.action_redo, "deprecated")):
        _step(w, action, tab)
        current = tab.current_skill()
        assert current is not None and current.name == skill.name, action.text()
        assert current.maturity == grade
        view = tab.board.views[grade]
        index = view.currentIndex()
        assert index.isValid() and view.selectionModel().isSelected(index), action.text()
        assert _in_view(view, index), action.text()
    assert w.statusBar().currentMessage() == f"Redone: {w.ctx.undo_stack.undoText()}"


def test_a_note_stays_selected_and_in_view_after_undo_and_redo(window):
    w = window
    tab = w.show_tab("notes")
    assert tab.wait_idle(20_000)
    row = tab.model.rowCount() - 1
    note = tab.model.row_at(row)
    assert tab.select_note(note.id)
    tab.content_edit.setPlainText("rewritten by hand")
    tab.save()
    assert tab.wait_idle(20_000)
    assert spin_until(
        lambda: tab.model.row_at(tab.model.row_of(note.id)).content == "rewritten by hand", 10_000
    )
    tab.table.scrollToTop()

    for action, content in ((w.action_undo, note.content), (w.action_redo, "rewritten by hand")):
        _step(w, action, tab)
        index = tab.table.currentIndex()
        assert index.isValid() and tab.model.row_at(index.row()).id == note.id, action.text()
        assert tab.content_edit.toPlainText() == content
        assert _in_view(tab.table, index), action.text()
