"""The 11 memory tools of the reference agent (spec Part A §7, Part B §3/§7, Part C c-e).

Each tool has a pydantic parameter model whose JSON Schema is what an agent is shown
(:func:`tool_schemas`, the function-calling format), a capability (``read``/``write``) and a handler.
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
import math
import os
import re
import unicodedata
from collections.abc import Callable
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, WithJsonSchema

from core.calendar import DAY_MS, CalendarStore
from core.engine import sqlite3
from core.errors import MemoryError_
from core.facts import FactStore
from core.jsutil import (
    JS_WS,
    date_parse,
    iso_ms,
    js_number_str,
    js_slice,
    js_string_to_number,
    js_stringify,
    js_trim,
    now_ms,
    utf16_len,
)
from core.maturity import maturity_caveat
from core.models import Fact, Schedule, Skill
from core.notes import NotesStore
from core.schedules import ScheduleStore
from core.skills import SkillStore
from core.timeline import RawStore, sanitize_query

Capability = Literal["read", "write"]

# ---------------------------------------------------------------------------------------------------
# Result
# ---------------------------------------------------------------------------------------------------


class ToolResult(BaseModel):
    """``{success, output?, error?, data?}`` as the reference returns it; ``data`` is plain JSON."""

    success: bool
    output: str | None = None
    error: str | None = None
    data: Any = None

    def to_json(self) -> dict[str, Any]:
        """The reference's shape: absent fields are left out."""
        out: dict[str, Any] = {"success": self.success}
        if self.output is not None:
            out["output"] = self.output
        if self.error is not None:
            out["error"] = self.error
        if self.data is not None:
            out["data"] = self.data
        return out


def _ok(output: str, data: Any = None) -> ToolResult:
    return ToolResult(success=True, output=output, data=data)


def _fail(error: str, data: Any = None) -> ToolResult:
    return ToolResult(success=False, error=error, data=data)


def js_error_string(exc: BaseException) -> str:
    """What the reference's ``String(e)`` would show for a comparable error."""
    if isinstance(exc, MemoryError_):
        return f"Error: {exc}"
    if isinstance(exc, sqlite3.Error):
        return f"SqliteError: {exc}"
    return f"{type(exc).__name__}: {exc}"


# ---------------------------------------------------------------------------------------------------
# JavaScript value semantics
# ---------------------------------------------------------------------------------------------------


