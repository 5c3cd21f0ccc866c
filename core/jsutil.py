"""JavaScript parity helpers for the memory core.

The reference agent is written in TypeScript and runs on Node (V8). Everything it measures, slices,
serialises or parses follows JavaScript semantics, and this project must reproduce those results to
the character. This module collects the few primitives the rest of ``core`` needs for that:

* lengths, slices and ``indexOf`` in UTF-16 code units (``String.prototype.length`` / ``slice``);
* ``JSON.stringify`` and ``Number.prototype.toString`` output;
* ``Date.prototype.toISOString`` and ``Date.parse`` (re-exported from :mod:`core.dateparse`, a port of
  V8's date parser), and the reference's ``parseTimeField``;
* the JavaScript whitespace set used by ``\\s``, ``trim()`` and ``split(/\\s+/)``;
* ``String()``, ``Number()``, ``Array.prototype.join``, ``Math.max``/``min``/``exp``, division,
  truthiness and the key order of ``Object.keys``, for the values JSON can hold;
* the token estimate ``ceil(length * 0.6)``.

Standard library only; no function here touches the database or the clock (:func:`now_ms` is
re-exported from :mod:`core.clock`).
"""

from __future__ import annotations

import math
import re
from typing import Any

from core.clock import now_ms
from core.dateparse import JS_WS_CHARS, MAX_TIME_MS, date_parse, iso_ms

__all__ = [
    "JS_WS",
    "JS_WS_CHARS",
    "MAX_TIME_MS",
    "date_parse",
    "date_parse_string",
    "estimate_tokens",
    "from_utf16_view",
    "int_if_integral",
    "iso_ms",
    "js_div",
    "js_exp",
    "js_index_of",
    "js_isnan",
    "js_join",
    "js_max",
    "js_min",
    "js_number_str",
    "js_own_keys",
    "js_slice",
    "js_slice_end",
    "js_split_ws",
    "js_string",
    "js_string_to_number",
    "js_stringify",
    "js_to_number",
    "js_trim",
    "js_truthy",
    "now_ms",
    "parse_time_field",
    "utf16_len",
    "utf16_view",
]


#: Regular-expression character class (brackets included) matching exactly :data:`JS_WS_CHARS`.
#: Use it wherever a JavaScript pattern says ``\s``; it stays correct under ``re.ASCII``.
JS_WS = "[\\t\\n\\x0b\\x0c\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]"

_WS_RUN_RE = re.compile(JS_WS + "+")


# ---------------------------------------------------------------------------------------------------
# UTF-16 lengths and slices
# ---------------------------------------------------------------------------------------------------


def json_safe(value: Any) -> Any:
    """``value`` with non-finite floats replaced by ``None``, as ``JSON.stringify`` writes them
    (``null``): JSON has no NaN or Infinity. Dicts, lists and tuples are walked; tuples become lists."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_lone_surrogates(text: str) -> str:
    """JSON text with each lone surrogate (half a character, which UTF-8 cannot hold) written as its
    ``\\uXXXX`` escape, as ``JSON.stringify`` writes it: the text then encodes as UTF-8 and reads back
    to the same value."""
    if text.isascii():
        return text
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


def utf16_len(s: str) -> int:
    """JavaScript ``s.length``: the number of UTF-16 code units (an astral character counts 2).

    Lone surrogates held in a Python string count 1 each, exactly as in JavaScript.
    """
    if s.isascii():
        return len(s)
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


_ASTRAL_RE = re.compile("[\U00010000-\U0010ffff]")


def _split_astral(m: re.Match[str]) -> str:
    cp = ord(m.group(0)) - 0x10000
    return chr(0xD800 + (cp >> 10)) + chr(0xDC00 + (cp & 0x3FF))


def utf16_view(s: str) -> str:
    """Return ``s`` with every astral character replaced by its two surrogate code points.

    In the result, one Python character is one UTF-16 code unit, so ``len``, indexing, slicing and
    regex repeat counts behave like JavaScript (non-``u``) strings. Convert back with
    :func:`from_utf16_view`.
    """
    if s.isascii():
        return s
    return _ASTRAL_RE.sub(_split_astral, s)


def from_utf16_view(s: str) -> str:
    """Inverse of :func:`utf16_view`: join surrogate pairs back into astral characters.

    Lone surrogates (a pair cut in the middle) are kept as lone surrogate code points.
    """
    if s.isascii():
        return s
    return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def _to_js_index(value: Any, default: int) -> float:
    """ECMAScript ToIntegerOrInfinity for slice arguments (None means ``undefined``)."""
    if value is None:
        return default
    x = float(value)
    if math.isnan(x):
        return 0
    if math.isinf(x):
        return x
    return math.trunc(x)


def js_slice(s: str, start: Any = 0, end: Any = None) -> str:
    """JavaScript ``s.slice(start, end)`` in UTF-16 code units.

    Negative indices count from the end, out-of-range indices are clamped, and ``start >= end`` gives
    ``''``. A cut through a surrogate pair keeps the lone half as a lone surrogate code point, which a
    Python string can hold (exactly what JavaScript produces).
    """
    view = utf16_view(s)
    n = len(view)
    a = _to_js_index(start, 0)
    b = _to_js_index(end, n)
    lo = int(max(a + n, 0) if a < 0 else min(a, n))
    hi = int(max(b + n, 0) if b < 0 else min(b, n))
    if lo >= hi:
        return ""
    return from_utf16_view(view[lo:hi])


def estimate_tokens(s: str) -> int:
    """The reference token estimate ``Math.ceil(s.length * 0.6)``, computed exactly as ``(3n+4)//5``."""
    return (3 * utf16_len(s) + 4) // 5


