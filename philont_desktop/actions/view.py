"""The Actions tab: the tool-call log with filters, details, failure rates and a way to the conversation."""

from __future__ import annotations

import html
from typing import Any

from core.models import Action
from philont_desktop.actions.model import (
    COL_PARAMS,
    COL_RESULT,
    COL_SKILL,
    COL_TIME,
    COL_TOOL,
    ActionsFilter,
    ActionsMeta,
    ActionsModel,
    job_meta,
    pretty_json,
)
from philont_desktop.i18n import monospace_font
from philont_desktop.qt import (
    QAbstractItemView,
    QComboBox,
    QDateTime,
    QEvent,
    QHBoxLayout,
    QHeaderView,
    QItemSelectionModel,
    QLabel,
    QModelIndex,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    Qt,
    QTableView,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.tabs.base import BaseTab
from philont_desktop.tabs.navigation import ShowTime
from philont_desktop.widgets.rows_model import RowRole
from philont_desktop.widgets.text import format_local

SHOWN_CHARS = 200_000


class ActionsTable(QTableView):
    """The log; rows inserted above keep the rows the user looks at in place."""

    def __init__(self, model: ActionsModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.setModel(model)
        self._model = model
        self._keep: int | None = None
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.verticalHeader().hide()
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.setAlternatingRowColors(True)
        self.setShowGrid(False)
        self.setWordWrap(False)
        model.rowsAboutToBeInserted.connect(self._before_insert)
        model.rowsInserted.connect(self._after_insert)

    def _before_insert(self, parent: QModelIndex, first: int, last: int) -> None:
        sb = self.verticalScrollBar()
        self._keep = sb.value() if first == 0 and sb.value() > 0 else None

    def _after_insert(self, parent: QModelIndex, first: int, last: int) -> None:
        if self._keep is None:
            return
        keep, self._keep = self._keep, None
        h = self.verticalHeader().defaultSectionSize()
        self.doItemsLayout()
        self.verticalScrollBar().setValue(keep + (last - first + 1) * h)


class ActionsTab(BaseTab):
    """Time, tool, parameters (pretty JSON), result, outcome and linked skill of every tool call."""

    name = "actions"

    def __init__(self, ctx, parent: QWidget | None = None):
        super().__init__(ctx, parent)
        self.model = ActionsModel(self.controller.submit, ctx.theme, self)
        self._meta: ActionsMeta | None = None
        self._shown: Action | None = None

        # filters
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
        bar = QHBoxLayout()
        bar.setContentsMargins(6, 6, 6, 2)
        bar.addWidget(QLabel(self.tr("Tool"), self))
        bar.addWidget(self.tool_combo)
        bar.addWidget(QLabel(self.tr("Outcome"), self))
        bar.addWidget(self.outcome_combo)
        bar.addWidget(QLabel(self.tr("Skill"), self))
        bar.addWidget(self.skill_combo)
        bar.addStretch(1)
        bar.addWidget(self.count_label)

        # table
        self.table = ActionsTable(self.model, self)
        self.table.setObjectName("actionsTable")
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setHighlightSections(False)
        fm = self.fontMetrics()
        widths = {
            COL_TIME: fm.horizontalAdvance("2026-12-31 23:59:59") + 16,
            COL_TOOL: fm.horizontalAdvance("create_calendar_event") + 16,
            2: fm.horizontalAdvance("\u2717 failure") + 20,
            COL_SKILL: fm.horizontalAdvance("deploy-web-frontend") + 16,
            COL_PARAMS: 320,
        }
        for c, w in widths.items():
            hh.resizeSection(c, w)
        hh.setStretchLastSection(True)
        self.table.selectionModel().currentRowChanged.connect(self._on_current)
        self.table.doubleClicked.connect(lambda _i: self.show_in_timeline())

        # chart: built when the tab is first shown (pyqtgraph is not needed before)
        self._chart: Any = None
        self._stats: list[Any] = []
        self.chart_box = QWidget(self)
        self.chart_box.setObjectName("failureRateBox")
        self._chart_layout = QVBoxLayout(self.chart_box)
        self._chart_layout.setContentsMargins(0, 0, 0, 0)

        # details
        mono = monospace_font()
        self.header = QLabel(self)
        self.header.setObjectName("actionHeader")
        self.header.setWordWrap(True)
        self.header.setTextFormat(Qt.TextFormat.RichText)
        self.header.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.params_view = QPlainTextEdit(self)
        self.params_view.setObjectName("actionParams")
        self.params_view.setReadOnly(True)
        self.params_view.setFont(mono)
        self.result_view = QPlainTextEdit(self)
        self.result_view.setObjectName("actionResult")
        self.result_view.setReadOnly(True)
        self.result_view.setFont(mono)
        for edit in (self.params_view, self.result_view):
            edit.viewport().installEventFilter(self)
        self.jump_btn = QPushButton(self.tr("Show the messages around this action"), self)
        self.jump_btn.setObjectName("jumpToTimeline")
        self.jump_btn.clicked.connect(self.show_in_timeline)
        self.jump_btn.setEnabled(False)
        detail = QWidget(self)
        dl = QVBoxLayout(detail)
        dl.setContentsMargins(6, 0, 6, 6)
        dl.addWidget(self.header)
        dl.addWidget(QLabel(self.tr("Parameters"), self))
        dl.addWidget(self.params_view, 3)
        dl.addWidget(QLabel(self.tr("Result"), self))
        dl.addWidget(self.result_view, 2)
        dl.addWidget(self.jump_btn)

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
        main.addWidget(detail)
        main.setStretchFactor(0, 3)
        main.setStretchFactor(1, 2)
        main.setSizes([860, 480])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(bar)
        lay.addWidget(main, 1)
        self.register_splitter(main, "main")
        self.register_splitter(left, "left")

        self.tool_combo.currentIndexChanged.connect(lambda _i: self.reload())
        self.outcome_combo.currentIndexChanged.connect(lambda _i: self.reload())
        self.skill_combo.activated.connect(lambda _i: self.reload())
        self.skill_combo.lineEdit().editingFinished.connect(self.reload)
        self.model.loaded.connect(self._on_loaded)
        self.model.failed.connect(
            lambda exc: self.ctx.show_error(self.tr("The action log could not be read"), exc)
        )
        self._show(None)

    # -- BaseTab -------------------------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.tool_combo.setItemText(0, self.tr("All tools"))
        self.skill_combo.setItemText(0, self.tr("Any linked skill"))
        super().retranslate()
        self._show(self._shown)
        self._on_loaded()

    def activate(self) -> None:
        self.reload()
        self._load_meta()
        _ = self.chart

    @property
    def chart(self) -> Any:
        """The failure-rate chart (built on first use)."""
        if self._chart is None:
            from philont_desktop.actions.chart import FailureRateChart

            self._chart = FailureRateChart(self.ctx.theme, self.chart_box)
            self._chart.toolClicked.connect(self.filter_tool)
            self._chart_layout.addWidget(self._chart)
            if self._stats:
                self._chart.set_stats(self._stats)
        return self._chart

    def refresh(self) -> None:
        if not self.activated:
            return
        self.model.refresh()
        self._load_meta()

    def wait_idle(self, timeout_ms: int = 10_000) -> bool:
        deadline = QDateTime.currentMSecsSinceEpoch() + timeout_ms
        while True:
            left = deadline - QDateTime.currentMSecsSinceEpoch()
            if super().wait_idle(max(0, int(left))):
                return True
            if left <= 0:
                return False

    # -- filters -------------------------------------------------------------------------------------------
    def current_filter(self) -> ActionsFilter:
        skill = self.skill_combo.currentText().strip()
        if self.skill_combo.currentIndex() == 0 and skill == self.skill_combo.itemText(0):
            skill = ""
        return ActionsFilter(
            tool=self.tool_combo.currentData(),
            success=self.outcome_combo.currentData(),
            linked_skill=skill or None,
        )

    def reload(self) -> None:
        flt = self.current_filter()
        if flt == self.model.filter and self.model.rowCount() and not self.model.loading:
            return
        self.model.set_filter(flt)

    def filter_tool(self, tool: str | None) -> None:
        i = self.tool_combo.findData(tool) if tool else 0
        if i < 0:
            self.tool_combo.addItem(tool, tool)
            i = self.tool_combo.count() - 1
        self.tool_combo.setCurrentIndex(i)

    def filter_outcome(self, success: bool | None) -> None:
        self.outcome_combo.setCurrentIndex(self.outcome_combo.findData(success) if success is not None else 0)

    def filter_skill(self, skill: str | None) -> None:
        self.skill_combo.setEditText(skill or "")
        if not skill:
            self.skill_combo.setCurrentIndex(0)
        self.reload()

    def _load_meta(self) -> None:
        self.run(job_meta, on_result=self._on_meta, key="meta")

    def _on_meta(self, meta: ActionsMeta) -> None:
        self._meta = meta
        self._stats = list(meta.stats)
        if self._chart is not None:
            self._chart.set_stats(self._stats)
        current = self.tool_combo.currentData()
        self.tool_combo.blockSignals(True)
        while self.tool_combo.count() > 1:
            self.tool_combo.removeItem(1)
        for t in meta.tools:
            self.tool_combo.addItem(t, t)
        i = self.tool_combo.findData(current) if current else 0
        if i < 0:
            self.tool_combo.addItem(current, current)
            i = self.tool_combo.count() - 1
        self.tool_combo.setCurrentIndex(i)
        self.tool_combo.blockSignals(False)
        text = self.skill_combo.currentText()
        idx = self.skill_combo.currentIndex()
        self.skill_combo.blockSignals(True)
        while self.skill_combo.count() > 1:
            self.skill_combo.removeItem(1)
        for s in meta.skills:
            self.skill_combo.addItem(s, s)
        if idx > 0 or (text and text != self.skill_combo.itemText(0)):
            self.skill_combo.setEditText(text)
        else:
            self.skill_combo.setCurrentIndex(0)
        self.skill_combo.blockSignals(False)

    def _on_loaded(self) -> None:
        n = self.model.rowCount()
        if n == 0:
            text = self.tr("No actions")
        elif self.model.complete:
            text = self.tr("1 action") if n == 1 else self.tr("%1 actions").replace("%1", f"{n:,}")
        else:
            text = self.tr("%1+ actions (more as you scroll)").replace("%1", f"{n:,}")
        self.count_label.setText(text)
        if not self.table.currentIndex().isValid() and n:
            self.table.selectionModel().setCurrentIndex(
                self.model.index(0, 0),
                QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
            )
        elif not n:
            self._show(None)

    # -- details -------------------------------------------------------------------------------------------
    def _on_current(self, current: QModelIndex, _prev: QModelIndex) -> None:
        self._show(current.data(RowRole) if current.isValid() else None)

    def current_action(self) -> Action | None:
        return self._shown

    def _show(self, a: Action | None) -> None:
        self._shown = a
        self.jump_btn.setEnabled(a is not None)
        if a is None:
            self.header.setText(html.escape(self.tr("Select an action to see its parameters and result.")))
            self.params_view.setPlainText("")
            self.result_view.setPlainText("")
            return
        ok = self.ctx.theme.status_color("live" if a.success else "error").name()
        outcome = self.tr("succeeded") if a.success else self.tr("failed")
        rows = [
            f"<b>{html.escape(a.tool_name)}</b> &nbsp;<span style='color:{ok}'>"
            f"{'&#10003;' if a.success else '&#10007;'} {html.escape(outcome)}</span>",
            html.escape(self.tr("Time: %1").replace("%1", format_local(a.timestamp))),
            html.escape(self.tr("Session: %1").replace("%1", a.session_id)),
        ]
        if a.linked_skill:
            rows.append(html.escape(self.tr("Linked skill: %1").replace("%1", a.linked_skill)))
        if a.trigger:
            rows.append(html.escape(self.tr("Trigger: %1").replace("%1", a.trigger)))
        if a.json_errors:
            rows.append(html.escape(self.tr("The parameters are not valid JSON; shown as stored.")))
        self.header.setText("<br>".join(rows))
        self._set_bounded(self.params_view, pretty_json(a), self.tr("Parameters"))
        self._set_bounded(
            self.result_view,
            a.result if a.result is not None else self.tr("(no result recorded)"),
            self.tr("Result"),
        )

    def _set_bounded(self, edit: QPlainTextEdit, text: str, what: str) -> None:
        """Show at most :data:`SHOWN_CHARS` characters; the whole text opens in a viewer on demand."""
        from philont_desktop.widgets.fulltext import break_long_lines

        shown, broken = break_long_lines(text[:SHOWN_CHARS])
        edit.setProperty("fullText", text if (broken or len(text) > SHOWN_CHARS) else None)
        edit.setProperty("fullTitle", what)
        notes = []
        if len(text) > SHOWN_CHARS:
            notes.append(
                self.tr("[… %1 more characters: double-click to see the whole text]").replace(
                    "%1", f"{len(text) - SHOWN_CHARS:,}"
                )
            )
        if broken:
            notes.append(
                self.tr("[long lines are broken for display: double-click to see the text as it is]")
            )
        edit.setPlainText(shown + ("\n" + "\n".join(notes) if notes else ""))

    def eventFilter(self, obj: Any, event: Any) -> bool:
        if event.type() == QEvent.Type.MouseButtonDblClick:
            for edit in (self.params_view, self.result_view):
                if obj is edit.viewport() and edit.property("fullText"):
                    self.open_full_text(edit)
                    return True
        return super().eventFilter(obj, event)

    def open_full_text(self, edit: QPlainTextEdit) -> None:
        from philont_desktop.widgets.fulltext import FullTextDialog

        text = edit.property("fullText")
        if not text:
            return
        dlg = FullTextDialog(str(edit.property("fullTitle") or ""), text, self, monospace=True)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        dlg.show()

    # -- to the timeline --------------------------------------------------------------------------------------
    def show_in_timeline(self) -> bool:
        """Show the messages around the selected action in the Timeline tab."""
        a = self._shown
        if a is None:
            return False
        if not self.ctx.navigator.go(ShowTime(a.timestamp)):
            self.ctx.statusMessage.emit(self.tr("The Timeline tab is not available."))
            return False
        return True


__all__ = ["COL_PARAMS", "COL_RESULT", "COL_SKILL", "ActionsTab"]
