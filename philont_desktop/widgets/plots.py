"""pyqtgraph, configured once for the application, and plots that follow the theme and the language.

The only module that imports pyqtgraph; tab plot code uses ``from philont_desktop.widgets.plots import pg``.

:class:`ThemedPlotWidget` re-styles itself when the theme changes (``Theme.changed``): background, axis
pens and tick labels, grid; its ``themeChanged`` signal then lets the owner recolour its own items (bars,
curves, lines) after the widget did. On a language switch it retranslates its axis labels and title
(texts made with ``tr()``) and redraws the ticks; :class:`DateAxis` names months and weekdays in the
current language.
"""

from __future__ import annotations

import inspect
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pyqtgraph as pg
from pyqtgraph.graphicsItems import DateAxisItem as _date_axis_module

from philont_desktop import qt
from philont_desktop.theme import Theme

pg.setConfigOptions(antialias=True, useNumba=False)
_plot_item_module = sys.modules[pg.PlotItem.__module__]  # the module (its package names the class so)


def _load_time_zone() -> None:
    """Have Qt read the system's time zone now, where this module is imported (the preloader's thread).

    A date axis converts its ticks with ``QDateTime`` in the local zone; the first conversion of the
    process reads the zone database (~6 ms, with a dozen failed opens whose messages Qt translates
    through the application's translator): otherwise in the first paint of a date axis on the GUI thread.
    """
    local = qt.QDateTime.fromSecsSinceEpoch(1_700_000_000)
    utc = local.toUTC()
    qt.QDateTime(utc.date(), utc.time(), local.timeZone()).toSecsSinceEpoch()


_load_time_zone()

__all__ = [
    "DateAxis",
    "ThemedPlotWidget",
    "apply_theme",
    "pg",
    "render_plot_check",
    "role_brush",
    "role_pen",
]


def apply_theme(theme: Theme) -> None:
    """Default background/foreground of plots created from now on (``ThemedPlotWidget`` calls it)."""
    pg.setConfigOption("background", theme.plot_background())
    pg.setConfigOption("foreground", theme.plot_foreground())


def role_pen(theme: Theme, role: str, width: float = 2.0):
    return pg.mkPen(theme.role_color(role), width=width)


def role_brush(theme: Theme, role: str, alpha: int = 200):
    c = qt.QColor(theme.role_color(role))
    c.setAlpha(alpha)
    return pg.mkBrush(c)


class _LabelOnce:
    """An axis that gives its label's text item new HTML only when the HTML changes.

    pyqtgraph rebuilds the label (``setHtml``, a text document) at every pen, range or style change of
    the axis, about forty times while a plot is made, almost always with the same text (~2 ms a plot).
    """

    label: Any

    def _updateLabel(self) -> None:
        html = self.labelString()  # type: ignore[attr-defined]
        if html != getattr(self, "_label_html", None):
            self._label_html = html
            self.label.setHtml(html)
        self._adjustSize()  # type: ignore[attr-defined]
        self.picture = None
        self.update()  # type: ignore[attr-defined]


class Axis(_LabelOnce, pg.AxisItem):
    """The axis of every plot made here (see :class:`_LabelOnce`)."""


class DateAxis(_LabelOnce, pg.DateAxisItem):
    """A time axis for values in epoch **seconds** (divide the project's epoch ms by 1000).

    Month and weekday names follow the application's language (``QLocale()``, set by the language
    switch) instead of the C library's locale.
    """

    #: The least room between two tick labels, in pixels.
    LABEL_GAP = 8

    def tickValues(self, minVal, maxVal, size):
        """pyqtgraph's ticks, less those whose label would touch a label already placed (coarser levels
        first, then left to right): "Dec 01Dec 03" or "12月2027" never reach the axis."""
        levels = super().tickValues(minVal, maxVal, size)
        fm = getattr(self, "fontMetrics", None)
        if fm is None or self.orientation not in ("bottom", "top") or not size or maxVal <= minVal:
            return levels
        px = size / (maxVal - minVal)
        placed: list[tuple[float, float]] = []
        out = []
        for spacing, values in levels:
            kept = []
            for value, text in zip(values, self.tickStrings(values, 1, spacing), strict=False):
                half = fm.horizontalAdvance(text) / 2 + self.LABEL_GAP / 2
                x = (value - minVal) * px
                if text and any(x - half < right and left < x + half for left, right in placed):
                    continue
                placed.append((x - half, x + half))
                kept.append(value)
            out.append((spacing, kept))
        return out

    def tickStrings(self, values, scale, spacing):
        strings = super().tickStrings(values, scale, spacing)
        spec = next((s for s in self.zoomLevel.tickSpecs if s.spacing == spacing), None)
        locale = qt.QLocale()
        if spec is None or locale.language() in (qt.QLocale.Language.English, qt.QLocale.Language.C):
            return strings
        if "%b" not in spec.format and "%a" not in spec.format:
            return strings
        short = qt.QLocale.FormatType.ShortFormat
        out = []
        for value, text in zip(values, strings, strict=False):
            try:
                d = _date_axis_module.utcfromtimestamp(
                    _date_axis_module.adjustTimestampToPreferredUtcOffset(value, self.utcOffset)
                )
            except (OverflowError, ValueError, OSError):
                out.append(text)
                continue
            fmt = spec.format.replace("%b", locale.monthName(d.month, short).replace("%", "%%"))
            fmt = fmt.replace("%a", locale.dayName(d.isoweekday(), short).replace("%", "%%"))
            out.append(d.strftime(fmt))
        return out


