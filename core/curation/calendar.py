"""Curation of calendar events and scheduled tasks: audited, undoable, one short transaction each.

Every function returns a :class:`Change` (what :func:`core.curation.perform` needs: action, target and
``fn(conn)``); ``change.perform(db)`` runs it, and the desktop app hands it to its undo stack
(``ctx.curate``). Undo and redo are registered for every action.

Actions
-------

* ``calendar.schedule_enable`` / ``calendar.schedule_disable`` (:func:`enable_schedule`,
  :func:`disable_schedule`): ``memory_schedules.enabled`` of one task. Nothing else changes (the
  reference's scheduler keeps ``next_run_at``; a re-enabled overdue task fires at its next tick).
* ``calendar.schedule_delete`` (:func:`delete_schedule`): removes the task, as ``cancel_schedule`` does.
* ``calendar.event_delete`` (:func:`delete_event`): removes one event (all its occurrences).
* ``calendar.schedule_resume`` (:func:`resume_schedule`): ``paused_until`` = NULL for a task the scheduler
  paused after failures (undo puts the pause back while the scheduler has not moved it since).

Audit entries store the whole row before and after (``null`` for "did not exist"), including its
``rowid``. Undoing a delete puts the row back exactly: every column, and the same ``rowid`` (storage
order breaks ties in ``list_upcoming``) unless another row took it meanwhile.

Concurrent writers
------------------

The agent writes while a person curates: it fires tasks (``next_run_at``, ``last_run_at``,
``consecutive_failures``), disables same-name tasks and cancels tasks. A change may carry the row as
it was shown (``seen``); if the agent changed what the change touches meanwhile it raises
:class:`~core.errors.ConflictError` and writes nothing. Undo and redo check that what they put back
still holds the value the edit left: enabling/disabling compares ``enabled`` only (the scheduler's
bookkeeping may move on), a delete's redo requires the re-created row to be unchanged, and a delete's
undo refuses when a row with the same id exists again. The agent keeps one enabled task per name (a new
task disables the others of its name), so an undo or redo that would make a task enabled beside another
enabled task of the same name is refused (``calendar.step_name_taken``): both would fire.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from core.audit import AuditEntry
from core.curation import Change, rows
from core.errors import ConflictError, NotFoundError, ValidationError_
from core.jsutil import iso_ms

if TYPE_CHECKING:
    from core.engine import Connection

__all__ = [
    "ACTIONS",
    "ACTION_EVENT_DELETE",
    "ACTION_SCHEDULE_DELETE",
    "ACTION_SCHEDULE_DISABLE",
    "ACTION_SCHEDULE_ENABLE",
    "ACTION_SCHEDULE_RESUME",
    "EVENT_TARGET",
    "SCHEDULE_TARGET",
    "Change",
    "delete_event",
    "delete_schedule",
    "disable_schedule",
    "enable_schedule",
    "resume_schedule",
    "set_schedule_enabled",
]

EVENT_TARGET = "calendar_event"
SCHEDULE_TARGET = "schedule"
EVENTS = "memory_calendar"
SCHEDULES = "memory_schedules"
ACTION_SCHEDULE_ENABLE = "calendar.schedule_enable"
ACTION_SCHEDULE_DISABLE = "calendar.schedule_disable"
ACTION_SCHEDULE_DELETE = "calendar.schedule_delete"
ACTION_EVENT_DELETE = "calendar.event_delete"
ACTIONS = (ACTION_SCHEDULE_ENABLE, ACTION_SCHEDULE_DISABLE, ACTION_SCHEDULE_DELETE, ACTION_EVENT_DELETE)

_TABLE_OF_TARGET = {EVENT_TARGET: EVENTS, SCHEDULE_TARGET: SCHEDULES}
# Scheduler bookkeeping: the agent moves these on its own; a delete's redo does not insist on them.
_VOLATILE = frozenset({"next_run_at", "last_run_at", "consecutive_failures", "paused_until"})


# -- helpers ----------------------------------------------------------------------------------------------


def _get(conn: Connection, table: str, row_id: str) -> dict[str, Any] | None:
    row = conn.execute(f'SELECT rowid AS "rowid", * FROM {table} WHERE id = ?', (row_id,)).fetchone()
    return None if row is None else dict(zip(row.keys(), tuple(row), strict=True))


def _ref(table: str, row: Mapping[str, Any]) -> dict[str, Any]:
    """A task or an event as the parameters of a message name it."""
    if table == SCHEDULES:
        return {"row_kind": "task", "name": str(row.get("name")), "id": str(row.get("id"))}
    return {"row_kind": "event", "name": str(row.get("title")), "id": str(row.get("id"))}


def _label(table: str, row: Mapping[str, Any]) -> str:
    if table == SCHEDULES:
        return f"task {row.get('name')!r} ({row.get('id')})"
    when = row.get("starts_at")
    at = f" @ {iso_ms(when)}" if isinstance(when, int) else ""
    return f"event {row.get('title')!r}{at} ({row.get('id')})"


def _require(conn: Connection, table: str, row_id: str) -> dict[str, Any]:
    row = _get(conn, table, row_id)
    if row is None:
        what = "task" if table == SCHEDULES else "calendar event"
        raise NotFoundError(
            f"No {what} {row_id!r}: it may have been deleted meanwhile.",
            code="calendar.row_gone",
            params={"row_kind": "task" if table == SCHEDULES else "event", "id": row_id},
        )
    return row


def _seen_get(seen: Any, name: str) -> Any:
    if isinstance(seen, Mapping):
        return seen.get(name)
    value = getattr(seen, name, None)
    if name == "enabled" and isinstance(value, bool):
        return int(value)
    return value


def _norm(name: str, v: Any) -> Any:
    return int(v) if name == "enabled" and isinstance(v, bool) else v


def _check_seen(table: str, cur: Mapping[str, Any], seen: Any, fields: tuple[str, ...]) -> None:
    if seen is None:
        return
    for f in fields:
        if _norm(f, cur.get(f)) != _norm(f, _seen_get(seen, f)):
            raise ConflictError(
                f"The {_label(table, cur)} changed since it was shown ({f} is now {cur.get(f)!r}). "
                "Nothing was changed; look at it again.",
                cur,
                code="calendar.changed_since_shown",
                params={**_ref(table, cur), "field": f, "now": cur.get(f)},
            )


def _refuse_a_second_enabled_task(
    conn: Connection, task: Mapping[str, Any], what: str, since: int | None
) -> None:
    """Refuse to make ``task`` enabled beside another enabled task of the same name made since the edit
    (``created_at`` after ``since``): the agent made a new one meanwhile, and both would fire. Two enabled
    tasks of one name that were both there at the time of the edit are left as they were."""
    other = conn.execute(
        f"SELECT id FROM {SCHEDULES} WHERE name = ? AND enabled != 0 AND id != ?"
        " AND (? IS NULL OR typeof(created_at) NOT IN ('integer', 'real') OR created_at >= ?)"
        " ORDER BY rowid LIMIT 1",
        (task.get("name"), task.get("id"), since, since),
    ).fetchone()
    if other is None:
        return
    raise ConflictError(
        f"{what} would make the {_label(SCHEDULES, task)} enabled beside the enabled task "
        f"{task.get('name')!r} ({other[0]}) made since: both would fire. Nothing was changed; disable or delete that task first.",
        _get(conn, SCHEDULES, str(other[0])),
        code="calendar.step_name_taken",
        params={**_ref(SCHEDULES, task), "other_id": str(other[0]), "step": rows.step_of(what)},
    )


# -- actions ----------------------------------------------------------------------------------------------


def set_schedule_enabled(sched_id: str, enabled: bool, *, seen: Any = None) -> Change:
    """Enable or disable one scheduled task (``memory_schedules.enabled``)."""
    want = 1 if enabled else 0
    action = ACTION_SCHEDULE_ENABLE if enabled else ACTION_SCHEDULE_DISABLE

    def fn(conn: Connection) -> tuple[Any, Any]:
        cur = _require(conn, SCHEDULES, sched_id)
        _check_seen(SCHEDULES, cur, seen, ("enabled",))
        if int(cur["enabled"] or 0) == want:
            state = "enabled" if enabled else "disabled"
            raise ValidationError_(
                f"The {_label(SCHEDULES, cur)} is already {state}; nothing to change.",
                code="calendar.task_enabled_unchanged" if enabled else "calendar.task_disabled_unchanged",
                params=_ref(SCHEDULES, cur),
            )
        conn.execute(f"UPDATE {SCHEDULES} SET enabled = ? WHERE id = ?", (want, sched_id))
        return cur, _get(conn, SCHEDULES, sched_id)

    return Change(action, SCHEDULE_TARGET, sched_id, fn, "enable task" if enabled else "disable task")


def enable_schedule(sched_id: str, *, seen: Any = None) -> Change:
    return set_schedule_enabled(sched_id, True, seen=seen)


def disable_schedule(sched_id: str, *, seen: Any = None) -> Change:
    return set_schedule_enabled(sched_id, False, seen=seen)


def _delete(
    target_type: str, row_id: str, seen: Any, fields: tuple[str, ...], action: str, what: str
) -> Change:
    """Delete one row of the target's table after checking ``fields`` against ``seen``."""
    table = _TABLE_OF_TARGET[target_type]

    def fn(conn: Connection) -> tuple[Any, Any]:
        cur = _require(conn, table, row_id)
        _check_seen(table, cur, seen, fields)
        conn.execute(f"DELETE FROM {table} WHERE id = ?", (row_id,))
        return cur, None

    return Change(action, target_type, row_id, fn, what)


