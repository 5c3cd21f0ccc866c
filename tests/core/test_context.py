"""core.context.build_context: the turn context shared by ``philont-memory context`` and the Context tab."""

from __future__ import annotations

import contextlib
import io
import json
import os
import stat

import pytest

from core.context import (
    TIME_TRAVEL_LIMITS,
    ContextCancelledError,
    build_context,
    export_json,
    prefix_session_id,
)
from core.errors import NotFoundError
from core.facts import FactStore
from core.prefix import TASK_MODE_FAST, WRAPPER_CLOSE, WRAPPER_OPEN, build_memory_prefix
from core.recall import SEPARATOR_CONTENT
from core.recall_trigger import injected_text
from core.skills import SkillStore
from core.timeline import RawStore
from tests.support import FIXED_NOW as NOW

MIN = 60_000
T0 = NOW - 10 * 86_400_000

ROWS = [
    ("global", "user", "我们上次讨论过数据库迁移的方案，你还记得吗", 1),  # 21 units: 13 tokens
    ("global", "assistant", "记得：数据库迁移分三步，先备份。", 2),  # 16: 10
    ("global", "user", "Let's deploy the gateway tomorrow.", 3),  # 34: 21
    ("global", "system", "[system] nightly summary", 4),  # 24: 15
    ("s2", "assistant", "Deploy plan: canary first, then everyone.", 5),  # 41: 25
    ("global", "tool", '{"tool":"shell","success":true}', 6),  # 31: 19
    ("global", "user", "好的，谢谢", 7),  # 5: 3
]
TS = {i + 1: T0 + k * MIN for i, (_s, _r, _c, k) in enumerate(ROWS)}
CONTENT = {i + 1: c for i, (_s, _r, c, _k) in enumerate(ROWS)}

USER_FACTS = '## Known user information\n  user.city = "Berlin"\n  user.name = "Alice"\n'
USER_FACTS_BEFORE_BERLIN = '## Known user information\n  user.city = "Paris"\n  user.name = "Alice"\n'
PROJECT_FACTS = '## Known project information\n  project.db = {"engine":"sqlite","版本":3}\n'
SKILL_INDEX = (
    "Available skills (use use_skill(name) to get details):\n"
    "  - deploy-gateway: Deploy the gateway safely\n"
    "    When to use: when deploying"
)
RUNTIME = "## Runtime environment\nHost OS: **linux** (POSIX sh/bash).\n"


@pytest.fixture
def db(mem_db):
    raw = RawStore(mem_db)
    raw.start_session("s2", T0)
    for session, role, content, k in ROWS:
        raw.append_message(session, role, content, T0 + k * MIN)
    facts = FactStore(mem_db)
    facts.store_fact("user", "name", "Alice", now=T0)
    facts.store_fact("user", "city", "Paris", now=T0 + 1 * MIN)
    facts.store_fact("user", "city", "Berlin", now=T0 + 5 * MIN)
    facts.store_fact("project", "db", {"engine": "sqlite", "版本": 3}, now=T0 + 2 * MIN)
    SkillStore(mem_db).create_skill(
        "deploy-gateway",
        "Deploy the gateway safely",
        ["deploy"],
        "1. canary",
        maturity="validated",
        when_to_use="when deploying",
        now=T0 + 6 * MIN,
    )
    return mem_db


def msg(i: int, section: str, role: str | None = None) -> dict:
    r = role or ROWS[i - 1][1]
    return {
        "id": i,
        "role": "user" if r == "tool" else r,
        "content": CONTENT[i],
        "timestamp": TS[i],
        "section": section,
    }


def sep(before_id: int) -> dict:
    return {
        "id": None,
        "role": "user",
        "content": SEPARATOR_CONTENT,
        "timestamp": TS[before_id] - 1,
        "section": "separator",
    }


def sections(*pairs: tuple[str, str]) -> list[dict]:
    from core.jsutil import estimate_tokens, utf16_len

    return [{"name": n, "text": t, "chars": utf16_len(t), "tokens": estimate_tokens(t)} for n, t in pairs]


FULL_SECTIONS = (
    ("runtime", RUNTIME),
    ("task_mode", "\n".join(TASK_MODE_FAST) + "\n"),
    ("user_facts", USER_FACTS),
    ("project_facts", PROJECT_FACTS),
    ("skill_index", SKILL_INDEX),
)


def prefix_text(*pairs: tuple[str, str]) -> str:
    return WRAPPER_OPEN + "\n".join(t for _n, t in pairs) + WRAPPER_CLOSE


# -- exact output -------------------------------------------------------------------------------------


