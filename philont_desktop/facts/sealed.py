"""A widget whose layout changes stay inside it: the Facts tab and its curves page are built on it.

A ``QTabWidget`` repaints the whole of its page whenever a layout change reaches it, and a layout change
travels up from any widget whose size hint moved (a label given a longer text, a legend filled) through
every parent laid out by a layout. In the Facts tab that was a repaint of its table, tree and plots after
each such change: a status line at every step of the time control, the curves' legend after a load.

:class:`Sealed` (and a tab with :class:`SealedLayout`) lays its content out in :attr:`body`, a child it sizes itself: a change inside ends at
the body, and only what moved is repainted. Its size hints are the body's.
"""

from __future__ import annotations

from typing import Any

from philont_desktop.qt import QWidget


class SealedLayout:
    """For a ``QWidget`` subclass that makes :attr:`body` (``self.body = QWidget(self)``) and puts its
    layout on it: the body always fills the widget."""

    body: QWidget

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)  # type: ignore[misc]
        self.body.setGeometry(self.rect())  # type: ignore[attr-defined]

    def sizeHint(self) -> Any:
        return self.body.sizeHint()

    def minimumSizeHint(self) -> Any:
        return self.body.minimumSizeHint()


class Sealed(SealedLayout, QWidget):
    """A page laid out in :attr:`body` (``QVBoxLayout(page.body)``)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.body = QWidget(self)
