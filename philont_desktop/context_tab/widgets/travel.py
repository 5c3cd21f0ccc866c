"""The time-travel banner: the preview shows what the agent saw before a past message; back to now."""

from __future__ import annotations

from philont_desktop import humanize
from philont_desktop.context_tab.state import TimePoint
from philont_desktop.qt import QHBoxLayout, QLabel, QPushButton, Qt, QWidget, Signal
from philont_desktop.theme import Theme


class TimeTravelBanner(QWidget):
    backRequested = Signal()

    def __init__(self, theme: Theme, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("timeTravelBanner")
        self.theme = theme
        self.label = QLabel(self)
        self.label.setObjectName("timeTravelLabel")
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # a session id is stored text
        self.back_button = QPushButton(self.tr("Back to now"), self)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(8, 4, 8, 0)
        lay.addWidget(self.label, 1)
        lay.addWidget(self.back_button)
        self.back_button.clicked.connect(self.backRequested)
        self.point: TimePoint | None = None
        self.restyle()
        self.hide()

    def restyle(self) -> None:
        bg, fg, border = self.theme.banner_colors("info")
        self.setStyleSheet(
            f"#timeTravelLabel {{ background-color: {bg.name()}; color: {fg.name()}; "
            f"border: 1px solid {border.name()}; border-radius: 4px; padding: 5px 8px; }}"
        )

    def show_point(self, point: TimePoint | None, now: int) -> None:
        self.point = point
        if point is None:
            self.hide()
            return
        m = point.message
        text = (
            self.tr(
                "What the agent saw before message #%1 (%2, session %3): only messages, facts and skills "
                "that existed then."
            )
            .replace("%1", str(m.id))
            .replace("%2", humanize.when(m.timestamp, now))
            .replace("%3", m.session_id)
        )
        notes = []
        if point.set_sessions:
            notes.append(self.tr("the timeline is restricted to its scheduled session, as the agent does"))
        if point.set_home:
            notes.append(self.tr("its conversation is the home conversation"))
        if notes:
            text += " " + self.tr("Set from the message: %1.").replace("%1", self.tr("; ").join(notes))
        self.label.setText(text)
        self.show()

    def retranslate(self, now: int) -> None:
        self.show_point(self.point, now)
