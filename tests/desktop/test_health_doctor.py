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
from philont_desktop.health.doctor.model import COL_FINDING, COL_SEVERITY, FindingGroups
from philont_desktop.health.doctor.texts import layer_name, severity_name
from philont_desktop.health.doctor.tree import FOLD_OVER, FindingsTree
from philont_desktop.health.view import HealthTab
from philont_desktop.qt import QApplication, Qt, QTreeView
from philont_desktop.theme import Theme
from philont_desktop.widgets import accessible, plain
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
    codes = {f.code for f in page.groups.findings()}
    assert {"health.facts.same_value", "health.facts.chain_missing"} <= codes
    assert page.groups.layers[0] == "facts"
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
    assert "health.facts.same_value" not in {f.code for f in page.groups.findings()}
    tab.ctx.undo.undo()
    qtbot.waitUntil(lambda: _live_keys(path) == ["favorite_color", "favourite_color", "job"], timeout=10_000)
    assert tab.wait_idle(20_000)
    qtbot.waitUntil(
        lambda: "health.facts.same_value" in {f.code for f in page.groups.findings()}, timeout=10_000
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
    assert "health.facts.same_value" not in {f.code for f in page.groups.findings()}
    page.refresh()
    assert tab.wait_idle(30_000)
    assert "health.facts.same_value" not in {f.code for f in page.groups.findings()}
    assert "health.facts.chain_missing" in {f.code for f in page.groups.findings()}


def test_every_control_has_a_name(planted, open_tab):
    tab = open_tab(HealthTab, planted[0])
    page = _page(tab)
    page.select_finding("health.facts.same_value")
    for w in accessible.interactive_widgets(page):
        assert w.objectName(), w
        assert accessible.accessible_name(w), w.objectName()


def _finding(code, layer, severity="warn", measure=None, fix=None):
    return Finding(code, severity, layer, ["x"], Notice(code, code, {}), measure or {}, fix)


def test_the_findings_are_grouped_by_layer_worst_first():
    groups = FindingGroups()
    unread = _finding("health.facts.unread", "facts", "info")
    conflict = _finding("health.facts.live_conflict", "facts", "fail")
    paused = _finding("health.calendar.task_paused", "calendar")
    assert groups.set_findings([unread, conflict, paused])
    assert groups.layers == ["facts", "calendar"]
    assert groups.rows["facts"] == [conflict, unread]
    assert groups.finding(0, 1) is unread and groups.finding(1, 0) is paused
    assert groups.finding(1, 1) is None and groups.finding(2, 0) is None
    assert groups.position(_finding("health.facts.unread", "facts", "warn")) == (0, 1)  # checked again
    assert groups.layer_line("facts") == f"{layer_name('facts')} (2)"
    assert not groups.set_findings([paused, unread, conflict])  # the same: nothing to show again
    later = Finding(unread.code, unread.severity, unread.layer, ["x"], unread.message, {"days": 2})
    assert not groups.set_findings([paused, later, conflict])  # only its measure moved: the same line
    assert groups.rows["facts"][1] is later
    louder = Finding(unread.code, "warn", unread.layer, ["x"], unread.message)
    assert groups.set_findings([paused, louder, conflict])
    assert groups.set_findings([unread, paused])
    assert groups.set_findings([]) and groups.layers == [] and groups.findings() == []


def test_the_findings_tree(qtbot):
    """The lines Qt paints. The items live in Qt's own model of ``QTreeWidget``: there is no model of
    ours for the model tester, and Qt's tester reports one of its checks failing on that model for any
    two-column ``QTreeWidget`` with a child ("childIndex != childIndex1"), so it is not run here."""
    groups = FindingGroups()
    tree = FindingsTree(groups)
    qtbot.addWidget(tree)
    groups.set_findings(
        [
            _finding("health.facts.unread", "facts", "info"),
            _finding("health.facts.live_conflict", "facts", "fail"),
            _finding("health.calendar.task_paused", "calendar"),
        ]
    )
    tree.show_groups()
    model = tree.model()
    assert model.rowCount() == 2 and model.columnCount() == 2
    facts = tree.layer_index("facts")
    assert (
        model.data(facts) == f"{layer_name('facts')} (2)"
        and model.data(facts, Qt.ItemDataRole.FontRole).bold()
    )
    first = model.index(0, COL_FINDING, facts)
    assert model.data(first) == "health.facts.live_conflict"
    assert model.data(first, Qt.ItemDataRole.ToolTipRole) == plain.tooltip("health.facts.live_conflict")
    assert model.data(model.index(0, COL_SEVERITY, facts)) == severity_name("fail")
    assert tree.finding(first).code == "health.facts.live_conflict" and tree.finding(facts) is None
    assert not model.flags(first) & Qt.ItemFlag.ItemIsEditable
    groups.set_findings([])
    tree.show_groups()
    assert model.rowCount() == 0


def test_the_lines_follow_the_theme_colours_and_the_text_size_when_they_change(qtbot):
    theme = Theme("light")
    theme.apply()
    groups = FindingGroups()
    tree = FindingsTree(groups, theme)
    qtbot.addWidget(tree)
    groups.set_findings([_finding("health.facts.live_conflict", "facts", "fail")])
    tree.show_groups()
    cell = tree.model().index(0, COL_SEVERITY, tree.layer_index("facts"))
    assert cell.data(Qt.ItemDataRole.ForegroundRole).color() == theme.status_color("error")
    was = theme.status_color("error")
    layer = tree.layer_index("facts")
    try:
        theme.set_mode("dark")
        assert theme.status_color("error") != was
        assert cell.data(Qt.ItemDataRole.ForegroundRole).color() == theme.status_color("error")
        size = layer.data(Qt.ItemDataRole.FontRole).pointSizeF()
        theme.set_zoom(150)
        font = layer.data(Qt.ItemDataRole.FontRole)
        assert font.bold() and font.pointSizeF() == QApplication.font().pointSizeF() > size
    finally:
        theme.set_zoom(100)
        theme.set_mode("light")


def _many_findings(n):
    """``n`` findings over three layers, mostly notes, one failure and one warning among the last."""
    out = [_finding(f"health.facts.n{i}", "facts", "info") for i in range(n)]
    out += [_finding(f"health.notes.n{i}", "notes", "info") for i in range(n)]
    out += [_finding("health.notes.last", "notes", "warn"), _finding("health.file.size", "file", "fail")]
    return out


def test_the_severity_column_is_as_wide_as_its_widest_text(qtbot):
    groups = FindingGroups()
    tree = FindingsTree(groups)
    qtbot.addWidget(tree)
    tree.show()
    groups.set_findings(_many_findings(40))
    tree.show_groups()
    tree.expandAll()
    assert tree.sizeHintForColumn(COL_SEVERITY) == QTreeView.sizeHintForColumn(tree, COL_SEVERITY) > 0
    tree.collapse(tree.layer_index("file"))  # "failure" only in a collapsed layer
    assert tree.sizeHintForColumn(COL_SEVERITY) == QTreeView.sizeHintForColumn(tree, COL_SEVERITY)
    groups.set_findings([])
    tree.show_groups()
    assert tree.sizeHintForColumn(COL_SEVERITY) == QTreeView.sizeHintForColumn(tree, COL_SEVERITY)


def test_hundreds_of_findings_are_shown_without_measuring_every_severity(planted, open_tab, monkeypatch):
    """Fitting the severity column measures one line of each severity, not all of them."""
    page = _page(open_tab(HealthTab, planted[0], size=(900, 300)))
    asked = set()
    measure = page.tree.sizeHintForIndex

    def remembered(index):
        if index.parent().isValid():
            asked.add((index.parent().row(), index.row()))
        return measure(index)

    monkeypatch.setattr(page.tree, "sizeHintForIndex", remembered)
    page.groups.set_findings(_many_findings(150))
    page.tree.show_groups()
    page.tree.expandAll()
    QApplication.processEvents()  # the header fits its columns, the rows on screen are painted
    assert 0 < len(asked) <= 3
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

    reads = []
    read = work.load_last

    def load_last(db_path, after_s=0.0):
        reads.append(after_s)
        return read(db_path)

    monkeypatch.setattr(work, "check", check)
    monkeypatch.setattr(work, "load_last", load_last)
    first = _page(open_tab(HealthTab, path))  # nothing kept yet: the checks at once
    assert waits == [0.0]
    page = _page(open_tab(HealthTab, path))  # the last result shown, then the checks
    assert waits == [0.0, doctor_page.FIRST_PAINT_S] and doctor_page.FIRST_PAINT_S > 0
    assert reads == [doctor_page.FIRST_SHOW_S] * 2 and doctor_page.FIRST_SHOW_S > 0  # after the first paint
    assert [f.code for f in page.findings] == [f.code for f in first.findings]
    page.refresh()  # "Check again": at once
    assert page.settle(30_000)
    assert waits[-1] == 0.0 and len(waits) == 3


def test_a_layer_with_hundreds_of_findings_is_shown_folded_until_opened(planted, open_tab):
    """Over FOLD_OVER findings a layer starts folded, its line counting them, and its lines are made when
    it is opened; the worst finding of the first open layer is selected; a layer opened by the person
    stays open when the checks run again."""
    page = _page(open_tab(HealthTab, planted[0]))
    many = _many_findings(FOLD_OVER)  # facts: FOLD_OVER, notes: FOLD_OVER + 1, file: 1
    page._show(page.at, many)
    tree = page.tree
    model = tree.model()
    facts, notes, file = (tree.layer_index(la) for la in ("facts", "notes", "file"))
    assert tree.isExpanded(facts) and not tree.isExpanded(notes) and tree.isExpanded(file)
    assert model.data(notes) == f"{layer_name('notes')} ({FOLD_OVER + 1})"
    assert model.rowCount(facts) == FOLD_OVER and model.rowCount(notes) == 0 and model.hasChildren(notes)
    assert page.current_finding() is many[0]
    tree.expand(notes)
    assert model.rowCount(notes) == FOLD_OVER + 1
    assert tree.finding(model.index(0, 0, notes)).code == "health.notes.last"  # the warning first
    tree.collapse(facts)
    page._show(page.at, list(reversed(many)))  # the checks again: the person's choice kept
    facts, notes = (tree.layer_index(la) for la in ("facts", "notes"))
    assert tree.isExpanded(notes) and not tree.isExpanded(facts)
    assert page.select_finding("health.facts.n3")  # a finding asked for opens its layer
    assert tree.isExpanded(tree.layer_index("facts"))
    assert page.current_finding().code == "health.facts.n3"


def test_the_same_findings_checked_again_keep_the_tree_as_it_is(planted, open_tab):
    page = _page(open_tab(HealthTab, planted[0]))
    many = _many_findings(FOLD_OVER)
    page._show(page.at, many)
    tree = page.tree
    line = tree.topLevelItem(0).child(5)
    tree.setCurrentItem(line)
    again = [Finding(f.code, f.severity, f.layer, list(f.targets), f.message, {"days": 2}) for f in many]
    page._show(page.at, again)
    assert tree.topLevelItem(0).child(5) is line and tree.currentItem() is line
    assert page.current_finding() is again[5] and page.detail.finding is again[5]
    page._show(page.at, again[1:])  # one finding fewer: the lines made again, the selection kept
    assert tree.topLevelItem(0).child(4) is not line and page.current_finding() is again[5]


def test_a_folded_layer_opens_from_the_keyboard_with_its_lines(planted, open_tab, qtbot):
    page = _page(open_tab(HealthTab, planted[0]))
    page._show(page.at, _many_findings(FOLD_OVER))
    tree = page.tree
    notes = tree.layer_index("notes")
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
    file = tree.layer_index("file")
    tree.collapse(file)
    page._show(page.at, [f for f in _many_findings(FOLD_OVER) if f.layer != "notes"] * 2)
    file = tree.layer_index("file")
    assert not tree.isExpanded(file)
    tree.setCurrentIndex(file)
    qtbot.keyClick(tree, Qt.Key.Key_Asterisk)  # opens it and all below
    assert tree.isExpanded(file) and tree.model().rowCount(file) == 2


def test_the_findings_follow_a_change_of_language_keeping_the_selection_and_the_folds(planted, open_tab):
    from philont_desktop import i18n

    tab = open_tab(HealthTab, planted[0])
    page = _page(tab)
    assert page.select_finding("health.facts.same_value")
    tree = page.tree
    folds = tree.open_layers()
    i18n.install("zh_CN")
    try:
        tab.retranslate()
        assert tree.headerItem().text(COL_FINDING) == "问题"
        line = tree.currentItem().text(COL_FINDING)
        assert any("\u4e00" <= ch <= "\u9fff" for ch in line), line
        assert page.current_finding().code == "health.facts.same_value"
        assert tree.open_layers() == folds
        assert tree.model().data(tree.layer_index("facts")).startswith(layer_name("facts"))
    finally:
        i18n.uninstall()
        tab.retranslate()
    assert tree.headerItem().text(COL_FINDING) == "Finding"
