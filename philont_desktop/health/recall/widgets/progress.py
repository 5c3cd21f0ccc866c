"""The replay's progress line: what is being done (or was done last), a progress bar of the turns
replayed while it runs, "Cancel" while it runs and "Update" when it does not."""

from __future__ import annotations

from philont_desktop.health.recall import texts
from philont_desktop.qt import QHBoxLayout, QLabel, QProgressBar, QPushButton, Qt, QWidget, Signal
from philont_desktop.widgets import accessible


class ReplayProgress(QWidget):
    cancelRequested = Signal()
    updateRequested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.status = QLabel(self)
        self.status.setObjectName("recallStatus")
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setWordWrap(True)
        self.bar = QProgressBar(self)
        self.bar.setObjectName("recallProgress")
        accessible.name_widget(self.bar)
        self.bar.setTextVisible(True)
        self.bar.hide()
        self.cancel_button = QPushButton(self.tr("Cancel"), self)
        self.cancel_button.setObjectName("recallCancel")
        self.cancel_button.hide()
        self.update_button = QPushButton(self.tr("Update"), self)
        self.update_button.setObjectName("recallUpdate")
        self.update_button.setToolTip(self.tr("Replay the user turns written since the saved result"))
        self.cancel_button.clicked.connect(self.cancelRequested)
        self.update_button.clicked.connect(self.updateRequested)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.status, 1)
        lay.addWidget(self.bar)
        lay.addWidget(self.cancel_button)
        lay.addWidget(self.update_button)

    def running(self, text: str) -> None:
        self.status.setText(text)
        self.bar.setRange(0, 0)  # busy until the first turn is counted
        self.bar.show()
        self.cancel_button.show()
        self.cancel_button.setEnabled(True)
        self.update_button.hide()

    def progress(self, done: int, total: int) -> None:
        self.bar.setRange(0, max(total, 1))
        self.bar.setValue(min(done, total))
        self.status.setText(
            self.tr("Replaying user turns: %1 of %2…")
            .replace("%1", texts.number(done))
            .replace("%2", texts.number(total))
        )

    def idle(self, text: str) -> None:
        self.status.setText(text)
        self.bar.hide()
        self.cancel_button.hide()
        self.update_button.show()

    @property
    def text(self) -> str:
        return self.status.text()
