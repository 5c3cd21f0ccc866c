"""``PrivacyPage``: secrets, personal data and planted instructions in this memory, found by a scan that runs
in a worker (with backups on request), listed by kind and layer; each seen in its context with the value
masked until "Show"; allowed as "not a secret", or purged for good in editing mode after a confirmation
that lists every file the purge rewrites.

The page reads through the Health tab's controller (:mod:`.ops` holds the calls); the purge runs on the
writer (refused by the context outside editing mode, and by the core while the agent writes), then the
page shows what it did and scans again. The database changing under a scan's result marks the result
as out of date instead of scanning again at every write of the agent.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.privacy.finding import PrivacyFinding
from philont_desktop import messages, zoom
from philont_desktop.health.page import HealthPage
from philont_desktop.health.privacy import ops
from philont_desktop.health.privacy.model import (
    COL_CONFIDENCE,
    COL_FILE,
    COL_KIND,
    COL_LAYER,
    COL_PREVIEW,
    FindingsModel,
    FindingsProxy,
    SummaryModel,
)
from philont_desktop.health.privacy.results import purge_text, scan_text
from philont_desktop.health.privacy.widgets.action_bar import ActionBar
from philont_desktop.health.privacy.widgets.context_pane import ContextPane
from philont_desktop.health.privacy.widgets.filter_bar import FilterBar
from philont_desktop.health.privacy.widgets.purge_dialog import PurgeDialog
from philont_desktop.health.privacy.widgets.result_pane import ResultPane
from philont_desktop.health.privacy.widgets.scan_bar import ScanBar
from philont_desktop.health.privacy.widgets.summary import SummaryView
from philont_desktop.health.privacy.window_purge import can_purge_in, purge_in_window
from philont_desktop.qt import QSplitter, Qt, QTableView, QTimer, QVBoxLayout, QWidget
from philont_desktop.widgets import accessible
from philont_desktop.widgets.table import setup_table

__all__ = ["PrivacyPage"]


class PrivacyPage(HealthPage):
    name = "privacy"

    def __init__(self, ctx, tab, parent: QWidget | None = None):
        super().__init__(ctx, tab, parent)
        self.result: Any = None  # the last scan's ScanResult
        self.include_backups = False  # what the last scan looked at
        self.stale = False
        self.scan_job: Any = None
        self.purge_dialog: PurgeDialog | None = None
        self.last_purge: Any = None
        self._status: tuple[str, Any] = ("idle", None)
        self._build()
        self._wire()
        accessible.prepare(self)

    # -- building --------------------------------------------------------------------------------------
    def _build(self) -> None:
        self.scan_bar = ScanBar(self)
        self.filters = FilterBar(self)
        self.summary_model = SummaryModel(self)
        self.summary = SummaryView(self.summary_model, self)
        self.model = FindingsModel(self)
        self.proxy = FindingsProxy(self)
        self.proxy.setSourceModel(self.model)
        self.table = setup_table(
            QTableView(self),
            self.proxy,
            name="privacyFindings",
            widths={
                COL_KIND: "Instruction to ignore earlier",
                COL_LAYER: "Skill revisions",
                COL_PREVIEW: "sk-p…9x ····",
                COL_CONFIDENCE: "Confidence",
                COL_FILE: "This database ·",
            },
            stretch_last=True,
            multi=True,
            sortable=True,
        )
        self.table.sortByColumn(COL_KIND, Qt.SortOrder.AscendingOrder)
        self.actions = ActionBar(self)
        self.context_pane = ContextPane(self)
        self.result_pane = ResultPane(self)
        left = QWidget(self)
        left_lay = QVBoxLayout(left)
        left_lay.setContentsMargins(0, 0, 0, 0)
        lists = QSplitter(Qt.Orientation.Vertical, left)
        lists.setObjectName("privacyListsSplit")
        lists.addWidget(self.summary)
        lists.addWidget(self.table)
        lists.setStretchFactor(1, 1)
        left_lay.addWidget(lists, 1)
        left_lay.addWidget(self.actions)
        self.split = QSplitter(Qt.Orientation.Horizontal, self)
        self.split.setObjectName("privacySplit")
        self.split.addWidget(left)
        self.split.addWidget(self.context_pane)
        self.split.setChildrenCollapsible(False)
        zoom.set_splitter_sizes(lists, [150, 450], panes=(0,), rest_share=0.6)
        zoom.set_splitter_sizes(self.split, [840, 440], panes=(0,), rest_share=0.35)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.scan_bar)
        lay.addWidget(self.filters)
        lay.addWidget(self.split, 1)
        lay.addWidget(self.result_pane)

    def _wire(self) -> None:
        self.scan_bar.scanRequested.connect(self.scan)
        self.scan_bar.cancelRequested.connect(self.cancel_scan)
        self.filters.changed.connect(lambda values: self.proxy.set_filter(**values))
        self.summary.cellChosen.connect(lambda kind, layer: self.filters.choose(kind=kind, layer=layer))
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.proxy.layoutChanged.connect(self._selection_changed)
        self.proxy.modelReset.connect(self._selection_changed)
        self.context_pane.contextWanted.connect(self._read_context)
        self.actions.allowRequested.connect(self.allow_selected)
        self.actions.purgeRequested.connect(self.purge_selected)

    # -- hooks -----------------------------------------------------------------------------------------
    def activate(self) -> None:
        self.scan(False)

    def refresh(self) -> None:
        """The database changed: the result is out of date (scanning again is the person's choice)."""
        if self.result is not None and self.scan_job is None:
            self.stale = True
            self._show_status()

    def set_editing(self, on: bool) -> None:
        self._update_actions()

    def retranslate(self) -> None:
        self.filters.retranslate()
        self.actions.retranslate()
        self.context_pane.retranslate()
        self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.model.columnCount() - 1)
        if self.model.rowCount():
            last = self.model.index(self.model.rowCount() - 1, self.model.columnCount() - 1)
            self.model.dataChanged.emit(self.model.index(0, 0), last)
        self.summary_model.set_findings(self.visible_findings())
        self._show_status()
        if self.last_purge is not None:
            self.result_pane.show_text(purge_text(self.last_purge))

    # -- the scan --------------------------------------------------------------------------------------
    def scan(self, include_backups: bool | None = None) -> None:
        """Scan again (this database, and its backups when ``include_backups``)."""
        if include_backups is None:
            include_backups = self.scan_bar.include_backups
        self.include_backups = include_backups
        if self.scan_job is not None:
            self.scan_job.cancel()
        self.scan_bar.show_progress((0, 0))
        self._status = ("scanning", None)
        self._show_status()
        job = self.controller.run(
            ops.scan,
            include_backups,
            key="privacy.scan",
            label=self.tr("Scanning for secrets"),
            progress=True,
            on_result=self._scanned,
            on_error=self._scan_failed,
            on_progress=lambda done, total: self.scan_bar.show_progress((done, total)),
        )
        self.scan_job = job
        job.done.connect(self._scan_ended)
        self._update_actions()

    def cancel_scan(self) -> None:
        if self.scan_job is not None:
            self.scan_job.cancel()

    def _scan_ended(self) -> None:
        job = self.sender()
        if job is not None and job is not self.scan_job:
            return
        if self.scan_job is not None and self.scan_job.state == "cancelled":
            self._status = ("cancelled", None)
            self._show_status()
        self.scan_job = None
        self.scan_bar.show_progress(None)
        self._update_actions()

    def _scanned(self, result: Any) -> None:
        self.result, self.stale = result, False
        self.proxy.flt.hidden.clear()
        self.model.set_findings(result.findings)
        self.summary_model.set_findings(self.visible_findings())
        self.filters.set_choices(self.summary_model.kinds, self.summary_model.layers)
        self.proxy.set_filter(**self.filters.values())
        self.summary.resizeColumnsToContents()
        if not self.selected_findings() and self.proxy.rowCount():
            self.table.selectRow(0)  # the first finding in its context, masked
        self._status = ("done", result)
        self._show_status()

    def _scan_failed(self, exc: BaseException) -> None:
        self._status = ("failed", exc)
        self._show_status()

    def _show_status(self) -> None:
        state, value = self._status
        if state == "scanning":
            text = self.tr("Scanning…")
        elif state == "cancelled":
            text = self.tr("The scan was cancelled.")
        elif state == "failed":
            text = self.tr("The scan failed: {0}").format(messages.error_text(value))
        elif state == "done":
            text = scan_text(value, len(self.proxy.flt.hidden))
            if self.stale:
                text += " " + self.tr("The database changed since: Scan again to see it as it is now.")
        else:
            text = self.tr("Not scanned yet.")
        self.scan_bar.set_status(text)

    def visible_findings(self) -> list[PrivacyFinding]:
        """The findings of the last scan, without those allowed since."""
        hidden = self.proxy.flt.hidden
        return [f for f in self.model.findings() if f.id not in hidden]

    # -- selection and context -------------------------------------------------------------------------
    def selected_findings(self) -> list[PrivacyFinding]:
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        return [self.proxy.finding_at(r) for r in rows]

    def select_finding(self, finding_id: str) -> bool:
        """Select the finding ``finding_id`` alone (tests, navigation)."""
        for r in range(self.proxy.rowCount()):
            if self.proxy.finding_at(r).id == finding_id:
                self.table.selectRow(r)
                self.table.setCurrentIndex(self.proxy.index(r, COL_PREVIEW))
                return True
        return False

    def _selection_changed(self, *_: Any) -> None:
        chosen = self.selected_findings()
        current = self.table.currentIndex()
        finding = None
        if chosen:
            finding = chosen[0]
            if current.isValid() and self.table.selectionModel().isRowSelected(current.row()):
                finding = self.proxy.finding_at(current.row())
        if finding is not self.context_pane.finding:
            self.context_pane.show_finding(finding)
        self._update_actions()

    def _read_context(self, finding: PrivacyFinding) -> None:
        others = [o for o in self.model.findings() if o.row == finding.row and o.table == finding.table]
        self.controller.run(
            ops.context,
            finding,
            others,
            key="privacy.context",
            label=self.tr("Reading the text around a finding"),
            on_result=lambda c, f=finding: self.context_pane.set_context(f, c),
            on_error=lambda _exc, f=finding: self.context_pane.set_context(f, None),
        )

    def _update_actions(self) -> None:
        busy = self.scan_job is not None
        self.actions.update_for(len(self.selected_findings()), self.ctx.editing, busy)

    # -- allow -----------------------------------------------------------------------------------------
    def allow_selected(self) -> None:
        """Put the selected findings on the allow-list (outside the database) and hide them."""
        ids = [f.id for f in self.selected_findings()]
        if not ids or self.ctx.db_path is None:
            return
        self.controller.run(
            ops.allow,
            self.ctx.db_path,
            ids,
            lane="task",
            label=self.tr("Keeping findings on the allow-list"),
            on_result=self._allowed,
            on_error=lambda exc: self.ctx.show_error(self.tr("The allow-list was not changed"), exc),
        )

    def _allowed(self, ids: Sequence[str]) -> None:
        self.proxy.hide(ids)
        self.summary_model.set_findings(self.visible_findings())
        self._show_status()
        self._selection_changed()

    # -- purge -----------------------------------------------------------------------------------------
    def purge_selected(self, mode: str = "redact") -> None:
        """Plan a purge of the selected findings, then ask (the dialog lists every file it rewrites)."""
        findings = self.selected_findings()
        if not findings:
            return
        if not self.ctx.editing:
            self.result_pane.show_text(self.tr("Turn on editing to purge: nothing was changed."))
            return
        self.controller.run(
            ops.plan,
            findings,
            mode,
            key="privacy.plan",
            label=self.tr("Listing the files a purge rewrites"),
            on_result=lambda plan, fs=findings, m=mode: self._confirm(fs, plan, m),
            on_error=self._purge_failed,
        )

    def _confirm(self, findings: list[PrivacyFinding], plan: Any, mode: str) -> None:
        dialog = PurgeDialog(findings, plan, mode, self)
        self.purge_dialog = dialog
        # After the dialog has closed: the purge closes the database, and this page with it.
        dialog.accepted.connect(lambda: QTimer.singleShot(0, self, lambda: self._purge(plan)))
        dialog.finished.connect(lambda _r: setattr(self, "purge_dialog", None))
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        dialog.open()

    def _purge(self, plan: Any) -> None:
        """Purge as ``plan`` says: the window closes its connections, purges, opens the database again."""
        if not self.ctx.editing:
            self.result_pane.show_text(self.tr("Turn on editing to purge: nothing was changed."))
            return
        window = self.window()
        if not can_purge_in(window):
            self.result_pane.show_text(
                self.tr(
                    "Purging needs the main window, which closes and reopens the database: nothing was changed."
                )
            )
            return
        purge_in_window(window, plan, include_backups=self.include_backups, editing=True)

    def show_purge_result(self, result: Any, include_backups: bool) -> None:
        """What a purge did (the database opened again after it), then a scan of what is left."""
        self.last_purge = result
        self.result_pane.show_text(purge_text(result))
        self.scan_bar.backups.setChecked(include_backups)
        self.scan(include_backups)

    def show_purge_error(self, exc: BaseException, include_backups: bool) -> None:
        """Why a purge was refused or failed (nothing was purged), then a scan."""
        self._purge_failed(exc)
        self.scan_bar.backups.setChecked(include_backups)
        self.scan(include_backups)

    def _purge_failed(self, exc: BaseException) -> None:
        self.result_pane.show_text(self.tr("Nothing was purged: {0}").format(messages.error_text(exc)))

    def save_state(self) -> None:
        """Nothing kept between runs but the splitters' sizes, which follow the zoom."""
