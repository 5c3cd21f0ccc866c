"""The schedule tools: ``schedule_reminder`` (with its same-name replacement, same-project routine
dedupe and per-project cap) and ``cancel_schedule``."""

from __future__ import annotations

import math
import os
import re
import unicodedata
from typing import Any, NamedTuple

from core.jsutil import (
    date_parse_string,
    int_if_integral,
    iso_ms,
    js_max,
    js_number_str,
    js_string,
    js_string_to_number,
    js_trim,
    js_truthy,
    utf16_len,
)
from core.models import Schedule
from core.schedules import ScheduleStore
from core.tool_params import CancelScheduleParams, ScheduleReminderParams
from core.tools.result import Ctx, ToolResult, fail, ok


def check_payloads(rows: list[Schedule]) -> None:
    """The reference parses every listed schedule's payload and fails on a malformed one."""
    for s in rows:
        if s.json_errors:
            raise SyntaxError(f"payload_json of schedule '{s.name}' ({s.id}) is not valid JSON")


_PROJECT_RE = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,58}[a-z0-9])?")
_PERIODIC_RE = re.compile("每|每隔|every|each", re.IGNORECASE | re.ASCII)


def schedule_intent_text(payload: Any) -> str:
    """``String(p.prompt ?? p.message ?? '')`` of a schedule payload."""
    p = payload if isinstance(payload, dict) else {}
    v = p.get("prompt")
    if v is None:
        v = p.get("message")
    return "" if v is None else js_string(v)


def _intent_tokens(s: str) -> set[str]:
    out: set[str] = set()
    cur: list[str] = []
    for ch in s.lower() + " ":
        if unicodedata.category(ch)[0] in ("L", "N"):
            cur.append(ch)
            continue
        if cur:
            tok = "".join(cur)
            if utf16_len(tok) >= 2:
                out.add(tok)
            cur = []
    return out


def is_duplicate_routine(new_text: str, existing_text: str, threshold: float = 0.7) -> bool:
    """Jaccard similarity of the two instruction token sets ``>= threshold`` (0 when either is empty)."""
    a, b = _intent_tokens(new_text), _intent_tokens(existing_text)
    if not a or not b:
        return False
    inter = len(a & b)
    return inter / (len(a) + len(b) - inter) >= threshold


def _project_cap() -> int | float:
    raw = os.environ.get("PHILONT_SCHEDULE_PROJECT_CAP")
    n = js_string_to_number(raw) if raw is not None else math.nan
    return js_max(1, n if js_truthy(n) else 3)


class _Timing(NamedTuple):
    project: str | None
    action_type: str
    next_run_at: Any
    cron_expr: str | None


def _reminder_timing(p: ScheduleReminderParams, now: int) -> _Timing | ToolResult:
    """The checked project, action type, first run and recurrence of a reminder, or the refusal."""
    project_clean: str | None = None
    if isinstance(p.project, str) and js_trim(p.project):
        v = js_trim(p.project)
        if not _PROJECT_RE.fullmatch(v):
            return fail(
                "schedule_reminder: project must be kebab-case (lowercase alphanumeric + hyphens, "
                f'2-60 chars, no leading/trailing hyphens), got "{v}"'
            )
        project_clean = v
    if not js_truthy(p.at) and not js_truthy(p.interval_ms):
        return fail("Must provide at (one-time) or interval_ms (recurring)")
    action_type = "autonomous_turn" if p.action_type == "autonomous_turn" else "prompt"
    cron_expr: str | None = None
    if js_truthy(p.at):
        ms = date_parse_string(p.at)
        if ms is None:
            return fail("at is not a valid ISO8601 string")
        next_run_at = ms
    else:
        if not (p.interval_ms > 0):
            return fail("interval_ms must be a positive number")
        next_run_at = int_if_integral(now + p.interval_ms)
        cron_expr = f"interval:{js_number_str(p.interval_ms)}"
    return _Timing(project_clean, action_type, next_run_at, cron_expr)


