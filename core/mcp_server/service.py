"""What the MCP server answers, without the SDK: :class:`MemoryService` (tools, resources, prompts from
one open database) and the values it answers with (plain Python, tested directly)."""

from __future__ import annotations

import getpass
import json
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote

from core.errors import MemoryError_, NotFoundError, ValidationError_
from core.jsutil import from_utf16_view, json_safe, now_ms
from core.mcp_server import privacy_tool

if TYPE_CHECKING:
    from core.db import MemoryDB

SERVER_NAME = "philont-memory"
PREVIEW_TOOL = "preview_context"
RECALL_PROMPT = "recall"
RECALL_LIMIT = 5  # what the recall trigger's instruction asks for (limit=5)
RECENT_MESSAGES = 50
LISTED_CONVERSATIONS = 100
#: The user turns the ``memory://replay`` resource replays (the most recent ones).
REPLAY_TURNS = 200
DEFAULT_HTTP_HOST = "127.0.0.1"
HTTP_PATH = "/mcp"
SCHEME = "memory://"
INSTALL_HINT = "pip install 'philont-desktop[mcp]'"

#: The structured content of every tool result.
OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["success"],
    "properties": {
        "success": {"type": "boolean"},
        "output": {"type": "string"},
        "error": {"type": "string"},
        "data": {},
        "code": {"type": "string"},
        "params": {"type": "object"},
    },
}

_INSTRUCTIONS = (
    "The long-term memory of a Philont agent (one SQLite file): facts, notes, skills, calendar, scheduled "
    "tasks and past conversations. The tools are the agent's own memory tools and answer exactly as the "
    "agent's tools do; preview_context shows what the agent would be given for a message. Resources give "
    "the memory prefix, facts by namespace, skills and recent messages; the recall prompt looks up past "
    "conversations about a topic."
)


class McpUnavailableError(MemoryError_):
    """The ``mcp`` SDK is not installed, so no server can be started."""

    default_code = "mcp.sdk_missing"


class FileChangedError(MemoryError_):
    """The database file the server opened is no longer the file at its path (:meth:`MemoryDB.file_change`)."""

    default_code = "mcp.file_changed"


#: What happened to the opened file, as :meth:`core.db.MemoryDB.file_change` names it.
_FILE_CHANGES = {
    "replaced": "another file has taken its place (it was replaced, or deleted and created again)",
    "deleted": "it was deleted",
    "emptied": "it was cut to 0 bytes",
}


@dataclass(frozen=True)
class ToolCall:
    """A tool's answer: ``structured`` (the dispatcher's JSON), ``text`` (what the model reads)."""

    structured: dict[str, Any]
    text: str
    is_error: bool


@dataclass(frozen=True)
class ResourceInfo:
    uri: str
    name: str
    description: str
    mime_type: str


@dataclass(frozen=True)
class PromptInfo:
    name: str
    title: str
    description: str
    arguments: list[tuple[str, str, bool]] = field(default_factory=list)  # (name, description, required)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_BAD_PERCENT = re.compile("%(?![0-9A-Fa-f]{2})")


def _dumps(value: Any) -> str:
    """JSON text of a resource; a lone surrogate (from a stored JSON value) is escaped as ``\\udXXX``,
    as ``philont-memory --json`` and ``JSON.stringify`` write it, so the text is valid UTF-8."""
    text = json.dumps(json_safe(value), ensure_ascii=False, indent=2)
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


