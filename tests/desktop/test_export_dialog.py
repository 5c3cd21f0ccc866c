"""File › Export…: a layer or the current view, formats, progress, cancel and 0600 files."""

from __future__ import annotations

import csv
import io
import json
import os
import stat
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pytestqt")

from core.db import MemoryDB
from core.timeline import RawStore
from philont_desktop.export_dialog import (
    ExportDialog,
    current_view_spec,
    show_export_dialog,
    table_snapshot,
)
from philont_desktop.main_window import MainWindow
from philont_desktop.qt import QStandardItem, QStandardItemModel, QTableView, QVBoxLayout, QWidget
from philont_desktop.settings import Settings
from philont_desktop.theme import Theme
from philont_desktop.workers import spin_until
from tests.support import FIXED_NOW as T0


def build_db(path: Path, n: int = 50) -> Path:
    db = MemoryDB.create(path, now=T0)
    try:
        raw = RawStore(db)
        raw.start_session("s1", started_at=T0)
        with db.write() as conn:
            conn.executemany(
                "INSERT INTO memory_raw_messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)",
                (("s1", "user" if i % 2 else "assistant", f'消息 {i}, "q"', T0 + i) for i in range(n)),
            )
    finally:
        db.close()
    return path


@pytest.fixture
def db_path(tmp_path) -> Path:
    return build_db(tmp_path / "memory" / "memory.sqlite")


@pytest.fixture
def ctx(qapp, db_path, tmp_path, monkeypatch):
    from philont_desktop.context import AppContext

    monkeypatch.setenv("PHILONT_DESKTOP_SETTINGS_DIR", str(tmp_path / "settings"))
    c = AppContext.open(db_path, interactive=False, settings=Settings())
    yield c
    c.close()


def _mode(p) -> int:
    return stat.S_IMODE(os.stat(p).st_mode)


def _run(dlg):
    job = dlg.start()
    assert job is not None
    assert job.wait(20_000)
    spin_until(lambda: not dlg.running, 2000)
    return job


def test_whole_layer_as_jsonl(qtbot, ctx, tmp_path):
    dlg = ExportDialog(ctx)
    qtbot.addWidget(dlg)
    assert not dlg.view_radio.isEnabled() and dlg.layer_radio.isChecked()
    dlg.layer_combo.setCurrentIndex(dlg.layer_combo.findData("messages"))
    dlg.format_combo.setCurrentIndex(dlg.format_combo.findData("jsonl"))
    out = tmp_path / "messages.jsonl"
    dlg.path_edit.setText(str(out))
    job = _run(dlg)
    assert job.state == "finished", job.error
    rows = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert len(rows) == 50 and rows[0]["content"] == '消息 0, "q"'
    assert _mode(out) == 0o600
    assert dlg.status.text() == f"Exported 50 rows to {out} ({out.stat().st_size:,} bytes)."
    assert dlg.progress.value() == dlg.progress.maximum()


def test_csv_with_bom_and_format_switch_updates_the_extension(qtbot, ctx, tmp_path):
    dlg = ExportDialog(ctx)
    qtbot.addWidget(dlg)
    dlg.layer_combo.setCurrentIndex(dlg.layer_combo.findData("messages"))
    dlg.format_combo.setCurrentIndex(dlg.format_combo.findData("json"))
    dlg.path_edit.setText(str(tmp_path / "mine.json"))
    dlg.format_combo.setCurrentIndex(dlg.format_combo.findData("csv"))
    assert dlg.path_edit.text() == str(tmp_path / "mine.csv")
    assert dlg.bom_check.isEnabled() and not dlg.parse_check.isEnabled()
    dlg.bom_check.setChecked(True)
    job = _run(dlg)
    assert job.state == "finished", job.error
    raw = (tmp_path / "mine.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"), newline="")))
    assert rows[0] == ["id", "session_id", "role", "content", "timestamp", "origin_session_id"]
    assert len(rows) == 51


def _gated_export(monkeypatch, after: bool) -> threading.Event:
    """The layer export job waits for the returned event before (``after=False``) or after it writes."""
    from philont_desktop import export_dialog

    gate = threading.Event()
    real = export_dialog._export_layer_job

    def gated(db, layer, path, fmt, options, job):
        if not after:
            gate.wait(20)
        result = real(db, layer, path, fmt, options, job=job)
        if after:
            gate.wait(20)
        return result

    monkeypatch.setattr(export_dialog, "_export_layer_job", gated)
    return gate


def _cancelled_export(
    qtbot, ctx, tmp_path, gate: threading.Event, written: bool = False
) -> tuple[ExportDialog, Any, Path]:
    dlg = ExportDialog(ctx)
    qtbot.addWidget(dlg)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    dlg.path_edit.setText(str(out_dir / "x.json"))
    dlg.layer_combo.setCurrentIndex(dlg.layer_combo.findData("messages"))
    dlg.format_combo.setCurrentIndex(dlg.format_combo.findData("json"))
    job = dlg.start()
    if written:
        assert spin_until(lambda: (out_dir / "x.json").exists(), 20_000)
    dlg.cancel()
    gate.set()
    assert job.wait(20_000)
    assert spin_until(lambda: not dlg.running, 5000)
    assert job.state == "cancelled"
    assert dlg.export_button.isEnabled() and not dlg.cancel_button.isEnabled()
    return dlg, job, out_dir


