"""TimelineRetriever (spec §4.1-4.2, Part B §7 timeline.ts, Part C a-b) and describe_session_origin."""

from __future__ import annotations

import pytest

from core.recall import (
    SEPARATOR_CONTENT,
    Excluded,
    RetrieveOptions,
    TimelineRetriever,
    describe_session_origin,
)
from core.timeline import RawStore

T0 = 1_781_000_000_000


@pytest.fixture
def raw(mem_db):
    r = RawStore(mem_db)
    r.start_session("s2", T0)
    return r


def add(raw, content, ts, role="user", session="global", origin=None):
    return raw.append_message(session, role, content, T0 + ts, origin_session_id=origin).id


def run(raw, **kw):
    return TimelineRetriever(raw).retrieve(RetrieveOptions(**kw))


def view(res):
    return [(m.section, m.id, m.role, m.content) for m in res.messages]


def test_defaults_and_camel_case_options():
    o = RetrieveOptions()
    assert (
        o.recent_budget_tokens,
        o.recall_budget_tokens,
        o.recall_query,
        o.recent_limit_messages,
        o.recall_limit_candidates,
        o.restrict_to_session_ids,
        o.home_session_id,
    ) == (8000, 4000, "", 30, 10, None, None)
    c = RetrieveOptions(recentBudgetTokens=5, recallQuery="q", homeSessionId="h")
    assert (c.recent_budget_tokens, c.recall_query, c.home_session_id) == (5, "q", "h")


def test_recency_budget_walk_stops_at_the_first_misfit(raw):
    a = add(raw, "a" * 2, 1)  # 2 tokens: would fit, but the walk has stopped
    b = add(raw, "b" * 100, 2)  # 60 tokens: does not fit
    c = add(raw, "c" * 10, 3)  # 6
    d = add(raw, "d" * 20, 4)  # 12
    res = run(raw, recent_budget_tokens=20)
    assert view(res) == [("recent", c, "user", "c" * 10), ("recent", d, "user", "d" * 20)]
    assert (res.total_tokens, res.recency_count, res.recall_count) == (18, 2, 0)
    assert res.excluded == [
        Excluded(id=b, reason="over_budget", section="recent"),
        Excluded(id=a, reason="over_budget", section="recent"),
    ]
    # The first message is always taken, even over budget.
    res = run(raw, recent_budget_tokens=1)
    assert [m.id for m in res.messages] == [d] and res.total_tokens == 12
    # recentLimitMessages caps the rows read
    res = run(raw, recent_limit_messages=2)
    assert [m.id for m in res.messages] == [c, d] and res.excluded == []


def test_system_counted_and_dropped_tool_shown_as_user(raw):
    add(raw, "hello", 1)
    s = add(raw, "sys prompt", 2, role="system")
    t = add(raw, "tool output", 3, role="tool")
    a = add(raw, "answer", 4, role="assistant")
    res = run(raw)
    assert [(m.id, m.role, m.raw_role) for m in res.messages] == [
        (1, "user", "user"),
        (t, "user", "tool"),
        (a, "assistant", "assistant"),
    ]
    assert res.recency_count == 4
    assert res.total_tokens == 3 + 6 + 7 + 4  # 'sys prompt' (10 units -> 6) still counts
    assert res.excluded == [Excluded(id=s, reason="system_message", section="recent")]


def test_token_estimate_is_utf16_per_content(raw):
    add(raw, "😀a", 1)  # 3 UTF-16 units -> ceil(1.8) = 2
    add(raw, "😀", 2)  # 2 units -> 2
    add(raw, "数据库", 3)  # 3 units -> 2
    res = run(raw)
    assert [m.tokens for m in res.messages] == [2, 2, 2]
    assert res.total_tokens == 6


