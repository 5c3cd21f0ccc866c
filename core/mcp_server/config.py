"""What a client's configuration looks like (README, the desktop app's Help)."""

from __future__ import annotations

import json

from core.mcp_server.service import SERVER_NAME


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
