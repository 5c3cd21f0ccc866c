"""The audit trail and the generic curation machinery (core), and the Audit tab's model."""

from __future__ import annotations

import getpass
import json

import pytest

from core import audit, curation
from core.db import MemoryDB
from core.errors import ConflictError, NotFoundError, ReadOnlyError
from core.schema import AUDIT_TABLE
from tests.support import FIXED_NOW

# -- a toy layer: a "toy" table with a value, and a registered "toy.set" action ----------------------


def _toy_row(conn, toy_id):
    row = conn.execute("SELECT id, value FROM toy WHERE id = ?", (toy_id,)).fetchone()
    return dict(row) if row is not None else None


def _set(conn, toy_id, value):
    before = _toy_row(conn, toy_id)
    conn.execute("UPDATE toy SET value = ? WHERE id = ?", (value, toy_id))
    return before, _toy_row(conn, toy_id)


def _undo_set(conn, entry):
    current = _toy_row(conn, int(entry.target_id))
    if current != entry.after:
        raise ConflictError("the toy changed since the edit", current)
    return _set(conn, int(entry.target_id), entry.before["value"])


def _redo_set(conn, entry):
    current = _toy_row(conn, int(entry.target_id))
    if current != entry.before:
        raise ConflictError("the toy changed since the undo", current)
    _set(conn, int(entry.target_id), entry.after["value"])
    return None  # "exactly the original"


def _undo_add(conn, entry):
    conn.execute("DELETE FROM toy WHERE id = ?", (int(entry.target_id),))


def _redo_add(conn, entry):
    conn.execute("INSERT INTO toy (id, value) VALUES (?, ?)", (entry.after["id"], entry.after["value"]))


@pytest.fixture(autouse=True)
def toy_actions():
    curation.register("toy.set", _undo_set, _redo_set)
    curation.register("toy.add", _undo_add, _redo_add)
    yield
    curation.unregister("toy.set")
    curation.unregister("toy.add")


@pytest.fixture
def db():
    d = MemoryDB.memory(now=FIXED_NOW)
    with d.write() as conn:
        conn.execute("CREATE TABLE toy (id INTEGER PRIMARY KEY, value TEXT)")
        conn.execute("INSERT INTO toy (id, value) VALUES (1, 'a')")
    yield d
    d.close()


def _value(db):
    return db.conn.execute("SELECT value FROM toy WHERE id = 1").fetchone()[0]


def _audit_rows(db):
    return [dict(r) for r in db.conn.execute(f"SELECT * FROM {AUDIT_TABLE} ORDER BY id")]


def _perform_set(db, value, now=FIXED_NOW, note=None):
    return curation.perform(
        db,
        actor="alice@philont-desktop",
        action="toy.set",
        target_type="toy",
        target_id=1,
        fn=lambda conn: _set(conn, 1, value),
        note=note,
        now=now,
    )


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


# -- the Audit tab's model ---------------------------------------------------------------------------


def _sync_runner(db):
    """Runs the model's read ops at once on ``db`` (a controller's ``submit`` without threads)."""

    def run(op, *, on_result=None, on_error=None):
        try:
            value = op.fn(db, *op.args)
        except Exception as exc:
            if on_error:
                on_error(exc)
            return None
        if on_result:
            on_result(value)
        return None

    return run


def test_audit_model_passes_the_model_tester(qapp, qtmodeltester, db):
    from philont_desktop.audit.view import AuditModel

    edit = _perform_set(db, "b")
    curation.undo(db, edit.id, "bob")
    for i in range(5):
        _perform_set(db, f"w{i}")
    model = AuditModel(_sync_runner(db), page_size=3)
    model.reload()
    assert model.rowCount() == 3
    assert model.canFetchMore()
    qtmodeltester.check(model)
    while model.canFetchMore():
        model.fetchMore()
    assert model.rowCount() == 7
    qtmodeltester.check(model)


def test_audit_model_texts_and_new_entries_on_top(qapp, db):
    from philont_desktop.audit.view import AuditModel
    from philont_desktop.qt import Qt

    edit = _perform_set(db, "b")
    model = AuditModel(_sync_runner(db))
    model.reload()
    cols = AuditModel.COLUMNS

    def text(row, col):
        return model.data(model.index(row, cols.index(col)), Qt.ItemDataRole.DisplayRole)

    assert [text(0, c) for c in ("who", "what", "target", "change", "state")] == [
        "alice@philont-desktop",
        "toy.set",
        "toy 1",
        "value: a → b",
        "",
    ]
    new = []
    model.newEntries.connect(new.append)
    curation.undo(db, edit.id, "bob")
    model.refresh()
    assert new == [1]
    assert model.rowCount() == 2
    assert [text(0, c) for c in ("who", "what", "state")] == ["bob", "undo toy.set", f"undo of #{edit.id}"]
    assert text(1, "state") == "undone"
    curation.redo(db, edit.id, "bob")
    model.refresh()
    assert text(0, "what") == "redo toy.set"
    assert text(2, "state") == ""


