"""The Audit tab: the trail of manual edits stored in the database (who, when, what, before/after).

The shape of every tab (see :mod:`philont_desktop.tabs`): :mod:`.state` holds the filter, the shown
entry and how many entries came on top; :mod:`.controller` reads the trail (a page at a time, new
entries on top without moving the rows in view) and undoes or redoes one entry; this view composes the
bar, the table and the detail (``widgets/``).
"""

from __future__ import annotations

from core import curation
from core.audit import AuditEntry
from philont_desktop.audit.controller import AuditController
from philont_desktop.audit.model import AuditModel
from philont_desktop.audit.state import AuditState
from philont_desktop.audit.widgets.bar import AuditBar
from philont_desktop.audit.widgets.detail import EntryDetail, entry_html
from philont_desktop.qt import QModelIndex, QSplitter, Qt, QTableView, QVBoxLayout, QWidget
from philont_desktop.tabs.base import BaseTab
from philont_desktop.tabs.navigation import ShowAuditEntry, Target
from philont_desktop.widgets.table import EmptyHint, prepend_keeper, setup_table

__all__ = ["AuditModel", "AuditTab", "entry_html"]


class AuditTab(BaseTab):
    """The audit trail of this database, with filters, details and undo/redo of single entries."""

    name = "audit"
    targets = (ShowAuditEntry,)

    def __init__(self, ctx, parent: QWidget | None = None):
        super().__init__(ctx, parent)
        self.bar = AuditBar(self)
        self.table = setup_table(
            QTableView(self),
            self.model,
            name="auditTable",
            widths=dict(enumerate((150, 170, 150, 280, 200, 110))),
            stretch=4,
            keep_position=True,
        )
        self.detail = EntryDetail(ctx.theme, self)
        self.detail.setObjectName("auditDetail")
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.addWidget(self.table)
        self.empty_hint = EmptyHint(
            self.table,
            self._empty_text,
            lambda: not self.model.loading and not self.busy,
        )
        self.controller.busyChanged.connect(self.empty_hint.update_hint)
        self.splitter.addWidget(self.detail)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.register_splitter(self.splitter, "main")
        layout = QVBoxLayout(self)
        layout.addWidget(self.bar)
        layout.addWidget(self.splitter, 1)
        self._wire()
        self.set_editing(ctx.editing)
        self._update_labels()

    def create_state(self) -> AuditState:
        return AuditState()

    def create_controller(self) -> AuditController:
        return AuditController(self.ctx, self.state, self.name, self)

    def _wire(self) -> None:
        self.bar.targetChanged.connect(self.controller.set_target_type)
        self.bar.newestRequested.connect(self.scroll_to_newest)
        self.bar.undoRequested.connect(lambda: self.controller.step(curation.UNDO))
        self.bar.redoRequested.connect(lambda: self.controller.step(curation.REDO))
        self.table.selectionModel().currentRowChanged.connect(self._on_current)
        keeper = prepend_keeper(self.table)
        if keeper is not None:
            keeper.newRows.connect(lambda n: self.state.update(new_on_top=n))
        self.table.verticalScrollBar().valueChanged.connect(self._on_scrolled)
        self.model.loaded.connect(self._update_labels)
        self.model.dataChanged.connect(lambda *_: self._on_entry_changed())
        self.state.changed.connect(self._on_state)
        self.ctx.theme.changed.connect(self._restyle)

    @property
    def model(self) -> AuditModel:
        return self.controller.model

    # -- BaseTab --------------------------------------------------------------------------------------
    def set_editing(self, on: bool) -> None:
        self.controller.set_editing(on)
        self.bar.show_steps(self.state.editing, self.state.shown)

    def _empty_text(self) -> str:
        if self.state.target_type is not None:
            return self.tr("No manual edits of this kind.")
        return self.tr("No manual edits yet.")

    def retranslate(self) -> None:
        super().retranslate()
        self._restyle()
        self._update_labels()
        self.empty_hint.update_hint()

    def navigate(self, target: Target) -> bool:
        if isinstance(target, ShowAuditEntry):
            row = self.model.row_of(target.audit_id)
            if row >= 0:
                self.table.selectRow(row)
                return True
        return False

    def _on_state(self, names: frozenset[str]) -> None:
        if "target_types" in names:
            self.bar.set_target_types(self.state.target_types)
        if "new_on_top" in names:
            self.bar.show_new(self.state.new_on_top)
        if names & {"shown", "editing"}:
            self.bar.show_steps(self.state.editing, self.state.shown)

    # -- the trail ------------------------------------------------------------------------------------
    def _on_scrolled(self, value: int) -> None:
        if value == 0 and self.state.new_on_top:
            self.scroll_to_newest()

    def scroll_to_newest(self) -> None:
        keeper = prepend_keeper(self.table)
        if keeper is not None:
            keeper.reset()
        self.state.update(new_on_top=0)
        self.table.scrollToTop()

    def _current_entry(self) -> AuditEntry | None:
        idx = self.table.currentIndex()
        return self.model.entry(idx.row()) if idx.isValid() else None

    def _on_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        e = self.model.entry(current.row()) if current.isValid() else None
        self.controller.show(e)
        self.detail.show_entry(e)

    def _on_entry_changed(self) -> None:
        """An entry's state changed (an undo or redo of it came in): the detail and buttons follow."""
        e = self._current_entry()
        if e is not None and e is not self.state.shown:
            self.controller.show(e)
            self.detail.show_entry(e)

    def _update_labels(self) -> None:
        n = self.model.rowCount()
        if n and not self.table.currentIndex().isValid():
            self.table.selectRow(0)
        self.bar.show_count(n, self.model.canFetchMore(QModelIndex()), self.model.total)
        if n == 0 and not self.model.loading:
            self.detail.show_empty()

    def _restyle(self) -> None:
        self.model.set_muted_color(self.ctx.theme.muted_text())
        e = self._current_entry()
        if e is not None:
            self.detail.show_entry(e)
