"""What every layer's change finder shares: the reader, the window, the audit trail of the window.

:class:`Reader` runs ``SELECT`` statements on one side of a comparison (the schema ``main``, or ``b``
for an attached baseline backup) under the database's lock. :class:`Ctx` holds the window
``(since, until]``, the forget threshold, the cancel check and the notices. :class:`AuditIndex` turns
the desktop app's audit rows of the window into per-row transitions ``(entry, before, after)``: they
date in-place edits that leave no time in the row (a pin, an unforget, an edited note) and name the
person who made them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core.audit import AuditEntry, entries_between
from core.damage import Damage, damage_json
from core.decay import effective_tau, is_pinned
from core.errors import MemoryError_, Notice
from core.models import Fact, Note, Skill, to_camel

if TYPE_CHECKING:
    from core.db import MemoryDB

__all__ = [
    "AuditIndex",
    "Cancelled",
    "Ctx",
    "Reader",
    "Transition",
    "fact_state",
    "ms",
    "note_state",
    "num",
    "skill_state",
]

FACTS = "memory_facts"
NOTES = "memory_notes"
SKILLS = "memory_skills"
EVENTS = "memory_calendar"
SCHEDULES = "memory_schedules"
MESSAGES = "memory_raw_messages"
ACTIONS = "memory_actions"
OUTCOMES = "schedule_outcomes"
MAX_PARAMS = 500


class Cancelled(MemoryError_):
    """The computation was cancelled; nothing is returned."""

    default_code = "changes.cancelled"


class Reader:
    """``SELECT`` on one schema (``main`` or an attached ``b``) of a :class:`core.db.MemoryDB`."""

    def __init__(self, db: MemoryDB, schema: str = "main"):
        self.db = db
        self.s = schema
        self._cols: dict[str, list[str]] = {}

    def rows(self, sql: str, args: Sequence[Any] | Mapping[str, Any] = ()) -> list[Any]:
        with self.db.lock:
            return self.db.conn.execute(sql, args if isinstance(args, Mapping) else tuple(args)).fetchall()

    def one(self, sql: str, args: Sequence[Any] | Mapping[str, Any] = ()) -> Any:
        with self.db.lock:
            return self.db.conn.execute(sql, args if isinstance(args, Mapping) else tuple(args)).fetchone()

    def columns(self, table: str) -> list[str]:
        """The table's columns (``[]`` when it does not exist)."""
        if table not in self._cols:
            rows = self.rows(f'PRAGMA {self.s}.table_info("{table}")')
            self._cols[table] = [r[1] for r in rows]
        return self._cols[table]

    def has_table(self, table: str) -> bool:
        return bool(self.columns(table))

    def t(self, table: str) -> str:
        """The qualified table name (``main.memory_facts``)."""
        return f"{self.s}.{table}"

    def in_chunks(self, sql: str, values: Iterable[Any], head: Sequence[Any] = ()) -> list[Any]:
        """``sql`` with ``{ids}`` replaced by placeholders, run over ``values`` in chunks."""
        vals = list(dict.fromkeys(values))
        out: list[Any] = []
        for i in range(0, len(vals), MAX_PARAMS):
            part = vals[i : i + MAX_PARAMS]
            out += self.rows(sql.replace("{ids}", ",".join("?" * len(part))), (*head, *part))
        return out


@dataclass
class Ctx:
    """The window of one computation and what its finders share."""

    after: Reader
    since: int | None
    until: int
    mode: str  # "time" or "backup"
    threshold: float
    cancel: Callable[[], bool] | None = None
    before: Reader | None = None
    audit: AuditIndex | None = None
    notices: list[Notice] = field(default_factory=list)

    def check(self) -> None:
        if self.cancel is not None and self.cancel():
            raise Cancelled("The comparison was cancelled.")

    def inside(self, t: Any) -> bool:
        """``since < t <= until`` (no lower bound when ``since`` is unknown)."""
        if not isinstance(t, int | float) or isinstance(t, bool) or not math.isfinite(t):
            return False
        return (self.since is None or t > self.since) and t <= self.until


# -- row states (JSON-ready, the models' camelCase form) -------------------------------------------------


_ALIASES: dict[type, dict[str, str]] = {}


def row_json(model: Any) -> dict[str, Any]:
    """A row model's camelCase JSON form (what ``to_json`` gives, without pydantic's serializer: a change
    set holds thousands of them)."""
    cls = type(model)
    aliases = _ALIASES.get(cls)
    if aliases is None:
        aliases = _ALIASES[cls] = {n: f.alias or n for n, f in cls.model_fields.items()}
    out = {aliases.get(k, k): (list(v) if isinstance(v, list) else v) for k, v in vars(model).items()}
    # ``damaged`` as the command line's --json reports it (a value with nothing readable is null).
    damaged: Mapping[str, Damage] = getattr(model, "damaged", None) or {}
    for col, d in damaged.items():
        if d.unreadable and to_camel(col) in out:
            out[to_camel(col)] = None
    out["damaged"] = damage_json(damaged, to_camel)
    return out


