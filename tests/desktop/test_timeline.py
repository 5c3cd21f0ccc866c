"""The Timeline tab: lazy conversation model (both directions), conversations, search, chart range, live refresh."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from core.db import MemoryDB
from core.timeline import RawStore
from philont_desktop.qt import QApplication, QMessageBox, QModelIndex, Qt
from philont_desktop.selftest import check_tab

ROOT = Path(__file__).resolve().parents[2]
T0 = 1_780_000_000_000  # 2026-05-28T20:26:40Z
MIN = 60_000
ROLES = ("user", "assistant", "tool", "system")


def _content(i: int) -> str:
    parts = [f"message {i}"]
    if i % 10 == 0:
        parts.append("deploy the gateway")
    if i % 7 == 0:
        parts.append("部署流水线")
    if i == 5:
        parts.append("try a-b testing")
    return " ".join(parts)


def build_db(path: Path, n: int = 300) -> Path:
    """``n`` messages one minute apart, alternating between sessions ``global`` and ``s2``."""
    db = MemoryDB.create(path, now=T0)
    try:
        raw = RawStore(db)
        raw.start_session("s2", started_at=T0 - MIN, exist_ok=True)
        rows = [("global" if i % 2 == 0 else "s2", ROLES[i % 4], _content(i), T0 + i * MIN) for i in range(n)]
        raw.append_many(rows, create_sessions=True)
    finally:
        db.close()
    return path


@pytest.fixture(autouse=True)
def english(qapp):
    """The application's translator, as the app installs it: English plurals ("1 hit", "2 hits")."""
    from philont_desktop import i18n

    i18n.install("en")
    yield
    i18n.uninstall()


@pytest.fixture
def small_db(tmp_path) -> Path:
    return build_db(tmp_path / "memory" / "memory.sqlite")


@pytest.fixture
def ctx_factory(open_context):
    return open_context


@pytest.fixture
def tab_factory(open_tab):
    from philont_desktop.timeline.view import TimelineTab

    def make(path: Path, **kw):
        return open_tab(TimelineTab, path, size=(1200, 800), idle_ms=15_000, **kw)

    return make


def _ids(model) -> list[int]:
    return [m.id for m in model.messages()]


def _wait_model(qtbot, model) -> None:
    qtbot.waitUntil(lambda: not model.loading, timeout=10_000)


# -- the conversation model ------------------------------------------------------------------------------


def test_messages_model_opens_at_newest_page_and_passes_modeltester(
    qtbot, qtmodeltester, small_db, ctx_factory
):
    from philont_desktop.timeline.model import MessagesModel
    from philont_desktop.timeline.state import TimelineFilter

    ctx = ctx_factory(small_db)
    model = MessagesModel(ctx.submit, page_size=50, max_rows=120)
    model.set_filter(TimelineFilter())
    _wait_model(qtbot, model)
    # the newest page, oldest at the top: ids 251..300 (rowid = i + 1)
    assert _ids(model) == list(range(251, 301))
    assert model.has_older and not model.has_newer
    assert not model.canFetchMore(QModelIndex())
    assert model.index(0, 0).data(Qt.ItemDataRole.DisplayRole) == "tool: message 250 deploy the gateway"
    qtmodeltester.check(model)


def test_messages_model_fetches_pages_in_both_directions(qtbot, small_db, ctx_factory):
    from philont_desktop.timeline.model import MessagesModel
    from philont_desktop.timeline.state import TimelineFilter

    ctx = ctx_factory(small_db)
    model = MessagesModel(ctx.submit, page_size=50, max_rows=120)
    model.set_filter(TimelineFilter())
    _wait_model(qtbot, model)
    assert model.fetch_older()
    _wait_model(qtbot, model)
    assert _ids(model) == list(range(201, 301))
    assert model.fetch_older()
    _wait_model(qtbot, model)
    # 150 rows > max 120: the newest 30 were dropped and can be fetched again
    assert _ids(model) == list(range(151, 271))
    assert model.has_newer and model.canFetchMore(QModelIndex())
    model.fetchMore(QModelIndex())
    _wait_model(qtbot, model)
    assert _ids(model) == list(range(181, 301))
    assert not model.has_newer and model.has_older
    # walk to the oldest end
    while model.has_older:
        assert model.fetch_older()
        _wait_model(qtbot, model)
    assert _ids(model)[0] == 1
    assert _ids(model) == list(range(1, 121))


