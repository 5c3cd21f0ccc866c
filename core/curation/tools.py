"""Writes of the memory tools made on a person's behalf: audited and undoable like every manual edit.

``philont-memory tool NAME ARGS --write`` and the MCP server started with ``--write`` run the agent's
write tools (``store_fact``, ``create_calendar_event``, ``schedule_reminder``, ``cancel_schedule``)
through :func:`run_audited`: the tool runs through the one dispatcher (:func:`core.tools.run_tool`, so
its result and every output string are the tool's own) inside one ``BEGIN IMMEDIATE`` transaction that
also writes one audit row, action ``<layer>.<tool name>`` (``facts.store_fact``,
``calendar.create_calendar_event``, ``calendar.schedule_reminder``, ``calendar.cancel_schedule``: the
layer whose tab shows the rows, so the app refreshes it after an undo). A tool that fails writes nothing (the
transaction is rolled back) and leaves no audit row. Read tools are not audited (``get_fact`` and
``use_skill`` only refresh the agent's bookkeeping).

The audit row holds the rows the call changed, before and after, all columns and the ``rowid``::

    {"tool": "store_fact", "table": "memory_facts", "ids": ["...", ...], "rows": [{...} | null, ...]}

(``before`` and ``after`` list the same rows in the same order; ``null`` is "did not exist"; the
``rows`` list has the shape of the bulk edits' entries, which the change set reads). Which
rows a call may touch is known from the tool: the versions of ``namespace.key`` for ``store_fact``,
new rows of ``memory_calendar`` for ``create_calendar_event``, the rows of ``memory_schedules`` for the
schedule tools.

Undo puts the ``before`` rows back and redo the ``after`` rows, in one transaction, each only when
what it replaces still holds the value the call left: a version the agent superseded since, a task it
fired or edited, a row deleted or re-created meanwhile all raise :class:`~core.errors.ConflictError`
and nothing is changed. The agent's own bookkeeping (a fact's ``last_accessed_at``, a task's
``next_run_at``, ``last_run_at``, ``consecutive_failures`` and ``paused_until``) is never compared
and, when a row is updated back, never put back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core import curation
from core.audit import AuditEntry
from core.curation import rows
from core.errors import ConflictError
from core.tools import TOOLS, ToolResult, run_tool, unstorable_param

if TYPE_CHECKING:
    from core.db import MemoryDB
    from core.engine import Connection

__all__ = ["ACTIONS", "ACTOR_MCP_SUFFIX", "AuditedRun", "action_of", "run_audited"]

ACTOR_MCP_SUFFIX = "@philont-memory-mcp"

FACTS = "memory_facts"
EVENTS = "memory_calendar"
SCHEDULES = "memory_schedules"

#: target type of the audit row, per write tool
_TARGET = {
    "store_fact": "fact",
    "create_calendar_event": "calendar_event",
    "schedule_reminder": "schedule",
    "cancel_schedule": "schedule",
}
#: audit action, per write tool: ``<layer>.<tool>``
_ACTION = {
    "store_fact": "facts.store_fact",
    "create_calendar_event": "calendar.create_calendar_event",
    "schedule_reminder": "calendar.schedule_reminder",
    "cancel_schedule": "calendar.cancel_schedule",
}
ACTIONS = tuple(_ACTION.values())

#: columns the agent moves on its own: never compared, never put back
_BOOKKEEPING = {
    FACTS: frozenset({"last_accessed_at"}),
    EVENTS: frozenset(),
    SCHEDULES: frozenset({"next_run_at", "last_run_at", "consecutive_failures", "paused_until"}),
}


def action_of(tool_name: str) -> str:
    """The audit action of a write tool's calls (``facts.store_fact``)."""
    return _ACTION[tool_name]


@dataclass(frozen=True)
class AuditedRun:
    """The tool's result, exactly as the dispatcher returns it, and the audit row (``None`` when the
    tool failed, reads only, or changed nothing)."""

    result: ToolResult
    entry: AuditEntry | None = None


