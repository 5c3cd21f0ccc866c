"""``LivePacer``: live reloads of a tab at a pace that leaves it idle in between.

While the agent writes many times a second, the live monitor reports a change at every poll. A tab that
reloaded at each one would never be idle when its reload takes longer than the poll interval (a large
memory, a loaded machine): always a load in flight, none finished in view long. The pacer coalesces the
changes: a reload starts at once when the tab has been idle long enough, otherwise when the gap after its
last busy period is over (at least :data:`LIVE_GAP_MIN_MS`, and twice the last paced reload's duration);
changes seen meanwhile are folded into that one reload.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from philont_desktop.qt import QObject, QTimer

LIVE_GAP_MIN_MS = 1000


def _now_ms() -> float:
    return time.monotonic() * 1000


class LivePacer(QObject):
    """Calls ``refresh()`` for live changes, paced by ``is_busy()`` and the ``busy_changed`` signal."""

    def __init__(
        self,
        refresh: Callable[[], Any],
        is_busy: Callable[[], bool],
        busy_changed: Any,
        parent: QObject | None = None,
    ):
        super().__init__(parent)
        self._refresh = refresh
        self._is_busy = is_busy
        self._wanted = False
        self._started: float | None = None
        self._last_end = -1e18
        self._last_ms = 0.0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._fire)
        busy_changed.connect(self._on_busy)

    @property
    def waiting(self) -> bool:
        """A change is waiting for its reload."""
        return self._wanted

    def gap_ms(self) -> float:
        return max(LIVE_GAP_MIN_MS, 2 * self._last_ms)

    def request(self) -> None:
        """The file changed: reload now or after the gap."""
        self._wanted = True
        if not self._timer.isActive() and not self._is_busy():
            self._schedule()

    def _schedule(self) -> None:
        wait = self._last_end + self.gap_ms() - _now_ms()
        if wait <= 0:
            self._fire()
        else:
            self._timer.start(int(wait) + 1)

    def _fire(self) -> None:
        if not self._wanted or self._is_busy():
            return  # a reload started meanwhile; the end of it schedules the next one
        self._wanted = False
        self._started = _now_ms()
        self._refresh()
        if not self._is_busy():
            self._on_busy(False)

    def _on_busy(self, busy: bool) -> None:
        if busy:
            return
        now = _now_ms()
        if self._started is not None:
            self._last_ms = now - self._started
            self._started = None
        self._last_end = now
        if self._wanted and not self._timer.isActive():
            self._schedule()
