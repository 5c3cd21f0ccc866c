"""The columns of the facts table and what the filter bar asks for (Qt-free).

:class:`FactsQuery` is what the person chose (text, a column filter, superseded / forgotten shown);
:class:`FactsFilter` adds the namespace and compiles the column expression once
(:func:`compile_column_filter`: ``< 0.05``, ``>= 2026-05-01``, ``0.2 .. 0.8`` or plain text).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from philont_desktop.facts.data import OPTIONAL_TIMES, STATUSES

# Columns of the facts table.
# The decay columns come right after the value, so they are seen without scrolling.
(
    C_NAMESPACE,
    C_KEY,
    C_VALUE,
    C_SCORE,
    C_STATUS,
    C_CROSSES,
    C_TAU,
    C_TAU_SOURCE,
    C_CONFIDENCE,
    C_KIND,
    C_OCCURRED,
    C_VALID_FROM,
    C_VALID_UNTIL,
    C_CREATED,
    C_ACCESSED,
) = range(15)
N_COLUMNS = 15
TIME_COLUMNS = (C_OCCURRED, C_VALID_FROM, C_VALID_UNTIL, C_CREATED, C_ACCESSED, C_CROSSES)
NUMBER_COLUMNS = (C_CONFIDENCE, C_TAU, C_SCORE)
# data.py names these columns by number (it cannot import this module).
assert OPTIONAL_TIMES == {"occurred_at": C_OCCURRED, "valid_from": C_VALID_FROM, "valid_until": C_VALID_UNTIL}
#: Columns whose values move with the view time.
TIME_DEPENDENT = (C_SCORE, C_STATUS, C_CROSSES)

_STATUS_RANK = {s: i for i, s in enumerate(STATUSES)}
#: The value each column sorts and filters by (``None`` / NaN: empty, sorted last).
SORT_KEYS: dict[int, Callable[[Any], Any]] = {
    C_NAMESPACE: lambda r: r.fact.namespace,
    C_KEY: lambda r: r.fact.key,
    C_VALUE: lambda r: r.value_text,
    C_CONFIDENCE: lambda r: r.fact.confidence,
    C_KIND: lambda r: r.fact.fact_kind,
    C_OCCURRED: lambda r: r.fact.occurred_at,
    C_VALID_FROM: lambda r: r.fact.valid_from,
    C_VALID_UNTIL: lambda r: r.fact.valid_until,
    C_CREATED: lambda r: r.fact.created_at,
    C_ACCESSED: lambda r: r.fact.last_accessed_at,
    C_TAU: lambda r: r.tau_eff,
    C_TAU_SOURCE: lambda r: r.tau_src,
    C_SCORE: lambda r: r.score,
    C_CROSSES: lambda r: r.crossing,
    C_STATUS: lambda r: _STATUS_RANK[r.status],
}


# -- what the person asks for --------------------------------------------------------------------------


@dataclass(frozen=True)
class FactsQuery:
    """The filter bar's choice."""

    text: str = ""  # case-insensitive, over namespace.key and the value
    column: int | None = None  # column filter: None = none
    expr: str = ""
    show_superseded: bool = False
    show_forgotten: bool = False


@dataclass
class FactsFilter:
    namespace: str | None = None  # exact namespace or a parent of it ("project" → "project.x" too)
    text: str = ""  # casefolded
    column: int | None = None
    expr: str = ""
    show_superseded: bool = False
    show_forgotten: bool = False
    ids: frozenset[str] | None = None  # restrict to these ids (e.g. "selected in overview")
    _compiled: Callable[[Any, str], bool] | None = field(default=None, repr=False)

    def compile(self) -> None:
        self._compiled = compile_column_filter(self.column, self.expr) if self.column is not None else None

    @property
    def compiled(self) -> Callable[[Any, str], bool] | None:
        return self._compiled

    @property
    def time_dependent(self) -> bool:
        """Whether the filter looks at values that move with the view time (score, status, crossing)."""
        return self._compiled is not None and self.column in TIME_DEPENDENT


# -- column expressions ---------------------------------------------------------------------------------

_CMP_RE = re.compile(r"^\s*(<=|>=|!=|<|>|=)\s*(.+?)\s*$")
_RANGE_RE = re.compile(r"^\s*(.+?)\s*\.\.\s*(.+?)\s*$")


def parse_time(text: str) -> int | None:
    """``YYYY-MM-DD`` or ``YYYY-MM-DD HH:MM[:SS]`` (local time) → epoch ms; ``None`` if not a date."""
    text = text.strip().replace("T", " ")
    for f in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d"):
        try:
            return int(datetime.strptime(text, f).timestamp() * 1000)
        except ValueError:
            continue
    return None


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", "."))
    except ValueError:
        return None


def _isnan(v: Any) -> bool:
    return isinstance(v, float) and math.isnan(v)


def _converter(column: int) -> Callable[[str], float | None] | None:
    """How an expression's operand is read for ``column`` (``None``: the column is text)."""
    if column in TIME_COLUMNS:

        def as_time(s: str) -> float | None:
            t = parse_time(s)
            return float(t) if t is not None else None

        return as_time
    if column in NUMBER_COLUMNS:

        def as_number(s: str) -> float | None:
            s = s.strip()
            if s in ("∞", "inf", "infinity"):
                return math.inf
            return _number(s)

        return as_number
    return None


def _comparison(op: str, ref: float) -> Callable[[Any, str], bool]:
    def cmp(v: Any, _t: str) -> bool:
        if v is None or _isnan(v):
            return op == "!="
        return {
            "<": v < ref,
            ">": v > ref,
            "<=": v <= ref,
            ">=": v >= ref,
            "=": v == ref,
            "!=": v != ref,
        }[op]

    return cmp


def compile_column_filter(column: int, expr: str) -> Callable[[Any, str], bool] | None:
    """A predicate ``(sort_value, display_text) -> bool`` for ``expr`` on ``column``.

    Numbers and times accept ``< 0.05``, ``>= 2026-05-01``, ``0.2 .. 0.8``; every column accepts plain
    text (substring of what the cell shows, case-insensitive).
    """
    expr = expr.strip()
    if not expr:
        return None
    conv = _converter(column)
    if conv is not None:
        m = _RANGE_RE.match(expr)
        if m:
            lo, hi = conv(m.group(1)), conv(m.group(2))
            if lo is not None and hi is not None:
                return lambda v, _t: v is not None and not _isnan(v) and lo <= v <= hi
        m = _CMP_RE.match(expr)
        if m:
            ref = conv(m.group(2))
            if ref is not None:
                return _comparison(m.group(1), ref)
    needle = expr.casefold()
    return lambda _v, text: needle in text.casefold()
