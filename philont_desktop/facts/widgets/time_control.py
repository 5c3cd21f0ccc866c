"""The time control: look at the facts from now up to a year ahead."""

from __future__ import annotations

from philont_desktop.facts.state import MAX_OFFSET_DAYS
from philont_desktop.facts.text import fmt_time
from philont_desktop.qt import QHBoxLayout, QLabel, QSlider, QSpinBox, Qt, QToolButton, QWidget, Signal
from philont_desktop.widgets import accessible


class TimeControl(QWidget):
    """A slider and a spin box of days ahead, the view time and "Now"; ``offsetChanged(days)``."""

    offsetChanged = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.caption = QLabel(self.tr("View at"), self)
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setObjectName("viewTimeSlider")
        self.slider.setRange(0, MAX_OFFSET_DAYS)
        self.slider.setPageStep(30)
        self.slider.setMinimumWidth(160)
        self.spin = QSpinBox(self)
        self.spin.setObjectName("viewTimeDays")
        self.spin.setRange(0, MAX_OFFSET_DAYS)
        self.spin.setPrefix("+")
        self.spin.setSuffix(self.tr(" d"))
        self.label = QLabel(self)
        self.label.setObjectName("viewTimeLabel")
        self.label.setMinimumWidth(self.fontMetrics().horizontalAdvance("2026-12-31 23:59") + 8)
        self.now_button = QToolButton(self)
        self.now_button.setText(self.tr("Now"))
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.caption)
        lay.addWidget(self.slider, 2)
        lay.addWidget(self.spin)
        lay.addWidget(self.label)
        lay.addWidget(self.now_button)
        self.now_button.clicked.connect(lambda: self.offsetChanged.emit(0))
        self.slider.valueChanged.connect(self.offsetChanged)
        self.spin.valueChanged.connect(self.offsetChanged)

    def show_offset(self, days: int, view_time: int) -> None:
        """Show ``days`` ahead (without emitting) and the view time it stands for."""
        for w in (self.slider, self.spin):
            if w.value() != days:
                w.blockSignals(True)
                w.setValue(days)
                w.blockSignals(False)
        self.label.setText(self.tr("now") if days == 0 else fmt_time(view_time))
        accessible.announce(self.slider, self.label.text())
