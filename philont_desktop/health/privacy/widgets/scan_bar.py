"""The scan bar: "Scan" (with "Include backups"), the scan's progress and its cancel button, and what the
last scan found or why it failed."""

from __future__ import annotations

from philont_desktop.qt import QCheckBox, QLabel, QProgressBar, QPushButton, Qt, QWidget, Signal
from philont_desktop.widgets.flow import FlowLayout

__all__ = ["ScanBar"]


class ScanBar(QWidget):
    """``scanRequested(include_backups)`` and ``cancelRequested``; :meth:`show_progress` while a scan
    runs, :meth:`set_status` for what it found."""

    scanRequested = Signal(bool)
    cancelRequested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("privacyScanBar")
        self.scan_btn = QPushButton(self.tr("Scan"), self)
        self.scan_btn.setObjectName("privacyScan")
        self.scan_btn.setToolTip(self.tr("Look for secrets, personal data and planted instructions"))
        self.backups = QCheckBox(self.tr("Include backups"), self)
        self.backups.setObjectName("privacyIncludeBackups")
        self.backups.setToolTip(self.tr("Scan every backup of this database in backups/ too"))
        self.progress = QProgressBar(self)
        self.progress.setObjectName("privacyScanProgress")
        self.progress.setMaximumWidth(220)
        self.progress.setFormat("%p %")
        self.cancel_btn = QPushButton(self.tr("Cancel"), self)
        self.cancel_btn.setObjectName("privacyScanCancel")
        self.status = QLabel(self)
        self.status.setObjectName("privacyScanStatus")
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        lay = FlowLayout(self)  # large text in a narrow window: what does not fit goes to a second line
        lay.setContentsMargins(6, 4, 6, 4)
        for w in (self.scan_btn, self.backups, self.progress, self.cancel_btn, self.status):
            lay.addWidget(w)
        self.scan_btn.clicked.connect(lambda: self.scanRequested.emit(self.backups.isChecked()))
        self.cancel_btn.clicked.connect(self.cancelRequested)
        self.show_progress(None)

    @property
    def include_backups(self) -> bool:
        return self.backups.isChecked()

    def show_progress(self, progress: tuple[int, int] | None) -> None:
        """``(done, total)`` while scanning (``total`` 0: not known yet), ``None`` when idle."""
        busy = progress is not None
        self.progress.setVisible(busy)
        self.cancel_btn.setVisible(busy)
        self.scan_btn.setEnabled(not busy)
        self.backups.setEnabled(not busy)
        if progress is not None:
            done, total = progress
            self.progress.setRange(0, max(0, total))
            if total > 0:
                self.progress.setValue(min(done, total))

    def set_status(self, text: str) -> None:
        self.status.setText(text)
        self.status.setAccessibleName(text)
