"""Small helpers for the preview's HTML: escaping, numbers, highlighted spans, one-line gists."""

from __future__ import annotations

import html
from collections.abc import Sequence

from core.visible import visible

PREVIEW_LINE_CHARS = 140


def esc(text: str) -> str:
    """Text for the preview's HTML: escaped, with control characters and direction overrides visible."""
    return html.escape(visible(text), quote=False)


def fmt_int(n: int | float) -> str:
    return f"{int(n):,}"


def highlight_html(text: str, spans: Sequence[tuple[int, int]], style: str) -> str:
    """``text`` escaped, with ``spans`` (``[start, end)`` indices into ``text``) wrapped in ``style``."""
    out: list[str] = []
    pos = 0
    for a, b in sorted(s for s in spans if s[0] < len(text)):  # an excerpt: the hits beyond it are not shown
        a, b = max(a, pos), min(b, len(text))
        if b <= a:
            continue
        out.append(esc(text[pos:a]))
        out.append(f'<span style="{style}">{esc(text[a:b])}</span>')
        pos = b
    out.append(esc(text[pos:]))
    return "".join(out)


def section_gist(text: str, limit: int = PREVIEW_LINE_CHARS) -> str:
    """A collapsed section's one-line summary: its first line after the heading (or the heading)."""
    lines = [ln.strip() for ln in text[: limit * 16].split("\n") if ln.strip()]
    if not lines:
        return ""
    s = lines[1] if len(lines) > 1 else lines[0]
    return s if len(s) <= limit else s[: limit - 1] + "…"


def first_line(text: str, limit: int = PREVIEW_LINE_CHARS) -> str:
    for line in text[: limit * 8].split("\n"):
        s = line.strip()
        if s:
            return s if len(s) <= limit else s[: limit - 1] + "…"
    return ""
