"""The 11 memory tools of the reference agent (spec Part A §7, Part B §3/§7, Part C c-e).

Each tool has a pydantic parameter model and the reference's description (:mod:`core.tool_params`;
their JSON Schema is what an agent is shown, :func:`tool_schemas`, the function-calling format), a
capability (``read``/``write``) and a handler in this package, one module per tool group
(:mod:`core.tools.facts`, :mod:`~core.tools.skills`, :mod:`~core.tools.recall`,
:mod:`~core.tools.calendar`, :mod:`~core.tools.schedules`; what they share is in
:mod:`core.tools.result`); the registry and the dispatcher are here. ``store_fact``'s credential gates live in
:mod:`core.credentials`, the JavaScript value semantics in :mod:`core.jsutil`.
:func:`run_tool` is the one dispatcher: it parses the arguments (a dict or a JSON text), validates
them, refuses write tools on a database that cannot be written, runs the tool and returns a
:class:`ToolResult`. It never raises: bad JSON, an unknown tool, invalid arguments and every
exception of the stores become ``success=False`` with a message (store exceptions are rendered the
way the reference's ``String(e)`` renders them, e.g. ``Error: CalendarEvent: ...`` or
``SqliteError: datatype mismatch``).

Output strings follow the reference to the character. Argument handling keeps the reference's
JavaScript quirks where they are observable and cheap: ``fact_kind`` other than ``'event'`` gives a
state fact, invalid time fields of ``store_fact``/``recall_sessions`` become NULL silently,
``window_days`` and the ``limit`` of ``recall_sessions``/``search_skills``/``search_notes`` are
converted with JavaScript ``Number()`` semantics and clamped without rounding (``"2.50"`` is 2.5,
``true`` is 1, ``"abc"`` is NaN), and a non-integral SQL limit fails with ``SqliteError: datatype
mismatch`` exactly where the reference fails.

Project decisions (they differ from the reference on purpose, see the spec's "Decisions"):

* ``use_skill`` records usage only (``use_count``/``last_used_at``), never success. It refuses a
  ``playbook`` or ``deprecated`` skill with an error that says why, and a ``draft`` skill's output
  starts with the caveat line ``[draft · not fully validated, verify before use]`` followed by the
  normal output on the next line.
* ``store_fact`` refuses credential-shaped values (the newer reference's gate, Part B §7) besides
  the auth-header and auth-scheme checks.
* Write tools (``store_fact``, ``create_calendar_event``, ``schedule_reminder``, ``cancel_schedule``)
  refuse on a read-only database. Read tools never write there: ``get_fact`` skips its access bump and
  ``use_skill`` skips its usage record (``data`` then says so in ``usageRecorded``/``usageNote``).
* ``schedule_reminder`` runs in one transaction: when the new schedule cannot be created, the
  same-name tasks it would have replaced stay enabled.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from pydantic import BaseModel, ValidationError

from core.tool_params import (
    CANCEL_SCHEDULE_DESC,
    CREATE_EVENT_DESC,
    GET_FACT_DESC,
    LIST_FACTS_DESC,
    LIST_UPCOMING_DESC,
    RECALL_SESSIONS_DESC,
    SCHEDULE_REMINDER_DESC,
    SEARCH_NOTES_DESC,
    SEARCH_SKILLS_DESC,
    STORE_FACT_DESC,
    USE_SKILL_DESC,
    CancelScheduleParams,
    CreateCalendarEventParams,
    GetFactParams,
    ListFactsParams,
    ListUpcomingParams,
    RecallSessionsParams,
    ScheduleReminderParams,
    SearchNotesParams,
    SearchSkillsParams,
    StoreFactParams,
    UseSkillParams,
)
from core.tools import calendar, facts, recall, schedules, skills
from core.tools.facts import format_fact_times
from core.tools.result import Capability, Ctx, ToolResult, fail, is_writable, js_error_string
from core.tools.schedules import is_duplicate_routine, schedule_intent_text
from core.tools.skills import use_skill_refusal

if TYPE_CHECKING:
    from core.db import MemoryDB

__all__ = [
    "TOOLS",
    "TOOL_NAMES",
    "Capability",
    "ToolResult",
    "ToolSpec",
    "describe_validation_error",
    "format_fact_times",
    "is_duplicate_routine",
    "is_writable",
    "js_error_string",
    "parameters_schema",
    "run_tool",
    "schedule_intent_text",
    "tool_schemas",
    "unstorable_param",
    "use_skill_refusal",
]

# Registry, schemas, dispatcher
# ---------------------------------------------------------------------------------------------------


def parameters_schema(params: type[BaseModel], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """The JSON Schema of a parameter model as the reference declares one: ``{"type": "object",
    "required"?: [...], "properties": {...}}``, without pydantic's titles and defaults."""
    raw = params.model_json_schema()
    props: dict[str, Any] = {}
    for name, prop in raw.get("properties", {}).items():
        props[name] = {k: v for k, v in prop.items() if k not in ("title", "default")}
    schema: dict[str, Any] = {"type": "object"}
    if required:
        schema["required"] = list(required)
    schema["properties"] = props
    return schema