def test_messages_model_conversation_and_range_filter(qtbot, small_db, ctx_factory):
    from philont_desktop.timeline.model import MessagesModel
    from philont_desktop.timeline.state import TimelineFilter

    ctx = ctx_factory(small_db)
    model = MessagesModel(ctx.submit, page_size=40)
    model.set_filter(TimelineFilter(conversation="s2", since=T0 + 100 * MIN, until=T0 + 150 * MIN))
    _wait_model(qtbot, model)
    # odd i in [100, 150]: 101, 103, ..., 149 -> ids i + 1
    assert _ids(model) == [i + 1 for i in range(101, 150, 2)]
    assert not model.has_older and not model.has_newer


def test_show_message_loads_the_page_around_it(qtbot, small_db, ctx_factory):
    from philont_desktop.timeline.model import MessagesModel
    from philont_desktop.timeline.state import TimelineFilter

    ctx = ctx_factory(small_db)
    model = MessagesModel(ctx.submit, page_size=20)
    model.set_filter(TimelineFilter())
    _wait_model(qtbot, model)
    with qtbot.waitSignal(model.anchorReady, timeout=10_000) as sig:
        model.show_message(100)
    row = sig.args[0]
    assert model.message_at(row).id == 100
    assert _ids(model) == list(range(90, 111))
    assert model.has_older and model.has_newer


def test_conversation_list_is_the_one_conversation_filter(qtbot, small_db, tab_factory):
    tab = tab_factory(small_db)
    model = tab.conversations
    texts = [[model.index(r, c).data() for c in range(2)] for r in range(model.rowCount())]
    # "All conversations" first, then the older session s2 and the messages of unknown origin
    assert texts[0] == ["All conversations", "300"]
    assert sorted(texts[1:]) == [["Session · s2", "150"], ["Unknown origin", "150"]]
    assert tab.conversation_list.caption.text() == "2 conversations, the most recent first"
    # choosing a row filters the conversation view (and says so above it)
    tab.conversations_view.setCurrentIndex(model.index(model.row_of("s2"), 0))
    assert tab.wait_idle(10_000)
    _wait_model(qtbot, tab.messages)
    assert tab.state.conversation == "s2"
    assert {m.session_id for m in tab.messages.messages()} == {"s2"}
    assert tab.status_label.text().startswith("Session · s2  ·  150 messages")
    # a jump into the other conversation moves the list's choice with it
    tab.show_message(1)
    assert tab.wait_idle(10_000)
    assert tab.state.conversation == "global"
    assert tab.conversation_list.current_id() == "global"


def test_long_messages_are_previewed_not_laid_out_whole(qtbot, tmp_path, ctx_factory):
    from philont_desktop.timeline.conversation import ConversationView
    from philont_desktop.timeline.model import MessagesModel
    from philont_desktop.timeline.state import TimelineFilter
    from philont_desktop.timeline.textutil import COLLAPSED_CHARS, EXPANDED_CHARS
    from philont_desktop.widgets.fulltext import FullTextDialog

    path = tmp_path / "big.sqlite"
    db = MemoryDB.create(path, now=T0)
    huge = ("0123456789" * 99 + "\n") * 10_000  # 10 MB
    RawStore(db).append_message("global", "tool", huge, timestamp=T0)
    RawStore(db).append_message("global", "user", "short", timestamp=T0 + 1)
    db.close()
    ctx = ctx_factory(path)
    model = MessagesModel(ctx.submit)
    view = ConversationView(model, ctx.theme)
    qtbot.addWidget(view)
    view.resize(700, 500)
    view.show()
    model.set_filter(TimelineFilter())
    _wait_model(qtbot, model)
    assert model.rowCount() == 2
    card = view.delegate.card(model.index(0, 0))
    assert card.truncated and len(card.layout.text()) <= COLLAPSED_CHARS + 2
    assert card.footer.startswith("Show more")
    model.toggle_expanded(0)
    card = view.delegate.card(model.index(0, 0))
    assert card.expanded and len(card.layout.text()) <= EXPANDED_CHARS
    assert "double-click for the full text" in card.footer
    dlg = FullTextDialog("m", huge)
    qtbot.addWidget(dlg)
    assert dlg.page_count == 50
    assert len(dlg.edit.toPlainText()) <= 200_000
    dlg.show_page(49)
    assert dlg.edit.toPlainText().endswith("0123456789\n")


