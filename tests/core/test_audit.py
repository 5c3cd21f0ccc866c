"""The audit trail and the generic curation machinery (core): perform, undo, redo and the trail."""

from __future__ import annotations

import getpass
import json

import pytest

from core import audit, curation
from core.db import MemoryDB
from core.errors import ConflictError, NotFoundError, ReadOnlyError
from core.schema import AUDIT_TABLE
from tests.audit_toy import audit_rows as _audit_rows
from tests.audit_toy import perform_set as _perform_set
from tests.audit_toy import redo_set as _redo_set
from tests.audit_toy import registered, toy_db
from tests.audit_toy import set_value as _set
from tests.audit_toy import toy_row as _toy_row
from tests.audit_toy import undo_set as _undo_set
from tests.audit_toy import value as _value
from tests.support import FIXED_NOW


@pytest.fixture(autouse=True)
def toy_actions():
    with registered():
        yield


@pytest.fixture
def db():
    d = toy_db()
    yield d
    d.close()


# -- core ------------------------------------------------------------------------------------------


def test_perform_changes_and_audits_in_one_row(db):
    edit = _perform_set(db, "b", note="typo")
    assert _value(db) == "b"
    assert _audit_rows(db) == [
        {
            "id": edit.id,
            "at": FIXED_NOW,
            "actor": "alice@philont-desktop",
            "action": "toy.set",
            "target_type": "toy",
            "target_id": "1",
            "before_json": '{"id":1,"value":"a"}',
            "after_json": '{"id":1,"value":"b"}',
            "undone_of": None,
            "note": "typo",
        }
    ]
    assert edit.before == {"id": 1, "value": "a"}
    assert edit.after == {"id": 1, "value": "b"}
    assert edit.is_original and not edit.undone


def test_a_failing_change_writes_nothing(db):
    def broken(conn):
        conn.execute("UPDATE toy SET value = 'z' WHERE id = 1")
        raise ValueError("refused")

    with pytest.raises(ValueError, match="refused"):
        curation.perform(db, actor="a", action="toy.set", target_type="toy", target_id=1, fn=broken)
    assert _value(db) == "a"
    assert _audit_rows(db) == []


def test_undo_and_redo_are_audited_and_refer_to_the_original(db):
    edit = _perform_set(db, "b")
    u = curation.undo(db, edit.id, "bob@philont-desktop", now=FIXED_NOW + 1)
    assert _value(db) == "a"
    assert (u.action, u.undone_of, u.actor, u.at) == ("undo", edit.id, "bob@philont-desktop", FIXED_NOW + 1)
    assert (u.before, u.after) == ({"id": 1, "value": "b"}, {"id": 1, "value": "a"})
    assert u.original_action == "toy.set"
    assert audit.get_entry(db, edit.id).undone is True

    r = curation.redo(db, edit.id, "bob@philont-desktop", now=FIXED_NOW + 2)
    assert _value(db) == "b"
    assert (r.action, r.undone_of) == ("redo", edit.id)
    assert (r.before, r.after) == ({"id": 1, "value": "a"}, {"id": 1, "value": "b"})
    assert audit.get_entry(db, edit.id).undone is False
    assert [row["action"] for row in _audit_rows(db)] == ["toy.set", "undo", "redo"]


def test_undo_twice_and_redo_without_undo_are_conflicts(db):
    edit = _perform_set(db, "b")
    with pytest.raises(ConflictError, match=r"is not undone"):
        curation.redo(db, edit.id, "a")
    curation.undo(db, edit.id, "a")
    with pytest.raises(ConflictError, match=r"already undone"):
        curation.undo(db, edit.id, "a")
    assert len(_audit_rows(db)) == 2


