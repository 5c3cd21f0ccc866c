"""The icon engine of :func:`philont_desktop.resources.icon`: one ``currentColor`` SVG drawn at the
requested device-pixel size in a palette colour (imported on first use, so that reading resources needs
no Qt)."""

from __future__ import annotations

from philont_desktop.qt import QGuiApplication, QIcon, QIconEngine, QPalette, QPixmap, QRect, QSize
from philont_desktop.resources import render_svg


class TintedSvgIconEngine(QIconEngine):
    """Renders one ``currentColor`` SVG at the requested device-pixel size in a palette colour."""

    def __init__(self, name: str, svg: bytes, color=None):
        super().__init__()
        self._name = name
        self._svg = svg
        self._fixed = color
        self._pixmaps: dict[tuple[int, int, float], QPixmap] = {}

    def _color(self, mode):
        if self._fixed is not None:
            return self._fixed
        palette = QGuiApplication.palette()
        group, role = QPalette.ColorGroup, QPalette.ColorRole
        if mode == QIcon.Mode.Disabled:
            return palette.color(group.Disabled, role.ButtonText)
        if mode == QIcon.Mode.Selected:
            return palette.color(group.Active, role.HighlightedText)
        return palette.color(group.Active, role.ButtonText)

    def scaledPixmap(self, size, mode, state, scale):
        side = max(1, min(size.width(), size.height()))
        scale = float(scale) if scale and scale > 0 else 1.0
        pixels = max(1, round(side * scale))
        color = self._color(mode)
        key = (pixels, color.rgba() if hasattr(color, "rgba") else str(color), scale)
        pixmap = self._pixmaps.get(key)
        if pixmap is None:
            image = render_svg(self._svg, pixels, color)
            pixmap = QPixmap.fromImage(image) if not image.isNull() else QPixmap()
            if not pixmap.isNull():
                pixmap.setDevicePixelRatio(scale)
            if len(self._pixmaps) > 64:  # sizes x colours stay few; bound it anyway
                self._pixmaps.clear()
            self._pixmaps[key] = pixmap
        return pixmap

    def pixmap(self, size, mode, state):
        return self.scaledPixmap(size, mode, state, 1.0)

    def paint(self, painter, rect, mode, state):
        device = painter.device()
        scale = device.devicePixelRatioF() if device is not None else 1.0
        pixmap = self.scaledPixmap(rect.size(), mode, state, scale)
        if pixmap.isNull():
            return
        side = min(rect.width(), rect.height())
        target = QRect(0, 0, side, side)
        target.moveCenter(rect.center())
        painter.drawPixmap(target, pixmap)

    def actualSize(self, size, mode, state):
        side = min(size.width(), size.height())
        return QSize(side, side)

    def availableSizes(self, mode=None, state=None):
        return [QSize(s, s) for s in (16, 24, 32, 48, 64)]

    def iconName(self):
        return self._name

    def isNull(self):
        return False

    def key(self):
        return "philont-tinted-svg"

    def clone(self):
        return TintedSvgIconEngine(self._name, self._svg, self._fixed)
