"""Conversations: the timeline split by where each line came from (spec Part B §1.3).

Since schema 8 the agent writes every message under session ``global``; since schema 40 the
conversation a line came from is ``origin_session_id`` (``web-ui:…``, ``wechat:…``, ``telegram:…``,
``system:scheduled:<task>``, other ``system:…`` runs), NULL on older rows. A *conversation* here is
named by one id string:

* an origin id: its rows, plus the rows without an origin in a session of the same id (an older
  file's ``system:scheduled:<task>`` session, before origins existed);
* an older real session's id (a file from before schema 8): its rows without an origin;
* ``global``: the rows without an origin in the global timeline ("unknown origin").

So every message belongs to exactly one conversation, and the filter for a set of ids is
``origin_session_id IN (ids) OR (origin_session_id IS NULL AND session_id IN (ids))`` (only
``session_id IN (ids)`` in a file without the origin column).

Listing them (:class:`ConversationIndex`) reads indexes, not the table: the agent's file has
``idx_raw_messages_origin (origin_session_id, timestamp)``, which gives each origin's count and time
span in one covering scan, and the session index gives the older sessions' counts. The rows of a session
that also has origin rows (only files written across the v40 upgrade) are looked at individually, from
the first row that has an origin on. The result is kept and brought up to date from the rows appended
since (the timeline is append-only), so only the first listing of a big file costs an index scan, and
it belongs in a worker. Opening a file runs none of this.
"""

from __future__ import annotations

import builtins
import threading
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel

from core.schema import GLOBAL_SESSION_ID, ORIGIN_INDEX
from core.search.sql import INT64_MAX, conversation_condition
from core.timeline import RawStore

if TYPE_CHECKING:
    from core.db import MemoryDB
    from core.engine import Connection

MSG = "memory_raw_messages"
UNKNOWN_ORIGIN = GLOBAL_SESSION_ID

ConversationKind = Literal["origin", "session", "unknown"]
Channel = Literal["web", "wechat", "telegram", "scheduled", "background", "session", "unknown"]


def channel_of(conversation_id: str, kind: ConversationKind = "origin") -> tuple[Channel, str]:
    """``(channel, detail)`` of a conversation id, after the agent's ``describeSessionOrigin``.

    ``wechat:*`` WeChat, ``telegram:*`` Telegram, ``system:scheduled:<task>`` the scheduled task (detail:
    its name), other ``system:*`` a background run, anything else the web UI; an older session without
    origin is ``session`` (detail: its id) unless its id names one of those; ``global`` is ``unknown``.
    """
    cid = conversation_id
    if kind == "unknown" or cid == UNKNOWN_ORIGIN:
        return "unknown", ""
    if cid.startswith("wechat:"):
        return "wechat", cid[len("wechat:") :]
    if cid.startswith("telegram:"):
        return "telegram", cid[len("telegram:") :]
    if cid.startswith("system:scheduled:"):
        return "scheduled", cid[len("system:scheduled:") :]
    if cid.startswith("system:"):
        return "background", cid[len("system:") :]
    if kind == "session":
        return "session", cid
    return "web", cid.split(":", 1)[1] if ":" in cid else cid


class Conversation(BaseModel):
    """One conversation of the timeline (see the module docstring for what its ``id`` covers).

    ``first_at``/``last_at`` are the times of its first and last message: exact (earliest and latest
    timestamp) for the origin rows; for rows without an origin (older sessions, unknown origin) those of
    the first and last row written, which in the agent's append-only log is the same order.
    """

    id: str
    kind: ConversationKind
    channel: Channel
    detail: str = ""
    message_count: int = 0
    first_at: int | None = None
    last_at: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "channel": self.channel,
            "detail": self.detail,
            "messageCount": self.message_count,
            "firstAt": self.first_at,
            "lastAt": self.last_at,
        }


class _Span:
    """Count and time span of a group of rows."""

    __slots__ = ("count", "first", "last")

    def __init__(self, count: int = 0, first: int | None = None, last: int | None = None):
        self.count = count
        self.first = first
        self.last = last

    def merge(self, count: int, first: Any, last: Any) -> None:
        self.count += int(count)
        if isinstance(first, int) and (self.first is None or first < self.first):
            self.first = first
        if isinstance(last, int) and (self.last is None or last > self.last):
            self.last = last


