"""The damaged-value policy (core.damage): one damaged value costs one value, never its row or layer."""

from __future__ import annotations

import json
import math

import pytest

from core.actions import ActionStore
from core.damage import (
    MAX_JSON_DEPTH,
    StoredTime,
    UnreadableText,
    decode_text,
    json_depth_exceeds,
    loads_json,
)
from core.db import MemoryDB
from core.engine import sqlite3
from core.facts import FactStore
from core.models import Fact, Message, Skill, parse_json_lenient
from core.notes import NotesStore
from core.skills import SkillStore
from core.timeline import RawStore
from core.visible import has_hidden, visible

NOW = 1_781_524_800_000


def test_text_factory_keeps_the_bytes_of_text_that_is_not_utf8():
    good = decode_text("数据库".encode())
    assert type(good) is str and good == "数据库"
    bad = decode_text(b"hi\xff there \xed\xa0\x80")
    assert isinstance(bad, UnreadableText)
    assert bad == "hi\ufffd there \ufffd\ufffd\ufffd"  # what the agent reads
    assert bad.raw == b"hi\xff there \xed\xa0\x80"
    bad.encode("utf-8")  # printable, storable: no lone surrogate


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"a": 1}', None),
        ("NaN", "invalid_json"),
        ("[Infinity]", "invalid_json"),
        ('{"a": -Infinity}', "invalid_json"),
        ("{bad", "invalid_json"),
        ("", "invalid_json"),
        ("[" * 100_000 + "]" * 100_000, "too_deep"),
        ("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1), "too_deep"),
        ("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH, None),
        ('["' + "[" * 1000 + '"]', None),  # brackets inside a string do not nest
        ("1e999999", "out_of_range"),
    ],
)
def test_json_is_read_as_javascript_reads_it(text, problem):
    value, got, message = loads_json(text)
    assert got == problem, message
    if problem == "out_of_range":
        assert value == math.inf  # JSON.parse('1e999999') is Infinity
    if problem is None:
        assert value == json.loads(text)


def test_json_depth_check_is_exact_and_cheap_for_flat_text():
    assert not json_depth_exceeds("[1, 2, 3]")
    assert not json_depth_exceeds("[" * 10 + "]" * 10, 10)
    assert json_depth_exceeds("[" * 11 + "]" * 11, 10)
    assert not json_depth_exceeds("[[]]" * 1000, 10)  # many brackets, shallow
    assert parse_json_lenient("[" * 5000 + "]" * 5000)[1].startswith("invalid JSON")


def _db(tmp_path) -> MemoryDB:
    db = MemoryDB.create(tmp_path / "memory.sqlite", now=NOW)
    raw = RawStore(db)
    raw.start_session("s", started_at=NOW)
    raw.append_many([("s", "user", f"message {i}", NOW + i * 1000) for i in range(30)])
    return db


def _sql(db: MemoryDB, *statements: str) -> None:
    with db.write() as conn:
        for st in statements:
            conn.execute(st)


def test_every_kind_of_damage_costs_one_value(tmp_path):
    db = _db(tmp_path)
    try:
        _sql(
            db,
            "UPDATE memory_raw_messages SET content = CAST(X'6869FF' AS TEXT) WHERE id = 3",
            "UPDATE memory_raw_messages SET content = X'0102', role = X'75736572' WHERE id = 4",
            "UPDATE memory_raw_messages SET timestamp = 'yesterday' WHERE id = 5",
            "UPDATE memory_raw_messages SET timestamp = X'0102' WHERE id = 6",
            "UPDATE memory_raw_messages SET timestamp = 1e20 WHERE id = 7",
            "UPDATE memory_raw_messages SET timestamp = -1e18 WHERE id = 8",
            f"UPDATE memory_raw_messages SET timestamp = {NOW + 8500.5} WHERE id = 9",
        )
        msgs = {m.id: m for m in RawStore(db).query_timeline("asc", None)}
        assert len(msgs) == 30
        assert msgs[3].content == "hi\ufffd" and msgs[3].damaged["content"].problem == "not_utf8"
        assert msgs[3].damaged["content"].hex() == "6869ff"
        assert msgs[4].content == "\x01\x02" and msgs[4].role == "user"
        assert {c: d.problem for c, d in msgs[4].damaged.items()} == {"content": "blob", "role": "blob"}
        for i in (5, 6, 7, 8):
            assert msgs[i].timestamp == 0 and isinstance(msgs[i].timestamp, StoredTime), i
            assert msgs[i].to_json()["timestamp"] is None
        assert msgs[5].damaged["timestamp"].problem == "not_a_time"
        assert msgs[7].damaged["timestamp"].problem == "out_of_range"
        assert msgs[9].timestamp == NOW + 8500 and not msgs[9].damaged  # a fraction is a time
        clean = [m for i, m in msgs.items() if i not in (3, 4, 5, 6, 7, 8)]
        assert all(not m.damaged and m.to_json()["damaged"] == {} for m in clean)
        j = msgs[3].to_json()
        assert j["damaged"]["content"]["hex"] == "6869ff" and j["damaged"]["content"]["bytes"] == 3
        json.dumps(j, allow_nan=False)
    finally:
        db.close()


