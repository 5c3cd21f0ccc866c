"""Every table in a memory file, grouped, with its row count: ``philont-memory info`` and the app's summary.

The groups:

* ``memory``: the memory layers this project shows and curates (:data:`core.schema.CORE_TABLES`);
* ``agent``: tables the agent keeps beside its memory (its goals and drives, routing rules, plans,
  reasoning sessions, deferred pushes, cases, ...), named after the reference's schema up to version 50;
* ``project``: this project's own audit table;
* ``search``: the full-text indexes of the memory layers (FTS5 tables and their shadow tables);
* ``sqlite``: SQLite's own bookkeeping (``sqlite_sequence``, ``sqlite_stat*``);
* ``unknown``: anything else (a newer agent's table, another tool's).

:func:`list_tables` reads ``sqlite_master`` only, so it is instant on any file (the GUI's first paint);
:func:`count_rows` runs one ``count(*)`` per table and belongs in a worker on a big file. Both are
read-only. A virtual table is listed without a count (counting an external-content FTS table would read
its whole content table).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel

from core.engine import sqlite3
from core.schema import AUDIT_TABLE, CORE_TABLES, FTS_TABLES

if TYPE_CHECKING:
    from core.db import MemoryDB
    from core.engine import Connection

TableGroup = Literal["memory", "agent", "project", "search", "sqlite", "unknown"]
GROUPS: tuple[TableGroup, ...] = ("memory", "agent", "project", "search", "sqlite", "unknown")

# The agent's tables outside the memory layers, as its schema (v50) names them, with what they hold.
AGENT_TABLES: dict[str, str] = {
    "memory_pursuits": "goals and the agent's identity (the root pursuit holds the constitution)",
    "memory_drive_configs": "declarative drives (trigger, action, effectiveness)",
    "memory_drive_outcomes": "log of drive firings",
    "constitution_proposals": "proposed amendments to the constitution, awaiting the owner",
    "routing_rules": "rules distilled by reflection: prefer or avoid a skill",
    "memory_initiatives": "the autonomous loop's work queue and history",
    "autonomous_budget": "autonomous budget used per user and day",
    "push_subscriptions": "proactive push opt-ins per channel and peer",
    "deferred_pushes": "proactive messages waiting for a channel's next inbound turn",
    "memory_plans": "plans of complex tasks",
    "config_rules": "self-modifying configuration rules",
    "reasoning_sessions": "deep-exploration reasoning sessions",
    "reasoning_nodes": "nodes of the reasoning trees",
    "reasoning_session_focus": "which reasoning session each conversation focuses on",
    "learning_metrics": "learning counters",
    "learning_metric_daily": "daily snapshots of the learning counters",
    "memory_cases": "judge-verified run records (goal, tool trace, verdict)",
    "schedule_outcomes": "the run trace of each scheduled task",
    "memory_access_log": "read trace of facts, notes and skills",
}

_FTS_SHADOWS = ("data", "idx", "docsize", "config", "content")
_SEARCH_TABLES = frozenset(
    {f.name for f in FTS_TABLES} | {f"{f.name}_{s}" for f in FTS_TABLES for s in _FTS_SHADOWS}
)


class TableInfo(BaseModel):
    """One table of the file. ``rows`` is None until counted (and for virtual tables)."""

    name: str
    group: TableGroup
    virtual: bool = False
    rows: int | None = None

    @property
    def description(self) -> str:
        """What the table holds, in English, for the known ones ('' otherwise)."""
        return AGENT_TABLES.get(self.name, "")


def table_group(name: str) -> TableGroup:
    """The group of a table name (see the module docstring)."""
    if name in CORE_TABLES:
        return "memory"
    if name in AGENT_TABLES:
        return "agent"
    if name == AUDIT_TABLE:
        return "project"
    if name in _SEARCH_TABLES:
        return "search"
    if name.startswith("sqlite_"):
        return "sqlite"
    return "unknown"


def list_tables(conn: Connection) -> list[TableInfo]:
    """Every table in ``sqlite_master``, grouped (:data:`GROUPS` order), by name within a group; no counts."""
    rows = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'").fetchall()
    out = [
        TableInfo(
            name=name, group=table_group(name), virtual=str(sql or "").upper().startswith("CREATE VIRTUAL")
        )
        for name, sql in rows
    ]
    out.sort(key=lambda t: (GROUPS.index(t.group), t.name))
    return out


def count_rows(
    conn: Connection, tables: Iterable[TableInfo], *, cancel: Callable[[], bool] | None = None
) -> list[TableInfo]:
    """The tables with ``rows`` filled in (``None`` for virtual tables and tables that cannot be read).

    One ``count(*)`` per table: SQLite counts through the table's smallest index, milliseconds per
    hundred thousand rows. ``cancel()`` is asked between tables; when it says True the rest stay uncounted.
    """
    out: list[TableInfo] = []
    for t in tables:
        n: int | None = None
        if not t.virtual and not (cancel is not None and cancel()):
            quoted = t.name.replace('"', '""')
            try:
                n = int(conn.execute(f'SELECT count(*) FROM "{quoted}"').fetchone()[0])
            except sqlite3.Error:
                n = None
        out.append(t.model_copy(update={"rows": n}))
    return out


def inventory(
    db: MemoryDB, *, counts: bool = True, cancel: Callable[[], bool] | None = None
) -> list[TableInfo]:
    """:func:`list_tables` (and :func:`count_rows` when ``counts``) on an open :class:`core.db.MemoryDB`."""
    with db.lock:
        tables = list_tables(db.conn)
        return count_rows(db.conn, tables, cancel=cancel) if counts else tables


def grouped(tables: Iterable[TableInfo]) -> dict[str, list[dict[str, Any]]]:
    """``{group: [{name, rows, virtual}]}`` for every group in :data:`GROUPS` order (``info --json``)."""
    out: dict[str, list[dict[str, Any]]] = {g: [] for g in GROUPS}
    for t in tables:
        out[t.group].append({"name": t.name, "rows": t.rows, "virtual": t.virtual})
    return out


__all__ = [
    "AGENT_TABLES",
    "GROUPS",
    "TableGroup",
    "TableInfo",
    "count_rows",
    "grouped",
    "inventory",
    "list_tables",
    "table_group",
]
