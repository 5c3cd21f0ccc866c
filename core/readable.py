"""Stored JSON text in a form people read: the structure it holds, indented, with times as local dates.

Tool results, action parameters and tool messages are stored as JSON text (``{"result": "a\\nb"}``),
which reads badly as it is: escaped newlines and quotes, UTC ISO times, epoch milliseconds.
:func:`readable` parses such a text and lays the value out two spaces a level, one member a line:

- an object's members as ``key: value``, a list's items as ``- item``, nested values indented below;
- strings without quotes or escapes, a string of several lines as those lines, indented under its key;
- an ISO 8601 UTC time (``2026-06-15T02:00:00.000Z``, also inside a longer string) and a whole number of
  epoch milliseconds under a time-like key (``updatedAt``, ``created_at``, ``timestamp``) as a local date
  and time (``2026-06-15 10:00``);
- a long string, a long list and the whole text cut with ``…`` (``truncated`` says so: the stored text
  stays the full form, one click away in the app).

Control characters and direction overrides that JSON escapes (``\u001b``, ``\u202e``) are spelled
visibly in the readable form (:func:`core.visible.visible`), never unescaped into the text. A text
that is not JSON (damaged, plain output, JSON that nests too deep) is given back as it is, with
``is_json`` false. Qt-free, so the CLI and the app share it.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Any

from core.visible import visible

__all__ = ["Readable", "is_time_field", "local_time", "readable", "readable_line", "readable_value"]

INDENT = "  "
STRING_LIMIT = 4_000  # characters of one string
ITEMS_LIMIT = 200  # items of one list or members of one object
TEXT_LIMIT = 200_000  # characters of the whole readable form
DEPTH_LIMIT = 40  # levels laid out; a value nested deeper is shown compact on one line
ELLIPSIS = "…"

# 1e12 ms is 2001-09-09, 1e13 ms is 2286: whole numbers of milliseconds in that span are times.
_MS_MIN, _MS_MAX = 10**12, 10**13
_TIME_KEY = re.compile(r"(?:^|_)(?:at|time|timestamp|date)$|[a-z](?:At|Time|Date)$|^(?:at|ts|timestamp)$")
_ISO_UTC = re.compile(
    r"\b(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:Z|[+-]00:?00)(?![\w:])"
)


@dataclass(frozen=True)
class Readable:
    """The readable form of a stored text: ``text``; ``is_json`` when it was laid out from JSON;
    ``truncated`` when something was cut (the stored text is the full form)."""

    text: str
    is_json: bool
    truncated: bool = False


def local_time(ms: int | float, tz: tzinfo | None = None) -> str:
    """Epoch milliseconds as a local date and time (``2026-06-15 10:00``, seconds when not zero)."""
    at = datetime.fromtimestamp(ms / 1000, UTC).astimezone(tz)
    return at.strftime("%Y-%m-%d %H:%M" if at.second == 0 else "%Y-%m-%d %H:%M:%S")


def _iso_local(m: re.Match[str], tz: tzinfo | None) -> str:
    y, mo, d, h, mi, s = (int(g) if g else 0 for g in m.groups()[:6])
    try:
        return local_time(datetime(y, mo, d, h, mi, s, tzinfo=UTC).timestamp() * 1000, tz)
    except (ValueError, OverflowError, OSError):  # no such date, or one the platform cannot localise
        return m.group()


def is_time_field(key: str | None, value: Any) -> bool:
    """Whether ``value`` under ``key`` is a time in epoch milliseconds (``updatedAt``, ``created_at``)."""
    return _is_time_ms(key, value)


def _is_time_ms(key: str | None, value: Any) -> bool:
    if key is None or isinstance(value, bool) or not isinstance(value, int | float):
        return False
    if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
        return False
    return _MS_MIN <= value < _MS_MAX and bool(_TIME_KEY.search(key))


class _Writer:
    def __init__(self, tz: tzinfo | None):
        self.tz = tz
        self.lines: list[str] = []
        self.size = 0
        self.truncated = False

    def full(self) -> bool:
        return self.size >= TEXT_LIMIT

    def add(self, line: str) -> None:
        if self.full():
            self.truncated = True
            return
        self.lines.append(line)
        self.size += len(line) + 1

    def string(self, s: str) -> list[str]:
        if len(s) > STRING_LIMIT:
            s = s[:STRING_LIMIT] + ELLIPSIS
            self.truncated = True
        s = _ISO_UTC.sub(lambda m: _iso_local(m, self.tz), s)
        return visible(s.replace("\r\n", "\n")).split("\n")

    def scalar(self, key: str | None, value: Any) -> str:
        if value is None:
            return "null"
        if value is True or value is False:
            return "true" if value else "false"
        if _is_time_ms(key, value):
            return local_time(value, self.tz)
        if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
            return str(int(value))
        return str(value)

    def member(self, prefix: str, key: str | None, value: Any, depth: int) -> None:
        """``prefix`` (``key: `` or ``- ``) and the value at ``depth`` levels of indentation."""
        pad = INDENT * depth
        if isinstance(value, dict | list) and value:
            self.add(pad + prefix.rstrip())
            self.value(value, depth + 1, key)
        elif isinstance(value, dict | list):
            self.add(pad + prefix + ("{}" if isinstance(value, dict) else "[]"))
        elif isinstance(value, str):
            lines = self.string(value)
            if len(lines) == 1 or not prefix:  # one line, or a value of its own: no key to hang under
                self.add(pad + prefix + lines[0])
                for ln in lines[1:]:
                    self.add(pad + ln)
            else:
                self.add(pad + prefix.rstrip())
                for ln in lines:
                    self.add(pad + INDENT + ln)
        else:
            self.add(pad + prefix + self.scalar(key, value))

    def value(self, value: Any, depth: int, key: str | None = None) -> None:
        if depth > DEPTH_LIMIT and isinstance(value, dict | list):  # deeper still: compact, on one line
            try:
                text = json.dumps(value, ensure_ascii=False)
            except (ValueError, RecursionError):
                text = ELLIPSIS
            self.member("", key, text[:STRING_LIMIT], depth)
            self.truncated = self.truncated or len(text) > STRING_LIMIT
            return
        if isinstance(value, dict):
            items = list(value.items())
            for k, v in items[:ITEMS_LIMIT]:
                self.member(f"{visible(str(k), keep_newlines=False)}: ", str(k), v, depth)
            self._rest(len(items), depth)
        elif isinstance(value, list):
            for v in value[:ITEMS_LIMIT]:
                self.member("- ", key, v, depth)
            self._rest(len(value), depth)
        else:
            self.member("", key, value, depth)

    def _rest(self, n: int, depth: int) -> None:
        if n > ITEMS_LIMIT:
            self.truncated = True
            self.add(f"{INDENT * depth}{ELLIPSIS} (+{n - ITEMS_LIMIT})")


def readable_value(value: Any, tz: tzinfo | None = None) -> Readable:
    """A value already parsed from JSON, laid out as :func:`readable` lays out a text."""
    w = _Writer(tz)
    w.value(value, 0)
    text = "\n".join(w.lines)
    if w.full() and w.truncated:
        text += "\n" + ELLIPSIS
    return Readable(text, True, w.truncated)


def readable_line(value: Any, limit: int = 80, tz: tzinfo | None = None) -> str:
    """A parsed JSON value on one line, as :func:`readable` shows it on several
    (``content: My recipe "night"; tags: a, b``), cut at ``limit`` characters with ``…``."""
    w = _Writer(tz)

    def line(v: Any, key: str | None, depth: int) -> str:
        if isinstance(v, dict):
            inner = "; ".join(
                f"{visible(str(k))}: {line(x, str(k), depth + 1)}" for k, x in list(v.items())[:20]
            )
            return f"({inner})" if depth and inner else inner or "{}"
        if isinstance(v, list):
            return ", ".join(line(x, key, depth + 1) for x in v[:20]) or "[]"
        if isinstance(v, str):
            return " ".join(" ".join(w.string(v[: limit * 2])).split())
        return w.scalar(key, v)

    text = line(value, None, 0)
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def readable(text: str, tz: tzinfo | None = None) -> Readable:
    """The readable form of a stored text: JSON laid out as the module says; anything else as it is.
    ``tz`` is the time zone of the dates (the local one when ``None``)."""
    if not isinstance(text, str):
        return Readable("" if text is None else str(text), False)
    stripped = text.strip()
    if not stripped or stripped[0] not in '{["':
        return Readable(text, False)
    try:
        value = json.loads(stripped, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return Readable(text, False)
    return readable_value(value, tz)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")
