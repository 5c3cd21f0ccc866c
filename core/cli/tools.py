"""The memory tools: ``tool`` (run one), ``mcp`` (serve them to MCP clients) and ``tools`` (list them)."""

from __future__ import annotations

import argparse

from core.cli.args import arg_text
from core.cli.command import Command, Ctx, with_write_flag
from core.cli.output import PROG, CommandError, UsageError, first_line
from core.errors import ValidationError_


def configure_tool(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", metavar="NAME")
    p.add_argument("args", metavar="JSON-ARGS", nargs="?", default="{}", type=arg_text)
    p.add_argument("--write", action="store_true", help="allow a write tool (opens the database writable)")


def run_tool(ctx: Ctx) -> int:
    from core.curation.tools import run_audited
    from core.tools import TOOL_NAMES, TOOLS

    a = ctx.args
    spec = TOOLS.get(a.name)
    if spec is None:
        raise UsageError(f"unknown tool {a.name!r} (known: {', '.join(TOOL_NAMES)})")
    if spec.capability == "write" and not a.write:
        raise UsageError(f"{a.name} writes to the memory; run it with --write")
    with ctx.open(writable=a.write) as db:
        result = run_audited(db, a.name, a.args, note=f"{PROG} tool {a.name}", now=ctx.now).result
    if ctx.out.as_json:
        ctx.out.json(result.to_json())
    elif result.success:
        ctx.out.text(result.output or "")
    if not result.success:
        raise CommandError(result.error or f"{a.name} failed")
    return 0


def configure_mcp(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--write", action="store_true", help="allow the writing tools (audited, undoable; backup first)"
    )
    p.add_argument(
        "--http", metavar="HOST:PORT", help="streamable HTTP instead of stdio (HOST defaults to 127.0.0.1)"
    )


def run_mcp(ctx: Ctx) -> int:
    from core.mcp_server import parse_http_address, serve

    a = ctx.args
    if a.http is not None:
        try:
            parse_http_address(a.http)
        except ValidationError_ as exc:
            raise UsageError(str(exc)) from None
    with ctx.open(writable=a.write) as db:
        return serve(db, write=a.write, http=a.http, now=ctx.now if a.now is not None else None)


def configure_tools(p: argparse.ArgumentParser) -> None:
    p.add_argument("--schema", action="store_true", help="every tool's JSON Schema in the function format")


def run_tools(ctx: Ctx) -> int:
    from core.tools import TOOLS, tool_schemas

    if ctx.args.schema:
        ctx.out.json(tool_schemas())
        return 0
    rows = [
        {"name": s.name, "description": s.description, "capability": s.capability} for s in TOOLS.values()
    ]
    if ctx.out.as_json:
        ctx.out.json(rows)
        return 0
    for r in rows:
        ctx.out.text(f"{r['name']:<22} {r['capability']:<6} {first_line(r['description'], 80)}")
    return 0


COMMANDS = (
    Command(
        "tool",
        "run one of the 11 memory tools with a JSON argument object",
        run_tool,
        configure_tool,
        writes=with_write_flag,
    ),
    # The server takes --now for its answers; its write tools record the current time.
    Command(
        "mcp", "serve the memory to MCP clients (stdio; read-only unless --write)", run_mcp, configure_mcp
    ),
    Command("tools", "list the memory tools", run_tools, configure_tools),
)
