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

Tables this module does not know (such as this project's own audit table, or tables of a newer
reference) are ignored by the inspection, as the reference ignores them.

Schema versions 31 to 50 are *known* (:func:`version_status`): the newer reference changed only other
tables and the additive columns, so a file at any of these versions can be curated. Nothing here ever
re-stamps a version.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from pydantic import BaseModel, Field

from core import MAX_KNOWN_SCHEMA_VERSION, MIN_KNOWN_SCHEMA_VERSION
from core.engine import sqlite3
from core.jsutil import js_string_to_number

if TYPE_CHECKING:
    from core.engine import Connection

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

# --------------------------------------------------------------------------------------------------
# DDL. One statement per string; executed in this order by create_schema().
# --------------------------------------------------------------------------------------------------

TABLE_DDL: dict[str, str] = {
    # ── Layer 0: raw timeline ──
    "memory_raw_sessions": """
CREATE TABLE IF NOT EXISTS memory_raw_sessions (
  id         TEXT PRIMARY KEY,
  started_at INTEGER NOT NULL,
  ended_at   INTEGER
)""",
    "memory_raw_messages": """
CREATE TABLE IF NOT EXISTS memory_raw_messages (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id TEXT NOT NULL REFERENCES memory_raw_sessions(id),
  role       TEXT NOT NULL,
  content    TEXT NOT NULL,
  timestamp  INTEGER NOT NULL,
  origin_session_id TEXT
)""",
    # ── Layer 1: notes ──
    "memory_notes": """
CREATE TABLE IF NOT EXISTS memory_notes (
  id               TEXT PRIMARY KEY,
  content          TEXT NOT NULL,
  importance       REAL NOT NULL DEFAULT 0.5,
  session_id       TEXT,
  created_at       INTEGER NOT NULL,
  last_accessed_at INTEGER,
  forgotten_at     INTEGER,
  root_pursuit_id  TEXT
)""",
    # ── Layer 2: facts ──
    "memory_facts": """
CREATE TABLE IF NOT EXISTS memory_facts (
  id               TEXT PRIMARY KEY,
  namespace        TEXT NOT NULL,
  key              TEXT NOT NULL,
  value_json       TEXT NOT NULL,
  confidence       REAL NOT NULL DEFAULT 1.0,
  superseded_by    TEXT,
  supersedes       TEXT,
  created_at       INTEGER NOT NULL,
  occurred_at      INTEGER,
  valid_from       INTEGER,
  valid_until      INTEGER,
  last_accessed_at INTEGER,
  decay_tau_days   REAL,
  forgotten_at     INTEGER,
  fact_kind        TEXT NOT NULL DEFAULT 'state',
  root_pursuit_id  TEXT
)""",
    # ── Layer 0.5: action log ──
    "memory_actions": """
CREATE TABLE IF NOT EXISTS memory_actions (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id   TEXT NOT NULL,
  trigger      TEXT,
  tool_name    TEXT NOT NULL,
  params_json  TEXT NOT NULL,
  result       TEXT,
  success      INTEGER NOT NULL,
  timestamp    INTEGER NOT NULL,
  linked_skill TEXT
)""",
    # ── Layer 3: skills (v31 columns, then the additive columns) ──
    "memory_skills": """
CREATE TABLE IF NOT EXISTS memory_skills (
  id                   TEXT PRIMARY KEY,
  name                 TEXT NOT NULL UNIQUE,
  description          TEXT NOT NULL,
  trigger_keywords     TEXT NOT NULL,
  action_template      TEXT NOT NULL,
  use_count            INTEGER NOT NULL DEFAULT 0,
  last_used_at         INTEGER,
  created_at           INTEGER NOT NULL,
  success_count        INTEGER NOT NULL DEFAULT 0,
  failure_count        INTEGER NOT NULL DEFAULT 0,
  last_failure_at      INTEGER,
  kind                 TEXT NOT NULL DEFAULT 'positive',
  source               TEXT,
  root_pursuit_id      TEXT,
  maturity             TEXT NOT NULL DEFAULT 'draft',
  last_success_at      INTEGER,
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  when_to_use          TEXT,
  verification         TEXT,
  tool_policy          TEXT,
  revision_history     TEXT,
  offered_count        INTEGER NOT NULL DEFAULT 0,
  from_disk            INTEGER NOT NULL DEFAULT 0,
  matched_count        INTEGER NOT NULL DEFAULT 0
)""",
    # ── Calendar ──
    "memory_calendar": """
CREATE TABLE IF NOT EXISTS memory_calendar (
  id              TEXT PRIMARY KEY,
  title           TEXT NOT NULL,
  starts_at       INTEGER NOT NULL,
  ends_at         INTEGER,
  rrule           TEXT,
  timezone        TEXT NOT NULL,
  related_fact_id TEXT,
  external_ref    TEXT,
  created_at      INTEGER NOT NULL,
  root_pursuit_id TEXT
)""",
    # ── Schedules ──
    "memory_schedules": """
CREATE TABLE IF NOT EXISTS memory_schedules (
  id                   TEXT PRIMARY KEY,
  name                 TEXT NOT NULL,
  cron_expr            TEXT,
  next_run_at          INTEGER NOT NULL,
  last_run_at          INTEGER,
  action_type          TEXT NOT NULL,
  payload_json         TEXT NOT NULL,
  enabled              INTEGER NOT NULL DEFAULT 1,
  created_at           INTEGER NOT NULL,
  created_by           TEXT NOT NULL DEFAULT 'llm_external',
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  paused_until         INTEGER,
  project              TEXT,
  root_pursuit_id      TEXT
)""",
    "schedule_outcomes": """
CREATE TABLE IF NOT EXISTS schedule_outcomes (
  id                 TEXT PRIMARY KEY,
  schedule_id        TEXT NOT NULL,
  fired_at           INTEGER NOT NULL,
  duration_ms        INTEGER NOT NULL,
  outcome            TEXT NOT NULL,
  http_ok_count      INTEGER NOT NULL DEFAULT 0,
  http_fail_count    INTEGER NOT NULL DEFAULT 0,
  http_status_json   TEXT NOT NULL DEFAULT '{}',
  failure_signatures TEXT NOT NULL DEFAULT '[]',
  text_summary       TEXT NOT NULL,
  created_at         INTEGER NOT NULL
)""",
    "memory_access_log": """
CREATE TABLE IF NOT EXISTS memory_access_log (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  target_type     TEXT NOT NULL,
  target_id       TEXT NOT NULL,
  accessed_at     INTEGER NOT NULL,
  context         TEXT,
  root_pursuit_id TEXT
)""",
    # ── Pursuits and drives (v7) ──
    "memory_pursuits": """
CREATE TABLE IF NOT EXISTS memory_pursuits (
  id                        TEXT PRIMARY KEY,
  parent_pursuit_id         TEXT,
  root_pursuit_id           TEXT NOT NULL,
  title                     TEXT NOT NULL,
  intent                    TEXT NOT NULL,
  status                    TEXT NOT NULL DEFAULT 'active',
  is_evergreen              INTEGER NOT NULL DEFAULT 0,
  stake                     TEXT NOT NULL DEFAULT 'medium',
  deadline                  INTEGER,
  origin                    TEXT NOT NULL,
  open_questions_json       TEXT NOT NULL DEFAULT '[]',
  resolution_criteria       TEXT,
  evidence_refs_json        TEXT NOT NULL DEFAULT '[]',
  progress_markers_json     TEXT NOT NULL DEFAULT '[]',
  last_progress_turn        INTEGER NOT NULL DEFAULT 0,
  constitution_values       TEXT,
  constitution_red_lines    TEXT,
  constitution_drive_bounds TEXT,
  constitution_governance   TEXT,
  last_touched_ts           INTEGER,
  stake_weight              INTEGER NOT NULL DEFAULT 5,
  is_active_research        INTEGER NOT NULL DEFAULT 0,
  research_iterations       INTEGER NOT NULL DEFAULT 0,
  created_at                INTEGER NOT NULL,
  updated_at                INTEGER NOT NULL
)""",
    "memory_drive_configs": """
CREATE TABLE IF NOT EXISTS memory_drive_configs (
  id                   TEXT PRIMARY KEY,
  kind                 TEXT NOT NULL,
  status               TEXT NOT NULL DEFAULT 'shadow',
  trigger_expr_json    TEXT NOT NULL,
  action_template_json TEXT NOT NULL,
  params_json          TEXT NOT NULL DEFAULT '{}',
  effectiveness_json   TEXT NOT NULL DEFAULT '{"samples":0,"ewma":0,"lastFired":null}',
  root_pursuit_id      TEXT NOT NULL,
  created_at           INTEGER NOT NULL,
  updated_at           INTEGER NOT NULL
)""",
    "memory_drive_outcomes": """
CREATE TABLE IF NOT EXISTS memory_drive_outcomes (
  id                         TEXT PRIMARY KEY,
  drive_id                   TEXT NOT NULL,
  fired_at                   INTEGER NOT NULL,
  trigger_snapshot_json      TEXT NOT NULL,
  injected_action_json       TEXT NOT NULL,
  subsequent_tool_calls_json TEXT NOT NULL DEFAULT '[]',
  memory_delta_json          TEXT NOT NULL DEFAULT '{}',
  served_pursuit_id          TEXT,
  effectiveness_score        REAL,
  root_pursuit_id            TEXT NOT NULL
)""",
    # ── Meta ──
    "memory_meta": """
CREATE TABLE IF NOT EXISTS memory_meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
)""",
    # ── Tables created by migrations v12-v25 ──
    "routing_rules": """
CREATE TABLE IF NOT EXISTS routing_rules (
  id                    INTEGER PRIMARY KEY AUTOINCREMENT,
  task_signature        TEXT NOT NULL,
  trigger_condition     TEXT NOT NULL,
  prefer_skill          TEXT,
  avoid_skills          TEXT,
  carveout              TEXT NOT NULL,
  evidence              TEXT NOT NULL,
  confidence            TEXT NOT NULL DEFAULT 'provisional',
  success_count         INTEGER NOT NULL DEFAULT 0,
  failure_count         INTEGER NOT NULL DEFAULT 0,
  consecutive_successes INTEGER NOT NULL DEFAULT 0,
  consecutive_failures  INTEGER NOT NULL DEFAULT 0,
  context_keywords      TEXT,
  reflection_id         TEXT,
  created_at            INTEGER NOT NULL,
  updated_at            INTEGER NOT NULL
)""",
    "memory_initiatives": """
CREATE TABLE IF NOT EXISTS memory_initiatives (
  id              TEXT PRIMARY KEY,
  kind            TEXT NOT NULL,
  driver          TEXT NOT NULL,
  target_ref      TEXT NOT NULL,
  rationale       TEXT NOT NULL,
  utility         REAL NOT NULL,
  status          TEXT NOT NULL DEFAULT 'pending',
  budget_estimate INTEGER NOT NULL,
  budget_actual   INTEGER,
  outcome_summary TEXT,
  outcome_refs    TEXT,
  error           TEXT,
  created_at      INTEGER NOT NULL,
  started_at      INTEGER,
  completed_at    INTEGER
)""",
    "autonomous_budget": """
CREATE TABLE IF NOT EXISTS autonomous_budget (
  user_id         TEXT NOT NULL,
  date            TEXT NOT NULL,
  llm_tokens_used INTEGER NOT NULL DEFAULT 0,
  tool_calls_used INTEGER NOT NULL DEFAULT 0,
  initiatives_run INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, date)
)""",
    "push_subscriptions": """
CREATE TABLE IF NOT EXISTS push_subscriptions (
  channel                TEXT NOT NULL,
  peer                   TEXT NOT NULL,
  enabled                INTEGER NOT NULL DEFAULT 1,
  quiet_start_hour       INTEGER,
  quiet_end_hour         INTEGER,
  timezone               TEXT,
  digest_min_interval_ms INTEGER NOT NULL DEFAULT 14400000,
  urgent_min_interval_ms INTEGER NOT NULL DEFAULT 3600000,
  last_digest_at         INTEGER,
  last_urgent_at         INTEGER,
  created_at             INTEGER NOT NULL,
  updated_at             INTEGER NOT NULL,
  PRIMARY KEY (channel, peer)
)""",
    "memory_plans": """
CREATE TABLE IF NOT EXISTS memory_plans (
  id                      TEXT PRIMARY KEY,
  session_id              TEXT NOT NULL,
  task_signature          TEXT,
  steps_json              TEXT NOT NULL DEFAULT '[]',
  status                  TEXT NOT NULL DEFAULT 'draft',
  review_history_json     TEXT NOT NULL DEFAULT '[]',
  guide_ref               TEXT,
  outcome_summary         TEXT,
  created_at              INTEGER NOT NULL,
  updated_at              INTEGER NOT NULL,
  completed_at            INTEGER,
  inner_iter              INTEGER NOT NULL DEFAULT 0,
  outer_iter              INTEGER NOT NULL DEFAULT 0,
  deliverables_json       TEXT NOT NULL DEFAULT '[]',
  deliverable_status_json TEXT,
  is_placeholder          INTEGER NOT NULL DEFAULT 0,
  persisted_to            TEXT
)""",
    "config_rules": """
CREATE TABLE IF NOT EXISTS config_rules (
  id                    INTEGER PRIMARY KEY AUTOINCREMENT,
  scope                 TEXT NOT NULL,
  key                   TEXT,
  value_json            TEXT NOT NULL,
  source                TEXT NOT NULL,
  confidence            TEXT NOT NULL DEFAULT 'provisional',
  evidence              TEXT,
  audit_ref             TEXT,
  success_count         INTEGER NOT NULL DEFAULT 0,
  failure_count         INTEGER NOT NULL DEFAULT 0,
  consecutive_successes INTEGER NOT NULL DEFAULT 0,
  consecutive_failures  INTEGER NOT NULL DEFAULT 0,
  created_at            INTEGER NOT NULL,
  updated_at            INTEGER NOT NULL
)""",
    "reasoning_sessions": """
CREATE TABLE IF NOT EXISTS reasoning_sessions (
  id                 TEXT PRIMARY KEY,
  goal               TEXT NOT NULL,
  assumptions_json   TEXT,
  status             TEXT NOT NULL DEFAULT 'active',
  owner_session_id   TEXT,
  root_node_id       TEXT,
  budget_spent       INTEGER NOT NULL DEFAULT 0,
  no_progress_rounds INTEGER NOT NULL DEFAULT 0,
  auto_advance       INTEGER NOT NULL DEFAULT 0,
  mode               TEXT NOT NULL DEFAULT 'formal',
  created_at         INTEGER NOT NULL,
  updated_at         INTEGER NOT NULL
)""",
    "reasoning_nodes": """
CREATE TABLE IF NOT EXISTS reasoning_nodes (
  id                    TEXT PRIMARY KEY,
  session_id            TEXT NOT NULL,
  parent_id             TEXT,
  claim                 TEXT NOT NULL,
  kind                  TEXT NOT NULL,
  status                TEXT NOT NULL DEFAULT 'open',
  result                TEXT,
  approaches_tried_json TEXT,
  evidence_refs_json    TEXT,
  depth                 INTEGER NOT NULL DEFAULT 0,
  created_at            INTEGER NOT NULL,
  updated_at            INTEGER NOT NULL,
  value                 REAL,
  visits                INTEGER NOT NULL DEFAULT 0,
  technique             TEXT
)""",
}