@pytest.fixture
def history(raw):
    ids = {}
    ids["old1"] = add(raw, "we planned the database migration", 10)
    ids["old2"] = add(raw, "migration step two 数据库", 20, role="assistant")
    ids["old3"] = add(raw, "unrelated chatter", 30)
    ids["old4"] = add(raw, "the migration rolled back", 40, role="tool")
    for i in range(5):
        ids[f"new{i}"] = add(raw, f"recent message {i}", 100 + i)
    return ids


def test_recall_section_separator_and_order(raw, history):
    res = run(raw, recall_query="  migration ", recent_limit_messages=3)
    h = history
    assert view(res) == [
        ("recall", h["old1"], "user", "we planned the database migration"),
        ("recall", h["old2"], "assistant", "migration step two 数据库"),
        ("recall", h["old4"], "user", "the migration rolled back"),
        ("separator", None, "user", SEPARATOR_CONTENT),
        ("recent", h["new2"], "user", "recent message 2"),
        ("recent", h["new3"], "user", "recent message 3"),
        ("recent", h["new4"], "user", "recent message 4"),
    ]
    assert res.messages[3].timestamp == T0 + 102 - 1
    assert (res.recency_count, res.recall_count, res.recall_query) == (3, 3, "migration")
    assert res.total_tokens == 3 * 10 + (20 + 14 + 15)


def test_recall_skips_recent_ids_without_counting_and_budget_stops(raw, history):
    h = history
    # all 9 messages are recent, so every candidate is skipped: no recall, no separator
    res = run(raw, recall_query="migration")
    assert res.recall_count == 0 and all(m.section == "recent" for m in res.messages)
    assert [e for e in res.excluded if e.section == "recall"] == [
        Excluded(id=h["old1"], reason="already_recent", section="recall"),
        Excluded(id=h["old2"], reason="already_recent", section="recall"),
        Excluded(id=h["old4"], reason="already_recent", section="recall"),
    ]
    # old4 recent, old1 + old2 candidates; budget 20 takes old1 (20) and stops at old2 (14)
    res = run(raw, recall_query="migration", recent_limit_messages=6, recall_budget_tokens=20)
    assert [m.id for m in res.messages if m.section == "recall"] == [h["old1"]]
    assert [e for e in res.excluded if e.section == "recall"] == [
        Excluded(id=h["old2"], reason="over_budget", section="recall"),
        Excluded(id=h["old4"], reason="already_recent", section="recall"),
    ]


def test_recall_gates_query_length_and_budget(raw, history):
    assert run(raw, recall_query=" m ", recent_limit_messages=1).recall_count == 0  # length 1
    assert (
        run(raw, recall_query="migration", recall_budget_tokens=0, recent_limit_messages=1).recall_count == 0
    )
    add(raw, "smile 😀 please", 5)
    res = run(raw, recall_query="😀", recent_limit_messages=1)  # 2 UTF-16 units: recall runs (LIKE)
    assert [m.content for m in res.messages if m.section == "recall"] == ["smile 😀 please"]


def test_candidate_limit_takes_the_newest_hits_and_reports_the_rest(raw, history):
    h = history
    res = run(raw, recall_query="migration", recent_limit_messages=1, recall_limit_candidates=2)
    assert [m.id for m in res.messages if m.section == "recall"] == [h["old2"], h["old4"]]
    assert [e for e in res.excluded if e.section == "recall"] == [
        Excluded(id=h["old1"], reason="candidate_limit", section="recall")
    ]


