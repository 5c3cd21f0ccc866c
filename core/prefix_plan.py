"""The project plan section of the memory prefix (spec Part A §6, Part C f): a scheduled session
(``system:scheduled:<name>``) whose task has a project gets that project's ``plan.md``; any other
session whose newest plan in ``memory_plans`` has ``persisted_to`` gets the ``## Active project plan``
link block. Reading only; a plan the agent cannot read is reported through ``warn``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from core import sidefiles
from core.engine import sqlite3
from core.jsutil import js_slice, utf16_len
from core.models import parse_json_lenient
from core.prefix_text import (
    KEBAB_RE,
    PLAN_MD_INJECT_CAP,
    PLAN_MD_MAX_BYTES,
    SCHEDULED_SESSION_PREFIX,
    plan_md_path,
)
from core.schedules import ScheduleStore

if TYPE_CHECKING:
    from core.db import MemoryDB

#: ``warn(code, message, **params)``: a problem the agent would run into, with its code.
Warn = Callable[..., None]


def latest_plan_project(db: MemoryDB, session_id: str, as_of: int | None, warn: Warn) -> str | None:
    """``persisted_to`` of the session's newest plan (``None`` when absent or unreadable); with
    ``as_of``, of its newest plan created before then."""
    sql = "SELECT * FROM memory_plans WHERE session_id = ?"
    params: tuple[Any, ...] = (session_id,)
    if as_of is not None:
        sql += " AND created_at < ?"
        params += (as_of,)
    try:
        with db.lock:
            row = db.conn.execute(sql + " ORDER BY created_at DESC LIMIT 1", params).fetchone()
    except sqlite3.Error:
        return None  # no plans table in this database
    if row is None:
        return None
    keys = row.keys()
    # The reference parses steps and review history when it reads a plan; a malformed one fails.
    steps, err1 = parse_json_lenient(row["steps_json"]) if "steps_json" in keys else ([], None)
    _, err2 = (
        parse_json_lenient(row["review_history_json"]) if "review_history_json" in keys else (None, None)
    )
    if err1 or err2 or not isinstance(steps, list) or any(s is None for s in steps):
        warn(
            "prefix.plan_unreadable",
            f"The newest plan of session {session_id!r} cannot be read by the agent "
            "(malformed steps or review history); its project plan section is skipped.",
            session=session_id,
        )
        return None
    persisted = row["persisted_to"] if "persisted_to" in keys else None
    return persisted if isinstance(persisted, str) and persisted else None


def project_plan(db: MemoryDB, session_id: str, as_of: int | None, warn: Warn) -> tuple[str, list[str]]:
    """``(section name, elements)`` of the project plan section of ``session_id``."""
    sid = session_id
    if not sid:
        return "active_plan", []
    sched_name = sid[len(SCHEDULED_SESSION_PREFIX) :] if sid.startswith(SCHEDULED_SESSION_PREFIX) else ""
    project: str | None = None
    if sched_name:
        try:
            sched = ScheduleStore(db).find_by_name(sched_name)
        except sqlite3.Error:
            sched = None
        if sched is not None and sched.json_errors:
            warn(
                "prefix.schedule_payload",
                f"Schedule {sched_name!r} has a malformed payload; plan injection skipped.",
                schedule=sched_name,
            )
            return "project_plan", []
        if sched is not None and sched.project:
            project = sched.project
    if not project:
        project = latest_plan_project(db, sid, as_of, warn)
    if not project:
        return ("project_plan" if sched_name else "active_plan"), []
    if not sched_name:
        return "active_plan", [
            "## Active project plan",
            f"project: `{project}`",
            f"plan.md: `{plan_md_path(project)}`",
            "Lessons / Operational Knowledge / Recent Runs are all in the file. Use `readFile` when needed. "
            "Details are not repeated in the prefix to save tokens / preserve cache hit.",
            "",
        ]
    if not KEBAB_RE.fullmatch(project):
        return "project_plan", []
    return "project_plan", plan_md_elements(project)


def plan_md_elements(project: str) -> list[str]:
    """The ``plan.md`` of ``project`` as the scheduled session's section (capped), or ``[]``."""
    path = plan_md_path(project)
    # The agent's file: read only when it is a regular file of a sane size (a FIFO would hang the
    # preview), never moved; otherwise left out as when it is missing.
    data, _problem = sidefiles.read_bytes(path, PLAN_MD_MAX_BYTES)
    if data is None:
        return []
    md = data.decode("utf-8", "replace")
    if not md:
        return []
    n = utf16_len(md)
    truncated = n > PLAN_MD_INJECT_CAP
    inject = (
        js_slice(md, 0, PLAN_MD_INJECT_CAP)
        + f'\n\n[... plan.md remaining {n - PLAN_MD_INJECT_CAP} chars truncated — readFile("{path}") for '
        "full content]\n"
        if truncated
        else md
    )
    reminder = (
        "↑ This is the project's accumulated work notes. Lessons / Operational Knowledge persist across fires;"
        " repeated failures mean you **did not read Lessons** — re-read before starting."
    )
    if truncated:
        reminder += f' This section is truncated; for full Recent Runs use `readFile("{path}")`.'
    heading = f"## Project plan.md ({project}, auto-inject{', truncated' if truncated else ''})"
    return [heading, "", inject, "", reminder, ""]
