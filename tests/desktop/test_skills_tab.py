"""The Skills tab: board model and columns, explanations against the core, word diffs, revert, undo/redo."""

from __future__ import annotations

import pytest

from core.actions import ActionStore
from core.curation.skills import skill_version
from core.db import MemoryDB
from core.ladder import build_ladder
from core.maturity import explain_maturity
from core.models import Skill
from core.skills import SkillStore
from philont_desktop.qt import Qt, QTextDocument
from philont_desktop.selftest import check_tab
from philont_desktop.skills.diff import changed_spans, tokenize, word_diff
from philont_desktop.skills.loaders import load_board, load_board_rows, load_detail
from philont_desktop.skills.model import ColumnProxy, SkillBoardModel
from philont_desktop.skills.state import BOARD_COLUMNS, BoardFilter, SkillsState
from philont_desktop.workers import spin_until
from tests.support import FIXED_NOW

DAY = 86_400_000
T0 = FIXED_NOW - 90 * DAY
EN = "deploy-blue-green"
ZH = "数据库备份"
EN_V1 = "1. build the image\n2. switch traffic"
EN_V2 = "1. build the image\n2. check health\n3. switch traffic"
ZH_V1 = "先备份数据库，然后重启服务"
ZH_V2 = "先检查磁盘空间，再备份数据库，然后重启服务"


def _outcomes(skills: SkillStore, actions: ActionStore, name: str, seq: str, start: int, tool: str = "shell"):
    for i, ch in enumerate(seq):
        ok = ch == "s"
        ts = start + i * 3_600_000
        actions.append("global", tool, {"i": i}, "ok" if ok else "error", ok, ts, linked_skill=name)
        skills.record_skill_outcome(name, ok, ts)


def build_fixture(path) -> None:
    db = MemoryDB.create(path, now=T0)
    s, a = SkillStore(db), ActionStore(db)
    ver = {"kind": "tool_result_ok", "check": "health returns 200"}
    s.create_skill(
        EN, "Blue/green deploy", ["deploy"], EN_V1, verification=ver, tool_policy=["shell"], now=T0
    )
    _outcomes(s, a, EN, "ss", T0 + DAY)  # confirmed on v1
    s.revise_recipe(EN, reason="add a health check", action_template=EN_V2, now=T0 + 10 * DAY)
    _outcomes(s, a, EN, "sssf", T0 + 11 * DAY)  # after v2: 3 successes, 1 failure
    s.create_skill(
        ZH,
        "每晚备份数据库",
        ["备份"],
        ZH_V1,
        verification={"kind": "assert", "check": "备份文件存在"},
        tool_policy=["shell"],
        source="self:reflect-r1",
        now=T0,
    )
    s.revise_recipe(ZH, reason="先检查磁盘", action_template=ZH_V2, now=T0 + 5 * DAY)
    s.create_skill("lesson-flaky-tests", "Retry flaky tests once", [], "rerun", maturity="playbook", now=T0)
    s.create_skill(
        "draft-only", "A new idea", ["idea"], "try it", source="github:acme/skills@1a2b3c4", now=T0 + DAY
    )
    s.create_skill("alpha-draft", "An older idea", [], "try that", now=T0 - DAY)
    s.record_usage("alpha-draft", T0 + 20 * DAY)
    s.create_skill("stable-one", "Proven", [], "do it", now=T0)
    _outcomes(s, a, "stable-one", "sssss", T0 + 2 * DAY, tool="readFile")
    s.create_skill("broken", "Never works", [], "x", kind="negative", now=T0)
    _outcomes(s, a, "broken", "fff", T0 + 3 * DAY)
    db.close()


@pytest.fixture
def fixture_path(tmp_path):
    path = tmp_path / "memory" / "memory.sqlite"
    build_fixture(path)
    return path


@pytest.fixture
def ctx(english, fixture_path, open_context):
    from philont_desktop.theme import Theme

    return open_context(fixture_path, theme=Theme("light"))


@pytest.fixture
def tab(qtbot, ctx):
    from philont_desktop.skills.view import SkillsTab

    t = SkillsTab(ctx, now=FIXED_NOW)
    qtbot.addWidget(t)
    t.resize(1280, 820)
    t.show()
    ctx.dataChanged.connect(t.refresh)  # what the main window does
    t.ensure_activated()
    assert t.wait_idle(10_000)
    return t


def editing(ctx, tab):
    ctx.set_editing(True)
    assert spin_until(lambda: ctx.editing, 10_000)
    tab.set_editing(True)


