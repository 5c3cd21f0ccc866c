"""Helpers of the reliability suite: subprocess environment, file fingerprints, integrity checks."""

from __future__ import annotations

import hashlib
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


def child_env(**extra: str) -> dict[str, str]:
    """The environment of a helper process: the repository importable, Qt offscreen."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["QT_QPA_PLATFORM"] = "offscreen"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.update(extra)
    return env


def python() -> str:
    return sys.executable


def digest(path: Path) -> str | None:
    """sha256 of a file's bytes; ``None`` when it does not exist."""
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None


EMPTY = hashlib.sha256(b"").hexdigest()


def fingerprint(path: Path) -> dict[str, str | None]:
    """The bytes that must not change when a database is only read: the file and its -wal.

    An absent -wal and an empty one hold the same bytes (none), so both read as ``None``.
    """
    out: dict[str, str | None] = {"": digest(path)}
    wal = digest(Path(str(path) + "-wal"))
    out["-wal"] = None if wal == EMPTY else wal
    return out


def integrity(path: Path) -> str:
    """``PRAGMA integrity_check`` through a read-only connection of the core."""
    from core.db import MemoryDB

    db = MemoryDB.open(path, check=False)
    try:
        with db.lock:
            rows = db.conn.execute("PRAGMA integrity_check").fetchall()
        return "\n".join(str(r[0]) for r in rows)
    finally:
        db.close()


def settle(tab, timeout_ms: int = 20_000) -> bool:
    """Until ``tab`` has been idle once, within ``timeout_ms``.

    ``BaseTab.wait_idle`` answers whether the tab is idle when its event loop stops; while another
    process writes, live refresh may start the next load in between, so one ``False`` alone does not
    mean that the tab is stuck: ask again until the deadline.
    """
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        left = max(0, int((deadline - time.monotonic()) * 1000))
        if tab.wait_idle(left):
            return True
        if left <= 0:
            return False
