"""The screen-reader path: the application under Xvfb on the AT-SPI bus, its accessibility tree walked
through AT-SPI by ``tests/a11y/atspi_walk.py`` (the system Python's ``pyatspi``), every tab selected and
every control checked for a role and a name. Skipped, with the walker's reason, only where the walk
cannot run (no AT-SPI bus, no ``pyatspi``, no Xvfb)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WALKER = ROOT / "tests" / "a11y" / "atspi_walk.py"
SYSTEM_PYTHON = Path("/usr/bin/python3")
CANNOT_RUN = 77


def _walk(command: list[str], tmp_path: Path, timeout: int = 240) -> tuple[subprocess.CompletedProcess, dict]:
    if not SYSTEM_PYTHON.exists():
        pytest.skip("no /usr/bin/python3 for python3-pyatspi")
    report = tmp_path / "report.json"
    done = subprocess.run(
        [str(SYSTEM_PYTHON), str(WALKER), "--json", str(report), "--", *command],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if done.returncode == CANNOT_RUN:
        pytest.skip(done.stderr.strip().splitlines()[-1])
    return done, (json.loads(report.read_text(encoding="utf-8")) if report.exists() else {})


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_tab_and_control_is_named_on_the_atspi_bus(demo_db_path, tmp_path, qapp, language):
    from philont_desktop import i18n
    from philont_desktop.tabs import registry

    command = [sys.executable, "-m", "philont_desktop", "--db", str(demo_db_path), "--read-only"]
    done, report = _walk([*command, "--lang", language], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    i18n.install(language)
    try:
        expected = [e.title() for e in registry()]
    finally:
        i18n.uninstall()
    assert [t["tab"] for t in report["tabs"]] == expected
    for tab in report["tabs"]:
        assert tab["controls"] >= 3 and not tab["unnamed"], tab
        for page in tab["pages"]:  # the pages of a tab of pages, each shown in turn
            assert page["controls"] >= 3 and not page["unnamed"], (tab["tab"], page)
    health = report["tabs"][-1]
    assert len(health["pages"]) >= 2, health  # the Health tab's Recall and Privacy pages
    roles = {r for t in report["tabs"] for r in t["roles"]}
    assert {"table", "text", "combo box", "page tab list", "slider", "tree"} <= roles


def test_the_walk_reports_an_unnamed_control(tmp_path):
    app = (
        "from PySide6.QtWidgets import QApplication, QLineEdit, QMainWindow, QTabWidget\n"
        "app = QApplication([])\n"
        "window = QMainWindow(); tabs = QTabWidget(); tabs.setAccessibleName('Tabs')\n"
        "tabs.addTab(QLineEdit(), 'One'); window.setCentralWidget(tabs)\n"
        "window.show(); app.exec()\n"
    )
    done, report = _walk([sys.executable, "-c", app], tmp_path, timeout=120)
    assert report, done.stdout + done.stderr
    assert done.returncode == 1, done.stdout + done.stderr
    assert [t["tab"] for t in report["tabs"]] == ["One"]
    assert report["tabs"][0]["unnamed"] and "text" in report["tabs"][0]["unnamed"][0]
