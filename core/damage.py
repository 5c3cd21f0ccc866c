"""Damaged values: the one policy for a stored value that is not what its column promises.

Memory files are months old, written by several agent versions and sometimes by hand or by other tools.
Nothing in SQLite stops a ``created_at`` from holding ``'yesterday'``, a ``content`` from holding bytes
that are not UTF-8 or a BLOB, a NOT NULL column from holding NULL (after a schema edited by hand) or a
JSON column from holding text nested 100,000 levels deep. One damaged value costs one value: never its
row, its neighbours or its layer.

* **Text that is not valid UTF-8.** Every connection decodes TEXT with :func:`decode_text` (the
  connection's text factory, set in :mod:`core.db`). Valid text is a plain ``str``. Anything else is an
  :class:`UnreadableText`: a ``str`` with what the agent reads (each invalid sequence replaced by
  U+FFFD, as the reference's SQLite binding does) whose ``raw`` attribute keeps the stored bytes, so
  that they can be shown in hex on demand. Code that only needs text never sees an exception or a lone
  surrogate.
* **Row values.** The row models (:mod:`core.models`) read each column through a :class:`RowReader`. It
  returns a value of the column's kind that every caller can sort, compute with and print, and records
  a :class:`Damage` for each value that is not what the column normally holds:

  ============== =============================================================================
  problem        value read instead
  ============== =============================================================================
  not_utf8       the text with U+FFFD (``Damage.raw``: the stored bytes)
  blob           a BLOB in a text column: its bytes decoded as UTF-8 with U+FFFD; elsewhere as missing
  missing        NULL in a NOT NULL column: ``''``, 0, NaN or the column's default
  not_text       a number in a text column: the number as JavaScript prints it
  not_a_number   text in a number column: the number it spells, else NaN (0 for a counter)
  non_finite     NaN or an infinity in a number column: kept as is
  not_a_time     text or another kind in a time column: the time it spells, else missing
  out_of_range   a time beyond what a JavaScript Date holds (±8.64e15 ms), a counter beyond 2**53, a
                 JSON number beyond the range of a double (read as Infinity, as JavaScript does)
  invalid_json   text that is not JSON (``NaN``/``Infinity`` are not JSON either): kept as text
  too_deep       JSON nested deeper than :data:`MAX_JSON_DEPTH` levels: kept as text
  wrong_type     JSON of the wrong shape (``trigger_keywords`` that is not an array, ...)
  ============== =============================================================================

  A time read from anything but a plain integer is a :class:`StoredTime`: an ``int`` (0 where the
  column is NOT NULL and nothing readable is there) that remembers the stored value, so that keyset
  pages (``WHERE timestamp < ?``) compare what SQLite compares and never skip or repeat a row.

Each :class:`Damage` carries a code (``value.<problem>``), parameters and an English message, and the
rows' JSON form reports them in ``damaged`` beside ``jsonErrors``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from core.errors import Notice

#: The largest magnitude of a JavaScript ``Date`` (ms): ``new Date(x)`` beyond it is invalid.
JS_TIME_MAX = 8_640_000_000_000_000
#: Counters beyond this lose precision as JavaScript numbers (and overflow a Qt int).
SAFE_INTEGER = 2**53
#: JSON values nested deeper than this are not parsed (the reference's ``JSON.stringify`` and every
#: recursive reader would overflow its stack on them).
MAX_JSON_DEPTH = 256
#: How many bytes of a damaged value ``to_json`` spells in hex (the whole value is in ``Damage.raw``).
HEX_JSON_LIMIT = 4096


class UnreadableText(str):
    """Text stored as bytes that are not valid UTF-8.

    The string is what the agent reads: each invalid sequence replaced by U+FFFD. ``raw`` holds the
    bytes as stored.
    """

    raw: bytes

    def __new__(cls, raw: bytes) -> UnreadableText:
        s = super().__new__(cls, raw.decode("utf-8", "replace"))
        s.raw = raw
        return s


def decode_text(data: bytes) -> str:
    """The text factory of every connection: UTF-8, or an :class:`UnreadableText` for other bytes."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return UnreadableText(data)


class StoredTime(int):
    """A time column read from a value that is not a plain epoch-ms integer.

    The integer is the time used for display and arithmetic (0 when nothing readable is stored);
    ``stored`` is the value as SQLite holds it (a float, a text, bytes or ``None``), which keyset
    conditions compare with (see :func:`sql_key`).
    """

    stored: Any
    readable: bool  # False: nothing readable is stored (the int is 0); shown as unreadable

    def __new__(cls, value: int, stored: Any, readable: bool = True) -> StoredTime:
        t = super().__new__(cls, value)
        t.stored = stored
        t.readable = readable
        return t


