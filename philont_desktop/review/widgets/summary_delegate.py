"""The change column of the Review list: a summary too long for its column keeps its beginning (what
changed: a fact's key, a note's title, about 40 characters) and its end (what happened to it), and
loses the middle; the whole text is in the row's tooltip and the detail pane."""

from __future__ import annotations

from typing import Any

from philont_desktop.qt import QFontMetrics, QStyledItemDelegate, Qt

#: The characters at the beginning of a summary that are kept whole while the column has room for them.
HEAD = 40
ELLIPSIS = "…"


def fit_summary(text: str, metrics: QFontMetrics, width: int, head: int = HEAD) -> str:
    """``text`` within ``width`` pixels: whole if it fits; else its first ``head`` characters and the
    end of the rest with the middle left out; else (a very narrow column) its beginning."""
    if metrics.horizontalAdvance(text) <= width:
        return text
    start = text[:head]
    room = width - metrics.horizontalAdvance(start)
    if len(text) <= head or room < metrics.horizontalAdvance(ELLIPSIS + text[-4:]):
        return metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)
    rest = metrics.elidedText(text[head:], Qt.TextElideMode.ElideLeft, room)  # "…" and the end
    return start + rest


class SummaryDelegate(QStyledItemDelegate):
    """Paints the summaries with :func:`fit_summary` (the other columns as Qt does)."""

    def initStyleOption(self, option: Any, index: Any) -> None:
        super().initStyleOption(option, index)
        if not option.text or not index.parent().isValid():
            return  # a layer's heading
        style = option.widget.style() if option.widget is not None else None
        margin = 2 * (style.pixelMetric(style.PixelMetric.PM_FocusFrameHMargin) + 1) if style else 8
        width = option.rect.width() - margin - 2
        if not option.icon.isNull():
            width -= option.decorationSize.width() + margin
        option.text = fit_summary(option.text, QFontMetrics(option.font), max(width, 0))
