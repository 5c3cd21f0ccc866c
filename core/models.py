"""Pydantic models of the rows of every layer.

Attributes are snake_case; the JSON form (``model_dump(by_alias=True)``, ``to_json()``) uses the
reference's camelCase names (``createdAt``, ``supersededBy``, ...), so that tool ``data`` and the
CLI's ``--json`` output look like what the reference agent produces. Times are epoch milliseconds.

Rows are built with :meth:`_Row.from_row` from ``sqlite3.Row`` objects. Reading never fails on
bad data: invalid JSON is kept verbatim in the ``*_json`` field and reported in ``json_errors``,
an unknown enumeration value is kept as read (``kind``/``maturity`` are normalised the way the
reference normalises them, see each field). No column has a type constraint, so a number column may
hold text SQLite could not read as a number (``'NaN'``, ``'high'``): the values that feed arithmetic
(confidence, tau, importance, the skill counters) are read as numbers then, NaN (or 0 for a counter)
standing for the text, and times as integers (``None``, or 0 where the column is NOT NULL), so that
scoring, sorting and time labels never meet a string.
"""

from __future__ import annotations

import json
import math
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

MATURITIES: tuple[str, ...] = ("playbook", "draft", "confirmed", "stable", "deprecated")
Maturity = Literal["playbook", "draft", "confirmed", "stable", "deprecated"]
FactKind = Literal["state", "event"]
SkillKind = Literal["positive", "negative"]
ROLES: tuple[str, ...] = ("system", "user", "assistant", "tool")


_CONSTRUCT_PLANS: dict[type, list[tuple[str, bool, Any]]] = {}


class _Row(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        arbitrary_types_allowed=True,
        ser_json_inf_nan="constants",
    )

    def to_json(self) -> dict[str, Any]:
        """The camelCase JSON-ready dict (NaN/Infinity kept as floats)."""
        return self.model_dump(by_alias=True)

    @classmethod
    def model_construct(cls, _fields_set: set[str] | None = None, **values: Any) -> Any:
        """Build a row without validation, several times faster than pydantic's own.

        Rows come from the database and are read as they are (validation would reject the very
        data a person needs to see, such as a NaN confidence); missing fields take their defaults.
        """
        plan = _CONSTRUCT_PLANS.get(cls)
        if plan is None:
            plan = _CONSTRUCT_PLANS[cls] = [
                (name, field.default_factory is not None, field.default_factory or field.default)
                for name, field in cls.model_fields.items()
            ]
        data: dict[str, Any] = {}
        for name, is_factory, default in plan:
            if name in values:
                data[name] = values[name]
            else:
                data[name] = default() if is_factory else default
        m = object.__new__(cls)
        object.__setattr__(m, "__dict__", data)
        object.__setattr__(m, "__pydantic_fields_set__", set(values) if _fields_set is None else _fields_set)
        object.__setattr__(m, "__pydantic_extra__", None)
        object.__setattr__(m, "__pydantic_private__", None)
        return m


def parse_json_lenient(text: str | None) -> tuple[Any, str | None]:
    """``(value, error)``: the parsed JSON, or ``(None, message)`` when ``text`` is not JSON."""
    if text is None:
        return None, None
    try:
        return json.loads(text), None
    except (ValueError, TypeError) as exc:
        return None, f"invalid JSON: {exc}"


def _real(v: Any) -> Any:
    """A REAL column as a number: ``None`` and numbers as stored, text by ``float()`` (``'NaN'``,
    ``'1e3'``), anything else NaN."""
    if v is None or type(v) is float or type(v) is int:
        return v
    if isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            return math.nan
    return math.nan


def _count(v: Any) -> Any:
    """A counter column (INTEGER NOT NULL DEFAULT 0): numbers as stored, ``None`` and text 0."""
    if type(v) is int or type(v) is float:
        return v
    if isinstance(v, str):
        try:
            x = float(v)
        except ValueError:
            return 0
        return int(x) if x.is_integer() else x
    return 0


