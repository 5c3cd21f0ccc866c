"""Zoom: every font of the application larger or smaller, in steps, as View › Zoom In / Zoom Out /
Actual Size (Ctrl++, Ctrl+-, Ctrl+0) set it; the level is a setting (``appearance/zoom``, percent).

:func:`apply` sets the application font to the base size times the level: widgets that use the
application font follow at once (tables size their rows from it, delegates paint with it); widgets
given a font of their own (the fixed-pitch panes) are scaled by the same ratio, as are the tables' row
heights and the widths of their and the trees' columns (sized to sample texts), and
:func:`philont_desktop.fonts.monospace_font` scales the fonts made later. A splitter's panes that hold
text and were given a width in pixels (:func:`set_splitter_sizes`) grow and shrink with the text too. Plots follow through
``Theme.changed`` (:class:`~philont_desktop.widgets.plots.ThemedPlotWidget` sets its axes' and
title's fonts from the application font). The Qt-free part (steps, clamping) is :func:`step`.
"""

from __future__ import annotations

from philont_desktop.qt import (
    QApplication,
    QFont,
    QHeaderView,
    QSplitter,
    Qt,
    QTableView,
    QTimer,
    QTreeView,
    is_valid,
)

#: The levels, in percent (as browsers and editors step).
STEPS = (50, 67, 80, 90, 100, 110, 125, 150, 175, 200, 250, 300)
DEFAULT = 100

QWIDGETSIZE_MAX = (1 << 24) - 1
SIZE_RESOLVED = 0x2  # QFont::SizeResolved (PySide does not name the resolve bits)
#: The dynamic property naming a splitter's panes whose pixel sizes follow the zoom.
TEXT_PANES = "zoomTextPanes"
#: What the other panes of such a splitter keep at least, as a share of the splitter (by default).
REST_SHARE = 0.3
REST = "zoomRestShare"
WANTED = "zoomWanted"  # the text panes' sizes before a share was kept for the others
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


def text_scale() -> float:
    """How much larger the text is than at 100 % on a 96 dpi screen: the level times the screen's
    font dpi (144 or 192 where the window system gives it and Qt does not scale the window itself)."""
    app = QApplication.instance()
    screen = app.primaryScreen() if isinstance(app, QApplication) else None
    dpi = screen.logicalDotsPerInchX() if screen is not None else 96.0
    return factor() * max(1.0, dpi / 96.0)


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
    splitters = []
    for widget in app.allWidgets():
        if not is_valid(widget):
            continue
        if widget.testAttribute(Qt.WidgetAttribute.WA_SetFont):
            _scale_own_font(widget, ratio)
        if not widget.isWindow():
            _scale_limits(widget, ratio)
        if isinstance(widget, (QTableView, QTreeView)):
            _scale_table(widget, ratio)
        elif isinstance(widget, QSplitter) and widget.property(TEXT_PANES):
            splitters.append((widget, widget.sizes()))
    for splitter, sizes in splitters:  # a turn later: the panes' layouts have their new limits then
        QTimer.singleShot(0, splitter, lambda s=splitter, z=sizes: _scale_splitter(s, z, ratio))
    return _level


def fit_sizes(
    sizes: list[int], panes: list[int], ratio: float, total: int, rest_share: float = REST_SHARE
) -> list[int]:
    """``sizes`` with the ``panes`` scaled by ``ratio`` and the others sharing what is left of
    ``total``; the others keep at least ``rest_share`` of it (Qt-free)."""
    grown = [round(s * ratio) if i in panes else s for i, s in enumerate(sizes)]
    others = [i for i in range(len(sizes)) if i not in panes]
    if total <= 0 or not others:
        return grown
    text = sum(grown[i] for i in panes)
    room = max(round(total * (1 - rest_share)), min(text, total - sum(sizes[i] for i in others)))
    if text > room:
        grown = [round(s * room / text) if i in panes else s for i, s in enumerate(grown)]
        text = sum(grown[i] for i in panes)
    rest, was = total - text, sum(sizes[i] for i in others) or len(others)
    for i in others:
        grown[i] = max(1, round(rest * (sizes[i] or 1) / was))
    return grown


def set_splitter_sizes(
    splitter: QSplitter, sizes: list[int], panes: tuple[int, ...] = (0,), rest_share: float = REST_SHARE
) -> None:
    """Give ``splitter`` the pixel ``sizes`` meant for 100 % at 96 dpi; the ``panes`` hold text, so
    their sizes are scaled to the text (:func:`text_scale`) now and follow every change of the level
    (the other panes take the rest, at least ``rest_share`` of the splitter)."""
    scale = text_scale()
    splitter.setProperty(TEXT_PANES, list(panes))
    splitter.setProperty(REST, rest_share)
    splitter.setProperty(WANTED, None)  # the sizes Qt lays out are the start
    splitter.splitterMoved.connect(lambda *_: splitter.setProperty(WANTED, None))  # the person's sizes
    splitter.setSizes(fit_sizes(list(sizes), list(panes), scale, sum(sizes), rest_share))


def _scale_splitter(splitter: QSplitter, sizes: list[int], ratio: float) -> None:
    """The text panes of ``splitter`` by ``ratio``, from the sizes they had before a share was kept for
    the other panes (so that zooming in and back out gives the sizes back)."""
    panes = [int(i) for i in splitter.property(TEXT_PANES)]
    if sum(sizes) <= 0:
        return
    wanted = splitter.property(WANTED) or [sizes[i] for i in panes]
    wanted = [round(int(w) * ratio) for w in wanted]
    asked = list(sizes)
    for i, w in zip(panes, wanted, strict=False):
        asked[i] = w
    rest = float(splitter.property(REST) or REST_SHARE)
    splitter.setSizes(fit_sizes(asked, panes, 1.0, sum(sizes), rest))
    splitter.setProperty(WANTED, wanted)


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