def _retire_routines(
    store: ScheduleStore, p: ScheduleReminderParams, project: str, disabled: set[str]
) -> tuple[list[str], list[str]]:
    """Disable the project's autonomous routines that repeat the new one's intent, then the oldest
    over the per-project cap; the names of both groups."""
    deduped: list[str] = []
    capped: list[str] = []
    for old in store.list_enabled():
        if (
            old.id not in disabled
            and old.project == project
            and old.action_type == "autonomous_turn"
            and is_duplicate_routine(p.message, schedule_intent_text(old.payload))
        ):
            store.set_enabled(old.id, False)
            deduped.append(old.name)
            disabled.add(old.id)
    live = [
        s
        for s in store.list_enabled()
        if s.id not in disabled
        and s.project == project
        and s.action_type == "autonomous_turn"
        and bool(s.cron_expr)
    ]
    keep = js_max(1, _project_cap()) - 1
    excess = len(live) - keep
    if excess > 0:
        for old in sorted(live, key=lambda s: s.created_at)[: math.trunc(excess)]:
            store.set_enabled(old.id, False)
            capped.append(old.name)
    return deduped, capped


def _reminder_notes(
    p: ScheduleReminderParams, timing: _Timing, now: int, replaced: int, deduped: list[str], capped: list[str]
) -> str:
    """What the output adds after the first run: replacements, and the one-time "every" warning."""
    extra = ""
    if replaced:
        extra += f" (replaced {replaced} old task(s) with the same name)"
    if deduped:
        extra += f" (replaced {len(deduped)} same-project routine(s): {', '.join(deduped)})"
    if capped:
        extra += f" (disabled {len(capped)} oldest routine(s) over the per-project cap: {', '.join(capped)})"
    if (
        not timing.cron_expr
        and js_truthy(p.at)
        and _PERIODIC_RE.search(p.message)
        and timing.next_run_at - now <= 3_600_000
    ):
        extra += (
            ' ⚠ Detected "every/each" in message, but this task is [one-time] and will fire only once. '
            "If user wants recurring reminders, **immediately call this tool again** "
            "using the interval_ms parameter (e.g. every 2 min=120000, every hour=3600000)."
        )
    return extra


def schedule_reminder(ctx: Ctx, p: ScheduleReminderParams) -> ToolResult:
    now = ctx.now
    timing = _reminder_timing(p, now)
    if isinstance(timing, ToolResult):
        return timing
    project, action_type, next_run_at, cron_expr = timing
    store = ScheduleStore(ctx.db)
    with ctx.db.write():
        enabled = store.list_enabled()
        check_payloads(enabled)
        replaced = [s for s in enabled if s.name == p.name]
        for old in replaced:
            store.set_enabled(old.id, False)
        deduped: list[str] = []
        capped: list[str] = []
        if project and action_type == "autonomous_turn" and cron_expr:
            deduped, capped = _retire_routines(store, p, project, {r.id for r in replaced})
        payload = (
            {"prompt": p.message, "replyChannel": "silent"}
            if action_type == "autonomous_turn"
            else {"message": p.message}
        )
        sched = store.create(p.name, next_run_at, action_type, payload, cron_expr, project=project, now=now)
    kind = f"recurring({cron_expr})" if cron_expr else "one-time"
    extra = _reminder_notes(p, timing, now, len(replaced), deduped, capped)
    tag = "🤖 autonomous" if action_type == "autonomous_turn" else "🔔 prompt"
    return ok(
        f"Scheduled task '{p.name}' [{kind}, {tag}], first run @ {iso_ms(next_run_at)}{extra}",
        sched.to_json(),
    )


def cancel_schedule(ctx: Ctx, p: CancelScheduleParams) -> ToolResult:
    if not p.name and not p.id:
        return fail("Must provide name (fuzzy match) or id (exact) — at least one required")
    store = ScheduleStore(ctx.db)
    with ctx.db.write():
        rows = store.list_all()
        check_payloads(rows)
        targets = [s for s in rows if (p.id and s.id == p.id) or (p.name and p.name in s.name)]
        if not targets:
            names = ", ".join(s.name for s in rows if s.enabled) or "none"
            return fail(
                f"No matching task found (name='{p.name or ''}' id='{p.id or ''}'). Currently enabled tasks: {names}"
            )
        for t in targets:
            store.delete(t.id)
    return ok(
        f"Cancelled {len(targets)} task(s): {', '.join(t.name for t in targets)}",
        {"cancelledIds": [t.id for t in targets]},
    )