FTS_DDL: dict[str, str] = {
    "memory_raw_messages_fts": """
CREATE VIRTUAL TABLE IF NOT EXISTS memory_raw_messages_fts USING fts5(
  content,
  role,
  content='memory_raw_messages',
  content_rowid='rowid',
  tokenize='trigram'
)""",
    "memory_notes_fts": """
CREATE VIRTUAL TABLE IF NOT EXISTS memory_notes_fts USING fts5(
  content,
  content='memory_notes',
  content_rowid='rowid',
  tokenize='trigram'
)""",
    "memory_skills_fts": """
CREATE VIRTUAL TABLE IF NOT EXISTS memory_skills_fts USING fts5(
  name,
  description,
  trigger_keywords,
  content='memory_skills',
  content_rowid='rowid',
  tokenize='trigram'
)""",
}

TRIGGER_DDL: dict[str, str] = {
    "memory_raw_messages_ai": """
CREATE TRIGGER IF NOT EXISTS memory_raw_messages_ai AFTER INSERT ON memory_raw_messages BEGIN
  INSERT INTO memory_raw_messages_fts(rowid, content, role)
  VALUES (new.rowid, new.content, new.role);
END""",
    "memory_raw_messages_ad": """
CREATE TRIGGER IF NOT EXISTS memory_raw_messages_ad AFTER DELETE ON memory_raw_messages BEGIN
  INSERT INTO memory_raw_messages_fts(memory_raw_messages_fts, rowid, content, role)
  VALUES ('delete', old.rowid, old.content, old.role);
END""",
    "memory_notes_ai": """
CREATE TRIGGER IF NOT EXISTS memory_notes_ai AFTER INSERT ON memory_notes BEGIN
  INSERT INTO memory_notes_fts(rowid, content) VALUES (new.rowid, new.content);
END""",
    "memory_notes_ad": """
CREATE TRIGGER IF NOT EXISTS memory_notes_ad AFTER DELETE ON memory_notes BEGIN
  INSERT INTO memory_notes_fts(memory_notes_fts, rowid, content) VALUES ('delete', old.rowid, old.content);
END""",
    "memory_notes_au": """
CREATE TRIGGER IF NOT EXISTS memory_notes_au AFTER UPDATE ON memory_notes BEGIN
  INSERT INTO memory_notes_fts(memory_notes_fts, rowid, content) VALUES ('delete', old.rowid, old.content);
  INSERT INTO memory_notes_fts(rowid, content) VALUES (new.rowid, new.content);
END""",
    "memory_skills_ai": """
CREATE TRIGGER IF NOT EXISTS memory_skills_ai AFTER INSERT ON memory_skills BEGIN
  INSERT INTO memory_skills_fts(rowid, name, description, trigger_keywords)
  VALUES (new.rowid, new.name, new.description, new.trigger_keywords);
END""",
    "memory_skills_ad": """
CREATE TRIGGER IF NOT EXISTS memory_skills_ad AFTER DELETE ON memory_skills BEGIN
  INSERT INTO memory_skills_fts(memory_skills_fts, rowid, name, description, trigger_keywords)
  VALUES ('delete', old.rowid, old.name, old.description, old.trigger_keywords);
END""",
    "memory_skills_au": """
CREATE TRIGGER IF NOT EXISTS memory_skills_au AFTER UPDATE ON memory_skills BEGIN
  INSERT INTO memory_skills_fts(memory_skills_fts, rowid, name, description, trigger_keywords)
  VALUES ('delete', old.rowid, old.name, old.description, old.trigger_keywords);
  INSERT INTO memory_skills_fts(rowid, name, description, trigger_keywords)
  VALUES (new.rowid, new.name, new.description, new.trigger_keywords);
END""",
}

