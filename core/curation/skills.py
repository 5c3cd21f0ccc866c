"""Manual curation of skills: each edit is ONE short audited transaction, undoable and redoable.

Edits (action names registered with :mod:`core.curation`; target type ``skill``, target id the skill's
``id``):

=========================  ========================================================================
``skills.revise_recipe``   new action template / verification / tool policy through
                           :meth:`core.skills.SkillStore.revise_recipe` (the outgoing version is
                           snapshotted with the user's reason; maturity goes back to ``draft``)
``skills.revert``          restore a snapshot through :meth:`SkillStore.revert_to_revision` (a new
                           revision whose reason names the one restored)
``skills.update``          description, trigger keywords, when to use (and the action template of a
                           skill that is not a recipe) through :meth:`SkillStore.update_skill`
``skills.set_maturity``    a grade set by hand; the reason is the audit row's ``note``
``skills.set_kind``        positive / negative ("avoid")
``skills.delete``          the row, after the user confirmed
=========================  ========================================================================

Each builder (:func:`revise_recipe`, :func:`revert`, :func:`update`, :func:`set_maturity`,
:func:`set_kind`, :func:`delete`) returns a :class:`core.curation.Change`, like every layer: ``change.perform(db, actor)`` runs it here;
the desktop app hands it to ``AppContext.curate(change)``.

**Conflict safety.** A builder takes the ``version`` (:func:`skill_version`) of the skill as the user
saw it. Inside the transaction the row is read again; if its version differs (the agent revised it,
an outcome moved its grade, somebody edited or re-created it) :class:`core.errors.ConflictError` is
raised with the current :class:`core.models.Skill`, and nothing is written. The version covers what
curation can change and what identifies the row (id, name, description, keywords, template, kind,
source, when to use, grade, verification, tool policy, revision history), not the usage counters,
which the agent moves on every retrieval and which no curation writes. ``version=None`` skips the
check (scripts).

**Audit states** are the raw column values (``_STATE_COLUMNS`` plus ``rowid``), so undo puts back the
exact bytes: undoing a recipe edit restores ``action_template``, ``verification``, ``tool_policy``,
``revision_history`` and ``maturity`` as they were. Undo and redo write only the columns the edit
changed, and refuse (``ConflictError``) when one of those columns no longer holds the value the edit
left (undo) or found (redo); counters that moved meanwhile are kept. Columns the edit did not mean to
change keep their bytes (``update_skill`` re-serialises the keyword array and turns ``''`` into NULL;
those side effects are put back in the same transaction).

**Delete** stores the whole row (every column) as ``before``. Undo re-inserts it with every column as it
was; the FTS triggers index it again. The original ``rowid`` is reused when it is still free, otherwise
SQLite assigns a new one (nothing else refers to a skill's rowid: actions link skills by name). A redo
deletes it again and records the row as it then was, so a later undo restores the newest counters.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from core import curation
from core.audit import AUDIT_TABLE, REDO, UNDO, AuditEntry, audit_table_exists
from core.curation import Change
from core.errors import ConflictError, NotFoundError, ValidationError_
from core.facts import UNSET
from core.jsutil import js_stringify, js_trim
from core.models import MATURITIES, Skill, parse_json_lenient
from core.skills import SkillStore

if TYPE_CHECKING:
    from core.engine import Connection

__all__ = [
    "ACTIONS",
    "DELETE",
    "REVERT",
    "REVISE_RECIPE",
    "SET_KIND",
    "SET_MATURITY",
    "TARGET_TYPE",
    "UPDATE",
    "VERIFICATION_KINDS",
    "Change",
    "delete",
    "read_state",
    "revert",
    "revise_recipe",
    "set_kind",
    "set_maturity",
    "skill_version",
    "update",
]

TARGET_TYPE = "skill"
REVISE_RECIPE = "skills.revise_recipe"
REVERT = "skills.revert"
UPDATE = "skills.update"
SET_MATURITY = "skills.set_maturity"
SET_KIND = "skills.set_kind"
DELETE = "skills.delete"
ACTIONS = (REVISE_RECIPE, REVERT, UPDATE, SET_MATURITY, SET_KIND, DELETE)

#: ``RecipeVerification.kind`` (Part B §1.2).
VERIFICATION_KINDS = ("tool_result_ok", "assert", "compute_recheck")

#: The columns an edit's audit state holds (those the table has), besides ``rowid``.
_STATE_COLUMNS = (
    "id",
    "name",
    "description",
    "trigger_keywords",
    "action_template",
    "kind",
    "source",
    "when_to_use",
    "maturity",
    "verification",
    "tool_policy",
    "revision_history",
)
_IDENTITY = ("id", "name", "rowid")


# ---------------------------------------------------------------------------------------------------
# Versions and states
# ---------------------------------------------------------------------------------------------------


def skill_version(skill: Skill) -> str:
    """A stamp of what curation can change on ``skill`` (see the module doc): equal stamps, same skill.

    Computed from the parsed :class:`~core.models.Skill`, so the GUI can stamp what it shows.
    """
    parts = [
        skill.id,
        skill.name,
        skill.description,
        skill.trigger_keywords_json,
        skill.action_template,
        skill.kind,
        skill.source,
        skill.when_to_use,
        skill.maturity_raw if skill.maturity_raw is not None else skill.maturity,
        skill.verification,
        skill.tool_policy,
        [[r.at, r.action_template, r.verification, r.tool_policy, r.reason] for r in skill.revision_history],
    ]
    return hashlib.sha1(js_stringify(parts).encode("utf-8")).hexdigest()[:20]


def _columns(conn: Connection) -> list[str]:
    return [r[1] for r in conn.execute('PRAGMA table_info("memory_skills")').fetchall()]


def _row(conn: Connection, *, name: str | None = None, skill_id: str | None = None) -> Any:
    if skill_id is not None:
        return conn.execute(
            "SELECT rowid AS rowid, * FROM memory_skills WHERE id = ? LIMIT 1", (skill_id,)
        ).fetchone()
    return conn.execute(
        "SELECT rowid AS rowid, * FROM memory_skills WHERE name = ? LIMIT 1", (name,)
    ).fetchone()


def _state(row: Any, full: bool = False) -> dict[str, Any]:
    keys = row.keys()
    cols = [k for k in keys if k != "rowid"] if full else [c for c in _STATE_COLUMNS if c in keys]
    state = {c: row[c] for c in cols}
    state["rowid"] = row["rowid"]
    return state


def read_state(conn: Connection, name: str) -> dict[str, Any] | None:
    """The audit state (raw column values and ``rowid``) of the skill ``name``, or None."""
    row = _row(conn, name=name)
    return _state(row) if row is not None else None


def _content(state: dict[str, Any] | None) -> dict[str, Any]:
    return {k: v for k, v in (state or {}).items() if k in _STATE_COLUMNS}


def _current_checked(conn: Connection, name: str, version: str | None) -> tuple[Any, Skill]:
    row = _row(conn, name=name)
    if row is None:
        raise ConflictError(
            f"The skill '{name}' no longer exists: it was deleted or renamed meanwhile.",
            code="skill.gone",
            params={"name": name},
        )
    skill = Skill.from_row(row)
    if version is not None and skill_version(skill) != version:
        raise ConflictError(
            f"The skill '{name}' changed since it was shown (the agent or another edit wrote to it). "
            "Nothing was changed; look at the current version and try again.",
            skill,
            code="skill.changed_since_shown",
            params={"name": name},
        )
    return row, skill


def _need_reason(reason: Any, what: str, action: str) -> str:
    """``action`` names the step for a translated message: ``revise_recipe`` or ``set_grade``."""
    if not isinstance(reason, str) or not js_trim(reason):
        raise ValidationError_(
            f"A reason is required to {what}.", code="skill.reason_required", params={"action": action}
        )
    return reason.strip()


def _keep_unedited(conn: Connection, rowid: int, before: dict[str, Any], edited: Iterable[str]) -> None:
    """Put back the bytes of columns a store call rewrote although the edit did not mean to change them."""
    now = _state(_row_by_rowid(conn, rowid))
    edited = set(edited)
    fix = {
        k: before[k]
        for k in _STATE_COLUMNS
        if k in before and k not in edited and k not in _IDENTITY and now.get(k) != before[k]
    }
    if fix:
        sets = ", ".join(f'"{k}" = ?' for k in fix)
        conn.execute(f"UPDATE memory_skills SET {sets} WHERE rowid = ?", (*fix.values(), rowid))


def _row_by_rowid(conn: Connection, rowid: int) -> Any:
    return conn.execute("SELECT rowid AS rowid, * FROM memory_skills WHERE rowid = ?", (rowid,)).fetchone()


def _store() -> SkillStore:
    db = curation.current_db()
    if db is None:  # pragma: no cover - perform/undo/redo always set it
        raise RuntimeError("skill curation functions run inside core.curation.perform/undo/redo")
    return SkillStore(db)


def _check_verification(value: Any) -> Any:
    if value is UNSET or value is None:
        return value
    if not isinstance(value, dict) or value.get("kind") not in VERIFICATION_KINDS:
        raise ValidationError_(
            f"A verification is {{kind, check}} with kind one of {', '.join(VERIFICATION_KINDS)}.",
            code="skill.verification_kind",
            params={"kinds": list(VERIFICATION_KINDS)},
        )
    check = value.get("check")
    if not isinstance(check, str):
        raise ValidationError_("A verification needs a check text.", code="skill.verification_check")
    return {
        "kind": value["kind"],
        "check": check,
        **{k: v for k, v in value.items() if k not in ("kind", "check")},
    }


def _check_policy(value: Any) -> Any:
    if value is UNSET or value is None:
        return value
    if not isinstance(value, list | tuple) or not all(isinstance(t, str) for t in value):
        raise ValidationError_("A tool policy is a list of tool names.", code="skill.tool_policy")
    return list(value)


# ---------------------------------------------------------------------------------------------------
# Builders
# ---------------------------------------------------------------------------------------------------


def revise_recipe(
    skill: Skill,
    *,
    reason: str,
    action_template: str | None = None,
    verification: Any = UNSET,
    tool_policy: Any = UNSET,
    version: str | Any | None = UNSET,
    now: int | None = None,
) -> Change:
    """Rewrite a recipe (Part B §2) with the user's ``reason``; refused for a skill without verification.

    ``version`` defaults to the stamp of ``skill`` (the skill as the caller read it).
    """
    why = _need_reason(reason, "revise a recipe", "revise_recipe")
    ver = _check_verification(verification)
    pol = _check_policy(tool_policy)
    name = skill.name
    stamp = skill_version(skill) if version is UNSET else version

    def fn(conn: Connection) -> tuple[Any, Any]:
        row, cur = _current_checked(conn, name, stamp)
        if cur.verification is None:
            raise ValidationError_(
                f"'{name}' is not a recipe (it has no verification), so it has no versions to revise; "
                "edit its fields instead.",
                code="skill.not_recipe_revise",
                params={"name": name},
            )
        before = _state(row)
        if (
            (action_template is None or action_template == row["action_template"])
            and (ver is UNSET or ver == cur.verification)
            and (pol is UNSET or pol == cur.tool_policy)
        ):
            raise ValidationError_(
                "The recipe is unchanged: nothing to revise.", code="skill.recipe_unchanged"
            )
        out = _store().revise_recipe(
            name, reason=why, action_template=action_template, verification=ver, tool_policy=pol, now=now
        )
        if out is None:  # pragma: no cover - checked above in the same transaction
            raise ValidationError_(
                f"'{name}' cannot be revised.", code="skill.cannot_revise", params={"name": name}
            )
        return before, read_state(conn, name)

    return Change(REVISE_RECIPE, TARGET_TYPE, skill.id, fn, "revise recipe", note=why)


def revert(
    skill: Skill,
    index: int,
    reason: str | None = None,
    *,
    version: str | Any | None = UNSET,
    now: int | None = None,
) -> Change:
    """Restore ``revision_history[index]`` (0-based, oldest first) as a new revision whose reason reads
    ``revert to revision <index+1> (<ISO time>)[: reason]``."""
    name = skill.name
    stamp = skill_version(skill) if version is UNSET else version
    why = reason.strip() if isinstance(reason, str) and reason.strip() else None

    def fn(conn: Connection) -> tuple[Any, Any]:
        row, cur = _current_checked(conn, name, stamp)
        if cur.verification is None:
            raise ValidationError_(
                f"'{name}' is not a recipe (it has no verification), so it cannot be reverted.",
                code="skill.not_recipe_revert",
                params={"name": name},
            )
        if not isinstance(index, int) or not 0 <= index < len(cur.revision_history):
            raise NotFoundError(
                f"Skill '{name}' has no revision {index + 1 if isinstance(index, int) else index}.",
                code="skill.revision_missing",
                params={"name": name, "revision": index + 1 if isinstance(index, int) else str(index)},
            )
        before = _state(row)
        out = _store().revert_to_revision(name, index, why, now=now)
        if out is None:  # pragma: no cover - checked above
            raise ValidationError_(
                f"'{name}' cannot be reverted.", code="skill.cannot_revert", params={"name": name}
            )
        return before, read_state(conn, name)

    return Change(REVERT, TARGET_TYPE, skill.id, fn, "revert", note=why, extra={"index": index})


def update(
    skill: Skill,
    *,
    description: str | None = None,
    trigger_keywords: Iterable[Any] | None = None,
    when_to_use: str | None = None,
    action_template: str | None = None,
    version: str | Any | None = UNSET,
) -> Change:
    """Edit description, keywords, when to use (``None`` keeps a field; ``''`` clears when to use).

    ``action_template`` only for a skill that is not a recipe: a recipe's template changes through
    :func:`revise_recipe`, so that every rewrite is versioned (decision 5).
    """
    name = skill.name
    stamp = skill_version(skill) if version is UNSET else version
    kws = None if trigger_keywords is None else [k for k in trigger_keywords]
    if description is not None and not js_trim(description):
        raise ValidationError_("A skill needs a description.", code="skill.description_required")
    fields: dict[str, Any] = {}
    if description is not None:
        fields["description"] = description
    if kws is not None:
        fields["trigger_keywords"] = kws
    if when_to_use is not None:
        fields["when_to_use"] = when_to_use
    if action_template is not None:
        fields["action_template"] = action_template
    if not fields:
        raise ValidationError_("Nothing to change.", code="skill.unchanged")

    def fn(conn: Connection) -> tuple[Any, Any]:
        row, cur = _current_checked(conn, name, stamp)
        if (
            "action_template" in fields
            and cur.verification is not None
            and fields["action_template"] != (row["action_template"])
        ):
            raise ValidationError_(
                f"'{name}' is a recipe: change its action template by revising the recipe, so the old "
                "version is kept.",
                code="skill.recipe_template",
                params={"name": name},
            )
        before = _state(row)
        _store().update_skill(name, **fields)
        _keep_unedited(conn, row["rowid"], before, fields)
        after = read_state(conn, name)
        if _content(after) == _content(before):
            raise ValidationError_("Nothing to change.", code="skill.unchanged")
        return before, after

    return Change(UPDATE, TARGET_TYPE, skill.id, fn, "edit")


def set_maturity(skill: Skill, maturity: str, *, reason: str, version: str | Any | None = UNSET) -> Change:
    """Set the grade by hand (overriding the state machine); ``reason`` is kept as the audit note."""
    if maturity not in MATURITIES:
        raise ValidationError_(
            f"Unknown maturity '{maturity}' (one of {', '.join(MATURITIES)}).",
            code="skill.grade_unknown",
            params={"grade": str(maturity), "grades": list(MATURITIES)},
        )
    why = _need_reason(reason, "set a grade by hand", "set_grade")
    name = skill.name
    stamp = skill_version(skill) if version is UNSET else version

    def fn(conn: Connection) -> tuple[Any, Any]:
        row, _cur = _current_checked(conn, name, stamp)
        if row["maturity"] == maturity:
            raise ValidationError_(
                f"'{name}' is already {maturity}.",
                code="skill.grade_unchanged",
                params={"name": name, "grade": maturity},
            )
        before = _state(row)
        _store().set_maturity(name, maturity)
        return before, read_state(conn, name)

    return Change(
        SET_MATURITY, TARGET_TYPE, skill.id, fn, "set maturity", note=why, extra={"maturity": maturity}
    )


def set_kind(skill: Skill, kind: str, *, version: str | Any | None = UNSET) -> Change:
    """Make a skill positive or negative (a skill to avoid)."""
    if kind not in ("positive", "negative"):
        raise ValidationError_("A skill's kind is 'positive' or 'negative'.", code="skill.kind_invalid")
    name = skill.name
    stamp = skill_version(skill) if version is UNSET else version

    def fn(conn: Connection) -> tuple[Any, Any]:
        row, cur = _current_checked(conn, name, stamp)
        if cur.kind == kind:
            raise ValidationError_(
                f"'{name}' is already {kind}.",
                code="skill.kind_unchanged",
                params={"name": name, "kind_of_skill": kind},
            )
        before = _state(row)
        _store().update_skill(name, kind=kind)
        _keep_unedited(conn, row["rowid"], before, ("kind",))
        return before, read_state(conn, name)

    return Change(SET_KIND, TARGET_TYPE, skill.id, fn, "set kind", extra={"kind": kind})


def delete(skill: Skill, *, version: str | Any | None = UNSET) -> Change:
    """Delete the skill (the caller has asked for confirmation); ``before`` is the whole row."""
    name = skill.name
    stamp = skill_version(skill) if version is UNSET else version

    def fn(conn: Connection) -> tuple[Any, Any]:
        row, _cur = _current_checked(conn, name, stamp)
        before = _state(row, full=True)
        _store().delete_skill(name)
        return before, None

    return Change(DELETE, TARGET_TYPE, skill.id, fn, "delete")


# ---------------------------------------------------------------------------------------------------
# Undo and redo
# ---------------------------------------------------------------------------------------------------


def _conflict_fields(cur: dict[str, Any], expect: dict[str, Any], keys: Iterable[str]) -> list[str]:
    return [k for k in keys if cur.get(k) != expect.get(k)]


def _move_fields(
    conn: Connection, entry: AuditEntry, expect: dict[str, Any], target: dict[str, Any], kind: str
) -> Any:
    """Write the columns on which ``expect`` and ``target`` differ, after checking they hold ``expect``."""
    changed = [
        k for k in _STATE_COLUMNS if k not in _IDENTITY and k in target and expect.get(k) != target.get(k)
    ]
    row = _row(conn, skill_id=entry.target_id)
    name = target.get("name") or expect.get("name") or entry.target_id
    verb = "undone" if kind == UNDO else "redone"
    if row is None:
        raise ConflictError(
            f"The edit of skill '{name}' cannot be {verb}: the skill no longer exists.",
            code="skill.step_gone",
            params={"name": name, "step": kind},
        )
    cur = _state(row)
    stale = _conflict_fields(cur, expect, changed)
    if stale:
        raise ConflictError(
            f"The edit of skill '{name}' cannot be {verb}: {', '.join(stale)} changed since "
            "(the agent or another edit wrote to it). Nothing was changed.",
            Skill.from_row(row),
            code="skill.step_conflict",
            params={"name": name, "step": kind, "fields": stale},
        )
    if changed:
        sets = ", ".join(f'"{k}" = ?' for k in changed)
        conn.execute(
            f"UPDATE memory_skills SET {sets} WHERE rowid = ?", (*(target[k] for k in changed), row["rowid"])
        )
    return cur, _state(_row_by_rowid(conn, row["rowid"]))


def _undo_fields(conn: Connection, entry: AuditEntry) -> Any:
    return _move_fields(conn, entry, entry.after or {}, entry.before or {}, UNDO)


def _redo_fields(conn: Connection, entry: AuditEntry) -> Any:
    return _move_fields(conn, entry, entry.before or {}, entry.after or {}, REDO)


def _latest_step_state(conn: Connection, entry: AuditEntry, kind: str, column: str) -> Any:
    """``before``/``after`` of the newest ``undo``/``redo`` row of ``entry`` (None when there is none)."""
    if not audit_table_exists(conn):
        return None
    row = conn.execute(
        f"SELECT {column} FROM {AUDIT_TABLE} WHERE undone_of = ? AND action = ? ORDER BY id DESC LIMIT 1",
        (entry.id, kind),
    ).fetchone()
    if row is None or row[0] is None:
        return None
    value, _err = parse_json_lenient(row[0])
    return value if isinstance(value, dict) else None


def _undo_delete(conn: Connection, entry: AuditEntry) -> Any:
    state = _latest_step_state(conn, entry, REDO, "before_json") or entry.before
    if not isinstance(state, dict) or not state.get("name"):
        raise ConflictError(
            "The deleted skill cannot be restored: the audit entry has no row.",
            code="audit.unreadable",
            params={"audit_id": entry.id},
        )
    name = state["name"]
    clash = _row(conn, name=name) or _row(conn, skill_id=state.get("id"))
    if clash is not None:
        raise ConflictError(
            f"The skill '{name}' cannot be restored: a skill with that name or id exists again.",
            Skill.from_row(clash),
            code="skill.restore_clash",
            params={"name": name},
        )
    have = set(_columns(conn))
    cols = [c for c in state if c != "rowid" and c in have]
    values = [state[c] for c in cols]
    rowid = state.get("rowid")
    if isinstance(rowid, int) and _row_by_rowid(conn, rowid) is None:
        cols, values = ["rowid", *cols], [rowid, *values]
    names = ", ".join(f'"{c}"' for c in cols)
    marks = ", ".join("?" * len(cols))
    conn.execute(f"INSERT INTO memory_skills ({names}) VALUES ({marks})", values)
    return None, _state(_row(conn, name=name), full=True)


def _redo_delete(conn: Connection, entry: AuditEntry) -> Any:
    restored = _latest_step_state(conn, entry, UNDO, "after_json") or entry.before or {}
    name = restored.get("name") or entry.target_id
    row = _row(conn, skill_id=entry.target_id)
    if row is None:
        raise ConflictError(
            f"The skill '{name}' cannot be deleted again: it no longer exists.",
            code="skill.redelete_gone",
            params={"name": name},
        )
    cur = _state(row, full=True)
    stale = _conflict_fields(_content(cur), _content(restored), _content(restored).keys())
    if stale:
        raise ConflictError(
            f"The skill '{name}' cannot be deleted again: {', '.join(stale)} changed since it was restored.",
            Skill.from_row(row),
            code="skill.redelete_conflict",
            params={"name": name, "fields": stale},
        )
    conn.execute("DELETE FROM memory_skills WHERE rowid = ?", (row["rowid"],))
    return cur, None


for _action in (REVISE_RECIPE, REVERT, UPDATE, SET_MATURITY, SET_KIND):
    curation.register(_action, undo_fn=_undo_fields, redo_fn=_redo_fields)
curation.register(DELETE, undo_fn=_undo_delete, redo_fn=_redo_delete)


# The grade of several skills in one edit (the doctor's demotions) registers its own undo and redo.
from core.curation import skill_grades as _skill_grades  # noqa: E402, F401