def settle(tab, ctx):
    assert spin_until(lambda: not ctx.undo.busy, 10_000)
    ctx.workers.wait_idle(10_000)
    assert tab.wait_idle(10_000)
    ctx.workers.wait_idle(10_000)
    assert tab.wait_idle(10_000)


def db_skill(path, name) -> Skill | None:
    db = MemoryDB.open(path)
    try:
        return SkillStore(db).get_by_name(name)
    finally:
        db.close()


# -- the board model ---------------------------------------------------------------------------------------
def test_board_model_passes_the_model_tester_also_while_merging(qtmodeltester, fixture_path):
    db = MemoryDB.open(fixture_path)
    skills = load_board(db)
    db.close()
    model = SkillBoardModel(now=FIXED_NOW)
    qtmodeltester.check(model, force_py=True)
    model.set_skills(skills)
    # a merge: one removed, one changed, one added at the end
    changed = skills[2].model_copy(update={"use_count": 99})
    added = skills[0].model_copy(update={"id": "new-id", "name": "zz-new", "rowid": 999})
    ids = model.set_skills([skills[0], changed, *skills[3:], added])
    assert ids == [changed.id, "new-id"]
    assert model.rowCount() == len(skills)
    assert model.skill_by_id(changed.id).use_count == 99
    assert model.row_of(skills[1].id) is None


def test_column_proxy_passes_the_model_tester_while_the_source_changes(qtmodeltester, fixture_path):
    db = MemoryDB.open(fixture_path)
    skills = load_board(db)
    db.close()
    model = SkillBoardModel(now=FIXED_NOW)
    model.set_skills(skills)
    model.set_filter(BoardFilter())
    proxy = ColumnProxy(model, "draft")
    qtmodeltester.check(proxy, force_py=True)
    assert [proxy.index(r, 0).data() for r in range(proxy.rowCount())] == ["alpha-draft", "draft-only", ZH]
    by_name = {s.name: s for s in skills}
    promoted = by_name["draft-only"].model_copy(update={"maturity": "stable", "maturity_raw": "stable"})
    added = by_name["alpha-draft"].model_copy(update={"id": "new-id", "name": "a-new-draft", "rowid": 999})
    model.set_skills([promoted if s.name == "draft-only" else s for s in skills if s.name != ZH] + [added])
    assert [proxy.index(r, 0).data() for r in range(proxy.rowCount())] == ["a-new-draft", "alpha-draft"]
    model.set_filter(BoardFilter("new"))
    proxy.refilter()
    assert proxy.rowCount() == 1


def test_rows_prepared_off_the_gui_thread_are_taken_and_ignored_when_they_do_not_fit(fixture_path):
    db = MemoryDB.open(fixture_path)
    load = load_board_rows(db, "uses", BoardFilter("deploy"), FIXED_NOW)
    db.close()
    skills = list(load.skills)
    expected = SkillBoardModel(now=FIXED_NOW)
    expected.set_filter(BoardFilter("deploy"))
    expected.set_sort_mode("uses")
    expected.set_skills(skills)

    def board(model):
        return [model.skill_at(r).name for r in range(model.rowCount())], {
            m: [model.skill_at(r).name for r in model.column_rows(m)] for m in BOARD_COLUMNS
        }

    fits = SkillBoardModel(now=FIXED_NOW)
    fits.set_filter(BoardFilter("deploy"))
    fits.set_sort_mode("uses")
    fits.set_skills(skills, load.rows)
    assert board(fits) == board(expected)
    assert board(fits)[1]["confirmed"] == [EN] and sum(map(len, board(fits)[1].values())) == 1
    # made for another sort mode and filter: the model sorts and filters for its own
    other = SkillBoardModel(now=FIXED_NOW)
    other.set_skills(skills, load.rows)
    assert board(other)[0] == sorted((s.name for s in skills), key=str.casefold)
    assert sum(map(len, board(other)[1].values())) == len(skills)


def test_a_refresh_that_finds_nothing_new_shows_nothing_anew(tab, fixture_path):
    seen = []
    tab.state.changed.connect(lambda names: seen.append(names))
    before = tab.state.skills
    tab.refresh()
    assert tab.wait_idle(5000)
    assert tab.state.skills is before
    assert not any("skills" in names for names in seen)
    agent = MemoryDB.open(fixture_path, writable=True)
    SkillStore(agent).record_usage("stable-one", FIXED_NOW)
    agent.close()
    tab.refresh()
    assert tab.wait_idle(5000)
    assert any("skills" in names for names in seen)
    assert (
        tab.board.model.skill_by_name("stable-one").use_count
        == tab.state.skill(tab.board.model.skill_by_name("stable-one").id).use_count
    )


