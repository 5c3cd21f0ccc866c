"""The Audit tab's model and the words an entry is shown in (the trail itself: tests/core/test_audit.py)."""

from __future__ import annotations

import pytest

from core import curation
from core.db import MemoryDB
from tests.audit_toy import perform_set as _perform_set
from tests.audit_toy import registered, toy_db
from tests.support import FIXED_NOW


@pytest.fixture
def db():
    with registered():
        d = toy_db()
        yield d
        d.close()


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
