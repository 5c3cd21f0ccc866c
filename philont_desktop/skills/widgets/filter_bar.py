"""The board's filter bar: words, kind, source, recipes only, sort order, and the count shown."""

from __future__ import annotations

from philont_desktop.qt import QCheckBox, QComboBox, QGridLayout, QLabel, QLineEdit, QTimer, QWidget, Signal
from philont_desktop.skills.state import BoardFilter
from philont_desktop.widgets.narrow import Narrowing

#: The bar's width at 100 % under which its fields go onto three lines, two by two.
BAR_NARROW = 680


class SkillsFilterBar(QWidget):
    """Emits ``filterEdited(BoardFilter)`` when the user changes the filter (typing waits for a pause)
    and ``sortChosen(mode)``; :meth:`show_filter` puts a filter in the widgets without emitting."""

    filterEdited = Signal(object)  # BoardFilter
    sortChosen = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.search = QLineEdit(self)
        self.search.setObjectName("skillsFilter")
        self.search.setClearButtonEnabled(True)
        self.search.setPlaceholderText(self.tr("Filter by name, description, keywords, source…"))
        self.kind_combo = self._combo(
            "skillsKind",
            (
                (self.tr("All kinds"), "all"),
                (self.tr("Positive"), "positive"),
                (self.tr("Avoid (negative)"), "negative"),
            ),
        )
        self.source_combo = self._combo(
            "skillsSource",
            (
                (self.tr("All sources"), "all"),
                (self.tr("Learned (self:…)"), "self"),
                (self.tr("Imported"), "external"),
                (self.tr("No source"), "none"),
            ),
        )
        self.recipes_check = QCheckBox(self.tr("Recipes only"), self)
        self.sort_combo = self._combo(
            "skillsSort",
            (
                (self.tr("Sort: name"), "name"),
                (self.tr("Sort: most used"), "uses"),
                (self.tr("Sort: recently used"), "recent"),
                (self.tr("Sort: most successes"), "successes"),
                (self.tr("Sort: most failures"), "failures"),
                (self.tr("Sort: ranking score"), "score"),
                (self.tr("Sort: newest"), "newest"),
            ),
        )
        self.summary = QLabel(self)
        self.summary.setObjectName("skillsSummary")
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        Narrowing(self, BAR_NARROW, self._place)
        self._text_timer = QTimer(self)
        self._text_timer.setSingleShot(True)
        self._text_timer.setInterval(120)
        self._text_timer.timeout.connect(self._emit_filter)
        self.search.textChanged.connect(lambda _t: self._text_timer.start())
        self.kind_combo.currentIndexChanged.connect(lambda _i: self._emit_filter())
        self.source_combo.currentIndexChanged.connect(lambda _i: self._emit_filter())
        self.recipes_check.toggled.connect(lambda _b: self._emit_filter())
        self.sort_combo.currentIndexChanged.connect(
            lambda _i: self.sortChosen.emit(self.sort_combo.currentData())
        )

    def _place(self, narrow: bool) -> None:
        """One row; three where the bar is narrow (large text): the text filter and the count, the kind
        and the source, the recipes and the sort order."""
        g = self.grid
        widgets = (self.search, self.kind_combo, self.source_combo, self.recipes_check, self.sort_combo)
        wide = ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5))
        three = ((0, 0), (1, 0), (1, 1), (2, 0), (2, 1), (0, 1))
        for w, at in zip((*widgets, self.summary), three if narrow else wide, strict=True):
            g.removeWidget(w)  # moved, not added twice
            g.addWidget(w, *at)
        for col in range(6):
            g.setColumnStretch(col, (1, 1, 0, 0, 0, 0)[col] if narrow else (3, 0, 0, 0, 0, 1)[col])

    def _combo(self, name: str, items: tuple[tuple[str, str], ...]) -> QComboBox:
        combo = QComboBox(self)
        combo.setObjectName(name)
        for text, value in items:
            combo.addItem(text, value)
        return combo

    def current_filter(self) -> BoardFilter:
        """The filter the widgets show."""
        return BoardFilter(
            self.search.text(),
            self.kind_combo.currentData() or "all",
            self.source_combo.currentData() or "all",
            self.recipes_check.isChecked(),
        )

    def _emit_filter(self) -> None:
        self._text_timer.stop()
        self.filterEdited.emit(self.current_filter())

    def show_filter(self, f: BoardFilter) -> None:
        """Put ``f`` in the widgets (without emitting)."""
        for widget, value in ((self.kind_combo, f.kind), (self.source_combo, f.source)):
            widget.blockSignals(True)
            widget.setCurrentIndex(max(0, widget.findData(value)))
            widget.blockSignals(False)
        self.recipes_check.blockSignals(True)
        self.recipes_check.setChecked(f.recipes_only)
        self.recipes_check.blockSignals(False)
        if self.search.text() != f.text:
            self.search.blockSignals(True)
            self.search.setText(f.text)
            self.search.blockSignals(False)

    def show_sort(self, mode: str) -> None:
        idx = self.sort_combo.findData(mode)
        if idx >= 0 and idx != self.sort_combo.currentIndex():
            self.sort_combo.blockSignals(True)
            self.sort_combo.setCurrentIndex(idx)
            self.sort_combo.blockSignals(False)

    def show_count(self, shown: int, total: int) -> None:
        if shown == total:
            self.summary.setText(self.tr("%n skill(s)", None, total))
        else:
            self.summary.setText(self.tr("{0} of %n skill(s)", None, total).format(shown))
