"""The Facts tab: model, filters and sorting, decay curves against the core, time control, overview
selection, curation through the shared undo stack, and a concurrent writer (the agent)."""

from __future__ import annotations

import math
import re
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pytestqt")

from core import audit
from core.db import MemoryDB
from core.decay import forget_crossing_time, score_memory
from core.facts import FactStore
from philont_desktop.qt import QDialog, QPoint, QPointF, QRectF, Qt
from philont_desktop.selftest import check_tab
from tests.support import FIXED_NOW, multi_data

DAY = 86_400_000


def T(days_ago: float) -> int:
    return FIXED_NOW - int(days_ago * DAY)


def build_db(path: Path) -> dict[str, str]:
    """A small memory with every kind of fact; returns ids by a short name."""
    db = MemoryDB.create(path, now=T(200))
    s = FactStore(db)
    ids: dict[str, str] = {}
    try:
        ids["city"] = s.store_fact("user", "city", "杭州", now=T(100)).id
        ids["editor"] = s.store_fact("user.preferences", "editor", "neovim", now=T(90)).id
        ids["repo"] = s.store_fact("project", "repo", "github.com/x", confidence=0.9, now=T(30)).id
        ids["deploy1"] = s.store_fact("project", "deploy_target", "fly.io", now=T(90)).id
        ids["deploy2"] = s.store_fact("project", "deploy_target", "k8s (ACK 杭州)", now=T(20)).id
        ids["mood"] = s.store_fact("context", "mood", "tired", confidence=0.6, now=T(5)).id
        ids["location"] = s.store_fact("context", "location", "office", decay_tau_days=7, now=T(0.5)).id
        ids["focus"] = s.store_fact("session", "focus", "deploy checklist", now=T(4)).id
        ids["db"] = s.store_fact("decisions", "db", "PostgreSQL 16", now=T(150)).id
        s.pin(ids["db"])
        ids["trip"] = s.store_fact(
            "travel",
            "trip",
            {"to": "LIS", "seat": "14C"},
            fact_kind="event",
            occurred_at=T(-5),
            valid_from=T(-5),
            valid_until=T(-10),
            now=T(10),
        ).id
        ids["notes"] = s.store_fact("research", "notes", "trigram needs 3 chars", now=T(179)).id
        s.mark_accessed(ids["notes"], at=T(10))
        ids["old"] = s.store_fact("context", "old", "forgotten thing", now=T(50)).id
        s.soft_forget(ids["old"], at=T(40))
        ids["meeting"] = s.store_fact("工作", "周会时间", "周三下午 3 点", now=T(33)).id
    finally:
        db.close()
    return ids


@pytest.fixture(autouse=True)
def english(qapp):
    """The application's English translator: plural forms (``%n fact(s)`` → ``2 facts``)."""
    from philont_desktop import i18n

    i18n.install("en")
    yield
    i18n.uninstall()


@pytest.fixture
def facts_db(db_path) -> tuple[Path, dict[str, str]]:
    return db_path, build_db(db_path)


def _fixed_clock_and_reloads(tab) -> None:
    tab.now_fn = lambda: FIXED_NOW
    tab.ctx.dataChanged.connect(tab.refresh)


@pytest.fixture
def make_tab(qtbot, open_tab):
    from philont_desktop.facts.view import FactsTab

    def make(path: Path, *, editing: bool = False):
        tab = open_tab(FactsTab, path, size=(1400, 900), idle_ms=20_000, prepare=_fixed_clock_and_reloads)
        assert idle(tab)
        if editing:
            tab.ctx.set_editing(True)
            qtbot.waitUntil(lambda: tab.ctx.editing, timeout=20_000)
        return tab

    return make


def row_by_name(tab, name: str, active: bool = True):
    for r in tab.model.rows():
        if r.name == name and (not active or r.fact.superseded_by is None):
            return r
    raise KeyError(name)


def shown_names(tab) -> list[str]:
    return [tab.proxy.fact_at(i).name for i in range(tab.proxy.rowCount())]


def idle(tab, timeout_ms: int = 20_000) -> bool:
    """Until no job of the tab is pending (a finished job may start the next one, e.g. load → pool)."""
    deadline = time.monotonic() + timeout_ms / 1000
    while time.monotonic() < deadline:
        if tab.wait_idle(1000) and not tab.busy:
            return True
    return False


def plain(html_text: str) -> str:
    return re.sub(r"<[^>]+>", "", html_text).replace("&nbsp;", " ")


def wait_undo(qtbot, tab):
    qtbot.waitUntil(lambda: not tab.ctx.undo.busy, timeout=20_000)
    assert idle(tab), [(j.label, j.state, j.lane) for j in tab._pending]


# -- model ------------------------------------------------------------------------------------------------


def test_model_and_proxy_pass_the_model_tester(qtmodeltester, facts_db, make_tab):
    tab = make_tab(facts_db[0])
    assert tab.model.rowCount() == 13
    qtmodeltester.check(tab.model)
    qtmodeltester.check(tab.proxy)
    qtmodeltester.check(tab.pool_model)


def test_a_cell_painted_through_multidata_shows_what_data_says(facts_db, make_tab):
    """A delegate asks a cell for its roles in one multiData() call: the answers are data()'s."""
    from philont_desktop.qt import QModelRoleData, QModelRoleDataSpan

    tab = make_tab(facts_db[0])
    tab.set_offset_days(40)  # scores below the threshold: a foreground colour in the score column
    roles = [int(r) for r in Qt.ItemDataRole] + [int(Qt.ItemDataRole.UserRole) + k for k in range(1, 6)]
    proxy = tab.proxy
    answered = 0
    for row in range(proxy.rowCount()):
        for column in range(proxy.columnCount()):
            index = proxy.index(row, column)
            for role in roles:
                got = multi_data(proxy, index, role)
                assert got == proxy.data(index, role), (row, column, role)
                answered += got is not None
    assert answered > proxy.rowCount() * proxy.columnCount()  # texts, tooltips, colours, ids
    slot = QModelRoleData(int(Qt.ItemDataRole.DisplayRole))
    slot.setData("left over")
    proxy.multiData(proxy.index(-1, 0), QModelRoleDataSpan(slot))
    assert slot.data() is None


