"""The agent's substring fallback, answered from the trigram index when that is provably the same answer
(spec Part C l; issue 17).

``RawStore.searchMessages`` falls back to ``content LIKE '%'||safe||'%' ORDER BY timestamp DESC LIMIT n``
whenever its full-text query returns no rows or fails, which a natural message nearly always does (its
``?``, ``,`` or ``.`` are FTS5 syntax errors). That is a scan of every message (about a second on a
million). :class:`ProvingRawStore` gives the same rows without the scan when it can prove they are the
same, and scans otherwise.

The proof. Split ``safe`` at whitespace and at ``LIKE``'s wildcards ``%`` and ``_`` into *pieces*
(:func:`substring_pieces`). A row whose content matches ``'%'||safe||'%'`` contains every piece as a
substring, up to ASCII case. The trigram tokenizer (case-insensitive: it folds every character,
ASCII included, one character to one character) indexes every 3-character window of the content, so a
piece of 3 or more characters, written as a quoted FTS5 string, matches every row that contains it.
Hence the rows matching ``"p1" "p2" ...`` (the pieces of 3+ characters, implicitly ANDed) include every
row of the scan; checking ``LIKE`` and the filters on those candidates and ordering them as the scan
does (``timestamp DESC, id DESC``) gives exactly the scan's rows. When there are no candidates the
miss is proven without reading a single message. When the reference's own full-text query was already
that conjunction (every token a plain bareword of 3+ characters, no operator, no wildcard) and it ran
without error and found nothing, that is the proof and no second query runs.

The proof needs the index to describe the content table: **consistent**, as
:func:`core.search.index_state.index_state` checks it (see there).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from core.engine import sqlite3
from core.errors import Notice
from core.jsutil import js_split_ws
from core.models import Message
from core.search import Filters, MessageSearch
from core.search.index_state import INDEX_TEXT, IndexState, coded_notice, index_state
from core.search.sql import FTS, MSG, Keyset
from core.timeline import RawStore

if TYPE_CHECKING:
    from core.db import MemoryDB

__all__ = [
    "CANDIDATE_CAP",
    "FtsOutcome",
    "IndexState",
    "ProvingRawStore",
    "ScanRefusedError",
    "SearchCancelledError",
    "SubstringOutcome",
    "SubstringProof",
    "index_state",
    "plain_fts_conjunction",
    "proof_query",
    "substring_pieces",
]

#: At most this many index candidates are checked; more, and the scan runs (it stops early when
#: the words are that common, and checking more candidates one by one would cost as much).
CANDIDATE_CAP = 20_000
#: The English texts of the index verdicts (kept importable here).
_INDEX_TEXT = INDEX_TEXT

_WILDCARDS = re.compile(r"[%_]")
# FTS5 query syntax: whitespace between barewords, and what a bareword is made of (ASCII letters,
# digits, '_', U+001A and every non-ASCII character). '_' is left out here: it is LIKE's wildcard.
_FTS_SPACE = re.compile(r"[ \t\n\r]+")
_BAREWORD = re.compile(r"[0-9A-Za-z\x1a\u0080-\U0010ffff]+")
_FTS_KEYWORDS = {"AND", "OR", "NOT", "NEAR"}


class SearchCancelledError(Exception):
    """The search was abandoned because ``cancel_check()`` became true."""


class ScanRefusedError(Exception):
    """The substring fallback would need a scan and :attr:`ProvingRawStore.scan_allowed` is false;
    ``outcome`` says why the proof did not apply."""

    def __init__(self, outcome: SubstringOutcome):
        super().__init__(outcome.code)
        self.outcome = outcome


# -- pieces and queries -----------------------------------------------------------------------------------


def substring_pieces(safe: str) -> list[str]:
    """The pieces of ``safe`` that every row matching ``LIKE '%'||safe||'%'`` contains: the maximal
    runs without whitespace (JavaScript's set) and without ``LIKE``'s wildcards ``%`` and ``_``."""
    out: list[str] = []
    for word in js_split_ws(safe):
        out += [p for p in _WILDCARDS.split(word) if p]
    return out


def long_pieces(safe: str) -> list[str]:
    """The pieces the trigram index can look up: 3 or more characters (code points), de-duplicated."""
    return list(dict.fromkeys(p for p in substring_pieces(safe) if len(p) >= 3))


def proof_query(safe: str, pieces: Sequence[str] | None = None) -> str | None:
    """The FTS5 query ``"p1" "p2" ...`` over the long pieces of ``safe`` (given, or computed), or None
    when there is none (every piece shorter than 3 characters) or ``safe`` holds a NUL (SQLite would cut
    the text there) or a ``"`` (the reference's sanitiser removes them)."""
    if "\x00" in safe or '"' in safe:
        return None
    if pieces is None:
        pieces = long_pieces(safe)
    if not pieces:
        return None
    return " ".join(f'"{p}"' for p in pieces)


def plain_fts_conjunction(safe: str) -> bool:
    """Whether the reference's full-text query ``MATCH safe`` means "contains every token" with each
    token a literal substring: plain barewords of 3 or more characters, no operator, no wildcard."""
    if not safe or "\x00" in safe:
        return False
    tokens = _FTS_SPACE.split(safe)
    return all(_BAREWORD.fullmatch(t) and len(t) >= 3 and t not in _FTS_KEYWORDS for t in tokens)


# -- the search -------------------------------------------------------------------------------------------


@dataclass
class FtsOutcome:
    """How the reference's full-text query went: ``rows`` found, or the SQLite ``error`` (then 0 rows)."""

    rows: int = 0
    error: str | None = None
    queried: bool = True  # False when a zero limit meant no query ran


SubstringHow = Literal["proven", "scanned"]


@dataclass
class SubstringOutcome:
    """How the substring fallback was answered: ``proven`` from the index or ``scanned``; ``code`` says
    why (``substring.proven_miss``, ``substring.proven_rows``, ``substring.proven_by_fts``, or why the
    proof did not apply: ``substring.short_pieces``, ``substring.index``, ``substring.candidates``,
    ``substring.proof_error``, ``substring.unprovable_input``)."""

    how: SubstringHow
    code: str
    params: dict[str, Any] = field(default_factory=dict)
    rows: int = 0
    index: IndexState | None = None

    def notice(self) -> Notice:
        return coded_notice(_SUBSTRING_TEXT, self.code, self.params)


_SUBSTRING_TEXT = {
    "substring.proven_by_fts": "Proven without scanning: the full-text query found no message with every "
    "word, so none contains the whole text.",
    "substring.proven_miss": "Proven without scanning: no message contains all of {pieces}, so none "
    "contains the whole text.",
    "substring.proven_rows": "Answered from the index: {candidates} messages contain all of {pieces}; "
    "{rows} of them contain the whole text.",
    "substring.short_pieces": "Scanned every message: no part of the text has 3 characters, the least "
    "the trigram index can look up.",
    "substring.index": "Scanned every message: the full-text index is not provably in step with the "
    "messages.",
    "substring.candidates": "Scanned every message: more than {cap} messages contain all of {pieces}.",
    "substring.proof_error": "Scanned every message: the index lookup failed ({error}).",
    "substring.unprovable_input": "Scanned every message: the text holds a character the index lookup "
    "cannot take.",
}


def _limit_ok(limit: Any) -> bool:
    return limit is None or (type(limit) is int)


class SubstringProof:
    """The substring step of :class:`core.search.MessageSearch` (a :class:`core.search.SubstringStrategy`)
    answered from the index when provably the same as the scan, which it runs otherwise.

    The rows are always the scan's rows; :attr:`last_fts` and :attr:`last_substring` tell how the last
    search ran. ``cancel_check`` is asked before the fallback and, through SQLite's progress handler,
    during a scan; when it returns true the search raises ``cancel_error``.
    """

    def __init__(
        self,
        db: MemoryDB,
        cancel_check: Callable[[], bool] | None = None,
        *,
        candidate_cap: int = CANDIDATE_CAP,
        cancel_error: type[Exception] = SearchCancelledError,
    ):
        self.db = db
        self.cancel_check = cancel_check
        self.candidate_cap = candidate_cap
        self.cancel_error = cancel_error
        self.last_fts: FtsOutcome | None = None
        self.last_substring: SubstringOutcome | None = None
        #: False: a fallback that cannot be proven raises :class:`ScanRefusedError` instead of scanning.
        self.scan_allowed = True

    def check_cancel(self) -> None:
        if self.cancel_check is not None and self.cancel_check():
            raise self.cancel_error()

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """One read transaction (unless the connection is already in one), holding the database lock,
        so that the index verdict and the rows come from the same state of the file."""
        with self.db.lock:
            conn = self.db.conn
            if conn.in_transaction:
                yield
                return
            conn.execute("BEGIN")
            try:
                yield
            finally:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")  # a read: nothing to keep

    # -- the strategy's hooks ---------------------------------------------------------------------------------
    @contextmanager
    def searching(self) -> Iterator[None]:
        self.last_fts = None
        self.last_substring = None
        with self.snapshot():
            yield

    def fts_ran(self, rows: int, error: str | None, queried: bool) -> None:
        self.last_fts = FtsOutcome(rows=rows, error=error, queried=queried)

    def substring(self, search: MessageSearch, safe: str, f: Filters, limit: Any) -> list[Message]:
        self.check_cancel()
        rows, outcome = self._prove(search, safe, f, limit)
        if rows is None:
            if not self.scan_allowed:
                self.last_substring = outcome
                raise ScanRefusedError(outcome)
            rows = self._scan(search, safe, f, limit)
        outcome.rows = len(rows)
        self.last_substring = outcome
        return rows

    # -- the proof -------------------------------------------------------------------------------------------
    def _prove(
        self, search: MessageSearch, safe: str, f: Filters, limit: Any
    ) -> tuple[list[Message] | None, SubstringOutcome]:
        """The scan's rows from the index, or None (and why) when that is not provably the same."""
        if not _limit_ok(limit):
            return None, _scanned("substring.unprovable_input")  # the scan raises SQLite's own error
        pieces = long_pieces(safe)
        query = proof_query(safe, pieces)
        if query is None:
            return None, _scanned("substring.short_pieces" if pieces == [] else "substring.unprovable_input")
        state = index_state(self.db)
        if not state.consistent:
            return None, _scanned("substring.index", state)
        fts = self.last_fts
        if (
            fts is not None
            and fts.queried
            and fts.error is None
            and fts.rows == 0
            and plain_fts_conjunction(safe)
        ):
            return [], SubstringOutcome("proven", "substring.proven_by_fts", {"pieces": pieces}, index=state)
        if limit == 0:
            return [], SubstringOutcome("proven", "substring.proven_miss", {"pieces": pieces}, index=state)
        return self._from_candidates(search, safe, f, limit, query, pieces, state)

    def _from_candidates(
        self,
        search: MessageSearch,
        safe: str,
        f: Filters,
        limit: Any,
        query: str,
        pieces: list[str],
        state: IndexState,
    ) -> tuple[list[Message] | None, SubstringOutcome]:
        """The rows among the index's candidates for ``query`` that pass ``LIKE`` and the filters."""
        cap = self.candidate_cap
        try:
            with self.db.lock:
                sql = f"SELECT rowid FROM {FTS} WHERE {FTS} MATCH ? LIMIT ?"
                cands = [r[0] for r in self.db.conn.execute(sql, (query, cap + 1))]
        except sqlite3.Error as exc:
            return None, _scanned("substring.proof_error", state, error=str(exc))
        if len(cands) > cap:
            return None, _scanned("substring.candidates", state, cap=cap, pieces=pieces)
        if not cands:
            return [], SubstringOutcome("proven", "substring.proven_miss", {"pieces": pieces}, index=state)
        w = search.where(f)
        sql = (
            f"SELECT m.* FROM json_each(?) AS j CROSS JOIN {MSG} AS m ON m.id = j.value "
            f"WHERE m.content LIKE '%' || ? || '%'{w.and_sql()} "
            "ORDER BY m.timestamp DESC, m.id DESC LIMIT ?"
        )
        rows = search.raw.select(sql, (json.dumps(cands), safe, *w.args, -1 if limit is None else limit))
        return rows, SubstringOutcome(
            "proven",
            "substring.proven_rows",
            {"pieces": pieces, "candidates": len(cands), "rows": len(rows)},
            index=state,
        )

    def _scan(self, search: MessageSearch, safe: str, f: Filters, limit: Any) -> list[Message]:
        """The reference's scan, interrupted through the progress handler when cancelled."""
        if self.cancel_check is None:
            return search.like_scan(safe, f, limit)
        check = self.cancel_check
        conn = self.db.conn
        with self.db.lock:
            conn.set_progress_handler(lambda: 1 if check() else 0, 50_000)
            try:
                return search.like_scan(safe, f, limit)
            except sqlite3.OperationalError:
                if check():
                    raise self.cancel_error() from None
                raise
            finally:
                conn.set_progress_handler(None, 0)

    # -- counting -------------------------------------------------------------------------------------------
    def count_containing(
        self,
        search: MessageSearch,
        text: str,
        *,
        cap: int = 1000,
        session_ids: Sequence[str] | None = None,
        before: Keyset | None = None,
    ) -> tuple[int, bool] | None:
        """How many messages contain ``text`` (``LIKE '%'||text||'%'``), counting at most ``cap``:
        ``(count, capped)``. None when the index cannot count it (no piece of 3 characters, or the index
        is not consistent): a count without the index would be a scan."""
        query = proof_query(text)
        if query is None:
            return None
        with self.snapshot():
            if not index_state(self.db).consistent:
                return None
            w = search.where(Filters(session_ids=list(session_ids) if session_ids else None, before=before))
            sql = (
                f"SELECT count(*) FROM (SELECT 1 FROM {FTS} CROSS JOIN {MSG} AS m ON m.id = {FTS}.rowid "
                f"WHERE {FTS} MATCH ? AND m.content LIKE '%' || ? || '%'{w.and_sql()} LIMIT ?)"
            )
            try:
                n = self.db.conn.execute(sql, (query, text, *w.args, cap + 1)).fetchone()[0]
            except sqlite3.Error:
                return None
        return (min(n, cap), n > cap)


def _scanned(code: str, state: IndexState | None = None, **params: Any) -> SubstringOutcome:
    return SubstringOutcome("scanned", code, params, index=state)


class ProvingRawStore(RawStore):
    """:class:`RawStore` whose search's substring step is a :class:`SubstringProof` (:attr:`proof`):
    the same rows as the reference's scan, from the index when provably the same. Adds nothing to the
    rows it reads or writes; :attr:`last_fts`, :attr:`last_substring` and :attr:`scan_allowed` are the
    proof's."""

    def __init__(
        self,
        db: MemoryDB,
        cancel_check: Callable[[], bool] | None = None,
        *,
        candidate_cap: int = CANDIDATE_CAP,
        cancel_error: type[Exception] = SearchCancelledError,
    ):
        self.proof = SubstringProof(db, cancel_check, candidate_cap=candidate_cap, cancel_error=cancel_error)
        super().__init__(db, substring=self.proof)

    @property
    def last_fts(self) -> FtsOutcome | None:
        return self.proof.last_fts

    @property
    def last_substring(self) -> SubstringOutcome | None:
        return self.proof.last_substring

    @property
    def scan_allowed(self) -> bool:
        return self.proof.scan_allowed

    @scan_allowed.setter
    def scan_allowed(self, value: bool) -> None:
        self.proof.scan_allowed = value

    def count_containing(
        self,
        text: str,
        *,
        cap: int = 1000,
        session_ids: Sequence[str] | None = None,
        before: Keyset | None = None,
    ) -> tuple[int, bool] | None:
        """:meth:`SubstringProof.count_containing` over this store's file."""
        return self.proof.count_containing(
            self.searcher, text, cap=cap, session_ids=session_ids, before=before
        )