def test_a_10_mb_message_is_shown_and_found_through_bounded_excerpts(qtbot, tmp_path, tab_factory):
    path = build_db(tmp_path / "big.sqlite", n=20)
    db = MemoryDB.open(path, writable=True)
    huge = "部署 " + ("0123456789" * 99 + "\n") * 10_000  # 10 MB, a match at its start
    RawStore(db).append_message("global", "tool", huge, timestamp=T0 + 20 * MIN)
    db.close()
    tab = tab_factory(path)
    row = tab.messages.rowCount() - 1
    big = tab.messages.message_at(row)
    assert len(big.content) == len(huge)
    # what the views ask of the row is bounded: the list's text, its tooltip, the accessible text
    idx = tab.messages.index(row, 0)
    for role in (
        Qt.ItemDataRole.DisplayRole,
        Qt.ItemDataRole.ToolTipRole,
        Qt.ItemDataRole.AccessibleTextRole,
    ):
        assert len(idx.data(role)) < 400
    card = tab.conversation.delegate.card(idx)
    assert card.truncated and len(card.layout.text()) < 1000
    # found in English and in Chinese: the hit is a snippet, its highlight a few spans
    for q in ("0123456789", "部署"):
        _search(qtbot, tab, q)
        hit = next(h for h in tab.results.hits() if h.message_id == big.id)
        assert len(hit.snippet) < 400 and len(hit.spans) <= 200
    tab.controller.choose_hit(0)
    assert tab.wait_idle(10_000)
    assert (
        len(tab.conversation.delegate.card(tab.messages.index(tab.messages.row_of(big.id), 0)).layout.text())
        < 1000
    )


def test_a_tool_message_reads_as_its_structure_and_its_stored_text_is_one_click_away(
    qtbot, tmp_path, tab_factory
):
    from philont_desktop.widgets.fulltext import FullTextDialog

    path = build_db(tmp_path / "tool.sqlite", n=3)
    stored = json.dumps({"tool": "shell", "success": True, "result": 'a "quoted"\nsecond line'})
    db = MemoryDB.open(path, writable=True)
    RawStore(db).append_message("global", "tool", stored, timestamp=T0 + 5 * MIN)
    db.close()
    tab = tab_factory(path)
    row = tab.messages.rowCount() - 1
    m = tab.messages.message_at(row)
    assert m.content == stored
    shown = tab.conversation.delegate.card(tab.messages.index(row, 0)).layout.text().replace("\u2028", "\n")
    assert shown == 'tool: shell\nsuccess: true\nresult:\n  a "quoted"\n  second line'
    tab.conversation.messageActivated.emit(m)
    dlg = tab.findChildren(FullTextDialog)[-1]
    assert dlg.edit.toPlainText() == shown and dlg.raw_btn.accessibleName()
    dlg.raw_btn.click()
    assert dlg.edit.toPlainText() == stored
    dlg.close()
    # a control or direction override the JSON escapes is spelled, never unescaped into the card
    db = MemoryDB.open(path, writable=True)
    RawStore(db).append_message("global", "tool", json.dumps({"f": "photo_\u202egnp.exe"}), T0 + 6 * MIN)
    db.close()
    tab.controller.refresh()
    assert tab.wait_idle(10_000)
    qtbot.waitUntil(lambda: tab.messages.rowCount() == row + 2, timeout=10_000)
    card = tab.conversation.delegate.card(tab.messages.index(row + 1, 0))
    assert card.layout.text() == "f: photo_\\u202egnp.exe"


# -- the tab: search -------------------------------------------------------------------------------------


def _search(qtbot, tab, text: str) -> None:
    tab.search(text)
    qtbot.waitUntil(lambda: not tab.results.searching, timeout=10_000)
    assert tab.wait_idle(10_000)


def _no_error_dialog(tab) -> None:
    assert tab.ctx.errors == []
    assert not any(isinstance(w, QMessageBox) and w.isVisible() for w in QApplication.topLevelWidgets())


