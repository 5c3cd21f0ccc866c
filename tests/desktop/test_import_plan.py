"""The open's imports: the Qt-free ``core`` modules on a worker, the application's own modules (which
create PySide classes) only on the GUI thread, each after what it imports."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from philont_desktop import import_plan

ROOT = Path(__file__).resolve().parents[2]


def _reaches(start: str, goal: str) -> bool:
    seen, todo = set(), [start]
    while todo:
        name = todo.pop()
        if name == goal:
            return True
        if name not in seen:
            seen.add(name)
            todo += import_plan.direct_imports(name)
    return False


def test_a_module_comes_after_the_application_modules_it_imports():
    worker, app = import_plan.plan(["philont_desktop.context", "philont_desktop.timeline.view"], loaded=())
    assert "core.timeline" in worker and "PySide6.QtCore" not in worker
    assert not any(m.startswith("philont_desktop") for m in worker)
    assert all(m.startswith("philont_desktop") for m in app)
    assert app[-1] == "philont_desktop.timeline.view" and len(app) == len(set(app))
    for i, name in enumerate(app):
        # an import circle (i18n and i18n_tools) has no such order; Python runs it as it always does
        later = [d for d in import_plan.direct_imports(name) if d in app[i + 1 :] and not _reaches(d, name)]
        assert later == [], f"{name} comes before {later}"


def test_a_library_a_module_needs_is_for_the_worker_and_pyqtgraph_with_it():
    worker, app = import_plan.plan(["philont_desktop.widgets.plots"], loaded=())
    assert "pyqtgraph" in worker and app[-1] == "philont_desktop.widgets.plots"


def test_only_the_imports_made_at_import_time_count():
    deps = import_plan.direct_imports("philont_desktop.shell.session")
    assert "core.errors" in deps  # top level
    assert "philont_desktop.workers" in deps
    assert "core.db" not in deps  # only under TYPE_CHECKING (and inside functions)
    assert "philont_desktop.context" not in deps
    assert "philont_desktop.shell" in deps  # its package is run first


def test_the_open_worker_imports_no_application_module(tmp_path):
    """In a fresh interpreter, open a file as the window does, then preload a tab and the plots: the
    worker threads import ``core`` modules and libraries only, the GUI thread the application's."""
    from core.db import MemoryDB

    path = tmp_path / "m.sqlite"
    MemoryDB.create(path).close()
    script = textwrap.dedent(
        f"""
        import sys, threading
        from PySide6.QtWidgets import QApplication
        app = QApplication([])
        import philont_desktop.tabs, philont_desktop.import_plan
        from philont_desktop.shell import session
        by_worker = []
        class Spy:
            def find_spec(self, name, path=None, target=None):
                if threading.current_thread() is not threading.main_thread():
                    by_worker.append(name)
                return None
        sys.meta_path.insert(0, Spy())
        out = {{}}
        t = threading.Thread(target=lambda: out.update(info=session.open_info({str(path)!r})))
        t.start(); t.join()
        report, demo, app_modules = out["info"]
        print("APP", sorted(m for m in by_worker if m.split(".")[0] == "philont_desktop"))
        print("CORE", any(m.startswith("core.") for m in by_worker))
        print("GUI", "philont_desktop.context" in app_modules and "philont_desktop.context" not in sys.modules)
        # the preloader too: a tab's view and the plots, the application's part on the GUI thread
        from philont_desktop.preload import Preloader, PLOTS
        from philont_desktop.workers import spin_until
        by_worker.clear()
        pre = Preloader()
        pre.start(["philont_desktop.notes.view", PLOTS])
        spin_until(lambda: not pre.busy, 60_000)
        pre.shutdown()
        print("PRE", sorted(m for m in by_worker if m.split(".")[0] == "philont_desktop"),
              "philont_desktop.notes.view" in sys.modules and "pyqtgraph" in by_worker and not pre.failed)
        """
    )
    env = {"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    lines = dict(
        line.split(" ", 1) for line in done.stdout.splitlines() if line[:3] in ("APP", "COR", "GUI", "PRE")
    )
    assert lines == {"APP": "[]", "CORE": "True", "GUI": "True", "PRE": "[] True"}
