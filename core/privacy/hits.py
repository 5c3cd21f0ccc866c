"""What a detector returns (:class:`Hit`: a kind, a span, a confidence), the masked preview of a span, and
the merge of overlapping hits.

A detector is a function ``find(text) -> list[Hit]``; the detectors of one category live in their own
module (:mod:`.secrets`, :mod:`.personal`, :mod:`.instructions`), each with a cheap ``GATE`` pattern: a
text the gate does not match holds nothing that detector finds, so most values cost one ``search``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

ELLIPSIS = "…"


class Hit(NamedTuple):
    """A span ``text[start:end]`` of ``kind`` (``secret.jwt``, ``personal.email``...) found with
    ``confidence`` (0..1)."""

    kind: str
    start: int
    end: int
    confidence: float


def mask(value: str) -> str:
    """A preview that never shows the whole value, nor its length: the first 4 and last 2 characters of a
    value of 12 or more, the first 2 and last 1 of 8 to 11, the first 1 of 4 to 7, nothing of a shorter
    one; never more than half of it. Line breaks and tabs inside the kept ends are shown as spaces."""
    n = len(value)
    if n >= 12:
        head, tail = 4, 2
    elif n >= 8:
        head, tail = 2, 1
    elif n >= 4:
        head, tail = 1, 0
    else:
        head, tail = 0, 0
    kept = value[:head] + ELLIPSIS + (value[n - tail :] if tail else "")
    return "".join(" " if c in "\r\n\t" else c for c in kept)


def entropy(value: str) -> float:
    """Shannon entropy in bits per character."""
    n = len(value)
    if not n:
        return 0.0
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def bounded(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is a whole token: no letter, digit, ``_`` or ``-`` right before or after."""
    return (start == 0 or text[start - 1] not in _TOKEN_CHARS) and (
        end == len(text) or text[end] not in _TOKEN_CHARS
    )


def merge(hits: Iterable[Hit]) -> list[Hit]:
    """The hits in text order, an overlapping hit dropped when an earlier-listed one (the more specific
    detector, listed first) already covers part of its span."""
    kept: list[Hit] = []
    for h in hits:
        if all(h.end <= k.start or h.start >= k.end for k in kept):
            kept.append(h)
    return sorted(kept, key=lambda h: (h.start, h.end))
