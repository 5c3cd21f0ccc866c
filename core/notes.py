"""Layer 1: notes (spec Part A §1.2, §4.4; Part B §7 notes.ts; Part C j).

A note is free text with an ``importance`` in [0, 1]. Its id is a UUID, or ``session-summary-<sid>``
for the summary the agent's compactor writes for a session. ``forgotten_at`` is a soft delete that the
reference ignores everywhere except its latest-session-summary lookup: :meth:`NotesStore.search`
includes forgotten notes like the reference, :meth:`NotesStore.top` leaves them out (it reads
``idx_notes_active``), and :meth:`NotesStore.list` includes them unless asked not to.

Search follows the newer reference: the sanitiser, then every JS-whitespace token quoted as an FTS
phrase (implicit AND); FTS runs only when the whole sanitised string is at least 3 UTF-16 units long;
any FTS error counts as zero rows, and zero rows fall back to ``content LIKE '%'||safe||'%'`` on the
content table with the sanitised string as it is. It never raises.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from core.damage import keyset_sql
from core.engine import sqlite3
from core.errors import NotFoundError, ValidationError_
from core.ids import new_id
from core.jsutil import js_split_ws, now_ms, utf16_len
from core.models import Note
from core.timeline import sanitize_query

if TYPE_CHECKING:
    from core.db import MemoryDB

NOTES = "memory_notes"
NOTES_FTS = "memory_notes_fts"
SESSION_SUMMARY_PREFIX = "session-summary-"


def session_summary_id(session_id: str) -> str:
    """The id of the compactor's summary note of a session."""
    return f"{SESSION_SUMMARY_PREFIX}{session_id}"


def notes_fts_query(safe: str) -> str:
    """Part C j: each JS-whitespace token with ``"`` removed, wrapped in quotes, joined by spaces."""
    return " ".join('"' + t.replace('"', "") + '"' for t in js_split_ws(safe))


def _check_importance(importance: Any) -> float:
    if isinstance(importance, bool) or not isinstance(importance, int | float):
        raise ValidationError_(
            "importance must be a number between 0 and 1",
            code="argument.invalid",
            params={"argument": "importance"},
        )
    x = float(importance)
    if not math.isfinite(x) or x < 0 or x > 1:
        raise ValidationError_(
            "importance must be a number between 0 and 1",
            code="argument.invalid",
            params={"argument": "importance"},
        )
    return x


def _like_escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


