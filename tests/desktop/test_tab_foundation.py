"""The pieces every tab is built from: Qt-free state, read ops, the paged rows model, the table helper,
the controller's view of curation changes."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from core.audit import AuditEntry
from core.curation import Changes
from philont_desktop.ops import ReadOp, read_op
from philont_desktop.qt import (
    QColor,
    QFont,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTableView,
)
from philont_desktop.tabs.state import Callbacks, TabState
from philont_desktop.widgets.rows_model import Page, PagedRowsModel, RowRole
from philont_desktop.widgets.table import prepend_keeper, setup_table
from tests.support import multi_data

# -- state ---------------------------------------------------------------------------------------------


@dataclass(eq=False)
class _State(TabState):
    text: str = ""
    page: int = 1


def test_state_announces_each_update_once_with_the_names_that_changed():
    state, seen = _State(), []
    state.changed.connect(seen.append)
    assert state.update(text="deploy", page=1) == {"text"}
    assert state.update(text="deploy") == frozenset()
    state.update(text="", page=2, selected="n1")
    assert seen == [{"text"}, {"text", "page", "selected"}]
    assert (state.text, state.page, state.selected) == ("", 2, "n1")
    with pytest.raises(AttributeError, match="nope"):
        state.update(nope=1)
    assert _State.field_names() == {"selected", "loading", "loaded", "complete", "text", "page"}


def test_callbacks_run_in_order_and_can_be_disconnected():
    cb, out = Callbacks(), []
    first = cb.connect(lambda x: out.append(("a", x)))
    cb.connect(lambda x: out.append(("b", x)))
    cb.emit(1)
    cb.disconnect(first)
    cb.emit(2)
    assert out == [("a", 1), ("b", 1), ("b", 2)] and len(cb) == 1


def test_a_read_op_is_checked_when_declared_and_keyed_under_a_tab():
    op = read_op(len, "abc", key="page", label="Loading")
    assert op == ReadOp(len, ("abc",), key="page", label="Loading")
    assert op.keyed("notes").key == "notes:page" and ReadOp(len).keyed("notes").key is None
    with pytest.raises(ValueError, match="write"):
        ReadOp(len, lane="write")
    with pytest.raises(TypeError):
        ReadOp("len")


# -- the paged rows model ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    id: int


class Numbers(PagedRowsModel):
    """Rows 0..99 in ascending order, opened around ``start``; live rows are negative numbers."""

    def __init__(self, submit, start=0, page_size=10, max_rows=None, live=False):
        super().__init__(submit, "numbers", page_size, max_rows=max_rows)
        self.start, self.live = start, live
        self.newest = 0

    def headers(self):
        return ["n"]

    def display(self, row, column):
        return str(row.id)

    def page_op(self, after, limit):
        first = self.start if after is None else after.id + 1
        return ReadOp(_rows, (first, min(first + limit, 100), "end"))

    def start_op(self, before, limit):
        return ReadOp(_rows, (max(0, before.id - limit), before.id, "start"))

    def unpack(self, result, limit):
        rows, first, end, direction = result
        exhausted = first == 0 if direction == "start" else end >= 100
        return Page(rows, exhausted=exhausted, more_before=first > 0)

    def live_op(self, first):
        return ReadOp(_live, (first.id, self.newest)) if self.live else None


def _rows(first, end, direction):
    return [Row(i) for i in range(first, end)], first, end, direction


def _live(first_id, newest):
    return [Row(-i) for i in range(newest, 0, -1) if -i < first_id]


class FakeSubmit:
    """Runs ops at once (or keeps them until ``release()`` when ``hold``), like a controller's submit."""

    def __init__(self, hold=False):
        self.hold, self.held, self.keys = hold, [], []

    def __call__(self, op, *, on_result=None, on_error=None):
        self.keys.append(op.key)
        call = (op, on_result, on_error)
        if self.hold:
            self.held.append(call)
        else:
            self._run(call)

    def release(self):
        held, self.held = self.held, []
        for call in held:
            self._run(call)

    @staticmethod
    def _run(call):
        op, on_result, on_error = call
        try:
            result = op.fn(*op.args)
        except Exception as exc:
            on_error(exc)
        else:
            on_result(result)


