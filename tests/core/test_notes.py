"""Notes: upsert and edits, forgetting, listings, and the newer search rule (Part B §7, Part C j)."""

from __future__ import annotations

import uuid

import pytest

from core.errors import NotFoundError, ValidationError_
from core.notes import NotesStore, notes_fts_query, session_summary_id

T0 = 1_781_000_000_000


@pytest.fixture
def notes(mem_db):
    return NotesStore(mem_db)


def test_upsert_new_and_existing(notes):
    n = notes.upsert(None, "first text", 0.7, session_id="global", created_at=T0)
    assert str(uuid.UUID(n.id)) == n.id
    assert (n.content, n.importance, n.session_id, n.created_at, n.forgotten_at) == (
        "first text",
        0.7,
        "global",
        T0,
        None,
    )
    again = notes.upsert(n.id, "second text", 0.2)
    assert (again.content, again.importance, again.session_id, again.created_at) == (
        "second text",
        0.2,
        "global",
        T0,
    )
    assert [x.id for x in notes.search("second")] == [n.id]
    assert notes.search("first") == []  # the FTS row was replaced by the update trigger
    fixed = notes.upsert("session-summary-abc", "summary", created_at=T0 + 1)
    assert (fixed.id, fixed.importance) == ("session-summary-abc", 0.5)
    with pytest.raises(ValidationError_):
        notes.upsert(None, "x", importance=1.5)
    with pytest.raises(ValidationError_):
        notes.upsert(None, "x", importance=float("nan"))
    with pytest.raises(ValidationError_):
        notes.upsert(None, None)  # type: ignore[arg-type]


def test_update_forget_unforget_delete(notes):
    notes.upsert("n1", "old words here", 0.5, created_at=T0)
    before, after = notes.update("n1", content="new words here", importance=0.9)
    assert (before.content, before.importance, after.content, after.importance) == (
        "old words here",
        0.5,
        "new words here",
        0.9,
    )
    assert notes.update("n1") == (after, after)
    assert [x.id for x in notes.search("new words")] == ["n1"]
    f = notes.forget("n1", at=T0 + 5)
    assert f.forgotten_at == T0 + 5
    assert notes.top() == []
    assert [x.id for x in notes.search("words")] == ["n1"]  # search includes forgotten notes
    assert notes.unforget("n1").forgotten_at is None
    gone = notes.delete("n1")
    assert gone.id == "n1" and notes.get("n1") is None
    assert notes.search("words") == []
    for op in (lambda: notes.forget("n1"), lambda: notes.unforget("n1"), lambda: notes.delete("n1")):
        with pytest.raises(NotFoundError):
            op()
    with pytest.raises(NotFoundError):
        notes.update("n1", content="x")


def test_session_summary(notes):
    assert session_summary_id("s9") == "session-summary-s9"
    assert notes.get_session_summary("s9") is None
    notes.upsert("session-summary-s9", "what happened", created_at=T0)
    notes.forget("session-summary-s9", at=T0 + 1)
    assert notes.get_session_summary("s9").content == "what happened"
    assert notes.get_session_summary("s9", include_forgotten=False) is None


@pytest.fixture
def corpus(notes):
    rows = [
        ("n1", "deploy to mycox.example today", 0.5, T0 + 1),
        ("n2", "the key is a:b in config", 0.9, T0 + 2),
        ("n3", "world.example is the staging host", 0.3, T0 + 3),
        ("n4", "world.example zz backup", 0.3, T0 + 4),
        ("n5", "hello world", 0.8, T0 + 5),
        ("n6", "Hello and World", 0.1, T0 + 6),
        ("n7", "旺财 喜欢 数据库迁移", 0.6, T0 + 7),
        ("n8", "ab\u3000cd wide space", 0.5, T0 + 8),
        ("n9", "ab cd narrow space", 0.5, T0 + 9),
        ("n10", "he wo is short", 0.2, T0 + 10),
    ]
    for nid, content, imp, ts in rows:
        notes.upsert(nid, content, imp, created_at=ts)
    return notes


def ids(xs):
    return [x.id for x in xs]


def test_fts_query_quotes_each_token():
    assert notes_fts_query('mycox.example  a:b "x" 数据库') == '"mycox.example" "a:b" "x" "数据库"'
    assert notes_fts_query("a\u3000b\ufeffc") == '"a" "b" "c"'
    assert notes_fts_query("a\u0085b") == '"a\u0085b"'  # U+0085 is not JS whitespace


def test_punctuation_no_longer_throws(corpus):
    assert ids(corpus.search("mycox.example")) == ["n1"]
    assert ids(corpus.search("a:b")) == ["n2"]
    assert ids(corpus.search("v2/status")) == []
    assert ids(corpus.search("NEAR(")) == []


def test_short_quoted_token_is_ignored_inside_and(corpus):
    # "world.example" "zz": 'zz' matches everything, so both world.example notes come back.
    assert ids(corpus.search('"world.example" "zz"')) == ["n4", "n3"]
    # all tokens short: FTS has no rows, LIKE on the whole sanitised string
    assert ids(corpus.search("he wo")) == ["n10"]


def test_like_fallback_keeps_internal_whitespace(corpus):
    assert ids(corpus.search("ab\u3000cd")) == ["n8"]
    assert ids(corpus.search("ab cd")) == ["n9"]


def test_operators_are_quoted_as_words(corpus):
    # "hello" "AND" "world": AND is a phrase now, so only the note that contains 'and' matches.
    assert ids(corpus.search("hello AND world")) == ["n6"]
    assert ids(corpus.search("hello world")) == ["n5", "n6"]  # importance 0.8 before 0.1


def test_cjk_and_sanitiser(corpus):
    assert ids(corpus.search("数据库")) == ["n7"]
    assert ids(corpus.search("旺财")) == ["n7"]  # 2 characters: LIKE
    assert ids(corpus.search("'\"*()")) == []
    assert ids(corpus.search('"旺财"')) == ["n7"]


def test_ordering_limit_and_never_raising(corpus):
    assert ids(corpus.search("example")) == ["n1", "n4", "n3"]  # importance, then newest
    assert ids(corpus.search("example", limit=1)) == ["n1"]
    assert ids(corpus.search("example", limit=2.5)) == []  # SQLite's datatype mismatch is swallowed
    assert ids(corpus.search("s", limit=2)) == ["n2", "n9"]  # LIKE: 0.9, then the newer 0.5


def test_top_list_count(corpus):
    corpus.forget("n2", at=T0 + 100)
    assert ids(corpus.top(3)) == ["n5", "n7", "n9"]
    page = corpus.list(limit=3)
    assert ids(page) == ["n10", "n9", "n8"]
    assert ids(corpus.list(limit=3, before=(page[-1].created_at, page[-1].id))) == ["n7", "n6", "n5"]
    assert ids(corpus.list(limit=2, order="importance")) == ["n2", "n5"]
    assert ids(corpus.list(limit=2, order="importance", include_forgotten=False)) == ["n5", "n7"]
    assert ids(corpus.list(limit=2, offset=1, order="importance")) == ["n5", "n7"]
    assert ids(corpus.list(query="WORLD")) == ["n6", "n5", "n4", "n3"]
    assert ids(corpus.list(query="a%b")) == []  # literal filter: % is not a wildcard
    assert (corpus.count(), corpus.count(include_forgotten=False), corpus.count(query="world")) == (10, 9, 4)