def test_cancel_leaves_no_file(qtbot, ctx, tmp_path, monkeypatch):
    gate = _gated_export(monkeypatch, after=False)  # cancelled before a row is written
    dlg, _job, out_dir = _cancelled_export(qtbot, ctx, tmp_path, gate)
    assert list(out_dir.iterdir()) == []
    assert dlg.status.text() == "Cancelled: no file was written."


def test_a_cancel_after_the_file_was_written_says_it_was_written(qtbot, ctx, tmp_path, monkeypatch):
    gate = _gated_export(monkeypatch, after=True)  # the file is in place when the cancel comes
    dlg, job, out_dir = _cancelled_export(qtbot, ctx, tmp_path, gate, written=True)
    assert [p.name for p in out_dir.iterdir()] == ["x.json"]
    assert len(json.loads((out_dir / "x.json").read_text(encoding="utf-8"))) == 50
    assert dlg.result is job.result and dlg.result.rows == 50
    assert dlg.status.text() == (
        "The export had finished before it could be cancelled. "
        f"Exported 50 rows to {out_dir / 'x.json'} ({dlg.result.bytes:,} bytes)."
    )


def test_a_missing_folder_is_reported(qtbot, ctx, tmp_path):
    dlg = ExportDialog(ctx)
    qtbot.addWidget(dlg)
    dlg.path_edit.setText(str(tmp_path / "nope" / "x.json"))
    assert dlg.start() is None
    assert dlg.status.text() == f"The folder {tmp_path / 'nope'} does not exist."


def test_current_view_from_a_tab_that_describes_it(qtbot, ctx, tmp_path):
    class FakeTab(QWidget):
        name = "timeline"

        def title(self):
            return "Timeline"

        def export_view(self):
            return {"layer": "messages", "filters": {"role": "user"}, "description": "user messages"}

    tab = FakeTab()
    qtbot.addWidget(tab)
    dlg = ExportDialog(ctx, tab)
    qtbot.addWidget(dlg)
    assert dlg.view_radio.isChecked() and dlg.view_radio.text() == "The current view: user messages"
    assert dlg.layer_combo.currentData() == "messages"
    out = tmp_path / "users.jsonl"
    dlg.path_edit.setText(str(out))
    dlg.format_combo.setCurrentIndex(dlg.format_combo.findData("jsonl"))
    job = _run(dlg)
    assert job.state == "finished", job.error
    rows = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert len(rows) == 25 and {r["role"] for r in rows} == {"user"}


def test_current_view_falls_back_to_the_shown_table(qtbot, ctx, tmp_path):
    tab = QWidget()
    tab.name = "notes"
    model = QStandardItemModel(0, 2)
    model.setHorizontalHeaderLabels(["Text", "Importance"])
    for text, imp in (("喝茶", "0.9"), ("coffee, black", "0.4")):
        model.appendRow([QStandardItem(text), QStandardItem(imp)])
    view = QTableView()
    view.setModel(model)
    QVBoxLayout(tab).addWidget(view)
    qtbot.addWidget(tab)
    tab.show()
    snap = table_snapshot(view)
    assert snap == {
        "columns": ["Text", "Importance"],
        "rows": [{"Text": "喝茶", "Importance": "0.9"}, {"Text": "coffee, black", "Importance": "0.4"}],
    }
    spec = current_view_spec(tab)
    assert spec["name"] == "notes" and "2 rows loaded" in spec["description"]
    dlg = ExportDialog(ctx, tab)
    qtbot.addWidget(dlg)
    out = tmp_path / "view.csv"
    dlg.format_combo.setCurrentIndex(dlg.format_combo.findData("csv"))
    dlg.path_edit.setText(str(out))
    job = _run(dlg)
    assert job.state == "finished", job.error
    assert out.read_text("utf-8").splitlines() == ["Text,Importance", "喝茶,0.9", '"coffee, black",0.4']
    assert _mode(out) == 0o600


def test_file_menu_entry_opens_the_dialog(qtbot, db_path, tmp_path, monkeypatch):
    monkeypatch.setenv("PHILONT_DESKTOP_SETTINGS_DIR", str(tmp_path / "settings"))
    w = MainWindow(Settings(), Theme("light"), interactive=False, live_interval_ms=200)
    qtbot.addWidget(w)
    w.show()
    assert not w.action_export.isEnabled()
    file_menu = w.menuBar().actions()[0].menu()
    actions = [a for a in file_menu.actions() if not a.isSeparator()]
    assert actions.index(w.action_export) == actions.index(w.action_close_db) - 1
    assert w.action_export.shortcut().toString() == "Ctrl+Shift+E"
    w.open_database(db_path)
    assert spin_until(lambda: w.ctx is not None, 10_000)
    assert w.action_export.isEnabled()
    w.show_tab("calendar")
    dlg = show_export_dialog(w)
    assert isinstance(dlg, ExportDialog)
    assert dlg.view_spec is not None and dlg.view_spec["name"].startswith("calendar")
    dlg.close()
    w.close()
