"""Fact changes: new keys, replaced values, forgotten and unforgotten, pin and τ, decay, edits in place.

With a time baseline the rows date themselves: a version's ``created_at`` (new keys and replaced values,
old → new for each key, collapsed over the versions of the window), ``forgotten_at``; pins, τ changes,
unforgetting and removed versions are seen only through the desktop app's audit trail. With a backup
baseline the rows are compared by id and each difference is dated by the row's own time, the audit trail,
or not at all (``unknown``). In both, the decay model finds the active facts whose score fell below the
forget threshold inside the window (:func:`core.decay.forget_crossing_time`, no write needed).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from core.changes.context import FACTS, Ctx, fact_name, fact_state, ms, num
from core.changes.model import ChangeItem, Target, preview
from core.changes.rowdiff import TableDiff
from core.decay import forget_crossing_time, is_pinned, score_memory
from core.engine import sqlite3
from core.models import Fact

__all__ = ["facts_against", "facts_since"]

LAYER = "facts"
_BOOKKEEPING = frozenset({"last_accessed_at", "superseded_by"})
_TAU = "decay_tau_days"


def _item(code: str, row: Any, key: str, **kw: Any) -> ChangeItem:
    if isinstance(row, Fact):
        fid, name = row.id, f"{row.namespace}.{row.key}"
    else:
        fid, name = row["id"], fact_name(row)
    params = {"name": name, **kw.pop("params", {})}
    return ChangeItem(LAYER, code, Target("fact", str(fid), name), params, key=key, **kw)


def _f(row: Any) -> Fact:
    return row if isinstance(row, Fact) else Fact.from_row(row)


def _value(f: Fact) -> str:
    return preview(f.value)


def _conf(f: Fact) -> Any:
    c = f.confidence
    return c if isinstance(c, int | float) and math.isfinite(c) else None


def _at_until(ctx: Ctx, f: Fact) -> dict[str, Any]:
    """The row's state at ``until``: a forget after it is not there yet."""
    state = fact_state(f)
    if f.forgotten_at is not None and f.forgotten_at > ctx.until:
        state["forgottenAt"], state["status"] = None, "active"
    return state


# -- versions: new keys and replaced values -----------------------------------------------------------------


def _version_items(ctx: Ctx, new_rows: list[Any], before_head: Any) -> list[ChangeItem]:
    """One item for the key of ``new_rows`` (its versions of the window, oldest first)."""
    newest = new_rows[-1]
    nf = _f(newest)
    actor = ctx.audit.creator(FACTS, newest["id"]) if ctx.audit else None
    at = ms(newest["created_at"])
    common = {
        "after": _at_until(ctx, nf),
        "at": at,
        "dating": "exact" if at is not None else "unknown",
        "actor": actor,
        "details": {"versions": [{"id": r["id"], "createdAt": ms(r["created_at"])} for r in new_rows]},
    }
    if before_head is None:
        params = {"value": _value(nf), "confidence": _conf(nf), "versions": len(new_rows)}
        return [_item("change.fact.new", newest, newest["id"], params=params, **common)]
    hf = _f(before_head)
    params = {
        "old": _value(hf),
        "new": _value(nf),
        "old_confidence": _conf(hf),
        "new_confidence": _conf(nf),
        "versions": len(new_rows),
    }
    before = fact_state(hf)
    before["supersededBy"], before["status"] = (
        None,
        "active" if before["forgottenAt"] is None else "forgotten",
    )
    return [_item("change.fact.replaced", newest, newest["id"], params=params, before=before, **common)]


def _by_key(rows: Iterable[Any]) -> dict[tuple[str, str], list[Any]]:
    groups: dict[tuple[str, str], list[Any]] = {}
    for r in sorted(rows, key=lambda r: (ms(r["created_at"]) or 0, str(r["id"]))):
        groups.setdefault((r["namespace"], r["key"]), []).append(r)
    return groups


# -- forgotten, and the audited in-place edits ------------------------------------------------------------


def _forgotten_item(ctx: Ctx, row: Any, before_forgotten: Any = None) -> ChangeItem:
    f = _f(row)
    before = fact_state(f)
    before["forgottenAt"], before["status"] = before_forgotten, "active"
    at = ms(row["forgotten_at"])
    tr = ctx.audit.last_changing(FACTS, row["id"], ("forgotten_at",)) if ctx.audit else None
    return _item(
        "change.fact.forgotten",
        row,
        f"{row['id']}@{at}",
        params={"value": _value(f)},
        before=before,
        after=fact_state(f),
        at=at,
        actor=tr.entry.actor if tr else None,
    )


