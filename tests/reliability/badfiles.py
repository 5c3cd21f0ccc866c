"""Builders of damaged, foreign and odd database files for the bad-input suite.

Each builder writes one file at ``path`` (its directory exists) and returns nothing. Every file is
deterministic (fixed seeds and times). Files that are SQLite databases are closed cleanly, so they
have no -wal unless the builder leaves one on purpose.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable
from pathlib import Path

from core.actions import ActionStore
from core.calendar import CalendarStore
from core.db import MemoryDB
from core.engine import sqlite3
from core.facts import FactStore
from core.notes import NotesStore
from core.schedules import ScheduleStore
from core.skills import SkillStore
from core.timeline import RawStore
from tests.support import FIXED_NOW as NOW

DAY = 86_400_000
YEAR_2100 = 4_102_444_800_000
JS_DATE_MAX = 8_640_000_000_000_000  # the largest time a JS Date holds (year 275760)
BEYOND_JS = 2**62  # an INTEGER no date type can show
TEN_MB = 10 * 1024 * 1024


def base(path: Path, *, messages: int = 40) -> None:
    """A small but complete memory database: every layer has rows (through the core stores)."""
    db = MemoryDB.create(path, now=NOW)
    try:
        raw = RawStore(db)
        for s in ("s-1", "s-2"):
            raw.start_session(s, started_at=NOW - 3 * DAY)
        rows = [
            (
                "s-1" if i % 2 else "s-2",
                ("user", "assistant", "tool", "system")[i % 4],
                f"message {i}: deploy the 数据库 migration and check the logs",
                NOW - 2 * DAY + i * 60_000,
            )
            for i in range(messages)
        ]
        raw.append_many(rows)
        actions = ActionStore(db)
        for i in range(6):
            actions.append("s-1", "search_notes", {"query": f"deploy {i}"}, "ok", i % 3 != 0, NOW - DAY + i)
        notes = NotesStore(db)
        for i in range(5):
            notes.upsert(f"note-{i}", f"note {i}: remember the deploy checklist", 0.2 * i, "s-1", NOW - i)
        facts = FactStore(db)
        for i in range(5):
            facts.store_fact("user", f"pref_{i}", {"likes": f"thing {i}"}, 0.9, now=NOW - i * DAY)
        facts.store_fact("project", "deadline", "2026-07-01", 1.0, "event", occurred_at=NOW, now=NOW)
        skills = SkillStore(db)
        for i, m in enumerate(("draft", "confirmed", "stable", "playbook", "deprecated")):
            skills.create_skill(
                f"skill-{i}",
                f"how to deploy step {i}",
                ["deploy", f"step{i}"],
                f"run step {i}",
                maturity=m,
                verification={"kind": "tool_result_ok"} if i == 1 else None,
                now=NOW - i,
            )
        CalendarStore(db).create("stand-up", NOW + DAY, NOW + DAY + 900_000, None, "UTC", now=NOW)
        ScheduleStore(db).create("water", NOW + DAY, "prompt", {"text": "drink water"}, now=NOW)
    finally:
        db.close()


def _sql(path: Path, *statements: str) -> None:
    """Run statements on a plain connection (no triggers of ours, no checks), then close it."""
    conn = sqlite3.connect(str(path), isolation_level=None)
    try:
        for st in statements:
            conn.execute(st)
    finally:
        conn.close()


# -- not a usable file -------------------------------------------------------------------------------------


def zero_byte(path: Path) -> None:
    path.write_bytes(b"")


def truncated(path: Path) -> None:
    base(path, messages=400)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def truncated_header(path: Path) -> None:
    base(path)
    path.write_bytes(path.read_bytes()[:60])


def random_bytes(path: Path) -> None:
    path.write_bytes(random.Random(7).randbytes(64 * 1024))


def text_file(path: Path) -> None:
    path.write_text("This is a shopping list, not a database.\nmilk\neggs\n" * 50)


def png_file(path: Path) -> None:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return len(data).to_bytes(4, "big") + kind + data + zlib.crc32(kind + data).to_bytes(4, "big")

    ihdr = (1).to_bytes(4, "big") * 2 + bytes([8, 0, 0, 0, 0])
    png = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b"\x00\x00"))
        + chunk(b"IEND", b"")
    )
    path.write_bytes(png)


def sqlite_header_garbage(path: Path) -> None:
    """The SQLite magic followed by random bytes."""
    path.write_bytes(b"SQLite format 3\x00" + random.Random(3).randbytes(8192 - 16))


def foreign_sqlite(path: Path) -> None:
    """A valid SQLite database of another program: none of the memory tables."""
    _sql(
        path,
        "CREATE TABLE recipes (id INTEGER PRIMARY KEY, title TEXT)",
        "INSERT INTO recipes VALUES (1, 'soup')",
    )


# -- a memory database that must be shown read-only ----------------------------------------------------------


def newer_schema(path: Path) -> None:
    base(path)
    _sql(path, "UPDATE memory_meta SET value = '99' WHERE key = 'schema_version'")


def missing_core_tables(path: Path) -> None:
    base(path)
    _sql(
        path,
        "DROP TABLE memory_facts",
        "DROP TABLE memory_skills_fts",
        "DROP TABLE memory_skills",
        "DROP TABLE memory_actions",
    )


def missing_messages_table(path: Path) -> None:
    base(path)
    _sql(path, "DROP TABLE memory_raw_messages_fts", "DROP TABLE memory_raw_messages")


def missing_fts(path: Path) -> None:
    base(path)
    _sql(
        path,
        "DROP TRIGGER memory_raw_messages_ai",
        "DROP TRIGGER memory_raw_messages_ad",
        "DROP TABLE memory_raw_messages_fts",
        "DROP TABLE memory_notes_fts",
    )


def fts_out_of_sync(path: Path) -> None:
    """FTS rows whose content row is gone or changed, and content rows the index never saw."""
    base(path)
    _sql(
        path,
        # rows deleted behind the index's back
        "DROP TRIGGER memory_raw_messages_ad",
        "DELETE FROM memory_raw_messages WHERE id % 3 = 0",
        # rows the index never saw
        "DROP TRIGGER memory_raw_messages_ai",
        "INSERT INTO memory_raw_messages (session_id, role, content, timestamp) "
        "VALUES ('s-1', 'user', 'unindexed deploy message', 1781524800000)",
        # content changed without the index (there is no UPDATE trigger in the reference either)
        "UPDATE memory_raw_messages SET content = 'rewritten text' WHERE id % 3 = 1",
        "DROP TRIGGER memory_notes_au",
        "UPDATE memory_notes SET content = 'changed behind the index' WHERE id = 'note-1'",
        "DROP TRIGGER memory_skills_ad",
        "DELETE FROM memory_skills WHERE name = 'skill-2'",
    )


# -- odd rows ------------------------------------------------------------------------------------------------


def invalid_json(path: Path) -> None:
    base(path)
    _sql(
        path,
        "UPDATE memory_facts SET value_json = '{\"likes\": ' WHERE key = 'pref_0'",
        "UPDATE memory_facts SET value_json = '' WHERE key = 'pref_1'",
        "UPDATE memory_facts SET value_json = 'NaN' WHERE key = 'pref_2'",
        "UPDATE memory_actions SET params_json = 'not json' WHERE id = 1",
        "UPDATE memory_actions SET params_json = '[1, 2' WHERE id = 2",
        "UPDATE memory_skills SET trigger_keywords = '{\"a\":' WHERE name = 'skill-0'",
        "UPDATE memory_skills SET trigger_keywords = '\"deploy\"' WHERE name = 'skill-2'",
        "UPDATE memory_skills SET verification = '{bad' WHERE name = 'skill-1'",
        "UPDATE memory_skills SET tool_policy = '{\"x\": 1}' WHERE name = 'skill-1'",
        "UPDATE memory_skills SET revision_history = 'not json' WHERE name = 'skill-1'",
        "UPDATE memory_skills SET revision_history = '[{\"at\": \"yesterday\"}, 5, null]' WHERE name = 'skill-3'",
        "UPDATE memory_schedules SET payload_json = '[[' ",
    )


def bad_confidence(path: Path) -> None:
    """Confidence NaN (as SQLite stores it: text), negative, above 1, text; importance NaN."""
    base(path)
    _sql(
        path,
        "UPDATE memory_facts SET confidence = 'NaN' WHERE key = 'pref_0'",
        "UPDATE memory_facts SET confidence = -0.5 WHERE key = 'pref_1'",
        "UPDATE memory_facts SET confidence = 1.5 WHERE key = 'pref_2'",
        "UPDATE memory_facts SET confidence = 'high' WHERE key = 'pref_3'",
        "UPDATE memory_facts SET confidence = 1e308 * 10 WHERE key = 'pref_4'",
        "UPDATE memory_facts SET decay_tau_days = 'NaN' WHERE key = 'deadline'",
        "UPDATE memory_notes SET importance = 'NaN' WHERE id = 'note-0'",
        "UPDATE memory_notes SET importance = -3 WHERE id = 'note-1'",
    )


def unknown_enums(path: Path) -> None:
    base(path)
    _sql(
        path,
        "UPDATE memory_skills SET maturity = 'legendary' WHERE name = 'skill-0'",
        "UPDATE memory_skills SET maturity = '' WHERE name = 'skill-1'",
        "UPDATE memory_skills SET kind = 'neutral' WHERE name = 'skill-2'",
        "UPDATE memory_raw_messages SET role = 'robot' WHERE id = 1",
        "UPDATE memory_raw_messages SET role = '' WHERE id = 2",
        "UPDATE memory_facts SET fact_kind = 'weird' WHERE key = 'pref_0'",
        "UPDATE memory_schedules SET action_type = 'dance'",
    )


def future_timestamps(path: Path) -> None:
    base(path)
    _sql(
        path,
        f"UPDATE memory_raw_messages SET timestamp = {YEAR_2100} WHERE id = 1",
        f"UPDATE memory_raw_messages SET timestamp = {JS_DATE_MAX} WHERE id = 2",
        f"UPDATE memory_raw_messages SET timestamp = {BEYOND_JS} WHERE id = 3",
        f"UPDATE memory_raw_sessions SET started_at = {BEYOND_JS}, ended_at = {BEYOND_JS} WHERE id = 's-2'",
        f"UPDATE memory_actions SET timestamp = {BEYOND_JS} WHERE id = 1",
        f"UPDATE memory_notes SET created_at = {JS_DATE_MAX} WHERE id = 'note-0'",
        f"UPDATE memory_facts SET created_at = {YEAR_2100}, last_accessed_at = {BEYOND_JS} WHERE key = 'pref_0'",
        f"UPDATE memory_facts SET valid_until = {BEYOND_JS}, occurred_at = {JS_DATE_MAX} WHERE key = 'deadline'",
        f"UPDATE memory_skills SET created_at = {BEYOND_JS}, last_used_at = {JS_DATE_MAX} WHERE name = 'skill-0'",
        f"UPDATE memory_calendar SET starts_at = {BEYOND_JS}, ends_at = {BEYOND_JS}",
        f"UPDATE memory_schedules SET next_run_at = {JS_DATE_MAX}",
    )


def huge_message(path: Path) -> None:
    """One 10 MB message (and a 10 MB note) among normal ones."""
    base(path)
    conn = sqlite3.connect(str(path), isolation_level=None)
    try:
        text = ("deploy the 数据库 " * (TEN_MB // 16 + 1))[:TEN_MB]
        conn.execute(
            "INSERT INTO memory_raw_messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)",
            ("s-1", "assistant", text, NOW - 1000),
        )
        conn.execute("UPDATE memory_notes SET content = ? WHERE id = 'note-2'", (text,))
    finally:
        conn.close()


def wrong_types(path: Path) -> None:
    """Text where the reference writes integers."""
    base(path)
    _sql(
        path,
        "UPDATE memory_raw_messages SET timestamp = 'yesterday' WHERE id = 4",
        "UPDATE memory_facts SET created_at = 'soon', valid_from = 'x' WHERE key = 'pref_3'",
        "UPDATE memory_skills SET use_count = 'many', success_count = 2.5 WHERE name = 'skill-3'",
        "UPDATE memory_actions SET success = 'maybe' WHERE id = 3",
    )


def wal_pending(path: Path) -> None:
    """A healthy database whose last commits are still in its -wal (the agent is running)."""
    base(path)


# -- damaged values in every layer (issue: one bad row breaks one row) ------------------------------------------
#
# Each builder below damages one or a few rows of every layer of base() in one way and returns the rows it
# damaged as ``{layer: {id, ...}}`` (message and action ids, note ids, fact keys, skill names, the calendar
# event and schedule ids), so that a test can check that each is reported and that its neighbours are not.

DEEP = "[" * 100_000 + "]" * 100_000
Damaged = dict[str, set]


def _ids(path: Path) -> dict[str, object]:
    conn = sqlite3.connect(str(path))
    try:
        return {
            "event": conn.execute("SELECT id FROM memory_calendar").fetchone()[0],
            "schedule": conn.execute("SELECT id FROM memory_schedules").fetchone()[0],
        }
    finally:
        conn.close()


def _damage(path: Path, statements: list[str], damaged: Damaged) -> Damaged:
    base(path)
    ids = _ids(path)
    _sql(path, *[st.format(**ids) for st in statements])
    out: Damaged = {}
    for layer, keys in damaged.items():
        out[layer] = {ids.get(k, k) if isinstance(k, str) else k for k in keys}
    return out


def not_utf8(path: Path) -> Damaged:
    """Bytes that are not UTF-8 (a stray byte, an encoded surrogate) in a text column of every layer."""
    return _damage(
        path,
        [
            "UPDATE memory_raw_messages SET content = CAST(X'6869FF20EDA080' AS TEXT) WHERE id = 3",
            "UPDATE memory_raw_messages SET role = CAST(X'75FF' AS TEXT) WHERE id = 5",
            "UPDATE memory_notes SET content = CAST(X'6E6F7465FF' AS TEXT) WHERE id = 'note-1'",
            "UPDATE memory_facts SET value_json = CAST(X'22FF22' AS TEXT) WHERE key = 'pref_1'",
            "UPDATE memory_skills SET description = CAST(X'FFFE' AS TEXT) WHERE name = 'skill-1'",
            "UPDATE memory_actions SET result = CAST(X'FF' AS TEXT), tool_name = CAST(X'74FF' AS TEXT) WHERE id = 2",
            "UPDATE memory_calendar SET title = CAST(X'FF' AS TEXT)",
            "UPDATE memory_schedules SET name = CAST(X'77FF' AS TEXT)",
        ],
        {"messages": {3, 5}, "notes": {"note-1"}, "facts": {"pref_1"}, "skills": {"skill-1"},
         "actions": {2}, "calendar": {"event"}, "schedules": {"schedule"}},
    )  # fmt: skip


def _drop_not_null(path: Path) -> None:
    """Edit the schema as another tool might: the core tables without their NOT NULL constraints."""
    conn = sqlite3.connect(str(path), isolation_level=None)
    try:
        conn.execute("PRAGMA writable_schema=ON")
        tables = [
            "memory_raw_messages", "memory_raw_sessions", "memory_notes", "memory_facts", "memory_skills",
            "memory_actions", "memory_calendar", "memory_schedules",
        ]  # fmt: skip
        for name, sql in conn.execute(
            f"SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name IN ({','.join('?' * len(tables))})",
            tables,
        ).fetchall():
            conn.execute(
                "UPDATE sqlite_master SET sql = ? WHERE name = ?", (sql.replace("NOT NULL", ""), name)
            )
        conn.execute("PRAGMA writable_schema=OFF")
    finally:
        conn.close()


def nulls(path: Path) -> Damaged:
    """NULL in columns the schema declares NOT NULL (a schema edited by another tool)."""
    base(path)
    _drop_not_null(path)
    ids = _ids(path)
    _sql(
        path,
        "UPDATE memory_raw_messages SET content = NULL, timestamp = NULL WHERE id = 3",
        "UPDATE memory_raw_messages SET role = NULL WHERE id = 5",
        "UPDATE memory_notes SET content = NULL, created_at = NULL, importance = NULL WHERE id = 'note-1'",
        "UPDATE memory_facts SET value_json = NULL, confidence = NULL WHERE key = 'pref_1'",
        "UPDATE memory_facts SET namespace = NULL WHERE key = 'pref_2'",
        "UPDATE memory_skills SET description = NULL, trigger_keywords = NULL, use_count = NULL "
        "WHERE name = 'skill-1'",
        "UPDATE memory_skills SET maturity = NULL, kind = NULL WHERE name = 'skill-2'",
        "UPDATE memory_actions SET tool_name = NULL, params_json = NULL, success = NULL WHERE id = 2",
        "UPDATE memory_calendar SET title = NULL, timezone = NULL, starts_at = NULL",
        "UPDATE memory_schedules SET payload_json = NULL, action_type = NULL",
    )
    return {"messages": {3, 5}, "notes": {"note-1"}, "facts": {"pref_1", "pref_2"},
            "skills": {"skill-1", "skill-2"}, "actions": {2}, "calendar": {ids["event"]},
            "schedules": {ids["schedule"]}}  # fmt: skip


def deep_json(path: Path) -> Damaged:
    """JSON nested 100,000 levels deep in every JSON column."""
    return _damage(
        path,
        [
            f"UPDATE memory_facts SET value_json = '{DEEP}' WHERE key = 'pref_1'",
            f"UPDATE memory_skills SET trigger_keywords = '{DEEP}' WHERE name = 'skill-1'",
            f"UPDATE memory_skills SET verification = '{DEEP}', tool_policy = '{DEEP}', "
            f"revision_history = '{DEEP}' WHERE name = 'skill-0'",
            f"UPDATE memory_actions SET params_json = '{DEEP}' WHERE id = 2",
            f"UPDATE memory_schedules SET payload_json = '{DEEP}'",
        ],
        {"facts": {"pref_1"}, "skills": {"skill-0", "skill-1"}, "actions": {2}, "schedules": {"schedule"}},
    )


def non_finite(path: Path) -> Damaged:
    """Numbers out of double range (1e999999) and NaN / Infinity, in JSON and in number columns."""
    return _damage(
        path,
        [
            "UPDATE memory_facts SET value_json = '1e999999' WHERE key = 'pref_1'",
            "UPDATE memory_facts SET value_json = 'NaN' WHERE key = 'pref_2'",
            "UPDATE memory_facts SET value_json = '[Infinity, -Infinity]' WHERE key = 'pref_3'",
            "UPDATE memory_facts SET confidence = 1e999999 WHERE key = 'pref_0'",
            "UPDATE memory_facts SET decay_tau_days = -1e999999 WHERE key = 'pref_4'",
            "UPDATE memory_notes SET importance = 1e999999 WHERE id = 'note-1'",
            "UPDATE memory_actions SET params_json = '{{\"a\": NaN}}' WHERE id = 2",
            "UPDATE memory_skills SET trigger_keywords = '[1e999999]' WHERE name = 'skill-1'",
            "UPDATE memory_skills SET revision_history = '[{{\"at\": 1e999999}}]' WHERE name = 'skill-1'",
            "UPDATE memory_schedules SET payload_json = '{{\"n\": Infinity}}'",
        ],
        {"facts": {"pref_0", "pref_1", "pref_2", "pref_3", "pref_4"}, "notes": {"note-1"}, "actions": {2},
         "skills": {"skill-1"}, "schedules": {"schedule"}},
    )  # fmt: skip


def times_and_numbers(path: Path) -> Damaged:
    """Text, blobs, 1e20, -1e18 and fractions in time and number columns of every layer."""
    return _damage(
        path,
        [
            "UPDATE memory_raw_messages SET timestamp = 'yesterday' WHERE id = 3",
            "UPDATE memory_raw_messages SET timestamp = X'0102' WHERE id = 4",
            "UPDATE memory_raw_messages SET timestamp = 1e20 WHERE id = 5",
            "UPDATE memory_raw_messages SET timestamp = -1e18 WHERE id = 6",
            "UPDATE memory_raw_messages SET timestamp = timestamp + 0.5 WHERE id = 7",
            "UPDATE memory_notes SET created_at = X'0102', importance = X'01' WHERE id = 'note-1'",
            "UPDATE memory_notes SET created_at = -1e18 WHERE id = 'note-2'",
            "UPDATE memory_facts SET created_at = 1e20, last_accessed_at = 'yesterday' WHERE key = 'pref_1'",
            "UPDATE memory_facts SET created_at = -1e18, valid_until = X'01' WHERE key = 'pref_2'",
            "UPDATE memory_facts SET confidence = X'0102', decay_tau_days = 'soon' WHERE key = 'pref_3'",
            "UPDATE memory_skills SET created_at = X'0102', use_count = 1e20, last_used_at = -1e18 "
            "WHERE name = 'skill-1'",
            "UPDATE memory_skills SET success_count = X'01', failure_count = -1e18 WHERE name = 'skill-2'",
            "UPDATE memory_actions SET timestamp = 1e20, success = X'01' WHERE id = 2",
            "UPDATE memory_actions SET timestamp = 'soon' WHERE id = 3",
            "UPDATE memory_calendar SET starts_at = -1e18, ends_at = 'yesterday'",
            "UPDATE memory_schedules SET next_run_at = 1e20, enabled = X'01'",
            "UPDATE memory_raw_sessions SET started_at = 'yesterday' WHERE id = 's-1'",
        ],
        {"messages": {3, 4, 5, 6}, "notes": {"note-1", "note-2"}, "facts": {"pref_1", "pref_2", "pref_3"},
         "skills": {"skill-1", "skill-2"}, "actions": {2, 3}, "calendar": {"event"}, "schedules": {"schedule"}},
    )  # fmt: skip


INT64_MAX = 2**63 - 1


def beyond_any_date(path: Path) -> Damaged:
    """Times no date can hold (1e20, 2^63-1, -2^63) in every layer, and an action linked to a skill whose
    time is text (a skill's evidence compares the times of its actions)."""
    return _damage(
        path,
        [
            "UPDATE memory_raw_messages SET timestamp = 1e20 WHERE id = 3",
            f"UPDATE memory_raw_messages SET timestamp = {INT64_MAX} WHERE id = 4",
            f"UPDATE memory_raw_messages SET timestamp = {-INT64_MAX - 1} WHERE id = 5",
            f"UPDATE memory_actions SET timestamp = {INT64_MAX} WHERE id = 2",
            "UPDATE memory_actions SET timestamp = 'yesterday', linked_skill = 'skill-1' WHERE id = 3",
            "UPDATE memory_actions SET linked_skill = 'skill-1' WHERE id IN (4, 5)",
            "UPDATE memory_skills SET revision_history = '[{{\"at\": 1781524700000, \"reason\": \"fix\"}}]' "
            "WHERE name = 'skill-1'",
            f"UPDATE memory_notes SET created_at = {INT64_MAX} WHERE id = 'note-1'",
            f"UPDATE memory_facts SET created_at = {INT64_MAX} WHERE key = 'pref_1'",
            f"UPDATE memory_skills SET last_used_at = {INT64_MAX} WHERE name = 'skill-2'",
            f"UPDATE memory_calendar SET starts_at = {INT64_MAX}",
            f"UPDATE memory_schedules SET next_run_at = {INT64_MAX}",
        ],
        {"messages": {3, 4, 5}, "actions": {2, 3}, "notes": {"note-1"}, "facts": {"pref_1"},
         "skills": {"skill-2"}, "calendar": {"event"}, "schedules": {"schedule"}},
    )  # fmt: skip


def blobs_in_text(path: Path) -> Damaged:
    """BLOBs where text belongs, in every layer."""
    return _damage(
        path,
        [
            "UPDATE memory_raw_messages SET content = X'68690A' WHERE id = 3",
            "UPDATE memory_raw_messages SET role = X'75736572' WHERE id = 5",
            "UPDATE memory_notes SET content = X'FF00' WHERE id = 'note-1'",
            "UPDATE memory_facts SET value_json = X'2231' WHERE key = 'pref_1'",
            "UPDATE memory_skills SET description = X'00', trigger_keywords = X'5B5D' WHERE name = 'skill-1'",
            "UPDATE memory_actions SET params_json = X'7B7D', result = X'FF' WHERE id = 2",
            "UPDATE memory_calendar SET title = X'6869'",
            "UPDATE memory_schedules SET payload_json = X'7B7D'",
        ],
        {"messages": {3, 5}, "notes": {"note-1"}, "facts": {"pref_1"}, "skills": {"skill-1"}, "actions": {2},
         "calendar": {"event"}, "schedules": {"schedule"}},
    )  # fmt: skip


def invalid_json_everywhere(path: Path) -> Damaged:
    """Invalid JSON in params, trigger keywords, recipes, revision history and payloads."""
    return _damage(
        path,
        [
            "UPDATE memory_actions SET params_json = 'not json' WHERE id = 2",
            "UPDATE memory_skills SET trigger_keywords = '{{\"a\":' WHERE name = 'skill-0'",
            "UPDATE memory_skills SET verification = '{{bad', tool_policy = '[1,' WHERE name = 'skill-1'",
            "UPDATE memory_skills SET revision_history = '[{{\"at\": \"yesterday\"}}, 5]' WHERE name = 'skill-2'",
            "UPDATE memory_skills SET revision_history = 'nope' WHERE name = 'skill-3'",
            "UPDATE memory_schedules SET payload_json = 'nope'",
            "UPDATE memory_facts SET value_json = '{{\"likes\": ' WHERE key = 'pref_1'",
        ],
        {"actions": {2}, "skills": {"skill-0", "skill-1", "skill-2", "skill-3"}, "schedules": {"schedule"},
         "facts": {"pref_1"}},
    )  # fmt: skip


DAMAGED_ROWS: dict[str, Callable[[Path], Damaged]] = {
    "not-utf8": not_utf8,
    "null-in-not-null": nulls,
    "json-100000-deep": deep_json,
    "non-finite-numbers": non_finite,
    "text-and-blobs-in-times-and-numbers": times_and_numbers,
    "blobs-in-text": blobs_in_text,
    "invalid-json-everywhere": invalid_json_everywhere,
    "times-beyond-any-date": beyond_any_date,
}


Builder = Callable[[Path], None]
