"""Layer 0: the raw timeline (sessions and their messages) and its full-text search (spec Part A §1.2-1.3,
§4.3; Part B §1.3 and §7 raw.ts).

Messages are append-only. Reading never writes. Every write is one short ``BEGIN IMMEDIATE``
transaction through :meth:`core.db.MemoryDB.write`.

Search (:meth:`RawStore.search_messages`) gives the reference's results: the same sanitiser, the FTS5
query passed through as is, any FTS error counted as zero rows, then ``LIKE`` on the content table (never
on the FTS table, see the platform notes). Ties in ``timestamp``, which the reference leaves undefined,
are broken by ``id`` descending here, so every page is deterministic.

Speed on large timelines. The reference sorts every FTS hit before its ``LIMIT`` (about a second for a
word in a quarter of a million rows). Here the hits are walked in descending id order, which FTS5 does
without sorting, and the walk stops as soon as the page is provably the reference's first page:

1. let ``upper`` be the time bound (``until``, or the keyset's timestamp; none: +inf) and ``top`` the id
   to start from: the newest id, or with a bound the id of the newest row (by time) at or before it;
   take the first ``k`` hits with ``id <= top`` in descending id order. Without a bound, fewer than
   ``k`` are all the hits; with one, the exact sort runs instead;
2. let ``t_k`` be the lowest timestamp of those ``k`` and ``x`` the lowest id walked: every hit with an
   id in ``[x, top]`` has been seen;
3. list the rows (any rows, matching or not) with ``t_k <= timestamp <= upper`` whose id is outside
   ``[x, top]``, through the timestamp index. When there are none, every hit not seen has a timestamp
   below ``t_k`` (or above ``upper``, where the filter drops it), so it ranks below all ``k``: the page
   is exact. When there are a few ("out of order" rows: an imported or clock-skewed message), those
   rows are checked against the query and the filters explicitly and merged.
4. when that index range is larger than what sorting the estimated number of hits would cost (a rare
   word whose ``k``-th newest hit is old: few hits, cheap to sort) or the out-of-order rows are many,
   the page is computed exactly the slow way: without a time bound by finishing the walk (every hit)
   and sorting, with one by the reference's sort. The step-3 read is capped at that cost, so a page
   costs at most about twice the cheaper of the two ways.

In an append-only timeline ids grow with time, so step 3 reads a few index entries and a first page
costs about as much as ``k`` row look-ups, with or without a time bound.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from core.conversations import conversation_condition
from core.damage import JS_TIME_MAX, StoredTime, keyset_sql
from core.engine import sqlite3
from core.errors import ConflictError, MemoryError_, NotFoundError, Notice, ValidationError_
from core.jsutil import js_split_ws, js_trim, now_ms, utf16_len
from core.models import ROLES, Message, Session
from core.schema import GLOBAL_SESSION_ID, ORIGIN_INDEX

if TYPE_CHECKING:
    from core.db import MemoryDB

MSG = "memory_raw_messages"
FTS = "memory_raw_messages_fts"
SESSIONS = "memory_raw_sessions"
DAY_MS = 86_400_000
INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)

# Reading the newest rows of some sessions (timeline, LIKE search): fewer than SMALL_FILTER_ROWS rows
# in those sessions read the session index (then sort); BIG_FILTER_ROWS or more walk the timestamp index
# and check the session on each row (no sort, stops at the LIMIT); in between, the newest n rows (n = the
# sessions' size) are tried first and the session index is read only when they hold too few matches,
# so the cost stays within twice the session-index plan.
SMALL_FILTER_ROWS = 5000
BIG_FILTER_ROWS = 100_000
# Fast-path bounds of the FTS search (see the module docstring, steps 3 and 4). The index range read in
# step 3 is capped at about what the exact sort would cost: FAST_COST_RATIO index entries per estimated
# hit (an index entry costs ~0.1 µs, a sorted hit ~2-3 µs), never fewer than FAST_SCAN_MIN nor more than
# FAST_SCAN_CAP entries.
FAST_SCAN_MIN = 4096
FAST_SCAN_CAP = 200_000
FAST_COST_RATIO = 20
FAST_OUT_OF_ORDER_CAP = 500
# A search restricted to conversations that hold at most this many rows reads their keys from the
# indexes and intersects them with the full-text hits (never looking at other rows) instead of walking
# the hits and looking each one up.
SMALL_CONVERSATION_ROWS = 5000

Keyset = tuple[int, int]
SearchMode = Literal["fts", "like", "empty"]

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


class _BadLimit(Exception):
    """A limit SQLite would refuse (``datatype mismatch``): the FTS path swallows it as zero rows."""


def _norm_limit(limit: Any) -> int | None:
    """SQLite's reading of ``LIMIT ?``: ``None`` means no limit (a negative value)."""
    if limit is None:
        return 20
    if isinstance(limit, bool):
        return int(limit)
    if isinstance(limit, int):
        return limit if limit >= 0 else None
    if isinstance(limit, float) and limit.is_integer():
        return int(limit) if limit >= 0 else None
    raise _BadLimit()


def _placeholders(n: int) -> str:
    return ",".join("?" * n)


class SearchHit(BaseModel):
    """One search result with the spans to highlight (``[start, end)`` in Python ``str`` indices)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    message: Message
    match_spans: list[tuple[int, int]] = Field(default_factory=list)


class SearchPage(BaseModel):
    """A page of search results for the GUI. ``next_before`` is the keyset of the next page."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    query: str
    safe: str
    mode: SearchMode
    hits: list[SearchHit] = Field(default_factory=list)
    next_before: Keyset | None = None
    error: str | None = None
    #: :attr:`error` with its code and parameters (what the GUI translates): see :func:`search_failure`.
    notice: Notice | None = None