def test_the_checks_before_undo_and_redo_refuse_what_the_steps_refuse(db):
    edit = _perform_set(db, "b")
    assert curation.check_undo(db, edit.id).id == edit.id
    with pytest.raises(ConflictError, match=r"is not undone") as not_undone:
        curation.check_redo(db, edit.id)
    assert not_undone.value.code == "audit.not_undone"
    undo_row = curation.undo(db, edit.id, "a")
    with pytest.raises(ConflictError, match=r"already undone") as already:
        curation.check_undo(db, undo_row.id)  # an undo row names the edit it undid
    assert already.value.code == "audit.already_undone"
    orig = curation.check_redo(db, undo_row.id)
    assert (orig.id, orig.action, orig.undone) == (edit.id, "toy.set", True)
    with pytest.raises(NotFoundError) as missing:
        curation.check_undo(db, 999)
    assert missing.value.code == "audit.not_found"
    assert len(_audit_rows(db)) == 2 and _value(db) == "a"  # checking writes nothing


def test_the_checks_read_only_and_know_which_actions_can_be_undone(tmp_path):
    path = tmp_path / "m.sqlite"
    d = MemoryDB.create(path, now=FIXED_NOW)
    edit = curation.perform(
        d, actor="a", action="nolayer.thing", target_type="t", target_id=1, fn=lambda c: ({"v": 1}, {"v": 2})
    )
    d.close()
    ro = MemoryDB.open(path)
    try:
        with pytest.raises(curation.UndoUnavailableError, match=r"'nolayer\.thing' cannot be undone"):
            curation.check_undo(ro, edit.id)
        with pytest.raises(NotFoundError) as missing:
            curation.check_redo(ro, edit.id + 1)
        assert missing.value.code == "audit.not_found"
    finally:
        ro.close()


def test_undo_refuses_when_the_row_changed_since(db):
    edit = _perform_set(db, "b")
    with db.write() as conn:
        conn.execute("UPDATE toy SET value = 'agent' WHERE id = 1")
    with pytest.raises(ConflictError, match="changed since"):
        curation.undo(db, edit.id, "a")
    assert _value(db) == "agent"
    assert len(_audit_rows(db)) == 1


def test_undo_of_an_undo_row_resolves_to_the_original(db):
    edit = _perform_set(db, "b")
    u = curation.undo(db, edit.id, "a")
    r = curation.redo(db, u.id, "a")  # the id of the undo row: the original is redone
    assert r.undone_of == edit.id
    assert _value(db) == "b"


def test_insert_takes_its_target_id_from_after(db):
    def add(conn):
        cur = conn.execute("INSERT INTO toy (value) VALUES ('new')")
        return None, _toy_row(conn, cur.lastrowid)

    edit = curation.perform(db, actor="a", action="toy.add", target_type="toy", target_id=None, fn=add)
    assert edit.target_id == "2"
    assert audit.summarize(edit.before, edit.after) == "created"
    curation.undo(db, edit.id, "a")
    assert db.conn.execute("SELECT count(*) FROM toy").fetchone()[0] == 1
    curation.redo(db, edit.id, "a")
    assert db.conn.execute("SELECT value FROM toy WHERE id = 2").fetchone()[0] == "new"


def test_target_id_from_a_third_return_value(db):
    edit = curation.perform(
        db,
        actor="a",
        action="toy.set",
        target_type="toy",
        target_id=None,
        fn=lambda conn: (*_set(conn, 1, "c"), "1"),
    )
    assert edit.target_id == "1"


def test_unknown_target_id_is_refused(db):
    with pytest.raises(ValueError, match="target id is unknown"):
        curation.perform(
            db, actor="a", action="toy.set", target_type="toy", target_id=None, fn=lambda conn: ("x", "y")
        )


def test_unregistered_actions_cannot_be_undone(db):
    edit = curation.perform(
        db,
        actor="a",
        action="nolayer.thing",
        target_type="t",
        target_id=1,
        fn=lambda conn: ({"v": 1}, {"v": 2}),
    )
    with pytest.raises(curation.UndoUnavailableError, match=r"'nolayer\.thing' cannot be undone"):
        curation.undo(db, edit.id, "a")
    with pytest.raises(NotFoundError, match="no audit entry #999"):
        curation.undo(db, 999, "a")


def test_reserved_action_names(db):
    with pytest.raises(ValueError):
        curation.register("undo", _undo_set, _redo_set)
    with pytest.raises(ValueError):
        curation.perform(db, actor="a", action="redo", target_type="t", target_id=1, fn=lambda c: (1, 2))


