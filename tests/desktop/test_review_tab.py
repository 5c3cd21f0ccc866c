"""The Review tab: baselines (review mark, a time, a backup with progress), item actions through the audited,
undoable curation, "looks right" and "Mark all reviewed", live changes at the top, export."""

from __future__ import annotations

import json
import os
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from core.actions import ActionStore
from core.changes.marks import ReviewMarks
from core.db import MemoryDB
from core.facts import FactStore
from core.notes import NotesStore
from core.skills import SkillStore
from core.timeline import RawStore
from philont_desktop.review.state import BACKUP, MARK, TIME, Baseline

HOUR = 3_600_000
DAY = 24 * HOUR
NOW = int(time.time() * 1000)
T0 = NOW - 3 * DAY  # the backup's time: the window's writes come after it


def _stamp(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y%m%dT%H%M%S")


def _outcome(db, skill: str, ok: bool, at: int) -> None:
    ActionStore(db).append("global", "deploy_tool", {}, "ok", ok, at, linked_skill=skill)
    SkillStore(db).record_skill_outcome(skill, ok, at)


def build(path: Path) -> tuple[Path, Path]:
    """A database with a backup at T0 and, after it, known agent writes; returns (db, backup)."""
    db = MemoryDB.create(path, now=T0 - 30 * DAY)
    fs, raw = FactStore(db), RawStore(db)
    fs.store_fact("user", "name", "Lin", confidence=0.9, now=T0 - 10 * DAY)
    lang = fs.store_fact("project", "lang", "python", now=T0 - 10 * DAY)
    SkillStore(db).create_skill("deploy", "deploy the app", ["deploy"], "run deploy", now=T0 - 20 * DAY)
    _outcome(db, "deploy", True, T0 - 5 * DAY)
    note = NotesStore(db).upsert(None, "remember the dentist", 0.5, created_at=T0 - 5 * DAY)
    raw_backup = db.backup()
    backup = raw_backup.with_name(f"memory-{_stamp(T0)}.sqlite")
    os.replace(raw_backup, backup)
    fs.store_fact("user", "name", "Lin Xiao", confidence=0.95, now=T0 + 1 * HOUR)
    fs.store_fact("user", "city", "Chengdu", now=T0 + 2 * HOUR)
    _outcome(db, "deploy", True, T0 + 3 * HOUR)  # draft -> confirmed
    NotesStore(db).upsert(
        None, "the agent learned that the build takes ten minutes", 0.6, created_at=T0 + 4 * HOUR
    )
    for i, origin in enumerate(("web:a", "web:a", "wechat:b")):
        raw.append_message("global", "user", f"hello {i}", T0 + 5 * HOUR + i * 60_000, origin)
    fs.set_tau(lang.id, 90)  # in place, no time: only a backup sees it
    db.close()
    del note
    return path, backup


@pytest.fixture
def world(db_path) -> tuple[Path, Path]:
    return build(db_path)


@pytest.fixture
def make_tab(open_tab):
    from philont_desktop.review.view import ReviewTab

    return lambda path: open_tab(ReviewTab, path, size=(1300, 800), idle_ms=20_000)


def _codes(tab) -> set[tuple[str, str]]:
    return {(it.code, it.target.label) for it in tab.model.items()}


def _item(tab, code: str, label: str):
    return next(it for it in tab.model.items() if it.code == code and it.target.label == label)


def test_default_baseline_and_switching_baselines(make_tab, world, qtbot):
    path, backup = world
    tab = make_tab(path)
    # No review mark: the last 7 days, grouped by layer, newest first.
    assert tab.state.baseline.kind == MARK and tab.state.mark is None
    assert {
        ("change.fact.replaced", "user.name"),
        ("change.fact.new", "user.city"),
        ("change.skill.maturity", "deploy"),
        ("change.timeline.conversation", "web:a"),
        ("change.timeline.conversation", "wechat:b"),
    } <= _codes(tab)
    assert ("change.fact.tau", "project.lang") not in _codes(tab)
    facts = tab.model.rows["facts"]
    assert [it.at for it in facts] == sorted((it.at for it in facts), reverse=True)
    assert tab.model.data(tab.model.index(0, 0)).startswith("Facts (")
    assert tab.detail.item is not None  # the newest change is shown
    # A time: only what came after it.
    tab.controller.set_baseline(Baseline(TIME, since=T0 + 90 * 60_000))
    assert tab.wait_idle(20_000)
    assert ("change.fact.replaced", "user.name") not in _codes(tab)
    assert ("change.fact.new", "user.city") in _codes(tab)
    # A backup: every row compared, progress shown, the in-place τ change found (time unknown).
    progress = []
    tab.state.changed.connect(lambda names: "progress" in names and progress.append(tab.state.progress))
    tab.controller.set_baseline(Baseline(BACKUP, backup=str(backup)))
    assert tab.wait_idle(30_000)
    tau = _item(tab, "change.fact.tau", "project.lang")
    assert tau.at is None and tau.dating == "unknown"
    assert tab.model.data(tab.model.index_of(tau.id).siblingAtColumn(1)) == "time unknown"
    assert progress and progress[-1] is None and any(p is not None for p in progress)
    assert tab.state.changes.baseline.kind == "backup"


def test_the_first_change_is_chosen_a_turn_after_the_list_unless_one_was_chosen_meanwhile(world, qtbot):
    from philont_desktop.context import AppContext
    from philont_desktop.review.view import ReviewTab

    path, _backup = world
    for choose in (False, True):
        ctx = AppContext.open(path, interactive=False)
        try:
            tab = ReviewTab(ctx)
            qtbot.addWidget(tab)
            tab.resize(1300, 800)
            tab.show()
            seen = []

            def listed(names, tab=tab, choose=choose, seen=seen):
                if "changes" in names and tab.state.changes is not None and not seen:
                    seen.append(tab.detail.item)  # the list is in, in this turn: no detail yet
                    if choose:
                        assert tab.select(_item(tab, "change.fact.new", "user.city").id)

            tab.state.changed.connect(listed)
            tab.ensure_activated()
            assert tab.wait_idle(20_000)
            assert seen == [None]
            if choose:
                assert tab.detail.item.target.label == "user.city"
            else:
                assert tab.detail.item is not None and tab.tree.currentIndex().isValid()
                assert tab.detail.item.id == tab.model.item(tab.model.index(0, 0, tab.model.index(0, 0))).id
        finally:
            ctx.close()


def test_item_actions_go_through_curation_and_undo(make_tab, world, qtbot, start_editing):
    path, _backup = world
    tab = make_tab(path)
    start_editing(tab)
    item = _item(tab, "change.fact.replaced", "user.name")
    assert tab.select(item.id)
    assert tab.detail.item.id == item.id
    btn = tab.detail.actions.buttons["revert_fact"]
    assert btn.isVisible()
    btn.click()
    assert tab.wait_idle(20_000)
    with MemoryDB.open(path) as db:
        head = FactStore(db).history("user", "name")[0]
    assert head.value == "Lin" and head.confidence == 0.9
    # The revert is itself a change now, made by a person in this app.
    replaced = [
        it for it in tab.model.items() if it.code == "change.fact.replaced" and it.target.label == "user.name"
    ]
    assert replaced and replaced[0].actor == tab.ctx.actor
    tab.ctx.undo.undo()
    assert qtbot.waitUntil(lambda: not tab.ctx.undo.busy, timeout=15_000) is None
    assert tab.wait_idle(20_000)
    with MemoryDB.open(path) as db:
        assert FactStore(db).history("user", "name")[0].value == "Lin Xiao"
    # Pin through the detail pane's button, then a skill demoted with a reason.
    city = _item(tab, "change.fact.new", "user.city")
    tab.select(city.id)
    tab.detail.actions.buttons["pin"].click()
    assert tab.wait_idle(20_000)
    with MemoryDB.open(path) as db:
        assert FactStore(db).history("user", "city")[0].pinned
    skill = _item(tab, "change.skill.maturity", "deploy")
    tab.controller.set_grade(skill, "draft", "not proven yet")
    assert tab.wait_idle(20_000)
    with MemoryDB.open(path) as db:
        assert SkillStore(db).get_by_name("deploy").maturity == "draft"
    assert tab.ctx.errors == []


def test_looks_right_and_mark_all_reviewed(make_tab, world, qtbot, monkeypatch):
    path, _backup = world
    tab = make_tab(path)
    asked = []
    monkeypatch.setattr(tab, "confirm_mark_all", lambda n: asked.append(n) or True)
    city = _item(tab, "change.fact.new", "user.city")
    tab.select(city.id)
    tab.review_bar.looks_right.click()
    assert tab.wait_idle(20_000)
    assert city.id in tab.state.reviewed
    assert ReviewMarks().get(path).is_reviewed(city.id)  # kept outside the database
    assert tab.model.data(tab.model.index_of(city.id)).startswith("✓ ")
    tab.review_bar.hide_reviewed.setChecked(True)
    assert not tab.model.index_of(city.id).isValid()
    tab.review_bar.hide_reviewed.setChecked(False)
    until = tab.state.changes.until
    tab.review_bar.mark_all.click()
    assert tab.wait_idle(20_000)
    assert tab.state.mark == until and ReviewMarks().get(path).at == until
    assert tab.state.reviewed == frozenset()
    assert tab.model.items() == []  # nothing changed since the mark
    assert "Reviewed up to" in tab.baseline_bar.status.text()
    assert len(asked) == 1 and asked[0] > 0


def test_mark_all_reviewed_asks_first_and_can_be_undone(make_tab, world, qtbot, monkeypatch, english):
    path, _backup = world
    tab = make_tab(path)
    before = {it.id for it in tab.model.items()}
    city = _item(tab, "change.fact.new", "user.city")
    tab.controller.mark_reviewed([city.id])
    assert tab.wait_idle(20_000)
    said = []
    tab.ctx.statusMessage.connect(said.append)
    # The question names how many changes and that it can be undone; "Cancel" changes nothing.
    asked = []
    monkeypatch.setattr(tab, "confirm_mark_all", lambda n: asked.append(n) or False)
    tab.review_bar.mark_all.click()
    assert tab.wait_idle(20_000)
    assert asked == [len(before)] and tab.state.mark is None and ReviewMarks().get(path).at is None
    assert {it.id for it in tab.model.items()} == before
    assert tab.review_bar.undo_mark_all.isHidden()
    monkeypatch.setattr(tab, "confirm_mark_all", lambda n: True)
    tab.review_bar.mark_all.click()
    assert tab.wait_idle(20_000)
    assert tab.model.items() == [] and ReviewMarks().get(path).at is not None
    assert not tab.review_bar.undo_mark_all.isHidden()
    assert str(len(before)) in tab.review_bar.undo_mark_all.text()
    assert any(f"Marked {len(before)} changes reviewed" in m for m in said), said
    from philont_desktop import i18n

    i18n.install("zh_CN")
    tab.retranslate()
    assert tab.review_bar.undo_mark_all.text() == f"撤销标记（{len(before)} 项变更）"
    i18n.install("en")
    tab.retranslate()
    # Undo: the mark as it was (never reviewed), the changes listed again, "looks right" kept.
    tab.review_bar.undo_mark_all.click()
    assert tab.wait_idle(20_000)
    qtbot.waitUntil(lambda: {it.id for it in tab.model.items()} == before, timeout=20_000)
    assert tab.state.mark is None and ReviewMarks().get(path).at is None
    assert ReviewMarks().get(path).is_reviewed(city.id) and city.id in tab.state.reviewed
    assert tab.review_bar.undo_mark_all.isHidden()
    assert any(f"Undone: marked {len(before)} changes reviewed" in m for m in said)


def test_the_mark_all_question_says_how_many_and_that_it_can_be_undone(make_tab, world, qtbot, english):
    from philont_desktop.qt import QApplication, QMessageBox, QTimer

    path, _backup = world
    tab = make_tab(path)
    seen = []

    def answer():
        box = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible())
        seen.append(box.text())
        box.reject()

    QTimer.singleShot(0, answer)
    assert tab.confirm_mark_all(124) is False
    assert "124 changes" in seen[0] and "undo" in seen[0]


