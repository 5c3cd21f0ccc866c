"""Work the GUI thread does once per process while a file opens (the open itself runs on a worker), so
that it is not part of the turns that build and paint the first tab. Each piece runs in a turn of its
own, once.

The open's worker imports the first tab's modules, which makes PySide create the Python side of Qt
classes; so do these pieces on the GUI thread. The two at once is a race PySide can lose with a crash
(about one open in twenty, in the GUI thread), so the worker waits (:func:`wait_warm`) until the pieces
scheduled by :func:`while_opening` are done before it imports anything.
"""

from __future__ import annotations

import functools
import threading

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


#: Set while no piece is due: the open's worker may import Qt classes.
_WARM = threading.Event()
_WARM.set()
_warmed = False  # the pieces ran once in this process
#: The longest a worker waits for the pieces (the window could be closing before they run).
WAIT_S = 5.0


def while_opening() -> None:
    """Schedule what is left to do once per process: each piece in a later event-loop turn; the open's
    worker waits for them (:func:`wait_warm`)."""
    if _warmed:
        return
    _WARM.clear()
    QTimer.singleShot(0, find_widget_classes)
    QTimer.singleShot(WARM_GLYPHS_MS, _last_piece)


def _last_piece() -> None:
    global _warmed
    try:
        load_glyphs()
        _warmed = True
    finally:
        _WARM.set()


def wait_warm(timeout_s: float = WAIT_S) -> bool:
    """On a worker: wait until the GUI thread's pieces are done (at once when none is due)."""
    return _WARM.wait(timeout_s)
