"""The SDK binding: :func:`build_server` binds :class:`~core.mcp_server.service.MemoryService` to the SDK's
low-level ``Server``; :func:`serve` runs it on stdio or streamable HTTP. The SDK is imported only here,
inside the functions, when a server is built (``core`` imports without it)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from core import __version__
from core.errors import MemoryError_, NotFoundError, ValidationError_
from core.jsutil import json_safe
from core.mcp_server.http import parse_http_address, run_http
from core.mcp_server.service import (
    _INSTRUCTIONS,
    _LONE_SURROGATE,
    INSTALL_HINT,
    OUTPUT_SCHEMA,
    SERVER_NAME,
    McpUnavailableError,
    MemoryService,
    ResourceInfo,
    ToolCall,
    _wire,
    say,
)

if TYPE_CHECKING:
    from core.db import MemoryDB


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


class _Handlers:
    """The SDK's request handlers, answering from ``service`` (its calls run in a worker thread)."""

    def __init__(self, service: MemoryService):
        import mcp_types

        self.types: Any = mcp_types
        self.service = service
        self.tools = service.tools()
        self.schemas = {t["name"]: t["inputSchema"] for t in self.tools}

    async def in_thread(self, fn: Callable[..., Any], *args: Any) -> Any:
        import anyio.to_thread
        from mcp.shared.exceptions import MCPError

        try:
            return await anyio.to_thread.run_sync(fn, *args)
        except MemoryError_ as exc:
            raise _protocol_error(exc) from None
        except MCPError:
            raise
        except Exception as exc:
            raise MCPError(
                self.types.INTERNAL_ERROR,
                _wire(f"{type(exc).__name__}: {exc}"),
                {"code": "mcp.internal_error", "params": {"type": type(exc).__name__}},
            ) from None

    def tool_entry(self, t: dict[str, Any]) -> Any:
        types = self.types
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

    async def list_tools(self, ctx: Any, params: Any) -> Any:
        return self.types.ListToolsResult(tools=[self.tool_entry(t) for t in self.tools])

    async def call_tool(self, ctx: Any, params: Any) -> Any:
        import anyio.to_thread

        types = self.types
        r: ToolCall = await anyio.to_thread.run_sync(
            self.service.call_tool, params.name, params.arguments, _client_name(ctx)
        )
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=_wire(r.text))],
            structured_content=_wire(r.structured),
            is_error=r.is_error,
        )

    def resource_entry(self, r: ResourceInfo) -> Any:
        return self.types.Resource(
            uri=r.uri, name=_wire(r.name), description=_wire(r.description), mime_type=r.mime_type
        )

    async def list_resources(self, ctx: Any, params: Any) -> Any:
        found = await self.in_thread(self.service.resources)
        return self.types.ListResourcesResult(resources=[self.resource_entry(r) for r in found])

    async def list_templates(self, ctx: Any, params: Any) -> Any:
        types = self.types
        return types.ListResourceTemplatesResult(
            resource_templates=[
                types.ResourceTemplate(
                    uri_template=r.uri, name=r.name, description=r.description, mime_type=r.mime_type
                )
                for r in self.service.resource_templates()
            ]
        )

    async def read_resource(self, ctx: Any, params: Any) -> Any:
        uri = str(params.uri)
        text, mime = await self.in_thread(self.service.read_resource, uri)
        return self.types.ReadResourceResult(
            contents=[self.types.TextResourceContents(uri=uri, mime_type=mime, text=_wire(text))]
        )

    async def list_prompts(self, ctx: Any, params: Any) -> Any:
        types = self.types
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
                for p in self.service.prompts()
            ]
        )

    async def get_prompt(self, ctx: Any, params: Any) -> Any:
        types = self.types
        description, text = await self.in_thread(self.service.get_prompt, params.name, params.arguments)
        content = types.TextContent(type="text", text=_wire(text))
        return types.GetPromptResult(
            description=description, messages=[types.PromptMessage(role="user", content=content)]
        )


def build_server(service: MemoryService) -> Any:
    """The SDK's low-level ``Server`` answering from ``service``."""
    _require_sdk()
    from mcp.server.lowlevel import Server

    h = _Handlers(service)
    return Server(
        SERVER_NAME,
        version=__version__,
        instructions=_INSTRUCTIONS,
        get_tool_input_schema=h.schemas.get,
        on_list_tools=h.list_tools,
        on_call_tool=h.call_tool,
        on_list_resources=h.list_resources,
        on_list_resource_templates=h.list_templates,
        on_read_resource=h.read_resource,
        on_list_prompts=h.list_prompts,
        on_get_prompt=h.get_prompt,
    )


def serve(db: MemoryDB, *, write: bool, http: str | None = None, now: int | None = None) -> int:
    """Serve ``db`` over stdio (``http`` None) or streamable HTTP at ``http`` until the client or a
    signal ends it; returns the exit status."""
    _require_sdk()
    service = MemoryService(db, write=write, now=now)
    server = build_server(service)
    mode = "read and write (audited)" if write else "read-only"
    if http is None:
        say(f"MCP server on stdio, {db.path}, {mode}")
        import anyio

        anyio.run(_run_stdio, server)
        return 0
    host, port = parse_http_address(http)
    return run_http(server, host, port, f"{db.path}, {mode}", write)


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
