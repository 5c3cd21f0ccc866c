"""Internal words never reach the interface: the global session is "Unknown origin", a task's action
type is in words, SQLite's quick_check is "quick integrity check"; the stored value stays in a tooltip."""

from __future__ import annotations

from core.changes import ChangeItem
from core.changes.model import Target
from core.models import Action, Note


def _action(session: str) -> Action:
    return Action.model_construct(
        id=1,
        session_id=session,
        trigger="chat",
        tool_name="shell",
        params_json="{}",
        params={},
        result="ok",
        success=True,
        timestamp=1_780_000_000_000,
        linked_skill=None,
        json_errors=[],
    )


def test_the_action_detail_names_the_conversation_in_words(qtbot, chinese):
    from philont_desktop.actions.widgets.detail import ActionDetail
    from philont_desktop.theme import Theme

    detail = ActionDetail(Theme("light"))
    qtbot.addWidget(detail)
    detail.show_action(_action("global"))
    text = detail.header.text()
    assert "global" not in text and "会话: global" not in text and "来源未知" in text
    assert "global" in detail.header.toolTip()
    detail.show_action(_action("wechat:wxid_1"))
    assert "微信 · wxid_1" in detail.header.text()


def test_the_note_editor_names_the_conversation_in_words(qtbot, chinese):
    from philont_desktop.notes.widgets.editor import NoteEditor

    editor = NoteEditor()
    qtbot.addWidget(editor)
    editor.show_note(
        Note.model_construct(id="n1", content="x", session_id="global", created_at=1_780_000_000_000)
    )
    assert "global" not in editor.meta.text() and "来源未知" in editor.meta.text()
    assert "global" in editor.meta.toolTip()
    editor.show_note(None)
    assert editor.meta.toolTip() == ""


def test_a_new_task_in_review_says_its_action_in_words(qapp, chinese):
    from philont_desktop.review.texts import summary

    item = ChangeItem(
        "calendar",
        "change.schedule.new",
        Target("schedule", "s1", "rent"),
        params={"name": "rent", "action_type": "autonomous_turn"},
    )
    text = summary(item)
    assert "autonomous_turn" not in text and "rent" in text


def test_quick_check_is_said_in_words(qapp, chinese):
    from core.errors import Notice
    from philont_desktop.backup_texts import check_text

    shown = check_text(Notice("backup.quick_check", "x", {"result": "row 3 missing"}))
    assert shown == "快速完整性检查：row 3 missing"


def test_a_repair_revision_in_review_says_so_in_words(qapp):
    from philont_desktop.review.texts import summary

    item = ChangeItem(
        "skills",
        "change.skill.revised",
        Target("skill", "deploy", "deploy"),
        params={"name": "deploy", "reason": "skill_repair:init-1f3a: the prune step missed a folder"},
    )
    text = summary(item)
    assert "skill_repair" not in text
    assert (
        text
        == "deploy: recipe revised (the agent's repair after failures (init-1f3a): the prune step missed a folder)"
    )


def test_tau_is_explained_where_it_is_shown(qtbot):
    from philont_desktop import humanize
    from philont_desktop.facts.widgets.namespace_tree import NamespaceTree
    from philont_desktop.qt import Qt
    from philont_desktop.review.model import ChangeTreeModel
    from philont_desktop.theme import Theme

    assert "37 %" in humanize.tau_help() and "τ" in humanize.tau_help()
    tree = NamespaceTree(Theme("light"))
    qtbot.addWidget(tree)
    assert tree.headerItem().toolTip(2) == humanize.tau_help()
    from core.changes import ChangeSet

    item = ChangeItem(
        "facts", "change.fact.tau", Target("fact", "1", "project.lang"), params={"t0": 60, "t1": 90}
    )
    model = ChangeTreeModel()
    model.set_changes(ChangeSet(None, 0, ("facts",), [item]), reviewed=frozenset(), new_ids=frozenset())
    tip = model.data(model.index_of(item.id), Qt.ItemDataRole.ToolTipRole)
    assert "37 %" in tip
