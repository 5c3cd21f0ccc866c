"""The Recall page of the Health tab: how well the agent's own recall serves this history.

When first shown it reads the saved replay of the file (:mod:`core.replay.store`) and shows it at once,
then brings it up to date in a worker: only the user turns written since are replayed (a saved result
made with other settings, or for a replaced file, is replayed again), with progress and "Cancel". When
the agent writes, the page updates again (only the new turns); an update asked for while one runs
follows it.

It shows the summary in words with how certain each number is (the turns that needed an earlier
message are an estimate, "silver labels"), three pictures (:mod:`.widgets.charts`), the missed turns
(:mod:`.widgets.misses`) and, for the selected one, the cause in words, what the agent saw at that turn
and the message it needed (:mod:`.widgets.turn_view`).
"""

from __future__ import annotations

import itertools
from typing import Any

from core.replay.store import ReplayStore
from philont_desktop import messages, zoom
from philont_desktop.health.page import HealthPage
from philont_desktop.health.recall import texts
from philont_desktop.health.recall.data import RecallView, job_load, job_turn, job_update
from philont_desktop.health.recall.widgets.charts import RecallCharts
from philont_desktop.health.recall.widgets.misses import MissesModel, misses_table
from philont_desktop.health.recall.widgets.progress import ReplayProgress
from philont_desktop.health.recall.widgets.turn_view import TurnView
from philont_desktop.ops import ReadOp
from philont_desktop.qt import QItemSelection, QLabel, QSplitter, Qt, QVBoxLayout, QWidget
from philont_desktop.tabs.navigation import ShowTurn
from philont_desktop.widgets import accessible
from philont_desktop.widgets.table import EmptyHint
from philont_desktop.workers import Job, spin_until


