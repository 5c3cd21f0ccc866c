"""Recall, explained (issue 16): why "Do you remember ... the Berlin trip" recalls nothing, in data."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout

import pytest

from core import cli
from core.context import build_context, explain_context
from core.recall_explain import TOKEN_CAP, keyword_query
from core.timeline import RawStore

NOW = 1_781_524_800_000
T0 = NOW - 20 * 86_400_000
QUESTION = "Do you remember what we discussed about the Berlin trip last time?"


@pytest.fixture
def berlin_db(mem_db):
    rows = []
    for i in range(36):
        rows.append(
            (
                "trips",
                "assistant",
                f"Day {i} of the Berlin trip: the museum island, then the ferry.",
                T0 + i * 600_000,
            )
        )
        rows.append(("trips", "user", f"Book the train for the trip, option {i}.", T0 + i * 600_000 + 1))
    rows.append(("misc", "user", "What is the weather like?", NOW - 60_000))
    RawStore(mem_db).append_many(rows, create_sessions=True)
    return mem_db


def test_the_berlin_question_recalls_nothing_and_says_why(berlin_db):
    r = build_context(berlin_db, QUESTION, host_os="linux", now=NOW)
    assert r.trigger is not None and r.timeline.recall_count == 0
    e = r.recall
    assert e is not None
    # the exact query the agent's search received, and how it ran
    assert (e.query, e.safe, e.searched, e.mode, e.substring) == (QUESTION, QUESTION, True, "like", "proven")
    assert e.fts["ran"] and e.fts["rows"] == 0 and "syntax error" in e.fts["error"]
    assert e.reason.code == "recall.none.fts_error" and e.reason.params["error"] == e.fts["error"]
    codes = [n.code for n in e.notices]
    assert codes[0] == "substring.proven_miss" and "recall.words.apart" in codes
    apart = next(n for n in e.notices if n.code == "recall.words.apart")
    assert {"text": "Berlin", "count": 36, "capped": False} in apart.params["words"]
    assert "'Berlin' (36)" in apart.message
    assert e.index is not None and e.index.consistent
    # every word alone: exact counts (capped at TOKEN_CAP), short words not counted
    counts = {t.text: (t.count, t.capped, t.note) for t in e.tokens}
    assert counts["Berlin"] == (36, False, None)
    assert counts["trip"] == (72, False, None)
    assert counts["Do"] == (None, False, "token.short") and counts["we"][2] == "token.short"
    assert counts["time?"] == counts["the"] == counts["remember"] == (None, False, "token.common")
    # what a keyword query would recall: marked as not the agent's behaviour
    k = e.keyword
    assert k is not None and k.query == "Berlin trip" and k.mode == "fts" and k.count == 30
    assert k.sessions == 1 and all("Berlin trip" in h.excerpt for h in k.hits)
    assert k.notice.code == "recall.keyword.found" and k.notice.params["count"] == 30
    j = r.to_json()["recall"]
    assert j["keyword"]["agent"] is False and j["reason"]["code"] == "recall.none.fts_error"
    assert set(j) == {
        "query", "safe", "searched", "mode", "substring", "fts", "index", "found", "recalled", "tokens",
        "reason", "notices", "keyword",
    }  # fmt: skip
    assert json.loads(json.dumps(j)) == j


def test_counts_are_capped(mem_db):
    RawStore(mem_db).append_many(
        [("s", "user", f"plan number {i}", T0 + i) for i in range(TOKEN_CAP + 5)], create_sessions=True
    )
    r = build_context(mem_db, "plan, please", host_os="linux", now=NOW)
    counts = {t.text: (t.count, t.capped) for t in r.recall.tokens}
    assert counts == {"plan,": (0, False), "please": (None, False)}
    r = build_context(mem_db, "plan number?", host_os="linux", now=NOW)
    counts = {t.text: (t.count, t.capped) for t in r.recall.tokens}
    assert counts == {"plan": (TOKEN_CAP, True), "number?": (0, False)}
    assert r.recall.reason.code == "recall.none.fts_error"


def test_reasons_for_no_search_and_for_hits(berlin_db):
    r = build_context(berlin_db, "好", host_os="linux", now=NOW)
    assert (r.recall.searched, r.recall.mode, r.recall.reason.code) == (False, "none", "recall.skipped.short")
    r = build_context(berlin_db, "Berlin trip", host_os="linux", now=NOW, recall_budget=0)
    assert r.recall.reason.code == "recall.skipped.budget"
    r = build_context(berlin_db, "()", host_os="linux", now=NOW)
    assert (r.recall.mode, r.recall.reason.code) == ("empty", "recall.skipped.empty")
    r = build_context(berlin_db, "Berlin trip", host_os="linux", now=NOW)  # the 15 newest hits are recent
    assert r.recall.reason.code == "recall.found.all_recent" and r.recall.reason.params == {"found": 15}
    r = build_context(berlin_db, "Berlin trip", host_os="linux", now=NOW, recent_limit=5)
    assert (r.recall.mode, r.recall.substring, r.recall.reason.code) == ("fts", None, "recall.found")
    assert r.recall.reason.params == {"found": 15, "limit": 10, "recalled": r.timeline.recall_count}
    r = build_context(berlin_db, "weather", host_os="linux", now=NOW)  # the newest message: already recent
    assert r.recall.reason.code == "recall.found.all_recent"
    r = build_context(berlin_db, "zq", host_os="linux", now=NOW)
    assert (r.recall.substring, r.recall.reason.code) == ("scanned", "recall.none.too_short")
    assert r.recall.notices[0].code == "substring.short_pieces"
    r = build_context(berlin_db, QUESTION, host_os="linux", now=NOW, explain=False)
    assert (
        r.recall.reason.code == "recall.none.fts_error" and r.recall.tokens == [] and r.recall.keyword is None
    )
    later = explain_context(berlin_db, r)  # the details after the preview: as explain=True gives them
    assert later.to_json() == build_context(berlin_db, QUESTION, host_os="linux", now=NOW).recall.to_json()


def test_the_keyword_search_never_scans(berlin_db):
    RawStore(berlin_db).append_many([("zh", "user", "柏林的天气怎么样", T0 + 5)], create_sessions=True)
    r = build_context(berlin_db, "你还记得柏林吗？", host_os="linux", now=NOW)
    k = r.recall.keyword
    assert k.query == "柏林" and k.notice.code == "recall.keyword.needs_scan" and k.hits == []
    assert r.recall.substring == "proven"  # the agent's own search: the message as one piece
    assert build_context(berlin_db, "  ", host_os="linux", now=NOW).recall.keyword is None


def test_time_travel_bounds_the_counts_and_the_keyword_search(berlin_db):
    r = build_context(berlin_db, QUESTION, host_os="linux", as_of=T0 + 10 * 600_000, now=NOW)
    counts = {t.text: t.count for t in r.recall.tokens}
    assert counts["Berlin"] == 10 and r.recall.keyword.count == 10


@pytest.mark.parametrize(
    ("message", "snippet", "expected"),
    [
        (QUESTION, "remember what", "Berlin trip"),
        (
            "As we said previously, the rollback script for the migration?",
            "we said previously",
            "rollback script migration",
        ),
        ("你还记得我们上次讨论的柏林之行吗？", "还记得", "柏林之行"),
        ("上次讨论过的数据库迁移方案还记得吗？", "上次讨论过", "数据库迁移方案"),
        ("Do you remember?", "Do you remember", ""),
        ("记得带钥匙 and the Berlin 地图", "记得", "带钥匙 Berlin 地图"),
    ],
)
def test_the_keyword_rule(message, snippet, expected):
    assert keyword_query(message, snippet) == expected


def test_the_command_line_puts_the_trigger_and_recall_first(berlin_db, tmp_path, monkeypatch):
    path = tmp_path / "m.sqlite"
    berlin_db.conn.execute("VACUUM INTO ?", (str(path),))
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli.main(["--db", str(path), "--now", str(NOW), "context", QUESTION]) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "trigger: hit E1 'remember what'"
    assert lines[1] == "=== recall: nothing recalled ==="
    assert lines[3] == "search: substring, proven from the full-text index (no scan)"
    assert lines[4].startswith("why: The full-text query failed (fts5: syntax error")
    assert any(
        line.startswith("not what the agent does: A keyword query such as 'Berlin trip'") for line in lines
    )
    prefix_at = next(i for i, line in enumerate(lines) if line.startswith("=== memory prefix"))
    assert prefix_at > 5
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli.main(["--db", str(path), "--json", "--now", str(NOW), "context", QUESTION]) == 0
    j = json.loads(out.getvalue())
    assert j["recall"]["keyword"]["query"] == "Berlin trip" and j["recall"]["substring"] == "proven"