def test_search_english_fts(qtbot, small_db, tab_factory):
    tab = tab_factory(small_db)
    _search(qtbot, tab, "deploy")
    assert tab.results.mode == "fts"
    assert [h.message_id for h in tab.results.hits()] == [i + 1 for i in range(290, -1, -10)]
    assert tab.hits_label.text() == "30 hits"
    h = tab.results.hits()[0]
    assert h.snippet == "message 290 deploy the gateway"
    assert h.snippet_spans == ((12, 18),)
    _no_error_dialog(tab)


def test_search_chinese_two_characters_takes_the_like_path(qtbot, small_db, tab_factory):
    tab = tab_factory(small_db)
    tab.results.page_size = 20
    _search(qtbot, tab, "部署")
    assert tab.results.mode == "like"
    expected = [i + 1 for i in range(299, -1, -1) if i % 7 == 0]
    assert len(expected) == 43
    assert [h.message_id for h in tab.results.hits()] == expected[:20]
    assert tab.results.has_more
    # every hit counted (not read): the exact number, though only the first page is loaded
    assert tab.hits_label.text() == "43 hits"
    assert tab.results_header.text() == "43 hits  (substring)"
    # more pages on demand, in the same (LIKE) mode
    while tab.results.canFetchMore(QModelIndex()):
        tab.results.fetchMore(QModelIndex())
        qtbot.waitUntil(lambda: not tab.results.busy, timeout=10_000)
    assert tab.results.mode == "like"
    assert [h.message_id for h in tab.results.hits()] == expected
    assert tab.hits_label.text() == "43 hits"
    _no_error_dialog(tab)


@pytest.mark.parametrize(
    ("text", "mode", "first_ids"),
    [
        ("a-b", "like", [6]),  # FTS5 raises "no such column": the LIKE fallback finds the literal text
        ('"', "empty", []),  # nothing left after the sanitiser
        ("role:user", "fts", [297, 293, 289]),  # a column filter of the FTS table: every user message
        ("((", "empty", []),
        ("AND", "like", []),  # FTS syntax error, then no literal match
    ],
)
def test_search_odd_input_never_errors(qtbot, small_db, tab_factory, text, mode, first_ids):
    tab = tab_factory(small_db)
    _search(qtbot, tab, text)
    assert tab.results.mode == mode
    assert tab.results.error is None
    assert [h.message_id for h in tab.results.hits()][: len(first_ids)] == first_ids
    if not first_ids:
        assert tab.results.rowCount() == 0
        assert tab.hits_label.text() in ("No hits", "Nothing to search for")
    _no_error_dialog(tab)


def test_search_results_model_passes_modeltester(qtbot, qtmodeltester, small_db, tab_factory):
    tab = tab_factory(small_db)
    _search(qtbot, tab, "message")
    qtmodeltester.check(tab.results)


def test_search_filters_role_conversation_and_dates(qtbot, small_db, tab_factory):
    tab = tab_factory(small_db)
    tab.role_combo.setCurrentIndex(tab.role_combo.findData("tool"))
    _search(qtbot, tab, "deploy")
    # i % 10 == 0 and role tool (i % 4 == 2): i = 10, 30, 50, ...
    assert [h.message_id for h in tab.results.hits()] == [i + 1 for i in range(290, -1, -10) if i % 4 == 2]
    assert {h.role for h in tab.results.hits()} == {"tool"}
    tab.role_combo.setCurrentIndex(0)
    # the conversation chosen in the list filters the search too
    tab.conversations_view.setCurrentIndex(tab.conversations.index(tab.conversations.row_of("s2"), 0))
    _search(qtbot, tab, "部署")
    assert {h.conversation for h in tab.results.hits()} == {"s2"}
    assert [h.message_id for h in tab.results.hits()] == [i + 1 for i in range(299, -1, -1) if i % 14 == 7]
    # the date range applies to search and to the conversation
    tab.conversations_view.setCurrentIndex(tab.conversations.index(0, 0))
    tab.set_date_range(T0 + 100 * MIN, T0 + 199 * MIN)
    _search(qtbot, tab, "deploy")
    assert [h.message_id for h in tab.results.hits()] == [191, 181, 171, 161, 151, 141, 131, 121, 111, 101]
    _wait_model(qtbot, tab.messages)
    assert _ids(tab.messages)[0] == 101 and _ids(tab.messages)[-1] == 200


