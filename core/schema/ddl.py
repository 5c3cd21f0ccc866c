"""The DDL of a memory database: one statement per string, executed in this order by ``create_schema``.

The text is a compatibility contract (spec Part A §1 and Part B §1.2-1.3): the columns stand in the
physical order a database written by the reference has, the additive columns at the end of their tables.
"""

from __future__ import annotations

from core.schema.layout import ORIGIN_INDEX_DDL

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