def test_separator_quirks_with_system_only_sections(raw):
    s_old = add(raw, "system note about migration", 1, role="system")
    s_new = add(raw, "system reminder", 50, role="system")
    res = run(raw, recall_query="migration", recent_limit_messages=1)
    # recall chose only a system message, recency only a system message: just the separator
    assert view(res) == [("separator", None, "user", SEPARATOR_CONTENT)]
    assert res.messages[0].timestamp == T0 + 50 - 1  # from the dropped system message
    assert (res.recall_count, res.recency_count) == (1, 1)
    assert res.excluded == [
        Excluded(id=s_old, reason="system_message", section="recall"),
        Excluded(id=s_new, reason="system_message", section="recent"),
    ]
    u = add(raw, "user says hi", 60)
    res = run(raw, recall_query="migration", recent_limit_messages=1)
    # the recall section emits nothing, so the output starts with the separator
    assert view(res) == [
        ("separator", None, "user", SEPARATOR_CONTENT),
        ("recent", u, "user", "user says hi"),
    ]
    assert res.total_tokens == 17 + 8  # the dropped system recall message (27 units) still counts


def test_separator_last_when_recency_is_all_system(raw):
    u = add(raw, "old migration talk", 1)
    add(raw, "system reminder", 50, role="system")
    res = run(raw, recall_query="migration", recent_limit_messages=1)
    assert view(res) == [
        ("recall", u, "user", "old migration talk"),
        ("separator", None, "user", SEPARATOR_CONTENT),
    ]


def test_duplicate_content_under_two_ids_appears_twice(raw):
    a = add(raw, "same words", 1)
    b = add(raw, "same words", 2)
    assert [m.id for m in run(raw).messages] == [a, b]


def test_restrict_to_session_ids(raw, history):
    x = add(raw, "migration in s2", 50, session="s2")
    y = add(raw, "latest in s2", 200, session="s2")
    res = run(raw, recall_query="migration", recent_limit_messages=1, restrict_to_session_ids=["s2"])
    assert [(m.section, m.id) for m in res.messages] == [("recall", x), ("separator", None), ("recent", y)]
    res = run(raw, recent_limit_messages=1, restrict_to_session_ids=[])
    assert [m.id for m in res.messages] == [y]


def test_home_session_filters_recency_and_prefixes_recall(raw):
    ids = {}
    for i, origin in enumerate(
        [
            "wechat:abc",
            "telegram:42",
            "system:scheduled:daily-news",
            "system:scheduled:",
            "system:reflect",
            "web-7",
            None,
            "home",
        ]
    ):
        ids[origin] = add(raw, f"topic zebra {i}", 10 + i, origin=origin)
    newest_other = add(raw, "latest from wechat", 100, origin="wechat:abc")
    res = run(raw, recall_query="zebra", recent_limit_messages=2, home_session_id="home")
    recent = [m.id for m in res.messages if m.section == "recent"]
    assert recent == [ids[None], ids["home"]] and newest_other not in recent
    recall = [m.content for m in res.messages if m.section == "recall"]
    assert recall == [
        "[from another conversation — WeChat] topic zebra 0",
        "[from another conversation — Telegram] topic zebra 1",
        "[from another conversation — scheduled task daily-news] topic zebra 2",
        "[from another conversation — scheduled task (unnamed)] topic zebra 3",
        "[from another conversation — a background run] topic zebra 4",
        "[from another conversation — the web UI] topic zebra 5",
    ]
    # the token estimate is of the stored content, not of the prefix
    assert [m.tokens for m in res.messages if m.section == "recall"] == [8] * 6
    # without a home session nothing is filtered or prefixed
    res = run(raw, recall_query="zebra", recent_limit_messages=1)
    assert [m.id for m in res.messages if m.section == "recent"] == [newest_other]
    assert all(m.content.startswith("topic zebra") for m in res.messages if m.section == "recall")


@pytest.mark.parametrize(
    "origin,expected",
    [
        ("wechat:o1", "WeChat"),
        ("telegram:99", "Telegram"),
        ("system:scheduled:backup", "scheduled task backup"),
        ("system:scheduled:", "scheduled task (unnamed)"),
        ("system:heartbeat", "a background run"),
        ("system:", "a background run"),
        ("WeChat:x", "the web UI"),
        ("abc", "the web UI"),
        ("", "the web UI"),
    ],
)
def test_describe_session_origin(origin, expected):
    assert describe_session_origin(origin) == expected
