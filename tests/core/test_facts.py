"""FactStore: supersede chains, access bumps, decay candidates, validation, pinning (spec Part A §2, C h)."""

from __future__ import annotations

import math
import re

import pytest

from core.db import MemoryDB
from core.errors import ConflictError, NotFoundError, ReadOnlyError, ValidationError_
from core.facts import FactStore, SelfDescriptionWriteForbiddenError
from tests.conftest import FIXED_NOW

DAY = 86_400_000
UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


@pytest.fixture
def facts(mem_db):
    return FactStore(mem_db)


def raw(db, fact_id):
    return db.conn.execute("SELECT * FROM memory_facts WHERE id = ?", (fact_id,)).fetchone()


# -- storing -----------------------------------------------------------------------------------------
def test_store_fact_writes_compact_json_and_access_time(facts, mem_db):
    f = facts.store_fact("user", "name", {"名": "李雷", "n": 1.0, "l": [1, 2.5]}, now=FIXED_NOW)
    assert UUID_RE.match(f.id)
    row = raw(mem_db, f.id)
    assert row["value_json"] == '{"名":"李雷","n":1,"l":[1,2.5]}'
    assert row["created_at"] == FIXED_NOW
    assert row["last_accessed_at"] == FIXED_NOW
    assert row["confidence"] == 1.0
    assert row["fact_kind"] == "state"
    assert row["supersedes"] is None and row["superseded_by"] is None
    assert row["decay_tau_days"] is None
    assert f.value == {"名": "李雷", "n": 1, "l": [1, 2.5]}
    assert f.last_accessed_at == FIXED_NOW


def test_fact_kind_event_only_when_exactly_event(facts):
    assert facts.store_fact("t", "a", 1, fact_kind="event", now=FIXED_NOW).fact_kind == "event"
    assert facts.store_fact("t", "b", 1, fact_kind="EVENT", now=FIXED_NOW).fact_kind == "state"


def test_inverted_window_message_is_the_reference_text(facts, mem_db):
    with pytest.raises(ValidationError_) as ei:
        facts.store_fact("project", "k", 1, valid_from=2000, valid_until=1000, now=FIXED_NOW)
    assert str(ei.value) == "storeFact: valid_until (1000) 早于 valid_from (2000)"
    assert mem_db.conn.execute("SELECT COUNT(*) FROM memory_facts").fetchone()[0] == 0
    # Equal bounds and half-open windows are fine.
    facts.store_fact("project", "k", 1, valid_from=1000, valid_until=1000, now=FIXED_NOW)
    facts.store_fact("project", "k2", 1, valid_until=5, now=FIXED_NOW)


def test_self_namespace_is_refused(facts, mem_db):
    with pytest.raises(SelfDescriptionWriteForbiddenError) as ei:
        facts.store_fact("self", "summary", {"content": "x"}, now=FIXED_NOW)
    assert isinstance(ei.value, ValidationError_)
    assert str(ei.value) == (
        "memory_facts namespace='self' is kernel-only. To update 'self.summary' use "
        "MemoryStore.updateSelfFact with caller='self-reflector'. Caller was: storeFact"
    )
    # The self check comes before the window check, as in the reference.
    with pytest.raises(SelfDescriptionWriteForbiddenError):
        facts.store_fact("self", "x", 1, valid_from=2, valid_until=1)
    # Only the exact namespace is protected.
    assert facts.store_fact("self.other", "k", 1, now=FIXED_NOW).namespace == "self.other"
    assert mem_db.conn.execute("SELECT COUNT(*) FROM memory_facts WHERE namespace='self'").fetchone()[0] == 0


def test_update_self_fact_stores_content_refs_and_time(facts, mem_db):
    f1 = facts.update_self_fact("summary", "I help.", ["note:1"], now=FIXED_NOW)
    f2 = facts.update_self_fact("summary", ["a", "b"], ["skill:x", "note:2"], now=FIXED_NOW + 5)
    assert (
        raw(mem_db, f1.id)["value_json"]
        == '{"content":"I help.","sourceRefs":["note:1"],"updatedAt":1781524800000}'
    )
    assert raw(mem_db, f2.id)["value_json"] == (
        '{"content":["a","b"],"sourceRefs":["skill:x","note:2"],"updatedAt":1781524800005}'
    )
    assert f2.supersedes == f1.id and f2.confidence == 1.0 and f2.namespace == "self"
    assert facts.get_fact("self", "summary", bump=False).id == f2.id


