"""Skill changes: new skills, maturity moves and the actions behind them, recipe revisions, counters,
deprecation, exhausted repair attempts, other edits.

Maturity moves come from the same replay the Skills tab shows (:func:`core.ladder.build_ladder`: the
linked actions replayed through the state machine, each revision resetting to ``draft``): the steps of
the window that changed the grade, with their actions. The replay is trusted only where it ends on the
grade the database holds (a grade set by hand or by reflection is not in the action log); a grade set
in the desktop app is dated by its audit row. A revision is dated by its own ``at``
(``revision_history``), with the word diff of the action template and its reason; the third
``skill_repair:`` revision exhausts the repair attempts (``MAX_REPAIR_ATTEMPTS`` = 3, Part B §2).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from core.changes.context import ACTIONS, SKILLS, Ctx, ms, skill_state
from core.changes.model import ChangeItem, Target
from core.changes.rowdiff import TableDiff
from core.ladder import Ladder, LadderStep, build_ladder
from core.models import RevisionSnapshot, Skill
from core.skills import OutcomePoint

__all__ = ["MAX_REPAIR_ATTEMPTS", "REPAIR_REASON_PREFIX", "repair_attempts", "skills_against", "skills_since"]

LAYER = "skills"
REPAIR_REASON_PREFIX = "skill_repair:"
MAX_REPAIR_ATTEMPTS = 3
_COUNTERS = ("success_count", "failure_count", "use_count", "offered_count", "matched_count")
_BOOKKEEPING = frozenset(
    {*_COUNTERS, "last_used_at", "last_success_at", "last_failure_at", "consecutive_failures"}
)
_RECIPE = ("action_template", "verification", "tool_policy", "revision_history")


def repair_attempts(history: Iterable[RevisionSnapshot]) -> list[RevisionSnapshot]:
    """The revisions made by skill repair (reason ``skill_repair:…``), oldest first."""
    return [r for r in history if isinstance(r.reason, str) and r.reason.startswith(REPAIR_REASON_PREFIX)]


def _item(code: str, s: Skill, key: str, **kw: Any) -> ChangeItem:
    params = {"name": s.name, **kw.pop("params", {})}
    return ChangeItem(LAYER, code, Target("skill", s.name, s.name), params, key=key, **kw)


# -- revisions -------------------------------------------------------------------------------------------------


def _version(s: Skill, i: int) -> dict[str, Any]:
    """Version ``i`` (0-based; ``len(history)`` is the current one) of a recipe."""
    h = s.revision_history
    if i < len(h):
        r = h[i]
        return {
            "actionTemplate": r.action_template,
            "verification": r.verification,
            "toolPolicy": r.tool_policy,
        }
    return {"actionTemplate": s.action_template, "verification": s.verification, "toolPolicy": s.tool_policy}


def _revision_items(ctx: Ctx, s: Skill, indexes: Iterable[int], actor_of: dict[int, str]) -> list[ChangeItem]:
    out = []
    for i in indexes:
        snap = s.revision_history[i]
        old, new = _version(s, i), _version(s, i + 1)
        changed = [k for k in ("actionTemplate", "verification", "toolPolicy") if old[k] != new[k]]
        out.append(
            _item(
                "change.skill.revised",
                s,
                f"{s.name}:revision@{snap.at}",
                params={"reason": snap.reason, "revision": i + 2},
                before=old,
                after=new,
                at=snap.at,
                actor=actor_of.get(i),
                details={"fields": changed},
            )
        )
    repairs = repair_attempts(s.revision_history)
    if len(repairs) >= MAX_REPAIR_ATTEMPTS:
        third = repairs[MAX_REPAIR_ATTEMPTS - 1]
        if any(s.revision_history[i] is third for i in indexes):
            out.append(
                _item(
                    "change.skill.repair_exhausted",
                    s,
                    f"{s.name}:repairs@{third.at}",
                    params={"attempts": len(repairs), "limit": MAX_REPAIR_ATTEMPTS},
                    after={"reasons": [r.reason for r in repairs]},
                    at=third.at,
                )
            )
    return out


# -- the ladder ------------------------------------------------------------------------------------------------


def _outcomes(ctx: Ctx, names: list[str]) -> dict[str, list[OutcomePoint]]:
    """The linked actions of each skill up to ``until``, oldest first (the ladder's input)."""
    t = ctx.after.t(ACTIONS)
    out: dict[str, list[OutcomePoint]] = {n: [] for n in names}
    for i in range(0, len(names), 500):
        part = names[i : i + 500]
        rows = ctx.after.rows(
            f"SELECT id, timestamp, tool_name, success, linked_skill FROM {t} WHERE linked_skill IN "
            f"({','.join('?' * len(part))}) AND timestamp <= ? ORDER BY timestamp, id",
            (*part, ctx.until),
        )
        for r in rows:
            point = OutcomePoint(ms(r["timestamp"]) or 0, r["tool_name"], bool(r["success"]), r["id"])
            out[r["linked_skill"]].append(point)
    return out


def _step_json(st: LadderStep) -> dict[str, Any]:
    return {
        "at": st.at,
        "kind": st.kind,
        "tool": st.tool,
        "actionId": st.action_id,
        "success": st.success,
        "before": st.before,
        "after": st.after,
        "reason": st.reason,
    }


def _moves(ctx: Ctx, s: Skill, ladder: Ladder, db_grade: str) -> tuple[list[LadderStep], list[LadderStep]]:
    """The window's grade-changing steps and outcome steps, when the replay agrees with the database."""
    if ladder.grade != db_grade:
        return [], []
    window = [st for st in ladder.steps if ctx.inside(st.at)]
    return [st for st in window if st.changed], [st for st in window if st.kind == "outcome"]


def _maturity_item(s: Skill, moves: list[LadderStep], frm: str, to: str) -> ChangeItem:
    code = "change.skill.deprecated" if to == "deprecated" else "change.skill.maturity"
    last = moves[-1]
    path = [frm, *(st.after for st in moves)]
    return _item(
        code,
        s,
        f"{s.name}:{to}@{last.at}",
        params={"from": frm, "to": to, "path": path},
        before={"maturity": frm},
        after={"maturity": to},
        at=last.at,
        dating="derived",
        details={"steps": [_step_json(st) for st in moves]},
    )


def _counter_item(
    s: Skill,
    outcomes: list[LadderStep],
    *,
    exact: tuple[int, int, int] | None = None,
    at: int | None = None,
    before: Any = None,
) -> ChangeItem:
    ok = sum(1 for st in outcomes if st.success)
    bad = len(outcomes) - ok
    succ, fail, uses = exact if exact is not None else (ok, bad, None)
    last_id = outcomes[-1].action_id if outcomes else None
    when = at if exact is not None else (outcomes[-1].at if outcomes else None)
    return _item(
        "change.skill.counters",
        s,
        f"{s.name}:counters:{s.success_count}/{s.failure_count}:{last_id}",
        params={"successes": succ, "failures": fail, "uses": uses},
        before=before,
        after=skill_state(s),
        at=when,
        dating="derived" if when is not None else "unknown",
        details={
            "fromActionLog": {"successes": ok, "failures": bad},
            "actions": [st.action_id for st in outcomes],
        },
    )


# -- time baseline --------------------------------------------------------------------------------------------


def _skills(ctx: Ctx, where: str, args: Iterable[Any]) -> list[Skill]:
    rows = ctx.after.rows(f"SELECT rowid AS rowid, * FROM {ctx.after.t(SKILLS)} WHERE {where}", tuple(args))
    return [Skill.from_row(r) for r in rows]


def _revision_actors(ctx: Ctx, s: Skill) -> dict[int, str]:
    out: dict[int, str] = {}
    if ctx.audit is None:
        return out
    for tr in ctx.audit.of(SKILLS, s.id):
        if tr.changed("revision_history") and isinstance(tr.before, dict):
            before = Skill.from_row({**_blank(s), "revision_history": tr.before.get("revision_history")})
            out[len(before.revision_history)] = tr.entry.actor
    return out


def _blank(s: Skill) -> dict[str, Any]:
    return {
        "id": s.id,
        "name": s.name,
        "description": "",
        "trigger_keywords": "[]",
        "action_template": "",
        "use_count": 0,
        "last_used_at": None,
        "created_at": 0,
    }


def skills_since(ctx: Ctx) -> list[ChangeItem]:
    lo = ctx.since if ctx.since is not None else -(2**63)
    items = [
        _item(
            "change.skill.new",
            s,
            s.id,
            params={"maturity": s.maturity, "kind": s.kind},
            after=skill_state(s),
            at=s.created_at,
            actor=ctx.audit.creator(SKILLS, s.id) if ctx.audit else None,
        )
        for s in _skills(ctx, "created_at > ? AND created_at <= ?", (lo, ctx.until))
    ]
    revised = (
        _skills(ctx, "revision_history IS NOT NULL AND length(revision_history) > 2", ())
        if ("revision_history" in ctx.after.columns(SKILLS))
        else []
    )
    for s in revised:
        idx = [i for i, r in enumerate(s.revision_history) if ctx.inside(r.at)]
        if idx:
            items += _revision_items(ctx, s, idx, _revision_actors(ctx, s))
    active = ctx.after.rows(
        f"SELECT DISTINCT linked_skill FROM {ctx.after.t(ACTIONS)} WHERE timestamp > ? AND timestamp <= ? "
        "AND linked_skill IS NOT NULL",
        (lo, ctx.until),
    )
    names = sorted(
        {r[0] for r in active}
        | {s.name for s in revised if any(ctx.inside(r.at) for r in s.revision_history)}
    )
    items += _ladder_items(ctx, names)
    items += _audited_items(ctx)
    return items


def _ladder_items(ctx: Ctx, names: list[str]) -> list[ChangeItem]:
    if not names:
        return []
    skills = {s.name: s for s in _skills_named(ctx, names)}
    outcomes = _outcomes(ctx, [n for n in names if n in skills])
    items: list[ChangeItem] = []
    for name, s in skills.items():
        ctx.check()
        ladder = build_ladder(s, outcomes.get(name, []))
        moves, outs = _moves(ctx, s, ladder, s.maturity)
        if moves:
            items.append(_maturity_item(s, moves, moves[0].before, moves[-1].after))
        if outs:
            items.append(_counter_item(s, outs))
    return items


def _skills_named(ctx: Ctx, names: list[str]) -> list[Skill]:
    rows = ctx.after.in_chunks(
        f"SELECT rowid AS rowid, * FROM {ctx.after.t(SKILLS)} WHERE name IN ({{ids}})", names
    )
    return [Skill.from_row(r) for r in rows]


def _audited_items(ctx: Ctx) -> list[ChangeItem]:
    """Grades set, fields edited and skills deleted in the desktop app during the window."""
    items: list[ChangeItem] = []
    if ctx.audit is None:
        return items
    for tr in ctx.audit.table(SKILLS):
        ref = tr.after or tr.before
        if ref is None:  # an entry without either state names no skill
            continue
        s = Skill.from_row({**_blank_state(ref), **{k: v for k, v in ref.items() if k != "rowid"}})
        w = {"at": tr.entry.at, "actor": tr.entry.actor}
        if tr.after is None:
            items.append(
                _item("change.skill.removed", s, f"{s.id}:removed@{tr.entry.at}", before=tr.before, **w)
            )
            continue
        if tr.before is None:
            continue
        if tr.changed("maturity"):
            frm, to = tr.before.get("maturity"), tr.after.get("maturity")
            code = "change.skill.deprecated" if to == "deprecated" else "change.skill.maturity"
            items.append(
                _item(
                    code,
                    s,
                    f"{s.name}:{to}@{tr.entry.at}",
                    params={"from": frm, "to": to},
                    before={"maturity": frm},
                    after={"maturity": to},
                    details={"reason": tr.entry.note},
                    **w,
                )
            )
        fields = [c for c in tr.after if c not in (*_RECIPE, "maturity", "rowid") and tr.changed(c)]
        if fields:
            items.append(
                _item(
                    "change.skill.edited",
                    s,
                    f"{s.id}:edited@{tr.entry.at}",
                    params={"fields": fields},
                    before=tr.before,
                    after=tr.after,
                    **w,
                )
            )
    return items


def _blank_state(ref: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": ref.get("id") or "",
        "name": ref.get("name") or "",
        "description": "",
        "trigger_keywords": "[]",
        "action_template": "",
        "use_count": 0,
        "last_used_at": None,
        "created_at": 0,
    }


# -- backup baseline ----------------------------------------------------------------------------------------


def skills_against(ctx: Ctx, diff: TableDiff) -> list[ChangeItem]:
    items: list[ChangeItem] = []
    for row in diff.added:
        s = Skill.from_row(row)
        items.append(
            _item(
                "change.skill.new",
                s,
                s.id,
                params={"maturity": s.maturity, "kind": s.kind},
                after=skill_state(s),
                at=s.created_at,
                actor=ctx.audit.creator(SKILLS, s.id) if ctx.audit else None,
            )
        )
    for row in diff.removed:
        s = Skill.from_row(row)
        tr = (
            next((t for t in reversed(ctx.audit.of(SKILLS, s.id)) if t.after is None), None)
            if ctx.audit
            else None
        )
        w = {"at": tr.entry.at, "actor": tr.entry.actor} if tr else {"at": None, "dating": "unknown"}
        items.append(
            _item("change.skill.removed", s, f"{s.id}:removed@{w['at']}", before=skill_state(s), **w)
        )
    pairs = [(Skill.from_row(b), Skill.from_row(a), b, a) for b, a in diff.changed]
    outcomes = _outcomes(ctx, [a.name for _, a, _, _ in pairs]) if pairs else {}
    for sb, sa, rb, ra in pairs:
        ctx.check()
        items += _changed_items(ctx, sb, sa, rb, ra, outcomes.get(sa.name, []))
    return items


def _changed_items(
    ctx: Ctx, sb: Skill, sa: Skill, rb: dict[str, Any], ra: dict[str, Any], outcomes: list[OutcomePoint]
) -> list[ChangeItem]:
    items: list[ChangeItem] = []
    ladder = build_ladder(sa, outcomes)
    moves, outs = _moves(ctx, sa, ladder, sa.maturity)
    hb, ha = sb.revision_history, sa.revision_history
    new_revs = (
        list(range(len(hb), len(ha))) if ha[: len(hb)] == hb else [i for i, r in enumerate(ha) if r not in hb]
    )
    if new_revs:
        items += _revision_items(ctx, sa, new_revs, _revision_actors(ctx, sa))
    if sb.maturity != sa.maturity:
        items.append(_backup_maturity(ctx, sa, sb.maturity, moves, [ha[i] for i in new_revs]))
    ds, df = sa.success_count - sb.success_count, sa.failure_count - sb.failure_count
    if ds or df:
        changed_at = [
            t
            for t, o in ((sa.last_success_at, sb.last_success_at), (sa.last_failure_at, sb.last_failure_at))
            if t is not None and t != o
        ]
        at = max(changed_at) if changed_at else None
        items.append(
            _counter_item(
                sa, outs, exact=(ds, df, sa.use_count - sb.use_count), at=at, before=skill_state(sb)
            )
        )
    fields = [c for c in ra if c not in (*_BOOKKEEPING, *_RECIPE, "maturity") and rb.get(c) != ra.get(c)]
    if [
        c for c in ("action_template", "verification", "tool_policy") if rb.get(c) != ra.get(c)
    ] and not new_revs:
        fields += [c for c in ("action_template", "verification", "tool_policy") if rb.get(c) != ra.get(c)]
    if fields:
        tr = ctx.audit.last_changing(SKILLS, sa.id, fields) if ctx.audit else None
        w = {"at": tr.entry.at, "actor": tr.entry.actor} if tr else {"at": None, "dating": "unknown"}
        items.append(
            _item(
                "change.skill.edited",
                sa,
                f"{sa.id}:edited:{','.join(fields)}@{w['at']}",
                params={"fields": fields},
                before=skill_state(sb),
                after=skill_state(sa),
                **w,
            )
        )
    return items


def _backup_maturity(
    ctx: Ctx, s: Skill, frm: str, moves: list[LadderStep], revs: list[RevisionSnapshot]
) -> ChangeItem:
    to = s.maturity
    if moves and moves[-1].after == to:
        item = _maturity_item(s, moves, frm, to)
        item.params["from"], item.params["path"][0], item.before = frm, frm, {"maturity": frm}
        return item
    tr = ctx.audit.last_changing(SKILLS, s.id, ("maturity",)) if ctx.audit else None
    code = "change.skill.deprecated" if to == "deprecated" else "change.skill.maturity"
    if tr is not None:
        w: dict[str, Any] = {"at": tr.entry.at, "actor": tr.entry.actor, "details": {"reason": tr.entry.note}}
    elif to == "draft" and revs:
        w = {"at": revs[-1].at, "details": {"revision": revs[-1].reason}}
    else:
        w = {"at": None, "dating": "unknown"}
    return _item(
        code,
        s,
        f"{s.name}:{to}@{w['at']}",
        params={"from": frm, "to": to},
        before={"maturity": frm},
        after={"maturity": to},
        **w,
    )
