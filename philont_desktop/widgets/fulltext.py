"""A viewer for texts of any size (a 10 MB message, a long tool result).

The text is shown a page at a time (:data:`PAGE_CHARS` characters, cut at a line break near the end of
the page when there is one), so laying it out never takes long; "Copy all" and "Save as…" work on the
whole text.
"""

from __future__ import annotations

from philont_desktop.fonts import monospace_font
from philont_desktop.qt import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTextOption,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.widgets import plain

PAGE_CHARS = 200_000
# Qt lays out one unbroken line in time that grows with the square of its length (a 200,000-character
# line takes seconds to wrap); lines longer than LONG_LINE are shown broken every CHUNK characters.
LONG_LINE = 2000
CHUNK = 1000


def break_long_lines(text: str, long_line: int = LONG_LINE, chunk: int = CHUNK) -> tuple[str, bool]:
    """``text`` with every line longer than ``long_line`` cut into ``chunk``-character lines (for display
    only); the flag says whether anything was cut."""
    if len(text) <= long_line or not any(len(line) > long_line for line in text.split("\n")):
        return text, False
    out: list[str] = []
    for line in text.split("\n"):
        if len(line) > long_line:
            out.extend(line[i : i + chunk] for i in range(0, len(line), chunk))
        else:
            out.append(line)
    return "\n".join(out), True


def page_bounds(text: str, page_chars: int = PAGE_CHARS) -> list[tuple[int, int]]:
    """``[(start, end)]`` of the pages of ``text``; a page ends after a newline near its end if any."""
    n = len(text)
    if n <= page_chars:
        return [(0, n)]
    out: list[tuple[int, int]] = []
    start = 0
    while start < n:
        end = min(n, start + page_chars)
        if end < n:
            nl = text.rfind("\n", start + page_chars // 2, end)
            if nl >= 0:
                end = nl + 1
        out.append((start, end))
        start = end
    return out


class FullTextDialog(QDialog):
    """Shows ``text`` read-only, paged; non-modal."""

    def __init__(
        self,
        title: str,
        text: str,
        parent: QWidget | None = None,
        *,
        monospace: bool = False,
        raw: str | None = None,
    ):
        """``raw``: the stored text of which ``text`` is the readable form; a "Raw" toggle then shows it."""
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setObjectName("fullTextDialog")
        self.resize(820, 640)
        self._text = text
        self._forms = (text, raw)
        self._pages = page_bounds(text)
        self._page = 0
        self.edit = QPlainTextEdit(self)
        self.edit.setReadOnly(True)
        self.edit.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        if monospace:
            self.edit.setFont(monospace_font())
        self.info = QLabel(self)
        self.prev_btn = QPushButton(self.tr("Previous page"), self)
        self.next_btn = QPushButton(self.tr("Next page"), self)
        self.prev_btn.clicked.connect(lambda: self.show_page(self._page - 1))
        self.next_btn.clicked.connect(lambda: self.show_page(self._page + 1))
        nav = QHBoxLayout()
        nav.addWidget(self.info, 1)
        self.raw_btn = None
        if raw is not None:
            from philont_desktop.widgets.readable import raw_button

            self.raw_btn = raw_button(self)
            self.raw_btn.toggled.connect(self.set_raw)
            nav.addWidget(self.raw_btn)
        nav.addWidget(self.prev_btn)
        nav.addWidget(self.next_btn)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        copy_btn = buttons.addButton(self.tr("Copy all"), QDialogButtonBox.ButtonRole.ActionRole)
        save_btn = buttons.addButton(self.tr("Save as…"), QDialogButtonBox.ButtonRole.ActionRole)
        copy_btn.clicked.connect(self.copy_all)
        save_btn.clicked.connect(self.save_as)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(self.edit, 1)
        lay.addLayout(nav)
        lay.addWidget(buttons)
        self.show_page(0)

    def set_raw(self, on: bool) -> None:
        """Show the stored text (``on``) or its readable form, from the first page."""
        if self.raw_btn is None:
            return
        self.raw_btn.setChecked(on)
        text = self._forms[1] if on else self._forms[0]
        if text is not None and text is not self._text:
            self._text = text
            self._pages = page_bounds(text)
            self.show_page(0)

    @property
    def page_count(self) -> int:
        return len(self._pages)

    @property
    def page(self) -> int:
        return self._page

    def show_page(self, page: int) -> None:
        page = max(0, min(page, len(self._pages) - 1))
        self._page = page
        a, b = self._pages[page]
        shown, broken = break_long_lines(plain.plain(self._text[a:b], None))  # copied and saved as stored
        self.edit.setPlainText(shown)
        many = len(self._pages) > 1
        self.prev_btn.setVisible(many)
        self.next_btn.setVisible(many)
        self.prev_btn.setEnabled(page > 0)
        self.next_btn.setEnabled(page < len(self._pages) - 1)
        total = f"{len(self._text):,}"
        if many:
            self.info.setText(
                self.tr("Page %1 of %2 · characters %3–%4 of %5")
                .replace("%1", str(page + 1))
                .replace("%2", str(len(self._pages)))
                .replace("%3", f"{a + 1:,}")
                .replace("%4", f"{b:,}")
                .replace("%5", total)
            )
        else:
            self.info.setText(self.tr("%1 characters").replace("%1", total))
        if broken:
            self.info.setText(
                self.info.text()
                + " · "
                + self.tr("long lines are broken for display; Copy all copies the text as it is")
            )

    def copy_all(self) -> None:
        QApplication.clipboard().setText(self._text)

    def save_as(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save text"), "", self.tr("Text files (*.txt)"))
        if path:
            with open(path, "w", encoding="utf-8") as f:
                f.write(self._text)
