"""What can be done with the selected findings: "Not a secret" (the allow-list, outside the database, at
any time) and, in editing mode, "Purge…" with the choice of redacting the span or deleting the row."""

from __future__ import annotations

from philont_desktop.health.privacy.texts import MODES, mode_name
from philont_desktop.qt import QComboBox, QLabel, QPushButton, Qt, QWidget, Signal
from philont_desktop.widgets.flow import FlowLayout

__all__ = ["ActionBar"]


class ActionBar(QWidget):
    """``allowRequested`` and ``purgeRequested(mode)``; :meth:`update_for` after a selection or an editing
    mode change."""

    allowRequested = Signal()
    purgeRequested = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("privacyActionBar")
        self.selected = QLabel(self)
        self.selected.setObjectName("privacySelected")
        self.selected.setTextFormat(Qt.TextFormat.PlainText)
        self.allow_btn = QPushButton(self.tr("Not a secret"), self)
        self.allow_btn.setObjectName("privacyAllow")
        self.allow_btn.setToolTip(
            self.tr("Keep these findings on your allow-list (outside the database): they are no longer shown")
        )
        self.mode = QComboBox(self)
        self.mode.setObjectName("privacyPurgeMode")
        self.mode.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        for mode in MODES:
            self.mode.addItem(mode_name(mode), mode)
        self.purge_btn = QPushButton(self.tr("Purge…"), self)
        self.purge_btn.setObjectName("privacyPurge")
        self.purge_btn.setToolTip(
            self.tr("Remove these values from the database and every backup that holds them")
        )
        self.hint = QLabel(self.tr("Turn on editing to purge."), self)
        self.hint.setObjectName("privacyPurgeHint")
        self.hint.setTextFormat(Qt.TextFormat.PlainText)
        lay = FlowLayout(self)
        lay.setContentsMargins(6, 2, 6, 2)
        for w in (self.selected, self.allow_btn, self.mode, self.purge_btn, self.hint):
            lay.addWidget(w)
        self.allow_btn.clicked.connect(self.allowRequested)
        self.purge_btn.clicked.connect(lambda: self.purgeRequested.emit(self.current_mode))
        self.count = 0
        self.editing = False
        self.busy = False
        self.update_for(0, False)

    @property
    def current_mode(self) -> str:
        return str(self.mode.currentData() or "redact")

    def update_for(self, count: int, editing: bool, busy: bool | None = None) -> None:
        """``count`` findings selected, editing mode ``editing``, a scan or a purge running (``busy``)."""
        self.count, self.editing = count, editing
        if busy is not None:
            self.busy = busy
        self.selected.setText(
            self.tr("%n finding(s) selected", "", count) if count else self.tr("Nothing selected")
        )
        self.allow_btn.setEnabled(count > 0 and not self.busy)
        self.mode.setVisible(editing)
        self.purge_btn.setVisible(editing)
        self.purge_btn.setEnabled(editing and count > 0 and not self.busy)
        self.hint.setVisible(not editing)

    def retranslate(self) -> None:
        for i in range(self.mode.count()):
            self.mode.setItemText(i, mode_name(str(self.mode.itemData(i))))
        self.update_for(self.count, self.editing)
