"""The Actions tab: lazy log, filters, details, failure-rate chart, jump to the timeline, live refresh."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.actions import ActionStore
from core.db import MemoryDB
from core.engine import sqlite3
from core.timeline import RawStore
from philont_desktop.qt import QModelIndex, Qt, QTabWidget

ROOT = Path(__file__).resolve().parents[2]
T0 = 1_780_000_000_000
MIN = 60_000
TOOLS = ("shell", "readFile", "webFetch")


def _spec(i: int) -> tuple[str, bool, str | None]:
    tool = TOOLS[i % 3]
    success = not (tool == "webFetch" and i % 2 == 1) and i % 10 != 0
    skill = "deploy-web" if i % 4 == 0 else None
    return tool, success, skill


def build_db(path: Path, n: int = 60) -> Path:
    """``n`` actions one minute apart (ids 1..n) and a message every minute around them."""
    db = MemoryDB.create(path, now=T0)
    try:
        store = ActionStore(db)
        for i in range(n):
            tool, success, skill = _spec(i)
            store.append(
                "global",
                tool,
                {"step": i, "文本": "参数"},
                result=f"result {i}",
                success=success,
                timestamp=T0 + i * MIN,
                trigger="autonomous" if i % 2 else None,
                linked_skill=skill,
            )
        RawStore(db).append_many(
            [("global", "user", f"message at minute {i}", T0 + i * MIN + 1) for i in range(-5, n + 5)]
        )
    finally:
        db.close()
    # one row whose params are not valid JSON (written by hand, as an old file might hold)
    conn = sqlite3.connect(str(path))
    conn.execute(
        "INSERT INTO memory_actions (session_id, tool_name, params_json, result, success, timestamp) "
        "VALUES ('global', 'shell', '{not json', NULL, 0, ?)",
        (T0 + n * MIN,),
    )
    conn.commit()
    conn.close()
    return path


@pytest.fixture
def actions_db(tmp_path) -> Path:
    return build_db(tmp_path / "memory" / "memory.sqlite")


@pytest.fixture
def make_ctx(open_context):
    return open_context


@pytest.fixture
def make_tab(open_tab):
    from philont_desktop.actions.view import ActionsTab

    def make(path: Path, **kw):
        return open_tab(ActionsTab, path, size=(1300, 800), **kw)

    return make


def _ids(model) -> list[int]:
    return [a.id for a in model.rows()]


def _expected(pred) -> list[int]:
    return [i + 1 for i in range(59, -1, -1) if pred(i)]


def test_model_pages_newest_first_and_passes_modeltester(qtbot, qtmodeltester, actions_db, make_ctx):
    from philont_desktop.actions.model import ActionsFilter, ActionsModel

    ctx = make_ctx(actions_db)
    model = ActionsModel(ctx.submit, ctx.theme)
    model.page_size = 25
    with qtbot.waitSignal(model.loaded, timeout=10_000):
        model.set_filter(ActionsFilter())
    assert _ids(model) == [61, *range(60, 36, -1)]
    assert model.canFetchMore(QModelIndex())
    qtmodeltester.check(model)  # (the tester itself asks for one more page)
    qtbot.waitUntil(lambda: not model.loading, timeout=10_000)
    while model.canFetchMore(QModelIndex()):
        with qtbot.waitSignal(model.loaded, timeout=10_000):
            model.fetchMore(QModelIndex())
    assert _ids(model) == [61, *range(60, 0, -1)]
    from philont_desktop.widgets.text import format_local

    row = [model.index(3, c).data() for c in range(6)]  # id 58: i = 57
    assert row == [
        format_local(T0 + 57 * MIN),
        "shell",
        "\u2713 success",
        "",
        '{"step":57,"文本":"参数"}',
        "result 57",
    ]
    assert [model.index(1, c).data() for c in (1, 2)] == ["webFetch", "\u2717 failure"]
    assert model.index(3, 2).data(Qt.ItemDataRole.ForegroundRole) == ctx.theme.status_color("live")
    assert model.index(1, 2).data(Qt.ItemDataRole.ForegroundRole) == ctx.theme.status_color("error")
    assert model.index(4, 3).data() == "deploy-web"  # id 57: i = 56


def test_filters_by_tool_outcome_and_skill(qtbot, actions_db, make_tab):
    tab = make_tab(actions_db)
    tab.filter_tool("webFetch")
    assert tab.wait_idle(10_000)
    assert _ids(tab.model) == _expected(lambda i: _spec(i)[0] == "webFetch")
    tab.filter_outcome(False)
    assert tab.wait_idle(10_000)
    assert _ids(tab.model) == _expected(lambda i: _spec(i)[0] == "webFetch" and not _spec(i)[1])
    tab.filter_tool(None)
    tab.filter_skill("deploy-web")
    assert tab.wait_idle(10_000)
    assert _ids(tab.model) == _expected(lambda i: not _spec(i)[1] and _spec(i)[2] == "deploy-web")
    assert {a.linked_skill for a in tab.model.rows()} == {"deploy-web"}
    tab.filter_outcome(None)
    tab.filter_skill(None)
    assert tab.wait_idle(10_000)
    assert tab.model.rowCount() == 61
    assert tab.count_label.text() == "61 actions"


def test_detail_pane_pretty_json_and_invalid_json(qtbot, actions_db, make_tab):
    tab = make_tab(actions_db)
    tab.table.setCurrentIndex(tab.model.index(tab.model.row_of(5), 0))
    assert tab.params_view.toPlainText() == "step: 4\n文本: 参数"  # the readable form
    assert tab.result_view.toPlainText() == "result 4" and not tab.result_view.raw.isEnabled()
    tab.params_view.raw.click()  # the stored text, one click away
    stored = tab.model.row_at(tab.model.row_of(5)).params_json
    assert '"step"' in stored and tab.params_view.toPlainText() == stored
    tab.params_view.raw.click()
    assert "<b>readFile</b>" in tab.header.text() and "Linked skill: deploy-web" in tab.header.text()
    tab.table.setCurrentIndex(tab.model.index(tab.model.row_of(61), 0))
    assert tab.params_view.toPlainText() == "{not json"
    assert "not valid JSON" in tab.header.text()
    assert tab.result_view.toPlainText() == "(no result recorded)"


def test_a_json_result_reads_as_its_structure_with_the_stored_text_one_click_away(qtbot, tmp_path, make_tab):
    path = tmp_path / "json.sqlite"
    db = MemoryDB.create(path, now=T0)
    stored = json.dumps({"success": True, "output": 'line "one"\nline two', "at": "2026-06-15T02:00:00Z"})
    ActionStore(db).append("global", "shell", {"command": "ls"}, result=stored, timestamp=T0)
    db.close()
    tab = make_tab(path)
    shown = tab.result_view.toPlainText()
    assert shown.startswith('success: true\noutput:\n  line "one"\n  line two\nat: 2026-06-15 ')
    assert "\\n" not in shown and '\\"' not in shown and "T02:00:00Z" not in shown
    raw = tab.result_view.raw
    assert raw.isEnabled() and raw.accessibleName() and raw.focusPolicy() & Qt.FocusPolicy.TabFocus
    raw.click()
    assert tab.result_view.toPlainText() == stored
    raw.click()
    assert tab.result_view.toPlainText() == shown
    from philont_desktop.actions.view import COL_RESULT

    tip = tab.model.index(0, COL_RESULT).data(Qt.ItemDataRole.ToolTipRole)  # hover: the same form, as text
    assert "success: true<br>output:" in tip and "\\n" not in tip


def test_failure_rate_chart(qtbot, actions_db, make_tab):
    tab = make_tab(actions_db)
    stats = {s.tool: (s.total, s.failures) for s in tab.chart.stats}
    shell = [i for i in range(60) if _spec(i)[0] == "shell"]
    web = [i for i in range(60) if _spec(i)[0] == "webFetch"]
    assert stats["shell"] == (len(shell) + 1, sum(1 for i in shell if not _spec(i)[1]) + 1)
    assert stats["webFetch"] == (len(web), sum(1 for i in web if not _spec(i)[1]))
    assert tab.chart.plot.getAxis("left")._tickLevels[0][0][1] == tab.chart.stats[0].tool
    img = tab.chart.plot.grab().toImage()
    assert not img.isNull() and img.width() > 10
    # a click on a bar filters the log by that tool
    tab.chart.toolClicked.emit("readFile")
    assert tab.wait_idle(10_000)
    assert {a.tool_name for a in tab.model.rows()} == {"readFile"}


def test_jump_to_the_messages_around_an_action(qtbot, actions_db, make_ctx):
    from philont_desktop.actions.view import ActionsTab
    from philont_desktop.tabs.navigation import Navigator
    from philont_desktop.timeline.view import TimelineTab

    ctx = make_ctx(actions_db)
    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    timeline = TimelineTab(ctx)
    actions = ActionsTab(ctx)
    tabs.addTab(timeline, timeline.title())
    tabs.addTab(actions, actions.title())
    by_name = {"timeline": timeline, "actions": actions}

    def show_tab(name):  # what the window's navigator does
        tabs.setCurrentWidget(by_name[name])
        return by_name[name]

    ctx.navigator = Navigator(show_tab)
    tabs.resize(1300, 800)
    tabs.show()
    tabs.setCurrentWidget(actions)
    actions.ensure_activated()
    assert actions.wait_idle(10_000)
    actions.table.setCurrentIndex(actions.model.index(actions.model.row_of(31), 0))  # minute 30
    assert actions.show_in_timeline()
    assert tabs.currentWidget() is timeline
    assert timeline.wait_idle(10_000)
    qtbot.waitUntil(lambda: timeline.conversation.currentIndex().isValid(), timeout=5000)
    m = timeline.conversation.currentIndex().data(Qt.ItemDataRole.UserRole + 1)
    # the newest message at or before the action's time: "minute 29" (messages are 1 ms after)
    assert m.content == "message at minute 29"
    contents = [x.content for x in timeline.messages.messages()]
    assert "message at minute 30" in contents and "message at minute 0" in contents


WRITER = r"""
import sys
sys.path.insert(0, {root!r})
from core.db import MemoryDB
from core.actions import ActionStore
db = MemoryDB.open({path!r}, writable=True)
for k in range(3):
    ActionStore(db).append("global", "shell", {{"live": k}}, result="ok", timestamp={t} + k)
