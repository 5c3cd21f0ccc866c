"""Whether the message index provably covers every message: the condition under which
:mod:`core.substring` answers the substring fallback from the trigram index.

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

import re
import threading
import weakref
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core.engine import sqlite3
from core.errors import Notice
from core.search.sql import FTS, MSG

if TYPE_CHECKING:
    from core.db import MemoryDB
    from core.engine import Connection

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


def coded_notice(texts: Mapping[str, str], code: str, params: Mapping[str, Any]) -> Notice:
    """A :class:`Notice` with its English rendering (lists of words shown quoted, comma-separated)."""
    shown = {
        k: ", ".join(f'"{x}"' for x in v) if isinstance(v, list | tuple) else v for k, v in params.items()
    }
    try:
        message = texts.get(code, code).format(**shown)
    except (KeyError, IndexError):
        message = texts.get(code, code)
    return Notice(code, message, dict(params))


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
        return coded_notice(INDEX_TEXT, self.code, self.params)

    def to_json(self) -> dict[str, Any]:
        return {"consistent": self.consistent, **self.notice().to_json()}


INDEX_TEXT = {
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

    Call it inside the read transaction whose rows it vouches for (:meth:`core.substring.SubstringProof.snapshot`).
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