def test_columns_show_every_field_readably(facts_db, make_tab):
    from philont_desktop.facts import columns as m
    from philont_desktop.facts.text import fmt_time, fmt_when
    from philont_desktop.humanize import score_text

    tab = make_tab(facts_db[0])
    d = tab.model.display
    city, trip, db, loc = (
        row_by_name(tab, n) for n in ("user.city", "travel.trip", "decisions.db", "context.location")
    )
    assert (d(city, m.C_NAMESPACE), d(city, m.C_KEY), d(city, m.C_VALUE)) == ("user", "city", "杭州")
    assert (d(city, m.C_TAU), d(city, m.C_TAU_SOURCE), d(city, m.C_SCORE), d(city, m.C_CROSSES)) == (
        "∞",
        "namespace default",
        "100 %",
        "never",
    )
    assert d(trip, m.C_VALUE) == '{"to": "LIS", "seat": "14C"}'
    assert (d(trip, m.C_KIND), d(trip, m.C_STATUS)) == ("event", "outside validity window")
    assert d(trip, m.C_VALID_FROM) == fmt_when(T(-5), FIXED_NOW) == "in 5 days · " + fmt_time(T(-5))
    assert d(trip, m.C_OCCURRED) == fmt_when(T(-5), FIXED_NOW)
    assert (d(db, m.C_TAU), d(db, m.C_TAU_SOURCE)) == ("∞", "pinned")
    # The pin is seen in the columns shown by default: in Status, and "never (pinned)".
    assert (d(db, m.C_STATUS), d(db, m.C_CROSSES)) == ("active, pinned", "never (pinned)")
    tip = tab.model.data(tab.model.index(tab.model.row_of(db.fid), m.C_STATUS), Qt.ItemDataRole.ToolTipRole)
    assert "Pinned: never decays" in tip
    assert d(city, m.C_STATUS) == "active"
    assert (d(loc, m.C_TAU), d(loc, m.C_TAU_SOURCE)) == ("7 days", "custom")
    assert d(loc, m.C_SCORE) == score_text(math.exp(-0.5 / 7)) == "93 %"
    tip = tab.model.data(tab.model.index(tab.model.row_of(loc.fid), m.C_SCORE), Qt.ItemDataRole.ToolTipRole)
    assert repr(math.exp(-0.5 / 7)) in tip  # the exact value
    assert d(loc, m.C_CONFIDENCE) == "1" and d(row_by_name(tab, "project.repo"), m.C_CONFIDENCE) == "0.9"
    assert d(loc, m.C_CREATED) == "12 h ago · " + fmt_time(T(0.5))
    # the crossing of context.location: 7 d × ln(1/0.05) after it was stored, to the millisecond
    assert loc.crossing == forget_crossing_time("context", 1.0, T(0.5), T(0.5), 7)
    assert abs(loc.crossing - (T(0.5) + 7 * math.log(20) * DAY)) < 2


def test_superseded_and_forgotten_rows_are_hidden_until_asked_for(facts_db, make_tab):
    tab = make_tab(facts_db[0])
    assert "context.old" not in shown_names(tab)
    assert shown_names(tab).count("project.deploy_target") == 1
    tab.superseded_check.setChecked(True)
    assert shown_names(tab).count("project.deploy_target") == 2
    tab.forgotten_check.setChecked(True)
    assert "context.old" in shown_names(tab)
    statuses = {tab.model.display(tab.proxy.fact_at(i), 4) for i in range(tab.proxy.rowCount())}
    assert {"active", "superseded", "forgotten", "outside validity window"} <= statuses


def test_sorting_by_every_column_follows_its_values(facts_db, make_tab):
    from philont_desktop.facts.columns import N_COLUMNS

    tab = make_tab(facts_db[0])
    tab.superseded_check.setChecked(True)
    tab.forgotten_check.setChecked(True)
    for col in range(N_COLUMNS):
        for order in (Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder):
            tab.table.sortByColumn(col, order)
            vals = [tab.model.sort_value(tab.proxy.fact_at(i), col) for i in range(tab.proxy.rowCount())]
            present = [v.casefold() if isinstance(v, str) else v for v in vals if v is not None and v == v]
            assert present == sorted(present, reverse=order == Qt.SortOrder.DescendingOrder), col
            # empty values always come last
            k = len(present)
            assert all(v is None or v != v for v in vals[k:]), col


def test_text_filter_namespace_tree_and_column_filters(qtbot, facts_db, make_tab):
    from philont_desktop.facts import columns as m
    from philont_desktop.facts.text import fmt_time

    tab = make_tab(facts_db[0])
    tab.filter_edit.setText("杭州")  # applied after a pause in typing
    qtbot.waitUntil(lambda: sorted(shown_names(tab)) == ["project.deploy_target", "user.city"])
    tab.filter_edit.setText("")
    qtbot.waitUntil(lambda: len(shown_names(tab)) == 11)
    tab.select_namespace("user")
    assert sorted(shown_names(tab)) == ["user.city", "user.preferences.editor"]
    tab.select_namespace(None)
    tab.set_column_filter(m.C_SCORE, "< 0.05")
    assert sorted(shown_names(tab)) == ["context.mood", "session.focus"]
    tab.set_column_filter(m.C_TAU_SOURCE, "pinned")
    assert shown_names(tab) == ["decisions.db"]
    tab.set_column_filter(m.C_CREATED, f">= {fmt_time(T(1))}")
    assert shown_names(tab) == ["context.location"]
    tab.set_column_filter(m.C_CONFIDENCE, "0.5 .. 0.95")
    assert sorted(shown_names(tab)) == ["context.mood", "project.repo"]
    tab.set_column_filter(m.C_KIND, "event")
    assert shown_names(tab) == ["travel.trip"]
    tab.set_column_filter(None, "")
    assert len(shown_names(tab)) == 11


def test_namespace_tree_has_counts_and_tau(facts_db, make_tab):
    tab = make_tab(facts_db[0])
    top = tab.tree.topLevelItem(0)
    assert (top.text(0), top.text(1)) == ("All namespaces", "11")
    items = {}

    def walk(item):
        for i in range(item.childCount()):
            c = item.child(i)
            items[c.data(0, Qt.ItemDataRole.UserRole + 10)] = (c.text(0), c.text(1), c.text(2))
            walk(c)

    walk(top)
    assert items["user"] == ("user", "1 (2)", "∞")
    assert items["user.preferences"] == ("preferences", "1", "∞")
    assert items["project"] == ("project", "2", "60 d")
    assert items["context"] == ("context", "2", "1 d")
    assert items["工作"] == ("工作", "1", "365 d")


