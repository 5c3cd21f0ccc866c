"""Layer 0: the raw timeline, sessions and their messages (spec Part A §1.2-1.3; Part B §1.3 and §7
raw.ts): :class:`RawStore` reads and writes their rows.

Messages are append-only. Reading never writes. Every write is one short ``BEGIN IMMEDIATE``
transaction through :meth:`core.db.MemoryDB.write`.

The search of the messages is its own component, :mod:`core.search` (:class:`core.search.MessageSearch`);
:meth:`RawStore.search_messages` and the other search methods delegate to it, so callers keep calling
``RawStore``. The day counts of the chart are :mod:`core.daycounts`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Concatenate, Literal, ParamSpec, TypeVar

from core.damage import JS_TIME_MAX
from core.daycounts import DAY_MS, DailyCounts
from core.engine import sqlite3
from core.errors import ConflictError, NotFoundError, ValidationError_
from core.jsutil import now_ms
from core.messagerows import check_message, chunks, insert_sql, new_sessions, no_origin_column, row_tuple
from core.models import Message, Session
from core.schema import ORIGIN_INDEX
from core.search import MessageSearch, SubstringStrategy
from core.search.results import (
    MAX_SPANS,
    SearchHit,
    SearchMode,
    SearchPage,
    fts_terms,
    search_failure,
    span_finder,
)
from core.search.sql import (
    FTS,
    INT64_MAX,
    INT64_MIN,
    MSG,
    SESSIONS,
    Keyset,
    Where,
    keyset_cond,
    placeholders,
    range_cond,
    resolve_session_filter,
    roles_cond,
    sanitize_query,
    session_cond,
)

if TYPE_CHECKING:
    from core.db import MemoryDB

__all__ = [
    "DAY_MS",
    "FTS",
    "INT64_MAX",
    "INT64_MIN",
    "MAX_SPANS",
    "MSG",
    "SESSIONS",
    "Keyset",
    "RawStore",
    "SearchHit",
    "SearchMode",
    "SearchPage",
    "fts_terms",
    "resolve_session_filter",
    "sanitize_query",
    "search_failure",
    "span_finder",
]


# Reading the newest rows of some sessions (timeline, LIKE search): fewer than SMALL_FILTER_ROWS rows
# in those sessions read the session index (then sort); BIG_FILTER_ROWS or more walk the timestamp index
# and check the session on each row (no sort, stops at the LIMIT); in between, the newest n rows (n = the
# sessions' size) are tried first and the session index is read only when they hold too few matches,
# so the cost stays within twice the session-index plan.
SMALL_FILTER_ROWS = 5000
BIG_FILTER_ROWS = 100_000


P = ParamSpec("P")
R = TypeVar("R")


def _delegate(
    component: str, method: Callable[Concatenate[Any, P], R]
) -> Callable[Concatenate[RawStore, P], R]:
    """``method`` of the store's ``component`` as a method of the store: same name, signature and
    documentation, so callers keep calling :class:`RawStore`."""

    @functools.wraps(method)
    def delegated(self: RawStore, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return method(getattr(self, component), *args, **kwargs)

    return delegated


class RawStore:
    """Sessions and messages of the raw timeline. ``substring`` is the search's substring step
    (:class:`core.search.SubstringStrategy`; default: the reference's scan)."""

    def __init__(self, db: MemoryDB, *, substring: SubstringStrategy | None = None):
        self.db = db
        self._origin_known = False
        self._origin_index_known = False
        self.searcher = MessageSearch(self, substring)

    # -- helpers ---------------------------------------------------------------------------------------
    @property
    def conn(self) -> sqlite3.Connection:
        return self.db.conn

    def has_origin(self) -> bool:
        """Whether ``origin_session_id`` exists (an older file may lack it: read as NULL everywhere)."""
        if self._origin_known:
            return True
        with self.db.lock:
            found = any(r[1] == "origin_session_id" for r in self.conn.execute(f"PRAGMA table_info({MSG})"))
        self._origin_known = found
        return found

    def has_origin_index(self) -> bool:
        """Whether the agent's ``idx_raw_messages_origin (origin_session_id, timestamp)`` exists."""
        if self._origin_index_known:
            return True
        with self.db.lock:
            found = (
                self.conn.execute(
                    "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?", (ORIGIN_INDEX,)
                ).fetchone()
                is not None
            )
        self._origin_index_known = found
        return found

    def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[Message]:
        rows, names = self.db.fetch_tuples(sql, args)
        return Message.from_tuples(rows, names)

    def _session_rows_capped(self, session_ids: Sequence[str], cap: int) -> int:
        sql = (
            f"SELECT count(*) FROM (SELECT 1 FROM {MSG} WHERE session_id IN "
            f"({placeholders(len(session_ids))}) LIMIT ?)"
        )
        with self.db.lock:
            return self.conn.execute(sql, (*session_ids, cap)).fetchone()[0]

    def select(self, sql: str, args: Sequence[Any] = ()) -> list[Message]:
        """The messages a ``SELECT m.* FROM memory_raw_messages AS m ...`` query gives, in its order."""
        return self._rows(sql, args)

    def select_ordered(
        self,
        rng: Where,
        rest: Where,
        session_ids: Sequence[str] | None,
        limit: Any,
        order: str = "desc",
    ) -> list[Message]:
        """Rows of ``memory_raw_messages AS m`` matching ``rng`` (index-range conditions: timestamps,
        keysets), ``rest`` (per-row conditions) and the sessions, ordered by ``(timestamp, id)``, with
        the session strategy of :data:`SMALL_FILTER_ROWS` / :data:`BIG_FILTER_ROWS`. ``limit`` goes to
        SQLite as given."""
        d = "DESC" if order == "desc" else "ASC"
        order_sql = f" ORDER BY m.timestamp {d}, m.id {d}"
        conds = rng.parts + rest.parts
        args = rng.args + rest.args
        and_sql = "".join(f" AND {c}" for c in conds)
        ids = list(dict.fromkeys(session_ids)) if session_ids else []
        if not ids:
            where = (" WHERE " + " AND ".join(conds)) if conds else ""
            return self._rows(f"SELECT m.* FROM {MSG} AS m{where}{order_sql} LIMIT ?", (*args, limit))
        ph = placeholders(len(ids))
        index_sql = f"SELECT m.* FROM {MSG} AS m WHERE m.session_id IN ({ph}){and_sql}{order_sql} LIMIT ?"
        k = limit if isinstance(limit, int) and not isinstance(limit, bool) and limit >= 0 else None
        n = self._session_rows_capped(ids, BIG_FILTER_ROWS)
        if n < SMALL_FILTER_ROWS or k is None:
            return self._rows(index_sql, (*ids, *args, limit))
        if n >= BIG_FILTER_ROWS:
            return self._rows(
                f"SELECT m.* FROM {MSG} AS m WHERE +m.session_id IN ({ph}){and_sql}{order_sql} LIMIT ?",
                (*ids, *args, limit),
            )
        # The newest n rows of the range, whatever their session: if k of them pass, they are the
        # answer (every other qualifying row comes later in the order).
        window = f"SELECT * FROM {MSG} AS m{rng.where_sql()}{order_sql} LIMIT ?"
        rows = self._rows(
            f"SELECT m.* FROM ({window}) AS m WHERE +m.session_id IN ({ph}){rest.and_sql()}{order_sql} LIMIT ?",
            (*rng.args, n, *ids, *rest.args, k),
        )
        if len(rows) >= k:
            return rows
        return self._rows(index_sql, (*ids, *args, limit))

    def _origin_cond(self, w: Where, alias: str, origin_session_ids: Sequence[str] | None) -> None:
        """NULL-inclusive origin filter (Part B §1.3: NULL means "unknown origin, include it")."""
        if origin_session_ids is None or not self.has_origin():
            return
        ids = list(dict.fromkeys(origin_session_ids))
        if not ids:
            w.add(f"+{alias}origin_session_id IS NULL")
            return
        w.add(
            f"(+{alias}origin_session_id IN ({placeholders(len(ids))}) OR +{alias}origin_session_id IS NULL)",
            *ids,
        )

    # -- sessions --------------------------------------------------------------------------------------
    def start_session(
        self, session_id: str, started_at: int | None = None, *, exist_ok: bool = False
    ) -> Session:
        """Create a session row. An existing id raises :class:`ConflictError` unless ``exist_ok``."""
        if not isinstance(session_id, str) or not session_id:
            raise ValidationError_(
                "session id must be a non-empty string",
                code="argument.invalid",
                params={"argument": "session_id"},
            )
        at = now_ms() if started_at is None else int(started_at)
        with self.db.write() as conn:
            cur = conn.execute(
                f"INSERT OR IGNORE INTO {SESSIONS} (id, started_at) VALUES (?, ?)", (session_id, at)
            )
            if cur.rowcount == 0 and not exist_ok:
                raise ConflictError(
                    f"Session {session_id!r} already exists.",
                    self.get_session(session_id),
                    code="session.exists",
                    params={"id": session_id},
                )
        s = self.get_session(session_id)
        assert s is not None
        return s

    def end_session(self, session_id: str, at: int | None = None) -> Session:
        """Set ``ended_at`` (now by default). An unknown session raises :class:`NotFoundError`."""
        when = now_ms() if at is None else int(at)
        with self.db.write() as conn:
            cur = conn.execute(f"UPDATE {SESSIONS} SET ended_at = ? WHERE id = ?", (when, session_id))
            if cur.rowcount == 0:
                raise NotFoundError(
                    f"No session {session_id!r}.", code="session.not_found", params={"ids": [session_id]}
                )
        s = self.get_session(session_id)
        assert s is not None
        return s

    def get_session(self, session_id: str, *, with_count: bool = True) -> Session | None:
        with self.db.lock:
            row = self.conn.execute(f"SELECT * FROM {SESSIONS} WHERE id = ?", (session_id,)).fetchone()
            if row is None:
                return None
            s = Session.from_row(row)
            if with_count:
                s.message_count = self.conn.execute(
                    f"SELECT count(*) FROM {MSG} WHERE session_id = ?", (session_id,)
                ).fetchone()[0]
        return s

    def list_sessions(self, limit: int | None = None, *, include_orphans: bool = True) -> list[Session]:
        """Sessions newest ``started_at`` first, each with ``message_count``.

        The counts come from one covering scan of ``idx_raw_messages_session`` (``GROUP BY session_id``).
        With ``include_orphans``, message session ids that have no session row (possible in files
        written with foreign keys off) are listed too, ``started_at`` being their first message's time.
        """
        with self.db.lock:
            counts = {
                r[0]: r[1]
                for r in self.conn.execute(f"SELECT session_id, count(*) FROM {MSG} GROUP BY session_id")
            }
            sessions = [Session.from_row(r) for r in self.conn.execute(f"SELECT * FROM {SESSIONS}")]
            known = {s.id for s in sessions}
            for s in sessions:
                s.message_count = counts.get(s.id, 0)
            if include_orphans:
                for sid, n in counts.items():
                    if sid in known:
                        continue
                    first = self.conn.execute(
                        f"SELECT min(timestamp) FROM {MSG} WHERE session_id = ?", (sid,)
                    ).fetchone()[0]
                    sessions.append(
                        Session.model_construct(id=sid, started_at=first, ended_at=None, message_count=n)
                    )
        sessions.sort(key=lambda s: s.id)
        sessions.sort(
            key=lambda s: s.started_at if isinstance(s.started_at, int | float) else 0, reverse=True
        )
        if limit is not None and limit >= 0:
            sessions = sessions[:limit]
        return sessions

    def session_ids_with_messages(self) -> list[str]:
        """Distinct ``session_id`` values of the messages, by skip-scanning the session index."""
        out: list[str] = []
        with self.db.lock:
            row = self.conn.execute(f"SELECT min(session_id) FROM {MSG}").fetchone()
            while row is not None and row[0] is not None:
                out.append(row[0])
                row = self.conn.execute(
                    f"SELECT min(session_id) FROM {MSG} WHERE session_id > ?", (row[0],)
                ).fetchone()
        return out

    # -- messages: writing -----------------------------------------------------------------------------
    def append_message(
        self,
        session_id: str,
        role: str,
        content: str,
        timestamp: int | None = None,
        origin_session_id: str | None = None,
    ) -> Message:
        """Append one message. Its session must exist (the reference's foreign key): else NotFoundError."""
        ts = now_ms() if timestamp is None else timestamp
        check_message(session_id, role, content, ts)
        with self.db.write() as conn:
            if conn.execute(f"SELECT 1 FROM {SESSIONS} WHERE id = ?", (session_id,)).fetchone() is None:
                raise NotFoundError(
                    f"No session {session_id!r}: start it before appending messages.",
                    code="session.not_found",
                    params={"ids": [session_id]},
                )
            has_origin = self.has_origin()
            if not has_origin and origin_session_id is not None:
                raise no_origin_column()
            row = (session_id, role, content, ts, origin_session_id)
            cur = conn.execute(insert_sql(has_origin), row if has_origin else row[:4])
            new_id = cur.lastrowid
        return Message.model_construct(
            id=new_id,
            session_id=session_id,
            role=role,
            content=content,
            timestamp=ts,
            origin_session_id=origin_session_id,
        )

    def append_many(
        self, rows: Iterable[Any], *, create_sessions: bool = False, chunk_size: int = 20_000
    ) -> int:
        """Append many messages in ONE transaction (``executemany`` per chunk); returns how many.

        A row is a mapping (``session_id, role, content, timestamp[, origin_session_id]``), a
        :class:`Message` or a tuple in that order. Unknown sessions raise :class:`NotFoundError` (nothing
        is written) unless ``create_sessions``, which creates them with ``started_at`` = the first
        appended timestamp of the session.
        """
        total = 0
        seen: set[str] = set()
        with self.db.write() as conn:
            has_origin = self.has_origin()
            sql = insert_sql(has_origin)
            for chunk in chunks(rows, chunk_size):
                tuples = [row_tuple(r) for r in chunk]
                new_sids = new_sessions(tuples, seen, has_origin)
                if new_sids:
                    self._add_sessions(conn, new_sids, create_sessions)
                    seen.update(new_sids)
                conn.executemany(sql, tuples if has_origin else [t[:4] for t in tuples])
                total += len(tuples)
        return total

    @staticmethod
    def _add_sessions(conn: sqlite3.Connection, new_sids: dict[str, int], create: bool) -> None:
        """Create the sessions of ``new_sids`` that do not exist (``create``), else refuse them."""
        sql = f"SELECT id FROM {SESSIONS} WHERE id IN ({placeholders(len(new_sids))})"
        present = {r[0] for r in conn.execute(sql, tuple(new_sids))}
        missing = [s for s in new_sids if s not in present]
        if missing and not create:
            raise NotFoundError(
                "No session " + ", ".join(repr(s) for s in missing) + ".",
                code="session.not_found",
                params={"ids": list(missing)},
            )
        if missing:
            conn.executemany(
                f"INSERT INTO {SESSIONS} (id, started_at) VALUES (?, ?)", [(s, new_sids[s]) for s in missing]
            )

    # -- messages: reading -----------------------------------------------------------------------------
    def get_message(self, message_id: int) -> Message | None:
        rows = self._rows(f"SELECT * FROM {MSG} WHERE id = ?", (message_id,))
        return rows[0] if rows else None

    def get_messages(self, ids: Sequence[int]) -> list[Message]:
        """The messages with these ids, in the order given (missing ids are skipped)."""
        ids = list(ids)
        found: dict[int, Message] = {}
        for i in range(0, len(ids), 500):
            part = ids[i : i + 500]
            for m in self._rows(f"SELECT * FROM {MSG} WHERE id IN ({placeholders(len(part))})", part):
                found[m.id] = m
        return [found[i] for i in ids if i in found]

    def query_timeline(
        self,
        order: Literal["asc", "desc"] = "desc",
        limit: int | None = 50,
        session_ids: Sequence[str] | None = None,
        origin_session_ids: Sequence[str] | None = None,
        before: Keyset | None = None,
        after: Keyset | None = None,
        roles: Sequence[str] | None = None,
        since: int | None = None,
        until: int | None = None,
        *,
        conversations: Sequence[str] | None = None,
    ) -> list[Message]:
        """Messages ordered by ``(timestamp, id)``; keyset pagination in both directions.

        ``before``/``after`` are ``(timestamp, id)`` bounds (exclusive). ``session_ids`` empty or None
        means no filter (the reference's ``sessionIds``); ``origin_session_ids`` keeps rows whose origin
        is in the list or NULL (the agent's recency filter). ``conversations`` keeps the rows of those
        conversations only (:mod:`core.conversations`: an origin id, an older session's id, or
        ``global`` for the rows of unknown origin; an empty list keeps nothing). ``roles`` None means
        every role. A negative ``limit`` or None means no limit (SQLite's reading).
        """
        if order not in ("asc", "desc"):
            raise ValidationError_(
                "order must be 'asc' or 'desc'", code="argument.invalid", params={"argument": "order"}
            )
        rng, rest = Where(), Where()
        keyset_cond(rng, "m.", before, after)
        range_cond(rng, "m.", since, until)
        self._origin_cond(rest, "m.", origin_session_ids)
        roles_cond(rest, "m.", roles)
        lim = -1 if limit is None else limit
        if conversations is not None:
            session_cond(rest, "m.", session_ids)
            return self.searcher.conversations.ordered_rows(rng, rest, conversations, lim, order)
        return self.select_ordered(rng, rest, session_ids, lim, order)

    def messages_around(
        self,
        message_id: int,
        n: int = 5,
        *,
        session_ids: Sequence[str] | None = None,
        conversations: Sequence[str] | None = None,
    ) -> list[Message]:
        """Up to ``n`` messages before and after ``message_id`` and the message itself, oldest first."""
        m = self.get_message(message_id)
        if m is None:
            raise NotFoundError(
                f"No message {message_id}.", code="message.not_found", params={"id": message_id}
            )
        key = (m.timestamp, m.id)
        f: dict[str, Any] = {"session_ids": session_ids, "conversations": conversations}
        older = self.query_timeline("desc", n, before=key, **f)
        newer = self.query_timeline("asc", n, after=key, **f)
        return [*reversed(older), m, *newer]

    def messages_near(
        self,
        timestamp: int,
        n: int = 5,
        *,
        session_ids: Sequence[str] | None = None,
        conversations: Sequence[str] | None = None,
    ) -> list[Message]:
        """Up to ``n`` messages at or before ``timestamp`` and ``n`` after it, oldest first."""
        f: dict[str, Any] = {"session_ids": session_ids, "conversations": conversations}
        older = self.query_timeline("desc", n, before=(timestamp, INT64_MAX), **f)
        newer = self.query_timeline("asc", n, after=(timestamp, INT64_MAX), **f)
        return [*reversed(older), *newer]

    def latest_id(self) -> int | None:
        with self.db.lock:
            return self.conn.execute(f"SELECT max(id) FROM {MSG}").fetchone()[0]

    def last_message_at(self, session_id: str, role: str | None = None) -> int | None:
        """The newest timestamp of the session's messages (of ``role`` when given), or None."""
        rest = Where()
        if role is not None:
            rest.add("m.role = ?", role)
        rows = self.select_ordered(Where(), rest, [session_id], 1)
        return rows[0].timestamp if rows else None

    def last_message_at_for_origin(self, origin_session_id: str, role: str | None = None) -> int | None:
        """Like :meth:`last_message_at` over the origin, NULL-inclusive (Part B §7 raw.ts)."""
        w = Where()
        self._origin_cond(w, "", [origin_session_id])
        if role is not None:
            w.add("role = ?", role)
        w.add("timestamp BETWEEN ? AND ?", -JS_TIME_MAX, JS_TIME_MAX)  # a readable time only
        with self.db.lock:
            row = self.conn.execute(
                f"SELECT timestamp FROM {MSG}{w.where_sql()} ORDER BY timestamp DESC LIMIT 1", w.args
            ).fetchone()
        return None if row is None else int(row[0])

    def count_estimate(self) -> int:
        """A cheap row count: ``max(rowid) - min(rowid) + 1`` (exact unless rows were deleted)."""
        with self.db.lock:  # two queries: min and max together would defeat SQLite's min/max shortcut
            hi = self.conn.execute(f"SELECT max(rowid) FROM {MSG}").fetchone()[0]
            lo = self.conn.execute(f"SELECT min(rowid) FROM {MSG}").fetchone()[0]
        return 0 if hi is None else int(hi) - int(lo) + 1

    def count(self, session_ids: Sequence[str] | None = None) -> int:
        """The exact number of messages (a full index scan on big files)."""
        w = Where()
        if session_ids:
            ids = list(dict.fromkeys(session_ids))
            w.add(f"session_id IN ({placeholders(len(ids))})", *ids)
        with self.db.lock:
            return self.conn.execute(f"SELECT count(*) FROM {MSG}{w.where_sql()}", w.args).fetchone()[0]

    def time_range(self) -> tuple[int, int] | None:
        """``(oldest, newest)`` timestamps, from the timestamp index."""
        # Times a date can hold only: a damaged timestamp (text, a BLOB, beyond ±8.64e15) is not a bound.
        sql = f"SELECT timestamp FROM {MSG} WHERE timestamp BETWEEN ? AND ? ORDER BY timestamp %s LIMIT 1"
        rng = (-JS_TIME_MAX, JS_TIME_MAX)
        with self.db.lock:
            lo = self.conn.execute(sql % "ASC", rng).fetchone()
            hi = self.conn.execute(sql % "DESC", rng).fetchone()
        return None if lo is None or hi is None else (int(lo[0]), int(hi[0]))

    # -- daily counts (core.daycounts) ------------------------------------------------------------------
    daily_counts = _delegate("days", DailyCounts.daily_counts)
    count_timeless = _delegate("days", DailyCounts.count_timeless)

    @property
    def days(self) -> DailyCounts:
        return DailyCounts(self)

    # -- search (core.search) ----------------------------------------------------------------------------
    search_messages = _delegate("searcher", MessageSearch.search_messages)
    search_with_mode = _delegate("searcher", MessageSearch.search_with_mode)
    search_page = _delegate("searcher", MessageSearch.search_page)
    count_hits = _delegate("searcher", MessageSearch.count_hits)