# Every v31 index (spec §1.4), by name. The partial indexes that the reference runs after its
# migrations (DDL_V3_DEPENDENT) are ordinary entries here.
INDEX_DDL: dict[str, str] = {
    "idx_raw_messages_session": "CREATE INDEX IF NOT EXISTS idx_raw_messages_session "
    "ON memory_raw_messages(session_id)",
    "idx_raw_messages_timestamp": "CREATE INDEX IF NOT EXISTS idx_raw_messages_timestamp "
    "ON memory_raw_messages(timestamp)",
    "idx_notes_importance": "CREATE INDEX IF NOT EXISTS idx_notes_importance ON memory_notes(importance DESC)",
    "idx_notes_session": "CREATE INDEX IF NOT EXISTS idx_notes_session ON memory_notes(session_id)",
    "idx_notes_active": "CREATE INDEX IF NOT EXISTS idx_notes_active ON memory_notes(importance DESC) "
    "WHERE forgotten_at IS NULL",
    "idx_facts_namespace": "CREATE INDEX IF NOT EXISTS idx_facts_namespace ON memory_facts(namespace)",
    "idx_facts_ns_key": "CREATE INDEX IF NOT EXISTS idx_facts_ns_key ON memory_facts(namespace, key)",
    "idx_facts_active": "CREATE INDEX IF NOT EXISTS idx_facts_active ON memory_facts(namespace, key) "
    "WHERE superseded_by IS NULL AND forgotten_at IS NULL",
    "idx_facts_validity": "CREATE INDEX IF NOT EXISTS idx_facts_validity ON memory_facts(valid_until) "
    "WHERE forgotten_at IS NULL",
    "idx_actions_session": "CREATE INDEX IF NOT EXISTS idx_actions_session ON memory_actions(session_id)",
    "idx_actions_tool": "CREATE INDEX IF NOT EXISTS idx_actions_tool ON memory_actions(tool_name)",
    "idx_actions_timestamp": "CREATE INDEX IF NOT EXISTS idx_actions_timestamp ON memory_actions(timestamp)",
    "idx_actions_skill": "CREATE INDEX IF NOT EXISTS idx_actions_skill ON memory_actions(linked_skill) "
    "WHERE linked_skill IS NOT NULL",
    "idx_skills_use_count": "CREATE INDEX IF NOT EXISTS idx_skills_use_count ON memory_skills(use_count DESC)",
    "idx_skills_name": "CREATE INDEX IF NOT EXISTS idx_skills_name ON memory_skills(name)",
    "idx_calendar_starts": "CREATE INDEX IF NOT EXISTS idx_calendar_starts ON memory_calendar(starts_at)",
    "idx_calendar_external": "CREATE INDEX IF NOT EXISTS idx_calendar_external "
    "ON memory_calendar(external_ref) WHERE external_ref IS NOT NULL",
    "idx_calendar_fact": "CREATE INDEX IF NOT EXISTS idx_calendar_fact "
    "ON memory_calendar(related_fact_id) WHERE related_fact_id IS NOT NULL",
    "idx_schedules_next_run": "CREATE INDEX IF NOT EXISTS idx_schedules_next_run "
    "ON memory_schedules(next_run_at) WHERE enabled = 1",
    "idx_schedule_outcomes_sid_time": "CREATE INDEX IF NOT EXISTS idx_schedule_outcomes_sid_time "
    "ON schedule_outcomes(schedule_id, fired_at DESC)",
    "idx_access_target": "CREATE INDEX IF NOT EXISTS idx_access_target "
    "ON memory_access_log(target_type, target_id)",
    "idx_access_time": "CREATE INDEX IF NOT EXISTS idx_access_time ON memory_access_log(accessed_at)",
    "idx_pursuits_parent": "CREATE INDEX IF NOT EXISTS idx_pursuits_parent "
    "ON memory_pursuits(parent_pursuit_id)",
    "idx_pursuits_root": "CREATE INDEX IF NOT EXISTS idx_pursuits_root ON memory_pursuits(root_pursuit_id)",
    "idx_pursuits_status": "CREATE INDEX IF NOT EXISTS idx_pursuits_status ON memory_pursuits(status)",
    "idx_drive_configs_root": "CREATE INDEX IF NOT EXISTS idx_drive_configs_root "
    "ON memory_drive_configs(root_pursuit_id)",
    "idx_drive_configs_kind": "CREATE INDEX IF NOT EXISTS idx_drive_configs_kind ON memory_drive_configs(kind)",
    "idx_drive_configs_status": "CREATE INDEX IF NOT EXISTS idx_drive_configs_status "
    "ON memory_drive_configs(status)",
    "idx_drive_outcomes_drive": "CREATE INDEX IF NOT EXISTS idx_drive_outcomes_drive "
    "ON memory_drive_outcomes(drive_id)",
    "idx_drive_outcomes_fired": "CREATE INDEX IF NOT EXISTS idx_drive_outcomes_fired "
    "ON memory_drive_outcomes(fired_at)",
    "idx_drive_outcomes_root": "CREATE INDEX IF NOT EXISTS idx_drive_outcomes_root "
    "ON memory_drive_outcomes(root_pursuit_id)",
    "idx_drive_outcomes_pursuit": "CREATE INDEX IF NOT EXISTS idx_drive_outcomes_pursuit "
    "ON memory_drive_outcomes(served_pursuit_id) WHERE served_pursuit_id IS NOT NULL",
    "idx_rr_signature": "CREATE INDEX IF NOT EXISTS idx_rr_signature ON routing_rules(task_signature)",
    "idx_rr_confidence": "CREATE INDEX IF NOT EXISTS idx_rr_confidence ON routing_rules(confidence)",
    "idx_rr_prefer_skill": "CREATE INDEX IF NOT EXISTS idx_rr_prefer_skill ON routing_rules(prefer_skill)",
    "idx_initiatives_status": "CREATE INDEX IF NOT EXISTS idx_initiatives_status "
    "ON memory_initiatives(status, created_at)",
    "idx_initiatives_driver": "CREATE INDEX IF NOT EXISTS idx_initiatives_driver "
    "ON memory_initiatives(driver, completed_at)",
    "idx_initiatives_target_recent": "CREATE INDEX IF NOT EXISTS idx_initiatives_target_recent "
    "ON memory_initiatives(target_ref, completed_at) WHERE status = 'done'",
    "idx_push_sub_enabled": "CREATE INDEX IF NOT EXISTS idx_push_sub_enabled "
    "ON push_subscriptions(enabled, channel) WHERE enabled = 1",
    "idx_plans_session": "CREATE INDEX IF NOT EXISTS idx_plans_session ON memory_plans(session_id, created_at)",
    "idx_plans_signature": "CREATE INDEX IF NOT EXISTS idx_plans_signature "
    "ON memory_plans(task_signature, created_at) WHERE task_signature IS NOT NULL",
    "idx_plans_status": "CREATE INDEX IF NOT EXISTS idx_plans_status ON memory_plans(status, updated_at)",
    "idx_config_rules_scope_active": "CREATE INDEX IF NOT EXISTS idx_config_rules_scope_active "
    "ON config_rules(scope, confidence) WHERE confidence NOT IN ('retired', 'disputed')",
    "idx_config_rules_scope_all": "CREATE INDEX IF NOT EXISTS idx_config_rules_scope_all "
    "ON config_rules(scope, updated_at)",
    "idx_config_rules_decay": "CREATE INDEX IF NOT EXISTS idx_config_rules_decay "
    "ON config_rules(updated_at) WHERE confidence != 'retired'",
    "idx_reasoning_sessions_status": "CREATE INDEX IF NOT EXISTS idx_reasoning_sessions_status "
    "ON reasoning_sessions(status, updated_at)",
    "idx_reasoning_nodes_session": "CREATE INDEX IF NOT EXISTS idx_reasoning_nodes_session "
    "ON reasoning_nodes(session_id, status)",
}

