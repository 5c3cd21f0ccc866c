"""The detail's Ladder history: the linked actions replayed through the state machine from draft.

:func:`core.ladder.build_ladder` gives the steps (each revision of the recipe resets the grade to
draft); the database's grade may differ, and the summary says so and why.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from core.ladder import LadderStep
from core.repair import is_repair_reason
from philont_desktop.qt import (
    QAbstractItemView,
    QAbstractTableModel,
    QCheckBox,
    QHeaderView,
    QLabel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTableView,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.skills.loaders import SkillDetail
from philont_desktop.skills.repairs import reason_text
from philont_desktop.skills.widgets.colors import Colors
from philont_desktop.skills.widgets.overview import esc, format_time
from philont_desktop.widgets import plain

Invalid = QModelIndex | QPersistentModelIndex


class LadderModel(QAbstractTableModel):
    """Ladder steps (grade changes and revisions, or every step) for a table view."""

    COLUMNS = ("when", "event", "outcome", "counts", "grade")
    StepRole = Qt.ItemDataRole.UserRole + 1

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._steps: list[LadderStep] = []
        self.repair_numbers: dict[int, int] = {}  # row -> repair attempt number
        self.time_format = lambda ms: str(ms)
        self.grade_name = lambda m: m

    def set_steps(self, steps: Sequence[LadderStep]) -> None:
        """Show ``steps``; the revisions that were the agent's repair attempts are numbered in order."""
        self.beginResetModel()
        self._steps = list(steps)
        self.repair_numbers = {}
        n = 0
        for row, st in enumerate(self._steps):
            if st.kind == "revision" and is_repair_reason(st.reason):
                n += 1
                self.repair_numbers[row] = n
        self.endResetModel()

    @property
    def steps(self) -> list[LadderStep]:
        return list(self._steps)

    def rowCount(self, parent: Invalid = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._steps)

    def columnCount(self, parent: Invalid = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if role != Qt.ItemDataRole.DisplayRole or orientation != Qt.Orientation.Horizontal:
            return None
        if not 0 <= section < len(self.COLUMNS):
            return None
        return (self.tr("When"), self.tr("Event"), self.tr("Outcome"), self.tr("After it"), self.tr("Grade"))[
            section
        ]

    def data(self, index: Invalid, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._steps):
            return None
        st = self._steps[index.row()]
        if role == self.StepRole:
            return st
        col = self.COLUMNS[index.column()] if 0 <= index.column() < len(self.COLUMNS) else ""
        if role == Qt.ItemDataRole.DisplayRole:
            if col == "when":
                return self.time_format(st.at)
            if col == "event":
                return plain.plain(self._event(st, index.row()), 400, one_line=True)  # holds stored text
            if col == "outcome":
                if st.kind == "revision":
                    return self.tr("back to draft")
                return self.tr("success") if st.success else self.tr("failure")
            if col == "counts":
                return self.tr("{0} ✓ · {1} ✗ · {2} in a row").format(
                    st.success_count, st.failure_count, st.consecutive_failures
                )
            if col == "grade":
                if st.before == st.after:
                    return self.grade_name(st.after)
                return f"{self.grade_name(st.before)} → {self.grade_name(st.after)}"
        if role == Qt.ItemDataRole.ToolTipRole and col == "event" and st.reason:
            return plain.tooltip(st.reason)
        return None

    def _event(self, st: Any, row: int) -> str:
        """What happened at a step: a revision with its reason, or the tool of a linked action."""
        if st.kind == "revision":
            number = self.repair_numbers.get(row)
            if number is not None:
                return reason_text(st.reason, number)
            return (
                self.tr("recipe revised: {0}").format(st.reason) if st.reason else self.tr("recipe revised")
            )
        return self.tr("{0} (action #{1})").format(st.tool, st.action_id)


class LadderPanel(QWidget):
    """The summary, "every outcome" switch and the steps table of one skill's ladder."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.detail: SkillDetail | None = None
        self.colors = Colors(False)
        self.grade_name: Callable[[str], str] = lambda m: m
        self.summary = QLabel(self)
        self.summary.setObjectName("skillsLadderSummary")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.show_all = QCheckBox(self.tr("Show every outcome, not only grade changes"), self)
        self.show_all.toggled.connect(lambda _b: self._fill())
        self.model = LadderModel(self)
        self.model.time_format = format_time
        self.model.grade_name = lambda m: self.grade_name(m)
        self.table = QTableView(self)
        self.table.setObjectName("skillsLadder")
        self.table.setModel(self.model)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(False)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setStretchLastSection(False)
        hh.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)  # the event (a repair's diagnosis)
        for col, width in ((0, 130), (2, 90), (3, 190), (4, 170)):
            self.table.setColumnWidth(col, width)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 4, 0, 0)
        lay.addWidget(self.summary)
        lay.addWidget(self.show_all)
        lay.addWidget(self.table, 1)

    def show_detail(self, detail: SkillDetail | None, colors: Colors) -> None:
        self.detail = detail
        self.colors = colors
        self._fill()

    def _fill(self) -> None:
        d = self.detail
        if d is None:
            self.model.set_steps([])
            return
        lad = d.ladder
        # every revision is in both lists, so repair attempts are numbered alike
        self.model.set_steps(lad.steps if self.show_all.isChecked() else lad.changes)
        self.summary.setText(self._summary(d))

    def _summary(self, d: SkillDetail) -> str:
        s, lad = d.skill, d.ladder
        if not d.outcomes and not s.revision_history:
            return self.tr(
                "No action in the log is linked to this skill, so there is nothing to replay. "
                "Its grade in the database is {0}."
            ).format(self.grade_name(s.maturity))
        text = self.tr(
            "%n linked action(s) in time order, replayed through the state machine from draft with zero "
            "counters (each revision of the recipe resets the grade to draft): the replay ends on <b>{0}</b> "
            "with {1} ✓ and {2} ✗. The database says <b>{3}</b> with {4} ✓ and {5} ✗.",
            None,
            len(d.outcomes),
        ).format(
            esc(self.grade_name(lad.grade)),
            lad.success_count,
            lad.failure_count,
            esc(self.grade_name(s.maturity)),
            s.success_count,
            s.failure_count,
        )
        same_counts = (lad.success_count, lad.failure_count) == (s.success_count, s.failure_count)
        if lad.grade != s.maturity or not same_counts:
            color = self.colors.failure.name() if lad.grade != s.maturity else self.colors.muted.name()
            why = self.tr(
                "They differ: grades set by hand or by reflection (playbooks, recipe demotions), "
                "outcomes recorded without a linked action, and the reflector crediting one failure "
                "per failing group are not visible in the action log."
            )
            text += f" <span style='color:{color}'>{esc(why)}</span>"
        return text
