"""The Backups tab: the files in ``backups/``, a backup now, restoring one, and browsing one read-only.

* The list shows every reference-named backup with its age, size, kind and ``quick_check``; the checks
  run one after another in a worker (cached per file size and time) and never write beside a backup.
  A FIFO, device or folder with a backup's name is listed as unusable and never opened. A file-system
  watcher refreshes the list when the agent writes a backup.
* **Restore** replaces the open database with a backup (:func:`core.backups.restore_backup`): after a
  confirmation naming both files, the window closes its own connections, the restore refuses when
  another program has the database open, backs up a sound file first or moves a damaged one aside
  unchanged, then the database is opened again (:func:`~philont_desktop.recovery.restore_in_window`).
* **Open read-only to compare** opens the backup in a second main window that can never edit
  (:func:`~philont_desktop.recovery.open_backup_window`); a backup written by the agent (a WAL-mode
  copy) is browsed through a private copy, because SQLite would otherwise create ``-wal``/``-shm`` files
  beside it.

The shape of every tab (see :mod:`philont_desktop.tabs`): :mod:`.state` holds the listing and the checks
without Qt; :mod:`.controller` lists, checks and backs up; this view composes the button bar, the header,
the table and the footer (``widgets/``) and wires them together.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from core.backups import BackupInfo
from core.paths import backups_dir
from philont_desktop.backups.controller import BackupsController
from philont_desktop.backups.model import BackupsModel, fmt_age
from philont_desktop.backups.state import BackupsState
from philont_desktop.backups.widgets.bar import BackupsBar
from philont_desktop.backups.widgets.footer import BackupsFooter
from philont_desktop.backups.widgets.header import BackupsHeader
from philont_desktop.qt import (
    QDesktopServices,
    QFileSystemWatcher,
    QMessageBox,
    QTableView,
    QTimer,
    QUrl,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.recovery import browsing_backup_of
from philont_desktop.tabs.base import BaseTab
from philont_desktop.widgets.table import EmptyHint, setup_table

WATCH_DEBOUNCE_MS = 700


class BackupsTab(BaseTab):
    """The files in ``backups/``; back up now, restore one, open one read-only to compare."""

    name = "backups"

    def __init__(self, ctx, parent: QWidget | None = None):
        super().__init__(ctx, parent)
        self.model = BackupsModel(self)
        self.bar = BackupsBar(self)
        self.header = BackupsHeader(self)
        self.view = setup_table(QTableView(self), self.model, name="backupsTable", stretch_last=True)
        self.empty_hint = EmptyHint(
            self.view,
            lambda: self.tr("No backups yet. “Back up now” writes the first one."),
            lambda: not self.busy,
        )
        self.controller.busyChanged.connect(self.empty_hint.update_hint)
        self.footer = BackupsFooter(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.bar)
        layout.addWidget(self.header)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.footer)
        self.watcher = QFileSystemWatcher(self)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(WATCH_DEBOUNCE_MS)
        self._wire()
        self._apply_colors()
        self.header.show_where(Path(ctx.db_path), self.backups_dir, self.browsing)
        self._show_selection()

    def create_state(self) -> BackupsState:
        return BackupsState()

    def create_controller(self) -> BackupsController:
        return BackupsController(self.ctx, self.state, self.name, self)

    def _wire(self) -> None:
        self.bar.backupRequested.connect(lambda: self.backup_now())
        self.bar.restoreRequested.connect(lambda: self.restore_selected())
        self.bar.compareRequested.connect(lambda: self.open_selected())
        self.bar.folderRequested.connect(self._show_folder)
        self.view.selectionModel().currentRowChanged.connect(lambda *_: self._on_current())
        self.view.doubleClicked.connect(lambda *_: self.open_selected())
        self.watcher.directoryChanged.connect(lambda *_: self._debounce.start())
        self._debounce.timeout.connect(self.refresh)
        self.state.changed.connect(self._on_state)
        self.ctx.theme.changed.connect(self._apply_colors)

    # -- the parts, by name (tests, the self-test and the export dialog use them) ------------------------
    @property
    def browsing(self) -> str | None:
        """The backup this window shows read-only (then there is nothing to list, back up or restore)."""
        return browsing_backup_of(self)

    @property
    def backups_dir(self) -> Path:
        return backups_dir(self.ctx.db_path)

    @property
    def restore_button(self):
        return self.bar.restore_button

    @property
    def compare_button(self):
        return self.bar.compare_button

    @property
    def backup_button(self):
        return self.bar.backup_button

    @property
    def summary(self):
        return self.header.summary

    @property
    def details(self):
        return self.footer.details

    @property
    def _checking(self) -> str | None:
        return self.state.checking

    @property
    def last_result(self) -> Any:
        return self.state.last_result

    # -- BaseTab --------------------------------------------------------------------------------------
    def activate(self) -> None:
        saved = self.ctx.settings.header_state("backups/table")
        if saved:
            self.view.horizontalHeader().restoreState(saved)
        self._watch()
        self.refresh()

    def refresh(self) -> None:
        self.state.update(browsing=self.browsing)
        self.header.show_where(Path(self.ctx.db_path), self.backups_dir, self.browsing)
        self.controller.refresh()

    def save_state(self) -> None:
        super().save_state()
        self.ctx.settings.set_header_state("backups/table", self.view.horizontalHeader().saveState())

    def set_editing(self, on: bool) -> None:
        self._show_selection()

    def retranslate(self) -> None:
        super().retranslate()
        self.empty_hint.update_hint()
        self.header.show_where(Path(self.ctx.db_path), self.backups_dir, self.browsing)
        self.header.show_summary(self.state)

    def export_view(self) -> dict[str, Any]:
        return {
            "name": "backups",
            "description": self.tr("the list of backups"),
            "columns": ["file", "created_at", "age_ms", "size", "quick_check", "kind"],
            "rows": [self.model.export_row(i) for i in self.model.rows],
        }

    # -- showing the state ------------------------------------------------------------------------------
    def _on_state(self, names: frozenset[str]) -> None:
        if "rows" in names:
            self._show_rows()
        elif "checks" in names:
            self.model.set_checks(dict(self.state.checks))
        if names & {"rows", "checks", "damaged_kept", "last_write", "browsing"}:
            self.header.show_summary(self.state)
            self._show_selection()

    def _show_rows(self) -> None:
        keep = self.state.selected
        first = not self.model.rows
        self.model.set_rows(list(self.state.rows), dict(self.state.checks))
        if first and self.state.rows and not self.ctx.settings.header_state("backups/table"):
            self.view.resizeColumnsToContents()
            h = self.view.horizontalHeader()
            h.setStretchLastSection(False)  # re-apply: sizing to contents can leave the last section narrow
            h.setStretchLastSection(True)
        if (keep is None or not self.select_path(keep)) and self.state.rows:
            self.view.selectRow(0)
        self._watch()

    def _apply_colors(self) -> None:
        t = self.ctx.theme
        self.model.set_colors(
            {"ok": t.status_color("live"), "bad": t.status_color("error"), "muted": t.muted_text()}
        )

    def _on_current(self) -> None:
        info = self.selected_info()
        self.state.update(selected=str(info.path) if info is not None else None)
        self._show_selection()

    def _show_selection(self) -> None:
        info = self.selected_info()
        check = self.state.check_of(info) if info is not None else None
        browsing = bool(self.browsing)
        self.bar.show_selection(
            info,
            check,
            read_only=self.ctx.forced_read_only,
            browsing=browsing,
            folder=self.backups_dir.is_dir(),
        )
        self.footer.show_info(info, self.model, browsing)

    def _watch(self) -> None:
        if self.browsing:
            return
        with contextlib.suppress(Exception):
            paths = self.watcher.directories()
            if paths:
                self.watcher.removePaths(paths)
            d = self.backups_dir
            target = d if d.is_dir() else d.parent
            if target.is_dir():
                self.watcher.addPath(str(target))

    # -- selection ------------------------------------------------------------------------------------
    def selected_info(self) -> BackupInfo | None:
        idx = self.view.selectionModel().currentIndex()
        return self.model.info(idx.row()) if idx.isValid() else None

    def select_path(self, path: str | Path) -> bool:
        row = self.model.row_of(str(path))
        if row is None:
            return False
        self.view.selectRow(row)
        return True

    # -- actions --------------------------------------------------------------------------------------
    def backup_now(self):
        return self.controller.backup_now()

    def _ask_restore(self, info: BackupInfo) -> bool:
        """The confirmation naming both files (tests replace this)."""
        text = self.tr(
            "Replace the content of the open database\n\n    {0}\n\nwith the backup\n\n    {1}\n    "
            "(created {2}, {3})?\n\nThe current file is kept in {4}: backed up first, or, when it is damaged, "
            "moved there unchanged. The agent must not be running: the restore is refused while another "
            "program has the database open. The database is closed during the restore and opened again "
            "afterwards; the undo history is cleared."
        ).format(
            self.ctx.db_path, info.path, self.model.text(info, "created"), fmt_age(info.age), self.backups_dir
        )
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Restore a backup"), text, parent=self)
        yes = box.addButton(self.tr("Restore"), QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        return box.clickedButton() is yes

    def restore_selected(self, *, confirm: bool = True):
        info = self.selected_info()
        if info is None or self.browsing or self.ctx.forced_read_only:
            return None
        if confirm and not self._ask_restore(info):
            return None
        window = self.window()
        if not hasattr(window, "close_database") or not hasattr(window, "open_database"):
            self.ctx.show_error(
                self.tr("The backup was not restored"),
                self.tr("Restoring needs the main window to close and reopen the database."),
            )
            return None
        return self.controller.restore(window, info)

    def open_selected(self):
        info = self.selected_info()
        window = self.window()
        if info is None or not hasattr(window, "open_database"):
            return None
        return self.controller.open_read_only(window, info)

    def _show_folder(self) -> None:
        if self.backups_dir.is_dir():
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.backups_dir)))
