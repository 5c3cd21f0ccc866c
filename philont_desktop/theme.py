"""Light, dark and high-contrast appearance: Fusion palettes, role colours, banner and plot colours.

``Theme.mode`` is ``"system"`` (follow ``QStyleHints.colorScheme()`` and its changes), ``"light"``,
``"dark"`` or ``"high-contrast"`` (white on black, yellow selection and focus; the dark colours of
roles, banners and plots, which are drawn on it). ``apply()`` sets the Fusion style and the palette on the application (widgets repaint from
it: delegates read ``option.palette`` or the theme at paint time) and then emits ``Theme.changed``, the
theme-changed signal: tabs recolour what they draw themselves (``ctx.theme.role_color("user")``,
banners, HTML views) and :class:`philont_desktop.widgets.plots.ThemedPlotWidget` re-styles pyqtgraph
(background, axes, grid), then emits its own ``themeChanged`` for the owner's items.
"""

from __future__ import annotations

from dataclasses import dataclass

from philont_desktop.qt import QApplication, QColor, QGuiApplication, QObject, QPalette, Qt, Signal

MODES = ("system", "light", "dark", "high-contrast")
ROLES = ("user", "assistant", "tool", "system")


@dataclass(frozen=True)
class RoleColors:
    accent: str  # strong colour: role labels, chart series, left bars
    background: str  # a tint for message bubbles / row backgrounds
    text: str  # readable text colour on ``background``


_LIGHT_ROLES = {
    "user": RoleColors("#1f6feb", "#e8f0fe", "#0b1f44"),
    "assistant": RoleColors("#1a7f37", "#e9f6ec", "#0d2a15"),
    "tool": RoleColors("#9a6700", "#fff4d6", "#3b2800"),
    "system": RoleColors("#6e40c9", "#f1ebfb", "#2a1450"),
}
_DARK_ROLES = {
    "user": RoleColors("#58a6ff", "#16263d", "#dbe9ff"),
    "assistant": RoleColors("#3fb950", "#15291c", "#d6f5dc"),
    "tool": RoleColors("#d29922", "#33280f", "#fbecc6"),
    "system": RoleColors("#bc8cff", "#261c3a", "#ece0ff"),
}
_UNKNOWN_ROLE_LIGHT = RoleColors("#57606a", "#f0f1f3", "#1f2328")
_UNKNOWN_ROLE_DARK = RoleColors("#8b949e", "#21262d", "#e6edf3")

# Banner kinds: editing mode, read-only with a reason, errors, information.
_LIGHT_BANNERS = {
    "editing": ("#fff1c2", "#5c3b00", "#d4a72c"),
    "readonly": ("#e7eef8", "#1b2b44", "#8fa8cc"),
    "error": ("#ffe1e1", "#5c0b0b", "#e07070"),
    "info": ("#e9f2ff", "#0b2a55", "#8ab4f8"),
}
_DARK_BANNERS = {
    "editing": ("#4a3a0a", "#ffe8a3", "#9e7a14"),
    "readonly": ("#1d2a3c", "#cfe0f7", "#41618c"),
    "error": ("#4d1717", "#ffd7d7", "#a34040"),
    "info": ("#15294a", "#d3e4ff", "#3b6fb6"),
}
_STATUS = {
    "live": ("#1a7f37", "#3fb950"),
    "changed": ("#0969da", "#58a6ff"),
    "paused": ("#6e7781", "#8b949e"),
    "error": ("#cf222e", "#f85149"),
    "editing": ("#9a6700", "#d29922"),
}


