"""Reading layer 3: skill lookups, listings, search and ranking, and the evidence the GUI shows (the
actions credited to a skill, per version of a recipe). :class:`SkillReader` is the reading half of
:class:`core.skills.SkillStore`; it never writes.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any, NamedTuple

from core.damage import RowReader, unreadable_time
from core.engine import sqlite3
from core.jsutil import now_ms, utf16_len
from core.models import Skill
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


class SkillReader:
    """Reading the skills of one memory database (``memory_skills``).

    ``created_before`` (epoch ms) makes a view for looking back in time: the listings,
    :meth:`get_by_name`, :meth:`search` and :meth:`count` see only skills created before that moment
    (with today's counters and maturity: they change in place).
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
