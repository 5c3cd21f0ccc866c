"""A focus ring that is clearly visible in every theme: 2 px in the theme's focus colour.

Fusion marks the focused control with a 1 px line, or not at all (text panes, tables), which is lost on
a dark window. :func:`install` adds one :class:`FocusRing` to the application that follows the focus:
a child of the focused control laid over its edge that follows its size, lets the mouse through,
and paints a 2 px rounded ring there, so that a control flush with its pane's edge keeps its
whole ring. Only the ring's own paint runs in Python: the style is untouched.
"""

from __future__ import annotations

from typing import Any

from philont_desktop.qt import (
    QAbstractSpinBox,
    QApplication,
    QColor,
    QComboBox,
    QEvent,
    QPainter,
    QPen,
    QRectF,
    QRegion,
    Qt,
    QWidget,
    is_valid,
)

RING_WIDTH = 2


class FocusRing(QWidget):
    """The ring around the focused control; ``color`` comes from the theme. It is a child of the control
    laid over its edge (masked to the ring, above the control's own children, the mouse passing
    through), so that it moves with the control and a control flush with its pane's edge keeps its
    whole ring."""

    def __init__(self, color: QColor):
        super().__init__(None)
        self.setObjectName("focusRing")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.color = QColor(color)
        self._target: QWidget | None = None

    def set_color(self, color: QColor) -> None:
        self.color = QColor(color)
        self.update()

    def widget(self) -> QWidget | None:
        """The control the ring is around."""
        return self._target if self._target is not None and is_valid(self._target) else None

    def set_widget(self, target: QWidget | None) -> None:
        old = self.widget()
        if old is not None and old is not target:
            old.removeEventFilter(self)
        self._target = target
        if target is None:
            self.hide()
            self.setParent(None)
            return
        target.installEventFilter(self)
        self._place()

    def _place(self) -> None:
        target = self.widget()
        if target is None:
            return
        if self.parentWidget() is not target:
            self.setParent(target)
        self.setGeometry(target.rect())
        inner = self.rect().adjusted(RING_WIDTH, RING_WIDTH, -RING_WIDTH, -RING_WIDTH)
        self.setMask(QRegion(self.rect()).subtracted(QRegion(inner)))
        self.show()
        self.raise_()

    def eventFilter(self, watched: Any, event: Any) -> bool:
        if watched is self._target and event.type() in _FOLLOWED:
            self._place()
        return False

    def paintEvent(self, event: Any) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pen = QPen(self.color, RING_WIDTH)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        p.setPen(pen)
        p.setBrush(Qt.BrushStyle.NoBrush)
        half = RING_WIDTH / 2
        p.drawRoundedRect(QRectF(self.rect()).adjusted(half, half, -half, -half), 3, 3)
        p.end()


_FOLLOWED = (QEvent.Type.Resize, QEvent.Type.ChildAdded)  # its size; kept above the control's children


_ring: FocusRing | None = None
_color: QColor | None = None  # None: not installed


def ring() -> FocusRing | None:
    """The application's focus ring (``None`` before :func:`install`). The ring is a child of the
    focused control and goes with it when that control is deleted; a new one is made then."""
    global _ring
    if _color is None:
        return None
    if _ring is None or not is_valid(_ring):
        _ring = FocusRing(_color)
    return _ring


def ringed(widget: QWidget | None) -> QWidget | None:
    """The control a focused widget belongs to (a spin box for its line edit), or ``None`` for what gets
    no ring (menus, popups, the window itself)."""
    if widget is None or not is_valid(widget) or widget.isWindow():
        return None
    parent = widget.parentWidget()
    if isinstance(parent, (QAbstractSpinBox, QComboBox)):
        widget = parent
    top = widget.window()
    if top.windowType() in (Qt.WindowType.Popup, Qt.WindowType.ToolTip):
        return None
    return widget


def install(color: QColor) -> FocusRing | None:
    """Follow the application's focus with a ring of ``color`` (a second call changes the colour)."""
    global _color
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return None
    first = _color is None
    _color = QColor(color)
    frame = ring()
    assert frame is not None
    frame.set_color(_color)
    if first:
        app.focusChanged.connect(_follow)
        _follow(None, app.focusWidget())
    return frame


def _follow(_old: Any, new: Any) -> None:
    frame = ring()
    if frame is not None:
        frame.set_widget(ringed(new))