def dark_palette() -> QPalette:
    p = QPalette()
    window, base, alt, text = QColor("#202327"), QColor("#17191c"), QColor("#24282d"), QColor("#e6e8eb")
    disabled = QColor("#7d8590")
    highlight = QColor("#2f6fd0")
    C, R = QPalette.ColorGroup, QPalette.ColorRole
    for group in (C.Active, C.Inactive, C.Disabled):
        p.setColor(group, R.Window, window)
        p.setColor(group, R.WindowText, text)
        p.setColor(group, R.Base, base)
        p.setColor(group, R.AlternateBase, alt)
        p.setColor(group, R.ToolTipBase, QColor("#2d333b"))
        p.setColor(group, R.ToolTipText, text)
        p.setColor(group, R.PlaceholderText, QColor("#8b949e"))
        p.setColor(group, R.Text, text)
        p.setColor(group, R.Button, QColor("#2b3036"))
        p.setColor(group, R.ButtonText, text)
        p.setColor(group, R.BrightText, QColor("#ff7b72"))
        p.setColor(group, R.Light, QColor("#3a4048"))
        p.setColor(group, R.Midlight, QColor("#30363d"))
        p.setColor(group, R.Mid, QColor("#262b31"))
        p.setColor(group, R.Dark, QColor("#111316"))
        p.setColor(group, R.Shadow, QColor("#000000"))
        p.setColor(group, R.Highlight, highlight)
        p.setColor(group, R.HighlightedText, QColor("#ffffff"))
        p.setColor(group, R.Link, QColor("#58a6ff"))
        p.setColor(group, R.LinkVisited, QColor("#bc8cff"))
    for role in (R.WindowText, R.Text, R.ButtonText, R.HighlightedText):
        p.setColor(C.Disabled, role, disabled)
    p.setColor(C.Disabled, R.Highlight, QColor("#3a4048"))
    p.setColor(C.Inactive, R.Highlight, QColor("#264f8c"))
    return p


def high_contrast_palette() -> QPalette:
    """White on black, a yellow selection with black text, cyan links, disabled text still 7:1."""
    p = QPalette()
    C, R = QPalette.ColorGroup, QPalette.ColorRole
    black, white, yellow = QColor("#000000"), QColor("#ffffff"), QColor("#ffd400")
    for group in (C.Active, C.Inactive, C.Disabled):
        for role in (R.Window, R.Base, R.ToolTipBase, R.Button, R.Dark, R.Shadow):
            p.setColor(group, role, black)
        p.setColor(group, R.AlternateBase, QColor("#141414"))
        for role in (R.WindowText, R.Text, R.ButtonText, R.ToolTipText, R.BrightText, R.Light):
            p.setColor(group, role, white)
        p.setColor(group, R.PlaceholderText, QColor("#c8c8c8"))
        p.setColor(group, R.Midlight, QColor("#5a5a5a"))
        p.setColor(group, R.Mid, QColor("#8a8a8a"))
        p.setColor(group, R.Highlight, yellow)
        p.setColor(group, R.HighlightedText, black)
        p.setColor(group, R.Link, QColor("#00e5ff"))
        p.setColor(group, R.LinkVisited, QColor("#ff9cf5"))
    for role in (R.WindowText, R.Text, R.ButtonText):
        p.setColor(C.Disabled, role, QColor("#a8a8a8"))
    p.setColor(C.Disabled, R.Highlight, QColor("#5a5a5a"))
    return p


# Fusion draws the outlines of fields, buttons and the slider's groove in the window colour made
# darker, which is black on black: in high contrast they get a white outline (only in that theme).
HIGH_CONTRAST_STYLE = """
QLineEdit, QAbstractSpinBox, QComboBox, QPushButton, QToolButton, QPlainTextEdit, QTextEdit,
QAbstractItemView { border: 1px solid #ffffff; }
QPushButton, QToolButton { padding: 3px 8px; }
QSlider::groove:horizontal { border: 1px solid #ffffff; height: 4px; background: #000000; }
QSlider::handle:horizontal { background: #ffd400; border: 1px solid #ffffff; width: 12px; margin: -6px 0; }
"""


