"""The Health tab's Recall page on a planted history: the saved replay shown and kept up to date (only the
new turns replayed), the miss with its cause in words, the pictures, a missed turn's context beside the
message it needed, cancel, the empty history, English and Chinese."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("pytestqt")

from core import sidefiles
from core.db import MemoryDB
from core.replay.store import ENV_VAR, ReplayStore
from core.timeline import RawStore
from philont_desktop import zoom
from philont_desktop.health.recall.data import RecallView, job_load, job_update
from philont_desktop.health.recall.widgets.misses import MissesModel
from philont_desktop.health.view import HealthTab
from philont_desktop.qt import QApplication, QGraphicsSimpleTextItem, Qt
from philont_desktop.workers import spin_until
from tests.core.test_replay import MIN, T0, plant


@pytest.fixture(autouse=True)
def store_dir(tmp_path, monkeypatch):
    folder = tmp_path / "replays"
    monkeypatch.setenv(ENV_VAR, str(folder))
    return folder


@pytest.fixture
def planted(db_path):
    db_path.parent.mkdir(parents=True, exist_ok=True)
    return db_path, plant(db_path)


def _page(tab):
    page = tab.show_page("recall")
    assert page is not None and page.wait_replay(60_000) and tab.wait_idle(30_000)
    return page


def _row(page, message_id):
    row = page.model.row_of(message_id)
    assert row >= 0
    return {c: page.model.index(row, i).data() for i, c in enumerate(page.model.COLUMNS)}


def test_the_pictures_are_made_in_the_turns_after_the_page_and_join_the_keyboard_order(open_tab, planted):
    path, _ids = planted
    tab = open_tab(HealthTab, path, idle_ms=60_000)
    page = tab.show_page("recall")
    assert not page.charts.ready  # the turn that made the page made none of its ~20 ms plots
    page = _page(tab)
    charts = page.charts
    assert charts.ready
    chain, w = [], page.progress.update_button
    for _ in range(40):
        w = w.nextInFocusChain()
        chain.append(w)
    plots = [charts.months.plot, charts.causes.plot, charts.strategies.plot]
    assert [chain.index(p) for p in plots] == sorted(chain.index(p) for p in plots)
    assert chain.index(plots[-1]) < chain.index(page.table)


def test_the_page_shows_the_miss_with_its_cause_and_the_pictures(open_tab, planted, english):
    path, ids = planted
    page = _page(open_tab(HealthTab, path, idle_ms=60_000))
    s = page.view.summary
    text = page.summary.text()
    assert f"{s['turns']} user turns replayed" in text and "silver labels" in text and "estimate" in text
    assert "95% interval" in text
    assert _row(page, ids["A"])["cause"] == "query failed"  # FTS5 refused the "?"
    assert _row(page, ids["B"])["cause"] == "no shared words"
    assert page.model.row_of(ids["C"]) == -1  # a hit is not listed
    assert "Zephyrine" in _row(page, ids["A"])["message"]
    charts = page.charts
    assert sum(b.value for b in charts.causes.bars) == s["withNeed"] - s["hits"] == len(page.view.misses)
    assert "query failed" in [b.category for b in charts.causes.bars]
    assert charts.months.bars and all(0 <= b.value <= 100 for b in charts.months.bars)
    names = [b.category for b in charts.strategies.bars]
    assert names == ["the agent's query", "rare words ORed", "rare words ORed, wider"]
    assert charts.strategies.bars[1].value > charts.strategies.bars[0].value  # a what-if finds more
    saved = ReplayStore().load(path)  # kept outside the database
    assert saved.summary == s and [t.message.id for t in saved.replay.misses()] == [
        t.message.id for t in page.view.misses
    ]


def test_selecting_a_missed_turn_shows_what_the_agent_saw_beside_the_needed_message(
    open_tab, planted, english
):
    path, ids = planted
    tab = open_tab(HealthTab, path, idle_ms=60_000)
    page = _page(tab)
    assert page.select_turn(ids["A"])
    assert tab.wait_idle(30_000)
    view = page.turn_view
    assert view.detail is not None and view.detail.message.id == ids["A"]
    assert "Why recall missed: Recall found nothing" in view.cause.text()
    assert "quillfeather, zephyrine" in view.cause.text()
    seen = view.preview.toPlainText()
    assert "Did Zephyrine confirm the Quillfeather booking?" in seen  # the message of this turn
    assert "Routine check" in seen  # the recent messages the agent was given
    needed = view.needed.toPlainText()
    assert "My cousin Zephyrine booked the Quillfeather lodge" in needed and needed.startswith("#1 ·")
    assert view.open_button.isEnabled()


def test_the_misses_model_passes_the_model_tester(open_tab, planted, qtmodeltester, english):
    path, _ids = planted
    page = _page(open_tab(HealthTab, path, idle_ms=60_000))
    assert page.model.rowCount() > 0
    qtmodeltester.check(page.model)
    qtmodeltester.check(MissesModel())


def test_an_update_after_the_agent_writes_replays_only_the_new_turns(open_tab, planted, english):
    path, _ids = planted
    tab = open_tab(HealthTab, path, idle_ms=60_000)
    page = _page(tab)
    before = page.view.summary["turns"]
    assert page.view.updated.how == "new" and page.view.updated.replayed == before
    db = MemoryDB.open(path, writable=True)
    try:
        raw = RawStore(db)
        for k, (role, text) in enumerate(
            [("user", "Quillfeather lodge, remember?"), ("assistant", "Yes."), ("user", "欧阳震华呢？")]
        ):
            raw.append_message("global", role, text, T0 + (10_000 + k) * MIN)
    finally:
        db.close()
    totals: list[int] = []
    page.progress.bar.valueChanged.connect(lambda _v: totals.append(page.progress.bar.maximum()))
    tab.refresh()  # as the window does when the agent writes
    assert page.wait_replay(60_000)
    assert (page.view.updated.how, page.view.updated.replayed) == ("extended", 2)
    assert page.view.summary["turns"] == before + 2
    assert page.view.summary == ReplayStore().load(path).replay.summary()
    assert totals and set(totals) <= {1, 2}  # the progress counted the new turns only
    assert "2 new user turns replayed" in page.progress.text


def test_a_second_visit_shows_the_saved_result_and_replays_nothing(open_tab, planted, english):
    path, _ids = planted
    page = _page(open_tab(HealthTab, path, idle_ms=60_000))  # kept: a tab is freed on the GUI thread
    first = page.view
    again = _page(open_tab(HealthTab, path, idle_ms=60_000))
    assert (again.view.updated.how, again.view.updated.replayed) == ("extended", 0)
    assert again.view.summary == first.summary and again.view.months == first.months
    assert [t.to_json() for t in again.view.misses] == [t.to_json() for t in first.misses]
    assert "no new user turns" in again.progress.text


def test_cancel_stops_the_replay_and_keeps_nothing_of_it(qtbot, open_context, planted, english, monkeypatch):
    import core.replay.store as store_module

    real = store_module.replay

    def held(db, options, *, progress=None, cancelled=None, sink=None, windows=None):
        """The replay, held after its first turn until Cancel (a fast replay would end before it)."""

        def first_then_wait(done: int, total: int) -> None:
            progress(done, total)
            deadline = time.monotonic() + 30
            while not cancelled() and time.monotonic() < deadline:
                time.sleep(0.01)
            progress(done, total)  # raises once cancelled

        return real(db, options, progress=first_then_wait, cancelled=cancelled, sink=sink, windows=windows)

    monkeypatch.setattr(store_module, "replay", held)
    path, _ids = planted
    tab = HealthTab(open_context(path))
    qtbot.addWidget(tab)
    tab.resize(1200, 800)
    tab.show()
    tab.ensure_activated()
    page = tab.show_page("recall")
    assert spin_until(lambda: page.job is not None and page.job.last_progress is not None, 60_000)
    job = page.job
    page.cancel()
    assert spin_until(lambda: job.is_done, 30_000) and page.wait_replay(30_000)
    assert job.state == "cancelled" and page.job is None
    assert page.progress.text.startswith("Cancelled")
    assert page.progress.update_button.isVisible() and not page.progress.cancel_button.isVisible()
    assert ReplayStore().load(path) is None  # nothing of the cancelled run was saved
    monkeypatch.setattr(store_module, "replay", real)
    page.progress.update_button.click()  # "Update" replays it all again
    assert page.wait_replay(60_000) and ReplayStore().load(path) is not None


def test_an_empty_history_says_so(open_tab, db_path, english):
    db_path.parent.mkdir(parents=True)
    MemoryDB.create(db_path).close()
    page = _page(open_tab(HealthTab, db_path, idle_ms=30_000))
    assert "The history is empty" in page.summary.text()
    assert page.model.rowCount() == 0 and page.hint.isVisible()
    assert "The history is empty" in page.hint.text()
    assert all(not c.bars for c in (page.charts.months, page.charts.causes))
    assert not page.charts.isVisible()  # no pictures of nothing


def test_a_history_without_user_turns_says_so(open_tab, db_path, english):
    db_path.parent.mkdir(parents=True)
    db = MemoryDB.create(db_path)
    RawStore(db).append_message("global", "assistant", "Hello, I am here.", T0)
    db.close()
    page = _page(open_tab(HealthTab, db_path, idle_ms=30_000))
    assert "no user turns" in page.summary.text()


def test_the_page_in_chinese(open_tab, planted, chinese):
    path, ids = planted
    page = _page(open_tab(HealthTab, path, idle_ms=60_000))
    text = page.summary.text()
    assert "估计" in text and "银标签" in text and "user turns" not in text
    assert _row(page, ids["A"])["cause"] == "查询失败"
    assert page.model.headerData(3, Qt.Orientation.Horizontal) == "原因"
    assert page.charts.causes.plot.getPlotItem().titleLabel.text == "未命中的原因"
    page.select_turn(ids["A"])
    assert page.tab.wait_idle(30_000)
    assert page.turn_view.cause.text().startswith("召回为何未命中")


def test_open_in_the_context_tab_shows_that_turn(open_window, planted):
    path, ids = planted
    w = open_window(path)
    w.show_tab("health")
    tab = w.tab("health")
    page = _page(tab)
    assert page.select_turn(ids["A"]) and tab.wait_idle(30_000)
    page.turn_view.open_button.click()
    context = w.tab("context")
    assert spin_until(lambda: context.as_of is not None and context.wait_idle(100), 30_000)
    assert w.tabs.current() is context
    assert context.as_of[1] == ids["A"]


def test_the_page_follows_the_zoom(open_tab, planted, english):
    path, _ids = planted
    tab = open_tab(HealthTab, path, idle_ms=60_000)
    page = _page(tab)
    row = page.table.verticalHeader().defaultSectionSize()
    base = QApplication.font().pointSizeF()
    try:
        tab.ctx.theme.set_zoom(200)  # as View › Zoom In does
        QApplication.processEvents()
        assert page.table.verticalHeader().defaultSectionSize() >= round(row * 1.8)
        assert page.summary.font().pointSizeF() == pytest.approx(2 * base, abs=0.1)
        labels = [i for i in page.charts.causes._items if isinstance(i, QGraphicsSimpleTextItem)]
        assert labels and all(i.font().pointSizeF() == pytest.approx(2 * base, abs=0.1) for i in labels)
        tick = page.charts.strategies.plot.getAxis("left").style["tickFont"]
        assert tick is not None and tick.pointSizeF() == pytest.approx(2 * base, abs=0.1)
    finally:
        zoom.reset_for_tests()


def test_a_damaged_saved_result_is_set_aside_and_replayed_again(open_tab, planted, english):
    path, _ids = planted
    before = _page(open_tab(HealthTab, path, idle_ms=60_000))  # kept: a tab is freed on the GUI thread
    first = before.view
    store = ReplayStore()
    lines = store.turns_path(path).read_text(encoding="utf-8").splitlines(keepends=True)
    lines[5] = lines[5].replace('"hit":', '"hit":"maybe","was":', 1)
    store.turns_path(path).write_text("".join(lines), encoding="utf-8")
    notices = []
    with sidefiles.reporting(notices.append):
        page = _page(open_tab(HealthTab, path, idle_ms=60_000))
    assert notices and {n.code for n in notices} == {"sidefile.set_aside"}
    assert page.view.updated.how == "new" and page.view.summary == first.summary
    assert store.load(path) is not None  # saved again, whole


def test_every_cause_has_a_short_name_in_both_languages(qapp, english):
    from core.replay import CAUSE_TEXT
    from philont_desktop import i18n
    from philont_desktop.health.recall import texts

    assert all(texts.cause_name(code) != code for code in CAUSE_TEXT)
    i18n.install("zh_CN")
    try:
        names = [texts.cause_name(code) for code in CAUSE_TEXT]
        assert all(any("\u4e00" <= ch <= "\u9fff" for ch in name) for name in names), names
    finally:
        i18n.install("en")


def _seen(view):
    return (view.summary, view.months, [(t.message.id, t.needed) for t in view.misses], sorted(view.texts))


def test_an_update_folds_the_turns_in_as_they_come_the_same_as_reading_them_back(planted):
    path, _ids = planted
    fresh = job_update(path, RecallView())
    assert fresh.updated.how == "new" and fresh.updated.saved.replay is None  # no turn kept
    db = MemoryDB.open(path)
    try:
        assert fresh.misses and _seen(fresh) == _seen(job_load(db, path))
    finally:
        db.close()
    db = MemoryDB.open(path, writable=True)
    try:
        RawStore(db).append_message("global", "user", "Zephyrine Quillfeather once more", T0 + 10_000 * MIN)
    finally:
        db.close()
    later = job_update(path, fresh)
    assert (later.updated.how, later.updated.replayed) == ("extended", 1)
    db = MemoryDB.open(path)
    try:
        assert _seen(later) == _seen(job_load(db, path)) and later.summary != fresh.summary
    finally:
        db.close()
