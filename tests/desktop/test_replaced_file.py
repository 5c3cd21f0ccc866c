"""The database replaced or deleted on disk while the app shows it: the live monitor notices (the file's
device and inode, its size), a banner says so, live refresh stops, and editing never turns on against
another file than the one shown."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from core.db import MemoryDB
from core.errors import DatabaseOpenError
from core.timeline import RawStore
from philont_desktop.main_window import MainWindow
from philont_desktop.settings import Settings
from philont_desktop.theme import Theme
from philont_desktop.workers import spin_until
from tests.support import FIXED_NOW

IDLE_MS = 30_000


def _db(path: Path, text: str) -> Path:
    db = MemoryDB.create(path, now=FIXED_NOW)
    RawStore(db).append_message("global", "user", text, FIXED_NOW)
    db.close()
    return path


@pytest.fixture
def window(tmp_path, qtbot):
    path = _db(tmp_path / "memory" / "memory.sqlite", "the original file")
    w = MainWindow(Settings(), Theme("light"), interactive=False, live_interval_ms=100)
    qtbot.addWidget(w)
    w.show()
    w.open_database(path)
    assert spin_until(lambda: w.ctx is not None, IDLE_MS), w.open_error
    assert spin_until(lambda: w.ctx.live.state in ("live", "changed"), IDLE_MS), w.ctx.live.state
    yield w
    w.close()


@pytest.mark.parametrize("how", ["replaced", "deleted"])
def test_the_monitor_notices_and_editing_stays_off(window, tmp_path, how):
    ctx = window.ctx
    path = ctx.db_path
    if how == "replaced":
        other = _db(tmp_path / "other.sqlite", "another file")
        os.replace(other, path)
    else:
        path.unlink()
    assert spin_until(lambda: ctx.live.state == "replaced", IDLE_MS), ctx.live.state
    assert ctx.file_problem == how and not ctx.live.running
    assert window.banners.mode.isVisible() and window.banners.mode.kind == "error"
    assert f"was {how} on disk" in window.banners.mode.text()
    assert not window.action_editing.isEnabled()
    assert ctx.read_only_reason is not None and not ctx.can_edit
    ctx.set_editing(True)
    assert not ctx.editing and not ctx.workers.writer_open
    if how == "replaced":
        # A reader opened now (a new worker thread) refuses the other file instead of showing it.
        with pytest.raises(DatabaseOpenError) as exc:
            MemoryDB.open(path, expect=ctx.workers.identity)
        assert exc.value.problem == "replaced" and exc.value.code == "db.open.replaced"


def test_editing_on_stops_when_the_file_is_replaced(window, tmp_path):
    ctx = window.ctx
    done: list[bool] = []
    ctx.set_editing(True, on_done=done.append)
    assert spin_until(lambda: bool(done), IDLE_MS) and done == [True] and ctx.editing
    other = _db(tmp_path / "other.sqlite", "another file")
    os.replace(other, ctx.db_path)
    assert spin_until(lambda: ctx.live.state == "replaced", IDLE_MS)
    assert spin_until(lambda: not ctx.editing and not ctx.workers.writer_open, IDLE_MS)
    assert not window.action_editing.isEnabled()
