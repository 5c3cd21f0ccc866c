"""The 11 memory tools of the reference agent (spec Part A §7, Part B §3/§7, Part C c-e).

Each tool has a pydantic parameter model and the reference's description (:mod:`core.tool_params`;
their JSON Schema is what an agent is shown, :func:`tool_schemas`, the function-calling format), a
capability (``read``/``write``) and a handler here. ``store_fact``'s credential gates live in
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
import math
import os
import re
import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from pydantic import BaseModel, ValidationError

from core.calendar import DAY_MS, CalendarStore
from core.credentials import auth_prefix_error, key_shape_error, secret_shape_error, secret_shape_leaf_error
from core.engine import sqlite3
from core.errors import MemoryError_
from core.facts import FactStore
from core.jsutil import (
    date_parse_string,
    int_if_integral,
    iso_ms,
    js_join,
    js_max,
    js_min,
    js_number_str,
    js_slice,
    js_slice_end,
    js_string,
    js_string_to_number,
    js_stringify,
    js_to_number,
    js_trim,
    js_truthy,
    now_ms,
    parse_time_field,
    utf16_len,
)
from core.maturity import maturity_caveat
from core.models import Fact, Schedule, Skill
from core.notes import NotesStore
from core.schedules import ScheduleStore
from core.skills import SkillStore
from core.timeline import RawStore, sanitize_query
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

if TYPE_CHECKING:
    from core.db import MemoryDB

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


def _sql_int_ok(x: Any) -> bool:
    """Whether SQLite accepts ``x`` as a LIMIT (an integral finite number)."""
    return isinstance(x, int) or (isinstance(x, float) and math.isfinite(x) and x.is_integer())


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
# Handlers
# ---------------------------------------------------------------------------------------------------


class _Ctx:
    def __init__(self, db: MemoryDB, now: int | None):
        self.db = db
        self._now = now

    @property
    def now(self) -> int:
        return now_ms() if self._now is None else int(self._now)

    @property
    def writable(self) -> bool:
        return is_writable(self.db)


def is_writable(db: MemoryDB) -> bool:
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
        occurred_at=parse_time_field(p.occurred_at),
        valid_from=parse_time_field(p.valid_from),
        valid_until=parse_time_field(p.valid_until),
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
    limit = 5 if p.limit is None else int_if_integral(js_to_number(p.limit))
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
    limit = 5 if p.limit is None else int_if_integral(js_to_number(p.limit))
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
    start = date_parse_string(p.starts_at)
    if start is None:
        return _fail("starts_at is not a valid ISO8601 string")
    end = None
    if js_truthy(p.ends_at):
        end = date_parse_string(p.ends_at)
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
    days = int_if_integral(js_max(1, js_min(90, raw)))
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
        ms = date_parse_string(p.at)
        if ms is None:
            return _fail("at is not a valid ISO8601 string")
        next_run_at = ms
    else:
        if not (p.interval_ms > 0):
            return _fail("interval_ms must be a positive number")
        next_run_at = int_if_integral(now + p.interval_ms)
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
    since = parse_time_field(p.since)
    until = parse_time_field(p.until)
    lim = js_max(1, js_min(20, 5 if p.limit is None else js_to_number(p.limit)))
    search_limit = int_if_integral(lim * 6)
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
    aggregated = aggregated[: js_slice_end(lim)]
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
    handler: Callable[[_Ctx, Any], ToolResult]
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
        "store_fact", STORE_FACT_DESC, StoreFactParams, "write", ("namespace", "key", "value"), _store_fact
    ),
    ToolSpec("get_fact", GET_FACT_DESC, GetFactParams, "read", ("namespace", "key"), _get_fact),
    ToolSpec("list_facts", LIST_FACTS_DESC, ListFactsParams, "read", ("namespace",), _list_facts),
    ToolSpec("search_notes", SEARCH_NOTES_DESC, SearchNotesParams, "read", ("query",), _search_notes),
    ToolSpec("search_skills", SEARCH_SKILLS_DESC, SearchSkillsParams, "read", ("query",), _search_skills),
    ToolSpec("use_skill", USE_SKILL_DESC, UseSkillParams, "read", ("name",), _use_skill),
    ToolSpec(
        "create_calendar_event",
        CREATE_EVENT_DESC,
        CreateCalendarEventParams,
        "write",
        ("title", "starts_at", "timezone"),
        _create_calendar_event,
    ),
    ToolSpec("list_upcoming", LIST_UPCOMING_DESC, ListUpcomingParams, "read", (), _list_upcoming),
    ToolSpec(
        "schedule_reminder",
        SCHEDULE_REMINDER_DESC,
        ScheduleReminderParams,
        "write",
        ("name", "message"),
        _schedule_reminder,
    ),
    ToolSpec("cancel_schedule", CANCEL_SCHEDULE_DESC, CancelScheduleParams, "write", (), _cancel_schedule),
    ToolSpec(
        "recall_sessions", RECALL_SESSIONS_DESC, RecallSessionsParams, "read", ("query",), _recall_sessions
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
            return _fail(f"Invalid arguments for {name}: {describe_validation_error(exc)}")
        if spec.capability == "write":
            bad = _unstorable_text(params, _STORED_AS_JSON.get(name, ()))
            if bad is not None:
                return _fail(
                    f"Invalid arguments for {name}: {bad} holds text that is not valid Unicode (a lone "
                    "surrogate, e.g. from bytes that are not UTF-8); nothing was written."
                )
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
