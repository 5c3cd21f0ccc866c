"""``backups`` (the files in ``backups/``) and ``restore`` (replace the database with one of them)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from core.cli.command import Command, Ctx, always
from core.cli.output import CommandError, UsageError, first_line, iso
from core.paths import backups_dir

_KIND_TEXT = {"wal": "agent (WAL)", "rollback": "self-contained", None: "unreadable"}
_OWNER_TEXT = {"agent": "agent", "philont-desktop": "this app"}


def _fmt_age(age: int | None) -> str:
    """``just now``, ``12 min ago``, ``5 h ago``, ``3 d ago`` (whole units, rounded down); ``in the
    future`` for a time more than a minute ahead (a backup named for a later date)."""
    if age is None:
        return "?"
    if int(age) <= -60_000:
        return "in the future"
    a = max(0, int(age))
    if a < 60_000:
        return "just now"
    if a < 3_600_000:
        return f"{a // 60_000} min ago"
    if a < 2 * 86_400_000:
        return f"{a // 3_600_000} h ago"
    return f"{a // 86_400_000} d ago"


def _fmt_size(n: int) -> str:
    x = float(n)
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if x < 1024 or unit == "GiB":
            return f"{n} bytes" if unit == "bytes" else f"{x:.1f} {unit}"
        x /= 1024
    return f"{n} bytes"  # pragma: no cover


def configure_backups(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-check", action="store_true", help="skip the quick_check of every backup")


def run_backups(ctx: Ctx) -> int:
    from core.backups import list_backups_info
    from core.shapes import backup_json

    checked = not ctx.args.no_check
    rows = [backup_json(b) for b in list_backups_info(ctx.path, check=checked, now=ctx.now)]
    folder = backups_dir(ctx.path)
    if ctx.out.as_json:
        data = {"path": str(ctx.path), "backups_dir": str(folder), "now": ctx.now, "checked": checked}
        ctx.out.json({**data, "backups": rows})
        return 0
    width = max((len(r["name"]) for r in rows), default=0)
    for r in rows:
        check = "not checked" if r["quickCheck"] is None else first_line(r["quickCheck"], 80)
        ctx.out.text(
            f"{r['name']:<{width}}  {_OWNER_TEXT.get(r['owner'], '?'):<8}  {iso(r['createdAt'])}  "
            f"{_fmt_age(r['age']):<11} "
            f"{_fmt_size(r['size']):>11}  "
            f"{_KIND_TEXT.get(r['kind'], str(r['kind'])):<14}  {check}"
        )
    ctx.out.text(f"({len(rows)} backup{'s' if len(rows) != 1 else ''} in {folder})")
    return 0


def configure_restore(p: argparse.ArgumentParser) -> None:
    p.add_argument("backup", metavar="BACKUP", help="a backup file, or the name of a file in backups/")
    p.add_argument("--yes", "-y", action="store_true", help="go ahead (without it, restore only explains)")


def _backup_file(ctx: Ctx) -> Path:
    """The file ``restore`` was given: a path, or the name of a file in ``backups/``."""
    from core.backups import file_kind

    text = ctx.args.backup
    backup = Path(text).expanduser()
    bare = backup.name == text
    if file_kind(backup) is None and bare:  # a bare name: a file of backups/
        candidate = backups_dir(ctx.path) / text
        if file_kind(candidate) is not None:
            backup = candidate
    kind = file_kind(backup)
    if kind is None:
        where = f" (nor in {backups_dir(ctx.path)})" if bare else ""
        raise CommandError(f"the backup {backup} does not exist{where}")
    if kind != "file":
        raise CommandError(f"the backup {backup} is a {kind}, not a file; it was not opened")
    return backup


def _print_restore(ctx: Ctx, result: Any) -> None:
    ctx.out.text(f"restored {result.db_path} from {result.restored_from}")
    if result.safety_backup is not None:
        ctx.out.text(f"the replaced content is in {result.safety_backup}")
    elif result.damaged:
        others = ", ".join(p.name[len(result.damaged[0].name) :] for p in result.damaged[1:])
        also = f" (with its {others})" if others else ""
        what = "the damaged file" if result.problem != "missing" else "the orphan file"
        ctx.out.text(f"{what} ({result.problem}) was moved, unchanged, to {result.damaged[0]}{also}")
    else:
        ctx.out.text(f"there was no file at {result.db_path}: it was created from the backup")
    ctx.out.text(f"audit entry #{result.audit_id}")


def run_restore(ctx: Ctx) -> int:
    from core.backups import AgentRunningError, restore_backup

    backup = _backup_file(ctx)
    if not ctx.args.yes:
        raise UsageError(
            f"restore replaces {ctx.path} with {backup}. The current file is kept in {backups_dir(ctx.path)}: "
            "backed up first, or moved there unchanged when it is damaged. Stop the agent, then run it again "
            "with --yes"
        )
    try:
        result = restore_backup(ctx.path, backup)
    except AgentRunningError as e:
        raise CommandError(str(e), status=3) from None
    if ctx.out.as_json:
        ctx.out.json(
            {
                "path": str(result.db_path),
                "restored_from": str(result.restored_from),
                "safety_backup": None if result.safety_backup is None else str(result.safety_backup),
                "problem": result.problem,
                "damaged": [str(p) for p in result.damaged],
                "pages": result.pages,
                "audit_id": result.audit_id,
            }
        )
    else:
        _print_restore(ctx, result)
    return 0


COMMANDS = (
    Command(
        "backups",
        "the files in backups/ with owner, age, size, kind and quick_check",
        run_backups,
        configure_backups,
    ),
    Command(
        "restore",
        "replace the database with a backup (a sound file is backed up first, a damaged one moved aside)",
        run_restore,
        configure_restore,
        writes=always,
    ),
)