def _wire(value: Any) -> Any:
    """``value`` with every lone surrogate replaced by U+FFFD (a surrogate pair held as two code points
    joined first), as text that is not UTF-8 is read (:mod:`core.damage`): neither the SDK's JSON writer
    nor its reader carries half a character, so one stored value must not cost the whole answer."""
    if isinstance(value, str):
        if value.isascii() or _LONE_SURROGATE.search(value) is None:
            return value
        return _LONE_SURROGATE.sub("\ufffd", from_utf16_view(value))
    if isinstance(value, dict):
        return {_wire(k): _wire(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_wire(v) for v in value]
    return value


def mcp_actor() -> str:
    """``<OS user name>@philont-memory-mcp``: who made a write through the server."""
    from core.curation.tools import ACTOR_MCP_SUFFIX

    try:
        user = getpass.getuser()
    except (OSError, KeyError, ImportError):
        user = os.environ.get("USER") or os.environ.get("USERNAME") or "user"
    return f"{user}{ACTOR_MCP_SUFFIX}"


class MemoryService:
    """Answers tools, resources and prompts from one open :class:`core.db.MemoryDB`.

    ``write`` is whether the server was started with ``--write`` (the database is then open writable).
    ``now`` fixes the time every answer is computed at (``--now``); ``None`` is the current time.
    Thread-safe as the database is (calls are serialised by its lock).
    """

    def __init__(
        self, db: MemoryDB, *, write: bool = False, now: int | None = None, actor: str | None = None
    ):
        self.db = db
        self.write = bool(write)
        self._now = now
        self.actor = actor or mcp_actor()

    def now(self) -> int:
        return now_ms() if self._now is None else int(self._now)

    def check_file(self) -> None:
        """Raise :class:`FileChangedError` once the path no longer names the file this server opened
        (replaced, deleted or emptied on disk, :meth:`core.db.MemoryDB.file_change`, as the app notices
        it): the connection would go on reading, and writing, the file that was opened."""
        change = self.db.file_change()
        if change is None:
            return
        path = str(self.db.path)
        raise FileChangedError(
            f"{path}: the database file changed on disk since this server opened it: "
            f"{_FILE_CHANGES.get(change, change)}. This server no longer answers from the file it opened, "
            "so nothing was read or written; start it again to serve the file now at that path.",
            params={"path": path, "change": change},
        )

    # -- tools -------------------------------------------------------------------------------------
    def tools(self) -> list[dict[str, Any]]:
        """``[{name, description, inputSchema, capability}]``: the eleven tools, then the preview and the
        privacy scan."""
        from core.tool_params import PREVIEW_CONTEXT_DESC, PreviewContextParams
        from core.tools import TOOLS, parameters_schema

        out = [
            {
                "name": s.name,
                "description": s.description,
                "inputSchema": s.parameters_schema(),
                "capability": s.capability,
            }
            for s in TOOLS.values()
        ]
        out.append(
            {
                "name": PREVIEW_TOOL,
                "description": PREVIEW_CONTEXT_DESC,
                "inputSchema": parameters_schema(PreviewContextParams, ("message",)),
                "capability": "read",
            }
        )
        out.append(privacy_tool.entry())
        return out

    def call_tool(self, name: str, arguments: Any = None, client: str | None = None) -> ToolCall:
        """Run one tool. Never raises."""
        try:
            return self._call(name, arguments, client)
        except MemoryError_ as exc:
            return _refusal(f"Error: {exc}", exc.code, exc.params)
        except Exception as exc:  # the server must answer whatever happens
            return _refusal(
                f"{type(exc).__name__}: {exc}",
                "mcp.internal_error",
                {"tool": str(name), "type": type(exc).__name__},
            )

    def _call(self, name: str, arguments: Any, client: str | None) -> ToolCall:
        from core.curation.tools import run_audited
        from core.tools import TOOLS, run_tool

        self.check_file()
        if name == PREVIEW_TOOL:
            return self._preview(arguments)
        if name == privacy_tool.NAME:
            return _from_result(privacy_tool.run(self.db, arguments))
        spec = TOOLS.get(name) if isinstance(name, str) else None
        if spec is not None and spec.capability == "write" and not self.write:
            return _refusal(
                f"{name} changes memory, and this MCP server was started read-only: nothing was written. "
                "Start it with --write (philont-memory mcp --write) to allow the writing tools.",
                "mcp.read_only",
                {"tool": name},
            )
        if spec is not None and spec.capability == "write":
            via = f"MCP client {client}" if client else "MCP client"
            # A write records the current time (--now only fixes the time answers are computed at).
            run = run_audited(self.db, name, arguments, actor=self.actor, note=f"{via}: {name}")
            result = run.result
        else:
            result = run_tool(self.db, name, arguments, now=self.now())
        return _from_result(result.to_json())

    def _preview(self, arguments: Any) -> ToolCall:
        from pydantic import ValidationError

        from core.context import build_context
        from core.tool_params import PreviewContextParams
        from core.tools import describe_validation_error

        try:
            p = PreviewContextParams.model_validate({} if arguments is None else arguments)
        except ValidationError as exc:
            detail = describe_validation_error(exc)
            return _refusal(
                f"Invalid arguments for {PREVIEW_TOOL}: {detail}",
                "mcp.invalid_arguments",
                {"tool": PREVIEW_TOOL, "detail": detail},
            )
        r = build_context(
            self.db,
            p.message,
            session_ids=p.session_ids or (),
            recent_budget=p.recent_budget,
            recall_budget=p.recall_budget,
            recent_limit=p.recent_limit,
            recall_limit=p.recall_limit,
            host_os=p.host_os,
            home_session_id=p.home_session,
            now=self.now(),
        )
        return _from_result({"success": True, "output": r.to_text(), "data": r.to_json()})

    # -- resources ---------------------------------------------------------------------------------
    def resources(self) -> list[ResourceInfo]:
        """The fixed resources, then one per fact namespace with active facts."""
        from core.facts import FactStore

        self.check_file()
        out = [
            ResourceInfo(
                f"{SCHEME}prefix",
                "Memory prefix",
                "The memory prefix the agent would be given now (runtime, plan, task mode, user and project "
                "facts, capabilities, skill index, upcoming).",
                "text/plain",
            ),
            ResourceInfo(
                f"{SCHEME}facts", "Fact namespaces", "Namespaces with their active facts.", "application/json"
            ),
            ResourceInfo(
                f"{SCHEME}skills", "Skills", "Every skill with its maturity and kind.", "application/json"
            ),
            ResourceInfo(
                f"{SCHEME}conversations",
                "Conversations",
                f"The {LISTED_CONVERSATIONS} most recent conversations with their channel, message count and "
                "time span.",
                "application/json",
            ),
            ResourceInfo(
                f"{SCHEME}replay",
                "Recall replay",
                f"How well the agent's own recall served the {REPLAY_TURNS} most recent user turns: hit rate, "
                "misses by cause and the what-if strategies compared (needed messages are an estimate from "
                "shared rare words).",
                "application/json",
            ),
            ResourceInfo(
                f"{SCHEME}health",
                "Memory health",
                "The doctor's findings in every layer (facts, skills, notes, indexes, calendar, file), each "
                "with its severity, targets, measurement and the fix it offers, and a summary per layer.",
                "application/json",
            ),
        ]
        for ns, count in FactStore(self.db).list_namespaces():
            out.append(
                ResourceInfo(
                    _facts_uri(ns),
                    f"Facts: {ns}",
                    f"The {count} active fact{'s' if count != 1 else ''} of namespace {ns}.",
                    "application/json",
                )
            )
        return out

    def resource_templates(self) -> list[ResourceInfo]:
        return [
            ResourceInfo(
                f"{SCHEME}facts/{{namespace}}",
                "Facts of a namespace",
                "The active facts of one namespace (exactly this namespace), each with its decay score now.",
                "application/json",
            ),
            ResourceInfo(
                f"{SCHEME}skills/{{name}}",
                "Skill",
                "One skill: its action template, maturity with why and what would move it, and revisions.",
                "application/json",
            ),
            ResourceInfo(
                f"{SCHEME}conversations/{{conversation}}",
                "Recent messages of a conversation",
                f"The {RECENT_MESSAGES} most recent messages of one conversation (where they came from: a "
                "web-ui:, wechat:, telegram: or system: origin, an older session, or global for unknown "
                "origin), oldest first.",
                "application/json",
            ),
        ]

    def read_resource(self, uri: str) -> tuple[str, str]:
        """``(text, mime_type)`` of a resource; :class:`NotFoundError` / :class:`ValidationError_` with a
        code (``mcp.resource_not_found``, ``mcp.bad_uri``) otherwise."""
        if not isinstance(uri, str) or not uri.startswith(SCHEME):
            raise ValidationError_(
                f"Unknown resource {uri!r}: the resources of this server start with {SCHEME}.",
                code="mcp.bad_uri",
                params={"uri": str(uri)},
            )
        path = uri[len(SCHEME) :]
        kind, _, rest = path.partition("/")
        readers: dict[str, Callable[[str], tuple[str, str]]] = {
            "prefix": self._read_prefix,
            "facts": self._read_facts,
            "skills": self._read_skills,
            "conversations": self._read_conversations,
            "replay": self._read_replay,
            "health": self._read_health,
        }
        reader = readers.get(kind)
        if reader is None or (kind in ("prefix", "replay", "health") and rest):
            raise NotFoundError(f"No resource {uri}.", code="mcp.resource_not_found", params={"uri": uri})
        name = _unquote_name(uri, rest)
        self.check_file()
        return reader(name)

    def _read_prefix(self, _: str) -> tuple[str, str]:
        from core.prefix import build_memory_prefix

        return build_memory_prefix(self.db, now=self.now()).text, "text/plain"

    def _read_facts(self, namespace: str) -> tuple[str, str]:
        from core.facts import FactStore
        from core.shapes import fact_json

        store = FactStore(self.db)
        if not namespace:
            rows = [{"namespace": ns, "count": n, "uri": _facts_uri(ns)} for ns, n in store.list_namespaces()]
            return _dumps({"namespaces": rows}), "application/json"
        now = self.now()
        facts = [fact_json(f, now) for f in store.list_facts(namespace)]
        return _dumps({"now": now, "namespace": namespace, "facts": facts}), "application/json"

    def _read_skills(self, name: str) -> tuple[str, str]:
        from core.maturity import explain_maturity, maturity_caveat
        from core.shapes import skill_json
        from core.skills import SkillStore

        store = SkillStore(self.db)
        now = self.now()
        if not name:
            rows = [
                {"name": s.name, "maturity": s.maturity, "kind": s.kind, "uri": _skill_uri(s.name)}
                for s in store.list_every()
            ]
            return _dumps({"skills": rows}), "application/json"
        skill = store.get_by_name(name)
        if skill is None:
            raise NotFoundError(f"No skill {name!r}.", code="mcp.skill_not_found", params={"name": name})
        why = explain_maturity(
            skill.maturity, skill.success_count, skill.failure_count, skill.consecutive_failures
        )
        out = skill_json(skill, now)
        out["actionTemplate"] = skill.action_template
        out["maturityExplained"] = {
            "caveat": maturity_caveat(skill.maturity),
            "why": why.why,
            "next": why.next,
        }
        out["revisions"] = [r.to_json() for r in skill.revision_history]
        return _dumps({"now": now, "skill": out}), "application/json"

    def _read_conversations(self, conversation_id: str) -> tuple[str, str]:
        from core.conversations import list_conversations
        from core.timeline import RawStore

        convs = list_conversations(self.db)  # newest first
        if not conversation_id:
            rows = [{**c.to_json(), "uri": _conversation_uri(c.id)} for c in convs[:LISTED_CONVERSATIONS]]
            return _dumps({"conversations": rows}), "application/json"
        conv = next((c for c in convs if c.id == conversation_id), None)
        if conv is None:
            raise NotFoundError(
                f"No conversation {conversation_id!r}.",
                code="mcp.conversation_not_found",
                params={"conversation": conversation_id},
            )
        messages = RawStore(self.db).query_timeline("desc", RECENT_MESSAGES, conversations=[conversation_id])
        body = {"conversation": conv.to_json(), "messages": [m.to_json() for m in reversed(messages)]}
        return _dumps(body), "application/json"

    def _read_replay(self, _: str) -> tuple[str, str]:
        from core.replay import ReplayOptions, replay

        result = replay(self.db, ReplayOptions(limit=REPLAY_TURNS))
        return _dumps({"lastTurns": REPLAY_TURNS, "summary": result.summary()}), "application/json"

    def _read_health(self, _: str) -> tuple[str, str]:
        from core.health import run_checks

        now = self.now()
        return _dumps({"now": now, **run_checks(self.db, now_ms=now).to_json()}), "application/json"

    # -- prompts -----------------------------------------------------------------------------------
    def prompts(self) -> list[PromptInfo]:
        return [
            PromptInfo(
                RECALL_PROMPT,
                "Recall what we discussed about …",
                "Recall what we discussed about a topic: the question hits the recall trigger, so "
                f"recall_sessions runs as the trigger demands (query = the topic, limit {RECALL_LIMIT}) and the "
                "sessions found come with the question.",
                [("topic", "What to recall: the key nouns, e.g. 'database migration'", True)],
            )
        ]

    def get_prompt(self, name: str, arguments: dict[str, Any] | None) -> tuple[str, str]:
        """``(description, user message text)`` of a prompt."""
        from core import recall_trigger
        from core.tools import run_tool

        if name != RECALL_PROMPT:
            raise NotFoundError(
                f"No prompt {name!r}.", code="mcp.prompt_not_found", params={"name": str(name)}
            )
        self.check_file()
        topic = (arguments or {}).get("topic")
        if not isinstance(topic, str) or not topic.strip():
            raise ValidationError_(
                "The recall prompt needs a topic.",
                code="mcp.prompt_argument_missing",
                params={"argument": "topic"},
            )
        topic = topic.strip()
        question = f"Recall what we discussed about {topic}."
        hit = recall_trigger.detect(question)
        lines = [question]
        if hit is not None:  # the trigger demands recall_sessions with the message's key nouns, limit 5
            args = {"query": topic, "limit": RECALL_LIMIT}
            result = run_tool(self.db, "recall_sessions", args, now=self.now())
            found = result.output if result.success else result.error
            lines += [
                "",
                f"Past sessions found by recall_sessions({json.dumps(args, ensure_ascii=False)}):",
                found or "",
                "",
                "Answer from these sessions. If they do not cover it, say so, or call recall_sessions again "
                "with other key words.",
            ]
        return self.prompts()[0].description, "\n".join(lines)


def _unquote_name(uri: str, quoted: str) -> str:
    """The name in a resource URI: percent-decoded as UTF-8; a ``%`` without two hex digits after it, or
    bytes that are not UTF-8, is a bad URI (never a lookup of something else)."""
    bad = _BAD_PERCENT.search(quoted)
    name = None
    if bad is None:
        try:
            name = unquote(quoted, errors="strict")
        except UnicodeDecodeError:
            name = None
    if name is None:
        raise ValidationError_(
            f"Bad resource URI {uri!r}: the name is not percent-encoded UTF-8 (encode each byte as %XX, "
            "a % itself as %25).",
            code="mcp.bad_uri",
            params={"uri": uri},
        )
    return name


def _facts_uri(namespace: str) -> str:
    return f"{SCHEME}facts/{quote(namespace, safe='')}"


def _skill_uri(name: str) -> str:
    return f"{SCHEME}skills/{quote(name, safe='')}"


def _conversation_uri(conversation_id: str) -> str:
    return f"{SCHEME}conversations/{quote(conversation_id, safe='')}"


def _from_result(result: dict[str, Any]) -> ToolCall:
    ok = bool(result.get("success"))
    text = result.get("output") if ok else result.get("error")
    return ToolCall(json_safe(result), "" if text is None else str(text), not ok)


def _refusal(message: str, code: str, params: dict[str, Any]) -> ToolCall:
    return ToolCall(
        {"success": False, "error": message, "code": code, "params": json_safe(dict(params))}, message, True
    )


def say(text: str) -> None:
    """One line of the server's own on stderr (stdout is the protocol's on stdio)."""
    sys.stderr.write(f"{SERVER_NAME}: {text}\n")
    sys.stderr.flush()
