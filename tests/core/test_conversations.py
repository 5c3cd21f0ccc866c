"""core.conversations: the timeline by origin, listed from the indexes and kept up to date; the
conversation filter of the timeline and the search; an action tied to a conversation by time."""

from __future__ import annotations

import random

import pytest

from core import timeline
from core.conversations import (
    ConversationIndex,
    channel_of,
    conversation_at,
    conversation_of,
    list_conversations,
)
from core.db import MemoryDB
from core.search import conversation_filter
from core.timeline import RawStore
from tests.fixtures import agent_files
from tests.support import FIXED_NOW

T0 = FIXED_NOW


def _brute(db, ids):
    """Every message of these conversations, by (timestamp, id)."""
    rows = [m for m in RawStore(db).query_timeline("asc", None) if conversation_of(m) in ids]
    return sorted(rows, key=lambda m: (m.timestamp, m.id))


def _mixed(db):
    """Older sessions, a scheduled session that later got an origin, the global timeline without and
    with origins, clock skew and equal timestamps: the shapes of a file upgraded across versions."""
    raw = RawStore(db)
    rng = random.Random(5)
    rows = []
    t = T0 - 90 * agent_files.DAY
    for s in ("sess-a", "sess-b"):
        for _ in range(30):
            t += rng.randint(1, 60_000)
            rows.append((s, "user", f"old {s} hello {rng.random()}", t, None))
    sched = "system:scheduled:digest"
    for i in range(120):
        t += rng.choice([0, 0, 1, 30_000])  # many equal timestamps
        phase = i // 40  # 0: global without origin, 1: origins, 2: origins and skew
        origin = None if phase == 0 else rng.choice(["web-ui:a", "wechat:b", "telegram:c", None, "web-ui:a"])
        session = sched if i % 9 == 0 else "global"
        if session == sched and phase > 0:
            origin = sched
        ts = t - 3_600_000 if phase == 2 and i % 7 == 0 else t
        rows.append((session, rng.choice(["user", "assistant"]), f"line {i} hello", ts, origin))
    # A session of the older kind still written to after origins came, then by a conversation with one.
    rows += [("sess-late", "user", "late session hello", t + i, None) for i in range(3)]
    rows.append(("sess-late", "assistant", "with an origin", t + 9, "web-ui:a"))
    raw.append_many(rows, create_sessions=True)
    return rows


@pytest.fixture
def mixed_db(file_db):
    _mixed(file_db)
    return file_db


def test_the_agents_conversations(tmp_path):
    path = agent_files.make_fresh(tmp_path / "v48.sqlite", 48)
    with MemoryDB.open(path) as db:
        convs = {c.id: c for c in list_conversations(db)}
        total = RawStore(db).count()
    assert set(convs) == {*agent_files.ORIGINS, "global"}
    assert sum(c.message_count for c in convs.values()) == total
    web = convs[agent_files.WEB]
    assert (web.kind, web.channel, web.detail, web.message_count) == ("origin", "web", "abc", 7)
    assert (convs["wechat:wxid_lin_xiao"].channel, convs["telegram:50211873"].channel) == (
        "wechat",
        "telegram",
    )
    digest = convs[agent_files.DIGEST]
    assert (digest.channel, digest.detail) == ("scheduled", "daily-digest")
    unknown = convs["global"]
    assert (unknown.kind, unknown.channel, unknown.message_count) == ("unknown", "unknown", 3)
    assert web.first_at < unknown.first_at < unknown.last_at < web.last_at
    listed = list(convs.values())
    assert [c.last_at for c in listed] == sorted((c.last_at for c in listed), reverse=True)


def test_every_message_is_in_exactly_one_listed_conversation(mixed_db):
    convs = list_conversations(mixed_db)
    by_id = {c.id: c for c in convs}
    assert set(by_id) == {
        "sess-a", "sess-b", "sess-late", "system:scheduled:digest", "web-ui:a", "wechat:b", "telegram:c", "global"
    }  # fmt: skip
    assert (by_id["sess-a"].kind, by_id["sess-a"].channel) == ("session", "session")
    sched = by_id["system:scheduled:digest"]
    assert sched.kind == "origin"  # its rows before origins existed are counted with it
    raw = RawStore(mixed_db)
    assert sum(c.message_count for c in convs) == raw.count()
    for c in convs:
        rows = _brute(mixed_db, {c.id})
        assert c.message_count == len(rows), c.id
        assert raw.query_timeline("asc", None, conversations=[c.id]) == rows
    # First and last: by time for origin rows, as written (rowid order) for rows without one.
    every = raw.query_timeline("asc", None)
    for c in convs:
        times = [m.timestamp for m in every if m.origin_session_id == c.id]
        plain = sorted(
            (m for m in every if m.origin_session_id is None and m.session_id == c.id), key=lambda m: m.id
        )
        times += [plain[0].timestamp, plain[-1].timestamp] if plain else []
        assert (c.first_at, c.last_at) == (min(times), max(times)), c.id


