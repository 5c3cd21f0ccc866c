"""Undo of one audit entry from the Audit tab: the status bar names the change that was undone."""

from __future__ import annotations

from core.curation import notes as note_curation
from core.db import MemoryDB
from philont_desktop.qt import Qt


def test_the_status_bar_names_the_entry_that_was_undone(qtbot, db_path, open_tab, start_editing):
    from philont_desktop.audit.view import AuditTab

    MemoryDB.create(db_path).close()
    db = MemoryDB.open(db_path, writable=True, backup_before_write=False)
    try:
        note_curation.add("water the plants", 0.5, note_id="n001").perform(db, "alice@philont-desktop")
    finally:
        db.close()
    tab = open_tab(AuditTab, db_path, size=(1100, 600))
    start_editing(tab)
    tab.table.selectRow(0)
    said = []
    tab.ctx.statusMessage.connect(said.append)
    qtbot.mouseClick(tab.bar.undo_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(said), timeout=10_000)
    entry = tab.state.shown
    assert said == [f"Undone: notes.add “water the plants” (audit entry #{entry.id})"]
    assert "Undo this change" not in said[0]