# ---------------------------------------------------------------------------------------------------
# Whitespace
# ---------------------------------------------------------------------------------------------------


def js_trim(s: str) -> str:
    """JavaScript ``s.trim()`` (strips the 25 JS white-space code points, not ``str.isspace()``)."""
    return s.strip(JS_WS_CHARS)


def js_split_ws(s: str) -> list[str]:
    """JavaScript ``s.split(/\\s+/).filter(Boolean)``."""
    return [t for t in _WS_RUN_RE.split(s) if t]


# ---------------------------------------------------------------------------------------------------
# Numbers and JSON.stringify
# ---------------------------------------------------------------------------------------------------


def _to_double(x: Any) -> float:
    """Convert a Python number to the IEEE double JavaScript would hold for it."""
    if isinstance(x, bool):
        return 1.0 if x else 0.0
    if isinstance(x, int):
        try:
            return float(x)  # correctly rounded, like parsing the integer literal in JS
        except OverflowError:
            return math.inf if x > 0 else -math.inf
    if isinstance(x, float):
        return x
    raise TypeError(f"not a number: {type(x).__name__}")


def _finite_number_str(x: float) -> str:
    """Number::toString for a finite double (ECMAScript Number.prototype.toString, radix 10)."""
    if x == 0:
        return "0"  # +0 and -0
    sign = "-" if x < 0 else ""
    r = repr(abs(x))  # shortest round-trip digits, same choice as V8
    mant, _, exp_s = r.partition("e")
    exp = int(exp_s) if exp_s else 0
    int_part, _, frac = mant.partition(".")
    digits = (int_part + frac).lstrip("0")
    power = exp - len(frac)
    stripped = digits.rstrip("0")
    power += len(digits) - len(stripped)
    digits = stripped
    k = len(digits)
    n = k + power  # value = 0.<digits> * 10**n
    if k <= n <= 21:
        out = digits + "0" * (n - k)
    elif 0 < n <= 21:
        out = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        es = ("+" if e >= 0 else "-") + str(abs(e))
        out = digits + "e" + es if k == 1 else digits[0] + "." + digits[1:] + "e" + es
    return sign + out


def js_number_str(x: Any) -> str:
    """JavaScript ``String(x)`` for a number.

    Python ints are first rounded to a double, as JavaScript would hold them (so integers above 2**53
    lose precision); ``NaN``, ``Infinity`` and ``-Infinity`` are spelled the JavaScript way; ``-0``
    prints as ``0``; exponents follow JS (``1e+21``, ``1e-7``) and ``1e16`` prints in full.
    """
    d = _to_double(x)
    if math.isnan(d):
        return "NaN"
    if math.isinf(d):
        return "Infinity" if d > 0 else "-Infinity"
    return _finite_number_str(d)


_JSON_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
}
_JSON_NEEDS_ESCAPE = re.compile('[\\x00-\\x1f"\\\\\\ud800-\\udfff]')