# -- curves ---------------------------------------------------------------------------------------------------


def test_curve_values_are_the_cores_decay_at_fixed_times(facts_db, make_tab):
    from philont_desktop.facts.curves import curve_xy, scores_over_time

    tab = make_tab(facts_db[0])
    notes = row_by_name(tab, "research.notes")  # stored 179 d ago, read 10 d ago (the anchor)
    f = notes.fact
    times = np.array([T(5), T(0), T(-30), T(-365)], dtype=float)
    got = scores_over_time(f.confidence, notes.anchor, notes.tau_eff, times)
    want = [
        score_memory(f.namespace, f.confidence, f.created_at, f.last_accessed_at, f.decay_tau_days, int(t))
        for t in times
    ]
    assert got == pytest.approx(want, rel=1e-12, abs=0)
    x, y = curve_xy(notes, T(200), T(-30))
    assert x[0] == f.created_at and x[-1] == T(-30)
    step = np.flatnonzero(x == f.last_accessed_at)  # the reset: two points at the last read
    assert len(step) == 2 and y[step[1]] == f.confidence
    after = slice(step[1], None)
    want_after = [
        score_memory(f.namespace, f.confidence, f.created_at, f.last_accessed_at, f.decay_tau_days, t)
        for t in x[after]
    ]
    assert y[after] == pytest.approx(want_after, rel=1e-12)
    # before the last read the curve decays from creation (as the score was then)
    before = slice(0, step[0] + 1)
    want_before = [score_memory(f.namespace, f.confidence, f.created_at, None, None, t) for t in x[before]]
    assert y[before] == pytest.approx(want_before, rel=1e-12)


def test_selected_facts_get_curves_with_anchors_threshold_and_now(facts_db, make_tab):
    tab = make_tab(facts_db[0])
    ids = facts_db[1]
    tab.select_ids([ids["notes"], ids["location"], ids["db"], ids["city"]])
    curves = tab.curves
    assert set(curves.curve_items) == {ids["notes"], ids["location"], ids["db"], ids["city"]}
    past, future = curves.curve_items[ids["location"]]
    fx, fy = future.getData()
    loc = row_by_name(tab, "context.location").fact
    for x, y in zip(fx[::40], fy[::40]):
        assert y == pytest.approx(
            score_memory("context", 1.0, loc.created_at, loc.last_accessed_at, 7, round(x * 1000)), rel=1e-9
        )
    assert fx[0] == FIXED_NOW / 1000 and past.getData()[0][-1] == FIXED_NOW / 1000
    assert curves.threshold_line.value() == 0.05
    assert curves.now_line.value() == FIXED_NOW / 1000
    # pinned and user.* are flat and say so
    _p, db_future = curves.curve_items[ids["db"]]
    assert set(db_future.getData()[1]) == {1.0}
    legend = plain(curves.legend.text())
    assert "━━ decisions.db — pinned: never decays" in legend
    assert "━━ user.city — user.*: never decays" in legend
    assert sorted(lab.toPlainText() for lab in curves.labels) == [
        "pinned · no decay",
        "user.* · never decays",
    ]
    # the last read of research.notes is marked
    tips = [s.data() for s in curves.anchors.points()]
    assert any(t.startswith("research.notes: last read") for t in tips)
    # the crossing of context.location is marked on the threshold
    crosses = [(round(s.pos().x() * 1000), s.pos().y()) for s in curves.crossings.points()]
    assert (row_by_name(tab, "context.location").crossing, 0.05) in crosses


def test_now_line_moves_with_the_clock(facts_db, make_tab):
    tab = make_tab(facts_db[0])
    tab.now_fn = lambda: FIXED_NOW + 5000
    tab.tick()
    assert tab.curves.now_line.value() == (FIXED_NOW + 5000) / 1000


def test_time_control_moves_scores_pool_and_overview(qtbot, facts_db, make_tab):
    from philont_desktop.facts.columns import C_SCORE

    tab = make_tab(facts_db[0])
    tab.bottom.setCurrentWidget(tab.overview)
    assert sorted(f"{f.namespace}.{f.key}" for f in tab.pool_model.facts()) == [
        "context.mood",
        "session.focus",
    ]
    tab.time_spin.setValue(30)
    assert tab.time_slider.value() == 30 and tab.view_time == FIXED_NOW + 30 * DAY
    for r in tab.model.rows():
        f = r.fact
        assert r.score == score_memory(
            f.namespace,
            f.confidence,
            f.created_at,
            f.last_accessed_at,
            f.decay_tau_days,
            FIXED_NOW + 30 * DAY,
        ) or (math.isnan(r.score))
    loc = row_by_name(tab, "context.location")
    src = tab.model.row_of(loc.fact.id)
    assert tab.model.data(tab.model.index(src, C_SCORE)) == "1.3 %"  # exp(-30.5 / 7) = 0.0128
    assert tab.model.headerData(C_SCORE, Qt.Orientation.Horizontal) == "Score (+30 d)"
    assert idle(tab)
    assert sorted(f"{f.namespace}.{f.key}" for f in tab.pool_model.facts()) == [
        "context.location",
        "context.mood",
        "session.focus",
    ]
    assert "At " in tab.pool_label.text() and "(+30 d)" in tab.pool_label.text()
    k = list(tab.overview.ids).index(loc.fact.id)
    assert tab.overview.y[k] == pytest.approx(math.exp(-30.5 / 7), rel=1e-12)
    assert tab.overview.x[k] == pytest.approx(30.5)
    tab.set_offset_days(0)
    assert tab.view_time == FIXED_NOW and tab.time_spin.value() == 0
    tab.curves.viewTimeDragged.emit(float(FIXED_NOW + 45 * DAY + 3_600_000))  # dragging the view line
    assert tab.time_slider.value() == 45 and tab.view_time == FIXED_NOW + 45 * DAY