@pytest.mark.parametrize(
    "ids",
    [["web-ui:a"], ["global"], ["sess-b"], ["system:scheduled:digest"], ["global", "wechat:b", "sess-a"], []],
)
@pytest.mark.parametrize("order", ["desc", "asc"])
def test_pages_of_conversations_match_a_plain_filter(mixed_db, ids, order):
    raw = RawStore(mixed_db)
    want = _brute(mixed_db, set(ids))
    if order == "desc":
        want = want[::-1]
    got, key = [], None
    while True:
        bound = {"before": key} if order == "desc" else {"after": key}
        page = raw.query_timeline(order, 7, conversations=ids, **(bound if key else {}))
        got += page
        if len(page) < 7:
            break
        key = (page[-1].timestamp, page[-1].id)
    assert got == want
    if want:
        mid = want[len(want) // 2]
        around = raw.messages_around(mid.id, 3, conversations=ids)
        assert all(conversation_of(m) in ids for m in around) and mid in around


@pytest.mark.parametrize(
    "ids",
    [
        ["web-ui:a"],
        ["global"],
        ["sess-b"],
        ["system:scheduled:digest", "sess-late"],
        ["global", "wechat:b"],
        [],
    ],
)
@pytest.mark.parametrize("index", [True, False], ids=["origin-index", "no-index"])
def test_daily_counts_of_conversations_count_their_messages_per_day(mixed_db, ids, index):
    if not index:
        with mixed_db.write() as c:
            c.execute("DROP INDEX idx_raw_messages_origin")
    off = 480
    rows = _brute(mixed_db, set(ids))

    def per_day(since):
        want: dict[int, int] = {}
        for m in rows:
            if m.timestamp >= since:
                day = ((m.timestamp + off * 60_000) // timeline.DAY_MS) * timeline.DAY_MS - off * 60_000
                want[day] = want.get(day, 0) + 1
        return sorted(want.items())

    raw = RawStore(mixed_db)
    assert raw.daily_counts(conversations=ids, tz_offset_minutes=off) == per_day(timeline.INT64_MIN)
    mid = rows[len(rows) // 2].timestamp if rows else 0
    assert raw.daily_counts(since=mid, conversations=ids, tz_offset_minutes=off) == per_day(mid)


@pytest.mark.parametrize("query", ["hello", "line 1", "lo", "a-b", "hello role:user"])
@pytest.mark.parametrize("ids", [None, ["web-ui:a"], ["global", "sess-a"]])
def test_counted_hits_are_every_page_of_the_search_put_together(mixed_db, query, ids):
    raw = RawStore(mixed_db)
    first = raw.search_page(query, limit=5, conversations=ids, roles=["user"])
    got, page = len(first.hits), first
    while page.next_before is not None:
        page = raw.search_page(
            query, limit=5, before=page.next_before, mode=first.mode, conversations=ids, roles=["user"]
        )
        got += len(page.hits)
    assert raw.count_hits(query, first.mode, conversations=ids, roles=["user"]) == got
    assert raw.count_hits(query, "empty") == 0 and raw.count_hits("'\"", "fts") == 0


def test_the_same_pages_without_the_origin_index_or_column(mixed_db):
    raw = RawStore(mixed_db)
    ids = ["global", "web-ui:a", "sess-b"]
    with_index = raw.query_timeline("desc", 25, conversations=ids)
    listed = [c.model_dump() for c in list_conversations(mixed_db)]
    with mixed_db.write() as c:
        c.execute("DROP INDEX idx_raw_messages_origin")
    raw = RawStore(mixed_db)
    assert raw.query_timeline("desc", 25, conversations=ids) == with_index
    assert [c.model_dump() for c in list_conversations(mixed_db)] == listed
    with mixed_db.write() as c:  # a v31 file: no origins at all, conversations are sessions
        c.execute("ALTER TABLE memory_raw_messages DROP COLUMN origin_session_id")
    convs = {c.id: c for c in list_conversations(mixed_db)}
    assert set(convs) == {"sess-a", "sess-b", "sess-late", "system:scheduled:digest", "global"}
    assert convs["global"].kind == "unknown"
    raw = RawStore(mixed_db)
    assert all(m.session_id == "sess-b" for m in raw.query_timeline("desc", 100, conversations=["sess-b"]))


def test_the_index_follows_appended_rows_and_starts_over_after_a_deletion(mixed_db):
    index = ConversationIndex(mixed_db)
    first = index.list()
    raw = RawStore(mixed_db)
    raw.append_message("global", "user", "a new chat", T0, origin_session_id="web-ui:new")
    raw.append_message("global", "assistant", "no origin", T0 + 1)
    raw.append_message("sess-a", "user", "late line in an old session", T0 + 2)
    now = {c.id: c for c in index.list()}
    fresh = {c.id: c for c in list_conversations(mixed_db)}
    assert now == fresh
    assert now["web-ui:new"].message_count == 1
    assert now["global"].message_count == {c.id: c for c in first}["global"].message_count + 1
    with mixed_db.write() as c:
        c.execute(
            "DELETE FROM memory_raw_messages WHERE rowid = (SELECT min(rowid) FROM memory_raw_messages)"
        )
    assert index.list() == list_conversations(mixed_db)


def test_one_index_is_brought_up_to_date_through_any_connection(file_db):
    _mixed(file_db)
    index = ConversationIndex()
    with pytest.raises(ValueError):
        index.list()
    with MemoryDB.open(file_db.path) as reader:  # another connection, as a worker thread has
        first = index.list(reader)
    RawStore(file_db).append_message("global", "user", "new", T0, origin_session_id="wechat:b")
    with MemoryDB.open(file_db.path) as reader:
        assert index.list(reader) == list_conversations(file_db) != first


@pytest.mark.parametrize("small", [conversation_filter.SMALL_CONVERSATION_ROWS, 0], ids=["keys", "walk"])
def test_search_keeps_the_hits_of_the_chosen_conversations(mixed_db, monkeypatch, small):
    monkeypatch.setattr(conversation_filter, "SMALL_CONVERSATION_ROWS", small)
    raw = RawStore(mixed_db)
    for query, mode in (("hello", "fts"), ("he", "like")):
        for ids in (["web-ui:a"], ["global"], ["sess-a", "telegram:c"]):
            page = raw.search_page(query, conversations=ids, limit=500)
            assert page.mode == mode and page.hits
            assert all(conversation_of(h.message) in ids for h in page.hits)
            assert {h.message.id for h in page.hits} == {
                m.id for m in _brute(mixed_db, set(ids)) if query in m.content
            }
            msgs = raw.search_messages(query, conversations=ids, limit=5)
            assert [m.id for m in msgs] == [h.message.id for h in page.hits[:5]]


@pytest.mark.parametrize(
    ("ids", "channel", "detail"),
    [
        ("web-ui:abc", "web", "abc"),
        ("web:xyz", "web", "xyz"),
        ("wechat:wxid", "wechat", "wxid"),
        ("telegram:1", "telegram", "1"),
        ("system:scheduled:", "scheduled", ""),
        ("system:autonomous-1", "background", "autonomous-1"),
        ("plain", "web", "plain"),
        ("global", "unknown", ""),
    ],
)
def test_channels_follow_the_agents_description_of_origins(ids, channel, detail):
    assert channel_of(ids) == (channel, detail)


def test_an_action_is_tied_to_the_conversation_around_it(mixed_db):
    raw = RawStore(mixed_db)
    raw.append_message("global", "user", "run the backup", T0 + 10_000, origin_session_id="wechat:b")
    raw.append_message("global", "assistant", "done", T0 + 70_000, origin_session_id="wechat:b")
    hit = conversation_at(mixed_db, T0 + 40_000)
    assert (hit.conversation_id, hit.message_at, hit.gap_ms, hit.confirmed) == (
        "wechat:b",
        T0 + 10_000,
        30_000,
        True,
    )
    raw.append_message("global", "user", "another chat", T0 + 100_000, origin_session_id="telegram:c")
    hit = conversation_at(mixed_db, T0 + 80_000)
    assert (hit.conversation_id, hit.confirmed) == ("wechat:b", False)
    assert conversation_at(mixed_db, T0 + 100_000 + 16 * 60_000) is None
    late = conversation_at(mixed_db, T0 - 10 * agent_files.DAY, max_gap_ms=10**12)
    assert late is not None and late.message_at <= T0 - 10 * agent_files.DAY


def test_listing_reads_only(tmp_path):
    path = agent_files.make_fresh(tmp_path / "v50.sqlite", 50)
    before = path.read_bytes()
    with MemoryDB.open(path) as db:
        assert list_conversations(db)
        assert RawStore(db).query_timeline("desc", 5, conversations=["global"])
    assert path.read_bytes() == before
