"""The raw timeline: sessions, messages, keyset pagination, daily counts and search (spec §4.3)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import timeline
from core.db import MemoryDB
from core.engine import sqlite3
from core.errors import ConflictError, NotFoundError, ValidationError_
from core.search import fts
from core.search.fts import FullTextIndex
from core.timeline import RawStore, fts_terms, sanitize_query

T0 = 1_781_000_000_000  # 2026-06-09T10:13:20.000Z
DAY = 86_400_000


@pytest.fixture
def raw(mem_db):
    return RawStore(mem_db)


def add(raw: RawStore, content: str, ts: int, role: str = "user", session: str = "global", origin=None):
    return raw.append_message(session, role, content, ts, origin_session_id=origin)


def ids(msgs) -> list[int]:
    return [m.id for m in msgs]


def reference_sql(db: MemoryDB, query: str, *, since=None, until=None, sessions=None, limit=20) -> list[int]:
    """The reference's searchMessages run raw (spec §4.3), with ``id DESC`` added as the tiebreak."""
    safe = query
    for ch in "'\"*()":
        safe = safe.replace(ch, " ")
    safe = safe.strip()
    if not safe:
        return []
    conds, args = [], []
    if since is not None:
        conds.append("m.timestamp >= ?")
        args.append(since)
    if until is not None:
        conds.append("m.timestamp <= ?")
        args.append(until)
    if sessions:
        conds.append(f"m.session_id IN ({','.join('?' * len(sessions))})")
        args += sessions
    extra = "".join(f" AND {c}" for c in conds)
    rows = []
    if len(safe.encode("utf-16-le")) // 2 >= 3:
        try:
            rows = db.conn.execute(
                "SELECT m.* FROM memory_raw_messages m JOIN memory_raw_messages_fts fts "
                f"ON fts.rowid = m.rowid WHERE memory_raw_messages_fts MATCH ?{extra} "
                "ORDER BY m.timestamp DESC, m.id DESC LIMIT ?",
                (safe, *args, limit),
            ).fetchall()
        except sqlite3.Error:
            rows = []
    if not rows:
        rows = db.conn.execute(
            f"SELECT m.* FROM memory_raw_messages m WHERE m.content LIKE '%'||?||'%'{extra} "
            "ORDER BY m.timestamp DESC, m.id DESC LIMIT ?",
            (safe, *args, limit),
        ).fetchall()
    return [r["id"] for r in rows]


# -- sessions --------------------------------------------------------------------------------------------
def test_sessions_start_end_list_with_counts(raw):
    s = raw.start_session("s1", T0)
    assert (s.id, s.started_at, s.ended_at, s.message_count) == ("s1", T0, None, 0)
    with pytest.raises(ConflictError):
        raw.start_session("s1", T0 + 1)
    assert raw.start_session("s1", T0 + 1, exist_ok=True).started_at == T0
    add(raw, "one", T0 + 1, session="s1")
    add(raw, "two", T0 + 2, session="s1")
    add(raw, "three", T0 + 3)
    e = raw.end_session("s1", T0 + 10)
    assert (e.ended_at, e.message_count) == (T0 + 10, 2)
    with pytest.raises(NotFoundError):
        raw.end_session("nope")
    listed = raw.list_sessions()
    # mem_db seeds the 'global' session at FIXED_NOW (2026-06-15), newer than s1.
    assert [(x.id, x.message_count) for x in listed] == [("global", 1), ("s1", 2)]
    assert [x.id for x in raw.list_sessions(limit=1)] == ["global"]
    assert raw.get_session("missing") is None


def test_list_sessions_reports_orphan_message_sessions(mem_db, raw):
    mem_db.conn.execute("PRAGMA foreign_keys=OFF")
    mem_db.conn.execute(
        "INSERT INTO memory_raw_messages (session_id, role, content, timestamp) VALUES ('ghost','user','x',?)",
        (T0 - 5,),
    )
    mem_db.conn.execute("PRAGMA foreign_keys=ON")
    got = {s.id: (s.started_at, s.message_count) for s in raw.list_sessions()}
    assert got["ghost"] == (T0 - 5, 1)
    assert "ghost" not in {s.id for s in raw.list_sessions(include_orphans=False)}
    assert raw.session_ids_with_messages() == ["ghost"]