def js_string(v: Any) -> str:
    """JavaScript ``String(v)`` for JSON values (arrays join with ``,``; objects are ``[object Object]``)."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int | float):
        return js_number_str(v)
    if isinstance(v, str):
        return v
    if isinstance(v, list | tuple):
        return js_join(v, ",")
    return "[object Object]"


def js_join(items: Any, sep: str) -> str:
    """JavaScript ``Array.prototype.join``: ``null`` elements become ``''``."""
    return sep.join("" if x is None else js_string(x) for x in items)


def js_to_number(v: Any) -> int | float:
    """JavaScript ``Number(v)`` (ToNumber) for JSON values."""
    if v is None:
        return 0
    if v is True:
        return 1
    if v is False:
        return 0
    if isinstance(v, int | float):
        return v
    if isinstance(v, str):
        return js_string_to_number(v)
    if isinstance(v, list | tuple):
        return js_string_to_number(js_string(v))
    return math.nan


def _isnan(x: Any) -> bool:
    return isinstance(x, float) and math.isnan(x)


def js_max(a: int | float, b: int | float) -> int | float:
    """``Math.max(a, b)``: NaN wins."""
    if _isnan(a) or _isnan(b):
        return math.nan
    return a if a >= b else b


def js_min(a: int | float, b: int | float) -> int | float:
    """``Math.min(a, b)``: NaN wins."""
    if _isnan(a) or _isnan(b):
        return math.nan
    return a if a <= b else b


def js_truthy(v: Any) -> bool:
    if v is None or v is False:
        return False
    if isinstance(v, int | float):
        return not (v == 0 or _isnan(v))
    if isinstance(v, str):
        return v != ""
    return True


def _int_if_integral(x: int | float) -> int | float:
    if isinstance(x, float) and math.isfinite(x) and x.is_integer():
        return int(x)
    return x


def _sql_int_ok(x: Any) -> bool:
    """Whether SQLite accepts ``x`` as a LIMIT (an integral finite number)."""
    return isinstance(x, int) or (isinstance(x, float) and math.isfinite(x) and x.is_integer())


def _slice_end(x: int | float) -> int | None:
    """ToIntegerOrInfinity of a ``slice`` end: NaN is 0, infinity is no bound."""
    if _isnan(x):
        return 0
    if isinstance(x, float) and math.isinf(x):
        return None if x > 0 else 0
    return math.trunc(x)


def _date_parse_string(v: Any) -> int | float | None:
    """``Date.parse(v)``: the argument is converted with ``String()`` first (numbers are not epoch ms)."""
    return date_parse(v if isinstance(v, str) else js_string(v))


def _parse_time_field(v: Any) -> int | float | None:
    """The reference's ``parseTimeField``: a finite number passes, a string goes through ``Date.parse``,
    anything else (and every invalid value) is NULL."""
    if v is None or v == "":
        return None
    return date_parse(v)


# ---------------------------------------------------------------------------------------------------
# Formatting shared by the fact tools
# ---------------------------------------------------------------------------------------------------


def format_fact_times(fact: Fact) -> str:
    """``[event@<occurred|?> | recorded <created>]`` or ``[state <from|?> → <until|∞> | recorded <created>]``."""
    if fact.fact_kind == "event":
        occ = iso_ms(fact.occurred_at) if fact.occurred_at is not None else "?"
        first = f"event@{occ}"
    else:
        frm = iso_ms(fact.valid_from) if fact.valid_from is not None else "?"
        until = iso_ms(fact.valid_until) if fact.valid_until is not None else "∞"
        first = f"state {frm} → {until}"
    return f"[{first} | recorded {iso_ms(fact.created_at)}]"


# ---------------------------------------------------------------------------------------------------
# store_fact gates (auth prefix, Part A §7; credential shape, Part B §7)
# ---------------------------------------------------------------------------------------------------

_JS_S = JS_WS  # JavaScript \s as a character class
_KEY_SHAPE_RE = re.compile(f"{_JS_S}|[:\\r\\n]")
_AUTH_HEADER_LINE = re.compile(
    f"(authorization|x-api-key|x-auth-token|api-key|authentication){_JS_S}*:", re.IGNORECASE | re.ASCII
)
_AUTH_SCHEME_PREFIX = re.compile(
    f"(bearer|token|basic|digest|api(?:{_JS_S}|[_-])?key){_JS_S}+", re.IGNORECASE | re.ASCII
)
_KNOWN_TOKEN_PREFIX = re.compile(
    r"(?:sk-|ghp_|gho_|ghs_|github_pat_|xox[bpsar]-|glpat-|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{20,})"
)
_JWT_SHAPE = re.compile(r"eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")
_SERVICE_KEY_SHAPE = re.compile(r"[A-Za-z][A-Za-z0-9]{1,24}[_-][A-Fa-f0-9]{32,}")
_KEYNAME_IMPLIES_CREDENTIAL = re.compile(
    r"api[_-]?key|apikey|token|secret|credential|passwd|password|bearer", re.IGNORECASE | re.ASCII
)
_TOKEN_LIKE = re.compile(r"(?=[A-Za-z0-9._-]*[0-9])[A-Za-z0-9._-]{24,}")
_JS_WS_RE = re.compile(_JS_S)


def key_shape_error(key: str) -> str | None:
    """The ``short slug`` error for a key with whitespace, ``:`` or a newline."""
    if not _KEY_SHAPE_RE.search(key):
        return None
    return (
        f"key '{js_slice(key, 0, 50)}' contains spaces / colons / newlines — you may have accidentally stored a "
        "header line / full path / sentence."
        "\nkey should be a **short slug** (snake_case / kebab-case, no spaces), e.g.:"
        '\n  ✅ "mycox_api_key" / "user.preferences.theme" / "service-config"'
        '\n  ❌ "Authorization: Bearer ..." / "please remember my key is" / "endpoint url"'
        '\nvalue is where real content goes. Retry: store_fact({namespace:"X", key:"<pure-slug>", '
        'value:"<real-content>"})'
    )


def auth_prefix_error(value: str) -> str | None:
    """A string value that is an HTTP header line or starts with an auth scheme (``Bearer ...``)."""
    if _AUTH_HEADER_LINE.match(value):
        head = js_slice(value, 0, _utf16_index(value, ":") + 1)
        return (
            f'value looks like a full HTTP header line (starts with "{head}").'
            "\nvalue should be a bare token / raw data, without the header name + colon."
            '\nExample:\n  ❌ value: "Authorization: Bearer sk-xxx"\n  ✅ value: "sk-xxx"'
        )
    m = _AUTH_SCHEME_PREFIX.match(value)
    if m:
        stripped = js_slice(value, utf16_len(m.group(0)))
        return (
            f'value contains auth scheme prefix "{js_trim(m.group(0))}", which is HTTP Authorization header '
            "syntax and should **not** be stored in a fact value."
            "\nThe real data is after stripping the prefix."
            f'\nExample:\n  ❌ value: "{js_slice(value, 0, 30)}..."\n  ✅ value: "{js_slice(stripped, 0, 30)}..."'
        )
    return None


def _utf16_index(s: str, sub: str) -> int:
    i = s.find(sub)
    return -1 if i < 0 else utf16_len(s[:i])


def secret_shape_error(namespace: str, key: str, value: str) -> str | None:
    """Part B §7 ``detectSecretShapedValue``: a raw credential in a string value."""
    v = js_trim(value)
    if utf16_len(v) < 16 or _JS_WS_RE.search(v) or v[:1] in ("{", "["):
        return None
    strong = bool(_KNOWN_TOKEN_PREFIX.match(v) or _JWT_SHAPE.fullmatch(v) or _SERVICE_KEY_SHAPE.fullmatch(v))
    key_implies = bool(_KEYNAME_IMPLIES_CREDENTIAL.search(f"{namespace}.{key}"))
    token_like = bool(_TOKEN_LIKE.fullmatch(v))
    if not (strong or (key_implies and token_like)):
        return None
    sid = re.sub(r"[^a-z0-9]+", "-", f"{namespace}.{key}".lower())
    sid = re.sub(r"^-|-$", "", sid)[:40]
    return (
        "value looks like a raw credential/API key — facts must NOT store secrets."
        "\nFacts bypass SecretStore redaction, survive credential cleanup, and leak into every later turn."
        f'\nStore it properly instead: saveCredential({{name:"{sid}", value:"<the key>"}}),'
        f" then reference it in http calls as {{{sid}}}."
        "\n(If you only need to REMEMBER that a key exists, store a status fact without the value,"
        f' e.g. value: {{"status":"saved-in-credential-store","credential":"{sid}"}}.)'
    )


def _js_own_keys(d: dict[str, Any]) -> list[str]:
    """``Object.entries`` key order: array-index keys ascending first, then insertion order."""
    idx = [k for k in d if re.fullmatch(r"0|[1-9][0-9]{0,9}", k) and int(k) <= 4_294_967_294]
    rest = [k for k in d if k not in set(idx)]
    return sorted(idx, key=int) + rest


def secret_shape_leaf_error(namespace: str, key: str, value: Any, depth: int = 0) -> str | None:
    """``detectSecretShapedLeaf``: string leaves of objects/arrays checked to depth 3 (key ``key.sub``)."""
    if isinstance(value, str):
        return secret_shape_error(namespace, key, value)
    if depth >= 3 or value is None:
        return None
    if isinstance(value, dict):
        pairs = {str(k): v for k, v in value.items()}
        items = [(k, pairs[k]) for k in _js_own_keys(pairs)]
    elif isinstance(value, list | tuple):
        items = [(str(i), v) for i, v in enumerate(value)]
    else:
        return None
    for k, v in items:
        hit = secret_shape_leaf_error(namespace, f"{key}.{k}", v, depth + 1)
        if hit:
            return hit
    return None


# ---------------------------------------------------------------------------------------------------
# Parameter models
# ---------------------------------------------------------------------------------------------------


def _number_only(v: Any) -> Any:
    if v is None or (isinstance(v, int | float) and not isinstance(v, bool)):
        return v
    raise ValueError("must be a number")


_S = WithJsonSchema({"type": "string"})
_N = WithJsonSchema({"type": "number"})
AnyAsString = Annotated[Any, _S]
AnyAsNumber = Annotated[Any, _N]
OptStr = Annotated[str | None, _S]
Number = Annotated[Any, AfterValidator(_number_only), _N]


class _Params(BaseModel):
    model_config = ConfigDict(extra="ignore", hide_input_in_errors=True)


class StoreFactParams(_Params):
    namespace: AnyAsString = Field(None, description="Namespace, e.g. user / project / decisions")
    key: AnyAsString = Field(
        None,
        description="Fact key. For event facts with time semantics, use a stable key (e.g. lunch not "
        "lunch_today), distinguishing occurrences via occurred_at",
    )
    value: Annotated[Any, WithJsonSchema({})] = Field(
        None, description="Fact value; can be a string, number, object, or array"
    )
    confidence: Annotated[
        Any, AfterValidator(_number_only), WithJsonSchema({"type": "number", "minimum": 0, "maximum": 1})
    ] = Field(None, description="Confidence 0-1, default 1.0")
    fact_kind: Annotated[Any, WithJsonSchema({"type": "string", "enum": ["state", "event"]})] = Field(
        None, description="state = ongoing state; event = one-time occurrence. Default state"
    )
    occurred_at: AnyAsString = Field(
        None,
        description="Actual time the event occurred (ISO8601 with timezone, e.g. 2026-04-22T12:00:00+08:00). "
        "Should be filled for event type",
    )
    valid_from: AnyAsString = Field(None, description="When this state became true (ISO8601 with timezone)")
    valid_until: AnyAsString = Field(
        None,
        description='When this state expires (ISO8601 with timezone). E.g. "on vacation this week" → Friday 23:59',
    )


class GetFactParams(_Params):
    namespace: str
    key: str


class ListFactsParams(_Params):
    namespace: str


class SearchNotesParams(_Params):
    query: str = Field(description="Search keywords")
    limit: AnyAsNumber = Field(None, description="Maximum results to return, default 5")


class SearchSkillsParams(_Params):
    query: str = Field(description="Describe the current task in natural language")
    limit: AnyAsNumber = Field(None, description="Maximum results to return, default 5")
    include_negative: Annotated[Any, WithJsonSchema({"type": "boolean"})] = Field(
        None,
        description="Whether to include anti-pattern lessons, default true. Set false to return only positive skills.",
    )


class UseSkillParams(_Params):
    name: str = Field(description="Skill name (slug)")


class CreateCalendarEventParams(_Params):
    title: str = Field(description="Event title")
    starts_at: AnyAsString = Field(None, description="ISO8601 start time")
    ends_at: AnyAsString = Field(None, description="ISO8601 end time (optional)")
    rrule: OptStr = Field(
        None,
        description="iCalendar RRULE for recurrence. MVP supports FREQ=DAILY/WEEKLY + INTERVAL/COUNT/UNTIL.",
    )
    timezone: OptStr = Field(None, description="IANA timezone, e.g. Asia/Shanghai")


class ListUpcomingParams(_Params):
    window_days: AnyAsNumber = Field(None, description="How many days ahead, default 7")


class ScheduleReminderParams(_Params):
    name: str = Field(description="Task name (same name replaces old task)")
    message: str = Field(
        description="action_type=prompt: reminder text (shown to user).\n"
        "action_type=autonomous_turn: instructions for agent to execute at trigger time (write complete steps, "
        "including facts namespace / credential placeholders etc.)."
    )
    at: AnyAsString = Field(
        None,
        description="ISO8601 time for one-time trigger (e.g. 2026-04-20T15:00:00+08:00). Mutually exclusive with "
        "interval_ms.",
    )
    interval_ms: Number = Field(
        None,
        description="Interval for recurring reminders (milliseconds). First trigger at now + interval_ms. Must use "
        'when user says "every X". Mutually exclusive with at.',
    )
    action_type: Annotated[Any, WithJsonSchema({"type": "string", "enum": ["prompt", "autonomous_turn"]})] = (
        Field(
            None,
            description="prompt (default) only sends text reminder; autonomous_turn starts a real chat turn to "
            "auto-execute. Recurring service heartbeat / monitoring / autonomous tasks must use autonomous_turn.",
        )
    )
    project: AnyAsString = Field(
        None,
        description='[Phase 13.5] Project association (kebab-case, e.g. "mycox"). **Strongly recommended** for '
        "long-lived agent role (register/onboard/integration) type schedules: when the scheduled session "
        "triggers, the mechanism layer automatically injects ~/.philont/projects/<project>/plan.md (accumulated "
        "Operational Knowledge / Lessons / Recent Runs) into the prefix, so the LLM sees cross-fire cumulative "
        "experience and does not start from scratch each fire.\nNot provided = generic reminder, no plan.md "
        "attached.",
    )


class CancelScheduleParams(_Params):
    name: OptStr = Field(
        None,
        description='Task name or substring (e.g. "drink water"). Cancels all enabled tasks whose name contains '
        "this substring.",
    )
    id: OptStr = Field(None, description="Task UUID (exact match). Mutually exclusive with name.")


class RecallSessionsParams(_Params):
    query: AnyAsString = Field(
        None, description="Keywords; searches message content via FTS + LIKE dual path"
    )
    since: AnyAsString = Field(
        None, description="Lower time bound (ISO8601 with timezone), default unbounded"
    )
    until: AnyAsString = Field(
        None, description="Upper time bound (ISO8601 with timezone), default unbounded"
    )
    limit: AnyAsNumber = Field(None, description="Maximum number of sessions to return, default 5")


# ---------------------------------------------------------------------------------------------------
# Descriptions (the reference's text)
# ---------------------------------------------------------------------------------------------------

CONVENTIONAL_NAMESPACES: tuple[str, ...] = ("user", "project", "decisions", "skills", "context")

_STORE_FACT_DESC = (
    "Store a structured fact. Recommended namespace values: "
    + "/".join(CONVENTIONAL_NAMESPACES)
    + ". A new value for the same (namespace, key) automatically overwrites the old value (old value retained "
    "for traceability).\n\n"
    "**When you must call this (proactive memory checklist)**:\n"
    '- Preferences/dislikes: user says "I like/dislike/hate/love/can\'t stand X" → user.preferences.<topic>\n'
    "  ⚠️ **Negative preferences are more important to record than positive ones** — not recording leads to "
    "awkward future recommendations\n"
    "- Constraints/restrictions: allergies/no alcohol/no spicy/dietary restrictions → user.constraints.<topic>\n"
    "- Attributes/identity: name/location/role/age → user.name, user.location, user.role\n"
    "- Project facts: repo/tech stack/conventions → project.*\n"
    "- Decisions: topic→{choice, rationale} → decisions.*\n"
    "- One-time events (meal/meeting/PR submission) → fact_kind=event + occurred_at\n"
    "- Ongoing states (vacation/sprint period) → fact_kind=state + valid_until\n\n"
    "**Merging existing values**: For accumulative info like `user.preferences.*`, first use `get_fact` to see "
    "the existing value, merge old and new arrays before storing (otherwise new value overwrites old and "
    "information is lost).\n\n"
    "**Time dimension**:\n"
    '- fact_kind: "state" (ongoing state) or "event" (one-time occurrence); default state\n'
    "- occurred_at: event time ISO8601 (e.g. 2026-04-22T12:00:00+08:00). Required for event\n"
    "- valid_from / valid_until: state validity window ISO8601\n"
    'Relative times ("this noon", "tomorrow") must first be converted to absolute ISO8601 using the "current '
    'time" in the system prompt.\n\n'
    "**Examples**:\n"
    '- "I don\'t like Japanese and Western food" → store_fact(user, preferences.cuisine, {dislikes:["Japanese '
    'food","Western food"]})\n'
    '- "Allergic to peanuts" → store_fact(user, constraints.allergies, ["peanuts"])\n'
    '- "Had dumplings for lunch today" → store_fact(user, lunch, "dumplings", fact_kind="event", '
    'occurred_at="2026-04-22T12:00:00+08:00")\n'
    '- "Review meeting next Monday at 3pm" → store_fact(project, review_meeting, "review meeting", '
    'fact_kind="event", occurred_at="2026-04-28T15:00:00+08:00")'
)
_GET_FACT_DESC = (
    "Exact lookup of a fact by namespace + key. Zero LLM cost deterministic lookup. "
    'Returns value with full time metadata (record/occur/validity), useful for determining "when did this fact '
    'apply".'
)
_LIST_FACTS_DESC = (
    "List all active facts in a namespace. Each entry includes time labels (record/occur/validity), "
    'useful for accurately answering time-related questions like "recently", "yesterday", "this week".'
)
_SEARCH_NOTES_DESC = (
    "Full-text search in text notes. Use only when get_fact/list_facts cannot find the needed information."
)
_SEARCH_SKILLS_DESC = (
    "Search existing reusable skills (action patterns extracted from past sessions). "
    "Includes positive skills (kind=positive) and anti-pattern lessons (kind=negative). "
    "When facing a task similar to past ones, search here first."
)
_USE_SKILL_DESC = (
    "Retrieve the full action template for a skill by name, and automatically increment use count. "
    "The returned action_template is a set of markdown steps that you should follow in order."
)
_CREATE_EVENT_DESC = (
    'Create a future calendar event. Used for "meeting next Wednesday", "deadline on April 20", etc. '
    "Time fields must be ISO8601 with timezone offset (e.g. 2026-04-22T15:00:00+08:00)."
)
_LIST_UPCOMING_DESC = (
    "List calendar events (including recurring expansions) and scheduled tasks in the upcoming period."
)
_SCHEDULE_REMINDER_DESC = (
    "Set up a scheduled task. Must correctly combine time + action type.\n"
    "\n"
    "## Time (choose one)\n"
    '- [One-time] User says "in X minutes/hours", "tomorrow at X", "at a specific time" → use `at` (ISO8601)\n'
    '- [Recurring] User says "every X", "every interval X", "daily/hourly/every minute" → use `interval_ms` '
    "(milliseconds)\n"
    "  Common values: 2min=120000, 5min=300000, 10min=600000, 30min=1800000, 1hr=3600000, 1day=86400000\n"
    "\n"
    "## Action type action_type (choose one, **required reading**)\n"
    '- `prompt` (default): **only sends a text reminder** to the user at trigger time. For "remind me to do X" '
    "passive notifications.\n"
    "- `autonomous_turn`: **starts a real chat turn** at trigger time; agent automatically executes the action "
    "described in message.\n"
    "  Use for: **recurring service heartbeat / monitoring / autonomous task execution**.\n"
    '  message should be **complete execution instructions** (e.g. "call endpoint per facts.service.X.api to '
    'vote/comment").\n'
    "\n"
    "## Decision guide\n"
    '- User says "remind me / don\'t forget / tell me when" → action_type=prompt\n'
    '- User says "execute every X / run / automatically / heartbeat / monitor" → action_type=autonomous_turn\n'
    "\n"
    "Tasks with the same name automatically replace the old one (prevents repeated triggers)."
)
_CANCEL_SCHEDULE_DESC = (
    'Cancel/delete a registered scheduled task. Use when user says "cancel reminder" / "stop reminding me" / '
    '"stop X reminder". '
    "Provide at least one of name or id. When using name, fuzzy matching is supported (any task name containing "
    "the substring). "
    'Do NOT use schedule_reminder to "cancel" — that just creates a meaningless new task.'
)
_RECALL_SESSIONS_DESC = (
    "Recall past conversations. Full-text search in Layer 0 raw messages by keyword (+ optional time range), "
    "returns a list of matching sessions. Each session includes the summary generated at session end and top "
    "matching message snippets.\n"
    "Typical use cases:\n"
    '- User asks "last time / previously / last week / a few days ago we discussed X" → call this first, then '
    "answer\n"
    "- You need to reference past decisions, where a previous run left off, how a problem was solved before\n"
    "- search_notes / list_facts returns nothing, but user insists the topic was discussed\n"
    "Before calling, consider: can list_facts / get_fact / search_notes find it? If yes, prefer those (lower "
    "cost)."
)


# ---------------------------------------------------------------------------------------------------
# Handlers
# ---------------------------------------------------------------------------------------------------


class _Ctx:
    def __init__(self, db: Any, now: int | None):
        self.db = db
        self._now = now

    @property
    def now(self) -> int:
        return now_ms() if self._now is None else int(self._now)

    @property
    def writable(self) -> bool:
        return is_writable(self.db)


def is_writable(db: Any) -> bool:
    """Whether the database accepts writes (not opened read-only, no refusal reason)."""
    report = db.report
    return not report.read_only and report.read_only_reason is None


def _store_fact(ctx: _Ctx, p: StoreFactParams) -> ToolResult:
    ns, key, value = p.namespace, p.key, p.value
    if not isinstance(ns, str) or not ns:
        return _fail("namespace must be a non-empty string")
    if not isinstance(key, str) or not key:
        return _fail("key must be a non-empty string")
    err = key_shape_error(key)
    if err:
        return _fail(err)
    if "value" not in p.model_fields_set:
        return _fail("value is required (a string, number, boolean, object, array or null)")
    if isinstance(value, str):
        err = auth_prefix_error(value) or secret_shape_error(ns, key, value)
    elif isinstance(value, dict | list):
        err = secret_shape_leaf_error(ns, key, value)
    if err:
        return _fail(err)
    fact = FactStore(ctx.db).store_fact(
        ns,
        key,
        value,
        confidence=p.confidence,
        fact_kind="event" if p.fact_kind == "event" else "state",
        occurred_at=_parse_time_field(p.occurred_at),
        valid_from=_parse_time_field(p.valid_from),
        valid_until=_parse_time_field(p.valid_until),
        now=ctx.now,
    )
    return _ok(f"Stored {ns}.{key} {format_fact_times(fact)}", fact.to_json())


def _get_fact(ctx: _Ctx, p: GetFactParams) -> ToolResult:
    fact = FactStore(ctx.db).get_fact(p.namespace, p.key, now=ctx.now, bump=ctx.writable)
    if fact is None:
        return _fail(f"Not found: {p.namespace}.{p.key}")
    return _ok(f"{js_stringify(fact.value)} {format_fact_times(fact)}", fact.to_json())


def _list_facts(ctx: _Ctx, p: ListFactsParams) -> ToolResult:
    facts = FactStore(ctx.db).list_facts(p.namespace)
    lines = [f"{f.namespace}.{f.key} = {js_stringify(f.value)}  {format_fact_times(f)}" for f in facts]
    return _ok("\n".join(lines), [f.to_json() for f in facts])


def _search_notes(ctx: _Ctx, p: SearchNotesParams) -> ToolResult:
    limit = 5 if p.limit is None else _int_if_integral(js_to_number(p.limit))
    if not sanitize_query(p.query):
        return _ok("", [])
    if not _sql_int_ok(limit):
        return _fail("SqliteError: datatype mismatch")
    notes = NotesStore(ctx.db).search(p.query, limit)
    return _ok("\n".join(f"- {n.content}" for n in notes), [n.to_json() for n in notes])


def _skill_keywords(s: Skill) -> str | ToolResult:
    for e in s.json_errors:
        if e.startswith("trigger_keywords"):
            if "not a JSON array" in e:
                return _fail(f"TypeError: trigger_keywords of skill '{s.name}' is not an array")
            return _fail(f"SyntaxError: trigger_keywords of skill '{s.name}' is not valid JSON")
    return js_join(s.trigger_keywords, ", ")


def _search_skills(ctx: _Ctx, p: SearchSkillsParams) -> ToolResult:
    limit = 5 if p.limit is None else _int_if_integral(js_to_number(p.limit))
    results: list[Skill] = []
    if sanitize_query(p.query):
        if not _sql_int_ok(js_max(limit * 4, 20)):
            return _fail("SqliteError: datatype mismatch")
        results = SkillStore(ctx.db).search(p.query, limit, now=ctx.now)
    if p.include_negative is False:
        results = [s for s in results if s.kind != "negative"]
    if not results:
        return _fail("No matching skills found")
    blocks: list[str] = []
    for s in results:
        kw = _skill_keywords(s)
        if isinstance(kw, ToolResult):
            return kw
        tag = "⚠️ [avoid] " if s.kind == "negative" else ""
        blocks.append(
            f"- {tag}**{s.name}** (used {js_number_str(s.use_count)} times): {s.description}"
            f"\n  trigger keywords: {kw}"
        )
    return _ok("\n".join(blocks), [s.to_json() for s in results])


def use_skill_refusal(skill: Skill) -> str | None:
    """Why ``use_skill`` refuses this skill (decision 4), or ``None`` when it is callable."""
    if skill.maturity == "playbook":
        return (
            f"Skill '{skill.name}' is a playbook {maturity_caveat('playbook')}: it is a lesson distilled from "
            "past reflections, not a callable skill; read it as guidance instead of running it."
        )
    if skill.maturity == "deprecated":
        return (
            f"Skill '{skill.name}' is deprecated {maturity_caveat('deprecated')}: it failed too often and is "
            "no longer callable; keep it only as a counter-example of what not to do."
        )
    return None


def _use_skill(ctx: _Ctx, p: UseSkillParams) -> ToolResult:
    store = SkillStore(ctx.db)
    skill = store.get_by_name(p.name)
    if skill is None:
        return _fail(f"Skill '{p.name}' does not exist")
    data = skill.to_json()
    refusal = use_skill_refusal(skill)
    if refusal:
        return _fail(refusal, data)
    if ctx.writable:
        store.record_usage(skill.name, at=ctx.now)
    else:
        data["usageRecorded"] = False
        data["usageNote"] = "The database is open read-only: use_count and last_used_at were not updated."
    output = f"# Skill: {skill.name}\n{skill.description}\n\n## Action Template\n{skill.action_template}"
    if skill.maturity == "draft":
        output = f"{maturity_caveat('draft')}\n{output}"
    return _ok(output, data)


def _create_calendar_event(ctx: _Ctx, p: CreateCalendarEventParams) -> ToolResult:
    start = _date_parse_string(p.starts_at)
    if start is None:
        return _fail("starts_at is not a valid ISO8601 string")
    end = None
    if js_truthy(p.ends_at):
        end = _date_parse_string(p.ends_at)
        if end is None:
            return _fail("ends_at is not a valid ISO8601 string")
    ev = CalendarStore(ctx.db).create(p.title, start, end, p.rrule, p.timezone or "", now=ctx.now)
    return _ok(f"Created calendar event '{p.title}' @ {iso_ms(start)}", ev.to_json())


def _check_payloads(rows: list[Schedule]) -> None:
    """The reference parses every listed schedule's payload and fails on a malformed one."""
    for s in rows:
        if s.json_errors:
            raise SyntaxError(f"payload_json of schedule '{s.name}' ({s.id}) is not valid JSON")


