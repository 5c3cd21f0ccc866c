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

The proof needs the index to describe the content table: **consistent** (:func:`index_state`) means

1. ``memory_raw_messages_fts`` is an FTS5 table over ``memory_raw_messages`` indexing ``content`` with
   the case-insensitive ``trigram`` tokenizer (``remove_diacritics`` 0 or 1; no other tokenizer,
   ``detail`` other than ``full``, or ``columnsize=0``);
2. the content table's triggers are exactly the reference's ``memory_raw_messages_ai`` (insert into
   the index) and ``memory_raw_messages_ad`` (delete from it), so every later write keeps the index in
   step in the writer's own transaction, as the live agent's writes do;
3. every message has an index document: the index's documents (``_docsize`` rowids, counted by the
   index's own row count in its ``_data`` averages record) form one gap-free rowid range that contains
   the messages' smallest and largest rowid. Four index look-ups, whatever the size.

A message written without the insert trigger (its rowid is beyond the indexed range, or in a gap), an
index row deleted (a gap, or a shorter range), a ``delete-all``, a missing or changed trigger, another
tokenizer: each fails one of these and the scan runs. Rowid gaps left by deleted messages make 3
unprovable with four look-ups (the index has the same gaps), and the scan runs there too. Not
detected (nor by ``philont-memory check``): a message's text changed in place under the same rowid
(an ``UPDATE``; the reference has no update trigger and never updates messages) and hand-made writes
into the index's shadow tables; FTS5's own ``integrity-check`` finds those. The verdict is cached per
connection until ``PRAGMA data_version``, ``PRAGMA schema_version`` or the connection's own change
count moves, and the search reads the verdict and the rows in one read transaction.
"""

from __future__ import annotations

import json
import re
import threading
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from core.engine import sqlite3
from core.errors import Notice
from core.jsutil import js_split_ws
from core.models import Message
from core.timeline import FTS, MSG, Keyset, RawStore, SearchMode

if TYPE_CHECKING:
    from core.db import MemoryDB
    from core.engine import Connection

__all__ = [
    "CANDIDATE_CAP",
    "FtsOutcome",
    "IndexState",
    "ProvingRawStore",
    "ScanRefusedError",
    "SearchCancelledError",
    "SubstringOutcome",
    "index_state",
    "plain_fts_conjunction",
    "proof_query",
    "substring_pieces",
]

#: At most this many index candidates are checked; more, and the scan runs (it stops early when
#: the words are that common, and checking more candidates one by one would cost as much).
CANDIDATE_CAP = 20_000

DOCSIZE = f"{FTS}_docsize"
DATA = f"{FTS}_data"
TRIGGER_AI = "memory_raw_messages_ai"
TRIGGER_AD = "memory_raw_messages_ad"

# The reference's triggers, whitespace-normalised (``IF NOT EXISTS`` is not kept in sqlite_master).
_EXPECTED_TRIGGERS = {
    TRIGGER_AI: "create trigger memory_raw_messages_ai after insert on memory_raw_messages begin insert "
    "into memory_raw_messages_fts(rowid, content, role) values (new.rowid, new.content, new.role); end",
    TRIGGER_AD: "create trigger memory_raw_messages_ad after delete on memory_raw_messages begin insert "
    "into memory_raw_messages_fts(memory_raw_messages_fts, rowid, content, role) values ('delete', "
    "old.rowid, old.content, old.role); end",
}

_WILDCARDS = re.compile(r"[%_]")
# FTS5 query syntax: whitespace between barewords, and what a bareword is made of (ASCII letters,
# digits, '_', U+001A and every non-ASCII character). '_' is left out here: it is LIKE's wildcard.
_FTS_SPACE = re.compile(r"[ \t\n\r]+")
_BAREWORD = re.compile(r"[0-9A-Za-z\x1a\u0080-\U0010ffff]+")
_FTS_KEYWORDS = {"AND", "OR", "NOT", "NEAR"}


def _notice(texts: Mapping[str, str], code: str, params: Mapping[str, Any]) -> Notice:
    """A :class:`Notice` with its English rendering (lists of words shown quoted, comma-separated)."""
    shown = {
        k: ", ".join(f'"{x}"' for x in v) if isinstance(v, list | tuple) else v for k, v in params.items()
    }
    try:
        message = texts.get(code, code).format(**shown)
    except (KeyError, IndexError):
        message = texts.get(code, code)
    return Notice(code, message, dict(params))


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


# -- is the index consistent? -----------------------------------------------------------------------------


@dataclass(frozen=True)
class IndexState:
    """Whether the message index provably covers every message (see the module docstring).

    ``code`` is ``index.consistent`` or the first check that failed: ``index.missing`` (no full-text
    table), ``index.tokenizer`` (not the case-insensitive trigram tokenizer over content),
    ``index.triggers`` (a trigger missing, changed or added), ``index.uncovered`` (messages outside the
    indexed rowid range: written without the trigger, or index rows deleted), ``index.gaps`` (the
    indexed rowids have gaps: deleted messages or deleted index rows, not told apart cheaply),
    ``index.unreadable`` (the index's bookkeeping could not be read).
    """

    consistent: bool
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def notice(self) -> Notice:
        return _notice(_INDEX_TEXT, self.code, self.params)

    def to_json(self) -> dict[str, Any]:
        return {"consistent": self.consistent, **self.notice().to_json()}


_INDEX_TEXT = {
    "index.consistent": "The full-text index covers every message (rowids {first}..{last}), so a "
    "full-text miss proves a substring miss.",
    "index.empty": "There are no messages.",
    "index.missing": "The full-text table is missing.",
    "index.tokenizer": "The full-text table is not the case-insensitive trigram index of the message "
    "text ({detail}).",
    "index.triggers": "The triggers that keep the full-text index in step are not the reference's "
    "({detail}).",
    "index.uncovered": "Messages {first}..{last} are not all inside the indexed range {indexed_first}.."
    "{indexed_last}: some were written without the full-text trigger or their index rows were deleted.",
    "index.gaps": "The index holds {indexed} documents for rowids {indexed_first}..{indexed_last}: "
    "deleted messages or deleted index rows leave gaps, so it cannot be checked cheaply that every "
    "message is indexed.",
    "index.unreadable": "The full-text index's bookkeeping could not be read ({detail}).",
}

_STATE_CACHE: weakref.WeakKeyDictionary[Any, tuple[tuple[int, int, int], IndexState]] = (
    weakref.WeakKeyDictionary()
)
_STATE_LOCK = threading.Lock()


def _norm_sql(sql: str | None) -> str:
    s = " ".join((sql or "").split()).lower()
    s = s.replace(" if not exists", "")
    return re.sub(r"\s*([(),;])\s*", r"\1 ", s).replace("( ", "(").replace(" )", ")").strip()


def _fts_args(sql: str) -> list[str] | None:
    m = re.search(r"using\s+fts5\s*\((.*)\)\s*$", sql, re.IGNORECASE | re.DOTALL)
    if m is None:
        return None
    args, buf, quote = [], "", ""
    for ch in m.group(1):
        if quote:
            buf += ch
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
            buf += ch
        elif ch == ",":
            args.append(buf.strip())
            buf = ""
        else:
            buf += ch
    args.append(buf.strip())
    return args


def _unquote(v: str) -> str:
    v = v.strip()
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
        return v[1:-1]
    return v


def check_tokenizer(sql: str | None) -> str | None:
    """None when the FTS DDL is the case-insensitive trigram index of ``content`` over the message
    table; else a short reason (data, not a sentence)."""
    args = _fts_args(sql or "")
    if args is None:
        return "not fts5"
    columns: list[str] = []
    opts: dict[str, str] = {}
    for a in args:
        if "=" in a:
            k, _, v = a.partition("=")
            opts[k.strip().lower()] = _unquote(v)
        elif a.split() and "unindexed" not in a.lower():
            columns.append(_unquote(a.split()[0]).lower())
    if "content" not in columns:
        return "content not indexed"
    if opts.get("content", "").lower() != MSG:
        return f"content={opts.get('content', '')!s}"
    if opts.get("content_rowid", "rowid").lower() not in ("rowid", "id"):
        return f"content_rowid={opts['content_rowid']}"
    tok = opts.get("tokenize", "").split()
    if not tok or tok[0].lower() != "trigram" or len(tok) % 2 == 0:
        return f"tokenize={opts.get('tokenize', '')}"
    for k, v in zip(tok[1::2], tok[2::2], strict=True):
        if (k.lower(), v) not in (
            ("case_sensitive", "0"),
            ("remove_diacritics", "0"),
            ("remove_diacritics", "1"),
        ):
            return f"tokenize={opts.get('tokenize', '')}"
    for k, v in opts.items():
        if k in ("content", "content_rowid", "tokenize", "prefix"):
            continue
        if k == "detail" and v.lower() == "full":
            continue
        return f"{k}={v}"
    return None


def _varint(b: bytes, i: int = 0) -> int:
    """An SQLite varint (FTS5 uses SQLite's format) at ``b[i]``."""
    v = 0
    for n in range(9):
        c = b[i + n]
        if n == 8:
            return (v << 8) | c
        v = (v << 7) | (c & 0x7F)
        if not c & 0x80:
            return v
    return v  # pragma: no cover


def _compute_state(conn: Connection) -> IndexState:
    rows = conn.execute(
        "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name = ? OR tbl_name = ?", (FTS, MSG)
    ).fetchall()
    fts_sql = next((r[3] for r in rows if r[0] == "table" and r[1] == FTS), None)
    if fts_sql is None:
        return IndexState(False, "index.missing")
    why = check_tokenizer(fts_sql)
    if why is not None:
        return IndexState(False, "index.tokenizer", {"detail": why})
    triggers = {r[1]: r[3] for r in rows if r[0] == "trigger" and r[2] == MSG}
    for name, expected in _EXPECTED_TRIGGERS.items():
        if name not in triggers:
            return IndexState(False, "index.triggers", {"detail": f"{name} missing"})
        if _norm_sql(triggers[name]) != _norm_sql(expected):
            return IndexState(False, "index.triggers", {"detail": f"{name} changed"})
    extra = sorted(set(triggers) - set(_EXPECTED_TRIGGERS))
    if extra:
        return IndexState(False, "index.triggers", {"detail": "other triggers: " + ", ".join(extra)})
    # Four index look-ups (min and max apart: together they would defeat SQLite's shortcut).
    try:
        first = conn.execute(f"SELECT min(rowid) FROM {MSG}").fetchone()[0]
        last = conn.execute(f"SELECT max(rowid) FROM {MSG}").fetchone()[0]
        if first is None:
            return IndexState(True, "index.empty", {"messages": 0})
        d_first = conn.execute(f"SELECT min(id) FROM {DOCSIZE}").fetchone()[0]
        d_last = conn.execute(f"SELECT max(id) FROM {DOCSIZE}").fetchone()[0]
        block = conn.execute(f"SELECT block FROM {DATA} WHERE id = 1").fetchone()
        n_docs = _varint(bytes(block[0])) if block is not None and block[0] else 0
    except (sqlite3.Error, IndexError, TypeError, ValueError) as exc:
        return IndexState(False, "index.unreadable", {"detail": f"{type(exc).__name__}: {exc}"})
    params = {
        "first": first,
        "last": last,
        "indexed_first": d_first,
        "indexed_last": d_last,
        "indexed": n_docs,
    }
    if d_first is None or d_last is None or d_first > first or d_last < last:
        return IndexState(False, "index.uncovered", params)
    if n_docs != d_last - d_first + 1:
        return IndexState(False, "index.gaps", params)
    return IndexState(True, "index.consistent", {**params, "messages": last - first + 1})


def _state_key(conn: Connection) -> tuple[int, int, int]:
    dv, sv = conn.execute("SELECT * FROM pragma_data_version, pragma_schema_version").fetchone()
    return (int(dv), int(sv), int(conn.total_changes))


def index_state(db: MemoryDB) -> IndexState:
    """Whether the message index is consistent (module docstring), cached until the database changes.

    Call it inside the read transaction whose rows it vouches for (:meth:`ProvingRawStore.snapshot`).
    """
    with db.lock:
        conn = db.conn
        key = _state_key(conn)
        try:
            with _STATE_LOCK:
                hit = _STATE_CACHE.get(db)
        except TypeError:  # not weak-referenceable: no cache
            hit = None
        if hit is not None and hit[0] == key:
            return hit[1]
        state = _compute_state(conn)
        with suppress(TypeError), _STATE_LOCK:
            _STATE_CACHE[db] = (key, state)
        return state


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
        return _notice(_SUBSTRING_TEXT, self.code, self.params)


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


class ProvingRawStore(RawStore):
    """:class:`RawStore` whose substring fallback is answered from the index when provably the same.

    The rows are always the scan's rows (:meth:`search_messages` keeps the reference's semantics);
    :attr:`last_fts` and :attr:`last_substring` tell how the last search ran. ``cancel_check`` is asked
    before the fallback and, through SQLite's progress handler, during a scan; when it returns true the
    search raises :attr:`cancel_error`.
    """

    cancel_error: type[Exception] = SearchCancelledError

    def __init__(
        self,
        db: MemoryDB,
        cancel_check: Callable[[], bool] | None = None,
        *,
        candidate_cap: int = CANDIDATE_CAP,
    ):
        super().__init__(db)
        self.cancel_check = cancel_check
        self.candidate_cap = candidate_cap
        self.last_fts: FtsOutcome | None = None
        self.last_substring: SubstringOutcome | None = None
        #: False: a fallback that cannot be proven raises :class:`ScanRefusedError` instead of scanning.
        self.scan_allowed = True

    # -- plumbing -------------------------------------------------------------------------------------------
    def check_cancel(self) -> None:
        if self.cancel_check is not None and self.cancel_check():
            raise self.cancel_error()

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """One read transaction (unless the connection is already in one), holding the database lock,
        so that the index verdict and the rows come from the same state of the file."""
        with self.db.lock:
            conn = self.conn
            if conn.in_transaction:
                yield
                return
            conn.execute("BEGIN")
            try:
                yield
            finally:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")  # a read: nothing to keep

    # -- overrides of RawStore's search steps -------------------------------------------------------------
    def _search(self, safe: str, **kw: Any) -> tuple[list[Message], SearchMode]:
        self.last_fts = None
        self.last_substring = None
        with self.snapshot():
            return super()._search(safe, **kw)

    def _fts_search(  # type: ignore[override]
        self,
        safe: str,
        since: int | None,
        until: int | None,
        session_ids: list[str] | None,
        roles: Sequence[str] | None,
        before: Keyset | None,
        k: int | None,
    ) -> list[Message]:
        try:
            rows = super()._fts_search(safe, since, until, session_ids, roles, before, k)
        except sqlite3.Error as exc:
            self.last_fts = FtsOutcome(rows=0, error=str(exc))
            raise
        self.last_fts = FtsOutcome(rows=len(rows), queried=k != 0)
        return rows

    def _like_search(  # type: ignore[override]
        self,
        safe: str,
        since: int | None,
        until: int | None,
        session_ids: list[str] | None,
        roles: Sequence[str] | None,
        before: Keyset | None,
        limit: Any,
    ) -> list[Message]:
        self.check_cancel()
        rows, outcome = self._prove(safe, since, until, session_ids, roles, before, limit)
        if rows is None:
            if not self.scan_allowed:
                self.last_substring = outcome
                raise ScanRefusedError(outcome)
            rows = self._scan(safe, since, until, session_ids, roles, before, limit)
        outcome.rows = len(rows)
        self.last_substring = outcome
        return rows

    # -- the proof -------------------------------------------------------------------------------------------
    def _prove(
        self,
        safe: str,
        since: int | None,
        until: int | None,
        session_ids: list[str] | None,
        roles: Sequence[str] | None,
        before: Keyset | None,
        limit: Any,
    ) -> tuple[list[Message] | None, SubstringOutcome]:
        def scan(code: str, **params: Any) -> tuple[None, SubstringOutcome]:
            return None, SubstringOutcome("scanned", code, params, index=state)

        state: IndexState | None = None
        if not _limit_ok(limit):
            return scan("substring.unprovable_input")  # the scan raises SQLite's own error for it
        pieces = long_pieces(safe)
        query = proof_query(safe, pieces)
        if query is None:
            return scan("substring.short_pieces" if pieces == [] else "substring.unprovable_input")
        state = index_state(self.db)
        if not state.consistent:
            return scan("substring.index")
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
        cap = self.candidate_cap
        try:
            with self.db.lock:
                cands = [
                    r[0]
                    for r in self.conn.execute(
                        f"SELECT rowid FROM {FTS} WHERE {FTS} MATCH ? LIMIT ?", (query, cap + 1)
                    )
                ]
        except sqlite3.Error as exc:
            return scan("substring.proof_error", error=str(exc))
        if len(cands) > cap:
            return scan("substring.candidates", cap=cap, pieces=pieces)
        if not cands:
            return [], SubstringOutcome("proven", "substring.proven_miss", {"pieces": pieces}, index=state)
        w = self._filters(since, until, session_ids, roles, before)
        sql = (
            f"SELECT m.* FROM json_each(?) AS j CROSS JOIN {MSG} AS m ON m.id = j.value "
            f"WHERE m.content LIKE '%' || ? || '%'{w.and_sql()} "
            "ORDER BY m.timestamp DESC, m.id DESC LIMIT ?"
        )
        rows = self._rows(sql, (json.dumps(cands), safe, *w.args, -1 if limit is None else limit))
        return rows, SubstringOutcome(
            "proven",
            "substring.proven_rows",
            {"pieces": pieces, "candidates": len(cands), "rows": len(rows)},
            index=state,
        )

    def _scan(
        self,
        safe: str,
        since: int | None,
        until: int | None,
        session_ids: list[str] | None,
        roles: Sequence[str] | None,
        before: Keyset | None,
        limit: Any,
    ) -> list[Message]:
        """The reference's scan, interrupted through the progress handler when cancelled."""
        if self.cancel_check is None:
            return super()._like_search(safe, since, until, session_ids, roles, before, limit)
        check = self.cancel_check
        with self.db.lock:
            self.conn.set_progress_handler(lambda: 1 if check() else 0, 50_000)
            try:
                return super()._like_search(safe, since, until, session_ids, roles, before, limit)
            except sqlite3.OperationalError:
                if check():
                    raise self.cancel_error() from None
                raise
            finally:
                self.conn.set_progress_handler(None, 0)

    # -- counting -------------------------------------------------------------------------------------------
    def count_containing(
        self,
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
            w = self._filters(None, None, list(session_ids) if session_ids else None, None, before)
            sql = (
                f"SELECT count(*) FROM (SELECT 1 FROM {FTS} CROSS JOIN {MSG} AS m ON m.id = {FTS}.rowid "
                f"WHERE {FTS} MATCH ? AND m.content LIKE '%' || ? || '%'{w.and_sql()} LIMIT ?)"
            )
            try:
                n = self.conn.execute(sql, (query, text, *w.args, cap + 1)).fetchone()[0]
            except sqlite3.Error:
                return None
        return (min(n, cap), n > cap)