# -- appending -------------------------------------------------------------------------------------------
def test_append_message_requires_known_session_and_valid_role(raw):
    with pytest.raises(NotFoundError):
        raw.append_message("unknown", "user", "hi", T0)
    with pytest.raises(ValidationError_):
        raw.append_message("global", "robot", "hi", T0)
    m = raw.append_message("global", "tool", "ok", T0, origin_session_id="wechat:abc")
    assert (m.id, m.role, m.content, m.timestamp, m.origin_session_id) == (1, "tool", "ok", T0, "wechat:abc")
    assert raw.get_message(1) == m
    assert raw.get_message(99) is None


def test_append_many_is_one_transaction(raw):
    rows = [("global", "user", f"m{i}", T0 + i) for i in range(5)] + [("nope", "user", "x", T0)]
    with pytest.raises(NotFoundError):
        raw.append_many(rows, chunk_size=2)
    assert raw.count() == 0
    n = raw.append_many(
        [
            {"session_id": "new", "role": "user", "content": "a", "timestamp": T0 + 7},
            ("global", "assistant", "b", T0 + 8, "telegram:1"),
            ("new", "user", "c", T0 + 9),
        ],
        create_sessions=True,
    )
    assert n == 3
    assert raw.get_session("new").started_at == T0 + 7
    assert [(m.content, m.origin_session_id) for m in raw.query_timeline(order="asc")] == [
        ("a", None),
        ("b", "telegram:1"),
        ("c", None),
    ]
    # the FTS triggers ran for the bulk rows too
    assert [m.content for m in raw.search_messages("role:assistant")] == ["b"]


# -- reading ---------------------------------------------------------------------------------------------
@pytest.fixture
def timeline_rows(raw):
    raw.start_session("s2", T0)
    add(raw, "a", T0 + 10)  # 1
    add(raw, "b", T0 + 20, role="assistant")  # 2
    add(raw, "c", T0 + 20, session="s2", origin="wechat:x")  # 3 (same timestamp as 2)
    add(raw, "d", T0 + 30, role="tool", origin="home")  # 4
    add(raw, "e", T0 + 40, role="system", session="s2")  # 5
    add(raw, "f", T0 + 5)  # 6: older than all, appended last
    return raw


def test_query_timeline_orders_and_pages_by_timestamp_then_id(timeline_rows):
    raw = timeline_rows
    assert ids(raw.query_timeline()) == [5, 4, 3, 2, 1, 6]
    assert ids(raw.query_timeline(order="asc")) == [6, 1, 2, 3, 4, 5]
    page1 = raw.query_timeline(limit=2)
    assert ids(page1) == [5, 4]
    page2 = raw.query_timeline(limit=2, before=(page1[-1].timestamp, page1[-1].id))
    assert ids(page2) == [3, 2]
    page3 = raw.query_timeline(limit=2, before=(T0 + 20, 2))
    assert ids(page3) == [1, 6]
    assert ids(raw.query_timeline(order="asc", limit=2, after=(T0 + 20, 2))) == [3, 4]
    assert ids(raw.query_timeline(limit=-1)) == [5, 4, 3, 2, 1, 6]
    assert ids(raw.query_timeline(limit=None, before=(T0 + 40, 5), after=(T0 + 10, 1))) == [4, 3, 2]


def test_query_timeline_filters(timeline_rows):
    raw = timeline_rows
    assert ids(raw.query_timeline(session_ids=["s2"])) == [5, 3]
    assert ids(raw.query_timeline(session_ids=[])) == [5, 4, 3, 2, 1, 6]
    assert ids(raw.query_timeline(roles=["assistant", "tool"])) == [4, 2]
    assert ids(raw.query_timeline(roles=[])) == []
    assert ids(raw.query_timeline(since=T0 + 20, until=T0 + 30)) == [4, 3, 2]
    # NULL-inclusive origin filter (Part B §7 raw.ts)
    assert ids(raw.query_timeline(origin_session_ids=["home"])) == [5, 4, 2, 1, 6]
    assert ids(raw.query_timeline(origin_session_ids=["wechat:x"])) == [5, 3, 2, 1, 6]


