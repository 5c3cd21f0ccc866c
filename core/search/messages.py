"""The message search: the reference's ``RawStore.searchMessages`` (spec §4.3) and the GUI's pages of it.

A search runs in two steps, as the agent's does: the full-text query (:mod:`core.search.fts`; any error
counts as zero rows) and, when that has no rows, the substring step (``content LIKE '%'||safe||'%'`` on
the content table, never on the FTS table: see the platform notes). Ties in ``timestamp``, which the
reference leaves undefined, are broken by ``id`` descending here, so every page is deterministic.

Where a new search feature plugs in (composed, never by overriding a step):

* the substring step is a :class:`SubstringStrategy` given to :class:`MessageSearch` (or to
  :class:`~core.timeline.RawStore`): :class:`PlainScan` scans as the reference does;
  :class:`core.substring.SubstringProof` answers from the trigram index when that is provably the same
  and records how each step went;
* a filter of the rows is a condition of :meth:`MessageSearch.where` (built from :class:`Filters`);
  the conversation filter (:class:`~core.search.conversation_filter.ConversationFilter`) is one, with
  its own path for small conversations.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from core.engine import sqlite3
from core.jsutil import utf16_len
from core.models import Message
from core.search.conversation_filter import ConversationFilter
from core.search.fts import FullTextIndex
from core.search.results import SearchHit, SearchMode, SearchPage, search_failure, span_finder
from core.search.rows import RowReader
from core.search.sql import (
    FTS,
    MSG,
    BadLimit,
    Keyset,
    Where,
    keyset_cond,
    norm_limit,
    range_cond,
    resolve_session_filter,
    roles_cond,
    sanitize_query,
    session_cond,
)


@dataclass(frozen=True)
class Filters:
    """What a search keeps besides its query: a time range, sessions, roles, an exclusive ``(timestamp,
    id)`` bound and conversations (None: no filter)."""

    since: float | None = None
    until: float | None = None
    session_ids: list[str] | None = None
    roles: Sequence[str] | None = None
    before: Keyset | None = None
    conversations: Sequence[str] | None = None


class SubstringStrategy(Protocol):
    """The extension point of the substring step. :class:`MessageSearch` calls, per search:

    * :meth:`searching` around the whole search (a read transaction, resetting what it records);
    * :meth:`fts_ran` after the full-text query ran: its rows, or SQLite's error (then zero rows);
      ``queried`` is False when a zero limit meant no query ran;
    * :meth:`substring` for the substring step's rows, which must be :meth:`MessageSearch.like_scan`'s.
    """

    def searching(self) -> AbstractContextManager[None]: ...

    def fts_ran(self, rows: int, error: str | None, queried: bool) -> None: ...

    def substring(self, search: MessageSearch, safe: str, f: Filters, limit: Any) -> list[Message]: ...


class PlainScan:
    """The reference's substring step: a scan of the content table."""

    @contextmanager
    def searching(self) -> Iterator[None]:
        yield

    def fts_ran(self, rows: int, error: str | None, queried: bool) -> None:
        return None

    def substring(self, search: MessageSearch, safe: str, f: Filters, limit: Any) -> list[Message]:
        return search.like_scan(safe, f, limit)


class MessageSearch:
    """The search over one :class:`~core.timeline.RawStore` (which reads the rows), with its substring
    step ``substring`` (default :class:`PlainScan`)."""

    def __init__(self, raw: RowReader, substring: SubstringStrategy | None = None):
        self.raw = raw
        self.db = raw.db
        self.substring: SubstringStrategy = PlainScan() if substring is None else substring
        self.fts = FullTextIndex(raw)
        self.conversations = ConversationFilter(raw)

    # -- the public API (RawStore delegates its search methods here) ------------------------------------
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
        hits of those conversations (see :meth:`core.timeline.RawStore.query_timeline`).
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
        ids = resolve_session_filter(session_id, session_ids)
        f = Filters(since, until, ids, None, before, conversations)
        return self.search(safe, f, limit, on_like=on_like)

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
                first = Filters(since, until, ids, roles, None, conversations)
                mode = "fts" if self.fts.has_any(safe, self.where(first)) else "like"
            f = Filters(since, until, ids, roles, before, conversations)
            rows, used = self.search(safe, f, limit, mode=mode)
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
        w = self.where(
            Filters(since, until, list(session_ids) if session_ids else None, roles, None, conversations)
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
                return int(self.db.conn.execute(sql, (safe, *w.args)).fetchone()[0])
        except sqlite3.Error:
            if mode == "fts":
                return 0  # as the search: a full-text error counts as no rows
            raise

    # -- the steps ----------------------------------------------------------------------------------------
    def search(
        self,
        safe: str,
        f: Filters,
        limit: Any,
        *,
        mode: SearchMode | None = None,
        on_like: Callable[[], None] | None = None,
    ) -> tuple[list[Message], SearchMode]:
        """The search of the sanitised query ``safe``: the full-text step (unless ``mode`` is
        ``"like"``), then, when it has no rows and ``mode`` is not ``"fts"``, the substring step."""
        with self.substring.searching():
            keys = None if f.conversations is None else self.conversations.small_keys(f.conversations)
            if keys is not None:
                found = self.conversations.search_keys(safe, keys, self.where(f), limit, mode, on_like)
                if found is not None:
                    return found
            if mode != "like" and utf16_len(safe) >= 3:
                rows = self._full_text(safe, f, limit)
                if rows or mode == "fts":
                    return rows, "fts"
            if on_like is not None:
                on_like()
            return self.substring.substring(self, safe, f, limit), "like"

    def _full_text(self, safe: str, f: Filters, limit: Any) -> list[Message]:
        """The full-text step; the reference counts any error as zero rows."""
        try:
            k = norm_limit(limit)
        except BadLimit:
            return []
        try:
            rows = self.fts.page(safe, self.where(f), k, f.until, f.before)
        except sqlite3.Error as exc:
            self.substring.fts_ran(0, str(exc), True)
            return []
        self.substring.fts_ran(len(rows), None, k != 0)
        return rows

    def where(self, f: Filters, alias: str = "m.") -> Where:
        """The conditions of the filters ``f`` on ``memory_raw_messages AS m``."""
        w = Where()
        range_cond(w, alias, f.since, f.until)
        session_cond(w, alias, f.session_ids)
        roles_cond(w, alias, f.roles)
        keyset_cond(w, alias, f.before, None)
        self.conversations.add_condition(w, alias, f.conversations)
        return w

    def like_scan(self, safe: str, f: Filters, limit: Any) -> list[Message]:
        """The reference's substring step: ``content LIKE '%'||safe||'%'`` on the content table, newest
        first, through the timestamp index (:meth:`core.timeline.RawStore.select_ordered`)."""
        rng, rest = Where(), Where()
        range_cond(rng, "m.", f.since, f.until)
        keyset_cond(rng, "m.", f.before, None)
        rest.add("m.content LIKE '%' || ? || '%'", safe)
        roles_cond(rest, "m.", f.roles)
        self.conversations.add_condition(rest, "m.", f.conversations)
        return self.raw.select_ordered(rng, rest, f.session_ids, 20 if limit is None else limit)
