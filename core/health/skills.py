"""The doctor's checks of the skills layer (``memory_skills`` and the action log linked to it).

* ``health.skills.maturity_unbacked`` (warn): a ``confirmed`` or ``stable`` skill whose linked actions,
  replayed through the maturity machine (:func:`core.ladder.build_ladder`), reach a lower grade: the
  grade was claimed without the actions behind it (``use_skill`` counted as success, spec Part A §0.2
  and §0.7). ``playbook`` (set by hand or by reflection) and ``deprecated`` are not claims the log backs;
* ``health.skills.offered_unmatched`` (warn): offered ``offered_min`` times or more, never matched
  (only where the file has the ``offered_count``/``matched_count`` columns);
* ``health.skills.repairs_exhausted`` (warn): the agent used every repair attempt (3 of 3);
* ``health.skills.near_duplicate`` (warn): live positive skills whose recipes (``action_template``: its
  words and signs, case-folded, as a set) are at least ``near_duplicate_ratio`` alike (Jaccard);
* ``health.skills.draft_unused`` (info): drafts not used (``last_used_at``, else ``created_at``) for
  ``draft_unused_days``;
* ``health.skills.invalid_json`` (fail): a JSON column the agent cannot read.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

from core.health.context import DAY, Context, finding
from core.health.finding import Finding, Fix
from core.ladder import build_ladder
from core.repair import repair_attempts
from core.skill_reads import OutcomePoint, SkillReader

if TYPE_CHECKING:
    from core.models import Skill

_RANK = {"draft": 0, "confirmed": 1, "stable": 2}
_WS = re.compile(r"\s+")
NEAR_DUPLICATE_MIN_CHARS = 20  # shorter recipes ("curl", "ls") are alike by nature


def _demote(skills: list[Skill], to: str, reason: str) -> Fix:
    return Fix("health.fix.demote_skill", {"ids": [s.id for s in skills], "to": to, "reason": reason})


def linked_outcomes(ctx: Context, names: list[Any]) -> dict[Any, list[OutcomePoint]]:
    """The actions linked to each of ``names``, oldest first (read through the linked-skill index)."""
    out: dict[Any, list[OutcomePoint]] = {}
    for k in range(0, len(names), 500):
        chunk = names[k : k + 500]
        rows = ctx.rows(
            "SELECT linked_skill, timestamp, tool_name, success, id FROM memory_actions "
            f"WHERE linked_skill IN ({','.join('?' * len(chunk))}) ORDER BY timestamp, id",
            chunk,
        )
        for name, ts, tool, ok, aid in rows:
            t = ts if isinstance(ts, int) and not isinstance(ts, bool) else 0  # no time reads as 0
            out.setdefault(name, []).append(OutcomePoint(t, str(tool), bool(ok), aid))
    return out


def check_unbacked(ctx: Context) -> list[Finding]:
    claimed = [s for s in ctx.skills if s.maturity in ("confirmed", "stable")]
    if not claimed:
        return []
    linked = linked_outcomes(ctx, [s.name for s in claimed])
    out = []
    for s in claimed:
        outcomes = linked.get(s.name, [])
        ladder = build_ladder(s, outcomes)
        if _RANK.get(ladder.grade, 0) >= _RANK[s.maturity]:
            continue
        measure = {
            "maturity": s.maturity,
            "backed": ladder.grade,
            "success_count": s.success_count,
            "failure_count": s.failure_count,
            "actions": len(outcomes),
            "action_successes": ladder.success_count,
            "action_failures": ladder.failure_count,
        }
        out.append(
            finding(
                "health.skills.maturity_unbacked",
                "warn",
                [s.id],
                measure,
                _demote([s], ladder.grade, "health.skills.maturity_unbacked"),
                name=s.name,
                maturity=s.maturity,
                actions=len(outcomes),
                backed=ladder.grade,
            )
        )
    return out


def check_offered(ctx: Context) -> list[Finding]:
    reader = SkillReader(ctx.db)
    if not (reader.has_column("offered_count") and reader.has_column("matched_count")):
        return []
    out = []
    for s in ctx.skills:
        if s.offered_count >= ctx.options.offered_min and s.matched_count == 0 and s.maturity != "deprecated":
            measure = {"offered": s.offered_count, "matched": 0, "threshold": ctx.options.offered_min}
            out.append(
                finding(
                    "health.skills.offered_unmatched",
                    "warn",
                    [s.id],
                    measure,
                    _demote([s], "deprecated", "health.skills.offered_unmatched"),
                    name=s.name,
                    offered=s.offered_count,
                )
            )
    return out


def check_repairs(ctx: Context) -> list[Finding]:
    out = []
    for s in ctx.skills:
        attempts = repair_attempts(s.revision_history)
        if attempts.exhausted and s.maturity != "deprecated":
            out.append(
                finding(
                    "health.skills.repairs_exhausted",
                    "warn",
                    [s.id],
                    attempts.to_json(),
                    _demote([s], "deprecated", "health.skills.repairs_exhausted"),
                    name=s.name,
                    count=attempts.count,
                    limit=attempts.limit,
                )
            )
    return out


_TOKEN = re.compile(r"\w+|[^\w\s]")


def recipe_tokens(s: Skill) -> frozenset[str]:
    """The words and signs of a recipe (``action_template``), case-folded, as a set."""
    return frozenset(_TOKEN.findall((s.action_template or "").casefold()))


def similar_pairs(sets: list[frozenset[str]], threshold: float) -> list[tuple[int, int, float]]:
    """``(i, j, jaccard)`` for every pair of sets at least ``threshold`` alike (Jaccard), found by
    prefix filtering (tokens ordered rarest first: two sets that alike share a token among the first
    ``|x| - ceil(t·|x|) + 1`` of each), so that unlike recipes are never compared."""
    freq: dict[str, int] = {}
    for x in sets:
        for tok in x:
            freq[tok] = freq.get(tok, 0) + 1
    ordered = [sorted(x, key=lambda tok: (freq[tok], tok)) for x in sets]
    order = sorted(range(len(sets)), key=lambda i: len(sets[i]))
    index: dict[str, list[int]] = {}
    out: list[tuple[int, int, float]] = []
    for i in order:
        x = sets[i]
        n = len(x)
        if n == 0:
            continue
        prefix = n - math.ceil(threshold * n - 1e-9) + 1
        seen: set[int] = set()
        for tok in ordered[i][:prefix]:
            for j in index.get(tok, ()):
                if j in seen or len(sets[j]) < threshold * n:
                    continue
                seen.add(j)
                inter = len(x & sets[j])
                sim = inter / (n + len(sets[j]) - inter)
                if sim >= threshold:
                    out.append((min(i, j), max(i, j), sim))
            index.setdefault(tok, []).append(i)
    return out


def check_near_duplicates(ctx: Context) -> list[Finding]:
    ratio = ctx.options.near_duplicate_ratio
    live = [s for s in ctx.skills if s.maturity != "deprecated" and s.kind != "negative"]
    live = [s for s in live if len(_WS.sub("", s.action_template or "")) >= NEAR_DUPLICATE_MIN_CHARS]
    parent = list(range(len(live)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    best: dict[int, float] = {}

    def join(i: int, j: int, sim: float) -> None:
        a, b = root(i), root(j)
        parent[b] = a
        best[a] = max(best.get(a, 0.0), best.pop(b, 0.0) if b != a else 0.0, sim)

    same: dict[frozenset[str], list[int]] = {}  # identical recipes are compared once
    for i, s in enumerate(live):
        same.setdefault(recipe_tokens(s), []).append(i)
    distinct = list(same)
    for members in same.values():
        for j in members[1:]:
            join(members[0], j, 1.0)
    for a, b, sim in similar_pairs(distinct, ratio):
        join(same[distinct[a]][0], same[distinct[b]][0], sim)
    groups: dict[int, list[Skill]] = {}
    for i, s in enumerate(live):
        groups.setdefault(root(i), []).append(s)
    out = []
    for key, skills in groups.items():
        if len(skills) < 2:
            continue
        sim = round(best.get(key, ratio), 3)
        names = [s.name for s in skills]
        ids = [s.id for s in skills]
        out.append(
            finding(
                "health.skills.near_duplicate",
                "warn",
                ids,
                {"similarity": sim, "threshold": ratio, "names": names},
                Fix("health.fix.merge_duplicates", {"layer": "skills", "ids": ids}),
                names=names,
                similarity=f"{round(sim * 100)}%",
            )
        )
    return out


def check_unused_drafts(ctx: Context) -> list[Finding]:
    days = ctx.options.draft_unused_days
    before = ctx.now - days * DAY
    unused = []
    for s in ctx.skills:
        last = s.last_used_at if s.last_used_at is not None else s.created_at
        if s.maturity == "draft" and isinstance(last, int) and last < before:
            unused.append(s)
    if not unused:
        return []
    return [
        finding(
            "health.skills.draft_unused",
            "info",
            [s.id for s in unused],
            {"days": days, "count": len(unused), "names": [s.name for s in unused]},
            _demote(unused, "deprecated", "health.skills.draft_unused"),
            count=len(unused),
            days=days,
        )
    ]


def check_damaged(ctx: Context) -> list[Finding]:
    out = []
    for s in ctx.skills:
        fields = sorted(
            {e.split(":", 1)[0] for e in s.json_errors}
            | {c for c in ("verification", "tool_policy", "revision_history") if c in s.damaged}
        )
        if fields:
            out.append(
                finding(
                    "health.skills.invalid_json",
                    "fail",
                    [s.id],
                    {"errors": list(s.json_errors)},
                    name=s.name,
                    fields=fields,
                )
            )
    return out


CHECKS = [
    check_unbacked,
    check_offered,
    check_repairs,
    check_near_duplicates,
    check_unused_drafts,
    check_damaged,
]
