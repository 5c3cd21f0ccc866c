"""Pydantic models of the rows of every layer.

Attributes are snake_case; the JSON form (``model_dump(by_alias=True)``, ``to_json()``) uses the
reference's camelCase names (``createdAt``, ``supersededBy``, ...), so that tool ``data`` and the
CLI's ``--json`` output look like what the reference agent produces. Times are epoch milliseconds.

Rows are built with :meth:`_Row.from_row` from ``sqlite3.Row`` objects, every column through
:class:`core.damage.RowReader`: reading never fails on bad data. A value that is not what its column
holds (text that is not UTF-8, a BLOB, NULL in a NOT NULL column, text in a time or number column,
JSON that does not parse or nests too deep) is read as a usable value of the column's kind and
recorded in the row's ``damaged`` (column → :class:`core.damage.Damage`); the JSON form reports it in
``damaged`` and says ``null`` where nothing readable was stored. Invalid JSON is also kept verbatim in
the ``*_json`` field and reported in ``json_errors``, as before. An unknown enumeration value is kept as
read (``kind``/``maturity`` are normalised the way the reference normalises them, see each field).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from core.damage import JS_TIME_MAX, Damage, RowReader, damage_json, loads_json

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

    #: Values that could not be read as their column promises, by column (not in ``model_dump``).
    damaged: dict[str, Damage] = Field(default_factory=dict, exclude=True)

    def to_json(self) -> dict[str, Any]:
        """The camelCase JSON-ready dict (NaN/Infinity kept as floats) with ``damaged`` reported:
        ``{camelCase field: Damage.to_json()}``; a damaged value with nothing readable is ``null``."""
        # A row holds its values as stored (model_construct), as the agent reads them: a fraction in a
        # counter of a file edited by hand is output as that number, never a serializer warning on stderr.
        out = self.model_dump(by_alias=True, warnings=False)
        damaged = self.damaged
        if damaged:
            for col, d in damaged.items():
                key = to_camel(col)
                if d.unreadable and key in out:
                    out[key] = None
        out["damaged"] = damage_json(damaged, to_camel)
        return out

    @property
    def is_damaged(self) -> bool:
        return bool(self.damaged)

    def damage_of(self, column: str) -> Damage | None:
        """The damage of one column (its SQL name), or ``None`` when it was read as stored."""
        return self.damaged.get(column)

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
    """``(value, error)``: the parsed JSON, or ``(None, message)`` when ``text`` is not JSON as
    JavaScript reads it (``NaN``/``Infinity`` are not JSON; nesting beyond
    :data:`core.damage.MAX_JSON_DEPTH` is refused)."""
    if text is None:
        return None, None
    if not isinstance(text, str):
        return None, f"invalid JSON: not text ({type(text).__name__})"
    value, problem, message = loads_json(text)
    if problem is None or problem == "out_of_range":
        return value, None
    return None, message if problem == "invalid_json" else f"invalid JSON: {message}"


class Session(_Row):
    id: str
    started_at: int
    ended_at: int | None = None
    message_count: int | None = None

    @classmethod
    def from_row(cls, row: Any) -> Session:
        r = RowReader(row)
        return cls.model_construct(
            id=r.text("id"),
            started_at=r.time("started_at", required=True),
            ended_at=r.time("ended_at"),
            message_count=r.count("message_count") if r.has("message_count") else None,
            damaged=r.damaged,
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
        try:
            origin = row["origin_session_id"]
        except (IndexError, KeyError):
            origin = None
        m = cls._clean(row["id"], row["session_id"], row["role"], row["content"], row["timestamp"], origin)
        return m if m is not None else cls._read(row)

    @classmethod
    def from_tuples(cls, rows: Iterable[tuple[Any, ...]], names: Sequence[str]) -> list[Message]:
        """The messages of a query's plain rows (:meth:`core.db.MemoryDB.fetch_tuples`), ``names`` its
        columns: ``id``, ``session_id``, ``role``, ``content``, ``timestamp`` and, where the table has
        it, ``origin_session_id``."""
        at = {n: i for i, n in enumerate(names)}
        i_id, i_session, i_role = at["id"], at["session_id"], at["role"]
        i_content, i_ts, i_origin = at["content"], at["timestamp"], at.get("origin_session_id")
        clean, out = cls._clean, []
        for t in rows:
            origin = None if i_origin is None else t[i_origin]
            m = clean(t[i_id], t[i_session], t[i_role], t[i_content], t[i_ts], origin)
            out.append(m if m is not None else cls._read(dict(zip(names, t, strict=True))))
        return out

    @classmethod
    def _clean(cls, id_: Any, session: Any, role: Any, content: Any, ts: Any, origin: Any) -> Message | None:
        """The message when every value is what its column holds (exact types: text that is not UTF-8,
        a str subclass, is not), built in one step; else ``None`` (the damage reader's turn). A page of
        the timeline is a hundred of these, read while a person scrolls."""
        if not (
            type(ts) is int
            and -JS_TIME_MAX <= ts <= JS_TIME_MAX
            and type(session) is str
            and type(role) is str
            and type(content) is str
            and (origin is None or type(origin) is str)
        ):
            return None
        m = _new(cls)
        _set(m, "__dict__", {"damaged": {}, "id": id_, "session_id": session, "role": role,
                             "content": content, "timestamp": ts, "origin_session_id": origin})  # fmt: skip
        _set(m, "__pydantic_fields_set__", set(_MESSAGE_FIELDS))
        _set(m, "__pydantic_extra__", None)
        _set(m, "__pydantic_private__", None)
        return m

    @classmethod
    def _read(cls, row: Any) -> Message:
        r = RowReader(row)
        return cls.model_construct(
            id=row["id"],
            session_id=r.text("session_id"),
            role=r.text("role"),
            content=r.text("content"),
            timestamp=r.time("timestamp", required=True),
            origin_session_id=r.text("origin_session_id", null_ok=True),
            damaged=r.damaged,
        )


_new = object.__new__
_set = object.__setattr__
_MESSAGE_FIELDS = ("damaged", "id", "session_id", "role", "content", "timestamp", "origin_session_id")


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
        r = RowReader(row)
        text, params, err = r.json("params_json")
        return cls.model_construct(
            id=row["id"],
            session_id=r.text("session_id"),
            trigger=r.text("trigger", null_ok=True),
            tool_name=r.text("tool_name"),
            params_json=text,
            params=params,
            result=r.text("result", null_ok=True),
            success=r.flag("success", default=False),
            timestamp=r.time("timestamp", required=True),
            linked_skill=r.text("linked_skill", null_ok=True),
            json_errors=[err] if err else [],
            damaged=r.damaged,
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
        r = RowReader(row)
        return cls.model_construct(
            id=r.text("id"),
            content=r.text("content"),
            importance=r.real("importance", required=True),
            session_id=r.text("session_id", null_ok=True),
            created_at=r.time("created_at", required=True),
            last_accessed_at=r.time("last_accessed_at"),
            forgotten_at=r.time("forgotten_at"),
            root_pursuit_id=r.text("root_pursuit_id", null_ok=True),
            damaged=r.damaged,
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
        r = RowReader(row)
        text, value, err = r.json("value_json")
        if err is not None and "value_json" in r.damaged and r.damaged["value_json"].problem != "missing":
            value = text  # shown as the stored text
        kind = r.text("fact_kind", default="state")
        return cls.model_construct(
            id=r.text("id"),
            namespace=r.text("namespace"),
            key=r.text("key"),
            value=value,
            value_json=text,
            confidence=r.real("confidence", required=True),
            superseded_by=r.text("superseded_by", null_ok=True),
            supersedes=r.text("supersedes", null_ok=True),
            created_at=r.time("created_at", required=True),
            occurred_at=r.time("occurred_at"),
            valid_from=r.time("valid_from"),
            valid_until=r.time("valid_until"),
            last_accessed_at=r.time("last_accessed_at"),
            decay_tau_days=r.real("decay_tau_days"),
            forgotten_at=r.time("forgotten_at"),
            fact_kind="event" if kind == "event" else "state",
            root_pursuit_id=r.text("root_pursuit_id", null_ok=True),
            json_errors=[err] if err else [],
            damaged=r.damaged,
        )


class RevisionSnapshot(_Row):
    """One entry of ``memory_skills.revision_history`` (Part B §2), oldest first."""

    at: int
    action_template: str | None = None
    verification: Any = None
    tool_policy: list[Any] | None = None
    reason: str = ""


def _snapshot_time(at: Any) -> int | None:
    if isinstance(at, bool) or not isinstance(at, int | float):
        return None
    if isinstance(at, float) and not math.isfinite(at):
        return None
    return int(at) if -8_640_000_000_000_000 <= at <= 8_640_000_000_000_000 else None


def _revisions(items: list[Any]) -> tuple[list[RevisionSnapshot], list[str]]:
    out: list[RevisionSnapshot] = []
    problems: list[str] = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            problems.append(f"entry {i + 1} is not an object")
            continue
        at = _snapshot_time(item.get("at"))
        if at is None:
            problems.append(f"entry {i + 1} has no readable time")
        tpl = item.get("actionTemplate")
        tp = item.get("toolPolicy")
        reason = item.get("reason")
        out.append(
            RevisionSnapshot.model_construct(
                at=0 if at is None else at,
                action_template=tpl if tpl is None or isinstance(tpl, str) else str(tpl),
                verification=item.get("verification"),
                tool_policy=tp if isinstance(tp, list) else None,
                reason=reason if isinstance(reason, str) else "",
            )
        )
    return out, problems


def parse_revision_history(text: str | None) -> list[RevisionSnapshot]:
    """Part B §2: ``[]`` for NULL, empty, malformed or non-array values."""
    value, err = parse_json_lenient(text)
    if err or not isinstance(value, list):
        return []
    return _revisions(value)[0]


def _revision_history(r: RowReader) -> list[RevisionSnapshot]:
    """Part B §2 (``[]`` for NULL, empty, malformed or non-array values), with the damage recorded."""
    if not r.has("revision_history"):
        return []
    text, value, err = r.json("revision_history", null_ok=True)
    if not text or err is not None:
        return []
    if not isinstance(value, list):
        r.wrong_type("revision_history", "not a JSON array (read as no revisions)")
        return []
    out, problems = _revisions(value)
    if problems:
        r.wrong_type("revision_history", "; ".join(problems))
    return out


def _safe_json(r: RowReader, col: str) -> Any:
    """The reference's ``safeParse``: NULL, empty or malformed gives None (the damage recorded)."""
    return r.json(col, null_ok=True)[1]


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
        r = RowReader(row)
        errors: list[str] = []
        kw_json, kws, err = r.json("trigger_keywords")
        if err:
            errors.append(err)
            kws = []
        elif not isinstance(kws, list):
            errors.append("trigger_keywords: not a JSON array")
            r.wrong_type("trigger_keywords", "not a JSON array")
            kws = []
        raw_mat = r.text("maturity", default="draft")
        tp = _safe_json(r, "tool_policy")
        if tp is not None and not isinstance(tp, list):
            r.wrong_type("tool_policy", "not a JSON array (read as no policy)")
        return cls.model_construct(
            id=r.text("id"),
            name=r.text("name"),
            description=r.text("description"),
            trigger_keywords=kws,
            trigger_keywords_json=kw_json,
            action_template=r.text("action_template"),
            use_count=r.count("use_count"),
            last_used_at=r.time("last_used_at"),
            created_at=r.time("created_at", required=True),
            success_count=r.count("success_count"),
            failure_count=r.count("failure_count"),
            last_failure_at=r.time("last_failure_at"),
            kind="negative" if r.text("kind", default="positive") == "negative" else "positive",
            source=r.text("source", null_ok=True),
            root_pursuit_id=r.text("root_pursuit_id", null_ok=True),
            maturity=raw_mat if raw_mat in MATURITIES else "draft",
            maturity_raw=raw_mat,
            last_success_at=r.time("last_success_at"),
            consecutive_failures=r.count("consecutive_failures"),
            when_to_use=r.text("when_to_use", null_ok=True) or "",
            verification=_safe_json(r, "verification"),
            tool_policy=tp if isinstance(tp, list) else None,
            revision_history=_revision_history(r),
            offered_count=r.count("offered_count"),
            from_disk=r.count("from_disk"),
            matched_count=r.count("matched_count"),
            rowid=row["rowid"] if r.has("rowid") else None,
            json_errors=errors,
            damaged=r.damaged,
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
        r = RowReader(row)
        return cls.model_construct(
            id=r.text("id"),
            title=r.text("title"),
            starts_at=r.time("starts_at", required=True),
            ends_at=r.time("ends_at"),
            rrule=r.text("rrule", null_ok=True),
            timezone=r.text("timezone"),
            related_fact_id=r.text("related_fact_id", null_ok=True),
            external_ref=r.text("external_ref", null_ok=True),
            created_at=r.time("created_at", required=True),
            root_pursuit_id=r.text("root_pursuit_id", null_ok=True),
            damaged=r.damaged,
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
        r = RowReader(row)
        text, payload, err = r.json("payload_json")
        return cls.model_construct(
            id=r.text("id"),
            name=r.text("name"),
            cron_expr=r.text("cron_expr", null_ok=True),
            next_run_at=r.time("next_run_at", required=True),
            last_run_at=r.time("last_run_at"),
            action_type=r.text("action_type"),
            payload_json=text,
            payload=payload,
            enabled=r.flag("enabled", default=True),
            created_at=r.time("created_at", required=True),
            created_by=r.text("created_by", default="llm_external"),
            consecutive_failures=r.count("consecutive_failures"),
            paused_until=r.time("paused_until"),
            project=r.text("project", null_ok=True),
            root_pursuit_id=r.text("root_pursuit_id", null_ok=True),
            json_errors=[err] if err else [],
            damaged=r.damaged,
        )


# -- damage of a stored row, for readers of raw rows (exports) ----------------------------------------------

#: The model that reads each core table's rows.
MODEL_OF_TABLE: dict[str, type[_Row]] = {
    "memory_raw_messages": Message,
    "memory_actions": Action,
    "memory_notes": Note,
    "memory_facts": Fact,
    "memory_skills": Skill,
    "memory_calendar": CalendarEvent,
    "memory_schedules": Schedule,
}

# What a sound value of each column looks like (``?``: NULL allowed); a row with any other value is read
# through its model to say what is damaged. Tables with JSON columns are always read through the model.
_T, _TN, _MS, _MSN, _R = "text", "text?", "time", "time?", "real"
_SOUND_SHAPES: dict[str, dict[str, str]] = {
    "memory_raw_messages": {"session_id": _T, "role": _T, "content": _T, "timestamp": _MS, "origin_session_id": _TN},
    "memory_notes": {"id": _T, "content": _T, "importance": _R, "session_id": _TN, "created_at": _MS,
                     "last_accessed_at": _MSN, "forgotten_at": _MSN, "root_pursuit_id": _TN},
    "memory_calendar": {"id": _T, "title": _T, "starts_at": _MS, "ends_at": _MSN, "rrule": _TN, "timezone": _T,
                        "related_fact_id": _TN, "external_ref": _TN, "created_at": _MS, "root_pursuit_id": _TN},
}  # fmt: skip
_JS_TIME_MAX = 8_640_000_000_000_000


def _sound(kind: str, v: Any) -> bool:
    t = type(v)
    if kind == "text":
        return t is str
    if kind == "text?":
        return t is str or v is None
    if kind in ("time", "time?"):
        return (t is int and -_JS_TIME_MAX <= v <= _JS_TIME_MAX) or (kind == "time?" and v is None)
    if kind == "real":
        return t is int or (t is float and math.isfinite(v))
    return True


def row_damage(table: str, row: Any) -> dict[str, Damage]:
    """What is damaged in one stored row of a core table (``{}`` when it is read as stored), by the same
    reading as the table's model (:class:`core.damage.RowReader`); ``row`` holds every column."""
    model = MODEL_OF_TABLE.get(table)
    if model is None:
        return {}
    shapes = _SOUND_SHAPES.get(table)
    if shapes is not None:
        keys = set(row.keys())  # (``in`` on an sqlite3.Row looks at its values)
        if all(_sound(kind, row[col]) for col, kind in shapes.items() if col in keys):
            return {}
    return model.from_row(row).damaged  # type: ignore[attr-defined]
