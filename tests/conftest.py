"""Test configuration shared by the core and desktop suites.

Qt runs offscreen (no display needed), and the user's real settings are never touched: HOME and the
XDG directories point into a private temporary directory for the whole run.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from tests.support import FIXED_NOW

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_SANDBOX = Path(tempfile.mkdtemp(prefix="philont-tests-"))
# Every temporary file of the run (pytest's tmp_path, tempfile in this process and in subprocesses)
# goes below the sandbox, which is removed when the run ends: the tests leave nothing in the system's
# temporary folder.
_TMP = _SANDBOX / "tmp"
_TMP.mkdir(mode=0o700)
os.environ["TMPDIR"] = str(_TMP)
tempfile.tempdir = str(_TMP)
# Registered before anything else that cleans up at exit (multiprocessing's temporary folders), so it
# runs last.
atexit.register(shutil.rmtree, _SANDBOX, ignore_errors=True)
for _var in ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"):
    _d = _SANDBOX / _var.lower()
    _d.mkdir(mode=0o700, exist_ok=True)
    os.environ[_var] = str(_d)
os.environ.pop("MEMORY_DB_PATH", None)
os.environ["PHILONT_DESKTOP_SETTINGS_DIR"] = str(_SANDBOX / "settings")


def pytest_configure(config: pytest.Config) -> None:
    if config.option.basetemp is None:
        config.option.basetemp = str(_SANDBOX / "pytest")


# A fixed "now" for time-dependent tests: 2026-06-15T12:00:00.000Z.


@pytest.fixture(autouse=True)
def _side_file_reports_stay_in_their_test():
    """A side file a test set aside is reported to the next listener (the next CLI run prints it): what
    a test left unheard is dropped after it, so that it never appears in another test's output."""
    yield
    from core import sidefiles

    with sidefiles.reporting(lambda _notice: None):
        pass


@pytest.fixture(autouse=True)
def _cycles_collected_on_the_main_thread():
    """Once a QApplication exists, cyclic garbage is collected on its thread only, as in the application
    (``philont_desktop.interpreter.GuiThreadCollector``): a worker thread collecting a test's old Qt
    objects would destroy them off their thread and crash the run. After each test, what the
    thresholds call for is collected here."""
    collector = _gui_collector()
    yield
    collector = collector or _gui_collector()
    if collector is not None:
        collector.check()


def _gui_collector():
    interpreter = sys.modules.get("philont_desktop.interpreter")
    widgets = sys.modules.get("PySide6.QtWidgets")
    app = None if widgets is None else widgets.QApplication.instance()
    if interpreter is None or app is None:
        return None
    interpreter.gui_collector.install(app)
    return interpreter.gui_collector


@pytest.fixture
def mem_db():
    """A fresh in-memory memory database with the full schema."""
    from core.db import MemoryDB

    db = MemoryDB.memory(now=FIXED_NOW)
    yield db
    db.close()


@pytest.fixture
def file_db(tmp_path):
    """A fresh writable memory database file in a private temporary directory."""
    from core.db import MemoryDB

    db = MemoryDB.create(tmp_path / "memory" / "memory.sqlite", now=FIXED_NOW)
    yield db
    db.close()


@pytest.fixture(scope="session")
def demo_db_path(tmp_path_factory) -> Path:
    """A small bilingual demo database built once per run with the project's generator (read-only use)."""
    from core import demo

    path = tmp_path_factory.mktemp("demo") / "memory.sqlite"
    demo.generate(path, messages=3000, seed=7, now=FIXED_NOW)
    return path
