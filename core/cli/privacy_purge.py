"""``privacy purge``: the findings of ``privacy scan`` removed for real (:mod:`core.privacy.purge`).

``privacy purge FINDING… | --all [--redact | --delete] [--include-backups] [--vacuum] --yes``. Without
``--yes`` it prints the plan (every row and every file that would be rewritten) and that a purge cannot be
undone, changes nothing and exits 2. ``--all`` purges every finding of a scan (the allow-list is
respected); ``--include-backups`` scans the backups too and rewrites every backup that holds a purged
text. While another program writes the database (the agent) it is refused with exit status 3.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from core.cli.command import Command, Ctx, always
from core.cli.output import CommandError, UsageError

_ROLE_TEXT = {
    "live": "the database",
    "wal": "its -wal: checkpointed, then emptied",
    "derived": "kept by this app, derived from the database: deleted (made again when next needed)",
}
_OWNER_TEXT = {"agent": "the agent's backup", "philont-desktop": "this app's backup"}
_FREE_SPACE = {
    "vacuumed": " (old copies found in free space: rebuilt)",
    "unchecked": " (free space not searched, the file is large: --vacuum clears old copies)",
}
_UNSEARCHED = {
    "too_large": "not searched for other copies (too much text, no full-text index)",
    "unique": "holds a purged text in a name that identifies its row, not rewritten (rename it)",
    "unreadable": "not searched for other copies (the table cannot be read)",
}
NO_YES = (
    "nothing was purged: a purge cannot be undone. Read the plan above, stop the agent, then run it again "
    "with --yes"
)


def configure_purge(p: argparse.ArgumentParser) -> None:
    p.add_argument("finding", metavar="FINDING", nargs="*", help="a finding id from privacy scan (pf-…)")
    p.add_argument("--all", action="store_true", help="every finding of a scan (allowed ones excepted)")
    how = p.add_mutually_exclusive_group()
    how.add_argument(
        "--redact", dest="mode", action="store_const", const="redact", help="replace each span (default)"
    )
    how.add_argument("--delete", dest="mode", action="store_const", const="delete", help="delete each row")
    p.set_defaults(mode="redact")
    p.add_argument(
        "--include-backups",
        action="store_true",
        help="scan the backups too, and rewrite in place every backup that holds a purged text",
    )
    p.add_argument("--vacuum", action="store_true", help="rebuild each rewritten file afterwards (VACUUM)")
    p.add_argument("--yes", "-y", action="store_true", help="go ahead (without it, only the plan is printed)")


def _findings(ctx: Ctx) -> list[Any]:
    from core.privacy import scan

    a = ctx.args
    if bool(a.all) == bool(a.finding):
        raise UsageError("name the findings to purge (ids from privacy scan) or give --all, not both")
    with ctx.open() as db:
        result = scan(db, include_backups=a.include_backups or bool(a.finding))
    if a.all:
        return list(result.findings)
    by_id = {f.id: f for f in result.findings}
    wanted = list(dict.fromkeys(a.finding))
    unknown = [i for i in wanted if i not in by_id]
    if unknown:
        raise CommandError(f"no finding {unknown[0]!r} in {ctx.path} or its backups (run privacy scan)")
    return [by_id[i] for i in wanted]


def _file(path: str | None, db: str) -> str:
    if path is None or path == db:
        return "database"
    return f"backups/{Path(path).name}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def plan_lines(p: Any) -> list[str]:
    """The plan in words (what ``privacy purge`` without ``--yes`` prints)."""
    rows = p.targets
    files = [f for f in p.files if f.role not in ("wal", "derived")]
    out = [
        f"privacy purge ({p.mode}): {_plural(len(p.findings), 'finding')}, {_plural(len(rows), 'row')} "
        f"in {_plural(len(files), 'file')}"
    ]
    for t in rows:
        kinds = ", ".join(sorted({s.kind for s in t.spans}))
        out.append(
            f"  {_file(t.file, p.db_path)}  {t.layer}  {t.table}:{t.row} {t.column}  {t.action}  {kinds}"
        )
    out.append("files rewritten:")
    for f in p.files:
        what = _ROLE_TEXT.get(f.role) or f"{_OWNER_TEXT.get(f.owner or '', 'a backup')}, rewritten in place"
        counts = (
            "" if f.role == "wal" else f" ({_plural(f.rows, 'row')}, {_plural(f.audit_rows, 'audit row')})"
        )
        out.append(f"  {f.path}  {what}{counts}")
    if p.elsewhere:
        out.append("not rewritten, still holding a purged text:")
        out += [f"  {e}" for e in p.elsewhere]
    for u in p.unsearched:
        cols = ", ".join(u["columns"] or []) or "every column"
        where = f"{_file(u['file'], p.db_path)} {u['table']} ({cols})"
        out.append(f"{_UNSEARCHED.get(u['why'], u['why'])}: {where}")
    out += [f"left out: {n.message}" for n in p.skipped]
    out.append("no purge reaches: " + "; ".join(p.unreachable) + ".")
    out.append(p.warning)
    return out


def _result_lines(r: Any) -> list[str]:
    done = [f for f in r.files if f.error is None]
    rows = sum(f.rows for f in done)
    out = [f"purged {_plural(rows, 'row')} ({r.mode}) in {_plural(len(done), 'file')}"]
    for f in r.files:
        if f.error is not None:
            out.append(f"  {f.path}: not changed: {f.error['message']}")
            continue
        wal = {True: ", -wal emptied", False: ", -wal not emptied (a reader held it)", None: ""}[
            f.wal_truncated
        ]
        vac = "" if f.vacuum_s is None else f", VACUUM {f.vacuum_s:.1f} s"
        vac += _FREE_SPACE.get(f.free_space or "", "")
        out.append(
            f"  {f.path}: {_plural(f.rows, 'row')}, {_plural(f.audit_rows, 'audit row')} scrubbed{wal}{vac}"
        )
    out += [
        f"  {d}: deleted (derived from the database, made again when next needed)" for d in r.derived_removed
    ]
    if r.audit_ids:
        out.append(
            f"audit entries #{r.audit_ids[0]}-#{r.audit_ids[-1]} (kind and SHA-256 only, not undoable)"
        )
    return out


def run_purge(ctx: Ctx) -> int:
    from core.privacy.purge import PurgeRefused, plan, purge

    a = ctx.args
    p = plan(ctx.path, _findings(ctx), a.mode, include_backups=a.include_backups)
    if not a.yes:
        if ctx.out.as_json:
            ctx.out.json({"plan": p.to_json(), "purged": False})
        else:
            for line in plan_lines(p):
                ctx.out.text(line)
        raise UsageError(NO_YES)
    try:
        result = purge(ctx.path, p, vacuum=a.vacuum)
    except PurgeRefused as e:
        raise CommandError(str(e), status=3) from None
    if ctx.out.as_json:
        ctx.out.json({"plan": p.to_json(), "purged": True, "result": result.to_json()})
    else:
        for line in _result_lines(result):
            ctx.out.text(line)
        if p.elsewhere:
            ctx.out.text("not rewritten, still holding a purged text: " + ", ".join(p.elsewhere))
    if not result.ok:
        path, error = next((f.path, f.error) for f in result.files if f.error is not None)
        raise CommandError(f"{path} was not purged: {error['message']}")
    return 0


PURGE = Command(
    "purge",
    "remove findings for real: redact or delete, in the database, its -wal, free pages, the full-text "
    "index, the audit trail and (--include-backups) the backups; not undoable",
    run_purge,
    configure_purge,
    always,
)
