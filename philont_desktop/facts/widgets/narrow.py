"""Large text in a narrow window: rows of the Facts tab that go onto two lines (or one under the
other) where their widget is narrower, at 100 % on a 96 dpi screen (:func:`zoom.text_scale`), than the
row needs side by side; at 1024 px and 100 % everything stays on one line."""

from __future__ import annotations

from philont_desktop.qt import QBoxLayout, QWidget
from philont_desktop.widgets.narrow import Narrowing

__all__ = ["TAB_NARROW", "Narrowing", "stacking_bar"]

#: The Facts tab's width at 100 % under which its filters and its time control are one under the other.
TAB_NARROW = 1000


def stacking_bar(tab: QWidget) -> QBoxLayout:
    """A row whose items go one under the other where ``tab`` is narrower than :data:`TAB_NARROW`."""
    bar = QBoxLayout(QBoxLayout.Direction.LeftToRight)
    bar.setContentsMargins(6, 6, 6, 2)
    down, across = QBoxLayout.Direction.TopToBottom, QBoxLayout.Direction.LeftToRight
    Narrowing(tab, TAB_NARROW, lambda narrow: bar.setDirection(down if narrow else across))
    return bar