def test_plain_rows_decode_clean_text_in_the_binding_and_keep_the_bytes_of_text_that_is_not_utf8(tmp_path):
    db = _db(tmp_path)
    try:
        sql = "SELECT id, content FROM memory_raw_messages WHERE id IN (2, 3) ORDER BY id"
        rows, names = db.fetch_tuples(sql)
        assert names == ["id", "content"] and [type(v) for _i, v in rows] == [str, str]
        _sql(db, "UPDATE memory_raw_messages SET content = CAST(X'6869FF' AS TEXT) WHERE id = 3")
        rows, _names = db.fetch_tuples(sql)
        assert rows[0] == (2, "message 1") and type(rows[0][1]) is str
        assert isinstance(rows[1][1], UnreadableText) and rows[1][1].raw == b"hi\xff"
        # The connection reads text as before for everyone else.
        assert isinstance(db.conn.execute("SELECT content FROM memory_raw_messages WHERE id = 3").fetchone()[0],
                          UnreadableText)  # fmt: skip
        with pytest.raises(sqlite3.OperationalError, match="no such table"):
            db.fetch_tuples("SELECT * FROM nothing_here")
        page = RawStore(db).query_timeline("asc", 5)
        assert [m.id for m in page] == [1, 2, 3, 4, 5] and set(page[2].damaged) == {"content"}
        assert all(not m.damaged and type(m.content) is str for m in page if m.id != 3)
        with db.lock:
            by_name = [Message.from_row(r) for r in db.conn.execute("SELECT * FROM memory_raw_messages")]
        as_pages = RawStore(db).query_timeline("asc", None)
        assert [m.to_json() for m in as_pages] == [m.to_json() for m in by_name]
    finally:
        db.close()


def test_keyset_pages_neither_skip_nor_repeat_rows_with_damaged_times(tmp_path):
    """Pages are keyed on what SQLite compares: a text, BLOB, huge or fractional timestamp keeps its
    place in both directions."""
    db = _db(tmp_path)
    try:
        _sql(
            db,
            "UPDATE memory_raw_messages SET timestamp = 'yesterday' WHERE id = 5",
            "UPDATE memory_raw_messages SET timestamp = X'0102' WHERE id = 6",
            "UPDATE memory_raw_messages SET timestamp = 1e20 WHERE id = 7",
            "UPDATE memory_raw_messages SET timestamp = -1e18 WHERE id = 8",
            f"UPDATE memory_raw_messages SET timestamp = {NOW + 20_000.5} WHERE id = 9",
            f"UPDATE memory_raw_messages SET timestamp = {NOW + 20_000} WHERE id IN (10, 11, 12)",
        )
        store = RawStore(db)
        for order in ("desc", "asc"):
            seen: list[int] = []
            key = None
            while True:
                kw = {} if key is None else ({"before": key} if order == "desc" else {"after": key})
                page = store.query_timeline(order, 3, **kw)
                if not page:
                    break
                seen += [m.id for m in page]
                key = (page[-1].timestamp, page[-1].id)
            assert sorted(seen) == list(range(1, 31)) and len(seen) == 30, (order, seen)
        # messages_around a damaged row works from its stored key too: SQLite orders numbers (1e20 last),
        # then text, then BLOBs
        assert [m.id for m in store.messages_around(5, 2)] == [30, 7, 5, 6]
        assert store.time_range() == (NOW, NOW + 29_000)  # only times a date can hold
    finally:
        db.close()


