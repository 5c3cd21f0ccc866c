"""The Actions tab's bar: filters by tool, outcome and linked skill, and how many actions are shown."""

from __future__ import annotations

from collections.abc import Sequence

from philont_desktop.actions.state import ActionsFilter
from philont_desktop.qt import QComboBox, QHBoxLayout, QLabel, QWidget, Signal
from philont_desktop.widgets import plain
from philont_desktop.widgets.flow import FlowLayout


class ActionsFilterBar(QWidget):
    """Emits ``filterChanged`` when the user picks a tool, an outcome or a skill."""

    filterChanged = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.tool_combo = QComboBox(self)
        self.tool_combo.setObjectName("toolFilter")
        self.tool_combo.addItem(self.tr("All tools"), None)
        self.outcome_combo = QComboBox(self)
        self.outcome_combo.setObjectName("outcomeFilter")
        self.outcome_combo.addItem(self.tr("Any outcome"), None)
        self.outcome_combo.addItem(self.tr("Succeeded"), True)
        self.outcome_combo.addItem(self.tr("Failed"), False)
        self.skill_combo = QComboBox(self)
        self.skill_combo.setObjectName("skillFilter")
        self.skill_combo.setEditable(True)
        self.skill_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.skill_combo.addItem(self.tr("Any linked skill"), None)
        self.skill_combo.lineEdit().setPlaceholderText(self.tr("Linked skill"))
        self.skill_combo.setMinimumContentsLength(18)
        self.count_label = QLabel(self)
        bar = FlowLayout(self)  # large text in a narrow window: what does not fit goes to a second line
        bar.setContentsMargins(6, 6, 6, 2)
        bar.addWidget(self._pair(self.tr("Tool"), self.tool_combo))
        bar.addWidget(self._pair(self.tr("Outcome"), self.outcome_combo))
        bar.addWidget(self._pair(self.tr("Skill"), self.skill_combo))
        bar.addWidget(self.count_label)
        self.tool_combo.currentIndexChanged.connect(lambda _i: self.filterChanged.emit())
        self.outcome_combo.currentIndexChanged.connect(lambda _i: self.filterChanged.emit())
        self.skill_combo.activated.connect(self._on_skill_chosen)
        self.skill_combo.lineEdit().editingFinished.connect(self.filterChanged)

    def _pair(self, text: str, combo: QComboBox) -> QWidget:
        """A filter's label and its field, kept on one line together."""
        box = QWidget(self)
        lay = QHBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(QLabel(text, box))
        lay.addWidget(combo)
        return box

    def _on_skill_chosen(self, i: int) -> None:
        # Items show names as text (controls visible); choosing one puts the name itself in the field.
        if i > 0:
            self.skill_combo.setEditText(str(self.skill_combo.itemData(i) or ""))
        self.filterChanged.emit()

    def current_filter(self) -> ActionsFilter:
        skill = self.skill_combo.currentText().strip()
        if self.skill_combo.currentIndex() == 0 and skill == self.skill_combo.itemText(0):
            skill = ""
        return ActionsFilter(
            tool=self.tool_combo.currentData(),
            success=self.outcome_combo.currentData(),
            linked_skill=skill or None,
        )

    def set_tool(self, tool: str | None) -> None:
        i = self.tool_combo.findData(tool) if tool else 0
        if i < 0:
            self.tool_combo.addItem(plain.plain(tool, 200, one_line=True), tool)
            i = self.tool_combo.count() - 1
        self.tool_combo.setCurrentIndex(i)

    def set_outcome(self, success: bool | None) -> None:
        self.outcome_combo.setCurrentIndex(self.outcome_combo.findData(success) if success is not None else 0)

    def set_skill(self, skill: str | None) -> None:
        self.skill_combo.setEditText(skill or "")
        if not skill:
            self.skill_combo.setCurrentIndex(0)
        self.filterChanged.emit()

    def set_choices(self, tools: Sequence[str], skills: Sequence[str]) -> None:
        """The tools and skills the log has, keeping what is chosen (also a value not in the lists)."""
        current = self.tool_combo.currentData()
        self.tool_combo.blockSignals(True)
        while self.tool_combo.count() > 1:
            self.tool_combo.removeItem(1)
        for t in tools:
            self.tool_combo.addItem(plain.plain(t, 200, one_line=True), t)
        i = self.tool_combo.findData(current) if current else 0
        if i < 0:
            self.tool_combo.addItem(plain.plain(current, 200, one_line=True), current)
            i = self.tool_combo.count() - 1
        self.tool_combo.setCurrentIndex(i)
        self.tool_combo.blockSignals(False)
        text, idx = self.skill_combo.currentText(), self.skill_combo.currentIndex()
        self.skill_combo.blockSignals(True)
        while self.skill_combo.count() > 1:
            self.skill_combo.removeItem(1)
        for s in skills:
            self.skill_combo.addItem(plain.plain(s, 200, one_line=True), s)
        if idx > 0 or (text and text != self.skill_combo.itemText(0)):
            self.skill_combo.setEditText(text)
        else:
            self.skill_combo.setCurrentIndex(0)
        self.skill_combo.blockSignals(False)

    def show_count(self, n: int, complete: bool, total: int | None = None) -> None:
        """``n`` rows loaded (all of them when ``complete``) of ``total`` (``None``: not known yet)."""
        if complete or (total is not None and total <= n):
            total = n
        if total == 0:
            text = self.tr("No actions")
        elif total is not None and total == n:
            text = self.tr("1 action") if n == 1 else self.tr("%1 actions").replace("%1", f"{n:,}")
        elif total is not None:
            text = (
                self.tr("%1 actions · %2 shown, more as you scroll")
                .replace("%1", f"{total:,}")
                .replace("%2", f"{n:,}")
            )
        elif n:
            text = self.tr("%1+ actions (more as you scroll)").replace("%1", f"{n:,}")
        else:
            text = ""  # the first page is on its way
        self.count_label.setText(text)

    def retranslate(self) -> None:
        self.tool_combo.setItemText(0, self.tr("All tools"))
        self.skill_combo.setItemText(0, self.tr("Any linked skill"))