def as_text(value: Any) -> str:
    """A stored value read by an aggregate (a name in a GROUP BY, a distinct value) as text to show:
    text as it is, a BLOB decoded as UTF-8 with U+FFFD, NULL as ``''``, a number as JavaScript prints it."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).decode("utf-8", "replace")
    if isinstance(value, int | float) and not isinstance(value, bool):
        return _number_text(value)
    return str(value)


def unreadable_time(value: Any) -> bool:
    """Whether ``value`` is a time column read from something that is no time (shown as unreadable)."""
    return isinstance(value, StoredTime) and not value.readable


def sql_key(value: Any) -> Any:
    """What to compare a time column with in SQL: the stored value of a :class:`StoredTime`."""
    if isinstance(value, StoredTime):
        return value.stored
    return value


def keyset_sql(time_col: str, id_col: str, key: Any, *, before: bool) -> tuple[str, list[Any]]:
    """The condition "strictly before/after ``key`` in ``(time, id)`` order" on the stored values.

    ``key`` is ``(time, id)`` of a row as read; a :class:`StoredTime` contributes the value SQLite
    holds, so that a row whose time is text, a BLOB or a fraction is neither skipped nor repeated by
    the next page. A NULL time (possible only where a schema was edited by hand) sorts first.
    """
    t, i = sql_key(key[0]), key[1]
    if t is None:
        if before:
            return f"{time_col} IS NULL AND {id_col} < ?", [i]
        return f"({time_col} IS NOT NULL OR {id_col} > ?)", [i]
    if before:
        return f"{time_col} <= ? AND ({time_col} < ? OR {id_col} < ?)", [t, t, i]
    return f"{time_col} >= ? AND ({time_col} > ? OR {id_col} > ?)", [t, t, i]


@dataclass(frozen=True, eq=False)
class Damage:
    """One value that could not be read as its column promises (see the module docstring)."""

    column: str
    problem: str
    message: str
    raw: bytes | None = None  # the stored bytes of a non-UTF-8 text or a BLOB
    stored: Any = None  # the stored value of any other kind (text, number)
    unreadable: bool = False  # nothing readable is stored: the JSON form says null for the value

    @property
    def code(self) -> str:
        return f"value.{self.problem}"

    @property
    def params(self) -> dict[str, Any]:
        p: dict[str, Any] = {"column": self.column}
        if self.raw is not None:
            p["bytes"] = len(self.raw)
        elif self.stored is not None:
            p["stored"] = _short(self.stored)
        return p

    def hex(self, limit: int | None = None) -> str:
        """The stored bytes in hex (``limit`` bytes at most), ``''`` when the value was not bytes."""
        if self.raw is None:
            return ""
        data = self.raw if limit is None else self.raw[:limit]
        return data.hex()

    def notice(self) -> Notice:
        return Notice(self.code, self.message, self.params)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"column": self.column, "problem": self.problem, "message": self.message}
        if self.raw is not None:
            out["bytes"] = len(self.raw)
            out["hex"] = self.hex(HEX_JSON_LIMIT)
            if len(self.raw) > HEX_JSON_LIMIT:
                out["hexTruncated"] = True
        elif self.stored is not None:
            out["stored"] = _json_stored(self.stored)
        return out


def _short(v: Any, n: int = 80) -> Any:
    if isinstance(v, str):
        return v if len(v) <= n else v[: n - 1] + "…"
    if isinstance(v, float) and not math.isfinite(v):
        return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")
    return v


def _json_stored(v: Any) -> Any:
    if isinstance(v, str):
        return _short(v, 200)
    return _short(v)


def _describe(v: Any) -> str:
    if isinstance(v, str):
        s = _short(v, 40)
        return f"the text {s!r}"
    if isinstance(v, float) and not math.isfinite(v):
        return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")
    return f"the number {v!r}"


# -- JSON ---------------------------------------------------------------------------------------------------


class _OutOfRange(Exception):
    pass


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _checked_float(text: str) -> float:
    x = float(text)
    if math.isinf(x):
        raise _OutOfRange(text)
    return x


_JSON_STRUCTURE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


def json_depth_exceeds(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether the brackets of ``text`` (outside strings) nest deeper than ``limit``."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for m in _JSON_STRUCTURE.finditer(text):
        c = m.group(0)[0]
        if c in "[{":
            depth += 1
            if depth > limit:
                return True
        elif c in "]}":
            depth -= 1
    return False


def loads_json(text: str) -> tuple[Any, str | None, str | None]:
    """``(value, problem, message)``: ``text`` parsed as JavaScript's ``JSON.parse`` reads it.

    ``problem`` is ``None`` for good JSON, else ``invalid_json`` (``NaN``/``Infinity`` included, which
    Python alone would accept), ``too_deep`` or ``out_of_range`` (a number beyond a double: the value is
    still returned, with that number as an infinity, as JavaScript reads it).
    """
    if json_depth_exceeds(text):
        return None, "too_deep", f"JSON nested more than {MAX_JSON_DEPTH} levels deep"
    try:
        return json.loads(text, parse_constant=_reject_constant, parse_float=_checked_float), None, None
    except _OutOfRange as exc:
        value = json.loads(text, parse_constant=_reject_constant)
        return value, "out_of_range", f"the number {exc} is beyond the range of a double (read as Infinity)"
    except RecursionError:
        return None, "too_deep", f"JSON nested more than {MAX_JSON_DEPTH} levels deep"
    except (ValueError, TypeError) as exc:
        return None, "invalid_json", f"invalid JSON: {exc}"


# -- reading the columns of a row ----------------------------------------------------------------------------

_ABSENT = object()


def _number_text(v: Any) -> str:
    from core.jsutil import js_number_str

    return js_number_str(v)


def _float_of(text: str) -> float:
    try:
        return float(text.strip())
    except ValueError:
        return math.nan


class RowReader:
    """Typed access to the columns of one ``sqlite3.Row`` (or mapping) that never fails.

    Each reader returns a usable value and records a :class:`Damage` in :attr:`damaged` (keyed by
    column) for a value that is not what its column holds normally. A column the table does not have
    (an additive column of an older schema) reads as its default without damage.
    """

    __slots__ = ("damaged", "row")

    def __init__(self, row: Any):
        self.row = row
        self.damaged: dict[str, Damage] = {}

    def raw(self, col: str) -> Any:
        try:
            return self.row[col]
        except (IndexError, KeyError):
            return _ABSENT

    def has(self, col: str) -> bool:
        return self.raw(col) is not _ABSENT

    def _damage(
        self,
        col: str,
        problem: str,
        message: str,
        *,
        raw: bytes | None = None,
        stored: Any = None,
        unreadable: bool = False,
    ) -> None:
        self.damaged[col] = Damage(col, problem, f"{col}: {message}", raw, stored, unreadable)

    # -- text ----------------------------------------------------------------------------------------------
    def text(self, col: str, *, null_ok: bool = False, default: str = "") -> Any:
        """A text column; ``null_ok`` for nullable columns (NULL is ``None`` then, else damage)."""
        v = self.raw(col)
        if type(v) is str:
            return v
        if v is _ABSENT:
            return None if null_ok else default
        return self._odd_text(col, v, null_ok, default)

    def _odd_text(self, col: str, v: Any, null_ok: bool, default: str) -> Any:
        if isinstance(v, UnreadableText):
            self._damage(
                col,
                "not_utf8",
                f"text that is not valid UTF-8 ({len(v.raw)} bytes; unreadable bytes shown as U+FFFD)",
                raw=v.raw,
            )
            return v
        if isinstance(v, str):
            return str(v)
        if v is None:
            if null_ok:
                return None
            self._damage(col, "missing", "NULL in a column that must have a value", unreadable=True)
            return default
        if isinstance(v, bytes | bytearray | memoryview):
            b = bytes(v)
            self._damage(col, "blob", f"binary data (a BLOB of {len(b)} bytes) where text belongs", raw=b)
            return b.decode("utf-8", "replace")
        if isinstance(v, int | float):
            self._damage(col, "not_text", f"{_describe(v)} where text belongs", stored=v)
            return _number_text(v)
        self._damage(col, "not_text", f"a value of type {type(v).__name__} where text belongs")
        return default

    # -- times ---------------------------------------------------------------------------------------------
    def time(self, col: str, *, required: bool = False) -> Any:
        """An epoch-ms column as an int (see :class:`StoredTime`); ``None`` or 0 when unreadable."""
        v = self.raw(col)
        if type(v) is int and -JS_TIME_MAX <= v <= JS_TIME_MAX:
            return v
        if v is _ABSENT or (v is None and not required):
            return None
        return self._odd_time(col, v, required)

    def _odd_time(self, col: str, v: Any, required: bool) -> Any:
        unreadable = StoredTime(0, v, readable=False) if required else None
        if v is None:
            self._damage(col, "missing", "NULL in a column that must have a time", unreadable=True)
            return unreadable
        if isinstance(v, bytes | bytearray | memoryview):
            b = bytes(v)
            msg = f"binary data (a BLOB of {len(b)} bytes) where a time belongs"
            self._damage(col, "not_a_time", msg, raw=b, unreadable=True)
            return StoredTime(0, b, readable=False) if required else None
        if isinstance(v, UnreadableText):
            msg = "text that is not valid UTF-8 where a time belongs"
            self._damage(col, "not_a_time", msg, raw=v.raw, unreadable=True)
            return unreadable
        x: Any = v
        if isinstance(v, str):
            x = _float_of(v)
        if isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x):
            if -JS_TIME_MAX <= x <= JS_TIME_MAX:
                t = StoredTime(int(x), v)
                if isinstance(v, str):
                    self._damage(
                        col, "not_a_time", f"{_describe(v)} where a time (epoch ms) belongs", stored=v
                    )
                return t
            msg = f"a time of {_describe(v)} ms, beyond what a date can hold (±8.64e15 ms)"
            self._damage(col, "out_of_range", msg, stored=v, unreadable=True)
            return unreadable
        msg = f"{_describe(v)} where a time (epoch ms) belongs"
        self._damage(col, "not_a_time", msg, stored=v, unreadable=True)
        return unreadable

    # -- numbers -------------------------------------------------------------------------------------------
    def real(self, col: str, *, required: bool = False, default: Any = None) -> Any:
        """A REAL column: numbers as stored; text as the number it spells (else NaN), with damage."""
        v = self.raw(col)
        t = type(v)
        if (t is float and math.isfinite(v)) or t is int:
            return v
        if v is _ABSENT:
            return default
        if v is None:
            if not required:
                return None
            self._damage(col, "missing", "NULL in a column that must have a number", unreadable=True)
            return math.nan if default is None else default
        if t is float:
            self._damage(col, "non_finite", f"{_describe(v)} where a finite number belongs", stored=v)
            return v
        if isinstance(v, bytes | bytearray | memoryview):
            b = bytes(v)
            self._damage(
                col, "not_a_number", f"binary data (a BLOB of {len(b)} bytes) where a number belongs", raw=b
            )
            return math.nan
        if isinstance(v, UnreadableText):
            self._damage(
                col, "not_a_number", "text that is not valid UTF-8 where a number belongs", raw=v.raw
            )
            return math.nan
        if isinstance(v, str):
            self._damage(col, "not_a_number", f"{_describe(v)} where a number belongs", stored=v)
            return _float_of(v)
        self._damage(col, "not_a_number", f"a value of type {type(v).__name__} where a number belongs")
        return math.nan

    def count(self, col: str, *, default: int = 0) -> Any:
        """A counter (INTEGER NOT NULL DEFAULT 0): numbers as stored; anything unreadable ``default``."""
        v = self.raw(col)
        if type(v) is int and -SAFE_INTEGER <= v <= SAFE_INTEGER:
            return v
        if v is _ABSENT:
            return default
        if v is None:
            self._damage(col, "missing", "NULL in a column that must have a number", unreadable=True)
            return default
        x: Any = v
        if isinstance(v, str) and not isinstance(v, UnreadableText):
            x = _float_of(v)
            if not math.isnan(x):
                self._damage(col, "not_a_number", f"{_describe(v)} where a number belongs", stored=v)
        if isinstance(x, int | float) and math.isfinite(x):
            if -SAFE_INTEGER <= x <= SAFE_INTEGER:
                return int(x) if isinstance(x, float) and x.is_integer() else x
            msg = f"{_describe(v)}, beyond what a counter can hold"
            self._damage(col, "out_of_range", msg, stored=v, unreadable=True)
            return default
        if isinstance(v, bytes | bytearray | memoryview):
            b = bytes(v)
            msg = f"binary data (a BLOB of {len(b)} bytes) where a number belongs"
            self._damage(col, "not_a_number", msg, raw=b, unreadable=True)
        elif isinstance(v, UnreadableText):
            msg = "text that is not valid UTF-8 where a number belongs"
            self._damage(col, "not_a_number", msg, raw=v.raw, unreadable=True)
        else:
            msg = f"{_describe(v)} where a number belongs"
            self._damage(col, "not_a_number", msg, stored=v, unreadable=True)
        return default

    def flag(self, col: str, *, default: bool) -> bool:
        """A 0/1 column: any number as its truth value; NULL, text and blobs ``default``, with damage."""
        v = self.raw(col)
        if type(v) is int:
            return v != 0
        if v is _ABSENT:
            return default
        if isinstance(v, float):
            return not (v == 0 or math.isnan(v))
        if v is None:
            self._damage(col, "missing", "NULL in a column that must be 0 or 1")
        elif isinstance(v, bytes | bytearray | memoryview):
            b = bytes(v)
            self._damage(
                col, "not_a_number", f"binary data (a BLOB of {len(b)} bytes) where 0 or 1 belongs", raw=b
            )
        elif isinstance(v, UnreadableText):
            self._damage(col, "not_a_number", "text that is not valid UTF-8 where 0 or 1 belongs", raw=v.raw)
        else:
            self._damage(col, "not_a_number", f"{_describe(v)} where 0 or 1 belongs", stored=v)
        return default

    # -- JSON ----------------------------------------------------------------------------------------------
    def json(self, col: str, *, null_ok: bool = False) -> tuple[Any, Any, str | None]:
        """``(text, value, error)`` of a JSON column: the stored text (``None`` for NULL where allowed),
        the parsed value (``None`` when it does not parse) and the ``jsonErrors`` entry, if any.

        Where NULL is allowed (``null_ok``), so is the empty text: both read as no value."""
        text = self.text(col, null_ok=null_ok)
        if text is None or (null_ok and text == ""):
            return text, None, None
        if col in self.damaged and self.damaged[col].problem == "missing":
            return text, None, f"{col}: NULL instead of JSON"
        value, problem, message = loads_json(text)
        if problem is None:
            return text, value, None
        if problem == "out_of_range":
            self.damaged.setdefault(col, Damage(col, problem, f"{col}: {message}"))
            return text, value, None
        if col not in self.damaged:
            self._damage(col, problem, message or "invalid JSON")
        return (
            text,
            None,
            f"{col}: {message if problem == 'invalid_json' else 'invalid JSON: ' + str(message)}",
        )

    def wrong_type(self, col: str, message: str) -> None:
        """Record that a column's JSON has the wrong shape (e.g. not an array)."""
        if col not in self.damaged:
            self._damage(col, "wrong_type", message)


