"""How the Calendar writes what it stores: times (local, UTC, in a task's zone, relative), tooltips of
stored text and rules, paused tasks, a task's message."""

from __future__ import annotations

import json
from typing import Any

from core.damage import unreadable_time
from core.jsutil import iso_ms
from core.models import Schedule
from philont_desktop import humanize as hz
from philont_desktop.qt import QCoreApplication, QDateTime, QTimeZone
from philont_desktop.widgets import plain


def fmt_local(ms: int | None, *, seconds: bool = False) -> str:
    """``2026-06-15 14:00`` in the computer's time zone (empty for ``None``)."""
    return hz.abs_time(ms, seconds=seconds)


def utc_text(ms: Any) -> str:
    """``2026-06-15T12:00:00.000Z``; the unreadable marker for a time column that holds no time or one
    beyond what a date can hold (core.damage)."""
    if unreadable_time(ms):
        return hz.unreadable()
    try:
        return iso_ms(ms)
    except (ValueError, TypeError, OverflowError):
        return hz.unreadable()


def fmt_in_zone(ms: int, zone: str | None) -> str | None:
    """The time in an IANA zone (``2026-06-15 20:00 Asia/Shanghai``), or ``None`` when Qt does not know it
    (or the time is unreadable)."""
    if not zone or hz.abs_time(ms) == hz.unreadable():
        return None
    tz = QTimeZone(zone.encode("utf-8"))
    if not tz.isValid():
        return None
    dt = QDateTime.fromMSecsSinceEpoch(int(ms), tz)
    return f"{dt.toString('yyyy-MM-dd HH:mm')} {zone}"


def fmt_relative(ms: int, now: int) -> str:
    """``in 3 h``, ``2 days ago``, ``just now`` (:func:`philont_desktop.humanize.rel_time`)."""
    return hz.rel_time(ms, now)


def plain_tooltip(text: str | None) -> str | None:
    """A tooltip that shows stored text literally (never read as rich text, controls visible)."""
    return plain.tooltip(text) or None


def rule_tooltip(words: str, rule: str | None) -> str | None:
    """The rule in words (the cell may be cut) and as stored."""
    if not rule:
        return plain_tooltip(words)
    return plain_tooltip(
        words + "\n" + QCoreApplication.translate("CalendarTab", "Stored rule: {0}").format(rule)
    )


def paused_tooltip(until: int | None) -> str:
    return QCoreApplication.translate(
        "CalendarTab",
        "Paused until {0}: the agent's scheduler skips this task until then (it pauses a task after repeated "
        "failures). list_upcoming still lists it.",
    ).format(fmt_local(until))


def paused_tasks(schedules: list[Schedule], now: int) -> dict[str, int]:
    """``{id: paused_until}`` of the enabled tasks paused at ``now``."""
    return {
        s.id: s.paused_until
        for s in schedules
        if s.enabled and s.paused_until is not None and s.paused_until > now
    }


def payload_message(s: Schedule) -> str:
    p = s.payload if isinstance(s.payload, dict) else {}
    for key in ("message", "prompt"):
        v = p.get(key)
        if isinstance(v, str):
            return v
    if s.json_errors:
        return QCoreApplication.translate("CalendarTab", "(payload is not valid JSON)")
    return json.dumps(s.payload, ensure_ascii=False) if s.payload not in (None, {}) else ""