def test_chinese_message_trigger_hit_and_recall_hit_exact_json(db):
    r = build_context(db, "还记得 数据库迁移", recent_limit=2, host_os="linux", now=NOW)
    j = r.to_json()
    recall = j.pop("recall")
    assert list(r.to_json()) == ["prefix", "sections", "recall_trigger", "timeline", "recall", "damaged_rows"]
    assert (recall["query"], recall["mode"], recall["substring"], recall["found"], recall["recalled"]) == (
        "还记得 数据库迁移",
        "fts",
        None,
        1,
        1,
    )
    assert recall["reason"]["code"] == "recall.found"
    assert j == {
        "prefix": prefix_text(*FULL_SECTIONS),
        "sections": sections(*FULL_SECTIONS),
        "recall_trigger": {"hit": True, "snippet": "还记得", "pattern": "Z2"},
        "timeline": {
            # recall: FTS trigram "还记得" AND "数据库迁移" hits only #1; recency: the newest two.
            "messages": [msg(1, "recall"), sep(6), msg(6, "recent"), msg(7, "recent")],
            "totalTokens": 13 + 19 + 3,
            "recencyCount": 2,
            "recallCount": 1,
            "excluded": [],
        },
        "damaged_rows": [],
    }
    assert [(s["name"], s["chars"], s["tokens"]) for s in r.to_json()["sections"]] == [
        ("runtime", 59, 36),
        ("task_mode", 1110, 666),
        ("user_facts", 71, 43),
        ("project_facts", 71, 43),
        ("skill_index", 132, 80),
    ]
    assert r.trigger is not None and r.trigger.injected == injected_text("还记得")
    assert r.search_mode == "fts"
    assert r.highlights == {1: [(7, 12), (17, 20)]}  # 数据库迁移, 还记得
    assert (r.recent_tokens, r.recall_tokens) == (22, 13)
    assert r.left_out == []
    assert r.prefix.text == build_memory_prefix(db, host_os="linux", session_id="global", now=NOW).text
    assert r.limits == {}
    assert "user_patterns" in r.omitted and "schedule_outcomes" not in r.omitted


def test_english_message_without_trigger_recall_skips_recent_ids(db):
    r = build_context(db, "Deploy", recent_limit=3, host_os="linux", now=NOW)
    j = r.to_json()
    assert j["recall_trigger"] is None
    assert j["timeline"] == {
        "messages": [msg(3, "recall"), sep(5), msg(5, "recent"), msg(6, "recent"), msg(7, "recent")],
        "totalTokens": 25 + 19 + 3 + 21,
        "recencyCount": 3,
        "recallCount": 1,
        "excluded": [{"id": 5, "reason": "already_recent"}],
    }
    assert r.highlights == {3: [(6, 12)]}  # "deploy", case-insensitive
    assert [(e.id, e.reason, e.section, e.role, e.timestamp, e.tokens) for e in r.left_out] == [
        (5, "already_recent", "recall", "assistant", TS[5], 25)
    ]
    assert r.left_out[0].preview == CONTENT[5]


def test_english_trigger_hit_with_a_recall_miss(db):
    r = build_context(db, "As we said previously, deploy", host_os="linux", now=NOW)
    j = r.to_json()
    assert j["recall_trigger"] == {"hit": True, "snippet": "we said previously", "pattern": "E2"}
    # ',' makes FTS5 fail: LIKE on the whole text finds nothing; every message is recent, the system one dropped
    assert r.search_mode == "like" and r.highlights == {}
    assert j["timeline"] == {
        "messages": [msg(i, "recent") for i in (1, 2, 3, 5, 6, 7)],
        "totalTokens": 13 + 10 + 21 + 15 + 25 + 19 + 3,
        "recencyCount": 7,
        "recallCount": 0,
        "excluded": [{"id": 4, "reason": "system_message"}],
    }
    assert (r.recent_tokens, r.recall_tokens) == (106, 0)
    b = {u.name: (u.used, u.limit) for u in r.budgets()}
    assert b == {
        "recent_tokens": (106, 8000),
        "recall_tokens": (0, 4000),
        "recent_messages": (7, 30),
        "recall_candidates": (0, 10),
        "prefix_chars": (r.prefix.chars, 40_000),
    }


def test_empty_and_short_messages_do_not_recall(db):
    for text, mode in (("", "none"), ("好", "none"), ("  ", "none")):
        r = build_context(db, text, host_os="linux", now=NOW)
        assert r.to_json()["recall_trigger"] is None
        assert r.timeline.recall_count == 0 and r.search_mode == mode
    r = build_context(db, "他说过", host_os="linux", now=NOW)  # too short for the trigger (3 units)
    assert r.trigger is None and r.search_mode == "like"


