"""The Audit tab's bar: which targets to show, "N new ↑", how many entries, undo / redo this entry."""

from __future__ import annotations

from collections.abc import Sequence

from core.audit import AuditEntry
from philont_desktop.qt import QComboBox, QHBoxLayout, QLabel, QPushButton, QWidget, Signal
from philont_desktop.widgets import plain


class AuditBar(QWidget):
    """Emits ``targetChanged``, ``newestRequested``, ``undoRequested`` and ``redoRequested``."""

    targetChanged = Signal(object)  # the target type, or None for all
    newestRequested = Signal()
    undoRequested = Signal()
    redoRequested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.filter = QComboBox(self)
        self.filter.addItem(self.tr("All targets"), None)
        self.filter.currentIndexChanged.connect(lambda _i: self.targetChanged.emit(self.filter.currentData()))
        self.new_button = QPushButton(self)
        self.new_button.setObjectName("auditNewEntries")
        self.new_button.setVisible(False)
        self.new_button.setFlat(True)
        self.new_button.clicked.connect(self.newestRequested)
        self.undo_button = QPushButton(self.tr("Undo this change"), self)
        self.redo_button = QPushButton(self.tr("Redo this change"), self)
        self.undo_button.clicked.connect(self.undoRequested)
        self.redo_button.clicked.connect(self.redoRequested)
        self.count_label = QLabel(self)
        bar = QHBoxLayout(self)
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(QLabel(self.tr("Show:"), self))
        bar.addWidget(self.filter)
        bar.addWidget(self.new_button)
        bar.addStretch(1)
        bar.addWidget(self.count_label)
        bar.addWidget(self.undo_button)
        bar.addWidget(self.redo_button)

    def set_target_types(self, types: Sequence[str]) -> None:
        """The target types to choose from, keeping the one chosen."""
        current = self.filter.currentData()
        if [self.filter.itemData(i) for i in range(1, self.filter.count())] == list(types):
            return
        self.filter.blockSignals(True)
        while self.filter.count() > 1:
            self.filter.removeItem(1)
        for t in types:
            self.filter.addItem(plain.plain(t, 200, one_line=True), t)
        idx = self.filter.findData(current) if current is not None else 0
        self.filter.setCurrentIndex(max(0, idx))
        self.filter.blockSignals(False)

    def show_new(self, n: int) -> None:
        self.new_button.setVisible(n > 0)
        if n > 0:
            self.new_button.setText(self.tr("{0} new ↑").format(n))

    def show_count(self, n: int, more: bool, total: int | None = None) -> None:
        """``n`` entries loaded, ``more`` to load, ``total`` in all (``None``: not counted)."""
        if more and total is not None and total > n:
            self.count_label.setText(self.tr("{0} entries · {1} shown, more as you scroll").format(total, n))
        else:
            self.count_label.setText(self.tr("{0}{1} entries").format(n, "+" if more else ""))

    def show_steps(self, editing: bool, e: AuditEntry | None) -> None:
        """Undo / redo of one entry: in editing mode, for an original edit, as its state allows."""
        original = e is not None and e.is_original
        self.undo_button.setVisible(editing)
        self.redo_button.setVisible(editing)
        self.undo_button.setEnabled(editing and original and not e.undone)
        self.redo_button.setEnabled(editing and original and bool(e and e.undone))