def test_enter_goes_to_next_hit_and_shows_it_in_its_conversation(qtbot, small_db, tab_factory):
    tab = tab_factory(small_db)
    tab.search_edit.setFocus()
    qtbot.keyClicks(tab.search_edit, "deploy")
    qtbot.keyClick(tab.search_edit, Qt.Key.Key_Return)  # searches at once (no debounce wait) and shows hit 1
    qtbot.waitUntil(lambda: tab.state.current_hit == 0, timeout=10_000)
    assert tab.wait_idle(10_000)
    qtbot.waitUntil(lambda: tab.conversation.currentIndex().isValid(), timeout=5000)
    cur = tab.conversation.currentIndex().data(Qt.ItemDataRole.UserRole + 1)
    assert cur.id == 291
    qtbot.keyClick(tab.search_edit, Qt.Key.Key_Return)
    assert tab.wait_idle(10_000)
    qtbot.waitUntil(
        lambda: tab.conversation.currentIndex().data(Qt.ItemDataRole.UserRole + 1).id == 281, timeout=5000
    )
    assert tab.state.current_hit == 1
    assert tab.messages.data(tab.conversation.currentIndex(), Qt.ItemDataRole.UserRole + 6) == [(12, 18)]
    # a hit in the old part of the timeline: the page around it is loaded
    tab.results_view.setCurrentIndex(tab.results.index(25, 0))  # message 41
    assert tab.wait_idle(10_000)
    qtbot.waitUntil(
        lambda: (
            tab.conversation.currentIndex().isValid()
            and tab.conversation.currentIndex().data(Qt.ItemDataRole.UserRole + 1).id == 41
        ),
        timeout=5000,
    )
    assert 41 in _ids(tab.messages) and 300 not in _ids(tab.messages)
    assert tab.results_header.text() == "30 hits  (full-text, 26/30)"


def test_a_search_in_one_conversation_says_so_when_it_finds_nothing(qtbot, small_db, tab_factory):
    tab = tab_factory(small_db)
    tab.select_conversation("global")
    _wait_model(qtbot, tab.messages)
    _search(qtbot, tab, "a-b")  # message 6 is in s2
    assert tab.results.rowCount() == 0
    assert tab.hits_label.text() == "No hits"
    placeholder = tab.results_view.placeholder
    assert "a-b" in placeholder and "All conversations" in placeholder
    # all conversations: the hit is shown among every conversation's messages, its card says where
    tab.select_conversation(None)
    assert tab.wait_idle(10_000)
    qtbot.waitUntil(lambda: not tab.results.searching, timeout=10_000)
    assert [h.message_id for h in tab.results.hits()] == [6]
    tab.next_hit()
    assert tab.wait_idle(10_000)
    qtbot.waitUntil(lambda: tab.conversation.currentIndex().isValid(), timeout=5000)
    assert tab.conversation.currentIndex().data(Qt.ItemDataRole.UserRole + 1).id == 6
    assert tab.messages.highlighted == {6: [(14, 17)]}


def test_an_empty_search_clears_the_hits_and_the_highlights(qtbot, small_db, tab_factory):
    tab = tab_factory(small_db)
    _search(qtbot, tab, "deploy")
    tab.next_hit()
    assert tab.wait_idle(10_000)
    qtbot.waitUntil(lambda: bool(tab.messages.highlighted), timeout=5000)
    tab.search_edit.clear()
    assert tab.messages.highlighted == {}
    assert tab.results.rowCount() == 0 and tab.hits_label.text() == ""
    assert not tab.results_pane.isVisible()


# -- chart -----------------------------------------------------------------------------------------------


