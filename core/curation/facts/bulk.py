"""Fact edits of a whole selection, one audit entry and one undo each: forget, pin, unpin, move namespace.

:func:`plan_bulk` lists what :func:`bulk` would change, for the confirmation; :func:`bulk` recomputes the
plan inside its transaction and refuses when it differs from the confirmed one.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core.curation import Change
from core.curation.facts.common import (
    BULK_ACTIONS,
    BULK_OPS,
    BULK_TARGET,
    MAX_LISTED,
    get_row,
    head_of,
    name_of,
    when,
)
from core.decay import DEFAULT_FORGET_THRESHOLD, PIN_SENTINEL, is_pinned, score_memory
from core.errors import ConflictError, Notice, ValidationError_
from core.facts import SELF_NAMESPACE, SelfDescriptionWriteForbiddenError
from core.jsutil import now_ms
from core.models import Fact

if TYPE_CHECKING:
    from core.db import MemoryDB
    from core.engine import Connection


# -- bulk actions ---------------------------------------------------------------------------------------


@dataclass
class PlanItem:
    """One fact a bulk action will change; ``replaces`` is the version a move supersedes."""

    fact: Fact
    score: float | None = None
    replaces: Fact | None = None


@dataclass
class BulkPlan:
    """What a bulk action would change, for the confirmation dialog (nothing written)."""

    op: str
    namespace: str | None
    items: list[PlanItem] = field(default_factory=list)
    skipped: list[tuple[Fact | None, str, str]] = field(default_factory=list)  # (fact, id, reason)
    skip_notices: list[Notice] = field(default_factory=list)  # the reasons of ``skipped`` as notices
    now: int = 0
    threshold: float = DEFAULT_FORGET_THRESHOLD

    def skip(self, fact: Fact | None, fact_id: str, why: Notice) -> None:
        """Leave a fact out, saying why (the English reason in :attr:`skipped`, the notice beside it)."""
        self.skipped.append((fact, fact_id, why.message))
        self.skip_notices.append(why)

    @property
    def signature(self) -> tuple[tuple[str, str | None], ...]:
        """Identifies the plan: (id, replaced id) of every item. Pass it as ``expected`` to :func:`bulk`."""
        return tuple((it.fact.id, it.replaces.id if it.replaces else None) for it in self.items)


def _score(row: Mapping[str, Any], now: int) -> float:
    return score_memory(
        row["namespace"],
        row["confidence"],
        row["created_at"],
        row["last_accessed_at"],
        row["decay_tau_days"],
        now,
    )


def _fact(row: Mapping[str, Any] | None) -> Fact | None:
    if row is None:
        return None
    return Fact.from_row(row)


def _row_notice(row: Mapping[str, Any], op: str) -> Notice | None:
    """Why a row cannot take ``op`` whatever its score (``None``: it can)."""
    if row["superseded_by"] is not None:
        return Notice("fact.skip.superseded", "superseded by a newer version")
    if row["forgotten_at"] is not None and op in ("forget", "move"):
        return Notice("fact.skip.forgotten", "already forgotten")
    return None


def _op_notice(row: Mapping[str, Any], plan: BulkPlan, score: float, candidates_only: bool) -> Notice | None:
    """Why the row cannot take the plan's operation now (``None``: it can)."""
    op, now = plan.op, plan.now
    if op == "forget" and candidates_only:
        if is_pinned(row["decay_tau_days"]):
            return Notice("fact.skip.pinned_candidate", "pinned: not a forget candidate")
        if not score < plan.threshold:
            return Notice(
                "fact.skip.not_candidate",
                f"not a forget candidate (score {_fmt_score(score)} at {when(now)})",
                {"score": score, "at": now},
            )
    if op == "pin" and is_pinned(row["decay_tau_days"]):
        return Notice("fact.skip.pinned", "already pinned")
    if op == "unpin" and not is_pinned(row["decay_tau_days"]):
        return Notice("fact.skip.not_pinned", "not pinned")
    return None


def _move_notice(row: Mapping[str, Any], new_namespace: str | None) -> Notice | None:
    if row["namespace"] == new_namespace:
        return Notice("fact.skip.same_namespace", "already in this namespace")
    if row["namespace"] == SELF_NAMESPACE:
        return Notice("fact.skip.self", "self facts are written by the kernel only")
    return None


def _replaced(
    conn: Connection, row: Mapping[str, Any], new_namespace: str, keys: dict[str, str]
) -> Fact | None:
    """The version a move of ``row`` supersedes; two moved facts of one key are refused."""
    if row["key"] in keys:
        raise ValidationError_(
            f"{name_of(row)} and {keys[row['key']]} have the same key; {new_namespace} can hold "
            f"only one version of {row['key']!r}. Move them separately.",
            code="fact.move_same_key",
            params={
                "fact": name_of(row),
                "other": keys[row["key"]],
                "namespace": new_namespace,
                "key": row["key"],
            },
        )
    keys[row["key"]] = name_of(row)
    return _fact(head_of(conn, new_namespace, row["key"]))


