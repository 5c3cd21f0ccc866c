"""Curation of facts: each manual change of ``memory_facts`` is ONE short audited transaction.

Every function here returns a :class:`Change` (what :func:`core.curation.perform` needs: action,
target, and ``fn(conn)``); ``change.perform(db)`` runs it, and the desktop app hands the same pieces
to its undo stack. Undo and redo are registered for every action below.

Actions and what they write
---------------------------

* ``facts.edit`` (:func:`edit`): a new version through the supersede chain
  (:meth:`core.facts.FactStore.supersede_with`); the old version stays in the history.
  Undo removes the new version and makes the old one the head again; redo puts the same row back.
* ``facts.add`` (:func:`add`): :meth:`~core.facts.FactStore.store_fact` with the core's validation
  (namespace ``self`` refused, inverted validity window refused) plus non-empty namespace and key and a
  confidence in [0, 1]. When the key already has a version, the new one supersedes it (undo as edit).

``add`` and ``edit`` refuse (:class:`~core.errors.ValidationError_`, nothing written) what would be
stored as something else than was typed, where the agent's ``store_fact`` tool keeps the reference's
behaviour: a value JSON cannot carry exactly (NaN, ±Infinity, integers beyond ±2^53; see
:func:`core.facts.check_exact_json`), a confidence that is not a finite number in [0, 1], a time field
that is not epoch milliseconds in SQLite's 64-bit INTEGER range (text, a fraction, a bool; see
:func:`core.facts.check_epoch_ms`) and a namespace or key with a lone surrogate
(:func:`core.facts.check_name`).
* ``facts.pin`` / ``facts.unpin`` / ``facts.set_tau``: ``decay_tau_days`` of one row (-1 / NULL / a
  custom value); ``facts.forget`` / ``facts.unforget``: ``forgotten_at`` of one row.
* ``facts.bulk_forget`` / ``facts.bulk_pin`` / ``facts.bulk_unpin`` / ``facts.move_namespace``: one
  audit entry and one undo for a whole selection (see :func:`plan_bulk` for the confirmation list).

"Move namespace" precisely: for every selected active fact ``ns.key`` a new row is stored under
``new_ns.key`` with the same ``value_json`` (byte for byte), confidence, kind, occurred / valid times,
custom tau or pin and ``root_pursuit_id``; its ``created_at`` is the time of the move and its
``last_accessed_at`` is the old fact's decay anchor (``last_accessed_at ?? created_at``), so its age
is not reset by the move (the score then follows the new namespace's tau unless the fact has its own
tau or pin, which is kept). If ``new_ns.key`` already has a version, the moved row supersedes it
(the confirmation lists it). The old row is then soft-forgotten (``forgotten_at`` = time of the move),
so its history stays readable. Facts already in ``new_ns`` and facts of ``self`` are left out; two
selected facts with the same key are refused (a namespace holds one version per key).

Concurrent writers
------------------

The agent may write while a person curates. A change computed against a version the agent has
superseded meanwhile raises :class:`~core.errors.ConflictError` and writes nothing: edits carry the head
they were computed against (``expected_head``), single-row actions may carry the row as it was shown
(``seen``), bulk actions the plan that was confirmed (``expected``). Undo and redo check that every
column they put back still holds the value the edit left (a deleted version must still be the head and
unchanged), so they never overwrite a newer change either. ``last_accessed_at`` (refreshed by the
agent's reads) is never compared and never put back.

Audit entries (JSON): single-row actions store the row before and after (all columns); ``edit`` and
``add`` store the replaced head (or ``null``) as *before* and the new row as *after*; bulk actions store
``{"op", "count", "namespace"?, "rows": [...]}`` with the rows before and after, ``null`` for a row
that did not exist.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core import curation
from core.audit import AuditEntry
from core.curation import Change
from core.decay import DEFAULT_FORGET_THRESHOLD, PIN_SENTINEL, is_pinned, score_memory
from core.errors import ConflictError, NotFoundError, Notice, ValidationError_
from core.facts import (
    SELF_NAMESPACE,
    UNSET,
    FactStore,
    SelfDescriptionWriteForbiddenError,
    check_epoch_ms,
    check_exact_json,
    check_name,
)
from core.jsutil import iso_ms, js_number_str, now_ms
from core.models import Fact, parse_json_lenient

if TYPE_CHECKING:
    from core.db import MemoryDB
    from core.engine import Connection

__all__ = [
    "ACTIONS",
    "BULK_OPS",
    "BulkPlan",
    "Change",
    "PlanItem",
    "add",
    "bulk",
    "edit",
    "forget",
    "move_namespace",
    "pin",
    "plan_bulk",
    "set_tau",
    "unforget",
    "unpin",
]

TARGET = "fact"
BULK_TARGET = "facts"
_IGNORED = frozenset({"last_accessed_at"})  # the agent's read bookkeeping: never compared, never restored

ACTION_EDIT = "facts.edit"
ACTION_ADD = "facts.add"
ACTION_PIN = "facts.pin"
ACTION_UNPIN = "facts.unpin"
ACTION_SET_TAU = "facts.set_tau"
ACTION_FORGET = "facts.forget"
ACTION_UNFORGET = "facts.unforget"
BULK_OPS = ("forget", "pin", "unpin", "move")
_BULK_ACTIONS = {
    "forget": "facts.bulk_forget",
    "pin": "facts.bulk_pin",
    "unpin": "facts.bulk_unpin",
    "move": "facts.move_namespace",
}
ACTIONS = (
    ACTION_EDIT,
    ACTION_ADD,
    ACTION_PIN,
    ACTION_UNPIN,
    ACTION_SET_TAU,
    ACTION_FORGET,
    ACTION_UNFORGET,
    *_BULK_ACTIONS.values(),
)
_MAX_LISTED = 10


# -- small helpers ------------------------------------------------------------------------------------


def _name(row: Mapping[str, Any] | Fact) -> str:
    ns, key = (row.namespace, row.key) if isinstance(row, Fact) else (row["namespace"], row["key"])
    return f"{ns}.{key}"


def _preview(value_json: Any, limit: int = 60) -> str:
    value, err = parse_json_lenient(value_json if isinstance(value_json, str) else None)
    text = value if isinstance(value, str) and err is None else str(value_json)
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _when(ms: Any) -> str:
    try:
        return iso_ms(int(ms))
    except (TypeError, ValueError):
        return str(ms)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, bool) != isinstance(b, bool):
        return False
    return a == b


def _state(row: Any) -> dict[str, Any] | None:
    """A row as a plain dict of its columns (the audit's before/after)."""
    return None if row is None else dict(zip(row.keys(), tuple(row)))


def _get(conn: Connection, fact_id: str) -> dict[str, Any] | None:
    return _state(conn.execute("SELECT * FROM memory_facts WHERE id = ?", (fact_id,)).fetchone())


def _head(conn: Connection, namespace: str, key: str) -> dict[str, Any] | None:
    return _state(
        conn.execute(
            "SELECT * FROM memory_facts WHERE namespace = ? AND key = ? AND superseded_by IS NULL "
            "ORDER BY rowid DESC LIMIT 1",
            (namespace, key),
        ).fetchone()
    )


def _seen_get(seen: Fact | Mapping[str, Any], name: str) -> Any:
    return getattr(seen, name) if isinstance(seen, Fact) else seen.get(name)


def _newer_version(
    row: Mapping[str, Any], newer: Mapping[str, Any] | None, tail: str, *, code: str, **params: Any
) -> ConflictError:
    """``fact.newer_version.<why>``: ``row`` has a newer version than the one the change was made for."""
    shown = (
        {} if newer is None else {"stored_at": newer["created_at"], "preview": _preview(newer["value_json"])}
    )
    return ConflictError(
        _newer_version_message(row, newer, tail),
        newer,
        code=code,
        params={"fact": _name(row), **shown, **params},
    )


def _newer_version_message(row: Mapping[str, Any], newer: Mapping[str, Any] | None, tail: str) -> str:
    if newer is None:
        return f"{_name(row)} has a newer version written meanwhile. {tail}"
    return (
        f"{_name(row)} has a newer version written meanwhile (stored {_when(newer['created_at'])}: "
        f"{_preview(newer['value_json'])}). {tail}"
    )


def _check_seen(
    conn: Connection, cur: Mapping[str, Any], seen: Fact | Mapping[str, Any] | None, fields: Iterable[str]
):
    """Raise ConflictError when ``cur`` differs from the row as it was shown in ``fields``/the chain."""
    if seen is None:
        return
    if _seen_get(seen, "superseded_by") is None and cur["superseded_by"] is not None:
        newer = _head(conn, cur["namespace"], cur["key"])
        raise _newer_version(
            cur,
            newer,
            "Your change was computed against the older version and was not applied.",
            code="fact.newer_version.not_applied",
        )
    for f in fields:
        if not _same(cur[f], _seen_get(seen, f)):
            raise ConflictError(
                f"{_name(cur)} changed since it was shown ({f} is now {_fmt(cur[f])}, "
                f"was {_fmt(_seen_get(seen, f))}). Nothing was changed; look at it again.",
                cur,
                code="fact.changed_since_shown",
                params={"fact": _name(cur), "field": f, "now": cur[f], "was": _seen_get(seen, f)},
            )


def _fmt(v: Any) -> str:
    if v is None:
        return "empty"
    if isinstance(v, float | int) and not isinstance(v, bool):
        return js_number_str(v)
    return str(v)


def _require(conn: Connection, fact_id: str) -> dict[str, Any]:
    cur = _get(conn, fact_id)
    if cur is None:
        raise NotFoundError(
            f"There is no fact with id {fact_id}.", code="fact.not_found", params={"id": fact_id}
        )
    return cur


def _check_confidence(confidence: Any) -> float:
    if isinstance(confidence, bool) or not isinstance(confidence, int | float):
        raise ValidationError_("confidence must be a number between 0 and 1", code="fact.confidence_range")
    if isinstance(confidence, float) and math.isnan(confidence):
        raise ValidationError_(
            "confidence must be a number between 0 and 1, not NaN", code="fact.confidence_range"
        )
    if not 0 <= confidence <= 1:  # compared before float(): a huge int must not overflow
        shown = (
            js_number_str(confidence)
            if isinstance(confidence, float) or confidence.bit_length() < 64
            else "a huge integer"
        )
        raise ValidationError_(
            f"confidence must be between 0 and 1, not {shown}",
            code="fact.confidence_range",
            params={"value": shown},
        )
    return float(confidence)


def _check_tau(tau: Any) -> float | None:
    if tau is None:
        return None
    if isinstance(tau, bool) or not isinstance(tau, int | float):
        raise ValidationError_(
            "tau must be a finite number of days (negative pins, empty clears)", code="fact.tau_invalid"
        )
    # an int is checked by size: float(2**1024) would overflow
    finite = tau.bit_length() <= 1000 if isinstance(tau, int) else math.isfinite(tau)
    if not finite:
        raise ValidationError_(
            "tau must be a finite number of days (negative pins, empty clears)", code="fact.tau_invalid"
        )
    if tau == 0:
        raise ValidationError_(
            "tau must be greater than 0 days (a tau of 0 makes the score undefined)", code="fact.tau_zero"
        )
    return float(tau)


# -- the change object ----------------------------------------------------------------------------------


# -- single-row field actions -----------------------------------------------------------------------------


def _field_change(
    action: str,
    fact_id: str,
    column: str,
    new_value: Any,
    seen: Fact | Mapping[str, Any] | None,
    already: str,
    description: str,
    *,
    code: str,
) -> Change:
    """``code`` is the refusal's when the field already has ``new_value`` (``fact.unchanged.<what>``)."""

    def fn(conn: Connection) -> tuple[Any, Any]:
        cur = _require(conn, fact_id)
        _check_seen(conn, cur, seen, (column,))
        if _same(cur[column], new_value):
            raise ValidationError_(
                f"{_name(cur)} {already}; nothing to change.",
                code=code,
                params={"fact": _name(cur)},
            )
        conn.execute(f"UPDATE memory_facts SET {column} = ? WHERE id = ?", (new_value, fact_id))
        return cur, _get(conn, fact_id)

    return Change(action, TARGET, fact_id, fn, description)


def pin(fact_id: str, *, seen: Fact | Mapping[str, Any] | None = None) -> Change:
    """``decay_tau_days = -1``: the fact never decays (and never enters the forget pool)."""
    return _field_change(
        ACTION_PIN,
        fact_id,
        "decay_tau_days",
        float(PIN_SENTINEL),
        seen,
        "is already pinned",
        "pin",
        code="fact.unchanged.pin",
    )


def unpin(fact_id: str, *, seen: Fact | Mapping[str, Any] | None = None) -> Change:
    """``decay_tau_days = NULL``: the namespace's tau applies again."""

    def fn(conn: Connection) -> tuple[Any, Any]:
        cur = _require(conn, fact_id)
        _check_seen(conn, cur, seen, ("decay_tau_days",))
        if not is_pinned(cur["decay_tau_days"]):
            raise ValidationError_(
                f"{_name(cur)} is not pinned; nothing to change.",
                code="fact.unchanged.unpin",
                params={"fact": _name(cur)},
            )
        conn.execute("UPDATE memory_facts SET decay_tau_days = NULL WHERE id = ?", (fact_id,))
        return cur, _get(conn, fact_id)

    return Change(ACTION_UNPIN, TARGET, fact_id, fn, "unpin")


def set_tau(fact_id: str, tau: float | None, *, seen: Fact | Mapping[str, Any] | None = None) -> Change:
    """A custom decay time in days (``None`` = the namespace default again; negative pins)."""
    value = _check_tau(tau)
    if value is not None and value < 0:
        value = float(PIN_SENTINEL)
    return _field_change(
        ACTION_SET_TAU,
        fact_id,
        "decay_tau_days",
        value,
        seen,
        "already has this tau",
        "set tau",
        code="fact.unchanged.set_tau",
    )


def forget(fact_id: str, *, seen: Fact | Mapping[str, Any] | None = None, now: int | None = None) -> Change:
    """Soft-forget one row (``forgotten_at`` = ``now``); it stays in the history."""

    def fn(conn: Connection) -> tuple[Any, Any]:
        cur = _require(conn, fact_id)
        _check_seen(conn, cur, seen, ("forgotten_at",))
        if cur["forgotten_at"] is not None:
            raise ValidationError_(
                f"{_name(cur)} is already forgotten; nothing to change.",
                code="fact.unchanged.forget",
                params={"fact": _name(cur)},
            )
        t = now_ms() if now is None else int(now)
        conn.execute("UPDATE memory_facts SET forgotten_at = ? WHERE id = ?", (t, fact_id))
        return cur, _get(conn, fact_id)

    return Change(ACTION_FORGET, TARGET, fact_id, fn, "forget")


def unforget(fact_id: str, *, seen: Fact | Mapping[str, Any] | None = None) -> Change:
    """``forgotten_at = NULL``."""
    return _field_change(
        ACTION_UNFORGET,
        fact_id,
        "forgotten_at",
        None,
        seen,
        "is not forgotten",
        "unforget",
        code="fact.unchanged.unforget",
    )


# -- new versions: edit and add --------------------------------------------------------------------------------


def edit(
    fact_id: str,
    *,
    value: Any = UNSET,
    confidence: Any = UNSET,
    fact_kind: Any = UNSET,
    occurred_at: Any = UNSET,
    valid_from: Any = UNSET,
    valid_until: Any = UNSET,
    decay_tau_days: Any = UNSET,
    expected_head: Any = UNSET,
    now: int | None = None,
) -> Change:
    """A new version of the chain of ``fact_id`` with the given fields changed (others copied).

    ``expected_head`` is the head the change was computed against (default: ``fact_id`` itself, i.e.
    the person edited the current version). If the agent stored a newer version meanwhile the edit
    raises :class:`ConflictError` and the newer version stays. Namespace ``self`` is refused.
    """
    if confidence is not UNSET:
        confidence = _check_confidence(confidence)
    if decay_tau_days is not UNSET:
        decay_tau_days = _check_tau(decay_tau_days)
        if decay_tau_days is not None and decay_tau_days < 0:
            decay_tau_days = float(PIN_SENTINEL)
    if fact_kind is not UNSET and fact_kind not in ("state", "event"):
        raise ValidationError_("fact_kind must be 'state' or 'event'", code="fact.kind_invalid")
    if value is not UNSET:
        check_exact_json(value)
    if occurred_at is not UNSET:
        occurred_at = check_epoch_ms("occurred_at", occurred_at)
    if valid_from is not UNSET:
        valid_from = check_epoch_ms("valid_from", valid_from)
    if valid_until is not UNSET:
        valid_until = check_epoch_ms("valid_until", valid_until)
    expected = fact_id if expected_head is UNSET else expected_head
    given = {
        "value": value,
        "confidence": confidence,
        "fact_kind": fact_kind,
        "occurred_at": occurred_at,
        "valid_from": valid_from,
        "valid_until": valid_until,
        "decay_tau_days": decay_tau_days,
    }
    if all(v is UNSET for v in given.values()) and expected == fact_id:
        raise ValidationError_("An edit needs at least one changed field.", code="fact.edit_empty")

    def fn(conn: Connection) -> tuple[Any, Any, str]:
        src = _require(conn, fact_id)
        if src["namespace"] == SELF_NAMESPACE:
            raise SelfDescriptionWriteForbiddenError(src["key"], "the desktop editor")
        head = _head(conn, src["namespace"], src["key"])
        if expected is not None and (head is None or head["id"] != expected):
            raise _newer_version(
                src,
                head,
                "Your edit was made against an older version and was not applied; the newer "
                "version is kept. Look at it and edit again if needed.",
                code="fact.newer_version.edit",
            )
        store = FactStore(curation.current_db())
        new = store.supersede_with(
            fact_id,
            expected_head=head["id"] if head else None,
            now=now,
            **given,
        )
        return head, _get(conn, new.id), new.id

    return Change(ACTION_EDIT, TARGET, None, fn, "edit")


def add(
    namespace: str,
    key: str,
    value: Any,
    *,
    confidence: float = 1.0,
    fact_kind: str = "state",
    occurred_at: int | None = None,
    valid_from: int | None = None,
    valid_until: int | None = None,
    decay_tau_days: float | None = None,
    expected_head: Any = UNSET,
    now: int | None = None,
) -> Change:
    """Store a fact as ``store_fact`` does (a new version when the key exists).

    ``expected_head``: the current version the person knew of (``None``: they expected the key to be
    new); when given and the chain moved meanwhile, :class:`ConflictError` and nothing is written.
    """
    if not isinstance(namespace, str) or not namespace.strip():
        raise ValidationError_("The namespace must not be empty.", code="fact.namespace_empty")
    if not isinstance(key, str) or not key.strip():
        raise ValidationError_("The key must not be empty.", code="fact.key_empty")
    namespace = check_name("namespace", namespace)
    key = check_name("key", key)
    if namespace == SELF_NAMESPACE:
        raise SelfDescriptionWriteForbiddenError(key, "the desktop editor")
    conf = _check_confidence(confidence)
    if fact_kind not in ("state", "event"):
        raise ValidationError_("fact_kind must be 'state' or 'event'", code="fact.kind_invalid")
    tau = _check_tau(decay_tau_days)
    if tau is not None and tau < 0:
        tau = float(PIN_SENTINEL)
    check_exact_json(value)
    occurred_at = check_epoch_ms("occurred_at", occurred_at)
    valid_from = check_epoch_ms("valid_from", valid_from)
    valid_until = check_epoch_ms("valid_until", valid_until)

    def fn(conn: Connection) -> tuple[Any, Any, str]:
        head = _head(conn, namespace, key)
        if expected_head is not UNSET and (head["id"] if head else None) != expected_head:
            tail = "The fact was not added; look at the current version first."
            if head is None:
                raise ConflictError(
                    f"{namespace}.{key} no longer has the version you saw. {tail}",
                    None,
                    code="fact.version_gone",
                    params={"fact": f"{namespace}.{key}"},
                )
            raise _newer_version(head, head, tail, code="fact.newer_version.not_added")
        new = FactStore(curation.current_db()).store_fact(
            namespace,
            key,
            value,
            confidence=conf,
            fact_kind=fact_kind,
            occurred_at=occurred_at,
            valid_from=valid_from,
            valid_until=valid_until,
            decay_tau_days=tau,
            now=now,
        )
        return head, _get(conn, new.id), new.id

    return Change(ACTION_ADD, TARGET, None, fn, "add")


# -- bulk actions ----------------------------------------------------------------------------------------------


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


def _plan(
    conn: Connection,
    op: str,
    ids: Sequence[str],
    new_namespace: str | None,
    candidates_only: bool,
    threshold: float,
    now: int,
) -> BulkPlan:
    if op not in BULK_OPS:
        raise ValueError(f"unknown bulk operation {op!r}")
    plan = BulkPlan(op, new_namespace if op == "move" else None, now=now, threshold=threshold)
    if op == "move":
        if not isinstance(new_namespace, str) or not new_namespace.strip():
            raise ValidationError_("The new namespace must not be empty.", code="fact.namespace_empty")
        if new_namespace == SELF_NAMESPACE:
            raise SelfDescriptionWriteForbiddenError("*", "move namespace")
    seen: set[str] = set()
    keys: dict[str, str] = {}
    for fid in ids:
        if fid in seen:
            continue
        seen.add(fid)
        row = _get(conn, fid)
        if row is None:
            plan.skip(None, fid, Notice("fact.skip.gone", "no longer exists"))
            continue
        fact = _fact(row)
        assert fact is not None
        if row["superseded_by"] is not None:
            plan.skip(fact, fid, Notice("fact.skip.superseded", "superseded by a newer version"))
            continue
        if row["forgotten_at"] is not None and op in ("forget", "move"):
            plan.skip(fact, fid, Notice("fact.skip.forgotten", "already forgotten"))
            continue
        score = _score(row, now)
        if op == "forget" and candidates_only:
            if is_pinned(row["decay_tau_days"]):
                plan.skip(fact, fid, Notice("fact.skip.pinned_candidate", "pinned: not a forget candidate"))
                continue
            if not score < threshold:
                plan.skip(
                    fact,
                    fid,
                    Notice(
                        "fact.skip.not_candidate",
                        f"not a forget candidate (score {_fmt_score(score)} at {_when(now)})",
                        {"score": score, "at": now},
                    ),
                )
                continue
        if op == "pin" and is_pinned(row["decay_tau_days"]):
            plan.skip(fact, fid, Notice("fact.skip.pinned", "already pinned"))
            continue
        if op == "unpin" and not is_pinned(row["decay_tau_days"]):
            plan.skip(fact, fid, Notice("fact.skip.not_pinned", "not pinned"))
            continue
        replaces = None
        if op == "move":
            if row["namespace"] == new_namespace:
                plan.skip(fact, fid, Notice("fact.skip.same_namespace", "already in this namespace"))
                continue
            if row["namespace"] == SELF_NAMESPACE:
                plan.skip(fact, fid, Notice("fact.skip.self", "self facts are written by the kernel only"))
                continue
            if row["key"] in keys:
                raise ValidationError_(
                    f"{_name(row)} and {keys[row['key']]} have the same key; {new_namespace} can hold "
                    f"only one version of {row['key']!r}. Move them separately.",
                    code="fact.move_same_key",
                    params={
                        "fact": _name(row),
                        "other": keys[row["key"]],
                        "namespace": new_namespace,
                        "key": row["key"],
                    },
                )
            keys[row["key"]] = _name(row)
            replaces = _fact(_head(conn, new_namespace, row["key"]))  # type: ignore[arg-type]
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
    ``_MAX_LISTED`` of them and then one ``("", fact.plan.more)``."""
    old_ids = {fid: rep for fid, rep in old}
    new_ids = {it.fact.id: (it.replaces.id if it.replaces else None) for it in new.items}
    out: list[tuple[str, Notice]] = []
    for (fact, fid, _reason), why in zip(new.skipped, new.skip_notices, strict=True):
        if fid in old_ids:
            out.append((_name(fact) if fact else fid, why))
    for it in new.items:
        if it.fact.id not in old_ids:
            out.append((_name(it.fact), Notice("fact.plan.added", "would now be changed too")))
        elif old_ids[it.fact.id] != new_ids[it.fact.id]:
            rep = it.replaces
            name = f"{new.namespace}.{it.fact.key}"
            if rep:
                at = rep.created_at
                out.append(
                    (
                        name,
                        Notice("fact.plan.new_version", f"now has a version stored {_when(at)}", {"at": at}),
                    )
                )
            else:
                out.append((name, Notice("fact.plan.changed", "changed")))
    more = len(out) - _MAX_LISTED
    more_note = Notice("fact.plan.more", f"… and {more} more", {"n": more})
    return out[:_MAX_LISTED] + ([("", more_note)] if more > 0 else [])


def _describe_plan_change(changes: list[tuple[str, Notice]]) -> str:
    return "\n".join(f"{name}: {why.message}" if name else why.message for name, why in changes)


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
        plan = _plan(
            conn,
            op,
            id_list,
            new_namespace,
            candidates_only,
            threshold,
            t if score_at is None else int(score_at),
        )
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
            reasons = "; ".join(f"{_name(f) if f else fid}: {r}" for f, fid, r in plan.skipped[:_MAX_LISTED])
            raise ValidationError_(
                "Nothing to change" + (f" ({reasons})." if reasons else "."),
                code="fact.bulk_nothing",
                params={"skipped": [_name(f) if f else fid for f, fid, _r in plan.skipped[:_MAX_LISTED]]},
            )
        befores: list[Any] = []
        afters: list[Any] = []

        def touch(before: dict[str, Any] | None, row_id: str) -> None:
            befores.append(before)
            afters.append(_get(conn, row_id))

        for it in plan.items:
            fid = it.fact.id
            cur = _get(conn, fid)
            if op == "forget":
                conn.execute("UPDATE memory_facts SET forgotten_at = ? WHERE id = ?", (t, fid))
                touch(cur, fid)
            elif op in ("pin", "unpin"):
                tau = float(PIN_SENTINEL) if op == "pin" else None
                conn.execute("UPDATE memory_facts SET decay_tau_days = ? WHERE id = ?", (tau, fid))
                touch(cur, fid)
            else:
                assert cur is not None and new_namespace is not None
                new_id = str(uuid.uuid4())
                rep = _head(conn, new_namespace, cur["key"])
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
                    conn.execute(
                        "UPDATE memory_facts SET superseded_by = ? WHERE id = ?", (new_id, rep["id"])
                    )
                    touch(rep, rep["id"])
                touch(None, new_id)
                conn.execute("UPDATE memory_facts SET forgotten_at = ? WHERE id = ?", (t, fid))
                touch(cur, fid)
        meta: dict[str, Any] = {"op": op, "count": len(plan.items)}
        if op == "move":
            meta["namespace"] = new_namespace
        target = plan.items[0].fact.id if len(plan.items) == 1 else f"{len(plan.items)} facts"
        return {**meta, "rows": befores}, {**meta, "rows": afters}, target

    return Change(_BULK_ACTIONS[op], BULK_TARGET, None, fn, op)


def move_namespace(
    ids: Sequence[str],
    new_namespace: str,
    *,
    expected: Sequence[tuple[str, str | None]] | None = None,
    now: int | None = None,
) -> Change:
    """:func:`bulk` with ``op="move"`` (see the module docstring for what a move writes)."""
    return bulk("move", ids, new_namespace=new_namespace, expected=expected, now=now)


# -- undo / redo: row transitions -----------------------------------------------------------------------------


def _pairs(entry: AuditEntry) -> list[tuple[dict[str, Any] | None, dict[str, Any] | None]]:
    """The row transitions an entry made, in the order they were made."""
    before, after = entry.before, entry.after
    if entry.action in (ACTION_EDIT, ACTION_ADD):
        if not isinstance(after, dict):
            raise ConflictError(
                f"Audit entry #{entry.id} does not describe the new version; it cannot be undone.",
                code="audit.unreadable",
                params={"audit_id": entry.id},
            )
        pairs: list[tuple[dict[str, Any] | None, dict[str, Any] | None]] = []
        if isinstance(before, dict):
            pairs.append((before, {**before, "superseded_by": after["id"]}))
        pairs.append((None, after))
        return pairs
    if entry.action in _BULK_ACTIONS.values():
        rows_b = before.get("rows") if isinstance(before, dict) else None
        rows_a = after.get("rows") if isinstance(after, dict) else None
        if not isinstance(rows_b, list) or not isinstance(rows_a, list) or len(rows_b) != len(rows_a):
            raise ConflictError(
                f"Audit entry #{entry.id} does not list its rows; it cannot be undone.",
                code="audit.unreadable",
                params={"audit_id": entry.id},
            )
        return list(zip(rows_b, rows_a))
    if not isinstance(before, dict) or not isinstance(after, dict):
        raise ConflictError(
            f"Audit entry #{entry.id} does not hold the row states; it cannot be undone.",
            code="audit.unreadable",
            params={"audit_id": entry.id},
        )
    return [(before, after)]


def _content_diff(cur: Mapping[str, Any], want: Mapping[str, Any]) -> list[str]:
    return [k for k in want if k not in _IGNORED and k in cur and not _same(cur[k], want[k])]


def _step_conflict(
    what: str, cur: Mapping[str, Any], fields: list[str], want: Mapping[str, Any]
) -> ConflictError:
    if "superseded_by" in fields and cur["superseded_by"] is not None:
        conn = _conn_of_current()
        newer = _head(conn, cur["namespace"], cur["key"]) if conn is not None else None
        return _newer_version(
            cur,
            newer,
            f"{what} would drop or overwrite that newer version, so nothing was changed.",
            code="fact.newer_version.step",
            step=_step(what),
        )
    detail = ", ".join(f"{f} is {_fmt(cur[f])} (expected {_fmt(want[f])})" for f in fields[:4])
    return ConflictError(
        f"{_name(cur)} was changed after this edit ({detail}). {what} would overwrite that change, "
        "so nothing was changed.",
        cur,
        code="fact.changed_after_edit",
        params={
            "fact": _name(cur),
            "fields": fields[:4],
            "values": [{"field": f, "now": cur[f], "expected": want[f]} for f in fields[:4]],
            "step": _step(what),
        },
    )


def _step(what: str) -> str:
    return "undo" if what.startswith("Undo") else "redo"


def _conn_of_current() -> Any:
    db = curation.current_db()
    return None if db is None else db.conn


def _transition(conn: Connection, pairs: list[tuple[Any, Any]], *, forward: bool, what: str) -> None:
    steps = pairs if forward else [(a, b) for (b, a) in reversed(pairs)]
    for src, dst in steps:
        if src is None and dst is None:
            continue
        if src is None:  # (re-)create dst exactly
            if _get(conn, dst["id"]) is not None:
                raise ConflictError(
                    f"{_name(dst)}: the version {dst['id']} exists already; nothing was changed.",
                    code="fact.version_exists",
                    params={"fact": _name(dst), "id": dst["id"]},
                )
            if dst.get("superseded_by") is None:
                head = _head(conn, dst["namespace"], dst["key"])
                if head is not None:
                    raise _newer_version(
                        dst,
                        head,
                        f"{what} would put an older value on top of it, so nothing was changed.",
                        code="fact.newer_version.older_on_top",
                        step=_step(what),
                    )
            cols = [k for k in dst]
            conn.execute(
                f"INSERT INTO memory_facts ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                tuple(dst[k] for k in cols),
            )
            continue
        cur = _get(conn, src["id"])
        if cur is None:
            raise ConflictError(
                f"{_name(src)} (version {src['id']}) no longer exists; nothing was changed.",
                code="fact.version_missing",
                params={"fact": _name(src), "id": src["id"]},
            )
        if dst is None:  # remove a version this edit created: it must be unchanged and still the head
            diff = _content_diff(cur, src)
            if diff:
                raise _step_conflict(what, cur, diff, src)
            conn.execute("DELETE FROM memory_facts WHERE id = ?", (src["id"],))
            continue
        fields = [k for k in dst if k not in _IGNORED and k != "id" and not _same(src.get(k), dst[k])]
        diff = [f for f in fields if not _same(cur.get(f), src.get(f))]
        if diff:
            raise _step_conflict(what, cur, diff, src)
        if fields:
            sets = ", ".join(f"{f} = ?" for f in fields)
            conn.execute(
                f"UPDATE memory_facts SET {sets} WHERE id = ?", (*(dst[f] for f in fields), src["id"])
            )


def _undo(conn: Connection, entry: AuditEntry) -> None:
    _transition(conn, _pairs(entry), forward=False, what="Undoing it")
    return None


def _redo(conn: Connection, entry: AuditEntry) -> None:
    _transition(conn, _pairs(entry), forward=True, what="Redoing it")
    return None


for _action in ACTIONS:
    curation.register(_action, _undo, _redo)

# The memory tools' writes to this layer (through `tool --write` and the MCP server) are undone by
# core.curation.tools; importing it here lets the handler lookup of their actions find it.
from core.curation import tools as _tool_writes  # noqa: E402, F401
