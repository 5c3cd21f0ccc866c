"""Zoom: every font of the application larger or smaller, in steps, as View › Zoom In / Zoom Out /
Actual Size (Ctrl++, Ctrl+-, Ctrl+0) set it; the level is a setting (``appearance/zoom``, percent).

:func:`apply` sets the application font to the base size times the level: widgets that use the
application font follow at once (tables size their rows from it, delegates paint with it); widgets
given a font of their own (the fixed-pitch panes) are scaled by the same ratio, as are the tables' row
heights and the widths of their and the trees' columns (sized to sample texts), and
:func:`philont_desktop.fonts.monospace_font` scales the fonts made later. Plots follow through
``Theme.changed`` (:class:`~philont_desktop.widgets.plots.ThemedPlotWidget` sets its axes' and
title's fonts from the application font). The Qt-free part (steps, clamping) is :func:`step`.
"""

from __future__ import annotations

from philont_desktop.qt import QApplication, QFont, QHeaderView, Qt, QTableView, QTreeView, is_valid

#: The levels, in percent (as browsers and editors step).
STEPS = (50, 67, 80, 90, 100, 110, 125, 150, 175, 200, 250, 300)
DEFAULT = 100

QWIDGETSIZE_MAX = (1 << 24) - 1
SIZE_RESOLVED = 0x2  # QFont::SizeResolved (PySide does not name the resolve bits)
_base_points: float | None = None  # the application font's size at 100 %
_level = DEFAULT


def step(level: int, direction: int) -> int:
    """The next level up (``direction`` > 0) or down (< 0) from ``level``; ``DEFAULT`` for 0."""
    if direction == 0:
        return DEFAULT
    if direction > 0:
        return next((s for s in STEPS if s > level), STEPS[-1])
    return next((s for s in reversed(STEPS) if s < level), STEPS[0])


def clamp(level: int) -> int:
    """``level`` within the steps' range (a stored value from elsewhere stays usable)."""
    return max(STEPS[0], min(STEPS[-1], int(level)))


def level() -> int:
    """The level applied now, in percent."""
    return _level


def factor() -> float:
    return _level / 100.0


def apply(new_level: int) -> int:
    """Scale every font of the application to ``new_level`` percent; returns the level applied."""
    global _base_points, _level
    new_level = clamp(new_level)
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        _level = new_level
        return _level
    font = QFont(app.font())
    if _base_points is None:
        _base_points = font.pointSizeF() if font.pointSizeF() > 0 else 10.0
    ratio = new_level / _level
    _level = new_level
    if ratio == 1.0:
        return _level
    font.setPointSizeF(round(_base_points * factor(), 2))
    app.setFont(font)
    for widget in app.allWidgets():
        if not is_valid(widget):
            continue
        if widget.testAttribute(Qt.WidgetAttribute.WA_SetFont):
            _scale_own_font(widget, ratio)
        if not widget.isWindow():
            _scale_limits(widget, ratio)
        if isinstance(widget, (QTableView, QTreeView)):
            _scale_table(widget, ratio)
    return _level


def _scale_limits(widget, ratio: float) -> None:
    """Sizes a widget was given for its text (room for 12 characters, three lines of a message, a
    panel at most 340 px wide) grow and shrink with the text; what a layout computes is left alone."""
    if 0 < widget.minimumWidth() < QWIDGETSIZE_MAX:
        widget.setMinimumWidth(max(1, round(widget.minimumWidth() * ratio)))
    if widget.maximumWidth() < QWIDGETSIZE_MAX:
        widget.setMaximumWidth(max(1, round(widget.maximumWidth() * ratio)))
    if 0 < widget.minimumHeight() == widget.maximumHeight():  # a fixed height (three lines of text)
        widget.setFixedHeight(max(1, round(widget.maximumHeight() * ratio)))


def _scale_table(view: QTableView | QTreeView, ratio: float) -> None:
    """Rows one line high (``setup_table``) and the columns sized to sample texts, by ``ratio``."""
    if isinstance(view, QTableView):
        vh = view.verticalHeader()
        if vh.count() == 0 or vh.sectionResizeMode(0) == QHeaderView.ResizeMode.Fixed:
            vh.setDefaultSectionSize(max(8, round(vh.defaultSectionSize() * ratio)))
        hh = view.horizontalHeader()
    else:
        hh = view.header()
    last = hh.count() - 1
    for column in range(hh.count()):
        if hh.sectionResizeMode(column) != QHeaderView.ResizeMode.Interactive or (
            column == last and hh.stretchLastSection()
        ):
            continue
        hh.resizeSection(column, max(hh.minimumSectionSize(), round(hh.sectionSize(column) * ratio)))


def _scale_own_font(widget, ratio: float) -> None:
    """A widget's own font (one that sets a size: a fixed-pitch pane), scaled by ``ratio``."""
    own = widget.font()
    if not own.resolveMask() & SIZE_RESOLVED:
        return  # only a weight or a family of its own: the size follows the application's
    if own.pointSizeF() > 0:
        own.setPointSizeF(max(4.0, round(own.pointSizeF() * ratio, 2)))
    elif own.pixelSize() > 0:
        own.setPixelSize(max(6, round(own.pixelSize() * ratio)))
    widget.setFont(own)


def reset_for_tests() -> None:
    """Forget the base size and the level (a test that zoomed puts the application back first)."""
    global _base_points, _level
    if _level != DEFAULT:
        apply(DEFAULT)
    _base_points, _level = None, DEFAULT
