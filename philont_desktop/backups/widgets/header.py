"""Above the Backups table: where the backups are, how many, how many fail, when the database was written."""

from __future__ import annotations

from pathlib import Path

from core.jsutil import now_ms
from philont_desktop.backups.model import fmt_age, fmt_size
from philont_desktop.backups.state import BackupsState
from philont_desktop.qt import QLabel, Qt, QVBoxLayout, QWidget


class BackupsHeader(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.where = QLabel(self)
        self.where.setWordWrap(True)
        self.where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary = QLabel(self)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.where)
        lay.addWidget(self.summary)

    def show_where(self, db_path: Path, folder: Path, browsing: str | None) -> None:
        if browsing:
            self.where.setText(
                self.tr(
                    "This window shows the backup {0} read-only, for comparing. Its own backups are not "
                    "listed, and nothing can be backed up or restored here."
                ).format(browsing)
            )
        else:
            self.where.setText(self.tr("Backups of {0} are kept in {1}.").format(db_path, folder))

    def show_summary(self, state: BackupsState) -> None:
        if state.browsing:
            self.summary.setText("")
            return
        rows = state.rows
        parts: list[str] = []  # an empty list says so in the table's middle, not a second time here
        if rows:
            parts.append(
                self.tr("%n backup(s), {0} in all; newest {1}.", None, len(rows)).format(
                    fmt_size(sum(r.size for r in rows)), fmt_age(rows[0].age)
                )
            )
            bad = state.failing()
            if bad:
                parts[0] += " " + self.tr("The quick integrity check fails for %n.", None, bad)
        if state.damaged_kept:
            parts.append(
                self.tr("%n damaged file(s) kept by earlier restores (damaged-…).", None, state.damaged_kept)
            )
        if state.last_write is not None:
            ago = fmt_age(int(now_ms() - state.last_write * 1000))
            parts.append(self.tr("The database was last written {0}.").format(ago))
        self.summary.setText("  ".join(parts))