def fact_state(row: Any) -> dict[str, Any]:
    """A fact row's JSON form plus ``status``, ``pinned`` and the effective ``tauDays``."""
    f = row if isinstance(row, Fact) else Fact.from_row(row)
    out = row_json(f)
    out["status"] = (
        "forgotten" if f.forgotten_at is not None else "superseded" if f.superseded_by else "active"
    )
    out["pinned"] = is_pinned(f.decay_tau_days)
    tau = effective_tau(f.namespace, f.decay_tau_days) if not _nan(f.decay_tau_days) else math.nan
    out["tauDays"] = tau if math.isfinite(tau) else None
    return out


def note_state(row: Any) -> dict[str, Any]:
    return row_json(row if isinstance(row, Note) else Note.from_row(row))


def skill_state(s: Skill) -> dict[str, Any]:
    """The fields of a skill a review looks at (counters, grade, recipe)."""
    return {
        "id": s.id,
        "name": s.name,
        "kind": s.kind,
        "maturity": s.maturity,
        "description": s.description,
        "successCount": s.success_count,
        "failureCount": s.failure_count,
        "consecutiveFailures": s.consecutive_failures,
        "useCount": s.use_count,
        "lastSuccessAt": s.last_success_at,
        "lastFailureAt": s.last_failure_at,
        "actionTemplate": s.action_template,
        "verification": s.verification,
        "toolPolicy": s.tool_policy,
        "revisionCount": len(s.revision_history),
        "createdAt": s.created_at,
    }


def _nan(x: Any) -> bool:
    return isinstance(x, float) and math.isnan(x)


def num(v: Any) -> float | None:
    """A REAL column as a float (text SQLite could not read as a number: NaN; ``None`` stays)."""
    if v is None:
        return None
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, int | float):
        return float(v)
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


def ms(v: Any) -> int | None:
    """A time column as epoch ms, ``None`` when it holds no usable time."""
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    x = num(v) if v is not None else None
    if x is not None and math.isfinite(x) and abs(x) < 2**63:
        return int(x)
    return None


def fact_name(row: Any) -> str:
    return f"{row['namespace']}.{row['key']}"


# -- the audit trail of the window ------------------------------------------------------------------------


@dataclass(frozen=True)
class Transition:
    """One row as an audited edit found it (``before``) and left it (``after``); ``None``: no row."""

    entry: AuditEntry
    row_id: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None

    def changed(self, column: str) -> bool:
        return (
            self.before is not None
            and self.after is not None
            and column in self.after
            and self.before.get(column) != self.after.get(column)
        )


_TABLE_OF = {"fact": FACTS, "facts": FACTS, "note": NOTES, "skill": SKILLS, "calendar_event": EVENTS}
_TABLE_OF["schedule"] = SCHEDULES
_REMOVES_AFTER = {"facts.edit", "facts.add", "notes.add"}  # their undo deletes the row they inserted


def _states(value: Any) -> list[Any]:
    if isinstance(value, dict) and isinstance(value.get("rows"), list):
        return list(value["rows"])
    return [value]


def _rid(state: Any) -> str | None:
    return str(state["id"]) if isinstance(state, dict) and state.get("id") is not None else None


def transitions(entry: AuditEntry) -> list[tuple[str, Transition]]:
    """``(table, transition)`` of every row an audit entry touched, matched by row id."""
    table = _TABLE_OF.get(entry.target_type)
    if table is None:
        return []
    befores, afters = _states(entry.before), _states(entry.after)
    if len(befores) != len(afters):
        befores, afters = [entry.before], [entry.after]
    out: list[tuple[str, Transition]] = []
    undo_of_insert = entry.is_undo and entry.original_action in _REMOVES_AFTER
    for b, a in zip(befores, afters, strict=True):
        bid, aid = _rid(b), _rid(a)
        if undo_of_insert and bid is not None:
            out.append((table, Transition(entry, bid, b, None)))
        elif bid is not None and bid == aid:
            out.append((table, Transition(entry, bid, b, a)))
        else:
            if aid is not None:
                out.append((table, Transition(entry, aid, None, a)))
            if bid is not None and a is None:
                out.append((table, Transition(entry, bid, b, None)))
    return out


class AuditIndex:
    """The audited edits of the window, by table and row id, oldest first."""

    def __init__(self, entries: Iterable[AuditEntry]):
        self.by_row: dict[tuple[str, str], list[Transition]] = {}
        self.entries = list(entries)
        for e in self.entries:
            for table, tr in transitions(e):
                self.by_row.setdefault((table, tr.row_id), []).append(tr)

    @classmethod
    def load(cls, reader: Reader, since: int | None, until: int) -> AuditIndex:
        return cls(entries_between(reader.db, since, until))

    def of(self, table: str, row_id: Any) -> list[Transition]:
        return self.by_row.get((table, str(row_id)), [])

    def table(self, table: str) -> list[Transition]:
        return [tr for (t, _), trs in self.by_row.items() if t == table for tr in trs]

    def last_changing(self, table: str, row_id: Any, columns: Iterable[str]) -> Transition | None:
        """The newest transition of the row that changed one of ``columns`` (``None``: no such edit)."""
        cols = tuple(columns)
        for tr in reversed(self.of(table, row_id)):
            if any(tr.changed(c) for c in cols):
                return tr
        return None

    def creator(self, table: str, row_id: Any) -> str | None:
        """The person who inserted the row, when an audited edit did."""
        return next((tr.entry.actor for tr in self.of(table, row_id) if tr.before is None), None)