def test_a_filter_or_sort_change_keeps_the_selected_card_selected(tab):
    assert tab.select_skill("draft-only")
    view = tab.board.views["draft"]
    tab.board.set_sort_mode("newest")
    assert view.currentIndex().data() == "draft-only" and view.selectionModel().isSelected(
        view.currentIndex()
    )
    tab.board.set_filter(text="draft")
    assert [view.model().index(r, 0).data() for r in range(view.model().rowCount())] == [
        "draft-only",
        "alpha-draft",
    ]
    assert view.currentIndex().data() == "draft-only"
    tab.board.set_filter(text="")
    assert view.currentIndex().data() == "draft-only"
    assert tab.board.current_id == tab.board.model.skill_by_name("draft-only").id


def test_each_skill_is_in_the_column_of_its_grade(tab, fixture_path):
    db = MemoryDB.open(fixture_path)
    expected = {s.name: s.maturity for s in SkillStore(db).list_every()}
    db.close()
    seen = {}
    for m in BOARD_COLUMNS:
        proxy = tab.board.proxies[m]
        for r in range(proxy.rowCount()):
            seen[proxy.index(r, 0).data()] = m
    assert seen == expected
    assert expected == {
        EN: "confirmed",
        ZH: "draft",
        "alpha-draft": "draft",
        "lesson-flaky-tests": "playbook",
        "draft-only": "draft",
        "stable-one": "stable",
        "broken": "deprecated",
    }
    assert tab.board.headers["draft"].text().endswith(">3</span>")
    assert tab.board.summary.text() == "7 skills"


def test_filter_by_text_kind_source_and_recipes(tab):
    board = tab.board

    def shown():
        return sorted(p.index(r, 0).data() for p in board.proxies.values() for r in range(p.rowCount()))

    board.set_filter(text="备份")
    assert shown() == [ZH]
    board.set_filter(text="BLUE deploy")
    assert shown() == [EN]
    board.set_filter(text="", kind="negative")
    assert shown() == ["broken"]
    board.set_filter(kind="all", source="self")
    assert shown() == [ZH]
    board.set_filter(source="external")
    assert shown() == ["draft-only"]
    board.set_filter(source="all", recipes_only=True)
    assert shown() == sorted([EN, ZH])
    assert board.summary.text() == "2 of 7 skills"


def test_sort_within_columns(tab):
    draft = tab.board.proxies["draft"]

    def names():
        return [draft.index(r, 0).data() for r in range(draft.rowCount())]

    assert names() == ["alpha-draft", "draft-only", ZH]
    tab.board.set_sort_mode("newest")
    assert names() == ["draft-only", ZH, "alpha-draft"]
    tab.board.set_sort_mode("uses")
    assert names() == ["alpha-draft", "draft-only", ZH]  # 1 use, then 0 and 0 by name
    tab.board.set_sort_mode("recent")
    assert names() == ["alpha-draft", "draft-only", ZH]
    assert tab.board.sort_combo.currentData() == "recent"


def test_cards_load_their_sparkline_when_painted(tab, qtbot):
    view = tab.board.views["confirmed"]
    index = view.model().index(0, 0)
    assert index.data() == EN
    qtbot.waitUntil(lambda: index.data(SkillBoardModel.HistoryRole) is not None, timeout=5000)
    assert index.data(SkillBoardModel.HistoryRole) == [True, True, True, True, True, False]


# -- explanations ------------------------------------------------------------------------------------------
COUNTERS = [
    ("draft", 0, 0, 0),
    ("draft", 1, 0, 0),
    ("draft", 3, 1, 1),
    ("confirmed", 2, 0, 0),
    ("confirmed", 9, 1, 0),
    ("stable", 12, 1, 0),
    ("playbook", 0, 2, 2),
    ("deprecated", 1, 3, 3),
]


