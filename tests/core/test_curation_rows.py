"""The row engine of core.curation: a layer that describes its rows gets undo and redo for its edits."""

from __future__ import annotations

import pytest

from core import curation
from core.curation import rows
from core.db import MemoryDB
from core.errors import ConflictError
from tests.support import FIXED_NOW


class _Pots(rows.RowKind):
    """A toy layer: plants in pots; ``watered_at`` is bookkeeping, never compared nor put back."""

    ignored = frozenset({"watered_at"})

    def table(self, entry):
        return "pots"

    def exists(self, what, table, row, current):
        return ConflictError(f"{what}: pot {row['id']} is back", code="pots.exists")

    def gone(self, what, table, src):
        return ConflictError(f"{what}: pot {src['id']} is gone", code="pots.gone")

    def changed(self, what, table, cur, fields, want, *, deleting):
        params = rows.changed_params(cur, fields, what)
        return ConflictError(f"{what}: pot {cur['id']} changed", code="pots.changed", params=params)


@pytest.fixture
def db():
    rows.register(_Pots(), ["pots.plant", "pots.rename", "pots.remove"])
    d = MemoryDB.memory(now=FIXED_NOW)
    with d.write() as conn:
        conn.execute("CREATE TABLE pots (id TEXT PRIMARY KEY, plant TEXT, watered_at INTEGER)")
        conn.execute("INSERT INTO pots VALUES ('p1', 'fern', 1)")
    yield d
    d.close()
    for action in ("pots.plant", "pots.rename", "pots.remove"):
        curation.unregister(action)


def _pots(db):
    return [tuple(r) for r in db.conn.execute("SELECT id, plant, watered_at FROM pots ORDER BY id")]


def _edit(db, action, sql, args, before, pot_id):
    def fn(conn):
        conn.execute(sql, args)
        row = conn.execute("SELECT * FROM pots WHERE id = ?", (pot_id,)).fetchone()
        return before, None if row is None else dict(row)

    return curation.perform(db, actor="a", action=action, target_type="pot", target_id=pot_id, fn=fn)


def test_an_update_is_undone_and_redone_column_by_column(db):
    before = {"id": "p1", "plant": "fern", "watered_at": 1}
    edit = _edit(db, "pots.rename", "UPDATE pots SET plant = 'moss' WHERE id = 'p1'", (), before, "p1")
    with db.write() as conn:
        conn.execute("UPDATE pots SET watered_at = 9")  # bookkeeping moves on: no conflict
    curation.undo(db, edit.id, "a")
    assert _pots(db) == [("p1", "fern", 9)]
    curation.redo(db, edit.id, "a")
    assert _pots(db) == [("p1", "moss", 9)]


def test_a_step_that_would_overwrite_a_later_change_is_refused(db):
    before = {"id": "p1", "plant": "fern", "watered_at": 1}
    edit = _edit(db, "pots.rename", "UPDATE pots SET plant = 'moss' WHERE id = 'p1'", (), before, "p1")
    with db.write() as conn:
        conn.execute("UPDATE pots SET plant = 'ivy'")
    with pytest.raises(ConflictError) as err:
        curation.undo(db, edit.id, "a")
    assert err.value.code == "pots.changed"
    assert err.value.params == {
        "fields": ["plant"],
        "values": [{"field": "plant", "now": "ivy"}],
        "step": "undo",
    }
    assert _pots(db) == [("p1", "ivy", 1)]


def test_a_removed_row_comes_back_and_goes_again_only_while_unchanged(db):
    before = {"id": "p1", "plant": "fern", "watered_at": 1}
    edit = _edit(db, "pots.remove", "DELETE FROM pots WHERE id = 'p1'", (), before, "p1")
    curation.undo(db, edit.id, "a")
    assert _pots(db) == [("p1", "fern", 1)]
    with db.write() as conn:
        conn.execute("UPDATE pots SET plant = 'cactus'")
    with pytest.raises(ConflictError, match="Redoing it: pot p1 changed"):
        curation.redo(db, edit.id, "a")
    with db.write() as conn:
        conn.execute("DELETE FROM pots")
    with pytest.raises(ConflictError, match="Redoing it: pot p1 is gone"):
        curation.redo(db, edit.id, "a")


def test_a_created_row_is_not_created_twice(db):
    edit = _edit(db, "pots.plant", "INSERT INTO pots VALUES ('p2', 'rose', 5)", (), None, "p2")
    curation.undo(db, edit.id, "a")
    assert _pots(db) == [("p1", "fern", 1)]
    with db.write() as conn:
        conn.execute("INSERT INTO pots VALUES ('p2', 'tulip', 0)")
    with pytest.raises(ConflictError) as err:
        curation.redo(db, edit.id, "a")
    assert err.value.code == "pots.exists"