def test_session_restriction_builds_the_prefix_for_that_session(db):
    r = build_context(db, "Deploy", session_ids=["s2"], host_os="linux", now=NOW)
    assert r.prefix_session_id == "s2"
    assert r.to_json()["timeline"]["messages"] == [msg(5, "recent")]
    assert r.to_json()["timeline"]["excluded"] == [{"id": 5, "reason": "already_recent"}]
    assert prefix_session_id(["a", "b"]) == "global" and prefix_session_id([]) == "global"


def test_budget_breakdown_counts_over_budget_and_candidate_limit(db):
    r = build_context(db, "数据库", recent_limit=1, recall_limit=1, recall_budget=5, host_os="linux", now=NOW)
    # hits newest first: #2, #1; the limit keeps #2; #1 is reported beyond the candidate limit
    assert r.to_json()["timeline"]["excluded"] == [{"id": 1, "reason": "candidate_limit"}]
    assert [m["id"] for m in r.to_json()["timeline"]["messages"]] == [2, None, 7]
    b = {u.name: (u.used, u.limit, u.parts) for u in r.budgets()}
    assert b["recall_candidates"] == (1, 1, [("chosen", 1), ("skipped", 0)])
    assert b["recall_tokens"] == (10, 5, [("shown", 10), ("system", 0)])  # the first is always taken


# -- time travel --------------------------------------------------------------------------------------


def test_as_of_message_sees_only_what_existed_before_it(db):
    r = build_context(db, "还记得 数据库迁移", as_of_id=5, host_os="linux", now=NOW)
    assert r.as_of == TS[5] and r.as_of_message is not None and r.as_of_message.id == 5
    j = r.to_json()
    assert j["timeline"] == {
        "messages": [msg(1, "recent"), msg(2, "recent"), msg(3, "recent")],
        "totalTokens": 13 + 10 + 21 + 15,
        "recencyCount": 4,
        "recallCount": 0,
        "excluded": [{"id": 1, "reason": "already_recent"}, {"id": 4, "reason": "system_message"}],
    }
    # Berlin was stored at the same millisecond as message #5: not yet; the skill came later.
    before = (
        ("runtime", RUNTIME),
        FULL_SECTIONS[1],
        ("user_facts", USER_FACTS_BEFORE_BERLIN),
        FULL_SECTIONS[3],
    )
    assert j["sections"] == sections(*before)
    assert j["prefix"] == prefix_text(*before)
    assert r.limits == TIME_TRAVEL_LIMITS


def test_as_of_timestamp_excludes_that_millisecond_and_defaults_now(db):
    r = build_context(db, "Deploy", as_of=TS[5], recent_limit=3, host_os="linux")
    assert r.now == TS[5]
    assert r.to_json()["timeline"] == {
        "messages": [msg(2, "recent"), msg(3, "recent")],
        "totalTokens": 10 + 21 + 15,
        "recencyCount": 3,
        "recallCount": 0,
        "excluded": [{"id": 3, "reason": "already_recent"}, {"id": 4, "reason": "system_message"}],
    }


def test_as_of_id_bound_keeps_earlier_ids_of_the_same_millisecond(mem_db):
    raw = RawStore(mem_db)
    a = raw.append_message("global", "user", "first at t", T0).id
    b = raw.append_message("global", "user", "second at t", T0).id
    raw.append_message("global", "user", "third at t", T0)
    r = build_context(mem_db, "", as_of_id=b + 1, host_os="linux", now=NOW)
    assert [m["id"] for m in r.to_json()["timeline"]["messages"]] == [a, b]
    r = build_context(mem_db, "", as_of=T0, host_os="linux", now=NOW)
    assert r.to_json()["timeline"]["messages"] == []
    with pytest.raises(NotFoundError):
        build_context(mem_db, "", as_of_id=999, host_os="linux", now=NOW)


def test_as_of_facts_forgotten_and_superseded_later_are_active_then(db):
    facts = FactStore(db)
    name = facts.get_fact("user", "name", bump=False)
    facts.soft_forget(name.id, at=T0 + 3 * MIN)
    facts.mark_accessed(name.id, at=T0 + 9 * MIN)
    at2 = build_memory_prefix(db, host_os="linux", session_id="global", now=NOW, as_of=T0 + 2 * MIN)
    at4 = build_memory_prefix(db, host_os="linux", session_id="global", now=NOW, as_of=T0 + 4 * MIN)
    text = {s.name: s.text for s in at2.sections}
    assert text["user_facts"] == USER_FACTS_BEFORE_BERLIN
    assert {s.name: s.text for s in at4.sections}[
        "user_facts"
    ] == '## Known user information\n  user.city = "Paris"\n'
    at0 = build_memory_prefix(db, host_os="linux", session_id="global", now=NOW, as_of=T0)
    assert [s.name for s in at0.sections] == ["runtime", "task_mode"]


