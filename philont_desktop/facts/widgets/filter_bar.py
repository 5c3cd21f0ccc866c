"""The Facts tab's filter bar: text over keys and values, one column filter, superseded / forgotten."""

from __future__ import annotations

from collections.abc import Sequence

from philont_desktop.facts.columns import FactsQuery
from philont_desktop.facts.widgets.narrow import TAB_NARROW, Narrowing
from philont_desktop.qt import QCheckBox, QComboBox, QGridLayout, QLineEdit, QTimer, QWidget, Signal

FILTER_DEBOUNCE_MS = 150


class FactsFilterBar(QWidget):
    """Emits ``queryChanged`` (after a pause while typing; at once for the other controls)."""

    queryChanged = Signal()

    def __init__(self, headers: Sequence[str], parent: QWidget | None = None):
        super().__init__(parent)
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setObjectName("factsFilter")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.setPlaceholderText(self.tr("Filter keys and values"))
        self.column_combo = QComboBox(self)
        self.column_combo.setObjectName("factsFilterColumn")
        self.column_combo.addItem(self.tr("Column filter: off"), None)
        for c, title in enumerate(headers):
            self.column_combo.addItem(title, c)
        self.column_edit = QLineEdit(self)
        self.column_edit.setObjectName("factsColumnFilter")
        self.column_edit.setClearButtonEnabled(True)
        self.column_edit.setPlaceholderText(self.tr("text, or < 0.05, >= 2026-05-01, 0.2 .. 0.8"))
        self.column_edit.setEnabled(False)
        for edit in (self.filter_edit, self.column_edit):  # never squeezed to "Fi…" by large text
            edit.setMinimumWidth(edit.fontMetrics().horizontalAdvance("x" * 12))
        self.superseded_check = QCheckBox(self.tr("Superseded"), self)
        self.forgotten_check = QCheckBox(self.tr("Forgotten"), self)
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        Narrowing(parent or self, TAB_NARROW, self._place)  # the tab: the bar is narrow when it is

        self.debounce = QTimer(self)
        self.debounce.setSingleShot(True)
        self.debounce.setInterval(FILTER_DEBOUNCE_MS)
        self.debounce.timeout.connect(self.queryChanged)
        self.filter_edit.textChanged.connect(lambda *_: self.debounce.start())
        self.column_edit.textChanged.connect(lambda *_: self.debounce.start())
        self.filter_edit.returnPressed.connect(self._now)
        self.column_edit.returnPressed.connect(self._now)
        self.column_combo.currentIndexChanged.connect(self._on_column)
        self.superseded_check.toggled.connect(lambda *_: self._now())
        self.forgotten_check.toggled.connect(lambda *_: self._now())

    def _place(self, narrow: bool) -> None:
        """One row; two where the bar is narrow (the column filter under the text filter)."""
        g = self.grid
        wide = ((0, 0, 1, 1), (0, 1, 1, 1), (0, 2, 1, 1), (0, 3, 1, 1), (0, 4, 1, 1))
        two = ((0, 0, 1, 2), (1, 0, 1, 1), (1, 1, 1, 3), (0, 2, 1, 1), (0, 3, 1, 1))
        widgets = (self.filter_edit, self.column_combo, self.column_edit, self.superseded_check)
        for w, at in zip((*widgets, self.forgotten_check), two if narrow else wide, strict=True):
            g.removeWidget(w)  # moved, not added twice
            g.addWidget(w, *at)
        for col in range(5):
            g.setColumnStretch(col, 0 if narrow else (3, 0, 2, 0, 0)[col])
        g.setColumnStretch(1, 1 if narrow else 0)

    def _now(self) -> None:
        self.debounce.stop()
        self.queryChanged.emit()

    def _on_column(self, *_: object) -> None:
        self.column_edit.setEnabled(self.column_combo.currentData() is not None)
        self._now()

    def query(self) -> FactsQuery:
        col = self.column_combo.currentData()
        return FactsQuery(
            text=self.filter_edit.text(),
            column=col,
            expr=self.column_edit.text() if col is not None else "",
            show_superseded=self.superseded_check.isChecked(),
            show_forgotten=self.forgotten_check.isChecked(),
        )

    def set_column_filter(self, column: int | None, expr: str) -> None:
        """Choose a column filter (``None``: off) and its expression; ``queryChanged`` follows at once."""
        self.blockSignals(True)
        try:
            idx = self.column_combo.findData(column)
            self.column_combo.setCurrentIndex(max(0, idx))
            self.column_edit.setText(expr)
        finally:
            self.blockSignals(False)
        self._now()
