"""Large text in a narrow window: rows that go onto two lines (or panes one under the other) where their
widget is narrower, at 100 % on a 96 dpi screen (:func:`zoom.text_scale`), than the row needs side by
side; at 1024 px and 100 % everything stays on one line. Used by the tabs that wrap (the Facts, the
Skills, the Calendar)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from philont_desktop import zoom
from philont_desktop.qt import QEvent, QObject, QWidget


class Narrowing(QObject):
    """Calls ``place(narrow)`` now and whenever ``watched`` becomes narrower or wider than ``width``
    pixels at 100 %."""

    def __init__(self, watched: QWidget, width: int, place: Callable[[bool], None]):
        super().__init__(watched)
        self.width, self.place, self.narrow = width, place, False
        place(False)
        watched.installEventFilter(self)

    def eventFilter(self, watched: Any, event: Any) -> bool:
        if event.type() == QEvent.Type.Resize:
            narrow = watched.width() / zoom.text_scale() < self.width
            if narrow != self.narrow:
                self.narrow = narrow
                self.place(narrow)
        return False


class LinesHigh(QObject):
    """Keeps ``widget`` at least ``lines`` lines of its text high, in any text size (zoom, 144 or 192
    dpi): large text in a short window makes the tab scroll rather than squeeze a table to one row or a
    plot's ticks over each other."""

    def __init__(self, widget: QWidget, lines: float):
        super().__init__(widget)
        self.lines = lines
        self._fit(widget)
        widget.installEventFilter(self)

    def _fit(self, widget: QWidget) -> None:
        widget.setMinimumHeight(round(self.lines * widget.fontMetrics().height()))

    def eventFilter(self, watched: Any, event: Any) -> bool:
        if event.type() == QEvent.Type.FontChange:
            self._fit(watched)
        return False