def delete_schedule(sched_id: str, *, seen: Any = None) -> Change:
    """Delete one scheduled task (a hard delete, like ``cancel_schedule``; undo puts it back)."""
    fields = ("name", "enabled", "cron_expr", "action_type", "payload_json")
    return _delete(SCHEDULE_TARGET, sched_id, seen, fields, ACTION_SCHEDULE_DELETE, "delete task")


def delete_event(event_id: str, *, seen: Any = None) -> Change:
    """Delete one calendar event with all its occurrences (undo puts it back)."""
    fields = ("title", "starts_at", "ends_at", "rrule", "timezone")
    return _delete(EVENT_TARGET, event_id, seen, fields, ACTION_EVENT_DELETE, "delete event")


# -- undo / redo ------------------------------------------------------------------------------------------


class _CalendarRows(rows.RowKind):
    """Events and tasks for the row engine: a delete is undone with the row's old ``rowid``; enabling
    and disabling compare and put back ``enabled`` only (the scheduler's bookkeeping moves on)."""

    ignored = _VOLATILE
    keeps_rowid = True

    def table(self, entry: AuditEntry) -> str:
        table = _TABLE_OF_TARGET.get(entry.target_type)
        if table is None:
            raise ValidationError_(
                f"Unknown target type {entry.target_type!r} for {entry.action}.",
                code="audit.unreadable",
                params={"audit_id": entry.id},
            )
        return table

    def same(self, column: str, a: Any, b: Any) -> bool:
        return int(a or 0) == int(b or 0) if column == "enabled" else a == b

    def column_changed(self, cur: Mapping[str, Any], column: str, want: Any) -> bool:
        return cur.get(column) != want

    def moved(self, table: str, src: Mapping[str, Any], dst: Mapping[str, Any]) -> list[str]:
        return ["enabled"]

    def value(self, dst: Mapping[str, Any], column: str) -> Any:
        return int(dst.get(column) or 0)

    def create(
        self, conn: Connection, table: str, row: Mapping[str, Any], what: str, since: int | None = None
    ) -> None:
        if table == SCHEDULES and row.get("enabled"):
            _refuse_a_second_enabled_task(conn, row, what, since)
        super().create(conn, table, row, what, since)

    def before_update(
        self,
        conn: Connection,
        table: str,
        cur: Mapping[str, Any],
        dst: Mapping[str, Any],
        what: str,
        since: int | None = None,
    ) -> None:
        if table == SCHEDULES and dst.get("enabled"):
            _refuse_a_second_enabled_task(conn, cur, what, since)

    def exists(self, what: str, table: str, row: Mapping[str, Any], current: Any) -> ConflictError:
        return ConflictError(
            f"{what}: a row with id {row['id']!r} exists again; nothing was changed.",
            current,
            code="calendar.step_exists",
            params={**_ref(table, row), "step": rows.step_of(what)},
        )

    def columns_lost(self, what: str, table: str, row: Any, lost: list[str]) -> ConflictError:
        return ConflictError(
            f"{what}: the table no longer has the columns {', '.join(lost)}.",
            code="calendar.columns_lost",
            params={"table": table, "columns": lost, "step": rows.step_of(what)},
        )

    def gone(self, what: str, table: str, src: Mapping[str, Any]) -> ConflictError:
        return ConflictError(
            f"{what}: the {_label(table, src)} no longer exists; nothing was changed.",
            code="calendar.step_gone",
            params={**_ref(table, src), "step": rows.step_of(what)},
        )

    def changed(
        self, what: str, table: str, cur: Any, fields: list[str], want: Any, *, deleting: bool
    ) -> ConflictError:
        if deleting:  # delete again: the row must be as the undo left it (scheduler bookkeeping aside)
            changed = ", ".join(f"{k} is now {cur.get(k)!r}" for k in fields)
            return ConflictError(
                f"{what} would delete a changed {_label(table, cur)} ({changed}). Nothing was changed.",
                cur,
                code="calendar.step_conflict",
                params={**_ref(table, cur), **rows.changed_params(cur, fields, what)},
            )
        state = "enabled" if cur.get("enabled") else "disabled"
        return ConflictError(
            f"{what} would overwrite a later change: the {_label(table, cur)} is {state} now. "
            "Nothing was changed.",
            cur,
            code="calendar.step_state",
            params={**_ref(table, cur), "step": rows.step_of(what), "enabled": bool(cur.get("enabled"))},
        )


