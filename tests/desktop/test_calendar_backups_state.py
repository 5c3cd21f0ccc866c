"""The Qt-free states of the Calendar and Backups tabs: built, changed and checked without a widget."""

from __future__ import annotations

from pathlib import Path

from core.backups import BackupInfo
from core.calendar import CalendarStore
from core.errors import Notice
from core.schedules import ScheduleStore
from core.upcoming import upcoming
from philont_desktop.backups.state import BackupsState
from philont_desktop.calendar.cells import paused_tasks
from philont_desktop.calendar.state import CalendarState
from tests.support import FIXED_NOW as T0

HOUR = 3_600_000


def test_the_states_import_no_qt():
    """Their own imports: core, the dataclass base, nothing of Qt (the views and controllers hold Qt)."""
    import ast

    root = Path(__file__).resolve().parents[2] / "philont_desktop"
    for path in (root / "calendar" / "state.py", root / "backups" / "state.py"):
        names = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
            elif isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
        assert not {n for n in names if n.split(".")[0] in ("PySide6", "shiboken6", "pyqtgraph")}, path
        assert not {
            n for n in names if n.startswith("philont_desktop.") and n != "philont_desktop.tabs.state"
        }, path


def test_calendar_counts_a_paused_task_as_paused_not_overdue(mem_db):
    cal, sch = CalendarStore(mem_db), ScheduleStore(mem_db)
    cal.create("Dentist", T0 + HOUR, None, None, "UTC", now=T0)
    late = sch.create("late", T0 - HOUR, "prompt", {}, now=T0)
    held = sch.create("held", T0 - HOUR, "prompt", {}, now=T0)
    sch.create("off", T0 + HOUR, "prompt", {}, enabled=False, now=T0)
    with mem_db.write() as conn:
        conn.execute("UPDATE memory_schedules SET paused_until = ? WHERE id = ?", (T0 + HOUR, held.id))
    schedules = sch.list_all()
    state = CalendarState()
    seen = []
    state.changed.connect(seen.append)
    result = upcoming(mem_db, 7, T0)
    state.update(result=result, schedules=tuple(schedules), paused=paused_tasks(schedules, T0), now=T0)
    assert seen == [frozenset({"result", "schedules", "paused", "now"})]
    c = state.counts()
    assert (c.events, c.tasks, c.overdue, c.paused, c.disabled) == (1, 2, 1, 1, 1)
    item = next(i for i in result.items if i.source_id == late.id)
    assert state.target_of(item) == ("task", state.task(late.id))
    assert state.target_of(next(i for i in result.items if i.kind == "event")) is None  # events not loaded


def _info(name: str, kind: str = "file") -> BackupInfo:
    return BackupInfo(Path("/b") / name, None, None, 10, None if kind == "file" else "not opened", None, kind)


def test_backups_state_knows_which_backups_fail():
    a, b, fifo = (
        _info("memory-20260101T000000.sqlite"),
        _info("memory-20260102T000000.sqlite"),
        _info("memory-20260103T000000.sqlite", "FIFO"),
    )
    state = BackupsState(rows=(a, b, fifo))
    assert state.failing() == 1  # the FIFO: never opened, never usable; the others are not checked yet
    assert state.check_of(fifo).code == "backup.not_regular" and state.check_of(a) is None
    state.update(
        checks={str(a.path): Notice("backup.ok", "ok"), str(b.path): Notice("backup.quick_check", "x")}
    )
    assert state.failing() == 2 and state.info(str(b.path)) is b and state.info(None) is None