AXES = ("left", "bottom", "right", "top")


# -- a plot item without pyqtgraph's "Plot Options" form -----------------------------------------------------


class _Signal:
    """What pyqtgraph's plot item connects to a control of its form: slots called in order, each with as
    many of the arguments as it takes (as Qt calls a slot that takes fewer)."""

    __slots__ = ("_slots",)

    def __init__(self) -> None:
        self._slots: list[tuple[Callable[..., object], int | None]] = []

    def connect(self, slot: Callable[..., object]) -> None:
        func = getattr(slot, "__func__", slot)
        code = getattr(func, "__code__", None)
        takes = None  # every argument
        if code is not None and not code.co_flags & inspect.CO_VARARGS:
            takes = code.co_argcount - (1 if hasattr(slot, "__self__") else 0)
        self._slots.append((slot, takes))

    def emit(self, *args: object) -> None:
        for slot, takes in list(self._slots):
            slot(*(args if takes is None else args[:takes]))


class _Switch:
    """A check box of the form: ``isChecked``, ``setChecked``, ``toggled`` (emitted when it changes)."""

    def __init__(self, checked: bool = False) -> None:
        self._on = checked
        self.toggled = _Signal()

    def isChecked(self) -> bool:
        return self._on

    def setChecked(self, on: bool) -> None:
        on = bool(on)
        if on != self._on:
            self._on = on
            self.toggled.emit(on)


class _Choice(_Switch):
    """A radio button of the form: checking one unchecks the others of its group; the checked one
    cannot be unchecked (Qt's auto-exclusive buttons)."""

    def __init__(self, group: list[_Choice], checked: bool = False) -> None:
        super().__init__(checked)
        self._group = group
        group.append(self)

    def setChecked(self, on: bool) -> None:
        if not on or self._on:
            return
        self._on = True
        for other in self._group:
            if other is not self and other._on:
                other._on = False
                other.toggled.emit(False)
        self.toggled.emit(True)


class _Number:
    """A spin box or slider of the form: ``value`` kept within its range, ``valueChanged``."""

    def __init__(self, value: int, minimum: int, maximum: int) -> None:
        self._value, self._min, self._max = value, minimum, maximum
        self.valueChanged = _Signal()

    def value(self) -> int:
        return self._value

    def minimum(self) -> int:
        return self._min

    def maximum(self) -> int:
        return self._max

    def setValue(self, value: int) -> None:
        value = min(max(int(value), self._min), self._max)
        if value != self._value:
            self._value = value
            self.valueChanged.emit(value)


class _Items:
    """The form's list of curve parameters to average by (a plot of this application has none)."""

    def __init__(self) -> None:
        self._items: list[qt.QListWidgetItem] = []
        self.itemClicked = _Signal()

    def count(self) -> int:
        return len(self._items)

    def item(self, i: int) -> qt.QListWidgetItem:
        return self._items[i]

    def clear(self) -> None:
        self._items = []

    def addItem(self, item: qt.QListWidgetItem) -> None:
        self._items.append(item)

    def findItems(self, text: str, _flags: object) -> list[qt.QListWidgetItem]:
        return [i for i in self._items if i.text() == text]


