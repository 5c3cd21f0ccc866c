"""``context`` (what the agent would be given next turn) and ``recall-trigger`` (does a message refer to
a past conversation)."""

from __future__ import annotations

import argparse
from typing import Any

from core.cli.args import arg_text, non_negative_int
from core.cli.command import Command, Ctx
from core.cli.output import iso

HOST_OSES = ("linux", "windows", "darwin")


def configure_context(p: argparse.ArgumentParser) -> None:
    p.add_argument("message", metavar="MESSAGE", type=arg_text)
    p.add_argument("--session", metavar="ID", action="append", help="restrict the timeline (repeatable)")
    p.add_argument("--home-session", metavar="ID", help="the conversation's own origin id (newer reference)")
    p.add_argument("--recent-budget", type=non_negative_int, default=8000)
    p.add_argument("--recall-budget", type=non_negative_int, default=4000)
    p.add_argument("--recent-limit", type=non_negative_int, default=30)
    p.add_argument("--recall-limit", type=non_negative_int, default=10)
    p.add_argument("--host-os", choices=HOST_OSES, default=None)


def _print_context(ctx: Ctx, r: Any) -> None:
    prefix, hit, result = r.prefix, r.trigger, r.timeline
    o = ctx.out.text
    # First what a person asks about: did the trigger fire, what was recalled and why.
    o("trigger: no hit" if hit is None else f"trigger: hit {hit.pattern} {hit.snippet!r}")
    if r.recall is not None:
        for line in r.recall.summary_lines():
            o(line)
    o("")
    o("=== memory prefix " + f"({len(prefix.sections)} sections) ===")
    o(prefix.text)
    o("")
    if hit is None:
        o("=== recall trigger: no hit ===")
    else:
        o(f"=== recall trigger: hit {hit.pattern} {hit.snippet!r} ===")
        o(hit.injected)
    o("")
    o(
        f"=== timeline: {len(result.messages)} messages, {result.total_tokens} tokens "
        f"(recent {result.recency_count}, recalled {result.recall_count}) ==="
    )
    for m in result.messages:
        ident = "" if m.id is None else f"#{m.id} "
        o(f"[{m.section}] {ident}{iso(m.timestamp)} {m.role}: {m.content}")
    if result.excluded:
        o("left out: " + ", ".join(f"#{e.id} ({e.reason})" for e in result.excluded))
    if r.row_notices:
        o("")
        o(f"=== damaged rows in this context: {len(r.row_notices)} ===")
        for n in r.row_notices:
            o(f"⚠ [{n.params.get('section')}] {n.message}")


def run_context(ctx: Ctx) -> int:
    from core.context import build_context

    a = ctx.args
    with ctx.open() as db:
        r = build_context(
            db,
            a.message,
            session_ids=a.session or (),
            recent_budget=a.recent_budget,
            recall_budget=a.recall_budget,
            recent_limit=a.recent_limit,
            recall_limit=a.recall_limit,
            host_os=a.host_os,
            home_session_id=a.home_session,
            now=ctx.now,
        )
    if ctx.out.as_json:
        ctx.out.json(r.to_json())
    else:
        _print_context(ctx, r)
    return 0


def configure_recall_trigger(p: argparse.ArgumentParser) -> None:
    p.add_argument("text", metavar="TEXT", type=arg_text)


def run_recall_trigger(ctx: Ctx) -> int:
    from core import recall_trigger

    hit = recall_trigger.detect(ctx.args.text)
    if ctx.out.as_json:
        ctx.out.json(
            None if hit is None else {"hit": hit.hit, "snippet": hit.snippet, "pattern": hit.pattern}
        )
    elif hit is None:
        ctx.out.text("no hit")
    else:
        ctx.out.text(f"hit {hit.pattern}: {hit.snippet}")
    return 0


COMMANDS = (
    Command(
        "context",
        "what the agent would be given next turn: prefix, trigger, timeline",
        run_context,
        configure_context,
    ),
    Command(
        "recall-trigger",
        "does this message refer to a past conversation?",
        run_recall_trigger,
        configure_recall_trigger,
    ),
)