def _ms(v: Any, required: bool = False) -> Any:
    """A time column (epoch ms) as an int: numbers as stored (a fraction truncated), numeric text
    converted; anything else ``None`` — or 0 for a NOT NULL time, which then shows as 1970 instead of
    breaking every sort and label of its table."""
    if type(v) is int:
        return v
    x = _real(v) if v is not None and not isinstance(v, bool) else v
    if isinstance(x, float) and math.isfinite(x) and abs(x) < 2**63:
        return int(x)
    if isinstance(v, bool):
        return int(v)
    return 0 if required else None


def _get(row: Any, name: str, default: Any = None) -> Any:
    """Column ``name`` of a ``sqlite3.Row`` (or dict), ``default`` when the column is absent."""
    try:
        return row[name]
    except (IndexError, KeyError):
        return default


class Session(_Row):
    id: str
    started_at: int
    ended_at: int | None = None
    message_count: int | None = None

    @classmethod
    def from_row(cls, row: Any) -> Session:
        return cls.model_construct(
            id=row["id"],
            started_at=_ms(row["started_at"], required=True),
            ended_at=_ms(row["ended_at"]),
            message_count=_get(row, "message_count"),
        )


class Message(_Row):
    id: int
    session_id: str
    role: str
    content: str
    timestamp: int
    origin_session_id: str | None = None

    @classmethod
    def from_row(cls, row: Any) -> Message:
        return cls.model_construct(
            id=row["id"],
            session_id=row["session_id"],
            role=row["role"],
            content=row["content"],
            timestamp=_ms(row["timestamp"], required=True),
            origin_session_id=_get(row, "origin_session_id"),
        )


class Action(_Row):
    id: int
    session_id: str
    trigger: str | None = None
    tool_name: str
    params_json: str
    params: Any = None
    result: str | None = None
    success: bool
    timestamp: int
    linked_skill: str | None = None
    json_errors: list[str] = Field(default_factory=list)

    @classmethod
    def from_row(cls, row: Any) -> Action:
        params, err = parse_json_lenient(row["params_json"])
        return cls.model_construct(
            id=row["id"],
            session_id=row["session_id"],
            trigger=row["trigger"],
            tool_name=row["tool_name"],
            params_json=row["params_json"],
            params=params,
            result=row["result"],
            success=bool(row["success"]),
            timestamp=_ms(row["timestamp"], required=True),
            linked_skill=_get(row, "linked_skill"),
            json_errors=[f"params_json: {err}"] if err else [],
        )


class Note(_Row):
    id: str
    content: str
    importance: float = 0.5
    session_id: str | None = None
    created_at: int
    last_accessed_at: int | None = None
    forgotten_at: int | None = None
    root_pursuit_id: str | None = None

    @classmethod
    def from_row(cls, row: Any) -> Note:
        return cls.model_construct(
            id=row["id"],
            content=row["content"],
            importance=_real(row["importance"]),
            session_id=row["session_id"],
            created_at=_ms(row["created_at"], required=True),
            last_accessed_at=_ms(_get(row, "last_accessed_at")),
            forgotten_at=_ms(_get(row, "forgotten_at")),
            root_pursuit_id=_get(row, "root_pursuit_id"),
        )


