"""The memory database schema: the reference's v31 layout plus the additive columns.

The DDL here is a compatibility contract (spec Part A §1 and Part B §1.2-1.3). A database created by
:func:`create_schema` has every v31 table, index, FTS5 table and trigger, with the columns in the
physical order a database written by the reference has ("base DDL columns, then migrated
columns"), plus the additive columns of the newer reference appended at the end of their tables in
the order its migrations add them. ``memory_meta.schema_version`` is ``'31'``; ``PRAGMA user_version``
is never touched.

Reading is separate from writing: :func:`inspect_schema` and :func:`fts_consistency` only run
``SELECT`` and ``PRAGMA table_info``, so they are safe on read-only connections.
:func:`add_additive_columns` is the only function that alters an existing database, and it only adds
nullable or defaulted columns (plus the origin index).

Tables this package does not know (such as this project's own audit table, or tables of a newer
reference) are ignored by the inspection, as the reference ignores them.

Schema versions 31 to 50 are *known* (:func:`version_status`): the newer reference changed only other
tables and the additive columns, so a file at any of these versions can be curated. Nothing here ever
re-stamps a version.

The package by responsibility: :mod:`~core.schema.layout` (names of tables, FTS tables, triggers, the
additive columns, the seeds), :mod:`~core.schema.ddl` (the ``CREATE`` text), :mod:`~core.schema.create`
(writing), :mod:`~core.schema.inspection` (reading a file's layout) and :mod:`~core.schema.version` (the
version rules). Every name is importable from ``core.schema``.

A new table: its ``CREATE`` text in :data:`~core.schema.ddl.TABLE_DDL` (with its FTS, trigger and index
entries) and its name in :data:`~core.schema.layout.CORE_TABLES` or ``PERIPHERAL_TABLES``. A new column
of the newer reference: appended to its table's DDL and, since older files lack it, an
:class:`~core.schema.layout.AdditiveColumn` in ``ADDITIVE_COLUMNS`` (in migration order, nullable or
defaulted), which the first write adds.
"""

from __future__ import annotations

from core import MAX_KNOWN_SCHEMA_VERSION, MIN_KNOWN_SCHEMA_VERSION
from core.schema.create import add_additive_columns, create_audit_table, create_schema
from core.schema.ddl import (
    AUDIT_INDEX_DDL,
    AUDIT_TABLE_DDL,
    FTS_DDL,
    INDEX_DDL,
    INDEXES,
    TABLE_DDL,
    TRIGGER_DDL,
    schema_statements,
)
from core.schema.inspection import SchemaInfo, expected_columns, fts_consistency, inspect_schema
from core.schema.layout import (
    ADDITIVE_COLUMNS,
    AUDIT_TABLE,
    BOOTSTRAP_ROOT_INTENT,
    BOOTSTRAP_ROOT_PURSUIT_ID,
    BOOTSTRAP_ROOT_TITLE,
    CORE_TABLES,
    DEFAULT_CONSTITUTION_RED_LINES,
    DEFAULT_CONSTITUTION_RED_LINES_JSON,
    DEFAULT_CONSTITUTION_VALUES,
    FTS_TABLES,
    GLOBAL_SESSION_ID,
    ORIGIN_INDEX,
    ORIGIN_INDEX_DDL,
    PERIPHERAL_TABLES,
    SCHEMA_VERSION,
    TRIGGERS,
    AdditiveColumn,
    FtsTable,
)
from core.schema.version import VersionStatus, js_number, parse_schema_version, version_status

__all__ = [
    "ADDITIVE_COLUMNS",
    "AUDIT_INDEX_DDL",
    "AUDIT_TABLE",
    "AUDIT_TABLE_DDL",
    "BOOTSTRAP_ROOT_INTENT",
    "BOOTSTRAP_ROOT_PURSUIT_ID",
    "BOOTSTRAP_ROOT_TITLE",
    "CORE_TABLES",
    "DEFAULT_CONSTITUTION_RED_LINES",
    "DEFAULT_CONSTITUTION_RED_LINES_JSON",
    "DEFAULT_CONSTITUTION_VALUES",
    "FTS_DDL",
    "FTS_TABLES",
    "GLOBAL_SESSION_ID",
    "INDEXES",
    "INDEX_DDL",
    "MAX_KNOWN_SCHEMA_VERSION",
    "MIN_KNOWN_SCHEMA_VERSION",
    "ORIGIN_INDEX",
    "ORIGIN_INDEX_DDL",
    "PERIPHERAL_TABLES",
    "SCHEMA_VERSION",
    "TABLE_DDL",
    "TRIGGERS",
    "TRIGGER_DDL",
    "AdditiveColumn",
    "FtsTable",
    "SchemaInfo",
    "VersionStatus",
    "add_additive_columns",
    "create_audit_table",
    "create_schema",
    "expected_columns",
    "fts_consistency",
    "inspect_schema",
    "js_number",
    "parse_schema_version",
    "schema_statements",
    "version_status",
]
