"""An audit entry in the words people use: the target as they know it, field-level changes.

Qt-free: ``target_label`` names a fact ``user.city``, a skill by its name, a note by an excerpt, a
calendar event or task by its title or name (falling back to ``<type> <id>``); ``field_changes`` lists
the fields whose values differ, each value on one line (``value: 北京 → 上海``); the app passes the
words for fields and values (:mod:`philont_desktop.audit.words`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

EXCERPT = 48
VALUE_LIMIT = 80


def _one_line(value: Any, limit: int = VALUE_LIMIT) -> str:
    if value is None:
        return "∅"
    if isinstance(value, str):
        text = value
    else:
        try:
            text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=str)
        except (TypeError, ValueError, RecursionError):
            text = repr(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _rows(value: Any) -> list[dict[str, Any]]:
    """The row dicts inside a before/after value (the value itself, or dicts one level down)."""
    if isinstance(value, dict):
        inner = [v for v in value.values() if isinstance(v, dict)]
        return [value, *inner]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, dict)][:1]
    return []


def target_label(target_type: str, target_id: Any, before: Any, after: Any) -> str:
    """The target as people know it: ``user.city``, a skill's name, a note's first words."""
    for row in _rows(after) + _rows(before):
        ns, key = row.get("namespace"), row.get("key")
        if isinstance(ns, str) and isinstance(key, str):
            return f"{ns}.{key}"
        for field in ("name", "title"):
            if isinstance(row.get(field), str) and row[field].strip():
                return _one_line(row[field], EXCERPT)
        if isinstance(row.get("content"), str) and row["content"].strip():
            return f"“{_one_line(row['content'], EXCERPT)}”"
    return f"{target_type} {target_id}".strip()


# Bookkeeping a new version of a row changes by itself: listed after the fields a person changed.
BOOKKEEPING = frozenset(
    {"id", "supersedes", "superseded_by", "created_at", "updated_at", "last_accessed_at", "at"}
)


def _shown(field: str, value: Any) -> tuple[str, Any]:
    """``value_json: '"上海"'`` is shown as ``value: 上海`` (a JSON column by its value)."""
    if field.endswith("_json") and isinstance(value, str):
        try:
            return field.removesuffix("_json"), json.loads(value)
        except ValueError:
            return field.removesuffix("_json"), value
    return field, value


def _default_label(column: str) -> str:
    return column.removesuffix("_json")


def _default_value(column: str, value: Any) -> str:
    return _one_line(value)


def changed_fields(before: Any, after: Any) -> list[tuple[str, Any, Any]]:
    """``(column, before, after)`` for each stored field whose value differs (the values as stored):
    the fields a person changes in the row's order, then the bookkeeping ones (ids, times)."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return []
    mine, book = [], []
    for field in [*before, *(k for k in after if k not in before)]:
        old, new = before.get(field), after.get(field)
        if old != new:
            (book if field in BOOKKEEPING else mine).append((str(field), old, new))
    return mine + book


def field_changes(
    before: Any,
    after: Any,
    label: Callable[[str], str] = _default_label,
    value: Callable[[str, Any], str] = _default_value,
) -> list[tuple[str, str, str]]:
    """``(field, before, after)`` for each field whose value differs, as :func:`changed_fields` orders
    them: ``label(column)`` names the field (by default the column, ``value_json`` as ``value``) and
    ``value(column, value)`` shows a value (a JSON column's value parsed; by default on one line)."""
    return [
        (label(col), value(col, _shown(col, old)[1]), value(col, _shown(col, new)[1]))
        for col, old, new in changed_fields(before, after)
    ]


def changes_line(
    before: Any,
    after: Any,
    limit: int = 3,
    label: Callable[[str], str] = _default_label,
    value: Callable[[str, Any], str] = _default_value,
) -> str:
    """The first ``limit`` field changes on one line (``value: 北京 → 上海; confidence: 0.8 → 0.9``),
    the bookkeeping fields only when nothing else changed."""
    changes = changed_fields(before, after)
    mine = [c for c in changes if c[0] not in BOOKKEEPING]
    changes = mine or changes
    parts = [
        f"{label(col)}: {value(col, _shown(col, a)[1])} → {value(col, _shown(col, b)[1])}"
        for col, a, b in changes[:limit]
    ]
    if len(changes) > limit:
        parts.append(f"+{len(changes) - limit}")
    return "; ".join(parts)