def test_overview_plots_active_facts_and_selection_selects_rows(qtbot, facts_db, make_tab):
    from philont_desktop.qt import QtTest

    tab = make_tab(facts_db[0])
    tab.bottom.setCurrentWidget(tab.overview)
    qtbot.wait(50)
    ov = tab.overview
    assert ov.x.size == 11 and len(ov.namespaces) == 9
    ids = facts_db[1]
    vp = ov.plot.viewport()

    def at(x: float, y: float):
        return ov.plot.mapFromScene(ov.vb.mapViewToScene(QPointF(x, y)))

    left = Qt.MouseButton.LeftButton
    # drag a rectangle with the mouse around the low scores (the forget candidates)
    p0, p1 = at(0.0, 0.06), at(100.0, -0.01)
    QtTest.QTest.mousePress(vp, left, Qt.KeyboardModifier.NoModifier, p0)
    for k in range(1, 11):
        QtTest.QTest.mouseMove(vp, p0 + (p1 - p0) * (k / 10))
    QtTest.QTest.mouseRelease(vp, left, Qt.KeyboardModifier.NoModifier, p1)
    assert sorted(r.name for r in tab.selected_rows()) == ["context.mood", "session.focus"]
    # Ctrl+click next to a point adds its row; a plain click on a point selects only it
    k = list(ov.ids).index(ids["repo"])
    near = at(ov.x[k], ov.y[k]) + QPoint(3, -2)
    QtTest.QTest.mouseClick(vp, left, Qt.KeyboardModifier.ControlModifier, near)
    assert sorted(r.name for r in tab.selected_rows()) == ["context.mood", "project.repo", "session.focus"]
    QtTest.QTest.mouseClick(vp, left, Qt.KeyboardModifier.NoModifier, at(ov.x[k], ov.y[k]))
    assert [r.name for r in tab.selected_rows()] == ["project.repo"]
    assert ov.selected.getData()[0].tolist() == [ov.x[k]]
    # the same through the view box's signals (what the mouse handlers emit)
    ov.vb.sigRectSelected.emit(QRectF(0, 0, 100, 0.05), Qt.KeyboardModifier.NoModifier)
    assert sorted(r.name for r in tab.selected_rows()) == ["context.mood", "session.focus"]


def test_invalid_confidences_are_left_out_of_the_overview_and_drawn_at_zero(qtbot, facts_db, make_tab):
    """A damaged confidence (NaN, ±Infinity, negative, absurdly large) never breaks a plot's range."""
    from core.engine import sqlite3

    path, ids = facts_db
    con = sqlite3.connect(path)
    with con:
        con.execute("UPDATE memory_facts SET confidence = 1e308 * 10 WHERE id = ?", (ids["repo"],))
        con.execute("UPDATE memory_facts SET confidence = 'NaN' WHERE id = ?", (ids["mood"],))
        con.execute("UPDATE memory_facts SET confidence = -0.5 WHERE id = ?", (ids["focus"],))
        con.execute("UPDATE memory_facts SET confidence = 1e300 WHERE id = ?", (ids["meeting"],))
    con.close()
    tab = make_tab(path)
    tab.bottom.setCurrentWidget(tab.overview)
    qtbot.wait(50)
    ov = tab.overview
    assert sorted(ov.invalid_ids) == sorted([ids["repo"], ids["mood"], ids["focus"]])
    assert ov.x.size == 8 and ids["meeting"] in list(ov.ids)
    assert "3 active fact(s) with an invalid confidence" in plain(ov.legend.text())
    y0, y1 = ov.vb.viewRange()[1]
    assert y0 == 0 and math.isfinite(y1)
    tab.select_ids([ids["repo"], ids["mood"], ids["focus"], ids["meeting"]])
    assert idle(tab)
    legend = plain(tab.curves.legend.text())
    assert "project.repo — invalid confidence Infinity: drawn at 0" in legend
    assert "context.mood — invalid confidence NaN: drawn at 0" in legend
    assert "3 fact(s) with an invalid confidence" in legend
    y0, y1 = tab.curves.plot.getPlotItem().vb.viewRange()[1]
    assert y0 == 0 and math.isfinite(y1)
    assert check_tab(tab) == []


def test_history_shows_versions_side_by_side(facts_db, make_tab):
    tab = make_tab(facts_db[0])
    tab.select_ids([facts_db[1]["deploy2"]])
    assert idle(tab)
    text = tab.history.toPlainText()
    assert "project.deploy_target: 2 versions, newest first" in text
    assert text.index("k8s (ACK 杭州)") < text.index("fly.io")


# -- curation ------------------------------------------------------------------------------------------


def test_pin_undo_and_redo_through_the_shared_stack(qtbot, facts_db, make_tab):
    path, ids = facts_db
    tab = make_tab(path, editing=True)
    tab.select_ids([ids["repo"]])
    tab.pin_selected(True)
    assert idle(tab)
    qtbot.waitUntil(lambda: row_by_name(tab, "project.repo").tau_src == "pinned", timeout=10_000)
    stack = tab.ctx.undo_stack
    assert (stack.count(), stack.undoText()) == (1, "Pin project.repo")
    stack.undo()
    wait_undo(qtbot, tab)
    qtbot.waitUntil(lambda: row_by_name(tab, "project.repo").tau_src == "namespace", timeout=10_000)
    stack.redo()
    wait_undo(qtbot, tab)
    qtbot.waitUntil(lambda: row_by_name(tab, "project.repo").tau_src == "pinned", timeout=10_000)
    db = MemoryDB.open(path)
    try:
        assert [e.action for e in reversed(audit.list_entries(db))] == ["facts.pin", "undo", "redo"]
    finally:
        db.close()


def test_edit_makes_a_new_version_and_undo_restores_the_old_head(qtbot, facts_db, make_tab):
    path, ids = facts_db
    tab = make_tab(path, editing=True)
    tab.edit_fact(row_by_name(tab, "user.city"), {"value": "Berlin", "confidence": 0.8})
    assert idle(tab)
    qtbot.waitUntil(lambda: row_by_name(tab, "user.city").fact.value == "Berlin", timeout=10_000)
    assert [r.name for r in tab.selected_rows()] == ["user.city"]  # the selection follows the new version
    assert row_by_name(tab, "user.city").fact.confidence == 0.8
    tab.ctx.undo_stack.undo()
    wait_undo(qtbot, tab)
    qtbot.waitUntil(lambda: row_by_name(tab, "user.city").fact.id == ids["city"], timeout=10_000)
    assert row_by_name(tab, "user.city").fact.value == "杭州"
    assert not tab.ctx.errors