def test_actions_and_notes_page_over_damaged_times(tmp_path):
    db = _db(tmp_path)
    try:
        actions, notes = ActionStore(db), NotesStore(db)
        for i in range(8):
            actions.append("s", "search_notes", {"q": i}, "ok", True, NOW + i)
            notes.upsert(f"n{i}", f"note {i}", 0.5, "s", NOW + i)
        _sql(
            db,
            "UPDATE memory_actions SET timestamp = 'soon', params_json = '{bad' WHERE id = 3",
            "UPDATE memory_actions SET success = 'maybe', result = X'FF' WHERE id = 4",
            "UPDATE memory_notes SET created_at = X'01', importance = 'high' WHERE id = 'n2'",
        )
        ids: list[int] = []
        key = None
        while page := actions.list(limit=3, before=key):
            ids += [a.id for a in page]
            key = (page[-1].timestamp, page[-1].id)
        assert sorted(ids) == list(range(1, 9))
        got = {a.id: a for a in actions.list(limit=None)}
        assert got[3].json_errors and got[3].damaged["params_json"].problem == "invalid_json"
        assert got[4].success is False and got[4].damaged["success"].problem == "not_a_number"
        assert got[4].result == "\ufffd" and got[4].damaged["result"].problem == "blob"
        nids: list[str] = []
        nkey = None
        while page := notes.list(limit=3, before=nkey):
            nids += [n.id for n in page]
            nkey = (page[-1].created_at, page[-1].id)
        assert sorted(nids) == [f"n{i}" for i in range(8)]
        n2 = notes.get("n2")
        assert math.isnan(n2.importance) and set(n2.damaged) == {"created_at", "importance"}
    finally:
        db.close()


def test_facts_and_skills_with_every_damage_still_list(tmp_path):
    db = _db(tmp_path)
    try:
        facts, skills = FactStore(db), SkillStore(db)
        for i in range(6):
            facts.store_fact("user", f"k{i}", {"v": i}, 0.9, now=NOW)
            skills.create_skill(f"skill-{i}", f"does {i}", ["kw"], "step", now=NOW)
        deep = "[" * 100_000 + "]" * 100_000
        _sql(
            db,
            f"UPDATE memory_facts SET value_json = '{deep}' WHERE key = 'k0'",
            "UPDATE memory_facts SET value_json = CAST(X'22FF22' AS TEXT) WHERE key = 'k1'",
            "UPDATE memory_facts SET value_json = 'NaN', confidence = 1e999999 WHERE key = 'k2'",
            "UPDATE memory_facts SET created_at = -1e18, valid_until = 'never' WHERE key = 'k3'",
            "UPDATE memory_facts SET value_json = '1e999999' WHERE key = 'k4'",
            f"UPDATE memory_skills SET trigger_keywords = '{deep}' WHERE name = 'skill-0'",
            "UPDATE memory_skills SET revision_history = '[{\"at\": 1e999999}, 5]' WHERE name = 'skill-1'",
            "UPDATE memory_skills SET use_count = 1e20, failure_count = X'01' WHERE name = 'skill-2'",
            "UPDATE memory_skills SET description = CAST(X'FF' AS TEXT) WHERE name = 'skill-3'",
        )
        got = {f.key: f for f in facts.list_facts("user")}
        assert set(got) == {f"k{i}" for i in range(6)}
        assert got["k0"].damaged["value_json"].problem == "too_deep" and got["k0"].json_errors
        assert got["k1"].value == "\ufffd" and got["k1"].damaged["value_json"].problem == "not_utf8"
        assert got["k2"].json_errors and got["k2"].damaged["confidence"].problem == "non_finite"
        assert got["k3"].created_at == 0 and got["k3"].valid_until is None
        assert got["k4"].value == math.inf and got["k4"].damaged["value_json"].problem == "out_of_range"
        assert not got["k5"].damaged
        for f in got.values():
            FactStore(db).score(f, NOW)
            json.dumps(f.to_json(), default=str)
        every = {s.name: s for s in skills.list_every()}
        assert len(every) == 6
        assert every["skill-0"].trigger_keywords == [] and every["skill-0"].json_errors
        assert every["skill-1"].revision_history[0].at == 0
        assert every["skill-1"].damaged["revision_history"].problem in ("out_of_range", "wrong_type")
        assert every["skill-2"].use_count == 0 and every["skill-2"].failure_count == 0
        assert every["skill-3"].description == "\ufffd"
        assert not every["skill-4"].damaged and not every["skill-5"].damaged
    finally:
        db.close()


