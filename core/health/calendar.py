"""The doctor's checks of the calendar layer (``memory_schedules``).

* ``health.calendar.task_failing`` (warn): an enabled task, not paused now, with ``task_failures`` or
  more consecutive failures;
* ``health.calendar.task_paused`` (warn): an enabled task the scheduler skips until ``paused_until``
  (set after repeated failures);
* ``health.calendar.oneshot_overdue`` (warn): an enabled one-shot task (no ``cron_expr``) that never
  ran and whose time is more than ``overdue_hours`` past.
"""

from __future__ import annotations

from core.health.context import Context, finding
from core.health.finding import Finding, Fix
from core.jsutil import iso_ms

HOUR = 3_600_000


def _paused(ctx: Context, paused_until: object) -> bool:
    return isinstance(paused_until, int) and paused_until > ctx.now


def check_tasks(ctx: Context) -> list[Finding]:
    out = []
    limit = ctx.options.task_failures
    for t in ctx.schedules:
        if not t.enabled:
            continue
        failures = t.consecutive_failures
        if _paused(ctx, t.paused_until) and "paused_until" not in t.damaged:
            out.append(
                finding(
                    "health.calendar.task_paused",
                    "warn",
                    [t.id],
                    {"paused_until": t.paused_until, "failures": failures},
                    Fix("health.fix.enable_task", {"ids": [t.id]}),
                    name=t.name,
                    until=iso_ms(int(t.paused_until or 0)),
                )
            )
        elif isinstance(failures, int) and failures >= limit:
            out.append(
                finding(
                    "health.calendar.task_failing",
                    "warn",
                    [t.id],
                    {"failures": failures, "threshold": limit},
                    Fix("health.fix.pause_task", {"ids": [t.id]}),
                    name=t.name,
                    failures=failures,
                )
            )
        due = t.next_run_at
        late = ctx.now - due if isinstance(due, int) and "next_run_at" not in t.damaged else 0
        if not t.cron_expr and t.last_run_at is None and late > ctx.options.overdue_hours * HOUR:
            hours = round(late / HOUR, 1)
            out.append(
                finding(
                    "health.calendar.oneshot_overdue",
                    "warn",
                    [t.id],
                    {"next_run_at": due, "overdue_ms": late, "threshold_hours": ctx.options.overdue_hours},
                    None,
                    name=t.name,
                    overdue_hours=hours,
                )
            )
    return out


CHECKS = [check_tasks]
