"""Fact edits of several rows that work on the supersede chain: merge duplicates, repair a broken chain,
and one custom decay time for several facts. One audit entry and one undo each.

* ``facts.merge`` (:func:`merge`): of several live facts holding one thing (several live versions of one
  key, or one value under several keys of a namespace), the person picks the ``survivor``; every other one
  gets ``superseded_by`` = the survivor, so the agent reads only the survivor (``superseded_by IS NULL``)
  and the others stay in the history. Refused when a row is gone, no longer live, or of namespace
  ``self``.
* ``facts.repair_chain`` (:func:`repair_chain`): a version whose ``superseded_by`` names a missing fact
  or lies on a cycle is linked to the live head of its key; a key left without any head gets its newest
  such version as the head again (``superseded_by`` = NULL). :func:`repair_plan` lists these moves (read
  only, for a preview).
* ``facts.bulk_set_tau`` (:func:`set_taus`): ``decay_tau_days`` of several rows.

Audit states: ``{"op", "count", "rows": [...]}`` with every changed row before and after (all columns), as
the bulk edits of :mod:`core.curation.facts.bulk`; undo and redo run the row engine over those rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from core.audit import AuditEntry
from core.curation import Change, rows
from core.curation.facts.common import BULK_TARGET, check_tau, get_row, name_of, require
from core.curation.facts.undo import FactRows
from core.decay import PIN_SENTINEL
from core.errors import ConflictError, ValidationError_
from core.facts import SELF_NAMESPACE

if TYPE_CHECKING:
    from core.engine import Connection

ACTION_MERGE = "facts.merge"
ACTION_REPAIR_CHAIN = "facts.repair_chain"
ACTION_SET_TAUS = "facts.bulk_set_tau"
ACTIONS = (ACTION_MERGE, ACTION_REPAIR_CHAIN, ACTION_SET_TAUS)

__all__ = ["ACTIONS", "ACTION_MERGE", "ACTION_REPAIR_CHAIN", "ACTION_SET_TAUS", "merge", "repair_chain"]


def _states(op: str, befores: list[Any], afters: list[Any], target: str, **meta: Any) -> tuple[Any, Any, str]:
    head = {"op": op, "count": len(befores), **meta}
    return {**head, "rows": befores}, {**head, "rows": afters}, target


def _target(ids: Sequence[str]) -> str:
    return ids[0] if len(ids) == 1 else f"{len(ids)} facts"


# -- merge ------------------------------------------------------------------------------------------------


def _live(conn: Connection, fact_id: str) -> dict[str, Any]:
    cur = require(conn, fact_id)
    if cur["namespace"] == SELF_NAMESPACE:
        raise ValidationError_(
            f"{name_of(cur)} is written by the kernel only; it is not merged.",
            code="fact.merge_self",
            params={"fact": name_of(cur)},
        )
    if cur["superseded_by"] is not None or cur["forgotten_at"] is not None:
        raise ConflictError(
            f"{name_of(cur)} (version {fact_id}) is no longer live (superseded or forgotten meanwhile). "
            "Nothing was changed; look at the duplicates again.",
            cur,
            code="fact.merge_not_live",
            params={"fact": name_of(cur), "id": fact_id},
        )
    return cur


def merge(ids: Sequence[str], survivor: str) -> Change:
    """Keep ``survivor`` of the live facts ``ids``; every other one is superseded by it."""
    id_list = list(dict.fromkeys(str(i) for i in ids))
    if survivor not in id_list or len(id_list) < 2:
        raise ValidationError_(
            "A merge needs two facts or more, the one kept among them.",
            code="fact.merge_choice",
            params={"survivor": str(survivor), "ids": id_list},
        )

    def fn(conn: Connection) -> tuple[Any, Any, str]:
        _live(conn, survivor)
        befores: list[Any] = []
        afters: list[Any] = []
        for fid in id_list:
            if fid == survivor:
                continue
            before = _live(conn, fid)
            conn.execute("UPDATE memory_facts SET superseded_by = ? WHERE id = ?", (survivor, fid))
            befores.append(before)
            afters.append(get_row(conn, fid))
        return _states("merge", befores, afters, survivor, survivor=survivor)

    return Change(ACTION_MERGE, BULK_TARGET, None, fn, "merge duplicates", extra={"survivor": survivor})


# -- repair a broken chain --------------------------------------------------------------------------------


def _broken(conn: Connection, row: dict[str, Any]) -> bool:
    """Whether the chain from ``row`` ends at a missing fact or runs in a circle."""
    seen = {row["id"]}
    nxt = row["superseded_by"]
    while nxt is not None:
        if nxt in seen:
            return True
        seen.add(nxt)
        r = conn.execute("SELECT superseded_by FROM memory_facts WHERE id = ?", (nxt,)).fetchone()
        if r is None:
            return True
        nxt = r[0]
    return False


def _plan_key(conn: Connection, ns: str, key: str, broken: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    head = conn.execute(
        "SELECT id FROM memory_facts WHERE namespace = ? AND key = ? AND superseded_by IS NULL "
        "ORDER BY rowid DESC LIMIT 1",
        (ns, key),
    ).fetchone()
    if head is not None:
        return [(r["id"], head[0]) for r in broken]
    newest = max(
        broken, key=lambda r: (r["created_at"] if isinstance(r["created_at"], int) else 0, r["rowid"])
    )
    return [(r["id"], None if r is newest else newest["id"]) for r in broken]


def _repair_moves(conn: Connection, ids: Sequence[str]) -> list[tuple[str, Any]]:
    """``(fact id, new superseded_by)`` for the broken versions among ``ids`` and their keys."""
    by_key: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for fid in dict.fromkeys(str(i) for i in ids):
        r = conn.execute('SELECT rowid AS "rowid", * FROM memory_facts WHERE id = ?', (fid,)).fetchone()
        if r is None:
            continue
        row = dict(zip(r.keys(), tuple(r)))
        if row["superseded_by"] is not None and _broken(conn, row):
            by_key.setdefault((row["namespace"], row["key"]), []).append(row)
    moves: list[tuple[str, Any]] = []
    for (ns, key), broken in by_key.items():
        moves.extend(_plan_key(conn, ns, key, broken))
    return moves


def repair_plan(conn: Connection, ids: Sequence[str]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """``(row now, row after)`` of every version :func:`repair_chain` would relink (read only)."""
    out = []
    for fid, new in _repair_moves(conn, ids):
        cur = get_row(conn, fid)
        assert cur is not None
        out.append((cur, {**cur, "superseded_by": new}))
    return out


def repair_chain(ids: Sequence[str]) -> Change:
    """Relink the versions among ``ids`` whose chain is broken (see the module docstring)."""
    id_list = [str(i) for i in ids]

    def fn(conn: Connection) -> tuple[Any, Any, str]:
        moves = _repair_moves(conn, id_list)
        if not moves:
            raise ValidationError_(
                "The chain is not broken (any more); nothing to repair.", code="fact.chain_sound"
            )
        befores, afters = [], []
        for fid, new in moves:
            befores.append(get_row(conn, fid))
            conn.execute("UPDATE memory_facts SET superseded_by = ? WHERE id = ?", (new, fid))
            afters.append(get_row(conn, fid))
        return _states("repair_chain", befores, afters, _target([m[0] for m in moves]))

    return Change(ACTION_REPAIR_CHAIN, BULK_TARGET, None, fn, "repair chain")


# -- one tau for several facts ----------------------------------------------------------------------------


def set_taus(ids: Sequence[str], tau: float | None) -> Change:
    """``decay_tau_days`` = ``tau`` (a negative one pins) for every fact of ``ids`` that differs."""
    value = check_tau(tau)
    if value is not None and value < 0:
        value = float(PIN_SENTINEL)
    id_list = list(dict.fromkeys(str(i) for i in ids))

    def fn(conn: Connection) -> tuple[Any, Any, str]:
        befores, afters = [], []
        for fid in id_list:
            cur = require(conn, fid)
            if cur["decay_tau_days"] == value:
                continue
            conn.execute("UPDATE memory_facts SET decay_tau_days = ? WHERE id = ?", (value, fid))
            befores.append(cur)
            afters.append(get_row(conn, fid))
        if not befores:
            raise ValidationError_(
                "Every fact already has this tau; nothing to change.", code="fact.unchanged.set_taus"
            )
        return _states("set_tau", befores, afters, _target(id_list), tau=value)

    return Change(ACTION_SET_TAUS, BULK_TARGET, None, fn, "set tau", extra={"tau": value})


# -- undo / redo ------------------------------------------------------------------------------------------


class ChainRows(FactRows):
    """The rows an entry of this module lists, before and after."""

    def pairs(self, entry: AuditEntry) -> list[tuple[Any, Any]]:
        return rows.listed_pairs(entry)


rows.register(ChainRows(), ACTIONS)
