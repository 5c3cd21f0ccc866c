"""Word-level diffs of two texts (recipes, note contents, fact values), in plain Python.

Text is cut into words, whitespace runs and single punctuation characters, with every CJK character a
token of its own (Chinese has no spaces between words), and :class:`difflib.SequenceMatcher` aligns the
tokens. Whitespace is "junk" for the matcher (it never anchors a match) and a whitespace run between two
changed words of one side is marked changed too, so a rewritten phrase reads as one highlight.

Standard library only: the Skills and Review tabs render these segments; the change set
(:mod:`core.changes`) carries them in its JSON.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from typing import NamedTuple

__all__ = ["Segment", "changed_spans", "tokenize", "word_diff"]

# CJK ideographs (unified, extensions A-B+, compatibility), kana, bopomofo, hangul syllables, CJK
# radicals and fullwidth forms: one token per character.
_CJK = (
    "\u2e80-\u2fdf\u3005-\u3007\u3021-\u3029\u3040-\u30ff\u3100-\u312f\u3190-\u31ff\u3400-\u4dbf"
    "\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003134f"
)
_TOKEN_RE = re.compile(rf"[{_CJK}]|\s+|(?:(?![{_CJK}])\w)+|.", re.DOTALL)


class Segment(NamedTuple):
    text: str
    changed: bool


def tokenize(text: str) -> list[str]:
    """Words, whitespace runs, single punctuation marks, single CJK characters; ``"".join`` gives ``text``."""
    return _TOKEN_RE.findall(text or "")


def _merge(tokens: list[tuple[str, bool]]) -> list[Segment]:
    # A whitespace-only unchanged token between two changed tokens joins the highlight.
    flags = [c for _, c in tokens]
    for i in range(1, len(tokens) - 1):
        text, changed = tokens[i]
        if not changed and text.isspace() and flags[i - 1] and flags[i + 1]:
            flags[i] = True
    runs: list[Segment] = []
    for (text, _), changed in zip(tokens, flags, strict=True):
        if runs and runs[-1].changed == changed:
            runs[-1] = Segment(runs[-1].text + text, changed)
        else:
            runs.append(Segment(text, changed))
    # Leading and trailing whitespace of a highlight is not part of it.
    out: list[Segment] = []
    for seg in runs:
        pieces = [Segment(seg.text, False)]
        if seg.changed:
            core = seg.text.strip()
            if core:
                start = seg.text.index(core)
                pieces = [
                    Segment(seg.text[:start], False),
                    Segment(core, True),
                    Segment(seg.text[start + len(core) :], False),
                ]
        for piece in pieces:
            if not piece.text:
                continue
            if out and out[-1].changed == piece.changed:
                out[-1] = Segment(out[-1].text + piece.text, piece.changed)
            else:
                out.append(piece)
    return out


def word_diff(old: str, new: str) -> tuple[list[Segment], list[Segment]]:
    """Segments of ``old`` (changed = removed) and of ``new`` (changed = added)."""
    a, b = tokenize(old), tokenize(new)
    sm = difflib.SequenceMatcher(lambda t: t.isspace(), a, b, autojunk=False)
    left: list[tuple[str, bool]] = []
    right: list[tuple[str, bool]] = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        same = tag == "equal"
        left.extend((t, not same) for t in a[i1:i2])
        right.extend((t, not same) for t in b[j1:j2])
    return _merge(left), _merge(right)


def changed_spans(segments: Sequence[Segment]) -> list[tuple[int, int, str]]:
    """``(start, end, text)`` of each highlighted run (offsets in Python characters)."""
    spans: list[tuple[int, int, str]] = []
    pos = 0
    for seg in segments:
        if seg.changed and seg.text.strip():
            spans.append((pos, pos + len(seg.text), seg.text))
        pos += len(seg.text)
    return spans