def _occurrence_json(ev: Any, occ: int) -> dict[str, Any]:
    d = ev.to_json()
    d["occurrenceStartsAt"] = occ
    d["occurrenceEndsAt"] = None if ev.ends_at is None else occ + (ev.ends_at - ev.starts_at)
    return d


def _list_upcoming(ctx: _Ctx, p: ListUpcomingParams) -> ToolResult:
    raw = 7 if p.window_days is None else js_to_number(p.window_days)
    days = _int_if_integral(js_max(1, js_min(90, raw)))
    now = ctx.now
    window = days * DAY_MS
    events = CalendarStore(ctx.db).upcoming(window, now)
    enabled = ScheduleStore(ctx.db).list_enabled()
    _check_payloads(enabled)
    task_lines = [
        f"- [task] {s.name} @ {iso_ms(s.next_run_at)} ({s.action_type})"
        for s in enabled
        if s.next_run_at <= now + window
    ]
    event_lines = [
        f"- [event] {ev.title} @ {iso_ms(occ)} ({ev.timezone}{', ' + ev.rrule if ev.rrule else ''})"
        for ev, occ in events
    ]
    lines = event_lines + task_lines
    data = {
        "events": [_occurrence_json(ev, occ) for ev, occ in events],
        "schedules": [s.to_json() for s in enabled],
    }
    return _ok("\n".join(lines) if lines else f"No events in the next {js_number_str(days)} days", data)