@pytest.mark.parametrize(("maturity", "s", "f", "c"), COUNTERS)
def test_explanations_match_the_core(tab, fixture_path, maturity, s, f, c):
    db = MemoryDB.open(fixture_path, writable=True)
    SkillStore(db).create_skill("probe", "probe", [], "t", maturity=maturity, now=T0)
    db.conn.execute(
        "UPDATE memory_skills SET success_count=?, failure_count=?, consecutive_failures=? WHERE name='probe'",
        (s, f, c),
    )
    db.close()
    tab.refresh()
    assert tab.wait_idle(5000)
    assert tab.select_skill("probe")
    assert tab.wait_idle(5000)
    text = tab.detail_pane.grade_view.toPlainText()
    want = explain_maturity(maturity, s, f, c)
    assert want.why in text
    assert want.next in text
    assert tab.detail_pane.detail.explanation == want


# -- ladder ----------------------------------------------------------------------------------------------
def test_ladder_replays_linked_actions_with_revision_resets(fixture_path):
    db = MemoryDB.open(fixture_path)
    d = load_detail(db, EN)
    db.close()
    changes = [(st.kind, st.before, st.after) for st in d.ladder.changes]
    assert changes == [
        ("outcome", "draft", "confirmed"),
        ("revision", "confirmed", "draft"),  # the revision resets the grade, the counters stay
        ("outcome", "draft", "confirmed"),
        ("outcome", "confirmed", "stable"),
        ("outcome", "stable", "confirmed"),
    ]
    assert d.ladder.grade == d.skill.maturity == "confirmed"
    assert (d.ladder.success_count, d.ladder.failure_count) == (5, 1)
    # a grade set by hand is shown next to the replay
    s = d.skill.model_copy(update={"maturity": "stable"})
    assert build_ladder(s, d.outcomes).grade == "confirmed"


def test_ladder_tab_says_when_the_database_differs(tab):
    assert tab.select_skill("lesson-flaky-tests")
    tab.wait_idle(5000)
    assert "No action in the log is linked" in tab.detail_pane.ladder_summary.text()
    assert tab.select_skill("stable-one")
    tab.wait_idle(5000)
    summary = tab.detail_pane.ladder_summary.text()
    assert "the replay ends on <b>Stable</b>" in summary
    assert "They differ" not in summary


# -- diffs -------------------------------------------------------------------------------------------------
def test_word_diff_english_exact_spans():
    left, right = word_diff(EN_V1, EN_V2)
    assert changed_spans(left) == []
    assert changed_spans(right) == [(22, 37, "check health\n3.")]
    left, right = word_diff("keep blue for 30 minutes", "keep green for 45 minutes")
    assert changed_spans(left) == [(5, 9, "blue"), (14, 16, "30")]
    assert changed_spans(right) == [(5, 10, "green"), (15, 17, "45")]
    assert "".join(seg.text for seg in right) == "keep green for 45 minutes"


def test_word_diff_chinese_treats_each_character_as_a_token():
    assert tokenize("先备份db数据") == ["先", "备", "份", "db", "数", "据"]
    left, right = word_diff(ZH_V1, ZH_V2)
    assert changed_spans(left) == []
    assert changed_spans(right) == [(1, 9, "检查磁盘空间，再")]
    left, right = word_diff("重启服务", "重载服务")
    assert changed_spans(left) == [(1, 2, "启")]
    assert changed_spans(right) == [(1, 2, "载")]


def test_revisions_pane_shows_the_side_by_side_diff(tab):
    assert tab.select_skill(EN)
    tab.wait_idle(5000)
    pane = tab.detail_pane
    assert [pane.left_combo.itemText(i) for i in range(pane.left_combo.count())] == [
        "Version 1 (original)",
        "Version 2 (current)",
    ]
    assert (pane.left_combo.currentData(), pane.right_combo.currentData()) == (1, 2)
    fields = pane.diff_view.fields
    assert [(f.label, f.old, f.new) for f in fields] == [
        ("Action template", EN_V1, EN_V2),
        ("Verification", "tool_result_ok: health returns 200", "tool_result_ok: health returns 200"),
        ("Tool policy", "shell", "shell"),
    ]
    html = pane.diff_view.toHtml()
    assert "check health" in html and "background-color:#aceebb" in html
    # per-version outcomes: v1 had 2 successes; v2 3 successes and 1 failure
    table = pane.revision_table
    rows = {table.item(r, 0).text(): (table.item(r, 1).text(), table.item(r, 2).text()) for r in range(2)}
    assert rows == {"Version 2 (current)": ("3 (75%)", "1"), "Version 1 (original)": ("2 (100%)", "0")}

    # picking a version in the table compares it with the current one
    pane.select_revision(0)
    assert (pane.left_combo.currentData(), pane.right_combo.currentData()) == (1, 2)
    assert pane.selected_revision_index() == 0

    assert tab.select_skill(ZH)
    tab.wait_idle(5000)
    _left, right = word_diff(pane.diff_view.fields[0].old, pane.diff_view.fields[0].new)
    assert changed_spans(right) == [(1, 9, "检查磁盘空间，再")]


