"""The Facts tab: namespaces, every fact with its decay, curves, overview, history, forget pool, curation.

Loading runs on a worker (``load_facts``: every row, prepared); the GUI thread only scores the rows at
the view time. The time control moves the view time from now up to a year ahead: the table's scores,
the overview and the forget pool follow it. Every change goes through :mod:`core.curation.facts` as an
audited, undoable edit on the shared undo stack (``ctx.curate``); a change computed against a version
the agent superseded meanwhile is refused by the core and the refusal is shown as it is.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable
from typing import Any

from core.curation import facts as cf
from core.curation.facts import BulkPlan
from core.decay import effective_tau, namespace_tau_days, score_memory
from core.errors import ConflictError
from core.facts import UNSET
from core.jsutil import now_ms
from core.models import Fact
from philont_desktop.facts.dialogs import BulkConfirmDialog, FactEditDialog, NamespaceDialog, TauDialog
from philont_desktop.facts.model import (
    C_CONFIDENCE,
    C_CROSSES,
    C_KEY,
    C_KIND,
    C_NAMESPACE,
    C_SCORE,
    C_STATUS,
    C_TAU,
    C_TAU_SOURCE,
    C_VALUE,
    DAY_MS,
    N_COLUMNS,
    THRESHOLD,
    FactRow,
    FactsData,
    FactsModel,
    FactsProxy,
    NamespaceNode,
    PoolModel,
    _ranges,
    fmt_duration,
    fmt_number,
    fmt_tau,
    fmt_time,
    load_facts,
    load_history,
    load_pool,
    namespace_tau_text,
    namespace_tree,
    readable_value,
    status_at,
)
from philont_desktop.qt import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QItemSelection,
    QItemSelectionModel,
    QKeySequence,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QShortcut,
    QSlider,
    QSpinBox,
    QSplitter,
    Qt,
    QTableView,
    QTabWidget,
    QTextBrowser,
    QTimer,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.tabs.base import BaseTab

MAX_OFFSET_DAYS = 365
SCORE_REFRESH_TICKS = 60  # seconds between re-scoring the table at the moving "now"
NsRole = Qt.ItemDataRole.UserRole + 10


class FactsTab(BaseTab):
    """Namespace tree, facts table, decay curves, overview, history, forget pool and curation."""

    name = "facts"

    def __init__(self, ctx: Any, parent: QWidget | None = None):
        super().__init__(ctx, parent)
        self.now_fn: Callable[[], int] = now_ms  # tests pin the clock
        self.offset_days = 0
        self.threshold = THRESHOLD
        self.data: FactsData | None = None
        self._editing = False
        self._select_after_load: list[str] | None = None
        self._ticks = 0
        self._pool_at = 0
        theme = ctx.theme

        # models
        self.model = FactsModel(theme, self)
        self.proxy = FactsProxy(self)
        self.proxy.setSourceModel(self.model)
        self.pool_model = PoolModel(theme, self)

        # -- filter bar --------------------------------------------------------------------------------
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setObjectName("factsFilter")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.setPlaceholderText(self.tr("Filter keys and values"))
        self.column_combo = QComboBox(self)
        self.column_combo.setObjectName("factsFilterColumn")
        self.column_combo.addItem(self.tr("Column filter: off"), None)
        for c, title in enumerate(self.model.headers()):
            self.column_combo.addItem(title, c)
        self.column_edit = QLineEdit(self)
        self.column_edit.setObjectName("factsColumnFilter")
        self.column_edit.setClearButtonEnabled(True)
        self.column_edit.setPlaceholderText(self.tr("text, or < 0.05, >= 2026-05-01, 0.2 .. 0.8"))
        self.column_edit.setEnabled(False)
        self.superseded_check = QCheckBox(self.tr("Superseded"), self)
        self.forgotten_check = QCheckBox(self.tr("Forgotten"), self)
        self._filter_timer = QTimer(self)
        self._filter_timer.setSingleShot(True)
        self._filter_timer.setInterval(150)
        self._filter_timer.timeout.connect(self._apply_filters)
        self.filter_edit.textChanged.connect(lambda *_: self._filter_timer.start())
        self.column_edit.textChanged.connect(lambda *_: self._filter_timer.start())
        self.column_combo.currentIndexChanged.connect(self._on_column_choice)
        self.superseded_check.toggled.connect(lambda *_: self._apply_filters())
        self.forgotten_check.toggled.connect(lambda *_: self._apply_filters())

        # -- time control --------------------------------------------------------------------------------
        self.time_slider = QSlider(Qt.Orientation.Horizontal, self)
        self.time_slider.setObjectName("viewTimeSlider")
        self.time_slider.setRange(0, MAX_OFFSET_DAYS)
        self.time_slider.setPageStep(30)
        self.time_slider.setMinimumWidth(160)
        self.time_spin = QSpinBox(self)
        self.time_spin.setObjectName("viewTimeDays")
        self.time_spin.setRange(0, MAX_OFFSET_DAYS)
        self.time_spin.setPrefix("+")
        self.time_spin.setSuffix(self.tr(" d"))
        self.time_label = QLabel(self)
        self.time_label.setObjectName("viewTimeLabel")
        self.time_label.setMinimumWidth(self.fontMetrics().horizontalAdvance("2026-12-31 23:59") + 8)
        self.now_button = QToolButton(self)
        self.now_button.setText(self.tr("Now"))
        self.now_button.clicked.connect(lambda: self.set_offset_days(0))
        self.time_slider.valueChanged.connect(self.set_offset_days)
        self.time_spin.valueChanged.connect(self.set_offset_days)

        bar = QHBoxLayout()
        bar.setContentsMargins(6, 6, 6, 2)
        bar.addWidget(self.filter_edit, 3)
        bar.addWidget(self.column_combo)
        bar.addWidget(self.column_edit, 2)
        bar.addWidget(self.superseded_check)
        bar.addWidget(self.forgotten_check)
        bar.addSpacing(12)
        bar.addWidget(QLabel(self.tr("View at"), self))
        bar.addWidget(self.time_slider, 2)
        bar.addWidget(self.time_spin)
        bar.addWidget(self.time_label)
        bar.addWidget(self.now_button)

        # -- editing bar ------------------------------------------------------------------------------------
        self.edit_bar = QWidget(self)
        self.edit_bar.setObjectName("factsEditBar")
        eb = QHBoxLayout(self.edit_bar)
        eb.setContentsMargins(6, 0, 6, 2)
        self.add_button = self._button(self.tr("Add…"), self.add_fact, "addFact")
        self.edit_button = self._button(self.tr("Edit…"), self.edit_current, "editFact")
        self.pin_button = self._button(self.tr("Pin"), lambda: self.pin_selected(True), "pinFact")
        self.unpin_button = self._button(self.tr("Unpin"), lambda: self.pin_selected(False), "unpinFact")
        self.tau_button = self._button(self.tr("Tau…"), self.tau_current, "tauFact")
        self.forget_button = self._button(self.tr("Forget"), self.forget_selected, "forgetFact")
        self.unforget_button = self._button(self.tr("Unforget"), self.unforget_current, "unforgetFact")
        self.bulk_button = QToolButton(self.edit_bar)
        self.bulk_button.setObjectName("bulkActions")
        self.bulk_button.setText(self.tr("Bulk"))
        self.bulk_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.bulk_button)
        self.act_forget_pool = menu.addAction(self.tr("Forget all forget-pool candidates…"))
        self.act_forget_pool.triggered.connect(self.forget_pool_candidates)
        self.act_bulk_forget = menu.addAction(self.tr("Forget selected…"))
        self.act_bulk_forget.triggered.connect(lambda: self.bulk_selected("forget"))
        self.act_bulk_pin = menu.addAction(self.tr("Pin selected…"))
        self.act_bulk_pin.triggered.connect(lambda: self.bulk_selected("pin"))
        self.act_bulk_unpin = menu.addAction(self.tr("Unpin selected…"))
        self.act_bulk_unpin.triggered.connect(lambda: self.bulk_selected("unpin"))
        self.act_move = menu.addAction(self.tr("Move selected to namespace…"))
        self.act_move.triggered.connect(self.move_selected)
        self.bulk_button.setMenu(menu)
        for b in (
            self.add_button,
            self.edit_button,
            self.pin_button,
            self.unpin_button,
            self.tau_button,
            self.forget_button,
            self.unforget_button,
        ):
            eb.addWidget(b)
        eb.addWidget(self.bulk_button)
        eb.addStretch(1)
        self.edit_hint = QLabel(self.tr("Every change is audited and can be undone (Ctrl+Z)."), self.edit_bar)
        eb.addWidget(self.edit_hint)

        # -- namespace tree --------------------------------------------------------------------------------
        self.tree = QTreeWidget(self)
        self.tree.setObjectName("namespaceTree")
        self.tree.setHeaderLabels([self.tr("Namespace"), self.tr("Facts"), self.tr("Tau")])
        self.tree.setUniformRowHeights(True)
        self.tree.setRootIsDecorated(True)
        th = self.tree.header()
        th.setStretchLastSection(False)
        th.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        th.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        th.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.currentItemChanged.connect(self._on_namespace)

        # -- table -------------------------------------------------------------------------------------------
        self.table = QTableView(self)
        self.table.setObjectName("factsTable")
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.setShowGrid(False)
        self.table.setSortingEnabled(True)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.table.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setHighlightSections(False)
        hh.setStretchLastSection(True)
        fm = self.fontMetrics()
        time_w = fm.horizontalAdvance("2026-06-15 12:00") + 18
        widths = {
            C_NAMESPACE: 120,
            C_KEY: 150,
            C_VALUE: 260,
            C_CONFIDENCE: fm.horizontalAdvance("Confidence") + 20,
            C_KIND: 60,
            C_TAU: 64,
            C_TAU_SOURCE: 130,
            C_SCORE: fm.horizontalAdvance("Score (+365 d)") + 24,
            C_CROSSES: time_w + fm.horizontalAdvance(" · in 365 d") + 6,
            C_STATUS: 150,
        }
        for c in range(N_COLUMNS):
            hh.resizeSection(c, widths.get(c, time_w))
        state = ctx.settings.header_state("facts/table")
        if state:
            hh.restoreState(state)
        self.table.sortByColumn(C_NAMESPACE, Qt.SortOrder.AscendingOrder)
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._sel_timer.start())
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._sel_timer.start())
        self.table.doubleClicked.connect(lambda *_: self.edit_current() if self._editing else None)
        self._sel_timer = QTimer(self)
        self._sel_timer.setSingleShot(True)
        self._sel_timer.setInterval(30)
        self._sel_timer.timeout.connect(self._on_selection)

        # -- bottom: curves, overview, history, pool -----------------------------------------------------------
        # Imported here: the plots pull in pyqtgraph and numpy, which the window does not need until this
        # tab is built.
        from philont_desktop.facts.plots import DecayCurvePlot, OverviewPlot

        self.curves = DecayCurvePlot(theme, self)
        self.curves.viewTimeDragged.connect(self._on_view_dragged)
        self.whatif_box = self._build_whatif()
        curves_page = QWidget(self)
        cl = QHBoxLayout(curves_page)
        cl.setContentsMargins(4, 4, 4, 4)
        cl.addWidget(self.curves, 1)
        cl.addWidget(self.whatif_box)

        self.overview = OverviewPlot(theme, self)
        self.overview.selectionRequested.connect(self.select_ids)

        self.history = QTextBrowser(self)
        self.history.setObjectName("factHistory")
        self.history.setOpenLinks(False)

        pool_page = QWidget(self)
        pl = QVBoxLayout(pool_page)
        pl.setContentsMargins(4, 4, 4, 4)
        self.pool_label = QLabel(pool_page)
        self.pool_label.setObjectName("poolLabel")
        self.pool_label.setWordWrap(True)
        self.pool_view = QTableView(pool_page)
        self.pool_view.setObjectName("forgetPool")
        self.pool_view.setModel(self.pool_model)
        self.pool_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.pool_view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.pool_view.verticalHeader().hide()
        self.pool_view.setAlternatingRowColors(True)
        self.pool_view.setShowGrid(False)
        self.pool_view.setWordWrap(False)
        self.pool_view.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        ph = self.pool_view.horizontalHeader()
        ph.setStretchLastSection(True)
        for c, w in enumerate((200, 280, 90, time_w + fm.horizontalAdvance(" · in 365 d") + 6, time_w)):
            ph.resizeSection(c, w)
        self.pool_view.doubleClicked.connect(self._pool_show_in_table)
        pool_buttons = QHBoxLayout()
        self.pool_pin = self._button(self.tr("Pin"), self.pool_pin_selected, "poolPin")
        self.pool_forget = self._button(self.tr("Forget selected…"), self.pool_forget_selected, "poolForget")
        self.pool_forget_all = self._button(
            self.tr("Forget all candidates…"), self.forget_pool_candidates, "poolForgetAll"
        )
        self.pool_show = self._button(self.tr("Show in table"), self._pool_show_in_table, "poolShow")
        pool_buttons.addWidget(self.pool_show)
        pool_buttons.addStretch(1)
        for b in (self.pool_pin, self.pool_forget, self.pool_forget_all):
            pool_buttons.addWidget(b)
        pl.addWidget(self.pool_label)
        pl.addWidget(self.pool_view, 1)
        pl.addLayout(pool_buttons)

        self.bottom = QTabWidget(self)
        self.bottom.setObjectName("factsBottom")
        self.bottom.addTab(curves_page, self.tr("Decay curves"))
        self.bottom.addTab(self.overview, self.tr("Overview"))
        self.bottom.addTab(self.history, self.tr("History"))
        self.bottom.addTab(pool_page, self.tr("Forget pool"))
        self._overview_dirty = True
        self.bottom.currentChanged.connect(lambda *_: self._sync_overview())

        self.right = QSplitter(Qt.Orientation.Vertical, self)
        self.right.setObjectName("factsRight")
        self.right.addWidget(self.table)
        self.right.addWidget(self.bottom)
        self.right.setStretchFactor(0, 5)
        self.right.setStretchFactor(1, 4)
        self.right.setChildrenCollapsible(False)
        self.split = QSplitter(Qt.Orientation.Horizontal, self)
        self.split.setObjectName("factsSplit")
        self.split.addWidget(self.tree)
        self.split.addWidget(self.right)
        self.split.setStretchFactor(0, 1)
        self.split.setStretchFactor(1, 5)
        self.split.setSizes([250, 1000])
        self.right.setSizes([420, 360])
        self.register_splitter(self.split, "split")
        self.register_splitter(self.right, "right")

        self.status_label = QLabel(self)
        self.status_label.setObjectName("factsStatus")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        lay.addLayout(bar)
        lay.addWidget(self.edit_bar)
        lay.addWidget(self.split, 1)
        sl = QHBoxLayout()
        sl.setContentsMargins(6, 2, 6, 4)
        sl.addWidget(self.status_label)
        lay.addLayout(sl)

        QShortcut(QKeySequence.StandardKey.Find, self, activated=self.filter_edit.setFocus)
        del_sc = QShortcut(QKeySequence.StandardKey.Delete, self.table)
        del_sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        del_sc.activated.connect(lambda: self.forget_selected() if self._editing else None)

        self.clock = QTimer(self)
        self.clock.setInterval(1000)
        self.clock.timeout.connect(self._tick)
        ctx.editingChanged.connect(self.set_editing)
        ctx.undo.stepFinished.connect(self._on_undo_step)
        self.set_editing(ctx.editing)
        self._update_time_label()
        self._update_actions()

    def _on_undo_step(self, kind: str, entry: Any) -> None:
        """An undo/redo of a fact edit (from any tab's Undo): show its result at once."""
        if (
            self.activated
            and kind != "perform"
            and getattr(entry, "target_type", "") in (cf.TARGET, cf.BULK_TARGET)
        ):
            self.refresh()

    def _button(self, text: str, slot: Callable[[], Any], name: str) -> QPushButton:
        b = QPushButton(text, self)
        b.setObjectName(name)
        b.clicked.connect(lambda *_: slot())
        return b

    def _build_whatif(self) -> QGroupBox:
        box = QGroupBox(self.tr("What if"), self)
        box.setObjectName("whatIf")
        box.setMinimumWidth(260)
        box.setMaximumWidth(340)
        self.whatif_fact = QLabel(self.tr("Select one fact."), box)
        self.whatif_fact.setWordWrap(True)
        self.whatif_mode = QComboBox(box)
        self.whatif_mode.setObjectName("whatifMode")
        self.whatif_mode.addItem(self.tr("namespace default"), "namespace")
        self.whatif_mode.addItem(self.tr("custom"), "custom")
        self.whatif_mode.addItem(self.tr("pinned"), "pinned")
        self.whatif_tau = QDoubleSpinBox(box)
        self.whatif_tau.setObjectName("whatifTau")
        self.whatif_tau.setRange(0.01, 36500)
        self.whatif_tau.setDecimals(2)
        self.whatif_tau.setSuffix(self.tr(" d"))
        self.whatif_conf = QDoubleSpinBox(box)
        self.whatif_conf.setObjectName("whatifConfidence")
        self.whatif_conf.setRange(0.0, 1.0)
        self.whatif_conf.setDecimals(3)
        self.whatif_conf.setSingleStep(0.05)
        self.whatif_result = QLabel(box)
        self.whatif_result.setObjectName("whatifResult")
        self.whatif_result.setWordWrap(True)
        self.whatif_reset = QPushButton(self.tr("Reset"), box)
        self.whatif_apply = QPushButton(self.tr("Apply"), box)
        self.whatif_apply.setObjectName("whatifApply")
        self.whatif_reset.clicked.connect(lambda *_: self._load_whatif(self._current_row(), force=True))
        self.whatif_apply.clicked.connect(lambda *_: self.apply_whatif())
        self.whatif_form = QWidget(box)
        form = QFormLayout(self.whatif_form)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow(self.tr("Tau"), self.whatif_mode)
        form.addRow("", self.whatif_tau)
        form.addRow(self.tr("Confidence"), self.whatif_conf)
        buttons = QHBoxLayout()
        buttons.addWidget(self.whatif_reset)
        buttons.addWidget(self.whatif_apply)
        lay = QVBoxLayout(box)
        lay.addWidget(self.whatif_fact)
        lay.addWidget(self.whatif_form)
        lay.addWidget(self.whatif_result)
        lay.addStretch(1)
        lay.addLayout(buttons)
        self._whatif_row: FactRow | None = None
        self._whatif_loading = False
        self.whatif_mode.currentIndexChanged.connect(lambda *_: self._whatif_changed())
        self.whatif_tau.valueChanged.connect(lambda *_: self._whatif_changed())
        self.whatif_conf.valueChanged.connect(lambda *_: self._whatif_changed())
        self._set_whatif_enabled(False)
        return box

    # -- lifecycle ------------------------------------------------------------------------------------------------
    def activate(self) -> None:
        self.clock.start()
        self.refresh()

    def refresh(self) -> None:
        real = self.real_now
        self.run(
            load_facts,
            real + self.offset_days * DAY_MS,
            real,
            on_result=self._on_loaded,
            key="load",
            label=self.tr("Loading facts"),
        )

    def retranslate(self) -> None:
        super().retranslate()
        self._update_time_label()
        if self.activated:
            self._on_selection()  # curves, what-if and history in the new language

    def save_state(self) -> None:
        super().save_state()
        self.ctx.settings.set_header_state("facts/table", self.table.horizontalHeader().saveState())

    def set_editing(self, on: bool) -> None:
        self._editing = bool(on)
        self.edit_bar.setVisible(self._editing)
        for b in (self.pool_pin, self.pool_forget, self.pool_forget_all):
            b.setVisible(self._editing)
        self.whatif_apply.setVisible(self._editing and self._whatif_row is not None)
        self._whatif_changed()
        self._update_actions()

    # -- time ---------------------------------------------------------------------------------------------------------
    @property
    def real_now(self) -> int:
        return int(self.now_fn())

    @property
    def view_time(self) -> int:
        return self.model.view_time

    def set_offset_days(self, days: int) -> None:
        """Move the view time ``days`` into the future (0 = now); table, overview, pool follow."""
        days = max(0, min(MAX_OFFSET_DAYS, int(days)))
        for w in (self.time_slider, self.time_spin):
            if w.value() != days:
                w.blockSignals(True)
                w.setValue(days)
                w.blockSignals(False)
        if (
            days == self.offset_days
            and self.model.rowCount()
            and self.view_time == self.real_now + days * DAY_MS
        ):
            return
        self.offset_days = days
        self._apply_view_time()
        self._load_pool()

    def _apply_view_time(self) -> None:
        real = self.real_now
        view = real + self.offset_days * DAY_MS
        self.model.set_view_time(view, real)
        if self.proxy.time_dependent:
            self.proxy.refilter()
        if self._overview_shown() and not self._overview_dirty:
            self.overview.set_view_time(view)
        else:
            self._overview_dirty = True
        self.curves.set_times(real, view)
        self._update_time_label()
        self._update_status()
        self._update_whatif_result()

    def _on_view_dragged(self, ms: float) -> None:
        self.set_offset_days(round((ms - self.real_now) / DAY_MS))

    def _tick(self) -> None:
        real = self.real_now
        self.curves.tick(real)
        self._ticks += 1
        if self._ticks % SCORE_REFRESH_TICKS == 0 and self.isVisible() and self.model.rowCount():
            self._apply_view_time()

    def _update_time_label(self) -> None:
        view = self.real_now + self.offset_days * DAY_MS
        if self.offset_days == 0:
            self.time_label.setText(self.tr("now"))
        else:
            self.time_label.setText(fmt_time(view))

    # -- loading -----------------------------------------------------------------------------------------------------
    def _on_loaded(self, data: FactsData) -> None:
        self.data = data
        if (
            data.scored_at is not None
            and data.real_now is not None
            and (data.scored_at - data.real_now == self.offset_days * DAY_MS)
        ):
            real, view = data.real_now, data.scored_at  # scored on the worker: "now" is the load time
            self.model.view_time, self.model.real_now = view, real
        else:
            real = self.real_now
            view = real + self.offset_days * DAY_MS
            self.model.set_view_time(view, real)
        selected_before = [r.fid for r in self.selected_rows()]
        if self.model.set_data(data) or self.proxy.time_dependent:
            self.proxy.refilter()
        if selected_before and self._select_after_load is None:
            self._follow_new_versions(selected_before)
        self.curves.set_times(real, view)
        self._rebuild_tree()
        self._overview_dirty = True
        self._sync_overview()
        if self._select_after_load:
            ids, self._select_after_load = self._select_after_load, None
            self.select_ids(ids)
        self._on_selection()
        self._load_pool()
        self._update_status()

    def _follow_new_versions(self, ids: list[str]) -> None:
        """Selected facts that were superseded meanwhile (and are hidden now): select their new head."""
        heads: list[str] = []
        for fid in ids:
            row = self.model.fact_row(fid)
            seen: set[str] = set()
            while row is not None and row.fact.superseded_by is not None and row.fid not in seen:
                seen.add(row.fid)
                row = self.model.fact_row(row.fact.superseded_by)
            if row is not None and row.fid != fid:
                heads.append(row.fid)
        if heads:
            self.select_ids(heads, add=True)

    def _overview_shown(self) -> bool:
        return self.bottom.currentWidget() is self.overview

    def _sync_overview(self) -> None:
        """Rebuild the overview when it is shown and out of date (10,000 points: only when seen)."""
        if self._overview_dirty and self._overview_shown():
            self._overview_dirty = False
            self.overview.set_rows(self.model.rows(), self.view_time)
            self.overview.set_selected({r.fact.id for r in self.selected_rows()})

    def _load_pool(self) -> None:
        at = self.real_now + self.offset_days * DAY_MS
        self._pool_at = at
        self.run(
            load_pool, self.threshold, at, on_result=self._on_pool, key="pool", label=self.tr("Forget pool")
        )

    def _on_pool(self, cands: list[tuple[Fact, float]]) -> None:
        selected = {self.pool_model.fact(i.row()).id for i in self.pool_view.selectionModel().selectedRows()}
        self.pool_model.set_candidates(cands, self._pool_at, self.real_now)
        if selected:
            sel = QItemSelection()
            for r, f in enumerate(self.pool_model.facts()):
                if f.id in selected:
                    sel.select(
                        self.pool_model.index(r, 0), self.pool_model.index(r, self.pool_model.N_COLUMNS - 1)
                    )
            self.pool_view.selectionModel().select(sel, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        n = len(cands)
        if self.offset_days:
            now_count = sum(1 for f, _s in cands if self._score_now(f) < self.threshold)
            text = self.tr(
                "At {0} (+{1} d): {2} forget candidates (score below {3}, not pinned); {4} of them are candidates now."
            ).format(fmt_time(self._pool_at), self.offset_days, n, fmt_number(self.threshold, 4), now_count)
        else:
            text = self.tr(
                "{0} forget candidates now: active facts scoring below {1} that are not pinned."
            ).format(n, fmt_number(self.threshold, 4))
        self.pool_label.setText(text)
        self.bottom.setTabText(3, self.tr("Forget pool ({0})").format(n))
        self._update_actions()

    def _score_now(self, f: Fact) -> float:
        return score_memory(
            f.namespace, f.confidence, f.created_at, f.last_accessed_at, f.decay_tau_days, self.real_now
        )

    def _rebuild_tree(self) -> None:
        current = self._current_namespace()
        self.tree.blockSignals(True)
        self.tree.clear()
        rows = self.model.rows()
        active = sum(1 for r in rows if r.fact.active)
        top = QTreeWidgetItem([self.tr("All namespaces"), str(active), ""])
        top.setData(0, NsRole, None)
        self.tree.addTopLevelItem(top)
        chosen: QTreeWidgetItem | None = top
        for node in namespace_tree(rows):
            item = self._tree_item(node)
            top.addChild(item)
            found = self._find_ns(item, current) if current is not None else None
            if found is not None:
                chosen = found
        self.tree.expandAll()
        self.tree.setCurrentItem(chosen)
        self.tree.blockSignals(False)
        if current is not None and (chosen is top):
            self.proxy.set_filter(namespace=None)

    def _tree_item(self, node: NamespaceNode) -> QTreeWidgetItem:
        label = node.namespace.rsplit(".", 1)[-1] if "." in node.namespace else node.namespace
        count = str(node.active)
        if node.subtree_active != node.active:
            count = f"{node.active} ({node.subtree_active})"
        tau = namespace_tau_days(node.namespace)
        item = QTreeWidgetItem([label or self.tr("(empty)"), count, fmt_tau(tau)])
        item.setData(0, NsRole, node.namespace)
        item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        item.setTextAlignment(2, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        tip = self.tr("{0}: {1} active facts here, {2} with sub-namespaces, {3} rows in all.").format(
            node.namespace, node.active, node.subtree_active, node.rows
        )
        if math.isinf(tau):
            tip += "\n" + self.tr("Tau ∞: facts of user.* never decay.")
        else:
            tip += "\n" + self.tr("Tau {0} (namespace default).").format(fmt_tau(tau))
        if not node.exists:
            tip += "\n" + self.tr("No facts in this namespace itself.")
            item.setForeground(0, self.ctx.theme.muted_text())
        for c in range(3):
            item.setToolTip(c, tip)
        for child in node.children:
            item.addChild(self._tree_item(child))
        return item

    def _find_ns(self, item: QTreeWidgetItem, ns: str) -> QTreeWidgetItem | None:
        if item.data(0, NsRole) == ns:
            return item
        for i in range(item.childCount()):
            found = self._find_ns(item.child(i), ns)
            if found is not None:
                return found
        return None

    def _current_namespace(self) -> str | None:
        item = self.tree.currentItem()
        return item.data(0, NsRole) if item is not None else None

    def _on_namespace(self, item: QTreeWidgetItem | None, _prev: Any = None) -> None:
        ns = item.data(0, NsRole) if item is not None else None
        self.proxy.set_filter(namespace=ns)
        self.overview.set_focus(ns)
        self._update_status()

    def select_namespace(self, ns: str | None) -> None:
        top = self.tree.topLevelItem(0)
        if top is None:
            return
        found = top if ns is None else self._find_ns(top, ns)
        if found is not None:
            self.tree.setCurrentItem(found)

    # -- filters ---------------------------------------------------------------------------------------------------------
    def _on_column_choice(self, *_: Any) -> None:
        self.column_edit.setEnabled(self.column_combo.currentData() is not None)
        self._apply_filters()

    def _apply_filters(self) -> None:
        col = self.column_combo.currentData()
        self.proxy.set_filter(
            text=self.filter_edit.text(),
            column=col,
            expr=self.column_edit.text() if col is not None else "",
            show_superseded=self.superseded_check.isChecked(),
            show_forgotten=self.forgotten_check.isChecked(),
        )
        self._update_status()

    def set_column_filter(self, column: int | None, expr: str) -> None:
        idx = self.column_combo.findData(column)
        self.column_combo.setCurrentIndex(max(0, idx))
        self.column_edit.setText(expr)
        self._apply_filters()

    # -- selection ---------------------------------------------------------------------------------------------------------
    def selected_rows(self) -> list[FactRow]:
        sm = self.table.selectionModel()
        out: list[FactRow] = []
        rows = sorted(i.row() for i in sm.selectedRows())
        for r in rows:
            out.append(self.model.row(self.proxy.mapToSource(self.proxy.index(r, 0)).row()))
        return out

    def _current_row(self) -> FactRow | None:
        idx = self.table.selectionModel().currentIndex()
        if not idx.isValid() or not self.table.selectionModel().isRowSelected(idx.row(), idx.parent()):
            sel = self.selected_rows()
            return sel[0] if len(sel) == 1 else None
        return self.model.row(self.proxy.mapToSource(idx).row())

    def select_ids(self, ids: list[str], add: bool = False) -> int:
        """Select the rows of ``ids`` that the filter shows; returns how many were selected."""
        proxy_rows: list[int] = []
        hidden = 0
        for fid in ids:
            src = self.model.row_of(fid)
            if src < 0:
                continue
            p = self.proxy.mapFromSource(self.model.index(src, 0))
            if p.isValid():
                proxy_rows.append(p.row())
            else:
                hidden += 1
        proxy_rows.sort()
        sel = QItemSelection()
        for start, end in _ranges(proxy_rows):
            sel.select(self.proxy.index(start, 0), self.proxy.index(end, N_COLUMNS - 1))
        sm = self.table.selectionModel()
        flag = QItemSelectionModel.SelectionFlag
        sm.select(sel, (flag.Select if add else flag.ClearAndSelect) | flag.Rows)
        if proxy_rows:
            first = self.proxy.index(proxy_rows[0], 0)
            sm.setCurrentIndex(first, flag.NoUpdate)
            self.table.scrollTo(first, QAbstractItemView.ScrollHint.EnsureVisible)
        if hidden:
            self.ctx.statusMessage.emit(
                self.tr("{0} of the chosen facts are hidden by the current filter.").format(hidden)
            )
        return len(proxy_rows)

    def _on_selection(self) -> None:
        rows = self.selected_rows()
        current = self._current_row()
        self.curves.set_times(self.real_now, self.view_time)
        self.curves.set_facts(rows, current.fact.id if current else None)
        self.overview.set_selected({r.fact.id for r in rows})
        self._load_whatif(current)
        self._load_history(current)
        self._update_actions()
        self._update_status()

    # -- history ------------------------------------------------------------------------------------------------------------
    def _load_history(self, row: FactRow | None) -> None:
        if row is None:
            self.history.setHtml(html.escape(self.tr("Select one fact to see its versions side by side.")))
            return
        f = row.fact
        self.run(
            load_history,
            f.namespace,
            f.key,
            on_result=lambda hist, fid=f.id: self._show_history(hist, fid),
            key="history",
            label=self.tr("Fact history"),
        )

    def _show_history(self, versions: list[Fact], selected_id: str) -> None:
        self.history.setHtml(self.history_html(versions, selected_id))

    def history_html(self, versions: list[Fact], selected_id: str | None = None) -> str:
        """The supersede chain, newest first, one column per version; changed cells are tinted."""
        if not versions:
            return html.escape(self.tr("No versions."))
        theme = self.ctx.theme
        removed, added = theme.diff_colors()
        fields: list[tuple[str, Callable[[Fact], str]]] = [
            (self.tr("Value"), lambda f: readable_value(f)[1]),
            (self.tr("Confidence"), lambda f: fmt_number(f.confidence)),
            (self.tr("Kind"), lambda f: self.tr("event") if f.fact_kind == "event" else self.tr("state")),
            (self.tr("Occurred"), lambda f: fmt_time(f.occurred_at)),
            (self.tr("Valid from"), lambda f: fmt_time(f.valid_from)),
            (self.tr("Valid until"), lambda f: fmt_time(f.valid_until)),
            (self.tr("Tau"), lambda f: fmt_tau(effective_tau(f.namespace, f.decay_tau_days))),
            (self.tr("Created"), lambda f: fmt_time(f.created_at)),
            (self.tr("Last accessed"), lambda f: fmt_time(f.last_accessed_at)),
            (self.tr("Status"), lambda f: self.model.status_text(status_at(f, self.real_now))),
        ]
        head = versions[0]
        title = html.escape(
            self.tr("{0}: {1} versions, newest first").format(f"{head.namespace}.{head.key}", len(versions))
        )
        cells = ["<th></th>"]
        n = len(versions)
        for i, f in enumerate(versions):
            label = (
                self.tr("current") if i == 0 and f.superseded_by is None else self.tr("v{0}").format(n - i)
            )
            mark = " ◀" if f.id == selected_id else ""
            cells.append(f"<th align='left'>{html.escape(label + mark)}</th>")
        out = [
            f"<p><b>{title}</b></p>",
            "<table cellspacing='0' cellpadding='4' border='1' style='border-collapse:collapse'>",
        ]
        out.append("<tr>" + "".join(cells) + "</tr>")
        for name, get in fields:
            texts = [get(f) for f in versions]
            row = [f"<th align='left' valign='top'>{html.escape(name)}</th>"]
            for i, t in enumerate(texts):
                older = texts[i + 1] if i + 1 < n else None
                style = ""
                if (
                    older is not None
                    and t != older
                    and name not in (self.tr("Created"), self.tr("Last accessed"), self.tr("Status"))
                ):
                    style = f" style='background-color:{added.name()}'"
                body = html.escape(t).replace("\n", "<br>") if t else "&nbsp;"
                row.append(f"<td valign='top'{style}>{body}</td>")
            out.append("<tr>" + "".join(row) + "</tr>")
        out.append("</table>")
        _ = removed
        return "".join(out)

    # -- what if -------------------------------------------------------------------------------------------------------------
    def _set_whatif_enabled(self, on: bool) -> None:
        for w in (self.whatif_mode, self.whatif_tau, self.whatif_conf, self.whatif_reset, self.whatif_apply):
            w.setEnabled(on)
        self.whatif_form.setVisible(on)
        self.whatif_reset.setVisible(on)
        self.whatif_apply.setVisible(on and self._editing)

    def _load_whatif(self, row: FactRow | None, force: bool = False) -> None:
        old = self._whatif_row
        if (
            not force
            and row is not None
            and old is not None
            and old.fact.id == row.fact.id
            and old.sig == row.sig
        ):
            self._whatif_row = row  # a refresh: keep what the person is trying out
            self._whatif_changed()
            return
        self._whatif_row = row
        self._whatif_loading = True
        try:
            if row is None:
                self.whatif_fact.setText(self.tr("Select one fact to try another tau or confidence."))
                self.whatif_result.setText("")
                self._set_whatif_enabled(False)
                self.curves.set_whatif(None)
                return
            f = row.fact
            self.whatif_fact.setText(f"<b>{html.escape(row.name)}</b>")
            mode = row.tau_src
            self.whatif_mode.setCurrentIndex(self.whatif_mode.findData(mode))
            self.whatif_mode.setItemText(0, self.tr("default ({0})").format(namespace_tau_text(f.namespace)))
            tau = f.decay_tau_days if mode == "custom" else namespace_tau_days(f.namespace)
            self.whatif_tau.setValue(
                float(tau) if tau is not None and math.isfinite(tau) and tau > 0 else 365.0
            )
            self.whatif_conf.setValue(f.confidence if f.confidence_valid else 1.0)
            self._set_whatif_enabled(True)
        finally:
            self._whatif_loading = False
        self.curves.set_whatif(None)
        self._whatif_changed()

    def whatif_values(self) -> tuple[float, float | None]:
        """``(confidence, decay_tau_days as it would be stored)`` of the what-if controls."""
        mode = self.whatif_mode.currentData()
        tau: float | None
        if mode == "pinned":
            tau = -1.0
        elif mode == "custom":
            tau = float(self.whatif_tau.value())
        else:
            tau = None
        return round(float(self.whatif_conf.value()), 6), tau

    def whatif_changed_fields(self) -> dict[str, Any]:
        row = self._whatif_row
        if row is None:
            return {}
        f = row.fact
        conf, tau = self.whatif_values()
        out: dict[str, Any] = {}
        if not (f.confidence_valid and abs(conf - f.confidence) < 5e-4):
            out["confidence"] = conf
        same_tau = (tau is None and f.decay_tau_days is None) or (
            tau is not None
            and f.decay_tau_days is not None
            and ((tau < 0 and f.decay_tau_days < 0) or abs(tau - f.decay_tau_days) < 5e-3)
        )
        if not same_tau:
            out["decay_tau_days"] = tau
        return out

    def _whatif_changed(self) -> None:
        if self._whatif_loading:
            return
        self.whatif_tau.setEnabled(
            self._whatif_row is not None and self.whatif_mode.currentData() == "custom"
        )
        row = self._whatif_row
        if row is None:
            return
        changes = self.whatif_changed_fields()
        if changes:
            from philont_desktop.facts.plots import whatif_tau

            conf, tau = self.whatif_values()
            self.curves.set_whatif(row, conf, whatif_tau(row, tau))
        else:
            self.curves.set_whatif(None)
        self.whatif_apply.setEnabled(bool(changes) and self._editing)
        self._update_whatif_result()

    def _update_whatif_result(self) -> None:
        row = self._whatif_row
        if row is None:
            return
        conf, tau = self.whatif_values()
        now = self.real_now
        actual = self._crossing_text(row.crossing, row, now)
        if not self.whatif_changed_fields():
            self.whatif_result.setText(self.tr("Now: {0}").format(actual))
            return
        from philont_desktop.facts.plots import whatif_crossing

        cross = whatif_crossing(row, conf, tau)
        self.whatif_result.setText(
            self.tr("Now: {0}\nWhat if: {1}").format(
                actual, self._crossing_text(cross, row, now, tau=tau, conf=conf)
            )
        )

    def _crossing_text(
        self, cross: int | None, row: FactRow, now: int, tau: Any = UNSET, conf: Any = UNSET
    ) -> str:
        t = row.fact.decay_tau_days if tau is UNSET else tau
        if t is not None and t < 0:
            return self.tr("pinned, never decays")
        if math.isinf(effective_tau(row.fact.namespace, t)):
            c = row.fact.confidence if conf is UNSET else conf
            return (
                self.tr("never decays")
                if c >= self.threshold
                else self.tr("below the threshold (confidence)")
            )
        if cross is None:
            return self.tr("stays above the threshold")
        if cross <= now:
            return self.tr("below the threshold since {0}").format(fmt_time(cross))
        return self.tr("falls below the threshold on {0} (in {1})").format(
            fmt_time(cross), fmt_duration(cross - now)
        )

    def apply_whatif(self) -> None:
        row = self._whatif_row
        changes = self.whatif_changed_fields()
        if row is None or not changes or not self._editing:
            return
        f = row.fact
        try:
            if "confidence" in changes:
                change = cf.edit(f.id, expected_head=self._head_id(f), **changes)
                text = self.tr("Change confidence of {0}").format(row.name)
            else:
                change = cf.set_tau(f.id, changes["decay_tau_days"], seen=f)
                text = self.tr("Set tau of {0}").format(row.name)
        except Exception as exc:
            self._failed(exc)
            return
        self._curate(text, change, follow=True)

    # -- curation -----------------------------------------------------------------------------------------------------------
    def _head_id(self, f: Fact) -> str | None:
        """The head of ``f``'s chain as loaded (``f`` itself when it is the head)."""
        if f.superseded_by is None:
            return f.id
        heads = [
            r.fact.id
            for r in self.model.rows()
            if r.fact.namespace == f.namespace and r.fact.key == f.key and r.fact.superseded_by is None
        ]
        return heads[0] if heads else None

    def _curate(self, text: str, change: cf.Change, *, follow: bool = False) -> None:
        def done(changes: Any) -> None:
            edit = changes.entry
            if follow and edit.target_type == "fact":
                self._select_after_load = [edit.target_id]
            self.ctx.statusMessage.emit(self.tr("Done: {0}").format(text))
            self.refresh()

        self.curate(change, text, on_result=done, on_error=self._failed)

    def _failed(self, exc: BaseException) -> None:
        if isinstance(exc, ConflictError):
            title = self.tr("Not applied: the fact changed meanwhile")
        else:
            title = self.tr("The change was not made")
        self.ctx.show_error(title, exc)
        self.refresh()

    def add_fact(self) -> None:
        if not self._editing:
            return
        namespaces = sorted({r.fact.namespace for r in self.model.rows()})
        dlg = FactEditDialog(None, namespaces, self, namespace=self._current_namespace())
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return
        kw = dlg.changes()
        ns, key = kw.pop("namespace"), kw.pop("key")
        heads = [
            r.fact.id
            for r in self.model.rows()
            if r.fact.namespace == ns and r.fact.key == key and r.fact.superseded_by is None
        ]
        try:
            change = cf.add(ns, key, kw.pop("value"), expected_head=heads[0] if heads else None, **kw)
        except Exception as exc:
            self._failed(exc)
            return
        self._curate(self.tr("Add {0}").format(f"{ns}.{key}"), change, follow=True)

    def edit_current(self) -> None:
        row = self._current_row()
        if row is None or not self._editing:
            return
        namespaces = sorted({r.fact.namespace for r in self.model.rows()})
        dlg = FactEditDialog(row.fact, namespaces, self)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return
        self.edit_fact(row, dlg.changes())

    def edit_fact(self, row: FactRow, changes: dict[str, Any]) -> None:
        """Store a new version of ``row`` with ``changes`` (keyword arguments of ``cf.edit``)."""
        f = row.fact
        if not changes and f.superseded_by is None:
            return
        try:
            change = cf.edit(f.id, expected_head=self._head_id(f), **changes)
        except Exception as exc:
            self._failed(exc)
            return
        self._curate(self.tr("Edit {0}").format(row.name), change, follow=True)

    def pin_selected(self, pin: bool) -> None:
        rows = self.selected_rows()
        if not rows or not self._editing:
            return
        if len(rows) > 1:
            self.bulk_selected("pin" if pin else "unpin")
            return
        r = rows[0]
        change = cf.pin(r.fact.id, seen=r.fact) if pin else cf.unpin(r.fact.id, seen=r.fact)
        self._curate((self.tr("Pin {0}") if pin else self.tr("Unpin {0}")).format(r.name), change)

    def tau_current(self) -> None:
        row = self._current_row()
        if row is None or not self._editing:
            return
        dlg = TauDialog(row.fact, self)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return
        self.set_tau(row, dlg.decay_tau_days())

    def set_tau(self, row: FactRow, tau: float | None) -> None:
        f = row.fact
        if tau == f.decay_tau_days or (tau is not None and tau < 0 and f.pinned):
            return
        try:
            change = cf.set_tau(f.id, tau, seen=f)
        except Exception as exc:
            self._failed(exc)
            return
        self._curate(self.tr("Set tau of {0}").format(row.name), change)

    def forget_selected(self) -> None:
        rows = self.selected_rows()
        if not rows or not self._editing:
            return
        if len(rows) > 1:
            self.bulk_selected("forget")
            return
        r = rows[0]
        if r.fact.forgotten_at is not None:
            return
        self._curate(
            self.tr("Forget {0}").format(r.name), cf.forget(r.fact.id, seen=r.fact, now=self.real_now)
        )

    def unforget_current(self) -> None:
        row = self._current_row()
        if row is None or not self._editing or row.fact.forgotten_at is None:
            return
        self._curate(self.tr("Unforget {0}").format(row.name), cf.unforget(row.fact.id, seen=row.fact))

    # bulk
    def bulk_selected(self, op: str) -> None:
        rows = self.selected_rows()
        if rows and self._editing:
            self.start_bulk(op, [r.fact.id for r in rows])

    def move_selected(self) -> None:
        rows = self.selected_rows()
        if not rows or not self._editing:
            return
        namespaces = sorted({r.fact.namespace for r in self.model.rows()})
        dlg = NamespaceDialog(namespaces, len(rows), self)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return
        self.start_bulk("move", [r.fact.id for r in rows], new_namespace=dlg.namespace())

    def forget_pool_candidates(self) -> None:
        if not self._editing:
            return
        # The candidates as of now (not the view time): forgetting is about the present.
        self.run(
            load_pool,
            self.threshold,
            self.real_now,
            on_result=lambda c: self.start_bulk("forget", [f.id for f, _s in c], candidates_only=True),
            key="poolnow",
            label=self.tr("Forget pool"),
        )

    def pool_selected_facts(self) -> list[Fact]:
        return [self.pool_model.fact(i.row()) for i in sorted(self.pool_view.selectionModel().selectedRows())]

    def pool_pin_selected(self) -> None:
        facts = self.pool_selected_facts()
        if not facts or not self._editing:
            return
        if len(facts) == 1:
            f = facts[0]
            self._curate(self.tr("Pin {0}").format(f"{f.namespace}.{f.key}"), cf.pin(f.id, seen=f))
        else:
            self.start_bulk("pin", [f.id for f in facts])

    def pool_forget_selected(self) -> None:
        facts = self.pool_selected_facts()
        if facts and self._editing:
            self.start_bulk("forget", [f.id for f in facts], candidates_only=self.offset_days == 0)

    def _pool_show_in_table(self, *_: Any) -> None:
        facts = self.pool_selected_facts()
        if facts:
            self.select_ids([f.id for f in facts])

    def start_bulk(
        self, op: str, ids: list[str], *, new_namespace: str | None = None, candidates_only: bool = False
    ) -> None:
        """Plan the bulk change on a worker, list it in a confirmation dialog, then apply it."""
        if not ids:
            self.ctx.statusMessage.emit(self.tr("Nothing to change."))
            return
        now = self.real_now

        def plan(db: Any) -> BulkPlan:
            return cf.plan_bulk(
                db,
                op,
                ids,
                new_namespace=new_namespace,
                candidates_only=candidates_only,
                threshold=self.threshold,
                now=now,
            )

        self.run(
            plan,
            on_result=lambda p: self.confirm_bulk(p, ids, candidates_only),
            on_error=self._failed,
            key="plan",
            label=self.tr("Preparing the change"),
        )

    def bulk_dialog(self, plan: BulkPlan) -> BulkConfirmDialog:
        n = len(plan.items)
        titles = {
            "forget": (self.tr("Forget facts"), self.tr("Forget {0} facts").format(n)),
            "pin": (self.tr("Pin facts"), self.tr("Pin {0} facts").format(n)),
            "unpin": (self.tr("Unpin facts"), self.tr("Unpin {0} facts").format(n)),
            "move": (
                self.tr("Move facts to {0}").format(plan.namespace),
                self.tr("Move {0} facts").format(n),
            ),
        }
        title, action = titles[plan.op]
        return BulkConfirmDialog(plan, title, action, self)

    def confirm_bulk(self, plan: BulkPlan, ids: list[str], candidates_only: bool) -> None:
        self.last_bulk_dialog = dlg = self.bulk_dialog(plan)
        if dlg.exec() != QDialog.DialogCode.Accepted or not plan.items:
            return
        self.apply_bulk(plan, ids, candidates_only)

    def apply_bulk(self, plan: BulkPlan, ids: list[str], candidates_only: bool) -> None:
        change = cf.bulk(
            plan.op,
            ids,
            new_namespace=plan.namespace,
            candidates_only=candidates_only,
            threshold=plan.threshold,
            expected=plan.signature,
            now=self.real_now,
            score_at=plan.now,
        )
        n = len(plan.items)
        texts = {
            "forget": self.tr("Forget {0} facts"),
            "pin": self.tr("Pin {0} facts"),
            "unpin": self.tr("Unpin {0} facts"),
            "move": self.tr("Move {0} facts to {1}"),
        }
        self._curate(texts[plan.op].format(n, plan.namespace), change)

    # -- status / actions ---------------------------------------------------------------------------------------------------
    def _update_actions(self) -> None:
        rows = self.selected_rows() if hasattr(self, "table") else []
        one = rows[0] if len(rows) == 1 else None
        e = self._editing
        self.add_button.setEnabled(e)
        self.edit_button.setEnabled(e and one is not None and one.fact.namespace != "self")
        self.pin_button.setEnabled(e and bool(rows) and any(not r.fact.pinned for r in rows))
        self.unpin_button.setEnabled(e and bool(rows) and any(r.fact.pinned for r in rows))
        self.tau_button.setEnabled(e and one is not None)
        self.forget_button.setEnabled(e and any(r.fact.forgotten_at is None for r in rows))
        self.unforget_button.setEnabled(e and one is not None and one.fact.forgotten_at is not None)
        self.bulk_button.setEnabled(e)
        for a in (self.act_bulk_forget, self.act_bulk_pin, self.act_bulk_unpin, self.act_move):
            a.setEnabled(e and bool(rows))
        has_pool = self.pool_model.rowCount() > 0
        self.pool_forget_all.setEnabled(e and has_pool)
        self.pool_pin.setEnabled(e and has_pool)
        self.pool_forget.setEnabled(e and has_pool)

    def _update_status(self) -> None:
        rows = self.model.rows()
        if self.data is None:
            self.status_label.setText(self.tr("Loading facts…"))
            return
        active = self.data.active if self.data.active or not rows else sum(1 for r in rows if r.fact.active)
        shown = self.proxy.rowCount()
        sel = len(self.table.selectionModel().selectedRows())
        parts = [
            self.tr("{0} active facts").format(active),
            self.tr("{0} rows in all").format(len(rows)),
            self.tr("{0} shown").format(shown),
        ]
        if sel:
            parts.append(self.tr("{0} selected").format(sel))
        if self.offset_days:
            parts.append(self.tr("scores at {0} (+{1} d)").format(fmt_time(self.view_time), self.offset_days))
        self.status_label.setText(" · ".join(parts))

    # -- self-test ----------------------------------------------------------------------------------------------------------


__all__ = ["FactsTab"]