def test_conflict_with_the_agent_shows_a_clear_message_and_keeps_its_version(qtbot, facts_db, make_tab):
    path, _ids = facts_db
    tab = make_tab(path, editing=True)
    stale = row_by_name(tab, "user.city")
    agent_db = MemoryDB.open(path, writable=True)
    try:
        agents = FactStore(agent_db).store_fact("user", "city", "Lisbon", now=FIXED_NOW)
    finally:
        agent_db.close()
    tab.edit_fact(stale, {"value": "Berlin"})  # computed against the version the table still shows
    assert idle(tab)
    qtbot.waitUntil(lambda: bool(tab.ctx.errors), timeout=10_000)
    assert tab.ctx.errors[-1] == (
        "Not applied: the fact changed meanwhile: user.city has a newer version written meanwhile (stored "
        "2026-06-15T12:00:00.000Z: Lisbon). Your edit was made against an older version and was not applied; "
        "the newer version is kept. Look at it and edit again if needed."
    )
    qtbot.waitUntil(lambda: row_by_name(tab, "user.city").fact.id == agents.id, timeout=10_000)
    assert tab.ctx.undo_stack.count() == 0
    db = MemoryDB.open(path)
    try:
        assert FactStore(db).get_fact("user", "city", bump=False).value == "Lisbon"
        assert audit.list_entries(db) == []
    finally:
        db.close()


def test_bulk_forget_of_the_pool_lists_the_candidates_and_undoes_in_one_step(
    qtbot, monkeypatch, facts_db, make_tab
):
    from philont_desktop.facts import view

    path, _ids = facts_db
    tab = make_tab(path, editing=True)
    listed: list[list[str]] = []

    def accept(dlg):
        listed.extend(dlg.item_texts())
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(view.BulkConfirmDialog, "exec", accept)
    tab.forget_pool_candidates()
    assert idle(tab)
    assert [(t[0], t[3]) for t in listed] == [("context.mood", "forgotten"), ("session.focus", "forgotten")]
    qtbot.waitUntil(lambda: "context.mood" not in shown_names(tab), timeout=10_000)
    assert "session.focus" not in shown_names(tab)
    assert tab.ctx.undo_stack.undoText() == "Forget 2 facts"
    tab.ctx.undo_stack.undo()
    wait_undo(qtbot, tab)
    qtbot.waitUntil(lambda: {"context.mood", "session.focus"} <= set(shown_names(tab)), timeout=10_000)


def test_move_namespace_confirms_and_moves(qtbot, monkeypatch, facts_db, make_tab):
    from philont_desktop.facts import view

    path, ids = facts_db
    tab = make_tab(path, editing=True)
    monkeypatch.setattr(view.NamespaceDialog, "exec", lambda dlg: QDialog.DialogCode.Accepted)
    monkeypatch.setattr(view.NamespaceDialog, "namespace", lambda dlg: "archive")
    seen: list[list[str]] = []
    monkeypatch.setattr(
        view.BulkConfirmDialog,
        "exec",
        lambda dlg: seen.extend(dlg.item_texts()) or QDialog.DialogCode.Accepted,
    )
    tab.select_ids([ids["repo"], ids["meeting"]])
    tab.move_selected()
    assert idle(tab)
    assert sorted((t[0], t[3]) for t in seen) == [
        ("project.repo", "→ archive.repo"),
        ("工作.周会时间", "→ archive.周会时间"),
    ]
    qtbot.waitUntil(lambda: "archive.repo" in shown_names(tab), timeout=10_000)
    assert "project.repo" not in shown_names(tab) and "archive.周会时间" in shown_names(tab)
    moved = row_by_name(tab, "archive.repo").fact
    assert moved.last_accessed_at == T(30)  # the age is kept; the new namespace's tau applies
    assert row_by_name(tab, "archive.repo").score == score_memory(
        "archive", 0.9, FIXED_NOW, T(30), None, FIXED_NOW
    )


def test_what_if_draws_the_curve_before_applying(qtbot, facts_db, make_tab):
    path, ids = facts_db
    tab = make_tab(path, editing=True)
    tab.select_ids([ids["repo"]])
    assert tab.whatif_apply.isEnabled() is False
    tab.whatif_mode.setCurrentIndex(tab.whatif_mode.findData("custom"))
    tab.whatif_tau.setValue(100)
    row, conf, tau = tab.curves.whatif
    assert (row.name, conf, tau) == ("project.repo", 0.9, 100.0)
    x, y = tab.curves.whatif_item.getData()
    assert y[-1] == pytest.approx(0.9 * math.exp(-max(0, x[-1] * 1000 - T(30)) / DAY / 100), rel=1e-9)
    assert "What if: falls below the threshold on" in tab.whatif_result.text()
    # The same humanizer as the table's "Below threshold from": "in 2 years", never "in 2.9 y".
    from philont_desktop import humanize
    from philont_desktop.facts.curves import whatif_crossing

    cross = whatif_crossing(row, conf, tau)
    now = tab.whatif.real_now
    assert f"({humanize.rel_time(cross, now)})" in tab.whatif_result.text()
    assert not re.search(r"\d y\)", tab.whatif_result.text())
    assert row_by_name(tab, "project.repo").fact.decay_tau_days is None  # nothing applied yet
    assert tab.whatif_apply.isEnabled()
    tab.apply_whatif()
    assert idle(tab)
    qtbot.waitUntil(lambda: row_by_name(tab, "project.repo").fact.decay_tau_days == 100.0, timeout=10_000)
    assert tab.ctx.undo_stack.undoText() == "Set tau of project.repo"


def test_live_refresh_keeps_selection_and_merges_new_rows(qtbot, facts_db, make_tab):
    path, ids = facts_db
    tab = make_tab(path)
    tab.select_ids([ids["repo"], ids["notes"]])
    before_rows = tab.model.rowCount()
    agent_db = MemoryDB.open(path, writable=True)
    try:
        FactStore(agent_db).store_fact("project", "new_thing", "added by the agent", now=FIXED_NOW)
        FactStore(agent_db).mark_accessed(ids["repo"], at=FIXED_NOW)
    finally:
        agent_db.close()
    tab.refresh()
    assert idle(tab)
    assert tab.model.rowCount() == before_rows + 1
    assert "project.new_thing" in shown_names(tab)
    assert sorted(r.name for r in tab.selected_rows()) == ["project.repo", "research.notes"]
    assert row_by_name(tab, "project.repo").score == 0.9