def _json_escape_char(m: re.Match[str]) -> str:
    c = m.group(0)
    esc = _JSON_ESCAPES.get(c)
    if esc is not None:
        return esc
    return f"\\u{ord(c):04x}"  # other control characters and lone surrogates, lower-case hex


def _json_quote(s: str) -> str:
    if not s.isascii():
        # Join any surrogate pair held as two code points; what remains are true lone surrogates.
        s = from_utf16_view(s)
    return '"' + _JSON_NEEDS_ESCAPE.sub(_json_escape_char, s) + '"'


_ARRAY_INDEX_RE = re.compile(r"(?:0|[1-9][0-9]{0,9})")
_MAX_ARRAY_INDEX = 4_294_967_294  # 2**32 - 2


def _is_array_index(key: str) -> bool:
    return _ARRAY_INDEX_RE.fullmatch(key) is not None and int(key) <= _MAX_ARRAY_INDEX


def _key_str(key: Any) -> str:
    if isinstance(key, str):
        return key
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, (int, float)):
        return js_number_str(key)
    raise TypeError(f"object keys must be str, int, float, bool or None, not {type(key).__name__}")


def _stringify(value: Any, out: list[str], active: set[int]) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, str):
        out.append(_json_quote(value))
    elif isinstance(value, (int, float)):
        d = _to_double(value)
        out.append(_finite_number_str(d) if math.isfinite(d) else "null")
    elif isinstance(value, (list, tuple)):
        if id(value) in active:
            raise ValueError("Converting circular structure to JSON")
        active.add(id(value))
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            _stringify(item, out, active)
        out.append("]")
        active.discard(id(value))
    elif isinstance(value, dict):
        if id(value) in active:
            raise ValueError("Converting circular structure to JSON")
        active.add(id(value))
        # A JS object lists its array-index keys first, ascending, then the others in insertion order.
        # A later duplicate key (after str conversion) overwrites the value in place, as in JS.
        merged: dict[str, Any] = {}
        for k, v in value.items():
            merged[_key_str(k)] = v
        index_keys = sorted((k for k in merged if _is_array_index(k)), key=int)
        other_keys = [k for k in merged if not _is_array_index(k)]
        out.append("{")
        for i, k in enumerate(index_keys + other_keys):
            if i:
                out.append(",")
            out.append(_json_quote(k))
            out.append(":")
            _stringify(merged[k], out, active)
        out.append("}")
        active.discard(id(value))
    else:
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def js_stringify(value: Any) -> str:
    """``JSON.stringify(value)`` for values that came from JSON or plain Python data.

    Compact (no spaces), non-ASCII kept, integral numbers without ``.0``, ``-0`` as ``0``, JS number
    formatting (``1e+21``, ``1e-7``, ``1e16`` in full), ``NaN``/``Infinity`` as ``null``, integers
    above 2**53 rounded like JS doubles, object keys that are array indices moved to the front in
    ascending numeric order, and lone surrogates escaped as ``\\udXXX``. Tuples serialise as arrays.
    Raises ``TypeError`` for unsupported types and ``ValueError`` for circular structures (JS throws
    a TypeError there too).
    """
    out: list[str] = []
    _stringify(value, out, set())
    return "".join(out)


_JS_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_JS_RADIX = {"0x": (16, "0-9a-fA-F"), "0o": (8, "0-7"), "0b": (2, "01")}


def js_string_to_number(s: str) -> float | int:
    """JavaScript ``Number(s)`` for a string: whitespace-trimmed, ``''`` is 0, anything else NaN.

    Accepts decimal literals, ``Infinity`` with an optional sign and ``0x``/``0o``/``0b`` integers (no
    sign), like V8. Integral results are returned as ``int``.
    """
    t = js_trim(s)
    if t == "":
        return 0
    if t in ("Infinity", "+Infinity"):
        return math.inf
    if t == "-Infinity":
        return -math.inf
    prefix = t[:2].lower()
    if prefix in _JS_RADIX:
        base, digits = _JS_RADIX[prefix]
        body = t[2:]
        if body and re.fullmatch(f"[{digits}]+", body):
            return int(body, base)
        return math.nan
    if not _JS_DECIMAL.fullmatch(t):
        return math.nan
    value = float(t)
    return int(value) if math.isfinite(value) and value.is_integer() else value