class ToolSpec(NamedTuple):
    """One memory tool: what the agent sees (name, description, schema) and what runs."""

    name: str
    description: str
    params: type[BaseModel]
    capability: Capability
    required: tuple[str, ...]
    handler: Callable[[Ctx, Any], ToolResult]
    domain: str = "self"

    def parameters_schema(self) -> dict[str, Any]:
        """The JSON Schema of the parameters, as the reference declares it (no titles or defaults)."""
        return parameters_schema(self.params, self.required)

    def function_schema(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters_schema(),
            },
        }


_SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "store_fact",
        STORE_FACT_DESC,
        StoreFactParams,
        "write",
        ("namespace", "key", "value"),
        facts.store_fact,
    ),
    ToolSpec("get_fact", GET_FACT_DESC, GetFactParams, "read", ("namespace", "key"), facts.get_fact),
    ToolSpec("list_facts", LIST_FACTS_DESC, ListFactsParams, "read", ("namespace",), facts.list_facts),
    ToolSpec("search_notes", SEARCH_NOTES_DESC, SearchNotesParams, "read", ("query",), recall.search_notes),
    ToolSpec(
        "search_skills", SEARCH_SKILLS_DESC, SearchSkillsParams, "read", ("query",), skills.search_skills
    ),
    ToolSpec("use_skill", USE_SKILL_DESC, UseSkillParams, "read", ("name",), skills.use_skill),
    ToolSpec(
        "create_calendar_event",
        CREATE_EVENT_DESC,
        CreateCalendarEventParams,
        "write",
        ("title", "starts_at", "timezone"),
        calendar.create_calendar_event,
    ),
    ToolSpec("list_upcoming", LIST_UPCOMING_DESC, ListUpcomingParams, "read", (), calendar.list_upcoming),
    ToolSpec(
        "schedule_reminder",
        SCHEDULE_REMINDER_DESC,
        ScheduleReminderParams,
        "write",
        ("name", "message"),
        schedules.schedule_reminder,
    ),
    ToolSpec(
        "cancel_schedule", CANCEL_SCHEDULE_DESC, CancelScheduleParams, "write", (), schedules.cancel_schedule
    ),
    ToolSpec(
        "recall_sessions",
        RECALL_SESSIONS_DESC,
        RecallSessionsParams,
        "read",
        ("query",),
        recall.recall_sessions,
    ),
)

#: The tools in the reference's creation order.
TOOLS: dict[str, ToolSpec] = {s.name: s for s in _SPECS}
TOOL_NAMES: tuple[str, ...] = tuple(TOOLS)


