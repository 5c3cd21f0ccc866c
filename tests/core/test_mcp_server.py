"""``philont-memory mcp``: the server is started as a subprocess and spoken to with the SDK's own client.

Over stdio: the tools (eleven plus ``preview_context``) with the schemas of ``tools --schema``, every
read tool answering exactly as ``philont-memory tool`` does, writes refused without ``--write`` and
made, audited and undoable with it, resources listed and read, the recall prompt, and errors that
never end the session. Over streamable HTTP: the server answers on localhost at a free port.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from core import audit, curation, recall_trigger
from core.cli import main
from core.conversations import list_conversations
from core.db import MemoryDB
from core.facts import FactStore
from core.health import LAYERS, run_checks
from core.jsutil import iso_ms
from core.mcp_server.service import REPLAY_TURNS
from core.prefix import build_memory_prefix
from core.replay import ReplayOptions, replay
from core.schedules import ScheduleStore
from core.skills import SkillStore
from core.timeline import RawStore
from core.tools import TOOL_NAMES, TOOLS, run_tool
from tests.conftest import FIXED_NOW
from tests.reliability.helpers import fingerprint

REPO = Path(__file__).resolve().parents[2]
NOW_ISO = iso_ms(FIXED_NOW)
TIMEOUT = 120


@pytest.fixture
def db_copy(demo_db_path, tmp_path) -> Path:
    dest = tmp_path / "memory" / "memory.sqlite"
    dest.parent.mkdir(mode=0o700)
    shutil.copyfile(demo_db_path, dest)
    os.chmod(dest, 0o600)
    return dest


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _server_args(db: Path, *extra: str) -> list[str]:
    return ["-m", "core", "--db", str(db), "--now", NOW_ISO, "mcp", *extra]


def _session(db: Path, log: Path, *extra: str, body) -> Any:
    """Start the server on stdio, initialise a client session, run ``await body(session)``."""

    async def go() -> Any:
        params = StdioServerParameters(command=sys.executable, args=_server_args(db, *extra), env=_env())
        with log.open("w", encoding="utf-8") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                with anyio.fail_after(TIMEOUT):
                    await session.initialize()
                    return await body(session)

    return anyio.run(go)


def _cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _cli_tool(capsys, db: Path, name: str, args: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """``philont-memory tool`` as JSON and as text (the text is ``output`` or the error line)."""
    argv = ("--db", str(db), "--now", NOW_ISO, "tool", name, json.dumps(args, ensure_ascii=False))
    _, out_json, _ = _cli(capsys, "--json", *argv)
    code, out_text, err = _cli(capsys, *argv)
    as_json = json.loads(out_json)
    text = out_text[:-1] if code == 0 else err.removeprefix("philont-memory: error: ").rstrip("\n")
    return as_json, text


def _read_tool_calls(db_path: Path) -> list[tuple[str, dict[str, Any]]]:
    """One call of every read tool on this demo database (names picked from its rows), and failures."""
    db = MemoryDB.open(db_path, check=False)
    try:
        fact = FactStore(db).list_facts("user")[0]
        skills = SkillStore(db).list_every()
        callable_skill = next(s.name for s in skills if s.maturity in ("draft", "confirmed", "stable"))
        lesson = next(s.name for s in skills if s.maturity == "playbook")
    finally:
        db.close()
    return [
        ("get_fact", {"namespace": "user", "key": fact.key}),
        ("get_fact", {"namespace": "user", "key": "no-such-key"}),
        ("list_facts", {"namespace": "user"}),
        ("search_notes", {"query": "deploy", "limit": 3}),
        ("search_skills", {"query": "deploy"}),
        ("use_skill", {"name": callable_skill}),
        ("use_skill", {"name": lesson}),
        ("list_upcoming", {"window_days": 30}),
        ("recall_sessions", {"query": "数据库迁移"}),
        ("recall_sessions", {"query": "zzqxv-nothing"}),
    ]


def _tool_result(r: Any) -> tuple[dict[str, Any], str, bool]:
    assert len(r.content) == 1 and r.content[0].type == "text"
    return r.structured_content, r.content[0].text, r.is_error


# --------------------------------------------------------------------------------------------------
# stdio, read-only
# --------------------------------------------------------------------------------------------------


def test_tools_over_stdio_answer_as_philont_memory_tool(capsys, db_copy, tmp_path):
    _, schemas_out, _ = _cli(capsys, "tools", "--schema")
    schemas = {s["function"]["name"]: s["function"] for s in json.loads(schemas_out)}
    calls = _read_tool_calls(db_copy)
    expected = [_cli_tool(capsys, db_copy, name, args) for name, args in calls]
    _, context_out, _ = _cli(
        capsys, "--db", str(db_copy), "--now", NOW_ISO, "--json", "context", "数据库迁移"
    )
    before = fingerprint(db_copy)

    async def body(s: ClientSession) -> dict[str, Any]:
        got: dict[str, Any] = {"tools": (await s.list_tools()).tools, "calls": []}
        for name, args in calls:
            got["calls"].append(await s.call_tool(name, args))
        got["write"] = await s.call_tool("store_fact", {"namespace": "user", "key": "tea", "value": "龙井"})
        got["preview"] = await s.call_tool("preview_context", {"message": "数据库迁移"})
        got["bad"] = [
            await s.call_tool("no_such_tool", {}),
            await s.call_tool("get_fact", {"namespace": 5}),
            await s.call_tool("preview_context", {"message": "x", "recent_budget": -1}),
        ]
        got["after_errors"] = len((await s.list_tools()).tools)
        return got

    got = _session(db_copy, tmp_path / "server.log", body=body)

    # Eleven tools with exactly the schemas of `tools --schema`, then the preview and the privacy scan.
    tools = got["tools"]
    assert [t.name for t in tools] == [*TOOL_NAMES, "preview_context", "privacy_scan"]
    for t in tools[:11]:
        assert {"name": t.name, "description": t.description, "parameters": t.input_schema} == schemas[t.name]
        assert t.annotations.read_only_hint is (TOOLS[t.name].capability == "read")
    assert tools[11].input_schema["required"] == ["message"]

    # Each read tool: the structured content is `tool --json`, the text is what `tool` prints.
    for (name, args), result, (want_json, want_text) in zip(calls, got["calls"], expected, strict=True):
        structured, text, is_error = _tool_result(result)
        assert structured == want_json, (name, args)
        assert text == want_text, (name, args)
        assert is_error is (not want_json["success"])
    use = next(r for (n, _), r in zip(calls, got["calls"]) if n == "use_skill").structured_content
    assert use["data"]["usageRecorded"] is False  # no access bump without --write, as `tool`

    # A write is refused, clearly, and nothing is written.
    structured, text, is_error = _tool_result(got["write"])
    assert (
        is_error and structured["code"] == "mcp.read_only" and structured["params"] == {"tool": "store_fact"}
    )
    assert "started read-only" in text and "--write" in text
    assert fingerprint(db_copy) == before
    assert not (db_copy.parent / "backups").exists()

    # The context preview is core.context's assembly (`context --json`).
    structured, text, is_error = _tool_result(got["preview"])
    assert not is_error and structured["data"] == json.loads(context_out)
    assert text.startswith("=== Memory prefix: ") and text == structured["output"]

    # Bad input is a structured error, and the session goes on.
    unknown, bad_args, bad_preview = (_tool_result(r) for r in got["bad"])
    assert unknown[2] and unknown[0]["error"].startswith("Unknown tool 'no_such_tool'")
    assert bad_args[2] and bad_args[0]["error"].startswith("Invalid arguments for get_fact: ")
    assert bad_preview[2] and bad_preview[0]["code"] == "mcp.invalid_arguments"
    assert got["after_errors"] == 13


def test_resources_and_the_recall_prompt(db_copy, tmp_path):
    db = MemoryDB.open(db_copy, check=False)
    try:
        prefix = build_memory_prefix(db, now=FIXED_NOW).text
        namespaces = dict(FactStore(db).list_namespaces())
        user_ids = [f.id for f in FactStore(db).list_facts("user")]
        revised = next(s for s in SkillStore(db).list_every() if s.revision_history)
        conv = next(c for c in list_conversations(db) if c.kind == "origin" and c.message_count > 60)
        newest = RawStore(db).query_timeline("desc", 50, conversations=[conv.id])
        assert len(newest) == 50 and all(m.origin_session_id == conv.id for m in newest)
        recall = run_tool(db, "recall_sessions", {"query": "数据库迁移", "limit": 5}, now=FIXED_NOW)
        replay_summary = replay(db, ReplayOptions(limit=REPLAY_TURNS)).summary()
        health = json.loads(json.dumps(run_checks(db, now_ms=FIXED_NOW).to_json()))
    finally:
        db.close()

    async def body(s: ClientSession) -> dict[str, Any]:
        got: dict[str, Any] = {
            "resources": (await s.list_resources()).resources,
            "templates": (await s.list_resource_templates()).resource_templates,
            "prompts": (await s.list_prompts()).prompts,
        }
        for key, uri in (
            ("prefix", "memory://prefix"),
            ("user", "memory://facts/user"),
            ("skill", "memory://skills/" + revised.name),
            ("conversation", "memory://conversations/" + quote(conv.id, safe="")),
            ("conversations", "memory://conversations"),
            ("index", "memory://facts"),
            ("replay", "memory://replay"),
            ("health", "memory://health"),
        ):
            got[key] = (await s.read_resource(uri)).contents[0]
        got["prompt"] = await s.get_prompt("recall", {"topic": "数据库迁移"})
        got["errors"] = []
        for call in (
            lambda: s.read_resource("memory://skills/no-such-skill"),
            lambda: s.read_resource("memory://nothing"),
            lambda: s.read_resource("file:///etc/passwd"),
            lambda: s.get_prompt("recall", {}),
            lambda: s.get_prompt("no-such-prompt", {}),
        ):
            try:
                await call()
            except MCPError as exc:
                got["errors"].append(exc.error)
        got["still_up"] = (await s.read_resource("memory://prefix")).contents[0].text
        return got

    got = _session(db_copy, tmp_path / "server.log", body=body)

    uris = [r.uri for r in got["resources"]]
    assert uris[:6] == [
        "memory://prefix",
        "memory://facts",
        "memory://skills",
        "memory://conversations",
        "memory://replay",
        "memory://health",
    ]
    assert {unquote(u.removeprefix("memory://facts/")) for u in uris[6:]} == set(namespaces)
    assert [t.uri_template for t in got["templates"]] == [
        "memory://facts/{namespace}",
        "memory://skills/{name}",
        "memory://conversations/{conversation}",
    ]

    assert got["prefix"].mime_type == "text/plain" and got["prefix"].text == prefix == got["still_up"]
    replayed = json.loads(got["replay"].text)
    assert got["replay"].mime_type == "application/json" and replayed["summary"] == replay_summary
    doctor = json.loads(got["health"].text)
    assert got["health"].mime_type == "application/json"
    assert doctor == {"now": FIXED_NOW, **health} and list(doctor["summary"]) == list(LAYERS)
    facts = json.loads(got["user"].text)
    assert facts["namespace"] == "user" and [f["id"] for f in facts["facts"]] == user_ids
    assert all({"score", "status", "tauDays"} <= set(f) for f in facts["facts"])
    skill = json.loads(got["skill"].text)["skill"]
    assert skill["name"] == revised.name and skill["maturity"] == revised.maturity
    assert len(skill["revisions"]) == len(revised.revision_history) == skill["revisionCount"]
    assert skill["maturityExplained"]["why"] and skill["actionTemplate"] == revised.action_template
    convo = json.loads(got["conversation"].text)
    assert (
        convo["conversation"]["id"] == conv.id and convo["conversation"]["messageCount"] == conv.message_count
    )
    assert [m["id"] for m in convo["messages"]] == [m.id for m in reversed(newest)]
    listed = json.loads(got["conversations"].text)["conversations"]
    assert conv.id in {c["id"] for c in listed}
    assert [c["lastAt"] for c in listed] == sorted((c["lastAt"] for c in listed), reverse=True)
    index = json.loads(got["index"].text)["namespaces"]
    assert {r["namespace"]: r["count"] for r in index} == namespaces

    # The prompt: its question hits the recall trigger, and recall_sessions ran as the trigger demands.
    (prompt,) = got["prompts"]
    assert prompt.name == "recall" and [(a.name, a.required) for a in prompt.arguments] == [("topic", True)]
    (message,) = got["prompt"].messages
    text = message.content.text
    question = text.split("\n", 1)[0]
    assert question == "Recall what we discussed about 数据库迁移."
    assert recall_trigger.detect(question) is not None
    assert recall.success and recall.output in text
    assert 'recall_sessions({"query": "数据库迁移", "limit": 5})' in text

    codes = [e.data["code"] for e in got["errors"]]
    assert codes == [
        "mcp.skill_not_found",
        "mcp.resource_not_found",
        "mcp.bad_uri",
        "mcp.prompt_argument_missing",
        "mcp.prompt_not_found",
    ]
    assert got["errors"][0].data["params"] == {"name": "no-such-skill"}


# --------------------------------------------------------------------------------------------------
# stdio with --write: audited, undoable
# --------------------------------------------------------------------------------------------------


def test_writes_with_write_flag_are_audited_and_undone_by_the_apps_undo(db_copy, tmp_path):
    db = MemoryDB.open(db_copy, check=False)
    try:
        fact = FactStore(db).list_facts("user")[0]
        old_value = fact.value
        schedules_before = {s.id: s.to_json() for s in ScheduleStore(db).list_all()}
        victim = next(s for s in ScheduleStore(db).list_all() if s.enabled)
    finally:
        db.close()
    writes = [
        ("store_fact", {"namespace": "user", "key": fact.key, "value": {"edited": "through MCP"}}),
        (
            "create_calendar_event",
            {"title": "MCP review", "starts_at": "2026-06-20T09:00:00Z", "timezone": "UTC"},
        ),
        (
            "schedule_reminder",
            {"name": victim.name, "message": "replaced through MCP", "interval_ms": 3_600_000},
        ),
        ("cancel_schedule", {"id": victim.id}),
    ]

    async def body(s: ClientSession) -> list[Any]:
        return [await s.call_tool(name, args) for name, args in writes]

    results = _session(db_copy, tmp_path / "server.log", "--write", body=body)
    for (name, _), r in zip(writes, results):
        structured, text, is_error = _tool_result(r)
        assert not is_error and structured["success"], (name, structured)
        assert text == structured["output"]
    assert len(list((db_copy.parent / "backups").iterdir())) == 1  # a backup before the first write

    db = MemoryDB.open(db_copy, writable=True, check=False)
    try:
        entries = [e for e in audit.list_entries(db) if e.actor.endswith("@philont-memory-mcp")]
        assert [e.action for e in reversed(entries)] == [
            "facts.store_fact",
            "calendar.create_calendar_event",
            "calendar.schedule_reminder",
            "calendar.cancel_schedule",
        ]
        assert all(
            e.actor.endswith("@philont-memory-mcp") and "MCP client" in (e.note or "") for e in entries
        )
        head = FactStore(db).get_fact("user", fact.key, bump=False)
        assert head.value == {"edited": "through MCP"} and head.supersedes == fact.id
        assert entries[-1].target_type == "fact" and entries[-1].target_id == head.id

        # Undo every write, newest first, as the app's undo does (core.curation.undo).
        for e in entries:
            curation.undo(db, e.id, curation.default_actor())
        assert FactStore(db).get_fact("user", fact.key, bump=False).value == old_value
        assert {s.id: s.to_json() for s in ScheduleStore(db).list_all()} == schedules_before
        assert not any(ev.title == "MCP review" for ev in _events(db))
        # ... and redo brings the new version back.
        curation.redo(db, entries[-1].id, curation.default_actor())
        assert FactStore(db).get_fact("user", fact.key, bump=False).id == head.id
    finally:
        db.close()


def _events(db: MemoryDB) -> list[Any]:
    from core.calendar import CalendarStore

    return CalendarStore(db).list_all()


# --------------------------------------------------------------------------------------------------
# streamable HTTP on localhost
# --------------------------------------------------------------------------------------------------


def test_http_transport_answers_on_localhost(db_copy, tmp_path):
    log = (tmp_path / "http.log").open("w+", encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, *_server_args(db_copy, "--http", "127.0.0.1:0")],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=log,
        env=_env(),
    )
    try:
        url = None
        deadline = time.monotonic() + TIMEOUT
        while url is None and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
            log.seek(0)
            m = re.search(r"MCP server on (http://127\.0\.0\.1:(\d+)/mcp)", log.read())
            url = m.group(1) if m else None
        assert url is not None, (proc.poll(), log.seek(0) or log.read())

        async def go() -> tuple[list[str], Any]:
            with anyio.fail_after(TIMEOUT):
                async with streamable_http_client(url) as (read, write), ClientSession(read, write) as s:
                    await s.initialize()
                    names = [t.name for t in (await s.list_tools()).tools]
                    return names, await s.call_tool("list_facts", {"namespace": "user"})

        names, result = anyio.run(go)
        assert names == [*TOOL_NAMES, "preview_context", "privacy_scan"]
        assert result.structured_content["success"] and result.content[0].text.startswith("user.")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=30)
        log.close()


# --------------------------------------------------------------------------------------------------
# Without the SDK; the service and the address alone
# --------------------------------------------------------------------------------------------------

NO_SDK = """
import importlib.abc, pkgutil, sys

class Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("mcp", "mcp_types"):
            raise ImportError(f"{name} is blocked in this test")
        return None

sys.meta_path.insert(0, Blocker())
import core
for m in pkgutil.walk_packages(core.__path__, "core."):
    if not m.name.endswith("__main__"):
        __import__(m.name)
from core.cli import main
sys.exit(main(["--db", sys.argv[1], "mcp"]))
"""


def test_core_imports_without_the_sdk_and_mcp_says_how_to_install_it(db_copy):
    proc = subprocess.run(
        [sys.executable, "-c", NO_SDK, str(db_copy)],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == ""
    assert proc.stderr.startswith("philont-memory: error: The MCP server needs the mcp package")
    assert "pip install 'philont-desktop[mcp]'" in proc.stderr and proc.stderr.count("\n") == 1


def test_service_answers_even_when_the_database_fails(mem_db, monkeypatch):
    import core.context
    from core.mcp_server import MemoryService

    service = MemoryService(mem_db, now=FIXED_NOW)

    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(core.context, "build_context", broken)
    r = service.call_tool("preview_context", {"message": "hello"})
    assert r.is_error and r.structured == {
        "success": False,
        "error": "RuntimeError: disk on fire",
        "code": "mcp.internal_error",
        "params": {"tool": "preview_context", "type": "RuntimeError"},
    }
    mem_db.close()
    r = service.call_tool("list_facts", {"namespace": "user"})  # the dispatcher's own error
    assert r.is_error and r.structured["success"] is False and r.text == r.structured["error"]
    monkeypatch.undo()
    r = service.call_tool("preview_context", {"message": "hello"})  # a core error keeps its code
    assert r.is_error and r.structured["code"] and r.text == r.structured["error"]


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("8765", ("127.0.0.1", 8765)),
        ("localhost:0", ("localhost", 0)),
        ("0.0.0.0:9000", ("0.0.0.0", 9000)),
        ("[::1]:8765", ("::1", 8765)),
    ],
)
def test_http_address(text, address):
    from core.mcp_server import parse_http_address

    assert parse_http_address(text) == address


@pytest.mark.parametrize("text", ["", "host:", ":80", "host:99999", "host:http", "[::1]8765"])
def test_bad_http_address_is_a_usage_error(capsys, db_copy, text):
    code, out, err = _cli(capsys, "--db", str(db_copy), "mcp", "--http", text)
    assert code == 2 and out == ""
    assert err.startswith("philont-memory: error: Not an address") and err.count("\n") == 1


def test_client_configuration_snippet():
    from core.mcp_server import client_config, command_line

    assert command_line("/data/memory.sqlite", write=True) == [
        "philont-memory",
        "mcp",
        "--db",
        "/data/memory.sqlite",
        "--write",
    ]
    config = json.loads(client_config("/data/记忆.sqlite"))
    assert config == {
        "mcpServers": {
            "philont-memory": {"command": "philont-memory", "args": ["mcp", "--db", "/data/记忆.sqlite"]}
        }
    }


# --------------------------------------------------------------------------------------------------
# The file replaced or deleted under the server
# --------------------------------------------------------------------------------------------------


def _other_db(path: Path, value: str) -> Path:
    db = MemoryDB.create(path, now=FIXED_NOW)
    try:
        FactStore(db).store_fact("user", "where", value)
    finally:
        db.close()
    return path


@pytest.mark.parametrize("change", ["replaced", "deleted", "emptied"])
def test_a_write_server_refuses_once_its_file_is_replaced_or_deleted(db_copy, tmp_path, change):
    from core.mcp_server import MemoryService

    db = MemoryDB.open(db_copy, writable=True, check=False)
    try:
        service = MemoryService(db, write=True, now=FIXED_NOW)
        stored = service.call_tool("store_fact", {"namespace": "user", "key": "before", "value": 1})
        assert not stored.is_error and stored.text.startswith("Stored user.before")
        if change == "replaced":
            os.replace(_other_db(tmp_path / "other.sqlite", "the other file"), db_copy)
        elif change == "deleted":
            db_copy.unlink()
        else:
            os.truncate(db_copy, 0)
        on_disk = fingerprint(db_copy)
        r = service.call_tool("store_fact", {"namespace": "user", "key": "after", "value": 2})
        assert r.is_error and not r.text.startswith("Stored")
        assert r.structured["code"] == "mcp.file_changed"
        assert r.structured["params"] == {"path": str(db_copy), "change": change}
        assert "changed on disk since this server opened it" in r.text and "nothing was" in r.text
        # Nothing went into the file the server still holds open, nor into what is at the path now.
        assert FactStore(db).get_fact("user", "after") is None
        assert fingerprint(db_copy) == on_disk
    finally:
        db.close()


def test_a_read_only_server_refuses_to_serve_a_replaced_file(db_copy, tmp_path):
    from core.mcp_server import FileChangedError, MemoryService

    db = MemoryDB.open(db_copy, check=False)
    try:
        service = MemoryService(db, now=FIXED_NOW)
        assert not service.call_tool("list_facts", {"namespace": "user"}).is_error
        service.read_resource("memory://facts/user")
        os.replace(_other_db(tmp_path / "other.sqlite", "the other file"), db_copy)
        r = service.call_tool("list_facts", {"namespace": "user"})
        assert r.is_error and r.structured["code"] == "mcp.file_changed"
        for read in (
            lambda: service.read_resource("memory://facts/user"),
            service.resources,
            lambda: service.get_prompt("recall", {"topic": "deploy"}),
        ):
            with pytest.raises(FileChangedError) as exc:
                read()
            assert exc.value.code == "mcp.file_changed" and exc.value.params["change"] == "replaced"
        assert [t["name"] for t in service.tools()][-1] == "privacy_scan"  # no file read: answered
    finally:
        db.close()


def test_a_write_server_over_stdio_says_its_file_was_deleted(db_copy, tmp_path):
    async def body(s: ClientSession) -> list[Any]:
        first = await s.call_tool("store_fact", {"namespace": "user", "key": "before", "value": 1})
        db_copy.unlink()
        second = await s.call_tool("store_fact", {"namespace": "user", "key": "after", "value": 2})
        try:
            await s.read_resource("memory://facts/user")
            third: Any = None
        except MCPError as exc:
            third = exc
        return [first, second, third]

    first, second, refused = _session(db_copy, tmp_path / "server.log", "--write", body=body)
    assert not first.is_error and first.content[0].text.startswith("Stored user.before")
    structured, text, is_error = _tool_result(second)
    assert is_error and structured["code"] == "mcp.file_changed" and "deleted" in text
    assert isinstance(refused, MCPError) and refused.error.data["code"] == "mcp.file_changed"


# --------------------------------------------------------------------------------------------------
# Bad resource URIs
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["%%bad", "%zz", "%2", "%ff"])
def test_a_malformed_percent_encoding_is_a_bad_uri(mem_db, bad):
    from core.errors import ValidationError_
    from core.mcp_server import MemoryService

    service = MemoryService(mem_db, now=FIXED_NOW)
    for kind in ("facts", "skills", "conversations"):
        uri = f"memory://{kind}/{bad}"
        with pytest.raises(ValidationError_) as exc:
            service.read_resource(uri)
        assert exc.value.code == "mcp.bad_uri" and exc.value.params == {"uri": uri}
    assert json.loads(service.read_resource("memory://facts/%25x")[0])["namespace"] == "%x"


# --------------------------------------------------------------------------------------------------
# HTTP: Host and Origin on every address
# --------------------------------------------------------------------------------------------------


def _has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


LOOPBACKS = [
    "127.0.0.1",
    "127.0.0.2",
    "127.1",
    pytest.param(
        "::1",
        marks=pytest.mark.skipif(not _has_ipv6_loopback(), reason="this machine has no IPv6 loopback"),
    ),
]


class _HttpServer:
    """``philont-memory mcp --http HOST:0`` in a child process; ``port`` once it listens."""

    def __init__(self, db: Path, tmp_path: Path, host: str):
        self.host = host
        self.log = (tmp_path / f"http-{host}.log").open("w+", encoding="utf-8")
        shown = f"[{host}]" if ":" in host else host
        self.proc = subprocess.Popen(
            [sys.executable, *_server_args(db, "--http", f"{shown}:0")],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self.log,
            env=_env(),
        )
        self.port = 0
        deadline = time.monotonic() + TIMEOUT
        while not self.port and time.monotonic() < deadline and self.proc.poll() is None:
            time.sleep(0.1)
            self.log.seek(0)
            m = re.search(r"MCP server on http://\S+:(\d+)/mcp", self.log.read())
            self.port = int(m.group(1)) if m else 0
        assert self.port, (self.proc.poll(), self.stderr())
        while time.monotonic() < deadline:  # listening once the address is printed; bounded anyway
            try:
                socket.create_connection((self.host, self.port), timeout=TIMEOUT).close()
                break
            except ConnectionRefusedError:
                time.sleep(0.1)

    @property
    def url(self) -> str:
        shown = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{shown}:{self.port}{HTTP_PATH}"

    def stderr(self) -> str:
        self.log.seek(0)
        return self.log.read()

    def post(self, host: str, origin: str | None = None) -> tuple[int, str]:
        """An ``initialize`` request with these Host and Origin headers: ``(status, body)``."""
        import http.client

        body = json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "test", "version": "1"},
                },
            }
        ).encode()
        conn = http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT)
        try:
            conn.putrequest("POST", HTTP_PATH, skip_host=True, skip_accept_encoding=True)
            conn.putheader("Host", host)
            if origin is not None:
                conn.putheader("Origin", origin)
            conn.putheader("Content-Type", "application/json")
            conn.putheader("Accept", "application/json, text/event-stream")
            conn.putheader("Content-Length", str(len(body)))
            conn.endheaders(body)
            response = conn.getresponse()
            return response.status, response.read().decode("utf-8", "replace")
        finally:
            conn.close()

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=30)
        self.log.close()


HTTP_PATH = "/mcp"


def _http_session(db: Path, tmp_path: Path, host: str, body) -> Any:
    server = _HttpServer(db, tmp_path, host)
    try:

        async def go() -> Any:
            with anyio.fail_after(TIMEOUT):
                async with (
                    streamable_http_client(server.url) as (read, write),
                    ClientSession(read, write) as s,
                ):
                    await s.initialize()
                    return await body(s)

        return anyio.run(go)
    finally:
        server.stop()


@pytest.mark.parametrize("host", LOOPBACKS)
def test_http_checks_host_and_origin_on_every_loopback_address(db_copy, tmp_path, host):
    server = _HttpServer(db_copy, tmp_path, host)
    try:
        p = server.port
        shown = f"[{host}]" if ":" in host else host
        for good_host, origin in (
            (f"{shown}:{p}", None),
            (f"localhost:{p}", None),
            (f"{shown}:{p}", f"http://{shown}:{p}"),
            (f"localhost:{p}", f"http://localhost:{p}"),
        ):
            status, text = server.post(good_host, origin)
            assert status == 200 and '"serverInfo"' in text, (good_host, origin, status, text)
        for bad_host in (f"evil.example:{p}", f"{shown}:{p + 1 if p < 65535 else 1}", "evil.example", ""):
            status, text = server.post(bad_host)
            assert status == 421 and text.startswith("Refused: the Host header"), (bad_host, status, text)
            assert "DNS rebinding" in text
        for bad_origin in ("http://evil.example", f"http://evil.example:{p}", "null", f"https://{shown}:{p}"):
            status, text = server.post(f"{shown}:{p}", bad_origin)
            assert status == 403 and text.startswith("Refused: the request comes from a web page"), bad_origin
        assert "warning" not in server.stderr()
    finally:
        server.stop()


def test_host_check_on_every_address_accepts_only_this_computers_addresses():
    from core.mcp_server import HostCheck, exposure_warning

    check = HostCheck("0.0.0.0", 8765)
    for ok in ("127.0.0.1:8765", "127.0.0.2:8765", "localhost:8765", "LOCALHOST:8765"):
        assert check.host_ok(ok), ok
    for bad in ("evil.example:8765", "0.0.0.0:8765", "192.0.2.1:8765", "127.0.0.1:8766", "127.0.0.1"):
        assert not check.host_ok(bad), bad
    assert check.origin_ok("http://localhost:8765") and not check.origin_ok("http://evil.example:8765")
    warning = exposure_warning(check, "0.0.0.0", write=True)
    assert warning is not None and "every address of this computer" in warning
    assert "can read the memory and change it, with no password" in warning
    assert "an address of this computer or localhost, port 8765" in warning
    assert "DNS rebinding, not other computers or programs" in warning
    lan = HostCheck("192.0.2.1", 80, "memory.lan")
    assert lan.host_ok("memory.lan") and lan.host_ok("192.0.2.1:80") and not lan.host_ok("evil.example")
    assert "192.0.2.1:80 or localhost:80 or memory.lan:80" in (
        exposure_warning(lan, "192.0.2.1", False) or ""
    )
    assert exposure_warning(HostCheck("127.0.0.2", 1), "127.0.0.2", True) is None


# --------------------------------------------------------------------------------------------------
# Lone surrogates stored in memory
# --------------------------------------------------------------------------------------------------


def _store_surrogate(path: Path) -> None:
    db = MemoryDB.open(path, writable=True, check=False)
    try:
        FactStore(db).store_fact("user", "half", "v\ud800")  # a JSON value holding half a character
    finally:
        db.close()


def test_a_stored_lone_surrogate_is_answered_over_http(db_copy, tmp_path):
    _store_surrogate(db_copy)

    async def body(s: ClientSession) -> list[Any]:
        return [
            await s.call_tool("list_facts", {"namespace": "user"}),
            await s.call_tool("get_fact", {"namespace": "user", "key": "half"}),
            (await s.read_resource("memory://facts/user")).contents[0],
        ]

    listed, got, resource = _http_session(db_copy, tmp_path, "127.0.0.1", body)
    assert "user.half" in listed.content[0].text and not listed.is_error
    structured, text, _ = _tool_result(got)
    assert text.startswith('"v\\ud800" ')  # as `philont-memory tool` prints it
    assert structured["data"]["value"] == "v\ufffd"  # the SDK carries no half character
    facts = json.loads(resource.text)["facts"]  # the JSON text escapes it, as --json does
    assert next(f for f in facts if f["key"] == "half")["value"] == "v\ud800"
    assert "\\ud800" in resource.text
