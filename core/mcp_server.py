"""``philont-memory mcp``: the memory as a Model Context Protocol server, on the official ``mcp`` SDK.

What a client gets (the protocol itself is the SDK's; this module only answers):

* **Tools**: the agent's eleven memory tools, with the names, descriptions and JSON Schemas of
  ``philont-memory tools --schema`` (one source: :mod:`core.tool_params`), plus ``preview_context``
  (:func:`core.context.build_context`). A call returns exactly what the dispatcher returns: the
  structured content is ``{success, output?, error?, data?}`` (``philont-memory tool --json``), the
  text content is ``output`` (or ``error``, with ``isError``), the very string the agent would see.
  Without ``--write`` the database is opened read-only: the four writing tools are refused with a clear
  message and ``get_fact``/``use_skill`` answer without their access bumps, as ``tool`` does without
  ``--write``. With ``--write`` a writing tool runs as ``tool --write`` runs it (a backup before the
  first write, one short ``BEGIN IMMEDIATE`` transaction) and is audited (``facts.store_fact``,
  ``calendar.<tool>``; actor
  ``<user>@philont-memory-mcp``, the client named in the note), so the desktop app can undo it.
* **Resources**: the memory prefix the agent would be given now (``memory://prefix``), facts by
  namespace (``memory://facts/{namespace}``), a skill with its maturity and revisions
  (``memory://skills/{name}``), the recent messages of a conversation
  (``memory://conversations/{conversation}``, a conversation of :mod:`core.conversations`), and an
  index of each (``memory://facts``, ``memory://skills``, ``memory://conversations``). Names are
  percent-encoded in URIs.
* **Prompts**: ``recall``, "recall what we discussed about TOPIC": the question hits the recall
  trigger, so the server runs ``recall_sessions`` as the trigger's instruction demands (query = the
  topic, limit 5) and hands the sessions found to the model with the question.

Nothing a client sends can stop the server: a tool's failure is a tool result with ``isError`` and
``{success: false, error, code?, params?}`` (``code`` and ``params`` are present when the refusal comes
from the server rather than the tool: ``mcp.read_only``, ``mcp.invalid_arguments``,
``mcp.internal_error``, ``mcp.file_changed``, or a core error's code); a bad resource URI or prompt is a
protocol error whose ``data`` is ``{code, params}``; a stdio line the SDK cannot read (not JSON, nested
too deeply, a lone surrogate) is answered with a JSON-RPC error. Half a character read from memory (a
lone surrogate in a stored JSON value) is escaped in the JSON text of resources and sent as U+FFFD
elsewhere, so one stored value never costs the answer.

Once the path no longer names the file the server opened (replaced, deleted or emptied on disk,
:meth:`core.db.MemoryDB.file_change`), every tool, resource and prompt is refused (``mcp.file_changed``).
Over HTTP a request is answered only when its ``Host`` (and ``Origin``) name this server
(:class:`HostCheck`), on every address.

:class:`MemoryService` is the SDK-free part (plain Python, tested directly); :func:`build_server` binds
it to the SDK's low-level ``Server``; :func:`serve` runs it on stdio or streamable HTTP. The SDK is an
optional dependency (``pip install 'philont-desktop[mcp]'``): this module imports it only when a server
is built, so ``core`` imports without it.
"""

from __future__ import annotations

import getpass
import json
import os
import re
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote

from core import __version__
from core.errors import MemoryError_, NotFoundError, ValidationError_
from core.jsutil import from_utf16_view, json_safe, now_ms

if TYPE_CHECKING:
    from core.db import MemoryDB

__all__ = [
    "DEFAULT_HTTP_HOST",
    "OUTPUT_SCHEMA",
    "PREVIEW_TOOL",
    "RECALL_PROMPT",
    "SERVER_NAME",
    "FileChangedError",
    "HostCheck",
    "McpUnavailableError",
    "MemoryService",
    "ToolCall",
    "build_server",
    "client_config",
    "command_line",
    "exposure_warning",
    "parse_http_address",
    "serve",
]

SERVER_NAME = "philont-memory"
PREVIEW_TOOL = "preview_context"
RECALL_PROMPT = "recall"
RECALL_LIMIT = 5  # what the recall trigger's instruction asks for (limit=5)
RECENT_MESSAGES = 50
LISTED_CONVERSATIONS = 100
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


