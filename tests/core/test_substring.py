"""core.substring: the agent's substring fallback answered from the trigram index, exactly as the scan.

The reference (``RawStore``) scans; ``ProvingRawStore`` must return the same rows in the same order,
say ``proven`` only where the proof holds (a piece of 3+ characters and a consistent index) and scan
everywhere else (short pieces, an index out of step with its messages).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.context import ContextCancelledError, build_context
from core.db import MemoryDB
from core.substring import ProvingRawStore, SearchCancelledError, index_state
from core.timeline import RawStore

NOW = 1_781_524_800_000
T0 = NOW - 30 * 86_400_000

WORDS = [
    # English, with case variants and words inside words
    "plan", "Plan", "PLAN", "plans", "planned", "the", "The", "trip", "Berlin", "berlin", "deploy",
    "Deploy", "a", "to", "we", "zq", "zzqxv", "rollback", "script",
    # Chinese
    "数据库", "迁移", "数据库迁移", "柏林", "旅行", "的", "吗", "旺财", "你还记得", "方案",
    # mixed, non-ASCII case (LIKE folds ASCII only, the trigram index folds all), punctuation, wildcards
    "SQL迁移", "v2", "Über", "über", "ÜBER", "É", "é", "?", "，", ",", ".", "%", "_", "-", ":", "a_c", "abc",
    "x%y", "NOT", "OR", "role:user", "😀", "😀😀",
]  # fmt: skip
SPACES = [" ", " ", " ", "", "\u3000", "  ", "\t"]


def make_db(contents: list[str]) -> MemoryDB:
    db = MemoryDB.memory(now=NOW)
    raw = RawStore(db)
    rows = [
        ("s" + str(i % 3), "user" if i % 2 else "assistant", c, T0 + (i // 2) * 1000)
        for i, c in enumerate(contents)
    ]
    if rows:
        raw.append_many(rows, create_sessions=True)
    return db


def both(db: MemoryDB, query: str, limit: int = 7, **kw):
    ref, ref_mode = RawStore(db).search_with_mode(query, limit=limit, **kw)
    p = ProvingRawStore(db)
    got, mode = p.search_with_mode(query, limit=limit, **kw)
    assert [m.id for m in got] == [m.id for m in ref], query
    assert mode == ref_mode
    return p, got


words = st.sampled_from(WORDS)
text = st.lists(st.tuples(words, st.sampled_from(SPACES)), min_size=1, max_size=8).map(
    lambda ws: "".join(w + s for w, s in ws).strip()
)


@st.composite
def db_and_queries(draw):
    contents = draw(st.lists(text, min_size=0, max_size=25))
    queries = draw(st.lists(text, min_size=1, max_size=4))
    # and pieces cut out of the stored messages, so that some queries hit
    for c in contents[:4]:
        if len(c) >= 2:
            a = draw(st.integers(0, len(c) - 2))
            b = draw(st.integers(a + 1, len(c)))
            queries.append(c[a:b])
    return contents, queries


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(db_and_queries())
def test_proven_answers_are_the_scan_answers(case):
    contents, queries = case
    db = make_db(contents)
    try:
        assert index_state(db).consistent
        for q in queries:
            p, _rows = both(db, q)
            sub = p.last_substring
            if sub is None:
                continue  # the full-text query had rows: no fallback
            if any(len(piece) >= 3 for piece in q.replace("%", " ").replace("_", " ").split()):
                assert sub.how == "proven", (q, sub)
            for kw in ({"session_ids": ["s1"]}, {"before": (T0 + 5000, 1 << 62)}):
                both(db, q, **kw)
    finally:
        db.close()


@pytest.fixture
def berlin_db(mem_db):
    raw = RawStore(mem_db)
    rows = []
    for i in range(40):
        rows.append(
            (
                "trips",
                "user" if i % 2 else "assistant",
                f"Berlin trip day {i}: museums and a ferry.",
                T0 + i * 60_000,
            )
        )
        rows.append(("misc", "user", f"Unrelated note {i} about the weather.", T0 + i * 60_000 + 1))
    rows.append(
        ("misc", "user", "Do you remember what we discussed about the Berlin trip last time?", T0 + 10**8)
    )
    raw.append_many(rows, create_sessions=True)
    return mem_db


def test_exact_repeats_are_found_and_misses_proven(berlin_db):
    q = "Do you remember what we discussed about the Berlin trip last time?"
    p, rows = both(berlin_db, q)
    assert [m.content for m in rows] == [q]  # the one exact repeat
    assert (p.last_substring.how, p.last_substring.code) == ("proven", "substring.proven_rows")
    assert "syntax error" in p.last_fts.error
    p, rows = both(berlin_db, "What about the Berlin trip in May?")
    assert rows == [] and (p.last_substring.how, p.last_substring.code) == ("proven", "substring.proven_miss")
    p, rows = both(berlin_db, "zzqxv museums")  # plain barewords: the full-text miss is the proof
    assert rows == [] and p.last_substring.code == "substring.proven_by_fts"


@pytest.mark.parametrize("query", ["zq", "a b", "旺财", "a_c", "ab%cd", "数据 迁移", "😀😀"])
def test_short_pieces_are_scanned(berlin_db, query):
    p, _ = both(berlin_db, query)
    assert (p.last_substring.how, p.last_substring.code) == ("scanned", "substring.short_pieces")


def test_an_unindexed_message_makes_the_index_unproven(file_db):
    raw = RawStore(file_db)
    raw.append_many([("s", "user", f"message {i}", T0 + i) for i in range(20)], create_sessions=True)
    reader = MemoryDB.open(file_db.path, check=False)
    try:
        assert index_state(reader).code == "index.consistent"
        with file_db.write() as conn:  # a writer without the full-text trigger
            conn.execute("DROP TRIGGER memory_raw_messages_ai")
            conn.execute(
                "INSERT INTO memory_raw_messages (session_id, role, content, timestamp) "
                "VALUES ('s', 'user', 'the hidden Berlin note', ?)",
                (T0 + 100,),
            )
        state = index_state(reader)
        assert (state.consistent, state.code) == (False, "index.triggers")
        with file_db.write() as conn:  # the trigger back: the unindexed row is still there
            conn.execute(
                "CREATE TRIGGER memory_raw_messages_ai AFTER INSERT ON memory_raw_messages BEGIN\n"
                "  INSERT INTO memory_raw_messages_fts(rowid, content, role)\n"
                "  VALUES (new.rowid, new.content, new.role);\nEND"
            )
        state = index_state(reader)
        assert (state.consistent, state.code) == (False, "index.uncovered")
        # The index would say "no such message"; the scan finds it, and the scan is what runs.
        assert (
            reader.conn.execute(
                "SELECT count(*) FROM memory_raw_messages_fts WHERE memory_raw_messages_fts MATCH '\"hidden\"'"
            ).fetchone()[0]
            == 0
        )
        p, rows = both(reader, "hidden Berlin")
        assert [m.content for m in rows] == ["the hidden Berlin note"]
        assert (p.last_substring.how, p.last_substring.code) == ("scanned", "substring.index")
        assert p.last_substring.index.code == "index.uncovered"
    finally:
        reader.close()


@pytest.mark.parametrize("how", ["delete_row", "delete_all", "delete_message"])
def test_deleted_index_rows_make_the_index_unproven(mem_db, how):
    raw = RawStore(mem_db)
    raw.append_many(
        [("s", "user", f"note {i}, about Berlin", T0 + i) for i in range(10)], create_sessions=True
    )
    assert index_state(mem_db).consistent  # cached: the same connection's writes must invalidate it
    with mem_db.write() as conn:
        if how == "delete_row":
            conn.execute(
                "INSERT INTO memory_raw_messages_fts(memory_raw_messages_fts, rowid, content, role) "
                "SELECT 'delete', rowid, content, role FROM memory_raw_messages WHERE content = 'note 5, about Berlin'"
            )
        elif how == "delete_all":
            conn.execute("INSERT INTO memory_raw_messages_fts(memory_raw_messages_fts) VALUES ('delete-all')")
        else:  # through the trigger: consistent, but the gap cannot be told from a deleted index row
            conn.execute("DELETE FROM memory_raw_messages WHERE content = 'note 5, about Berlin'")
    state = index_state(mem_db)
    assert not state.consistent
    assert (
        state.code
        == {"delete_row": "index.gaps", "delete_all": "index.uncovered", "delete_message": "index.gaps"}[how]
    )
    p, rows = both(mem_db, "note 5, about")  # ',' fails the full-text query: the fallback runs
    assert [m.content for m in rows] == ([] if how == "delete_message" else ["note 5, about Berlin"])
    assert p.last_substring.how == "scanned"


def test_another_tokenizer_is_not_trusted(mem_db):
    raw = RawStore(mem_db)
    raw.append_many([("s", "user", "PLAN B, then C", T0)], create_sessions=True)
    with mem_db.write() as conn:
        conn.execute("DROP TABLE memory_raw_messages_fts")
        conn.execute(
            "CREATE VIRTUAL TABLE memory_raw_messages_fts USING fts5(content, role, "
            "content='memory_raw_messages', content_rowid='rowid', tokenize='trigram case_sensitive 1')"
        )
        conn.execute("INSERT INTO memory_raw_messages_fts(memory_raw_messages_fts) VALUES ('rebuild')")
    assert index_state(mem_db).code == "index.tokenizer"
    p, rows = both(mem_db, "plan b,")  # case-sensitive index: no candidate, yet LIKE folds ASCII
    assert [m.content for m in rows] == ["PLAN B, then C"] and p.last_substring.how == "scanned"


def test_the_scan_is_cancelled_while_it_runs(mem_db):
    RawStore(mem_db).append_many(
        [("s", "user", f"filler message number {i}", T0 + i) for i in range(20_000)], create_sessions=True
    )
    calls = []

    def cancel() -> bool:  # false before the scan, true once the scan is running
        calls.append(1)
        return len(calls) > 1

    p = ProvingRawStore(mem_db, cancel)
    with pytest.raises(SearchCancelledError):
        p.search_with_mode("zq", limit=10)
    assert len(calls) >= 2
    assert RawStore(mem_db).search_with_mode("zq", limit=10) == ([], "like")  # the handler is gone
    calls.clear()
    with pytest.raises(ContextCancelledError):
        build_context(
            mem_db,
            "zq",
            host_os="linux",
            now=NOW,
            cancel_check=lambda: bool(calls.append(1)) or len(calls) > 3,
        )