class NotesStore:
    """Notes and their trigram search."""

    def __init__(self, db: MemoryDB):
        self.db = db

    def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[Note]:
        with self.db.lock:
            return [Note.from_row(r) for r in self.db.conn.execute(sql, tuple(args))]

    def _require(self, note_id: str) -> Note:
        n = self.get(note_id)
        if n is None:
            raise NotFoundError(f"No note {note_id!r}.", code="note.not_found", params={"id": note_id})
        return n

    # -- writing ---------------------------------------------------------------------------------------
    def upsert(
        self,
        note_id: str | None,
        content: str,
        importance: float = 0.5,
        session_id: str | None = None,
        created_at: int | None = None,
    ) -> Note:
        """Insert a note (a new UUID when ``note_id`` is None) or replace an existing note's text.

        On an existing id, ``content`` and ``importance`` are replaced, ``session_id`` only when given,
        ``created_at`` only when given (the note keeps its creation time otherwise); ``forgotten_at``
        is left as it is.
        """
        if not isinstance(content, str):
            raise ValidationError_(
                "content must be a string", code="argument.invalid", params={"argument": "content"}
            )
        imp = _check_importance(importance)
        nid = new_id() if note_id is None else note_id
        if not isinstance(nid, str) or not nid:
            raise ValidationError_(
                "note id must be a non-empty string", code="argument.invalid", params={"argument": "note_id"}
            )
        at = now_ms() if created_at is None else int(created_at)
        with self.db.write() as conn:
            conn.execute(
                f"INSERT INTO {NOTES} (id, content, importance, session_id, created_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET content = excluded.content, importance = excluded.importance, "
                "session_id = coalesce(?, session_id), created_at = coalesce(?, created_at)",
                (nid, content, imp, session_id, at, session_id, created_at),
            )
        return self._require(nid)

    def update(
        self, note_id: str, content: str | None = None, importance: float | None = None
    ) -> tuple[Note, Note]:
        """Change the text and/or importance; returns ``(before, after)``."""
        sets: list[str] = []
        args: list[Any] = []
        if content is not None:
            if not isinstance(content, str):
                raise ValidationError_(
                    "content must be a string", code="argument.invalid", params={"argument": "content"}
                )
            sets.append("content = ?")
            args.append(content)
        if importance is not None:
            sets.append("importance = ?")
            args.append(_check_importance(importance))
        with self.db.write() as conn:
            before = self._require(note_id)
            if sets:
                conn.execute(f"UPDATE {NOTES} SET {', '.join(sets)} WHERE id = ?", (*args, note_id))
            after = self._require(note_id)
        return before, after

    def forget(self, note_id: str, at: int | None = None) -> Note:
        """Soft-delete: set ``forgotten_at`` (now by default)."""
        when = now_ms() if at is None else int(at)
        with self.db.write() as conn:
            if (
                conn.execute(f"UPDATE {NOTES} SET forgotten_at = ? WHERE id = ?", (when, note_id)).rowcount
                == 0
            ):
                raise NotFoundError(f"No note {note_id!r}.", code="note.not_found", params={"id": note_id})
        return self._require(note_id)

    def unforget(self, note_id: str) -> Note:
        """Clear ``forgotten_at``."""
        with self.db.write() as conn:
            if conn.execute(f"UPDATE {NOTES} SET forgotten_at = NULL WHERE id = ?", (note_id,)).rowcount == 0:
                raise NotFoundError(f"No note {note_id!r}.", code="note.not_found", params={"id": note_id})
        return self._require(note_id)

    def delete(self, note_id: str) -> Note:
        """Delete the row (its FTS entry goes with it through the delete trigger); returns it."""
        with self.db.write() as conn:
            before = self._require(note_id)
            conn.execute(f"DELETE FROM {NOTES} WHERE id = ?", (note_id,))
        return before

    # -- reading ---------------------------------------------------------------------------------------
    def get(self, note_id: str) -> Note | None:
        """The note with this id, forgotten or not (the reference's ``getNoteById``)."""
        rows = self._rows(f"SELECT * FROM {NOTES} WHERE id = ?", (note_id,))
        return rows[0] if rows else None

    def get_session_summary(self, session_id: str, *, include_forgotten: bool = True) -> Note | None:
        """The note ``session-summary-<sid>`` (forgotten included by default, as recall_sessions reads it)."""
        n = self.get(session_summary_id(session_id))
        if n is not None and not include_forgotten and n.forgotten_at is not None:
            return None
        return n

    def search(self, q: str, limit: float = 5) -> list[Note]:
        """``NotesStore.search`` of the newer reference (Part B §7, Part C j). Never raises.

        Ordered ``importance DESC, created_at DESC`` (the reference's SQL, ties as SQLite returns
        them); forgotten notes are included.
        """
        safe = sanitize_query(q)
        if not safe:
            return []
        fts_q = notes_fts_query(safe)
        rows: list[Note] = []
        if utf16_len(safe) >= 3 and fts_q:
            try:
                rows = self._rows(
                    f"SELECT n.* FROM {NOTES} n JOIN {NOTES_FTS} fts ON fts.rowid = n.rowid "
                    f"WHERE {NOTES_FTS} MATCH ? ORDER BY n.importance DESC, n.created_at DESC LIMIT ?",
                    (fts_q, limit),
                )
            except (sqlite3.Error, OverflowError, TypeError, ValueError):
                rows = []
        if not rows:
            try:
                rows = self._rows(
                    f"SELECT * FROM {NOTES} WHERE content LIKE '%' || ? || '%' "
                    "ORDER BY importance DESC, created_at DESC LIMIT ?",
                    (safe, limit),
                )
            except (sqlite3.Error, OverflowError, TypeError, ValueError):
                rows = []
        return rows

    def top(self, limit: int = 10) -> list[Note]:
        """The most important notes that are not forgotten (``idx_notes_active``), newest first on ties."""
        return self._rows(
            f"SELECT * FROM {NOTES} WHERE forgotten_at IS NULL ORDER BY importance DESC, created_at DESC LIMIT ?",
            (limit,),
        )

    def _filter(self, include_forgotten: bool, query: str | None, session_id: str | None) -> tuple[str, list]:
        parts: list[str] = []
        args: list[Any] = []
        if not include_forgotten:
            parts.append("forgotten_at IS NULL")
        if query:
            parts.append("content LIKE ? ESCAPE '\\'")
            args.append(f"%{_like_escape(query)}%")
        if session_id is not None:
            parts.append("session_id = ?")
            args.append(session_id)
        return " AND ".join(parts), args

    def list(
        self,
        limit: int | None = 50,
        offset: int = 0,
        *,
        before: tuple[int, str] | None = None,
        include_forgotten: bool = True,
        query: str | None = None,
        session_id: str | None = None,
        order: Literal["created", "importance"] = "created",
    ) -> list[Note]:
        """Notes for browsing.

        ``order='created'``: newest ``created_at`` first (ties by id descending), with keyset
        pagination through ``before=(created_at, id)`` of the last row. ``order='importance'``:
        ``importance DESC, created_at DESC, id DESC`` (paginate with ``offset``). ``query`` keeps notes
        whose content contains it literally (``%``/``_`` are not wildcards; ASCII case-insensitive).
        """
        where, args = self._filter(include_forgotten, query, session_id)
        parts = [where] if where else []
        if order == "created":
            if before is not None:
                sql, key_args = keyset_sql("created_at", "id", before, before=True)
                parts.append(f"({sql})")
                args += key_args
            order_sql = "created_at DESC, id DESC"
        elif order == "importance":
            order_sql = "importance DESC, created_at DESC, id DESC"
        else:
            raise ValidationError_(
                "order must be 'created' or 'importance'",
                code="argument.invalid",
                params={"argument": "order"},
            )
        w = (" WHERE " + " AND ".join(parts)) if parts else ""
        return self._rows(
            f"SELECT * FROM {NOTES}{w} ORDER BY {order_sql} LIMIT ? OFFSET ?",
            (*args, -1 if limit is None else limit, offset),
        )

    def count(self, *, include_forgotten: bool = True, query: str | None = None) -> int:
        where, args = self._filter(include_forgotten, query, None)
        w = f" WHERE {where}" if where else ""
        with self.db.lock:
            return self.db.conn.execute(f"SELECT count(*) FROM {NOTES}{w}", args).fetchone()[0]
