"""Below the Backups table: the selected backup (path, size, check, files beside it) and what restoring does."""

from __future__ import annotations

from core.backups import BackupInfo
from philont_desktop.backups.model import BackupsModel
from philont_desktop.qt import QLabel, Qt, QVBoxLayout, QWidget


class BackupsFooter(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.details = QLabel(self)
        self.details.setObjectName("backupDetails")
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note = QLabel(
            self.tr(
                "Restoring replaces the content of the open database with the backup. It is only possible "
                "while the agent is not running (no other program may have the database open); the current "
                "file is backed up first, so a restore can itself be undone by restoring that backup (a "
                "damaged file is moved into the backups folder unchanged instead). Browsing a backup never "
                "writes anything into the backups folder."
            ),
            self,
        )
        self.note.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.details)
        lay.addWidget(self.note)

    def show_info(self, info: BackupInfo | None, model: BackupsModel, browsing: bool) -> None:
        self.note.setVisible(not browsing)
        if info is None:
            self.details.setText("")
            return
        text = self.tr("{0} — {1} bytes — quick integrity check: {2}").format(
            info.path, f"{info.size:,}", model.text(info, "check")
        )
        if info.side_files:
            text += "\n" + model.side_files_text(info)
        self.details.setText(text)
