"""The shared conversations model: every conversation of a file with its channel, count and times, one
index per open database, refreshes that keep the selection, and the combo box that picks from it."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from core.conversations import list_conversations
from core.db import MemoryDB
from core.timeline import RawStore
from philont_desktop.qt import QItemSelectionModel, Qt, QTableView
from philont_desktop.widgets.conversations import (
    ConversationCombo,
    ConversationsModel,
    conversation_index,
    label_of_id,
)
from philont_desktop.widgets.rows_model import KeyRole
from tests.fixtures import agent_files


@pytest.fixture
def v48(tmp_path):
    return agent_files.make_fresh(tmp_path / "v48.sqlite", 48)


@pytest.fixture
def ctx(qapp, v48):
    from philont_desktop.context import AppContext

    c = AppContext.open(v48, interactive=False)
    yield c
    c.close()


def _loaded(qtbot, model):
    with qtbot.waitSignal(model.loaded, timeout=10_000):
        model.load_first_page()


def test_the_model_lists_every_conversation_after_a_row_for_all(qtbot, qtmodeltester, ctx, v48):
    model = ConversationsModel(ctx.submit, conversation_index(ctx), all_label="All conversations")
    assert model.rowCount() == 1 and model.index(0, 1).data() == "…"  # before the first listing
    _loaded(qtbot, model)
    qtmodeltester.check(model)
    with MemoryDB.open(v48) as db:
        want = list_conversations(db)
        total = RawStore(db).count()
    assert [model.index(r, 0).data(KeyRole) for r in range(model.rowCount())] == [None, *(c.id for c in want)]
    assert model.index(0, 0).data() == "All conversations" and model.total() == total
    assert model.index(0, 1).data() == f"{total:,}"
    row = model.row_of(agent_files.WECHAT)
    assert model.index(row, 0).data() == "WeChat · wxid_lin_xiao"
    assert model.index(model.row_of(agent_files.DIGEST), 0).data() == "Scheduled task · daily-digest"
    assert model.index(model.row_of("global"), 0).data() == "Unknown origin"
    assert model.index(row, 1).data() == str(model.conversation(agent_files.WECHAT).message_count)
    tip = model.index(row, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert agent_files.WECHAT in tip and "First message:" in tip and "Last message:" in tip
    assert label_of_id("telegram:50211873") == "Telegram · 50211873"


def test_one_index_per_database_and_a_refresh_keeps_the_selection(qtbot, ctx, v48):
    assert conversation_index(ctx) is conversation_index(ctx)
    model = ConversationsModel(ctx.submit, conversation_index(ctx), all_label="All conversations")
    _loaded(qtbot, model)
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    row = model.row_of(agent_files.WEB2)
    view.selectionModel().setCurrentIndex(
        model.index(row, 0),
        QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
    )
    before = model.conversation(agent_files.WEB2).message_count
    with MemoryDB.open(v48, writable=True) as db:  # a new conversation becomes the most recent one
        RawStore(db).append_message(
            "global", "user", "hello from a new chat", 2_000_000_000_000, "web-ui:new"
        )
        RawStore(db).append_message("global", "user", "and again", 2_000_000_000_001, agent_files.WEB2)
    with qtbot.waitSignal(model.loaded, timeout=10_000):
        model.refresh()
    assert model.index(1, 0).data(KeyRole) in ("web-ui:new", agent_files.WEB2)
    assert view.currentIndex().data(KeyRole) == agent_files.WEB2
    assert model.conversation(agent_files.WEB2).message_count == before + 1


def test_the_combo_box_picks_a_conversation_by_id(qtbot, ctx):
    model = ConversationsModel(ctx.submit, conversation_index(ctx), all_label="No home conversation")
    _loaded(qtbot, model)
    combo = ConversationCombo(model)
    qtbot.addWidget(combo)
    assert combo.current_id() is None and combo.currentText() == "No home conversation"
    assert combo.set_current_id(agent_files.TELEGRAM) and combo.current_id() == agent_files.TELEGRAM
    assert combo.currentText() == "Telegram · 50211873"
    assert not combo.set_current_id("web-ui:nobody") and combo.current_id() == agent_files.TELEGRAM