_PROJECT_RE = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,58}[a-z0-9])?")
_PERIODIC_RE = re.compile("每|每隔|every|each", re.IGNORECASE | re.ASCII)


def schedule_intent_text(payload: Any) -> str:
    """``String(p.prompt ?? p.message ?? '')`` of a schedule payload."""
    p = payload if isinstance(payload, dict) else {}
    v = p.get("prompt")
    if v is None:
        v = p.get("message")
    return "" if v is None else js_string(v)


def _intent_tokens(s: str) -> set[str]:
    out: set[str] = set()
    cur: list[str] = []
    for ch in s.lower() + " ":
        if unicodedata.category(ch)[0] in ("L", "N"):
            cur.append(ch)
            continue
        if cur:
            tok = "".join(cur)
            if utf16_len(tok) >= 2:
                out.add(tok)
            cur = []
    return out


def is_duplicate_routine(new_text: str, existing_text: str, threshold: float = 0.7) -> bool:
    """Jaccard similarity of the two instruction token sets ``>= threshold`` (0 when either is empty)."""
    a, b = _intent_tokens(new_text), _intent_tokens(existing_text)
    if not a or not b:
        return False
    inter = len(a & b)
    return inter / (len(a) + len(b) - inter) >= threshold


def _project_cap() -> int | float:
    raw = os.environ.get("PHILONT_SCHEDULE_PROJECT_CAP")
    n = js_string_to_number(raw) if raw is not None else math.nan
    return js_max(1, n if js_truthy(n) else 3)