def _tau_code(old: Any, new: Any) -> str:
    if is_pinned(new) and not is_pinned(old):
        return "change.fact.pinned"
    if is_pinned(old) and not is_pinned(new) and new is None:
        return "change.fact.unpinned"
    return "change.fact.tau"


def _inplace_items(ctx: Ctx, before: Any, after: Any, *, dated: Any = None) -> list[ChangeItem]:
    """Pin / τ and unforget changes of one row (``before``/``after``: row mappings)."""
    out: list[ChangeItem] = []
    fid = after["id"]

    def when(columns: tuple[str, ...]) -> dict[str, Any]:
        tr = dated or (ctx.audit.last_changing(FACTS, fid, columns) if ctx.audit else None)
        if tr is None:
            return {"at": None, "dating": "unknown"}
        return {"at": tr.entry.at, "actor": tr.entry.actor, "dating": "exact"}

    old_tau, new_tau = before.get(_TAU), after.get(_TAU)
    if old_tau != new_tau and not (_isnan(old_tau) and _isnan(new_tau)):
        code = _tau_code(old_tau, new_tau)
        w = when((_TAU,))
        params = {"old_tau": old_tau, "new_tau": new_tau}
        out.append(
            _item(
                code,
                after,
                f"{fid}:{_TAU}:{num(new_tau)}@{w['at']}",
                params=params,
                before=fact_state(before),
                after=fact_state(after),
                **w,
            )
        )
    if before.get("forgotten_at") is not None and after.get("forgotten_at") is None:
        w = when(("forgotten_at",))
        out.append(
            _item(
                "change.fact.unforgotten",
                after,
                f"{fid}:unforgot@{w['at']}",
                params={"value": _value(_f(after))},
                before=fact_state(before),
                after=fact_state(after),
                **w,
            )
        )
    return out


def _isnan(x: Any) -> bool:
    return isinstance(x, float) and math.isnan(x)


def _removed_item(ctx: Ctx, row: Any) -> ChangeItem:
    tr = None
    if ctx.audit:
        tr = next((t for t in reversed(ctx.audit.of(FACTS, row["id"])) if t.after is None), None)
    w = {"at": tr.entry.at, "actor": tr.entry.actor} if tr else {"at": None, "dating": "unknown"}
    return _item(
        "change.fact.removed",
        row,
        f"{row['id']}:removed",
        params={"value": _value(_f(row))},
        before=fact_state(row),
        **w,
    )


# -- decay -----------------------------------------------------------------------------------------------------


_ACTIVE = (
    "SELECT * FROM {t} "
    "WHERE superseded_by IS NULL AND forgotten_at IS NULL "
    "AND (decay_tau_days IS NULL OR decay_tau_days >= 0) AND created_at <= :until"
)
# The namespace's default tau in SQL (first dot segment, exact): NULL where it never decays.
_TAU_SQL = (
    "coalesce(decay_tau_days, CASE CASE WHEN instr(namespace, '.') > 0 "
    "THEN substr(namespace, 1, instr(namespace, '.') - 1) ELSE namespace END "
    "WHEN 'user' THEN NULL WHEN 'project' THEN 60.0 WHEN 'context' THEN 1.0 WHEN 'session' THEN 1.0 "
    "ELSE 365.0 END)"
)
# A coarse prefilter: the crossing time ``anchor + tau * ln(confidence / threshold)`` days near the
# window (a day of slack either side); Python then decides exactly, with JavaScript's arithmetic.
_NEAR = (
    " AND confidence >= :thr AND coalesce(last_accessed_at, created_at) + " + _TAU_SQL + " * "
    "ln(confidence / :thr) * 86400000.0 BETWEEN :since - 86400000 AND :until + 86400000"
)


def _decay_candidates(ctx: Ctx, t: str) -> list[Any]:
    """Active unpinned facts that may cross the threshold in the window (all of them without SQLite's
    math functions)."""
    args = {"until": ctx.until, "since": ctx.since, "thr": ctx.threshold}
    try:
        return ctx.after.rows(_ACTIVE.format(t=t) + _NEAR, args)
    except sqlite3.OperationalError:  # no ln(): an engine built without the math functions
        return ctx.after.rows(_ACTIVE.format(t=t), args)