def _ids(model):
    return [r.id for r in model.rows()]


def test_a_two_way_model_opens_in_the_middle_and_grows_a_capped_window(qapp, qtmodeltester):
    model = Numbers(FakeSubmit(), start=50, page_size=10, max_rows=25)
    model.load_first_page()
    assert _ids(model) == list(range(50, 60))
    assert not model.complete and not model.complete_at_start and model.canFetchMore(QModelIndex())
    assert model.fetch_start() and _ids(model) == list(range(40, 60))
    model.fetchMore(QModelIndex())  # 60..69 at the end: the window keeps the newest 25
    assert _ids(model) == list(range(45, 70)) and not model.complete_at_start
    model.fetch_start()  # 35..44 at the start: rows at the end go
    assert _ids(model) == list(range(35, 60)) and not model.complete
    while model.fetch_start():
        pass
    assert _ids(model)[0] == 0 and model.complete_at_start
    qtmodeltester.check(model)


def test_row_of_finds_every_loaded_row_as_the_window_grows_and_drops_at_both_ends(qapp):
    model = Numbers(FakeSubmit(), start=50, page_size=10, max_rows=25)
    model.load_first_page()

    def check():
        ids = _ids(model)
        assert [model.row_of(i) for i in ids] == list(range(len(ids)))
        assert all(model.row_of(i) == -1 for i in range(100) if i not in ids)

    check()
    for step in ("start", "start", "end", "end", "end", "start", "start", "start", "end"):
        if step == "start":
            assert model.fetch_start()
        else:
            model.fetchMore(QModelIndex())
        check()
    dropped = _ids(model)[-1] + 1  # dropped at the end a moment ago: it comes back, once
    assert model.append_rows([Row(dropped), Row(dropped), Row(_ids(model)[0])]) == 1
    assert _ids(model).count(dropped) == 1 and model.row_of(dropped) == len(_ids(model)) - 1
    model.drop_first(3)
    model.drop_last(2)
    check()


def test_an_answer_to_a_superseded_request_is_dropped(qapp):
    submit = FakeSubmit(hold=True)
    model = Numbers(submit, start=0)
    model.load_first_page()
    model.start = 70  # a new filter, asked before the old page came back
    model.load_first_page()
    submit.release()
    assert _ids(model) == list(range(70, 80)) and not model.loading
    assert submit.keys[0] == submit.keys[1] and submit.keys[0].endswith(".first")  # the newer op cancels


def test_refresh_puts_live_rows_on_top_or_reloads_keeping_the_selection(qapp):
    live = Numbers(FakeSubmit(), live=True)
    live.load_first_page()
    prepended = []
    live.rowsPrepended.connect(prepended.append)
    live.newest = 3
    live.refresh()
    assert _ids(live)[:4] == [-3, -2, -1, 0] and prepended == [3]

    model = Numbers(FakeSubmit())
    model.load_first_page()
    model.fetchMore(QModelIndex())
    kept = QPersistentModelIndex(model.index(model.row_of(15), 0))
    model.start = 5  # the rows before 5 went away in the database
    model.refresh()  # reloads every loaded row in one op
    assert _ids(model) == list(range(5, 25)) and kept.row() == model.row_of(15) == 10


class Indexed(Numbers):
    """The job gives where each row's key is along with the rows (as the conversations' jobs do);
    ``key()`` counts its calls, made on the GUI thread."""

    calls = 0
    bad_index = False

    def key(self, row):
        self.calls += 1
        return row.id

    def unpack(self, result, limit):
        page = super().unpack(result, limit)
        page.index = {r.id: i for i, r in enumerate(page.rows)}
        if self.bad_index:
            page.index = dict(list(page.index.items())[1:])  # not one entry per row: ignored
        return page