def _schedule_reminder(ctx: _Ctx, p: ScheduleReminderParams) -> ToolResult:
    project_clean: str | None = None
    if isinstance(p.project, str) and js_trim(p.project):
        v = js_trim(p.project)
        if not _PROJECT_RE.fullmatch(v):
            return _fail(
                "schedule_reminder: project must be kebab-case (lowercase alphanumeric + hyphens, "
                f'2-60 chars, no leading/trailing hyphens), got "{v}"'
            )
        project_clean = v
    if not js_truthy(p.at) and not js_truthy(p.interval_ms):
        return _fail("Must provide at (one-time) or interval_ms (recurring)")
    action_type = "autonomous_turn" if p.action_type == "autonomous_turn" else "prompt"
    now = ctx.now
    cron_expr: str | None = None
    if js_truthy(p.at):
        ms = _date_parse_string(p.at)
        if ms is None:
            return _fail("at is not a valid ISO8601 string")
        next_run_at = ms
    else:
        if not (p.interval_ms > 0):
            return _fail("interval_ms must be a positive number")
        next_run_at = _int_if_integral(now + p.interval_ms)
        cron_expr = f"interval:{js_number_str(p.interval_ms)}"
    store = ScheduleStore(ctx.db)
    with ctx.db.write():
        enabled = store.list_enabled()
        _check_payloads(enabled)
        replaced = [s for s in enabled if s.name == p.name]
        for old in replaced:
            store.set_enabled(old.id, False)
        deduped: list[str] = []
        capped: list[str] = []
        if project_clean and action_type == "autonomous_turn" and cron_expr:
            disabled = {r.id for r in replaced}
            for old in store.list_enabled():
                if (
                    old.id not in disabled
                    and old.project == project_clean
                    and old.action_type == "autonomous_turn"
                    and is_duplicate_routine(p.message, schedule_intent_text(old.payload))
                ):
                    store.set_enabled(old.id, False)
                    deduped.append(old.name)
                    disabled.add(old.id)
            live = [
                s
                for s in store.list_enabled()
                if s.id not in disabled
                and s.project == project_clean
                and s.action_type == "autonomous_turn"
                and bool(s.cron_expr)
            ]
            keep = js_max(1, _project_cap()) - 1
            excess = len(live) - keep
            if excess > 0:
                for old in sorted(live, key=lambda s: s.created_at)[: math.trunc(excess)]:
                    store.set_enabled(old.id, False)
                    capped.append(old.name)
        payload = (
            {"prompt": p.message, "replyChannel": "silent"}
            if action_type == "autonomous_turn"
            else {"message": p.message}
        )
        sched = store.create(
            p.name, next_run_at, action_type, payload, cron_expr, project=project_clean, now=now
        )
    kind = f"recurring({cron_expr})" if cron_expr else "one-time"
    extra = ""
    if replaced:
        extra += f" (replaced {len(replaced)} old task(s) with the same name)"
    if deduped:
        extra += f" (replaced {len(deduped)} same-project routine(s): {', '.join(deduped)})"
    if capped:
        extra += f" (disabled {len(capped)} oldest routine(s) over the per-project cap: {', '.join(capped)})"
    if (
        not cron_expr
        and js_truthy(p.at)
        and _PERIODIC_RE.search(p.message)
        and next_run_at - now <= 3_600_000
    ):
        extra += (
            ' ⚠ Detected "every/each" in message, but this task is [one-time] and will fire only once. '
            "If user wants recurring reminders, **immediately call this tool again** "
            "using the interval_ms parameter (e.g. every 2 min=120000, every hour=3600000)."
        )
    tag = "🤖 autonomous" if action_type == "autonomous_turn" else "🔔 prompt"
    return _ok(
        f"Scheduled task '{p.name}' [{kind}, {tag}], first run @ {iso_ms(next_run_at)}{extra}",
        sched.to_json(),
    )