# ---------------------------------------------------------------------------------------------------
# JavaScript values: String(), Number(), Math.max/min, truthiness, Object key order
# ---------------------------------------------------------------------------------------------------


def js_isnan(x: Any) -> bool:
    """``Number.isNaN(x)`` for the numbers the helpers here return."""
    return isinstance(x, float) and math.isnan(x)


def js_string(v: Any) -> str:
    """JavaScript ``String(v)`` for JSON values (arrays join with ``,``; objects are ``[object Object]``)."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int | float):
        return js_number_str(v)
    if isinstance(v, str):
        return v
    if isinstance(v, list | tuple):
        return js_join(v, ",")
    return "[object Object]"


def js_join(items: Any, sep: str) -> str:
    """JavaScript ``Array.prototype.join``: ``null`` elements become ``''``."""
    return sep.join("" if x is None else js_string(x) for x in items)


def js_to_number(v: Any) -> int | float:
    """JavaScript ``Number(v)`` (ToNumber) for JSON values."""
    if v is None:
        return 0
    if v is True:
        return 1
    if v is False:
        return 0
    if isinstance(v, int | float):
        return v
    if isinstance(v, str):
        return js_string_to_number(v)
    if isinstance(v, list | tuple):
        return js_string_to_number(js_string(v))
    return math.nan


def js_max(a: int | float, b: int | float) -> int | float:
    """``Math.max(a, b)``: NaN wins."""
    if js_isnan(a) or js_isnan(b):
        return math.nan
    return a if a >= b else b


def js_min(a: int | float, b: int | float) -> int | float:
    """``Math.min(a, b)``: NaN wins."""
    if js_isnan(a) or js_isnan(b):
        return math.nan
    return a if a <= b else b


def js_div(a: float, b: float) -> float:
    """IEEE-754 division as JavaScript does it (no ZeroDivisionError)."""
    if b == 0:
        if a == 0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def js_exp(x: float) -> float:
    """``Math.exp`` (overflow gives Infinity instead of raising)."""
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def js_truthy(v: Any) -> bool:
    """JS truthiness: ``{}`` and ``[]`` are true; ``None``, ``False``, ``0``, NaN and ``''`` are false."""
    if v is None or v is False:
        return False
    if isinstance(v, int | float):
        return not (v == 0 or js_isnan(v))
    if isinstance(v, str):
        return v != ""
    return True


def int_if_integral(x: int | float) -> int | float:
    """A finite integral float as ``int`` (how JavaScript prints it: ``2.0`` is ``2``), else ``x``."""
    if isinstance(x, float) and math.isfinite(x) and x.is_integer():
        return int(x)
    return x


def js_slice_end(x: int | float) -> int | None:
    """ToIntegerOrInfinity of a ``slice`` end as a Python bound: NaN is 0, +Infinity is no bound."""
    if js_isnan(x):
        return 0
    if isinstance(x, float) and math.isinf(x):
        return None if x > 0 else 0
    return math.trunc(x)


def js_index_of(s: str, sub: str) -> int:
    """``s.indexOf(sub)`` in UTF-16 code units (``-1`` when absent)."""
    i = s.find(sub)
    return -1 if i < 0 else utf16_len(s[:i])


def js_own_keys(d: dict[str, Any]) -> list[str]:
    """``Object.keys`` / ``Object.entries`` order: array-index keys ascending first, then insertion order."""
    idx = [k for k in d if _is_array_index(k)]
    seen = set(idx)
    return sorted(idx, key=int) + [k for k in d if k not in seen]


def date_parse_string(v: Any) -> int | float | None:
    """``Date.parse(v)``: the argument is converted with ``String()`` first (numbers are not epoch ms)."""
    return date_parse(v if isinstance(v, str) else js_string(v))


def parse_time_field(v: Any) -> int | float | None:
    """The reference's ``parseTimeField``: a finite number passes, a string goes through ``Date.parse``,
    anything else (and every invalid value, a number beyond a date's range included) is NULL."""
    if v is None or v == "":
        return None
    t = date_parse(v)
    # A number beyond what a date holds is no time either (the reference would store it, then fail
    # on its own output after committing).
    return t if t is None or -8_640_000_000_000_000 <= t <= 8_640_000_000_000_000 else None
