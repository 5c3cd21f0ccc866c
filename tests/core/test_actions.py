"""The action log: append, filters with keyset pagination, per-tool statistics, the timeline around an action."""

from __future__ import annotations

import pytest

from core.actions import ActionStore, ToolStat
from core.errors import NotFoundError, ValidationError_
from core.timeline import RawStore

T0 = 1_781_000_000_000


@pytest.fixture
def actions(mem_db):
    return ActionStore(mem_db)


def test_append_writes_params_like_json_stringify(mem_db, actions):
    a = actions.append(
        "global", "store_fact", {"value": 1.0, "key": "名字", "list": [True, None]}, timestamp=T0
    )
    row = mem_db.conn.execute("SELECT params_json, success, result, trigger FROM memory_actions").fetchone()
    assert row["params_json"] == '{"value":1,"key":"名字","list":[true,null]}'
    assert (row["success"], row["result"], row["trigger"]) == (1, None, None)
    assert (a.id, a.tool_name, a.params, a.success, a.timestamp) == (
        1,
        "store_fact",
        {"value": 1, "key": "名字", "list": [True, None]},
        True,
        T0,
    )
    s = actions.append("global", "echo", "plain text", timestamp=T0 + 1)
    assert s.params_json == '"plain text"'


def test_result_is_stored_whole_and_failures_are_zero(actions):
    long = "x" * 1200
    a = actions.append(
        "global", "fetch", {}, result=long, success=False, timestamp=T0, trigger="user", linked_skill="s"
    )
    got = actions.get(a.id)
    assert (len(got.result), got.success, got.trigger, got.linked_skill) == (1200, False, "user", "s")
    assert actions.get(99) is None


def test_append_validates(actions):
    with pytest.raises(ValidationError_):
        actions.append("", "t", {})
    with pytest.raises(ValidationError_):
        actions.append("global", "", {})
    with pytest.raises(ValidationError_):
        actions.append("global", "t", {"x": object()})
    with pytest.raises(ValidationError_):
        actions.append("global", "t", {}, result=5)


def test_append_many_writes_what_append_writes_in_one_go(mem_db, actions):
    calls = [
        ("global", "store_fact", {"value": 1.0, "key": "名字"}, None, True, T0, None, None),
        ("other", "shell", {"command": "ls"}, "ok", False, T0 + 1, "chat", "skill-a"),
    ]
    assert actions.append_many(calls) == 2
    one = ActionStore(type(mem_db).memory(now=T0))
    for c in calls:
        one.append(*c)
    cols = "session_id, trigger, tool_name, params_json, result, success, timestamp, linked_skill"
    many_rows = [tuple(r) for r in mem_db.conn.execute(f"SELECT {cols} FROM memory_actions ORDER BY id")]
    one_rows = [tuple(r) for r in one.db.conn.execute(f"SELECT {cols} FROM memory_actions ORDER BY id")]
    assert many_rows == one_rows
    with pytest.raises(ValidationError_):
        actions.append_many([("global", "t", {}, None, True, T0, None, None), ("", "t", {})])
    assert actions.count() == 2  # nothing of the refused batch was written
    one.db.close()


@pytest.fixture
def log(actions):
    spec = [
        ("global", "store_fact", True, T0 + 10, None),  # 1
        ("global", "get_fact", True, T0 + 20, "s1"),  # 2
        ("other", "store_fact", False, T0 + 20, "s1"),  # 3
        ("global", "use_skill", False, T0 + 30, None),  # 4
        ("global", "store_fact", True, T0 + 40, None),  # 5
    ]
    for sid, tool, ok, ts, skill in spec:
        actions.append(sid, tool, {"n": ts - T0}, success=ok, timestamp=ts, linked_skill=skill)
    return actions


def test_list_filters_and_keyset_pagination(log):
    def ids(xs):
        return [a.id for a in xs]

    assert ids(log.list()) == [5, 4, 3, 2, 1]
    p1 = log.list(limit=2)
    assert ids(p1) == [5, 4]
    assert ids(log.list(limit=2, before=(p1[-1].timestamp, p1[-1].id))) == [3, 2]
    assert ids(log.list(limit=2, before=(T0 + 20, 3))) == [2, 1]
    assert ids(log.list(order="asc", after=(T0 + 20, 2))) == [3, 4, 5]
    assert ids(log.list(tool="store_fact")) == [5, 3, 1]
    assert ids(log.list(tool=["get_fact", "use_skill"])) == [4, 2]
    assert ids(log.list(tool=[])) == []
    assert ids(log.list(success=False)) == [4, 3]
    assert ids(log.list(success=True)) == [5, 2, 1]
    assert ids(log.list(session_id="other")) == [3]
    assert ids(log.list(linked_skill="s1")) == [3, 2]
    assert ids(log.by_linked_skill("s1")) == [3, 2]
    assert ids(log.list(since=T0 + 20, until=T0 + 30)) == [4, 3, 2]
    assert ids(log.list(limit=None)) == [5, 4, 3, 2, 1]


def test_tool_stats_and_tools(log):
    assert log.tool_stats() == [
        ToolStat(tool="store_fact", total=3, failures=1, failure_rate=1 / 3, last_at=T0 + 40),
        ToolStat(tool="get_fact", total=1, failures=0, failure_rate=0.0, last_at=T0 + 20),
        ToolStat(tool="use_skill", total=1, failures=1, failure_rate=1.0, last_at=T0 + 30),
    ]
    assert [s.tool for s in log.tool_stats(since=T0 + 25)] == ["store_fact", "use_skill"]
    assert log.tools() == ["get_fact", "store_fact", "use_skill"]
    assert (log.count(), log.latest_id()) == (5, 5)


def test_around_action_returns_the_timeline_at_its_time(mem_db, log):
    raw = RawStore(mem_db)
    for i, ts in enumerate([T0 + 5, T0 + 15, T0 + 20, T0 + 25, T0 + 35, T0 + 45]):
        raw.append_message("global", "user", f"m{i}", ts)
    # action 2 is at T0+20: messages at or before it, then after it
    assert [m.content for m in log.around_action(2, n=2)] == ["m1", "m2", "m3", "m4"]
    assert [m.content for m in log.around_action(1, n=1)] == ["m0", "m1"]
    with pytest.raises(NotFoundError):
        log.around_action(42)
