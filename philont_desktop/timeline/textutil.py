"""Qt-free text helpers of the Timeline tab: previews of long messages and search snippets.

Everything here works on a bounded slice of a message, so a 10 MB message costs no more than a short
one: nothing scans or copies the whole content except ``str.count`` style C loops that stop early.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from philont_desktop.widgets.text import first_line  # noqa: F401 - the timeline imports it from here

ELLIPSIS = "\u2026"
# A collapsed message shows at most this many lines / characters.
COLLAPSED_LINES = 6
COLLAPSED_CHARS = 600
# An expanded message shows at most this many characters in the list; the rest is "full text on demand".
EXPANDED_CHARS = 20_000
SNIPPET_BEFORE = 50
SNIPPET_AFTER = 170


@dataclass(frozen=True)
class Preview:
    """What the list shows of a message: ``text`` plus how much was left out."""

    text: str
    start: int  # index in the content where ``text`` begins (after a leading ellipsis, if any)
    truncated: bool  # something after ``text`` is not shown
    hidden_chars: int  # characters of the content not shown (before and after)


def preview(content: str, *, expanded: bool, focus: int | None = None) -> Preview:
    """The displayed part of ``content``.

    Collapsed: the first :data:`COLLAPSED_LINES` lines, at most :data:`COLLAPSED_CHARS` characters.
    Expanded: at most :data:`EXPANDED_CHARS` characters. ``focus`` (an index, e.g. the first search
    match) moves the window when it would not be visible, to start at the line of the focus.
    """
    n = len(content)
    start = 0
    end = _window_end(content, 0, expanded)
    if focus is not None and 0 < focus < n and focus + 20 > end:
        start = max(0, focus - (80 if not expanded else 400))
        nl = content.rfind("\n", max(0, start - 200), focus)
        if nl >= 0:
            start = nl + 1
        end = _window_end(content, start, expanded)
    text = content[start:end]
    if not expanded and end < n and text.endswith("\n"):
        text = text[:-1]
    return Preview(text=text, start=start, truncated=end < n, hidden_chars=start + (n - end))


def _window_end(content: str, start: int, expanded: bool) -> int:
    n = len(content)
    if expanded:
        return min(n, start + EXPANDED_CHARS)
    return min(n, start + COLLAPSED_CHARS, _lines_end(content, start, COLLAPSED_LINES))


def _lines_end(content: str, start: int, lines: int) -> int:
    """The index just after the ``lines``-th newline from ``start`` (or the end of the content)."""
    pos = start
    for _ in range(lines):
        nl = content.find("\n", pos, pos + COLLAPSED_CHARS + 1)
        if nl < 0:
            return len(content)
        pos = nl + 1
    return pos


@dataclass(frozen=True)
class Snippet:
    text: str
    spans: tuple[tuple[int, int], ...]  # highlight spans within ``text``


def snippet(
    content: str,
    spans: Sequence[tuple[int, int]],
    *,
    before: int = SNIPPET_BEFORE,
    after: int = SNIPPET_AFTER,
) -> Snippet:
    """A one-line excerpt around the first match with the matches inside it (newlines shown as spaces)."""
    n = len(content)
    if spans:
        a = max(0, spans[0][0] - before)
        b = min(n, spans[0][1] + after, a + before + after)  # a long match is cut too
    else:
        a, b = 0, min(n, before + after)
    text = content[a:b]
    shift = a
    prefix = ""
    if a > 0:
        prefix = ELLIPSIS
        shift -= 1
    suffix = ELLIPSIS if b < n else ""
    out = prefix + _one_line(text) + suffix
    inside: list[tuple[int, int]] = []
    for s, e in spans:
        if e <= a or s >= b:
            continue
        inside.append((max(s, a) - shift, min(e, b) - shift))
    return Snippet(text=out, spans=tuple(inside))


def _one_line(text: str) -> str:
    """Control characters (newlines, tabs) become spaces; the length does not change."""
    return "".join(" " if (c < " " or c == "\x7f") else c for c in text) if _has_ctrl(text) else text


def _has_ctrl(text: str) -> bool:
    return any(c < " " or c == "\x7f" for c in text)


def clip_spans(spans: Sequence[tuple[int, int]], start: int, length: int) -> list[tuple[int, int]]:
    """Spans of the content moved into a window ``[start, start + length)`` of it (clipped)."""
    out: list[tuple[int, int]] = []
    end = start + length
    for s, e in spans:
        if e <= start or s >= end:
            continue
        out.append((max(s, start) - start, min(e, end) - start))
    return out
