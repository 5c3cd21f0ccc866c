"""The doctor's checks of the calendar layer (``memory_schedules``).

* ``health.calendar.task_failing`` (warn): an enabled task, not paused now, that failed ``task_failures``
  times or more in a row: its ``consecutive_failures``, or its newest runs in ``schedule_outcomes``
  (``failed``, newest first; the agent's scheduler resets the counter when it pauses a task);
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


OUTCOMES_READ = 50  # the newest runs of a task read for its run of failures


def failed_in_a_row(ctx: Context, task_id: object) -> int:
    """How many of a task's newest runs in ``schedule_outcomes`` failed, counted from the newest."""
    if not ctx.has_table("schedule_outcomes"):
        return 0
    rows = ctx.rows(
        "SELECT outcome FROM schedule_outcomes WHERE schedule_id = ? ORDER BY fired_at DESC LIMIT ?",
        (task_id, OUTCOMES_READ),
    )
    n = 0
    for (outcome,) in rows:
        if outcome != "failed":
            break
        n += 1
    return n


def check_tasks(ctx: Context) -> list[Finding]:
    out = []
    limit = ctx.options.task_failures
    for t in ctx.schedules:
        if not t.enabled:
            continue
        counted = t.consecutive_failures if isinstance(t.consecutive_failures, int) else 0
        in_a_row = failed_in_a_row(ctx, t.id)
        failures = max(counted, in_a_row)
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
        elif failures >= limit:
            measure = {
                "failures": failures,
                "consecutive_failures": counted,
                "failed_outcomes_in_a_row": in_a_row,
                "threshold": limit,
            }
            out.append(
                finding(
                    "health.calendar.task_failing",
                    "warn",
                    [t.id],
                    measure,
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