def search_failure(query: str, exc: BaseException) -> Notice:
    """Why a search could not run, for a person: a core error as its own notice, anything else (SQLite
    failing on a damaged file, a limit SQLite refuses) as ``search.failed`` with the ``query`` and the
    ``error`` as the engine said it. A query the full-text syntax does not accept is no failure: like the
    agent's search, it counts as no full-text rows and the substring search runs."""
    if isinstance(exc, MemoryError_):
        return Notice(exc.code, exc.message or str(exc), exc.params)
    error = f"{type(exc).__name__}: {exc}"
    return Notice(
        "search.failed",
        f"The search for “{query}” could not run: {error}",
        {"query": query, "error": error},
    )


class _Where:
    """A conjunction of SQL conditions with their parameters."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.args: list[Any] = []

    def add(self, sql: str, *args: Any) -> None:
        self.parts.append(sql)
        self.args.extend(args)

    def and_sql(self) -> str:
        return "".join(f" AND {p}" for p in self.parts)

    def where_sql(self) -> str:
        return (" WHERE " + " AND ".join(self.parts)) if self.parts else ""


class RawStore:
    """Sessions and messages of the raw timeline."""

    def __init__(self, db: MemoryDB):
        self.db = db
        self._origin_known = False
        self._origin_index_known = False

    # -- helpers ---------------------------------------------------------------------------------------
    @property
    def conn(self) -> sqlite3.Connection:
        return self.db.conn

    def _has_origin(self) -> bool:
        """Whether ``origin_session_id`` exists (an older file may lack it: read as NULL everywhere)."""
        if self._origin_known:
            return True
        with self.db.lock:
            found = any(r[1] == "origin_session_id" for r in self.conn.execute(f"PRAGMA table_info({MSG})"))
        self._origin_known = found
        return found

    def _has_origin_index(self) -> bool:
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

    def _conversation_cond(self, w: _Where, alias: str, conversations: Sequence[str] | None) -> None:
        """Rows of these conversations (:mod:`core.conversations`), checked per row."""
        if conversations is None:
            return
        sql, args = conversation_condition(conversations, alias=alias, has_origin=self._has_origin())
        w.add(sql, *args)

    def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[Message]:
        rows, names = self.db.fetch_tuples(sql, args)
        return Message.from_tuples(rows, names)

    def _session_rows_capped(self, session_ids: Sequence[str], cap: int) -> int:
        sql = (
            f"SELECT count(*) FROM (SELECT 1 FROM {MSG} WHERE session_id IN "
            f"({_placeholders(len(session_ids))}) LIMIT ?)"
        )
        with self.db.lock:
            return self.conn.execute(sql, (*session_ids, cap)).fetchone()[0]

    @staticmethod
    def _session_cond(w: _Where, alias: str, session_ids: Sequence[str] | None) -> None:
        """``+session_id IN (...)``: checked per row, never through the session index."""
        if not session_ids:
            return
        ids = list(dict.fromkeys(session_ids))
        w.add(f"+{alias}session_id IN ({_placeholders(len(ids))})", *ids)

    def _ordered(
        self,
        rng: _Where,
        rest: _Where,
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
        ph = _placeholders(len(ids))
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

    def _by_conversations(
        self, rng: _Where, rest: _Where, conversations: Sequence[str], limit: Any, order: str
    ) -> list[Message]:
        """:meth:`_ordered` for the rows of some conversations, read through the indexes that list them
        in time order: each origin's rows from the origin index, the rows without origin of the named
        sessions (``global`` included) from the origin index's NULL range or the session index."""
        ids = list(dict.fromkeys(conversations))
        k = limit if isinstance(limit, int) and not isinstance(limit, bool) and limit >= 0 else None
        if not ids or k == 0:
            return []
        if not self._has_origin():
            return self._ordered(rng, rest, ids, limit, order)
        if k is None or len(ids) > 16 or not self._has_origin_index():
            w = _Where()
            w.parts, w.args = list(rest.parts), list(rest.args)
            self._conversation_cond(w, "m.", ids)
            return self._ordered(rng, w, None, limit, order)
        d = "DESC" if order == "desc" else "ASC"
        tail = f"{rng.and_sql()}{rest.and_sql()} ORDER BY m.timestamp {d}, m.id {d} LIMIT ?"
        rows: list[Message] = []
        for oid in ids:  # one origin's rows are in time order in the index: no sort, stops at k
            rows += self._rows(
                f"SELECT m.* FROM {MSG} AS m INDEXED BY {ORIGIN_INDEX} WHERE m.origin_session_id = ?{tail}",
                (oid, *rng.args, *rest.args, k),
            )
        if GLOBAL_SESSION_ID in ids:  # mostly the global timeline's rows: walk them in time order
            ph = _placeholders(len(ids))
            rows += self._rows(
                f"SELECT m.* FROM {MSG} AS m INDEXED BY {ORIGIN_INDEX} WHERE m.origin_session_id IS NULL "
                f"AND +m.session_id IN ({ph}){tail}",
                (*ids, *rng.args, *rest.args, k),
            )
        else:
            null_rest = _Where()
            null_rest.add("+m.origin_session_id IS NULL")
            null_rest.parts += rest.parts
            null_rest.args += rest.args
            rows += self._ordered(rng, null_rest, ids, k, order)
        rows.sort(key=lambda m: (m.timestamp, m.id), reverse=order == "desc")
        return rows[:k]

    def _origin_cond(self, w: _Where, alias: str, origin_session_ids: Sequence[str] | None) -> None:
        """NULL-inclusive origin filter (Part B §1.3: NULL means "unknown origin, include it")."""
        if origin_session_ids is None or not self._has_origin():
            return
        ids = list(dict.fromkeys(origin_session_ids))
        if not ids:
            w.add(f"+{alias}origin_session_id IS NULL")
            return
        w.add(
            f"(+{alias}origin_session_id IN ({_placeholders(len(ids))}) OR +{alias}origin_session_id IS NULL)",
            *ids,
        )

    @staticmethod
    def _keyset_cond(w: _Where, alias: str, before: Keyset | None, after: Keyset | None) -> None:
        """Keyset bounds on the stored values (a damaged time compares as stored: core.damage)."""
        for key, is_before in ((before, True), (after, False)):
            if key is not None:
                t = key[0] if isinstance(key[0], StoredTime) else int(key[0])
                sql, args = keyset_sql(f"{alias}timestamp", f"{alias}id", (t, int(key[1])), before=is_before)
                w.add(sql, *args)

    @staticmethod
    def _range_cond(w: _Where, alias: str, since: float | None, until: float | None) -> None:
        if since is not None:
            w.add(f"{alias}timestamp >= ?", since)
        if until is not None:
            w.add(f"{alias}timestamp <= ?", until)

    @staticmethod
    def _roles_cond(w: _Where, alias: str, roles: Sequence[str] | None) -> None:
        if roles is None:
            return
        rs = list(dict.fromkeys(roles))
        if not rs:
            w.add("0")
            return
        w.add(f"{alias}role IN ({_placeholders(len(rs))})", *rs)

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
    @staticmethod
    def _check_message(session_id: Any, role: Any, content: Any, timestamp: Any) -> None:
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
        self._check_message(session_id, role, content, ts)
        with self.db.write() as conn:
            if conn.execute(f"SELECT 1 FROM {SESSIONS} WHERE id = ?", (session_id,)).fetchone() is None:
                raise NotFoundError(
                    f"No session {session_id!r}: start it before appending messages.",
                    code="session.not_found",
                    params={"ids": [session_id]},
                )
            if self._has_origin():
                cur = conn.execute(
                    f"INSERT INTO {MSG} (session_id, role, content, timestamp, origin_session_id) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (session_id, role, content, ts, origin_session_id),
                )
            else:
                if origin_session_id is not None:
                    raise ValidationError_(
                        "this database has no origin_session_id column",
                        code="db.column_missing",
                        params={"table": "memory_raw_messages", "column": "origin_session_id"},
                    )
                cur = conn.execute(
                    f"INSERT INTO {MSG} (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)",
                    (session_id, role, content, ts),
                )
            new_id = cur.lastrowid
        return Message.model_construct(
            id=new_id,
            session_id=session_id,
            role=role,
            content=content,
            timestamp=ts,
            origin_session_id=origin_session_id,
        )

    @staticmethod
    def _row_tuple(row: Any) -> tuple[str, str, str, int, str | None]:
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
            has_origin = self._has_origin()
            if has_origin:
                sql = (
                    f"INSERT INTO {MSG} (session_id, role, content, timestamp, origin_session_id) "
                    "VALUES (?, ?, ?, ?, ?)"
                )
            else:
                sql = f"INSERT INTO {MSG} (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)"
            for chunk in _chunks(rows, chunk_size):
                tuples = [self._row_tuple(r) for r in chunk]
                new_sids: dict[str, int] = {}
                for t in tuples:
                    self._check_message(t[0], t[1], t[2], t[3])
                    if t[0] not in seen and t[0] not in new_sids:
                        new_sids[t[0]] = t[3]
                    if not has_origin and t[4] is not None:
                        raise ValidationError_(
                            "this database has no origin_session_id column",
                            code="db.column_missing",
                            params={"table": "memory_raw_messages", "column": "origin_session_id"},
                        )
                if new_sids:
                    present = {
                        r[0]
                        for r in conn.execute(
                            f"SELECT id FROM {SESSIONS} WHERE id IN ({_placeholders(len(new_sids))})",
                            tuple(new_sids),
                        )
                    }
                    missing = [s for s in new_sids if s not in present]
                    if missing and not create_sessions:
                        raise NotFoundError(
                            "No session " + ", ".join(repr(s) for s in missing) + ".",
                            code="session.not_found",
                            params={"ids": list(missing)},
                        )
                    if missing:
                        conn.executemany(
                            f"INSERT INTO {SESSIONS} (id, started_at) VALUES (?, ?)",
                            [(s, new_sids[s]) for s in missing],
                        )
                    seen.update(new_sids)
                if has_origin:
                    conn.executemany(sql, tuples)
                else:
                    conn.executemany(sql, [t[:4] for t in tuples])
                total += len(tuples)
        return total

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
            for m in self._rows(f"SELECT * FROM {MSG} WHERE id IN ({_placeholders(len(part))})", part):
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
        rng, rest = _Where(), _Where()
        self._keyset_cond(rng, "m.", before, after)
        self._range_cond(rng, "m.", since, until)
        self._origin_cond(rest, "m.", origin_session_ids)
        self._roles_cond(rest, "m.", roles)
        lim = -1 if limit is None else limit
        if conversations is not None:
            self._session_cond(rest, "m.", session_ids)
            return self._by_conversations(rng, rest, conversations, lim, order)
        return self._ordered(rng, rest, session_ids, lim, order)

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
        rest = _Where()
        if role is not None:
            rest.add("m.role = ?", role)
        rows = self._ordered(_Where(), rest, [session_id], 1)
        return rows[0].timestamp if rows else None

    def last_message_at_for_origin(self, origin_session_id: str, role: str | None = None) -> int | None:
        """Like :meth:`last_message_at` over the origin, NULL-inclusive (Part B §7 raw.ts)."""
        w = _Where()
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
        w = _Where()
        if session_ids:
            ids = list(dict.fromkeys(session_ids))
            w.add(f"session_id IN ({_placeholders(len(ids))})", *ids)
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

    # -- daily counts ----------------------------------------------------------------------------------
    def daily_counts(
        self,
        since: int | None = None,
        until: int | None = None,
        session_ids: Sequence[str] | None = None,
        tz_offset_minutes: int = 0,
        *,
        conversations: Sequence[str] | None = None,
    ) -> list[tuple[int, int]]:
        """Messages per day: ``[(day_start_ms, count)]`` for the days that have messages, oldest first.

        A day is a UTC day shifted by ``tz_offset_minutes`` (minutes east of UTC, e.g. 480 for UTC+8;
        a fixed offset, so DST changes are not followed). ``day_start_ms`` is that local midnight in
        epoch ms. ``since``/``until`` bound the timestamps counted (inclusive).

        Without a session filter the counts come from the timestamp index only (two index seeks and one
        range count per day with messages). With one, whichever of "the selected sessions" and "all
        minus the other sessions" holds fewer rows is counted through the session index.
        ``conversations`` (not in the reference) counts the rows of those conversations only (see
        :meth:`query_timeline`; an empty list counts nothing), read through the indexes that list them.

        A message whose time no date can hold (beyond ±8.64e15 ms, text, a BLOB, NULL) is in no day:
        :meth:`count_timeless` counts those.
        """
        off = int(tz_offset_minutes) * 60_000
        lo = max(-JS_TIME_MAX, INT64_MIN if since is None else int(since))
        hi = min(JS_TIME_MAX, INT64_MAX if until is None else int(until))
        if lo > hi:
            return []
        if conversations is not None:
            return self._daily_conversations(conversations, lo, hi, off)
        if session_ids:
            wanted = set(session_ids)
            present = self.session_ids_with_messages()
            inc = [s for s in present if s in wanted]
            exc = [s for s in present if s not in wanted]
            if not inc:
                return []
            if exc:
                n_inc = self._session_rows(inc)
                n_exc = self._session_rows(exc)
                if n_inc <= n_exc:
                    return self._daily_grouped(inc, lo, hi, off)
                base = dict(self._daily_all(lo, hi, off))
                for day, c in self._daily_grouped(exc, lo, hi, off):
                    base[day] = base.get(day, 0) - c
                return sorted((d, c) for d, c in base.items() if c > 0)
        return self._daily_all(lo, hi, off)

    def _session_rows(self, session_ids: Sequence[str]) -> int:
        sql = f"SELECT count(*) FROM {MSG} WHERE session_id IN ({_placeholders(len(session_ids))})"
        with self.db.lock:
            return self.conn.execute(sql, tuple(session_ids)).fetchone()[0]

    def _daily_all(self, lo: int, hi: int, off: int) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        with self.db.lock:
            c = self.conn
            t = c.execute(
                f"SELECT min(timestamp) FROM {MSG} WHERE timestamp >= ? AND timestamp <= ?", (lo, hi)
            ).fetchone()[0]
            while t is not None:
                start = ((int(t) + off) // DAY_MS) * DAY_MS - off
                end = start + DAY_MS
                n = c.execute(
                    f"SELECT count(*) FROM {MSG} WHERE timestamp >= ? AND timestamp < ? AND timestamp <= ?",
                    (t, end, hi),
                ).fetchone()[0]
                out.append((start, n))
                if end > hi:
                    break
                t = c.execute(
                    f"SELECT min(timestamp) FROM {MSG} WHERE timestamp >= ? AND timestamp <= ?", (end, hi)
                ).fetchone()[0]
        return out

    @staticmethod
    def _day_sql(off: int) -> str:
        return f"((timestamp + {off}) - (((timestamp + {off}) % {DAY_MS}) + {DAY_MS}) % {DAY_MS}) - {off}"

    def _daily_grouped(self, session_ids: Sequence[str], lo: int, hi: int, off: int) -> list[tuple[int, int]]:
        sql = (
            f"SELECT {self._day_sql(off)} AS d, count(*) FROM {MSG} "
            f"WHERE session_id IN ({_placeholders(len(session_ids))}) AND timestamp >= ? AND timestamp <= ? "
            "GROUP BY d ORDER BY d"
        )
        with self.db.lock:
            return [(r[0], r[1]) for r in self.conn.execute(sql, (*session_ids, lo, hi))]

    def _daily_conversations(
        self, conversations: Sequence[str], lo: int, hi: int, off: int
    ) -> list[tuple[int, int]]:
        """Per-day counts of the rows of some conversations: each origin's rows from the origin index,
        the rows without origin of the named sessions as :meth:`_by_conversations` reads them."""
        ids = list(dict.fromkeys(conversations))
        if not ids:
            return []
        if not self._has_origin():
            return self._daily_grouped(ids, lo, hi, off)
        parts = self._conversation_parts(ids)
        days: dict[int, int] = {}
        with self.db.lock:
            for where in parts:
                sql = (
                    f"SELECT {self._day_sql(off)} AS d, count(*) FROM {MSG} {where} "
                    "AND timestamp >= ? AND timestamp <= ? GROUP BY d"
                )
                for d, n in self.conn.execute(sql, (*ids, lo, hi)):
                    days[d] = days.get(d, 0) + n
        return sorted(days.items())

    def _conversation_parts(self, ids: Sequence[str]) -> tuple[str, str]:
        """The two ``FROM … WHERE`` tails (each bound to ``ids``) that list the rows of some conversations
        on a file with origins: the origins' rows, and the origin-less rows of the named sessions."""
        ph = _placeholders(len(ids))
        indexed = f"INDEXED BY {ORIGIN_INDEX}" if self._has_origin_index() else ""
        null_part = (
            f"{indexed} WHERE origin_session_id IS NULL AND +session_id IN ({ph})"
            if GLOBAL_SESSION_ID in ids and indexed
            else f"WHERE session_id IN ({ph}) AND +origin_session_id IS NULL"
        )
        return f"{indexed} WHERE origin_session_id IN ({ph})", null_part

    def count_timeless(self, conversations: Sequence[str] | None = None) -> int:
        """The messages :meth:`daily_counts` leaves out: a time no date can hold (beyond ±8.64e15 ms, text,
        a BLOB, NULL). Without ``conversations`` three seeks of the timestamp index (text and BLOBs sort
        after every number); with them, the rows of those conversations are read through their indexes."""
        rng = (-JS_TIME_MAX, JS_TIME_MAX)
        bad = "(timestamp IS NULL OR NOT (timestamp BETWEEN ? AND ?))"
        with self.db.lock:
            c = self.conn
            if conversations is None:
                return sum(
                    c.execute(f"SELECT count(*) FROM {MSG} WHERE {cond}", args).fetchone()[0]
                    for cond, args in (
                        ("timestamp < ?", (rng[0],)),
                        ("timestamp > ?", (rng[1],)),
                        ("timestamp IS NULL", ()),
                    )
                )
            ids = list(dict.fromkeys(conversations))
            if not ids:
                return 0
            if not self._has_origin():
                sql = f"SELECT count(*) FROM {MSG} WHERE session_id IN ({_placeholders(len(ids))}) AND {bad}"
                return c.execute(sql, (*ids, *rng)).fetchone()[0]
            return sum(
                c.execute(f"SELECT count(*) FROM {MSG} {where} AND {bad}", (*ids, *rng)).fetchone()[0]
                for where in self._conversation_parts(ids)
            )

    # -- search ----------------------------------------------------------------------------------------
    def search_messages(
        self,
        query: str,
        since: float | None = None,
        until: float | None = None,
        session_id: str | None = None,
        session_ids: Sequence[str] | None = None,
        limit: float = 20,
        *,
        conversations: Sequence[str] | None = None,
    ) -> list[Message]:
        """``RawStore.searchMessages`` (spec §4.3), newest first, ties by id descending.

        An FTS error (syntax, unknown column) counts as zero rows and the ``LIKE`` fallback runs, as in
        the reference. Errors of the fallback itself propagate (e.g. a fractional ``limit``: SQLite's
        ``datatype mismatch``), as in the reference. ``conversations`` (not in the reference) keeps the
        hits of those conversations (see :meth:`query_timeline`).
        """
        return self.search_with_mode(
            query, since, until, session_id, session_ids, limit, conversations=conversations
        )[0]

    def search_with_mode(
        self,
        query: str,
        since: float | None = None,
        until: float | None = None,
        session_id: str | None = None,
        session_ids: Sequence[str] | None = None,
        limit: float = 20,
        *,
        before: Keyset | None = None,
        on_like: Callable[[], None] | None = None,
        conversations: Sequence[str] | None = None,
    ) -> tuple[list[Message], SearchMode]:
        """:meth:`search_messages` that also tells how it ran: ``"fts"``, ``"like"`` (the fallback) or
        ``"empty"`` (nothing left after sanitising; no query ran).

        ``before`` (an exclusive ``(timestamp, id)`` bound) searches only the messages before that
        position. ``on_like`` is called just before the ``LIKE`` scan, the slow step; it may raise to
        abandon the search.
        """
        safe = sanitize_query(query)
        if not safe:
            return [], "empty"
        return self._search(
            safe,
            since=since,
            until=until,
            session_ids=resolve_session_filter(session_id, session_ids),
            limit=limit,
            before=before,
            on_like=on_like,
            conversations=conversations,
        )

    def search_page(
        self,
        query: str,
        *,
        since: int | None = None,
        until: int | None = None,
        session_id: str | None = None,
        session_ids: Sequence[str] | None = None,
        roles: Sequence[str] | None = None,
        limit: int = 50,
        before: Keyset | None = None,
        mode: SearchMode | None = None,
        conversations: Sequence[str] | None = None,
    ) -> SearchPage:
        """A page of :meth:`search_messages` results for the GUI, with highlight spans. Never raises.

        The first page (``before=None``) chooses the mode the way the reference does (FTS when it has
        rows, else ``LIKE``). Later pages pass ``before=page.next_before`` and ``mode=page.mode`` so that
        the whole listing stays in one mode; without ``mode`` it is chosen again from the filters.
        ``roles`` and ``conversations`` are extra filters of this view (not in the reference).
        """
        query = query if isinstance(query, str) else ("" if query is None else str(query))
        safe = sanitize_query(query)
        if not safe:
            return SearchPage(query=query, safe="", mode="empty")
        try:
            ids = resolve_session_filter(session_id, session_ids)
            if mode not in ("fts", "like"):
                mode = None
            if before is not None and mode is None:
                mode = "fts" if self._fts_has_any(safe, since, until, ids, roles, conversations) else "like"
            rows, used = self._search(
                safe,
                since=since,
                until=until,
                session_ids=ids,
                limit=limit,
                roles=roles,
                before=before,
                mode=mode,
                conversations=conversations,
            )
        except Exception as exc:  # the GUI's search must never crash
            return SearchPage(
                query=query,
                safe=safe,
                mode="empty",
                error=f"{type(exc).__name__}: {exc}",
                notice=search_failure(query, exc),
            )
        spans = span_finder(safe, used)
        hits = [SearchHit.model_construct(message=m, match_spans=spans(m.content)) for m in rows]
        nb = None
        if rows and isinstance(limit, int) and limit > 0 and len(rows) == limit:
            nb = (rows[-1].timestamp, rows[-1].id)
        return SearchPage(query=query, safe=safe, mode=used, hits=hits, next_before=nb)

    def count_hits(
        self,
        query: str,
        mode: SearchMode,
        *,
        since: int | None = None,
        until: int | None = None,
        session_ids: Sequence[str] | None = None,
        roles: Sequence[str] | None = None,
        conversations: Sequence[str] | None = None,
    ) -> int:
        """How many messages every page of :meth:`search_page` for ``query`` in ``mode`` (the mode its
        first page ran in) lists with these filters, counted without reading them. A full-text count
        reads the index; a substring count scans the messages (run it off the GUI thread)."""
        safe = sanitize_query(query)
        if not safe or mode not in ("fts", "like"):
            return 0
        w = self._filters(
            since, until, list(session_ids) if session_ids else None, roles, None, conversations
        )
        if mode == "fts":
            sql = (
                f"SELECT count(*) FROM {FTS} CROSS JOIN {MSG} AS m ON m.id = {FTS}.rowid "
                f"WHERE {FTS} MATCH ?{w.and_sql()}"
            )
        else:
            sql = f"SELECT count(*) FROM {MSG} AS m WHERE m.content LIKE '%' || ? || '%'{w.and_sql()}"
        try:
            with self.db.lock:
                return int(self.conn.execute(sql, (safe, *w.args)).fetchone()[0])
        except sqlite3.Error:
            if mode == "fts":
                return 0  # as the search: a full-text error counts as no rows
            raise

    def _search(
        self,
        safe: str,
        *,
        since: float | None,
        until: float | None,
        session_ids: list[str] | None,
        limit: Any,
        roles: Sequence[str] | None = None,
        before: Keyset | None = None,
        mode: SearchMode | None = None,
        on_like: Callable[[], None] | None = None,
        conversations: Sequence[str] | None = None,
    ) -> tuple[list[Message], SearchMode]:
        f = (since, until, session_ids, roles, before)
        # The conversation filter goes to the steps as a keyword only when there is one, so that a
        # subclass overriding a step with the plain signature (core.substring) keeps working without it.
        conv: dict[str, Any] = {} if conversations is None else {"conversations": conversations}
        keys = (
            None if conversations is None else self._conversation_keys(conversations, SMALL_CONVERSATION_ROWS)
        )
        if keys is not None:
            found = self._search_keys(safe, keys, self._filters(*f), limit, mode, on_like)
            if found is not None:
                return found
        if mode != "like" and utf16_len(safe) >= 3:
            try:
                rows = self._fts_search(safe, *f, _norm_limit(limit), **conv)
            except (sqlite3.Error, _BadLimit):
                rows = []  # the reference: any error counts as zero rows
            if rows or mode == "fts":
                return rows, "fts"
        if on_like is not None:
            on_like()
        return self._like_search(safe, *f, limit, **conv), "like"

    def _filters(
        self,
        since: float | None,
        until: float | None,
        session_ids: list[str] | None,
        roles: Sequence[str] | None,
        before: Keyset | None,
        conversations: Sequence[str] | None = None,
    ) -> _Where:
        w = _Where()
        self._range_cond(w, "m.", since, until)
        self._session_cond(w, "m.", session_ids)
        self._roles_cond(w, "m.", roles)
        self._keyset_cond(w, "m.", before, None)
        self._conversation_cond(w, "m.", conversations)
        return w

    def _fts_has_any(
        self,
        safe: str,
        since: int | None,
        until: int | None,
        session_ids: list[str] | None,
        roles: Sequence[str] | None,
        conversations: Sequence[str] | None = None,
    ) -> bool:
        if utf16_len(safe) < 3:
            return False
        w = self._filters(since, until, session_ids, roles, None, conversations)
        sql = (
            f"SELECT 1 FROM {FTS} CROSS JOIN {MSG} AS m ON m.id = {FTS}.rowid "
            f"WHERE {FTS} MATCH ?{w.and_sql()} LIMIT 1"
        )
        try:
            with self.db.lock:
                return self.conn.execute(sql, (safe, *w.args)).fetchone() is not None
        except sqlite3.Error:
            return False

    def _conversation_keys(self, conversations: Sequence[str], cap: int) -> dict[int, int] | None:
        """``{id: timestamp}`` of every row of the conversations, or None when they hold more than
        ``cap`` rows (or the origin index is missing): read from the origin index (origin rows) and the
        session index (rows without origin)."""
        ids = list(dict.fromkeys(conversations))
        if not ids:
            return {}
        ph = _placeholders(len(ids))
        parts: list[tuple[str, tuple[Any, ...]]] = []
        if self._has_origin():
            if not self._has_origin_index():
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
                for i, ts in self.conn.execute(f"{sql} LIMIT ?", (*args, cap + 1 - len(out))):
                    if type(ts) is not int:
                        return None  # a damaged time: let SQLite order the rows
                    out[i] = ts
                if len(out) > cap:
                    return None
        return out

    def _search_keys(
        self,
        safe: str,
        keys: dict[int, int],
        w: _Where,
        limit: Any,
        mode: SearchMode | None,
        on_like: Callable[[], None] | None,
    ) -> tuple[list[Message], SearchMode] | None:
        """:meth:`_search` over the rows ``keys`` only (see :data:`SMALL_CONVERSATION_ROWS`); None
        when the limit is one SQLite would refuse (the general path raises as the reference does)."""
        try:
            k = _norm_limit(limit)
        except _BadLimit:
            return None
        if mode != "like" and utf16_len(safe) >= 3:
            try:
                with self.db.lock:
                    hits = [
                        r[0]
                        for r in self.conn.execute(f"SELECT rowid FROM {FTS} WHERE {FTS} MATCH ?", (safe,))
                    ]
                rows = self._top_keys([i for i in hits if i in keys], w, k)
            except sqlite3.Error:
                rows = []  # the reference: any error counts as zero rows
            if rows or mode == "fts":
                return rows, "fts"
        if on_like is not None:
            on_like()
        like = _Where()
        like.parts, like.args = [*w.parts, "m.content LIKE '%' || ? || '%'"], [*w.args, safe]
        return self._top_keys(sorted(keys), like, k), "like"

    def _top_keys(self, ids: list[int], w: _Where, k: int | None) -> list[Message]:
        """The rows ``ids`` that pass ``w``, newest ``(timestamp, id)`` first, at most ``k``."""
        keys: list[tuple[int, int]] = []
        with self.db.lock:
            for i in range(0, len(ids), 500):
                part = ids[i : i + 500]
                sql = f"SELECT m.timestamp, m.id FROM {MSG} AS m WHERE m.id IN ({_placeholders(len(part))}){w.and_sql()}"
                keys += [(r[0], r[1]) for r in self.conn.execute(sql, (*part, *w.args))]
        keys.sort(reverse=True)
        return self._load_in_order([i for _t, i in (keys if k is None else keys[:k])])

    def _fts_exact(self, safe: str, w: _Where, k: int | None) -> list[tuple[int, int]]:
        """The reference's query (every hit sorted), as ``(timestamp, id)`` pairs, ties by id."""
        sql = (
            f"SELECT m.timestamp, m.id FROM {FTS} CROSS JOIN {MSG} AS m ON m.id = {FTS}.rowid "
            f"WHERE {FTS} MATCH ?{w.and_sql()} ORDER BY m.timestamp DESC, m.id DESC LIMIT ?"
        )
        return [(r[0], r[1]) for r in self.conn.execute(sql, (safe, *w.args, -1 if k is None else k))]

    def _fts_check_ids(self, safe: str, w: _Where, ids: Sequence[int]) -> list[tuple[int, int]]:
        """Which of ``ids`` match the query and the filters (driven by the id list, not the FTS)."""
        sql = (
            f"SELECT m.timestamp, m.id FROM {MSG} AS m CROSS JOIN {FTS} ON {FTS}.rowid = m.id "
            f"WHERE m.id IN ({_placeholders(len(ids))}) AND {FTS} MATCH ?{w.and_sql()}"
        )
        return [(r[0], r[1]) for r in self.conn.execute(sql, (*ids, safe, *w.args))]

    def _fts_search(
        self,
        safe: str,
        since: float | None,
        until: float | None,
        session_ids: list[str] | None,
        roles: Sequence[str] | None,
        before: Keyset | None,
        k: int | None,
        conversations: Sequence[str] | None = None,
    ) -> list[Message]:
        w = self._filters(since, until, session_ids, roles, before, conversations)
        with self.db.lock:
            if k is None:
                keys = self._fts_exact(safe, w, None)
            elif k == 0:
                keys = []
            else:
                keys = self._fts_fast(safe, w, k, until, before)
        return self._load_in_order([i for _t, i in keys])

    def _fts_fast(self, safe: str, w: _Where, k: int, until: float | None, before: Keyset | None) -> list:
        """Top ``k`` hits by ``(timestamp, id)`` descending; see the module docstring for the proof."""
        upper = INT64_MAX
        if until is not None:
            upper = min(upper, int(until))
        if before is not None:
            upper = min(upper, int(before[0]))
        if upper == INT64_MAX:
            top = self.conn.execute(f"SELECT max(rowid) FROM {MSG}").fetchone()[0]
        else:
            # Start the walk at the newest row allowed by the time bound, not at the newest row.
            row = self.conn.execute(
                f"SELECT id FROM {MSG} WHERE timestamp <= ? ORDER BY timestamp DESC, id DESC LIMIT 1",
                (upper,),
            ).fetchone()
            top = None if row is None else row[0]
        if top is None:
            return []  # no row at all within the time bound
        walk = (
            f"SELECT m.timestamp, m.id FROM {FTS} CROSS JOIN {MSG} AS m ON m.id = {FTS}.rowid "
            f"WHERE {FTS} MATCH ? AND {FTS}.rowid <= ?{w.and_sql()} ORDER BY {FTS}.rowid DESC"
        )
        cur = self.conn.execute(walk, (safe, top, *w.args))
        try:
            return self._fts_fast_walk(cur, safe, w, k, top, upper)
        finally:
            cur.close()

    def _fts_fast_walk(self, cur: Any, safe: str, w: _Where, k: int, top: int, upper: int) -> list:
        walked = [(r[0], r[1]) for r in cur.fetchmany(k)]

        def exact() -> list:
            if upper == INT64_MAX:
                # The walk started at the newest id: the rest of it is every other hit. Few are
                # expected here, so finishing the walk is cheaper than a second FTS query.
                everything = walked + [(r[0], r[1]) for r in cur]
                if all(type(t) is int for t, _ in everything):
                    return sorted(everything, reverse=True)[:k]
            return self._fts_exact(safe, w, k)

        if not all(type(t) is int for t, _ in walked):
            return self._fts_exact(safe, w, k)  # non-integer timestamps: no shortcut
        walked.sort(reverse=True)
        if len(walked) < k:
            # Every hit up to ``top``: all of them when ``top`` is the newest id, else ask the index.
            return walked if upper == INT64_MAX else self._fts_exact(safe, w, k)
        t_k = walked[-1][0]
        x_last = min(i for _t, i in walked)
        cap = self._scan_cap(k, x_last, top)
        # Rows outside the walked id interval [x_last, top] that could still rank in the page.
        n, n_out, out_ids = self.conn.execute(
            "SELECT count(*), count(CASE WHEN id < :x OR id > :top THEN 1 END), "
            "group_concat(CASE WHEN id < :x OR id > :top THEN id END) "
            f"FROM (SELECT id FROM {MSG} WHERE timestamp >= :tk AND timestamp <= :up LIMIT :cap)",
            {"x": x_last, "top": top, "tk": t_k, "up": upper, "cap": cap},
        ).fetchone()
        if n >= cap or n_out > FAST_OUT_OF_ORDER_CAP:
            return exact()
        if n_out == 0:
            return walked
        extra = self._fts_check_ids(safe, w, [int(s) for s in out_ids.split(",")])
        merged = sorted(set(walked) | set(extra), reverse=True)
        return merged[:k]

    def _scan_cap(self, k: int, x_last: int, top: int) -> int:
        """How many timestamp-index entries step 3 may read before the exact sort is cheaper.

        The walk found ``k`` hits among the ``span`` newest ids, so the query has about
        ``k * rows / span`` hits in all (a uniform estimate); reading more index entries than
        :data:`FAST_COST_RATIO` times that would cost more than sorting them.
        """
        hi = self.conn.execute(f"SELECT max(rowid) FROM {MSG}").fetchone()[0]
        lo = self.conn.execute(f"SELECT min(rowid) FROM {MSG}").fetchone()[0]
        if hi is None or lo is None:
            return FAST_SCAN_MIN
        span = max(1, top - x_last + 1)
        est_hits = k * (int(hi) - int(lo) + 1) / span
        return int(min(FAST_SCAN_CAP, max(FAST_SCAN_MIN, FAST_COST_RATIO * est_hits)))

    def _load_in_order(self, ids: list[int]) -> list[Message]:
        return self.get_messages(ids)

    def _like_search(
        self,
        safe: str,
        since: float | None,
        until: float | None,
        session_ids: list[str] | None,
        roles: Sequence[str] | None,
        before: Keyset | None,
        limit: Any,
        conversations: Sequence[str] | None = None,
    ) -> list[Message]:
        """``content LIKE '%'||safe||'%'`` on the content table, newest first, via the timestamp index."""
        rng, rest = _Where(), _Where()
        self._range_cond(rng, "m.", since, until)
        self._keyset_cond(rng, "m.", before, None)
        rest.add("m.content LIKE '%' || ? || '%'", safe)
        self._roles_cond(rest, "m.", roles)
        self._conversation_cond(rest, "m.", conversations)
        return self._ordered(rng, rest, session_ids, 20 if limit is None else limit)


def _chunks(rows: Iterable[Any], size: int) -> Iterator[list[Any]]:
    buf: list[Any] = []
    for r in rows:
        buf.append(r)
        if len(buf) >= size:
            yield buf
            buf = []
    if buf:
        yield buf


# -- highlight spans -----------------------------------------------------------------------------------
_FTS_OPERATORS = {"AND", "OR", "NOT"}
_NEAR = re.compile(r"^NEAR(/\d+)?$")


def fts_terms(safe: str) -> list[str]:
    """The content terms of a sanitised FTS5 query, for highlighting (a tolerant reading).

    Operators (``AND``, ``OR``, ``NEAR``; ``NOT`` and the term after it) are skipped; a column filter
    keeps its term only when it selects ``content`` (``content:x``, ``-role:x``), so ``role:user``
    highlights nothing; ``^``, ``+`` and braces are dropped. Terms shorter than 3 characters match
    nothing in a trigram index and are left out.
    """
    out: list[str] = []
    skip_next = False
    for tok in js_split_ws(safe):
        if tok in _FTS_OPERATORS or _NEAR.match(tok):
            skip_next = tok == "NOT"
            continue
        if skip_next:
            skip_next = False
            continue
        if ":" in tok:
            col, _, tok = tok.rpartition(":")
            negated = col.startswith("-")
            names = {c.lower() for c in re.split(r"[{}\-^\s]+", col) if c}
            if ("content" in names) == negated:
                continue
        for part in tok.split("+"):
            part = part.strip("^{}")
            if len(part) >= 3:
                out.append(part)
    return out


def _like_regex(pattern: str) -> re.Pattern[str]:
    """SQLite ``LIKE`` (default: ``%``, ``_`` wildcards, ASCII-only case folding) as a regex."""
    parts: list[str] = []
    for ch in pattern:
        if ch == "%":
            parts.append(".*?")
        elif ch == "_":
            parts.append(".")
        elif ch.isascii() and ch.isalpha():
            parts.append(f"[{ch.lower()}{ch.upper()}]")
        else:
            parts.append(re.escape(ch))
    return re.compile("".join(parts), re.DOTALL)


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    spans.sort()
    out: list[tuple[int, int]] = []
    for a, b in spans:
        if out and a <= out[-1][1]:
            if b > out[-1][1]:
                out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


#: Spans found per term of a query in one message: the first ones, enough to highlight what a view
#: shows; a 10 MB message that repeats a word a million times is not walked to its end.
MAX_SPANS = 1000


def span_finder(safe: str, mode: str) -> Callable[[str], list[tuple[int, int]]]:
    """``content -> [(start, end)]`` spans of what the sanitised query ``safe`` matched in ``mode``
    (``"fts"`` or ``"like"``, as :meth:`RawStore.search_with_mode` reports it), merged and sorted: the
    first :data:`MAX_SPANS` matches of each term."""
    if mode == "like":
        rx = _like_regex(safe.strip("%") or safe)
        regs = [rx]
    else:
        regs = [re.compile(re.escape(t), re.IGNORECASE) for t in dict.fromkeys(fts_terms(safe))]

    def spans(content: str) -> list[tuple[int, int]]:
        found: list[tuple[int, int]] = []
        for rx in regs:
            for m in itertools.islice(rx.finditer(content), MAX_SPANS):
                if m.end() > m.start():
                    found.append((m.start(), m.end()))
        return _merge(found)

    return spans