@pytest.mark.parametrize("small,big", [(5000, 100_000), (2, 100_000), (2, 3), (1, 2)])
def test_session_filter_strategies_agree(raw, monkeypatch, small, big):
    # index plan (small sessions), newest-n window then index fallback (middle), time-index walk (big)
    monkeypatch.setattr(timeline, "SMALL_FILTER_ROWS", small)
    monkeypatch.setattr(timeline, "BIG_FILTER_ROWS", big)
    raw.start_session("s2", T0)
    for i in range(8):
        add(
            raw, f"m{i} {'旺财' if i in (0, 3) else ''}", T0 + i, session="s2" if i in (0, 1, 3) else "global"
        )
    assert ids(raw.query_timeline(session_ids=["s2"], limit=2)) == [4, 2]
    assert ids(raw.query_timeline(session_ids=["s2"], limit=2, order="asc")) == [1, 2]
    assert ids(raw.query_timeline(session_ids=["s2"], limit=None)) == [4, 2, 1]
    assert ids(raw.search_messages("旺财", session_id="s2", limit=2)) == [4, 1]
    assert ids(raw.search_messages("旺财", session_id="s2", limit=1)) == [4]
    assert raw.last_message_at("s2") == T0 + 3


def test_session_window_answers_when_the_session_is_recent(raw, monkeypatch):
    monkeypatch.setattr(timeline, "SMALL_FILTER_ROWS", 2)
    raw.start_session("s2", T0)
    for i in range(6):
        add(raw, f"m{i}", T0 + i, session="s2" if i >= 3 else "global")
    seen = []
    real = RawStore._rows
    monkeypatch.setattr(RawStore, "_rows", lambda self, sql, a=(): seen.append(sql) or real(self, sql, a))
    assert ids(raw.query_timeline(session_ids=["s2"], limit=2)) == [6, 5]
    assert len(seen) == 1 and "FROM (SELECT" in seen[0]  # the window sufficed; no session-index read


def test_big_session_filter_walks_the_time_index(raw):
    plan = " ".join(
        r[3]
        for r in raw.conn.execute(
            "EXPLAIN QUERY PLAN SELECT m.* FROM memory_raw_messages AS m WHERE +m.session_id IN (?) "
            "ORDER BY m.timestamp DESC, m.id DESC LIMIT 2",
            ("s2",),
        )
    )
    assert "idx_raw_messages_timestamp" in plan and "TEMP B-TREE" not in plan


def test_messages_around_and_near(timeline_rows):
    raw = timeline_rows
    assert ids(raw.messages_around(2, 1)) == [1, 2, 3]
    assert ids(raw.messages_around(6, 2)) == [6, 1, 2]
    assert ids(raw.messages_around(3, 1, session_ids=["s2"])) == [3, 5]
    with pytest.raises(NotFoundError):
        raw.messages_around(99)
    assert ids(raw.messages_near(T0 + 20, 2)) == [2, 3, 4, 5]
    assert ids(raw.messages_near(T0 + 21, 1)) == [3, 4]


def test_counts_and_latest(timeline_rows):
    raw = timeline_rows
    assert raw.latest_id() == 6
    assert raw.count() == 6
    assert raw.count(["s2"]) == 2
    assert raw.count_estimate() == 6
    assert raw.time_range() == (T0 + 5, T0 + 40)
    assert raw.last_message_at("global") == T0 + 30
    assert raw.last_message_at("global", role="assistant") == T0 + 20
    assert raw.last_message_at("s2", role="user") == T0 + 20
    assert raw.last_message_at("nobody") is None
    assert raw.last_message_at_for_origin("home") == T0 + 40  # NULL-inclusive
    assert raw.last_message_at_for_origin("home", role="tool") == T0 + 30
    assert raw.last_message_at_for_origin("wechat:x", role="tool") is None


