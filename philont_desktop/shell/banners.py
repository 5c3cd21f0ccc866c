"""The coloured lines above the tabs: editing mode or why the database is read-only, and warnings.

:class:`Banners` holds them in order; ``banners.add(name)`` makes one more (shown with
``show_message``, hidden with ``setVisible(False)``), so a new kind of notice is one call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from philont_desktop.qt import QFrame, QHBoxLayout, QLabel, QPushButton, Qt, QVBoxLayout, QWidget, is_valid
from philont_desktop.theme import Theme
from philont_desktop.widgets import plain


class Banner(QFrame):
    """A coloured line above the tabs: editing mode, read-only reason, warnings."""

    def __init__(self, theme: Theme, parent: QWidget | None = None):
        super().__init__(parent)
        self.theme = theme
        self.kind = "info"
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.button = QPushButton()
        self.button.setVisible(False)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.button)
        self._callback: Callable[[], Any] | None = None
        self.button.clicked.connect(self._clicked)
        theme.changed.connect(self._restyle)
        self.setVisible(False)

    def show_message(
        self, kind: str, text_html: str, button: str | None = None, on_click: Callable[[], Any] | None = None
    ) -> None:
        """Show ``text_html`` coloured as ``kind`` (``info``, ``editing``, ``readonly``, ...)."""
        self.kind = kind
        self.label.setText(text_html)
        self.button.setVisible(button is not None)
        if button is not None:
            self.button.setText(button)
        self._callback = on_click
        self._restyle()
        self.setVisible(True)

    def text(self) -> str:
        return self.label.text()

    def _clicked(self) -> None:
        if self._callback is not None:
            self._callback()

    def _restyle(self) -> None:
        if not is_valid(self):
            return
        bg, fg, border = self.theme.banner_colors(self.kind)
        self.setStyleSheet(
            f"Banner {{ background-color: {bg.name()}; border: 1px solid {border.name()}; border-radius: 4px; }}"
            f"Banner QLabel {{ color: {fg.name()}; background: transparent; border: none; }}"
        )


class Banners(QWidget):
    """The banners of the window: ``mode`` (editing / read-only), ``notice`` (warnings), and any added."""

    def __init__(self, theme: Theme, parent: QWidget | None = None):
        super().__init__(parent)
        self.theme = theme
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(6)
        self.by_name: dict[str, Banner] = {}
        self.mode = self.add("mode")
        self.notice = self.add("notice")

    def add(self, name: str) -> Banner:
        """A new banner below the others (hidden until ``show_message``)."""
        banner = Banner(self.theme, self)
        banner.setObjectName(f"{name}Banner")
        self._layout.addWidget(banner)
        self.by_name[name] = banner
        return banner

    def update_for(
        self, ctx: Any, stop_editing: Callable[[], Any], reopen: Callable[[], Any] | None = None
    ) -> None:
        """Show what ``ctx`` (an AppContext, or ``None``) calls for; ``reopen`` opens the file now at its
        path (offered when the shown file was replaced or deleted on disk)."""
        if ctx is None:
            for banner in (self.mode, self.notice):
                banner.setVisible(False)
            return
        if ctx.file_problem is not None:
            self._show_file_problem(ctx.file_problem, reopen)
        else:
            self._update_mode(ctx, stop_editing)
        if ctx.report.warnings:
            from philont_desktop import messages  # with a database: not before the first paint

            coded = {n.message: n for n in ctx.report.notices}  # the others are the app's own, translated
            shown = [messages.notice_text(coded[w]) if w in coded else w for w in ctx.report.warnings]
            text = "<br>".join(plain.html(w) for w in shown)
            self.notice.show_message("info", text)
        else:
            self.notice.setVisible(False)

    def _show_file_problem(self, problem: str, reopen: Callable[[], Any] | None) -> None:
        text = {
            "deleted": self.tr(
                "<b>The database file was deleted on disk.</b> What is shown is the file as it was opened; "
                "live refresh stopped and editing is off."
            ),
            "emptied": self.tr(
                "<b>The database file was emptied on disk.</b> What is shown is the file as it was "
                "opened; live refresh stopped and editing is off."
            ),
        }.get(
            problem,
            self.tr(
                "<b>The database file was replaced on disk.</b> What is shown is the file as it was "
                "opened, not the new one; live refresh stopped and editing is off. Reopen it to see "
                "the new file."
            ),
        )
        self.mode.show_message("error", text, self.tr("Reopen") if reopen else None, reopen)

    def _update_mode(self, ctx: Any, stop_editing: Callable[[], Any]) -> None:
        if ctx.editing:
            where = plain.html(str(ctx.last_backup)) if ctx.last_backup else self.tr("not needed (new file)")
            self.mode.show_message(
                "editing",
                self.tr(
                    "<b>Editing mode.</b> Changes are written to this database and recorded in its audit "
                    "log. A backup was taken first: {0}"
                ).format(where),
                self.tr("Stop editing"),
                stop_editing,
            )
        elif ctx.report.read_only_reason:
            from philont_desktop import messages

            reason = messages.read_only_reason(ctx.report.read_only_notice()) or ""
            self.mode.show_message(
                "readonly",
                self.tr("<b>Read-only.</b> This database cannot be edited here: {0}.").format(
                    plain.html(reason)
                ),
            )
        else:
            self.mode.setVisible(False)
