"""What a search gives back: pages of hits with the spans to highlight, the notice of a search that
could not run, and how the spans of a query are found in a message's text."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from core.errors import MemoryError_, Notice
from core.jsutil import js_split_ws
from core.models import Message
from core.search.sql import Keyset

SearchMode = Literal["fts", "like", "empty"]


class SearchHit(BaseModel):
    """One search result with the spans to highlight (``[start, end)`` in Python ``str`` indices)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    message: Message
    match_spans: list[tuple[int, int]] = Field(default_factory=list)


class SearchPage(BaseModel):
    """A page of search results for the GUI. ``next_before`` is the keyset of the next page."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    query: str
    safe: str
    mode: SearchMode
    hits: list[SearchHit] = Field(default_factory=list)
    next_before: Keyset | None = None
    error: str | None = None
    #: :attr:`error` with its code and parameters (what the GUI translates): see :func:`search_failure`.
    notice: Notice | None = None


def search_failure(query: str, exc: BaseException) -> Notice:
    """Why a search could not run, for a person: a core error as its own notice, anything else (SQLite
    failing on a damaged file, a limit SQLite refuses) as ``search.failed`` with the ``query`` and the
    ``error`` as the engine said it. A query the full-text syntax does not accept is no failure: like the
    agent's search, it counts as no full-text rows and the substring search runs."""
    if isinstance(exc, MemoryError_):
        return Notice(exc.code, exc.message or str(exc), exc.params)
    error = f"{type(exc).__name__}: {exc}"
    return Notice(
        "search.failed",
        f"The search for “{query}” could not run: {error}",
        {"query": query, "error": error},
    )


# -- highlight spans -----------------------------------------------------------------------------------
_FTS_OPERATORS = {"AND", "OR", "NOT"}
_NEAR = re.compile(r"^NEAR(/\d+)?$")


def fts_terms(safe: str) -> list[str]:
    """The content terms of a sanitised FTS5 query, for highlighting (a tolerant reading).

    Operators (``AND``, ``OR``, ``NEAR``; ``NOT`` and the term after it) are skipped; a column filter
    keeps its term only when it selects ``content`` (``content:x``, ``-role:x``), so ``role:user``
    highlights nothing; ``^``, ``+`` and braces are dropped. Terms shorter than 3 characters match
    nothing in a trigram index and are left out.
    """
    out: list[str] = []
    skip_next = False
    for tok in js_split_ws(safe):
        if tok in _FTS_OPERATORS or _NEAR.match(tok):
            skip_next = tok == "NOT"
            continue
        if skip_next:
            skip_next = False
            continue
        if ":" in tok:
            col, _, tok = tok.rpartition(":")
            negated = col.startswith("-")
            names = {c.lower() for c in re.split(r"[{}\-^\s]+", col) if c}
            if ("content" in names) == negated:
                continue
        for part in tok.split("+"):
            part = part.strip("^{}")
            if len(part) >= 3:
                out.append(part)
    return out


def _like_regex(pattern: str) -> re.Pattern[str]:
    """SQLite ``LIKE`` (default: ``%``, ``_`` wildcards, ASCII-only case folding) as a regex."""
    parts: list[str] = []
    for ch in pattern:
        if ch == "%":
            parts.append(".*?")
        elif ch == "_":
            parts.append(".")
        elif ch.isascii() and ch.isalpha():
            parts.append(f"[{ch.lower()}{ch.upper()}]")
        else:
            parts.append(re.escape(ch))
    return re.compile("".join(parts), re.DOTALL)


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    spans.sort()
    out: list[tuple[int, int]] = []
    for a, b in spans:
        if out and a <= out[-1][1]:
            if b > out[-1][1]:
                out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


#: Spans found per term of a query in one message: the first ones, enough to highlight what a view
#: shows; a 10 MB message that repeats a word a million times is not walked to its end.
MAX_SPANS = 1000


def span_finder(safe: str, mode: str) -> Callable[[str], list[tuple[int, int]]]:
    """``content -> [(start, end)]`` spans of what the sanitised query ``safe`` matched in ``mode``
    (``"fts"`` or ``"like"``, as :meth:`core.search.MessageSearch.search_with_mode` reports it), merged and sorted: the
    first :data:`MAX_SPANS` matches of each term."""
    if mode == "like":
        rx = _like_regex(safe.strip("%") or safe)
        regs = [rx]
    else:
        regs = [re.compile(re.escape(t), re.IGNORECASE) for t in dict.fromkeys(fts_terms(safe))]

    def spans(content: str) -> list[tuple[int, int]]:
        found: list[tuple[int, int]] = []
        for rx in regs:
            for m in itertools.islice(rx.finditer(content), MAX_SPANS):
                if m.end() > m.start():
                    found.append((m.start(), m.end()))
        return _merge(found)

    return spans