class _Rollback(Exception):
    """Raised inside the transaction to undo a call that failed or changed nothing."""

    def __init__(self, result: ToolResult):
        super().__init__("rollback")
        self.result = result


# -- what a call may touch ------------------------------------------------------------------------------


def _scope(name: str, params: Any, conn: Connection) -> tuple[str, str, tuple[Any, ...]]:
    """``(table, where, args)``: the rows the call ``name(params)`` may change (read before it runs)."""
    if name == "store_fact":
        ns, key = params.namespace, params.key
        if not isinstance(ns, str) or not isinstance(key, str):  # the tool refuses these itself
            return FACTS, "0", ()
        return FACTS, "namespace = ? AND key = ?", (ns, key)
    if name == "create_calendar_event":
        top = conn.execute(f"SELECT max(rowid) FROM {EVENTS}").fetchone()[0]
        return EVENTS, "rowid > ?", (top or 0,)
    return SCHEDULES, "1", ()


def _snapshot(conn: Connection, table: str, where: str, args: tuple[Any, ...]) -> dict[str, dict[str, Any]]:
    rows = conn.execute(f'SELECT rowid AS "rowid", * FROM {table} WHERE {where}', args).fetchall()
    return {str(r["id"]): dict(zip(r.keys(), tuple(r), strict=True)) for r in rows}