# -- supersede chains --------------------------------------------------------------------------------
def test_supersede_chain_links_both_ways_and_history_order(facts, mem_db):
    a = facts.store_fact("user", "city", "Berlin", now=FIXED_NOW)
    b = facts.store_fact("user", "city", "Paris", now=FIXED_NOW + 1)
    c = facts.store_fact("user", "city", "Rome", now=FIXED_NOW + 2)
    assert b.supersedes == a.id and c.supersedes == b.id
    assert raw(mem_db, a.id)["superseded_by"] == b.id
    assert raw(mem_db, b.id)["superseded_by"] == c.id
    assert raw(mem_db, c.id)["superseded_by"] is None
    assert [f.id for f in facts.history("user", "city")] == [c.id, b.id, a.id]
    assert [f.value for f in facts.list_facts("user")] == ["Rome"]
    assert facts.get_fact("user", "city", bump=False).value == "Rome"
    assert facts.count() == 1


def test_forgotten_head_is_still_superseded_and_stays_forgotten(facts, mem_db):
    a = facts.store_fact("project", "db", "pg", now=FIXED_NOW)
    assert facts.soft_forget(a.id, at=FIXED_NOW + 10) is True
    assert facts.get_fact("project", "db") is None
    hist = facts.history("project", "db")
    assert [(f.id, f.forgotten_at) for f in hist] == [(a.id, FIXED_NOW + 10)]
    b = facts.store_fact("project", "db", "sqlite", now=FIXED_NOW + 20)
    assert b.supersedes == a.id
    old = facts.get_by_id(a.id)
    assert old.superseded_by == b.id and old.forgotten_at == FIXED_NOW + 10
    assert facts.get_fact("project", "db", bump=False).id == b.id
    assert [f.id for f in facts.history("project", "db")] == [b.id, a.id]


def test_history_puts_every_unsuperseded_row_first(facts, mem_db):
    a = facts.store_fact("n", "k", 1, now=FIXED_NOW)
    b = facts.store_fact("n", "k", 2, now=FIXED_NOW + 1)
    # Inconsistent data written by somebody else: a second row without superseded_by.
    mem_db.conn.execute(
        "INSERT INTO memory_facts (id, namespace, key, value_json, created_at) VALUES ('z', 'n', 'k', '3', ?)",
        (FIXED_NOW + 2,),
    )
    assert [f.id for f in facts.history("n", "k")] == ["z", b.id, a.id]


def test_get_fact_bumps_but_listing_does_not(facts, mem_db):
    f = facts.store_fact("user", "tz", "Asia/Shanghai", now=FIXED_NOW)
    facts.list_facts("user")
    facts.list_facts()
    facts.list_namespaces()
    facts.history("user", "tz")
    facts.get_by_id(f.id)
    facts.active_at("user", "tz", FIXED_NOW)
    facts.forget_candidates(now=FIXED_NOW + 1000 * DAY)
    assert raw(mem_db, f.id)["last_accessed_at"] == FIXED_NOW
    got = facts.get_fact("user", "tz", now=FIXED_NOW + 1234, bump=False)
    assert got.last_accessed_at == FIXED_NOW
    assert raw(mem_db, f.id)["last_accessed_at"] == FIXED_NOW
    got = facts.get_fact("user", "tz", now=FIXED_NOW + 5000)
    assert got.last_accessed_at == FIXED_NOW + 5000
    assert raw(mem_db, f.id)["last_accessed_at"] == FIXED_NOW + 5000
    assert facts.get_fact("user", "missing", now=FIXED_NOW + 9) is None


