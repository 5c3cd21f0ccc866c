"""What every command shares for printing and failing: the text/JSON writer, the errors that end a
command with an exit status, and the small formatters of times, numbers and damaged rows."""

from __future__ import annotations

import json
import math
import re
import sys
import unicodedata
from collections.abc import Callable
from json.encoder import encode_basestring, encode_basestring_ascii
from typing import Any

from core.jsutil import iso_ms, json_safe
from core.visible import visible

PROG = "philont-memory"

#: A lone surrogate: an argument whose bytes the locale could not decode (see :func:`core.cli.args.arg_text`).
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class UsageError(Exception):
    """A bad command line: exit status 2."""


class Exit(Exception):
    """argparse is done (``--help``, ``--version``): exit with ``status``."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


class CommandError(Exception):
    """A command that ran and failed (its output may already be printed): exit status 1 by default."""

    def __init__(self, message: str, status: int = 1):
        super().__init__(message)
        self.status = status


class Out:
    """Where a command prints: JSON (``--json``) or text."""

    def __init__(self, as_json: bool):
        self.as_json = as_json
        enc = (getattr(sys.stdout, "encoding", None) or "utf-8").lower().replace("_", "-")
        self._ascii = enc not in ("utf-8", "utf8", "utf-16", "utf-32")

    def json(self, value: Any) -> None:
        self._write(self._dumps(value) + "\n")

    def json_open_list(self, head: dict[str, Any], key: str) -> None:
        """The start of ``{**head, key: [...]}`` as :meth:`json` prints it, up to the list's ``[``."""
        text = self._dumps(head)
        self._write(("{" if text == "{}" else text[:-2] + ",") + f"\n  {self._dumps(key)}: [")

    def json_item_text(self, item: Any) -> str:
        """One item of that list as :meth:`json` prints it (written with :meth:`write_json_text`, after
        ``"\\n"`` for the first, ``",\\n"`` for the others)."""
        return "\n".join("    " + line for line in self._dumps(item).split("\n"))

    def write_json_text(self, text: str) -> None:
        self._write(text)

    def json_close_list(self, items: int) -> None:
        """The end of that object, after ``items`` items."""
        self._write(("\n  ]" if items else "]") + "\n}\n")

    def _dumps(self, value: Any) -> str:
        return indented_json(value, self._ascii)

    def _write(self, text: str) -> None:
        # A lone surrogate (an argument that is not UTF-8) is written as JSON.stringify writes it.
        sys.stdout.write(LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text))

    def text(self, text: str = "") -> None:
        """One line (or several) of plain output: stored text in it has its control characters and
        direction overrides made visible (:func:`core.visible.visible`)."""
        text = visible(text)
        if self._ascii:
            enc = getattr(sys.stdout, "encoding", None) or "ascii"
            text = text.encode(enc, "replace").decode(enc, "replace")
        sys.stdout.write(text + "\n")


class _Unusual(Exception):
    """A value :func:`indented_json` leaves to ``json.dumps``."""


def indented_json(value: Any, ensure_ascii: bool = False) -> str:
    """``json.dumps(json_safe(value), ensure_ascii=…, indent=2)``, the same text, made faster: with
    ``indent`` the standard library encodes in Python, one call per value, and a replay's turns are
    mostly long lists of ids. Objects and lists are laid out here, strings by the C encoder; a
    non-finite float is ``null`` (:func:`core.jsutil.json_safe`); a value of another kind (a key that is
    not a string, a tuple, a subclass) is left to ``json.dumps`` whole."""
    try:
        return _indented(value, "\n", encode_basestring_ascii if ensure_ascii else encode_basestring)
    except _Unusual:
        return json.dumps(json_safe(value), ensure_ascii=ensure_ascii, indent=2)


def _indented(v: Any, pad: str, esc: Callable[[str], str]) -> str:
    t = type(v)
    if t is str:
        return esc(v)
    if t is int:
        return int.__repr__(v)
    if t is dict:
        if not v:
            return "{}"
        inner = pad + "  "
        parts = []
        for k, x in v.items():
            if type(k) is not str:
                raise _Unusual
            parts.append(f"{esc(k)}: {_indented(x, inner, esc)}")
        return "{" + inner + ("," + inner).join(parts) + pad + "}"
    if t is list:
        if not v:
            return "[]"
        inner = pad + "  "
        if all(type(x) is int for x in v):
            return "[" + inner + ("," + inner).join(map(int.__repr__, v)) + pad + "]"
        return "[" + inner + ("," + inner).join([_indented(x, inner, esc) for x in v]) + pad + "]"
    if v is None:
        return "null"
    if t is bool:
        return "true" if v else "false"
    if t is float:
        return float.__repr__(v) if math.isfinite(v) else "null"
    raise _Unusual


def one_line(text: str) -> str:
    return " ".join(str(text).split()) or "unknown error"


def control_escaped(text: str) -> str:
    """Control characters of stored text shown as ``\\xNN`` / ``\\uNNNN`` (one line, never a terminal
    escape)."""
    out = []
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") and ch not in "\u200d":
            out.append(f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)


def damage_note(row: dict[str, Any]) -> str:
    """`` ⚠ <what is unreadable>`` for a row's JSON form with ``damaged`` entries, else ``''``."""
    damaged = row.get("damaged") or {}
    if not damaged:
        return ""
    parts = []
    for d in damaged.values():
        part = d["message"]
        if d.get("hex") is not None:
            hx = d["hex"]
            part += f" [hex {hx[:64]}{'…' if len(hx) > 64 or d.get('hexTruncated') else ''}]"
        parts.append(part)
    return "  ⚠ unreadable: " + "; ".join(parts)


def iso(ms: int | float | None) -> str:
    if ms is None:
        return "-"
    try:
        return iso_ms(ms)
    except (ValueError, OverflowError):
        return str(ms)


def fmt_num(x: float | None) -> str:
    if x is None:
        return "-"
    if isinstance(x, float) and math.isnan(x):
        return "NaN"
    if isinstance(x, float) and math.isinf(x):
        return "∞"
    return f"{x:.4g}" if isinstance(x, float) else str(x)


def fmt_score(x: float | None) -> str:
    """A decay score for people: three decimals (``0.781``), ``<0.001`` for a tiny positive one (never
    ``3.593e-13``); ``--json`` keeps the exact value."""
    if x is None or not isinstance(x, int | float) or not math.isfinite(x):
        return fmt_num(x)
    if 0 < abs(x) < 0.0005:
        return "<0.001" if x > 0 else ">-0.001"
    return f"{x:.3f}"


def first_line(text: str | None, width: int = 100) -> str:
    if text is None:
        return "(missing)"
    line = text.split("\n", 1)[0]
    return line if len(line) <= width else line[: width - 1] + "…"
