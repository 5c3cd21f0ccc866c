"""Work that waits for a widget's next paint: a tab shows its rows first and draws its plots after (the
Facts tab its decay curves, the Actions tab its failure-rate chart).

:func:`next_turn` makes the timer of work put off to a later event-loop turn. :class:`AfterPaint` runs a
callback once the watched widget has painted (in the event-loop turn after that paint), or after a
fallback delay when no paint comes (the widget hidden). The table of 10,000 facts is on screen one
plot-drawing sooner, and the drawing that follows is an event-loop turn of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from philont_desktop.qt import QEvent, QObject, QTimer, QWidget

FALLBACK_MS = 200


def next_turn(parent: QObject, slot: Callable[[], Any]) -> QTimer:
    """A single-shot timer that calls ``slot`` in a later event-loop turn each time it is started (a
    second start before it fires still makes one call)."""
    timer = QTimer(parent)
    timer.setSingleShot(True)
    timer.setInterval(0)
    timer.timeout.connect(slot)
    return timer


class AfterPaint(QObject):
    """``request()`` asks for one call of ``fn`` after ``widget``'s next paint; ``flush()`` runs it now."""

    def __init__(self, widget: QWidget, fn: Callable[[], Any], parent: QObject | None = None):
        super().__init__(parent)
        self._fn = fn
        self.pending = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.flush)
        widget.installEventFilter(self)

    def request(self) -> None:
        if not self.pending:
            self.pending = True
            self._timer.start(FALLBACK_MS)

    def cancel(self) -> None:
        self.pending = False
        self._timer.stop()

    def flush(self) -> None:
        """Run the pending call now (nothing when none is pending)."""
        if self.pending:
            self.cancel()
            self._fn()

    def eventFilter(self, obj: Any, event: Any) -> bool:
        if self.pending and event.type() == QEvent.Type.Paint:
            self._timer.start(0)  # right after this paint, in an event-loop turn of its own
        return False