def test_the_detail_reaches_the_tabs_not_on_screen_a_turn_later(tab, qtbot):
    pane = tab.detail_pane
    assert tab.select_skill(EN)
    assert tab.wait_idle(5000)
    en = pane.detail
    assert tab.select_skill("stable-one")
    assert tab.wait_idle(5000)
    stable = pane.detail
    assert pane.ladder.detail is stable and pane.revisions.detail is stable
    stable_overview = pane.grade_view.toPlainText()
    pane.set_detail(en)  # the Overview is on screen: the two other tabs follow
    assert pane.pending and pane.revisions.detail is stable
    pane.tabs.setCurrentWidget(pane.revisions)  # chosen before its turn: filled at once
    assert not pane.pending
    assert pane.ladder.detail is en and pane.revisions.detail is en
    assert [pane.left_combo.itemText(i) for i in range(pane.left_combo.count())] == [
        "Version 1 (original)",
        "Version 2 (current)",
    ]
    pane.set_detail(stable)  # the Revisions on screen now
    assert pane.revisions.detail is stable and pane.ladder.detail is en
    qtbot.waitUntil(lambda: not pane.pending, timeout=2000)
    assert pane.ladder.detail is stable
    assert pane.grade_view.toPlainText() == stable_overview


# -- curation ----------------------------------------------------------------------------------------------
def test_revert_creates_a_new_revision_naming_the_restored_one(tab, ctx, fixture_path):
    editing(ctx, tab)
    assert tab.select_skill(EN)
    tab.wait_idle(5000)
    skill = tab.current_skill()
    tab.revert(skill, 0, "v1 was simpler")
    settle(tab, ctx)
    s = db_skill(fixture_path, EN)
    assert s.action_template == EN_V1
    assert [r.reason for r in s.revision_history] == [
        "add a health check",
        "revert to revision 1 (2026-03-27T12:00:00.000Z): v1 was simpler",
    ]
    assert s.maturity == "draft"
    # the tab shows the new version
    assert tab.detail_pane.left_combo.count() == 3
    assert ctx.undo_stack.count() == 1
    assert ctx.undo_stack.text(0) == f"Restore version 1 of {EN}"


def test_undo_and_redo_through_the_shared_stack(tab, ctx, fixture_path):
    editing(ctx, tab)
    assert tab.select_skill(ZH)
    tab.wait_idle(5000)
    before = db_skill(fixture_path, ZH)
    tab.revise_recipe(tab.current_skill(), reason="更稳妥", action_template="先停服务，再备份数据库")
    settle(tab, ctx)
    after = db_skill(fixture_path, ZH)
    assert after.action_template == "先停服务，再备份数据库"
    assert after.revision_history[-1].reason == "更稳妥"
    tab.set_grade(tab.current_skill(), "stable", "reviewed by hand")
    settle(tab, ctx)
    assert db_skill(fixture_path, ZH).maturity == "stable"
    assert tab.board.model.skill_by_name(ZH).maturity == "stable"
    assert tab.board.proxies["stable"].rowCount() == 2

    ctx.undo.undo()
    settle(tab, ctx)
    assert db_skill(fixture_path, ZH).maturity == "draft"
    ctx.undo.undo()
    settle(tab, ctx)
    restored = db_skill(fixture_path, ZH)
    assert skill_version(restored) == skill_version(before)
    ctx.undo.redo()
    settle(tab, ctx)
    assert skill_version(db_skill(fixture_path, ZH)) == skill_version(after)
    assert tab.board.model.skill_by_name(ZH).action_template == "先停服务，再备份数据库"


def test_delete_needs_confirmation_and_undo_brings_it_back(tab, ctx, fixture_path, monkeypatch):
    editing(ctx, tab)
    assert tab.select_skill("broken")
    tab.wait_idle(5000)
    monkeypatch.setattr(tab, "confirm_delete", lambda skill: False)
    tab.detail_pane.buttons["delete"].click()
    settle(tab, ctx)
    assert db_skill(fixture_path, "broken") is not None
    monkeypatch.setattr(tab, "confirm_delete", lambda skill: True)
    tab.detail_pane.buttons["delete"].click()
    settle(tab, ctx)
    assert db_skill(fixture_path, "broken") is None
    assert tab.board.model.skill_by_name("broken") is None
    assert tab.detail_pane.detail is None
    ctx.undo.undo()
    settle(tab, ctx)
    assert db_skill(fixture_path, "broken").failure_count == 3
    assert tab.board.proxies["deprecated"].rowCount() == 1