def _cancel_schedule(ctx: _Ctx, p: CancelScheduleParams) -> ToolResult:
    if not p.name and not p.id:
        return _fail("Must provide name (fuzzy match) or id (exact) — at least one required")
    store = ScheduleStore(ctx.db)
    with ctx.db.write():
        rows = store.list_all()
        _check_payloads(rows)
        targets = [s for s in rows if (p.id and s.id == p.id) or (p.name and p.name in s.name)]
        if not targets:
            names = ", ".join(s.name for s in rows if s.enabled) or "none"
            return _fail(
                f"No matching task found (name='{p.name or ''}' id='{p.id or ''}'). Currently enabled tasks: {names}"
            )
        for t in targets:
            store.delete(t.id)
    return _ok(
        f"Cancelled {len(targets)} task(s): {', '.join(t.name for t in targets)}",
        {"cancelledIds": [t.id for t in targets]},
    )


def _recall_sessions(ctx: _Ctx, p: RecallSessionsParams) -> ToolResult:
    q = p.query
    if not isinstance(q, str) or not js_trim(q):
        return _fail("query must be a non-empty string")
    since = _parse_time_field(p.since)
    until = _parse_time_field(p.until)
    lim = js_max(1, js_min(20, 5 if p.limit is None else js_to_number(p.limit)))
    search_limit = _int_if_integral(lim * 6)
    hits = []
    if sanitize_query(q):
        if not _sql_int_ok(search_limit):
            return _fail("SqliteError: datatype mismatch")
        hits = RawStore(ctx.db).search_messages(q, since=since, until=until, limit=search_limit)
    if not hits:
        return _ok(
            f'No past sessions matching "{q}" (0 hits). Try search_notes / list_facts to look up facts rather '
            "than conversation records.",
            [],
        )
    by_session: dict[str, list[Any]] = {}
    for m in hits:
        by_session.setdefault(m.session_id, []).append(m)
    notes = NotesStore(ctx.db)
    raw = RawStore(ctx.db)
    aggregated: list[dict[str, Any]] = []
    for sid, msgs in by_session.items():
        top = msgs[:3]
        session = raw.get_session(sid, with_count=False)
        note = notes.get(f"session-summary-{sid}")
        aggregated.append(
            {
                "sessionId": sid,
                "startedAt": session.started_at if session is not None else top[0].timestamp,
                "endedAt": session.ended_at if session is not None else None,
                "summary": note.content if note is not None else None,
                "topHits": [
                    {"role": m.role, "timestamp": m.timestamp, "snippet": js_slice(m.content, 0, 200)}
                    for m in top
                ],
            }
        )
    aggregated.sort(key=lambda s: s["startedAt"], reverse=True)
    aggregated = aggregated[: _slice_end(lim)]
    blocks: list[str] = []
    for s in aggregated:
        start_iso = iso_ms(s["startedAt"])
        end_frag = f" - {iso_ms(s['endedAt'])}" if js_truthy(s["endedAt"]) else " (not closed)"
        summary_frag = f"\n  summary: {s['summary']}" if js_truthy(s["summary"]) else "\n  (no summary)"
        hits_frag = "\n".join(f"    [{h['role']}] {h['snippet']}" for h in s["topHits"])
        blocks.append(
            f"- session={s['sessionId']} @ {start_iso}{end_frag}{summary_frag}\n  hits:\n{hits_frag}"
        )
    return _ok("\n\n".join(blocks), aggregated)