def test_get_fact_on_a_read_only_database_skips_the_bump(tmp_path):
    path = tmp_path / "m" / "memory.sqlite"
    with MemoryDB.create(path, now=FIXED_NOW) as db:
        fid = FactStore(db).store_fact("user", "x", 1, now=FIXED_NOW).id
    with MemoryDB.open(path) as ro:
        assert ro.report.read_only
        store = FactStore(ro)
        got = store.get_fact("user", "x", now=FIXED_NOW + 99)
        assert got.id == fid and got.last_accessed_at == FIXED_NOW
        with pytest.raises(ReadOnlyError):
            store.store_fact("user", "y", 2)
        with pytest.raises(ReadOnlyError):
            store.pin(fid)


def test_mark_accessed(facts, mem_db):
    f = facts.store_fact("n", "k", 1, now=FIXED_NOW)
    assert facts.mark_accessed(f.id, at=FIXED_NOW + 7) is True
    assert raw(mem_db, f.id)["last_accessed_at"] == FIXED_NOW + 7
    assert facts.mark_accessed("nope", at=1) is False


# -- listing -----------------------------------------------------------------------------------------
def test_list_facts_orders_by_binary_key_and_filters(facts):
    for k in ["b", "é", "a", "Z"]:
        facts.store_fact("user", k, k, now=FIXED_NOW)
    facts.store_fact("user.prefs", "x", 1, now=FIXED_NOW)
    gone = facts.store_fact("user", "gone", 0, now=FIXED_NOW)
    facts.soft_forget(gone.id, at=FIXED_NOW)
    facts.store_fact("user", "a", "a2", now=FIXED_NOW + 1)
    assert [f.key for f in facts.list_facts("user")] == ["Z", "a", "b", "é"]
    assert [f.value for f in facts.list_facts("user")][:2] == ["Z", "a2"]
    assert [(f.namespace, f.key) for f in facts.list_facts()] == [
        ("user", "Z"),
        ("user", "a"),
        ("user", "b"),
        ("user", "é"),
        ("user.prefs", "x"),
    ]
    inactive = facts.list_facts("user", include_inactive=True)
    assert [(f.key, f.value) for f in inactive] == [
        ("Z", "Z"),
        ("a", "a2"),
        ("a", "a"),
        ("b", "b"),
        ("gone", 0),
        ("é", "é"),
    ]
    assert facts.list_namespaces() == [("user", 4), ("user.prefs", 1)]
    assert facts.list_namespaces(include_inactive=True) == [("user", 6), ("user.prefs", 1)]
    assert len(facts.all_rows()) == 7


def test_get_by_id_and_forgetting(facts):
    f = facts.store_fact("n", "k", 1, now=FIXED_NOW)
    assert facts.soft_forget(f.id, at=FIXED_NOW + 1) is True
    assert facts.soft_forget(f.id, at=FIXED_NOW + 2) is False
    assert facts.get_by_id(f.id).forgotten_at == FIXED_NOW + 1
    assert facts.get_by_id(f.id, include_forgotten=False) is None
    assert facts.list_facts("n") == [] and facts.list_namespaces() == []
    assert facts.active_at("n", "k", FIXED_NOW) is None
    assert facts.unforget(f.id) is True
    assert facts.get_fact("n", "k", bump=False).forgotten_at is None
    assert facts.soft_forget("missing") is False


def test_active_at_uses_validity_window_only(facts):
    a = facts.store_fact("travel", "city", "Oslo", valid_from=100, valid_until=200, now=FIXED_NOW)
    b = facts.store_fact("travel", "city", "Rome", valid_from=150, now=FIXED_NOW + 1)
    assert facts.active_at("travel", "city", 99) is None
    assert facts.active_at("travel", "city", 100).id == a.id
    assert facts.active_at("travel", "city", 160).id == b.id  # newest created_at wins
    assert facts.active_at("travel", "city", 200).id == b.id
    assert facts.active_at("travel", "city", 120).id == a.id  # superseded but valid then
    facts.soft_forget(b.id, at=FIXED_NOW)
    assert facts.active_at("travel", "city", 160).id == a.id
    assert facts.active_at("travel", "city", 201) is None


