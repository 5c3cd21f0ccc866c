"""Stored columns as people know them: the names and values that messages show instead of the database's.

The core names the columns a conflict or a refusal is about as they are in the database
(``decay_tau_days``, ``superseded_by``, ``memory_schedules``) and gives their values as stored. A sentence
a person reads says "τ (days)", "superseded by" and "tasks", and shows a time as a date:
:func:`field_label`, :func:`fields_text`, :func:`table_label` and :func:`field_value` do that, in the
interface's language. A column this version does not know keeps its own name.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any

from philont_desktop import humanize
from philont_desktop.qt import QT_TRANSLATE_NOOP, QCoreApplication

__all__ = ["field_label", "field_value", "fields_text", "table_label"]


def _t(text: str) -> str:
    return QCoreApplication.translate("FieldNames", text)


# The columns' names for people, in English (translated when shown).
_LABELS: dict[str, str] = {
    # facts
    "value_json": QT_TRANSLATE_NOOP("FieldNames", "value"),
    "value": QT_TRANSLATE_NOOP("FieldNames", "value"),
    "confidence": QT_TRANSLATE_NOOP("FieldNames", "confidence"),
    "decay_tau_days": QT_TRANSLATE_NOOP("FieldNames", "τ (days)"),
    "pinned": QT_TRANSLATE_NOOP("FieldNames", "pinned"),
    "superseded_by": QT_TRANSLATE_NOOP("FieldNames", "superseded by"),
    "supersedes": QT_TRANSLATE_NOOP("FieldNames", "supersedes"),
    "valid_from": QT_TRANSLATE_NOOP("FieldNames", "valid from"),
    "valid_until": QT_TRANSLATE_NOOP("FieldNames", "valid until"),
    "occurred_at": QT_TRANSLATE_NOOP("FieldNames", "occurred at"),
    "forgotten_at": QT_TRANSLATE_NOOP("FieldNames", "forgotten at"),
    "last_accessed_at": QT_TRANSLATE_NOOP("FieldNames", "last accessed at"),
    "created_at": QT_TRANSLATE_NOOP("FieldNames", "created at"),
    "updated_at": QT_TRANSLATE_NOOP("FieldNames", "updated at"),
    "namespace": QT_TRANSLATE_NOOP("FieldNames", "namespace"),
    "key": QT_TRANSLATE_NOOP("FieldNames", "key"),
    "fact_kind": QT_TRANSLATE_NOOP("FieldNames", "kind of fact"),
    "root_pursuit_id": QT_TRANSLATE_NOOP("FieldNames", "pursuit"),
    # notes and messages
    "content": QT_TRANSLATE_NOOP("FieldNames", "text"),
    "importance": QT_TRANSLATE_NOOP("FieldNames", "importance"),
    "session_id": QT_TRANSLATE_NOOP("FieldNames", "session"),
    "origin_session_id": QT_TRANSLATE_NOOP("FieldNames", "conversation"),
    "role": QT_TRANSLATE_NOOP("FieldNames", "role"),
    "timestamp": QT_TRANSLATE_NOOP("FieldNames", "time"),
    # skills
    "name": QT_TRANSLATE_NOOP("FieldNames", "name"),
    "description": QT_TRANSLATE_NOOP("FieldNames", "description"),
    "trigger_keywords": QT_TRANSLATE_NOOP("FieldNames", "trigger keywords"),
    "action_template": QT_TRANSLATE_NOOP("FieldNames", "recipe"),
    "when_to_use": QT_TRANSLATE_NOOP("FieldNames", "when to use"),
    "verification": QT_TRANSLATE_NOOP("FieldNames", "verification"),
    "tool_policy": QT_TRANSLATE_NOOP("FieldNames", "tool policy"),
    "maturity": QT_TRANSLATE_NOOP("FieldNames", "grade"),
    "kind": QT_TRANSLATE_NOOP("FieldNames", "kind"),
    "source": QT_TRANSLATE_NOOP("FieldNames", "source"),
    "revision_history": QT_TRANSLATE_NOOP("FieldNames", "revision history"),
    "use_count": QT_TRANSLATE_NOOP("FieldNames", "uses"),
    "success_count": QT_TRANSLATE_NOOP("FieldNames", "successes"),
    "failure_count": QT_TRANSLATE_NOOP("FieldNames", "failures"),
    "consecutive_failures": QT_TRANSLATE_NOOP("FieldNames", "failures in a row"),
    "offered_count": QT_TRANSLATE_NOOP("FieldNames", "times offered"),
    "matched_count": QT_TRANSLATE_NOOP("FieldNames", "times matched"),
    "last_used_at": QT_TRANSLATE_NOOP("FieldNames", "last used at"),
    "last_success_at": QT_TRANSLATE_NOOP("FieldNames", "last success at"),
    "last_failure_at": QT_TRANSLATE_NOOP("FieldNames", "last failure at"),
    "from_disk": QT_TRANSLATE_NOOP("FieldNames", "from a file"),
    # calendar events and scheduled tasks
    "title": QT_TRANSLATE_NOOP("FieldNames", "title"),
    "starts_at": QT_TRANSLATE_NOOP("FieldNames", "starts at"),
    "ends_at": QT_TRANSLATE_NOOP("FieldNames", "ends at"),
    "rrule": QT_TRANSLATE_NOOP("FieldNames", "repeat rule"),
    "timezone": QT_TRANSLATE_NOOP("FieldNames", "time zone"),
    "related_fact_id": QT_TRANSLATE_NOOP("FieldNames", "related fact"),
    "external_ref": QT_TRANSLATE_NOOP("FieldNames", "external reference"),
    "cron_expr": QT_TRANSLATE_NOOP("FieldNames", "schedule"),
    "next_run_at": QT_TRANSLATE_NOOP("FieldNames", "next run at"),
    "last_run_at": QT_TRANSLATE_NOOP("FieldNames", "last run at"),
    "action_type": QT_TRANSLATE_NOOP("FieldNames", "action"),
    "payload_json": QT_TRANSLATE_NOOP("FieldNames", "payload"),
    "enabled": QT_TRANSLATE_NOOP("FieldNames", "enabled"),
    "created_by": QT_TRANSLATE_NOOP("FieldNames", "created by"),
    "paused_until": QT_TRANSLATE_NOOP("FieldNames", "paused until"),
    "project": QT_TRANSLATE_NOOP("FieldNames", "project"),
    # the action log
    "trigger": QT_TRANSLATE_NOOP("FieldNames", "trigger"),
    "tool_name": QT_TRANSLATE_NOOP("FieldNames", "tool"),
    "params_json": QT_TRANSLATE_NOOP("FieldNames", "parameters"),
    "result": QT_TRANSLATE_NOOP("FieldNames", "result"),
    "success": QT_TRANSLATE_NOOP("FieldNames", "success"),
    "linked_skill": QT_TRANSLATE_NOOP("FieldNames", "linked skill"),
}


_TABLES: dict[str, str] = {
    "memory_facts": QT_TRANSLATE_NOOP("FieldNames", "facts"),
    "memory_notes": QT_TRANSLATE_NOOP("FieldNames", "notes"),
    "memory_skills": QT_TRANSLATE_NOOP("FieldNames", "skills"),
    "memory_calendar": QT_TRANSLATE_NOOP("FieldNames", "calendar events"),
    "memory_schedules": QT_TRANSLATE_NOOP("FieldNames", "scheduled tasks"),
    "memory_raw_messages": QT_TRANSLATE_NOOP("FieldNames", "messages"),
    "memory_raw_sessions": QT_TRANSLATE_NOOP("FieldNames", "sessions"),
    "memory_actions": QT_TRANSLATE_NOOP("FieldNames", "action log"),
}


def field_label(column: Any) -> str:
    """The name a person knows a stored column by (``decay_tau_days`` → ``τ (days)``)."""
    name = str(column)
    label = _LABELS.get(name)
    return name if label is None else _t(label)


def fields_text(columns: Any) -> str:
    """Several columns as :func:`field_label` names them, in a list; a single value as its label."""
    if isinstance(columns, str) or not isinstance(columns, Iterable):
        return field_label(columns)
    return _t(", ").join(field_label(c) for c in columns)


def table_label(table: Any) -> str:
    """What the rows of a table are (``memory_schedules`` → ``scheduled tasks``)."""
    name = str(table)
    label = _TABLES.get(name)
    return name if label is None else _t(label)


_TIMES = frozenset({"valid_from", "valid_until", "timestamp"})
_JSON = frozenset({"value_json", "params_json", "payload_json", "trigger_keywords"})


def field_value(column: Any, value: Any) -> str:
    """A stored value of ``column`` inside a sentence: a time as a local date and time, JSON as the value
    it holds, anything else through :func:`humanize.value_text` (text quoted on one line, ``empty`` for
    NULL, numbers in full)."""
    name = str(column)
    whole = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    if whole and (name.endswith("_at") or name in _TIMES) and value == int(value):
        return humanize.abs_time(int(value), seconds=True)
    if name in _JSON and isinstance(value, str):
        try:
            return humanize.value_text(json.loads(value))
        except (ValueError, RecursionError):
            pass
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        value = int(value)  # 45.0 in a REAL column reads 45, as the core's English (JavaScript's) prints it
    return humanize.value_text(value)