# ---------------------------------------------------------------------------------------------------
# Registry, schemas, dispatcher
# ---------------------------------------------------------------------------------------------------


class ToolSpec(NamedTuple):
    """One memory tool: what the agent sees (name, description, schema) and what runs."""

    name: str
    description: str
    params: type[BaseModel]
    capability: Capability
    required: tuple[str, ...]
    handler: Callable[[_Ctx, Any], ToolResult]
    domain: str = "self"

    def parameters_schema(self) -> dict[str, Any]:
        """The JSON Schema of the parameters, as the reference declares it (no titles or defaults)."""
        raw = self.params.model_json_schema()
        props: dict[str, Any] = {}
        for name, prop in raw.get("properties", {}).items():
            props[name] = {k: v for k, v in prop.items() if k not in ("title", "default")}
        schema: dict[str, Any] = {"type": "object"}
        if self.required:
            schema["required"] = list(self.required)
        schema["properties"] = props
        return schema

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
        "store_fact", _STORE_FACT_DESC, StoreFactParams, "write", ("namespace", "key", "value"), _store_fact
    ),
    ToolSpec("get_fact", _GET_FACT_DESC, GetFactParams, "read", ("namespace", "key"), _get_fact),
    ToolSpec("list_facts", _LIST_FACTS_DESC, ListFactsParams, "read", ("namespace",), _list_facts),
    ToolSpec("search_notes", _SEARCH_NOTES_DESC, SearchNotesParams, "read", ("query",), _search_notes),
    ToolSpec("search_skills", _SEARCH_SKILLS_DESC, SearchSkillsParams, "read", ("query",), _search_skills),
    ToolSpec("use_skill", _USE_SKILL_DESC, UseSkillParams, "read", ("name",), _use_skill),
    ToolSpec(
        "create_calendar_event",
        _CREATE_EVENT_DESC,
        CreateCalendarEventParams,
        "write",
        ("title", "starts_at", "timezone"),
        _create_calendar_event,
    ),
    ToolSpec("list_upcoming", _LIST_UPCOMING_DESC, ListUpcomingParams, "read", (), _list_upcoming),
    ToolSpec(
        "schedule_reminder",
        _SCHEDULE_REMINDER_DESC,
        ScheduleReminderParams,
        "write",
        ("name", "message"),
        _schedule_reminder,
    ),
    ToolSpec("cancel_schedule", _CANCEL_SCHEDULE_DESC, CancelScheduleParams, "write", (), _cancel_schedule),
    ToolSpec(
        "recall_sessions", _RECALL_SESSIONS_DESC, RecallSessionsParams, "read", ("query",), _recall_sessions
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


def _describe_validation(exc: ValidationError) -> str:
    parts = []
    for e in exc.errors(include_url=False, include_input=False):
        loc = ".".join(str(x) for x in e.get("loc", ())) or "arguments"
        msg = str(e.get("msg", "invalid"))
        parts.append(f"{loc}: {msg}")
    return "; ".join(parts)


def run_tool(
    db: Any, name: str, args: dict[str, Any] | str | bytes | None = None, *, now: int | None = None
) -> ToolResult:
    """Run tool ``name`` with ``args`` (a dict, or its JSON text) on ``db``. Never raises."""
    try:
        spec = TOOLS.get(name) if isinstance(name, str) else None
        if spec is None:
            return _fail(f"Unknown tool {name!r}. Known tools: {', '.join(TOOL_NAMES)}")
        if isinstance(args, bytes | bytearray):
            try:
                args = bytes(args).decode("utf-8")
            except UnicodeDecodeError as exc:
                return _fail(f"Invalid arguments for {name}: not UTF-8 text ({exc})")
        if isinstance(args, str):
            if not args.strip():
                args = {}
            else:
                try:
                    args = json.loads(args, parse_constant=_reject_constant)
                except (ValueError, RecursionError) as exc:
                    return _fail(f"Invalid JSON arguments for {name}: {exc}")
        if args is None:
            args = {}
        if not isinstance(args, dict):
            return _fail(f"Invalid arguments for {name}: expected a JSON object, got {_json_type(args)}")
        try:
            params = spec.params.model_validate(args)
        except ValidationError as exc:
            return _fail(f"Invalid arguments for {name}: {_describe_validation(exc)}")
        if spec.capability == "write" and not is_writable(db):
            reason = getattr(db.report, "read_only_reason", None)
            why = f" ({reason})" if reason else ""
            return _fail(
                f"{name} changes memory, and the database is open read-only{why}: nothing was written. "
                "Turn on editing to run write tools."
            )
        return spec.handler(_Ctx(db, now), params)
    except Exception as exc:  # the dispatcher must never raise
        try:
            return _fail(js_error_string(exc))
        except Exception:
            return _fail(type(exc).__name__)


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