def test_an_index_made_with_the_rows_spares_a_key_call_per_row_and_keeps_the_selection(qapp):
    model = Indexed(FakeSubmit(), page_size=20)
    model.load_first_page()
    assert [model.row_of(i) for i in range(20)] == list(range(20)) and model.row_of(20) == -1
    kept = QPersistentModelIndex(model.index(model.row_of(15), 0))
    model.refresh()  # same rows: only their data changed
    model.start = 5  # the rows before 5 went away in the database
    model.refresh()
    assert _ids(model) == list(range(5, 25)) and kept.row() == model.row_of(15) == 10
    assert model.calls == 0
    assert [model.row_of(i) for i in range(5, 25)] == list(range(20))
    model.prepend_rows([Row(-1)])  # a row on top: the index no longer lists the keys in row order
    model.start = 10
    model.refresh()  # 21 rows loaded: 21 reloaded
    assert _ids(model) == list(range(10, 31)) and kept.row() == model.row_of(15) == 5
    model.bad_index = True
    model.start = 0
    model.refresh()
    assert _ids(model) == list(range(21)) and kept.row() == model.row_of(15) == 15
    assert [model.row_of(i) for i in range(21)] == list(range(21))


class Appended(Numbers):
    """Oldest on top: live rows (100, 101, ...) arrive below the last one."""

    live_at = "end"

    def live_op(self, last):
        return ReadOp(_rows, (last.id + 1, self.newest, "end"))

    def merge_live(self, result):
        return super().merge_live(result[0])


def test_live_rows_of_a_model_oldest_on_top_arrive_at_the_end_and_keep_the_window(qapp):
    model = Appended(FakeSubmit(), start=90, page_size=10, max_rows=15)
    model.load_first_page()
    assert model.complete and not model.complete_at_start
    model.newest = 108
    model.refresh()
    assert _ids(model) == list(range(93, 108)) and not model.complete_at_start
    assert model.fetch_start() and _ids(model)[0] == 83 and not model.complete  # the end went again


class Prepared(Numbers):
    """Holds every answer until ``ready()``, as a model that prepares its rows' display first."""

    def __init__(self, submit, **kw):
        super().__init__(submit, **kw)
        self.waiting = []

    def before_apply(self, kind, result, apply):
        self.waiting.append((kind, apply))

    def ready(self):
        waiting, self.waiting = self.waiting, []
        for _kind, apply in waiting:
            apply()


def test_an_answer_prepared_before_it_goes_in_stays_in_flight_until_then(qapp):
    model = Prepared(FakeSubmit(), start=50)
    loaded = []
    model.loaded.connect(lambda: loaded.append(model.rowCount()))
    model.load_first_page()
    assert model.rowCount() == 0 and model.loading and [k for k, _ in model.waiting] == ["first"]
    model.ready()
    assert _ids(model) == list(range(50, 60)) and not model.loading and loaded == [10]
    assert model.fetch_start() and not model.fetch_start()  # no second request while one is prepared
    model.load_first_page()  # a new first page supersedes the prepared older page: it never goes in
    model.ready()
    assert _ids(model) == list(range(50, 60)) and not model.loading


class Styled(Numbers):
    """Numbers with a colour, a font and an alignment per cell, as the tables of the tabs have."""

    def headers(self):
        return ["n", "half"]

    def display(self, row, column):
        return str(row.id if column == 0 else row.id / 2)

    def foreground(self, row, column):
        return QColor("#cf222e") if row.id % 2 else None

    def font(self, row, column):
        if column == 1:
            f = QFont()
            f.setItalic(True)
            return f
        return None

    def alignment(self, column):
        return Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter if column == 1 else None


PAINT_ROLES = (
    Qt.ItemDataRole.DisplayRole,
    Qt.ItemDataRole.DecorationRole,
    Qt.ItemDataRole.FontRole,
    Qt.ItemDataRole.TextAlignmentRole,
    Qt.ItemDataRole.ForegroundRole,
    Qt.ItemDataRole.BackgroundRole,
    Qt.ItemDataRole.CheckStateRole,
    Qt.ItemDataRole.ToolTipRole,
    RowRole,
)


