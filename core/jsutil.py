"""JavaScript parity helpers for the memory core.

The reference agent is written in TypeScript and runs on Node (V8). Everything it measures, slices,
serialises or parses follows JavaScript semantics, and this project must reproduce those results to
the character. This module collects the few primitives the rest of ``core`` needs for that:

* lengths, slices and ``indexOf`` in UTF-16 code units (``String.prototype.length`` / ``slice``);
* ``JSON.stringify`` and ``Number.prototype.toString`` output;
* ``Date.prototype.toISOString`` and ``Date.parse`` (a port of V8's date parser), and the reference's
  ``parseTimeField``;
* the JavaScript whitespace set used by ``\\s``, ``trim()`` and ``split(/\\s+/)``;
* ``String()``, ``Number()``, ``Array.prototype.join``, ``Math.max``/``min``/``exp``, division,
  truthiness and the key order of ``Object.keys``, for the values JSON can hold;
* the token estimate ``ceil(length * 0.6)``.

Standard library only; no function here touches the database or the clock except :func:`now_ms`.
"""

from __future__ import annotations

import math
import re
import time
from datetime import datetime, timedelta
from typing import Any

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

#: The 25 code points that JavaScript's ``\s``, ``String.prototype.trim()`` and ``split(/\s+/)`` treat
#: as white space (WhiteSpace + LineTerminator). Python's ``str.isspace()`` differs: it adds
#: U+001C-U+001F and U+0085 and lacks U+FEFF.
JS_WS_CHARS = (
    "\t\n\v\f\r \u00a0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)

#: Regular-expression character class (brackets included) matching exactly :data:`JS_WS_CHARS`.
#: Use it wherever a JavaScript pattern says ``\s``; it stays correct under ``re.ASCII``.
JS_WS = "[\\t\\n\\x0b\\x0c\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]"

_WS_RUN_RE = re.compile(JS_WS + "+")

#: Largest absolute time value a JavaScript ``Date`` can hold (ECMAScript TimeClip bound), in ms.
MAX_TIME_MS = 8_640_000_000_000_000


# ---------------------------------------------------------------------------------------------------
# Clock
# ---------------------------------------------------------------------------------------------------


def now_ms() -> int:
    """Current time as integer epoch milliseconds (``Date.now()``)."""
    return time.time_ns() // 1_000_000


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


# ---------------------------------------------------------------------------------------------------
# Dates
# ---------------------------------------------------------------------------------------------------

_DAY_MS = 86_400_000


def _days_from_civil(y: int, m: int, d: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (any year, month 1-12, day may overflow)."""
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    mp = (m + 9) % 12
    doy = (153 * mp + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _civil_from_days(z: int) -> tuple[int, int, int]:
    z += 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    return (y + (m <= 2), m, d)


def _time_clip(ms: Any) -> int:
    if isinstance(ms, bool) or not isinstance(ms, (int, float)):
        raise TypeError(f"time value must be a number, not {type(ms).__name__}")
    if isinstance(ms, float):
        if not math.isfinite(ms):
            raise ValueError("Invalid time value")
        ms = math.trunc(ms)
    if abs(ms) > MAX_TIME_MS:
        raise ValueError("Invalid time value")
    return ms


def iso_ms(ms: int | float) -> str:
    """``new Date(ms).toISOString()``, e.g. ``2026-01-01T00:00:00.000Z``.

    Years outside 0000-9999 use the six-digit signed form (``+010000-…``, ``-000001-…``). A value
    that JavaScript would reject (NaN, infinite, beyond ±8.64e15 ms) raises ``ValueError`` (JS throws
    ``RangeError: Invalid time value``). Fractional milliseconds are truncated toward zero.
    """
    t = _time_clip(ms)
    days, rem = divmod(t, _DAY_MS)
    y, m, d = _civil_from_days(days)
    hh, rem = divmod(rem, 3_600_000)
    mi, rem = divmod(rem, 60_000)
    ss, mss = divmod(rem, 1000)
    if 0 <= y <= 9999:
        ys = f"{y:04d}"
    elif y > 9999:
        ys = f"+{y:06d}"
    else:
        ys = f"-{-y:06d}"
    return f"{ys}-{m:02d}-{d:02d}T{hh:02d}:{mi:02d}:{ss:02d}.{mss:03d}Z"


# --- Date.parse: a port of V8's DateParser (src/date/dateparser*.{h,cc}) and ParseDateTimeString ---

_NONE = 2**31 - 1  # V8's kNone
_MAX_SIGNIFICANT_DIGITS = 9
_MAX_TIME_BEFORE_UTC_MS = MAX_TIME_MS + 864_000_000  # V8 DateCache::kMaxTimeBeforeUTCInMs

# Token tags
_T_INVALID, _T_UNKNOWN, _T_WS, _T_NUMBER, _T_SYMBOL, _T_END = range(-6, 0)
# Keyword types (tags >= 0 are keywords)
_K_INVALID, _K_MONTH, _K_TZ, _K_TSEP, _K_AMPM = range(5)

_KEYWORDS: list[tuple[str, int, int]] = [
    ("jan", _K_MONTH, 1),
    ("feb", _K_MONTH, 2),
    ("mar", _K_MONTH, 3),
    ("apr", _K_MONTH, 4),
    ("may", _K_MONTH, 5),
    ("jun", _K_MONTH, 6),
    ("jul", _K_MONTH, 7),
    ("aug", _K_MONTH, 8),
    ("sep", _K_MONTH, 9),
    ("oct", _K_MONTH, 10),
    ("nov", _K_MONTH, 11),
    ("dec", _K_MONTH, 12),
    ("am\0", _K_AMPM, 0),
    ("pm\0", _K_AMPM, 12),
    ("ut\0", _K_TZ, 0),
    ("utc", _K_TZ, 0),
    ("z\0\0", _K_TZ, 0),
    ("gmt", _K_TZ, 0),
    ("cdt", _K_TZ, -5),
    ("cst", _K_TZ, -6),
    ("edt", _K_TZ, -4),
    ("est", _K_TZ, -5),
    ("mdt", _K_TZ, -6),
    ("mst", _K_TZ, -7),
    ("pdt", _K_TZ, -7),
    ("pst", _K_TZ, -8),
    ("t\0\0", _K_TSEP, 0),
]

# V8 IsWhiteSpaceOrLineTerminator: the same 25 code points form a white-space token. Characters from
# 'A' upwards are word characters, except white space proper (IsWhiteSpace); the line terminators
# U+2028/U+2029 are read as part of a word (so "2026-06-15\u2028" is NaN on Node).
_V8_WS = frozenset(JS_WS_CHARS)
_V8_SPACE = _V8_WS - {"\u2028", "\u2029"}


def _between(x: int, lo: int, hi: int) -> bool:
    return lo <= x <= hi


class _Token:
    __slots__ = ("length", "tag", "value")

    def __init__(self, tag: int, length: int, value: int) -> None:
        self.tag = tag
        self.length = length
        self.value = value

    def is_number(self) -> bool:
        return self.tag == _T_NUMBER

    def is_fixed_number(self, length: int) -> bool:
        return self.tag == _T_NUMBER and self.length == length

    def is_symbol(self, c: str) -> bool:
        return self.tag == _T_SYMBOL and self.value == ord(c)

    def is_sign(self) -> bool:
        return self.tag == _T_SYMBOL and self.value in (ord("+"), ord("-"))

    def sign(self) -> int:
        return 44 - self.value

    def is_keyword(self) -> bool:
        return self.tag >= 0

    def is_keyword_z(self) -> bool:
        return self.tag == _K_TZ and self.length == 1 and self.value == 0


class _Scanner:
    def __init__(self, s: str) -> None:
        self.s = s
        self.i = 0
        self.next_tok = self._scan()

    def _ch(self) -> str:
        # V8 reads a NUL character as the end of input.
        if self.i < len(self.s):
            return self.s[self.i]
        return "\0"

    def _scan(self) -> _Token:
        start = self.i
        c = self._ch()
        if c == "\0":
            return _Token(_T_END, 0, -1)
        if "0" <= c <= "9":
            # ReadUnsignedNumeral: leading zeros are skipped, then at most 9 significant digits
            # build the value and any further digits are read and ignored.
            n = 0
            count = 0
            while self._ch() == "0":
                self.i += 1
            while "0" <= self._ch() <= "9":
                if count < _MAX_SIGNIFICANT_DIGITS:
                    n = n * 10 + ord(self._ch()) - 48
                count += 1
                self.i += 1
            return _Token(_T_NUMBER, self.i - start, n)
        if c in ":-+.)":
            self.i += 1
            return _Token(_T_SYMBOL, 1, ord(c))
        if c >= "A" and c not in _V8_SPACE:
            prefix = []
            length = 0
            while self._ch() >= "A" and self._ch() not in _V8_SPACE:
                if length < 3:
                    prefix.append(chr(ord(self._ch()) | 0x20))
                length += 1
                self.i += 1
            word = "".join(prefix).ljust(3, "\0")
            for kw, ktype, kval in _KEYWORDS:
                if kw == word and (length <= 3 or ktype == _K_MONTH):
                    return _Token(ktype, length, kval)
            return _Token(_K_INVALID, length, 0)
        if c in _V8_WS:
            self.i += 1
            return _Token(_T_WS, 1, -1)
        if c == "(":
            balance = 0
            while True:
                ch = self._ch()
                if ch == ")":
                    balance -= 1
                elif ch == "(":
                    balance += 1
                self.i += 1
                if not (balance > 0 and self._ch() != "\0"):
                    break
            return _Token(_T_UNKNOWN, 1, -1)
        self.i += 1
        return _Token(_T_UNKNOWN, 1, -1)

    def next(self) -> _Token:
        tok = self.next_tok
        self.next_tok = self._scan()
        return tok

    def peek(self) -> _Token:
        return self.next_tok

    def skip_symbol(self, c: str) -> bool:
        if self.next_tok.is_symbol(c):
            self.next_tok = self._scan()
            return True
        return False


class _TZ:
    def __init__(self) -> None:
        self.sign = _NONE
        self.hour = _NONE
        self.minute = _NONE

    def set(self, offset_hours: int) -> None:
        self.sign = -1 if offset_hours < 0 else 1
        self.hour = offset_hours * self.sign
        self.minute = 0

    def set_sign(self, sign: int) -> None:
        self.sign = -1 if sign < 0 else 1

    def is_expecting(self, n: int) -> bool:
        return self.hour != _NONE and self.minute == _NONE and _between(n, 0, 59)

    def is_utc(self) -> bool:
        return self.hour == 0 and self.minute == 0

    def is_empty(self) -> bool:
        return self.hour == _NONE

    def write(self) -> tuple[bool, int | None]:
        if self.sign == _NONE:
            return True, None
        hour = 0 if self.hour == _NONE else self.hour
        minute = 0 if self.minute == _NONE else self.minute
        # Unsigned 32-bit arithmetic, then the Smi range check (Node's 64-bit Smis hold 31 bits).
        total = (hour * 3600 + minute * 60) & 0xFFFFFFFF
        if total > 2**31 - 1:
            return False, None
        return True, (-total if self.sign < 0 else total)


class _Time:
    SIZE = 4

    def __init__(self) -> None:
        self.comp: list[int] = []
        self.hour_offset = _NONE

    def is_empty(self) -> bool:
        return not self.comp

    def is_expecting(self, n: int) -> bool:
        idx = len(self.comp)
        return (
            (idx == 1 and _between(n, 0, 59))
            or (idx == 2 and _between(n, 0, 59))
            or (idx == 3 and _between(n, 0, 999))
        )

    def add(self, n: int) -> bool:
        if len(self.comp) < self.SIZE:
            self.comp.append(n)
            return True
        return False

    def add_final(self, n: int) -> bool:
        if not self.add(n):
            return False
        while len(self.comp) < self.SIZE:
            self.comp.append(0)
        return True

    def write(self) -> tuple[int, int, int, int] | None:
        comp = self.comp + [0] * (self.SIZE - len(self.comp))
        hour, minute, second, ms = comp
        if self.hour_offset != _NONE:
            if not _between(hour, 0, 12):
                return None
            hour = hour % 12 + self.hour_offset
        if not (
            _between(hour, 0, 23)
            and _between(minute, 0, 59)
            and _between(second, 0, 59)
            and _between(ms, 0, 999)
        ) and not (hour == 24 and minute == 0 and second == 0 and ms == 0):
            return None
        return hour, minute, second, ms


class _Day:
    SIZE = 3

    def __init__(self) -> None:
        self.comp: list[int] = []
        self.named_month = _NONE
        self.is_iso = False

    def is_empty(self) -> bool:
        return not self.comp

    def add(self, n: int) -> bool:
        if len(self.comp) < self.SIZE:
            self.comp.append(n)
            return True
        return False

    def write(self) -> tuple[int, int, int] | None:
        if not self.comp:
            return None
        comp = self.comp + [1] * (self.SIZE - len(self.comp))
        is_day = lambda x: _between(x, 1, 31)  # noqa: E731
        year = 0  # KJS compatibility: a missing year means 2000 (after the 2-digit rule below)
        if self.named_month == _NONE:
            if self.is_iso or not is_day(comp[0]):
                year, month, day = comp
            else:
                month, day, year = comp
        else:
            month = self.named_month
            if not is_day(comp[0]):
                year, day = comp[0], comp[1]
            else:
                day, year = comp[0], comp[1]
        if not self.is_iso:
            if _between(year, 0, 49):
                year += 2000
            elif _between(year, 50, 99):
                year += 1900
        if not (_between(month, 1, 12) and is_day(day)):
            return None
        return year, month, day


def _read_ms(tok: _Token) -> int:
    number, length = tok.value, tok.length
    if length == 1:
        number *= 100
    elif length == 2:
        number *= 10
    elif length > 3:
        length = min(length, _MAX_SIGNIFICANT_DIGITS)
        number //= 10 ** (length - 3)
    return number


def _parse_es5(sc: _Scanner, day: _Day, tm: _Time, tz: _TZ) -> _Token:
    """V8 ParseES5DateTime: returns the next token for the legacy parser, END on success, INVALID."""
    invalid = _Token(_T_INVALID, 0, -1)
    if sc.peek().is_sign():
        sign_tok = sc.next()
        if not sc.peek().is_fixed_number(6):
            return sign_tok
        year = sc.next().value
        if sign_tok.sign() < 0 and year == 0:
            return sign_tok
        day.add(sign_tok.sign() * year)
    elif sc.peek().is_fixed_number(4):
        day.add(sc.next().value)
    else:
        return sc.next()
    if sc.skip_symbol("-"):
        if not sc.peek().is_fixed_number(2) or not _between(sc.peek().value, 1, 12):
            return sc.next()
        day.add(sc.next().value)
        if sc.skip_symbol("-"):
            if not sc.peek().is_fixed_number(2) or not _between(sc.peek().value, 1, 31):
                return sc.next()
            day.add(sc.next().value)
    if sc.peek().tag != _K_TSEP:
        if sc.peek().tag != _T_END:
            return sc.next()
    else:
        sc.next()
        if not sc.peek().is_fixed_number(2) or not _between(sc.peek().value, 0, 24):
            return invalid
        hour_is_24 = sc.peek().value == 24
        tm.add(sc.next().value)
        if not sc.skip_symbol(":"):
            return invalid
        if (
            not sc.peek().is_fixed_number(2)
            or not _between(sc.peek().value, 0, 59)
            or (hour_is_24 and sc.peek().value > 0)
        ):
            return invalid
        tm.add(sc.next().value)
        if sc.skip_symbol(":"):
            if (
                not sc.peek().is_fixed_number(2)
                or not _between(sc.peek().value, 0, 59)
                or (hour_is_24 and sc.peek().value > 0)
            ):
                return invalid
            tm.add(sc.next().value)
            if sc.skip_symbol("."):
                if not sc.peek().is_number() or (hour_is_24 and sc.peek().value > 0):
                    return invalid
                tm.add(_read_ms(sc.next()))
        if sc.peek().is_keyword_z():
            sc.next()
            tz.set(0)
        elif sc.peek().is_symbol("+") or sc.peek().is_symbol("-"):
            tz.set_sign(1 if sc.next().value == ord("+") else -1)
            if sc.peek().is_fixed_number(4):
                hourmin = sc.next().value
                hour, minute = divmod(hourmin, 100)
                if not (_between(hour, 0, 23) and _between(minute, 0, 59)):
                    return invalid
                tz.hour, tz.minute = hour, minute
            else:
                if not sc.peek().is_fixed_number(2) or not _between(sc.peek().value, 0, 23):
                    return invalid
                tz.hour = sc.next().value
                if not sc.skip_symbol(":"):
                    return invalid
                if not sc.peek().is_fixed_number(2) or not _between(sc.peek().value, 0, 59):
                    return invalid
                tz.minute = sc.next().value
        if sc.peek().tag != _T_END:
            return invalid
    if tz.is_empty() and tm.is_empty():
        tz.set(0)
    day.is_iso = True
    return _Token(_T_END, 0, -1)


def _v8_parse(s: str) -> tuple[int, int, int, int, int, int, int, int | None] | None:
    """V8 DateParser::Parse. Returns (year, month 1-12, day, h, m, s, ms, utc_offset_s|None)."""
    sc = _Scanner(s)
    tz = _TZ()
    tm = _Time()
    day = _Day()
    tok = _parse_es5(sc, day, tm, tz)
    if tok.tag == _T_INVALID:
        return None
    has_read_number = not day.is_empty()
    while tok.tag != _T_END:
        if tok.is_number():
            has_read_number = True
            n = tok.value
            if sc.skip_symbol(":"):
                if sc.skip_symbol(":"):
                    if not tm.is_empty():
                        return None
                    tm.add(n)
                    tm.add(0)
                else:
                    if not tm.add(n):
                        return None
                    if sc.peek().is_symbol("."):
                        sc.next()
            elif sc.skip_symbol(".") and tm.is_expecting(n):
                tm.add(n)
                if not sc.peek().is_number():
                    return None
                ms = _read_ms(sc.next())
                if ms < 0:
                    return None
                tm.add_final(ms)
            elif tz.is_expecting(n):
                tz.minute = n
            elif tm.is_expecting(n):
                tm.add_final(n)
                peek = sc.peek()
                if not (peek.tag == _T_END or peek.tag == _T_WS or peek.is_keyword_z() or peek.is_sign()):
                    return None
            else:
                if not day.add(n):
                    return None
                sc.skip_symbol("-")
        elif tok.is_keyword():
            ktype, value = tok.tag, tok.value
            if ktype == _K_AMPM and not tm.is_empty():
                tm.hour_offset = value
            elif ktype == _K_MONTH:
                day.named_month = value
                sc.skip_symbol("-")
            elif ktype == _K_TZ and has_read_number:
                tz.set(value)
            else:
                if has_read_number:
                    return None
                if sc.peek().is_number():
                    return None
        elif tok.is_sign() and (tz.is_utc() or not tm.is_empty()):
            tz.set_sign(tok.sign())
            n = 0
            length = 0
            if sc.peek().is_number():
                t2 = sc.next()
                length = t2.length
                n = t2.value
            has_read_number = True
            if sc.peek().is_symbol(":"):
                tz.hour = n
                tz.minute = _NONE
            elif length in (1, 2):
                tz.hour = n
                tz.minute = 0
            elif length in (3, 4):
                tz.hour, tz.minute = divmod(n, 100)
            else:
                return None
        elif (tok.is_sign() or tok.is_symbol(")")) and has_read_number:
            return None
        tok = sc.next()

    ymd = day.write()
    hms = tm.write()
    if ymd is None or hms is None:
        return None
    ok, offset = tz.write()
    if not ok:
        return None
    return (*ymd, *hms, offset)


_EPOCH_NAIVE = datetime(1970, 1, 1)
_CYCLE_DAYS = 146_097  # days in 400 Gregorian years (the calendar repeats exactly)


def _local_to_utc_ms(local_ms: int) -> int:
    """Interpret a wall-clock time (ms, as if UTC) in the process time zone, like V8's ``ToUTC``.

    A time in a spring-forward gap uses the offset before the transition (it moves forward) and an
    ambiguous time takes the earlier instant, which is what a naive ``datetime.timestamp()`` with
    ``fold=0`` does. Years far outside 1000-9000 are shifted by whole 400-year cycles first (the
    calendar and any rule-based daylight saving repeat) so the platform can compute the offset.
    """
    shift_days = 0
    year = _civil_from_days(local_ms // _DAY_MS)[0]
    if year < 1000:
        shift_days = ((1000 - year) // 400 + 1) * _CYCLE_DAYS
    elif year > 9000:
        shift_days = -((year - 9000) // 400 + 1) * _CYCLE_DAYS
    shifted = local_ms + shift_days * _DAY_MS
    secs, rem_ms = divmod(shifted, 1000)
    wall = _EPOCH_NAIVE + timedelta(seconds=secs)
    utc_secs = round(wall.timestamp())
    return utc_secs * 1000 + rem_ms - shift_days * _DAY_MS


def date_parse(value: Any) -> int | float | None:
    """``Date.parse`` as the reference agent applies it to time fields; ``None`` where JS gives NaN.

    * A finite ``int``/``float`` passes through unchanged (epoch ms as a JSON number; an integral
      float comes back as ``int``). ``bool``, ``None``, NaN, infinities and other types give ``None``.
    * A string is parsed by a port of V8's ``DateParser``: ISO date-only forms (``2026``,
      ``2026-06``, ``2026-06-15``) are UTC midnight; an ISO date-time without an offset is local time
      in the process time zone (``TZ``); ``Z`` and ``±HH:MM`` / ``±HHMM`` offsets are honoured. V8's
      lenient extras behave as on Node: lower-case ``t``/``z``, a space instead of ``T``, more than 3
      fraction digits (truncated), ``2026-02-30`` rolling over to 2 March, ``T24:00:00`` as the next
      day, legacy forms (``2026/06/15``, ``June 15, 2026``, ``2026-6-5``) read as local time, and a
      leading space switching to the legacy parser. A trailing space after an ISO time, ``T12``,
      ``+08``, a ``UTC`` suffix directly after an ISO time and numeric strings are NaN (``None``).
    """
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        d = float(value) if isinstance(value, float) else value
        if isinstance(d, float):
            if not math.isfinite(d):
                return None
            return int(d) if d.is_integer() else d
        return d
    if not isinstance(value, str):
        return None
    parsed = _v8_parse(value)
    if parsed is None:
        return None
    year, month, day, hh, mi, ss, ms, offset = parsed
    if not -1_000_000 <= year <= 1_000_000:
        return None
    days = _days_from_civil(year, month, 1) + day - 1
    local = days * _DAY_MS + hh * 3_600_000 + mi * 60_000 + ss * 1000 + ms
    if offset is None:
        if abs(local) > _MAX_TIME_BEFORE_UTC_MS:
            return None
        utc = _local_to_utc_ms(local)
    else:
        utc = local - offset * 1000
        if abs(utc) > MAX_TIME_MS:
            return None
    if abs(utc) > MAX_TIME_MS:
        return None
    return utc


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
