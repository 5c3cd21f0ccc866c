"""Which modules a module needs, read from its source (never imported), so that they can be imported on
the right thread: the Qt-free ``core`` modules (and the other libraries) on a worker, the application's
own modules on the GUI thread one per event-loop turn.

Why: importing a module of this application creates PySide classes (``QObject`` subclasses with
signals). Creating them on a worker while the GUI thread runs its event loop is a race PySide can lose
with a crash of the GUI thread (measured: about one open in twenty of the 10 MB-message bench file).
A module's own body takes a few milliseconds once what it imports is in, so one module per turn keeps
every turn short. One library makes PySide classes too and cannot be taken apart: pyqtgraph (0.5-1.5 s
to import, too long for the GUI thread); it stays on a worker, imported once, while the first tab is
idle (see :mod:`philont_desktop.preload`).

Only the imports a module makes when it is imported count: those at its top level (also inside a
top-level ``if`` or ``try``), not those under ``if TYPE_CHECKING:`` or inside functions.
"""

from __future__ import annotations

import ast
import functools
import importlib
import sys
from collections.abc import Container, Iterable, Iterator
from pathlib import Path

APP = "philont_desktop"
CORE = "core"
GUI_ONLY = ("__future__", "PySide6", "shiboken6")  # never imported by a worker (the GUI thread has them)
_ROOT = Path(__file__).resolve().parent.parent


def _source(name: str) -> Path | None:
    """The file of module or package ``name`` of this project (``None``: not one of ours)."""
    base = _ROOT.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements run at import: the top level, and inside top-level ``if`` (not TYPE_CHECKING),
    ``try`` and ``with`` blocks."""
    for node in body:
        if isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                yield from _statements(node.body)
            yield from _statements(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody, *(h.body for h in node.handlers)):
                yield from _statements(block)
        elif isinstance(node, ast.With):
            yield from _statements(node.body)
        else:
            yield node


def _package(name: str, is_package: bool) -> str:
    return name if is_package else name.rpartition(".")[0]


@functools.cache
def direct_imports(name: str) -> tuple[str, ...]:
    """The project modules ``name`` imports when it is imported, its parent packages first."""
    return _imports(name)[0]


@functools.cache
def external_imports(name: str) -> tuple[str, ...]:
    """The other modules (libraries) ``name`` imports when it is imported."""
    return _imports(name)[1]


@functools.cache
def _imports(name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    path = _source(name)
    if path is None:
        return (), ()
    found: list[str] = []
    parts = name.split(".")
    found += [".".join(parts[:i]) for i in range(1, len(parts))]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _package(name, path.name == "__init__.py")
    for node in _statements(tree.body):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            found.append(base)
            found += [f"{base}.{a.name}" for a in node.names if _source(f"{base}.{a.name}") is not None]
    ours = (m for m in found if m.split(".")[0] in (APP, CORE) and _source(m) is not None)
    other = (m for m in found if m and m.split(".")[0] not in (APP, CORE, *GUI_ONLY))
    return tuple(dict.fromkeys(m for m in ours if m != name)), tuple(dict.fromkeys(other))


def plan(names: Iterable[str], loaded: Container[str] | None = None) -> tuple[list[str], list[str]]:
    """``(worker, app)``: the ``core`` modules and the libraries that ``names`` need (any order: they
    import what they need), and the application's modules in an order where each comes after what it
    imports (``names`` included), leaving out those already imported (``loaded``: ``sys.modules``)."""
    done: Container[str] = sys.modules if loaded is None else loaded
    core: list[str] = []
    app: list[str] = []
    seen: set[str] = set()

    def visit(name: str) -> None:
        if name in seen:
            return
        seen.add(name)
        if name.split(".")[0] == CORE:
            if name not in done:
                core.append(name)
            return
        for dep in direct_imports(name):
            visit(dep)
        core.extend(m for m in external_imports(name) if m not in done and m not in core)
        if name not in done:
            app.append(name)

    for name in names:
        visit(name)
    return core, app


def import_core(modules: Iterable[str]) -> None:
    """Import the ``core`` modules and the libraries (on a worker); one that fails is left to its
    importer."""
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception:
            continue