# -- pinning and tau ---------------------------------------------------------------------------------
def test_pin_unpin_and_set_tau(facts, mem_db):
    a = facts.store_fact("project", "x", 1, now=FIXED_NOW)
    b = facts.store_fact("project", "x", 2, now=FIXED_NOW + 1)
    assert facts.pin(a.id) is True  # works on superseded rows too
    assert raw(mem_db, a.id)["decay_tau_days"] == -1
    assert facts.get_by_id(a.id).pinned
    assert facts.pin(a.id) is True  # the reference counts a matched row as changed
    assert facts.unpin(a.id) is True
    assert raw(mem_db, a.id)["decay_tau_days"] is None
    assert facts.pin("missing") is False and facts.unpin("missing") is False
    assert facts.set_tau(b.id, 7.5) is True
    assert facts.get_by_id(b.id).decay_tau_days == 7.5
    assert facts.set_tau(b.id, None) is True
    assert facts.get_by_id(b.id).decay_tau_days is None
    with pytest.raises(ValidationError_):
        facts.set_tau(b.id, float("nan"))
    assert facts.set_tau("missing", 3) is False


# -- forget candidates -------------------------------------------------------------------------------
def _old_fact(db, fid, ns, key, *, age_days, valid_until=None, tau=None, conf=1.0):
    t = FIXED_NOW - int(age_days * DAY)
    db.conn.execute(
        "INSERT INTO memory_facts (id, namespace, key, value_json, confidence, created_at, last_accessed_at, "
        "valid_until, decay_tau_days) VALUES (?, ?, ?, '1', ?, ?, ?, ?, ?)",
        (fid, ns, key, conf, t, t, valid_until, tau),
    )


def test_forget_candidates_scores_and_threshold(facts, mem_db):
    _old_fact(mem_db, "p120", "project", "a", age_days=120)  # exp(-2) = 0.135: kept
    _old_fact(mem_db, "p240", "project", "b", age_days=240)  # exp(-4) = 0.0183: candidate
    _old_fact(mem_db, "c3", "context", "c", age_days=3)  # exp(-3) = 0.0498: candidate
    _old_fact(mem_db, "u", "user", "d", age_days=9999, conf=0.01)  # tau infinite: score = confidence
    _old_fact(mem_db, "pin", "context", "e", age_days=999, tau=-1)  # pinned: never
    _old_fact(mem_db, "o", "misc", "f", age_days=365 * 3)  # default tau 365: exp(-3)
    got = facts.forget_candidates(now=FIXED_NOW)
    # Lowest first; c3 and o tie at exactly exp(-3) and keep the SQL order (rowid).
    assert [(f.id, s) for f, s in got] == [
        ("u", 0.01),
        ("p240", math.exp(-4)),
        ("c3", math.exp(-3)),
        ("o", math.exp(-3)),
    ]
    assert [f.id for f, _ in facts.forget_candidates(now=FIXED_NOW, limit=2)] == ["u", "p240"]
    assert [f.id for f, _ in facts.forget_candidates(now=FIXED_NOW, namespace="project")] == ["p240"]
    assert [f.id for f, _ in facts.forget_candidates(now=FIXED_NOW, threshold=0.0184)] == ["u", "p240"]


def test_forget_candidates_tie_order_follows_the_reference_sql(facts, mem_db):
    # context.* facts older than ~745 days underflow to exactly 0.0: a four-way tie.
    _old_fact(mem_db, "A", "context", "a", age_days=800, valid_until=5000)
    _old_fact(mem_db, "B", "context", "d", age_days=800)
    _old_fact(mem_db, "C", "context", "c", age_days=800, valid_until=1000)
    _old_fact(mem_db, "D", "context", "b", age_days=800)
    got = facts.forget_candidates(now=FIXED_NOW)
    assert [s for _, s in got] == [0.0, 0.0, 0.0, 0.0]
    # valid_until ascending, NULL first, then rowid.
    assert [f.id for f, _ in got] == ["B", "D", "C", "A"]
    # With a namespace: key, then rowid.
    assert [f.id for f, _ in facts.forget_candidates(now=FIXED_NOW, namespace="context")] == [
        "A",
        "D",
        "C",
        "B",
    ]