def test_grade_dialog_is_the_confirmation(tab, ctx, fixture_path, monkeypatch):
    editing(ctx, tab)
    assert tab.select_skill("broken")
    tab.wait_idle(5000)
    monkeypatch.setattr(tab, "ask_grade", lambda skill, target=None: None)  # cancelled
    tab.detail_pane.buttons["grade"].click()
    settle(tab, ctx)
    assert db_skill(fixture_path, "broken").maturity == "deprecated"
    monkeypatch.setattr(tab, "ask_grade", lambda skill, target=None: ("draft", "fixed upstream"))
    tab.detail_pane.buttons["grade"].click()
    settle(tab, ctx)
    assert db_skill(fixture_path, "broken").maturity == "draft"


def test_a_concurrent_change_by_the_agent_is_a_conflict_not_an_overwrite(tab, ctx, fixture_path):
    editing(ctx, tab)
    assert tab.select_skill(EN)
    tab.wait_idle(5000)
    shown = tab.current_skill()
    agent = MemoryDB.open(fixture_path, writable=True)
    SkillStore(agent).revise_recipe(EN, reason="skill_repair:i9: agent fix", action_template="agent v3")
    agent.close()
    tab.revise_recipe(shown, reason="mine", action_template="my v3")
    settle(tab, ctx)
    assert db_skill(fixture_path, EN).action_template == "agent v3"
    assert any("changed since it was shown" in e for e in ctx.errors)
    assert ctx.undo_stack.count() == 0


def test_editing_buttons_follow_editing_mode(tab, ctx):
    assert tab.select_skill(EN)
    tab.wait_idle(5000)
    assert not tab.detail_pane.buttons["recipe"].isVisible()
    editing(ctx, tab)
    assert tab.detail_pane.buttons["recipe"].isVisible()
    assert tab.detail_pane.buttons["recipe"].isEnabled()
    assert tab.select_skill("draft-only")
    tab.wait_idle(5000)
    assert not tab.detail_pane.buttons["recipe"].isEnabled()


def test_dialog_values_carry_only_what_changed(qtbot, fixture_path):
    from philont_desktop.skills.dialogs import DetailsDialog, GradeDialog, RecipeDialog

    db = MemoryDB.open(fixture_path)
    s = SkillStore(db).get_by_name(EN)
    db.close()
    dlg = RecipeDialog(s)
    qtbot.addWidget(dlg)
    assert not dlg.ok.isEnabled()
    dlg.policy.setText("shell, webFetch")
    assert not dlg.ok.isEnabled()  # no reason yet
    dlg.reason.setText("needs the health URL")
    assert dlg.ok.isEnabled()
    assert dlg.values() == {"reason": "needs the health URL", "tool_policy": ["shell", "webFetch"]}
    d2 = DetailsDialog(s)
    qtbot.addWidget(d2)
    d2.keywords.setText("deploy，发布")
    assert d2.values() == {"trigger_keywords": ["deploy", "发布"]}
    g = GradeDialog(s, lambda m: m.capitalize())
    qtbot.addWidget(g)
    assert not g.ok.isEnabled()
    g.reason.setText("why")
    assert g.ok.isEnabled() and g.values()[1] == "why"
    assert g.question.text().startswith("Move deploy-blue-green from Confirmed to Playbook?")


def test_self_test_passes(tab):
    assert check_tab(tab) == []


def test_live_refresh_keeps_the_selection_and_follows_a_grade_change(tab, fixture_path):
    assert tab.select_skill("draft-only")
    tab.wait_idle(5000)
    sid = tab.board.current_id
    agent = MemoryDB.open(fixture_path, writable=True)
    store = SkillStore(agent)
    store.record_usage("stable-one", FIXED_NOW)  # another skill changes
    tab.refresh()
    assert tab.wait_idle(5000)
    assert tab.board.current_id == sid
    assert tab.board.views["draft"].currentIndex().data() == "draft-only"
    # the selected skill is promoted by the agent: it moves to its new column, still selected
    store.record_skill_outcome("draft-only", True, FIXED_NOW)
    store.record_skill_outcome("draft-only", True, FIXED_NOW + 1)
    agent.close()
    tab.refresh()
    assert tab.wait_idle(5000)
    assert tab.board.current_id == sid
    assert tab.board.views["confirmed"].currentIndex().data() == "draft-only"
    assert not tab.board.views["draft"].selectionModel().hasSelection()
    assert tab.detail_pane.detail.skill.maturity == "confirmed"


