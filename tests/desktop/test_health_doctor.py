"""The Health tab's doctor page: the findings of a planted file per layer, a fix previewed, applied and
undone, the last result shown at once on reopening, the findings model, and both languages."""

from __future__ import annotations

import pytest

from core.db import MemoryDB
from core.errors import Notice
from core.facts import FactStore
from core.health.finding import Finding
from philont_desktop.health.doctor import work
from philont_desktop.health.doctor.measure import picture_of
from philont_desktop.health.doctor.model import COL_SEVERITY, FindingsModel
from philont_desktop.health.doctor.texts import layer_name
from philont_desktop.health.doctor.widgets import FOLD_OVER, FindingsTree
from philont_desktop.health.view import HealthTab
from philont_desktop.qt import QApplication, Qt, QTreeView
from philont_desktop.widgets import accessible
from tests.conftest import FIXED_NOW

DAY = 86_400_000
T0 = FIXED_NOW - 10 * DAY


@pytest.fixture
def planted(db_path):
    """A file with one value under two keys (a merge offered) and a chain naming a missing fact."""
    db = MemoryDB.create(db_path, now=T0)
    store = FactStore(db)
    a = store.store_fact("user", "favorite_color", "deep ocean blue", now=T0)
    b = store.store_fact("user", "favourite_color", "deep ocean blue", now=T0 + 1)
    store.store_fact("misc", "parking_spot", "level 3", now=T0)  # not in the prefix, never read
    old = store.store_fact("user", "job", "student", now=T0)
    store.store_fact("user", "job", "engineer", now=T0 + 1)
    with db.write() as conn:
        conn.execute("UPDATE memory_facts SET superseded_by = 'gone' WHERE id = ?", (old.id,))
    db.close()
    return db_path, a.id, b.id


def _page(tab):
    page = tab.show_page("doctor")
    assert tab.wait_idle(30_000)
    return page


def _live_keys(path):
    db = MemoryDB.open(path)
    try:
        return sorted(f.key for f in FactStore(db).list_facts("user"))
    finally:
        db.close()


def _tau(path, key):
    db = MemoryDB.open(path)
    try:
        return FactStore(db).get_fact("misc", key, bump=False).decay_tau_days
    finally:
        db.close()


def test_the_page_lists_the_findings_per_layer(planted, open_tab):
    path, _a, _b = planted
    tab = open_tab(HealthTab, path)
    page = _page(tab)
    codes = {f.code for f in page.model.findings()}
    assert {"health.facts.same_value", "health.facts.chain_missing"} <= codes
    assert page.model.layers[0] == "facts"
    assert "warning" in page.summary.line("facts") or "failure" in page.summary.line("facts")
    assert page.summary.line("calendar") == "ok"
    assert page.select_finding("health.facts.same_value")
    assert page.detail.finding.code == "health.facts.same_value"
    assert not page.detail.fix.isEnabled()  # not in editing mode
    assert page.detail.dismiss.isVisibleTo(page)  # a merge can be declined


def test_the_prefix_against_its_cap_is_drawn_month_by_month(planted, open_tab):
    tab = open_tab(HealthTab, planted[0])
    page = _page(tab)
    assert page.select_finding("health.file.prefix_size")
    plot = page.detail.plot
    assert plot.isVisibleTo(page) and plot.plot is not None
    kind, labels, values, cap, what = plot.picture
    assert (kind, cap, what) == ("months", 40_000, "chars") and labels and len(values) == len(labels)
    assert page.select_finding("health.facts.same_value")
    assert not plot.isVisibleTo(page)  # two keys read better as words than as a chart


def test_a_fix_is_previewed_applied_and_undone(planted, open_tab, start_editing, qtbot):
    path, _a, b = planted
    tab = open_tab(HealthTab, path)
    page = _page(tab)
    start_editing(tab)
    assert page.select_finding("health.facts.same_value")
    assert page.detail.fix.isEnabled()
    page.start_fix()
    assert tab.wait_idle(20_000)
    dialog = page.dialog
    assert dialog is not None and dialog.need == "survivor"
    assert dialog.survivor.count() == 2
    for w in accessible.interactive_widgets(dialog):  # every control of the dialog is named
        assert w.objectName() and accessible.accessible_name(w), w.objectName()
    dialog.survivor.setCurrentIndex(dialog.survivor.findData(b))
    assert tab.wait_idle(20_000)
    rows = [dialog.preview.topLevelItem(i) for i in range(dialog.preview.topLevelItemCount())]
    assert [(r.text(0), r.text(1), r.text(3)) for r in rows] == [("user.favorite_color", "superseded by", b)]
    assert dialog.ok.isEnabled()
    dialog.accept()
    assert tab.wait_idle(20_000)
    assert qtbot.waitUntil(lambda: _live_keys(path) == ["favourite_color", "job"], timeout=10_000) is None
    assert tab.wait_idle(20_000)
    assert "health.facts.same_value" not in {f.code for f in page.model.findings()}
    tab.ctx.undo.undo()
    qtbot.waitUntil(lambda: _live_keys(path) == ["favorite_color", "favourite_color", "job"], timeout=10_000)
    assert tab.wait_idle(20_000)
    qtbot.waitUntil(
        lambda: "health.facts.same_value" in {f.code for f in page.model.findings()}, timeout=10_000
    )