def test_a_selected_fact_the_agent_supersedes_stays_selected_as_its_new_version(qtbot, facts_db, make_tab):
    path, ids = facts_db
    tab = make_tab(path)
    tab.select_ids([ids["city"]])
    agent_db = MemoryDB.open(path, writable=True)
    try:
        newer = FactStore(agent_db).store_fact("user", "city", "Lisbon", now=FIXED_NOW)
    finally:
        agent_db.close()
    tab.refresh()
    assert idle(tab)
    assert [r.fid for r in tab.selected_rows()] == [newer.id]


def test_edit_dialog_reports_only_what_changed(qtbot, facts_db, make_tab):
    from philont_desktop.facts.widgets.fact_dialog import FactEditDialog

    tab = make_tab(facts_db[0])
    trip = row_by_name(tab, "travel.trip").fact
    dlg = FactEditDialog(trip, ["travel"], tab)
    qtbot.addWidget(dlg)
    assert dlg.changes() == {}
    dlg.value_edit.setPlainText('{"to": "OPO"')
    assert dlg.problem().startswith("The value is not valid JSON")
    dlg.value_edit.setPlainText('{"to": "OPO"}')
    dlg.conf_spin.setValue(0.5)
    assert dlg.changes() == {"value": {"to": "OPO"}, "confidence": 0.5}
    add = FactEditDialog(None, ["user", "self"], tab, namespace="self")
    qtbot.addWidget(add)
    assert add.problem() == "Enter a namespace."
    add.ns_combo.setCurrentText("self")
    add.key_edit.setText("x")
    assert add.problem() == "The self namespace is written by the agent's kernel only."


def test_self_test_passes(facts_db, make_tab):
    tab = make_tab(facts_db[0])
    assert check_tab(tab) == []


def test_row_scores_are_score_memory_bit_for_bit():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from core.models import Fact
    from philont_desktop.facts.data import build_row, row_score, score_rows

    namespaces = st.sampled_from(["user", "user.x", "project", "context", "session", "decisions", "", "USER"])
    times = st.integers(min_value=0, max_value=4_000_000_000_000)
    taus = st.one_of(
        st.none(), st.just(-1.0), st.just(0.0), st.floats(min_value=1e-6, max_value=1e6), st.just(math.inf)
    )

    @settings(max_examples=400, deadline=None)
    @given(namespaces, st.floats(min_value=0, max_value=1), times, st.one_of(st.none(), times), taus, times)
    def check(ns, conf, created, accessed, tau, at):
        f = Fact.model_construct(
            id="x",
            namespace=ns,
            key="k",
            value=1,
            value_json="1",
            confidence=conf,
            created_at=created,
            last_accessed_at=accessed,
            decay_tau_days=tau,
        )
        want = score_memory(ns, conf, created, accessed, tau, at)
        got = row_score(build_row(f), at)
        assert (math.isnan(got) and math.isnan(want)) or got == want
        row = build_row(f)
        score_rows([row], at)  # the time control's loop
        assert (math.isnan(row.score) and math.isnan(want)) or row.score == want

    check()


def test_a_load_scores_every_row_as_score_memory_and_gives_its_status_at_the_view_time(facts_db):
    from philont_desktop.facts.data import load_facts, status_at

    db = MemoryDB.open(facts_db[0])
    try:
        unscored = load_facts(db)
        assert all(math.isnan(r.score) and r.status == "active" for r in unscored.rows)
        for at in (T(0), T(-6), T(-30), T(400)):
            first = load_facts(db, at, at)
            # a reload: the rows of unchanged facts are reused, rescored
            again = load_facts(db, at, at, {r.fid: r for r in load_facts(db, T(50), T(50)).rows})
            for data in (first, again):
                assert {r.status for r in data.rows} >= {"active", "superseded", "forgotten"}
                for r in data.rows:
                    f = r.fact
                    want = score_memory(
                        f.namespace, f.confidence, f.created_at, f.last_accessed_at, f.decay_tau_days, at
                    )
                    assert r.score == want or (math.isnan(r.score) and math.isnan(want))
                    assert r.status == status_at(f, at)
            assert first.active == sum(1 for r in first.rows if r.fact.active)
    finally:
        db.close()


def test_the_decay_plot_shows_the_namespaces_leading_facts_while_nothing_is_selected(facts_db, make_tab):
    tab = make_tab(facts_db[0])
    assert not tab.selected_rows()
    drawn = set(tab.curves.curve_items)
    active = {r.fid for r in tab.model.rows() if r.status == "active"}
    assert drawn and drawn <= active
    assert "highest-scoring" in plain(tab.curves.legend.text())
    tab.select_namespace("context")
    drawn = {tab.model.fact_row(fid).fact.namespace for fid in tab.curves.curve_items}
    assert drawn == {"context"}
    tab.select_ids([facts_db[1]["mood"]])
    assert list(tab.curves.curve_items) == [facts_db[1]["mood"]]  # a selection replaces them


def test_the_facts_model_and_its_filter_pass_the_model_tester_as_the_view_time_moves(
    facts_db, make_tab, qtmodeltester
):
    tab = make_tab(facts_db[0])
    qtmodeltester.check(tab.model)
    qtmodeltester.check(tab.proxy)
    tab.superseded_check.setChecked(True)
    tab.set_offset_days(40)  # trip's validity window starts at +5 d and ends before: its status moves
    qtmodeltester.check(tab.model)
    qtmodeltester.check(tab.proxy)


def test_the_table_shows_what_the_view_time_and_an_edit_change(facts_db, make_tab):
    """Cell texts are kept between repaints: each one shown is the one computed from the row now."""
    from philont_desktop.facts.columns import C_STATUS, C_VALUE

    tab = make_tab(facts_db[0], editing=True)
    ids = facts_db[1]
    m = tab.model

    def text(fid: str, column: int) -> str:
        return m.data(m.index(m.row_of(fid), column))

    assert text(ids["trip"], C_STATUS) == "outside validity window"  # valid from +5 d to +10 d
    before = text(ids["repo"], C_VALUE)
    assert before == "github.com/x"
    tab.set_offset_days(7)
    assert text(ids["trip"], C_STATUS) == "active"
    tab.set_offset_days(0)
    assert text(ids["trip"], C_STATUS) == "outside validity window"
    tab.edit_fact(tab.model.fact_row(ids["repo"]), {"value": "gitlab.com/y"})
    assert idle(tab)
    assert text(tab.controller.head_id("project", "repo"), C_VALUE) == "gitlab.com/y"