def test_chart_shows_daily_counts_and_a_dragged_range_filters_the_view(qtbot, small_db, tab_factory):
    tab = tab_factory(
        small_db,
    )
    counts = tab.chart.counts
    assert sum(c for _, c in counts) == 300
    assert f"300 messages on {len(counts)} days ·" in tab.chart.caption.text()
    # a range as the chart announces it after a drag (whole local days)
    day = counts[0][0]
    with qtbot.waitSignal(tab.chart.rangeSelected):
        tab.chart.set_range(day, day + 86_400_000 - 1, emit=True)
    assert tab.date_range == (day, day + 86_400_000 - 1)
    _wait_model(qtbot, tab.messages)
    assert all(day <= m.timestamp < day + 86_400_000 for m in tab.messages.messages())
    assert tab.messages.rowCount() == min(counts[0][1], tab.messages.page_size)
    assert tab.range_check.isChecked()
    n = counts[0][1]
    assert f"({n} message{'' if n == 1 else 's'})" in tab.chart.caption.text()
    tab.chart.clear_range()
    _wait_model(qtbot, tab.messages)
    assert tab.date_range == (None, None)
    assert _ids(tab.messages)[-1] == 300


def test_chart_caption_counts_in_plural_forms(qtbot):
    from philont_desktop.theme import Theme
    from philont_desktop.timeline.widgets.chart import ActivityChart

    chart = ActivityChart(Theme("light"))
    qtbot.addWidget(chart)
    chart.set_counts([(T0, 4)])
    assert chart.caption.text().startswith("Messages per day · 4 messages on 1 day ·")  # not "1 days"
    chart.set_counts([(T0, 1), (T0 + 86_400_000, 0)])
    assert "1 message on 2 days" in chart.caption.text()
    chart.set_range(T0, T0 + 86_400_000 - 1)
    assert "(1 message)" in chart.caption.text()


def test_chart_drag_builds_a_region(qtbot, small_db, tab_factory):
    tab = tab_factory(small_db)
    counts = tab.chart.counts
    a = counts[0][0] / 1000 + 3600
    with qtbot.waitSignal(tab.chart.rangeSelected) as sig:
        tab.chart._dragged(a, a + 60, True)
    since, until = sig.args
    assert since <= a * 1000 <= until and (until - since + 1) % 86_400_000 == 0
    assert tab.chart.region.isVisible()


# -- live refresh with a second writer process -------------------------------------------------------------

WRITER = r"""
import sys
sys.path.insert(0, {root!r})
from core.db import MemoryDB
from core.timeline import RawStore
db = MemoryDB.open({path!r}, writable=True)
raw = RawStore(db)
start, n = int(sys.argv[1]), int(sys.argv[2])
for i in range(start, start + n):
    raw.append_message("global", "user", f"live message {{i}}", timestamp={t0} + i * {minute})
db.close()
"""


def _second_writer(path: Path, start: int, n: int) -> None:
    code = WRITER.format(root=str(ROOT), path=str(path), t0=T0, minute=MIN)
    subprocess.run([sys.executable, "-c", code, str(start), str(n)], check=True, timeout=60)


def test_live_refresh_appends_at_the_bottom_when_following(qtbot, small_db, tab_factory):
    tab = tab_factory(small_db, live_interval_ms=100)
    tab.ctx.dataChanged.connect(tab.refresh)
    tab.ctx.start(live=True, quick_check=False)
    qtbot.waitUntil(lambda: tab.conversation.at_bottom(), timeout=5000)
    _second_writer(small_db, 300, 3)
    qtbot.waitUntil(lambda: _ids(tab.messages)[-1] == 303, timeout=10_000)
    assert tab.messages.message_at(tab.messages.rowCount() - 1).content == "live message 302"
    qtbot.waitUntil(lambda: tab.conversation.at_bottom(), timeout=5000)
    assert not tab.conversation.pill_visible


def test_live_refresh_shows_n_new_and_keeps_selection_and_position(qtbot, small_db, tab_factory):
    tab = tab_factory(small_db, live_interval_ms=100)
    tab.ctx.dataChanged.connect(tab.refresh)
    view = tab.conversation
    # read something higher up: select a message and scroll away from the bottom
    row = tab.messages.row_of(270)
    view.setCurrentIndex(tab.messages.index(row, 0))
    view.scrollTo(tab.messages.index(row, 0))
    qtbot.waitUntil(lambda: not view.at_bottom(), timeout=5000)
    sb = view.verticalScrollBar()
    before_value = sb.value()
    tab.ctx.start(live=True, quick_check=False)
    _second_writer(small_db, 300, 4)
    qtbot.waitUntil(lambda: _ids(tab.messages)[-1] == 304, timeout=10_000)
    qtbot.waitUntil(lambda: view.pill_visible, timeout=5000)
    assert view.pill.text() == "\u2193 4 new messages"
    assert view.currentIndex().data(Qt.ItemDataRole.UserRole + 1).id == 270
    assert sb.value() == before_value
    # a click on the pill jumps to the newest message
    qtbot.mouseClick(view.pill, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.at_bottom(), timeout=5000)
    assert not view.pill_visible


