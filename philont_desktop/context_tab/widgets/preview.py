"""The preview document in a text browser: rendered from a result, links turned into requests."""

from __future__ import annotations

from collections.abc import Iterable

from core.context import ContextResult
from philont_desktop.context_tab.render import PreviewRenderer
from philont_desktop.qt import QTextBrowser, QUrl, QWidget, Signal
from philont_desktop.theme import Theme


class PreviewPane(QTextBrowser):
    """Shows :class:`PreviewRenderer`'s document, keeping the scroll position across updates."""

    toggleRequested = Signal(str)  # a prefix section's name
    expandRequested = Signal(bool)  # expand (True) or collapse (False) every section
    fullTextRequested = Signal(str)  # a message id, or "this" for the message being answered

    def __init__(self, theme: Theme, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("contextPreview")
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.renderer = PreviewRenderer(theme, self)
        self.anchorClicked.connect(self.follow)

    def show_result(
        self,
        r: ContextResult | None,
        expanded: Iterable[str],
        *,
        provisional: bool = False,
        explaining: bool = False,
    ) -> None:
        if r is None:
            return
        sb = self.verticalScrollBar()
        pos = sb.value()
        self.setHtml(self.renderer.render(r, expanded, provisional=provisional, explaining=explaining))
        sb.setValue(pos)

    def follow(self, url: QUrl) -> None:
        """A link of the document was clicked."""
        kind, _, arg = url.toString().partition(":")
        if kind == "toggle":
            self.toggleRequested.emit(arg)
        elif kind in ("expand", "collapse"):
            self.expandRequested.emit(kind == "expand")
        elif kind == "full":
            self.fullTextRequested.emit(arg)
        elif kind == "why":
            self.scrollToAnchor(arg)

    def text(self) -> str:
        return self.toPlainText()
