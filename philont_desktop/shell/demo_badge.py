"""The "Demo" badge: a generated demo database is never mistaken for a real memory.

Shown at the right of the tab bar and in the status bar while a demo database (see
:mod:`core.demofile`) is open; the window title says it too.
"""

from __future__ import annotations

from philont_desktop.qt import QLabel, Qt, QWidget
from philont_desktop.theme import Theme


class DemoBadge(QLabel):
    """A small coloured "Demo" label with a tooltip that says what a demo database is."""

    def __init__(self, theme: Theme, parent: QWidget | None = None):
        super().__init__(parent)
        self.theme = theme
        self.setObjectName("demoBadge")
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.retranslate()
        self.restyle()
        theme.changed.connect(self.restyle)
        self.setVisible(False)

    def retranslate(self) -> None:
        self.setText(self.tr("Demo"))
        self.setToolTip(
            self.tr(
                "A generated demo database: its conversations, facts and skills are made up. "
                "Open your own memory with File › Open."
            )
        )

    def restyle(self) -> None:
        bg, fg, border = self.theme.banner_colors("info")
        self.setStyleSheet(
            f"QLabel#demoBadge {{ background-color: {bg.name()}; color: {fg.name()}; "
            f"border: 1px solid {border.name()}; border-radius: 8px; padding: 1px 10px; "
            "font-weight: 600; margin: 2px 6px; }"
        )