def light_palette() -> QPalette:
    p = QPalette()
    C, R = QPalette.ColorGroup, QPalette.ColorRole
    window, base, text = QColor("#f3f4f6"), QColor("#ffffff"), QColor("#1f2328")
    for group in (C.Active, C.Inactive, C.Disabled):
        p.setColor(group, R.Window, window)
        p.setColor(group, R.WindowText, text)
        p.setColor(group, R.Base, base)
        p.setColor(group, R.AlternateBase, QColor("#f6f8fa"))
        p.setColor(group, R.ToolTipBase, QColor("#ffffe8"))
        p.setColor(group, R.ToolTipText, text)
        p.setColor(group, R.PlaceholderText, QColor("#6e7781"))
        p.setColor(group, R.Text, text)
        p.setColor(group, R.Button, QColor("#eceef1"))
        p.setColor(group, R.ButtonText, text)
        p.setColor(group, R.BrightText, QColor("#cf222e"))
        p.setColor(group, R.Light, QColor("#ffffff"))
        p.setColor(group, R.Midlight, QColor("#e1e4e8"))
        p.setColor(group, R.Mid, QColor("#c4c9d0"))
        p.setColor(group, R.Dark, QColor("#8c959f"))
        p.setColor(group, R.Shadow, QColor("#57606a"))
        p.setColor(group, R.Highlight, QColor("#0969da"))
        p.setColor(group, R.HighlightedText, QColor("#ffffff"))
        p.setColor(group, R.Link, QColor("#0969da"))
        p.setColor(group, R.LinkVisited, QColor("#8250df"))
    for role in (R.WindowText, R.Text, R.ButtonText):
        p.setColor(C.Disabled, role, QColor("#8c959f"))
    p.setColor(C.Inactive, R.Highlight, QColor("#b6d4f7"))
    p.setColor(C.Inactive, R.HighlightedText, text)
    return p


# Fusion outlines check boxes and radio buttons in the window colour made darker, which vanishes on a
# dark window; those two classes get a palette whose window colour yields a visible outline.
_INDICATOR_CLASSES = ("QCheckBox", "QRadioButton")
_DARK_INDICATOR_WINDOW = QColor("#a7b0bd")


def indicator_palette(base: QPalette, dark: bool) -> QPalette:
    """The palette for check boxes and radio buttons: ``base``, with a window colour whose darker shade
    (Fusion's outline) stands out on a dark window."""
    p = QPalette(base)
    if dark:
        for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive, QPalette.ColorGroup.Disabled):
            p.setColor(group, QPalette.ColorRole.Window, _DARK_INDICATOR_WINDOW)
        p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Window, QColor("#6e7681"))
    return p


def system_prefers_dark() -> bool:
    app = QGuiApplication.instance()
    if app is None:
        return False
    hints = QGuiApplication.styleHints()
    scheme = getattr(hints, "colorScheme", None)
    if scheme is not None:
        return scheme() == Qt.ColorScheme.Dark
    # Older Qt: guess from the platform palette's window colour.
    return QGuiApplication.palette().color(QPalette.ColorRole.Window).lightness() < 128


