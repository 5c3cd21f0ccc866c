"""The 11 memory tools: schemas, dispatcher robustness and every output string (spec §7, Part B §3/§7,
Part C c-e)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.calendar import CalendarStore
from core.db import MemoryDB
from core.facts import FactStore
from core.notes import NotesStore
from core.schedules import ScheduleStore
from core.skills import SkillStore
from core.timeline import RawStore
from core.tools import TOOL_NAMES, TOOLS, ToolResult, run_tool, tool_schemas
from tests.conftest import FIXED_NOW

T0 = FIXED_NOW  # 2026-06-15T12:00:00.000Z
H = 3_600_000
D = 86_400_000

REFERENCE_ORDER = [
    "store_fact",
    "get_fact",
    "list_facts",
    "search_notes",
    "search_skills",
    "use_skill",
    "create_calendar_event",
    "list_upcoming",
    "schedule_reminder",
    "cancel_schedule",
    "recall_sessions",
]


def run(db, name, args=None, now=T0) -> ToolResult:
    return run_tool(db, name, {} if args is None else args, now=now)


def ok(db, name, args=None, now=T0) -> str:
    r = run(db, name, args, now)
    assert r.success, r.error
    assert r.error is None
    return r.output


def err(db, name, args=None, now=T0) -> str:
    r = run(db, name, args, now)
    assert r.success is False, r.output
    assert r.output is None
    return r.error


@pytest.fixture
def ro_db(tmp_path):
    """A read-only database holding one fact, one draft skill and one schedule."""
    path = tmp_path / "memory" / "memory.sqlite"
    db = MemoryDB.create(path, now=T0)
    FactStore(db).store_fact("user", "name", "小明", now=T0 - D)
    SkillStore(db).create_skill("pdf-to-word", "把 PDF 转成 Word", ["pdf"], "1. 转换", now=T0 - D)
    ScheduleStore(db).create("drink", T0 + H, now=T0 - D)
    db.close()
    ro = MemoryDB.open(path)
    assert ro.read_only
    yield ro
    ro.close()


# -- registry and schemas -----------------------------------------------------------------------------


def test_tools_are_in_the_reference_order():
    assert list(TOOL_NAMES) == REFERENCE_ORDER
    assert [s["function"]["name"] for s in tool_schemas()] == REFERENCE_ORDER
    assert all(s["type"] == "function" for s in tool_schemas())


def test_capabilities_and_domain():
    writes = {n for n, s in TOOLS.items() if s.capability == "write"}
    assert writes == {"store_fact", "create_calendar_event", "schedule_reminder", "cancel_schedule"}
    assert {s.domain for s in TOOLS.values()} == {"self"}


def _params(name):
    return next(s for s in tool_schemas() if s["function"]["name"] == name)["function"]["parameters"]


def test_schema_snapshots_of_the_small_tools():
    assert _params("get_fact") == {
        "type": "object",
        "required": ["namespace", "key"],
        "properties": {"namespace": {"type": "string"}, "key": {"type": "string"}},
    }
    assert _params("list_facts") == {
        "type": "object",
        "required": ["namespace"],
        "properties": {"namespace": {"type": "string"}},
    }
    assert _params("search_notes") == {
        "type": "object",
        "required": ["query"],
        "properties": {
            "query": {"type": "string", "description": "Search keywords"},
            "limit": {"type": "number", "description": "Maximum results to return, default 5"},
        },
    }
    assert _params("search_skills") == {
        "type": "object",
        "required": ["query"],
        "properties": {
            "query": {"type": "string", "description": "Describe the current task in natural language"},
            "limit": {"type": "number", "description": "Maximum results to return, default 5"},
            "include_negative": {
                "type": "boolean",
                "description": "Whether to include anti-pattern lessons, default true. Set false to return only "
                "positive skills.",
            },
        },
    }
    assert _params("use_skill") == {
        "type": "object",
        "required": ["name"],
        "properties": {"name": {"type": "string", "description": "Skill name (slug)"}},
    }
    assert _params("list_upcoming") == {
        "type": "object",
        "properties": {"window_days": {"type": "number", "description": "How many days ahead, default 7"}},
    }
    assert _params("create_calendar_event") == {
        "type": "object",
        "required": ["title", "starts_at", "timezone"],
        "properties": {
            "title": {"type": "string", "description": "Event title"},
            "starts_at": {"type": "string", "description": "ISO8601 start time"},
            "ends_at": {"type": "string", "description": "ISO8601 end time (optional)"},
            "rrule": {
                "type": "string",
                "description": "iCalendar RRULE for recurrence. MVP supports FREQ=DAILY/WEEKLY + INTERVAL/COUNT/UNTIL.",
            },
            "timezone": {"type": "string", "description": "IANA timezone, e.g. Asia/Shanghai"},
        },
    }
    assert _params("cancel_schedule") == {
        "type": "object",
        "properties": {
            "name": {
                "type": "string",
                "description": 'Task name or substring (e.g. "drink water"). Cancels all enabled tasks whose name '
                "contains this substring.",
            },
            "id": {"type": "string", "description": "Task UUID (exact match). Mutually exclusive with name."},
        },
    }


def test_schema_snapshot_store_fact():
    p = _params("store_fact")
    assert p["required"] == ["namespace", "key", "value"]
    assert list(p["properties"]) == [
        "namespace",
        "key",
        "value",
        "confidence",
        "fact_kind",
        "occurred_at",
        "valid_from",
        "valid_until",
    ]
    assert p["properties"]["value"] == {
        "description": "Fact value; can be a string, number, object, or array"
    }
    assert p["properties"]["confidence"] == {
        "type": "number",
        "description": "Confidence 0-1, default 1.0",
        "minimum": 0,
        "maximum": 1,
    }
    assert p["properties"]["fact_kind"] == {
        "type": "string",
        "enum": ["state", "event"],
        "description": "state = ongoing state; event = one-time occurrence. Default state",
    }
    assert p["properties"]["valid_until"]["type"] == "string"


def test_schema_snapshot_schedule_reminder_and_recall():
    p = _params("schedule_reminder")
    assert p["required"] == ["name", "message"]
    assert {k: v["type"] for k, v in p["properties"].items()} == {
        "name": "string",
        "message": "string",
        "at": "string",
        "interval_ms": "number",
        "action_type": "string",
        "project": "string",
    }
    assert p["properties"]["action_type"]["enum"] == ["prompt", "autonomous_turn"]
    r = _params("recall_sessions")
    assert r["required"] == ["query"]
    assert {k: v["type"] for k, v in r["properties"].items()} == {
        "query": "string",
        "since": "string",
        "until": "string",
        "limit": "number",
    }
    assert r["properties"]["limit"]["description"] == "Maximum number of sessions to return, default 5"


def test_descriptions():
    desc = {s["function"]["name"]: s["function"]["description"] for s in tool_schemas()}
    assert desc["use_skill"] == (
        "Retrieve the full action template for a skill by name, and automatically increment use count. "
        "The returned action_template is a set of markdown steps that you should follow in order."
    )
    assert desc["cancel_schedule"].endswith(
        'Do NOT use schedule_reminder to "cancel" — that just creates a meaningless new task.'
    )
    assert desc["store_fact"].startswith(
        "Store a structured fact. Recommended namespace values: user/project/decisions/skills/context. "
    )
    assert desc["list_upcoming"] == (
        "List calendar events (including recurring expansions) and scheduled tasks in the upcoming period."
    )
    # No titles, defaults or anyOf leak into what an agent sees.
    for spec in tool_schemas():
        for prop in spec["function"]["parameters"]["properties"].values():
            assert not {"title", "default", "anyOf"} & set(prop)


# -- dispatcher --------------------------------------------------------------------------------------


def test_unknown_tool(mem_db):
    assert err(mem_db, "rm_rf").startswith("Unknown tool 'rm_rf'. Known tools: store_fact, get_fact,")


def test_bad_json_text(mem_db):
    r = run_tool(mem_db, "get_fact", "{namespace: user", now=T0)
    assert r.success is False
    assert r.error.startswith("Invalid JSON arguments for get_fact: ")
    r = run_tool(mem_db, "get_fact", '{"namespace": NaN}', now=T0)
    assert r.error.startswith("Invalid JSON arguments for get_fact: ")


def test_non_object_arguments(mem_db):
    assert (
        run_tool(mem_db, "get_fact", "[1, 2]").error
        == "Invalid arguments for get_fact: expected a JSON object, got an array"
    )
    assert (
        run_tool(mem_db, "get_fact", 5).error
        == "Invalid arguments for get_fact: expected a JSON object, got a number"
    )


def test_invalid_arguments(mem_db):
    assert (
        err(mem_db, "get_fact", {"namespace": "user"})
        == "Invalid arguments for get_fact: key: Field required"
    )
    assert err(mem_db, "get_fact", {"namespace": 1, "key": "k"}) == (
        "Invalid arguments for get_fact: namespace: Input should be a valid string"
    )
    assert err(mem_db, "schedule_reminder", {"name": "x", "message": "m", "interval_ms": "5"}) == (
        "Invalid arguments for schedule_reminder: interval_ms: Value error, must be a number"
    )


def test_json_text_and_empty_arguments(mem_db):
    assert run_tool(mem_db, "list_upcoming", "", now=T0).output == "No events in the next 7 days"
    assert run_tool(mem_db, "list_upcoming", None, now=T0).output == "No events in the next 7 days"
    assert (
        run_tool(mem_db, "list_upcoming", '{"window_days": 3}', now=T0).output
        == "No events in the next 3 days"
    )
    assert (
        run_tool(mem_db, "list_upcoming", b'{"window_days": 2}', now=T0).output
        == "No events in the next 2 days"
    )


def test_store_exceptions_become_errors(mem_db, monkeypatch):
    def boom(*a, **k):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(FactStore, "list_facts", boom)
    assert err(mem_db, "list_facts", {"namespace": "user"}) == "RuntimeError: disk on fire"


_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False)
    | st.text(max_size=30),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
    max_leaves=12,
)
_keys = st.sampled_from(
    [
        "namespace",
        "key",
        "value",
        "confidence",
        "fact_kind",
        "occurred_at",
        "valid_from",
        "valid_until",
        "query",
        "limit",
        "include_negative",
        "name",
        "title",
        "starts_at",
        "ends_at",
        "rrule",
        "timezone",
        "window_days",
        "message",
        "at",
        "interval_ms",
        "action_type",
        "project",
        "id",
        "since",
        "until",
    ]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from([*REFERENCE_ORDER, "nope", ""]), args=st.dictionaries(_keys, _json, max_size=6))
def test_random_arguments_never_raise(mem_db, name, args):
    r = run_tool(mem_db, name, args, now=T0)
    assert isinstance(r, ToolResult)
    assert (r.error is None) == r.success
    json.dumps(r.to_json(), default=str)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(REFERENCE_ORDER), text=st.text(max_size=60))
def test_random_argument_text_never_raises(mem_db, name, text):
    r = run_tool(mem_db, name, text, now=T0)
    assert isinstance(r, ToolResult)


# -- store_fact ---------------------------------------------------------------------------------------


def test_store_fact_state_and_event_labels(mem_db):
    assert ok(mem_db, "store_fact", {"namespace": "user", "key": "city", "value": "杭州"}) == (
        "Stored user.city [state ? → ∞ | recorded 2026-06-15T12:00:00.000Z]"
    )
    out = ok(
        mem_db,
        "store_fact",
        {
            "namespace": "user",
            "key": "lunch",
            "value": "饺子",
            "fact_kind": "event",
            "occurred_at": "2026-06-15T12:00:00+08:00",
        },
    )
    assert out == "Stored user.lunch [event@2026-06-15T04:00:00.000Z | recorded 2026-06-15T12:00:00.000Z]"
    out = ok(
        mem_db,
        "store_fact",
        {
            "namespace": "user",
            "key": "vacation",
            "value": True,
            "valid_from": "2026-06-15",
            "valid_until": 1_781_956_800_000,
        },
    )
    assert out == (
        "Stored user.vacation [state 2026-06-15T00:00:00.000Z → 2026-06-20T12:00:00.000Z | "
        "recorded 2026-06-15T12:00:00.000Z]"
    )


def test_store_fact_quirks(mem_db):
    r = run(mem_db, "store_fact", {"namespace": "user", "key": "k", "value": 1, "fact_kind": "EVENT"})
    assert r.data["factKind"] == "state"
    r = run(mem_db, "store_fact", {"namespace": "user", "key": "e", "value": 1, "fact_kind": "event"})
    assert r.output == "Stored user.e [event@? | recorded 2026-06-15T12:00:00.000Z]"
    r = run(
        mem_db,
        "store_fact",
        {
            "namespace": "user",
            "key": "t",
            "value": {},
            "valid_from": "not a date",
            "valid_until": "1718000000000",
        },
    )
    assert r.success and r.data["validFrom"] is None and r.data["validUntil"] is None
    assert r.data["confidence"] == 1.0
    r = run(mem_db, "store_fact", {"namespace": "user", "key": "c", "value": None, "confidence": 0.25})
    assert r.data["confidence"] == 0.25 and r.data["valueJson"] == "null"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"key": "k", "value": 1}, "namespace must be a non-empty string"),
        ({"namespace": "", "key": "k", "value": 1}, "namespace must be a non-empty string"),
        ({"namespace": 5, "key": "k", "value": 1}, "namespace must be a non-empty string"),
        ({"namespace": "user", "value": 1}, "key must be a non-empty string"),
        ({"namespace": "user", "key": "", "value": 1}, "key must be a non-empty string"),
        ({"namespace": "user", "key": ["k"], "value": 1}, "key must be a non-empty string"),
        (
            {"namespace": "user", "key": "k"},
            "value is required (a string, number, boolean, object, array or null)",
        ),
    ],
)
def test_store_fact_argument_errors(mem_db, args, message):
    assert err(mem_db, "store_fact", args) == message


def test_store_fact_key_shape_error(mem_db):
    assert err(mem_db, "store_fact", {"namespace": "user", "key": "my key", "value": 1}) == (
        "key 'my key' contains spaces / colons / newlines — you may have accidentally stored a header line / full "
        "path / sentence.\n"
        "key should be a **short slug** (snake_case / kebab-case, no spaces), e.g.:\n"
        '  ✅ "mycox_api_key" / "user.preferences.theme" / "service-config"\n'
        '  ❌ "Authorization: Bearer ..." / "please remember my key is" / "endpoint url"\n'
        'value is where real content goes. Retry: store_fact({namespace:"X", key:"<pure-slug>", '
        'value:"<real-content>"})'
    )
    long_key = "a:" + "b" * 60
    assert err(mem_db, "store_fact", {"namespace": "u", "key": long_key, "value": 1}).startswith(
        f"key '{long_key[:50]}' contains"
    )
    for key in ("a\u3000b", "a\ufeffb", "a\nb", "a\rb"):
        assert "contains spaces" in err(mem_db, "store_fact", {"namespace": "u", "key": key, "value": 1})
    # U+0085 is not JS white space.
    assert run(mem_db, "store_fact", {"namespace": "u", "key": "a\u0085b", "value": 1}).success


def test_auth_header_and_scheme_errors(mem_db):
    assert err(
        mem_db, "store_fact", {"namespace": "project", "key": "auth", "value": "Authorization: Bearer sk-x"}
    ) == (
        'value looks like a full HTTP header line (starts with "Authorization:").\n'
        "value should be a bare token / raw data, without the header name + colon.\n"
        'Example:\n  ❌ value: "Authorization: Bearer sk-xxx"\n  ✅ value: "sk-xxx"'
    )
    assert err(mem_db, "store_fact", {"namespace": "project", "key": "tok", "value": "Bearer abc123"}) == (
        'value contains auth scheme prefix "Bearer", which is HTTP Authorization header syntax and should '
        "**not** be stored in a fact value.\n"
        "The real data is after stripping the prefix.\n"
        'Example:\n  ❌ value: "Bearer abc123..."\n  ✅ value: "abc123..."'
    )


CRED_MSG = (
    "value looks like a raw credential/API key — facts must NOT store secrets.\n"
    "Facts bypass SecretStore redaction, survive credential cleanup, and leak into every later turn.\n"
    'Store it properly instead: saveCredential({name:"project-mycox-api-key", value:"<the key>"}), then reference '
    "it in http calls as {project-mycox-api-key}.\n"
    "(If you only need to REMEMBER that a key exists, store a status fact without the value, e.g. value: "
    '{"status":"saved-in-credential-store","credential":"project-mycox-api-key"}.)'
)


def test_credential_gate_exact_text(mem_db):
    value = "mycox_" + "dd71" * 16
    assert (
        err(mem_db, "store_fact", {"namespace": "project", "key": "mycox.api_key", "value": value})
        == CRED_MSG
    )
    assert FactStore(mem_db).list_facts("project") == []


def test_credential_gate_looks_into_objects_and_arrays(mem_db):
    value = {"handle": "bob", "api_key": "mycox_" + "ab" * 32}
    e = err(mem_db, "store_fact", {"namespace": "project", "key": "mycox", "value": value})
    assert e == CRED_MSG
    assert run(mem_db, "store_fact", {"namespace": "project", "key": "cfg", "value": {"retries": 3}}).success


def test_self_namespace_and_inverted_window(mem_db):
    assert err(mem_db, "store_fact", {"namespace": "self", "key": "summary", "value": {"content": "x"}}) == (
        "Error: memory_facts namespace='self' is kernel-only. To update 'self.summary' use "
        "MemoryStore.updateSelfFact with caller='self-reflector'. Caller was: storeFact"
    )
    e = err(
        mem_db,
        "store_fact",
        {"namespace": "user", "key": "w", "value": 1, "valid_from": 2000, "valid_until": 1000},
    )
    assert e == "Error: storeFact: valid_until (1000) 早于 valid_from (2000)"


def test_write_tools_refuse_on_read_only(ro_db):
    for name, args in [
        ("store_fact", {"namespace": "user", "key": "k", "value": 1}),
        ("create_calendar_event", {"title": "x", "starts_at": "2026-06-16", "timezone": "UTC"}),
        ("schedule_reminder", {"name": "x", "message": "m", "interval_ms": 1000}),
        ("cancel_schedule", {"name": "drink"}),
    ]:
        e = err(ro_db, name, args)
        assert e.startswith(f"{name} changes memory, and the database is open read-only")
        assert e.endswith("nothing was written. Turn on editing to run write tools.")
    assert len(FactStore(ro_db).list_facts("user")) == 1
    assert len(ScheduleStore(ro_db).list_all()) == 1


# -- get_fact / list_facts ----------------------------------------------------------------------------


def test_get_fact_output_and_bump(mem_db):
    FactStore(mem_db).store_fact("user", "prefs", {"b": 1, "2": "二", "1": [1.0, 2.5]}, now=T0 - D)
    assert ok(mem_db, "get_fact", {"namespace": "user", "key": "prefs"}) == (
        '{"1":[1,2.5],"2":"二","b":1} [state ? → ∞ | recorded 2026-06-14T12:00:00.000Z]'
    )
    assert FactStore(mem_db).get_fact("user", "prefs", bump=False).last_accessed_at == T0
    assert err(mem_db, "get_fact", {"namespace": "user", "key": "nope"}) == "Not found: user.nope"


def test_get_fact_on_read_only_does_not_bump(ro_db):
    r = run(ro_db, "get_fact", {"namespace": "user", "key": "name"})
    assert r.output == '"小明" [state ? → ∞ | recorded 2026-06-14T12:00:00.000Z]'
    assert FactStore(ro_db).get_fact("user", "name", bump=False).last_accessed_at == T0 - D


def test_list_facts(mem_db):
    fs = FactStore(mem_db)
    fs.store_fact("user", "b", "乙", now=T0 - 2 * D)
    fs.store_fact("user", "a", 1.5, fact_kind="event", occurred_at=T0 - 3 * D, now=T0 - D)
    fs.store_fact("user.prefs", "x", 1, now=T0)
    out = ok(mem_db, "list_facts", {"namespace": "user"})
    assert out == (
        "user.a = 1.5  [event@2026-06-12T12:00:00.000Z | recorded 2026-06-14T12:00:00.000Z]\n"
        'user.b = "乙"  [state ? → ∞ | recorded 2026-06-13T12:00:00.000Z]'
    )
    r = run(mem_db, "list_facts", {"namespace": "nobody"})
    assert (r.success, r.output, r.data) == (True, "", [])
    # No access bump.
    assert fs.get_fact("user", "b", bump=False).last_accessed_at == T0 - 2 * D


# -- search_notes ---------------------------------------------------------------------------------------


def test_search_notes(mem_db):
    ns = NotesStore(mem_db)
    ns.upsert("n1", "数据库迁移计划：周五完成", importance=0.9, created_at=T0)
    ns.upsert("n2", "数据库备份在 mycox.example 上", importance=0.5, created_at=T0)
    ns.upsert("n3", "无关", importance=0.5, created_at=T0)
    assert (
        ok(mem_db, "search_notes", {"query": "数据库"})
        == "- 数据库迁移计划：周五完成\n- 数据库备份在 mycox.example 上"
    )
    assert ok(mem_db, "search_notes", {"query": "数据库", "limit": 1}) == "- 数据库迁移计划：周五完成"
    assert ok(mem_db, "search_notes", {"query": "mycox.example"}) == "- 数据库备份在 mycox.example 上"
    r = run(mem_db, "search_notes", {"query": "没有这个"})
    assert (r.success, r.output, r.data) == (True, "", [])
    assert err(mem_db, "search_notes", {"query": "数据库", "limit": 2.5}) == "SqliteError: datatype mismatch"
    assert ok(mem_db, "search_notes", {"query": "()", "limit": 2.5}) == ""


# -- search_skills / use_skill --------------------------------------------------------------------------


@pytest.fixture
def skills(mem_db):
    ss = SkillStore(mem_db)
    ss.create_skill("pdf-to-word", "把 PDF 转成 Word", ["pdf", "word"], "1. 打开\n2. 转换", now=T0 - D)
    ss.create_skill("empty-kw", "pdf tools", [], "step", now=T0 - D)
    ss.create_skill("avoid_rm", "不要直接删除", ["删除文件"], "先备份", kind="negative", now=T0 - D)
    return ss


def test_search_skills_format(mem_db, skills):
    assert ok(mem_db, "search_skills", {"query": "pdf"}) == (
        "- **pdf-to-word** (used 0 times): 把 PDF 转成 Word\n"
        "  trigger keywords: pdf, word\n"
        "- **empty-kw** (used 0 times): pdf tools\n"
        "  trigger keywords: "
    )
    assert ok(mem_db, "search_skills", {"query": "删除"}) == (
        "- ⚠️ [avoid] **avoid_rm** (used 0 times): 不要直接删除\n  trigger keywords: 删除文件"
    )
    skills.record_usage("empty-kw", at=T0)
    assert ok(mem_db, "search_skills", {"query": "pdf tools"}).startswith("- **empty-kw** (used 1 times): ")


def test_search_skills_filters_and_limits(mem_db, skills):
    assert (
        err(mem_db, "search_skills", {"query": "删除", "include_negative": False})
        == "No matching skills found"
    )
    assert run(
        mem_db, "search_skills", {"query": "删除", "include_negative": 0}
    ).success  # only false disables
    assert err(mem_db, "search_skills", {"query": "zzz-nothing"}) == "No matching skills found"
    assert err(mem_db, "search_skills", {"query": "pdf", "limit": 0}) == "No matching skills found"
    assert ok(mem_db, "search_skills", {"query": "pdf", "limit": -1}).count("\n- ") == 0  # last one dropped
    assert ok(mem_db, "search_skills", {"query": "pdf", "limit": "1"}).startswith("- **pdf-to-word**")
    assert err(mem_db, "search_skills", {"query": "pdf", "limit": 5.3}) == "SqliteError: datatype mismatch"
    assert run(mem_db, "search_skills", {"query": "pdf", "limit": 5.25}).success
    assert err(mem_db, "search_skills", {"query": "''", "limit": 5.3}) == "No matching skills found"


def test_search_skills_keyword_rendering_and_bad_json(mem_db, skills):
    skills.create_skill("mixed", "mixed kw", [1.0, None, "a", True, [2, None]], "x", now=T0)
    assert ok(mem_db, "search_skills", {"query": "mixed"}).endswith("trigger keywords: 1, , a, true, 2,")
    with mem_db.write() as conn:
        conn.execute("UPDATE memory_skills SET trigger_keywords = 'oops' WHERE name = 'mixed'")
    assert err(mem_db, "search_skills", {"query": "mixed"}) == (
        "SyntaxError: trigger_keywords of skill 'mixed' is not valid JSON"
    )
    with mem_db.write() as conn:
        conn.execute("UPDATE memory_skills SET trigger_keywords = '\"str\"' WHERE name = 'mixed'")
    assert (
        err(mem_db, "search_skills", {"query": "mixed"})
        == "TypeError: trigger_keywords of skill 'mixed' is not an array"
    )


def test_use_skill_draft_caveat_and_usage_only(mem_db, skills):
    r = run(mem_db, "use_skill", {"name": "pdf-to-word"}, now=T0 + 5)
    assert r.output == (
        "[draft · not fully validated, verify before use]\n"
        "# Skill: pdf-to-word\n把 PDF 转成 Word\n\n## Action Template\n1. 打开\n2. 转换"
    )
    assert r.data["useCount"] == 0 and r.data["name"] == "pdf-to-word"  # as read before the bump
    after = skills.get_by_name("pdf-to-word")
    assert (after.use_count, after.last_used_at) == (1, T0 + 5)
    assert (after.success_count, after.failure_count, after.maturity) == (0, 0, "draft")
    for _ in range(3):
        run(mem_db, "use_skill", {"name": "pdf-to-word"})
    assert skills.get_by_name("pdf-to-word").maturity == "draft"  # retrieval never promotes


@pytest.mark.parametrize("maturity", ["confirmed", "stable"])
def test_use_skill_callable_grades_have_no_caveat(mem_db, skills, maturity):
    skills.set_maturity("empty-kw", maturity)
    assert (
        ok(mem_db, "use_skill", {"name": "empty-kw"})
        == "# Skill: empty-kw\npdf tools\n\n## Action Template\nstep"
    )


def test_use_skill_refuses_playbook_and_deprecated(mem_db, skills):
    skills.create_skill("playbook-pdf-b7", "lesson", [], "why", maturity="playbook", now=T0)
    r = run(mem_db, "use_skill", {"name": "playbook-pdf-b7"})
    assert r.error == (
        "Skill 'playbook-pdf-b7' is a playbook [lesson-only, no use_skill]: it is a lesson distilled from past "
        "reflections, not a callable skill; read it as guidance instead of running it."
    )
    assert r.data["maturity"] == "playbook"
    skills.set_maturity("empty-kw", "deprecated")
    assert err(mem_db, "use_skill", {"name": "empty-kw"}) == (
        "Skill 'empty-kw' is deprecated [deprecated · verified unreliable, use as a counter-example]: it failed "
        "too often and is no longer callable; keep it only as a counter-example of what not to do."
    )
    assert skills.get_by_name("empty-kw").use_count == 0
    assert skills.get_by_name("playbook-pdf-b7").use_count == 0
    assert err(mem_db, "use_skill", {"name": "不存在"}) == "Skill '不存在' does not exist"


def test_use_skill_on_read_only_skips_the_usage_record(ro_db):
    r = run(ro_db, "use_skill", {"name": "pdf-to-word"})
    assert r.success
    assert r.output.startswith("[draft · not fully validated, verify before use]\n# Skill: pdf-to-word\n")
    assert r.data["usageRecorded"] is False
    assert "read-only" in r.data["usageNote"]
    assert SkillStore(ro_db).get_by_name("pdf-to-word").use_count == 0


# -- calendar tools -------------------------------------------------------------------------------------


def test_create_calendar_event(mem_db):
    r = run(
        mem_db,
        "create_calendar_event",
        {
            "title": "项目评审",
            "starts_at": "2026-06-17T15:00:00+08:00",
            "ends_at": "2026-06-17T16:00:00+08:00",
            "rrule": "FREQ=WEEKLY",
            "timezone": "Asia/Shanghai",
        },
    )
    assert r.output == "Created calendar event '项目评审' @ 2026-06-17T07:00:00.000Z"
    assert (r.data["startsAt"], r.data["endsAt"], r.data["createdAt"]) == (
        1_781_679_600_000,
        1_781_683_200_000,
        T0,
    )
    assert r.data["relatedFactId"] is None and r.data["externalRef"] is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            {"title": "x", "starts_at": "tomorrow", "timezone": "UTC"},
            "starts_at is not a valid ISO8601 string",
        ),
        ({"title": "x", "timezone": "UTC"}, "starts_at is not a valid ISO8601 string"),
        (
            {"title": "x", "starts_at": 1718000000000, "timezone": "UTC"},
            "starts_at is not a valid ISO8601 string",
        ),
        (
            {"title": "x", "starts_at": "2026-06-16", "ends_at": "soon", "timezone": "UTC"},
            "ends_at is not a valid ISO8601 string",
        ),
        (
            {"title": "x", "starts_at": "2026-06-16"},
            "Error: CalendarEvent: timezone is required (IANA string)",
        ),
        (
            {"title": "x", "starts_at": "2026-06-16", "timezone": ""},
            "Error: CalendarEvent: timezone is required (IANA string)",
        ),
        (
            {"title": "x", "starts_at": "2026-06-16", "ends_at": "2026-06-15", "timezone": "UTC"},
            "Error: CalendarEvent: ends_at cannot be earlier than starts_at",
        ),
        (
            {"starts_at": "2026-06-16", "timezone": "UTC"},
            "Invalid arguments for create_calendar_event: title: Field required",
        ),
    ],
)
def test_create_calendar_event_errors(mem_db, args, message):
    assert err(mem_db, "create_calendar_event", args) == message
    assert CalendarStore(mem_db).count() == 0


def test_create_calendar_event_quirks(mem_db):
    # An empty ends_at is "no end"; a number is String()-ed before Date.parse (2026 is a year).
    r = run(
        mem_db, "create_calendar_event", {"title": "y", "starts_at": 2026, "ends_at": "", "timezone": "UTC"}
    )
    assert r.output == "Created calendar event 'y' @ 2026-01-01T00:00:00.000Z"
    assert r.data["endsAt"] is None


def test_list_upcoming_lines_and_data(mem_db):
    cal, sch = CalendarStore(mem_db), ScheduleStore(mem_db)
    cal.create("周会", T0 + H, rrule="FREQ=WEEKLY", timezone="Asia/Shanghai", now=T0)
    cal.create("dentist", T0 + 2 * D, timezone="UTC", now=T0)
    cal.create("past", T0 - 1, timezone="UTC", now=T0)
    sch.create("old", T0 - D, now=T0)
    sch.create("beat", T0 + H, "autonomous_turn", {"prompt": "p"}, "interval:3600000", now=T0)
    sch.create("off", T0 + H, enabled=False, now=T0)
    sch.create("far", T0 + 30 * D, now=T0)
    r = run(mem_db, "list_upcoming")
    assert r.output == (
        "- [event] 周会 @ 2026-06-15T13:00:00.000Z (Asia/Shanghai, FREQ=WEEKLY)\n"
        "- [event] dentist @ 2026-06-17T12:00:00.000Z (UTC)\n"
        "- [task] old @ 2026-06-14T12:00:00.000Z (prompt)\n"
        "- [task] beat @ 2026-06-15T13:00:00.000Z (autonomous_turn)"
    )
    assert [e["title"] for e in r.data["events"]] == ["周会", "dentist"]
    assert r.data["events"][0]["occurrenceStartsAt"] == T0 + H
    assert r.data["events"][0]["occurrenceEndsAt"] is None
    assert [s["name"] for s in r.data["schedules"]] == ["old", "beat", "far"]
    # The window end is inclusive.
    assert "dentist" not in ok(mem_db, "list_upcoming", {"window_days": 1})
    assert "dentist" in ok(mem_db, "list_upcoming", {"window_days": 2})


@pytest.mark.parametrize(
    ("window", "n"),
    [
        (None, "7"),
        (3, "3"),
        ("3", "3"),
        ("2.50", "2.5"),
        (True, "1"),
        (False, "1"),
        ("abc", "NaN"),
        ({}, "NaN"),
        ([5], "5"),
        ("", "1"),
        (0, "1"),
        (-5, "1"),
        (1000, "90"),
        (90.5, "90"),
        (1.0000001, "1.0000001"),
        (7.0, "7"),
    ],
)
def test_list_upcoming_window_coercion(mem_db, window, n):
    args = {} if window is None else {"window_days": window}
    assert ok(mem_db, "list_upcoming", args) == f"No events in the next {n} days"


def test_list_upcoming_nan_window_lists_nothing(mem_db):
    ScheduleStore(mem_db).create("old", T0 - D, now=T0)
    assert ok(mem_db, "list_upcoming", {"window_days": "abc"}) == "No events in the next NaN days"


def test_list_upcoming_fails_on_a_malformed_enabled_payload(mem_db):
    s = ScheduleStore(mem_db).create("bad", T0 + H, now=T0)
    with mem_db.write() as conn:
        conn.execute("UPDATE memory_schedules SET payload_json = '{oops' WHERE id = ?", (s.id,))
    assert err(mem_db, "list_upcoming").startswith("SyntaxError: payload_json of schedule 'bad'")
    ScheduleStore(mem_db).set_enabled(s.id, False)
    assert ok(mem_db, "list_upcoming") == "No events in the next 7 days"


# -- schedules --------------------------------------------------------------------------------------------


def test_schedule_reminder_one_shot(mem_db):
    r = run(
        mem_db, "schedule_reminder", {"name": "开会提醒", "message": "三点开会", "at": "2026-06-15T15:00:00Z"}
    )
    assert r.output == "Scheduled task '开会提醒' [one-time, 🔔 prompt], first run @ 2026-06-15T15:00:00.000Z"
    assert r.data["cronExpr"] is None and r.data["payload"] == {"message": "三点开会"}
    assert r.data["createdBy"] == "llm_external" and r.data["nextRunAt"] == T0 + 3 * H


def test_schedule_reminder_recurring_autonomous_and_replace(mem_db):
    run(mem_db, "schedule_reminder", {"name": "beat", "message": "v1", "interval_ms": 60000})
    run(mem_db, "schedule_reminder", {"name": "beat", "message": "v2", "interval_ms": 60000})
    r = run(
        mem_db,
        "schedule_reminder",
        {
            "name": "beat",
            "message": "check the service",
            "interval_ms": 120000,
            "action_type": "autonomous_turn",
        },
    )
    assert r.output == (
        "Scheduled task 'beat' [recurring(interval:120000), 🤖 autonomous], first run @ 2026-06-15T12:02:00.000Z"
        " (replaced 1 old task(s) with the same name)"
    )
    assert r.data["payload"] == {"prompt": "check the service", "replyChannel": "silent"}
    rows = ScheduleStore(mem_db).list_all()
    assert len(rows) == 3 and [s.enabled for s in rows if s.name == "beat"].count(True) == 1
    # at wins over interval_ms; an unknown action_type is prompt.
    r = run(
        mem_db,
        "schedule_reminder",
        {
            "name": "x",
            "message": "m",
            "at": "2026-06-16T00:00:00Z",
            "interval_ms": 5,
            "action_type": "reflect",
        },
    )
    assert r.output == "Scheduled task 'x' [one-time, 🔔 prompt], first run @ 2026-06-16T00:00:00.000Z"


def test_schedule_reminder_periodic_warning(mem_db):
    warn = (
        ' ⚠ Detected "every/each" in message, but this task is [one-time] and will fire only once. '
        "If user wants recurring reminders, **immediately call this tool again** using the interval_ms parameter "
        "(e.g. every 2 min=120000, every hour=3600000)."
    )
    r = run(
        mem_db, "schedule_reminder", {"name": "w", "message": "每隔两分钟喝水", "at": "2026-06-15T12:30:00Z"}
    )
    assert r.output == "Scheduled task 'w' [one-time, 🔔 prompt], first run @ 2026-06-15T12:30:00.000Z" + warn
    r = run(mem_db, "schedule_reminder", {"name": "w2", "message": "EVERY day", "at": "2026-06-15T13:00:00Z"})
    assert r.output.endswith(warn)
    r = run(mem_db, "schedule_reminder", {"name": "w3", "message": "every day", "at": "2026-06-15T13:00:01Z"})
    assert "Detected" not in r.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"name": "x", "message": "m"}, "Must provide at (one-time) or interval_ms (recurring)"),
        (
            {"name": "x", "message": "m", "at": "", "interval_ms": 0},
            "Must provide at (one-time) or interval_ms (recurring)",
        ),
        ({"name": "x", "message": "m", "at": "next friday"}, "at is not a valid ISO8601 string"),
        ({"name": "x", "message": "m", "interval_ms": -5}, "interval_ms must be a positive number"),
        (
            {"name": "x", "message": "m", "interval_ms": 1.5},
            "Error: Schedule: 无法解析 cron_expr 'interval:1.5'",
        ),
        (
            {"name": "x", "message": "m", "interval_ms": 1000, "project": "My Project"},
            "schedule_reminder: project must be kebab-case (lowercase alphanumeric + hyphens, 2-60 chars, no "
            'leading/trailing hyphens), got "My Project"',
        ),
        (
            {"name": "x", "message": "m", "project": "-bad"},
            "schedule_reminder: project must be kebab-case (lowercase alphanumeric + hyphens, 2-60 chars, no "
            'leading/trailing hyphens), got "-bad"',
        ),
    ],
)
def test_schedule_reminder_errors(mem_db, args, message):
    assert err(mem_db, "schedule_reminder", args) == message


def test_schedule_reminder_failure_keeps_old_tasks_enabled(mem_db):
    run(mem_db, "schedule_reminder", {"name": "x", "message": "m", "interval_ms": 1000})
    assert err(mem_db, "schedule_reminder", {"name": "x", "message": "m", "interval_ms": 1.5}).startswith(
        "Error:"
    )
    assert [s.enabled for s in ScheduleStore(mem_db).list_all()] == [True]


def test_schedule_reminder_project_dedup_and_cap(mem_db, monkeypatch):
    monkeypatch.delenv("PHILONT_SCHEDULE_PROJECT_CAP", raising=False)
    base = {"interval_ms": 600000, "action_type": "autonomous_turn", "project": "mycox"}
    run(
        mem_db,
        "schedule_reminder",
        {"name": "a", "message": "Run the MycoX check-in routine now", **base},
        now=T0,
    )
    r = run(
        mem_db,
        "schedule_reminder",
        {"name": "b", "message": "Run the MycoX check-in routine now please", **base},
        now=T0 + 1,
    )
    assert r.output.endswith(" (replaced 1 same-project routine(s): a)")
    run(mem_db, "schedule_reminder", {"name": "c", "message": "daily digest of posts", **base}, now=T0 + 2)
    r = run(
        mem_db, "schedule_reminder", {"name": "d", "message": "hourly monitor of votes", **base}, now=T0 + 3
    )
    assert "(disabled" not in r.output  # b, c live + d = 3, the default cap
    r = run(
        mem_db, "schedule_reminder", {"name": "e", "message": "weekly report of karma", **base}, now=T0 + 4
    )
    assert r.output.endswith(" (disabled 1 oldest routine(s) over the per-project cap: b)")
    assert [s.name for s in ScheduleStore(mem_db).list_enabled()] == ["c", "d", "e"]
    # Other projects and prompt schedules are not counted.
    run(mem_db, "schedule_reminder", {"name": "p", "message": "m", "interval_ms": 600000, "project": "mycox"})
    monkeypatch.setenv("PHILONT_SCHEDULE_PROJECT_CAP", "1")
    r = run(mem_db, "schedule_reminder", {"name": "f", "message": "monthly audit", **base}, now=T0 + 5)
    assert r.output.endswith(" (disabled 3 oldest routine(s) over the per-project cap: c, d, e)")
    assert sorted(s.name for s in ScheduleStore(mem_db).list_enabled()) == ["f", "p"]


def test_cancel_schedule(mem_db):
    sch = ScheduleStore(mem_db)
    a = sch.create("drink water", T0 + H, now=T0)
    sch.create("drink tea", T0 + 2 * H, enabled=False, now=T0)
    c = sch.create("stretch", T0 + 3 * H, now=T0)
    assert (
        err(mem_db, "cancel_schedule")
        == "Must provide name (fuzzy match) or id (exact) — at least one required"
    )
    assert err(mem_db, "cancel_schedule", {"name": "", "id": ""}) == (
        "Must provide name (fuzzy match) or id (exact) — at least one required"
    )
    assert err(mem_db, "cancel_schedule", {"name": "Drink"}) == (
        "No matching task found (name='Drink' id=''). Currently enabled tasks: drink water, stretch"
    )
    r = run(mem_db, "cancel_schedule", {"name": "drink"})
    assert r.output == "Cancelled 2 task(s): drink water, drink tea"
    assert a.id in r.data["cancelledIds"] and len(r.data["cancelledIds"]) == 2
    assert ok(mem_db, "cancel_schedule", {"id": c.id}) == "Cancelled 1 task(s): stretch"
    assert sch.count() == 0
    assert err(mem_db, "cancel_schedule", {"id": "nope"}) == (
        "No matching task found (name='' id='nope'). Currently enabled tasks: none"
    )


# -- recall_sessions ---------------------------------------------------------------------------------------


@pytest.fixture
def sessions(mem_db):
    raw = RawStore(mem_db)
    raw.start_session("s1", T0 - 3 * D)
    raw.end_session("s1", T0 - 3 * D + H)
    raw.start_session("s2", T0 - D)
    raw.append_message("s1", "user", "我们讨论了数据库迁移", T0 - 3 * D + 10)
    raw.append_message("s1", "assistant", "数据库迁移方案：先备份\n再切换", T0 - 3 * D + 20)
    raw.append_message("s2", "user", "数据库迁移进展如何", T0 - D + 5)
    NotesStore(mem_db).upsert("session-summary-s1", "讨论迁移", created_at=T0)
    return raw


S2_BLOCK = "- session=s2 @ 2026-06-14T12:00:00.000Z (not closed)\n  (no summary)\n  hits:\n    [user] 数据库迁移进展如何"
S1_BLOCK = (
    "- session=s1 @ 2026-06-12T12:00:00.000Z - 2026-06-12T13:00:00.000Z\n"
    "  summary: 讨论迁移\n"
    "  hits:\n"
    "    [assistant] 数据库迁移方案：先备份\n再切换\n"
    "    [user] 我们讨论了数据库迁移"
)


def test_recall_sessions_blocks(mem_db, sessions):
    r = run(mem_db, "recall_sessions", {"query": "数据库迁移"})
    assert r.output == S2_BLOCK + "\n\n" + S1_BLOCK
    assert r.data[1] == {
        "sessionId": "s1",
        "startedAt": T0 - 3 * D,
        "endedAt": T0 - 3 * D + H,
        "summary": "讨论迁移",
        "topHits": [
            {"role": "assistant", "timestamp": T0 - 3 * D + 20, "snippet": "数据库迁移方案：先备份\n再切换"},
            {"role": "user", "timestamp": T0 - 3 * D + 10, "snippet": "我们讨论了数据库迁移"},
        ],
    }


def test_recall_sessions_limits_and_time_filters(mem_db, sessions):
    assert ok(mem_db, "recall_sessions", {"query": "数据库迁移", "limit": 0}) == S2_BLOCK
    assert (
        ok(mem_db, "recall_sessions", {"query": "数据库迁移", "limit": 2.5}) == S2_BLOCK + "\n\n" + S1_BLOCK
    )
    assert (
        err(mem_db, "recall_sessions", {"query": "数据库迁移", "limit": 2.7})
        == "SqliteError: datatype mismatch"
    )
    assert ok(mem_db, "recall_sessions", {"query": "数据库迁移", "since": "2026-06-13T00:00:00Z"}) == S2_BLOCK
    assert ok(mem_db, "recall_sessions", {"query": "数据库迁移", "until": T0 - 2 * D}) == S1_BLOCK
    # An invalid bound is ignored silently.
    assert (
        ok(mem_db, "recall_sessions", {"query": "数据库迁移", "since": "yesterday"})
        == S2_BLOCK + "\n\n" + S1_BLOCK
    )


def test_recall_sessions_errors_and_zero_hits(mem_db, sessions):
    for q in ("", "  \u3000", None, 5):
        args = {} if q is None else {"query": q}
        assert err(mem_db, "recall_sessions", args) == "query must be a non-empty string"
    r = run(mem_db, "recall_sessions", {"query": "量子计算"})
    assert (r.success, r.data) == (True, [])
    assert r.output == (
        'No past sessions matching "量子计算" (0 hits). Try search_notes / list_facts to look up facts rather '
        "than conversation records."
    )


def test_recall_sessions_edge_rows(mem_db, sessions):
    raw = sessions
    raw.start_session("s3", T0 - 2 * D)
    with mem_db.write() as conn:
        conn.execute("UPDATE memory_raw_sessions SET ended_at = 0 WHERE id = 's3'")
    raw.append_message("s3", "system", "数据库迁移" + "长" * 300, T0 - 2 * D + 1)
    raw.append_message("s3", "tool", "数据库迁移 ok", T0 - 2 * D + 2)
    NotesStore(mem_db).upsert("session-summary-s3", "", created_at=T0)
    mem_db.conn.execute("PRAGMA foreign_keys=OFF")
    try:
        with mem_db.write() as conn:
            conn.execute(
                "INSERT INTO memory_raw_messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)",
                ("ghost", "user", "数据库迁移 ghost", T0 - 10 * D),
            )
    finally:
        mem_db.conn.execute("PRAGMA foreign_keys=ON")
    out = ok(mem_db, "recall_sessions", {"query": "数据库迁移", "limit": 20})
    blocks = out.split("\n\n")
    assert blocks[0] == S2_BLOCK
    assert blocks[1] == (
        "- session=s3 @ 2026-06-13T12:00:00.000Z (not closed)\n  (no summary)\n  hits:\n"
        "    [tool] 数据库迁移 ok\n    [system] 数据库迁移" + "长" * 195
    )
    assert (
        blocks[3]
        == "- session=ghost @ 2026-06-05T12:00:00.000Z (not closed)\n  (no summary)\n  hits:\n    [user] 数据库迁移 ghost"
    )