class _Form:
    """pyqtgraph's "Plot Options" form (``plotConfigTemplate``) as the state the plot item reads and
    writes, with the same defaults, without its forty widgets and layouts (~3 ms per plot on the GUI
    thread, for a menu this application never shows). Only the six groups the item puts in its menu are
    widgets (empty ones; the three checkable ones are real check boxes of a group)."""

    def setupUi(self, _form: object) -> None:
        def group(name: str, checked: bool | None = None) -> qt.QWidget:
            if checked is None:
                return qt.QWidget()
            box = qt.QGroupBox()
            box.setObjectName(name)  # pyqtgraph's WidgetGroup keeps the checkable ones by name
            box.setCheckable(True)
            box.setChecked(checked)
            return box

        self.transformGroup, self.decimateGroup, self.gridGroup = group("t"), group("d"), group("g")
        self.averageGroup = group("averageGroup", False)
        self.alphaGroup = group("alphaGroup", True)
        self.pointsGroup = group("pointsGroup", True)
        self.avgParamList = _Items()
        for name in ("logX", "logY", "fft", "derivative", "phasemap", "subtractMean"):
            setattr(self, f"{name}Check", _Switch())
        self.clipToViewCheck, self.maxTracesCheck, self.forgetTracesCheck = _Switch(), _Switch(), _Switch()
        self.downsampleCheck, self.autoDownsampleCheck = _Switch(), _Switch(True)
        modes: list[_Choice] = []
        self.subsampleRadio, self.meanRadio = _Choice(modes), _Choice(modes)
        self.peakRadio = _Choice(modes, True)
        self.downsampleSpin = _Number(1, 1, 100_000)
        self.maxTracesSpin = _Number(0, 0, 99)
        self.autoPointsCheck = _Switch(True)
        self.xGridCheck, self.yGridCheck = _Switch(), _Switch()
        self.gridAlphaSlider = _Number(128, 0, 255)
        self.autoAlphaCheck = _Switch()
        self.alphaSlider = _Number(1000, 0, 1000)


class _FormTemplate:
    Ui_Form = _Form


class LightPlotItem(pg.PlotItem):
    """A ``pg.PlotItem`` whose "Plot Options" form is :class:`_Form` (its context menu stays off) and
    whose axes are :class:`Axis` unless given."""

    def __init__(self, *args: object, **kwargs: object):
        # read in PlotItem.__init__ only (plots are made on the GUI thread, one at a time)
        saved = _plot_item_module.ui_template, _plot_item_module.AxisItem
        _plot_item_module.ui_template, _plot_item_module.AxisItem = _FormTemplate, Axis
        try:
            super().__init__(*args, **kwargs)
        finally:
            _plot_item_module.ui_template, _plot_item_module.AxisItem = saved


