"""The conversation filter of the search (:mod:`core.conversations` says what a conversation is).

Per row, it is :func:`~core.search.sql.conversation_condition`. A search restricted to conversations
that hold at most :data:`SMALL_CONVERSATION_ROWS` rows reads their keys from the indexes and intersects
them with the full-text hits (never looking at other rows) instead of walking the hits and looking each
one up; the substring step then checks only those rows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from core.engine import sqlite3
from core.jsutil import utf16_len
from core.models import Message
from core.schema import GLOBAL_SESSION_ID, ORIGIN_INDEX
from core.search.results import SearchMode
from core.search.rows import RowReader
from core.search.sql import FTS, MSG, BadLimit, Where, conversation_condition, norm_limit, placeholders

SMALL_CONVERSATION_ROWS = 5000


class ConversationFilter:
    """Keeps the rows of some conversations, over one :class:`~core.timeline.RawStore`'s file."""

    def __init__(self, raw: RowReader):
        self.raw = raw
        self.db = raw.db

    def add_condition(self, w: Where, alias: str, conversations: Sequence[str] | None) -> None:
        """Rows of these conversations, checked per row (nothing when ``conversations`` is None)."""
        if conversations is None:
            return
        sql, args = conversation_condition(conversations, alias=alias, has_origin=self.raw.has_origin())
        w.add(sql, *args)

    def ordered_rows(
        self, rng: Where, rest: Where, conversations: Sequence[str], limit: Any, order: str
    ) -> list[Message]:
        """:meth:`core.timeline.RawStore.select_ordered` for the rows of some conversations, read through the indexes that list them
        in time order: each origin's rows from the origin index, the rows without origin of the named
        sessions (``global`` included) from the origin index's NULL range or the session index."""
        ids = list(dict.fromkeys(conversations))
        k = limit if isinstance(limit, int) and not isinstance(limit, bool) and limit >= 0 else None
        if not ids or k == 0:
            return []
        if not self.raw.has_origin():
            return self.raw.select_ordered(rng, rest, ids, limit, order)
        if k is None or len(ids) > 16 or not self.raw.has_origin_index():
            w = rest.copy()
            self.add_condition(w, "m.", ids)
            return self.raw.select_ordered(rng, w, None, limit, order)
        d = "DESC" if order == "desc" else "ASC"
        tail = f"{rng.and_sql()}{rest.and_sql()} ORDER BY m.timestamp {d}, m.id {d} LIMIT ?"
        rows: list[Message] = []
        for oid in ids:  # one origin's rows are in time order in the index: no sort, stops at k
            rows += self.raw.select(
                f"SELECT m.* FROM {MSG} AS m INDEXED BY {ORIGIN_INDEX} WHERE m.origin_session_id = ?{tail}",
                (oid, *rng.args, *rest.args, k),
            )
        if GLOBAL_SESSION_ID in ids:  # mostly the global timeline's rows: walk them in time order
            ph = placeholders(len(ids))
            rows += self.raw.select(
                f"SELECT m.* FROM {MSG} AS m INDEXED BY {ORIGIN_INDEX} WHERE m.origin_session_id IS NULL "
                f"AND +m.session_id IN ({ph}){tail}",
                (*ids, *rng.args, *rest.args, k),
            )
        else:
            null_rest = Where()
            null_rest.add("+m.origin_session_id IS NULL")
            null_rest.parts += rest.parts
            null_rest.args += rest.args
            rows += self.raw.select_ordered(rng, null_rest, ids, k, order)
        rows.sort(key=lambda m: (m.timestamp, m.id), reverse=order == "desc")
        return rows[:k]

    def small_keys(self, conversations: Sequence[str]) -> dict[int, int] | None:
        """:meth:`keys` capped at :data:`SMALL_CONVERSATION_ROWS`."""
        return self.keys(conversations, SMALL_CONVERSATION_ROWS)

    def keys(self, conversations: Sequence[str], cap: int) -> dict[int, int] | None:
        """``{id: timestamp}`` of every row of the conversations, or None when they hold more than
        ``cap`` rows (or the origin index is missing): read from the origin index (origin rows) and the
        session index (rows without origin)."""
        ids = list(dict.fromkeys(conversations))
        if not ids:
            return {}
        ph = placeholders(len(ids))
        parts: list[tuple[str, tuple[Any, ...]]] = []
        if self.raw.has_origin():
            if not self.raw.has_origin_index():
                return None
            parts.append(
                (
                    f"SELECT id, timestamp FROM {MSG} INDEXED BY {ORIGIN_INDEX} WHERE origin_session_id IN ({ph})",
                    (*ids,),
                )
            )
            null = " AND origin_session_id IS NULL"
        else:
            null = ""
        parts.append((f"SELECT id, timestamp FROM {MSG} WHERE session_id IN ({ph}){null}", (*ids,)))
        out: dict[int, int] = {}
        with self.db.lock:
            for sql, args in parts:
                for i, ts in self.db.conn.execute(f"{sql} LIMIT ?", (*args, cap + 1 - len(out))):
                    if type(ts) is not int:
                        return None  # a damaged time: let SQLite order the rows
                    out[i] = ts
                if len(out) > cap:
                    return None
        return out

    def search_keys(
        self,
        safe: str,
        keys: dict[int, int],
        w: Where,
        limit: Any,
        mode: SearchMode | None,
        on_like: Callable[[], None] | None,
    ) -> tuple[list[Message], SearchMode] | None:
        """The search (full-text, else substring) over the rows ``keys`` only (see :data:`SMALL_CONVERSATION_ROWS`); None
        when the limit is one SQLite would refuse (the general path raises as the reference does)."""
        try:
            k = norm_limit(limit)
        except BadLimit:
            return None
        if mode != "like" and utf16_len(safe) >= 3:
            try:
                with self.db.lock:
                    hits = [
                        r[0]
                        for r in self.db.conn.execute(f"SELECT rowid FROM {FTS} WHERE {FTS} MATCH ?", (safe,))
                    ]
                rows = self._top_keys([i for i in hits if i in keys], w, k)
            except sqlite3.Error:
                rows = []  # the reference: any error counts as zero rows
            if rows or mode == "fts":
                return rows, "fts"
        if on_like is not None:
            on_like()
        like = Where()
        like.parts, like.args = [*w.parts, "m.content LIKE '%' || ? || '%'"], [*w.args, safe]
        return self._top_keys(sorted(keys), like, k), "like"

    def _top_keys(self, ids: list[int], w: Where, k: int | None) -> list[Message]:
        """The rows ``ids`` that pass ``w``, newest ``(timestamp, id)`` first, at most ``k``."""
        keys: list[tuple[int, int]] = []
        with self.db.lock:
            for i in range(0, len(ids), 500):
                part = ids[i : i + 500]
                sql = f"SELECT m.timestamp, m.id FROM {MSG} AS m WHERE m.id IN ({placeholders(len(part))}){w.and_sql()}"
                keys += [(r[0], r[1]) for r in self.db.conn.execute(sql, (*part, *w.args))]
        keys.sort(reverse=True)
        return self.raw.get_messages([i for _t, i in (keys if k is None else keys[:k])])
