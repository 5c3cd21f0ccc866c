"""``philont-memory changes``: the change set on the command line.

::

    philont-memory changes [--since T | --against BACKUP [--to OTHER]] [--layer L]... [--threshold X] [--json]

Without ``--since`` or ``--against`` the baseline is the database's review mark (set in the desktop
app), else the last 7 days. ``BACKUP`` and ``OTHER`` are paths or names of files in ``backups/``; with
``--to`` two backups are compared and the database itself is not opened. The database and the backups
are only read (backups through ``immutable=1``: nothing is created beside them; a backup with a ``-wal``
through a private copy of both files, deleted after). ``--threshold`` is a finite number. ``--now`` is the end
of a time baseline and the "now" of a comparison with the database. Progress goes to stderr when it is
a terminal.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from core.changes.compute import changes_against, changes_since
from core.changes.marks import ReviewMarks
from core.changes.model import LAYERS, ChangeItem, ChangeSet
from core.cli.args import finite_float, parse_time
from core.cli.command import Command, Ctx
from core.cli.output import UsageError, control_escaped
from core.jsutil import iso_ms
from core.paths import backups_dir

__all__ = ["COMMANDS", "DEFAULT_DAYS", "configure", "print_text", "run_changes"]

DEFAULT_DAYS = 7
DAY_MS = 86_400_000


def configure(p: argparse.ArgumentParser) -> None:
    """The command's options."""
    g = p.add_mutually_exclusive_group()
    g.add_argument("--since", metavar="T", help="a time baseline: changes after T")
    g.add_argument("--against", metavar="BACKUP", help="a backup baseline: a path or a name in backups/")
    p.add_argument(
        "--to", metavar="OTHER", help="with --against: compare with this backup instead of the database"
    )
    p.add_argument("--layer", action="append", choices=LAYERS, help="only this layer (repeatable)")
    p.add_argument(
        "--threshold", type=finite_float, default=0.05, help="the forget threshold of the decay model"
    )


def _backup_path(db_path: Path, text: str) -> Path:
    p = Path(text).expanduser()
    if not p.exists() and p.name == text:
        candidate = backups_dir(db_path) / text
        if candidate.exists():
            return candidate
    return p


def _when(ms: int | None) -> str:
    if ms is None:
        return "time unknown    "
    try:
        return iso_ms(ms)[:16].replace("T", " ") + "Z"
    except (ValueError, OverflowError):
        return str(ms)


def _line(it: ChangeItem) -> str:
    tail = ""
    if it.dating == "derived":
        tail += "  (derived)"
    if it.actor:
        tail += f"  by {it.actor}"
    return f"  {_when(it.at)}  {control_escaped(it.summary)}{control_escaped(tail)}"


def _header(cs: ChangeSet, db_label: str) -> str:
    b = cs.baseline
    if b.kind == "time":
        since = _when(b.since)
        return f"changes of {db_label} since {since} until {_when(cs.until)}"
    start = f"{b.path} (taken {_when(b.since)})"
    end = (
        f"{b.other} (taken {_when(b.other_time)})"
        if b.kind == "backups"
        else f"{db_label} at {_when(cs.until)}"
    )
    return f"changes from {start} to {end}"


def print_text(out: Any, cs: ChangeSet, db_label: str) -> None:
    out.text(control_escaped(_header(cs, db_label)))
    groups = cs.by_layer()
    for layer in cs.layers:
        items = groups.get(layer, [])
        out.text("")
        out.text(f"{layer}: {len(items)} change{'s' if len(items) != 1 else ''}")
        for it in items:
            out.text(_line(it))
    for n in cs.notices:
        out.text("")
        out.text(f"note: {control_escaped(n.message)}")


def _progress_fn() -> Any:
    if not sys.stderr.isatty():
        return None
    last = [-1]

    def progress(done: int, total: int) -> None:
        pct = int(100 * done / total) if total else 100
        if pct != last[0]:
            last[0] = pct
            sys.stderr.write(f"\rcomparing: {pct:3d} %")
            if pct >= 100:
                sys.stderr.write("\n")
            sys.stderr.flush()

    return progress


def run_changes(ctx: Ctx) -> int:
    """Run ``changes`` with the CLI's context (``ctx.args``, ``ctx.out``, ``ctx.now``, ``ctx.path``)."""
    a = ctx.args
    if a.to and not a.against:
        raise UsageError("--to needs --against (two backups are compared)")
    if a.against:
        before = _backup_path(ctx.path, a.against)
        kw: dict[str, Any] = {"other": _backup_path(ctx.path, a.to)} if a.to else {"db_path": ctx.path}
        cs = changes_against(
            before, layers=a.layer, now=ctx.now, threshold=a.threshold, progress=_progress_fn(), **kw
        )
        label = str(ctx.path)
    else:
        if a.since is not None:
            since = parse_time(a.since, "--since")
        else:
            mark = ReviewMarks().get(ctx.path).at
            since = mark if mark is not None else ctx.now - DEFAULT_DAYS * DAY_MS
        with ctx.open() as db:
            cs = changes_since(db, since, until=ctx.now, layers=a.layer, threshold=a.threshold)
        label = str(ctx.path)
    if ctx.out.as_json:
        ctx.out.json({"path": label, **cs.to_json()})
    else:
        print_text(ctx.out, cs, label)
    return 0


COMMANDS = (
    Command("changes", "what changed since a time, a backup, or between two backups", run_changes, configure),
)
