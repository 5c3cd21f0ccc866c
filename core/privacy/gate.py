"""The scan's gate: which values of a page may hold a secret or personal data, found in one pass over
the page's bytes.

A page's text values are joined (UTF-8, a NUL between two values) and searched once with one pattern:
the union of :data:`core.privacy.secrets.GATE_PATTERNS` and :data:`core.privacy.personal.GATE_PATTERNS`
(case-insensitive), looser forms of the detectors' own patterns. Only the values it marks are given to
the detectors (of the category that marked them). The search uses RE2 (``google-re2``: one automaton for
the whole union, linear in the text) when it is installed, and Python's :mod:`re` with the same pattern
otherwise (the same values marked, several times slower).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate
from typing import Any

from core.privacy import personal, secrets

try:  # imported here, not on demand, so that the desktop bundle's analysis takes it in
    import re2 as _re2
except Exception:  # a binding that is missing or fails to load: Python's re
    _re2 = None

SECRET, PERSONAL = 1, 2

PATTERN = "(?i)(" + "|".join(secrets.GATE_PATTERNS) + ")|(" + "|".join(personal.GATE_PATTERNS) + ")"


def compile_gate(engine: str | None = None) -> tuple[Any, str]:
    """The gate compiled by ``engine`` (``"re2"`` or ``"re"``; default: RE2 when it loads), and the
    engine's name."""
    if engine == "re2" and _re2 is None:
        raise ImportError("RE2 (google-re2) is not installed")
    if engine in (None, "re2") and _re2 is not None:
        return _re2.compile(PATTERN), "re2"
    return re.compile(PATTERN.encode("utf-8")), "re"


_GATE, ENGINE = compile_gate()


def marks(texts: Sequence[str], compiled: Any = None) -> dict[int, int]:
    """``{index: SECRET | PERSONAL bits}`` of the texts the gate marks (the others hold nothing the
    secret and personal detectors find); ``compiled`` is a gate of :func:`compile_gate` (default: the
    module's).

    The texts are searched joined, as UTF-8 with a NUL between two; a match is placed by counting the
    NULs before it (matches are rare), or, when a text holds a NUL itself, by each text's length."""
    if not texts:
        return {}
    joined = "\x00".join(texts).encode("utf-8", "surrogatepass")
    found = list((compiled or _GATE).finditer(joined))
    if not found:
        return {}
    out: dict[int, int] = {}
    plain = joined.count(b"\x00") == len(texts) - 1
    starts: list[int] = []
    if not plain:
        starts = list(
            accumulate([len(t.encode("utf-8", "surrogatepass")) + 1 for t in texts[:-1]], initial=0)
        )
    for m in found:
        i = joined.count(b"\x00", 0, m.start()) if plain else bisect_right(starts, m.start()) - 1
        out[i] = out.get(i, 0) | (SECRET if m.group(1) is not None else PERSONAL)
    return out
