"""Inspecting a memory file's schema: what it has against the v31 layout plus the additive columns.

Everything here only runs ``SELECT`` and ``PRAGMA table_info``, so it is safe on read-only connections.
Tables this package does not know (this project's audit table, tables of a newer reference) are ignored,
as the reference ignores them.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from core import MAX_KNOWN_SCHEMA_VERSION
from core.engine import sqlite3
from core.schema.ddl import INDEXES, TABLE_DDL
from core.schema.layout import (
    ADDITIVE_COLUMNS,
    AUDIT_TABLE,
    CORE_TABLES,
    FTS_TABLES,
    ORIGIN_INDEX,
    PERIPHERAL_TABLES,
    TRIGGERS,
)
from core.schema.version import VersionStatus, parse_schema_version, version_status

if TYPE_CHECKING:
    from core.engine import Connection


class SchemaInfo(BaseModel):
    """What a database has, compared with the v31 layout plus the additive columns."""

    schema_version: int | None = None
    schema_version_raw: str | None = None
    tables: set[str] = Field(default_factory=set)
    missing_core_tables: list[str] = Field(default_factory=list)
    missing_peripheral_tables: list[str] = Field(default_factory=list)
    missing_fts: list[str] = Field(default_factory=list)
    missing_triggers: list[str] = Field(default_factory=list)
    missing_indexes: list[str] = Field(default_factory=list)
    missing_core_columns: list[str] = Field(default_factory=list)
    missing_additive_columns: list[str] = Field(default_factory=list)
    missing_additive_indexes: list[str] = Field(default_factory=list)
    has_audit_table: bool = False
    version_status: VersionStatus = "missing"
    is_newer: bool = False
    has_core: bool = False


def has_object(conn: Connection, kind: str, name: str) -> bool:
    row = conn.execute("SELECT 1 FROM sqlite_master WHERE type = ? AND name = ?", (kind, name)).fetchone()
    return row is not None


def table_columns(conn: Connection, table: str) -> list[str]:
    """Column names of ``table`` in physical order; empty when the table does not exist."""
    return [row[1] for row in conn.execute(f'PRAGMA table_info("{table}")').fetchall()]


@cache
def expected_columns() -> dict[str, tuple[str, ...]]:
    """Column names (physical order) of every table of a database created here, additive included."""
    scratch = sqlite3.connect(":memory:")
    try:
        for sql in TABLE_DDL.values():
            scratch.execute(sql.strip())
        return {table: tuple(table_columns(scratch, table)) for table in TABLE_DDL}
    finally:
        scratch.close()


def _read_version(conn: Connection) -> tuple[int | None, str | None]:
    try:
        row = conn.execute("SELECT value FROM memory_meta WHERE key = 'schema_version'").fetchone()
    except sqlite3.Error:
        return None, None
    if row is None:
        return None, None
    raw = row[0]
    text = raw if isinstance(raw, str) else (None if raw is None else repr(raw))
    return parse_schema_version(raw), text


def inspect_schema(conn: Connection) -> SchemaInfo:
    """Compare a database with the v31 layout plus the additive columns. Read-only."""
    objects: dict[str, set[str]] = {"table": set(), "index": set(), "trigger": set()}
    for row in conn.execute("SELECT type, name FROM sqlite_master").fetchall():
        if row[0] in objects:
            objects[row[0]].add(row[1])
    tables = objects["table"]
    version, raw = _read_version(conn)

    additive = {(c.table, c.column) for c in ADDITIVE_COLUMNS}
    expected = expected_columns()
    missing_core_columns: list[str] = []
    missing_additive: list[str] = []
    live: dict[str, list[str]] = {}
    for table in CORE_TABLES:
        if table not in tables:
            continue
        live[table] = table_columns(conn, table)
        have = set(live[table])
        for column in expected[table]:
            if column in have:
                continue
            if (table, column) in additive:
                missing_additive.append(f"{table}.{column}")
            else:
                missing_core_columns.append(f"{table}.{column}")
    # Keep the additive list in ADDITIVE_COLUMNS order.
    order = [c.qualified for c in ADDITIVE_COLUMNS]
    missing_additive.sort(key=order.index)

    missing_additive_indexes: list[str] = []
    if "memory_raw_messages" in tables and ORIGIN_INDEX not in objects["index"]:
        missing_additive_indexes.append(ORIGIN_INDEX)

    missing_core = [t for t in CORE_TABLES if t not in tables]
    return SchemaInfo(
        schema_version=version,
        schema_version_raw=raw,
        tables=set(tables),
        missing_core_tables=missing_core,
        missing_peripheral_tables=[t for t in PERIPHERAL_TABLES if t not in tables],
        missing_fts=[f.name for f in FTS_TABLES if f.name not in tables],
        missing_triggers=[t for t in TRIGGERS if t not in objects["trigger"]],
        missing_indexes=[i for i in INDEXES if i not in objects["index"]],
        missing_core_columns=missing_core_columns,
        missing_additive_columns=missing_additive,
        missing_additive_indexes=missing_additive_indexes,
        has_audit_table=AUDIT_TABLE in tables,
        version_status=version_status(version, raw),
        is_newer=version is not None and version > MAX_KNOWN_SCHEMA_VERSION,
        has_core=not missing_core,
    )


def fts_consistency(conn: Connection) -> list[str]:
    """Problems of the three FTS indexes, one human-readable line each; an empty list means consistent.

    Read-only: it compares the FTS ``_docsize`` shadow table (one row per indexed document) with the
    content table, by count and by rowid. It does not run the FTS5 ``integrity-check`` command, which
    is a write. Changed text under an unchanged rowid (an update without an update trigger) is not
    detected.
    """
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    problems: list[str] = []
    for fts in FTS_TABLES:
        if fts.name not in tables:
            problems.append(f"{fts.name}: the full-text table is missing")
            continue
        if fts.content_table not in tables:
            problems.append(f"{fts.name}: its content table {fts.content_table} is missing")
            continue
        docsize = f"{fts.name}_docsize"
        if docsize not in tables:
            problems.append(f"{fts.name}: shadow table {docsize} is missing, the index cannot be checked")
            continue
        indexed = conn.execute(f"SELECT count(*) FROM {docsize}").fetchone()[0]
        content = conn.execute(f"SELECT count(*) FROM {fts.content_table}").fetchone()[0]
        not_indexed = conn.execute(
            f"SELECT count(*) FROM {fts.content_table} WHERE rowid NOT IN (SELECT id FROM {docsize})"
        ).fetchone()[0]
        stale = conn.execute(
            f"SELECT count(*) FROM {docsize} WHERE id NOT IN (SELECT rowid FROM {fts.content_table})"
        ).fetchone()[0]
        if indexed != content or not_indexed or stale:
            problems.append(
                f"{fts.name}: the index has {indexed} rows, {fts.content_table} has {content} "
                f"({not_indexed} not indexed, {stale} indexed without a content row)"
            )
    return problems
