"""Other copies of a purged text in a database: the same key pasted again in a message the scan did not flag
(a password is found by the words around it, not on its own), a value the agent copied into one of its
own tables (a plan, a reasoning node, a task's outcome). A purge redacts them too, so the text is gone
from the file and not only from the rows the scan reported.

Every table of the file is searched (the full-text tables, their shadow tables and this project's audit
trail excepted: the audit trail is scrubbed on its own) in every column that holds text, the key column
excepted. A table is searched in one pass over its values joined (each text looked for with ``str.find``),
when its text times the number of texts to find stays within :data:`SEARCH_BUDGET`; a larger table with a
full-text index (the raw messages, on a big file) is searched through the index (a phrase query for each
text of 3 characters or more, each hit checked in the stored text); a larger table without one is left
out and named (``unsearched``), and so are the columns of an indexed one its index does not hold, so that
a person knows where the purge did not look.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from typing import Any

from core import schema
from core.audit import AUDIT_TABLE
from core.engine import sqlite3
from core.privacy.rewrite import Span, Target, key_column, quote

#: The most characters searched in one table (its text times the texts to find): about a second.
SEARCH_BUDGET = 2_000_000_000

#: The memory layer of each table (for the plan's rows and the audit trail); other tables are named.
LAYER_OF = {
    "memory_raw_messages": "messages",
    "memory_actions": "actions",
    "memory_notes": "notes",
    "memory_facts": "facts",
    "memory_skills": "skills",
    "memory_calendar": "calendar",
    "memory_schedules": "tasks",
}


def _tables(conn: sqlite3.Connection) -> list[str]:
    fts = [f.name for f in schema.FTS_TABLES]
    out: list[str] = []
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
        name = str(name)
        if name.startswith("sqlite_") or name == AUDIT_TABLE or any(name.startswith(f) for f in fts):
            continue
        out.append(name)
    return out


def _columns(conn: sqlite3.Connection, table: str, key: str) -> list[str]:
    """The columns that may hold text (declared with text affinity, or without a type), the key excepted."""
    out: list[str] = []
    for r in conn.execute(f"PRAGMA table_info({quote(table)})"):
        name, decl = str(r[1]), str(r[2] or "").upper()
        texty = not decl or any(w in decl for w in ("CHAR", "CLOB", "TEXT")) or decl == "BLOB"
        if quote(name) != key and texty:
            out.append(name)
    return out


def _spans(value: str, texts: dict[str, str]) -> list[Span]:
    out: list[Span] = []
    for text, kind in texts.items():
        at = value.find(text)
        while at >= 0:
            out.append(Span(at, at + len(text), kind, text))
            at = value.find(text, at + len(text))
    return out


def _target(table: str, column: str, row: Any, spans: list[Span], file: str | None) -> Target:
    return Target(file, LAYER_OF.get(table, table), table, column, row, "redact", tuple(spans))


def _scan_column(
    rows: Sequence[tuple[Any, ...]], i: int, texts: dict[str, str]
) -> Iterable[tuple[Any, list[Span]]]:
    """``(key, spans)`` of the rows whose column ``i`` holds a text, in one pass over the values joined."""
    values = [r[i] if isinstance(r[i], str) else "" for r in rows]
    starts: list[int] = []
    at = 0
    for v in values:
        starts.append(at)
        at += len(v) + 1
    joined = "\0".join(values)
    hit_rows: set[int] = set()
    for text in texts:
        pos = joined.find(text)
        while pos >= 0:
            hit_rows.add(bisect_right(starts, pos) - 1)
            pos = joined.find(text, pos + 1)
    for n in sorted(hit_rows):
        spans = _spans(values[n], texts)
        if spans:
            yield rows[n][0], spans


def _through_index(
    conn: sqlite3.Connection, table: str, columns: Sequence[str], texts: dict[str, str]
) -> list[tuple[str, Any, list[Span]]] | None:
    """The copies in a big table with a full-text index, found through it; ``None`` without one."""
    fts = next((f for f in schema.FTS_TABLES if f.content_table == table), None)
    names = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if fts is None or fts.name not in names:
        return None
    rowids: set[int] = set()
    for text in texts:
        if len(text) >= 3:
            phrase = '"' + text.replace('"', '""') + '"'
            sql = f"SELECT rowid FROM {quote(fts.name)} WHERE {quote(fts.name)} MATCH ?"
            rowids.update(int(r[0]) for r in conn.execute(sql, (phrase,)))
    key = key_column(conn, table)
    found: list[tuple[str, Any, list[Span]]] = []
    cols = [c for c in columns if c in fts.columns]
    for rowid in sorted(rowids):
        row = conn.execute(
            f"SELECT {key}, {', '.join(quote(c) for c in cols)} FROM {quote(table)} WHERE rowid = ?", (rowid,)
        ).fetchone()
        for c, v in zip(cols, tuple(row)[1:], strict=True):
            spans = _spans(v, texts) if isinstance(v, str) else []
            if spans:
                found.append((c, row[0], spans))
    return found


def _indexed_columns(table: str) -> tuple[str, ...]:
    return next((tuple(f.columns) for f in schema.FTS_TABLES if f.content_table == table), ())


def _text_size(conn: sqlite3.Connection, table: str, columns: Sequence[str]) -> int:
    """About how many characters of text the table holds: its rows times the mean of its first 200."""
    lengths = " + ".join(f"coalesce(length({quote(c)}), 0)" for c in columns)
    sample = conn.execute(
        f"SELECT avg({lengths}), count(*) FROM (SELECT * FROM {quote(table)} LIMIT 200)"
    ).fetchone()
    if not sample[1]:
        return 0
    rows = int(conn.execute(f"SELECT count(*) FROM {quote(table)}").fetchone()[0])
    return int(float(sample[0] or 0) * rows)


def other_copies(
    conn: sqlite3.Connection,
    file: str | None,
    texts: Sequence[tuple[str, str]],
) -> tuple[list[Target], list[dict[str, Any]]]:
    """Every place of the file that holds one of ``texts`` (``(text, kind)``), each as a redact target
    (one per row and column), and what was left (``{file, table, chars, columns, why}``): ``why``
    ``too_large`` for a table with too much text to search without a full-text index (``columns``: every
    column of a table without one, the columns its index does not hold, ids left out, of one with it),
    ``unique`` for copies found in a column that identifies its row (a skill's name: never rewritten,
    two rows could end with the same name), ``unreadable`` for a table SQLite could not read."""
    wanted = {t: k for t, k in texts if t}
    targets: list[Target] = []
    unsearched: list[dict[str, Any]] = []
    if not wanted:
        return targets, unsearched
    for table in _tables(conn):
        try:
            found, missed = _search_table(conn, table, wanted)
        except sqlite3.Error:
            found, missed = [], {"table": table, "chars": None, "columns": None, "why": "unreadable"}
        unique = _unique_columns(conn, table)
        targets += [_target(table, c, k, s, file) for c, k, s in found if c not in unique]
        kept = sorted({c for c, _k, _s in found if c in unique})
        if kept:  # a name that identifies the row (a skill's name): rewriting it could collide
            unsearched.append({"file": file, "table": table, "chars": None, "columns": kept, "why": "unique"})
        if missed is not None:
            unsearched.append({"file": file, **missed})
    return targets, unsearched


def _unique_columns(conn: sqlite3.Connection, table: str) -> set[str]:
    """Columns that identify a row alone (the primary key, a one-column UNIQUE index)."""
    out = {str(r[1]) for r in conn.execute(f"PRAGMA table_info({quote(table)})") if r[5]}
    for idx in conn.execute(f"PRAGMA index_list({quote(table)})"):
        if idx[2]:  # unique
            cols = [str(r[2]) for r in conn.execute(f"PRAGMA index_info({quote(str(idx[1]))})")]
            if len(cols) == 1:
                out.add(cols[0])
    return out


def _search_table(
    conn: sqlite3.Connection, table: str, wanted: dict[str, str]
) -> tuple[list[tuple[str, Any, list[Span]]], dict[str, Any] | None]:
    """The copies in one table, and what of it was not searched (``None``: all of it was)."""
    key = key_column(conn, table)
    cols = _columns(conn, table, key)
    if not cols:
        return [], None
    rest = [c for c in cols if c not in _indexed_columns(table) and not c.endswith("_id")]
    if not rest:  # its full-text index holds every text it has: the fastest way
        got = _through_index(conn, table, cols, wanted)
        if got is not None:
            return got, None
    size = _text_size(conn, table, cols)
    if size * len(wanted) <= SEARCH_BUDGET:
        sql = f"SELECT {key}, {', '.join(quote(c) for c in cols)} FROM {quote(table)}"
        rows = [tuple(r) for r in conn.execute(sql)]
        return [(c, k, s) for i, c in enumerate(cols) for k, s in _scan_column(rows, i + 1, wanted)], None
    got = _through_index(conn, table, cols, wanted)
    return (got or []), {"table": table, "chars": size, "columns": rest, "why": "too_large"}
