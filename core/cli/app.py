"""The command line's registry and entry point: the parser is built from the command groups, in order.

A command group is a module of :mod:`core.cli` with ``COMMANDS``, a tuple of
:class:`core.cli.command.Command` (name, help, ``run(ctx)``, ``configure(parser)``, ``writes``). A new
command is one more entry in a group's ``COMMANDS`` (its ``configure`` and ``run`` beside it), or a new
group module whose ``COMMANDS`` is added to :data:`GROUPS`; that order is the order ``--help`` lists
them in.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence

from core import __version__, sidefiles
from core.cli.backups import COMMANDS as BACKUPS
from core.cli.changes import COMMANDS as CHANGES
from core.cli.check import COMMANDS as CHECK
from core.cli.command import Command, Ctx, Parser, global_options
from core.cli.context import COMMANDS as CONTEXT
from core.cli.demo import COMMANDS as DEMO
from core.cli.edits import COMMANDS as EDITS
from core.cli.export import COMMANDS as EXPORT
from core.cli.facts import COMMANDS as FACTS
from core.cli.health import COMMANDS as HEALTH
from core.cli.info import COMMANDS as INFO
from core.cli.output import PROG, CommandError, Exit, UsageError, one_line
from core.cli.privacy import COMMANDS as PRIVACY
from core.cli.replay import COMMANDS as REPLAY
from core.cli.search import COMMANDS as SEARCH
from core.cli.skills import COMMANDS as SKILLS
from core.cli.tools import COMMANDS as TOOLS
from core.cli.upcoming import COMMANDS as UPCOMING
from core.engine import sqlite3
from core.errors import MemoryError_, Notice, ValidationError_
from core.visible import visible

#: The commands of each group module, in the order they are listed.
GROUPS = (
    INFO,
    SEARCH,
    FACTS,
    SKILLS,
    CHECK,
    HEALTH,
    DEMO,
    CONTEXT,
    REPLAY,
    TOOLS,
    UPCOMING,
    EXPORT,
    BACKUPS,
    EDITS,
    CHANGES,
    PRIVACY,
)


def commands() -> list[Command]:
    """Every command of every group, in order."""
    return [c for group in GROUPS for c in group]


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=PROG,
        description="Inspect, search and check a Philont memory database. Read-only unless stated.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    global_options(parser, defaults=True)
    common = Parser(add_help=False)
    global_options(common, defaults=False)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for c in commands():
        p = sub.add_parser(c.name, help=c.help, description=c.help, parents=[common])
        p.set_defaults(fn=c.run, writes=c.writes)
        c.configure(p)
    return parser


def _run(args: argparse.Namespace) -> int:
    if args.now is not None and args.writes(args):
        raise UsageError(
            "--now is for reading: a write records the current time (in the rows it writes and in "
            "the audit trail); leave --now out"
        )
    ctx = Ctx(args)
    with sidefiles.reporting(_warn):  # a side file set aside (the review marks): said on stderr
        return int(args.fn(ctx))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    try:
        return _run(parser.parse_args(list(sys.argv[1:] if argv is None else argv)))
    except Exit as e:
        return e.status
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, like other command-line tools.
        with contextlib.suppress(OSError, ValueError, AttributeError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 0
    except UsageError as e:
        return _fail(str(e), 2)
    except CommandError as e:
        return _fail(str(e), e.status)
    except (MemoryError_, ValidationError_) as e:
        return _fail(str(e), 1)
    except sqlite3.Error as e:
        return _fail(f"SQLite: {e}", 1)
    except OSError as e:
        return _fail(f"{e.strerror or e}{f': {e.filename}' if e.filename else ''}", 1)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except Exception as e:
        return _fail(f"{type(e).__name__}: {e}", 1)


def _warn(notice: Notice) -> None:
    sys.stderr.write(f"{PROG}: warning: {visible(one_line(notice.message))}\n")


def _fail(message: str, status: int) -> int:
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
    sys.stderr.write(f"{PROG}: error: {visible(one_line(message))}\n")
    return status
