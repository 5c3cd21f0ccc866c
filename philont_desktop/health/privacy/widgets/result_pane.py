"""What the last purge did: the files rewritten and the counts, or why it was refused; shown until the next
purge or until closed."""

from __future__ import annotations

from philont_desktop.qt import QFrame, QHBoxLayout, QLabel, QPushButton, Qt, QWidget

__all__ = ["ResultPane"]


class ResultPane(QFrame):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("privacyResult")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.label = QLabel(self)
        self.label.setObjectName("privacyResultText")
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.close_btn = QPushButton(self.tr("Close"), self)
        self.close_btn.setObjectName("privacyResultClose")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(8, 4, 8, 4)
        lay.addWidget(self.label, 1)
        lay.addWidget(self.close_btn, 0, Qt.AlignmentFlag.AlignTop)
        self.close_btn.clicked.connect(self.hide)
        self.hide()

    def show_text(self, text: str) -> None:
        self.label.setText(text)
        self.setVisible(bool(text))

    def text(self) -> str:
        return self.label.text() if self.isVisible() else ""
