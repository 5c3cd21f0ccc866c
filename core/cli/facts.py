"""``facts``, ``forget-candidates`` and ``history``: the facts with their decay at ``--now``."""

from __future__ import annotations

import argparse
from typing import Any

from core.cli.args import arg_text, finite_float, non_negative_int
from core.cli.command import Command, Ctx
from core.cli.output import CommandError, damage_note, first_line, fmt_num, fmt_score, iso


def _fmt_tau(f: dict[str, Any]) -> str:
    """``365 d (namespace)``, ``7 d (custom)``, ``∞ (pinned)``, ``∞ (namespace)`` for user.*."""
    days = "∞" if f["tauDays"] is None else f"{fmt_num(f['tauDays'])} d"
    return f"{days} ({f['tauSource']})"


def _print_fact_line(ctx: Ctx, f: dict[str, Any]) -> None:
    value = "(missing)" if f["valueJson"] is None else first_line(f["valueJson"], 1 << 30)
    if len(value) > 80:
        value = value[:79] + "…"
    pin = " pinned" if f["pinned"] else ""
    ctx.out.text(
        f"{f['namespace']}.{f['key']} = {value}  [{f['status']}{pin}, tau {_fmt_tau(f)}, "
        f"score {fmt_score(f['score'])}, created {iso(f['createdAt'])}]" + damage_note(f)
    )


def configure_facts(p: argparse.ArgumentParser) -> None:
    p.add_argument("--namespace", metavar="NS", type=arg_text, help="exactly this namespace")
    p.add_argument("--include-inactive", action="store_true", help="superseded and forgotten versions too")


def run_facts(ctx: Ctx) -> int:
    from core.facts import FactStore
    from core.shapes import fact_json

    a = ctx.args
    with ctx.open() as db:
        facts = FactStore(db).list_facts(a.namespace, include_inactive=a.include_inactive)
    rows = [fact_json(f, ctx.now) for f in facts]
    if ctx.out.as_json:
        ctx.out.json(
            {"now": ctx.now, "namespace": a.namespace, "include_inactive": a.include_inactive, "facts": rows}
        )
        return 0
    for f in rows:
        _print_fact_line(ctx, f)
    ctx.out.text(f"({len(rows)} fact{'s' if len(rows) != 1 else ''} at {iso(ctx.now)})")
    return 0


def configure_forget_candidates(p: argparse.ArgumentParser) -> None:
    p.add_argument("--threshold", type=finite_float, default=0.05)
    p.add_argument("--limit", type=non_negative_int, default=50)
    p.add_argument("--namespace", metavar="NS", type=arg_text)


def run_forget_candidates(ctx: Ctx) -> int:
    from core.facts import FactStore
    from core.shapes import fact_json

    a = ctx.args
    with ctx.open() as db:
        pairs = FactStore(db).forget_candidates(
            threshold=a.threshold, limit=a.limit, namespace=a.namespace, now=ctx.now
        )
    rows: list[dict[str, Any]] = [{"fact": fact_json(f, ctx.now), "score": s} for f, s in pairs]
    if ctx.out.as_json:
        ctx.out.json(
            {
                "now": ctx.now,
                "threshold": a.threshold,
                "limit": a.limit,
                "namespace": a.namespace,
                "candidates": rows,
            }
        )
        return 0
    for row in rows:
        _print_fact_line(ctx, row["fact"])
    ctx.out.text(
        f"({len(rows)} candidate{'s' if len(rows) != 1 else ''} below {a.threshold:g} at {iso(ctx.now)})"
    )
    return 0


def configure_history(p: argparse.ArgumentParser) -> None:
    p.add_argument("namespace", metavar="NS", type=arg_text)
    p.add_argument("key", metavar="KEY", type=arg_text)


def run_history(ctx: Ctx) -> int:
    from core.facts import FactStore
    from core.shapes import fact_json

    a = ctx.args
    with ctx.open() as db:
        versions = FactStore(db).history(a.namespace, a.key)
    if not versions:
        raise CommandError(f"no fact {a.namespace}.{a.key}")
    rows = [fact_json(f, ctx.now) for f in versions]
    if ctx.out.as_json:
        ctx.out.json({"namespace": a.namespace, "key": a.key, "versions": rows})
        return 0
    for f in rows:
        extra = f"  supersedes {f['supersedes']}" if f["supersedes"] else ""
        ctx.out.text(
            f"{f['id']}  {f['status']:<10} {iso(f['createdAt'])}  {f['valueJson'] if f['valueJson'] is not None else '(missing)'}{extra}"
            + damage_note(f)
        )
    return 0


COMMANDS = (
    Command("facts", "facts with tau, pin, decay score at --now and status", run_facts, configure_facts),
    Command(
        "forget-candidates",
        "active unpinned facts scoring below the threshold",
        run_forget_candidates,
        configure_forget_candidates,
    ),
    Command("history", "every version of one fact", run_history, configure_history),
)
