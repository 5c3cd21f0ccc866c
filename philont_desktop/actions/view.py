"""The Actions tab: the tool-call log with filters, details, failure rates and a way to the conversation.

The shape of every tab (see :mod:`philont_desktop.tabs`): :mod:`.state` holds the filter, the shown
action and what the filters offer; :mod:`.controller` loads them; this view composes the filter bar, the
table, the failure-rate chart (built when first shown: pyqtgraph is not needed before) and the detail
pane (``widgets/``).
"""

from __future__ import annotations

from typing import Any

from core.models import Action
from philont_desktop.actions.controller import ActionsController
from philont_desktop.actions.model import (
    COL_OUTCOME,
    COL_PARAMS,
    COL_RESULT,
    COL_SKILL,
    COL_TIME,
    COL_TOOL,
    ActionsModel,
)
from philont_desktop.actions.state import ActionsFilter, ActionsState, chart_height
from philont_desktop.actions.widgets.detail import SHOWN_CHARS, ActionDetail
from philont_desktop.actions.widgets.filter_bar import ActionsFilterBar
from philont_desktop.qt import (
    QCoreApplication,
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QSplitter,
    Qt,
    QTableView,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.tabs.base import BaseTab
from philont_desktop.widgets.after_paint import AfterPaint, next_turn
from philont_desktop.widgets.rows_model import RowRole
from philont_desktop.widgets.table import setup_table

__all__ = ["COL_PARAMS", "COL_RESULT", "COL_SKILL", "SHOWN_CHARS", "ActionsTab"]

WIDTHS: dict[int, int | str] = {
    COL_TIME: "2026-12-31 23:59:59",
    COL_TOOL: "schedule_reminder",  # longer names are elided, whole in the tooltip
    COL_OUTCOME: "\u2717 failure",
    COL_SKILL: "book-train-Beijing",
    COL_PARAMS: 320,
}


class ActionsTab(BaseTab):
    """Time, tool, parameters (pretty JSON), result, outcome and linked skill of every tool call."""

    name = "actions"

    def __init__(self, ctx, parent: QWidget | None = None):
        super().__init__(ctx, parent)
        self.bar = ActionsFilterBar(self)
        self.table = setup_table(
            QTableView(self),
            self.model,
            name="actionsTable",
            widths=WIDTHS,
            stretch_last=True,
            per_pixel=True,
            keep_position=True,
        )
        self.detail = ActionDetail(ctx.theme, self)
        self._chart: Any = None
        self.chart_box = QWidget(self)
        self.chart_box.setObjectName("failureRateBox")
        self._chart_layout = QVBoxLayout(self.chart_box)
        self._chart_layout.setContentsMargins(0, 0, 0, 0)
        # The chart (a pyqtgraph plot, ~20 ms to make) once the log's first rows are painted, in an
        # event-loop turn of its own: the log first; its bars and its first paint in the next turns.
        self._chart_after = AfterPaint(self.table.viewport(), self._make_chart, self)
        self._reveal = next_turn(self, self._show_chart)
        self._restat = next_turn(self, self._chart_stats)
        self._lay_out()
        self.bar.filterChanged.connect(self.reload)
        self.table.selectionModel().currentRowChanged.connect(self._on_current)
        self.table.doubleClicked.connect(lambda _i: self.show_in_timeline())
        self.detail.timelineRequested.connect(self.show_in_timeline)
        self.model.loaded.connect(self._on_loaded)
        self.state.changed.connect(self._on_state)
        self.detail.show_action(None)

    def _lay_out(self) -> None:
        left = QSplitter(Qt.Orientation.Vertical, self)
        left.setObjectName("actionsLeft")
        left.addWidget(self.table)
        left.addWidget(self.chart_box)
        left.setStretchFactor(0, 3)
        left.setStretchFactor(1, 1)
        left.setSizes([560, 230])
        main = QSplitter(Qt.Orientation.Horizontal, self)
        main.setObjectName("actionsMain")
        main.addWidget(left)
        main.addWidget(self.detail)
        main.setStretchFactor(0, 2)  # the log takes the width, at 1024 px too
        main.setStretchFactor(1, 1)
        main.setSizes([900, 420])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.bar)
        lay.addWidget(main, 1)
        self.register_splitter(main, "main")
        self.register_splitter(left, "left")

    def create_state(self) -> ActionsState:
        return ActionsState()

    def create_controller(self) -> ActionsController:
        return ActionsController(self.ctx, self.state, self.name, self)

    # -- the parts, by name (tests and the self-test use them) ----------------------------------------
    @property
    def model(self) -> ActionsModel:
        return self.controller.model

    @property
    def count_label(self):
        return self.bar.count_label

    @property
    def header(self):
        return self.detail.header

    @property
    def params_view(self):
        return self.detail.params_view

    @property
    def result_view(self):
        return self.detail.result_view

    @property
    def jump_btn(self):
        return self.detail.jump_btn

    def open_full_text(self, edit) -> None:
        self.detail.open_full_text(edit)

    @property
    def chart(self) -> Any:
        """The failure-rate chart (built on first use), with its bars."""
        self._make_chart()
        self._show_chart()
        return self._chart

    def _make_chart(self) -> None:
        """Make the chart, hidden: its bars and its first paint come in the next event-loop turns."""
        if self._chart is None:
            from philont_desktop.actions.chart import FailureRateChart

            self._chart = FailureRateChart(self.ctx.theme, self.chart_box)
            self._chart.toolClicked.connect(self.filter_tool)
            self._chart.hide()
            self._chart_layout.addWidget(self._chart)
            self._reveal.start()

    def _chart_stats(self) -> None:
        if self._chart is not None and not self._chart.isHidden():
            self._chart.set_stats(list(self.state.stats))

    def _show_chart(self) -> None:
        self._reveal.stop()
        if self._chart is not None and self._chart.isHidden():
            if self.state.stats:
                self._chart.set_stats(list(self.state.stats))
                self._chart.plot.fit_axes()  # the tools' names laid out: one first paint, not two
            self._chart.show()

    # -- BaseTab --------------------------------------------------------------------------------------
    def activate(self) -> None:
        self.controller.activate()

    def retranslate(self) -> None:
        self.bar.retranslate()
        super().retranslate()
        self.detail.show_action(self.state.shown)
        self._on_loaded()

    def _on_state(self, names: frozenset[str]) -> None:
        if names & {"tools", "skills"}:
            self.bar.set_choices(self.state.tools, self.state.skills)
        if "stats" in names:
            # the chart's place has its height before the chart comes: the log is not resized (and
            # repainted) in the chart's first turns; the splitter gives it that height now, so that the
            # log is painted once at its new size, not once before and once after
            self.chart_box.setMinimumHeight(chart_height(self.chart_box.fontMetrics(), len(self.state.stats)))
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
            self._show_count()
            if self._chart is not None and not self._chart.isHidden():
                self._restat.start()  # the bars in a turn of their own

    def _show_count(self) -> None:
        self.bar.show_count(self.model.rowCount(), self.model.complete, self.state.total())

    # -- filters --------------------------------------------------------------------------------------
    def current_filter(self) -> ActionsFilter:
        return self.bar.current_filter()

    def reload(self) -> None:
        self.controller.set_filter(self.bar.current_filter())

    def filter_tool(self, tool: str | None) -> None:
        self.bar.set_tool(tool)

    def filter_outcome(self, success: bool | None) -> None:
        self.bar.set_outcome(success)

    def filter_skill(self, skill: str | None) -> None:
        self.bar.set_skill(skill)

    # -- the log and the detail -----------------------------------------------------------------------
    def _on_loaded(self) -> None:
        if self._chart is None:
            self._chart_after.request()
        n = self.model.rowCount()
        self._show_count()
        if not self.table.currentIndex().isValid() and n:
            self.table.selectionModel().setCurrentIndex(
                self.model.index(0, 0),
                QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
            )
        elif not n:
            self._show(None)

    def _on_current(self, current: QModelIndex, _prev: QModelIndex) -> None:
        self._show(current.data(RowRole) if current.isValid() else None)

    def _show(self, a: Action | None) -> None:
        self.controller.show(a)
        self.detail.show_action(a)

    def current_action(self) -> Action | None:
        return self.state.shown

    def show_in_timeline(self) -> bool:
        """Switch to the Timeline tab showing the messages around the selected action."""
        return self.controller.show_in_timeline()