def test_live_changes_appear_at_the_top_and_the_place_is_kept(make_tab, world, qtbot):
    path, _backup = world
    tab = make_tab(path)
    shown = _item(tab, "change.fact.new", "user.city")
    tab.select(shown.id)
    with MemoryDB.open(path, writable=True, backup_before_write=False) as db:
        FactStore(db).store_fact("user", "pet", "旺财")
    tab.refresh()
    assert tab.wait_idle(20_000)
    new = _item(tab, "change.fact.new", "user.pet")
    assert new.id in tab.state.new_ids and tab.model.rows["facts"][0].id == new.id
    assert tab.detail.item.id == shown.id
    assert tab.model.item(tab.tree.currentIndex()).id == shown.id
    assert tab.model.data(tab.model.index_of(new.id), 6).bold()  # FontRole: new changes in bold


def test_export_markdown_and_json(make_tab, world, tmp_path):
    path, _backup = world
    tab = make_tab(path)
    md, js = tmp_path / "review.md", tmp_path / "review.json"
    tab.export("markdown", str(md))
    tab.export("json", str(js))
    assert tab.wait_idle(20_000)
    text = md.read_text(encoding="utf-8")
    assert text.startswith("# Memory review") and "## Facts (" in text
    assert "user.name: Lin → Lin Xiao (confidence 0.9 → 0.95)" in text
    data = json.loads(js.read_text(encoding="utf-8"))
    assert data["baseline"]["kind"] == "time" and data["reviewed"] == []
    assert {c["code"] for c in data["changes"]} >= {"change.fact.replaced", "change.skill.maturity"}