# --------------------------------------------------------------------------------------------------
# The service: what the server answers, without the SDK
# --------------------------------------------------------------------------------------------------


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
        """``[{name, description, inputSchema, capability}]``: the eleven tools, then the preview."""
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
        }
        reader = readers.get(kind)
        if reader is None or (kind == "prefix" and rest):
            raise NotFoundError(f"No resource {uri}.", code="mcp.resource_not_found", params={"uri": uri})
        name = _unquote_name(uri, rest)
        self.check_file()
        return reader(name)

    def _read_prefix(self, _: str) -> tuple[str, str]:
        from core.prefix import build_memory_prefix

        return build_memory_prefix(self.db, now=self.now()).text, "text/plain"

    def _read_facts(self, namespace: str) -> tuple[str, str]:
        from core.shapes import fact_json
        from core.facts import FactStore

        store = FactStore(self.db)
        if not namespace:
            rows = [{"namespace": ns, "count": n, "uri": _facts_uri(ns)} for ns, n in store.list_namespaces()]
            return _dumps({"namespaces": rows}), "application/json"
        now = self.now()
        facts = [fact_json(f, now) for f in store.list_facts(namespace)]
        return _dumps({"now": now, "namespace": namespace, "facts": facts}), "application/json"

    def _read_skills(self, name: str) -> tuple[str, str]:
        from core.shapes import skill_json
        from core.maturity import explain_maturity, maturity_caveat
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


# --------------------------------------------------------------------------------------------------
# The SDK binding
# --------------------------------------------------------------------------------------------------


def _require_sdk() -> None:
    try:
        import mcp
        import mcp.server.lowlevel  # noqa: F401
    except ImportError as exc:
        raise McpUnavailableError(
            f"The MCP server needs the mcp package, which is not installed ({exc}). Install it with: "
            f"{INSTALL_HINT}",
            params={"install": INSTALL_HINT, "detail": str(exc)},
        ) from None


def _protocol_error(exc: MemoryError_) -> Exception:
    import mcp_types as types
    from mcp.shared.exceptions import MCPError

    code = types.INVALID_PARAMS if isinstance(exc, NotFoundError | ValidationError_) else types.INTERNAL_ERROR
    return MCPError(code, _wire(str(exc)), {"code": exc.code, "params": _wire(json_safe(exc.params))})


def _client_name(ctx: Any) -> str | None:
    try:
        info = ctx.session.client_params.client_info
        return f"{info.name} {info.version}".strip() if info is not None else None
    except AttributeError:
        return None


def build_server(service: MemoryService) -> Any:
    """The SDK's low-level ``Server`` answering from ``service``."""
    _require_sdk()
    import anyio.to_thread
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.shared.exceptions import MCPError

    tools = service.tools()
    schemas = {t["name"]: t["inputSchema"] for t in tools}

    async def in_thread(fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return await anyio.to_thread.run_sync(fn, *args)
        except MemoryError_ as exc:
            raise _protocol_error(exc) from None
        except MCPError:
            raise
        except Exception as exc:
            raise MCPError(
                types.INTERNAL_ERROR,
                _wire(f"{type(exc).__name__}: {exc}"),
                {"code": "mcp.internal_error", "params": {"type": type(exc).__name__}},
            ) from None

    def tool_entry(t: dict[str, Any]) -> Any:
        read = t["capability"] == "read"
        return types.Tool(
            name=t["name"],
            description=t["description"],
            input_schema=t["inputSchema"],
            output_schema=OUTPUT_SCHEMA,
            annotations=types.ToolAnnotations(
                read_only_hint=read,
                destructive_hint=t["name"] == "cancel_schedule",
                open_world_hint=False,
            ),
        )

    async def list_tools(ctx: Any, params: Any) -> Any:
        return types.ListToolsResult(tools=[tool_entry(t) for t in tools])

    async def call_tool(ctx: Any, params: Any) -> Any:
        r: ToolCall = await anyio.to_thread.run_sync(
            service.call_tool, params.name, params.arguments, _client_name(ctx)
        )
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=_wire(r.text))],
            structured_content=_wire(r.structured),
            is_error=r.is_error,
        )

    def resource_entry(r: ResourceInfo) -> Any:
        return types.Resource(
            uri=r.uri, name=_wire(r.name), description=_wire(r.description), mime_type=r.mime_type
        )

    async def list_resources(ctx: Any, params: Any) -> Any:
        found = await in_thread(service.resources)
        return types.ListResourcesResult(resources=[resource_entry(r) for r in found])

    async def list_templates(ctx: Any, params: Any) -> Any:
        return types.ListResourceTemplatesResult(
            resource_templates=[
                types.ResourceTemplate(
                    uri_template=r.uri, name=r.name, description=r.description, mime_type=r.mime_type
                )
                for r in service.resource_templates()
            ]
        )

    async def read_resource(ctx: Any, params: Any) -> Any:
        uri = str(params.uri)
        text, mime = await in_thread(service.read_resource, uri)
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=uri, mime_type=mime, text=_wire(text))]
        )

    async def list_prompts(ctx: Any, params: Any) -> Any:
        return types.ListPromptsResult(
            prompts=[
                types.Prompt(
                    name=p.name,
                    title=p.title,
                    description=p.description,
                    arguments=[
                        types.PromptArgument(name=n, description=d, required=req) for n, d, req in p.arguments
                    ],
                )
                for p in service.prompts()
            ]
        )

    async def get_prompt(ctx: Any, params: Any) -> Any:
        description, text = await in_thread(service.get_prompt, params.name, params.arguments)
        content = types.TextContent(type="text", text=_wire(text))
        return types.GetPromptResult(
            description=description, messages=[types.PromptMessage(role="user", content=content)]
        )

    return Server(
        SERVER_NAME,
        version=__version__,
        instructions=_INSTRUCTIONS,
        get_tool_input_schema=schemas.get,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
    )


