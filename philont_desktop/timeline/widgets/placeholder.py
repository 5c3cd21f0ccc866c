"""A list view that says why it is empty ("Loading…", "No hits") instead of showing a blank box."""

from __future__ import annotations

from typing import Any

from philont_desktop.qt import QColor, QListView, QPainter, Qt, QWidget


class PlaceholderListView(QListView):
    """``set_placeholder(text)``: painted in the middle of the view while it has no rows."""

    def __init__(self, theme: Any = None, parent: QWidget | None = None):
        super().__init__(parent)
        self._theme = theme
        self._placeholder = ""

    def set_placeholder(self, text: str) -> None:
        if text != self._placeholder:
            self._placeholder = text
            self.viewport().update()

    @property
    def placeholder(self) -> str:
        return self._placeholder

    def paintEvent(self, event: Any) -> None:
        super().paintEvent(event)
        model = self.model()
        if not self._placeholder or model is None or model.rowCount() > 0:
            return
        p = QPainter(self.viewport())
        muted = getattr(self._theme, "muted_text", None)
        p.setPen(QColor(muted()) if callable(muted) else self.palette().placeholderText().color())
        p.drawText(
            self.viewport().rect().adjusted(16, 16, -16, -16),
            int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap),
            self._placeholder,
        )
        p.end()