def damage_json(damaged: Mapping[str, Damage], to_key: Any = None) -> dict[str, Any]:
    """The ``damaged`` member of a row's JSON form: ``{key: Damage.to_json()}``."""
    conv = to_key or (lambda k: k)
    return {conv(k): d.to_json() for k, d in damaged.items()}


# -- what the agent makes of a damaged row (the context preview's notes) -------------------------------------

_AGENT_CANNOT_READ = frozenset({"invalid_json", "too_deep", "wrong_type"})


def row_notice(layer: str, row_id: Any, label: str, section: str, damaged: Mapping[str, Damage]) -> Notice:
    """A note for a damaged row that reaches the agent's context, saying what the agent makes of it.

    ``context.row.agent_cannot_read``: JSON the agent's own ``JSON.parse``/``JSON.stringify`` fail on
    (its listing of that layer fails on this row); ``context.row.replacement_chars``: text that is not
    UTF-8, which the agent reads with U+FFFD as shown; ``context.row.damaged``: other damage (NULL, a BLOB,
    a wrong type), which the agent reads as stored, so what it does with it may differ from what is
    shown. Parameters: ``layer``, ``id``, ``label``, ``section``, ``columns`` (comma-separated) and
    ``detail`` (the damage messages).
    """
    problems = {d.problem for d in damaged.values()}
    columns = ", ".join(damaged)
    detail = "; ".join(d.message for d in damaged.values())
    params = {"layer": layer, "id": row_id, "label": label, "section": section, "columns": columns,
              "detail": detail}  # fmt: skip
    if problems & _AGENT_CANNOT_READ:
        return Notice(
            "context.row.agent_cannot_read",
            f"The agent cannot read {label} ({detail}): its own reading of this layer fails on this row. "
            "Shown here as stored.",
            params,
        )
    if problems == {"not_utf8"}:
        return Notice(
            "context.row.replacement_chars",
            f"{label}: {columns} holds bytes that are not UTF-8; the agent reads them as U+FFFD (�), as "
            "shown here.",
            params,
        )
    return Notice(
        "context.row.damaged",
        f"{label} has damaged values ({detail}); the agent reads them as stored, so what it makes of "
        "this row can differ from what is shown here.",
        params,
    )


__all__ = [
    "HEX_JSON_LIMIT",
    "JS_TIME_MAX",
    "MAX_JSON_DEPTH",
    "SAFE_INTEGER",
    "Damage",
    "RowReader",
    "StoredTime",
    "UnreadableText",
    "as_text",
    "damage_json",
    "decode_text",
    "json_depth_exceeds",
    "keyset_sql",
    "loads_json",
    "row_notice",
    "sql_key",
    "unreadable_time",
]