class ThemedPlotWidget(pg.PlotWidget):
    """A ``pg.PlotWidget`` whose background, axes and grid follow ``theme`` (also when it changes), and
    whose axis labels and title follow the language."""

    themeChanged = qt.Signal()  # after restyle(): recolour the items you added

    def __init__(self, theme: Theme, parent=None, *, date_axis: bool = False, **kwargs):
        if date_axis:
            kwargs.setdefault("axisItems", {"bottom": DateAxis(orientation="bottom")})
        kwargs.setdefault("background", theme.plot_background())
        # No context menu is offered: enableMenu=False keeps pyqtgraph from building the view box's menu
        # (a form of widgets, ~4 ms per plot on the GUI thread). A view box passed in should be made
        # with enableMenu=False too; setMenuEnabled(False) drops its menu if it was not.
        kwargs.setdefault("enableMenu", False)
        background = kwargs.pop("background")
        super().__init__(parent, background=background, plotItem=LightPlotItem(**kwargs))
        self._theme = theme
        self.setMenuEnabled(False)
        self.getPlotItem().hideButtons()
        for name in AXES:
            # An axis draws its ticks and labels from a QPicture at every paint of the plot (about 5 ms
            # each, the text most of it); cached as a pixmap, a repaint that leaves the axis as it was
            # (a moved "now" line, a new curve, the window repainted) copies it instead. Any change of
            # the axis (range, pen, label, ticks) calls update(), which drops the pixmap.
            self.getAxis(name).setCacheMode(qt.QGraphicsItem.CacheMode.DeviceCoordinateCache)
        theme.changed.connect(self.restyle)
        self.restyle()

    @property
    def theme(self) -> Theme:
        return self._theme

    def fit_axes(self) -> None:
        """Lay out the ticks of the axes now, without painting (e.g. while updates are disabled).

        An axis sizes itself to its tick labels when it draws them: at a plot's first paint a left axis
        whose labels are narrower or wider than pyqtgraph's guess changes its width, the plot is laid out
        again and painted a second time. Drawn here, before that paint, the axes have their size when the
        plot first paints (and an axis that keeps its size keeps what was drawn: the paint copies it).
        """
        item = self.getPlotItem()
        for name in AXES:
            axis = self.getAxis(name)
            if not axis.isVisible() or axis.picture is not None:
                continue
            picture = qt.QPicture()
            painter = qt.QPainter(picture)
            try:
                if axis.style["tickFont"]:
                    painter.setFont(axis.style["tickFont"])
                specs = axis.generateDrawSpecs(painter)
                if specs is not None:
                    axis.drawPicture(painter, *specs)
            finally:
                painter.end()
            axis.picture = picture
        item.layout.activate()  # a changed axis size applied now (it drops that axis's picture)

    def restyle(self) -> None:
        if not qt.is_valid(self):
            return
        apply_theme(self._theme)
        fg = self._theme.plot_foreground()
        self.setBackground(self._theme.plot_background())
        pen = pg.mkPen(fg)
        item = self.getPlotItem()
        for name in AXES:
            axis = self.getAxis(name)
            axis.setPen(pen)
            axis.setTextPen(pen)  # also recolours the axis label
        self._refont()
        if item.titleLabel.text:
            item.titleLabel.setText(item.titleLabel.text, color=fg)
        self.showGrid(x=False, y=True, alpha=0.15)
        self.themeChanged.emit()

    def _refont(self) -> None:
        """Ticks, axis labels and title in the application's font at the zoom level (at 100 % the ticks
        keep pyqtgraph's own font, so that nothing changes for a plot that was never zoomed)."""
        from philont_desktop import zoom

        font = qt.QFont(qt.QApplication.font())
        item = self.getPlotItem()
        zoomed = zoom.level() != zoom.DEFAULT
        for name in AXES:
            axis = self.getAxis(name)
            if zoomed or axis.style["tickFont"] is not None:
                axis.setStyle(tickFont=font if zoomed else None)
            axis.label.setFont(font)
            axis.picture = None
        opts = item.titleLabel.opts
        if "size" in opts:  # pyqtgraph's title size ("11pt"), kept as the size at 100 %
            base = opts.setdefault("base_size", opts["size"])
            points = float(str(base).removesuffix("pt")) if str(base).endswith("pt") else None
            if points is not None:
                opts["size"] = f"{points * zoom.factor():.1f}pt"

    def changeEvent(self, event) -> None:
        if event.type() == qt.QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        """Axis labels and the title set with ``tr()`` in the new language; ticks redrawn (dates)."""
        from philont_desktop.i18n import class_hints, retranslate_text

        item = self.getPlotItem()
        hints = class_hints(self)
        for name in AXES:
            axis = self.getAxis(name)
            new = retranslate_text(axis.labelText, hints) if axis.labelText else None
            if new is not None:
                axis.setLabel(new, axis.labelUnits or None, axis.labelUnitPrefix or None)
            axis.picture = None  # tick strings (month names) are cached in the picture
            axis.update()
        title = retranslate_text(item.titleLabel.text, hints) if item.titleLabel.text else None
        if title is not None:
            item.setTitle(title)


def render_plot_check(theme: Theme, values: Sequence[float] = (3, 1, 4, 1, 5, 9, 2, 6)) -> list[str]:
    """Draw a small bar chart offscreen and check that pixels were painted (used by ``--self-test``)."""
    errors: list[str] = []
    widget = ThemedPlotWidget(theme)
    try:
        widget.resize(320, 200)
        bars = pg.BarGraphItem(
            x=list(range(len(values))), height=list(values), width=0.8, brush=role_brush(theme, "user")
        )
        widget.addItem(bars)
        image = widget.grab().toImage()
        if image.isNull() or image.width() < 10:
            errors.append("plot: rendering produced an empty image")
        else:
            bg = qt.QColor(theme.plot_background()).rgb()
            painted = sum(
                1
                for x in range(0, image.width(), 4)
                for y in range(0, image.height(), 4)
                if image.pixel(x, y) != bg
            )
            if painted < 20:
                errors.append("plot: nothing was painted")
    except Exception as exc:  # a broken plot stack must be reported, not crash the self-test
        errors.append(f"plot: {type(exc).__name__}: {exc}")
    finally:
        widget.deleteLater()
    return errors
