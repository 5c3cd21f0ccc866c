"""The bar above the timeline: the search box, the role of the hits, the dates, and the hit count.

The conversation filter is not here: the conversation list on the left is its one control.
"""

from __future__ import annotations

from typing import Any

from core.timeline import DAY_MS
from philont_desktop.qt import (
    QCheckBox,
    QComboBox,
    QDate,
    QDateEdit,
    QDateTime,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    Qt,
    QTime,
    QWidget,
    Signal,
)
from philont_desktop.timeline.widgets.results import role_label
from philont_desktop.widgets import accessible

ROLE_CHOICES = ("user", "assistant", "tool", "system")


class SearchLineEdit(QLineEdit):
    """Enter: next hit; Shift+Enter: previous hit; Escape: clear."""

    nextRequested = Signal()
    previousRequested = Signal()

    def keyPressEvent(self, event: Any) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                self.previousRequested.emit()
            else:
                self.nextRequested.emit()
            return
        if event.key() == Qt.Key.Key_Escape and self.text():
            self.clear()
            return
        super().keyPressEvent(event)


class SearchBar(QWidget):
    """``textChanged(str)`` as typed; ``roleChanged(role | None)``; ``rangeEdited(since, until)`` when
    the dates are switched on or edited (``None, None``: switched off)."""

    textChanged = Signal(str)
    roleChanged = Signal(object)
    rangeEdited = Signal(object, object)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.search_edit = SearchLineEdit(self)
        self.search_edit.setObjectName("timelineSearch")
        self.search_edit.setClearButtonEnabled(True)
        self.search_edit.setPlaceholderText(self.tr("Search messages (Enter: next hit)"))
        self.search_edit.setToolTip(
            self.tr(
                "Searches as the agent does: full-text for 3 characters or more, else the messages "
                "that contain the text. Enter: next hit; Shift+Enter: previous; Escape: clear."
            )
        )
        self.role_combo = QComboBox(self)
        self.role_combo.addItem(self.tr("All roles"), None)
        for r in ROLE_CHOICES:
            self.role_combo.addItem(role_label(r), r)
        self.range_check = QCheckBox(self.tr("Dates"), self)
        self.from_edit = QDateEdit(self)
        self.to_edit = QDateEdit(self)
        self.from_edit.setObjectName("timelineFrom")
        self.to_edit.setObjectName("timelineTo")
        for e in (self.from_edit, self.to_edit):
            e.setCalendarPopup(True)
            e.setDisplayFormat("yyyy-MM-dd")
            e.setEnabled(False)
        today = QDate.currentDate()
        self.from_edit.setDate(today.addDays(-30))
        self.to_edit.setDate(today)
        self.hits_label = QLabel(self)
        self.hits_label.setObjectName("hitCount")
        self.hits_label.setMinimumWidth(90)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 2)
        lay.addWidget(self.search_edit, 3)
        lay.addWidget(self.role_combo)
        lay.addSpacing(8)
        lay.addWidget(self.range_check)
        lay.addWidget(self.from_edit)
        lay.addWidget(QLabel("–", self))
        lay.addWidget(self.to_edit)
        lay.addSpacing(8)
        lay.addWidget(self.hits_label)
        self.search_edit.textChanged.connect(self.textChanged)
        self.role_combo.currentIndexChanged.connect(lambda _i: self.roleChanged.emit(self.role()))
        self.range_check.toggled.connect(self._on_check)
        self.from_edit.dateChanged.connect(self._on_date)
        self.to_edit.dateChanged.connect(self._on_date)

    # -- reading ------------------------------------------------------------------------------------------
    def text(self) -> str:
        return self.search_edit.text()

    def role(self) -> str | None:
        return self.role_combo.currentData()

    def edited_range(self) -> tuple[int, int]:
        """The dates of the edits as ``[since, until]`` in epoch ms (whole local days)."""
        a = QDateTime(self.from_edit.date(), QTime(0, 0)).toMSecsSinceEpoch()
        b = QDateTime(self.to_edit.date(), QTime(0, 0)).toMSecsSinceEpoch() + DAY_MS - 1
        if b < a:
            a, b = b - DAY_MS + 1, a + DAY_MS - 1
        return a, b

    # -- showing -----------------------------------------------------------------------------------------
    def set_text(self, text: str) -> None:
        """Show ``text`` in the search box without announcing it."""
        self.search_edit.blockSignals(True)
        self.search_edit.setText(text)
        self.search_edit.blockSignals(False)

    def show_range(self, since: int | None, until: int | None) -> None:
        """Show the dates in use without announcing them."""
        widgets = (self.range_check, self.from_edit, self.to_edit)
        for w in widgets:
            w.blockSignals(True)
        on = since is not None or until is not None
        self.range_check.setChecked(on)
        self.from_edit.setEnabled(on)
        self.to_edit.setEnabled(on)
        if since is not None:
            self.from_edit.setDate(QDateTime.fromMSecsSinceEpoch(since).date())
        if until is not None:
            self.to_edit.setDate(QDateTime.fromMSecsSinceEpoch(until).date())
        for w in widgets:
            w.blockSignals(False)

    def suggest_dates(self, last_day_ms: int) -> None:
        """Before the dates are used: offer the month up to the last day with messages."""
        if self.range_check.isChecked():
            return
        last = QDateTime.fromMSecsSinceEpoch(last_day_ms).date()
        for e, d in ((self.from_edit, last.addDays(-30)), (self.to_edit, last)):
            e.blockSignals(True)
            e.setDate(d)
            e.blockSignals(False)

    def set_hits(self, text: str, tooltip: str = "") -> None:
        self.hits_label.setText(text)
        self.hits_label.setToolTip(tooltip)
        accessible.announce(self.search_edit, text)

    # -- input -------------------------------------------------------------------------------------------
    def _on_check(self, on: bool) -> None:
        self.from_edit.setEnabled(on)
        self.to_edit.setEnabled(on)
        if on:
            self.rangeEdited.emit(*self.edited_range())
        else:
            self.rangeEdited.emit(None, None)

    def _on_date(self, *_: object) -> None:
        if self.range_check.isChecked():
            self.rangeEdited.emit(*self.edited_range())