# --------------------------------------------------------------------------------------------------
# Running it
# --------------------------------------------------------------------------------------------------


def parse_http_address(text: str) -> tuple[str, int]:
    """``HOST:PORT``, ``[v6]:PORT`` or ``PORT`` (host 127.0.0.1); port 0 picks a free one."""
    t = text.strip()
    host, port_text = DEFAULT_HTTP_HOST, t
    if t.startswith("["):
        close = t.find("]")
        if close < 0 or not t[close + 1 :].startswith(":"):
            raise ValidationError_(
                f"Not an address: {text!r} (expected HOST:PORT).",
                code="mcp.bad_address",
                params={"address": text},
            )
        host, port_text = t[1:close], t[close + 2 :]
    elif ":" in t:
        host, _, port_text = t.rpartition(":")
    if not host or not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise ValidationError_(
            f"Not an address: {text!r} (expected HOST:PORT, a port from 0 to 65535).",
            code="mcp.bad_address",
            params={"address": text},
        )
    return host, int(port_text)


def _numeric_ip(name: str) -> Any:
    """The IP address a literal spells (``127.1`` is 127.0.0.1; never a name looked up), else ``None``."""
    import ipaddress

    try:
        found = socket.getaddrinfo(name, None, flags=socket.AI_NUMERICHOST)
        return ipaddress.ip_address(str(found[0][4][0]).partition("%")[0])
    except (OSError, ValueError, UnicodeError, IndexError):
        return None


def _split_host(text: str) -> tuple[str, int] | None:
    """``(name, port)`` of a Host header (``name``, ``name:port``, ``[v6]:port``; port 80 when absent)."""
    t = text.strip()
    if t.startswith("["):
        name, close, rest = t[1:].partition("]")
        if not close or (rest and not rest.startswith(":")):
            return None
        port = rest[1:] if rest else "80"
    elif t.count(":") > 1:
        return None
    else:
        name, colon, port = t.partition(":")
        port = port if colon else "80"
    if not name or not port.isdigit() or len(port) > 5:
        return None
    return name.lower(), int(port)


