"""What an agent is shown of the 11 memory tools: parameter models and the reference's descriptions.

Each tool's parameters are one pydantic model here; its JSON Schema (titles and defaults removed, the
``required`` list of the tool added, see :meth:`core.tools.ToolSpec.parameters_schema`) is exactly the
``parameters`` object the reference declares, so ``philont-memory tools --schema``, the MCP server and
the dispatcher's validation all come from these models. Fields the reference reads with JavaScript
conversions (``Number()``, ``String()``, ``Date.parse``) accept any JSON value and keep it as given;
the handlers in :mod:`core.tools` convert them as the reference does. Unknown arguments are ignored, as
the reference ignores them.

The descriptions are the reference's text, to the character (a compatibility contract).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema

__all__ = [
    "CANCEL_SCHEDULE_DESC",
    "CONVENTIONAL_NAMESPACES",
    "CREATE_EVENT_DESC",
    "GET_FACT_DESC",
    "LIST_FACTS_DESC",
    "LIST_UPCOMING_DESC",
    "PREVIEW_CONTEXT_DESC",
    "RECALL_SESSIONS_DESC",
    "SCHEDULE_REMINDER_DESC",
    "SEARCH_NOTES_DESC",
    "SEARCH_SKILLS_DESC",
    "STORE_FACT_DESC",
    "USE_SKILL_DESC",
    "CancelScheduleParams",
    "CreateCalendarEventParams",
    "GetFactParams",
    "ListFactsParams",
    "ListUpcomingParams",
    "PreviewContextParams",
    "RecallSessionsParams",
    "ScheduleReminderParams",
    "SearchNotesParams",
    "SearchSkillsParams",
    "StoreFactParams",
    "ToolParams",
    "UseSkillParams",
]

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


class ToolParams(BaseModel):
    """Base of every parameter model: unknown arguments are ignored; errors never echo the input."""

    model_config = ConfigDict(extra="ignore", hide_input_in_errors=True)


class StoreFactParams(ToolParams):
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


class GetFactParams(ToolParams):
    namespace: str
    key: str


class ListFactsParams(ToolParams):
    namespace: str


class SearchNotesParams(ToolParams):
    query: str = Field(description="Search keywords")
    limit: AnyAsNumber = Field(None, description="Maximum results to return, default 5")


class SearchSkillsParams(ToolParams):
    query: str = Field(description="Describe the current task in natural language")
    limit: AnyAsNumber = Field(None, description="Maximum results to return, default 5")
    include_negative: Annotated[Any, WithJsonSchema({"type": "boolean"})] = Field(
        None,
        description="Whether to include anti-pattern lessons, default true. Set false to return only positive skills.",
    )


class UseSkillParams(ToolParams):
    name: str = Field(description="Skill name (slug)")


class CreateCalendarEventParams(ToolParams):
    title: str = Field(description="Event title")
    starts_at: AnyAsString = Field(None, description="ISO8601 start time")
    ends_at: AnyAsString = Field(None, description="ISO8601 end time (optional)")
    rrule: OptStr = Field(
        None,
        description="iCalendar RRULE for recurrence. MVP supports FREQ=DAILY/WEEKLY + INTERVAL/COUNT/UNTIL.",
    )
    timezone: OptStr = Field(None, description="IANA timezone, e.g. Asia/Shanghai")


class ListUpcomingParams(ToolParams):
    window_days: AnyAsNumber = Field(None, description="How many days ahead, default 7")


class ScheduleReminderParams(ToolParams):
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


class CancelScheduleParams(ToolParams):
    name: OptStr = Field(
        None,
        description='Task name or substring (e.g. "drink water"). Cancels all enabled tasks whose name contains '
        "this substring.",
    )
    id: OptStr = Field(None, description="Task UUID (exact match). Mutually exclusive with name.")


class RecallSessionsParams(ToolParams):
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

STORE_FACT_DESC = (
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
GET_FACT_DESC = (
    "Exact lookup of a fact by namespace + key. Zero LLM cost deterministic lookup. "
    'Returns value with full time metadata (record/occur/validity), useful for determining "when did this fact '
    'apply".'
)
LIST_FACTS_DESC = (
    "List all active facts in a namespace. Each entry includes time labels (record/occur/validity), "
    'useful for accurately answering time-related questions like "recently", "yesterday", "this week".'
)
SEARCH_NOTES_DESC = (
    "Full-text search in text notes. Use only when get_fact/list_facts cannot find the needed information."
)
SEARCH_SKILLS_DESC = (
    "Search existing reusable skills (action patterns extracted from past sessions). "
    "Includes positive skills (kind=positive) and anti-pattern lessons (kind=negative). "
    "When facing a task similar to past ones, search here first."
)
USE_SKILL_DESC = (
    "Retrieve the full action template for a skill by name, and automatically increment use count. "
    "The returned action_template is a set of markdown steps that you should follow in order."
)
CREATE_EVENT_DESC = (
    'Create a future calendar event. Used for "meeting next Wednesday", "deadline on April 20", etc. '
    "Time fields must be ISO8601 with timezone offset (e.g. 2026-04-22T15:00:00+08:00)."
)
LIST_UPCOMING_DESC = (
    "List calendar events (including recurring expansions) and scheduled tasks in the upcoming period."
)
SCHEDULE_REMINDER_DESC = (
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
CANCEL_SCHEDULE_DESC = (
    'Cancel/delete a registered scheduled task. Use when user says "cancel reminder" / "stop reminding me" / '
    '"stop X reminder". '
    "Provide at least one of name or id. When using name, fuzzy matching is supported (any task name containing "
    "the substring). "
    'Do NOT use schedule_reminder to "cancel" — that just creates a meaningless new task.'
)
RECALL_SESSIONS_DESC = (
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
# The context preview as a tool (served by ``philont-memory mcp``, not one of the agent's tools)
# ---------------------------------------------------------------------------------------------------

PREVIEW_CONTEXT_DESC = (
    "Preview what the agent would be given if MESSAGE arrived now: the memory prefix by section, the "
    "recall trigger's result, and the recent and recalled messages within their budgets, with what was "
    "left out and why. Reads only. output is the whole context as text; data is the shape of "
    "`philont-memory context --json`."
)

_Budget = Annotated[int, Field(ge=0, le=10_000_000)]


class PreviewContextParams(ToolParams):
    message: str = Field(description="The message the agent would receive")
    session_ids: Annotated[
        list[str] | None, WithJsonSchema({"type": "array", "items": {"type": "string"}})
    ] = Field(
        None,
        description="Only these sessions in the timeline (default: every session); with exactly one, the "
        "prefix is built for that session",
    )
    home_session: OptStr = Field(None, description="The conversation's own origin session id, if any")
    recent_budget: _Budget = Field(8000, description="Token budget of the recent messages, default 8000")
    recall_budget: _Budget = Field(4000, description="Token budget of the recalled messages, default 4000")
    recent_limit: _Budget = Field(30, description="At most this many recent messages, default 30")
    recall_limit: _Budget = Field(10, description="At most this many recall candidates, default 10")
    host_os: Annotated[
        Literal["linux", "windows", "darwin"] | None,
        WithJsonSchema({"type": "string", "enum": ["linux", "windows", "darwin"]}),
    ] = Field(None, description="The agent host's platform for the runtime section (default: this machine)")
