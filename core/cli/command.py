"""What a command is: its name, help, arguments (``configure``) and the function that runs it, and the
context it runs with (:class:`Ctx`: the parsed arguments, the output, ``--now`` and the database path).

A command group module lists its commands in ``COMMANDS``; :mod:`core.cli.app` builds the parser from
the groups, in order.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

from core.cli.args import parse_time
from core.cli.output import Exit, Out, UsageError
from core.db import MemoryDB
from core.jsutil import now_ms
from core.paths import resolve_db_path


class Ctx:
    """What a running command gets: ``args``, ``out``, ``now`` (``--now`` or the clock) and ``path``."""

    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.out = Out(bool(args.json))
        self.now = parse_time(args.now, "--now") if args.now is not None else now_ms()
        self.path = resolve_db_path(args.db)

    def open(self, *, writable: bool = False, check: bool = False) -> MemoryDB:
        return MemoryDB.open(self.path, writable=writable, check=check)


def never(args: argparse.Namespace) -> bool:
    """The command only reads (``--now`` is allowed)."""
    return False


def always(args: argparse.Namespace) -> bool:
    """The command writes (``--now`` is refused)."""
    return True


def with_write_flag(args: argparse.Namespace) -> bool:
    """The command writes when run with ``--write``."""
    return bool(args.write)


def global_options(p: argparse.ArgumentParser, *, defaults: bool) -> None:
    """``--db``, ``--json`` and ``--now``: on the main parser with their defaults, on each command's
    parser (and a command's own sub-parsers) without, so that they may stand after the command too."""
    d = (lambda v: v) if defaults else (lambda v: argparse.SUPPRESS)
    p.add_argument(
        "--db",
        metavar="PATH",
        default=d(None),
        help="database file (default: $MEMORY_DB_PATH, then ~/.philont/memory/memory.sqlite)",
    )
    p.add_argument("--json", action="store_true", default=d(False), help="print JSON (stable shapes)")
    p.add_argument(
        "--now", metavar="T", default=d(None), help="the time results are computed at: ISO 8601 or epoch ms"
    )


def _no_arguments(p: argparse.ArgumentParser) -> None:
    """A command without arguments of its own (the global options only)."""


@dataclass(frozen=True)
class Command:
    """One command: ``run(ctx)`` returns the exit status; ``configure(parser)`` declares its arguments;
    ``writes(args)`` says whether this run writes (then ``--now`` is a usage error)."""

    name: str
    help: str
    run: Callable[[Ctx], int]
    configure: Callable[[argparse.ArgumentParser], None] = _no_arguments
    writes: Callable[[argparse.Namespace], bool] = never


class Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting (the caller prints one error line and returns)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            sys.stderr.write(message)
        raise Exit(status)
