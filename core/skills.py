"""Layer 3: skills, their maturity grades, recipes and revisions (spec Part A §3, Part B §2-§6, Part C g).

* Usage is not efficacy: :meth:`SkillStore.record_usage` bumps only ``use_count``/``last_used_at``;
  success and failure are credited by :meth:`SkillStore.record_skill_outcome`, normally through
  :meth:`SkillStore.record_linked_skill_outcomes` (attribution from the action log).
* A callable recipe is a skill whose ``verification`` is set. :meth:`SkillStore.revise_recipe` keeps an
  append-only ``revision_history`` of the outgoing versions, byte-compatible with the reference.
* Listings and search rank with :func:`score_skill` over the reference's SQL candidate order, using a
  stable sort, so ties come out exactly as the reference orders them.

A database written by v31 may lack the additive columns (``verification``, ``tool_policy``,
``revision_history``, ``offered_count``, ``from_disk``, ``matched_count``). Reads select the columns the
table has (missing ones read as empty); writes add them first (see :meth:`core.db.MemoryDB.write`).

The reads (lookups, listings, search, ranking and the evidence per version) are
:class:`core.skill_reads.SkillReader`, which :class:`SkillStore` extends with the writes.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from core.engine import sqlite3
from core.errors import ConflictError, NotFoundError, ValidationError_
from core.facts import UNSET, FactStore
from core.ids import new_id
from core.jsutil import iso_ms, js_stringify, js_truthy, now_ms
from core.maturity import next_maturity, parse_maturity
from core.models import MATURITIES, Skill, parse_json_lenient
from core.skill_reads import (
    DAY_MS,
    NEGATIVE_RECENCY_DAYS,
    NEVER_USED_RECENCY,
    POSITIVE_RECENCY_DAYS,
    OutcomePoint,
    RevisionWindow,
    SkillReader,
    score_skill,
)

RECIPE_REUSE_ENV = "PHILONT_RECIPE_REUSE_VERIFY"
RECIPE_DECAY_KEY = "obs.recipe-decay"

_UPDATABLE = ("description", "trigger_keywords", "action_template", "kind", "source", "when_to_use")


class Attribution(NamedTuple):
    """What :meth:`SkillStore.record_linked_skill_outcomes` credited."""

    successes: int
    failures: int
    recipes_demoted: int


def _safe_parse(text: Any) -> Any:
    """The reference's ``parseRecipeJson``: NULL, empty or malformed gives None."""
    if text is None or text == "":
        return None
    value, err = parse_json_lenient(text)
    return None if err else value


def _raw_history(text: Any) -> list[Any]:
    """The reference's ``parseRevisionHistory`` on the raw column: the array as stored, else ``[]``."""
    value = _safe_parse(text)
    return value if isinstance(value, list) else []


def _field(a: Any, name: str, camel: str) -> Any:
    if isinstance(a, Mapping):
        return a.get(name, a.get(camel))
    return getattr(a, name, None)


def recipe_reuse_verify_enabled() -> bool:
    """``PHILONT_RECIPE_REUSE_VERIFY``: on unless ``0``/``off``/``false``/``no`` (trimmed, any case)."""
    v = os.environ.get(RECIPE_REUSE_ENV, "").strip().lower()
    return v not in ("0", "off", "false", "no")


def recipe_decay_text(skill_name: str) -> str:
    """The content of the ``self.obs.recipe-decay`` observation written when a recipe is demoted."""
    return (
        f'My recipe "{skill_name}" failed its own verification when I reused it — it has been '
        "demoted to an advisory lesson. I re-verify old recipes against current reality instead "
        "of trusting past success."
    )


def _revised(
    row: Any,
    old_verification: Any,
    reason: str,
    t: int,
    action_template: Any,
    verification: Any,
    tool_policy: Any,
) -> tuple[Any, ...]:
    """``(action_template, verification, tool_policy, maturity, revision_history)`` of a revised recipe:
    the outgoing version appended to the history, each field not given kept, maturity back to draft."""
    old_policy = _safe_parse(row["tool_policy"])
    snapshot = {
        "at": t,
        "actionTemplate": row["action_template"],
        "verification": old_verification,
        "toolPolicy": old_policy,
        "reason": reason,
    }
    history = [*_raw_history(row["revision_history"]), snapshot]
    new_tpl = row["action_template"] if action_template is None else action_template
    new_ver = old_verification if verification is UNSET else verification
    new_pol = old_policy if tool_policy is UNSET else tool_policy
    return (
        new_tpl,
        js_stringify(new_ver) if js_truthy(new_ver) else None,
        js_stringify(new_pol) if js_truthy(new_pol) else None,
        "draft",
        js_stringify(history),
    )


