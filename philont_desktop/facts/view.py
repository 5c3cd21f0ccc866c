"""The Facts tab: namespaces, every fact with its decay, curves, overview, history, forget pool, curation.

The shape of every tab (see :mod:`philont_desktop.tabs`): :mod:`.state` holds the namespace, filters, view
time, selection and loaded rows without Qt; :mod:`.controller` loads facts, forget pool and histories and
runs the edits; this view composes the widgets (``widgets/``: namespace tree, filter bar, time control, edit
bar, table, decay plot, overview, history, forget pool, what-if) and wires them to state and controller.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from philont_desktop import zoom
from philont_desktop.facts.bottom import POOL, FactsBottom
from philont_desktop.facts.columns import C_SCORE
from philont_desktop.facts.controller import FactsController
from philont_desktop.facts.data import DAY_MS, FactRow, FactsData, leading_rows
from philont_desktop.facts.edits import FactsEdits
from philont_desktop.facts.model import FactsModel
from philont_desktop.facts.navigate import FactsNavigation
from philont_desktop.facts.proxy import FactsProxy
from philont_desktop.facts.sealed import SealedLayout
from philont_desktop.facts.state import MAX_OFFSET_DAYS, FactsState
from philont_desktop.facts.text import fmt_time
from philont_desktop.facts.widgets.bulk_dialog import BulkConfirmDialog
from philont_desktop.facts.widgets.edit_bar import EditBar
from philont_desktop.facts.widgets.filter_bar import FactsFilterBar
from philont_desktop.facts.widgets.namespace_tree import NamespaceTree
from philont_desktop.facts.widgets.narrow import stacking_bar
from philont_desktop.facts.widgets.table import FactsTable
from philont_desktop.facts.widgets.tau_dialog import NamespaceDialog
from philont_desktop.facts.widgets.time_control import TimeControl
from philont_desktop.qt import (
    QHBoxLayout,
    QKeySequence,
    QLabel,
    QShortcut,
    QSplitter,
    Qt,
    QTimer,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.tabs.base import BaseTab
from philont_desktop.widgets.after_paint import AfterPaint

SCORE_REFRESH_TICKS = 60  # seconds between re-scoring the table at the moving "now"
LEADING_CURVES = 6  # curves shown while no fact is selected

__all__ = ["MAX_OFFSET_DAYS", "BulkConfirmDialog", "FactsTab", "NamespaceDialog"]


class FactsTab(FactsNavigation, FactsEdits, SealedLayout, BaseTab):
    """Namespace tree, facts table, decay curves, overview, history, forget pool and curation."""

    name = "facts"

    def __init__(self, ctx: Any, parent: QWidget | None = None):
        super().__init__(ctx, parent)
        self.body = QWidget(self)  # laid out inside, sized by the tab (see :mod:`.sealed`)
        self.body.setObjectName("factsBody")
        self._ticks = 0
        self._overview_dirty = True
        self.model = FactsModel(ctx.theme, self)
        self.proxy = FactsProxy(self)
        self.proxy.setSourceModel(self.model)
        self.bar = FactsFilterBar(self.model.headers(), self)
        self.time = TimeControl(self)
        self.edit_bar = EditBar(self)
        self.tree = NamespaceTree(ctx.theme, self)
        self.table = FactsTable(self.model, self.proxy, ctx.settings, self)
        # after a load the rows are painted first, the plots in the event-loop turn after that paint
        self._plots = AfterPaint(self.table.viewport(), self._draw_plots, self)
        self._time_plots = AfterPaint(self.table.viewport(), self._move_plots, self)
        self._build_bottom()
        self.status_label = QLabel(self)
        self.status_label.setObjectName("factsStatus")
        self._lay_out()
        self._wire()
        self.clock = QTimer(self)
        self.clock.setInterval(1000)
        self.clock.timeout.connect(self.tick)
        self.set_editing(ctx.editing)
        self.time.show_offset(0, self.state.view_time)
        self._update_actions()

    def create_state(self) -> FactsState:
        return FactsState()

    def create_controller(self) -> FactsController:
        return FactsController(self.ctx, self.state, self.name, self)

    def _build_bottom(self) -> None:
        titles = (self.tr("Decay curves"), self.tr("Overview"), self.tr("History"), self.tr("Forget pool"))
        self.bottom = FactsBottom(self.ctx.theme, titles, self)
        self.whatif, self.history, self.pool = self.bottom.whatif, self.bottom.history, self.bottom.pool

    @property
    def curves(self) -> Any:
        return self.bottom.curves

    @property
    def overview(self) -> Any:
        return self.bottom.overview

    def _lay_out(self) -> None:
        bar = stacking_bar(self)  # margins 6, 6, 6, 2
        bar.addWidget(self.bar, 5)
        bar.addSpacing(12)
        bar.addWidget(self.time, 2)
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
        zoom.set_splitter_sizes(self.split, [250, 1000])  # the namespaces grow with the text
        self.right.setSizes([420, 360])
        self.register_splitter(self.split, "split")
        self.register_splitter(self.right, "right")
        lay = QVBoxLayout(self.body)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        lay.addLayout(bar)
        lay.addWidget(self.edit_bar)
        lay.addWidget(self.split, 1)
        sl = QHBoxLayout()
        sl.setContentsMargins(6, 2, 6, 4)
        sl.addWidget(self.status_label)
        lay.addLayout(sl)

    def _wire(self) -> None:
        c = self.controller
        self.bar.queryChanged.connect(self._apply_query)
        self.time.offsetChanged.connect(c.set_offset_days)
        self.bottom.viewTimeDragged.connect(lambda ms: c.set_offset_days(round((ms - c.real_now) / DAY_MS)))
        self.tree.namespaceChanged.connect(self._on_namespace)
        self.table.selectionMoved.connect(self._on_selection)
        self.table.doubleClicked.connect(lambda *_: self.edit_current() if self.state.editing else None)
        self.bottom.overviewSelection.connect(self.select_ids)
        self.bottom.currentChanged.connect(lambda *_: self._sync_overview())
        self.whatif.previewChanged.connect(self._on_whatif_preview)
        self.whatif.applyRequested.connect(lambda row, changes: c.apply_whatif(row, changes))
        self.edit_bar.requested.connect(self._on_edit_request)
        self.pool.pinRequested.connect(self.pool_pin)
        self.pool.forgetRequested.connect(self.pool_forget)
        self.pool.forgetAllRequested.connect(self.forget_pool_candidates)
        self.pool.showRequested.connect(self.select_ids)
        self.state.changed.connect(self._on_state)
        self.ctx.editingChanged.connect(self.set_editing)
        QShortcut(QKeySequence.StandardKey.Find, self, activated=self.bar.filter_edit.setFocus)
        delete = QShortcut(QKeySequence.StandardKey.Delete, self.table)
        delete.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        delete.activated.connect(lambda: self.forget_selected() if self.state.editing else None)

    # -- the parts, by name (tests, the self-test and the benchmark use them) --------------------------
    @property
    def now_fn(self) -> Callable[[], int]:
        return self.controller.now_fn

    @now_fn.setter
    def now_fn(self, fn: Callable[[], int]) -> None:
        self.controller.now_fn = fn

    @property
    def real_now(self) -> int:
        return self.controller.real_now

    @property
    def view_time(self) -> int:
        return self.model.view_time

    @property
    def offset_days(self) -> int:
        return self.state.offset_days

    @property
    def filter_edit(self):
        return self.bar.filter_edit

    @property
    def superseded_check(self):
        return self.bar.superseded_check

    @property
    def forgotten_check(self):
        return self.bar.forgotten_check

    @property
    def time_slider(self):
        return self.time.slider

    @property
    def time_spin(self):
        return self.time.spin

    @property
    def time_label(self):
        return self.time.label

    @property
    def pool_model(self):
        return self.pool.model

    @property
    def pool_label(self):
        return self.pool.label

    @property
    def whatif_mode(self):
        return self.whatif.mode

    @property
    def whatif_tau(self):
        return self.whatif.tau

    @property
    def whatif_result(self):
        return self.whatif.result

    @property
    def whatif_apply(self):
        return self.whatif.apply_button

    # -- BaseTab --------------------------------------------------------------------------------------
    def activate(self) -> None:
        self.clock.start()
        self.controller.activate()

    @property
    def busy(self) -> bool:
        return self.controller.busy or self._plots.pending or self._time_plots.pending or self.bottom.pending

    def wait_idle(self, timeout_ms: int = 10_000) -> bool:
        done = self.controller.wait_idle(timeout_ms)  # and the plots drawn
        self._time_plots.flush()
        self._plots.flush()
        self.bottom.settle()
        return done

    def retranslate(self) -> None:
        self.tree.retranslate()
        super().retranslate()
        self.time.show_offset(self.state.offset_days, self.state.view_time)
        if self.activated:
            self._on_selection()  # curves, what-if and history in the new language

    def save_state(self) -> None:
        super().save_state()
        self.table.save_state()

    def set_editing(self, on: bool) -> None:
        self.controller.set_editing(on)
        self.edit_bar.setVisible(bool(on))
        self.pool.set_editing(bool(on))
        self.whatif.set_editing(bool(on))
        self._update_actions()

    def tick(self) -> None:
        """The clock: the "now" line moves every second, the scores every minute."""
        self.controller.tick()
        self._ticks += 1
        if self._ticks % SCORE_REFRESH_TICKS == 0 and self.isVisible() and self.model.rowCount():
            self.controller.set_offset_days(self.state.offset_days, force=True)

    def set_offset_days(self, days: int) -> None:
        """Move the view time ``days`` into the future (0 = now); table, overview, pool follow."""
        self.controller.set_offset_days(days)

    # -- state ----------------------------------------------------------------------------------------
    def _on_state(self, names: frozenset[str]) -> None:
        s = self.state
        if "data" in names and s.data is not None:
            self._show_data(s.data)
        elif names & {"view_time", "offset_days"}:
            self._apply_view_time()
        elif "real_now" in names:
            self.curves.tick(s.real_now)
            self.whatif.set_now(s.real_now)
        if names & {"pool", "pool_at"}:
            self._show_pool()
        if names & {"history", "history_of"}:
            self._show_history()
        if "loading" in names:
            self._update_status()
            if not s.loading and s.data is None:
                self.bottom.release()  # the load failed or was cancelled: the plots show what they hold

    def _show_data(self, data: FactsData) -> None:
        s = self.state
        if data.scored_at == s.view_time and data.real_now == s.real_now:
            self.model.view_time, self.model.real_now = s.view_time, s.real_now  # scored on the worker
        else:
            self.model.set_view_time(s.view_time, s.real_now)
        selected_before = [r.fid for r in self.table.selected_rows()]
        if self.model.set_data(data) or self.proxy.time_dependent:
            self.proxy.refilter()
        follow = self.controller.take_reveal() or self.controller.select_after_load
        if selected_before and follow is None:
            self._follow_new_versions(selected_before)
        self.time.show_offset(s.offset_days, s.view_time)
        self.table.shrink_empty_columns(set(data.empty_columns))
        if not self.tree.set_tree(data.tree, data.active):
            self._on_namespace(None)  # the namespace shown is gone
        self._overview_dirty = True
        if follow:
            self.controller.select_after_load = None
            self.select_ids(follow)
        self._on_selection(plots=False)
        if self.loading:  # the rows are the first read: the pool and the history need no veil
            self._first_read_arrived(False)
        # rows laid out for this paint, not in a turn after it (all rows painted again, with the plots)
        self.table.executeDelayedItemsLayout()
        self.tree.executeDelayedItemsLayout()

    def _apply_view_time(self) -> None:
        s = self.state
        self.model.set_view_time(s.view_time, s.real_now)
        self.table.horizontalHeader().updateSection(C_SCORE)  # "Score (+N d)"
        if self.proxy.time_dependent:
            self.proxy.refilter()
        self.time.show_offset(s.offset_days, s.view_time)
        self._update_status()
        self._time_plots.request()  # a drag's step: the table repaints, then the plots follow

    def _move_plots(self) -> None:
        s = self.state
        if self.bottom.overview_shown() and not self._overview_dirty:
            self.overview.set_view_time(s.view_time)
        else:
            self._overview_dirty = True
        self.bottom.move_curves(s.real_now, s.view_time)
        self.whatif.set_now(s.real_now)

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

    def _sync_overview(self) -> None:
        """Rebuild the overview when it is shown and out of date (10,000 points: only when seen)."""
        if self._overview_dirty and self.bottom.overview_shown():
            self._overview_dirty = False
            self.overview.set_rows(self.model.rows(), self.view_time)
            self.overview.set_selected(set(self.state.selection))

    def _show_pool(self) -> None:
        s = self.state
        self.pool.set_candidates(list(s.pool), s.pool_at, s.real_now, s.offset_days, s.threshold, s.pool_now)
        self.bottom.setTabText(POOL, self.tr("Forget pool ({0})").format(len(s.pool)))
        self._update_actions()

    def _show_history(self) -> None:
        s = self.state
        if s.history_of is None:
            self.history.show_placeholder()
        else:
            self.history.show_versions(list(s.history), s.history_of, s.real_now)

    # -- namespace, filters ---------------------------------------------------------------------------
    def _on_namespace(self, ns: str | None) -> None:
        self.controller.set_namespace(ns)
        self.proxy.set_filter(namespace=ns)
        self.overview.set_focus(ns)
        if not self.state.selection:
            self.curves.set_facts(self._leading_rows(), None, self._leading_note())
        self._update_status()

    def select_namespace(self, ns: str | None) -> None:
        self.tree.select_namespace(ns)

    def _apply_query(self) -> None:
        q = self.bar.query()
        self.state.update(query=q)
        self.proxy.set_filter(
            text=q.text,
            column=q.column,
            expr=q.expr,
            show_superseded=q.show_superseded,
            show_forgotten=q.show_forgotten,
        )
        self._update_status()

    def set_column_filter(self, column: int | None, expr: str) -> None:
        self.bar.set_column_filter(column, expr)

    # -- selection ------------------------------------------------------------------------------------
    def selected_rows(self) -> list[FactRow]:
        return self.table.selected_rows()

    def current_row(self) -> FactRow | None:
        return self.table.current_row()

    def select_ids(self, ids: list[str], add: bool = False) -> int:
        """Select the rows of ``ids`` that the filter shows; returns how many were selected."""
        shown, hidden = self.table.select_ids(ids, add)
        if hidden:
            self.ctx.statusMessage.emit(
                self.tr("%n of the chosen facts are hidden by the current filter.", None, hidden)
            )
        self.table.settle()
        return shown

    def _on_selection(self, plots: bool = True) -> None:
        """The selection moved: history, actions and status now; the plots now or after the next paint."""
        rows = self.selected_rows()
        current = self.current_row()
        self.controller.select(tuple(r.fid for r in rows), current.fid if current is not None else None)
        if plots:
            self._plots.cancel()
            self._draw_plots(rows, current)
        else:
            self._plots.request()
        self.controller.load_history(current)
        self._update_actions()
        self._update_status()

    def _draw_plots(self, rows: list[FactRow] | None = None, current: FactRow | None = None) -> None:
        """Curves, what-if and overview of the selection (after a load: once the table has painted)."""
        if rows is None:
            rows, current = self.selected_rows(), self.current_row()
        self.whatif.set_now(self.state.real_now)
        self._sync_overview()
        self.curves.set_times(self.state.real_now, self.state.view_time, redraw=False)  # set_facts draws
        if rows:
            self.curves.set_facts(rows, current.fact.id if current else None)
        else:
            self.curves.set_facts(self._leading_rows(), None, self._leading_note())
        self.overview.set_selected({r.fact.id for r in rows})
        self.whatif.load(current)
        self.bottom.release_later()  # the first drawing painted in a turn of its own

    def _leading_rows(self) -> list[FactRow]:
        return leading_rows(self.model.rows(), self.state.namespace, LEADING_CURVES)

    def _leading_note(self) -> str:
        ns = self.state.namespace
        if ns is None:
            return self.tr("The highest-scoring facts; select facts in the table to compare them.")
        return self.tr("The highest-scoring facts of {0}; select facts in the table to compare them.").format(
            ns
        )

    def _on_whatif_preview(self, row: FactRow | None, confidence: float, tau: float) -> None:
        self.curves.set_whatif(row, confidence, tau)

    # -- status ---------------------------------------------------------------------------------------
    def _update_actions(self) -> None:
        self.edit_bar.update_actions(self.selected_rows(), self.state.editing)
        self.pool.update_actions(self.state.editing)

    def _update_status(self) -> None:
        data = self.state.data
        if data is None:
            self.status_label.setText(self.tr("Loading facts…"))
            return
        rows = self.model.rows()
        active = data.active if data.active or not rows else sum(1 for r in rows if r.fact.active)
        parts = [
            self.tr("%Ln active fact(s)", None, active),
            self.tr("%Ln row(s) in all", None, len(rows)),
            self.tr("%Ln shown", None, self.proxy.rowCount()),
        ]
        sel = len(self.state.selection)
        if sel:
            parts.append(self.tr("%Ln selected", None, sel))
        if self.offset_days:
            ahead = self.tr("%n day(s) ahead", None, self.offset_days)
            parts.append(self.tr("scores at {0} ({1})").format(fmt_time(self.view_time), ahead))
        self.status_label.setText(" · ".join(parts))