def test_an_unread_fact_may_be_given_a_shorter_tau_instead_of_being_forgotten(
    planted, open_tab, start_editing, qtbot
):
    path = planted[0]
    tab = open_tab(HealthTab, path)
    page = _page(tab)
    start_editing(tab)
    assert page.select_finding("health.facts.unread")
    menu = page.detail.fix.menu()
    assert menu is not None
    titles = [a.text() for a in menu.actions()]
    assert titles == ["Forget them…", "Pin them…", "Shorten their decay time…"]
    menu.actions()[2].trigger()
    assert tab.wait_idle(20_000)
    dialog = page.dialog
    assert dialog is not None and dialog.need == "tau" and dialog.tau.isVisibleTo(dialog)
    dialog.tau.setValue(7)
    assert tab.wait_idle(20_000)
    rows = [dialog.preview.topLevelItem(i) for i in range(dialog.preview.topLevelItemCount())]
    assert [(r.text(0), r.text(1), r.text(2), r.text(3)) for r in rows] == [
        ("misc.parking_spot", "τ (days)", "—", "7")
    ]
    dialog.accept()
    assert tab.wait_idle(20_000)
    qtbot.waitUntil(lambda: _tau(path, "parking_spot") == 7.0, timeout=10_000)
    tab.ctx.undo.undo()
    qtbot.waitUntil(lambda: _tau(path, "parking_spot") is None, timeout=10_000)


def test_the_last_result_is_shown_at_once_on_reopening(planted, open_tab, monkeypatch):
    path, _a, _b = planted
    first = _page(open_tab(HealthTab, path))
    assert first.findings
    kept = [f.code for f in first.findings]

    def never(*_args, **_kw):
        raise RuntimeError("the checks are not run in this test")

    monkeypatch.setattr(work, "check", never)
    tab = open_tab(HealthTab, path)
    page = _page(tab)
    assert [f.code for f in page.findings] == kept
    assert page.at == first.at


def test_never_merge_these_stops_reporting_the_pair(planted, open_tab):
    path, _a, _b = planted
    tab = open_tab(HealthTab, path)
    page = _page(tab)
    assert page.select_finding("health.facts.same_value")
    page.dismiss_current()
    assert tab.wait_idle(20_000)
    assert "health.facts.same_value" not in {f.code for f in page.model.findings()}
    page.refresh()
    assert tab.wait_idle(30_000)
    assert "health.facts.same_value" not in {f.code for f in page.model.findings()}
    assert "health.facts.chain_missing" in {f.code for f in page.model.findings()}


def test_every_control_has_a_name(planted, open_tab):
    tab = open_tab(HealthTab, planted[0])
    page = _page(tab)
    page.select_finding("health.facts.same_value")
    for w in accessible.interactive_widgets(page):
        assert w.objectName(), w
        assert accessible.accessible_name(w), w.objectName()


def _finding(code, layer, severity="warn", measure=None, fix=None):
    return Finding(code, severity, layer, ["x"], Notice(code, code, {}), measure or {}, fix)


def test_the_findings_model(qtmodeltester):
    model = FindingsModel()
    model.set_findings(
        [
            _finding("health.facts.unread", "facts", "info"),
            _finding("health.facts.live_conflict", "facts", "fail"),
            _finding("health.calendar.task_paused", "calendar"),
        ]
    )
    qtmodeltester.check(model)
    assert model.layers == ["facts", "calendar"]
    assert [f.code for f in model.rows["facts"]] == ["health.facts.live_conflict", "health.facts.unread"]
    model.set_findings([])
    qtmodeltester.check(model)


def _many_findings(n):
    """``n`` findings over three layers, mostly notes, one failure and one warning among the last."""
    out = [_finding(f"health.facts.n{i}", "facts", "info") for i in range(n)]
    out += [_finding(f"health.notes.n{i}", "notes", "info") for i in range(n)]
    out += [_finding("health.notes.last", "notes", "warn"), _finding("health.file.size", "file", "fail")]
    return out


