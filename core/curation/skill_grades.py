"""The grade of several skills in one edit (``skills.bulk_set_maturity``): the doctor's demotion of skills
whose maturity the action log does not back, and of near-duplicate recipes merged into the one kept
(the others ``deprecated``). The reason is the audit row's ``note``.

Audit states ``{"op", "count", "to", "rows": [{"id", "name", "maturity"}, ...]}``; undo and redo move
``maturity`` only (the agent's counters move on) and refuse when a grade changed since the edit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from core.audit import AuditEntry
from core.curation import Change, rows
from core.errors import ConflictError, NotFoundError, ValidationError_
from core.models import MATURITIES

if TYPE_CHECKING:
    from core.engine import Connection

ACTION_BULK_SET_MATURITY = "skills.bulk_set_maturity"
TABLE = "memory_skills"

__all__ = ["ACTION_BULK_SET_MATURITY", "set_maturities"]


def _state(row: Mapping[str, Any]) -> dict[str, Any]:
    return {"id": row["id"], "name": row["name"], "maturity": row["maturity"]}


def set_maturities(ids: Sequence[str], maturity: str, *, reason: str) -> Change:
    """Set the grade of the skills ``ids`` (those not at it already) to ``maturity``, with ``reason``."""
    if maturity not in MATURITIES:
        raise ValidationError_(
            f"Unknown maturity '{maturity}' (one of {', '.join(MATURITIES)}).",
            code="skill.grade_unknown",
            params={"grade": str(maturity), "grades": list(MATURITIES)},
        )
    if not isinstance(reason, str) or not reason.strip():
        raise ValidationError_(
            "A reason is needed to set a grade by hand.",
            code="skill.reason_required",
            params={"action": "set_grade"},
        )
    id_list = list(dict.fromkeys(str(i) for i in ids))

    def fn(conn: Connection) -> tuple[Any, Any, str]:
        befores, afters = [], []
        for sid in id_list:
            row = conn.execute(f"SELECT * FROM {TABLE} WHERE id = ?", (sid,)).fetchone()
            if row is None:
                raise NotFoundError(
                    f"There is no skill with id {sid}.", code="skill.id_not_found", params={"id": sid}
                )
            if row["maturity"] == maturity:
                continue
            conn.execute(f"UPDATE {TABLE} SET maturity = ? WHERE id = ?", (maturity, sid))
            befores.append(_state(row))
            afters.append({**_state(row), "maturity": maturity})
        if not befores:
            raise ValidationError_(
                f"Every skill is {maturity} already; nothing to change.",
                code="skill.grades_unchanged",
                params={"grade": maturity},
            )
        meta = {"op": "set_maturity", "count": len(befores), "to": maturity}
        target = befores[0]["id"] if len(befores) == 1 else f"{len(befores)} skills"
        return {**meta, "rows": befores}, {**meta, "rows": afters}, target

    return Change(
        ACTION_BULK_SET_MATURITY,
        "skills",
        None,
        fn,
        "set maturity",
        note=reason.strip(),
        extra={"maturity": maturity},
    )


class _GradeRows(rows.RowKind):
    """A skill's ``maturity`` for the row engine."""

    def table(self, entry: AuditEntry) -> str:
        return TABLE

    def pairs(self, entry: AuditEntry) -> list[tuple[Any, Any]]:
        return rows.listed_pairs(entry)

    def moved(self, table: str, src: Mapping[str, Any], dst: Mapping[str, Any]) -> list[str]:
        return ["maturity"]

    def exists(self, what: str, table: str, row: Mapping[str, Any], current: Any) -> ConflictError:
        raise AssertionError("a grade edit never re-creates a skill")

    def gone(self, what: str, table: str, src: Mapping[str, Any]) -> ConflictError:
        return ConflictError(
            f"{what}: the skill '{src['name']}' no longer exists; nothing was changed.",
            code="skill.step_gone",
            params={"name": src["name"], "step": rows.step_of(what)},
        )

    def changed(
        self, what: str, table: str, cur: Any, fields: list[str], want: Any, *, deleting: bool
    ) -> ConflictError:
        return ConflictError(
            f"{what}: the grade of skill '{cur['name']}' changed since (it is {cur['maturity']} now). "
            "Nothing was changed.",
            code="skill.step_conflict",
            params={"name": cur["name"], "step": rows.step_of(what), "fields": ["maturity"]},
        )


rows.register(_GradeRows(), (ACTION_BULK_SET_MATURITY,))