class Fact(_Row):
    id: str
    namespace: str
    key: str
    value: Any = None
    value_json: str
    confidence: float = 1.0
    superseded_by: str | None = None
    supersedes: str | None = None
    created_at: int
    occurred_at: int | None = None
    valid_from: int | None = None
    valid_until: int | None = None
    last_accessed_at: int | None = None
    decay_tau_days: float | None = None
    forgotten_at: int | None = None
    fact_kind: str = "state"
    root_pursuit_id: str | None = None
    json_errors: list[str] = Field(default_factory=list)

    @property
    def pinned(self) -> bool:
        return self.decay_tau_days is not None and self.decay_tau_days < 0

    @property
    def active(self) -> bool:
        return self.superseded_by is None and self.forgotten_at is None

    @property
    def confidence_valid(self) -> bool:
        c = self.confidence
        return isinstance(c, int | float) and not math.isnan(c) and 0.0 <= c <= 1.0

    @classmethod
    def from_row(cls, row: Any) -> Fact:
        value, err = parse_json_lenient(row["value_json"])
        kind = _get(row, "fact_kind", "state")
        conf = _real(row["confidence"])
        return cls.model_construct(
            id=row["id"],
            namespace=row["namespace"],
            key=row["key"],
            value=value if err is None else row["value_json"],
            value_json=row["value_json"],
            confidence=float("nan") if conf is None else conf,
            superseded_by=row["superseded_by"],
            supersedes=row["supersedes"],
            created_at=_ms(row["created_at"], required=True),
            occurred_at=_ms(_get(row, "occurred_at")),
            valid_from=_ms(_get(row, "valid_from")),
            valid_until=_ms(_get(row, "valid_until")),
            last_accessed_at=_ms(_get(row, "last_accessed_at")),
            decay_tau_days=_real(_get(row, "decay_tau_days")),
            forgotten_at=_ms(_get(row, "forgotten_at")),
            fact_kind="event" if kind == "event" else "state",
            root_pursuit_id=_get(row, "root_pursuit_id"),
            json_errors=[f"value_json: {err}"] if err else [],
        )


class RevisionSnapshot(_Row):
    """One entry of ``memory_skills.revision_history`` (Part B §2), oldest first."""

    at: int
    action_template: str | None = None
    verification: Any = None
    tool_policy: list[Any] | None = None
    reason: str = ""


def parse_revision_history(text: str | None) -> list[RevisionSnapshot]:
    """Part B §2: ``[]`` for NULL, empty, malformed or non-array values."""
    value, err = parse_json_lenient(text)
    if err or not isinstance(value, list):
        return []
    out: list[RevisionSnapshot] = []
    for item in value:
        if not isinstance(item, dict):
            continue
        at = item.get("at")
        out.append(
            RevisionSnapshot.model_construct(
                at=int(at) if isinstance(at, int | float) and not isinstance(at, bool) else 0,
                action_template=item.get("actionTemplate"),
                verification=item.get("verification"),
                tool_policy=item.get("toolPolicy"),
                reason=item.get("reason") if isinstance(item.get("reason"), str) else "",
            )
        )
    return out


def _safe_json_or_none(text: str | None) -> Any:
    """The reference's ``safeParse``: NULL, empty or malformed gives None."""
    if not text:
        return None
    value, err = parse_json_lenient(text)
    return None if err else value


