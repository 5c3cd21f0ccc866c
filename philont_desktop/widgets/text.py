"""Text helpers every tab shows data with: local times and one-line summaries.

Importing this module does not import Qt (the timeline's Qt-free text helpers use it).
"""

from __future__ import annotations

from core.damage import unreadable_time

ELLIPSIS = "\u2026"


def format_local(ms: int | None, with_seconds: bool = True) -> str:
    """Epoch milliseconds as local ``yyyy-MM-dd HH:mm[:ss]`` (empty for None)."""
    if ms is None:
        return ""
    if unreadable_time(ms):  # a time column holding no time (core.damage)
        from philont_desktop.humanize import unreadable

        return unreadable()
    from philont_desktop.qt import QDateTime

    try:
        dt = QDateTime.fromMSecsSinceEpoch(int(ms)).toLocalTime()
    except (OverflowError, TypeError, ValueError):
        return str(ms)
    return dt.toString("yyyy-MM-dd HH:mm:ss" if with_seconds else "yyyy-MM-dd HH:mm")


def first_line(content: str, limit: int = 160) -> str:
    """A one-line summary (the first non-empty line, shortened) for tables, tooltips and accessibility."""
    head = content[: limit * 4]
    for line in head.splitlines():
        s = line.strip()
        if s:
            return s if len(s) <= limit else s[: limit - 1] + ELLIPSIS
    return ""
