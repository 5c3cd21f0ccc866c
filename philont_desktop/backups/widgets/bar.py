"""The Backups tab's buttons: back up now, restore, open read-only to compare, show the folder."""

from __future__ import annotations

import contextlib

from core.backups import BackupInfo
from core.errors import Notice
from philont_desktop.qt import QHBoxLayout, QPushButton, QWidget, Signal


class BackupsBar(QWidget):
    backupRequested = Signal()
    restoreRequested = Signal()
    compareRequested = Signal()
    folderRequested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.backup_button = QPushButton(self.tr("Back up now"), self)
        self.restore_button = QPushButton(self.tr("Restore…"), self)
        self.compare_button = QPushButton(self.tr("Open read-only to compare"), self)
        self.folder_button = QPushButton(self.tr("Show folder"), self)
        self.backup_button.clicked.connect(self.backupRequested)
        self.restore_button.clicked.connect(self.restoreRequested)
        self.compare_button.clicked.connect(self.compareRequested)
        self.folder_button.clicked.connect(self.folderRequested)
        with contextlib.suppress(Exception):
            from philont_desktop.resources import icon

            self.backup_button.setIcon(icon("backup"))
            self.compare_button.setIcon(icon("open"))
            self.restore_button.setIcon(icon("undo"))
        bar = QHBoxLayout(self)
        bar.setContentsMargins(0, 0, 0, 0)
        for b in (self.backup_button, self.restore_button, self.compare_button, self.folder_button):
            bar.addWidget(b)
        bar.addStretch(1)

    def show_selection(
        self, info: BackupInfo | None, check: Notice | None, *, read_only: bool, browsing: bool, folder: bool
    ) -> None:
        """Which buttons apply: a restore needs a sound backup and an app not started read-only."""
        self.setVisible(not browsing)
        ok = check is not None and check.code == "backup.ok"
        self.restore_button.setEnabled(info is not None and ok and not read_only)
        if read_only:
            self.restore_button.setToolTip(self.tr("Not possible: the app was started read-only."))
        elif info is not None and check is not None and not ok:
            self.restore_button.setToolTip(self.tr("This backup fails the quick integrity check."))
        else:
            self.restore_button.setToolTip(
                self.tr("Replace the database's content with the selected backup.")
            )
        self.compare_button.setEnabled(info is not None)
        self.folder_button.setEnabled(folder)
