"""The Calendar tab's toolbar: the window of days, the filter, and the edit buttons (editing mode)."""

from __future__ import annotations

from typing import Any

from core.upcoming import DEFAULT_WINDOW_DAYS, MAX_WINDOW_DAYS, MIN_WINDOW_DAYS
from philont_desktop.qt import QHBoxLayout, QLabel, QLineEdit, QPushButton, QSpinBox, QWidget, Signal


class CalendarToolbar(QWidget):
    """Emits ``daysChanged(int)``, ``filterChanged(str)``, ``enableRequested(bool)``, ``deleteRequested``."""

    daysChanged = Signal(int)
    filterChanged = Signal(str)
    enableRequested = Signal(bool)
    deleteRequested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.days_spin = QSpinBox(self)
        self.days_spin.setObjectName("calendarDays")
        self.days_spin.setRange(MIN_WINDOW_DAYS, MAX_WINDOW_DAYS)
        self.days_spin.setValue(DEFAULT_WINDOW_DAYS)
        self.days_spin.setSuffix(self.tr(" days"))
        self.days_spin.setToolTip(self.tr("How many days ahead, as the agent's list_upcoming window (1–90)."))
        self.days_spin.valueChanged.connect(self.daysChanged)
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setObjectName("calendarSearch")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.setPlaceholderText(self.tr("Filter by title, task, zone, message…"))
        self.filter_edit.textChanged.connect(self.filterChanged)

        self.enable_button = QPushButton(self.tr("Enable task"), self)
        self.disable_button = QPushButton(self.tr("Disable task"), self)
        self.delete_button = QPushButton(self.tr("Delete…"), self)
        self.enable_button.clicked.connect(lambda: self.enableRequested.emit(True))
        self.disable_button.clicked.connect(lambda: self.enableRequested.emit(False))
        self.delete_button.clicked.connect(self.deleteRequested)
        self.edit_box = QWidget(self)
        eb = QHBoxLayout(self.edit_box)
        eb.setContentsMargins(0, 0, 0, 0)
        for b in (self.enable_button, self.disable_button, self.delete_button):
            eb.addWidget(b)

        bar = QHBoxLayout(self)
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(QLabel(self.tr("Coming up in the next"), self))
        bar.addWidget(self.days_spin)
        bar.addSpacing(12)
        bar.addWidget(self.filter_edit, 1)
        bar.addSpacing(12)
        bar.addWidget(self.edit_box)

    def set_editing(self, on: bool) -> None:
        self.edit_box.setVisible(on)

    def show_target(self, target: tuple[str, Any] | None, editing: bool) -> None:
        """Enable the buttons that apply to the selected task or event."""
        is_task = target is not None and target[0] == "task"
        self.enable_button.setEnabled(editing and is_task and not target[1].enabled)
        self.disable_button.setEnabled(editing and is_task and bool(target[1].enabled))
        self.delete_button.setEnabled(editing and target is not None)
        if target is None:
            self.delete_button.setText(self.tr("Delete…"))
        elif is_task:
            self.delete_button.setText(self.tr("Delete task…"))
        else:
            self.delete_button.setText(self.tr("Delete event…"))
