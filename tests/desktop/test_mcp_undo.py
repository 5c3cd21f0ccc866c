"""A write made through ``philont-memory mcp --write`` is undone from the desktop app's Audit tab.

The server's write path is :class:`core.mcp_server.MemoryService` on a writable database (what
``mcp --write`` runs; tests/core/test_mcp_server.py drives it over stdio). Here the app opens the file
afterwards, shows the entry with the server's actor, and its "Undo this change" restores the fact.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from core.db import MemoryDB
from core.facts import FactStore
from core.mcp_server import MemoryService
from philont_desktop.workers import spin_until

T0 = 1_781_524_800_000


@pytest.fixture
def written(tmp_path) -> tuple[Path, str]:
    path = tmp_path / "memory" / "memory.sqlite"
    path.parent.mkdir(mode=0o700)
    db = MemoryDB.create(path, now=T0)
    try:
        FactStore(db).store_fact("user", "tea", "绿茶", now=T0)
    finally:
        db.close()
    db = MemoryDB.open(path, writable=True, check=False)
    try:
        service = MemoryService(db, write=True, now=T0 + 60_000, actor="ann@philont-memory-mcp")
        r = service.call_tool(
            "store_fact", {"namespace": "user", "key": "tea", "value": "龙井"}, "Client 1.0"
        )
        assert not r.is_error, r.structured
    finally:
        db.close()
    return path, "ann@philont-memory-mcp"


def _value(path: Path) -> str:
    db = MemoryDB.open(path, check=False)
    try:
        return FactStore(db).get_fact("user", "tea", bump=False).value
    finally:
        db.close()


def test_the_apps_audit_tab_undoes_a_write_made_through_the_server(qtbot, written):
    from philont_desktop.audit.view import AuditTab
    from philont_desktop.context import AppContext

    path, actor = written
    assert _value(path) == "龙井"
    ctx = AppContext.open(path, interactive=False)
    try:
        tab = AuditTab(ctx)
        qtbot.addWidget(tab)
        tab.show()
        tab.ensure_activated()
        assert spin_until(lambda: tab.model.rowCount() == 1, 20_000)
        (entry,) = tab.model.entries
        assert entry.actor == actor and entry.action == "facts.store_fact"
        assert entry.note == "MCP client Client 1.0: store_fact"

        ctx.set_editing(True)
        qtbot.waitUntil(lambda: ctx.editing, timeout=20_000)
        tab.set_editing(True)
        tab.table.selectRow(0)
        assert tab.bar.undo_button.isVisible() and tab.bar.undo_button.isEnabled()
        with qtbot.waitSignal(ctx.undo.stepFinished, timeout=20_000) as step:
            tab.bar.undo_button.click()
        assert step.args[0] == "undo"
        assert _value(path) == "绿茶"
        tab.refresh()
        assert spin_until(lambda: tab.model.rowCount() == 2 and tab.model.entries[-1].undone, 20_000)
    finally:
        ctx.close()
