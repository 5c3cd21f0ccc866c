"""Memory files damaged in each way the open path recognises, for the restore tests of core, CLI and app.

``make_memory(path)`` writes a small memory database (WAL mode, a few hundred notes, a backup in
``backups/``); ``damage(path, kind)`` then breaks the live file in one of :data:`KINDS` and returns the
bytes of what is there (main file and side files), so that a test can check they were kept unchanged.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from core.db import MemoryDB
from core.engine import sqlite3
from core.notes import NotesStore
from tests.support import FIXED_NOW

SIDES = ("", "-wal", "-shm", "-journal")
KINDS = (
    "not-sqlite",
    "empty",
    "truncated",
    "corrupt-page",
    "corrupt-schema",
    "missing",
    "orphan-wal",
    "stale-wal",
)


def notes(path: Path) -> list[str]:
    with MemoryDB.open(path) as db:
        return sorted(n.content for n in NotesStore(db).list(limit=1000))


def add_notes(path: Path, texts: list[str]) -> None:
    db = MemoryDB.open(path, writable=True, backup_before_write=False)
    try:
        for t in texts:
            NotesStore(db).upsert(None, t, created_at=FIXED_NOW)
    finally:
        db.close()


def make_memory(path: Path) -> Path:
    """A WAL memory database with 200 notes ("A …") and a backup of it; returns the backup's path."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    MemoryDB.create(path, now=FIXED_NOW).close()
    add_notes(path, [f"A {i:03d} " + "x" * 200 for i in range(200)])
    with MemoryDB.open(path) as db:
        backup = db.backup()
    for s in ("-wal", "-shm"):  # what a reader left: the agent's own close removes them
        Path(str(path) + s).unlink(missing_ok=True)
    return backup


def files(path: Path) -> dict[str, bytes]:
    """The bytes of the main file and each side file that exists (suffix -> bytes)."""
    out = {}
    for s in SIDES:
        p = Path(str(path) + s)
        if p.exists():
            out[s] = p.read_bytes()
    return out


def _crash_snapshot(path: Path, dest: Path, more: list[str]) -> None:
    """Copy ``path`` and its -wal/-shm to ``dest`` while a writer has frames not yet checkpointed; the
    copies' times are an hour back (a crash a while ago, not a running agent)."""
    conn = sqlite3.connect(str(path), isolation_level=None)
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("BEGIN")
    for t in more:
        conn.execute(
            "INSERT INTO memory_notes (id, content, importance, created_at) VALUES (?, ?, 0.5, ?)",
            (t, t, FIXED_NOW),
        )
    conn.execute("COMMIT")
    for s in ("", "-wal", "-shm"):
        shutil.copyfile(str(path) + s, str(dest) + s)
        hour_ago = os.stat(str(dest) + s).st_mtime - 3600
        os.utime(str(dest) + s, (hour_ago, hour_ago))
    conn.close()


def damage(path: Path, kind: str) -> dict[str, bytes]:
    """Break the live file at ``path`` as ``kind`` says; returns :func:`files` of the result."""
    data = path.read_bytes()
    if kind == "not-sqlite":
        path.write_bytes(b"this is not a database\n" * 50)
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif kind == "corrupt-page":  # opens, fails quick_check
        page = 4096
        wrecked = bytearray(data)
        wrecked[-3 * page : -2 * page] = b"\x5a" * page
        path.write_bytes(bytes(wrecked))
    elif kind == "corrupt-schema":  # the schema page: the open fails
        wrecked = bytearray(data)
        wrecked[100:4096] = b"\xff" * (4096 - 100)
        path.write_bytes(bytes(wrecked))
    elif kind == "missing":
        path.unlink()
    elif kind == "orphan-wal":  # the main file gone, its -wal and -shm left by a crashed writer
        snap = path.parent / "snapshot.sqlite"
        _crash_snapshot(path, snap, [f"B {i}" for i in range(50)])
        path.unlink()
        for s in ("-wal", "-shm"):
            os.replace(str(snap) + s, str(path) + s)
        snap.unlink()
    elif kind == "stale-wal":  # a -wal of another state of the file beside a rewritten main file
        snap = path.parent / "snapshot.sqlite"
        _crash_snapshot(path, snap, [f"B {i}" for i in range(50)])
        conn = sqlite3.connect(str(path), isolation_level=None)
        conn.execute("DELETE FROM memory_notes WHERE content LIKE 'A 0%'")
        conn.execute("VACUUM")
        conn.close()
        for s in ("-wal", "-shm"):
            os.replace(str(snap) + s, str(path) + s)
        snap.unlink()
    else:
        raise ValueError(kind)
    return files(path)
