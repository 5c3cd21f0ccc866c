"""What the doctor's checks share: the thresholds (:class:`HealthOptions`), the rows read once
(:class:`Context`) and the making of a :class:`~core.health.finding.Finding` with its English message."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, NamedTuple

from core.damage import as_text, decode_text
from core.decay import DEFAULT_FORGET_THRESHOLD
from core.errors import ValidationError_
from core.health.finding import Finding, Fix
from core.health.messages import notice

if TYPE_CHECKING:
    from core.db import MemoryDB
    from core.models import Schedule, Skill
    from core.prefix import PrefixResult

ProgressFn = Callable[[str, int, int], Any]

DAY = 86_400_000
MB = 1024 * 1024


@dataclass(frozen=True)
class HealthOptions:
    """The thresholds of the checks (each a field; the defaults are what a finding is held against).

    * ``forget_threshold``: a decay score below it makes a fact a forget candidate (the reference's 0.05);
    * ``unread_days``: a live fact not read (``last_accessed_at``, else ``created_at``) for this long;
    * ``same_value_min_chars``: the shortest text compared across keys (statuses such as "done" or "in
      review" are shared by nature);
    * ``draft_unused_days``: a draft skill not used (``last_used_at``, else ``created_at``) for this long;
    * ``offered_min``: a skill offered at least this often and never matched;
    * ``near_duplicate_ratio``: recipes (``action_template``) at least this alike (0-1: the Jaccard index
      of their sets of words and signs);
    * ``task_failures``: consecutive failures of a task that make it "failing again and again";
    * ``overdue_hours``: a one-shot task never run this long after its time;
    * ``free_ratio`` and ``free_min_mb``: free pages over this share of the file *and* this size;
    * ``wal_max_mb``: a ``-wal`` file above this size;
    * ``backup_max_age_days``: the newest good backup older than this (or none at all);
    * ``prefix_warn_ratio``: the prefix above this share of its cap (over the cap is always a warning);
    * ``prefix_months``: how many month ends the prefix's history covers;
    * ``messages_per_day_max``: the busiest day of the last ``messages_days`` days above this;
    * ``size_max_mb``: a file above this size.
    """

    forget_threshold: float = DEFAULT_FORGET_THRESHOLD
    unread_days: float = 90
    same_value_min_chars: float = 12
    draft_unused_days: float = 30
    offered_min: int = 20
    near_duplicate_ratio: float = 0.9
    task_failures: int = 3
    overdue_hours: float = 1
    free_ratio: float = 0.25
    free_min_mb: float = 8
    wal_max_mb: float = 64
    backup_max_age_days: float = 7
    prefix_warn_ratio: float = 0.9
    prefix_months: int = 12
    messages_days: int = 30
    messages_per_day_max: int = 5000
    size_max_mb: float = 2048

    @classmethod
    def of(cls, options: HealthOptions | Mapping[str, Any] | None) -> HealthOptions:
        if options is None:
            return cls()
        if isinstance(options, HealthOptions):
            return options
        names = {f.name: f for f in dataclasses.fields(cls)}
        for k, v in options.items():
            if k not in names:
                raise ValidationError_(
                    f"Unknown health option {k!r}.", code="health.option_unknown", params={"option": k}
                )
            if isinstance(v, bool) or not isinstance(v, int | float):
                raise ValidationError_(
                    f"The health option {k} must be a number, not {v!r}.",
                    code="health.option_invalid",
                    params={"option": k, "value": repr(v)},
                )
        return dataclasses.replace(cls(), **dict(options))


def finding(
    code: str,
    severity: str,
    targets: Iterable[Any],
    measure: Mapping[str, Any] | None = None,
    fix: Fix | None = None,
    **params: Any,
) -> Finding:
    """A finding of ``code`` (its layer is the code's second part), its message rendered from ``params``."""
    layer = code.split(".")[1]
    return Finding(code, severity, layer, list(targets), notice(code, **params), dict(measure or {}), fix)


def stored_text(v: Any) -> Any:
    """A text column as the stores read it: bytes decoded (an :class:`~core.damage.UnreadableText` when
    they are not UTF-8), a number as JavaScript prints it, text and NULL as they are."""
    if v is None or isinstance(v, str):
        return v
    if isinstance(v, bytes | bytearray | memoryview):
        return decode_text(bytes(v))
    return as_text(v)


class FactRow(NamedTuple):
    """The columns of a fact the checks read, as stored (a damaged value stays what it is)."""

    rowid: int
    id: Any
    namespace: Any
    key: Any
    value_json: Any
    confidence: Any
    superseded_by: Any
    created_at: Any
    valid_until: Any
    last_accessed_at: Any
    forgotten_at: Any
    json_valid: Any

    @property
    def active(self) -> bool:
        return self.superseded_by is None and self.forgotten_at is None


class Context:
    """What the checks share: the database, ``now``, the thresholds and the rows read once."""

    def __init__(self, db: MemoryDB, now: int, options: HealthOptions):
        self.db = db
        self.now = now
        self.options = options

    @cached_property
    def facts(self) -> list[FactRow]:
        """Every fact row (superseded and forgotten ones too), the columns the checks measure."""
        rows = self.rows(
            "SELECT rowid, id, namespace, key, value_json, confidence, superseded_by, created_at, "
            "valid_until, last_accessed_at, forgotten_at, json_valid(value_json) FROM memory_facts "
            "ORDER BY rowid"
        )
        out = []
        for r in rows:
            v = list(r)
            for i in (1, 2, 3, 6):  # id, namespace, key, superseded_by: text as the stores read it
                v[i] = stored_text(v[i])
            out.append(FactRow(*v))
        return out

    @cached_property
    def facts_by_id(self) -> dict[Any, FactRow]:
        return {f.id: f for f in self.facts}

    @cached_property
    def prefix(self) -> PrefixResult:
        from core.prefix import build_memory_prefix

        return build_memory_prefix(self.db, now=self.now)

    @cached_property
    def skills(self) -> list[Skill]:
        from core.skills import SkillStore

        return SkillStore(self.db).list_every()

    @cached_property
    def notes(self) -> list[tuple[Any, Any, Any, Any]]:
        """``(id, content, created_at, forgotten_at)`` of every note, in rowid order."""
        rows = self.rows("SELECT id, content, created_at, forgotten_at FROM memory_notes ORDER BY rowid")
        return [(stored_text(r[0]), stored_text(r[1]), r[2], r[3]) for r in rows]

    @cached_property
    def schedules(self) -> list[Schedule]:
        from core.schedules import ScheduleStore

        return ScheduleStore(self.db).list_all()

    def has_table(self, name: str) -> bool:
        return self.db.table_exists(name)

    def rows(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        """The rows of one statement, read under the database's lock (held for that statement only, so
        a long check never keeps another thread of the app waiting for more than one query)."""
        with self.db.lock:
            return self.db.conn.execute(sql, args).fetchall()

    def one(self, sql: str, args: Sequence[Any] = ()) -> Any:
        """The first row of one statement (``None`` without one), read as :meth:`rows` reads."""
        with self.db.lock:
            return self.db.conn.execute(sql, args).fetchone()


Check = Callable[[Context], list[Finding]]
