"""The v31 schema, its additive columns, inspection and the FTS consistency check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core import schema
from core.engine import sqlite3

NOW = 1_767_225_600_000  # 2026-01-01T00:00:00.000Z

# Physical column order of a database written by the reference (spec Part A §1.2), then the
# additive columns of Part B §1.2-1.3 in the order the newer reference's migrations add them.
CORE_COLUMNS: dict[str, list[str]] = {
    "memory_raw_sessions": ["id", "started_at", "ended_at"],
    "memory_raw_messages": ["id", "session_id", "role", "content", "timestamp", "origin_session_id"],
    "memory_actions": [
        "id",
        "session_id",
        "trigger",
        "tool_name",
        "params_json",
        "result",
        "success",
        "timestamp",
        "linked_skill",
    ],
    "memory_notes": [
        "id",
        "content",
        "importance",
        "session_id",
        "created_at",
        "last_accessed_at",
        "forgotten_at",
        "root_pursuit_id",
    ],
    "memory_facts": [
        "id",
        "namespace",
        "key",
        "value_json",
        "confidence",
        "superseded_by",
        "supersedes",
        "created_at",
        "occurred_at",
        "valid_from",
        "valid_until",
        "last_accessed_at",
        "decay_tau_days",
        "forgotten_at",
        "fact_kind",
        "root_pursuit_id",
    ],
    "memory_skills": [
        "id",
        "name",
        "description",
        "trigger_keywords",
        "action_template",
        "use_count",
        "last_used_at",
        "created_at",
        "success_count",
        "failure_count",
        "last_failure_at",
        "kind",
        "source",
        "root_pursuit_id",
        "maturity",
        "last_success_at",
        "consecutive_failures",
        "when_to_use",
        "verification",
        "tool_policy",
        "revision_history",
        "offered_count",
        "from_disk",
        "matched_count",
    ],
    "memory_calendar": [
        "id",
        "title",
        "starts_at",
        "ends_at",
        "rrule",
        "timezone",
        "related_fact_id",
        "external_ref",
        "created_at",
        "root_pursuit_id",
    ],
    "memory_schedules": [
        "id",
        "name",
        "cron_expr",
        "next_run_at",
        "last_run_at",
        "action_type",
        "payload_json",
        "enabled",
        "created_at",
        "created_by",
        "consecutive_failures",
        "paused_until",
        "project",
        "root_pursuit_id",
    ],
    "memory_meta": ["key", "value"],
    "schedule_outcomes": [
        "id",
        "schedule_id",
        "fired_at",
        "duration_ms",
        "outcome",
        "http_ok_count",
        "http_fail_count",
        "http_status_json",
        "failure_signatures",
        "text_summary",
        "created_at",
    ],
    "memory_access_log": ["id", "target_type", "target_id", "accessed_at", "context", "root_pursuit_id"],
    "reasoning_sessions": [
        "id",
        "goal",
        "assumptions_json",
        "status",
        "owner_session_id",
        "root_node_id",
        "budget_spent",
        "no_progress_rounds",
        "auto_advance",
        "mode",
        "created_at",
        "updated_at",
    ],
}

V31_TABLES = {
    "memory_raw_sessions",
    "memory_raw_messages",
    "memory_actions",
    "memory_notes",
    "memory_facts",
    "memory_skills",
    "memory_calendar",
    "memory_schedules",
    "memory_meta",
    "memory_pursuits",
    "memory_drive_configs",
    "memory_drive_outcomes",
    "routing_rules",
    "memory_initiatives",
    "autonomous_budget",
    "push_subscriptions",
    "memory_plans",
    "config_rules",
    "reasoning_sessions",
    "reasoning_nodes",
    "schedule_outcomes",
    "memory_access_log",
}

V31_INDEXES = {
    "idx_raw_messages_session",
    "idx_raw_messages_timestamp",
    "idx_notes_importance",
    "idx_notes_session",
    "idx_notes_active",
    "idx_facts_namespace",
    "idx_facts_ns_key",
    "idx_facts_active",
    "idx_facts_validity",
    "idx_actions_session",
    "idx_actions_tool",
    "idx_actions_timestamp",
    "idx_actions_skill",
    "idx_skills_use_count",
    "idx_skills_name",
    "idx_calendar_starts",
    "idx_calendar_external",
    "idx_calendar_fact",
    "idx_schedules_next_run",
    "idx_schedule_outcomes_sid_time",
    "idx_access_target",
    "idx_access_time",
    "idx_pursuits_parent",
    "idx_pursuits_root",
    "idx_pursuits_status",
    "idx_drive_configs_root",
    "idx_drive_configs_kind",
    "idx_drive_configs_status",
    "idx_drive_outcomes_drive",
    "idx_drive_outcomes_fired",
    "idx_drive_outcomes_root",
    "idx_drive_outcomes_pursuit",
    "idx_rr_signature",
    "idx_rr_confidence",
    "idx_rr_prefer_skill",
    "idx_initiatives_status",
    "idx_initiatives_driver",
    "idx_initiatives_target_recent",
    "idx_push_sub_enabled",
    "idx_plans_session",
    "idx_plans_signature",
    "idx_plans_status",
    "idx_config_rules_scope_active",
    "idx_config_rules_scope_all",
    "idx_config_rules_decay",
    "idx_reasoning_sessions_status",
    "idx_reasoning_nodes_session",
}

V31_TRIGGERS = {
    "memory_raw_messages_ai",
    "memory_raw_messages_ad",
    "memory_notes_ai",
    "memory_notes_ad",
    "memory_notes_au",
    "memory_skills_ai",
    "memory_skills_ad",
    "memory_skills_au",
}

ADDITIVE = [
    "memory_skills.verification",
    "memory_skills.tool_policy",
    "memory_skills.revision_history",
    "memory_skills.offered_count",
    "memory_skills.from_disk",
    "memory_skills.matched_count",
    "memory_raw_messages.origin_session_id",
]


# ---------------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------------


def new_db(path: str = ":memory:") -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    schema.create_schema(conn, now=NOW)
    return conn


def names(conn: sqlite3.Connection, kind: str) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = ?", (kind,))}


def columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]


def make_v31_reference_db(conn: sqlite3.Connection) -> None:
    """Turn a database created here into the pure v31 layout (no additive columns, no origin index)."""
    conn.execute("DROP INDEX idx_raw_messages_origin")
    for qualified in ADDITIVE:
        table, column = qualified.split(".")
        conn.execute(f"ALTER TABLE {table} DROP COLUMN {column}")


def add_skill(conn: sqlite3.Connection, name: str, description: str, keywords: list[str]) -> None:
    conn.execute(
        "INSERT INTO memory_skills (id, name, description, trigger_keywords, action_template, created_at) "
        "VALUES (?, ?, ?, ?, 'do it', ?)",
        (f"id-{name}", name, description, json.dumps(keywords, ensure_ascii=False), NOW),
    )


def fts_rowids(conn: sqlite3.Connection, fts: str, query: str) -> list[int]:
    return [
        r[0] for r in conn.execute(f"SELECT rowid FROM {fts} WHERE {fts} MATCH ? ORDER BY rowid", (query,))
    ]


# ---------------------------------------------------------------------------------------------------
# create_schema
# ---------------------------------------------------------------------------------------------------


def test_every_table_index_trigger_and_fts_exists() -> None:
    conn = new_db()
    tables = names(conn, "table")
    assert tables >= V31_TABLES
    for fts in ("memory_raw_messages_fts", "memory_notes_fts", "memory_skills_fts"):
        assert fts in tables
        for shadow in ("data", "idx", "docsize", "config"):
            assert f"{fts}_{shadow}" in tables
    assert "sqlite_sequence" in tables
    assert names(conn, "trigger") == V31_TRIGGERS
    # The only automatic indexes are the PK/UNIQUE ones; every named one is v31 or the origin index.
    named = {n for n in names(conn, "index") if not n.startswith("sqlite_autoindex")}
    assert named == V31_INDEXES | {"idx_raw_messages_origin"}
    assert set(schema.CORE_TABLES) | set(schema.PERIPHERAL_TABLES) == V31_TABLES
    assert set(schema.TRIGGERS) == V31_TRIGGERS
    assert set(schema.INDEXES) == V31_INDEXES
    assert [f.name for f in schema.FTS_TABLES] == [
        "memory_raw_messages_fts",
        "memory_notes_fts",
        "memory_skills_fts",
    ]
    assert [c.qualified for c in schema.ADDITIVE_COLUMNS] == ADDITIVE
    assert schema.SCHEMA_VERSION == 31


def test_columns_are_in_reference_physical_order() -> None:
    conn = new_db()
    for table, expected in CORE_COLUMNS.items():
        assert columns(conn, table) == expected, table
    assert columns(conn, "memory_plans")[-6:] == [
        "inner_iter",
        "outer_iter",
        "deliverables_json",
        "deliverable_status_json",
        "is_placeholder",
        "persisted_to",
    ]
    assert columns(conn, "reasoning_nodes")[-5:] == [
        "created_at",
        "updated_at",
        "value",
        "visits",
        "technique",
    ]
    assert columns(conn, "memory_pursuits")[-6:] == [
        "last_touched_ts",
        "stake_weight",
        "is_active_research",
        "research_iterations",
        "created_at",
        "updated_at",
    ]


def test_fts_tables_are_external_content_trigram() -> None:
    conn = new_db()
    sql = {r[0]: r[1] for r in conn.execute("SELECT name, sql FROM sqlite_master WHERE name LIKE '%_fts'")}
    assert "content='memory_raw_messages'" in sql["memory_raw_messages_fts"]
    assert "content='memory_notes'" in sql["memory_notes_fts"]
    assert "content='memory_skills'" in sql["memory_skills_fts"]
    for text in sql.values():
        assert "content_rowid='rowid'" in text
        assert "tokenize='trigram'" in text


def test_seed_rows_and_user_version() -> None:
    conn = new_db()
    assert conn.execute("SELECT key, value FROM memory_meta").fetchall() == [("schema_version", "31")]
    assert conn.execute("SELECT id, started_at, ended_at FROM memory_raw_sessions").fetchall() == [
        ("global", NOW, None)
    ]
    row = conn.execute(
        "SELECT id, parent_pursuit_id, root_pursuit_id, title, intent, status, is_evergreen, stake, origin, "
        "stake_weight, last_touched_ts, created_at, updated_at, constitution_values, constitution_red_lines "
        "FROM memory_pursuits"
    ).fetchall()
    assert len(row) == 1
    (
        pid,
        parent,
        root,
        title,
        intent,
        status,
        evergreen,
        stake,
        origin,
        weight,
        touched,
        created,
        updated,
    ) = row[0][:13]
    assert (pid, parent, root, title, intent, status, evergreen, stake, origin) == (
        "default",
        None,
        "default",
        "general assistance",
        "serve whoever talks to me",
        "active",
        1,
        "medium",
        "system",
    )
    assert (weight, touched, created, updated) == (5, NOW, NOW, NOW)
    values, red_lines = row[0][13:]
    assert values.startswith('You are philont — a trusted "second mind"')
    assert "Who you are, in five commitments:" in values
    assert json.loads(red_lines) == list(schema.DEFAULT_CONSTITUTION_RED_LINES)
    assert red_lines.startswith('["Never present an unverified claim as proven;')
    assert "—" in red_lines  # non-ASCII kept, as JSON.stringify keeps it
    assert conn.execute("PRAGMA user_version").fetchone() == (0,)


def test_create_schema_twice_is_harmless() -> None:
    conn = new_db()
    conn.execute("INSERT INTO memory_notes (id, content, created_at) VALUES ('n1', 'hello world', ?)", (NOW,))
    before = conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
    schema.create_schema(conn, now=NOW + 5000)
    assert conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall() == before
    assert conn.execute("SELECT id, started_at FROM memory_raw_sessions").fetchall() == [("global", NOW)]
    assert conn.execute("SELECT count(*), min(created_at) FROM memory_pursuits").fetchone() == (1, NOW)
    assert conn.execute("SELECT value FROM memory_meta").fetchall() == [("31",)]
    assert conn.execute("SELECT content FROM memory_notes").fetchall() == [("hello world",)]
    assert schema.fts_consistency(conn) == []


def test_create_schema_never_restamps_a_newer_version() -> None:
    conn = new_db()
    conn.execute("UPDATE memory_meta SET value = '50' WHERE key = 'schema_version'")
    schema.create_schema(conn, now=NOW)
    assert conn.execute("SELECT value FROM memory_meta").fetchall() == [("50",)]


def test_create_schema_joins_the_callers_transaction() -> None:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("BEGIN")
    schema.create_schema(conn, now=NOW)
    assert conn.in_transaction
    conn.execute("ROLLBACK")
    assert names(conn, "table") == set()


def test_create_schema_commits_its_own_transaction(tmp_path: Path) -> None:
    path = str(tmp_path / "memory.sqlite")
    conn = new_db(path)
    assert not conn.in_transaction
    conn.close()
    other = sqlite3.connect(path)
    assert schema.inspect_schema(other).has_core
    other.close()


def test_create_schema_keeps_an_existing_root_pursuit() -> None:
    conn = new_db()
    conn.execute("UPDATE memory_pursuits SET id = 'mine', root_pursuit_id = 'mine', title = 'my agent'")
    schema.create_schema(conn, now=NOW)
    assert conn.execute("SELECT id, title FROM memory_pursuits").fetchall() == [("mine", "my agent")]


# ---------------------------------------------------------------------------------------------------
# FTS triggers and trigram matching
# ---------------------------------------------------------------------------------------------------


def test_note_triggers_keep_index_in_sync() -> None:
    conn = new_db()
    conn.execute("INSERT INTO memory_notes (id, content, created_at) VALUES ('n1', 'alpha bravo', ?)", (NOW,))
    rowid = conn.execute("SELECT rowid FROM memory_notes WHERE id = 'n1'").fetchone()[0]
    assert fts_rowids(conn, "memory_notes_fts", "bravo") == [rowid]
    conn.execute("UPDATE memory_notes SET content = 'charlie delta' WHERE id = 'n1'")
    assert fts_rowids(conn, "memory_notes_fts", "bravo") == []
    assert fts_rowids(conn, "memory_notes_fts", "charlie") == [rowid]
    conn.execute("UPDATE memory_notes SET importance = 0.9 WHERE id = 'n1'")  # any update re-indexes
    assert fts_rowids(conn, "memory_notes_fts", "charlie") == [rowid]
    assert schema.fts_consistency(conn) == []
    conn.execute("DELETE FROM memory_notes WHERE id = 'n1'")
    assert fts_rowids(conn, "memory_notes_fts", "charlie") == []
    assert schema.fts_consistency(conn) == []


def test_skill_triggers_keep_index_in_sync() -> None:
    conn = new_db()
    add_skill(conn, "pdf-export", "turn markdown into pdf", ["pandoc", "导出"])
    rowid = conn.execute("SELECT rowid FROM memory_skills WHERE name = 'pdf-export'").fetchone()[0]
    assert fts_rowids(conn, "memory_skills_fts", "pandoc") == [rowid]  # trigger_keywords JSON is indexed
    assert fts_rowids(conn, "memory_skills_fts", "markdown") == [rowid]
    conn.execute("UPDATE memory_skills SET description = 'render html' WHERE name = 'pdf-export'")
    assert fts_rowids(conn, "memory_skills_fts", "markdown") == []
    assert fts_rowids(conn, "memory_skills_fts", "render") == [rowid]
    conn.execute("UPDATE memory_skills SET use_count = use_count + 1 WHERE name = 'pdf-export'")
    assert fts_rowids(conn, "memory_skills_fts", "render") == [rowid]
    conn.execute("DELETE FROM memory_skills WHERE name = 'pdf-export'")
    assert fts_rowids(conn, "memory_skills_fts", "render") == []
    assert schema.fts_consistency(conn) == []


def test_raw_message_triggers_insert_and_delete_only() -> None:
    conn = new_db()
    conn.execute(
        "INSERT INTO memory_raw_messages (session_id, role, content, timestamp) "
        "VALUES ('global', 'user', 'hello timeline', ?)",
        (NOW,),
    )
    assert fts_rowids(conn, "memory_raw_messages_fts", "timeline") == [1]
    assert fts_rowids(conn, "memory_raw_messages_fts", "user") == [1]  # role is indexed too
    assert "memory_raw_messages_au" not in names(conn, "trigger")
    conn.execute("DELETE FROM memory_raw_messages WHERE id = 1")
    assert fts_rowids(conn, "memory_raw_messages_fts", "timeline") == []
    assert schema.fts_consistency(conn) == []


def test_raw_messages_need_a_known_session() -> None:
    conn = new_db()
    conn.execute("PRAGMA foreign_keys = ON")
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY constraint failed"):
        conn.execute(
            "INSERT INTO memory_raw_messages (session_id, role, content, timestamp) VALUES ('nope', 'user', 'x', 1)"
        )


def test_trigram_matches_chinese_and_word_parts() -> None:
    conn = new_db()
    rows = [
        "我们今天讨论了数据库的索引设计",
        "running the migrations on staging",
        "nothing relevant here",
    ]
    for i, text in enumerate(rows):
        conn.execute(
            "INSERT INTO memory_raw_messages (session_id, role, content, timestamp) VALUES ('global', 'user', ?, ?)",
            (text, NOW + i),
        )
    assert fts_rowids(conn, "memory_raw_messages_fts", '"数据库"') == [1]
    assert fts_rowids(conn, "memory_raw_messages_fts", "migration") == [2]
    assert fts_rowids(conn, "memory_raw_messages_fts", "MIGRATION") == [2]  # case-insensitive


# ---------------------------------------------------------------------------------------------------
# inspect_schema / add_additive_columns
# ---------------------------------------------------------------------------------------------------


def test_inspect_fresh_database_reports_nothing_missing() -> None:
    info = schema.inspect_schema(new_db())
    assert info.schema_version == 31
    assert info.schema_version_raw == "31"
    assert info.tables >= V31_TABLES
    assert info.missing_core_tables == []
    assert info.missing_peripheral_tables == []
    assert info.missing_fts == []
    assert info.missing_triggers == []
    assert info.missing_indexes == []
    assert info.missing_core_columns == []
    assert info.missing_additive_columns == []
    assert info.missing_additive_indexes == []
    assert info.is_newer is False
    assert info.has_core is True


def test_missing_additive_columns_are_listed_then_added_keeping_data() -> None:
    conn = new_db()
    make_v31_reference_db(conn)
    add_skill(conn, "old-skill", "written by the v31 agent", ["legacy"])
    conn.execute(
        "INSERT INTO memory_raw_messages (session_id, role, content, timestamp) "
        "VALUES ('global', 'assistant', 'old message', ?)",
        (NOW,),
    )

    info = schema.inspect_schema(conn)
    assert info.missing_additive_columns == ADDITIVE
    assert info.missing_additive_indexes == ["idx_raw_messages_origin"]
    assert info.missing_core_columns == []
    assert info.missing_indexes == []
    assert info.has_core is True

    added = schema.add_additive_columns(conn)
    assert added == [*ADDITIVE, "idx_raw_messages_origin"]
    assert columns(conn, "memory_skills") == CORE_COLUMNS["memory_skills"]
    assert columns(conn, "memory_raw_messages") == CORE_COLUMNS["memory_raw_messages"]
    assert conn.execute(
        "SELECT name, description, verification, tool_policy, revision_history, offered_count, from_disk, "
        "matched_count FROM memory_skills"
    ).fetchall() == [("old-skill", "written by the v31 agent", None, None, None, 0, 0, 0)]
    assert conn.execute("SELECT content, origin_session_id FROM memory_raw_messages").fetchall() == [
        ("old message", None)
    ]
    assert fts_rowids(conn, "memory_skills_fts", "legacy") == [1]
    assert schema.fts_consistency(conn) == []

    after = schema.inspect_schema(conn)
    assert after.missing_additive_columns == []
    assert after.missing_additive_indexes == []
    assert schema.add_additive_columns(conn) == []


def test_add_additive_columns_skips_absent_tables() -> None:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("CREATE TABLE memory_raw_messages (id INTEGER PRIMARY KEY, content TEXT, timestamp INTEGER)")
    assert schema.add_additive_columns(conn) == [
        "memory_raw_messages.origin_session_id",
        "idx_raw_messages_origin",
    ]
    assert names(conn, "table") == {"memory_raw_messages"}


def test_create_schema_on_a_v31_database_adds_the_additive_columns() -> None:
    conn = new_db()
    make_v31_reference_db(conn)
    schema.create_schema(conn, now=NOW)
    info = schema.inspect_schema(conn)
    assert info.missing_additive_columns == []
    assert info.missing_additive_indexes == []


def test_newer_schema_version_reads_as_newer() -> None:
    conn = new_db()
    conn.execute("UPDATE memory_meta SET value = '51' WHERE key = 'schema_version'")
    info = schema.inspect_schema(conn)
    assert info.schema_version == 51
    assert info.is_newer is True
    assert info.version_status == "newer"
    assert info.has_core is True


@pytest.mark.parametrize(
    ("stored", "status"),
    [
        ("31", "known"),
        ("42", "known"),
        ("48", "known"),
        ("50", "known"),
        ("51", "newer"),
        ("30", "older"),
        ("1", "older"),
        ("0", "invalid"),
        ("-1", "invalid"),
        ("", "invalid"),
        ("abc", "invalid"),
        ("31.5", "invalid"),
        ("31.0", "invalid"),
        ("3.1e1", "invalid"),
        ("+31", "invalid"),
        (" 31", "invalid"),
        ("0x1F", "invalid"),
        ("12345678901234567890123456", "newer"),
    ],
)
def test_schema_versions_31_to_50_are_known(stored: str, status: str) -> None:
    conn = new_db()
    conn.execute("UPDATE memory_meta SET value = ? WHERE key = 'schema_version'", (stored,))
    info = schema.inspect_schema(conn)
    assert info.version_status == status
    assert info.is_newer is (status == "newer")


def test_a_missing_schema_version_row_is_its_own_status() -> None:
    conn = new_db()
    conn.execute("DELETE FROM memory_meta")
    assert schema.inspect_schema(conn).version_status == "missing"


@pytest.mark.parametrize(
    ("stored", "expected"),
    [
        ("31", 31),
        ("031", 31),
        (31, 31),
        ("12345678901234567890123456", 12345678901234567890123456),  # exactly, not a rounded float
        (" 31\n", None),
        ("31.0", None),
        ("3.1e1", None),
        ("0x1F", None),
        ("+31", None),
        ("", None),
        ("abc", None),
        ("31abc", None),
        ("3_1", None),
        ("\u0663\u0661", None),  # Arabic-Indic digits, although Python calls them digits
        ("31.5", None),
        ("Infinity", None),
        ("NaN", None),
        (31.0, None),
    ],
)
def test_schema_version_is_read_only_from_a_decimal_integer(stored: object, expected: int | None) -> None:
    """Only the decimal integers are versions (not what the agent's ``Number()`` makes of other text)."""
    conn = new_db()
    conn.execute("UPDATE memory_meta SET value = ? WHERE key = 'schema_version'", (stored,))
    info = schema.inspect_schema(conn)
    assert info.schema_version == expected
    if expected is None:
        assert info.version_status == "invalid"


def test_schema_version_none_without_row_or_table() -> None:
    conn = new_db()
    conn.execute("DELETE FROM memory_meta")
    assert schema.inspect_schema(conn).schema_version is None
    conn.execute("DROP TABLE memory_meta")
    info = schema.inspect_schema(conn)
    assert info.schema_version is None
    assert info.missing_core_tables == ["memory_meta"]
    assert info.has_core is False


def test_missing_core_table_is_detected() -> None:
    conn = new_db()
    conn.execute("DROP TABLE memory_calendar")
    conn.execute("DROP TABLE routing_rules")
    info = schema.inspect_schema(conn)
    assert info.missing_core_tables == ["memory_calendar"]
    assert info.missing_peripheral_tables == ["routing_rules"]
    assert info.missing_indexes == [
        "idx_calendar_starts",
        "idx_calendar_external",
        "idx_calendar_fact",
        "idx_rr_signature",
        "idx_rr_confidence",
        "idx_rr_prefer_skill",
    ]
    assert info.has_core is False


def test_missing_fts_and_triggers_and_core_columns_are_detected() -> None:
    conn = new_db()
    conn.execute("ALTER TABLE memory_skills DROP COLUMN when_to_use")
    conn.execute("DROP TRIGGER memory_skills_au")
    conn.execute("DROP INDEX idx_facts_active")
    conn.execute("DROP TABLE memory_notes_fts")  # its triggers stay (they belong to memory_notes)
    info = schema.inspect_schema(conn)
    assert info.missing_fts == ["memory_notes_fts"]
    assert info.missing_triggers == ["memory_skills_au"]
    assert info.missing_indexes == ["idx_facts_active"]
    assert info.missing_core_columns == ["memory_skills.when_to_use"]
    assert info.missing_additive_columns == []
    assert info.has_core is True


def test_unknown_tables_and_the_audit_table_are_ignored() -> None:
    conn = new_db()
    schema.create_audit_table(conn)
    schema.create_audit_table(conn)
    conn.execute("CREATE TABLE memory_cases (id TEXT PRIMARY KEY)")
    info = schema.inspect_schema(conn)
    assert info.has_audit_table is True
    assert {schema.AUDIT_TABLE, "memory_cases"} <= info.tables
    assert info.missing_core_tables == info.missing_peripheral_tables == []
    assert info.missing_indexes == info.missing_triggers == info.missing_fts == []
    assert columns(conn, schema.AUDIT_TABLE) == [
        "id",
        "at",
        "actor",
        "action",
        "target_type",
        "target_id",
        "before_json",
        "after_json",
        "undone_of",
        "note",
    ]
    audit_indexes = {
        r[0]: r[1]
        for r in conn.execute("SELECT name, sql FROM sqlite_master WHERE tbl_name = ?", (schema.AUDIT_TABLE,))
    }
    assert (
        "ON philont_desktop_audit(target_type, target_id)"
        in audit_indexes["idx_philont_desktop_audit_target"]
    )
    assert "ON philont_desktop_audit(at)" in audit_indexes["idx_philont_desktop_audit_at"]


# ---------------------------------------------------------------------------------------------------
# fts_consistency
# ---------------------------------------------------------------------------------------------------


def test_fts_consistency_detects_a_row_written_without_triggers() -> None:
    conn = new_db()
    conn.execute("INSERT INTO memory_notes (id, content, created_at) VALUES ('n1', 'indexed', ?)", (NOW,))
    conn.execute("DROP TRIGGER memory_notes_ai")
    conn.execute("INSERT INTO memory_notes (id, content, created_at) VALUES ('n2', 'not indexed', ?)", (NOW,))
    assert schema.fts_consistency(conn) == [
        "memory_notes_fts: the index has 1 rows, memory_notes has 2 (1 not indexed, 0 indexed without a content row)"
    ]


def test_fts_consistency_detects_stale_index_rows_and_missing_tables() -> None:
    conn = new_db()
    conn.execute(
        "INSERT INTO memory_raw_messages (session_id, role, content, timestamp) VALUES ('global', 'user', 'x1', 1)"
    )
    conn.execute("DROP TRIGGER memory_raw_messages_ad")
    conn.execute("DELETE FROM memory_raw_messages")
    conn.execute("DROP TABLE memory_skills_fts")
    assert schema.fts_consistency(conn) == [
        "memory_raw_messages_fts: the index has 1 rows, memory_raw_messages has 0 "
        "(0 not indexed, 1 indexed without a content row)",
        "memory_skills_fts: the full-text table is missing",
    ]


# ---------------------------------------------------------------------------------------------------
# Read-only use
# ---------------------------------------------------------------------------------------------------


def test_inspection_works_on_a_read_only_connection_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite"
    conn = new_db(str(path))
    make_v31_reference_db(conn)
    conn.execute("UPDATE memory_meta SET value = '51'")
    conn.close()
    before = path.read_bytes()

    ro = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    info = schema.inspect_schema(ro)
    assert info.is_newer is True
    assert info.missing_additive_columns == ADDITIVE
    assert schema.fts_consistency(ro) == []
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        schema.add_additive_columns(ro)
    ro.close()
    assert path.read_bytes() == before


def test_works_with_a_default_connection_and_row_factory(tmp_path: Path) -> None:
    path = str(tmp_path / "memory.sqlite")
    conn = sqlite3.connect(path)  # the module's default (implicit) transaction handling
    conn.row_factory = sqlite3.Row
    schema.create_schema(conn, now=NOW)
    assert not conn.in_transaction
    info = schema.inspect_schema(conn)
    assert info.schema_version == 31
    assert info.has_core is True
    assert schema.add_additive_columns(conn) == []
    assert schema.fts_consistency(conn) == []
    conn.close()
    again = sqlite3.connect(path)
    assert again.execute("SELECT id, started_at FROM memory_raw_sessions").fetchall() == [("global", NOW)]
    assert again.execute("PRAGMA quick_check").fetchone() == ("ok",)
    again.close()