rows.register(_CalendarRows(), ACTIONS)


# -- resume a task paused after failures --------------------------------------------------------------------

ACTION_SCHEDULE_RESUME = "calendar.schedule_resume"


def resume_schedule(sched_id: str, *, seen: Any = None) -> Change:
    """Run a task the scheduler paused after failures again: ``paused_until`` = NULL (its failure count is
    the scheduler's and stays). Undo puts ``paused_until`` back while the scheduler has not set it since."""

    def fn(conn: Connection) -> tuple[Any, Any]:
        cur = _require(conn, SCHEDULES, sched_id)
        _check_seen(SCHEDULES, cur, seen, ("paused_until",))
        if cur["paused_until"] is None:
            raise ValidationError_(
                f"The {_label(SCHEDULES, cur)} is not paused; nothing to change.",
                code="calendar.task_not_paused",
                params=_ref(SCHEDULES, cur),
            )
        conn.execute(f"UPDATE {SCHEDULES} SET paused_until = NULL WHERE id = ?", (sched_id,))
        return cur, _get(conn, SCHEDULES, sched_id)

    return Change(ACTION_SCHEDULE_RESUME, SCHEDULE_TARGET, sched_id, fn, "resume task")


class _PauseRows(_CalendarRows):
    """``paused_until`` only: compared and put back (the other bookkeeping moves on)."""

    ignored = _VOLATILE - {"paused_until"}

    def moved(self, table: str, src: Mapping[str, Any], dst: Mapping[str, Any]) -> list[str]:
        return ["paused_until"]

    def same(self, column: str, a: Any, b: Any) -> bool:
        return a == b

    def value(self, dst: Mapping[str, Any], column: str) -> Any:
        return dst.get(column)

    def before_update(
        self,
        conn: Connection,
        table: str,
        cur: Mapping[str, Any],
        dst: Mapping[str, Any],
        what: str,
        since: int | None = None,
    ) -> None:
        return None  # resuming makes no task enabled: no name to check

    def changed(
        self, what: str, table: str, cur: Any, fields: list[str], want: Any, *, deleting: bool
    ) -> ConflictError:
        return ConflictError(
            f"{what} would overwrite a later change: the scheduler paused or resumed the "
            f"{_label(table, cur)} since. Nothing was changed.",
            cur,
            code="calendar.step_paused",
            params={**_ref(table, cur), "step": rows.step_of(what), "paused_until": cur.get("paused_until")},
        )


rows.register(_PauseRows(), (ACTION_SCHEDULE_RESUME,))

# The memory tools' writes to this layer (through `tool --write` and the MCP server) are undone by
# core.curation.tools; importing it here lets the handler lookup of their actions find it.
from core.curation import tools as _tool_writes  # noqa: E402, F401