def test_review_is_home_when_the_database_has_a_mark(world, tmp_path):
    from philont_desktop.tabs import registry

    path, _backup = world
    assert registry().home_for(path) is None
    ReviewMarks().mark_all(path, NOW)
    assert registry().home_for(path).name == "review"


def test_a_live_refresh_waits_for_the_computation_under_way(make_tab, world, qtbot):
    path, _backup = world
    tab = make_tab(path)
    calls = []
    compute = tab.controller.compute

    def counted(**kw):
        calls.append(kw)
        compute(**kw)

    tab.controller.compute = counted
    for _ in range(3):  # the agent writes three times while the list is being computed
        tab.refresh()
    assert len(calls) == 1
    qtbot.waitUntil(lambda: len(calls) == 2, timeout=15_000)  # once more, after the first is done
    assert tab.wait_idle(20_000)
    assert calls == [{"live": True}, {"live": True}]


def test_messages_near_a_change_show_a_bounded_line_of_a_10_mb_message(qtbot):
    from types import SimpleNamespace

    from philont_desktop.review.widgets.detail import ReviewDetailPane
    from philont_desktop.theme import Theme

    pane = ReviewDetailPane(Theme("light"))
    qtbot.addWidget(pane)
    big = "deploy the 数据库\n" * (10 * 1024 * 1024 // 20)
    pane.show_messages([SimpleNamespace(timestamp=NOW, role="tool", content=big)])
    text = pane.messages.toPlainText()
    assert "tool: deploy the 数据库 deploy" in text  # newlines shown as spaces
    assert len(text) < 400


def test_a_backup_of_another_memory_and_a_damaged_backup_are_said_in_the_banner(make_tab, world, tmp_path):
    path, _backup = world
    stranger = tmp_path / "stranger" / "memory.sqlite"
    with MemoryDB.create(stranger, now=T0 - DAY) as db:
        FactStore(db).store_fact("user", "name", "Somebody else", now=T0)
    tab = make_tab(path)
    tab.controller.set_baseline(Baseline(BACKUP, backup=str(stranger)))
    assert tab.wait_idle(30_000)
    assert "share none of their facts" in tab.notices.text()
    assert tab.notices.isVisibleTo(tab)
    not_memory = tmp_path / "photos.sqlite"
    import sqlite3

    conn = sqlite3.connect(not_memory)
    conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY)")
    conn.commit()
    conn.close()
    tab.controller.set_baseline(Baseline(BACKUP, backup=str(not_memory)))
    assert tab.wait_idle(30_000)
    assert f"The backup {not_memory} is not a memory database" in tab.notices.text()


