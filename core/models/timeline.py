"""Layer 1 rows: conversations (sessions), their messages, and the agent's tool calls (actions)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import Field

from core.damage import JS_TIME_MAX, RowReader
from core.models.base import RowModel


class Session(RowModel):
    id: str
    started_at: int
    ended_at: int | None = None
    message_count: int | None = None

    @classmethod
    def from_row(cls, row: Any) -> Session:
        r = RowReader(row)
        return cls.model_construct(
            id=r.text("id"),
            started_at=r.time("started_at", required=True),
            ended_at=r.time("ended_at"),
            message_count=r.count("message_count") if r.has("message_count") else None,
            damaged=r.damaged,
        )


class Message(RowModel):
    id: int
    session_id: str
    role: str
    content: str
    timestamp: int
    origin_session_id: str | None = None

    @classmethod
    def from_row(cls, row: Any) -> Message:
        try:
            origin = row["origin_session_id"]
        except (IndexError, KeyError):
            origin = None
        m = cls._clean(row["id"], row["session_id"], row["role"], row["content"], row["timestamp"], origin)
        return m if m is not None else cls._read(row)

    @classmethod
    def from_tuples(cls, rows: Iterable[tuple[Any, ...]], names: Sequence[str]) -> list[Message]:
        """The messages of a query's plain rows (:meth:`core.db.MemoryDB.fetch_tuples`), ``names`` its
        columns: ``id``, ``session_id``, ``role``, ``content``, ``timestamp`` and, where the table has
        it, ``origin_session_id``."""
        at = {n: i for i, n in enumerate(names)}
        i_id, i_session, i_role = at["id"], at["session_id"], at["role"]
        i_content, i_ts, i_origin = at["content"], at["timestamp"], at.get("origin_session_id")
        clean, out = cls._clean, []
        for t in rows:
            origin = None if i_origin is None else t[i_origin]
            m = clean(t[i_id], t[i_session], t[i_role], t[i_content], t[i_ts], origin)
            out.append(m if m is not None else cls._read(dict(zip(names, t, strict=True))))
        return out

    @classmethod
    def _clean(cls, id_: Any, session: Any, role: Any, content: Any, ts: Any, origin: Any) -> Message | None:
        """The message when every value is what its column holds (exact types: text that is not UTF-8,
        a str subclass, is not), built in one step; else ``None`` (the damage reader's turn). A page of
        the timeline is a hundred of these, read while a person scrolls."""
        if not (
            type(ts) is int
            and -JS_TIME_MAX <= ts <= JS_TIME_MAX
            and type(session) is str
            and type(role) is str
            and type(content) is str
            and (origin is None or type(origin) is str)
        ):
            return None
        m = _new(cls)
        _set(m, "__dict__", {"damaged": {}, "id": id_, "session_id": session, "role": role,
                             "content": content, "timestamp": ts, "origin_session_id": origin})  # fmt: skip
        _set(m, "__pydantic_fields_set__", set(_MESSAGE_FIELDS))
        _set(m, "__pydantic_extra__", None)
        _set(m, "__pydantic_private__", None)
        return m

    @classmethod
    def _read(cls, row: Any) -> Message:
        r = RowReader(row)
        return cls.model_construct(
            id=row["id"],
            session_id=r.text("session_id"),
            role=r.text("role"),
            content=r.text("content"),
            timestamp=r.time("timestamp", required=True),
            origin_session_id=r.text("origin_session_id", null_ok=True),
            damaged=r.damaged,
        )


_new = object.__new__
_set = object.__setattr__
_MESSAGE_FIELDS = ("damaged", "id", "session_id", "role", "content", "timestamp", "origin_session_id")


class Action(RowModel):
    id: int
    session_id: str
    trigger: str | None = None
    tool_name: str
    params_json: str
    params: Any = None
    result: str | None = None
    success: bool
    timestamp: int
    linked_skill: str | None = None
    json_errors: list[str] = Field(default_factory=list)

    @classmethod
    def from_row(cls, row: Any) -> Action:
        r = RowReader(row)
        text, params, err = r.json("params_json")
        return cls.model_construct(
            id=row["id"],
            session_id=r.text("session_id"),
            trigger=r.text("trigger", null_ok=True),
            tool_name=r.text("tool_name"),
            params_json=text,
            params=params,
            result=r.text("result", null_ok=True),
            success=r.flag("success", default=False),
            timestamp=r.time("timestamp", required=True),
            linked_skill=r.text("linked_skill", null_ok=True),
            json_errors=[err] if err else [],
            damaged=r.damaged,
        )