def test_the_severity_column_is_as_wide_as_its_widest_text(qtbot):
    model = FindingsModel()
    tree = FindingsTree(model)
    qtbot.addWidget(tree)
    tree.show()
    model.set_findings(_many_findings(40))
    tree.expandAll()
    assert tree.sizeHintForColumn(COL_SEVERITY) == QTreeView.sizeHintForColumn(tree, COL_SEVERITY) > 0
    tree.collapse(model.index(model.layers.index("file"), 0))  # "failure" only in a collapsed layer
    assert tree.sizeHintForColumn(COL_SEVERITY) == QTreeView.sizeHintForColumn(tree, COL_SEVERITY)
    model.set_findings([])
    assert tree.sizeHintForColumn(COL_SEVERITY) == QTreeView.sizeHintForColumn(tree, COL_SEVERITY)


def test_hundreds_of_findings_are_shown_without_reading_every_severity(planted, open_tab, monkeypatch):
    """Fitting the severity column reads one row of each severity, not all of them (hundreds of findings
    read on the GUI thread each time they are shown held the window still for tens of milliseconds)."""
    page = _page(open_tab(HealthTab, planted[0], size=(900, 300)))
    asked = set()
    data = page.model.data

    def remembered(index, role=0):
        if index.isValid() and index.internalId() != 0 and index.column() == COL_SEVERITY:
            asked.add((index.internalId(), index.row()))
        return data(index, role)

    monkeypatch.setattr(page.model, "data", remembered)
    page.model.set_findings(_many_findings(150))
    page.tree.expandAll()
    QApplication.processEvents()  # the header fits its columns, the rows on screen are painted
    assert 0 < len(asked) < 30
    header = page.tree.header()
    fitted = max(header.sectionSizeHint(COL_SEVERITY), QTreeView.sizeHintForColumn(page.tree, COL_SEVERITY))
    assert header.sectionSize(COL_SEVERITY) == fitted


def test_a_measure_is_drawn_where_a_picture_reads_better():
    months = {
        "cap": 40_000,
        "months": [{"month": "2026-05", "chars": 30_000}, {"month": "2026-06", "chars": 41_000}],
    }
    assert picture_of(months) == ("months", ["2026-05", "2026-06"], [30_000.0, 41_000.0], 40_000.0, "chars")
    assert picture_of({"cap": 40_000, "chars": 52_000, "over": 12_000})[0] == "bar"
    assert picture_of({"threshold": 0.05, "scores": {"a": 0.01, "b": 0.02}})[0] == "scores"
    assert picture_of({"days": 90, "count": 3}) is None


def test_the_chinese_interface_translates_every_finding_and_fix(chinese):
    from core.health.fixes import CODES
    from core.health.messages import TEXTS
    from philont_desktop import messages
    from philont_desktop.health.doctor import texts

    assert set(TEXTS) <= texts.codes() and set(CODES) <= texts.codes()
    for code in TEXTS:
        shown = messages.text(code, {}, "English")
        assert shown != "English" and not shown.isascii(), code
    for code in CODES:
        assert not texts.fix_title(code).isascii() and not texts.fix_summary(code).isascii(), code
    for layer in ("facts", "skills", "notes", "indexes", "calendar", "file"):
        assert not texts.layer_name(layer).isascii()


def test_show_the_rows_selects_them_in_the_facts_tab(planted, open_window, qtbot):
    path, a, b = planted
    w = open_window(path)
    tab = w.show_tab("health")
    page = tab.show_page("doctor")
    assert tab.wait_idle(30_000)
    assert page.select_finding("health.facts.same_value")
    assert page.detail.show_rows.isEnabled()
    assert page.show_rows()
    facts = w.tab_widget.currentWidget()
    assert facts.name == "facts"
    qtbot.waitUntil(lambda: {r.fid for r in facts.selected_rows()} == {a, b}, timeout=20_000)


def test_a_skill_is_shown_in_the_skills_tab(db_path, open_window, qtbot):
    from core.skills import SkillStore
    from philont_desktop.tabs.navigation import ShowSkill

    db = MemoryDB.create(db_path, now=T0)
    skill = SkillStore(db).create_skill("deploy", "Deploy the site", ["deploy"], "run deploy", now=T0)
    SkillStore(db).create_skill("backup", "Back up", ["backup"], "run backup", now=T0)
    db.close()
    w = open_window(db_path)
    assert w.ctx.navigator.go(ShowSkill(skill.id))  # the tab is built and loads: selected once loaded
    tab = w.tab_widget.currentWidget()
    assert tab.name == "skills"
    qtbot.waitUntil(
        lambda: tab.current_skill() is not None and tab.current_skill().id == skill.id, timeout=20_000
    )