def test_a_cell_answers_a_painting_delegate_in_one_call_what_data_answers(qapp):
    model = Styled(FakeSubmit())
    model.load_first_page()
    for r in range(2):
        for c in range(2):
            idx = model.index(r, c)
            for role in PAINT_ROLES:
                assert multi_data(model, idx, role) == idx.data(role), (r, c, role)
    assert multi_data(model, model.index(1, 1), Qt.ItemDataRole.TextAlignmentRole) is not None
    assert multi_data(model, model.index(1, 0), Qt.ItemDataRole.ForegroundRole) == QColor("#cf222e")
    assert multi_data(model, QModelIndex(), Qt.ItemDataRole.DisplayRole) is None


# -- the table helper -------------------------------------------------------------------------------------


def test_setup_table_sets_a_view_up_and_keeps_rows_in_view_when_rows_come_on_top(qtbot):
    model = Numbers(FakeSubmit(), live=True, page_size=200)
    model.load_first_page()
    view = setup_table(QTableView(), model, name="numbers", widths={0: "2026-12-31"}, keep_position=True)
    qtbot.addWidget(view)
    view.resize(300, 200)
    view.show()
    assert view.objectName() == "numbers" and not view.verticalHeader().isVisible()
    assert view.selectionBehavior() == view.SelectionBehavior.SelectRows
    assert view.columnWidth(0) == view.fontMetrics().horizontalAdvance("2026-12-31") + 16
    view.scrollTo(model.index(50, 0), view.ScrollHint.PositionAtTop)
    top = view.indexAt(view.viewport().rect().topLeft()).data()
    keeper = prepend_keeper(view)
    model.newest = 5
    model.refresh()
    assert view.indexAt(view.viewport().rect().topLeft()).data() == top
    assert keeper.pending == 5
    model.load_first_page()
    assert keeper.pending == 0


# -- the controller hears curation ------------------------------------------------------------------------


def test_a_controller_hears_the_changes_of_its_layers_once_its_tab_is_shown(qapp, tmp_path):
    from core.db import MemoryDB
    from philont_desktop.context import AppContext
    from philont_desktop.tabs.controller import TabController

    path = tmp_path / "memory.sqlite"
    MemoryDB.create(path).close()
    ctx = AppContext.open(path, interactive=False)
    try:
        heard = []

        class Notes(TabController):
            layers = ("notes",)

            def changes_applied(self, changes):
                heard.append(changes.ids)

        controller = Notes(ctx, TabState(), "notes")
        entry = AuditEntry(
            id=1,
            at=0,
            actor="a",
            action="notes.update",
            target_type="note",
            target_id="n1",
            before={"id": "n1"},
            after={"id": "n1"},
        )
        ctx.changed.emit(Changes.of(entry))
        assert heard == []  # not shown yet: it loads everything when it is
        controller.active = True
        ctx.changed.emit(Changes.of(entry))
        ctx.changed.emit(Changes.of(entry.model_copy(update={"action": "facts.pin"})))
        assert heard == [{"n1"}]
    finally:
        ctx.close()


# -- tabs do not import each other ------------------------------------------------------------------------


def test_no_tab_imports_another_tab():
    import ast
    from pathlib import Path

    from philont_desktop.tabs import registry
    from tests.test_layers import TAB_IMPORTS_ALLOWED  # the one exception, with its reason

    package = Path(__file__).resolve().parents[2] / "philont_desktop"
    folders = {e.module.split(".")[1] for e in registry()}
    found = []
    for folder in sorted(folders):
        for path in (package / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = []
                if isinstance(node, ast.ImportFrom) and node.module:
                    names = [node.module]
                elif isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                for name in names:
                    parts = name.split(".")
                    other_tab = (
                        len(parts) > 1 and parts[0] == "philont_desktop" and parts[1] in folders - {folder}
                    )
                    if other_tab and (folder, name) not in TAB_IMPORTS_ALLOWED:
                        found.append(f"{path.relative_to(package)}: {name}")
    assert folders >= {"timeline", "actions", "notes", "audit"}
    assert found == [], "tabs ask ctx.navigator instead of importing each other"
