"""The test run leaves nothing in the system's temporary folder."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_run_leaves_no_files_in_the_temporary_folder(tmp_path: Path) -> None:
    system_tmp = tmp_path / "system-tmp"
    system_tmp.mkdir()
    tests = tmp_path / "probe"
    tests.mkdir()
    (tests / "conftest.py").write_text((ROOT / "tests" / "conftest.py").read_text(encoding="utf-8"))
    (tests / "test_probe.py").write_text(
        textwrap.dedent(
            """
            import subprocess, sys, tempfile

            def test_makes_temporary_files(tmp_path):
                (tmp_path / "a.txt").write_text("x")
                tempfile.mkdtemp(prefix="left-")
                tempfile.mkstemp(prefix="left-")
                subprocess.run([sys.executable, "-c", "import tempfile; tempfile.mkdtemp()"], check=True)
            """
        )
    )
    env = {**os.environ, "TMPDIR": str(system_tmp), "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tests), str(tests)],
        cwd=tests,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert sorted(p.name for p in system_tmp.iterdir()) == []