class HostCheck:
    """Which HTTP requests the server answers: the Host header names this server with its port (the
    address it is bound to, ``localhost`` or the host name it was started with; bound to every address,
    any address of this computer or ``localhost``), and an ``Origin``, when a browser sends one, is
    ``http://`` such a host. A web page that reaches the server through DNS rebinding sends its own name
    in both, so it is refused on every address."""

    def __init__(self, address: str, port: int, given: str = ""):
        bound = _numeric_ip(address)
        if bound is None:
            raise ValueError(f"not an IP address: {address!r}")
        self.address = bound
        self.port = port
        self.every = bool(bound.is_unspecified)
        self.names = {"localhost"} | ({given.lower()} if given and _numeric_ip(given) is None else set())
        self._own: dict[Any, bool] = {}

    def described(self) -> str:
        if self.every:
            return f"an address of this computer or localhost, port {self.port}"
        shown = f"[{self.address}]" if self.address.version == 6 else str(self.address)
        names = [f"{n}:{self.port}" for n in sorted(self.names)]
        return " or ".join([f"{shown}:{self.port}", *names])

    def host_ok(self, header: str) -> bool:
        split = _split_host(header)
        if split is None or split[1] != self.port:
            return False
        if split[0] in self.names:
            return True
        ip = _numeric_ip(split[0])
        if ip is None:
            return False
        if self.every:
            return not ip.is_unspecified and self._is_own(ip)
        return bool(ip == self.address)

    def origin_ok(self, header: str) -> bool:
        scheme, sep, rest = header.strip().partition("://")
        return bool(sep) and scheme.lower() == "http" and "/" not in rest and self.host_ok(rest)

    def refusal(self, hosts: list[str], origins: list[str]) -> tuple[int, str] | None:
        """``(status, text)`` refusing a request with these Host and Origin headers, else ``None``."""
        if len(hosts) != 1 or not self.host_ok(hosts[0]):
            shown = hosts[0][:100] if len(hosts) == 1 else f"{len(hosts)} Host headers"
            return 421, (
                f"Refused: the Host header ({shown!r}) does not name this server ({self.described()}). A web "
                "page reaching a server on this computer through DNS rebinding sends its own name there."
            )
        if len(origins) > 1 or (origins and not self.origin_ok(origins[0])):
            shown = origins[0][:100] if len(origins) == 1 else f"{len(origins)} Origin headers"
            return 403, f"Refused: the request comes from a web page ({shown!r}), not from this server."
        return None

    def _is_own(self, ip: Any) -> bool:
        """Whether ``ip`` is an address of this computer: one a socket can be bound to."""
        if ip.is_loopback:
            return True
        if ip not in self._own:
            family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
            try:
                with socket.socket(family, socket.SOCK_STREAM) as probe:
                    probe.bind((str(ip), 0))
                self._own[ip] = True
            except OSError:
                self._own[ip] = False
        return self._own[ip]


class _HostGuard:
    """ASGI middleware answering only the requests :class:`HostCheck` accepts."""

    def __init__(self, app: Any, check: HostCheck):
        self.app = app
        self.check = check

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope.get("type") == "http":
            headers = [(k.lower(), v.decode("latin-1")) for k, v in scope.get("headers", [])]
            refusal = self.check.refusal(
                [v for k, v in headers if k == b"host"], [v for k, v in headers if k == b"origin"]
            )
            if refusal is not None:
                from starlette.responses import PlainTextResponse

                await PlainTextResponse(refusal[1], status_code=refusal[0])(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _say(text: str) -> None:
    sys.stderr.write(f"{SERVER_NAME}: {text}\n")
    sys.stderr.flush()


def serve(db: MemoryDB, *, write: bool, http: str | None = None, now: int | None = None) -> int:
    """Serve ``db`` over stdio (``http`` None) or streamable HTTP at ``http`` until the client or a
    signal ends it; returns the exit status."""
    _require_sdk()
    service = MemoryService(db, write=write, now=now)
    server = build_server(service)
    mode = "read and write (audited)" if write else "read-only"
    if http is None:
        _say(f"MCP server on stdio, {db.path}, {mode}")
        import anyio

        anyio.run(_run_stdio, server)
        return 0
    host, port = parse_http_address(http)
    return _run_http(server, host, port, f"{db.path}, {mode}", write)


async def _run_stdio(server: Any) -> None:
    """The SDK's stdio transport, with a line it cannot read answered by a JSON-RPC error (the SDK drops
    it, leaving the client waiting for ever)."""
    import anyio
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read_stream, write_stream):
        send, receive = anyio.create_memory_object_stream[Any](0)
        async with anyio.create_task_group() as tg:
            tg.start_soon(_forward_readable, read_stream, send, write_stream)
            await server.run(receive, write_stream, server.create_initialization_options())
            tg.cancel_scope.cancel()


async def _forward_readable(source: Any, sink: Any, reply: Any) -> None:
    """Pass each message read on to the server; answer each line that could not be read."""
    import anyio
    from mcp.shared.message import SessionMessage

    try:
        async with sink:
            async for item in source:
                if isinstance(item, Exception):
                    await reply.send(SessionMessage(_unreadable_answer(item)))
                else:
                    await sink.send(item)
    except (anyio.ClosedResourceError, anyio.BrokenResourceError):
        return