INDEXES: tuple[str, ...] = tuple(INDEX_DDL)

# --------------------------------------------------------------------------------------------------
# This project's own audit table (the reference ignores tables it does not know).
# --------------------------------------------------------------------------------------------------

AUDIT_TABLE = "philont_desktop_audit"
AUDIT_TABLE_DDL = """
CREATE TABLE IF NOT EXISTS philont_desktop_audit (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  at          INTEGER NOT NULL,
  actor       TEXT NOT NULL,
  action      TEXT NOT NULL,
  target_type TEXT NOT NULL,
  target_id   TEXT NOT NULL,
  before_json TEXT,
  after_json  TEXT,
  undone_of   INTEGER,
  note        TEXT
)"""
AUDIT_INDEX_DDL: dict[str, str] = {
    "idx_philont_desktop_audit_target": "CREATE INDEX IF NOT EXISTS idx_philont_desktop_audit_target "
    "ON philont_desktop_audit(target_type, target_id)",
    "idx_philont_desktop_audit_at": "CREATE INDEX IF NOT EXISTS idx_philont_desktop_audit_at "
    "ON philont_desktop_audit(at)",
}


def schema_statements() -> list[str]:
    """Every DDL statement of a new database, in execution order (tables, FTS, triggers, indexes)."""
    return [
        *(sql.strip() for sql in TABLE_DDL.values()),
        *(sql.strip() for sql in FTS_DDL.values()),
        *(sql.strip() for sql in TRIGGER_DDL.values()),
        *INDEX_DDL.values(),
        ORIGIN_INDEX_DDL,
    ]


