"""``privacy``: find secrets, personal data and planted instructions (``privacy scan``) and keep the
person's allow-list (``privacy allow``); remove findings for real (``privacy purge``,
:mod:`core.cli.privacy_purge`).

``privacy`` is one command whose actions are listed in :data:`ACTIONS` (each a
:class:`core.cli.command.Command`: name, help, ``run``, ``configure``, ``writes``); a new action is one
more entry there. Findings are printed with their masked preview only, never the value.
"""

from __future__ import annotations

import argparse

from core.cli.command import Command, Ctx, Parser, always, global_options
from core.cli.output import CommandError
from core.cli.privacy_purge import PURGE


def configure_scan(p: argparse.ArgumentParser) -> None:
    from core.privacy import LAYERS

    p.add_argument("--include-backups", action="store_true", help="scan every backup in backups/ too")
    p.add_argument(
        "--layer",
        action="append",
        choices=LAYERS,
        metavar="LAYER",
        help=f"only this layer (repeatable): {', '.join(LAYERS)}",
    )


def run_scan(ctx: Ctx) -> int:
    from core.privacy import result_json, scan
    from core.privacy.report import scan_lines

    a = ctx.args
    with ctx.open() as db:
        result = scan(db, include_backups=a.include_backups, layers=a.layer)
    data = {"path": str(ctx.path), "include_backups": a.include_backups, **result_json(result)}
    if ctx.out.as_json:
        ctx.out.json(data)
    else:
        for line in scan_lines(data):
            ctx.out.text(line)
    return 0


def configure_allow(p: argparse.ArgumentParser) -> None:
    p.add_argument("finding", metavar="FINDING", nargs="+", help="a finding id from privacy scan (pf-…)")
    p.add_argument(
        "--value",
        action="store_true",
        help="allow the value wherever it appears (kept as a digest, never as text), not only this place",
    )


def run_allow(ctx: Ctx) -> int:
    from core.privacy import Allowed, AllowList, scan
    from core.privacy.scan import span_text

    wanted = list(dict.fromkeys(ctx.args.finding))
    with ctx.open() as db:
        result = scan(db, include_backups=True, allow=Allowed())
        by_id = {f.id: f for f in result.findings}
        unknown = [i for i in wanted if i not in by_id]
        if unknown:
            raise CommandError(f"no finding {unknown[0]!r} in {ctx.path} or its backups (run privacy scan)")
        values = []
        if ctx.args.value:
            values = [(by_id[i].kind, span_text(db, by_id[i])) for i in wanted]
    AllowList().allow(ctx.path, ids=wanted, values=values)
    found = [by_id[i] for i in wanted]
    if ctx.out.as_json:
        ctx.out.json({"path": str(ctx.path), "allowed": wanted, "by_value": bool(ctx.args.value)})
        return 0
    for f in found:
        ctx.out.text(f"allowed {f.id}  {f.kind}  {f.preview}")
    return 0


#: The actions of ``privacy``, in the order ``privacy --help`` lists them.
ACTIONS: tuple[Command, ...] = (
    Command(
        "scan",
        "find secrets, personal data and planted instructions in every layer (masked previews only)",
        run_scan,
        configure_scan,
    ),
    Command(
        "allow",
        "keep findings off later scans: not a secret (outside the database)",
        run_allow,
        configure_allow,
        always,
    ),
    PURGE,
)


def _configure(p: argparse.ArgumentParser) -> None:
    common = Parser(add_help=False)
    global_options(common, defaults=False)
    sub = p.add_subparsers(dest="privacy_action", metavar="ACTION", parser_class=Parser)
    sub.required = True
    for c in ACTIONS:
        sp = sub.add_parser(c.name, help=c.help, description=c.help, parents=[common])
        sp.set_defaults(privacy_run=c.run, privacy_writes=c.writes)
        c.configure(sp)


def _run(ctx: Ctx) -> int:
    return int(ctx.args.privacy_run(ctx))


def _writes(args: argparse.Namespace) -> bool:
    return bool(args.privacy_writes(args))


COMMANDS = (
    Command(
        "privacy",
        "secrets, personal data and planted instructions: scan, allow, purge",
        _run,
        _configure,
        _writes,
    ),
)
