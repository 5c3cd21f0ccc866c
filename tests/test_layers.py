"""The layering promises: ``core`` knows nothing of Qt and works without it; in the application, only
``philont_desktop/qt.py`` imports PySide6 and only ``widgets/plots.py`` imports pyqtgraph; nothing but
``core.engine`` imports an SQLite binding."""

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
