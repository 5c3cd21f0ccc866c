"""The bar under the baseline: how many changes and how many reviewed, "Looks right" for the selected
changes, "Mark all reviewed", hiding reviewed changes, and the export of the review."""

from __future__ import annotations

from philont_desktop.qt import (
    QCheckBox,
    QLabel,
    QMenu,
    QPushButton,
    Qt,
    QToolButton,
    QWidget,
    Signal,
)
from philont_desktop.widgets.flow import FlowLayout

__all__ = ["ReviewBar"]


class ReviewBar(QWidget):
    looksRight = Signal()
    markAll = Signal()
    undoMarkAll = Signal()
    hideReviewedChanged = Signal(bool)
    exportRequested = Signal(str)  # "markdown" or "json"

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("reviewBar")
        self.count = QLabel(self)
        self.count.setObjectName("reviewCount")
        self.count.setTextFormat(Qt.TextFormat.PlainText)
        self.looks_right = QPushButton(self.tr("Looks right"), self)
        self.looks_right.setObjectName("reviewLooksRight")
        self.looks_right.setToolTip(self.tr("Mark the selected changes as reviewed"))
        self.mark_all = QPushButton(self.tr("Mark all reviewed"), self)
        self.mark_all.setObjectName("reviewMarkAll")
        self.mark_all.setToolTip(self.tr("The next review starts from here"))
        self.undo_mark_all = QPushButton(self.tr("Undo mark"), self)
        self.undo_mark_all.setObjectName("reviewUndoMarkAll")
        self.undo_mark_all.setToolTip(self.tr("Put the review mark back where it was: the changes return"))
        self.undo_mark_all.setVisible(False)
        self.hide_reviewed = QCheckBox(self.tr("Hide reviewed"), self)
        self.hide_reviewed.setObjectName("reviewHideReviewed")
        self.export_btn = QToolButton(self)
        self.export_btn.setObjectName("reviewExport")
        self.export_btn.setText(self.tr("Export"))
        self.export_btn.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.export_btn)
        self.export_md = menu.addAction(self.tr("Markdown digest…"))
        self.export_json = menu.addAction(self.tr("JSON…"))
        self.export_btn.setMenu(menu)
        lay = FlowLayout(self)  # large text in a narrow window: the buttons wrap to a second line
        lay.setContentsMargins(6, 0, 6, 0)
        lay.addWidget(self.count)
        for w in (self.hide_reviewed, self.looks_right, self.mark_all, self.undo_mark_all, self.export_btn):
            lay.addWidget(w)
        self.looks_right.clicked.connect(self.looksRight)
        self.mark_all.clicked.connect(self.markAll)
        self.undo_mark_all.clicked.connect(self.undoMarkAll)
        self.hide_reviewed.toggled.connect(self.hideReviewedChanged)
        self.export_md.triggered.connect(lambda: self.exportRequested.emit("markdown"))
        self.export_json.triggered.connect(lambda: self.exportRequested.emit("json"))

    def show_counts(self, total: int, reviewed: int, new: int, loading: bool) -> None:
        if loading and not total:
            self.count.setText(self.tr("Looking for changes…"))
            return
        text = self.tr("{0} changes, {1} reviewed").format(total, reviewed)
        if new:
            text += self.tr(", {0} new").format(new)
        self.count.setText(text)
        self.mark_all.setEnabled(not loading and total > 0)

    def show_undo(self, count: int | None) -> None:
        """The undo of the last "Mark all reviewed" (``None``: nothing to undo)."""
        self.undo_mark_all.setVisible(count is not None)
        if count is not None:
            self.undo_mark_all.setText(self.tr("Undo mark (%n change(s))", None, count))