def test_forget_candidates_tau_zero_nan_and_superseded(facts, mem_db):
    _old_fact(mem_db, "nan", "misc", "a", age_days=0, tau=0)  # 0/0: NaN, never a candidate
    _old_fact(mem_db, "future", "misc", "b", age_days=-3, tau=0)  # age clamps to 0: NaN too
    _old_fact(mem_db, "zero", "misc", "c", age_days=0.001, tau=0)  # age > 0: exactly 0
    got = facts.forget_candidates(now=FIXED_NOW, threshold=math.inf)
    assert [(f.id, s) for f, s in got] == [("zero", 0.0)]
    a = facts.store_fact("context", "s", 1, now=FIXED_NOW - 10 * DAY)
    facts.store_fact("context", "s", 2, now=FIXED_NOW - 9 * DAY)
    ids = [f.id for f, _ in facts.forget_candidates(now=FIXED_NOW)]
    assert a.id not in ids and len(ids) == 2
    facts.soft_forget(ids[-1], at=FIXED_NOW)
    assert len(facts.forget_candidates(now=FIXED_NOW)) == 1


# -- manual curation ---------------------------------------------------------------------------------
def test_supersede_with_copies_unchanged_fields_and_extends_the_chain(facts, mem_db):
    mem_db.conn.execute(
        "INSERT INTO memory_facts (id, namespace, key, value_json, confidence, created_at, occurred_at, "
        "valid_from, valid_until, last_accessed_at, decay_tau_days, fact_kind) "
        "VALUES ('old', 'project', 'stack', '{\"db\": \"pg\"}', 0.7, 1, 2, 3, 4, 5, -1, 'event')"
    )
    new = facts.supersede_with("old", confidence=0.9, valid_until=None, now=FIXED_NOW)
    row = raw(mem_db, new.id)
    assert row["value_json"] == '{"db": "pg"}'  # byte for byte
    assert (row["confidence"], row["occurred_at"], row["valid_from"], row["valid_until"]) == (0.9, 2, 3, None)
    assert (row["decay_tau_days"], row["fact_kind"], row["created_at"], row["last_accessed_at"]) == (
        -1,
        "event",
        FIXED_NOW,
        FIXED_NOW,
    )
    assert row["supersedes"] == "old" and raw(mem_db, "old")["superseded_by"] == new.id
    newer = facts.supersede_with(new.id, value={"db": "sqlite"}, now=FIXED_NOW + 1)
    assert raw(mem_db, newer.id)["value_json"] == '{"db":"sqlite"}'
    assert [f.id for f in facts.history("project", "stack")] == [newer.id, new.id, "old"]


def test_supersede_with_detects_a_concurrent_edit(facts, mem_db):
    a = facts.store_fact("user", "lang", "en", now=FIXED_NOW)
    b = facts.store_fact("user", "lang", "de", now=FIXED_NOW + 1)  # another writer got there first
    with pytest.raises(ConflictError) as ei:
        facts.supersede_with(a.id, value="fr", now=FIXED_NOW + 2)
    assert ei.value.current.id == b.id
    with pytest.raises(ConflictError):
        facts.supersede_with(a.id, value="fr", expected_head=a.id)
    assert [f.id for f in facts.history("user", "lang")] == [b.id, a.id]  # nothing written
    c = facts.supersede_with(a.id, value="fr", expected_head=b.id, now=FIXED_NOW + 3)
    assert c.supersedes == b.id and c.value == "fr"
    d = facts.supersede_with(a.id, value="it", expected_head=None, now=FIXED_NOW + 4)
    assert d.supersedes == c.id
    with pytest.raises(NotFoundError):
        facts.supersede_with("missing", value=1)
    with pytest.raises(ValidationError_) as ei2:
        facts.supersede_with(d.id, valid_from=10, valid_until=5)
    assert str(ei2.value) == "storeFact: valid_until (5) 早于 valid_from (10)"


def test_supersede_with_refuses_self_unless_allowed(facts):
    s = facts.update_self_fact("summary", "x", ["r"], now=FIXED_NOW)
    with pytest.raises(SelfDescriptionWriteForbiddenError):
        facts.supersede_with(s.id, value={"content": "y"})
    t = facts.supersede_with(s.id, value={"content": "y"}, allow_self=True, now=FIXED_NOW + 1)
    assert t.supersedes == s.id