def test_an_entry_in_the_words_people_use():
    from philont_desktop.audit.human import changes_line, field_changes, target_label

    before = {"id": "f1", "namespace": "user", "key": "city", "value": "北京", "confidence": 0.8}
    after = {"id": "f1", "namespace": "user", "key": "city", "value": "上海", "confidence": 0.9}
    assert target_label("fact", "f1", before, after) == "user.city"
    assert field_changes(before, after) == [("value", "北京", "上海"), ("confidence", "0.8", "0.9")]
    assert changes_line(before, after, limit=1) == "value: 北京 → 上海; +1"
    new_version = {**after, "id": "f2", "supersedes": "f1", "value_json": '"上海"'}
    old_version = {**before, "value_json": '"北京"'}
    assert [c[0] for c in field_changes(old_version, new_version)] == [
        "value",
        "confidence",
        "value",
        "id",
        "supersedes",
    ]
    assert changes_line(old_version, new_version).startswith("value: 北京 → 上海; confidence: 0.8 → 0.9")
    assert target_label("skill", "7", None, {"id": 7, "name": "deploy-web"}) == "deploy-web"
    note = {"id": "n1", "content": "Remember to water the plants\nevery Monday morning before work starts"}
    assert target_label("note", "n1", note, None).startswith("“Remember to water the plants every Monday")
    assert target_label("toy", 1, {"id": 1}, {"id": 1}) == "toy 1"
    assert field_changes(None, after) == []  # created: nothing to compare field by field


@pytest.fixture
def facts_db():
    from core.facts import FactStore

    d = MemoryDB.memory(now=FIXED_NOW)
    FactStore(d).store_fact("user", "city", "上海", now=FIXED_NOW)
    yield d
    d.close()


def _fact_entries(d):
    from core.curation import facts as fact_curation
    from core.facts import FactStore

    fact = FactStore(d).all_rows()[0]
    fact_curation.pin(fact.id).perform(d, "alice")
    fact_curation.forget(fact.id, now=FIXED_NOW).perform(d, "alice")


def test_an_entry_names_fields_in_words_and_shows_values_in_human_form(english, facts_db):
    from philont_desktop import humanize
    from philont_desktop.audit.view import AuditModel
    from philont_desktop.qt import Qt

    _fact_entries(facts_db)
    model = AuditModel(_sync_runner(facts_db))
    model.reload()
    change = model.COLUMNS.index("change")
    forget, pin = (model.index(r, change) for r in (0, 1))
    assert pin.data() == "τ (days): namespace default → pinned (never decays)"
    assert forget.data() == f"forgotten at: ∅ → {humanize.abs_time(FIXED_NOW, seconds=True)}"
    # the values as stored stay in the tooltip
    assert "decay_tau_days: null → -1" in pin.data(Qt.ItemDataRole.ToolTipRole)
    assert f"forgotten_at: null → {FIXED_NOW}" in forget.data(Qt.ItemDataRole.ToolTipRole)


def test_an_entry_in_the_chinese_interface_names_its_fields_in_chinese(chinese, facts_db):
    from philont_desktop.audit.view import AuditModel

    _fact_entries(facts_db)
    model = AuditModel(_sync_runner(facts_db))
    model.reload()
    pin = model.index(1, model.COLUMNS.index("change")).data()
    assert "decay_tau_days" not in pin and "namespace default" not in pin and "→" in pin


def test_values_in_human_form(english):
    from philont_desktop.audit import words

    assert words.value("decay_tau_days", 30) == "30 days"
    assert words.value("confidence", 0.9) == "90 %"
    assert words.value("pinned", 1) == "yes"
    assert words.value("value_json", {"city": "上海"}) == "city: 上海"
    assert words.label("created_at") == "created at"


@pytest.fixture
def english(qapp):
    from philont_desktop import i18n

    i18n.install("en")
    yield
    i18n.uninstall()


@pytest.fixture
def chinese(qapp):
    from philont_desktop import i18n

    i18n.install("zh_CN")
    yield
    i18n.uninstall()
