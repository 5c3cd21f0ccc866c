"""The Audit tab: the trail of manual edits stored in the database (who, when, what, before/after).

Entries are read newest first, a page at a time (``canFetchMore``/``fetchMore``), through the worker
layer. When the database changes, entries added since are put on top without moving the rows in
view; the "N new" button scrolls to them.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

from core import audit, curation
from core.audit import AuditEntry
from philont_desktop import i18n
from philont_desktop.qt import (
    QAbstractItemView,
    QAbstractTableModel,
    QComboBox,
    QDateTime,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPushButton,
    QSplitter,
    Qt,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.tabs.base import BaseTab

PAGE_SIZE = 200
Runner = Callable[..., Any]


def format_time(ms: int) -> str:
    return QDateTime.fromMSecsSinceEpoch(int(ms)).toLocalTime().toString("yyyy-MM-dd HH:mm:ss")


class AuditModel(QAbstractTableModel):
    """Audit entries, newest first, fetched lazily through ``runner(fn, *args, on_result=, key=)``."""

    COLUMNS = ("when", "who", "what", "target", "change", "state")
    EntryRole = Qt.ItemDataRole.UserRole + 1
    loaded = Signal(int)  # number of rows added (a page, or new entries on top)
    newEntries = Signal(int)
    failed = Signal(object)  # an exception from loading

    def __init__(self, runner: Runner, parent: QObject | None = None, page_size: int = PAGE_SIZE):
        super().__init__(parent)
        self._run = runner
        self._rows: list[AuditEntry] = []
        self._by_id: dict[int, int] = {}
        self._has_more = True
        self._fetching = False
        self._refreshing = False
        self._target_type: str | None = None
        self._page = page_size
        self._generation = 0
        self._muted = None

    # -- Qt model API --------------------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if role != Qt.ItemDataRole.DisplayRole or orientation != Qt.Orientation.Horizontal:
            return None
        if not 0 <= section < len(self.COLUMNS):
            return None
        return (
            self.tr("When"),
            self.tr("Who"),
            self.tr("What"),
            self.tr("Target"),
            self.tr("Change"),
            self.tr("State"),
        )[section]

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or index.row() >= len(self._rows) or index.column() >= len(self.COLUMNS):
            return None
        e = self._rows[index.row()]
        col = self.COLUMNS[index.column()]
        if role == self.EntryRole:
            return e
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            text = self._text(e, col)
            if role == Qt.ItemDataRole.ToolTipRole and col == "change":
                return "\n".join(e.diff()[:40]) or text
            return text
        if role == Qt.ItemDataRole.ForegroundRole and self._muted is not None and e.is_original and e.undone:
            return self._muted
        return None

    def _text(self, e: AuditEntry, col: str) -> str:
        if col == "when":
            return format_time(e.at)
        if col == "who":
            return e.actor
        if col == "what":
            if e.is_undo:
                return self.tr("undo {0}").format(e.original_action or "?")
            if e.is_redo:
                return self.tr("redo {0}").format(e.original_action or "?")
            return e.action
        if col == "target":
            return f"{e.target_type} {e.target_id}"
        if col == "change":
            summary = audit.summarize(e.before, e.after)
            return {"created": self.tr("created"), "deleted": self.tr("deleted")}.get(summary, summary)
        if col == "state":
            if e.is_undo:
                return self.tr("undo of #{0}").format(e.undone_of)
            if e.is_redo:
                return self.tr("redo of #{0}").format(e.undone_of)
            return self.tr("undone") if e.undone else ""
        return ""

    def canFetchMore(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> bool:  # noqa: B008
        return not parent.isValid() and self._has_more and not self._fetching

    def fetchMore(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> None:  # noqa: B008
        if not self.canFetchMore(parent):
            return
        self._fetching = True
        before = self._rows[-1].id if self._rows else None
        gen = self._generation
        self._run(
            audit.list_entries,
            self._page,
            before,
            self._target_type,
            on_result=lambda rows: self._append(gen, rows),
            on_error=lambda exc: self._fetch_failed(gen, exc),
            key="audit:page",
        )

    # -- loading ---------------------------------------------------------------------------------------
    @property
    def entries(self) -> list[AuditEntry]:
        return list(self._rows)

    @property
    def fetching(self) -> bool:
        return self._fetching or self._refreshing

    def set_muted_color(self, color: Any) -> None:
        self._muted = color

    def set_target_type(self, target_type: str | None) -> None:
        """Filter by target type (``None``: all) and reload from the newest entry."""
        self._target_type = target_type
        self.reload()

    def reload(self) -> None:
        self._generation += 1
        self.beginResetModel()
        self._rows, self._by_id = [], {}
        self._has_more, self._fetching, self._refreshing = True, False, False
        self.endResetModel()
        self.fetchMore()

    def refresh(self) -> None:
        """Load entries added since the newest one shown (put on top) and update undone states."""
        if not self._rows:
            if not self._fetching:
                self._has_more = True
                self.fetchMore()
            return
        if self._refreshing:
            return
        self._refreshing = True
        gen = self._generation
        self._run(
            audit.list_entries,
            10_000,
            None,
            self._target_type,
            None,
            self._rows[0].id,
            on_result=lambda rows: self._prepend(gen, rows),
            on_error=lambda exc: self._refresh_failed(gen, exc),
            key="audit:new",
        )

    def _append(self, gen: int, rows: list[AuditEntry]) -> None:
        if gen != self._generation:
            return
        self._fetching = False
        self._has_more = len(rows) >= self._page
        known = set(self._by_id)
        rows = [r for r in rows if r.id not in known]
        if rows:
            first = len(self._rows)
            self.beginInsertRows(QModelIndex(), first, first + len(rows) - 1)
            self._rows.extend(rows)
            self._reindex()
            self.endInsertRows()
        self.loaded.emit(len(rows))

    def _prepend(self, gen: int, rows: list[AuditEntry]) -> None:
        if gen != self._generation:
            return
        self._refreshing = False
        known = set(self._by_id)
        rows = [r for r in rows if r.id not in known]
        if not rows:
            return
        self.beginInsertRows(QModelIndex(), 0, len(rows) - 1)
        self._rows[:0] = rows
        self._reindex()
        self.endInsertRows()
        # An undo/redo row changes the state of the entry it refers to (oldest first, so the latest wins).
        for r in sorted(rows, key=lambda r: r.id):
            if (r.is_undo or r.is_redo) and r.undone_of in self._by_id:
                row = self._by_id[r.undone_of]
                self._rows[row] = self._rows[row].model_copy(update={"undone": r.is_undo})
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.COLUMNS) - 1))
        self.newEntries.emit(len(rows))
        self.loaded.emit(len(rows))

    def _reindex(self) -> None:
        self._by_id = {e.id: i for i, e in enumerate(self._rows)}

    def _fetch_failed(self, gen: int, exc: BaseException) -> None:
        if gen == self._generation:
            self._fetching = False
            self._has_more = False
        self.failed.emit(exc)

    def _refresh_failed(self, gen: int, exc: BaseException) -> None:
        if gen == self._generation:
            self._refreshing = False
        self.failed.emit(exc)

    def entry(self, row: int) -> AuditEntry | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, audit_id: int) -> int | None:
        return self._by_id.get(audit_id)


def entry_html(e: AuditEntry, theme: Any) -> str:
    """The detail view of one entry: facts, then a coloured before/after diff."""
    removed, added = theme.diff_colors()
    muted = theme.muted_text().name()
    tr = AuditTab.tr_static
    rows = [
        (tr("Entry"), f"#{e.id}"),
        (tr("When"), format_time(e.at)),
        (tr("Who"), e.actor),
        (tr("What"), e.action + (f" ({e.original_action})" if e.original_action else "")),
        (tr("Target"), f"{e.target_type} {e.target_id}"),
    ]
    if e.undone_of is not None:
        rows.append((tr("Refers to"), f"#{e.undone_of}"))
    if e.is_original and e.undone:
        rows.append((tr("State"), tr("undone")))
    if e.note:
        rows.append((tr("Note"), e.note))
    head = "".join(
        f"<tr><td style='color:{muted}; padding-right:12px'>{html.escape(k)}</td>"
        f"<td>{html.escape(str(v))}</td></tr>"
        for k, v in rows
    )
    lines = []
    for ln in e.diff():
        esc = html.escape(ln)
        if ln.startswith("+"):
            lines.append(f"<div style='background:{added.name()}'>{esc}</div>")
        elif ln.startswith("-"):
            lines.append(f"<div style='background:{removed.name()}'>{esc}</div>")
        elif ln.startswith("@@"):
            lines.append(f"<div style='color:{muted}'>{esc}</div>")
        else:
            lines.append(f"<div>{esc}</div>")
    diff = "".join(lines) or f"<div style='color:{muted}'>{html.escape(tr('No difference recorded.'))}</div>"
    errors = "".join(f"<p style='color:#cf222e'>{html.escape(x)}</p>" for x in e.json_errors)
    return (
        f"<table>{head}</table>{errors}"
        f"<p style='margin-top:10px'><b>{html.escape(tr('Before → after'))}</b></p>"
        f"<pre style='white-space:pre-wrap'>{diff}</pre>"
    )


class AuditTab(BaseTab):
    """The audit trail of this database, with filters, details and undo/redo of single entries."""

    name = "audit"

    def __init__(self, ctx, parent: QWidget | None = None):
        super().__init__(ctx, parent)
        self.model = AuditModel(self.run, self)
        self.model.set_muted_color(ctx.theme.muted_text())
        self.model.newEntries.connect(self._on_new_entries)
        self.model.failed.connect(lambda exc: ctx.show_error(self.tr("The audit trail cannot be read"), exc))

        self.filter = QComboBox()
        self.filter.addItem(self.tr("All targets"), None)
        self.filter.currentIndexChanged.connect(self._filter_changed)
        self.new_button = QPushButton()
        self.new_button.setVisible(False)
        self.new_button.setFlat(True)
        self.new_button.clicked.connect(self._scroll_to_newest)
        self.undo_button = QPushButton(self.tr("Undo this change"))
        self.redo_button = QPushButton(self.tr("Redo this change"))
        self.undo_button.clicked.connect(lambda: self._step(curation.UNDO))
        self.redo_button.clicked.connect(lambda: self._step(curation.REDO))
        self.count_label = QLabel()

        bar = QHBoxLayout()
        bar.addWidget(QLabel(self.tr("Show:")))
        bar.addWidget(self.filter)
        bar.addWidget(self.new_button)
        bar.addStretch(1)
        bar.addWidget(self.count_label)
        bar.addWidget(self.undo_button)
        bar.addWidget(self.redo_button)

        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        header = self.table.horizontalHeader()
        header.setStretchLastSection(False)
        for col, width in enumerate((150, 170, 150, 280, 200, 110)):
            self.table.setColumnWidth(col, width)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        self.table.selectionModel().currentRowChanged.connect(self._show_current)

        self.detail = QTextBrowser()
        self.detail.setOpenLinks(False)
        self.empty_text = self.tr(
            "No manual edits are recorded in this database yet. Edits made in editing mode appear here: "
            "who, when, what, and the state before and after."
        )

        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(self.detail)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.register_splitter(self.splitter, "main")

        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.splitter, 1)
        self.model.loaded.connect(self._update_labels)
        ctx.theme.changed.connect(self._restyle)
        self._editing = ctx.editing
        self._update_buttons()
        self._update_labels()

    @staticmethod
    def tr_static(text: str) -> str:
        from philont_desktop.qt import QCoreApplication

        return QCoreApplication.translate("AuditTab", text)

    def retranslate(self) -> None:
        self.empty_text = i18n.retranslate_text(self.empty_text) or self.empty_text
        super().retranslate()
        self._restyle()
        self._update_labels()

    # -- hooks ----------------------------------------------------------------------------------------
    def activate(self) -> None:
        self.model.reload()
        self._load_filters()

    def refresh(self) -> None:
        self.model.refresh()
        self._load_filters()

    def set_editing(self, on: bool) -> None:
        self._editing = on
        self._update_buttons()

    # -- internals ------------------------------------------------------------------------------------
    def _load_filters(self) -> None:
        self.run(audit.target_types, on_result=self._set_filters, key="targets")

    def _set_filters(self, types: list[str]) -> None:
        current = self.filter.currentData()
        have = [self.filter.itemData(i) for i in range(1, self.filter.count())]
        if have == types:
            return
        self.filter.blockSignals(True)
        while self.filter.count() > 1:
            self.filter.removeItem(1)
        for t in types:
            self.filter.addItem(t, t)
        idx = self.filter.findData(current) if current is not None else 0
        self.filter.setCurrentIndex(max(0, idx))
        self.filter.blockSignals(False)

    def _filter_changed(self, _: int) -> None:
        self.model.set_target_type(self.filter.currentData())
        self.new_button.setVisible(False)

    def _on_new_entries(self, n: int) -> None:
        bar = self.table.verticalScrollBar()
        if bar.value() > 0:
            # Keep the rows in view where they are (ScrollPerItem: the value is a row number).
            bar.setValue(bar.value() + n)
            self._new_count = getattr(self, "_new_count", 0) + n
            self.new_button.setText(self.tr("{0} new ↑").format(self._new_count))
            self.new_button.setVisible(True)

    def _scroll_to_newest(self) -> None:
        self._new_count = 0
        self.new_button.setVisible(False)
        self.table.scrollToTop()

    def _current_entry(self) -> AuditEntry | None:
        idx = self.table.currentIndex()
        return self.model.entry(idx.row()) if idx.isValid() else None

    def _show_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        e = self.model.entry(current.row()) if current.isValid() else None
        self.detail.setHtml(entry_html(e, self.ctx.theme) if e else "")
        self._update_buttons()

    def _update_buttons(self) -> None:
        e = self._current_entry()
        original = e is not None and e.is_original
        self.undo_button.setVisible(self._editing)
        self.redo_button.setVisible(self._editing)
        self.undo_button.setEnabled(self._editing and original and not e.undone)
        self.redo_button.setEnabled(self._editing and original and bool(e and e.undone))

    def _update_labels(self, *_: object) -> None:
        n = self.model.rowCount()
        if n and not self.table.currentIndex().isValid():
            self.table.selectRow(0)
        more = "+" if self.model.canFetchMore() else ""
        self.count_label.setText(self.tr("{0}{1} entries").format(n, more))
        if n == 0 and not self.model.fetching:
            self.detail.setHtml(f"<p>{html.escape(self.empty_text)}</p>")
        elif not self.detail.toPlainText().strip() or self.detail.toPlainText() == self.empty_text:
            self.detail.clear()

    def _step(self, kind: str) -> None:
        e = self._current_entry()
        if e is None:
            return
        text = self.tr("Undo this change") if kind == curation.UNDO else self.tr("Redo this change")
        self.controller.track(self.ctx.undo.step_entry(e.id, kind, text))

    def _restyle(self) -> None:
        self.model.set_muted_color(self.ctx.theme.muted_text())
        e = self._current_entry()
        if e is not None:
            self.detail.setHtml(entry_html(e, self.ctx.theme))