def _decayed(ctx: Ctx) -> list[ChangeItem]:
    """Active unpinned facts whose score crossed below the threshold inside the window."""
    if ctx.since is None:
        return []
    t = ctx.after.t(FACTS)
    rows = _decay_candidates(ctx, t)
    out: list[ChangeItem] = []
    thr = ctx.threshold
    for r in rows:
        c = num(r["confidence"])
        args: tuple[str, float, float | None, float | None, float | None] = (
            r["namespace"],
            math.nan if c is None else c,
            ms(r["created_at"]) or 0,
            ms(r["last_accessed_at"]),
            num(r["decay_tau_days"]),
        )
        now_score = score_memory(*args, now=ctx.until)
        if not now_score < thr or score_memory(*args, now=ctx.since) < thr:
            continue  # not below now, or below already at the start (with the same anchor)
        crossing = forget_crossing_time(*args, threshold=thr)
        if crossing is None or not ctx.inside(crossing):
            continue
        row = _f(r)
        out.append(
            _item(
                "change.fact.decayed",
                row,
                f"{r['id']}:decayed@{crossing}",
                params={"value": _value(row), "threshold": thr, "score": now_score},
                after=fact_state(row),
                at=crossing,
                dating="derived",
                details={"anchor": args[3] if args[3] is not None else args[2]},
            )
        )
    return out


# -- time baseline ------------------------------------------------------------------------------------------------


def facts_since(ctx: Ctx) -> list[ChangeItem]:
    t = ctx.after.t(FACTS)
    rng = (ctx.since if ctx.since is not None else -(2**63), ctx.until)
    created = ctx.after.rows(f"SELECT * FROM {t} WHERE created_at > ? AND created_at <= ?", rng)
    items: list[ChangeItem] = []
    groups = _by_key(created)
    wanted = [v[0]["supersedes"] for v in groups.values() if v[0]["supersedes"] is not None]
    heads = {r["id"]: r for r in ctx.after.in_chunks(f"SELECT * FROM {t} WHERE id IN ({{ids}})", wanted)}
    for versions in groups.values():
        ctx.check()
        items += _version_items(ctx, versions, heads.get(versions[0]["supersedes"]))
    forgotten = ctx.after.rows(f"SELECT * FROM {t} WHERE forgotten_at > ? AND forgotten_at <= ?", rng)
    items += [_forgotten_item(ctx, r) for r in forgotten]
    if ctx.audit is not None:
        for tr in ctx.audit.table(FACTS):
            if tr.before is not None and tr.after is not None:
                items += _inplace_items(ctx, tr.before, tr.after, dated=tr)
            elif tr.after is None and tr.before is not None:
                items.append(_removed_item(ctx, tr.before))
    ctx.check()
    return items + _decayed(ctx)


# -- backup baseline ------------------------------------------------------------------------------------------------


def facts_against(ctx: Ctx, diff: TableDiff) -> list[ChangeItem]:
    assert ctx.before is not None
    items: list[ChangeItem] = []
    bt = ctx.before.t(FACTS)
    for (ns, key), versions in _by_key(diff.added).items():
        ctx.check()
        head = ctx.before.one(
            f"SELECT * FROM {bt} WHERE namespace = ? AND key = ? AND superseded_by IS NULL "
            "ORDER BY rowid DESC LIMIT 1",
            (ns, key),
        )
        items += _version_items(ctx, versions, head)
    for before, after in diff.changed:
        items += _changed_items(ctx, before, after)
    items += [_removed_item(ctx, r) for r in diff.removed]
    return items + _decayed(ctx)


def _changed_items(ctx: Ctx, before: dict[str, Any], after: dict[str, Any]) -> list[ChangeItem]:
    out = _inplace_items(ctx, before, after)
    fb, fa = before.get("forgotten_at"), after.get("forgotten_at")
    if fa is not None and fa != fb:
        out.append(_forgotten_item(ctx, after, before_forgotten=fb))
    fields = [
        c
        for c in after
        if c not in _BOOKKEEPING and c not in (_TAU, "forgotten_at") and before.get(c) != after.get(c)
    ]
    if fields:
        tr = ctx.audit.last_changing(FACTS, after["id"], fields) if ctx.audit else None
        w = {"at": tr.entry.at, "actor": tr.entry.actor} if tr else {"at": None, "dating": "unknown"}
        out.append(
            _item(
                "change.fact.edited",
                after,
                f"{after['id']}:edited:{','.join(fields)}@{w['at']}",
                params={"fields": fields},
                before=fact_state(before),
                after=fact_state(after),
                **w,
            )
        )
    return out
