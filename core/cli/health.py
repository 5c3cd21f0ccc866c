"""``health``: the doctor's checks of every layer (:mod:`core.health`), for a person or a cron job.

Plain output: one line per layer (``ok``, or its failures and warnings), then each finding in words with
its code, its targets and the fix it offers. ``--json`` prints :meth:`core.health.HealthReport.to_json`.
The exit status is 0 whatever was found, unless ``--fail-on`` is given and met: then it is
:data:`EXIT_UNHEALTHY` (3), so that a cron job can tell "unhealthy" from "could not check" (1) and a bad
command line (2). Nothing is written.
"""

from __future__ import annotations

import argparse
from typing import Any

from core.cli.command import Command, Ctx
from core.cli.output import UsageError
from core.health.finding import LAYERS

#: The exit status when ``--fail-on`` is met.
EXIT_UNHEALTHY = 3
#: Targets named per finding in the plain output (the JSON lists them all).
TARGETS_SHOWN = 10


def _threshold(text: str) -> tuple[str, float]:
    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, not {text!r}")
    try:
        return name.strip(), float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{name.strip()}: {value!r} is not a number") from None


def configure_health(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--layer",
        action="append",
        choices=LAYERS,
        metavar="L",
        help=f"check only this layer (repeatable; one of {', '.join(LAYERS)})",
    )
    p.add_argument(
        "--fail-on",
        choices=("warn", "fail"),
        help=f"exit with status {EXIT_UNHEALTHY} when a finding is at least this severe",
    )
    p.add_argument(
        "--threshold",
        action="append",
        type=_threshold,
        metavar="NAME=VALUE",
        help="change one threshold (repeatable), e.g. unread_days=30 (README: health)",
    )


def _counts(s: dict[str, Any]) -> str:
    parts = []
    for key, word in (("fail", "failure"), ("warn", "warning")):
        n = s[key]
        if n:
            parts.append(f"{n} {word}{'' if n == 1 else 's'}")
    text = ", ".join(parts) or "ok"
    return f"{text} ({s['info']} info)" if s["info"] else text


def _targets(targets: list[Any], labels: list[Any] | None) -> str:
    named = (
        [f"{n} ({t})" for n, t in zip(labels, targets, strict=True)] if labels else [str(t) for t in targets]
    )
    shown = ", ".join(named[:TARGETS_SHOWN])
    more = len(targets) - TARGETS_SHOWN
    return f"{shown} and {more} more" if more > 0 else shown


def _print(ctx: Ctx, report: Any) -> None:
    o = ctx.out.text
    summary = report.summary()
    width = max(len(la) for la in summary) + 2
    for layer, s in summary.items():
        o(f"{layer:<{width}}{_counts(s)}")
    for f in report.findings:
        o("")
        o(f"[{f.severity}] {f.layer}: {f.message.message}")
        o(f"  code: {f.code}")
        if f.targets:
            o(f"  targets: {_targets(f.targets, f.measure.get('labels'))}")
        if f.fix is not None:
            o(f"  fix: {f.fix.code}")


def run_health(ctx: Ctx) -> int:
    from core.health import run_checks

    a = ctx.args
    options = dict(a.threshold or ())
    with ctx.open() as db:
        try:
            report = run_checks(db, layers=a.layer, now_ms=ctx.now, options=options)
        except Exception as e:
            if getattr(e, "code", "").startswith("health.option"):
                raise UsageError(f"--threshold: {e}") from None
            raise
    if ctx.out.as_json:
        ctx.out.json(report.to_json())
    else:
        _print(ctx, report)
    met = {"warn": ("warn", "fail"), "fail": ("fail",)}.get(a.fail_on, ())
    return EXIT_UNHEALTHY if report.worst() in met else 0


COMMANDS = (
    Command(
        "health",
        "the doctor: what is wrong in every layer, measured (exit 3 with --fail-on when met)",
        run_health,
        configure_health,
    ),
)
