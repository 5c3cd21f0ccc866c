"""The layering promises: ``core`` knows nothing of Qt and works without it; in the application, only
``philont_desktop/qt.py`` imports PySide6 and only ``widgets/plots.py`` imports pyqtgraph; nothing but
``core.engine`` imports an SQLite binding. The library never imports its front ends (the CLI, the MCP
server); in the app, shared code never imports a tab, tabs never import each other or the window, and
only the app and the shell import ``main_window``."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
QT_MODULES = ("PySide6", "shiboken6", "pyqtgraph", "PyQt5", "PyQt6", "PySide2", "philont_desktop")

BLOCKER = textwrap.dedent(
    """
    import importlib.abc, pkgutil, sys

    BLOCKED = ("PySide6", "shiboken6", "pyqtgraph")

    class Blocker(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ImportError(f"{name} is blocked in this test")
            return None

    sys.meta_path.insert(0, Blocker())
    try:
        import PySide6  # noqa: F401
    except ImportError:
        pass
    else:
        raise SystemExit("the blocker does not work")

    import core
    names = sorted(m.name for m in pkgutil.walk_packages(core.__path__, "core.") if not m.name.endswith("__main__"))
    for name in names:
        __import__(name)

    from core import audit, curation
    from core.db import MemoryDB
    from core.timeline import RawStore

    db = MemoryDB.memory(now=1781524800000)
    RawStore(db).append_message("global", "user", "hello 你好", timestamp=1781524800000)
    curation.register("layers.meta", lambda conn, e: None, lambda conn, e: None)
    edit = curation.perform(db, actor="t", action="layers.meta", target_type="meta", target_id="k",
                            fn=lambda conn: (None, {"v": 1}))
    curation.undo(db, edit.id, "t")
    assert [e.action for e in audit.list_entries(db)] == ["undo", "layers.meta"]
    leaked = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
    assert not leaked, leaked
    print("ok", len(names))
    """
)


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append(node.module)
    return out


def _top(name: str) -> str:
    return name.split(".")[0]


def test_core_imports_and_works_without_qt():
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run(
        [sys.executable, "-c", BLOCKER], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("ok ")


def test_no_core_module_imports_qt_or_the_app():
    offenders = [
        f"{path.relative_to(REPO)}: {name}"
        for path in sorted((REPO / "core").rglob("*.py"))
        for name in _imports(path)
        if _top(name) in QT_MODULES
    ]
    assert offenders == []


def test_only_the_engine_imports_an_sqlite_binding():
    allowed = {REPO / "core" / "engine.py"}
    offenders = [
        f"{path.relative_to(REPO)}: {name}"
        for base in ("core", "philont_desktop")
        for path in sorted((REPO / base).rglob("*.py"))
        if path not in allowed
        for name in _imports(path)
        if _top(name) in ("sqlite3", "sqlean", "pysqlite3", "apsw")
    ]
    assert offenders == []


def test_only_the_shim_imports_pyside_and_only_plots_imports_pyqtgraph():
    shim = REPO / "philont_desktop" / "qt.py"
    plots = REPO / "philont_desktop" / "widgets" / "plots.py"
    offenders = []
    for path in sorted((REPO / "philont_desktop").rglob("*.py")):
        for name in _imports(path):
            top = _top(name)
            if top in ("PySide6", "shiboken6") and path != shim:
                offenders.append(f"{path.relative_to(REPO)}: {name}")
            if top == "pyqtgraph" and path != plots:
                offenders.append(f"{path.relative_to(REPO)}: {name}")
    assert offenders == []


# -- who imports whom: the library and its front ends, the app's shared code, its tabs and its window ------

FRONT_ENDS = ("core.cli", "core.mcp_server")


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _every_import(path: Path, *, runtime: bool = False) -> list[str]:
    """Every module ``path`` imports, at module level or inside functions, relative imports resolved;
    ``from a import b`` counts as importing ``a`` and ``a.b`` (``b`` may be a module). ``runtime``: less
    the imports under ``if TYPE_CHECKING:`` (names for the type checker, never run)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    typing_only: set[int] = set()
    if runtime:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
                typing_only.update(id(n) for n in ast.walk(node))
    out: list[str] = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            out.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package[: len(package) - (node.level - 1)]
                base = ".".join([*parent, base] if base else parent)
            out.append(base)
            out.extend(f"{base}.{alias.name}" for alias in node.names)
    return out


def _within(name: str, module: str) -> bool:
    return name == module or name.startswith(module + ".")


def _is_front_end(path: Path) -> bool:
    rel = path.relative_to(REPO).as_posix()
    return rel in ("core/cli.py", "core/__main__.py", "core/mcp_server.py") or rel.startswith(
        ("core/cli/", "core/mcp_server/")
    )


def test_the_library_never_imports_its_front_ends():
    offenders = [
        f"{path.relative_to(REPO)}: {name}"
        for path in sorted((REPO / "core").rglob("*.py"))
        if not _is_front_end(path)
        for name in sorted(set(_every_import(path)))
        if any(_within(name, front) for front in FRONT_ENDS)
    ]
    assert offenders == []


def _core_graph() -> dict[str, set[str]]:
    """Module -> the core modules it imports when it runs. A module importing its own package (whose
    ``__init__`` gathers the package's modules) is the package's shape, not a circle, and is left out."""
    paths = {_module_name(p): p for p in (REPO / "core").rglob("*.py") if "__pycache__" not in p.parts}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        graph[name] = {
            m for m in _every_import(path, runtime=True) if m in paths and m != name and not _within(name, m)
        }
    return graph


def test_core_has_no_import_circles():
    """No core module imports, at module level or inside a function, a module that imports it back
    (directly or around a longer circle)."""
    graph = _core_graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                circles.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert circles == []


def _tab_folders() -> set[str]:
    """The folders of the registered tabs (``register("notes", "philont_desktop.notes.view:NotesTab", …)``
    in philont_desktop/tabs/__init__.py), read without importing Qt."""
    tree = ast.parse((REPO / "philont_desktop" / "tabs" / "__init__.py").read_text(encoding="utf-8"))
    folders = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "register" and len(node.args) > 1:
            path = node.args[1]
            if isinstance(path, ast.Constant) and isinstance(path.value, str):
                folders.add(path.value.split(":")[0].split(".")[1])
    return folders


def _app_imports() -> list[tuple[Path, str | None, str]]:
    """(file, its tab folder or None for shared code, a philont_desktop module it imports)."""
    folders = _tab_folders()
    out = []
    for path in sorted((REPO / "philont_desktop").rglob("*.py")):
        parts = path.relative_to(REPO / "philont_desktop").parts
        folder = parts[0] if len(parts) > 1 and parts[0] in folders else None
        for name in sorted(set(_every_import(path))):
            if _within(name, "philont_desktop") and name != "philont_desktop":
                out.append((path, folder, name))
    return out


#: Shared code allowed to import a tab, and why.
SHARED_IMPORTING_TABS = {
    # The self-test (--self-test) reaches into every tab to check what it shows against the core, as the
    # tests do; nothing of the running window imports it.
    "philont_desktop/selftest.py": "runs each tab's checks",
}


#: A tab's import of another tab's module allowed, and why: (importing tab folder, module).
TAB_IMPORTS_ALLOWED = {
    # The Recall page of the Health tab shows what the agent saw at a past turn as the Context tab's
    # past-turn preview renders it: the renderer (a QObject making HTML), never the Context tab's view.
    ("health", "philont_desktop.context_tab.render"): "renders a past turn as the Context tab does",
}


def test_the_tab_folders_are_the_registered_tabs():
    assert _tab_folders() >= {"timeline", "actions", "notes", "facts", "backups", "review", "context_tab"}


def test_shared_app_code_never_imports_a_tab():
    folders = _tab_folders()
    offenders = [
        f"{path.relative_to(REPO)}: {name}"
        for path, folder, name in _app_imports()
        if folder is None and path.relative_to(REPO).as_posix() not in SHARED_IMPORTING_TABS
        if name.split(".")[1] in folders
    ]
    assert offenders == []


def test_tabs_never_import_each_other_or_the_window():
    folders = _tab_folders()
    offenders = [
        f"{path.relative_to(REPO)}: {name}"
        for path, folder, name in _app_imports()
        if folder is not None
        if not any(folder == f and _within(name, module) for f, module in TAB_IMPORTS_ALLOWED)
        if name.split(".")[1] in folders - {folder} or _within(name, "philont_desktop.main_window")
    ]
    assert offenders == []


def test_only_the_app_and_the_shell_import_the_main_window():
    allowed = REPO / "philont_desktop" / "app.py"
    shell = REPO / "philont_desktop" / "shell"
    offenders = [
        f"{path.relative_to(REPO)}: {name}"
        for path, _folder, name in _app_imports()
        if _within(name, "philont_desktop.main_window")
        if path != allowed and shell not in path.parents and path.name != "main_window.py"
    ]
    assert offenders == []