# --------------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------------


def _now_ms() -> int:
    try:
        from core.jsutil import now_ms  # the project's one clock
    except ImportError:  # pragma: no cover - only while the helper module is absent
        import time

        return time.time_ns() // 1_000_000
    return int(now_ms())


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
    at = _now_ms() if now is None else int(now)
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
            columns[col.table] = set(_table_columns(conn, col.table))
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
        if "origin_session_id" in _table_columns(conn, "memory_raw_messages") and not _exists(
            conn, "index", ORIGIN_INDEX
        ):
            conn.execute(ORIGIN_INDEX_DDL)
            added.append(ORIGIN_INDEX)
    return added


# --------------------------------------------------------------------------------------------------
# Reading (safe on read-only connections)
# --------------------------------------------------------------------------------------------------


VersionStatus = Literal["known", "newer", "older", "invalid", "missing"]


def version_status(version: int | None, raw: str | None) -> VersionStatus:
    """Where a stored ``schema_version`` stands (``version`` as :func:`parse_schema_version` reads it).

    ``known``: 31 to 50 (curation allowed); ``newer``: above 50; ``older``: 1 to 30 (a file this project
    does not migrate); ``invalid``: not a positive decimal integer (``'abc'``, ``'-1'``, ``''``, ``'31.5'``,
    ``'+31'``, ``'3.1e1'``, ``' 31'``: see :func:`parse_schema_version`);
    ``missing``: no ``schema_version`` row (or no ``memory_meta``).
    """
    if version is None:
        return "missing" if raw is None else "invalid"
    if version < 1:
        return "invalid"
    if version < MIN_KNOWN_SCHEMA_VERSION:
        return "older"
    if version > MAX_KNOWN_SCHEMA_VERSION:
        return "newer"
    return "known"


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


