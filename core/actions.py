"""Layer 0.5: the action log (spec Part A §1.2 ``memory_actions``).

One row per tool call: ``params_json`` is ``JSON.stringify(params)`` (written with
:func:`core.jsutil.js_stringify`), ``result`` is stored as given (the agent's server truncates it to 500
characters before it gets here; this store never truncates), ``success`` is 0/1. ``session_id`` has no
foreign key, and ``linked_skill`` is a skill *name*.

Listings are newest first by ``(timestamp, id)`` with keyset pagination.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel

from core.damage import JS_TIME_MAX, as_text, keyset_sql
from core.errors import NotFoundError, ValidationError_
from core.jsutil import js_stringify, now_ms
from core.models import Action, Message
from core.timeline import RawStore

if TYPE_CHECKING:
    from core.db import MemoryDB

ACTIONS = "memory_actions"
Keyset = tuple[int, int]


_INSERT = (
    f"INSERT INTO {ACTIONS} (session_id, trigger, tool_name, params_json, result, success, timestamp, "
    "linked_skill) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


def _row(
    session_id: Any,
    tool_name: Any,
    params: Any,
    result: Any = None,
    success: bool = True,
    timestamp: Any = None,
    trigger: str | None = None,
    linked_skill: str | None = None,
) -> tuple[Any, ...]:
    """The checked insert parameters of one call (``ValidationError_`` for a bad one)."""
    if not isinstance(session_id, str) or not session_id:
        raise ValidationError_(
            "session_id must be a non-empty string",
            code="argument.invalid",
            params={"argument": "session_id"},
        )
    if not isinstance(tool_name, str) or not tool_name:
        raise ValidationError_(
            "tool_name must be a non-empty string", code="argument.invalid", params={"argument": "tool_name"}
        )
    if result is not None and not isinstance(result, str):
        raise ValidationError_(
            "result must be a string or None", code="argument.invalid", params={"argument": "result"}
        )
    ts = now_ms() if timestamp is None else timestamp
    if isinstance(ts, bool) or not isinstance(ts, int):
        raise ValidationError_(
            "timestamp must be an integer (epoch milliseconds)",
            code="argument.invalid",
            params={"argument": "timestamp"},
        )
    try:
        params_json = js_stringify(params)
    except (TypeError, ValueError) as exc:
        raise ValidationError_(
            f"params must be JSON-serialisable: {exc}", code="json.unstorable", params={"error": str(exc)}
        ) from None
    return (session_id, trigger, tool_name, params_json, result, 1 if success else 0, ts, linked_skill)


class ToolStat(BaseModel):
    """Calls of one tool: ``failure_rate = failures / total``; ``last_at`` is the newest call."""

    tool: str
    total: int
    failures: int
    failure_rate: float
    last_at: int | None = None


class ActionStore:
    """The action log."""

    def __init__(self, db: MemoryDB):
        self.db = db

    def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[Action]:
        with self.db.lock:
            return [Action.from_row(r) for r in self.db.conn.execute(sql, tuple(args))]

    # -- writing ---------------------------------------------------------------------------------------
    def append(
        self,
        session_id: str,
        tool_name: str,
        params: Any,
        result: str | None = None,
        success: bool = True,
        timestamp: int | None = None,
        trigger: str | None = None,
        linked_skill: str | None = None,
    ) -> Action:
        """Record one tool call (the reference's ``ActionLog.append``)."""
        row = _row(session_id, tool_name, params, result, success, timestamp, trigger, linked_skill)
        with self.db.write() as conn:
            new_id = conn.execute(_INSERT, row).lastrowid
        assert new_id is not None  # an INSERT sets it
        got = self.get(new_id)
        assert got is not None
        return got

    def append_many(self, calls: Sequence[Sequence[Any]]) -> int:
        """Record many tool calls in one transaction; returns how many.

        Each call is ``(session_id, tool_name, params, result, success, timestamp, trigger, linked_skill)``,
        checked as :meth:`append` checks it; one invalid call raises and nothing is written.
        """
        rows = [_row(*c) for c in calls]
        with self.db.write() as conn:
            conn.executemany(_INSERT, rows)
        return len(rows)

    # -- reading ---------------------------------------------------------------------------------------
    def get(self, action_id: int) -> Action | None:
        rows = self._rows(f"SELECT * FROM {ACTIONS} WHERE id = ?", (action_id,))
        return rows[0] if rows else None

    def list(
        self,
        limit: int | None = 50,
        before: Keyset | None = None,
        session_id: str | None = None,
        tool: str | Sequence[str] | None = None,
        success: bool | None = None,
        linked_skill: str | None = None,
        *,
        after: Keyset | None = None,
        since: int | None = None,
        until: int | None = None,
        order: Literal["asc", "desc"] = "desc",
    ) -> builtins.list[Action]:
        """Actions by ``(timestamp, id)`` (newest first by default) with keyset pagination.

        ``before``/``after`` are exclusive ``(timestamp, id)`` bounds; ``tool`` is one name or a list;
        ``success`` True/False keeps successes/failures; None or a negative ``limit`` means no limit.
        """
        if order not in ("asc", "desc"):
            raise ValidationError_(
                "order must be 'asc' or 'desc'", code="argument.invalid", params={"argument": "order"}
            )
        parts: list[str] = []
        args: list[Any] = []
        for key, is_before in ((before, True), (after, False)):
            if key is not None:
                sql, key_args = keyset_sql("timestamp", "id", key, before=is_before)
                parts.append(sql)
                args += key_args
        if since is not None:
            parts.append("timestamp >= ?")
            args.append(since)
        if until is not None:
            parts.append("timestamp <= ?")
            args.append(until)
        if session_id is not None:
            parts.append("+session_id = ?")  # nearly every row is in 'global': walk the time index
            args.append(session_id)
        if tool is not None:
            tools = [tool] if isinstance(tool, str) else list(tool)
            if not tools:
                return []
            parts.append(f"tool_name IN ({','.join('?' * len(tools))})")
            args += tools
        if success is not None:
            parts.append("success = ?" if success else "NOT success")
            if success:
                args.append(1)
        if linked_skill is not None:
            parts.append("linked_skill = ?")
            args.append(linked_skill)
        where = (" WHERE " + " AND ".join(parts)) if parts else ""
        d = "DESC" if order == "desc" else "ASC"
        return self._rows(
            f"SELECT * FROM {ACTIONS}{where} ORDER BY timestamp {d}, id {d} LIMIT ?",
            (*args, -1 if limit is None else limit),
        )

    def by_linked_skill(self, name: str, limit: int | None = None) -> builtins.list[Action]:
        """Actions whose ``linked_skill`` is ``name``, newest first."""
        return self.list(limit=limit, linked_skill=name)

    def tools(self) -> builtins.list[str]:
        """Every tool name in the log, sorted."""
        with self.db.lock:
            return [
                r[0] for r in self.db.conn.execute(f"SELECT DISTINCT tool_name FROM {ACTIONS} ORDER BY 1")
            ]

    def tool_stats(self, since: int | None = None, until: int | None = None) -> builtins.list[ToolStat]:
        """Per tool: calls, failures and failure rate; most-called first, then by name."""
        parts: list[str] = []
        args: list[Any] = []
        if since is not None:
            parts.append("timestamp >= ?")
            args.append(since)
        if until is not None:
            parts.append("timestamp <= ?")
            args.append(until)
        where = (" WHERE " + " AND ".join(parts)) if parts else ""
        # The newest readable time (a damaged timestamp is no "last call").
        sql = (
            f"SELECT tool_name, count(*), sum(CASE WHEN success THEN 0 ELSE 1 END), "
            f"max(CASE WHEN timestamp BETWEEN {-JS_TIME_MAX} AND {JS_TIME_MAX} THEN timestamp END) "
            f"FROM {ACTIONS}{where} GROUP BY tool_name"
        )
        with self.db.lock:
            rows = list(self.db.conn.execute(sql, args))
        stats = [
            ToolStat(
                tool=as_text(r[0]),
                total=r[1],
                failures=r[2],
                failure_rate=r[2] / r[1] if r[1] else 0.0,
                last_at=None if r[3] is None else int(r[3]),
            )
            for r in rows
        ]
        stats.sort(key=lambda s: (-s.total, s.tool))
        return stats

    def count(self) -> int:
        with self.db.lock:
            return self.db.conn.execute(f"SELECT count(*) FROM {ACTIONS}").fetchone()[0]

    def latest_id(self) -> int | None:
        with self.db.lock:
            return self.db.conn.execute(f"SELECT max(id) FROM {ACTIONS}").fetchone()[0]

    def around_action(
        self, action_id: int, n: int = 5, *, session_ids: Sequence[str] | None = None
    ) -> builtins.list[Message]:
        """The timeline around an action: up to ``n`` messages at or before its timestamp and ``n``
        after it, oldest first (all sessions unless ``session_ids``)."""
        a = self.get(action_id)
        if a is None:
            raise NotFoundError(f"No action {action_id}.", code="action.not_found", params={"id": action_id})
        return RawStore(self.db).messages_near(a.timestamp, n, session_ids=session_ids)


__all__ = ["ActionStore", "ToolStat"]