class Theme(QObject):
    """The application's appearance. ``apply()`` sets the Fusion style and palette on the app."""

    changed = Signal()

    def __init__(self, mode: str = "system", parent: QObject | None = None):
        super().__init__(parent)
        self._mode = mode if mode in MODES else "system"
        self._dark = False
        self._hooked = False

    # -- mode -----------------------------------------------------------------------------------------
    @property
    def mode(self) -> str:
        return self._mode

    def set_mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown theme mode {mode!r}")
        self._mode = mode
        self.apply()

    @property
    def zoom(self) -> int:
        """The text size in percent of the normal size (:mod:`philont_desktop.zoom`)."""
        from philont_desktop import zoom

        return zoom.level()

    def set_zoom(self, level: int) -> None:
        """Scale every font to ``level`` percent and emit ``changed`` (plots take the new size)."""
        from philont_desktop import zoom

        before = zoom.level()
        if zoom.apply(level) != before:
            self.changed.emit()

    @property
    def is_high_contrast(self) -> bool:
        return self._mode == "high-contrast"

    @property
    def is_dark(self) -> bool:
        return self._dark

    def apply(self) -> None:
        """Apply the palette of the current mode to the running application and emit ``changed``."""
        app = QApplication.instance()
        dark = self._mode in ("dark", "high-contrast") or (self._mode == "system" and system_prefers_dark())
        self._dark = dark
        if app is not None:
            if isinstance(app, QApplication) and app.style().name().lower() != "fusion":
                app.setStyle("Fusion")
            palette = (
                high_contrast_palette()
                if self.is_high_contrast
                else dark_palette()
                if dark
                else light_palette()
            )
            app.setPalette(palette)
            for cls in _INDICATOR_CLASSES:
                app.setPalette(indicator_palette(palette, dark), cls)
            if isinstance(app, QApplication):
                wanted = HIGH_CONTRAST_STYLE if self.is_high_contrast else ""
                if app.styleSheet() != wanted and (wanted or app.styleSheet() == HIGH_CONTRAST_STYLE):
                    app.setStyleSheet(wanted)
            if not self._hooked:
                hints = QGuiApplication.styleHints()
                if hasattr(hints, "colorSchemeChanged"):
                    hints.colorSchemeChanged.connect(self._on_system_scheme)
                self._hooked = True
            if isinstance(app, QApplication):
                from philont_desktop.widgets import focus_ring

                focus_ring.install(self.focus_color())
        self.changed.emit()

    def _on_system_scheme(self, *_: object) -> None:
        if self._mode == "system":
            self.apply()

    # -- colours --------------------------------------------------------------------------------------
    def role_colors(self, role: str) -> RoleColors:
        table = _DARK_ROLES if self._dark else _LIGHT_ROLES
        return table.get(role, _UNKNOWN_ROLE_DARK if self._dark else _UNKNOWN_ROLE_LIGHT)

    def role_color(self, role: str) -> QColor:
        """The accent colour of a message role (labels, chart series)."""
        return QColor(self.role_colors(role).accent)

    def role_background(self, role: str) -> QColor:
        return QColor(self.role_colors(role).background)

    def role_text(self, role: str) -> QColor:
        return QColor(self.role_colors(role).text)

    def status_color(self, kind: str) -> QColor:
        """``live``, ``changed``, ``paused``, ``error``, ``editing``."""
        light, dark = _STATUS.get(kind, _STATUS["paused"])
        return QColor(dark if self._dark else light)

    def banner_colors(self, kind: str) -> tuple[QColor, QColor, QColor]:
        """``(background, text, border)`` of a banner: ``editing``, ``readonly``, ``error``, ``info``."""
        table = _DARK_BANNERS if self._dark else _LIGHT_BANNERS
        bg, fg, border = table.get(kind, table["info"])
        return QColor(bg), QColor(fg), QColor(border)

    def banner_style(self, kind: str) -> str:
        bg, fg, border = self.banner_colors(kind)
        return (
            f"background-color: {bg.name()}; color: {fg.name()}; "
            f"border: 1px solid {border.name()}; border-radius: 4px; padding: 6px 10px;"
        )

    def diff_colors(self) -> tuple[QColor, QColor]:
        """Background colours of removed and added lines in a diff."""
        if self._dark:
            return QColor("#4b1c1f"), QColor("#1a3a24")
        return QColor("#ffebe9"), QColor("#dafbe1")

    def focus_color(self) -> QColor:
        """The focus ring's colour: at least 3:1 against the window and the base of the theme."""
        if self.is_high_contrast:
            return QColor("#ffd400")
        return QColor("#58a6ff" if self._dark else "#0550ae")

    def muted_text(self) -> QColor:
        if self.is_high_contrast:
            return QColor("#c8c8c8")
        return QColor("#8b949e" if self._dark else "#6e7781")

    def plot_background(self) -> QColor:
        app = QApplication.instance()
        if app is not None:
            return QApplication.palette().color(QPalette.ColorRole.Base)
        return QColor("#17191c" if self._dark else "#ffffff")

    def plot_foreground(self) -> QColor:
        if self.is_high_contrast:
            return QColor("#ffffff")
        return QColor("#c9d1d9" if self._dark else "#24292f")
