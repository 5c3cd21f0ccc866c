"""Where the window opens: within the screen's available area (without the panels and docks), at the
first launch as when a remembered geometry is restored (from a larger screen, another scale factor);
and what it does when large text (zoom, 144 or 192 dpi) needs more room than the screen has: the tabs
scroll (:func:`scrolling`) instead of the window growing past the screen or its labels being squeezed.

:func:`fit_size` is the Qt-free arithmetic; :func:`fit_to_screen` applies it to a window.
"""

from __future__ import annotations

from philont_desktop.qt import QFrame, QGuiApplication, QRect, QScrollArea, Qt, QWidget

PREFERRED = (1280, 820)


def fit_size(wanted: tuple[int, int], available: tuple[int, int], frame: tuple[int, int]) -> tuple[int, int]:
    """The window size closest to ``wanted`` whose frame (``frame``: what the title bar and borders
    add) fits ``available``."""
    return (
        max(1, min(wanted[0], available[0] - frame[0])),
        max(1, min(wanted[1], available[1] - frame[1])),
    )


def available_area(window: QWidget) -> QRect | None:
    """The available geometry of the window's screen (the primary screen before it is shown)."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else None


def fit_to_screen(window: QWidget, available: QRect | None = None) -> None:
    """Shrink ``window`` to fit ``available`` (default: its screen's available area) and move it inside."""
    area = available if available is not None else available_area(window)
    if area is None or area.isEmpty():
        return
    frame, inner = window.frameGeometry(), window.geometry()
    extra = (frame.width() - inner.width(), frame.height() - inner.height())
    size = fit_size((window.width(), window.height()), (area.width(), area.height()), extra)
    if size != (window.width(), window.height()):
        window.resize(*size)
    frame = window.frameGeometry()
    x = min(max(frame.x(), area.x()), area.x() + area.width() - frame.width())
    y = min(max(frame.y(), area.y()), area.y() + area.height() - frame.height())
    if (x, y) != (frame.x(), frame.y()):
        window.move(max(x, area.x()), max(y, area.y()))


def scrolling(widget: QWidget) -> QScrollArea:
    """``widget`` in a scroll area that looks like nothing at all while it fits (no frame, no focus
    stop, the window's background) and scrolls when the widget's minimum size is larger."""
    area = QScrollArea()
    area.setObjectName("tabsScroll")
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    area.setWidgetResizable(True)
    area.setWidget(widget)
    area.viewport().setAutoFillBackground(False)
    widget.setAutoFillBackground(False)
    return area
