"""The Audit tab's words for stored fields and values, in the interface's language.

An audit entry keeps rows as stored (``decay_tau_days: null → -1``, ``created_at: 1788829200000``).
:func:`label` names a column as people know it (:func:`philont_desktop.field_names.field_label`,
``τ (days)``), :func:`value` shows a value in human form: τ as "namespace default", "pinned" or a number
of days, times as local dates, confidences and importance as percentages, JSON values as the value they
hold, nothing as ``∅``. :func:`raw_lines` keeps the stored names and values for a tooltip.
"""

from __future__ import annotations

import math
from typing import Any

from core.readable import readable_value
from philont_desktop import humanize
from philont_desktop.audit.human import VALUE_LIMIT, changed_fields
from philont_desktop.field_names import field_label
from philont_desktop.qt import QCoreApplication

_TIMES = frozenset({"timestamp", "valid_from", "valid_until", "at"})
_FRACTIONS = frozenset({"confidence", "importance"})
_FLAGS = frozenset({"pinned", "enabled", "success", "from_disk"})


def _tr(text: str) -> str:
    return QCoreApplication.translate("AuditWords", text)


def label(column: str) -> str:
    """The field's name in words (``decay_tau_days`` → ``τ (days)``, translated)."""
    return field_label(column)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _tau(value: Any) -> str:
    if value is None:
        return _tr("namespace default")
    if _number(value) and value < 0:
        return _tr("pinned (never decays)")
    return humanize.days(value) if _number(value) else _one_line(value)


def _one_line(value: Any) -> str:
    if isinstance(value, str):
        text = value
    elif isinstance(value, dict | list):
        text = readable_value(value).text
    else:
        text = humanize.exact_number(value) if _number(value) else str(value)
    text = " ".join(text.split())
    return text if len(text) <= VALUE_LIMIT else text[: VALUE_LIMIT - 1] + "…"


def value(column: str, stored: Any) -> str:
    """A stored value of ``column`` in human form (a JSON column's value already parsed)."""
    if column == "decay_tau_days":
        return _tau(stored)
    if stored is None:
        return "∅"
    if (column.endswith("_at") or column in _TIMES) and _number(stored) and stored == int(stored):
        return humanize.abs_time(int(stored), seconds=True)
    if column in _FRACTIONS and _number(stored) and 0 <= stored <= 1:
        return humanize.score_text(stored) if stored else "0 %"
    if column in _FLAGS and stored in (0, 1, True, False):
        return _tr("yes") if stored else _tr("no")
    if isinstance(stored, float) and stored.is_integer() and abs(stored) < 2**53:
        return str(int(stored))
    return _one_line(stored)


def raw_lines(before: Any, after: Any, limit: int = 40) -> list[str]:
    """The changed fields as stored, one a line (``decay_tau_days: null → -1``), for a tooltip."""
    out = []
    for col, a, b in changed_fields(before, after)[:limit]:
        out.append(f"{col}: {_stored(a)} → {_stored(b)}")
    return out


def _stored(v: Any) -> str:
    if v is None:
        return "null"
    text = v if isinstance(v, str) else repr(v) if isinstance(v, float) else str(v)
    text = " ".join(text.split())
    return text if len(text) <= VALUE_LIMIT else text[: VALUE_LIMIT - 1] + "…"