def test_as_of_after_everything_equals_the_live_prefix(demo_db_path):
    from core.db import MemoryDB

    with MemoryDB.open(demo_db_path) as demo:
        for sid in ("global", "system:scheduled:daily-report"):
            live = build_memory_prefix(demo, host_os="darwin", session_id=sid, now=NOW)
            past = build_memory_prefix(demo, host_os="darwin", session_id=sid, now=NOW, as_of=NOW + 10**12)
            assert past == live


# -- text, export, reuse, cancel ----------------------------------------------------------------------------


def test_to_text_is_in_the_order_the_agent_receives_it(db):
    r = build_context(db, "还记得 数据库迁移", recent_limit=2, host_os="linux", now=NOW)
    text = r.to_text()
    order = [
        text.index("=== Memory prefix: 5 sections"),
        text.index(WRAPPER_OPEN.strip()),
        text.index('=== Recall trigger: Z2 "还记得" ==='),
        text.index("## ⚠️ 用户在引用过去对话"),
        text.index(f"[recall] #1 2026-06-05T12:01:00.000Z user: {CONTENT[1]}"),
        text.index(f"[separator] 2026-06-05T12:05:59.999Z user: {SEPARATOR_CONTENT}"),
        text.index(f"[recent] #7 2026-06-05T12:07:00.000Z user: {CONTENT[7]}"),
        text.index("=== This turn ===\nuser: 还记得 数据库迁移"),
        text.index("=== Not reproduced"),
    ]
    assert order == sorted(order)


def test_export_json_is_the_cli_text_with_mode_0600(db, tmp_path):
    r = build_context(db, "Deploy", host_os="linux", now=NOW)
    target = tmp_path / "ctx.json"
    target.write_text("old")
    os.chmod(target, 0o644)
    assert export_json(r, target) == target
    assert target.read_text(encoding="utf-8") == r.to_json_text()
    assert json.loads(target.read_text(encoding="utf-8")) == r.to_json()
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["ctx.json"]


def test_matches_the_command_line(tmp_path):
    from core.cli import main
    from core.db import MemoryDB

    path = tmp_path / "m.sqlite"
    with MemoryDB.create(path, now=NOW) as w:
        raw = RawStore(w)
        raw.start_session("s2", T0)
        for session, role, content, k in ROWS:
            raw.append_message(session, role, content, T0 + k * MIN)
        FactStore(w).store_fact("user", "name", "Alice", now=T0)
    with MemoryDB.open(path) as db:
        for text, extra in (
            ("还记得 数据库迁移", ["--recent-limit", "2"]),
            ("As we said previously, deploy", ["--session", "global"]),
            ("Deploy", ["--recall-budget", "5", "--recent-budget", "30"]),
        ):
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                assert (
                    main(
                        [
                            "--db",
                            str(path),
                            "--json",
                            "--now",
                            str(NOW),
                            "context",
                            text,
                            "--host-os",
                            "linux",
                            *extra,
                        ]
                    )
                    == 0
                )
            kw = {
                "recent_limit": 2 if "--recent-limit" in extra else 30,
                "session_ids": ["global"] if "--session" in extra else [],
                "recall_budget": 5 if "--recall-budget" in extra else 4000,
                "recent_budget": 30 if "--recent-budget" in extra else 8000,
            }
            r = build_context(db, text, host_os="linux", now=NOW, **kw)
            assert json.loads(out.getvalue()) == r.to_json()
            assert out.getvalue() == r.to_json_text()


def test_prefix_reuse_and_cancel(db):
    first = build_context(db, "Deploy", host_os="linux", now=NOW)
    again = build_context(db, "数据库迁移", host_os="linux", now=NOW, prefix=first.prefix)
    assert again.prefix is first.prefix and again.timings_ms["prefix"] == 0.0
    assert (
        again.to_json()["prefix"]
        == build_context(db, "数据库迁移", host_os="linux", now=NOW).to_json()["prefix"]
    )
    with pytest.raises(ContextCancelledError):
        build_context(db, "Deploy", host_os="linux", now=NOW, cancel_check=lambda: True)
    calls = []

    def late() -> bool:  # cancelled just before the LIKE fallback of a query without FTS rows
        calls.append(1)
        return len(calls) > 3

    with pytest.raises(ContextCancelledError):
        build_context(db, "nothing, anywhere", host_os="linux", now=NOW, cancel_check=late)