def test_the_pool_is_read_once_the_time_control_rests_not_at_every_step(facts_db, make_tab):
    tab = make_tab(facts_db[0])
    reads: list[str] = []
    tab.ctx.workers.jobDone.connect(lambda job: reads.append(job.label))
    for days in range(1, 11):
        tab.time_slider.setValue(days)  # a drag's steps
        assert tab.busy  # the pool is still to be read (wait_idle waits for it)
    assert tab.view_time == FIXED_NOW + 10 * DAY  # the table followed every step
    assert tab.state.pool_at == FIXED_NOW  # the pool not yet
    assert idle(tab)
    assert reads.count("Forget pool") == 1
    assert tab.state.pool_at == FIXED_NOW + 10 * DAY
    assert "(+10 d)" in tab.pool_label.text()


def test_after_a_load_the_pool_is_read_once_the_rows_are_painted_not_beside_them(facts_db, make_tab):
    from philont_desktop.qt import QEvent, QObject

    tab = make_tab(facts_db[0])
    tab.set_offset_days(30)
    assert idle(tab)
    seen = {"data": False, "painted": False}
    asked: list[bool] = []  # for each pool read asked after the reload: were its rows painted then?

    class Paints(QObject):
        def eventFilter(self, obj, event) -> bool:
            if seen["data"] and event.type() == QEvent.Type.Paint:
                seen["painted"] = True
            return False

    paints = Paints()
    tab.table.viewport().installEventFilter(paints)
    tab.state.changed.connect(lambda names: seen.update(data=seen["data"] or "data" in names))
    load_pool = tab.controller.load_pool
    tab.controller.load_pool = lambda: (asked.append(seen["painted"]), load_pool())[1]
    tab.controller.refresh()
    assert idle(tab)
    assert seen["data"] and asked and all(asked), asked
    assert tab.state.pool_at == tab.view_time == FIXED_NOW + 30 * DAY  # read after the rows, at +30 d
    assert "(+30 d)" in tab.pool_label.text()


def test_the_tab_says_idle_only_once_the_pool_waiting_for_rest_is_read(facts_db, make_tab):
    """busyChanged agrees with busy: the live pacer and the first-read veil go by the signal."""
    tab = make_tab(facts_db[0])
    said: list[tuple[bool, bool]] = []  # (what the signal said, what busy was then)
    tab.controller.busyChanged.connect(lambda busy: said.append((busy, tab.controller.busy)))
    tab.set_offset_days(20)
    tab.controller.refresh()
    assert idle(tab)
    assert said and said[0] == (True, True) and said[-1] == (False, False)
    assert all(busy == now for busy, now in said)
    assert tab.state.pool_at == FIXED_NOW + 20 * DAY


def test_a_dragged_time_control_ends_with_the_pool_at_the_last_time(facts_db, make_tab):
    tab = make_tab(facts_db[0])
    for days in range(1, 31):
        tab.time_slider.setValue(days)  # a drag: the pool loads one at a time, the last one at +30 d
    assert idle(tab)
    assert tab.state.pool_at == tab.view_time == FIXED_NOW + 30 * DAY
    assert "(+30 d)" in tab.pool_label.text()
    assert sorted(f"{f.namespace}.{f.key}" for f in tab.pool_model.facts()) == [
        "context.location",
        "context.mood",
        "session.focus",
    ]


# -- the plots' first paint -----------------------------------------------------------------------------------


def _first_visit(qtbot, path: Path):
    """A Facts tab shown and activated, its first load on its way (not waited for)."""
    from philont_desktop.context import AppContext
    from philont_desktop.facts.view import FactsTab

    ctx = AppContext.open(path, interactive=False)
    tab = FactsTab(ctx)
    tab.now_fn = lambda: FIXED_NOW
    qtbot.addWidget(tab)
    tab.resize(1400, 900)
    return ctx, tab


class _Paints:
    """Paint events of a widget, each with what ``probe()`` said at that moment."""

    def __init__(self, widget, probe):
        from philont_desktop.qt import QEvent, QObject

        seen = self.seen = []

        class Filter(QObject):
            def eventFilter(self, obj, event) -> bool:
                if event.type() == QEvent.Type.Paint:
                    seen.append(probe())
                return False

        self.filter = Filter()
        widget.installEventFilter(self.filter)


def test_the_decay_plot_is_first_painted_with_the_loaded_curves_not_empty_before(qtbot, facts_db):
    ctx, tab = _first_visit(qtbot, facts_db[0])
    try:
        curves = tab.curves  # made before the visit, as the window's background build does
        paints = _Paints(curves.plot.viewport(), lambda: set(curves.curve_items))
        tab.show()
        tab.ensure_activated()  # the loading veil, the load on its way
        assert tab.busy
        qtbot.waitUntil(lambda: bool(paints.seen), timeout=20_000)  # through the event loop alone
        # its first paint shows the leading facts' curves: it was not painted empty under the veil,
        # nor again when the rows arrived, before they were drawn
        assert paints.seen[0] and paints.seen[0] == set(curves.curve_items)
        assert len(curves.curve_items) == 6
        assert curves.plot.updatesEnabled()
        assert idle(tab)
        assert all(paints.seen)
    finally:
        ctx.close()


def test_the_plots_paint_again_when_the_first_load_fails(qtbot, monkeypatch, facts_db):
    import philont_desktop.facts.controller as controller

    def broken(*_args, **_kwargs):
        raise RuntimeError("the disk went away")

    monkeypatch.setattr(controller, "load_facts", broken)
    ctx, tab = _first_visit(qtbot, facts_db[0])
    try:
        curves = tab.curves
        assert not curves.plot.updatesEnabled()  # held until the first load is drawn
        tab.show()
        tab.ensure_activated()
        qtbot.waitUntil(lambda: not tab.state.loading, timeout=20_000)
        assert any("the disk went away" in e for e in ctx.errors)  # the error is shown
        assert not tab.bottom.held
        assert curves.plot.updatesEnabled() and tab.overview.plot.updatesEnabled()
        paints = _Paints(curves.plot.viewport(), lambda: True)
        curves.plot.update()
        qtbot.waitUntil(lambda: bool(paints.seen), timeout=5_000)  # the (empty) plot paints again
    finally:
        ctx.close()


