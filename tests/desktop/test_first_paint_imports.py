"""What the window imports before its first paint: only what that paint needs (the time to the first
paint is mostly imports). The row models with pydantic, the plots with pyqtgraph and numpy, and the
tabs not shown come later, off the GUI thread where they can."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from core.db import MemoryDB

PROBE = textwrap.dedent(
    """
    import json, os, sys
    from philont_desktop.qt import QApplication, QEvent, QObject

    app = QApplication([sys.argv[0]])

    class Probe(QObject):
        def eventFilter(self, obj, ev):
            if ev.type() == QEvent.Type.Paint and obj.isWidgetType():
                if type(obj.window()).__name__ == "MainWindow":
                    print("MODULES " + json.dumps(sorted(sys.modules)), flush=True)
                    os._exit(0)
            return False

    probe = Probe()
    app.installEventFilter(probe)
    from philont_desktop.app import main

    main(["--db", sys.argv[1], "--read-only"])
    os._exit(3)
    """
)


def test_the_first_paint_imports_neither_the_row_models_nor_the_plots(tmp_path: Path):
    db = tmp_path / "memory.sqlite"
    MemoryDB.create(db).close()
    env = dict(os.environ)
    env["QT_QPA_PLATFORM"] = "offscreen"
    env["PHILONT_DESKTOP_SETTINGS_DIR"] = str(tmp_path / "settings")
    p = subprocess.run(
        [sys.executable, "-c", PROBE, str(db)], env=env, capture_output=True, text=True, timeout=120
    )
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("MODULES ")]
    assert lines, p.stdout + p.stderr
    modules = set(json.loads(lines[0][len("MODULES ") :]))
    assert "philont_desktop.main_window" in modules  # the probe saw the window
    early = sorted(m for m in modules if m.split(".")[0] in ("pydantic", "pyqtgraph", "numpy"))
    assert not early, early
    assert "core.models" not in modules