def test_null_in_not_null_columns_reads_as_an_empty_value_with_a_marker():
    row = {
        "id": 1, "session_id": None, "role": None, "content": None, "timestamp": None,
    }  # fmt: skip
    m = Message.from_row(row)
    assert (m.session_id, m.role, m.content, m.timestamp) == ("", "", "", 0)
    assert {d.problem for d in m.damaged.values()} == {"missing"}
    assert m.to_json()["content"] is None and m.to_json()["timestamp"] is None
    f = Fact.from_row({"id": "f", "namespace": None, "key": "k", "value_json": None, "confidence": None,
                       "superseded_by": None, "supersedes": None, "created_at": None})  # fmt: skip
    assert f.namespace == "" and f.value is None and math.isnan(f.confidence) and f.json_errors
    s = Skill.from_row({"id": "s", "name": "n", "description": None, "trigger_keywords": None,
                        "action_template": None, "use_count": None, "last_used_at": None,
                        "created_at": 5})  # fmt: skip
    assert s.description == "" and s.trigger_keywords == [] and s.use_count == 0


def test_a_message_read_as_stored_and_one_damaged_in_any_column_read_alike():
    clean = {"id": 7, "session_id": "s", "role": "user", "content": "hi", "timestamp": 5,
             "origin_session_id": None}  # fmt: skip
    m = Message.from_row(clean)
    got = (m.id, m.session_id, m.role, m.content, m.timestamp, m.origin_session_id)
    assert got == (7, "s", "user", "hi", 5, None)
    assert not m.damaged and m.model_fields_set == {*clean, "damaged"}
    assert m == Message.from_row({k: v for k, v in clean.items() if k != "origin_session_id"})
    assert m.to_json()["damaged"] == Message.model_construct(**clean).to_json()["damaged"]
    odd = {
        "session_id": b"\xff", "role": 3, "content": UnreadableText(b"a\xffb"), "timestamp": "12",
        "origin_session_id": 4.5,
    }  # fmt: skip
    for col, value in odd.items():
        damaged = Message.from_row({**clean, col: value})
        assert set(damaged.damaged) == {col}, col
    assert Message.from_row({**clean, "timestamp": 2**62}).damaged["timestamp"].problem == "out_of_range"


def test_visible_spells_controls_and_direction_overrides():
    assert visible("plain 数据库\nline two\tx") == "plain 数据库\nline two\tx"
    assert visible("\x1b[31mred\x1b[0m") == "\\x1b[31mred\\x1b[0m"
    assert visible("\x1b]0;title\x07") == "\\x1b]0;title\\x07"
    assert visible("a\rb") == "a\\rb"
    assert visible("photo_\u202egnp.exe") == "photo_\\u202egnp.exe"
    assert visible("\x85\x9b\u2028\u2066x\u2069") == "\\x85\\x9b\\u2028\\u2066x\\u2069"
    assert visible("dep\udcffloy") == "dep\\udcffloy"
    assert visible("a\nb", keep_newlines=False) == "a\\nb"
    assert visible("family 👨\u200d👩\u200d👧") == "family 👨\u200d👩\u200d👧"  # joiners are not hidden
    assert has_hidden("x\u202e") and not has_hidden("x")
