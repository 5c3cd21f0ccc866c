"""The mark of a generated demo database: ``PRAGMA application_id`` (a field of the file's header).

:func:`core.demo.generate` marks every file it writes (:func:`mark`); :func:`is_demo` tells a demo file
from a real memory (the app shows a "Demo" badge). The header field is copied with the file and its
backups; the agent never reads or writes it. This module is small on purpose: the app asks it on every
open, without importing the generator.
"""

from __future__ import annotations

from typing import Any

# "PhDm": Philont demo.
DEMO_APPLICATION_ID = 0x5068446D


def mark(conn: Any) -> None:
    """Mark the database of ``conn`` (a writable connection of the generator) as a demo."""
    conn.execute(f"PRAGMA application_id = {DEMO_APPLICATION_ID}")


def is_demo(conn: Any) -> bool:
    """Whether the database of ``conn`` was written by the demo generator (read-only, never fails)."""
    try:
        row = conn.execute("PRAGMA application_id").fetchone()
    except Exception:  # a damaged or unreadable header: not known to be a demo
        return False
    return bool(row) and row[0] == DEMO_APPLICATION_ID
