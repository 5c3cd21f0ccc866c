"""The preview document in a text browser: rendered from a result, links turned into requests.

A preview is shown over four event-loop turns after its result arrives: its HTML is rendered and
parsed into a document of its own in the first, that document gets its layout at the width of the view
in the second, and it replaces the one on screen in the third (the turn the result arrives in has the
rest of its handling: the state, the budgets, the table of what was left out). Rendering, parsing and
laying out the ~25,000 characters of a preview in one go held the GUI thread 20-35 ms, and the swap
alone (the new document's layout made, its first part laid out, the view painted) 15-25 ms on a tab's
first visit. A result replaced before its turn is never rendered; :meth:`PreviewPane.flush` puts the
last one on screen at once.
"""

from __future__ import annotations

from collections.abc import Iterable

from core.context import ContextResult
from philont_desktop.context_tab.render import PreviewRenderer
from philont_desktop.qt import QSizeF, QTextBrowser, QTextDocument, QUrl, QWidget, Signal
from philont_desktop.theme import Theme
from philont_desktop.widgets.after_paint import next_turn


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
        self._result: tuple[ContextResult, frozenset[str], bool, bool] | None = None  # to render
        self._next: QTextDocument | None = None  # parsed, shown in a later turn
        self._laid_out = False  # the waiting document has its layout
        self._swap = next_turn(self, self._step)

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
        self._result = (r, frozenset(expanded), provisional, explaining)
        self._swap.start()

    def _parse(self) -> None:
        """Render and parse the waiting result into the document shown next."""
        waiting, self._result = self._result, None
        if waiting is None:
            return
        r, expanded, provisional, explaining = waiting
        html = self.renderer.render(r, expanded, provisional=provisional, explaining=explaining)
        doc = self._new_document()
        doc.setHtml(html)
        if self._next is not None:
            self._next.deleteLater()  # replaced before it was shown
        self._next = doc
        self._laid_out = False

    def _new_document(self) -> QTextDocument:
        """An empty document with the settings of the one on screen (font, margins, style sheet)."""
        shown = self.document()
        doc = QTextDocument(self)
        doc.setDefaultFont(shown.defaultFont())
        doc.setDefaultStyleSheet(shown.defaultStyleSheet())
        doc.setDefaultTextOption(shown.defaultTextOption())
        doc.setDocumentMargin(shown.documentMargin())
        doc.setIndentWidth(shown.indentWidth())
        doc.setUseDesignMetrics(shown.useDesignMetrics())
        return doc

    @property
    def pending(self) -> bool:
        """A preview waits for its turns to be shown."""
        return self._result is not None or self._next is not None

    def _step(self) -> None:
        """The waiting preview's next step, one per turn: rendered and parsed, laid out (at the width of
        the view, as the view would lay it out), shown."""
        if self._result is not None:
            self._parse()
            self._swap.start()
            return
        doc = self._next
        if doc is None:
            return
        if self._laid_out:
            self.flush()
            return
        doc.setPageSize(QSizeF(self.viewport().width(), -1))
        doc.documentLayout()  # made now, with the first part laid out (the rest follows in later turns)
        self._laid_out = True
        self._swap.start()

    def flush(self) -> None:
        """Show the waiting preview now, keeping the scroll position."""
        self._parse()
        doc, self._next = self._next, None
        self._swap.stop()
        if doc is None:
            return
        old = self.document()
        mine = old.parent() is self  # the editor deletes only the document it made itself
        sb = self.verticalScrollBar()
        pos = sb.value()
        self.setDocument(doc)
        sb.setValue(pos)
        if mine:
            old.deleteLater()

    def follow(self, url: QUrl) -> None:
        """A link of the document was clicked."""
        kind, _, arg = url.toString().partition(":")
        if kind == "toggle":
            self.toggleRequested.emit(arg)
        elif kind in ("expand", "collapse"):
            self.expandRequested.emit(kind == "expand")
        elif kind == "full":
            self.fullTextRequested.emit(arg)
        elif kind == "raw":  # the stored text of a message shown in readable form
            self.fullTextRequested.emit("raw:" + arg)
        elif kind == "why":
            self.scrollToAnchor(arg)

    def text(self) -> str:
        self.flush()
        return self.toPlainText()