def _new_plan(op: str, new_namespace: str | None, threshold: float, now: int) -> BulkPlan:
    if op not in BULK_OPS:
        raise ValueError(f"unknown bulk operation {op!r}")
    plan = BulkPlan(op, new_namespace if op == "move" else None, now=now, threshold=threshold)
    if op == "move":
        if not isinstance(new_namespace, str) or not new_namespace.strip():
            raise ValidationError_("The new namespace must not be empty.", code="fact.namespace_empty")
        if new_namespace == SELF_NAMESPACE:
            raise SelfDescriptionWriteForbiddenError("*", "move namespace")
    return plan


def _plan(
    conn: Connection,
    op: str,
    ids: Sequence[str],
    new_namespace: str | None,
    candidates_only: bool,
    threshold: float,
    now: int,
) -> BulkPlan:
    plan = _new_plan(op, new_namespace, threshold, now)
    keys: dict[str, str] = {}
    for fid in dict.fromkeys(ids):
        row = get_row(conn, fid)
        if row is None:
            plan.skip(None, fid, Notice("fact.skip.gone", "no longer exists"))
            continue
        fact = Fact.from_row(row)
        notice = _row_notice(row, op)
        score = _score(row, now) if notice is None else None
        if score is not None:
            notice = _op_notice(row, plan, score, candidates_only)
        if notice is None and op == "move":
            notice = _move_notice(row, new_namespace)
        if notice is not None:
            plan.skip(fact, fid, notice)
            continue
        replaces = None
        if op == "move":
            assert new_namespace is not None  # _new_plan refused an empty one
            replaces = _replaced(conn, row, new_namespace, keys)
        plan.items.append(PlanItem(fact, score, replaces))
    return plan


def _fmt_score(s: float) -> str:
    return "NaN" if math.isnan(s) else f"{s:.4f}"


def plan_bulk(
    db: MemoryDB,
    op: str,
    ids: Sequence[str],
    *,
    new_namespace: str | None = None,
    candidates_only: bool = False,
    threshold: float = DEFAULT_FORGET_THRESHOLD,
    now: int | None = None,
) -> BulkPlan:
    """What :func:`bulk` would change (read-only), to list it before asking for confirmation."""
    t = now_ms() if now is None else int(now)
    with db.lock:
        return _plan(db.conn, op, list(ids), new_namespace, candidates_only, threshold, t)


def _plan_changes(old: tuple, new: BulkPlan) -> list[tuple[str, Notice]]:
    """What differs from the confirmed plan: ``(fact name, notice)`` per fact, at most
    ``MAX_LISTED`` of them and then one ``("", fact.plan.more)``."""
    old_ids = {fid: rep for fid, rep in old}
    new_ids = {it.fact.id: (it.replaces.id if it.replaces else None) for it in new.items}
    out: list[tuple[str, Notice]] = []
    for (fact, fid, _reason), why in zip(new.skipped, new.skip_notices, strict=True):
        if fid in old_ids:
            out.append((name_of(fact) if fact else fid, why))
    for it in new.items:
        if it.fact.id not in old_ids:
            out.append((name_of(it.fact), Notice("fact.plan.added", "would now be changed too")))
        elif old_ids[it.fact.id] != new_ids[it.fact.id]:
            rep = it.replaces
            name = f"{new.namespace}.{it.fact.key}"
            if rep:
                at = rep.created_at
                out.append(
                    (
                        name,
                        Notice("fact.plan.new_version", f"now has a version stored {when(at)}", {"at": at}),
                    )
                )
            else:
                out.append((name, Notice("fact.plan.changed", "changed")))
    more = len(out) - MAX_LISTED
    more_note = Notice("fact.plan.more", f"… and {more} more", {"n": more})
    return out[:MAX_LISTED] + ([("", more_note)] if more > 0 else [])


def _describe_plan_change(changes: list[tuple[str, Notice]]) -> str:
    return "\n".join(f"{name}: {why.message}" if name else why.message for name, why in changes)


def _check_plan(plan: BulkPlan, expected: Sequence[tuple[str, str | None]] | None) -> None:
    """Refuse a plan that differs from the confirmed one, and a plan that changes nothing."""
    if expected is not None and plan.signature != tuple(tuple(x) for x in expected):
        changes = _plan_changes(tuple(expected), plan)
        raise ConflictError(
            "The facts changed since the confirmation was shown (the agent wrote meanwhile); "
            "nothing was changed. Look at the list again:\n" + _describe_plan_change(changes),
            plan,
            code="fact.bulk_plan_changed",
            params={"changes": [{"fact": name, **why.to_json()} for name, why in changes]},
        )
    if not plan.items:
        reasons = "; ".join(f"{name_of(f) if f else fid}: {r}" for f, fid, r in plan.skipped[:MAX_LISTED])
        raise ValidationError_(
            "Nothing to change" + (f" ({reasons})." if reasons else "."),
            code="fact.bulk_nothing",
            params={"skipped": [name_of(f) if f else fid for f, fid, _r in plan.skipped[:MAX_LISTED]]},
        )