def _unreadable_answer(exc: Exception) -> Any:
    """The JSON-RPC error answering a line the SDK could not read (``exc``, its validation error):
    ``-32700`` for what its JSON parser refuses (not JSON, nested too deeply, a lone surrogate, which it
    cannot hold), ``-32600`` for JSON that is no JSON-RPC message. The id is the message's own where it
    can be read, else ``null``; ``data`` is ``{code, params}`` as for every other protocol error."""
    import mcp_types as types
    from pydantic import ValidationError

    errors = exc.errors() if isinstance(exc, ValidationError) else []
    parse = not errors or any(e.get("type") == "json_invalid" for e in errors)
    found: Any = None
    for e in errors:
        if e.get("type") not in ("json_invalid", "missing") or len(e.get("loc", ())) > 2:
            continue  # a missing field's error holds the whole message, not a part of it
        value = e.get("input")
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except (ValueError, RecursionError):
                value = None
        if isinstance(value, dict) and "id" in value:
            found = value
            break
    detail = str(errors[0].get("msg")) if errors else f"{type(exc).__name__}: {exc}"
    if found is not None and parse and _holds_lone_surrogate(found):
        detail = (
            "it holds a lone surrogate (a \\uD800-\\uDFFF escape without its other half), not Unicode text"
        )
    rid = found.get("id") if found is not None else None
    if isinstance(rid, bool) or not isinstance(rid, int | str) or _LONE_SURROGATE.search(str(rid)):
        rid = None
    code, kind = (types.PARSE_ERROR, "parse_error") if parse else (types.INVALID_REQUEST, "invalid_request")
    message = f"{'Parse error' if parse else 'Invalid request'}: {_wire(detail)}"
    data = {"code": f"mcp.{kind}", "params": {"detail": _wire(detail)}}
    return types.JSONRPCError(
        jsonrpc="2.0", id=rid, error=types.ErrorData(code=code, message=message, data=data)
    )


def _holds_lone_surrogate(value: Any) -> bool:
    try:
        return _LONE_SURROGATE.search(json.dumps(value, ensure_ascii=False)) is not None
    except (ValueError, RecursionError):
        return False


def _run_http(server: Any, host: str, port: int, what: str, write: bool) -> int:
    import asyncio

    import uvicorn

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(socket.SOMAXCONN)  # a client may connect as soon as the address is printed
    except OSError:
        sock.close()
        raise
    address, bound = sock.getsockname()[:2]
    check = HostCheck(address, bound, host)
    # Host and Origin are checked in front of the app on every address (the SDK checks them only for
    # 127.0.0.1, localhost and ::1, with any port).
    from mcp.server.transport_security import TransportSecuritySettings

    app = server.streamable_http_app(
        host=host,
        streamable_http_path=HTTP_PATH,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    config = uvicorn.Config(_HostGuard(app, check), log_level="warning", lifespan="on")
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    warning = exposure_warning(check, host, write)
    if warning is not None:
        _say(warning)
    _say(f"MCP server on http://{shown}:{bound}{HTTP_PATH}, {what}")
    asyncio.run(uvicorn.Server(config).serve(sockets=[sock]))
    return 0


def exposure_warning(check: HostCheck, host: str, write: bool) -> str | None:
    """The warning for a server that is not on a loopback address: who can reach it, what is refused
    and what that does not stop (``None`` on a loopback address)."""
    if check.address.is_loopback:
        return None
    what = "read the memory" + (" and change it" if write else "")
    where = "on every address of this computer" if check.every else f"on {host}, not only this computer"
    return (
        f"warning: listening {where}: any computer that can reach it can {what}, with no password. Only "
        f"requests naming {check.described()} in Host (and Origin) are answered: that keeps web pages "
        "from reaching it through DNS rebinding, not other computers or programs."
    )


# --------------------------------------------------------------------------------------------------
# What a client's configuration looks like (README, the desktop app's Help)
# --------------------------------------------------------------------------------------------------


def command_line(db_path: str | None, *, write: bool = False, http: str | None = None) -> list[str]:
    """The command that starts the server: ``philont-memory mcp [--db PATH] [--write] [--http A]``."""
    args = [SERVER_NAME, "mcp"]
    if db_path:
        args += ["--db", str(db_path)]
    if write:
        args.append("--write")
    if http:
        args += ["--http", http]
    return args


def client_config(db_path: str | None, *, write: bool = False) -> str:
    """The ``mcpServers`` entry most desktop clients read (JSON text, two-space indent)."""
    cmd = command_line(db_path, write=write)
    entry = {"mcpServers": {"philont-memory": {"command": cmd[0], "args": cmd[1:]}}}
    return json.dumps(entry, ensure_ascii=False, indent=2)
