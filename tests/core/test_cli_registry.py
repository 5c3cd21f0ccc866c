"""The command line is built from its command groups: every command is declared once, in a group
module's ``COMMANDS`` (name, help, arguments, the function that runs it), and the registry lists them."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import core.cli
from core.cli import app, build_parser, main
from core.cli.command import Command, never


def _group_modules() -> list[str]:
    return [m.name for m in pkgutil.iter_modules(core.cli.__path__) if not m.name.startswith("_")]


def test_every_module_with_commands_is_registered():
    """A new group module is listed in the registry (else its commands would silently be missing)."""
    registered = {id(g) for g in app.GROUPS}
    for name in _group_modules():
        module = importlib.import_module(f"core.cli.{name}")
        commands = getattr(module, "COMMANDS", None)
        if commands is not None:
            assert id(commands) in registered, f"core.cli.{name}.COMMANDS is not in core.cli.app.GROUPS"
            assert all(isinstance(c, Command) for c in commands)


def test_the_parser_has_exactly_the_registered_commands_in_order():
    names = [c.name for c in app.commands()]
    assert len(names) == len(set(names))
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert list(sub.choices) == names


@pytest.mark.parametrize("command", [c for c in app.commands() if c.writes is not never])
def test_a_writing_command_refuses_now(command, capsys, tmp_path):
    """``--now`` is for reading: every command declared as writing refuses it before doing anything."""
    args = {
        "tool": ["tool", "store_fact", "{}", "--write"],
        "restore": ["restore", "x.sqlite", "--yes"],
        "undo": ["undo", "1"],
        "redo": ["redo", "1"],
        "task": ["task", "enable", "x"],
        "event": ["event", "delete", "x"],
        "privacy": ["privacy", "allow", "pf-0"],
    }[command.name]
    db = tmp_path / "memory.sqlite"
    assert main(["--db", str(db), "--now", "0", *args]) == 2
    assert "--now is for reading" in capsys.readouterr().err
    assert not db.exists()
