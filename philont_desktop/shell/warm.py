"""Work the GUI thread does once per process while a file opens (the open itself runs on a worker), so
that it is not part of the turns that build and paint the first tab. Each piece runs in a turn of its
own, once."""

from __future__ import annotations

import functools

from philont_desktop.fonts import warm_glyphs
from philont_desktop.qt import QListView, QTimer

#: When the fonts' fallbacks are loaded after an open starts (after the widget classes, in another turn).
WARM_GLYPHS_MS = 15


@functools.cache
def find_widget_classes() -> None:
    """The first time a Qt call hands back a widget whose class PySide must find (``viewport()``,
    ``widget(i)``), PySide makes the Python side of every widget class and their enums: ~5 ms, once
    per process. Done while a file opens, in a turn of its own, it is not part of the turn that builds
    the first tab (the Timeline's took 10-16 ms, half of it this)."""
    QListView().viewport()


@functools.cache
def load_glyphs() -> None:
    """The fonts' fallback families, loaded by drawing once (:func:`philont_desktop.fonts.warm_glyphs`)."""
    warm_glyphs()


def while_opening() -> None:
    """Schedule what is left to do once per process: each piece in a later event-loop turn."""
    QTimer.singleShot(0, find_widget_classes)
    QTimer.singleShot(WARM_GLYPHS_MS, load_glyphs)
