"""Scheduled tasks (``memory_schedules``): one-shot and ``interval:<ms>`` reminders and routines.

A task is paused while ``paused_until`` (epoch ms) is later than now: the reference's scheduler sets it
after repeated failures and skips the task until then (:meth:`ScheduleStore.due_before`); the
``list_upcoming`` tool still lists it.

A one-shot task has ``cron_expr`` NULL; the only recurring form the reference understands is
``interval:<ms>`` (ASCII digits, value > 0). ``action_type`` is one of ``prompt``, ``tool_call``,
``reflect`` and ``autonomous_turn``. Names are not unique. Listings are ordered by ``next_run_at``.

Creation errors keep the reference's texts (they are what an agent has always been shown):
``Schedule: 未知 action_type <x>`` and ``Schedule: 无法解析 cron_expr '<x>'``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from core.errors import ValidationError_
from core.ids import new_id
from core.jsutil import js_stringify, now_ms
from core.models import Schedule

if TYPE_CHECKING:
    from core.db import MemoryDB

ACTION_TYPES: tuple[str, ...] = ("prompt", "tool_call", "reflect", "autonomous_turn")
_INTERVAL_RE = re.compile(r"interval:([0-9]+)")


def parse_interval(cron_expr: str | None) -> int | None:
    """The step in ms of ``interval:<ms>`` (> 0), or ``None`` for NULL, one-shot or unparsable text."""
    if not cron_expr or not isinstance(cron_expr, str):
        return None
    m = _INTERVAL_RE.fullmatch(cron_expr)
    if m is None:
        return None
    step = int(m.group(1))
    return step if step > 0 else None


def compute_next_run(cron_expr: str | None, last_run: int) -> int | None:
    """``last_run + interval`` for a recurring task; ``None`` when it does not recur."""
    step = parse_interval(cron_expr)
    return None if step is None else last_run + step


def _now(now: int | None) -> int:
    return now_ms() if now is None else int(now)


class ScheduleStore:
    """Scheduled tasks of one memory database."""

    def __init__(self, db: MemoryDB):
        self.db = db

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[Schedule]:
        with self.db.lock:
            rows = self.db.conn.execute(sql, params).fetchall()
        return [Schedule.from_row(r) for r in rows]

    def create(
        self,
        name: str,
        next_run_at: float,
        action_type: str = "prompt",
        payload: Any = None,
        cron_expr: str | None = None,
        enabled: bool = True,
        created_by: str = "llm_external",
        project: str | None = None,
        *,
        now: int | None = None,
    ) -> Schedule:
        """Insert a task; ``payload`` (default ``{}``) is stored as compact JSON.

        Raises :class:`ValidationError_` for an unknown ``action_type`` or a ``cron_expr`` that is
        not ``interval:<ms>``.
        """
        if action_type not in ACTION_TYPES:
            raise ValidationError_(
                f"Schedule: 未知 action_type {action_type}",
                code="schedule.action_type_unknown",
                params={"action_type": str(action_type)},
            )
        if cron_expr and parse_interval(cron_expr) is None:
            raise ValidationError_(
                f"Schedule: 无法解析 cron_expr '{cron_expr}'",
                code="schedule.cron_unparsed",
                params={"cron_expr": cron_expr},
            )
        sched_id = new_id()
        payload_json = js_stringify({} if payload is None else payload)
        with self.db.write() as conn:
            conn.execute(
                "INSERT INTO memory_schedules (id, name, cron_expr, next_run_at, action_type, payload_json, "
                "enabled, created_at, created_by, project) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    sched_id,
                    name,
                    cron_expr,
                    next_run_at,
                    action_type,
                    payload_json,
                    1 if enabled else 0,
                    _now(now),
                    created_by,
                    project,
                ),
            )
            row = conn.execute("SELECT * FROM memory_schedules WHERE id = ?", (sched_id,)).fetchone()
        return Schedule.from_row(row)

    def get(self, sched_id: str) -> Schedule | None:
        rows = self._rows("SELECT * FROM memory_schedules WHERE id = ? LIMIT 1", (sched_id,))
        return rows[0] if rows else None

    def find_by_name(self, name: str) -> Schedule | None:
        """The newest enabled task with exactly this name (how a scheduled session finds its task)."""
        rows = self._rows(
            "SELECT * FROM memory_schedules WHERE name = ? AND enabled = 1 ORDER BY created_at DESC LIMIT 1",
            (name,),
        )
        return rows[0] if rows else None

    def list_enabled(self) -> list[Schedule]:
        return self._rows("SELECT * FROM memory_schedules WHERE enabled = 1 ORDER BY next_run_at ASC")

    def list_all(self) -> list[Schedule]:
        return self._rows("SELECT * FROM memory_schedules ORDER BY next_run_at ASC")

    def due_before(self, now: float) -> list[Schedule]:
        """What the agent's scheduler runs at ``now`` (the reference's ``dueBefore``): enabled tasks with
        ``next_run_at <= now`` that are not paused then (``paused_until`` NULL or ``<= now``)."""
        return self._rows(
            "SELECT * FROM memory_schedules WHERE enabled = 1 AND next_run_at <= ? "
            "AND (paused_until IS NULL OR paused_until <= ?) ORDER BY next_run_at ASC",
            (now, now),
        )

    def due_within(self, until_ms: float) -> list[Schedule]:
        """The tasks the scheduler will have run by ``until_ms``: :meth:`due_before` at that time (overdue
        ones included; a task paused past ``until_ms`` is not)."""
        return self.due_before(until_ms)

    def count(self) -> int:
        with self.db.lock:
            return int(self.db.conn.execute("SELECT COUNT(*) FROM memory_schedules").fetchone()[0])

    def set_enabled(self, sched_id: str, enabled: bool) -> bool:
        with self.db.write() as conn:
            cur = conn.execute(
                "UPDATE memory_schedules SET enabled = ? WHERE id = ?", (1 if enabled else 0, sched_id)
            )
        return cur.rowcount > 0

    def disable_by_name(self, name: str) -> list[Schedule]:
        """Disable every enabled task named exactly ``name``; returns them as they were (rows kept)."""
        with self.db.write() as conn:
            rows = conn.execute(
                "SELECT * FROM memory_schedules WHERE enabled = 1 AND name = ? ORDER BY next_run_at ASC",
                (name,),
            ).fetchall()
            for r in rows:
                conn.execute("UPDATE memory_schedules SET enabled = 0 WHERE id = ?", (r["id"],))
        return [Schedule.from_row(r) for r in rows]

    def set_project(self, sched_id: str, project: str | None) -> Schedule | None:
        with self.db.write() as conn:
            conn.execute("UPDATE memory_schedules SET project = ? WHERE id = ?", (project, sched_id))
        return self.get(sched_id)

    def delete(self, sched_id: str) -> bool:
        with self.db.write() as conn:
            cur = conn.execute("DELETE FROM memory_schedules WHERE id = ?", (sched_id,))
        return cur.rowcount > 0
