"""What a manual edit of a fact must satisfy before it is written: time fields as epoch
milliseconds, names that UTF-8 can hold, JSON that reads back as exactly the value given, and a
validity window that is not inverted. The ``store_fact`` tool keeps the reference's looser semantics.

Qt-free; no database access.
"""

from __future__ import annotations

import math
from typing import Any

from core.damage import JS_TIME_MAX
from core.errors import ValidationError_
from core.jsutil import js_number_str, js_stringify


def window_error(valid_from: Any, valid_until: Any) -> str | None:
    if valid_from is None or valid_until is None:
        return None
    try:
        inverted = valid_until < valid_from
    except TypeError:
        return (
            f"valid_from and valid_until must be epoch milliseconds, not {valid_from!r} and {valid_until!r}"
        )
    if inverted:
        return f"storeFact: valid_until ({js_number_str(valid_until)}) 早于 valid_from ({js_number_str(valid_from)})"
    return None


MAX_SAFE_INTEGER = 2**53  # beyond it a JavaScript reader (JSON.parse) rounds an integer
TIME_FIELDS = ("occurred_at", "valid_from", "valid_until")


def check_epoch_ms(name: str, value: Any) -> int | None:
    """``value`` as epoch milliseconds for a time column (``None`` stays ``None``).

    An integer within what a JavaScript date holds (±8.64e15 ms) passes, an integral finite float becomes that integer;
    everything else (text, a fraction, NaN, a bool, a value beyond a date's range) raises
    :class:`~core.errors.ValidationError_`. Dates are converted to milliseconds by the caller.
    """
    if value is None:
        return None
    what = f"{name} must be a time in epoch milliseconds (an integer)"
    bad = {"field": name}
    if isinstance(value, bool):
        raise ValidationError_(
            f"{what}, not the boolean {str(value).lower()}",
            code="fact.time_invalid",
            params={**bad, "value": str(value).lower()},
        )
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValidationError_(
                f"{what}, not {js_number_str(value)}",
                code="fact.time_invalid",
                params={**bad, "value": js_number_str(value)},
            )
        if not value.is_integer():
            raise ValidationError_(
                f"{what}, not a fraction ({js_number_str(value)})",
                code="fact.time_invalid",
                params={**bad, "value": js_number_str(value)},
            )
        value = int(value)
    if not isinstance(value, int):
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:39] + "…"
        kind = "the text" if isinstance(value, str) else f"a {type(value).__name__}:"
        raise ValidationError_(
            f"{what}, not {kind} {shown}", code="fact.time_invalid", params={**bad, "value": shown}
        )
    if not -JS_TIME_MAX <= value <= JS_TIME_MAX:
        raise ValidationError_(
            f"{what} between -8.64e15 and 8.64e15 (what a date holds); {value} is out of range",
            code="fact.time_out_of_range",
            params={"field": name, "value": value, "limit": JS_TIME_MAX},
        )
    return int(value)


def check_name(label: str, name: Any) -> str:
    """A namespace or key that can be stored as UTF-8: a surrogate pair becomes its character, a lone
    surrogate (half a character, not representable in UTF-8) raises :class:`~core.errors.ValidationError_`."""
    if not isinstance(name, str):
        raise ValidationError_(
            f"The {label} must be text.", code="fact.name_not_text", params={"label": label}
        )
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        pass
    try:
        return name.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    except UnicodeDecodeError:
        pos = next(i for i, ch in enumerate(name) if 0xD800 <= ord(ch) <= 0xDFFF)
        raise ValidationError_(
            f"The {label} contains a lone surrogate (U+{ord(name[pos]):04X} at position {pos}), half of a "
            "character that cannot be stored; remove it or complete the character.",
            code="fact.name_lone_surrogate",
            params={"label": label, "char": f"U+{ord(name[pos]):04X}", "position": pos},
        ) from None


def _check_json_node(v: Any, where: str, ancestors: set[int]) -> None:
    if v is None or isinstance(v, bool | str):
        return
    if isinstance(v, int):
        if abs(v) > MAX_SAFE_INTEGER:
            shown = str(v) if v.bit_length() <= 256 else f"of {v.bit_length()} bits"
            raise ValidationError_(
                f"{where}: the integer {shown} is beyond ±2^53 ({MAX_SAFE_INTEGER}); JSON readers "
                "(JavaScript) would round it to a different number. Store it as text instead.",
                code="json.unsafe_integer",
                params={"where": where, "value": shown, "limit": MAX_SAFE_INTEGER},
            )
        return
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValidationError_(
                f"{where}: {js_number_str(v)} cannot be stored in JSON (it would become null). "
                "Use a finite number, null or text.",
                code="json.not_finite",
                params={"where": where, "value": js_number_str(v)},
            )
        return
    if not isinstance(v, list | tuple | dict):
        raise ValidationError_(
            f"{where}: a value of type {type(v).__name__} cannot be stored as JSON.",
            code="json.type",
            params={"where": where, "type": type(v).__name__},
        )
    if id(v) in ancestors:
        raise ValidationError_(
            f"{where}: the value contains itself and cannot be stored as JSON.",
            code="json.cycle",
            params={"where": where},
        )
    ancestors.add(id(v))
    if isinstance(v, dict):
        for k, x in v.items():
            if not isinstance(k, str):
                raise ValidationError_(
                    f"{where}: object keys must be text, not {k!r}",
                    code="json.key_not_text",
                    params={"where": where, "key": repr(k)},
                )
            _check_json_node(x, f"{where}.{k}", ancestors)
    else:
        for i, x in enumerate(v):
            _check_json_node(x, f"{where}[{i}]", ancestors)
    ancestors.discard(id(v))


def check_exact_json(value: Any) -> str:
    """``js_stringify(value)`` when that JSON reads back as exactly ``value``.

    Refused with :class:`~core.errors.ValidationError_` (JSON would carry something else): NaN and
    ±Infinity (``JSON.stringify`` writes ``null``), integers beyond ±2^53 (a JavaScript reader rounds
    them), object keys that are not text, and values JSON has no form for.
    """
    try:
        _check_json_node(value, "value", set())
    except RecursionError:
        raise ValidationError_(
            "The value is nested too deeply to be stored as JSON.", code="json.too_deep"
        ) from None
    try:
        return js_stringify(value)
    except (TypeError, ValueError, RecursionError) as exc:
        raise ValidationError_(
            f"The value cannot be stored as JSON: {exc}", code="json.unstorable", params={"error": str(exc)}
        ) from None