def test_current_db_is_the_database_being_written(db):
    seen = []

    def change(conn):
        seen.append(curation.current_db())
        return _set(conn, 1, "d")

    curation.perform(db, actor="a", action="toy.set", target_type="toy", target_id=1, fn=change)
    assert seen == [db]
    assert curation.current_db() is None


def test_read_only_database_refuses(tmp_path):
    path = tmp_path / "m.sqlite"
    MemoryDB.create(path, now=FIXED_NOW).close()
    ro = MemoryDB.open(path)
    try:
        with pytest.raises(ReadOnlyError):
            curation.perform(
                ro, actor="a", action="toy.set", target_type="toy", target_id=1, fn=lambda conn: (1, 2)
            )
    finally:
        ro.close()


def test_reading_never_creates_the_table(tmp_path):
    path = tmp_path / "m.sqlite"
    db = MemoryDB.create(path, now=FIXED_NOW)
    with db.write() as conn:
        conn.execute(f"DROP TABLE {AUDIT_TABLE}")
    db.close()
    ro = MemoryDB.open(path)
    try:
        assert audit.list_entries(ro) == []
        assert audit.get_entry(ro, 1) is None
        assert audit.target_types(ro) == []
        assert not ro.table_exists(AUDIT_TABLE)
    finally:
        ro.close()


def test_list_entries_pages_and_filters(db):
    edits = [_perform_set(db, f"v{i}", now=FIXED_NOW + i) for i in range(5)]
    curation.perform(
        db, actor="a", action="toy.add", target_type="other", target_id=7, fn=lambda conn: (None, {"id": 7})
    )
    ids = [e.id for e in audit.list_entries(db, limit=100)]
    assert ids == [6, 5, 4, 3, 2, 1]
    assert [e.id for e in audit.list_entries(db, limit=2)] == [6, 5]
    assert [e.id for e in audit.list_entries(db, limit=2, before_id=5)] == [4, 3]
    assert [e.id for e in audit.list_entries(db, limit=10, after_id=4)] == [6, 5]
    assert [e.id for e in audit.list_entries(db, target_type="toy")] == [5, 4, 3, 2, 1]
    assert [e.id for e in audit.list_entries(db, target_type="other", target_id=7)] == [6]
    assert audit.target_types(db) == ["other", "toy"]
    assert edits[0].at == FIXED_NOW


def test_diff_and_summary():
    assert audit.diff_lines({"a": 1, "b": "x"}, {"a": 1, "b": "y"}) == [
        "@@ -1,4 +1,4 @@",
        " {",
        '   "a": 1,',
        '-  "b": "x"',
        '+  "b": "y"',
        " }",
    ]
    assert audit.summarize({"a": 1, "b": 2}, {"a": 2, "b": 3}) == "a, b"
    assert audit.summarize(None, {"a": 1}) == "created"
    assert audit.summarize({"a": 1}, None) == "deleted"
    assert audit.summarize({"a": 1}, {"a": 1}) == "no change"


def test_invalid_json_in_the_trail_is_shown_not_raised(db):
    _perform_set(db, "b")
    with db.write() as conn:
        conn.execute(f"UPDATE {AUDIT_TABLE} SET before_json = '{{broken'")
    [entry] = audit.list_entries(db)
    assert entry.before is None
    assert entry.json_errors and entry.json_errors[0].startswith("before_json: invalid JSON")


def test_default_actor():
    assert curation.default_actor() == f"{getpass.getuser()}@philont-desktop"


def test_values_are_stored_as_compact_json(db):
    edit = curation.perform(
        db,
        actor="a",
        action="toy.set",
        target_type="toy",
        target_id=1,
        fn=lambda conn: ({"x": 1.0, "s": "中文"}, {"x": 2.5, "s": "中文"}),
    )
    row = db.conn.execute(
        f"SELECT before_json, after_json FROM {AUDIT_TABLE} WHERE id = ?", (edit.id,)
    ).fetchone()
    assert row[0] == '{"x":1,"s":"中文"}'
    assert json.loads(row[1]) == {"x": 2.5, "s": "中文"}
