"""Rebuilding a full-text index from its table: ``indexes.rebuild``, audited like every edit.

The three FTS5 indexes (``memory_raw_messages_fts``, ``memory_notes_fts``, ``memory_skills_fts``) are
external-content indexes kept by triggers; when they drift (rows missing either way) FTS5's ``rebuild``
command reads the table again and writes the index anew. No row of a table changes.

:func:`rebuild` refuses (:class:`core.backups.AgentRunningError`, nothing written) while the file's
``-wal`` was written in the last few seconds (:data:`core.backups.names.WAL_RECENT_S`): the agent is
writing, and a rebuild of a large index would hold the write lock for seconds. The audit states are the
counts ``{"index", "table", "indexed", "rows"}`` before and after.

An index the file lacks is created first (its FTS5 table, and those of the triggers that keep it which are
missing), then built; the after state lists what was created (``created``).

Undo: an index rebuilt from its table holds what the table holds; the drifted index is not put back (it
would only make searches miss rows again), so undoing it changes nothing and says so in its audit row
(before = after = the index as it is). An index the edit created is dropped again with the triggers it
created. Redo rebuilds (and creates) again.
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
from core.schema.ddl import FTS_DDL, TRIGGER_DDL

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


def _exists(conn: Connection, kind: str, name: str) -> bool:
    sql = "SELECT 1 FROM sqlite_master WHERE type = ? AND name = ?"
    return conn.execute(sql, (kind, name)).fetchone() is not None


def index_state(conn: Connection, index: str) -> dict[str, Any]:
    """The index's entry count (its ``_docsize`` rows; ``None`` when it does not exist) beside its table's
    row count."""
    table = INDEXES[index]
    indexed = (
        conn.execute(f"SELECT count(*) FROM {index}_docsize").fetchone()[0]
        if _exists(conn, "table", index)
        else None
    )
    rows = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    return {
        "index": index,
        "table": table,
        "indexed": None if indexed is None else int(indexed),
        "rows": int(rows),
    }


def _triggers_of(table: str) -> list[str]:
    return [name for name in TRIGGER_DDL if name.rsplit("_", 1)[0] == table]


def _create(conn: Connection, index: str) -> list[str]:
    """Create the absent index and the triggers that keep it (those missing); what was created."""
    created = [index]
    conn.execute(FTS_DDL[index])
    for name in _triggers_of(INDEXES[index]):
        if not _exists(conn, "trigger", name):
            conn.execute(TRIGGER_DDL[name])
            created.append(name)
    return created


def _rebuild(conn: Connection, index: str) -> tuple[Any, Any]:
    if not _exists(conn, "table", INDEXES[index]):
        raise ValidationError_(
            f"The database has no table {INDEXES[index]}; there is no index to rebuild.",
            code="index.missing",
            params={"index": index},
        )
    before = index_state(conn, index)
    created = _create(conn, index) if before["indexed"] is None else []
    conn.execute(f"INSERT INTO {index}({index}) VALUES('rebuild')")
    after = index_state(conn, index)
    return before, {**after, "created": created} if created else after


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
    """An index this edit created is dropped again, with the triggers it created; a rebuilt one stays."""
    index = str(entry.target_id)
    if index not in INDEXES:
        return entry.after, entry.after
    now = index_state(conn, index)
    created = entry.after.get("created") if isinstance(entry.after, dict) else None
    for name in reversed(created or []):
        kind = "table" if name == index else "trigger"
        if _exists(conn, kind, name):
            conn.execute(f"DROP {'TABLE' if kind == 'table' else 'TRIGGER'} {name}")
    return now, index_state(conn, index)


def _redo(conn: Connection, entry: AuditEntry) -> tuple[Any, Any]:
    return _rebuild(conn, str(entry.target_id))


curation.register(ACTION_REBUILD, _undo, _redo)