def test_screenshots_and_tests_waiting_for_the_tab_get_the_plots_painted(qtbot, facts_db, make_tab):
    tab = make_tab(facts_db[0])  # waits with wait_idle()
    assert not tab.bottom.held and not tab.bottom.pending and not tab.busy
    assert tab.curves.plot.updatesEnabled()
    image = tab.curves.plot.grab().toImage()
    bg = tab.curves.plot.backgroundBrush().color().rgb()
    painted = sum(
        1 for x in range(0, image.width(), 5) for y in range(0, image.height(), 5) if image.pixel(x, y) != bg
    )
    assert painted > 50


def test_the_curves_drawn_anew_for_a_far_view_time_are_painted_with_it(qtbot, facts_db, make_tab):
    """Moving the time control near the plot's right edge draws the curves anew (their paint follows
    in the next event-loop turn): each paint shows a range that holds the view time."""
    tab = make_tab(facts_db[0])
    curves = tab.curves
    paints = _Paints(
        curves.plot.viewport(), lambda: (curves.plot.getViewBox().viewRange()[0][1], tab.view_time)
    )
    redrawn = []
    for days in (60, 120, 240, 360):
        redrawn.append(curves.redraws_at(FIXED_NOW + days * DAY))
        tab.time_slider.setValue(days)
        qtbot.waitUntil(lambda: not tab.busy, timeout=20_000)  # through the event loop alone
        qtbot.waitUntil(
            lambda d=days: paints.seen and paints.seen[-1][1] == FIXED_NOW + d * DAY, timeout=5_000
        )
        right, view = paints.seen[-1]
        assert right * 1000 > view  # the new range, painted
        assert curves.plot.updatesEnabled() and not tab.bottom.held
    assert any(redrawn)
    assert curves.view_line.isVisible() and curves.view_line.value() == (FIXED_NOW + 360 * DAY) / 1000


def test_plots_made_in_the_background_turns_are_shown_in_the_tab(qtbot, facts_db):
    """The curves' plot widget is made a turn before the curves (the tab built in the background):
    it ends up inside the curves, shown and painted with them."""
    ctx, tab = _first_visit(qtbot, facts_db[0])
    try:
        qtbot.waitUntil(lambda: not tab.bottom._steps, timeout=10_000)  # every plot made, turn by turn
        curves = tab.curves
        assert curves.plot.parent() is curves and curves.plot.objectName() == "decayCurves"
        tab.show()
        tab.ensure_activated()
        assert idle(tab)
        assert curves.plot.isVisible() and curves.plot.width() > 100 and len(curves.curve_items) == 6
    finally:
        ctx.close()


# -- one edit, one reload ---------------------------------------------------------------------------------


def _count_loads(monkeypatch, controller) -> list[int]:
    """Every load of the Facts tab's rows that ``controller`` starts from now on."""
    loads: list[int] = []
    start = controller._start_load

    def counted() -> None:
        loads.append(1)
        start()

    monkeypatch.setattr(controller, "_start_load", counted)
    return loads


def _settled(qtbot, w, tab, heard: list[int]) -> None:
    """The edit is on the stack, the file change it made was heard and the tab has nothing left to do."""
    qtbot.waitUntil(lambda: w.ctx.undo_stack.count() == 1 and not w.ctx.undo.busy, timeout=20_000)
    qtbot.waitUntil(lambda: bool(heard), timeout=20_000)
    qtbot.waitUntil(lambda: tab._pacer is None or not tab._pacer.waiting, timeout=20_000)
    assert idle(tab)


def test_one_edit_reloads_the_facts_tab_that_made_it_once(qtbot, monkeypatch, db_path, open_window):
    build_db(db_path)
    w = open_window(db_path)
    tab = w.show_tab("facts")
    assert idle(tab)
    with qtbot.waitSignal(w.ctx.editingChanged, timeout=20_000):
        w.set_editing(True)
    assert idle(tab)
    loads = _count_loads(monkeypatch, tab.controller)
    heard: list[int] = []
    w.ctx.dataChanged.connect(lambda: heard.append(1))
    tab.edit_fact(row_by_name(tab, "user.city"), {"value": "Berlin"})
    _settled(qtbot, w, tab, heard)
    assert row_by_name(tab, "user.city").fact.value == "Berlin"
    assert len(loads) == 1


def test_an_edit_reaches_the_other_tabs_and_an_undo_reloads_every_tab_once(
    qtbot, monkeypatch, db_path, open_window
):
    from philont_desktop.tabs.controller import TabController
    from philont_desktop.tabs.state import TabState

    build_db(db_path)
    w = open_window(db_path)
    tab = w.show_tab("facts")
    with qtbot.waitSignal(w.ctx.editingChanged, timeout=20_000):
        w.set_editing(True)
    assert idle(tab)

    class Other(TabController):
        layers = ("facts",)

        def changes_applied(self, changes):
            heard.append((changes.kind, changes.initiator))

    heard: list[tuple[str, object]] = []
    other = Other(w.ctx, TabState(), "other")
    other.active = True
    tab.edit_fact(row_by_name(tab, "user.city"), {"value": "Berlin"})
    _settled(qtbot, w, tab, [1])
    qtbot.waitUntil(lambda: bool(heard), timeout=20_000)
    assert heard == [("perform", tab.controller)]
    loads = _count_loads(monkeypatch, tab.controller)
    changed: list[int] = []
    w.ctx.dataChanged.connect(lambda: changed.append(1))
    w.ctx.undo_stack.undo()
    qtbot.waitUntil(lambda: len(heard) == 2 and bool(changed), timeout=20_000)
    qtbot.waitUntil(lambda: tab._pacer is None or not tab._pacer.waiting, timeout=20_000)
    assert idle(tab)
    assert heard[1] == ("undo", None)
    assert row_by_name(tab, "user.city").fact.value == "杭州"
    assert len(loads) == 1
