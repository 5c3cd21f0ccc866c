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
"""

from __future__ import annotations

import contextlib
import math
import os
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from core.damage import RowReader, unreadable_time
from core.engine import sqlite3
from core.errors import ConflictError, NotFoundError, ValidationError_
from core.facts import UNSET, FactStore
from core.ids import new_id
from core.jsutil import iso_ms, js_stringify, js_truthy, now_ms, utf16_len
from core.maturity import next_maturity, parse_maturity
from core.models import MATURITIES, Skill, parse_json_lenient
from core.timeline import sanitize_query

if TYPE_CHECKING:
    from core.db import MemoryDB
    from core.engine import Connection

DAY_MS = 86_400_000
POSITIVE_RECENCY_DAYS = 30
NEGATIVE_RECENCY_DAYS = 90
NEVER_USED_RECENCY = 0.1
RECIPE_REUSE_ENV = "PHILONT_RECIPE_REUSE_VERIFY"
RECIPE_DECAY_KEY = "obs.recipe-decay"

_TOKEN_RE = re.compile(r"[a-z0-9]+|[\u4e00-\u9fa5]")
_UPDATABLE = ("description", "trigger_keywords", "action_template", "kind", "source", "when_to_use")


class OutcomePoint(NamedTuple):
    """One action credited to a skill (``memory_actions.linked_skill``)."""

    timestamp: int
    tool_name: str
    success: bool
    action_id: int


def _outcome_point(row: Any) -> OutcomePoint:
    """An action row as an outcome: a time that is no time reads as 0 (:class:`core.damage.StoredTime`,
    marked unreadable), so that outcomes still sort and compare."""
    r = RowReader(row)
    return OutcomePoint(
        r.time("timestamp", required=True), r.text("tool_name"), bool(row["success"]), row["id"]
    )


class RevisionWindow(NamedTuple):
    """The lifetime of one version of a recipe and the linked actions recorded while it was current.

    ``revision`` counts from 1 (the original version); the current version has ``is_current`` and
    ``end = None``. ``start`` is None for the first version. ``reason`` is the reason given when this
    version was replaced (None for the current one). An action counts when ``start <= ts < end``.
    """

    revision: int
    start: int | None
    end: int | None
    is_current: bool
    action_template: str | None
    verification: Any
    tool_policy: Any
    reason: str | None
    successes: int
    failures: int


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


def score_skill(skill: Skill, now: int | None = None) -> float:
    """``log(2+use) × (s+1)/(s+f+2) × recency`` (Part A §3.3); never used gives recency 0.1."""
    t = now_ms() if now is None else now
    laplace = (skill.success_count + 1) / (skill.success_count + skill.failure_count + 2)
    usage = math.log(2 + skill.use_count)
    h = NEGATIVE_RECENCY_DAYS if skill.kind == "negative" else POSITIVE_RECENCY_DAYS
    if skill.last_used_at is None:
        recency = NEVER_USED_RECENCY
    else:
        days = (t - skill.last_used_at) / DAY_MS
        recency = math.exp(-max(0.0, days) / h)
    return usage * laplace * recency


def _rank(skills: list[Skill], limit: Any, now: int | None) -> list[Skill]:
    t = now_ms() if now is None else now
    # sorted(..., reverse=True) is stable like JS's sort with (b - a): ties keep the SQL order.
    ranked = sorted(skills, key=lambda s: score_skill(s, t), reverse=True)
    return ranked[: int(limit)] if not isinstance(limit, int) else ranked[:limit]


def _tokens(text: str) -> set[str]:
    return {t for t in _TOKEN_RE.findall(text.lower()) if len(t) >= 2}


def _jaccard(a: set[str], b: set[str]) -> float:
    if not a and not b:
        return 1.0
    inter = len(a & b)
    union = len(a) + len(b) - inter
    return 0.0 if union == 0 else inter / union


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


class SkillStore:
    """Skills of one memory database (``memory_skills``).

    ``created_before`` (epoch ms) makes a view for looking back in time: the listings,
    :meth:`get_by_name`, :meth:`search` and :meth:`count` see only skills created before that moment
    (with today's counters and maturity: they change in place). Writes are not restricted.
    """

    def __init__(self, db: MemoryDB, *, created_before: int | None = None):
        self.db = db
        self.created_before = None if created_before is None else int(created_before)
        self._cols: frozenset[str] | None = None

    # -- columns -----------------------------------------------------------------------------------
    def columns(self, refresh: bool = False) -> frozenset[str]:
        """The columns ``memory_skills`` has (cached; refreshed inside every write)."""
        if self._cols is None or refresh:
            with self.db.lock:
                rows = self.db.conn.execute('PRAGMA table_info("memory_skills")').fetchall()
            self._cols = frozenset(r[1] for r in rows)
        return self._cols

    def has_column(self, name: str) -> bool:
        return name in self.columns()

    # -- reading helpers ---------------------------------------------------------------------------
    def _created_cond(self, alias: str = "") -> str:
        """`` AND <alias>created_at < created_before`` (a literal: it precedes ``LIMIT ?`` parameters)."""
        return "" if self.created_before is None else f" AND {alias}created_at < {self.created_before}"

    def _visible(self, skill: Skill | None) -> Skill | None:
        t = self.created_before
        if skill is None or t is None:
            return skill
        return skill if isinstance(skill.created_at, int | float) and skill.created_at < t else None

    def _rows(self, where: str = "", params: tuple[Any, ...] = (), tail: str = "") -> list[Skill]:
        if self.created_before is not None:
            cond = f"created_at < {self.created_before}"
            where = f"({where}) AND {cond}" if where else cond
        sql = "SELECT rowid AS rowid, * FROM memory_skills"
        if where:
            sql += " WHERE " + where
        if tail:
            sql += " " + tail
        with self.db.lock:
            rows = self.db.conn.execute(sql, params).fetchall()
        return [Skill.from_row(r) for r in rows]

    @staticmethod
    def _read(conn: Connection, name: str) -> Any:
        return conn.execute(
            "SELECT rowid AS rowid, * FROM memory_skills WHERE name = ? LIMIT 1", (name,)
        ).fetchone()

    def get_by_name(self, name: str) -> Skill | None:
        """Exact lookup; deprecated skills included."""
        with self.db.lock:
            row = self._read(self.db.conn, name)
        return self._visible(Skill.from_row(row) if row is not None else None)

    def count(self) -> int:
        where = "" if self.created_before is None else f" WHERE created_at < {self.created_before}"
        with self.db.lock:
            return int(self.db.conn.execute(f"SELECT COUNT(*) FROM memory_skills{where}").fetchone()[0])

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
            conn.execute(
                "UPDATE memory_skills SET action_template = ?, verification = ?, tool_policy = ?, "
                "maturity = ?, revision_history = ? WHERE name = ?",
                (
                    new_tpl,
                    js_stringify(new_ver) if js_truthy(new_ver) else None,
                    js_stringify(new_pol) if js_truthy(new_pol) else None,
                    "draft",
                    js_stringify(history),
                    name,
                ),
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

    # -- ranking and listings ----------------------------------------------------------------------
    def score_skill(self, skill: Skill, now: int | None = None) -> float:
        return score_skill(skill, now)

    def list_all(self, limit: int = 50, now: int | None = None) -> list[Skill]:
        """Non-deprecated skills by ``use_count DESC, created_at DESC`` (cap max(4×limit, 200)), by score."""
        cap = max(4 * limit, 200)
        rows = self._rows(
            "maturity != 'deprecated'", (cap,), "ORDER BY use_count DESC, created_at DESC, rowid LIMIT ?"
        )
        return _rank(rows, limit, now)

    def search(self, q: str, limit: float = 5, now: int | None = None) -> list[Skill]:
        """Part A §4.4 and Part C g: FTS (errors caught) else LIKE, deprecated filtered in SQL, the cap
        ``max(4×limit, 20)`` applied in ascending rowid order before ranking by score."""
        safe = sanitize_query(q)
        if not safe:
            return []
        cap = max(limit * 4, 20)
        rows: list[Any] = []
        if utf16_len(safe) >= 3:
            try:
                with self.db.lock:
                    rows = self.db.conn.execute(
                        "SELECT s.rowid AS rowid, s.* FROM memory_skills_fts f "
                        "JOIN memory_skills s ON s.rowid = f.rowid "
                        f"WHERE memory_skills_fts MATCH ? AND s.maturity != 'deprecated'{self._created_cond('s.')} "
                        "ORDER BY f.rowid LIMIT ?",
                        (safe, cap),
                    ).fetchall()
            except sqlite3.Error:
                rows = []
        if not rows:
            pattern = f"%{safe}%"
            with self.db.lock:
                rows = self.db.conn.execute(
                    "SELECT rowid AS rowid, * FROM memory_skills "
                    "WHERE (name LIKE ? OR description LIKE ? OR trigger_keywords LIKE ?) "
                    f"AND maturity != 'deprecated'{self._created_cond()} ORDER BY rowid LIMIT ?",
                    (pattern, pattern, pattern, cap),
                ).fetchall()
        return _rank([Skill.from_row(r) for r in rows], limit, now)

    def list_negative(self, limit: int = 50, now: int | None = None) -> list[Skill]:
        """Negative, non-deprecated skills: SQL order ``last_used_at DESC`` (NULLs last), ``created_at
        DESC``, rowid, at most max(limit, 50) rows; then ranked by score and cut to ``limit``."""
        rows = self._rows(
            "kind = 'negative' AND maturity != 'deprecated'",
            (max(limit, 50),),
            "ORDER BY last_used_at DESC, created_at DESC, rowid LIMIT ?",
        )
        return _rank(rows, limit, now)

    def list_by_maturity(self, maturity: str, limit: int = 5) -> list[Skill]:
        return self._rows("maturity = ?", (maturity, limit), "ORDER BY created_at DESC, id DESC LIMIT ?")

    def list_every(self) -> list[Skill]:
        """Every skill, deprecated included, with ``rowid``, in rowid order (the GUI board)."""
        return self._rows(tail="ORDER BY rowid")

    def names(self) -> list[Any]:
        """Every skill's name, deprecated included, sorted and once each: the names :meth:`list_every`
        gives, without reading every recipe and revision history (a filter's choices; on 2,000 skills
        the full read costs ~100 ms of Python, this one a query)."""
        where = "" if self.created_before is None else f" WHERE created_at < {self.created_before}"
        with self.db.lock:
            rows = self.db.conn.execute(f"SELECT name FROM memory_skills{where}").fetchall()
        return sorted({RowReader(r).text("name") for r in rows})

    def list_by_source_prefix(self, prefix: str) -> list[Skill]:
        return self._rows("source LIKE ?", (f"{prefix}%",), "ORDER BY created_at DESC")

    def find_duplicate_candidates(
        self, name: str, when_to_use: str = "", threshold: float = 0.5
    ) -> list[tuple[Skill, float]]:
        """Up to 5 non-deprecated, non-negative skills whose name+when_to_use tokens have Jaccard ≥
        ``threshold`` with the input, most similar first (Part A §3.2)."""
        target = _tokens(f"{name} {when_to_use}")
        if not target:
            return []
        out: list[tuple[Skill, float]] = []
        for skill in self._rows("maturity != 'deprecated' AND kind != 'negative'", tail="ORDER BY rowid"):
            cand = _tokens(f"{skill.name} {skill.when_to_use}")
            if not cand:
                continue
            j = _jaccard(target, cand)
            if j >= threshold:
                out.append((skill, j))
        out.sort(key=lambda sj: sj[1], reverse=True)
        return out[:5]

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

    # -- evidence for the GUI ----------------------------------------------------------------------
    def outcome_history(self, name: str, limit: int | None = None) -> list[OutcomePoint]:
        """Actions linked to ``name``, oldest first; with ``limit``, the newest ``limit`` of them."""
        with self.db.lock:
            rows = self.db.conn.execute(
                "SELECT id, timestamp, tool_name, success FROM memory_actions WHERE linked_skill = ? "
                "ORDER BY timestamp DESC, id DESC LIMIT ?",
                (name, -1 if limit is None else int(limit)),
            ).fetchall()
        return [_outcome_point(r) for r in reversed(rows)]

    def revision_outcomes(self, name: str) -> list[RevisionWindow]:
        """Per version of a skill (original, each revision, current) the linked actions' successes and
        failures recorded while it was current, from the snapshot times in ``revision_history``."""
        skill = self.get_by_name(name)
        if skill is None:
            return []
        history = skill.revision_history
        with self.db.lock:
            acts = self.db.conn.execute(
                "SELECT timestamp, success FROM memory_actions WHERE linked_skill = ?", (name,)
            ).fetchall()
        versions: list[tuple[int | None, int | None, bool, Any, Any, Any, str | None]] = []
        start: int | None = None
        for snap in history:
            versions.append(
                (
                    start,
                    snap.at,
                    False,
                    snap.action_template,
                    snap.verification,
                    snap.tool_policy,
                    snap.reason,
                )
            )
            start = snap.at
        versions.append(
            (start, None, True, skill.action_template, skill.verification, skill.tool_policy, None)
        )
        out: list[RevisionWindow] = []
        for i, (s, e, cur, tpl, ver, pol, why) in enumerate(versions):
            ok = bad = 0
            for r in acts:
                ts = RowReader(r).time("timestamp", required=True)
                if unreadable_time(ts):  # no time: it belongs to a version only when there is one
                    inside = s is None and e is None
                else:
                    inside = (s is None or ts >= s) and (e is None or ts < e)
                if inside:
                    if r["success"]:
                        ok += 1
                    else:
                        bad += 1
            out.append(RevisionWindow(i + 1, s, e, cur, tpl, ver, pol, why, ok, bad))
        return out


__all__ = [
    "Attribution",
    "OutcomePoint",
    "RevisionWindow",
    "SkillStore",
    "recipe_decay_text",
    "recipe_reuse_verify_enabled",
    "score_skill",
]