def _int_or_none(v: Any) -> int | None:
    return v if type(v) is int else None


class ConversationIndex:
    """The conversations of one database file, computed once and then kept up to date.

    Thread-safe. :meth:`list` computes on first use (an index scan: run it in a worker on a big file)
    and afterwards reads only the rows appended since; :meth:`invalidate` forgets everything. ``db`` is
    the connection to use; :meth:`list` takes another (a worker thread's own connection to the same
    file) so that one index can live in the GUI and be brought up to date from any worker.
    """

    def __init__(self, db: MemoryDB | None = None):
        self.db = db
        self._lock = threading.Lock()
        self._origins: dict[str, _Span] = {}
        self._sessions: dict[str, _Span] = {}  # rows without an origin, by session id
        self._hwm: int | None = None  # the highest rowid counted
        self._low: int | None = None  # the lowest rowid when counted (a change means rows were deleted)
        self._listed: list[Conversation] | None = None

    # -- public ---------------------------------------------------------------------------------------
    def list(self, db: MemoryDB | None = None) -> list[Conversation]:
        """Every conversation, the most recent (``last_at``) first, then by id (read through ``db``, by
        default the index's own)."""
        use = db if db is not None else self.db
        if use is None:
            raise ValueError("ConversationIndex.list needs a database")
        with self._lock, use.lock:
            self.db = use
            if self._refresh() or self._listed is None:
                self._listed = self._conversations()
            return list(self._listed)

    def invalidate(self) -> None:
        with self._lock:
            self._origins, self._sessions, self._hwm, self._low, self._listed = {}, {}, None, None, None

    # -- computing ------------------------------------------------------------------------------------
    def _conn(self) -> Connection:
        assert self.db is not None  # set by list() before any computing
        return self.db.conn

    def _has_origin(self) -> bool:
        return any(r[1] == "origin_session_id" for r in self._conn().execute(f"PRAGMA table_info({MSG})"))

    def _has_origin_index(self) -> bool:
        row = (
            self._conn()
            .execute("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?", (ORIGIN_INDEX,))
            .fetchone()
        )
        return row is not None

    def _bounds(self) -> tuple[int | None, int | None]:
        c = self._conn()
        hi = c.execute(f"SELECT max(rowid) FROM {MSG}").fetchone()[0]
        lo = c.execute(f"SELECT min(rowid) FROM {MSG}").fetchone()[0]
        return lo, hi

    def _refresh(self) -> bool:
        """Bring the counts up to date; True when anything was (re)counted."""
        lo, hi = self._bounds()
        if self._hwm is not None and lo == self._low and hi is not None and hi >= self._hwm:
            if hi == self._hwm:
                return False
            self._add_rows_after(self._hwm)
            self._hwm = hi
            return True
        if self._listed is not None and hi is None and self._hwm is None:
            return False  # still empty
        self._origins, self._sessions = {}, {}
        if hi is not None:
            self._full()
        self._hwm, self._low = hi, lo
        return True

    def _add_rows_after(self, rowid: int) -> None:
        has_origin = self._has_origin()
        origin = "origin_session_id" if has_origin else "NULL"
        sql = f"SELECT session_id, {origin}, timestamp FROM {MSG} WHERE rowid > ? ORDER BY rowid"
        for sid, oid, ts in self._conn().execute(sql, (rowid,)):
            t = _int_or_none(ts)
            if oid is not None:
                self._origins.setdefault(str(oid), _Span()).merge(1, t, t)
            else:
                span = self._sessions.setdefault(str(sid), _Span())
                span.count += 1
                if span.first is None:
                    span.first = t
                if t is not None:
                    span.last = t

    def _full(self) -> None:
        c = self._conn()
        if not self._has_origin():
            self._sessions_without_origins(set())
            return
        indexed = "INDEXED BY " + ORIGIN_INDEX if self._has_origin_index() else ""
        if not indexed:  # a file without the agent's index: one pass over the table
            for sid, oid, n, first, last in c.execute(
                f"SELECT session_id, origin_session_id, count(*), min(timestamp), max(timestamp) "
                f"FROM {MSG} GROUP BY 1, 2"
            ):
                target = self._origins if oid is not None else self._sessions
                target.setdefault(str(oid if oid is not None else sid), _Span()).merge(
                    n, _int_or_none(first), _int_or_none(last)
                )
            return
        null_rows = 0
        first_origin_rowid: int | None = None
        for oid, n, first, last, low in c.execute(
            f"SELECT origin_session_id, count(*), min(timestamp), max(timestamp), min(rowid) "
            f"FROM {MSG} {indexed} GROUP BY origin_session_id"
        ):
            if oid is None:
                null_rows = int(n)
                continue
            self._origins.setdefault(str(oid), _Span()).merge(n, _int_or_none(first), _int_or_none(last))
            if first_origin_rowid is None or low < first_origin_rowid:
                first_origin_rowid = int(low)
        others = self._sessions_without_origins({GLOBAL_SESSION_ID}, first_origin_rowid)
        if null_rows - others > 0:
            self._sessions[GLOBAL_SESSION_ID] = self._global_span(null_rows - others)

    def _session_ids(self) -> builtins.list[str]:
        """Distinct ``session_id`` values of the messages (skip-scan of the session index)."""
        out: list[str] = []
        c = self._conn()
        row = c.execute(f"SELECT min(session_id) FROM {MSG}").fetchone()
        while row is not None and row[0] is not None:
            out.append(row[0])
            row = c.execute(f"SELECT min(session_id) FROM {MSG} WHERE session_id > ?", (row[0],)).fetchone()
        return out

    def _sessions_without_origins(self, skip: set[str], first_origin_rowid: int | None = None) -> int:
        """Count the rows without origin of every session not in ``skip``; returns their total.

        A session whose rows all come before the first row with an origin is all without origin: its
        count comes from the session index alone. Otherwise its rows from that point on are checked.
        """
        c = self._conn()
        total = 0
        for sid in self._session_ids():
            if sid in skip:
                continue
            n, lo, hi = c.execute(
                f"SELECT count(*), min(rowid), max(rowid) FROM {MSG} WHERE session_id = ?", (sid,)
            ).fetchone()
            if first_origin_rowid is not None and hi >= first_origin_rowid:
                n -= c.execute(
                    f"SELECT count(*) FROM {MSG} WHERE session_id = ? AND rowid >= ? "
                    "AND origin_session_id IS NOT NULL",
                    (sid, first_origin_rowid),
                ).fetchone()[0]
                lo, hi = self._null_ends(sid)
            if n <= 0:
                continue
            first = c.execute(f"SELECT timestamp FROM {MSG} WHERE rowid = ?", (lo,)).fetchone()[0]
            last = c.execute(f"SELECT timestamp FROM {MSG} WHERE rowid = ?", (hi,)).fetchone()[0]
            self._sessions[str(sid)] = _Span(int(n), _int_or_none(first), _int_or_none(last))
            total += int(n)
        return total

    def _null_ends(self, sid: str) -> tuple[int | None, int | None]:
        c = self._conn()
        base = f"SELECT rowid FROM {MSG} WHERE session_id = ? AND origin_session_id IS NULL ORDER BY rowid"
        lo = c.execute(base + " LIMIT 1", (sid,)).fetchone()
        hi = c.execute(base + " DESC LIMIT 1", (sid,)).fetchone()
        return (lo[0] if lo else None), (hi[0] if hi else None)

    def _global_span(self, count: int) -> _Span:
        """The global timeline's rows without origin: their count is known; find the first and last.

        The origin index lists the rows without origin in time order; the first and last of them that
        belong to ``global`` are usually the first and last looked at.
        """
        c = self._conn()
        sql = (
            f"SELECT timestamp FROM {MSG} INDEXED BY {ORIGIN_INDEX} WHERE origin_session_id IS NULL "
            "AND +session_id = ? ORDER BY timestamp {d} LIMIT 1"
        )
        first = c.execute(sql.format(d="ASC"), (GLOBAL_SESSION_ID,)).fetchone()
        last = c.execute(sql.format(d="DESC"), (GLOBAL_SESSION_ID,)).fetchone()
        return _Span(
            count, _int_or_none(first[0]) if first else None, _int_or_none(last[0]) if last else None
        )

    def _conversations(self) -> builtins.list[Conversation]:
        out: dict[str, Conversation] = {}
        for oid, span in self._origins.items():
            ch, detail = channel_of(oid, "origin")
            out[oid] = Conversation.model_construct(
                id=oid, kind="origin", channel=ch, detail=detail,
                message_count=span.count, first_at=span.first, last_at=span.last,
            )  # fmt: skip
        for sid, span in self._sessions.items():
            if span.count <= 0:
                continue
            conv = out.get(sid)
            if conv is not None and sid != GLOBAL_SESSION_ID:
                merged = _Span(conv.message_count, conv.first_at, conv.last_at)
                merged.merge(span.count, span.first, span.last)
                out[sid] = conv.model_copy(
                    update={"message_count": merged.count, "first_at": merged.first, "last_at": merged.last}
                )
                continue
            kind: ConversationKind = "unknown" if sid == GLOBAL_SESSION_ID else "session"
            if conv is not None:  # an origin literally named "global": one entry
                span.merge(conv.message_count, conv.first_at, conv.last_at)
            ch, detail = channel_of(sid, kind)
            out[sid] = Conversation.model_construct(
                id=sid, kind=kind, channel=ch, detail=detail,
                message_count=span.count, first_at=span.first, last_at=span.last,
            )  # fmt: skip
        convs = sorted(out.values(), key=lambda c: c.id)
        convs.sort(key=lambda c: c.last_at if c.last_at is not None else -(2**63), reverse=True)
        return convs


