"""``upcoming``: events and scheduled tasks of the next days, each repetition in words."""

from __future__ import annotations

import argparse
from typing import Any

from core.cli.args import finite_float
from core.cli.command import Command, Ctx
from core.cli.output import iso

_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _repeat_words(r: Any) -> str:
    """A :class:`core.repeats.Repeat` in English words: ``every day, 200 times``, ``weekly on Monday until
    2027-03-01``, ``every 6 hours``, ``once``."""
    if r.code == "once":
        return "once"
    if r.code == "unparsed":
        return f"once (rule not understood: {r.text})"
    unit = r.unit or "day"
    if unit == "week" and r.weekday is not None:
        day = _WEEKDAYS[r.weekday - 1]
        text = f"weekly on {day}" if r.n == 1 else f"every {r.n} weeks on {day}"
    else:
        text = f"every {unit}" if r.n == 1 else f"every {r.n} {unit}s"
    if r.count is not None:
        text += f", {r.count} time{'s' if r.count != 1 else ''}"
    if r.until is not None:
        text += f" until {iso(r.until)[:10] if r.until_date_only else iso(r.until)}"
    return text


def _upcoming_line(i: Any) -> str:
    """An item of ``upcoming`` for people: the list_upcoming line with the repetition in words."""
    from core.repeats import event_repeat, task_repeat, zone_of

    if i.kind == "event":
        start = i.base_starts_at if i.base_starts_at is not None else i.at
        words = _repeat_words(event_repeat(i.rrule, start, zone_of(i.timezone)))
        return f"- [event] {i.title} @ {iso(i.at)} ({i.timezone}, {words})"
    overdue = ", overdue" if i.overdue else ""
    return f"- [task] {i.title} @ {iso(i.at)} ({i.action_type}, {_repeat_words(task_repeat(i.cron_expr))}{overdue})"


def configure_upcoming(p: argparse.ArgumentParser) -> None:
    p.add_argument("--days", type=finite_float, default=None, help="the window in days (1 to 90; default 7)")
    p.add_argument(
        "--agent",
        action="store_true",
        help="print exactly what list_upcoming gives the agent (rules as stored)",
    )


def run_upcoming(ctx: Ctx) -> int:
    from core.shapes import upcoming_json
    from core.upcoming import upcoming

    with ctx.open() as db:
        result = upcoming(db, ctx.args.days, now=ctx.now)
    if ctx.out.as_json:
        items = [upcoming_json(i) for i in result.items]
        ctx.out.json({"now": result.now, "window_days": result.days, "items": items})
    elif ctx.args.agent or not result.items:
        ctx.out.text(result.text())
    else:
        ctx.out.text("\n".join(_upcoming_line(i) for i in result.items))
    return 0


COMMANDS = (
    Command(
        "upcoming",
        "events and scheduled tasks of the next days, repetitions in words",
        run_upcoming,
        configure_upcoming,
    ),
)
