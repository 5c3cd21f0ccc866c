"""``core`` type-checks clean with mypy, as configured in pyproject.toml (``[tool.mypy]``: the files,
the options); mypy comes with the ``test`` extra."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_is_clean():
    proc = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=900
    )
    assert proc.returncode == 0 and proc.stdout.startswith("Success: no issues found"), (
        proc.stdout + proc.stderr
    )
