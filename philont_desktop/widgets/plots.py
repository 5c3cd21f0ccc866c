"""pyqtgraph, configured once for the application, and plots that follow the theme and the language.

The only module that imports pyqtgraph; tab plot code uses ``from philont_desktop.widgets.plots import pg``.

:class:`ThemedPlotWidget` re-styles itself when the theme changes (``Theme.changed``): background, axis
pens and tick labels, grid; its ``themeChanged`` signal then lets the owner recolour its own items (bars,
curves, lines) after the widget did. On a language switch it retranslates its axis labels and title
(texts made with ``tr()``) and redraws the ticks; :class:`DateAxis` names months and weekdays in the
current language.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pyqtgraph as pg
from pyqtgraph.graphicsItems import DateAxisItem as _date_axis_module

from philont_desktop import qt
from philont_desktop.theme import Theme

pg.setConfigOptions(antialias=True, useNumba=False)


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


class DateAxis(pg.DateAxisItem):
    """A time axis for values in epoch **seconds** (divide the project's epoch ms by 1000).

    Month and weekday names follow the application's language (``QLocale()``, set by the language
    switch) instead of the C library's locale.
    """

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
        super().__init__(parent, **kwargs)
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
        if item.titleLabel.text:
            item.titleLabel.setText(item.titleLabel.text, color=fg)
        self.showGrid(x=False, y=True, alpha=0.15)
        self.themeChanged.emit()

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
