"""What is coming up: calendar occurrences and scheduled tasks with the semantics of ``list_upcoming``.

:func:`upcoming_items` is the structured form of the ``list_upcoming`` tool (spec Part A §7, Part C d),
for the desktop app's Calendar tab and for exports:

* the window is ``max(1, min(90, window_days))`` days (JS ``Number()`` coercion, no rounding; ``None``
  means 7), both ends inclusive: ``[now, now + days × 86 400 000]``;
* events: one-time events starting in the window, plus the occurrences of recurring events inside it
  (``CalendarStore.upcoming``: fixed-step expansion, ``COUNT`` from the start, inclusive ``UNTIL``),
  ordered by occurrence start (ties keep the base start, then storage order);
* tasks: **every enabled** schedule with ``next_run_at <= now + window`` (no lower bound, so overdue
  tasks are listed; ``paused_until`` is ignored), ordered by ``next_run_at``;
* events come first, then tasks, exactly as the tool prints them (:attr:`UpcomingItem.line`).

One deliberate difference: the tool fails as a whole when an enabled schedule has a malformed
``payload_json`` (the reference's ``JSON.parse`` throws); here the task is still listed and
:attr:`UpcomingItem.payload_error` says what is wrong, so that a person can see and fix it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core.calendar import DAY_MS, CalendarStore
from core.jsutil import iso_ms, js_max, js_min, js_number_str, js_to_number, now_ms
from core.schedules import ScheduleStore, parse_interval

if TYPE_CHECKING:
    from core.db import MemoryDB

DEFAULT_WINDOW_DAYS = 7
MIN_WINDOW_DAYS = 1
MAX_WINDOW_DAYS = 90

__all__ = [
    "DEFAULT_WINDOW_DAYS",
    "MAX_WINDOW_DAYS",
    "MIN_WINDOW_DAYS",
    "UpcomingItem",
    "UpcomingResult",
    "clamp_window_days",
    "list_upcoming_text",
    "upcoming",
    "upcoming_items",
]


def clamp_window_days(window_days: Any = None) -> int | float:
    """``list_upcoming``'s window: 7 for ``None``, else ``max(1, min(90, Number(window_days)))``.

    Integral results are ``int``; ``NaN`` (e.g. ``"abc"``) stays ``NaN`` and gives an empty listing.
    """
    raw = DEFAULT_WINDOW_DAYS if window_days is None else js_to_number(window_days)
    days = js_max(MIN_WINDOW_DAYS, js_min(MAX_WINDOW_DAYS, raw))
    if isinstance(days, float) and math.isfinite(days) and days.is_integer():
        return int(days)
    return days


@dataclass(frozen=True)
class UpcomingItem:
    """One line of ``list_upcoming``: an event occurrence or a scheduled task.

    ``at`` is the occurrence start (events) or ``next_run_at`` (tasks), epoch ms. ``overdue`` is true for
    a task whose ``next_run_at`` is before ``now``. ``source_id`` is the ``memory_calendar`` or
    ``memory_schedules`` id. Events carry ``timezone``/``rrule``/``ends_at`` (the occurrence end, when
    the event has an end); tasks carry ``action_type``, ``cron_expr`` and ``interval_ms``.
    """

    kind: str  # "event" | "task"
    title: str
    at: int
    timezone: str | None = None
    rrule: str | None = None
    action_type: str | None = None
    overdue: bool = False
    source_id: str = ""
    ends_at: int | None = None
    base_starts_at: int | None = None
    cron_expr: str | None = None
    interval_ms: int | None = None
    last_run_at: int | None = None
    project: str | None = None
    message: str | None = None
    payload_error: str | None = None

    @property
    def recurring(self) -> bool:
        return bool(self.rrule) if self.kind == "event" else self.interval_ms is not None

    @property
    def line(self) -> str:
        """The line ``list_upcoming`` prints for this item (UTC ISO time, fields verbatim)."""
        if self.kind == "event":
            extra = f", {self.rrule}" if self.rrule else ""
            return f"- [event] {self.title} @ {iso_ms(self.at)} ({self.timezone}{extra})"
        return f"- [task] {self.title} @ {iso_ms(self.at)} ({self.action_type})"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "title": self.title,
            "at": self.at,
            "atIso": iso_ms(self.at),
            "timezone": self.timezone,
            "rrule": self.rrule,
            "actionType": self.action_type,
            "overdue": self.overdue,
            "sourceId": self.source_id,
            "endsAt": self.ends_at,
            "cronExpr": self.cron_expr,
            "project": self.project,
            "message": self.message,
        }


@dataclass(frozen=True)
class UpcomingResult:
    """The listing with its parameters: ``days`` (clamped), ``now`` and the window's end."""

    days: int | float
    now: int
    until: float
    items: list[UpcomingItem] = field(default_factory=list)

    @property
    def events(self) -> list[UpcomingItem]:
        return [i for i in self.items if i.kind == "event"]

    @property
    def tasks(self) -> list[UpcomingItem]:
        return [i for i in self.items if i.kind == "task"]

    @property
    def overdue(self) -> list[UpcomingItem]:
        return [i for i in self.items if i.overdue]

    def text(self) -> str:
        """What ``list_upcoming`` outputs (when no payload is malformed)."""
        if not self.items:
            return f"No events in the next {js_number_str(self.days)} days"
        return "\n".join(i.line for i in self.items)


def _message(payload: Any) -> str | None:
    if not isinstance(payload, dict):
        return None
    for key in ("message", "prompt"):
        v = payload.get(key)
        if isinstance(v, str):
            return v
    return None


def upcoming(db: MemoryDB, window_days: Any = None, now: int | None = None) -> UpcomingResult:
    """The ``list_upcoming`` listing of ``db`` as an :class:`UpcomingResult`."""
    t = now_ms() if now is None else int(now)
    days = clamp_window_days(window_days)
    window = days * DAY_MS
    until = t + window
    items: list[UpcomingItem] = []
    for ev, occ in CalendarStore(db).upcoming(window, t):
        items.append(
            UpcomingItem(
                kind="event",
                title=ev.title,
                at=occ,
                timezone=ev.timezone,
                rrule=ev.rrule,
                source_id=ev.id,
                ends_at=None if ev.ends_at is None else occ + (ev.ends_at - ev.starts_at),
                base_starts_at=ev.starts_at,
            )
        )
    for s in ScheduleStore(db).list_enabled():
        if not s.next_run_at <= until:  # NaN window: nothing (as in the tool)
            continue
        items.append(
            UpcomingItem(
                kind="task",
                title=s.name,
                at=s.next_run_at,
                action_type=s.action_type,
                overdue=s.next_run_at < t,
                source_id=s.id,
                cron_expr=s.cron_expr,
                interval_ms=parse_interval(s.cron_expr),
                last_run_at=s.last_run_at,
                project=s.project,
                message=_message(s.payload),
                payload_error="; ".join(s.json_errors) or None,
            )
        )
    return UpcomingResult(days=days, now=t, until=until, items=items)


def upcoming_items(db: MemoryDB, window_days: Any = None, now: int | None = None) -> list[UpcomingItem]:
    """Events (by occurrence start), then tasks (by next run), as ``list_upcoming`` lists them."""
    return upcoming(db, window_days, now).items


def list_upcoming_text(db: MemoryDB, window_days: Any = None, now: int | None = None) -> str:
    """The text ``list_upcoming`` would output (without its malformed-payload failure)."""
    return upcoming(db, window_days, now).text()