db.close()
"""


def test_live_refresh_inserts_on_top_and_keeps_selection_and_position(qtbot, actions_db, make_tab):
    tab = make_tab(actions_db, live_interval_ms=100)
    tab.ctx.dataChanged.connect(tab.refresh)
    view = tab.table
    tab.table.resize(900, 300)
    row = tab.model.row_of(20)
    view.setCurrentIndex(tab.model.index(row, 0))
    view.scrollTo(tab.model.index(row, 0))
    sb = view.verticalScrollBar()
    qtbot.waitUntil(lambda: sb.value() > 0, timeout=5000)
    top_before = view.rowAt(0)
    top_id = tab.model.row_at(top_before).id
    tab.ctx.start(live=True, quick_check=False)
    code = WRITER.format(root=str(ROOT), path=str(actions_db), t=T0 + 100 * MIN)
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
    qtbot.waitUntil(lambda: tab.model.rowCount() == 64, timeout=10_000)
    assert _ids(tab.model)[:3] == [64, 63, 62]
    assert view.currentIndex().data(Qt.ItemDataRole.UserRole + 100).id == 20
    assert tab.model.row_at(view.rowAt(0)).id == top_id
    assert tab.params_view.toPlainText() == "step: 19\n文本: 参数"


def test_huge_result_is_shown_in_part_and_whole_on_demand(qtbot, tmp_path, make_tab):
    from philont_desktop.actions.view import SHOWN_CHARS
    from philont_desktop.widgets.fulltext import FullTextDialog

    path = tmp_path / "huge.sqlite"
    db = MemoryDB.create(path, now=T0)
    huge = "x" * 3_000_000  # 3 MB in one line
    ActionStore(db).append("global", "readFile", {"path": "big.log"}, result=huge, timestamp=T0)
    db.close()
    tab = make_tab(path)
    assert tab.model.rowCount() == 1
    shown = tab.result_view.toPlainText().split("\n")
    # the first 200,000 characters in lines of 1,000 (one unbroken line would take seconds to lay out)
    assert shown[: SHOWN_CHARS // 1000] == ["x" * 1000] * (SHOWN_CHARS // 1000)
    assert shown[SHOWN_CHARS // 1000 :] == [
        "[… 2,800,000 more characters: double-click to see the whole text]",
        "[long lines are broken for display: double-click to see the text as it is]",
    ]
    assert tab.model.index(0, 5).data() == "x" * 159 + "…"
    tab.open_full_text(tab.result_view)
    dialogs = [w for w in tab.findChildren(FullTextDialog)]
    assert len(dialogs) == 1 and dialogs[0].page_count == 15


def test_the_log_keeps_its_size_when_the_chart_appears(qtbot, actions_db, make_ctx):
    """The chart's place takes its height when the failure rates arrive: the chart's first turns do
    not resize (and repaint) the log."""
    from philont_desktop.actions.chart import FailureRateChart
    from philont_desktop.actions.view import ActionsTab

    tab = ActionsTab(make_ctx(actions_db))
    qtbot.addWidget(tab)
    tab.resize(1300, 420)  # the chart needs more than its share of the splitter
    tab.show()
    tab.ensure_activated()
    qtbot.waitUntil(lambda: bool(tab.state.stats) and tab.model.rowCount() > 0, timeout=20_000)
    qtbot.wait(1)  # the layout the rates asked for, applied
    before = tab.table.geometry()
    charts = lambda: [c for c in tab.findChildren(FailureRateChart) if c.isVisible()]  # noqa: E731
    qtbot.waitUntil(lambda: bool(charts()), timeout=20_000)  # made and shown by the tab itself
    chart = charts()[0]
    qtbot.wait(20)
    assert tab.table.geometry() == before
    assert chart.height() >= chart.minimumHeight() == chart.preferred_height()
    assert tab.chart_box.minimumHeight() == chart.preferred_height()


def test_when_the_rates_arrive_the_log_is_painted_once_at_its_new_size_and_the_bars_come_a_turn_later(
    qtbot, actions_db, make_ctx
):
    from philont_desktop.actions.view import ActionsTab
    from philont_desktop.qt import QEvent, QObject

    tab = ActionsTab(make_ctx(actions_db))
    qtbot.addWidget(tab)
    tab.resize(1300, 420)  # the chart needs more than its share of the splitter
    tab.show()
    tab.ensure_activated()
    assert tab.wait_idle(20_000)
    tab.chart  # noqa: B018 - made and shown
    qtbot.wait(20)

    class Paints(QObject):
        heights: list[int] = []

        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint:
                self.heights.append(obj.height())
            return False

    paints = Paints()
    tab.table.viewport().installEventFilter(paints)
    qtbot.wait(20)
    before = tab.table.viewport().height()
    paints.heights.clear()
    shown_bars = tab.chart.stats
    more = shown_bars + [shown_bars[0].model_copy(update={"tool": f"tool-{i}"}) for i in range(12)]
    tab.state.update(stats=tuple(more))  # the rates arrive: more tools, a taller chart
    assert tab.chart.stats == shown_bars  # the bars wait for the next turn
    final = tab.table.viewport().height()
    assert final < before  # the chart's place took its height from the log at once
    qtbot.waitUntil(lambda: tab.chart.stats == more, timeout=2000)
    qtbot.wait(20)
    assert paints.heights and set(paints.heights) == {final}
