"""A one-line label that, given less room than its text needs, shows the text shortened with "…" (in
its middle, as a path is best shortened, or at its end) instead of cutting it at its edge; ``text()``,
the tooltip and what a screen reader reads stay whole.

A label of counts (``"messages ~3,000 · actions ~520 · notes 40"``, ``words=True``) drops whole words from
its end, so that what it shows is never a number cut in two. The large-text checks take a label
with the ``elidesText`` property for one shortened on purpose.
"""

from __future__ import annotations

from typing import Any

from philont_desktop.qt import QLabel, QPainter, QSize, Qt, QWidget

ELLIPSIS = "…"
#: The dynamic property that marks a label shortened on purpose (the large-text checks read it).
ELIDES = "elidesText"


def fit_words(text: str, width: int, advance: Any, strip: str = " ·") -> str:
    """``text`` with whole words dropped from its end and "…" in their place (a separator left last,
    one of ``strip``, goes too), so that it is at most ``width`` wide by ``advance(str) -> int``; ``""``
    where not even the first word fits."""
    if advance(text) <= width:
        return text
    words = text.split(" ")
    for keep in range(len(words) - 1, 0, -1):
        shown = " ".join(words[:keep]).rstrip(strip) + " " + ELLIPSIS
        if advance(shown) <= width:
            return shown
    return ""


class ElidedLabel(QLabel):
    """A plain-text label that shortens what it shows to its width (``mode``: ``Qt.ElideMiddle`` or
    ``Qt.ElideRight``; ``words``: drop whole words from the end first). ``min_chars`` characters (and
    "…") are its minimum width; its size hint is the whole text's."""

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        mode: Qt.TextElideMode = Qt.TextElideMode.ElideMiddle,
        words: bool = False,
        min_chars: int = 8,
    ):
        super().__init__(parent)
        self.mode, self.words, self.min_chars = mode, words, min_chars
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setProperty(ELIDES, True)

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        m = self.contentsMargins()
        room = self.fontMetrics().horizontalAdvance("x" * self.min_chars + ELLIPSIS)
        return QSize(min(hint.width(), room + m.left() + m.right()), hint.height())

    def room(self) -> int:
        """The width the text is drawn in (the label's, less its margins)."""
        m = self.contentsMargins()
        return max(0, self.width() - m.left() - m.right() - 2 * self.margin())

    def shown_text(self) -> str:
        """What the label shows at its width: the text, or the text shortened with "…"."""
        text, fm, room = self.text(), self.fontMetrics(), self.room()
        if fm.horizontalAdvance(text) <= room:
            return text
        if self.words:
            fitted = fit_words(text, room, fm.horizontalAdvance)
            if fitted:
                return fitted
        return fm.elidedText(text, self.mode, room)

    def is_elided(self) -> bool:
        return self.shown_text() != self.text()

    def paintEvent(self, event: Any) -> None:
        if not self.is_elided():
            super().paintEvent(event)
            return
        p = QPainter(self)
        rect = self.contentsRect().adjusted(self.margin(), self.margin(), -self.margin(), -self.margin())
        align = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        self.style().drawItemText(
            p,
            rect,
            int(align.value),
            self.palette(),
            self.isEnabled(),
            self.shown_text(),
            self.foregroundRole(),
        )
        p.end()
