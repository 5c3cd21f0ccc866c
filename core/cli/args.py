"""Argument types every command may use: times, bounded integers, finite numbers, typed text."""

from __future__ import annotations

import argparse
import math
import os
import re
from collections.abc import Callable
from typing import Any

from core.cli.output import LONE_SURROGATE, UsageError
from core.jsutil import date_parse

_INT_RE = re.compile(r"[+-]?\d+")

#: The largest count a limit, budget or size takes on the command line (beyond it: a usage error).
MAX_COUNT = 1_000_000_000
#: The largest number of messages ``demo`` generates (the benchmark uses a million).
MAX_DEMO_MESSAGES = 10_000_000
#: Times given on the command line: years 0000 to 9999 (epoch ms).
TIME_MIN = -62_167_219_200_000  # 0000-01-01T00:00:00.000Z
TIME_MAX = 253_402_300_799_999  # 9999-12-31T23:59:59.999Z


def parse_time(text: str, what: str = "time") -> int:
    """An ISO 8601 time (reference ``Date.parse`` rules) or epoch milliseconds, as epoch ms; a time
    outside the years 0000 to 9999 is a usage error."""
    s = text.strip()
    if _INT_RE.fullmatch(s):
        value: Any = int(s)
    else:
        value = date_parse(s)
        if value is None or not isinstance(value, int | float) or not math.isfinite(value):
            raise UsageError(f"{what}: not an ISO 8601 time or epoch milliseconds: {text!r}")
    if not TIME_MIN <= value <= TIME_MAX:
        raise UsageError(
            f"{what}: {text!r} is outside the years 0000 to 9999 "
            f"(epoch milliseconds from {TIME_MIN} to {TIME_MAX})"
        )
    return int(value)


def optional_time(text: str | None, what: str) -> int | None:
    """:func:`parse_time` of an option that may be absent (``None`` stays ``None``)."""
    return None if text is None else parse_time(text, what)


def int_in(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: an integer from ``lo`` to ``hi`` (``not an integer`` / ``must be ...``)."""

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
        if n < lo:
            raise argparse.ArgumentTypeError(
                f"must be at least {lo}: {text!r}" if lo > 0 else f"must not be negative: {text!r}"
            )
        if n > hi:
            raise argparse.ArgumentTypeError(f"must be at most {hi}: {text!r}")
        return n

    return parse


positive_int = int_in(1, MAX_COUNT)
non_negative_int = int_in(0, MAX_COUNT)
audit_id = int_in(1, 2**63 - 1)
demo_messages = int_in(0, MAX_DEMO_MESSAGES)
seed = int_in(-(2**63), 2**63 - 1)


def finite_float(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(x):
        raise argparse.ArgumentTypeError(f"not a finite number: {text!r}")
    return x


def arg_text(text: str) -> str:
    """A text argument (a query, a message, a namespace) as it was typed.

    Where the locale's encoding cannot decode the argument's bytes (``LANG=C`` with UTF-8 mode off),
    Python hands them over as lone surrogates (``surrogateescape``): ``数据库`` arrives as nine of them
    and would match nothing. Bytes that are UTF-8 are decoded back as UTF-8; other bytes stay lone
    surrogates (searched as they are, never an error). Paths are never passed through this: the file
    system wants their bytes.
    """
    if not LONE_SURROGATE.search(text):
        return text
    try:
        return os.fsencode(text).decode("utf-8")
    except UnicodeError:
        return text
