"""``demo``: a new bilingual demo database (the same ``--seed`` and ``--now`` give the same rows)."""

from __future__ import annotations

import argparse
import sys

from core.cli.args import demo_messages, seed
from core.cli.command import Command, Ctx
from core.cli.output import iso

_COUNTS = ("messages", "sessions", "actions", "notes", "facts", "skills", "calendar_events", "schedules")


def configure_demo(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", metavar="PATH", required=True)
    p.add_argument("--messages", type=demo_messages, default=3000)
    p.add_argument("--seed", type=seed, default=0)


def run_demo(ctx: Ctx) -> int:
    from core import demo

    a = ctx.args
    quiet = ctx.out.as_json or not sys.stderr.isatty()

    def progress(phase: str, done: int, total: int) -> None:
        if not quiet:
            sys.stderr.write(f"\r{phase}: {done}/{total}".ljust(40))
            sys.stderr.flush()

    report = demo.generate(
        a.out,
        messages=a.messages,
        seed=a.seed,
        now=ctx.now if ctx.args.now is not None else None,
        progress=progress,
    )
    if not quiet:
        sys.stderr.write("\r" + " " * 40 + "\r")
    if ctx.out.as_json:
        ctx.out.json(report.model_dump())
        return 0
    o = ctx.out.text
    o(f"wrote {report.path} in {report.seconds:.1f} s (seed {report.seed}, now {iso(report.now)})")
    for key in _COUNTS:
        o(f"  {key.replace('_', ' '):<16} {getattr(report, key)}")
    return 0


COMMANDS = (
    Command(
        "demo",
        "write a new bilingual demo database (same --seed and --now: same rows)",
        run_demo,
        configure_demo,
    ),
)