class SkillStore(SkillReader):
    """Skills of one memory database (``memory_skills``): the reads of :class:`core.skill_reads.SkillReader`
    and the writes.

    ``created_before`` (epoch ms) makes a view for looking back in time: the listings,
    :meth:`get_by_name`, :meth:`search` and :meth:`count` see only skills created before that moment
    (with today's counters and maturity: they change in place). Writes are not restricted.
    """

    # -- creating and editing ----------------------------------------------------------------------
    def create_skill(
        self,
        name: str,
        description: str,
        trigger_keywords: Iterable[Any] = (),
        action_template: str = "",
        *,
        kind: str = "positive",
        source: str | None = None,
        maturity: str | None = None,
        when_to_use: str | None = "",
        verification: Any = None,
        tool_policy: Any = None,
        now: int | None = None,
    ) -> Skill:
        """Insert a skill (Part A §3.2, Part B §5). A duplicate name raises :class:`ConflictError`."""
        t = now_ms() if now is None else int(now)
        kws = list(trigger_keywords) if not isinstance(trigger_keywords, list) else trigger_keywords
        cols = ["id", "name", "description", "trigger_keywords", "action_template", "created_at", "kind"]
        vals: list[Any] = [
            new_id(),
            name,
            description,
            js_stringify(kws),
            action_template,
            t,
            "negative" if kind == "negative" else "positive",
        ]
        cols += ["source", "maturity", "when_to_use"]
        vals += [source, parse_maturity(maturity, "draft"), when_to_use or None]
        with self.db.write() as conn:
            have = self.columns(refresh=True)
            for col, v in (("verification", verification), ("tool_policy", tool_policy)):
                stored = js_stringify(v) if js_truthy(v) else None
                if col in have:
                    cols.append(col)
                    vals.append(stored)
                elif stored is not None:
                    raise ValidationError_(
                        f"This database has no memory_skills.{col} column.",
                        code="db.column_missing",
                        params={"table": "memory_skills", "column": col},
                    )
            try:
                conn.execute(
                    f"INSERT INTO memory_skills ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                    vals,
                )
            except sqlite3.IntegrityError as exc:
                existing = self._read(conn, name)
                raise ConflictError(
                    f"A skill named '{name}' already exists.",
                    Skill.from_row(existing) if existing is not None else None,
                    code="skill.exists",
                    params={"name": name},
                ) from exc
            row = self._read(conn, name)
        return Skill.from_row(row)

    def update_skill(self, name: str, **partial: Any) -> Skill | None:
        """Overwrite fields (Part A §3.2): description, trigger_keywords, action_template, kind, source,
        when_to_use. ``None`` keeps a field, except ``source=None``, which clears it. No history is kept;
        recipe fields are changed only by :meth:`revise_recipe`. Returns None when no such skill."""
        unknown = set(partial) - set(_UPDATABLE)
        if unknown:
            raise TypeError(f"update_skill() got unexpected fields: {', '.join(sorted(unknown))}")
        with self.db.write() as conn:
            row = self._read(conn, name)
            if row is None:
                return None
            cur = Skill.from_row(row)
            desc = partial.get("description")
            kws = partial.get("trigger_keywords")
            tpl = partial.get("action_template")
            kind = partial.get("kind")
            wtu = partial.get("when_to_use")
            if kws is None:
                kws_json = js_stringify(cur.trigger_keywords)
            else:
                kws_json = js_stringify(list(kws) if not isinstance(kws, list) else kws)
            conn.execute(
                "UPDATE memory_skills SET description = ?, trigger_keywords = ?, action_template = ?, "
                "kind = ?, source = ?, when_to_use = ? WHERE name = ?",
                (
                    cur.description if desc is None else desc,
                    kws_json,
                    cur.action_template if tpl is None else tpl,
                    kind if kind in ("positive", "negative") else cur.kind,
                    partial.get("source", cur.source),
                    (cur.when_to_use if wtu is None else wtu) or None,
                    name,
                ),
            )
            row = self._read(conn, name)
        return Skill.from_row(row)

    def delete_skill(self, name: str) -> bool:
        with self.db.write() as conn:
            return conn.execute("DELETE FROM memory_skills WHERE name = ?", (name,)).rowcount > 0

    def set_maturity(self, name: str, maturity: str) -> Skill | None:
        """Override the state machine (entering playbook, reviving a deprecated skill). Counters untouched."""
        if maturity not in MATURITIES:
            raise ValidationError_(
                f"Unknown maturity '{maturity}' (one of {', '.join(MATURITIES)}).",
                code="skill.grade_unknown",
                params={"grade": str(maturity), "grades": list(MATURITIES)},
            )
        with self.db.write() as conn:
            if (
                conn.execute(
                    "UPDATE memory_skills SET maturity = ? WHERE name = ?", (maturity, name)
                ).rowcount
                == 0
            ):
                return None
            row = self._read(conn, name)
        return Skill.from_row(row)

    # -- usage and outcomes ------------------------------------------------------------------------
    def record_usage(self, name: str, at: int | None = None) -> Skill | None:
        """A retrieval: ``use_count + 1`` and ``last_used_at`` only (Part B §3). Never moves maturity."""
        t = now_ms() if at is None else int(at)
        with self.db.write() as conn:
            cur = conn.execute(
                "UPDATE memory_skills SET use_count = use_count + 1, last_used_at = ? WHERE name = ?",
                (t, name),
            )
            if cur.rowcount == 0:
                return None
            row = self._read(conn, name)
        return Skill.from_row(row)

    def record_skill_outcome(self, name: str, success: bool, at: int | None = None) -> Skill | None:
        """An observed outcome: counters, then :func:`core.maturity.next_maturity` (Part A §3.2)."""
        t = now_ms() if at is None else int(at)
        if success:
            sql = (
                "UPDATE memory_skills SET use_count = use_count + 1, success_count = success_count + 1, "
                "last_used_at = ?, last_success_at = ?, consecutive_failures = 0 WHERE name = ?"
            )
        else:
            sql = (
                "UPDATE memory_skills SET use_count = use_count + 1, failure_count = failure_count + 1, "
                "last_used_at = ?, last_failure_at = ?, consecutive_failures = consecutive_failures + 1 "
                "WHERE name = ?"
            )
        with self.db.write() as conn:
            if conn.execute(sql, (t, t, name)).rowcount == 0:
                return None
            after = Skill.from_row(self._read(conn, name))
            computed = next_maturity(
                after.maturity,
                after.success_count,
                after.failure_count,
                after.consecutive_failures,
                "success" if success else "failure",
            )
            if computed != after.maturity:
                conn.execute("UPDATE memory_skills SET maturity = ? WHERE name = ?", (computed, name))
                after = Skill.from_row(self._read(conn, name))
        return after

    def record_skills_offered(self, names: Iterable[str], matched: Iterable[str] = ()) -> None:
        """``offered_count + 1`` for each name, ``matched_count + 1`` also for those in ``matched``.

        One transaction; never raises (instrumentation must not break a caller)."""
        names = list(names)
        if not names:
            return
        matched_set = set(matched)
        try:
            with self.db.write() as conn:
                have = self.columns(refresh=True)
                for n in names:
                    if "offered_count" in have:
                        conn.execute(
                            "UPDATE memory_skills SET offered_count = offered_count + 1 WHERE name = ?", (n,)
                        )
                    if n in matched_set and "matched_count" in have:
                        conn.execute(
                            "UPDATE memory_skills SET matched_count = matched_count + 1 WHERE name = ?", (n,)
                        )
        except Exception:  # best effort by design (Part B §3)
            return

    # -- recipes and revisions ---------------------------------------------------------------------
    def revise_recipe(
        self,
        name: str,
        *,
        reason: str,
        action_template: str | None = None,
        verification: Any = UNSET,
        tool_policy: Any = UNSET,
        now: int | None = None,
    ) -> Skill | None:
        """Part B §2: snapshot the outgoing version, overwrite, maturity back to ``draft``.

        Refused (None, nothing written) when the skill is missing or its verification is null or
        malformed. ``action_template=None`` keeps the template (an empty string is kept as empty).
        ``verification``/``tool_policy`` change only when given; ``None`` clears the column. Counters are
        not touched.
        """
        if not isinstance(reason, str):
            raise ValidationError_(
                "revise_recipe: reason must be a string",
                code="skill.reason_required",
                params={"action": "revise_recipe"},
            )
        t = now_ms() if now is None else int(now)
        with self.db.write() as conn:
            have = self.columns(refresh=True)
            row = self._read(conn, name)
            if row is None or "verification" not in have:
                return None
            old_verification = _safe_parse(row["verification"])
            if old_verification is None:
                return None
            if "revision_history" not in have or "tool_policy" not in have:
                raise ValidationError_(
                    "This database has no memory_skills.revision_history column.",
                    code="db.column_missing",
                    params={"table": "memory_skills", "column": "revision_history"},
                )
            revised = _revised(row, old_verification, reason, t, action_template, verification, tool_policy)
            conn.execute(
                "UPDATE memory_skills SET action_template = ?, verification = ?, tool_policy = ?, "
                "maturity = ?, revision_history = ? WHERE name = ?",
                (*revised, name),
            )
            row = self._read(conn, name)
        return Skill.from_row(row)

    def revert_to_revision(
        self, name: str, index: int, reason: str | None = None, now: int | None = None
    ) -> Skill | None:
        """Restore the version kept in ``revision_history[index]`` (0-based, oldest first) as a new revision.

        Goes through :meth:`revise_recipe`, so the version being replaced is snapshotted too. The reason
        reads ``revert to revision <index+1> (<ISO time of that snapshot>)``, followed by ``: <reason>``
        when one is given. None when the skill is missing or not a recipe; :class:`NotFoundError` for an
        index out of range.
        """
        with self.db.write():
            skill = self.get_by_name(name)
            if skill is None or skill.verification is None:
                return None
            history = skill.revision_history
            if not isinstance(index, int) or not 0 <= index < len(history):
                raise NotFoundError(
                    f"Skill '{name}' has no revision {index} ({len(history)} kept).",
                    code="skill.revision_missing",
                    params={"name": name, "revision": index, "kept": len(history)},
                )
            snap = history[index]
            text = f"revert to revision {index + 1} ({iso_ms(snap.at)})"
            if reason:
                text += f": {reason}"
            tpl = snap.action_template if isinstance(snap.action_template, str) else None
            return self.revise_recipe(
                name,
                reason=text,
                action_template=tpl,
                verification=snap.verification,
                tool_policy=snap.tool_policy,
                now=now,
            )

    # -- attribution (Part B §6) -------------------------------------------------------------------
    def record_linked_skill_outcomes(
        self, actions: Iterable[Any], facts: FactStore | None = None, now: int | None = None
    ) -> Attribution:
        """Credit efficacy from the action log, as the reference's reflector does.

        Actions (``core.models.Action`` or mappings) are grouped by ``linked_skill``. A group is a recipe
        when ``PHILONT_RECIPE_REUSE_VERIFY`` is on and the skill has a verification and a non-empty tool
        policy; then only the actions of its policy tools are judged (all of them when none is). Any
        judged failure records one failure at the first failing judged action's time and, for a recipe,
        demotes it to ``playbook`` and writes ``self.obs.recipe-decay`` when ``facts`` is given. Otherwise
        every action of the group records a success at its own time. One transaction.
        """
        groups: dict[str, list[Any]] = {}
        for a in actions:
            skill_name = _field(a, "linked_skill", "linkedSkill")
            if not skill_name:
                continue
            groups.setdefault(skill_name, []).append(a)
        successes = failures = demoted = 0
        if not groups:
            return Attribution(0, 0, 0)
        verify = recipe_reuse_verify_enabled()
        observations: list[tuple[str, str]] = []
        with self.db.write():
            for skill_name, acts in groups.items():
                skill = self.get_by_name(skill_name)
                policy = skill.tool_policy if skill is not None else None
                is_recipe = (
                    verify
                    and skill is not None
                    and skill.verification is not None
                    and isinstance(policy, list)
                    and len(policy) > 0
                )
                judged = acts
                if is_recipe and policy:
                    scoped = [a for a in acts if _field(a, "tool_name", "toolName") in policy]
                    judged = scoped or acts
                failing = next((a for a in judged if not _field(a, "success", "success")), None)
                if failing is not None:
                    self.record_skill_outcome(skill_name, False, _field(failing, "timestamp", "timestamp"))
                    failures += 1
                    if is_recipe and skill is not None:
                        self.set_maturity(skill_name, "playbook")
                        demoted += 1
                        observations.append((skill_name, skill.id))
                else:
                    for a in acts:
                        self.record_skill_outcome(skill_name, True, _field(a, "timestamp", "timestamp"))
                        successes += 1
        # The self observation is best effort and written after the outcomes are committed, in its own
        # transaction, like the reference (a failing observation never undoes a demotion).
        if facts is not None:
            for skill_name, skill_id in observations:
                with contextlib.suppress(Exception):
                    facts.update_self_fact(
                        RECIPE_DECAY_KEY, recipe_decay_text(skill_name), [f"skill:{skill_id}"], now
                    )
        return Attribution(successes, failures, demoted)


__all__ = [
    "DAY_MS",
    "NEGATIVE_RECENCY_DAYS",
    "NEVER_USED_RECENCY",
    "POSITIVE_RECENCY_DAYS",
    "RECIPE_DECAY_KEY",
    "RECIPE_REUSE_ENV",
    "Attribution",
    "OutcomePoint",
    "RevisionWindow",
    "SkillStore",
    "recipe_decay_text",
    "recipe_reuse_verify_enabled",
    "score_skill",
]