def test_arrow_keys_move_between_columns(tab, qtbot):
    from philont_desktop.qt import Qt

    assert tab.select_skill("draft-only")
    view = tab.board.views["draft"]
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert tab.board.current_id == tab.board.model.skill_by_name(EN).id
    qtbot.keyClick(tab.board.views["confirmed"], Qt.Key.Key_Left)
    assert tab.board.model.skill_by_id(tab.board.current_id).maturity == "draft"


# -- the shape: a Qt-free state, the view following it -------------------------------------------------------
def test_state_is_qt_free_and_announces_what_changed(fixture_path):
    db = MemoryDB.open(fixture_path)
    skills = load_board(db)
    db.close()
    state = SkillsState()
    seen = []
    state.changed.connect(lambda names: seen.append(sorted(names)))
    f = BoardFilter("  Deploy  BLUE ")
    assert f.terms == ("deploy", "blue") and f.active
    assert f.with_(text="", kind=None) == BoardFilter() and not BoardFilter().active
    state.update(skills=tuple(skills), selected=skills[0].id, filter=f)
    state.update(filter=BoardFilter("deploy blue"))  # the same words: no change
    assert seen == [["filter", "selected", "skills"], ["filter"]]
    assert state.selected_skill() == skills[0]
    assert state.skill("nope") is None


def test_typing_in_the_filter_bar_filters_after_a_pause(tab, qtbot):
    tab.board.search.setText("备份")
    qtbot.waitUntil(lambda: tab.state.filter.text == "备份", timeout=3000)
    assert tab.board.summary.text() == "1 of 7 skills"
    tab.board.bar.kind_combo.setCurrentIndex(tab.board.bar.kind_combo.findData("negative"))
    assert tab.state.filter == BoardFilter("备份", "negative")
    assert tab.board.summary.text() == "0 of 7 skills"
    tab.board.search.clear()
    qtbot.waitUntil(lambda: tab.board.summary.text() == "1 of 7 skills", timeout=3000)


def test_selecting_a_card_loads_its_detail(tab, qtbot):
    view = tab.board.views["stable"]
    view.setCurrentIndex(view.model().index(0, 0))
    qtbot.waitUntil(
        lambda: tab.state.detail is not None and tab.state.detail.skill.name == "stable-one", timeout=5000
    )
    assert tab.current_skill().name == "stable-one"
    assert "stable-one" in tab.detail_pane.title.text()


# -- cards made over several frames --------------------------------------------------------------------------
def _forget_pictures(tab, budget: float = 0.0) -> None:
    """Cards made anew, one picture per frame (as a slow machine would)."""
    delegate = tab.board.delegate
    delegate.set_colors(delegate.colors)
    delegate.frame_budget = budget


def test_cards_put_off_to_later_frames_are_painted_in_full(tab):
    full = tab.board.grab().toImage()
    _forget_pictures(tab)
    first = tab.board.grab().toImage()  # one card made, the others drawn as their frame
    assert first != full
    assert tab.board.cards_pending
    assert tab.wait_idle(10_000)
    assert not tab.board.cards_pending
    assert tab.board.grab().toImage() == full


def test_a_card_clicked_before_its_picture_is_made_opens(tab, qtbot):
    from philont_desktop.qt import QApplication

    _forget_pictures(tab)
    view = tab.board.views["stable"]
    tab.board.grab()  # the first column's card made; this one is a frame still
    assert tab.board.cards_pending
    index = view.model().index(0, 0)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(index).center())
    qtbot.waitUntil(
        lambda: tab.state.detail is not None and tab.state.detail.skill.name == "stable-one", timeout=5000
    )
    assert tab.wait_idle(10_000)
    QApplication.processEvents()
    assert not tab.board.cards_pending
    assert view.currentIndex() == index


