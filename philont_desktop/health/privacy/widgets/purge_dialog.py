"""The confirmation before a purge: what will be purged (counts by kind, redacted or deleted), every file
that will be rewritten, and that it cannot be undone. "Cancel" is the default button."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from core.privacy.finding import PrivacyFinding
from philont_desktop import messages
from philont_desktop.health.privacy.results import planned_file_text, unreachable_text
from philont_desktop.health.privacy.texts import kind_name, mode_name
from philont_desktop.qt import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QPushButton,
    Qt,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.widgets import plain

__all__ = ["PurgeDialog"]


class PurgeDialog(QDialog):
    """Accepted when the person chooses "Purge"; :attr:`files` are the paths listed."""

    def __init__(
        self,
        findings: Sequence[PrivacyFinding],
        plan: Any,
        mode: str,
        parent: QWidget | None = None,
    ):
        super().__init__(parent)
        self.setObjectName("privacyPurgeDialog")
        self.setWindowTitle(self.tr("Purge for good"))
        self.plan = plan
        self.files = [str(f.path) for f in plan.files]
        kinds = Counter(kind_name(f.kind) for f in findings)
        lines = [
            self.tr("%n finding(s) will be purged: {mode}.", "", len(findings)).format(mode=mode_name(mode)),
            *(f"  {name}: {n}" for name, n in sorted(kinds.items())),
        ]
        what = self._label("privacyPurgeWhat", "\n".join(lines))
        files_label = QLabel(self.tr("These files will be rewritten:"), self)
        self.list = QListWidget(self)
        self.list.setObjectName("privacyPurgeFiles")
        for f in plan.files:
            self.list.addItem(plain.plain(planned_file_text(f), 1000, one_line=True))
        files_label.setBuddy(self.list)
        left_out = self._label("privacyPurgeLeftOut", "\n".join(self._left_out(plan)))
        left_out.setVisible(bool(left_out.text()))
        warning = self._label(
            "privacyPurgeWarning",
            self.tr(
                "This cannot be undone: the values are removed from the database, its write-ahead log, free "
                "pages, the full-text index, the audit trail and every backup listed, and no backup is taken "
                "first (it would keep them). The agent's backups are rewritten in place, never deleted."
            )
            + "\n"
            + unreachable_text(),
        )
        lay = QVBoxLayout(self)
        for w in (what, files_label, self.list, left_out, warning, self._buttons()):
            lay.addWidget(w, 1 if w is self.list else 0)
        self.cancel_btn.setFocus()

    def _left_out(self, plan: Any) -> list[str]:
        """The findings the plan leaves out (why), and other files that still hold a purged value."""
        notes = [messages.notice_text(n) for n in plan.skipped]
        elsewhere = list(getattr(plan, "elsewhere", ()))
        if elsewhere:
            notes.append(self.tr("These files also hold a purged value and are not rewritten:"))
            notes += [f"  {plain.plain(f, 1000, one_line=True)}" for f in elsewhere]
        return notes

    def _label(self, name: str, text: str) -> QLabel:
        label = QLabel(self)
        label.setObjectName(name)
        label.setTextFormat(Qt.TextFormat.PlainText)
        label.setWordWrap(True)
        label.setText(text)
        return label

    def _buttons(self) -> QDialogButtonBox:
        """ "Purge" (destructive) and "Cancel", the default."""
        buttons = QDialogButtonBox(self)
        self.purge_btn = QPushButton(self.tr("Purge"), self)
        self.purge_btn.setObjectName("privacyPurgeConfirm")
        self.purge_btn.setAutoDefault(False)
        self.cancel_btn = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.cancel_btn.setObjectName("privacyPurgeCancel")
        self.cancel_btn.setDefault(True)
        buttons.addButton(self.purge_btn, QDialogButtonBox.ButtonRole.DestructiveRole)
        self.purge_btn.clicked.connect(self.accept)
        buttons.rejected.connect(self.reject)
        return buttons
