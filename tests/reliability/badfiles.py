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


Builder = Callable[[Path], None]