# -- the agent's files: skills installed from disk, the agent's repair attempts ---------------------------------
def test_from_disk_badge_and_repair_attempts_on_card_and_detail(tab, fixture_path):
    agent = MemoryDB.open(fixture_path, writable=True)
    store = SkillStore(agent)
    store.create_skill(
        "disk-skill", "Installed by hand", [], "do", source="file:skills/x.md", maturity="confirmed", now=T0
    )
    agent.conn.execute("UPDATE memory_skills SET from_disk=1 WHERE name='disk-skill'")
    store.revise_recipe(
        EN, reason="skill_repair:init-1: the health URL moved", action_template="v3", now=T0 + 40 * DAY
    )
    store.revise_recipe(
        EN, reason="skill_repair:init-2: timeout too short", action_template="v4", now=T0 + 41 * DAY
    )
    agent.close()
    tab.refresh()
    assert tab.wait_idle(5000)
    delegate = tab.board.delegate
    disk = tab.board.model.skill_by_name("disk-skill")
    assert [b[0] for b in delegate.badges(disk)] == ["from disk"]
    assert delegate.caveat_line(disk)[0] == "file:skills/x.md"  # the badge says "from disk" once
    en = tab.board.model.skill_by_name(EN)
    assert [b[0] for b in delegate.badges(en)] == ["recipe", "repair 2/3"]
    index = tab.board.model.index(tab.board.model.row_of(en.id))
    assert "repair attempts 2 of 3" in index.data(Qt.ItemDataRole.ToolTipRole)

    assert tab.select_skill(EN)
    assert tab.wait_idle(5000)
    pane = tab.detail_pane
    assert "repair attempts 2 of 3" in pane.revisions.summary.text()
    reasons = [pane.revision_table.item(r, 3).text() for r in range(pane.revision_table.rowCount())]
    assert reasons == [
        "",
        "repair attempt 2 of 3 (init-2): timeout too short",
        "repair attempt 1 of 3 (init-1): the health URL moved",
        "add a health check",
    ]
    assert "Repair attempts by the agent" in pane.grade_view.toPlainText()
    events = [pane.ladder.model.index(r, 1).data() for r in range(pane.ladder.model.rowCount())]
    assert "repair attempt 2 of 3 (init-2): timeout too short" in events
    model = pane.ladder.model
    outcomes = {model.index(r, 1).data(): model.index(r, 2).data() for r in range(model.rowCount())}
    assert outcomes["repair attempt 2 of 3 (init-2): timeout too short"] == "back to draft"
    assert tab.select_skill("disk-skill")
    assert tab.wait_idle(5000)
    assert "from disk" in pane.title.text()


# -- human form ---------------------------------------------------------------------------------------------
def test_cards_read_at_a_glance(tab):
    delegate, model = tab.board.delegate, tab.board.model
    alpha = model.skill_by_name("alpha-draft")  # 1 use, 70 days before FIXED_NOW
    assert delegate.use_line(alpha) == "1 use · used 2 months ago"
    assert delegate.use_line(model.skill_by_name("draft-only")) == "0 uses · never used"
    # one caveat line, without the grade's name (the column says it)
    assert delegate.caveat_line(alpha)[0] == "verify before use"
    assert delegate.caveat_line(model.skill_by_name("stable-one"))[0] == ""
    assert delegate.caveat_line(model.skill_by_name(ZH))[0] == "verify before use"
    doc = QTextDocument()  # the tooltip is rich text holding the stored text escaped
    doc.setHtml(model.index(model.row_of(alpha.id)).data(Qt.ItemDataRole.ToolTipRole))
    tip = doc.toPlainText()
    assert tip.splitlines()[:2] == ["alpha-draft", "Draft: verify before use"]
    assert "Last used 2 months ago · " in tip


def test_detail_shows_times_relative_and_absolute_and_json_recipes_coloured(tab, fixture_path):
    agent = MemoryDB.open(fixture_path, writable=True)
    SkillStore(agent).create_skill(
        "json-recipe", "Steps as JSON", [], '{"steps": ["build", "ship"], "retries": 2}', now=T0
    )
    agent.close()
    tab.refresh()
    assert tab.wait_idle(5000)
    assert tab.select_skill("json-recipe")
    assert tab.wait_idle(5000)
    fields = tab.detail_pane.fields_view
    assert '"steps": [\n    "build",' in fields.toPlainText()
    assert "color:#1a5fb4" in fields.toHtml()  # keys coloured
    assert tab.select_skill("alpha-draft")
    assert tab.wait_idle(5000)
    assert "2 months ago · 2026-" in tab.detail_pane.grade_view.toPlainText()