def test_count_estimate_on_empty_and_after_delete(mem_db, raw):
    assert raw.count_estimate() == 0 and raw.latest_id() is None
    for i in range(4):
        add(raw, f"m{i}", T0 + i)
    mem_db.conn.execute("DELETE FROM memory_raw_messages WHERE id = 1")
    assert raw.count_estimate() == 3  # max - min + 1
    mem_db.conn.execute("DELETE FROM memory_raw_messages WHERE id = 3")
    assert (raw.count_estimate(), raw.count()) == (3, 2)


def test_missing_origin_column_reads_as_null(mem_db):
    c = mem_db.conn
    c.execute("DROP INDEX idx_raw_messages_origin")
    c.execute("ALTER TABLE memory_raw_messages DROP COLUMN origin_session_id")
    c.execute(
        "INSERT INTO memory_raw_messages (session_id, role, content, timestamp) VALUES ('global','user','x',1)"
    )
    raw = RawStore(mem_db)
    assert [(m.id, m.origin_session_id) for m in raw.query_timeline(origin_session_ids=["home"])] == [
        (1, None)
    ]
    assert raw.last_message_at_for_origin("home") == 1


# -- daily counts ----------------------------------------------------------------------------------------
def test_daily_counts_utc_and_local_days(raw):
    midnight = (T0 // DAY) * DAY  # 2026-06-09T00:00Z
    raw.start_session("s2", T0)
    for ts, sid in [
        (midnight + 1, "global"),
        (midnight + DAY - 1, "global"),
        (midnight + DAY - 1, "s2"),
        (midnight + DAY, "global"),
        (midnight + 3 * DAY + 5, "s2"),
    ]:
        add(raw, "x", ts, session=sid)
    assert raw.daily_counts() == [(midnight, 3), (midnight + DAY, 1), (midnight + 3 * DAY, 1)]
    # UTC+8: local midnight is 16:00Z of the previous day.
    off = 8 * 60 * 60_000
    assert raw.daily_counts(tz_offset_minutes=480) == [
        (midnight - off, 1),
        (midnight + DAY - off, 3),
        (midnight + 3 * DAY - off, 1),
    ]
    # UTC-5
    assert raw.daily_counts(tz_offset_minutes=-300)[0] == (midnight - DAY + 5 * 3_600_000, 1)
    assert raw.daily_counts(since=midnight + 2, until=midnight + DAY) == [(midnight, 2), (midnight + DAY, 1)]
    assert raw.daily_counts(since=5, until=4) == []
    # session filters: the small side directly, or "all minus the others"
    assert raw.daily_counts(session_ids=["s2"]) == [(midnight, 1), (midnight + 3 * DAY, 1)]
    assert raw.daily_counts(session_ids=["global"]) == [(midnight, 2), (midnight + DAY, 1)]
    assert raw.daily_counts(session_ids=["global", "s2"]) == raw.daily_counts()
    assert raw.daily_counts(session_ids=["nobody"]) == []


# -- search: the sanitiser and the FTS / LIKE rules ----------------------------------------------------
def test_sanitiser_removes_only_five_characters_and_trims_js_whitespace():
    assert sanitize_query("'\"*()") == ""
    assert sanitize_query('  "数据库"  ') == "数据库"
    assert sanitize_query("a-b:c^d+e.f/g") == "a-b:c^d+e.f/g"
    assert sanitize_query("\ufeff记得\ufeff") == "记得"  # JS trims U+FEFF
    assert sanitize_query("\u0085记得\u0085") == "\u0085记得\u0085"  # and does not trim U+0085
    assert sanitize_query(None) == ""


@pytest.fixture
def corpus(raw):
    raw.start_session("s2", T0)
    rows = [
        ("user", "We ran the database MIGRATIONS today", "global"),  # 1
        ("assistant", "The migration finished; 数据库迁移完成", "global"),  # 2
        ("user", "旺财 is a good dog 的名字", "s2"),  # 3
        ("assistant", "see mycox.example and v2/status", "global"),  # 4
        ("user", "hello world", "global"),  # 5
        ("user", "hello there", "s2"),  # 6
        ("tool", "a-b testing and xabcx", "global"),  # 7
        ("system", "remember: the user said 数据库 is slow", "global"),  # 8
        ("assistant", "Éa and ea", "global"),  # 9
    ]
    for i, (role, content, sid) in enumerate(rows):
        add(raw, content, T0 + 100 * (i + 1), role=role, session=sid)
    return raw


def test_fts_english_is_substring_and_case_insensitive(corpus):
    assert ids(corpus.search_messages("migration")) == [2, 1]
    assert ids(corpus.search_messages("MIGRATION")) == [2, 1]
    assert corpus.search_page("migration").mode == "fts"


def test_fts_chinese_three_characters(corpus):
    assert ids(corpus.search_messages("数据库")) == [8, 2]
    assert ids(corpus.search_messages('"数据库"')) == [8, 2]  # quotes are removed, not a phrase


def test_two_character_cjk_takes_the_like_path(corpus):
    page = corpus.search_page("旺财")
    assert (page.mode, [h.message.id for h in page.hits]) == ("like", [3])
    assert ids(corpus.search_messages("名字")) == [3]


def test_column_filter_role_user_passes_through(corpus):
    assert ids(corpus.search_messages("role:user")) == [6, 5, 3, 1]
    assert ids(corpus.search_messages("role:tool")) == [7]


def test_role_name_query_hits_every_message_of_that_role(corpus):
    # 'assistant' is in no content, but the FTS table indexes the role column.
    assert ids(corpus.search_messages("assistant")) == [9, 4, 2]
    # 'user' hits the user rows and the system row whose content says "the user".
    assert ids(corpus.search_messages("user")) == [8, 6, 5, 3, 1]


def test_fts_errors_fall_back_to_like(corpus):
    # 'a-b' raises "no such column: b" in FTS5; LIKE finds the literal text.
    page = corpus.search_page("a-b")
    assert (page.mode, [h.message.id for h in page.hits]) == ("like", [7])
    assert ids(corpus.search_messages("mycox.example")) == [4]
    assert ids(corpus.search_messages("v2/status")) == [4]
    assert ids(corpus.search_messages("hello, world")) == []
    assert ids(corpus.search_messages("NEAR(")) == []


def test_short_token_is_ignored_inside_an_implicit_and(corpus):
    assert ids(corpus.search_messages("hello zz")) == [6, 5]  # Part C j: 'zz' behaves as match-all
    assert corpus.search_page("hello zz").mode == "fts"
    # all tokens short: no FTS rows, LIKE on the whole string
    page = corpus.search_page("lo wo")
    assert (page.mode, [h.message.id for h in page.hits]) == ("like", [5])
    assert ids(corpus.search_messages("a b c")) == []


def test_like_does_not_escape_wildcards_and_folds_ascii_only(corpus):
    # FTS finds no literal 'a_c'; LIKE reads '_' as any character and finds 'abc'.
    page = corpus.search_page("a_c")
    assert (page.mode, [h.message.id for h in page.hits]) == ("like", [7])
    assert page.hits[0].match_spans == [(17, 20)]
    assert ids(corpus.search_messages("ÉA")) == [9]  # 'A' folds to 'a'; 'É' matches itself only
    assert ids(corpus.search_messages("éa")) == []


def test_filters_since_until_and_sessions(corpus):
    assert ids(corpus.search_messages("hello", session_id="s2")) == [6]
    assert ids(corpus.search_messages("hello", session_id="s2", session_ids=["global"])) == [5]
    assert ids(corpus.search_messages("hello", session_id="s2", session_ids=[])) == [6]
    assert ids(corpus.search_messages("migration", since=T0 + 200)) == [2]
    assert ids(corpus.search_messages("migration", until=T0 + 100)) == [1]
    assert ids(corpus.search_messages("migration", since=T0 + 150, until=T0 + 160)) == []
    # the LIKE path honours the same filters
    assert ids(corpus.search_messages("旺财", session_id="global")) == []
    assert ids(corpus.search_messages("旺财", since=T0 + 300, until=T0 + 300)) == [3]


def test_limits(raw):
    for i in range(25):
        add(raw, f"common word {i}", T0 + i)
    assert len(raw.search_messages("common")) == 20
    assert ids(raw.search_messages("common", limit=3)) == [25, 24, 23]
    assert len(raw.search_messages("common", limit=-1)) == 25
    assert raw.search_messages("common", limit=0) == []
    assert ids(raw.search_messages("common", limit=3.0)) == [25, 24, 23]
    # A fractional limit: FTS swallows the error, the LIKE fallback raises it (Part C c).
    with pytest.raises(sqlite3.Error):
        raw.search_messages("common", limit=2.7)
    page = raw.search_page("common", limit=2.7)
    assert page.mode == "empty" and page.hits == [] and "mismatch" in page.error


def test_ties_in_timestamp_are_broken_by_id_descending(raw):
    for i in range(5):
        add(raw, f"same time {i}", T0)
    assert ids(raw.search_messages("same")) == [5, 4, 3, 2, 1]
    assert ids(raw.search_messages("me")) == [5, 4, 3, 2, 1]  # LIKE path


def test_utf16_length_rule(raw):
    add(raw, "x😀 face", T0)
    # 'x😀' is 3 UTF-16 units (2 characters): FTS is tried (no trigram), then LIKE.
    page = raw.search_page("x😀")
    assert (page.mode, [h.message.id for h in page.hits]) == ("like", [1])
    assert page.hits[0].match_spans == [(0, 2)]


# -- search_page -----------------------------------------------------------------------------------------
def test_search_page_spans_and_modes(corpus):
    p = corpus.search_page("Migration")
    assert [(h.message.id, h.match_spans) for h in p.hits] == [(2, [(4, 13)]), (1, [(20, 29)])]
    p = corpus.search_page("数据库 migration")
    assert [(h.message.id, h.match_spans) for h in p.hits] == [(2, [(4, 13), (24, 27)])]
    p = corpus.search_page("role:user hello")
    assert [(h.message.id, h.match_spans) for h in p.hits] == [(6, [(0, 5)]), (5, [(0, 5)])]
    p = corpus.search_page("'\"*()")
    assert (p.mode, p.hits, p.safe) == ("empty", [], "")


def test_search_page_keyset_pages_stay_in_one_mode(raw):
    for i in range(7):
        add(raw, f"paging 数据库 {i}", T0 + i)
    p1 = raw.search_page("数据库", limit=3)
    assert [h.message.id for h in p1.hits] == [7, 6, 5] and p1.next_before == (T0 + 4, 5)
    p2 = raw.search_page("数据库", limit=3, before=p1.next_before, mode=p1.mode)
    assert [h.message.id for h in p2.hits] == [4, 3, 2]
    p3 = raw.search_page("数据库", limit=3, before=p2.next_before)  # mode chosen again: fts
    assert ([h.message.id for h in p3.hits], p3.mode, p3.next_before) == ([1], "fts", None)
    # an FTS listing past its last hit stays empty instead of switching to LIKE
    assert raw.search_page("数据库", limit=3, before=(T0, 1), mode="fts").hits == []
    l1 = raw.search_page("据库", limit=4)
    l2 = raw.search_page("据库", limit=4, before=l1.next_before, mode=l1.mode)
    assert ([h.message.id for h in l1.hits], [h.message.id for h in l2.hits]) == ([7, 6, 5, 4], [3, 2, 1])
    assert raw.search_page("paging", roles=["assistant"]).hits == []


def test_fts_terms_for_highlighting():
    assert fts_terms("hello NOT world OR 数据库 role:user content:abc -role:xyz ^start zz") == [
        "hello",
        "数据库",
        "abc",
        "xyz",
        "start",
    ]


# -- the fast path equals the reference SQL -------------------------------------------------------------
def _random_corpus(db: MemoryDB, rng: random.Random, n: int, *, shuffle: bool, out_of_order: float = 0.0):
    raw = RawStore(db)
    raw.start_session("s2", 0)
    stamps = [T0 + i * 1000 + rng.choice((0, 0, 1)) * 0 for i in range(n)]
    if shuffle:
        rng.shuffle(stamps)
    for i in range(n):
        if rng.random() < 0.1:
            stamps[i] = stamps[max(0, i - 1)]  # ties
        if out_of_order and rng.random() < out_of_order:
            stamps[i] -= rng.randint(1, 50) * 1000
    words = ["alpha", "数据库", "gamma", "旺财", "delta"]
    rows = []
    for i in range(n):
        w = [x for x, p in zip(words, (0.5, 0.25, 0.05, 0.1, 0.01)) if rng.random() < p]
        rows.append(
            (
                "s2" if rng.random() < 0.2 else "global",
                rng.choice(("user", "assistant")),
                " ".join(w) or "-",
                stamps[i],
            )
        )
    raw.append_many(rows)
    return raw


QUERIES = ["alpha", "数据库", "gamma", "旺财", "delta", "alpha 数据库", "role:user", "alpha OR gamma", "a-b"]


@pytest.mark.parametrize("shuffle,out_of_order", [(True, 0.0), (False, 0.0), (False, 0.02)])
def test_fast_path_equals_reference_sql(shuffle, out_of_order):
    rng = random.Random(11)
    db = MemoryDB.memory()
    raw = _random_corpus(db, rng, 1500, shuffle=shuffle, out_of_order=out_of_order)
    t_mid = T0 + 700_000
    for q in QUERIES:
        for limit in (1, 5, 20, 200):
            for filt in (
                {},
                {"since": t_mid},
                {"until": t_mid},
                {"sessions": ["s2"]},
                {"since": T0 + 100_000, "until": t_mid, "sessions": ["global"]},
            ):
                expected = reference_sql(db, q, limit=limit, **filt)
                got = raw.search_messages(
                    q,
                    since=filt.get("since"),
                    until=filt.get("until"),
                    session_ids=filt.get("sessions"),
                    limit=limit,
                )
                assert ids(got) == expected, (q, limit, filt)
    db.close()


def test_fast_path_stops_early_on_an_ordered_timeline(monkeypatch):
    db = MemoryDB.memory()
    raw = _random_corpus(db, random.Random(5), 800, shuffle=False)
    calls = []
    real = FullTextIndex._fts_exact
    monkeypatch.setattr(FullTextIndex, "_fts_exact", lambda self, *a: calls.append(a) or real(self, *a))
    assert ids(raw.search_messages("alpha")) == reference_sql(db, "alpha")
    assert calls == []  # no full sort was needed
    # a tiny scan cap forces the exact sort, with the same result
    monkeypatch.setattr(fts, "FAST_SCAN_CAP", 1)
    assert ids(raw.search_messages("alpha", until=T0 + 600_000)) == reference_sql(
        db, "alpha", until=T0 + 600_000
    )
    assert len(calls) == 1
    db.close()


def test_sparse_recent_hits_take_the_exact_sort(raw, monkeypatch):
    # A word only in the 5 oldest of 300 messages: proving the walk exact would read ~295 index
    # entries, more than sorting the ~2 estimated hits costs, so the walk is finished and sorted
    # (or, with a time bound, the reference's sort runs); the result is the same.
    raw.append_many([("global", "user", "rare word" if i < 5 else "filler", T0 + i) for i in range(300)])
    monkeypatch.setattr(fts, "FAST_SCAN_MIN", 10)
    calls = []
    real = FullTextIndex._fts_exact
    monkeypatch.setattr(FullTextIndex, "_fts_exact", lambda self, *a: calls.append(a[2]) or real(self, *a))
    scans = []
    real_cap = FullTextIndex._scan_cap
    monkeypatch.setattr(
        FullTextIndex, "_scan_cap", lambda self, *a: scans.append(real_cap(self, *a)) or scans[-1]
    )
    assert ids(raw.search_messages("rare", limit=2)) == [5, 4] == reference_sql(raw.db, "rare", limit=2)
    assert calls == [] and scans == [40]  # ~2 hits estimated: 40 index entries at most, then the sort
    until = T0 + 250
    assert ids(raw.search_messages("rare", limit=2, until=until)) == [5, 4]
    assert calls == [2]
    # dense recent hits: the walk is proved exact with a short index read, no sort
    assert ids(raw.search_messages("filler", limit=2)) == [300, 299]
    assert calls == [2]


def test_out_of_order_rows_are_checked_explicitly(raw, monkeypatch):
    # ids grow, timestamps too, except one old id carrying the newest timestamp (clock skew / import).
    add(raw, "alpha skewed", T0 + 10_000)  # id 1, newest by time
    for i in range(2, 12):
        add(raw, f"alpha {i}", T0 + i)
    add(raw, "beta only", T0 + 9_999)  # out of order but not a hit
    checked = []
    real = FullTextIndex._fts_check_ids
    monkeypatch.setattr(
        FullTextIndex, "_fts_check_ids", lambda self, s, w, i: checked.append(i) or real(self, s, w, i)
    )
    assert ids(raw.search_messages("alpha", limit=3)) == [1, 11, 10]
    assert checked == [[1]]  # only the out-of-order row below the walk was looked at
    assert ids(raw.search_messages("alpha", limit=3)) == reference_sql(raw.db, "alpha", limit=3)
    monkeypatch.setattr(fts, "FAST_OUT_OF_ORDER_CAP", 0)
    assert ids(raw.search_messages("alpha", limit=3)) == [1, 11, 10]


def test_time_bound_walk_starts_below_the_bound_and_finds_late_old_rows(raw, monkeypatch):
    for i in range(1, 11):
        add(raw, f"alpha {i}", T0 + i)  # ids 1..10, in time order
    add(raw, "alpha late", T0 + 5)  # id 11: appended last with an old timestamp
    checked = []
    real = FullTextIndex._fts_check_ids
    monkeypatch.setattr(
        FullTextIndex, "_fts_check_ids", lambda self, s, w, i: checked.append(i) or real(self, s, w, i)
    )
    got = ids(raw.search_messages("alpha", until=T0 + 7, limit=3))
    assert got == [7, 6, 11] == reference_sql(raw.db, "alpha", until=T0 + 7, limit=3)
    assert checked == [[11]]
    page = raw.search_page("alpha", limit=2, before=(T0 + 6, 6), mode="fts")
    assert [h.message.id for h in page.hits] == [11, 5]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    stamps=st.lists(st.integers(0, 30), min_size=1, max_size=40),
    hits=st.lists(st.booleans(), min_size=40, max_size=40),
    limit=st.integers(1, 12),
    bound=st.tuples(st.integers(0, 31), st.integers(0, 41)),
)
def test_fast_path_property_with_keyset(stamps, hits, limit, bound):
    db = MemoryDB.memory()
    raw = RawStore(db)
    raw.append_many(
        [("global", "user", "needle here" if hits[i] else "hay", T0 + s) for i, s in enumerate(stamps)]
    )
    bt, bid = T0 + bound[0], bound[1]
    expected = [
        r[0]
        for r in db.conn.execute(
            "SELECT m.id FROM memory_raw_messages m JOIN memory_raw_messages_fts f ON f.rowid = m.rowid "
            "WHERE memory_raw_messages_fts MATCH 'needle' AND (m.timestamp < ? OR (m.timestamp = ? AND m.id < ?)) "
            "ORDER BY m.timestamp DESC, m.id DESC LIMIT ?",
            (bt, bt, bid, limit),
        )
    ]
    page = raw.search_page("needle", limit=limit, before=(bt, bid), mode="fts")
    assert [h.message.id for h in page.hits] == expected
    db.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    stamps=st.lists(st.integers(0, 30), min_size=1, max_size=40),
    hits=st.lists(st.booleans(), min_size=40, max_size=40),
    limit=st.integers(1, 12),
    until=st.one_of(st.none(), st.integers(0, 30)),
)
def test_fast_path_property(stamps, hits, limit, until):
    db = MemoryDB.memory()
    raw = RawStore(db)
    raw.append_many(
        [("global", "user", "needle here" if hits[i] else "hay", T0 + s) for i, s in enumerate(stamps)]
    )
    u = None if until is None else T0 + until
    assert ids(raw.search_messages("needle", until=u, limit=limit)) == reference_sql(
        db, "needle", until=u, limit=limit
    )
    db.close()