class Skill(_Row):
    id: str
    name: str
    description: str
    trigger_keywords: list[Any] = Field(default_factory=list)
    trigger_keywords_json: str = "[]"
    action_template: str = ""
    use_count: int = 0
    last_used_at: int | None = None
    created_at: int
    success_count: int = 0
    failure_count: int = 0
    last_failure_at: int | None = None
    kind: str = "positive"
    source: str | None = None
    root_pursuit_id: str | None = None
    maturity: str = "draft"
    maturity_raw: str | None = None
    last_success_at: int | None = None
    consecutive_failures: int = 0
    when_to_use: str = ""
    verification: Any = None
    tool_policy: list[Any] | None = None
    revision_history: list[RevisionSnapshot] = Field(default_factory=list)
    offered_count: int = 0
    from_disk: int = 0
    matched_count: int = 0
    rowid: int | None = None
    json_errors: list[str] = Field(default_factory=list)

    @property
    def is_recipe(self) -> bool:
        """A callable recipe is a skill whose ``verification`` is set (decision 5)."""
        return self.verification is not None

    @classmethod
    def from_row(cls, row: Any) -> Skill:
        errors: list[str] = []
        kw_json = row["trigger_keywords"]
        kws, err = parse_json_lenient(kw_json)
        if err:
            errors.append(f"trigger_keywords: {err}")
            kws = []
        elif not isinstance(kws, list):
            errors.append("trigger_keywords: not a JSON array")
            kws = []
        raw_mat = _get(row, "maturity", "draft")
        mat = raw_mat if raw_mat in MATURITIES else "draft"
        tp = _safe_json_or_none(_get(row, "tool_policy"))
        return cls.model_construct(
            id=row["id"],
            name=row["name"],
            description=row["description"],
            trigger_keywords=kws,
            trigger_keywords_json=kw_json,
            action_template=row["action_template"],
            use_count=_count(row["use_count"]),
            last_used_at=_ms(row["last_used_at"]),
            created_at=_ms(row["created_at"], required=True),
            success_count=_count(_get(row, "success_count", 0)),
            failure_count=_count(_get(row, "failure_count", 0)),
            last_failure_at=_ms(_get(row, "last_failure_at")),
            kind="negative" if _get(row, "kind") == "negative" else "positive",
            source=_get(row, "source"),
            root_pursuit_id=_get(row, "root_pursuit_id"),
            maturity=mat,
            maturity_raw=raw_mat,
            last_success_at=_ms(_get(row, "last_success_at")),
            consecutive_failures=_count(_get(row, "consecutive_failures", 0)),
            when_to_use=_get(row, "when_to_use") or "",
            verification=_safe_json_or_none(_get(row, "verification")),
            tool_policy=tp if isinstance(tp, list) else None,
            revision_history=parse_revision_history(_get(row, "revision_history")),
            offered_count=_count(_get(row, "offered_count", 0)),
            from_disk=_count(_get(row, "from_disk", 0)),
            matched_count=_count(_get(row, "matched_count", 0)),
            rowid=_get(row, "rowid"),
            json_errors=errors,
        )


class CalendarEvent(_Row):
    id: str
    title: str
    starts_at: int
    ends_at: int | None = None
    rrule: str | None = None
    timezone: str
    related_fact_id: str | None = None
    external_ref: str | None = None
    created_at: int
    root_pursuit_id: str | None = None

    @classmethod
    def from_row(cls, row: Any) -> CalendarEvent:
        return cls.model_construct(
            id=row["id"],
            title=row["title"],
            starts_at=_ms(row["starts_at"], required=True),
            ends_at=_ms(row["ends_at"]),
            rrule=row["rrule"],
            timezone=row["timezone"],
            related_fact_id=row["related_fact_id"],
            external_ref=row["external_ref"],
            created_at=_ms(row["created_at"], required=True),
            root_pursuit_id=_get(row, "root_pursuit_id"),
        )


class Schedule(_Row):
    id: str
    name: str
    cron_expr: str | None = None
    next_run_at: int
    last_run_at: int | None = None
    action_type: str
    payload_json: str
    payload: Any = None
    enabled: bool = True
    created_at: int
    created_by: str = "llm_external"
    consecutive_failures: int = 0
    paused_until: int | None = None
    project: str | None = None
    root_pursuit_id: str | None = None
    json_errors: list[str] = Field(default_factory=list)

    @classmethod
    def from_row(cls, row: Any) -> Schedule:
        payload, err = parse_json_lenient(row["payload_json"])
        return cls.model_construct(
            id=row["id"],
            name=row["name"],
            cron_expr=row["cron_expr"],
            next_run_at=_ms(row["next_run_at"], required=True),
            last_run_at=_ms(row["last_run_at"]),
            action_type=row["action_type"],
            payload_json=row["payload_json"],
            payload=payload,
            enabled=bool(row["enabled"]),
            created_at=_ms(row["created_at"], required=True),
            created_by=_get(row, "created_by", "llm_external"),
            consecutive_failures=_get(row, "consecutive_failures", 0) or 0,
            paused_until=_ms(_get(row, "paused_until")),
            project=_get(row, "project"),
            root_pursuit_id=_get(row, "root_pursuit_id"),
            json_errors=[f"payload_json: {err}"] if err else [],
        )
