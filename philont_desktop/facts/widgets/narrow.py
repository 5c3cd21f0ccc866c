"""Large text in a narrow window: rows of the Facts tab that go onto two lines (or one under the
other) where their widget is narrower, at 100 % on a 96 dpi screen (:func:`zoom.text_scale`), than the
row needs side by side; at 1024 px and 100 % everything stays on one line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from philont_desktop import zoom
from philont_desktop.qt import QBoxLayout, QEvent, QObject, QWidget

#: The Facts tab's width at 100 % under which its filters and its time control are one under the other.
TAB_NARROW = 1000


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


def stacking_bar(tab: QWidget) -> QBoxLayout:
    """A row whose items go one under the other where ``tab`` is narrower than :data:`TAB_NARROW`."""
    bar = QBoxLayout(QBoxLayout.Direction.LeftToRight)
    bar.setContentsMargins(6, 6, 6, 2)
    down, across = QBoxLayout.Direction.TopToBottom, QBoxLayout.Direction.LeftToRight
    Narrowing(tab, TAB_NARROW, lambda narrow: bar.setDirection(down if narrow else across))
    return bar
