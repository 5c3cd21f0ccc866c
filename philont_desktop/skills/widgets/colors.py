"""The Skills tab's colours, light and dark: grades, badges, lanes and cards."""

from __future__ import annotations

from philont_desktop.qt import QColor

_GRADE_COLORS = {
    # light, dark
    "playbook": ("#8250df", "#bc8cff"),
    "draft": ("#b07800", "#d29922"),
    "confirmed": ("#0969da", "#58a6ff"),
    "stable": ("#1a7f37", "#3fb950"),
    "deprecated": ("#6e7781", "#8b949e"),
}
_AVOID = ("#cf222e", "#f85149")
_RECIPE = ("#1b7c83", "#39c5cf")
_SUCCESS = ("#1a7f37", "#3fb950")
_FAILURE = ("#cf222e", "#f85149")
_LANE = ("#e9ecf0", "#15171a")
_CARD = ("#ffffff", "#24282d")
_CARD_BORDER = ("#d0d7de", "#363c44")
_MUTED = ("#656d76", "#8b949e")
# A keyword chip's background: set off from the text pane's base in both modes.
_CHIP = ("#d5dbe1", "#3d444d")
# Text on a filled chip (the grade colours are dark in light mode and light in dark mode).
_ON_FILLED = ("#ffffff", "#0d1117")


def _pick(pair: tuple[str, str], dark: bool) -> QColor:
    return QColor(pair[1] if dark else pair[0])


def grade_color(maturity: str, dark: bool) -> QColor:
    return _pick(_GRADE_COLORS.get(maturity, _GRADE_COLORS["draft"]), dark)


class Colors:
    """The board's colours for light or dark mode."""

    def __init__(self, dark: bool):
        self.dark = dark
        self.lane = _pick(_LANE, dark)
        self.card = _pick(_CARD, dark)
        self.border = _pick(_CARD_BORDER, dark)
        self.muted = _pick(_MUTED, dark)
        self.chip = _pick(_CHIP, dark)
        self.on_filled = _pick(_ON_FILLED, dark)
        self.avoid = _pick(_AVOID, dark)
        self.recipe = _pick(_RECIPE, dark)
        self.success = _pick(_SUCCESS, dark)
        self.failure = _pick(_FAILURE, dark)

    def grade(self, maturity: str) -> QColor:
        return grade_color(maturity, self.dark)
