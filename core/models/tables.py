"""The damage of a stored row of a core table, for readers of raw rows (exports): a row whose values
all look sound is not read through its model."""

from __future__ import annotations

import math
from typing import Any

from core.damage import Damage
from core.models.base import RowModel
from core.models.facts import Fact, Note
from core.models.planning import CalendarEvent, Schedule
from core.models.skills import Skill
from core.models.timeline import Action, Message

MODEL_OF_TABLE: dict[str, type[RowModel]] = {
    "memory_raw_messages": Message,
    "memory_actions": Action,
    "memory_notes": Note,
    "memory_facts": Fact,
    "memory_skills": Skill,
    "memory_calendar": CalendarEvent,
    "memory_schedules": Schedule,
}

# What a sound value of each column looks like (``?``: NULL allowed); a row with any other value is read
# through its model to say what is damaged. Tables with JSON columns are always read through the model.
_T, _TN, _MS, _MSN, _R = "text", "text?", "time", "time?", "real"
_SOUND_SHAPES: dict[str, dict[str, str]] = {
    "memory_raw_messages": {"session_id": _T, "role": _T, "content": _T, "timestamp": _MS, "origin_session_id": _TN},
    "memory_notes": {"id": _T, "content": _T, "importance": _R, "session_id": _TN, "created_at": _MS,
                     "last_accessed_at": _MSN, "forgotten_at": _MSN, "root_pursuit_id": _TN},
    "memory_calendar": {"id": _T, "title": _T, "starts_at": _MS, "ends_at": _MSN, "rrule": _TN, "timezone": _T,
                        "related_fact_id": _TN, "external_ref": _TN, "created_at": _MS, "root_pursuit_id": _TN},
}  # fmt: skip
_JS_TIME_MAX = 8_640_000_000_000_000


def _sound(kind: str, v: Any) -> bool:
    t = type(v)
    if kind == "text":
        return t is str
    if kind == "text?":
        return t is str or v is None
    if kind in ("time", "time?"):
        return (t is int and -_JS_TIME_MAX <= v <= _JS_TIME_MAX) or (kind == "time?" and v is None)
    if kind == "real":
        return t is int or (t is float and math.isfinite(v))
    return True


def row_damage(table: str, row: Any) -> dict[str, Damage]:
    """What is damaged in one stored row of a core table (``{}`` when it is read as stored), by the same
    reading as the table's model (:class:`core.damage.RowReader`); ``row`` holds every column."""
    model = MODEL_OF_TABLE.get(table)
    if model is None:
        return {}
    shapes = _SOUND_SHAPES.get(table)
    if shapes is not None:
        keys = set(row.keys())  # (``in`` on an sqlite3.Row looks at its values)
        if all(_sound(kind, row[col]) for col, kind in shapes.items() if col in keys):
            return {}
    return model.from_row(row).damaged  # type: ignore[attr-defined]
