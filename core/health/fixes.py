"""The doctor's one-step fixes: each :class:`~core.health.finding.Fix` turned into an audited, undoable
curation change (:class:`core.curation.Change`; a backup is taken before the first write, as for every
edit), and :func:`preview`, the row changes it will make, for a person to look at first.

The parameters each fix code reads (``Fix.params``; ``ids`` may also be given as ``targets`` of the
finding, see :func:`fix_ids`):

================================  =====================================================================
``health.fix.merge_duplicates``   ``table`` or ``layer`` (facts, the default, or notes), ``ids``
                                  and optionally ``survivor`` (a suggestion). The person picks the one
                                  kept (``choice``): facts -> the others superseded by it
                                  (``facts.merge``), notes -> the others forgotten (``notes.merge``),
                                  skills (``layer`` ``skills``) -> the others ``deprecated``
``health.fix.forget``             ``table``, ``ids`` -> ``facts.bulk_forget`` / ``notes.bulk_forget``
``health.fix.pin``                ``ids`` -> ``facts.bulk_pin``
``health.fix.shorten_tau``        ``ids``, ``tau_days`` (``choice`` overrides) -> ``facts.bulk_set_tau``
``health.fix.repair_chain``       ``ids`` (the versions whose chain is broken) -> ``facts.repair_chain``
``health.fix.demote_skill``       ``ids`` (skill ids or names) or ``name``, optionally ``to`` (default
                                  one grade down) and ``reason`` (``choice`` overrides the reason) ->
                                  ``skills.bulk_set_maturity`` with the reason as the audit note
``health.fix.pause_task``         ``id`` -> ``calendar.schedule_disable``
``health.fix.enable_task``        ``id`` -> ``calendar.schedule_enable`` (a disabled task) or
                                  ``calendar.schedule_resume`` (a task paused after failures)
``health.fix.rebuild_index``      ``index`` -> ``indexes.rebuild``, refused while the agent writes
================================  =====================================================================

"Never merge these": :class:`core.health.sidedata.HealthSideData` remembers a group a person said are not
duplicates, outside the database; :func:`drop_dismissed` leaves out the duplicate findings of such a
group (the checks may also take the groups as ``options["dismissed"]``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.curation import Change
from core.curation import calendar as ccal
from core.curation import facts as cfacts
from core.curation import indexes as cidx
from core.curation import notes as cnotes
from core.curation import skill_grades as cgrades
from core.curation.facts import chains as cchains
from core.decay import PIN_SENTINEL
from core.errors import NotFoundError, ValidationError_
from core.health.finding import Finding, Fix
from core.jsutil import now_ms

if TYPE_CHECKING:
    from core.db import MemoryDB
    from core.engine import Connection

PREFIX = "health.fix."
MERGE = PREFIX + "merge_duplicates"
FORGET = PREFIX + "forget"
PIN = PREFIX + "pin"
SHORTEN_TAU = PREFIX + "shorten_tau"
REPAIR_CHAIN = PREFIX + "repair_chain"
DEMOTE_SKILL = PREFIX + "demote_skill"
PAUSE_TASK = PREFIX + "pause_task"
ENABLE_TASK = PREFIX + "enable_task"
REBUILD_INDEX = PREFIX + "rebuild_index"
CODES = (MERGE, FORGET, PIN, SHORTEN_TAU, REPAIR_CHAIN, DEMOTE_SKILL, PAUSE_TASK, ENABLE_TASK, REBUILD_INDEX)
#: one grade down, for a maturity the action log does not back
DEMOTED = {"stable": "confirmed", "confirmed": "draft", "playbook": "draft"}
FACTS, NOTES, SKILLS, SCHEDULES = "memory_facts", "memory_notes", "memory_skills", "memory_schedules"

__all__ = [
    "CODES",
    "RowChange",
    "change_for",
    "choices",
    "drop_dismissed",
    "fix_ids",
    "needs_choice",
    "preview",
]


@dataclass(frozen=True)
class RowChange:
    """One value a fix changes: the row (``table``, ``id``, a ``label`` people know it by: ``ns.key``, a
    note's start, a skill's or a task's name), the ``column`` and its value ``before`` and ``after``."""

    table: str
    id: str
    label: str
    column: str
    before: Any
    after: Any

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


# -- reading a fix ----------------------------------------------------------------------------------------


def fix_ids(fix: Fix, finding: Finding | None = None) -> list[str]:
    """The row ids a fix acts on: ``params["ids"]`` (or ``id``), else the finding's targets."""
    p = fix.params
    raw: Any = p.get("ids")
    if raw is None and p.get("id") is not None:
        raw = [p["id"]]
    if raw is None and finding is not None:
        raw = finding.targets
    if isinstance(raw, str | int):
        raw = [raw]
    return [str(i) for i in dict.fromkeys(raw or ()) if i is not None]


def _layer(fix: Fix) -> str:
    return str(fix.params.get("layer") or "")


def _table(fix: Fix) -> str:
    table = str(fix.params.get("table") or fix.params.get("layer") or FACTS)
    if table in ("facts", "notes"):
        table = f"memory_{table}"
    if table not in (FACTS, NOTES):
        raise ValidationError_(
            f"This fix works on facts and notes, not on {table}.",
            code="health.fix_table",
            params={"table": table},
        )
    return table


def needs_choice(fix: Fix) -> str | None:
    """What a person must give before the fix runs: ``survivor`` (merge), ``tau`` (shorten tau, when the
    fix proposes none), ``reason`` (demote) or ``None``."""
    if fix.code == MERGE:
        return "survivor"
    if fix.code == SHORTEN_TAU and not isinstance(fix.params.get("tau_days"), int | float):
        return "tau"
    if fix.code == DEMOTE_SKILL:
        return "reason"
    return None


def _unknown(fix: Fix) -> ValidationError_:
    return ValidationError_(
        f"Unknown fix {fix.code!r}.", code="health.fix_unknown", params={"fix": str(fix.code)}
    )


def _skills(conn: Connection, fix: Fix, ids: Sequence[str]) -> list[dict[str, Any]]:
    """The skills a fix names (``params["name"]``, else ``ids`` as skill ids or names), as rows."""
    name = fix.params.get("name")
    keys = [str(name)] if isinstance(name, str) and name else list(ids)
    out = []
    for k in keys:
        row = conn.execute("SELECT * FROM memory_skills WHERE id = ? OR name = ? LIMIT 1", (k, k)).fetchone()
        if row is None:
            raise NotFoundError(f"There is no skill {k!r}.", code="skill.not_found", params={"name": k})
        out.append(dict(zip(row.keys(), tuple(row))))
    return out


def _demote_to(fix: Fix, current: str) -> str:
    to = fix.params.get("to")
    return str(to) if isinstance(to, str) and to else DEMOTED.get(current, "draft")


def _merged_reason(survivor: dict[str, Any]) -> str:
    return f"near-duplicate of {survivor['name']}, kept instead"


def _reason(fix: Fix, finding: Finding | None, choice: Any) -> str:
    """The person's reason, else the fix's (unless it is only a code), else the finding's message."""
    given = fix.params.get("reason")
    if isinstance(given, str) and given.startswith("health."):
        given = None  # a finding's code: its message says it in words
    for text in (choice, given, finding.message.message if finding else None):
        if isinstance(text, str) and text.strip():
            return text.strip()
    return "maturity not backed by the action log"


def _tau(fix: Fix, choice: Any) -> Any:
    return choice if choice is not None else fix.params.get("tau_days")


def _task(conn: Connection, sched_id: str) -> dict[str, Any]:
    row = conn.execute("SELECT * FROM memory_schedules WHERE id = ?", (sched_id,)).fetchone()
    if row is None:
        raise NotFoundError(
            f"No task {sched_id!r}: it may have been deleted meanwhile.",
            code="calendar.row_gone",
            params={"row_kind": "task", "id": sched_id},
        )
    return dict(zip(row.keys(), tuple(row)))


# -- the change -------------------------------------------------------------------------------------------


def change_for(
    db: MemoryDB, fix: Fix, *, finding: Finding | None = None, choice: Any = None, now: int | None = None
) -> Change:
    """The curation change that carries out ``fix`` (``choice``: see :func:`needs_choice`).

    Raises :class:`~core.errors.ValidationError_` for a fix that lacks what it needs, and
    :class:`core.backups.AgentRunningError` for an index rebuild while the agent writes.
    """
    ids = fix_ids(fix, finding)
    code = fix.code
    if code == MERGE:
        if choice is None:
            raise ValidationError_("Pick the one to keep.", code="health.fix_needs_survivor")
        if _layer(fix) == "skills":
            return _skill_merge_change(db, ids, str(choice))
        if _table(fix) == NOTES:
            return cnotes.forget_many(ids, keep=str(choice), now=now)
        return cchains.merge(ids, str(choice))
    if code == FORGET:
        if _table(fix) == NOTES:
            return cnotes.forget_many(ids, now=now)
        return cfacts.bulk("forget", ids, now=now)
    if code == PIN:
        return cfacts.bulk("pin", ids, now=now)
    if code == SHORTEN_TAU:
        tau = _tau(fix, choice)
        if not isinstance(tau, int | float) or isinstance(tau, bool) or tau <= 0:
            raise ValidationError_("Give a decay time in days above 0.", code="health.fix_needs_tau")
        return cchains.set_taus(ids, float(tau))
    if code == REPAIR_CHAIN:
        return cchains.repair_chain(ids)
    if code == DEMOTE_SKILL:
        return _demote_change(db, fix, finding, choice)
    if code in (PAUSE_TASK, ENABLE_TASK):
        return _task_change(db, code, ids)
    if code == REBUILD_INDEX:
        return cidx.rebuild(db, str(fix.params.get("index") or (ids[0] if ids else "")))
    raise _unknown(fix)


def _demote_change(db: MemoryDB, fix: Fix, finding: Finding | None, choice: Any) -> Change:
    with db.lock:
        skills = _skills(db.conn, fix, fix_ids(fix, finding))
    to = _demote_to(fix, skills[0]["maturity"]) if skills else "draft"
    return cgrades.set_maturities([s["id"] for s in skills], to, reason=_reason(fix, finding, choice))


def _skill_merge_change(db: MemoryDB, ids: Sequence[str], survivor: str) -> Change:
    with db.lock:
        skills = _skills(db.conn, Fix(MERGE), ids)
    kept = next((s for s in skills if survivor in (s["id"], s["name"])), None)
    if kept is None or len(skills) < 2:
        raise ValidationError_("Pick the one to keep.", code="health.fix_needs_survivor")
    others = [s["id"] for s in skills if s is not kept]
    return cgrades.set_maturities(others, "deprecated", reason=_merged_reason(kept))


def _task_change(db: MemoryDB, code: str, ids: Sequence[str]) -> Change:
    if len(ids) != 1:
        raise ValidationError_("This fix acts on one task.", code="health.fix_one_task")
    if code == PAUSE_TASK:
        return ccal.disable_schedule(ids[0])
    with db.lock:
        task = _task(db.conn, ids[0])
    if not task["enabled"]:
        return ccal.enable_schedule(ids[0])
    return ccal.resume_schedule(ids[0])


# -- the preview ------------------------------------------------------------------------------------------


def _rows(conn: Connection, table: str, ids: Iterable[str]) -> list[dict[str, Any]]:
    out = []
    for i in ids:
        r = conn.execute(f"SELECT * FROM {table} WHERE id = ?", (i,)).fetchone()
        if r is not None:
            out.append(dict(zip(r.keys(), tuple(r))))
    return out


def _label(table: str, row: dict[str, Any]) -> str:
    if table == FACTS:
        return f"{row['namespace']}.{row['key']}"
    if table == NOTES:
        text = " ".join(str(row["content"]).split())
        return text if len(text) <= 60 else text[:59] + "…"
    return str(row.get("name", row.get("id")))


def _column_changes(
    table: str, rows: Iterable[dict[str, Any]], column: str, after: Callable[[dict[str, Any]], Any]
) -> list[RowChange]:
    out = []
    for r in rows:
        new = after(r)
        if new != r[column]:
            out.append(RowChange(table, str(r["id"]), _label(table, r), column, r[column], new))
    return out


def preview(
    db: MemoryDB, fix: Fix, *, finding: Finding | None = None, choice: Any = None, now: int | None = None
) -> list[RowChange]:
    """The values :func:`change_for` will change, read now (nothing written; a read-only database will
    do). What the agent writes before the fix runs is checked again inside its transaction."""
    with db.read_snapshot() as conn:
        return _preview(conn, fix, finding, choice, now_ms() if now is None else int(now))


def _preview(conn: Connection, fix: Fix, finding: Finding | None, choice: Any, t: int) -> list[RowChange]:
    ids = fix_ids(fix, finding)
    code = fix.code
    if code == MERGE:
        return _merge_preview(conn, fix, ids, choice, t)
    if code == FORGET:
        table = _table(fix)
        live = [r for r in _rows(conn, table, ids) if r["forgotten_at"] is None]
        return _column_changes(table, live, "forgotten_at", lambda r: t)
    if code == PIN:
        return _column_changes(
            FACTS, _rows(conn, FACTS, ids), "decay_tau_days", lambda r: float(PIN_SENTINEL)
        )
    if code == SHORTEN_TAU:
        tau = _tau(fix, choice)
        return _column_changes(FACTS, _rows(conn, FACTS, ids), "decay_tau_days", lambda r: tau)
    if code == REPAIR_CHAIN:
        return [
            RowChange(
                FACTS, b["id"], _label(FACTS, b), "superseded_by", b["superseded_by"], a["superseded_by"]
            )
            for b, a in cchains.repair_plan(conn, ids)
        ]
    if code == DEMOTE_SKILL:
        skills = _skills(conn, fix, ids)
        to = _demote_to(fix, skills[0]["maturity"]) if skills else "draft"
        return _column_changes(SKILLS, skills, "maturity", lambda r: to)
    if code in (PAUSE_TASK, ENABLE_TASK):
        return _task_preview(conn, code, ids)
    if code == REBUILD_INDEX:
        index = str(fix.params.get("index") or (ids[0] if ids else ""))
        if index not in cidx.INDEXES:
            raise ValidationError_(
                f"Unknown full-text index {index!r}.", code="index.unknown", params={"index": index}
            )
        state = cidx.index_state(conn, index)
        return [RowChange(index, index, state["table"], "entries", state["indexed"], state["rows"])]
    raise _unknown(fix)


def _merge_preview(conn: Connection, fix: Fix, ids: list[str], choice: Any, t: int) -> list[RowChange]:
    keep = str(choice if choice is not None else fix.params.get("survivor") or (ids[0] if ids else ""))
    if _layer(fix) == "skills":
        others = [s for s in _skills(conn, Fix(MERGE), ids) if keep not in (s["id"], s["name"])]
        return _column_changes(SKILLS, others, "maturity", lambda r: "deprecated")
    table = _table(fix)
    others = [r for r in _rows(conn, table, ids) if str(r["id"]) != keep]
    if table == NOTES:
        return _column_changes(
            table, [r for r in others if r["forgotten_at"] is None], "forgotten_at", lambda r: t
        )
    return _column_changes(table, others, "superseded_by", lambda r: keep)


def _task_preview(conn: Connection, code: str, ids: list[str]) -> list[RowChange]:
    if not ids:
        return []
    task = _task(conn, ids[0])
    if code == PAUSE_TASK:
        return _column_changes(SCHEDULES, [task], "enabled", lambda r: 0)
    if not task["enabled"]:
        return _column_changes(SCHEDULES, [task], "enabled", lambda r: 1)
    return _column_changes(SCHEDULES, [task], "paused_until", lambda r: None)


# -- "never merge these" ----------------------------------------------------------------------------------


def duplicate_group(finding: Finding) -> frozenset[str] | None:
    """The ids a duplicate finding would merge (``None``: the finding offers no merge)."""
    if finding.fix is None or finding.fix.code != MERGE:
        return None
    return frozenset(fix_ids(finding.fix, finding))


def drop_dismissed(findings: Iterable[Finding], dismissed: Collection[frozenset[str]]) -> list[Finding]:
    """``findings`` without the duplicates a person said are not (a group within a dismissed one)."""
    groups = [frozenset(g) for g in dismissed]
    out = []
    for f in findings:
        group = duplicate_group(f)
        if group and any(group <= g for g in groups):
            continue
        out.append(f)
    return out


# -- the rows a person picks from -------------------------------------------------------------------------


def choices(db: MemoryDB, fix: Fix, *, finding: Finding | None = None) -> list[tuple[str, str]]:
    """``(id, label)`` of the rows a merge keeps one of, oldest first (``[]`` for another fix)."""
    if fix.code != MERGE:
        return []
    ids = fix_ids(fix, finding)
    with db.read_snapshot() as conn:
        if _layer(fix) == "skills":
            return [(str(s["id"]), str(s["name"])) for s in _skills(conn, Fix(MERGE), ids)]
        table = _table(fix)
        found = _rows(conn, table, ids)
    found.sort(key=lambda r: r["created_at"] if isinstance(r["created_at"], int) else 0)
    return [(str(r["id"]), _label(table, r)) for r in found]


# -- the other answers to a finding -----------------------------------------------------------------------

#: findings whose facts may be pinned or given a shorter τ instead of being forgotten
_KEEP_OR_FORGET = ("health.facts.decayed_shown", "health.facts.unread")


def alternatives(finding: Finding) -> list[Fix]:
    """The fixes a person may choose for ``finding``: the one it offers, and for facts that decayed or are
    no longer read, pinning them or a shorter τ on the same rows."""
    if finding.fix is None:
        return []
    out = [finding.fix]
    if finding.code in _KEEP_OR_FORGET:
        ids = fix_ids(finding.fix, finding)
        out += [Fix(PIN, {"layer": "facts", "ids": ids}), Fix(SHORTEN_TAU, {"layer": "facts", "ids": ids})]
    return out
