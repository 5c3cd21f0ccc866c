"""Fixtures of the reliability suite."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest


@pytest.fixture
def live_copy(demo_db_path, tmp_path) -> Path:
    """A private copy of the small demo database, in a 0700 directory as the agent keeps it."""
    target = tmp_path / "memory" / "memory.sqlite"
    target.parent.mkdir(mode=0o700)
    shutil.copy2(demo_db_path, target)
    os.chmod(target, 0o600)
    return target