class _Rows:
    """The rows a bulk edit changes, before and after, in the order it changes them."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.befores: list[Any] = []
        self.afters: list[Any] = []

    def touch(self, before: dict[str, Any] | None, row_id: str) -> None:
        self.befores.append(before)
        self.afters.append(get_row(self.conn, row_id))


def _move_one(conn: Connection, cur: dict[str, Any], new_namespace: str, t: int, rows: _Rows) -> None:
    """Store ``cur`` as a new version under ``new_namespace`` and forget it (see the package docstring)."""
    new_id = str(uuid.uuid4())
    rep = head_of(conn, new_namespace, cur["key"])
    anchor = cur["last_accessed_at"] if cur["last_accessed_at"] is not None else cur["created_at"]
    conn.execute(
        "INSERT INTO memory_facts (id, namespace, key, value_json, confidence, supersedes, "
        "created_at, occurred_at, valid_from, valid_until, last_accessed_at, decay_tau_days, "
        "fact_kind, root_pursuit_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            new_id,
            new_namespace,
            cur["key"],
            cur["value_json"],
            cur["confidence"],
            rep["id"] if rep else None,
            t,
            cur["occurred_at"],
            cur["valid_from"],
            cur["valid_until"],
            anchor,
            cur["decay_tau_days"],
            cur["fact_kind"],
            cur.get("root_pursuit_id"),
        ),
    )
    if rep is not None:
        conn.execute("UPDATE memory_facts SET superseded_by = ? WHERE id = ?", (new_id, rep["id"]))
        rows.touch(rep, rep["id"])
    rows.touch(None, new_id)
    conn.execute("UPDATE memory_facts SET forgotten_at = ? WHERE id = ?", (t, cur["id"]))
    rows.touch(cur, cur["id"])


def _write(conn: Connection, plan: BulkPlan, new_namespace: str | None, t: int) -> tuple[Any, Any, str]:
    """Apply the plan; the audit states ``({op, count, namespace?, rows}, ...)`` and the target id."""
    op = plan.op
    rows = _Rows(conn)
    for it in plan.items:
        fid = it.fact.id
        cur = get_row(conn, fid)
        if op == "forget":
            conn.execute("UPDATE memory_facts SET forgotten_at = ? WHERE id = ?", (t, fid))
            rows.touch(cur, fid)
        elif op in ("pin", "unpin"):
            tau = float(PIN_SENTINEL) if op == "pin" else None
            conn.execute("UPDATE memory_facts SET decay_tau_days = ? WHERE id = ?", (tau, fid))
            rows.touch(cur, fid)
        else:
            assert cur is not None and new_namespace is not None
            _move_one(conn, cur, new_namespace, t, rows)
    meta: dict[str, Any] = {"op": op, "count": len(plan.items)}
    if op == "move":
        meta["namespace"] = new_namespace
    target = plan.items[0].fact.id if len(plan.items) == 1 else f"{len(plan.items)} facts"
    return {**meta, "rows": rows.befores}, {**meta, "rows": rows.afters}, target


def bulk(
    op: str,
    ids: Sequence[str],
    *,
    new_namespace: str | None = None,
    candidates_only: bool = False,
    threshold: float = DEFAULT_FORGET_THRESHOLD,
    expected: Sequence[tuple[str, str | None]] | None = None,
    now: int | None = None,
    score_at: int | None = None,
) -> Change:
    """One audited edit (one undo) over many facts: ``op`` is ``forget``, ``pin``, ``unpin`` or ``move``.

    Rows that cannot take the operation are left out (see :class:`BulkPlan`). ``expected`` is the
    :attr:`BulkPlan.signature` that was confirmed: if the plan computed inside the transaction differs
    (the agent wrote meanwhile), :class:`ConflictError` lists what changed and nothing is written.
    With ``candidates_only`` (forget), a fact is forgotten only while it is still an unpinned candidate
    scoring below ``threshold`` at ``score_at`` (default ``now``; pass the plan's time so that only a
    write, not the seconds spent in the confirmation, can change the plan).
    """
    id_list = list(ids)

    def fn(conn: Connection) -> tuple[Any, Any, str]:
        t = now_ms() if now is None else int(now)
        at = t if score_at is None else int(score_at)
        plan = _plan(conn, op, id_list, new_namespace, candidates_only, threshold, at)
        _check_plan(plan, expected)
        return _write(conn, plan, new_namespace, t)

    return Change(BULK_ACTIONS[op], BULK_TARGET, None, fn, op)


def move_namespace(
    ids: Sequence[str],
    new_namespace: str,
    *,
    expected: Sequence[tuple[str, str | None]] | None = None,
    now: int | None = None,
) -> Change:
    """:func:`bulk` with ``op="move"`` (see the module docstring for what a move writes)."""
    return bulk("move", ids, new_namespace=new_namespace, expected=expected, now=now)
