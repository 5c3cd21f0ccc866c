"""The SQL pieces that reading the timeline and searching it share: table names, a conjunction of
conditions (:class:`Where`) and the filters of the timeline (time range, roles, sessions, keyset bounds,
conversations), the reference's query sanitiser and its reading of ``LIMIT``.

Nothing here reads the database; :mod:`core.timeline` (rows) and :mod:`core.search` (search) build their
queries from these pieces.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from core.damage import StoredTime, keyset_sql
from core.jsutil import js_trim

MSG = "memory_raw_messages"
FTS = "memory_raw_messages_fts"
SESSIONS = "memory_raw_sessions"
INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)

Keyset = tuple[int, int]

_SANITIZE = re.compile(r"['\"*()]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def sanitize_query(query: Any) -> str:
    """The reference's sanitiser: ``query.replace(/['"*()]/g, ' ').trim()`` (JS whitespace).

    A lone surrogate (possible in a JS string, and in Python from undecodable bytes) becomes U+FFFD, as
    the JS runtime's UTF-8 conversion does on its way to SQLite; it could not be bound otherwise.
    """
    if query is None:
        return ""
    if not isinstance(query, str):
        query = str(query)
    return js_trim(_SANITIZE.sub(" ", _LONE_SURROGATE.sub("\ufffd", query)))


def resolve_session_filter(session_id: str | None, session_ids: Sequence[str] | None) -> list[str] | None:
    """A non-empty ``session_ids`` wins over ``session_id``; either becomes ``session_id IN (...)``.

    As in the reference, any given ``session_id`` filters, the empty string included (it matches
    no message); only ``None`` means "all sessions".
    """
    if session_ids:
        return list(session_ids)
    if session_id is not None:
        return [session_id]
    return None


class BadLimit(Exception):
    """A limit SQLite would refuse (``datatype mismatch``): the FTS path swallows it as zero rows."""


def norm_limit(limit: Any) -> int | None:
    """SQLite's reading of ``LIMIT ?``: ``None`` means no limit (a negative value)."""
    if limit is None:
        return 20
    if isinstance(limit, bool):
        return int(limit)
    if isinstance(limit, int):
        return limit if limit >= 0 else None
    if isinstance(limit, float) and limit.is_integer():
        return int(limit) if limit >= 0 else None
    raise BadLimit()


def placeholders(n: int) -> str:
    return ",".join("?" * n)


class Where:
    """A conjunction of SQL conditions with their parameters."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.args: list[Any] = []

    def add(self, sql: str, *args: Any) -> None:
        self.parts.append(sql)
        self.args.extend(args)

    def copy(self) -> Where:
        w = Where()
        w.parts, w.args = list(self.parts), list(self.args)
        return w

    def and_sql(self) -> str:
        return "".join(f" AND {p}" for p in self.parts)

    def where_sql(self) -> str:
        return (" WHERE " + " AND ".join(self.parts)) if self.parts else ""


def conversation_condition(
    ids: Sequence[str], *, alias: str = "m.", has_origin: bool = True
) -> tuple[str, list[Any]]:
    """``(sql, args)`` keeping the rows of the conversations ``ids`` (empty list: no row).

    A conversation (:mod:`core.conversations`) is an origin id with the origin-less rows of a session of
    the same id: ``origin_session_id IN (ids) OR (origin_session_id IS NULL AND session_id IN (ids))``,
    only ``session_id IN (ids)`` in a file without the origin column. Checked per row.
    """
    uniq = list(dict.fromkeys(ids))
    if not uniq:
        return "0", []
    ph = placeholders(len(uniq))
    if not has_origin:
        return f"+{alias}session_id IN ({ph})", uniq
    return (
        f"(+{alias}origin_session_id IN ({ph}) OR "
        f"(+{alias}origin_session_id IS NULL AND +{alias}session_id IN ({ph})))",
        [*uniq, *uniq],
    )


def session_cond(w: Where, alias: str, session_ids: Sequence[str] | None) -> None:
    """``+session_id IN (...)``: checked per row, never through the session index."""
    if not session_ids:
        return
    ids = list(dict.fromkeys(session_ids))
    w.add(f"+{alias}session_id IN ({placeholders(len(ids))})", *ids)


def keyset_cond(w: Where, alias: str, before: Keyset | None, after: Keyset | None) -> None:
    """Keyset bounds on the stored values (a damaged time compares as stored: core.damage)."""
    for key, is_before in ((before, True), (after, False)):
        if key is not None:
            t = key[0] if isinstance(key[0], StoredTime) else int(key[0])
            sql, args = keyset_sql(f"{alias}timestamp", f"{alias}id", (t, int(key[1])), before=is_before)
            w.add(sql, *args)


def range_cond(w: Where, alias: str, since: float | None, until: float | None) -> None:
    if since is not None:
        w.add(f"{alias}timestamp >= ?", since)
    if until is not None:
        w.add(f"{alias}timestamp <= ?", until)


def roles_cond(w: Where, alias: str, roles: Sequence[str] | None) -> None:
    if roles is None:
        return
    rs = list(dict.fromkeys(roles))
    if not rs:
        w.add("0")
        return
    w.add(f"{alias}role IN ({placeholders(len(rs))})", *rs)
