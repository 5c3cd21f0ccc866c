"""Rebuilding a full-text index from its table: ``indexes.rebuild``, audited like every edit.

The three FTS5 indexes (``memory_raw_messages_fts``, ``memory_notes_fts``, ``memory_skills_fts``) are
external-content indexes kept by triggers; when they drift (rows missing either way) FTS5's ``rebuild``
command reads the table again and writes the index anew. No row of a table changes.

:func:`rebuild` refuses (:class:`core.backups.AgentRunningError`, nothing written) while the file's
``-wal`` was written in the last few seconds (:data:`core.backups.names.WAL_RECENT_S`): the agent is
writing, and a rebuild of a large index would hold the write lock for seconds. The audit states are the
counts ``{"index", "table", "indexed", "rows"}`` before and after.

Undo: an index rebuilt from its table holds what the table holds; the drifted index is not put back (it
would only make searches miss rows again), so undoing it changes nothing and says so in its audit row
(before = after = the index as it is). Redo rebuilds again.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from core import curation
from core.audit import AuditEntry
from core.backups.activity import recent_wal
from core.backups.names import WAL_RECENT_S
from core.curation import Change
from core.errors import ValidationError_

if TYPE_CHECKING:
    from core.db import MemoryDB
    from core.engine import Connection

ACTION_REBUILD = "indexes.rebuild"
ACTIONS = (ACTION_REBUILD,)
TARGET = "index"
#: each index and the table it is built from
INDEXES = {
    "memory_raw_messages_fts": "memory_raw_messages",
    "memory_notes_fts": "memory_notes",
    "memory_skills_fts": "memory_skills",
}

__all__ = ["ACTIONS", "ACTION_REBUILD", "INDEXES", "agent_writing", "index_state", "rebuild"]


def index_state(conn: Connection, index: str) -> dict[str, Any]:
    """The index's entry count (its ``_docsize`` rows) beside its table's row count."""
    table = INDEXES[index]
    indexed = conn.execute(f"SELECT count(*) FROM {index}_docsize").fetchone()[0]
    rows = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    return {"index": index, "table": table, "indexed": int(indexed), "rows": int(rows)}


def _rebuild(conn: Connection, index: str) -> tuple[Any, Any]:
    exists = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (index,)
    ).fetchone()
    if exists is None:
        raise ValidationError_(
            f"The database has no index {index}; nothing to rebuild.",
            code="index.missing",
            params={"index": index},
        )
    before = index_state(conn, index)
    conn.execute(f"INSERT INTO {index}({index}) VALUES('rebuild')")
    return before, index_state(conn, index)


def agent_writing(db: MemoryDB, wal_recent_s: float = WAL_RECENT_S) -> Exception | None:
    """Why a rebuild must wait: the ``-wal`` was written in the last ``wal_recent_s`` seconds."""
    if db.path is None:
        return None
    return recent_wal(Path(db.path), wal_recent_s)


def rebuild(db: MemoryDB, index: str, *, wal_recent_s: float = WAL_RECENT_S) -> Change:
    """Rebuild ``index`` from its table; refused now (raises) while the agent writes."""
    if index not in INDEXES:
        raise ValidationError_(
            f"Unknown full-text index {index!r}.", code="index.unknown", params={"index": str(index)}
        )
    busy = agent_writing(db, wal_recent_s)
    if busy is not None:
        raise busy

    def fn(conn: Connection) -> tuple[Any, Any]:
        return _rebuild(conn, index)

    return Change(ACTION_REBUILD, TARGET, index, fn, "rebuild index", extra={"index": index})


def _undo(conn: Connection, entry: AuditEntry) -> tuple[Any, Any]:
    index = str(entry.target_id)
    now = index_state(conn, index) if index in INDEXES else entry.after
    return now, now


def _redo(conn: Connection, entry: AuditEntry) -> tuple[Any, Any]:
    return _rebuild(conn, str(entry.target_id))


curation.register(ACTION_REBUILD, _undo, _redo)
