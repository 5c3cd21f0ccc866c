"""Fact edits of one row: pin, unpin, set tau, forget, unforget, and new versions (edit, add)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from core import curation
from core.curation import Change
from core.curation.facts.common import (
    ACTION_ADD,
    ACTION_EDIT,
    ACTION_FORGET,
    ACTION_PIN,
    ACTION_SET_TAU,
    ACTION_UNFORGET,
    ACTION_UNPIN,
    TARGET,
    check_confidence,
    check_seen,
    check_tau,
    get_row,
    head_of,
    name_of,
    newer_version,
    require,
    same,
)
from core.decay import PIN_SENTINEL, is_pinned
from core.errors import ConflictError, ValidationError_
from core.facts import (
    SELF_NAMESPACE,
    UNSET,
    FactStore,
    SelfDescriptionWriteForbiddenError,
    check_epoch_ms,
    check_exact_json,
    check_name,
)
from core.jsutil import now_ms
from core.models import Fact

if TYPE_CHECKING:
    from core.engine import Connection


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
        cur = require(conn, fact_id)
        check_seen(conn, cur, seen, (column,))
        if same(cur[column], new_value):
            raise ValidationError_(
                f"{name_of(cur)} {already}; nothing to change.",
                code=code,
                params={"fact": name_of(cur)},
            )
        conn.execute(f"UPDATE memory_facts SET {column} = ? WHERE id = ?", (new_value, fact_id))
        return cur, get_row(conn, fact_id)

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
        cur = require(conn, fact_id)
        check_seen(conn, cur, seen, ("decay_tau_days",))
        if not is_pinned(cur["decay_tau_days"]):
            raise ValidationError_(
                f"{name_of(cur)} is not pinned; nothing to change.",
                code="fact.unchanged.unpin",
                params={"fact": name_of(cur)},
            )
        conn.execute("UPDATE memory_facts SET decay_tau_days = NULL WHERE id = ?", (fact_id,))
        return cur, get_row(conn, fact_id)

    return Change(ACTION_UNPIN, TARGET, fact_id, fn, "unpin")


def set_tau(fact_id: str, tau: float | None, *, seen: Fact | Mapping[str, Any] | None = None) -> Change:
    """A custom decay time in days (``None`` = the namespace default again; negative pins)."""
    value = check_tau(tau)
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
        cur = require(conn, fact_id)
        check_seen(conn, cur, seen, ("forgotten_at",))
        if cur["forgotten_at"] is not None:
            raise ValidationError_(
                f"{name_of(cur)} is already forgotten; nothing to change.",
                code="fact.unchanged.forget",
                params={"fact": name_of(cur)},
            )
        t = now_ms() if now is None else int(now)
        conn.execute("UPDATE memory_facts SET forgotten_at = ? WHERE id = ?", (t, fact_id))
        return cur, get_row(conn, fact_id)

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


# -- new versions: edit and add ---------------------------------------------------------------------------


def _tau(tau: Any) -> float | None:
    """A checked tau; a negative one pins (``decay_tau_days = -1``)."""
    value = check_tau(tau)
    return float(PIN_SENTINEL) if value is not None and value < 0 else value


def _check_kind(fact_kind: Any) -> None:
    if fact_kind not in ("state", "event"):
        raise ValidationError_("fact_kind must be 'state' or 'event'", code="fact.kind_invalid")


def _edited_fields(
    value: Any, confidence: Any, fact_kind: Any, times: dict[str, Any], decay_tau_days: Any
) -> dict[str, Any]:
    """The fields an edit gives, checked (``UNSET`` for a field it leaves as it is)."""
    if confidence is not UNSET:
        confidence = check_confidence(confidence)
    if decay_tau_days is not UNSET:
        decay_tau_days = _tau(decay_tau_days)
    if fact_kind is not UNSET:
        _check_kind(fact_kind)
    if value is not UNSET:
        check_exact_json(value)
    for name, when in times.items():
        if when is not UNSET:
            times[name] = check_epoch_ms(name, when)
    return {
        "value": value,
        "confidence": confidence,
        "fact_kind": fact_kind,
        **times,
        "decay_tau_days": decay_tau_days,
    }


def _supersede(
    conn: Connection, fact_id: str, expected: Any, given: dict[str, Any], now: int | None
) -> tuple[Any, Any, str]:
    """Store the edited version on top of the head, which must be ``expected``."""
    src = require(conn, fact_id)
    if src["namespace"] == SELF_NAMESPACE:
        raise SelfDescriptionWriteForbiddenError(src["key"], "the desktop editor")
    head = head_of(conn, src["namespace"], src["key"])
    if expected is not None and (head is None or head["id"] != expected):
        raise newer_version(
            src,
            head,
            "Your edit was made against an older version and was not applied; the newer "
            "version is kept. Look at it and edit again if needed.",
            code="fact.newer_version.edit",
        )
    store = FactStore(curation.current_db())
    new = store.supersede_with(fact_id, expected_head=head["id"] if head else None, now=now, **given)
    return head, get_row(conn, new.id), new.id


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
    times = {"occurred_at": occurred_at, "valid_from": valid_from, "valid_until": valid_until}
    given = _edited_fields(value, confidence, fact_kind, times, decay_tau_days)
    expected = fact_id if expected_head is UNSET else expected_head
    if all(v is UNSET for v in given.values()) and expected == fact_id:
        raise ValidationError_("An edit needs at least one changed field.", code="fact.edit_empty")

    def fn(conn: Connection) -> tuple[Any, Any, str]:
        return _supersede(conn, fact_id, expected, given, now)

    return Change(ACTION_EDIT, TARGET, None, fn, "edit")


def _checked_names(namespace: Any, key: Any) -> tuple[str, str]:
    if not isinstance(namespace, str) or not namespace.strip():
        raise ValidationError_("The namespace must not be empty.", code="fact.namespace_empty")
    if not isinstance(key, str) or not key.strip():
        raise ValidationError_("The key must not be empty.", code="fact.key_empty")
    namespace = check_name("namespace", namespace)
    key = check_name("key", key)
    if namespace == SELF_NAMESPACE:
        raise SelfDescriptionWriteForbiddenError(key, "the desktop editor")
    return namespace, key


def _store(
    conn: Connection, namespace: str, key: str, expected_head: Any, fields: dict[str, Any]
) -> tuple[Any, Any, str]:
    """Store the fact (a new version on top of the head, which must be ``expected_head`` when given)."""
    head = head_of(conn, namespace, key)
    if expected_head is not UNSET and (head["id"] if head else None) != expected_head:
        tail = "The fact was not added; look at the current version first."
        if head is None:
            raise ConflictError(
                f"{namespace}.{key} no longer has the version you saw. {tail}",
                None,
                code="fact.version_gone",
                params={"fact": f"{namespace}.{key}"},
            )
        raise newer_version(head, head, tail, code="fact.newer_version.not_added")
    new = FactStore(curation.current_db()).store_fact(namespace, key, **fields)
    return head, get_row(conn, new.id), new.id


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
    namespace, key = _checked_names(namespace, key)
    conf = check_confidence(confidence)
    _check_kind(fact_kind)
    tau = _tau(decay_tau_days)
    check_exact_json(value)
    fields = {
        "value": value,
        "confidence": conf,
        "fact_kind": fact_kind,
        "occurred_at": check_epoch_ms("occurred_at", occurred_at),
        "valid_from": check_epoch_ms("valid_from", valid_from),
        "valid_until": check_epoch_ms("valid_until", valid_until),
        "decay_tau_days": tau,
        "now": now,
    }

    def fn(conn: Connection) -> tuple[Any, Any, str]:
        return _store(conn, namespace, key, expected_head, fields)

    return Change(ACTION_ADD, TARGET, None, fn, "add")
