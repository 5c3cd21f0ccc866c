"""The audit trail and the audited edits: ``audit``, ``undo``, ``redo``, ``task`` and ``event``.

An edit is checked on a read-only connection first (with curation's own checks), so that an unknown id
or a change already made is refused before anything, even the backup, is written.
"""

from __future__ import annotations

import argparse
from typing import Any

from core.cli.args import audit_id, positive_int
from core.cli.command import Command, Ctx, always
from core.cli.output import CommandError, UsageError, iso
from core.db import MemoryDB


def _audit_line(e: dict[str, Any]) -> str:
    if e["undoneOf"] is not None and e["action"] in ("undo", "redo"):
        what = f"{e['action']} of #{e['undoneOf']} ({e['originalAction'] or '?'})"
    else:
        what = e["action"]
    flag = "  (undone)" if e["undone"] else ""
    return (
        f"#{e['id']}  {iso(e['at'])}  {e['actor']}  {what}  {e['targetType']}:{e['targetId']}  "
        f"{e['summary']}{flag}"
    )


def configure_audit(p: argparse.ArgumentParser) -> None:
    p.add_argument("--limit", type=positive_int, default=100)
    p.add_argument("--target", metavar="TYPE[:ID]", help="only edits of this target, e.g. schedule:<id>")


def run_audit(ctx: Ctx) -> int:
    from core.audit import list_entries
    from core.shapes import audit_json

    a = ctx.args
    target_type: str | None = None
    target_id: str | None = None
    if a.target is not None:
        target_type, sep, rest = a.target.partition(":")
        if not target_type or (sep and not rest):
            raise UsageError(f"--target: expected TYPE or TYPE:ID, e.g. schedule:<id>: {a.target!r}")
        target_id = rest if sep else None
    with ctx.open() as db:
        entries = list_entries(db, limit=a.limit, target_type=target_type, target_id=target_id)
    rows = [audit_json(e) for e in entries]
    if ctx.out.as_json:
        ctx.out.json({"limit": a.limit, "target_type": target_type, "target_id": target_id, "entries": rows})
        return 0
    for e in rows:
        ctx.out.text(_audit_line(e))
    ctx.out.text(f"({len(rows)} audit entr{'ies' if len(rows) != 1 else 'y'})")
    return 0


def _report_edit(ctx: Ctx, entry: Any, db: MemoryDB, done: str) -> int:
    """Print the outcome of an audited edit (``{entry, backup, backup_reused}``)."""
    from core.shapes import audit_json

    backup, reused = db.last_backup, db.backup_reused
    if ctx.out.as_json:
        shown = None if backup is None else str(backup)
        ctx.out.json({"entry": audit_json(entry), "backup": shown, "backup_reused": reused})
        return 0
    ctx.out.text(f"{done}: audit entry #{entry.id}")
    if backup is not None and reused:
        ctx.out.text(f"no new backup: {backup}, taken less than 10 minutes ago, covers this run of edits")
    elif backup is not None:
        ctx.out.text(f"backup before the first write: {backup}")
    return 0


def _undo_or_redo(ctx: Ctx, kind: str) -> int:
    from core import curation

    # Refuse on a read-only connection what the transaction would refuse, before anything is written.
    check = curation.check_undo if kind == curation.UNDO else curation.check_redo
    with ctx.open() as db:
        orig = check(db, ctx.args.audit_id)
    step = curation.undo if kind == curation.UNDO else curation.redo
    with ctx.open(writable=True) as db:
        new = step(db, orig.id, curation.default_actor(), now=ctx.now)
    verb = "undid" if kind == curation.UNDO else "redid"
    return _report_edit(ctx, new, db, f"{verb} edit #{orig.id} ({orig.action} of {orig.target})")


def configure_audit_id(p: argparse.ArgumentParser) -> None:
    p.add_argument("audit_id", metavar="AUDIT_ID", type=audit_id)


def run_undo(ctx: Ctx) -> int:
    return _undo_or_redo(ctx, "undo")


def run_redo(ctx: Ctx) -> int:
    return _undo_or_redo(ctx, "redo")


def configure_task(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=("enable", "disable", "delete"))
    p.add_argument("id", metavar="ID")


def run_task(ctx: Ctx) -> int:
    from core.curation import calendar as curate
    from core.schedules import ScheduleStore

    a = ctx.args
    with ctx.open() as db:
        task = ScheduleStore(db).get(a.id)
    if task is None:
        raise CommandError(f"no task {a.id!r}")
    label = f"task {task.name!r} ({task.id})"
    if a.action == "delete":
        change = curate.delete_schedule(task.id, seen=task)
        done = f"deleted {label}"
    else:
        enable = a.action == "enable"
        if task.enabled == enable:
            raise CommandError(f"{label} is already {a.action}d; nothing to change")
        change = curate.set_schedule_enabled(task.id, enable, seen=task)
        done = f"{a.action}d {label}"
    with ctx.open(writable=True) as db:
        entry = change.perform(db, now=ctx.now)
    return _report_edit(ctx, entry, db, done)


def configure_event(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=("delete",))
    p.add_argument("id", metavar="ID")


def run_event(ctx: Ctx) -> int:
    from core.calendar import CalendarStore
    from core.curation import calendar as curate

    a = ctx.args
    with ctx.open() as db:
        event = CalendarStore(db).get(a.id)
    if event is None:
        raise CommandError(f"no calendar event {a.id!r}")
    change = curate.delete_event(event.id, seen=event)
    with ctx.open(writable=True) as db:
        entry = change.perform(db, now=ctx.now)
    return _report_edit(
        ctx, entry, db, f"deleted event {event.title!r} @ {iso(event.starts_at)} ({event.id})"
    )


COMMANDS = (
    Command("audit", "the audit trail of manual edits, newest first", run_audit, configure_audit),
    Command(
        "undo", "undo one audited edit (writes; backup first)", run_undo, configure_audit_id, writes=always
    ),
    Command(
        "redo",
        "redo one undone audited edit (writes; backup first)",
        run_redo,
        configure_audit_id,
        writes=always,
    ),
    Command(
        "task",
        "enable, disable or delete a scheduled task, audited (writes; backup first)",
        run_task,
        configure_task,
        writes=always,
    ),
    Command(
        "event",
        "delete a calendar event with all its occurrences, audited (writes; backup first)",
        run_event,
        configure_event,
        writes=always,
    ),
)