def test_a_failing_task_is_shown_in_the_calendar_tab(db_path, open_window, qtbot):
    from core.schedules import ScheduleStore

    db = MemoryDB.create(db_path, now=T0)
    tasks = ScheduleStore(db)
    tasks.create("morning digest", FIXED_NOW, cron_expr="interval:3600000", now=T0)
    task = tasks.create("nightly sync", FIXED_NOW, cron_expr="interval:86400000", now=T0)
    with db.write() as conn:
        conn.execute("UPDATE memory_schedules SET consecutive_failures = 5 WHERE id = ?", (task.id,))
    db.close()
    w = open_window(db_path)
    tab = w.show_tab("health")
    page = tab.show_page("doctor")
    assert tab.wait_idle(30_000)
    assert page.select_finding("health.calendar.task_failing")
    assert page.show_rows()
    calendar = w.tab_widget.currentWidget()
    assert calendar.name == "calendar"

    def shown() -> bool:
        target = calendar.selected_target()
        return target is not None and target[0] == "task" and target[1].id == task.id

    qtbot.waitUntil(shown, timeout=20_000)


def test_a_measured_list_or_mapping_is_counted_in_words_in_both_languages(english):
    from philont_desktop.health.doctor.measure import measure_lines

    lines = measure_lines(
        {"facts": [{"id": "a"}, {"id": "b"}], "by": {"x": 1, "y": 2, "z": 3}, "ids": ["a", "b"]}
    )
    assert lines == ["facts: 2 entries", "by: 3 values", "ids: a, b"]


def test_the_checks_run_again_only_after_the_last_result_is_shown(planted, open_tab, monkeypatch):
    """The last result's first paint does not share the interpreter with the checks: they wait
    FIRST_PAINT_S when a last result was just shown, and not at all on a first visit or on request."""
    path, _a, _b = planted
    from philont_desktop.health.doctor import page as doctor_page

    waits = []
    real = work.check

    def check(db, db_path, after_s=0.0, *args, **kw):
        waits.append(after_s)
        return real(db, db_path, 0.0, *args, **kw)

    monkeypatch.setattr(work, "check", check)
    first = _page(open_tab(HealthTab, path))  # nothing kept yet: the checks at once
    assert waits == [0.0]
    page = _page(open_tab(HealthTab, path))  # the last result shown, then the checks
    assert waits == [0.0, doctor_page.FIRST_PAINT_S] and doctor_page.FIRST_PAINT_S > 0
    assert [f.code for f in page.findings] == [f.code for f in first.findings]
    page.refresh()  # "Check again": at once
    assert page.settle(30_000)
    assert waits[-1] == 0.0 and len(waits) == 3


def test_a_layer_with_hundreds_of_findings_is_shown_folded_until_opened(planted, open_tab):
    """Over FOLD_OVER findings a layer starts folded, its line counting them; the worst finding of the
    first open layer is selected; a layer opened by the person stays open when the checks run again."""
    page = _page(open_tab(HealthTab, planted[0]))
    many = _many_findings(FOLD_OVER)  # facts: FOLD_OVER, notes: FOLD_OVER + 1, file: 1
    page._show(page.at, many)
    model, tree = page.model, page.tree
    facts, notes, file = (model.index(model.layers.index(la), 0) for la in ("facts", "notes", "file"))
    assert tree.isExpanded(facts) and not tree.isExpanded(notes) and tree.isExpanded(file)
    assert model.data(notes) == f"{layer_name('notes')} ({FOLD_OVER + 1})"
    assert page.current_finding() is many[0]
    tree.expand(notes)
    tree.collapse(facts)
    page._show(page.at, list(reversed(many)))  # the checks again: the person's choice kept
    facts, notes = (model.index(model.layers.index(la), 0) for la in ("facts", "notes"))
    assert tree.isExpanded(notes) and not tree.isExpanded(facts)
    assert page.select_finding("health.facts.n3")  # a finding asked for opens its layer
    assert tree.isExpanded(model.index(model.layers.index("facts"), 0))
    assert page.current_finding().code == "health.facts.n3"


def test_a_folded_layer_opens_and_closes_from_the_keyboard(planted, open_tab, qtbot):
    page = _page(open_tab(HealthTab, planted[0]))
    page._show(page.at, _many_findings(FOLD_OVER))
    model, tree = page.model, page.tree
    notes = model.index(model.layers.index("notes"), 0)
    assert not tree.isExpanded(notes)
    tree.setFocus()
    tree.setCurrentIndex(notes)
    qtbot.keyClick(tree, Qt.Key.Key_Right)
    assert tree.isExpanded(notes)
    qtbot.keyClick(tree, Qt.Key.Key_Down)
    assert page.current_finding() is not None and page.current_finding().layer == "notes"
    qtbot.keyClick(tree, Qt.Key.Key_Left)  # to the layer's line
    qtbot.keyClick(tree, Qt.Key.Key_Left)  # folded again
    assert not tree.isExpanded(notes)
