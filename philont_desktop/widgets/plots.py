"""pyqtgraph, configured once for the application, and plots that follow the theme.

The only module that imports pyqtgraph; tab plot code uses ``from philont_desktop.widgets.plots import pg``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pyqtgraph as pg

from philont_desktop import qt
from philont_desktop.theme import Theme

pg.setConfigOptions(antialias=True, useNumba=False)

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
    """Default background/foreground of plots created from now on."""
    pg.setConfigOption("background", theme.plot_background())
    pg.setConfigOption("foreground", theme.plot_foreground())


def role_pen(theme: Theme, role: str, width: float = 2.0):
    return pg.mkPen(theme.role_color(role), width=width)


def role_brush(theme: Theme, role: str, alpha: int = 200):
    c = qt.QColor(theme.role_color(role))
    c.setAlpha(alpha)
    return pg.mkBrush(c)


class DateAxis(pg.DateAxisItem):
    """A time axis for values in epoch **seconds** (divide the project's epoch ms by 1000)."""


class ThemedPlotWidget(pg.PlotWidget):
    """A ``pg.PlotWidget`` whose background, axes and grid follow ``theme`` (also when it changes)."""

    def __init__(self, theme: Theme, parent=None, *, date_axis: bool = False, **kwargs):
        if date_axis:
            kwargs.setdefault("axisItems", {"bottom": DateAxis(orientation="bottom")})
        super().__init__(parent, **kwargs)
        self._theme = theme
        self.setMenuEnabled(False)
        self.getPlotItem().hideButtons()
        theme.changed.connect(self.restyle)
        self.restyle()

    def restyle(self) -> None:
        if not qt.is_valid(self):
            return
        fg = self._theme.plot_foreground()
        self.setBackground(self._theme.plot_background())
        pen = pg.mkPen(fg)
        for name in ("left", "bottom", "right", "top"):
            axis = self.getAxis(name)
            axis.setPen(pen)
            axis.setTextPen(pen)
        self.showGrid(x=False, y=True, alpha=0.15)


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
