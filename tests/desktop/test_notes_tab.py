"""The Notes tab: search semantics, forgotten state, lazy loading, audited and undoable edits, live refresh."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from core import audit
from core.db import MemoryDB
from core.notes import NotesStore
from philont_desktop.qt import QApplication, QMessageBox, QModelIndex, Qt

ROOT = Path(__file__).resolve().parents[2]
T0 = 1_780_000_000_000
MIN = 60_000

NOTES = [
    ("n01", "deploy the gateway on Friday", 0.9, None),
    ("n02", "旺财的疫苗下周打", 0.7, None),
    ("n03", "old: deploy checklist", 0.2, T0 + 500 * MIN),  # forgotten
    ("n04", "use a-b testing for the landing page", 0.5, None),
    ("n05", "笔记: 数据库备份要做恢复演练", 0.6, None),
    ("n06", "the user prefers short answers", 0.8, None),
]


def build_db(path: Path, extra: int = 0) -> Path:
    db = MemoryDB.create(path, now=T0)
    try:
        store = NotesStore(db)
        for i, (nid, text, imp, forgotten) in enumerate(NOTES):
            store.upsert(nid, text, importance=imp, session_id="global", created_at=T0 + i * MIN)
            if forgotten is not None:
                store.forget(nid, at=forgotten)
        for j in range(extra):
            store.upsert(f"x{j:03d}", f"filler note {j}", importance=0.1, created_at=T0 - (j + 1) * MIN)
    finally:
        db.close()
    return path


@pytest.fixture
def notes_db(db_path) -> Path:
    return build_db(db_path)


@pytest.fixture
def make_tab(open_tab):
    from philont_desktop.notes.view import NotesTab

    return lambda path, **kw: open_tab(NotesTab, path, **kw)


def _ids(tab) -> list[str]:
    return [n.id for n in tab.model.rows()]


def _search(tab, text: str) -> None:
    tab.search_edit.setText(text)
    tab.reload()
    assert tab.wait_idle(10_000)


def _no_error_dialog(tab) -> None:
    assert tab.ctx.errors == []
    assert not any(isinstance(w, QMessageBox) and w.isVisible() for w in QApplication.topLevelWidgets())


def _wait_undo(qtbot, tab) -> None:
    qtbot.waitUntil(lambda: not tab.ctx.undo.busy, timeout=10_000)
    assert tab.wait_idle(10_000)


def _db_note(path: Path, nid: str):
    db = MemoryDB.open(path)
    try:
        n = NotesStore(db).get(nid)
        return None if n is None else (n.content, n.importance, n.forgotten_at)
    finally:
        db.close()


def _audit(path: Path):
    db = MemoryDB.open(path)
    try:
        return audit.list_entries(db)
    finally:
        db.close()


def test_browse_newest_first_and_modeltester(qtbot, qtmodeltester, notes_db, make_tab):
    tab = make_tab(notes_db)
    assert _ids(tab) == ["n06", "n05", "n04", "n03", "n02", "n01"]
    assert tab.count_label.text() == "6 notes"
    qtmodeltester.check(tab.model)
    m = tab.model
    assert [m.index(0, c).data() for c in range(6)][:2] == ["the user prefers short answers", "0.80"]
    # the first note is shown in the detail pane
    assert tab.content_edit.toPlainText() == "the user prefers short answers"


def test_forgotten_notes_are_greyed_and_can_be_hidden(qtbot, notes_db, make_tab):
    tab = make_tab(notes_db)
    row = tab.model.row_of("n03")
    idx = tab.model.index(row, 0)
    assert idx.data(Qt.ItemDataRole.FontRole).italic()
    assert idx.data(Qt.ItemDataRole.ForegroundRole).name() == tab.ctx.theme.muted_text().name()
    assert tab.model.index(tab.model.row_of("n01"), 0).data(Qt.ItemDataRole.ForegroundRole) is None
    assert tab.model.index(row, 4).data() != ""
    tab.hide_forgotten.setChecked(True)
    assert tab.wait_idle(10_000)
    assert _ids(tab) == ["n06", "n05", "n04", "n02", "n01"]


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("deploy", ["n01", "n03"]),  # FTS phrase, ordered by importance
        ("旺财", ["n02"]),  # 2 characters: the LIKE path
        ("数据库备份", ["n05"]),
        ("a-b", ["n04"]),  # quoted as a phrase: no FTS error
        ('"', []),
        ("role:user", []),
        ("user prefers", ["n06"]),
    ],
)
def test_search_uses_the_notes_search_and_never_errors(qtbot, notes_db, make_tab, text, ids):
    tab = make_tab(notes_db)
    _search(tab, text)
    assert _ids(tab) == ids
    _no_error_dialog(tab)


def test_search_result_can_hide_forgotten(qtbot, notes_db, make_tab):
    tab = make_tab(notes_db)
    tab.hide_forgotten.setChecked(True)
    _search(tab, "deploy")
    assert _ids(tab) == ["n01"]
    assert tab.count_label.text() == "1 note found"


def test_lazy_loading(qtbot, tmp_path, qapp):
    from philont_desktop.context import AppContext
    from philont_desktop.notes.model import NotesModel, NotesQuery

    path = build_db(tmp_path / "many.sqlite", extra=30)
    ctx = AppContext.open(path, interactive=False)
    try:
        model = NotesModel(ctx.submit, ctx.theme)
        model.page_size = 10
        with qtbot.waitSignal(model.loaded, timeout=10_000):
            model.set_query(NotesQuery())
        assert model.rowCount() == 10 and model.canFetchMore(QModelIndex())
        while model.canFetchMore(QModelIndex()):
            with qtbot.waitSignal(model.loaded, timeout=10_000):
                model.fetchMore(QModelIndex())
        assert model.rowCount() == 36
        ids = [n.id for n in model.rows()]
        assert ids[:6] == ["n06", "n05", "n04", "n03", "n02", "n01"] and ids[-1] == "x029"
        # sorted by importance, paged by offset
        with qtbot.waitSignal(model.loaded, timeout=10_000):
            model.set_query(NotesQuery(order="importance"))
        while model.canFetchMore(QModelIndex()):
            with qtbot.waitSignal(model.loaded, timeout=10_000):
                model.fetchMore(QModelIndex())
        ids = [n.id for n in model.rows()]
        assert ids[:3] == ["n01", "n06", "n02"] and len(ids) == 36 and len(set(ids)) == 36
    finally:
        ctx.close()


def test_the_table_fills_its_view_lazily(qtbot, tmp_path, make_tab):
    path = build_db(tmp_path / "many.sqlite", extra=30)
    tab = make_tab(path)
    tab.model.page_size = 10
    tab.reload()
    assert tab.wait_idle(10_000)
    # the view asks for more pages until it is full (or everything is loaded)
    assert tab.model.rowCount() > 10


def test_read_only_mode_hides_editing(qtbot, notes_db, make_tab):
    tab = make_tab(notes_db)
    assert not tab.add_btn.isVisible()
    assert tab.content_edit.isReadOnly()
    assert not tab.importance_spin.isEnabled()
    assert tab.hint.text() == "Turn on editing mode to change, forget or add notes."


def test_edit_is_audited_and_undo_redo_restore_exact_values(qtbot, notes_db, make_tab, start_editing):
    tab = make_tab(notes_db)
    start_editing(tab)
    assert tab.select_note("n02")
    assert tab.content_edit.toPlainText() == "旺财的疫苗下周打"
    tab.content_edit.setPlainText("旺财的疫苗改到周五")
    tab.importance_spin.setValue(0.35)
    assert tab.save_btn.isEnabled()
    qtbot.mouseClick(tab.save_btn, Qt.MouseButton.LeftButton)
    _wait_undo(qtbot, tab)
    assert _db_note(notes_db, "n02") == ("旺财的疫苗改到周五", 0.35, None)
    entries = _audit(notes_db)
    assert [(e.action, e.target_type, e.target_id) for e in entries] == [("notes.update", "note", "n02")]
    assert entries[0].before["content"] == "旺财的疫苗下周打" and entries[0].before["importance"] == 0.7
    assert entries[0].after["content"] == "旺财的疫苗改到周五" and entries[0].after["importance"] == 0.35
    assert tab.model.row_at(tab.model.row_of("n02")).content == "旺财的疫苗改到周五"
    assert not tab.save_btn.isEnabled()
    # undo / redo through the shared stack
    assert tab.ctx.undo_stack.undoText() == "Edit note"
    tab.ctx.undo.undo()
    _wait_undo(qtbot, tab)
    assert _db_note(notes_db, "n02") == ("旺财的疫苗下周打", 0.7, None)
    qtbot.waitUntil(lambda: tab.content_edit.toPlainText() == "旺财的疫苗下周打", timeout=5000)
    tab.ctx.undo.redo()
    _wait_undo(qtbot, tab)
    assert _db_note(notes_db, "n02") == ("旺财的疫苗改到周五", 0.35, None)
    assert [e.action for e in _audit(notes_db)] == ["redo", "undo", "notes.update"]
    _no_error_dialog(tab)


def test_forget_unforget_and_add_through_the_tab(qtbot, notes_db, make_tab, start_editing):
    tab = make_tab(notes_db)
    start_editing(tab)
    tab.select_note("n01")
    assert tab.forget_btn.text() == "Forget"
    qtbot.mouseClick(tab.forget_btn, Qt.MouseButton.LeftButton)
    _wait_undo(qtbot, tab)
    assert _db_note(notes_db, "n01")[2] is not None
    qtbot.waitUntil(lambda: tab.forget_btn.text() == "Unforget", timeout=5000)
    qtbot.mouseClick(tab.forget_btn, Qt.MouseButton.LeftButton)
    _wait_undo(qtbot, tab)
    assert _db_note(notes_db, "n01")[2] is None
    tab.add_note("新的笔记 from the tab", 0.65)
    _wait_undo(qtbot, tab)
    entries = _audit(notes_db)
    assert [e.action for e in entries] == ["notes.add", "notes.unforget", "notes.forget"]
    new_id = entries[0].target_id
    assert _db_note(notes_db, new_id) == ("新的笔记 from the tab", 0.65, None)
    assert new_id in _ids(tab)
    qtbot.waitUntil(lambda: tab.content_edit.toPlainText() == "新的笔记 from the tab", timeout=5000)
    # undo the add: the note is gone again
    tab.ctx.undo.undo()
    _wait_undo(qtbot, tab)
    assert _db_note(notes_db, new_id) is None
    qtbot.waitUntil(lambda: new_id not in _ids(tab), timeout=5000)
    _no_error_dialog(tab)


def test_blank_text_is_refused_inline(qtbot, notes_db, make_tab, start_editing):
    tab = make_tab(notes_db)
    start_editing(tab)
    tab.select_note("n06")
    tab.content_edit.setPlainText("   ")
    tab.save()
    assert tab.hint.text() == "A note cannot be empty."
    assert _audit(notes_db) == []


WRITER = r"""
import sys
sys.path.insert(0, {root!r})
from core.db import MemoryDB
from core.notes import NotesStore
db = MemoryDB.open({path!r}, writable=True)
NotesStore(db).upsert("agent-1", "written by the agent", importance=0.4, created_at={t})
NotesStore(db).update("n06", content="the user prefers very short answers")
db.close()
"""


def test_live_refresh_from_a_second_writer_keeps_selection(qtbot, notes_db, make_tab):
    tab = make_tab(notes_db, live_interval_ms=100)
    tab.ctx.dataChanged.connect(tab.refresh)
    tab.select_note("n04")
    tab.ctx.start(live=True, quick_check=False)
    code = WRITER.format(root=str(ROOT), path=str(notes_db), t=T0 + 100 * MIN)
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
    qtbot.waitUntil(lambda: "agent-1" in _ids(tab), timeout=10_000)
    assert _ids(tab)[0] == "agent-1"
    assert tab.table.currentIndex().data(Qt.ItemDataRole.UserRole + 100).id == "n04"
    assert tab.content_edit.toPlainText() == "use a-b testing for the landing page"
    assert tab.model.row_at(tab.model.row_of("n06")).content == "the user prefers very short answers"
