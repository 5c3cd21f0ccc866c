"""The rows :class:`core.timeline.RawStore` writes: a message's fields checked, the shapes a caller may
give a row in, and the ``INSERT`` for the file's columns."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from core.errors import ValidationError_
from core.jsutil import now_ms
from core.models import ROLES, Message
from core.search.sql import MSG

MessageRow = tuple[str, str, str, int, str | None]


def check_message(session_id: Any, role: Any, content: Any, timestamp: Any) -> None:
    """Raise :class:`ValidationError_` (``argument.invalid``) for a field a message cannot have."""
    if not isinstance(session_id, str) or not session_id:
        raise ValidationError_(
            "session_id must be a non-empty string",
            code="argument.invalid",
            params={"argument": "session_id"},
        )
    if role not in ROLES:
        raise ValidationError_(
            f"role must be one of {', '.join(ROLES)}; got {role!r}",
            code="argument.invalid",
            params={"argument": "role"},
        )
    if not isinstance(content, str):
        raise ValidationError_(
            "content must be a string", code="argument.invalid", params={"argument": "content"}
        )
    if isinstance(timestamp, bool) or not isinstance(timestamp, int):
        raise ValidationError_(
            "timestamp must be an integer (epoch milliseconds)",
            code="argument.invalid",
            params={"argument": "timestamp"},
        )


def no_origin_column() -> ValidationError_:
    """The error of an origin given to a file without the ``origin_session_id`` column."""
    return ValidationError_(
        "this database has no origin_session_id column",
        code="db.column_missing",
        params={"table": "memory_raw_messages", "column": "origin_session_id"},
    )


def insert_sql(has_origin: bool) -> str:
    """The ``INSERT`` of one message (with its origin when the file has the column)."""
    if has_origin:
        return (
            f"INSERT INTO {MSG} (session_id, role, content, timestamp, origin_session_id) "
            "VALUES (?, ?, ?, ?, ?)"
        )
    return f"INSERT INTO {MSG} (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)"


def row_tuple(row: Any) -> MessageRow:
    """A mapping, a :class:`Message` or a tuple ``(session_id, role, content, timestamp[, origin])`` as
    that 5-tuple (a missing timestamp of a mapping is now)."""
    if isinstance(row, Mapping):
        ts = row.get("timestamp")
        return (
            row["session_id"],
            row["role"],
            row["content"],
            now_ms() if ts is None else ts,
            row.get("origin_session_id"),
        )
    if isinstance(row, Message):
        return (row.session_id, row.role, row.content, row.timestamp, row.origin_session_id)
    t = tuple(row)
    if len(t) == 4:
        return (t[0], t[1], t[2], t[3], None)
    if len(t) == 5:
        return (t[0], t[1], t[2], t[3], t[4])
    raise ValidationError_(
        "a row is (session_id, role, content, timestamp[, origin_session_id])",
        code="argument.invalid",
        params={"argument": "rows"},
    )


def new_sessions(tuples: Iterable[MessageRow], seen: set[str], has_origin: bool) -> dict[str, int]:
    """Check each row; the sessions not in ``seen`` with the first timestamp each is appended at."""
    out: dict[str, int] = {}
    for t in tuples:
        check_message(t[0], t[1], t[2], t[3])
        if t[0] not in seen and t[0] not in out:
            out[t[0]] = t[3]
        if not has_origin and t[4] is not None:
            raise no_origin_column()
    return out


def chunks(rows: Iterable[Any], size: int) -> Iterator[list[Any]]:
    buf: list[Any] = []
    for r in rows:
        buf.append(r)
        if len(buf) >= size:
            yield buf
            buf = []
    if buf:
        yield buf
