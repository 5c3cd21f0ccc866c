"""The score cell: the score as a percentage (``87 %``, ``≈ 0``) with a small bar that reads at a glance."""

from __future__ import annotations

from typing import Any

from philont_desktop.humanize import score_fraction
from philont_desktop.qt import QColor, QPalette, QRect, QStyledItemDelegate, Qt

BAR_WIDTH = 34
BAR_HEIGHT = 6


class ScoreBarDelegate(QStyledItemDelegate):
    """Paints the cell's text as usual and a bar of ``score_fraction(score)`` at its left edge.

    The score comes from ``score_role``; the bar takes the cell's text colour when the model sets one
    (below the forget threshold: the error colour), else the palette's highlight.
    """

    def __init__(self, score_role: int, parent: Any = None):
        super().__init__(parent)
        self._role = score_role

    def paint(self, painter: Any, option: Any, index: Any) -> None:
        super().paint(painter, option, index)
        score = index.data(self._role)
        if score is None:
            return
        frac = score_fraction(score)
        rect = option.rect
        track = QRect(rect.left() + 6, rect.center().y() - BAR_HEIGHT // 2 + 1, BAR_WIDTH, BAR_HEIGHT)
        fg = index.data(Qt.ItemDataRole.ForegroundRole)
        colour = QColor(fg.color() if hasattr(fg, "color") else fg) if fg is not None else None
        if colour is None or not colour.isValid():
            colour = option.palette.color(QPalette.ColorRole.Highlight)
        back = QColor(option.palette.color(QPalette.ColorRole.Text))
        back.setAlphaF(0.12)
        painter.save()
        painter.setRenderHint(painter.RenderHint.Antialiasing, True)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(back)
        painter.drawRoundedRect(track, 2, 2)
        width = round(BAR_WIDTH * frac)
        if frac > 0 and width < 2:
            width = 2  # a score above zero is never an empty bar
        if width:
            painter.setBrush(colour)
            painter.drawRoundedRect(QRect(track.left(), track.top(), width, BAR_HEIGHT), 2, 2)
        painter.restore()
