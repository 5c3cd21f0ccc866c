"""The project's one clock.

Every time the project stamps (an audit row, a mark, a backup's age, "now" on a tab) comes from
:func:`now_ms`, so a test or a replay has one place to look. :mod:`core.jsutil` re-exports it.
"""

from __future__ import annotations

import time

__all__ = ["now_ms"]


def now_ms() -> int:
    """Current time as integer epoch milliseconds (``Date.now()``)."""
    return time.time_ns() // 1_000_000