def _changed_ids(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    ids = list(before) + [i for i in after if i not in before]
    return [i for i in ids if before.get(i) != after.get(i)]


def _target_id(ids: list[str], before: dict[str, Any]) -> str:
    created = [i for i in ids if i not in before]
    return ",".join(created or ids)


def run_audited(
    db: MemoryDB,
    name: str,
    args: dict[str, Any] | str | bytes | None = None,
    *,
    actor: str | None = None,
    note: str | None = None,
    now: int | None = None,
) -> AuditedRun:
    """Run tool ``name`` like :func:`core.tools.run_tool` (never raises for the tool's own errors); a
    write tool on a writable database runs in one transaction with its audit row.

    ``actor`` defaults to :func:`core.audit.default_actor`; ``note`` says how the call was made (the
    MCP client, the command line). Raises only what the audit itself cannot do (the database refusing
    the transaction: :class:`~core.errors.ReadOnlyError`, ``sqlite3.OperationalError`` after the busy
    timeout).
    """
    spec = TOOLS.get(name) if isinstance(name, str) else None
    if spec is None or spec.capability != "write" or not _writable(db):
        return AuditedRun(run_tool(db, name, args, now=now))
    parsed = _parse_args(spec, args)
    if parsed is None or unstorable_param(name, parsed) is not None:
        # The dispatcher explains what is wrong with the arguments, before anything is written.
        return AuditedRun(run_tool(db, name, args, now=now))

    def fn(conn: Connection) -> tuple[Any, Any, str]:
        table, where, scope_args = _scope(name, parsed, conn)
        before = _snapshot(conn, table, where, scope_args)
        result = run_tool(db, name, args, now=now)
        if not result.success:
            raise _Rollback(result)
        after = _snapshot(conn, table, where, scope_args)
        ids = _changed_ids(before, after)
        if not ids:
            raise _Rollback(result)
        box.append(result)
        head = {"tool": name, "table": table, "ids": ids}
        return (
            {**head, "rows": [before.get(i) for i in ids]},
            {**head, "rows": [after.get(i) for i in ids]},
            _target_id(ids, before),
        )

    box: list[ToolResult] = []
    try:
        entry = curation.perform(
            db,
            actor=actor or curation.default_actor(),
            action=action_of(name),
            target_type=_TARGET[name],
            target_id=None,
            fn=fn,
            note=note,
            now=now,
        )
    except _Rollback as rb:
        return AuditedRun(rb.result)
    return AuditedRun(box[0], entry)


def _writable(db: MemoryDB) -> bool:
    report = db.report
    return not report.read_only and report.read_only_reason is None


def _parse_args(spec: Any, args: Any) -> Any:
    """The validated parameter model, or ``None`` when the dispatcher would refuse the arguments."""
    import json

    try:
        if isinstance(args, bytes | bytearray):
            args = bytes(args).decode("utf-8")
        if isinstance(args, str):
            args = json.loads(args) if args.strip() else {}
        if args is None:
            args = {}
        if not isinstance(args, dict):
            return None
        return spec.params.model_validate(args)
    except (ValueError, RecursionError):  # pydantic's ValidationError is a ValueError
        return None


# -- undo / redo ----------------------------------------------------------------------------------------


def _rows(entry: AuditEntry) -> tuple[str, list[tuple[str, Any, Any]]]:
    """``(table, [(id, before row, after row)])`` of an entry; :class:`ConflictError` when unreadable."""
    b, a = entry.before, entry.after
    ok = isinstance(b, dict) and isinstance(a, dict)
    if ok:
        table, ids = b.get("table"), b.get("ids")
        rows_b, rows_a = b.get("rows"), a.get("rows")
        ok = (
            table in _BOOKKEEPING
            and a.get("table") == table
            and isinstance(ids, list)
            and a.get("ids") == ids
            and isinstance(rows_b, list)
            and isinstance(rows_a, list)
            and len(rows_b) == len(rows_a) == len(ids)
        )
    if not ok:
        raise ConflictError(
            f"Audit entry #{entry.id} does not list the rows it changed; it cannot be undone.",
            code="tools.audit_unreadable",
            params={"audit_id": entry.id},
        )
    return table, [(str(i), rb, ra) for i, rb, ra in zip(ids, rows_b, rows_a)]


def _conflict(
    what: str,
    table: str,
    row_id: str,
    problem: str,
    fields: list[str] | tuple[str, ...] = (),
    current: Any = None,
) -> ConflictError:
    """``problem`` is ``exists`` (the row is there again), ``gone``, ``changed`` (``fields`` changed
    since) or ``columns_lost`` (``fields`` are columns the table no longer has)."""
    detail = {
        "exists": "exists again",
        "gone": "no longer exists",
        "changed": "was changed since (" + ", ".join(fields) + ")",
        "columns_lost": "has columns the table no longer has: " + ", ".join(fields),
    }[problem]
    return ConflictError(
        f"{what}: the row {row_id} of {table} {detail}; nothing was changed.",
        current,
        code="tools.undo_conflict",
        params={
            "step": rows.step_of(what),
            "table": table,
            "id": row_id,
            "problem": problem,
            "fields": list(fields),
        },
    )


class _ToolRows(rows.RowKind):
    """The rows a tool call changed, for the row engine: any of the three tables, by the ids the audit
    row lists; the agent's bookkeeping of the table is never compared nor put back."""

    keeps_rowid = True

    def table(self, entry: AuditEntry) -> str:
        return _rows(entry)[0]

    def pairs(self, entry: AuditEntry) -> list[tuple[Any, Any]]:
        return [(before, after) for _id, before, after in _rows(entry)[1]]

    def row_id(self, state: Mapping[str, Any]) -> str:
        return str(state["id"])

    def skipped(self, table: str) -> frozenset[str]:
        return _BOOKKEEPING[table]

    def column_changed(self, cur: Mapping[str, Any], column: str, want: Any) -> bool:
        return column not in cur or cur[column] != want

    def exists(self, what: str, table: str, row: Mapping[str, Any], current: Any) -> ConflictError:
        return _conflict(what, table, str(row["id"]), "exists", current=current)

    def columns_lost(self, what: str, table: str, row: Any, lost: list[str]) -> ConflictError:
        return _conflict(what, table, str(row["id"]), "columns_lost", lost)

    def gone(self, what: str, table: str, src: Mapping[str, Any]) -> ConflictError:
        return _conflict(what, table, str(src["id"]), "gone")

    def changed(
        self, what: str, table: str, cur: Any, fields: list[str], want: Any, *, deleting: bool
    ) -> ConflictError:
        return _conflict(what, table, str(want["id"]), "changed", fields, cur)


rows.register(_ToolRows(), ACTIONS)
# core.curation.facts and core.curation.calendar import this module, so that looking up the handler of
# an action by its layer finds these too.