def test_browsing_leaves_the_database_file_unchanged(qtbot, small_db, tab_factory):
    digest = hashlib.sha256(small_db.read_bytes()).hexdigest()
    tab = tab_factory(small_db)
    _search(qtbot, tab, "deploy")
    tab.next_hit()
    tab.messages.fetch_older()
    assert tab.wait_idle(10_000)
    tab.ctx.close()
    assert hashlib.sha256(small_db.read_bytes()).hexdigest() == digest
    assert not Path(str(small_db) + "-wal").exists() or Path(str(small_db) + "-wal").stat().st_size == 0


def test_demo_database_opens_and_searches(qtbot, demo_db_path, tab_factory):
    tab = tab_factory(demo_db_path)
    assert tab.messages.rowCount() == 100 and tab.messages.has_older
    assert tab.conversations.rowCount() > 2
    for q in ("deploy", "部署", "数据库", "a-b", '"', "role:user"):
        _search(qtbot, tab, q)
        assert tab.results.error is None
    assert check_tab(tab) == []
    _no_error_dialog(tab)


def test_scrolling_up_loads_older_pages_and_keeps_the_reading_position(qtbot, small_db, tab_factory):
    tab = tab_factory(small_db)
    view = tab.conversation
    model = tab.messages
    n0 = model.rowCount()
    first_id = model.message_at(0).id
    # scroll to the very top: the view asks for the page before, the message that was on top stays put
    view.verticalScrollBar().setValue(0)
    qtbot.waitUntil(lambda: model.rowCount() > n0, timeout=10_000)
    assert tab.wait_idle(10_000)
    row = model.row_of(first_id)
    assert row > 0 and model.message_at(row - 1).id == first_id - 1
    # the rows arrived above: the former first message is no longer at the top of the scroll range
    assert view.visualRect(model.index(row, 0)).top() >= -view.viewport().height()
    assert view.verticalScrollBar().value() > 0


def test_show_time_opens_the_conversation_the_moment_belongs_to(qtbot, small_db, tab_factory):
    tab = tab_factory(small_db)
    tab.show_time(T0 + 42 * MIN + 30_000)  # between message 42 (id 43, unknown origin) and 43 (id 44, s2)
    assert tab.wait_idle(10_000)
    qtbot.waitUntil(lambda: tab.conversation.currentIndex().isValid(), timeout=5000)
    assert tab.conversation.currentIndex().data(Qt.ItemDataRole.UserRole + 1).id == 43
    # the conversation of the last message at or before that time, chosen in the list too
    assert tab.state.conversation == "global"
    assert tab.conversation_list.current_id() == "global"
    assert {m.session_id for m in tab.messages.messages()} == {"global"}
    # 22 of its messages up to that time (fewer than half a page): the window starts at its oldest
    assert tab.messages.has_newer and not tab.messages.has_older
    assert tab.messages.message_at(0).id == 1 and tab.messages.rowCount() == 22 + 50


def test_show_time_in_all_conversations_loads_the_page_around_a_time(qtbot, small_db, tab_factory):
    tab = tab_factory(small_db)
    tab.controller.show_time(T0 + 42 * MIN + 30_000, tie=False)
    assert tab.wait_idle(10_000)
    qtbot.waitUntil(lambda: tab.conversation.currentIndex().isValid(), timeout=5000)
    assert tab.conversation.currentIndex().data(Qt.ItemDataRole.UserRole + 1).id == 43
    # 43 messages up to that time (fewer than half a page): the window starts at the oldest message
    assert tab.messages.has_newer and not tab.messages.has_older
    assert tab.messages.message_at(0).id == 1 and tab.messages.rowCount() == 43 + 50
