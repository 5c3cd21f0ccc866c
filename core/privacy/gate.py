"""The scan's gate: which values of a page may hold a secret or personal data, found in one pass over
the page's bytes.

A page's text values are joined (UTF-8, a NUL between two values) and searched once with one pattern:
the union of :data:`core.privacy.secrets.GATE_PATTERNS` and :data:`core.privacy.personal.GATE_PATTERNS`
(case-insensitive), looser forms of the detectors' own patterns. Only the values it marks are given to
the secret and personal-data detectors (both). The search uses RE2 (``google-re2``: one automaton for
the whole union, linear in the text) when it is installed, and Python's :mod:`re` with the same pattern
otherwise (the same values marked, over ten times slower).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import accumulate
from typing import Any

from core.privacy import personal, secrets

try:  # imported here, not on demand, so that the desktop bundle's analysis takes it in
    import re2 as _re2
except Exception:  # a binding that is missing or fails to load: Python's re
    _re2 = None

RE2_MEMORY = 64 << 20

#: The union of every secret and personal-data gate pattern. A text it matches anywhere is given to both
#: detectors, so a match of one kind that covers a match of the other (they never overlap across texts)
#: hides nothing.
PATTERN = "(?i)(?:" + "|".join((*secrets.GATE_PATTERNS, *personal.GATE_PATTERNS)) + ")"


def compile_gate(engine: str | None = None) -> tuple[Any, str]:
    """The gate compiled by ``engine`` (``"re2"`` or ``"re"``; default: RE2 when it loads), and the
    engine's name."""
    if engine == "re2" and _re2 is None:
        raise ImportError("RE2 (google-re2) is not installed")
    if engine in (None, "re2") and _re2 is not None:
        options = _re2.Options()
        options.max_mem = RE2_MEMORY  # room for the automaton of the whole union (the default is 8 MiB)
        return _re2.compile(PATTERN, options), "re2"
    return re.compile(PATTERN.encode("utf-8")), "re"


_GATE, ENGINE = compile_gate()


def _starts(joined: bytes, pattern: Any) -> Iterator[int]:
    """Where the pattern's matches start in ``joined``. A match that ends on a separator (taken as the
    boundary after a number) is followed by a search from that separator, which may be the boundary
    before a number of the next text."""
    pos, end = 0, len(joined)
    while pos < end:
        m = pattern.search(joined, pos)
        if m is None:
            return
        yield m.start()
        stop = m.end()
        pos = stop - 1 if stop - m.start() > 1 and joined[stop - 1] == 0 else max(stop, m.start() + 1)


def marks(texts: Sequence[str], compiled: Any = None) -> list[int]:
    """The indexes, in order, of the texts the gate marks (the others hold nothing the secret and
    personal detectors find); ``compiled`` is a gate of :func:`compile_gate` (default: the module's).

    The texts are searched joined, as UTF-8 with a NUL between two (no gate pattern matches across
    one except as the boundary of a number); a match is placed by counting the NULs before it (matches
    are rare), or, when a text holds a NUL itself, by each text's length."""
    if not texts:
        return []
    joined = "\x00".join(texts).encode("utf-8", "surrogatepass")
    found = list(_starts(joined, compiled or _GATE))
    if not found:
        return []
    out: list[int] = []
    plain = joined.count(b"\x00") == len(texts) - 1
    starts: list[int] = []
    if not plain:
        starts = list(
            accumulate([len(t.encode("utf-8", "surrogatepass")) + 1 for t in texts[:-1]], initial=0)
        )
    last_pos = last_i = 0
    for start in found:
        # A match that starts on a separator took it as the boundary before a number: the text after it.
        pos = start + (joined[start] == 0)
        if plain:
            last_i += joined.count(b"\x00", last_pos, pos)
            last_pos, i = pos, last_i
        else:
            i = bisect_right(starts, pos) - 1
        if not out or out[-1] != i:
            out.append(i)
    return out