class RecallPage(HealthPage):
    name = "recall"

    def __init__(self, ctx: Any, tab: Any, parent: QWidget | None = None):
        super().__init__(ctx, tab, parent)
        self.store = ReplayStore()
        self.view: RecallView | None = None  # what is shown (None: nothing read yet)
        self.job: Job | None = None
        self.loaded = False  # the saved result has been read (then updates follow)
        self._again = False  # an update was asked for while one ran
        self.progress = ReplayProgress(self)
        self.summary = QLabel(self)
        self.summary.setObjectName("recallSummary")
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note = QLabel(self)
        self.note.setObjectName("recallNote")
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setWordWrap(True)
        self.charts = RecallCharts(ctx.theme, self)
        self.model = MissesModel(self)
        self.table = misses_table(self.model, self)
        self.hint = EmptyHint(self.table, self._empty_text, lambda: self.view is not None)
        self.turn_view = TurnView(ctx.theme, self)
        self._layout()
        self.tab.register_splitter(self.split, "recall/split")
        self.tab.register_splitter(self.bottom, "recall/bottom")
        self._wire()
        self.retranslate_static()
        accessible.prepare(self)

    def _layout(self) -> None:
        top = QWidget(self)
        lay = QVBoxLayout(top)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.summary)
        lay.addWidget(self.note)
        lay.addWidget(self.charts, 1)
        self.bottom = QSplitter(Qt.Orientation.Horizontal, self)
        self.bottom.setObjectName("recallBottomSplit")
        self.bottom.setChildrenCollapsible(False)
        self.bottom.addWidget(self.table)
        self.bottom.addWidget(self.turn_view)
        zoom.set_splitter_sizes(self.bottom, [420, 700], panes=(0,))  # the list grows with the text
        self.split = QSplitter(Qt.Orientation.Vertical, self)
        self.split.setObjectName("recallSplit")
        self.split.setChildrenCollapsible(False)
        self.split.addWidget(top)
        self.split.addWidget(self.bottom)
        self.split.setSizes([300, 420])
        self.charts.setMinimumHeight(self.fontMetrics().height() * 10)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)
        outer.addWidget(self.progress)
        outer.addWidget(self.split, 1)
        self._tab_order()

    def _tab_order(self) -> None:
        """The keyboard order: the buttons, the pictures (once made), the list, the turn."""
        p, c = self.progress, self.charts
        order: list[QWidget] = [p.cancel_button, p.update_button]
        order += [c.months.plot, c.causes.plot, c.strategies.plot] if c.ready else []
        order += [self.table, self.turn_view.open_button, self.turn_view.preview, self.turn_view.needed]
        for a, b in itertools.pairwise(order):
            self.setTabOrder(a, b)

    def _wire(self) -> None:
        self.charts.made.connect(self._tab_order)
        self.progress.cancelRequested.connect(self.cancel)
        self.progress.updateRequested.connect(self.update_now)
        self.table.selectionModel().selectionChanged.connect(self._on_selection)
        self.turn_view.openInContext.connect(self.open_in_context)

    def retranslate_static(self) -> None:
        self.note.setText(texts.strategy_note())

    # -- hooks ----------------------------------------------------------------------------------------
    def activate(self) -> None:
        self.progress.running(self.tr("Reading the saved result…"))
        self.job = self.controller.run(
            job_load,
            self.ctx.db_path,
            self.store,
            key="recall.load",
            label=self.tr("Reading the saved recall replay"),
            on_result=self._on_loaded,
            on_error=self._on_error,
        )

    def refresh(self) -> None:
        """The database changed: replay the user turns written since (after the one running, if any)."""
        if not self.loaded:
            return  # the update follows the load
        if self.job is not None:
            self._again = True
            return
        self.update_now()

    def retranslate(self) -> None:
        self.retranslate_static()
        self._show(self.view)
        self.turn_view.retranslate()

    # -- reading --------------------------------------------------------------------------------------
    def update_now(self) -> None:
        """Bring the saved result up to date (only the new turns, when it can be extended)."""
        if self.job is not None:
            return
        self._again = False
        if self.view is None or self.view.summary is None:
            self.progress.running(self.tr("Replaying every user turn: no result is saved for this file yet…"))
        else:
            self.progress.running(self.tr("Looking for user turns written since the saved result…"))
        # Not the tab's job (ctx.submit, not the controller's): a replay of a long history takes minutes,
        # the tab is idle meanwhile (it shows the saved result and the progress); wait_replay waits for it.
        op = ReadOp(
            job_update,
            (self.ctx.db_path, self.view or RecallView(), self.store),
            key="recall.update",
            label=self.tr("Replaying recall"),
            progress=True,
            lane="background",
        )
        self.job = self.ctx.submit(
            op.keyed(self.tab.name),
            on_result=self._on_updated,
            on_error=self._on_error,
            on_progress=self.progress.progress,
        )

    def wait_replay(self, timeout_ms: int = 60_000) -> bool:
        """Spin the event loop until the replay (and the page's reads) are done (tests, screenshots)."""
        return spin_until(
            lambda: self.job is None and not self.controller.busy and self.charts.ready, timeout_ms
        )

    def settle(self, timeout_ms: int) -> bool:
        return self.wait_replay(timeout_ms)

    def cancel(self) -> None:
        """Stop the replay running: the saved result stays as it was (nothing of this run is kept)."""
        job, self.job = self.job, None
        if job is None:
            return
        job.cancel()
        self._again = False
        self.progress.idle(
            self.tr("Cancelled: showing the result saved before. Update replays what is missing.")
        )

    def _on_loaded(self, view: RecallView) -> None:
        self.job = None
        self.loaded = True
        self._show(view)
        self.update_now()

    def _on_updated(self, view: RecallView) -> None:
        self.job = None
        self._show(view)
        count = 0 if view.summary is None else view.summary["turns"]
        self.progress.idle(texts.status(view.updated, count))
        if self._again:
            self.update_now()

    def _on_error(self, exc: BaseException) -> None:
        self.job = None
        self.loaded = True
        self.progress.idle(self.tr("The replay failed: %1").replace("%1", messages.error_text(exc)))

    # -- showing --------------------------------------------------------------------------------------
    def _show(self, view: RecallView | None) -> None:
        if view is None:
            self.summary.setText(texts.summary(None))
            return
        self.view = view
        self.summary.setText(texts.summary(view))
        self.charts.show_view(view)
        # No pictures without turns (empty axes say nothing); the summary says why.
        shown = view.summary is not None and view.summary["turns"] > 0
        self.charts.setVisible(shown)
        self.note.setVisible(shown)
        selected = self.turn_view.turn.message.id if self.turn_view.turn is not None else None
        self.model.set_misses(view.misses, view.texts)
        self.hint.update_hint()
        row = self.model.row_of(selected) if selected is not None else -1
        if row < 0 and self.model.rowCount() > 0:
            row = 0  # the most needed miss: what the agent saw there is shown at once
        if row >= 0:
            self.table.selectRow(row)
        else:
            self.turn_view.clear()

    def _empty_text(self) -> str:
        s = None if self.view is None else self.view.summary
        if s is None or not s["turns"]:
            return texts.summary(self.view)
        if s["withNeed"] == 0:
            return self.tr("No turn needed an earlier message (by the estimate): nothing could be missed.")
        return self.tr("No missed turns: recall brought back a needed message every time.")

    def _on_selection(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        rows = self.table.selectionModel().selectedRows()
        turn = self.model.turn(rows[0].row()) if rows else None
        if turn is None:
            self.turn_view.clear()
            return
        shown = self.turn_view.turn
        if shown is not None and shown.message.id == turn.message.id and self.turn_view.detail is not None:
            return
        self.turn_view.show_turn(turn)
        self.controller.run(
            job_turn,
            turn.message.id,
            tuple(turn.needed),
            key="recall.turn",
            label=self.tr("Computing what the agent saw"),
            on_result=self.turn_view.show_detail,
            on_error=lambda exc: self.turn_view.clear(messages.error_text(exc)),
        )

    def select_turn(self, message_id: int) -> bool:
        """Select the missed turn of ``message_id`` (tests, navigation)."""
        row = self.model.row_of(message_id)
        if row >= 0:
            self.table.selectRow(row)
        return row >= 0

    def open_in_context(self, message_id: int) -> None:
        self.ctx.navigator.go(ShowTurn(message_id))
