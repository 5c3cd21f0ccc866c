"""What the fact edits share: the action names, reading a row and its head, the checks of what a person
typed, and the refusals when the agent wrote meanwhile."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from core.errors import ConflictError, NotFoundError, ValidationError_
from core.jsutil import iso_ms, js_number_str
from core.models import Fact, parse_json_lenient

if TYPE_CHECKING:
    from core.engine import Connection

TARGET = "fact"
TABLE = "memory_facts"
BULK_TARGET = "facts"
IGNORED = frozenset({"last_accessed_at"})  # the agent's read bookkeeping: never compared, never restored

ACTION_EDIT = "facts.edit"
ACTION_ADD = "facts.add"
ACTION_PIN = "facts.pin"
ACTION_UNPIN = "facts.unpin"
ACTION_SET_TAU = "facts.set_tau"
ACTION_FORGET = "facts.forget"
ACTION_UNFORGET = "facts.unforget"
BULK_OPS = ("forget", "pin", "unpin", "move")
BULK_ACTIONS = {
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
    *BULK_ACTIONS.values(),
)
MAX_LISTED = 10


# -- small helpers ------------------------------------------------------------------------------------


def name_of(row: Mapping[str, Any] | Fact) -> str:
    ns, key = (row.namespace, row.key) if isinstance(row, Fact) else (row["namespace"], row["key"])
    return f"{ns}.{key}"


def preview(value_json: Any, limit: int = 60) -> str:
    value, err = parse_json_lenient(value_json if isinstance(value_json, str) else None)
    text = value if isinstance(value, str) and err is None else str(value_json)
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def when(ms: Any) -> str:
    try:
        return iso_ms(int(ms))
    except (TypeError, ValueError):
        return str(ms)


def same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, bool) != isinstance(b, bool):
        return False
    return a == b


def row_state(row: Any) -> dict[str, Any] | None:
    """A row as a plain dict of its columns (the audit's before/after)."""
    return None if row is None else dict(zip(row.keys(), tuple(row)))


def get_row(conn: Connection, fact_id: str) -> dict[str, Any] | None:
    return row_state(conn.execute("SELECT * FROM memory_facts WHERE id = ?", (fact_id,)).fetchone())


def head_of(conn: Connection, namespace: str, key: str) -> dict[str, Any] | None:
    return row_state(
        conn.execute(
            "SELECT * FROM memory_facts WHERE namespace = ? AND key = ? AND superseded_by IS NULL "
            "ORDER BY rowid DESC LIMIT 1",
            (namespace, key),
        ).fetchone()
    )


def seen_get(seen: Fact | Mapping[str, Any], name: str) -> Any:
    return getattr(seen, name) if isinstance(seen, Fact) else seen.get(name)


def newer_version(
    row: Mapping[str, Any], newer: Mapping[str, Any] | None, tail: str, *, code: str, **params: Any
) -> ConflictError:
    """``fact.newer_version.<why>``: ``row`` has a newer version than the one the change was made for."""
    shown = (
        {} if newer is None else {"stored_at": newer["created_at"], "preview": preview(newer["value_json"])}
    )
    return ConflictError(
        newer_version_message(row, newer, tail),
        newer,
        code=code,
        params={"fact": name_of(row), **shown, **params},
    )


def newer_version_message(row: Mapping[str, Any], newer: Mapping[str, Any] | None, tail: str) -> str:
    if newer is None:
        return f"{name_of(row)} has a newer version written meanwhile. {tail}"
    return (
        f"{name_of(row)} has a newer version written meanwhile (stored {when(newer['created_at'])}: "
        f"{preview(newer['value_json'])}). {tail}"
    )


def check_seen(
    conn: Connection, cur: Mapping[str, Any], seen: Fact | Mapping[str, Any] | None, fields: Iterable[str]
):
    """Raise ConflictError when ``cur`` differs from the row as it was shown in ``fields``/the chain."""
    if seen is None:
        return
    if seen_get(seen, "superseded_by") is None and cur["superseded_by"] is not None:
        newer = head_of(conn, cur["namespace"], cur["key"])
        raise newer_version(
            cur,
            newer,
            "Your change was computed against the older version and was not applied.",
            code="fact.newer_version.not_applied",
        )
    for f in fields:
        if not same(cur[f], seen_get(seen, f)):
            raise ConflictError(
                f"{name_of(cur)} changed since it was shown ({f} is now {fmt(cur[f])}, "
                f"was {fmt(seen_get(seen, f))}). Nothing was changed; look at it again.",
                cur,
                code="fact.changed_since_shown",
                params={"fact": name_of(cur), "field": f, "now": cur[f], "was": seen_get(seen, f)},
            )


def fmt(v: Any) -> str:
    if v is None:
        return "empty"
    if isinstance(v, float | int) and not isinstance(v, bool):
        return js_number_str(v)
    return str(v)


def require(conn: Connection, fact_id: str) -> dict[str, Any]:
    cur = get_row(conn, fact_id)
    if cur is None:
        raise NotFoundError(
            f"There is no fact with id {fact_id}.", code="fact.not_found", params={"id": fact_id}
        )
    return cur


def check_confidence(confidence: Any) -> float:
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


def check_tau(tau: Any) -> float | None:
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
