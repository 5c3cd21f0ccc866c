"""Writing the schema: a new database, this project's audit table, the missing additive columns.

:func:`add_additive_columns` is the only function that alters an existing database, and it only adds
nullable or defaulted columns (plus the origin index). ``PRAGMA user_version`` is never touched.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from core.clock import now_ms
from core.schema.ddl import AUDIT_INDEX_DDL, AUDIT_TABLE_DDL, FTS_DDL, INDEX_DDL, TABLE_DDL, TRIGGER_DDL
from core.schema.inspection import has_object, table_columns
from core.schema.layout import (
    ADDITIVE_COLUMNS,
    BOOTSTRAP_ROOT_INTENT,
    BOOTSTRAP_ROOT_PURSUIT_ID,
    BOOTSTRAP_ROOT_TITLE,
    DEFAULT_CONSTITUTION_RED_LINES_JSON,
    DEFAULT_CONSTITUTION_VALUES,
    GLOBAL_SESSION_ID,
    ORIGIN_INDEX,
    ORIGIN_INDEX_DDL,
    SCHEMA_VERSION,
)

if TYPE_CHECKING:
    from core.engine import Connection


@contextmanager
def _transaction(conn: Connection) -> Iterator[None]:
    """Join the caller's transaction, or run in a short one of our own."""
    if conn.in_transaction:
        yield
        return
    conn.execute("BEGIN")
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def create_schema(conn: Connection, now: int | None = None) -> None:
    """Create the full schema and its seed rows; harmless on a database that already has them.

    Every statement is ``IF NOT EXISTS`` and runs one by one (no ``executescript``, which would
    commit), inside the caller's transaction when there is one, otherwise inside a transaction of its
    own. Seeds: ``memory_meta('schema_version', '31')`` (only when absent: an existing stamp is never
    overwritten), the ``global`` raw session (``started_at = now``) and the bootstrap root pursuit
    ``default`` (only when no root pursuit exists). Existing tables keep their columns except that
    missing additive columns are added (see :func:`add_additive_columns`). It is meant for a new
    database or one already at v31; it does not migrate older layouts.
    """
    at = now_ms() if now is None else int(now)
    with _transaction(conn):
        for sql in (*TABLE_DDL.values(), *FTS_DDL.values(), *TRIGGER_DDL.values()):
            conn.execute(sql.strip())
        _add_missing_additive(conn)
        for sql in INDEX_DDL.values():
            conn.execute(sql)
        conn.execute(ORIGIN_INDEX_DDL)
        conn.execute(
            "INSERT OR IGNORE INTO memory_meta (key, value) VALUES ('schema_version', ?)",
            (str(SCHEMA_VERSION),),
        )
        conn.execute(
            "INSERT OR IGNORE INTO memory_raw_sessions (id, started_at) VALUES (?, ?)",
            (GLOBAL_SESSION_ID, at),
        )
        has_root = conn.execute(
            "SELECT id FROM memory_pursuits WHERE parent_pursuit_id IS NULL LIMIT 1"
        ).fetchone()
        if has_root is None:
            conn.execute(
                """INSERT INTO memory_pursuits
                   (id, parent_pursuit_id, root_pursuit_id, title, intent, status, is_evergreen,
                    stake, deadline, origin, open_questions_json, resolution_criteria,
                    evidence_refs_json, progress_markers_json, last_progress_turn,
                    constitution_values, constitution_red_lines, constitution_drive_bounds,
                    constitution_governance, last_touched_ts, stake_weight, created_at, updated_at)
                   VALUES (?, NULL, ?, ?, ?, 'active', 1, 'medium', NULL, 'system',
                           '[]', NULL, '[]', '[]', 0,
                           ?, ?, NULL, NULL, ?, 5, ?, ?)""",
                (
                    BOOTSTRAP_ROOT_PURSUIT_ID,
                    BOOTSTRAP_ROOT_PURSUIT_ID,
                    BOOTSTRAP_ROOT_TITLE,
                    BOOTSTRAP_ROOT_INTENT,
                    DEFAULT_CONSTITUTION_VALUES,
                    DEFAULT_CONSTITUTION_RED_LINES_JSON,
                    at,
                    at,
                    at,
                ),
            )


def create_audit_table(conn: Connection) -> None:
    """Create this project's audit table and its two indexes (idempotent)."""
    with _transaction(conn):
        conn.execute(AUDIT_TABLE_DDL.strip())
        for sql in AUDIT_INDEX_DDL.values():
            conn.execute(sql)


def _add_missing_additive(conn: Connection) -> list[str]:
    added: list[str] = []
    columns: dict[str, set[str]] = {}
    for col in ADDITIVE_COLUMNS:
        if col.table not in columns:
            columns[col.table] = set(table_columns(conn, col.table))
        have = columns[col.table]
        if not have or col.column in have:  # table absent, or column already there
            continue
        conn.execute(f"ALTER TABLE {col.table} ADD COLUMN {col.column} {col.decl}")
        have.add(col.column)
        added.append(col.qualified)
    return added


def add_additive_columns(conn: Connection) -> list[str]:
    """Add the missing additive columns (nullable or defaulted only) and the origin index.

    Only tables that exist are touched; nothing else changes and no data is rewritten. Returns what
    was added: ``"table.column"`` for each column, then ``"idx_raw_messages_origin"`` if the index was
    created. An empty list means the database already had everything.
    """
    with _transaction(conn):
        added = _add_missing_additive(conn)
        if "origin_session_id" in table_columns(conn, "memory_raw_messages") and not has_object(
            conn, "index", ORIGIN_INDEX
        ):
            conn.execute(ORIGIN_INDEX_DDL)
            added.append(ORIGIN_INDEX)
    return added
