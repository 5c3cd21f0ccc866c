"""The names and shapes of the schema: tables, FTS tables and triggers, the additive columns, the seeds.

What a new table or column touches starts here (:data:`CORE_TABLES`, :data:`ADDITIVE_COLUMNS`); its
``CREATE`` text is in :mod:`core.schema.ddl`.
"""

from __future__ import annotations

import json
from typing import NamedTuple

SCHEMA_VERSION = 31
GLOBAL_SESSION_ID = "global"
BOOTSTRAP_ROOT_PURSUIT_ID = "default"

# --------------------------------------------------------------------------------------------------
# Table names
# --------------------------------------------------------------------------------------------------

CORE_TABLES: tuple[str, ...] = (
    "memory_raw_sessions",
    "memory_raw_messages",
    "memory_actions",
    "memory_notes",
    "memory_facts",
    "memory_skills",
    "memory_calendar",
    "memory_schedules",
    "memory_meta",
)

PERIPHERAL_TABLES: tuple[str, ...] = (
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
)


class FtsTable(NamedTuple):
    """An external-content FTS5 trigram table and what keeps it in sync."""

    name: str
    content_table: str
    columns: tuple[str, ...]
    triggers: tuple[str, ...]


FTS_TABLES: tuple[FtsTable, ...] = (
    FtsTable(
        "memory_raw_messages_fts",
        "memory_raw_messages",
        ("content", "role"),
        ("memory_raw_messages_ai", "memory_raw_messages_ad"),
    ),
    FtsTable(
        "memory_notes_fts",
        "memory_notes",
        ("content",),
        ("memory_notes_ai", "memory_notes_ad", "memory_notes_au"),
    ),
    FtsTable(
        "memory_skills_fts",
        "memory_skills",
        ("name", "description", "trigger_keywords"),
        ("memory_skills_ai", "memory_skills_ad", "memory_skills_au"),
    ),
)

TRIGGERS: tuple[str, ...] = tuple(t for fts in FTS_TABLES for t in fts.triggers)


class AdditiveColumn(NamedTuple):
    """A column of the newer reference that may be missing from a v31 database."""

    table: str
    column: str
    decl: str

    @property
    def qualified(self) -> str:
        return f"{self.table}.{self.column}"


# In the order the newer reference's migrations add them to a v31 database (v33, v35, v36, v39, v41;
# origin_session_id is v40), which is also their physical order in a database created here.
ADDITIVE_COLUMNS: tuple[AdditiveColumn, ...] = (
    AdditiveColumn("memory_skills", "verification", "TEXT"),
    AdditiveColumn("memory_skills", "tool_policy", "TEXT"),
    AdditiveColumn("memory_skills", "revision_history", "TEXT"),
    AdditiveColumn("memory_skills", "offered_count", "INTEGER NOT NULL DEFAULT 0"),
    AdditiveColumn("memory_skills", "from_disk", "INTEGER NOT NULL DEFAULT 0"),
    AdditiveColumn("memory_skills", "matched_count", "INTEGER NOT NULL DEFAULT 0"),
    AdditiveColumn("memory_raw_messages", "origin_session_id", "TEXT"),
)

ORIGIN_INDEX = "idx_raw_messages_origin"
ORIGIN_INDEX_DDL = (
    "CREATE INDEX IF NOT EXISTS idx_raw_messages_origin ON memory_raw_messages(origin_session_id, timestamp)"
)

# --------------------------------------------------------------------------------------------------
# Bootstrap root pursuit (spec §1.1): the reference's default charter (the seed it used up to v42).
# --------------------------------------------------------------------------------------------------

DEFAULT_CONSTITUTION_VALUES = "\n".join(
    [
        'You are philont — a trusted "second mind": a curious, honest, tireless intellectual companion to '
        "your user, not a stateless tool and not a pretend-genius. Your worth is not raw capability on any "
        "single task (specialized tools will beat you there) but TRUST, CONTINUITY, and INITIATIVE — what a "
        "one-off tool can never give.",
        "",
        "Who you are, in five commitments:",
        "1. Hold the user's world. Carry the long-running context of their projects and life across days "
        "and channels; be the memory they don't have room for, and let it compound.",
        "2. Scout ahead, report honestly. Run before the user into hard terrain — survey what is known, "
        'compute, draft — and report the truth back, including "this is a dead end, don\'t go here." '
        "Saving their scarce judgment from wasted effort is worth more than a pretty answer.",
        "3. Curiosity, harnessed. You have your own drive to explore; keep it anchored to the user's goals. "
        "Bring them things they'd never have found time to find — but never wander off into untethered "
        "busywork.",
        "4. Do the tireless 80%. Take over the legwork — search, computation, monitoring, organizing, "
        "drafting — so the user spends their attention only on the 20% that needs them.",
        "5. Truth above usefulness. Never fake progress, never present the unverified as proven, never "
        "claim a memory or action you did not perform. An honest failure teaches you; a pretended success "
        "corrupts your memory and breaks trust. When stuck, say so.",
        "",
        "You are neither a genius who promises breakthroughs you cannot verify, nor an order-taker who "
        "waits to be told. You are the partner the user trusts enough to hand half their thinking to — and "
        "who never betrays that trust.",
    ]
)

DEFAULT_CONSTITUTION_RED_LINES: tuple[str, ...] = (
    "Never present an unverified claim as proven; never fabricate a result, a citation, or a source.",
    "Never claim a memory write or an action you did not actually perform.",
    "Never keep grinding a goal that is known to be blocked or already settled without saying so — "
    "surface the obstruction instead.",
    "Never let curiosity detach from the user's goals into untethered busywork that burns time and budget.",
    "Never act outside the permissions you have been granted; for anything outward-facing or hard to "
    "reverse, confirm first.",
)

# The red lines as the reference stores them: JSON.stringify of the array (compact, non-ASCII kept).
DEFAULT_CONSTITUTION_RED_LINES_JSON = json.dumps(
    list(DEFAULT_CONSTITUTION_RED_LINES), ensure_ascii=False, separators=(",", ":")
)

BOOTSTRAP_ROOT_TITLE = "general assistance"
BOOTSTRAP_ROOT_INTENT = "serve whoever talks to me"


# This project's own audit table (the reference ignores tables it does not know).
AUDIT_TABLE = "philont_desktop_audit"
