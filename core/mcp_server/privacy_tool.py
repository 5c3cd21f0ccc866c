"""The MCP tool ``privacy_scan``: the privacy scan (:func:`core.privacy.scan`), read-only, answering
masked findings only (the ``privacy scan --json`` shape as ``data``, its plain lines as ``output``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.errors import ValidationError_
from core.visible import visible

if TYPE_CHECKING:
    from core.db import MemoryDB

NAME = "privacy_scan"
DESCRIPTION = (
    "Find secrets (API keys, tokens, private keys, passwords), personal data (e-mail addresses, phone, ID, "
    "card and IBAN numbers) and planted instructions in every layer of the memory, and with "
    "include_backups in every backup. Read-only. Each finding has its place and a masked preview, never "
    "the value itself; findings the person allowed are counted, not listed."
)


def entry() -> dict[str, Any]:
    """``{name, description, inputSchema, capability}`` as :meth:`MemoryService.tools` lists tools."""
    from core.privacy import LAYERS

    schema = {
        "type": "object",
        "properties": {
            "include_backups": {
                "type": "boolean",
                "default": False,
                "description": "Scan every backup in the backups/ folder too.",
            },
            "layers": {
                "type": "array",
                "items": {"type": "string", "enum": list(LAYERS)},
                "description": "Only these layers (default: all).",
            },
        },
        "additionalProperties": False,
    }
    return {"name": NAME, "description": DESCRIPTION, "inputSchema": schema, "capability": "read"}


def _arguments(arguments: Any) -> tuple[bool, list[str] | None]:
    from core.privacy import LAYERS

    args = {} if arguments is None else arguments
    if not isinstance(args, dict):
        raise _invalid("the arguments are an object")
    unknown = sorted(set(args) - {"include_backups", "layers"})
    if unknown:
        raise _invalid(f"unknown argument {unknown[0]!r}")
    include, layers = args.get("include_backups", False), args.get("layers")
    if not isinstance(include, bool):
        raise _invalid("include_backups is true or false")
    if layers is not None and not (isinstance(layers, list) and all(x in LAYERS for x in layers)):
        raise _invalid("layers is a list of " + ", ".join(LAYERS))
    return include, layers or None


def _invalid(detail: str) -> ValidationError_:
    return ValidationError_(
        f"Invalid arguments for {NAME}: {detail}",
        code="mcp.invalid_arguments",
        params={"tool": NAME, "detail": detail},
    )


def run(db: MemoryDB, arguments: Any) -> dict[str, Any]:
    """The tool's result ``{success, output, data}``; bad arguments raise ``mcp.invalid_arguments``."""
    from core.privacy import result_json, scan
    from core.privacy.report import scan_lines

    include, layers = _arguments(arguments)
    result = scan(db, include_backups=include, layers=layers)
    data = {"path": str(db.path), "include_backups": include, **result_json(result)}
    text = "\n".join(visible(line) for line in scan_lines(data))
    return {"success": True, "output": text, "data": data}