def tool_schemas() -> list[dict[str, Any]]:
    """Every tool in the function-calling format ``{"type":"function","function":{name, description,
    parameters}}``, in the reference's order."""
    return [s.function_schema() for s in _SPECS]


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def describe_validation_error(exc: ValidationError) -> str:
    """``loc: message; ...`` of a pydantic validation error (the input is never echoed)."""
    parts = []
    for e in exc.errors(include_url=False, include_input=False):
        loc = ".".join(str(x) for x in e.get("loc", ())) or "arguments"
        msg = str(e.get("msg", "invalid"))
        parts.append(f"{loc}: {msg}")
    return "; ".join(parts)


def run_tool(
    db: MemoryDB, name: str, args: dict[str, Any] | str | bytes | None = None, *, now: int | None = None
) -> ToolResult:
    """Run tool ``name`` with ``args`` (a dict, or its JSON text) on ``db``. Never raises."""
    try:
        spec = TOOLS.get(name) if isinstance(name, str) else None
        if spec is None:
            return fail(f"Unknown tool {name!r}. Known tools: {', '.join(TOOL_NAMES)}")
        if isinstance(args, bytes | bytearray):
            try:
                args = bytes(args).decode("utf-8")
            except UnicodeDecodeError as exc:
                return fail(f"Invalid arguments for {name}: not UTF-8 text ({exc})")
        if isinstance(args, str):
            if not args.strip():
                args = {}
            else:
                try:
                    args = json.loads(args, parse_constant=_reject_constant)
                except (ValueError, RecursionError) as exc:
                    return fail(f"Invalid JSON arguments for {name}: {exc}")
        if args is None:
            args = {}
        if not isinstance(args, dict):
            return fail(f"Invalid arguments for {name}: expected a JSON object, got {_json_type(args)}")
        try:
            params = spec.params.model_validate(args)
        except ValidationError as exc:
            return fail(f"Invalid arguments for {name}: {describe_validation_error(exc)}")
        if spec.capability == "write":
            bad = _unstorable_text(params, _STORED_AS_JSON.get(name, ()))
            if bad is not None:
                return fail(
                    f"Invalid arguments for {name}: {bad} holds text that is not valid Unicode (a lone "
                    "surrogate, e.g. from bytes that are not UTF-8); nothing was written."
                )
        if spec.capability == "write" and not is_writable(db):
            reason = getattr(db.report, "read_only_reason", None)
            why = f" ({reason})" if reason else ""
            return fail(
                f"{name} changes memory, and the database is open read-only{why}: nothing was written. "
                "Turn on editing to run write tools."
            )
        return spec.handler(Ctx(db, now), params)
    except Exception as exc:  # the dispatcher must never raise
        try:
            return fail(js_error_string(exc))
        except Exception:
            return fail(type(exc).__name__)


#: Write-tool parameters stored as JSON (where a lone surrogate is escaped, as JSON.stringify does).
_STORED_AS_JSON: dict[str, tuple[str, ...]] = {"store_fact": ("value",), "schedule_reminder": ("message",)}
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def unstorable_param(name: str, params: BaseModel) -> str | None:
    """The first parameter of write tool ``name`` that SQLite cannot store (a lone surrogate), or
    ``None``: such a call is refused before anything is written (:func:`run_tool` says so)."""
    return _unstorable_text(params, _STORED_AS_JSON.get(name, ()))


def _unstorable_text(params: BaseModel, exempt: tuple[str, ...]) -> str | None:
    """The first parameter whose text SQLite cannot store (a lone surrogate), checked before a write
    tool changes anything (it would fail half-way otherwise)."""
    for name in type(params).model_fields:
        v = getattr(params, name)
        if name not in exempt and isinstance(v, str) and _LONE_SURROGATE.search(v):
            return name
    return None


def _json_type(v: Any) -> str:
    if isinstance(v, list):
        return "an array"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, int | float):
        return "a number"
    return type(v).__name__