def test_fact_values_and_stored_times_read_as_values_and_dates(qapp):
    from core.changes.model import ChangeItem, Target
    from philont_desktop import humanize
    from philont_desktop.review.widgets.detail import diff_fields

    fact = ChangeItem(
        "facts",
        "change.fact.superseded",
        Target("fact", "f1", "user.city"),
        before={"valueJson": '"北京 \\"东城\\""', "confidence": 0.8, "status": "superseded"},
        after={"valueJson": '{"city": "上海", "since": 2024}', "confidence": 0.9, "status": "active"},
    )
    value = next(f for f in diff_fields(fact) if f.label == "Value")
    assert (value.old, value.new) == ('北京 "东城"', "city: 上海\nsince: 2024")
    task = ChangeItem(
        "schedules",
        "change.schedule.new",
        Target("schedule", "s1", "renew-certs"),
        after={"name": "renew-certs", "updatedAt": NOW, "payload_json": '{"message":"Renew\\nit"}'},
    )
    shown = {f.label: f.new for f in diff_fields(task)}
    assert shown["updatedAt"] == humanize.abs_time(NOW, seconds=True)
    assert shown["payload_json"] == "message:\n  Renew\n  it"


def test_messages_near_a_change_show_a_tool_result_as_its_structure(qtbot):
    from types import SimpleNamespace

    from philont_desktop.review.widgets.detail import ReviewDetailPane
    from philont_desktop.theme import Theme

    pane = ReviewDetailPane(Theme("light"))
    qtbot.addWidget(pane)
    stored = json.dumps({"tool": "shell", "result": 'a "b"\nc'})
    pane.show_messages([SimpleNamespace(timestamp=NOW, role="tool", content=stored)])
    lines = pane.messages.toPlainText().split("\n")
    assert lines[1:] == ["    tool: shell", "    result:", '      a "b"', "      c"]
    assert lines[0].endswith("tool:") and "\\n" not in pane.messages.toPlainText()
    pane.messages.raw.click()
    assert pane.messages.toPlainText().endswith("tool: " + stored)


def test_a_fact_holding_an_object_reads_without_json_escapes_in_its_summary(qapp):
    from core.changes.model import ChangeItem, Target, preview
    from philont_desktop.review.texts import summary

    old, new = {"content": 'My recipe "night"'}, {"content": 'My recipe "day"\nand more'}
    item = ChangeItem(
        "facts",
        "change.fact.replaced",
        Target("fact", "f2", "self.obs.recipe"),
        params={"name": "self.obs.recipe", "old": preview(old), "new": preview(new), "versions": 2},
        before={"value": old, "confidence": 0.8},
        after={"value": new, "confidence": 0.9},
    )
    text = summary(item)
    assert 'content: My recipe "night" → content: My recipe "day" and more' in text and '\\"' not in text
