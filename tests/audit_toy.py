"""A toy layer for the tests of the audit trail and the generic curation machinery (core and app).

A ``toy`` table with a value; the actions ``toy.set`` and ``toy.add`` are registered with
:mod:`core.curation` while :func:`registered` is active.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from core import curation
from core.db import MemoryDB
from core.errors import ConflictError
from core.schema import AUDIT_TABLE
from tests.support import FIXED_NOW


def toy_row(conn, toy_id):
    row = conn.execute("SELECT id, value FROM toy WHERE id = ?", (toy_id,)).fetchone()
    return dict(row) if row is not None else None


def set_value(conn, toy_id, value):
    before = toy_row(conn, toy_id)
    conn.execute("UPDATE toy SET value = ? WHERE id = ?", (value, toy_id))
    return before, toy_row(conn, toy_id)


def undo_set(conn, entry):
    current = toy_row(conn, int(entry.target_id))
    if current != entry.after:
        raise ConflictError("the toy changed since the edit", current)
    return set_value(conn, int(entry.target_id), entry.before["value"])


def redo_set(conn, entry):
    current = toy_row(conn, int(entry.target_id))
    if current != entry.before:
        raise ConflictError("the toy changed since the undo", current)
    set_value(conn, int(entry.target_id), entry.after["value"])
    return None  # "exactly the original"


def _undo_add(conn, entry):
    conn.execute("DELETE FROM toy WHERE id = ?", (int(entry.target_id),))


def _redo_add(conn, entry):
    conn.execute("INSERT INTO toy (id, value) VALUES (?, ?)", (entry.after["id"], entry.after["value"]))


@contextlib.contextmanager
def registered() -> Iterator[None]:
    """``toy.set`` and ``toy.add`` can be undone and redone while this is active."""
    curation.register("toy.set", undo_set, redo_set)
    curation.register("toy.add", _undo_add, _redo_add)
    try:
        yield
    finally:
        curation.unregister("toy.set")
        curation.unregister("toy.add")


def toy_db() -> MemoryDB:
    """An in-memory database with the toy table and toy 1 (value ``a``)."""
    d = MemoryDB.memory(now=FIXED_NOW)
    with d.write() as conn:
        conn.execute("CREATE TABLE toy (id INTEGER PRIMARY KEY, value TEXT)")
        conn.execute("INSERT INTO toy (id, value) VALUES (1, 'a')")
    return d


def value(db):
    return db.conn.execute("SELECT value FROM toy WHERE id = 1").fetchone()[0]


def audit_rows(db):
    return [dict(r) for r in db.conn.execute(f"SELECT * FROM {AUDIT_TABLE} ORDER BY id")]


def perform_set(db, value, now=FIXED_NOW, note=None):
    return curation.perform(
        db,
        actor="alice@philont-desktop",
        action="toy.set",
        target_type="toy",
        target_id=1,
        fn=lambda conn: set_value(conn, 1, value),
        note=note,
        now=now,
    )