def conversation_of(message: Any) -> str:
    """The id of the conversation a message belongs to (its origin, else its session)."""
    return message.origin_session_id if message.origin_session_id is not None else message.session_id


class ConversationMatch(BaseModel):
    """The conversation an instant (an action's time) falls in, by the messages around it.

    ``message_id``/``message_at`` name the message it was tied to: the last one at or before the
    instant, or the first one after it when none before is close enough; ``gap_ms`` is the distance.
    ``confirmed`` says the nearest message on the other side belongs to the same conversation.
    """

    conversation_id: str
    message_id: int
    message_at: int
    gap_ms: int
    confirmed: bool


DEFAULT_MAX_GAP_MS = 15 * 60_000


def conversation_at(
    db: MemoryDB, timestamp: int, *, max_gap_ms: int = DEFAULT_MAX_GAP_MS
) -> ConversationMatch | None:
    """The conversation the instant ``timestamp`` belongs to, or None when no message is within
    ``max_gap_ms`` of it.

    The agent logs its tool calls under session ``global`` without an origin, between the message that
    started the turn and its reply; so an action is tied to the conversation of the last message at or
    before it (or, failing that, of the first message after it).
    """
    raw = RawStore(db)
    before = raw.query_timeline("desc", 1, before=(int(timestamp), INT64_MAX))
    after = raw.query_timeline("asc", 1, after=(int(timestamp), INT64_MAX))
    near = [(m, abs(int(timestamp) - m.timestamp)) for m in (*before, *after)]
    near = [(m, gap) for m, gap in near if gap <= max_gap_ms]
    if not near:
        return None
    m, gap = near[0]
    other = [conversation_of(x) for x in (*before, *after) if x is not m]
    return ConversationMatch(
        conversation_id=conversation_of(m),
        message_id=m.id,
        message_at=m.timestamp,
        gap_ms=gap,
        confirmed=bool(other) and other[0] == conversation_of(m),
    )


def list_conversations(db: MemoryDB) -> list[Conversation]:
    """The conversations of ``db`` (a one-off :class:`ConversationIndex`; keep an index to refresh)."""
    return ConversationIndex(db).list()


__all__ = [
    "DEFAULT_MAX_GAP_MS",
    "UNKNOWN_ORIGIN",
    "Channel",
    "Conversation",
    "ConversationIndex",
    "ConversationKind",
    "ConversationMatch",
    "channel_of",
    "conversation_at",
    "conversation_condition",
    "conversation_of",
    "list_conversations",
]
