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
  index of each (``memory://facts``, ``memory://skills``, ``memory://conversations``), and the recall
  replay's summary of the most recent user turns (``memory://replay``, :mod:`core.replay`; needed
  messages are an estimate), and the doctor's report (``memory://health``: ``{now, summary, findings}``,
  :func:`core.health.run_checks`). Names are percent-encoded in URIs.
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

:class:`MemoryService` (:mod:`.service`) is the SDK-free part (plain Python, tested directly);
:func:`build_server` (:mod:`.sdk`) binds it to the SDK's low-level ``Server``; :func:`serve` runs it on
stdio or streamable HTTP (:mod:`.http`); :mod:`.config` gives the command line and client configuration. The SDK is an
optional dependency (``pip install 'philont-desktop[mcp]'``): this module imports it only when a server
is built, so ``core`` imports without it.
"""

from core.mcp_server.config import client_config, command_line
from core.mcp_server.http import HostCheck, exposure_warning, parse_http_address
from core.mcp_server.sdk import build_server, serve
from core.mcp_server.service import (
    DEFAULT_HTTP_HOST,
    HTTP_PATH,
    INSTALL_HINT,
    LISTED_CONVERSATIONS,
    OUTPUT_SCHEMA,
    PREVIEW_TOOL,
    RECALL_LIMIT,
    RECALL_PROMPT,
    RECENT_MESSAGES,
    SCHEME,
    SERVER_NAME,
    FileChangedError,
    McpUnavailableError,
    MemoryService,
    PromptInfo,
    ResourceInfo,
    ToolCall,
    mcp_actor,
)

__all__ = [
    "DEFAULT_HTTP_HOST",
    "HTTP_PATH",
    "INSTALL_HINT",
    "LISTED_CONVERSATIONS",
    "OUTPUT_SCHEMA",
    "PREVIEW_TOOL",
    "RECALL_LIMIT",
    "RECALL_PROMPT",
    "RECENT_MESSAGES",
    "SCHEME",
    "SERVER_NAME",
    "FileChangedError",
    "HostCheck",
    "McpUnavailableError",
    "MemoryService",
    "PromptInfo",
    "ResourceInfo",
    "ToolCall",
    "build_server",
    "client_config",
    "command_line",
    "exposure_warning",
    "mcp_actor",
    "parse_http_address",
    "serve",
]