def js_number(value: Any) -> float | None:
    """``Number(value)`` as JavaScript computes it for a stored version; None where JS gives NaN."""
    if value is None:
        return 0.0  # Number(null) is 0 (a NULL cannot be stored under the NOT NULL constraint anyway)
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, int | float):
        return None if isinstance(value, float) and math.isnan(value) else float(value)
    if not isinstance(value, str):
        return None
    number = js_string_to_number(value)
    return None if isinstance(number, float) and math.isnan(number) else float(number)


_DECIMAL = re.compile(r"[0-9]+")


def parse_schema_version(value: Any) -> int | None:
    """The stored version as an int when it is a decimal integer, else None.

    A decimal integer is text of ASCII digits only (``'31'``, ``'031'``; no sign, no surrounding
    space, no fraction or exponent) or an SQLite INTEGER. ``'+31'``, ``' 31 '``, ``'31.0'``, ``'3.1e1'``,
    ``'0x1F'``, ``'31.5'``, ``''`` and a REAL give None: the file is shown read-only with the value as
    stored (``invalid``), although the agent's ``Number(value)`` reads some of them as 31. Any number of
    digits is read exactly (a 26-digit version is that number, not a rounded float).
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and _DECIMAL.fullmatch(value):
        return int(value)
    return None


def _exists(conn: Connection, kind: str, name: str) -> bool:
    row = conn.execute("SELECT 1 FROM sqlite_master WHERE type = ? AND name = ?", (kind, name)).fetchone()
    return row is not None


def _table_columns(conn: Connection, table: str) -> list[str]:
    """Column names of ``table`` in physical order; empty when the table does not exist."""
    return [row[1] for row in conn.execute(f'PRAGMA table_info("{table}")').fetchall()]


@cache
def expected_columns() -> dict[str, tuple[str, ...]]:
    """Column names (physical order) of every table of a database created here, additive included."""
    scratch = sqlite3.connect(":memory:")
    try:
        for sql in TABLE_DDL.values():
            scratch.execute(sql.strip())
        return {table: tuple(_table_columns(scratch, table)) for table in TABLE_DDL}
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
        live[table] = _table_columns(conn, table)
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


__all__ = [
    "ADDITIVE_COLUMNS",
    "AUDIT_TABLE",
    "AUDIT_TABLE_DDL",
    "BOOTSTRAP_ROOT_PURSUIT_ID",
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
