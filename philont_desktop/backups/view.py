"""The Backups tab: the files in ``backups/``, a backup now, restoring one, and browsing one read-only.

* The list shows every reference-named backup with its age, size, kind and ``quick_check``; the checks
  run one after another in a worker (cached per file size and time) and never write beside a backup.
  A FIFO, device or folder with a backup's name is listed as unusable and never opened. A file-system
  watcher refreshes the list when the agent writes a backup.
* **Restore** replaces the open database with a backup (:func:`core.backups.restore_backup`): after a
  confirmation naming both files, the window closes its own connections, the restore refuses when
  another program has the database open, backs up a sound file first or moves a damaged one aside
  unchanged, then the database is opened again (:func:`~philont_desktop.backups.recovery.restore_in_window`).
* **Open read-only to compare** opens the backup in a second main window that can never edit
  (:func:`~philont_desktop.backups.recovery.open_backup_window`); a backup written by the agent (a WAL-mode
  copy) is browsed through a private copy, because SQLite would otherwise create ``-wal``/``-shm`` files
  beside it.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from core.backups import BackupInfo, check_backup, damaged_files, list_backups_info
from core.errors import Notice
from core.jsutil import now_ms
from core.paths import backups_dir
from philont_desktop.backups.model import BackupsModel, fmt_age, fmt_size
from philont_desktop.backups.recovery import browsing_backup_of, open_backup_window, restore_in_window
from philont_desktop.qt import (
    QAbstractItemView,
    QDesktopServices,
    QFileSystemWatcher,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    Qt,
    QTableView,
    QTimer,
    QUrl,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.tabs.base import BaseTab


def _list(db: Any, db_path: str) -> tuple[list[BackupInfo], float | None, int]:
    """The backups (unchecked), when the database was last written (mtime of the file or its -wal) and
    how many damaged files earlier restores kept."""
    infos = list_backups_info(db_path, check=False)
    last = None
    for suffix in ("", "-wal"):
        with contextlib.suppress(OSError):
            m = Path(db_path + suffix).stat().st_mtime
            last = m if last is None else max(last, m)
    kept = sum(1 for p in damaged_files(db_path) if p.name.endswith(Path(db_path).name))
    return infos, last, kept


def _check(db: Any, path: str) -> Notice:
    return check_backup(path)


def _backup_now(db: Any, job: Any) -> Path:
    return db.backup(progress=job.progress)


# --------------------------------------------------------------------------------------------------
# The tab
# --------------------------------------------------------------------------------------------------


class BackupsTab(BaseTab):
    """The files in ``backups/``; back up now, restore one, open one read-only to compare."""

    name = "backups"

    def __init__(self, ctx, parent: QWidget | None = None):
        super().__init__(ctx, parent)
        self.model = BackupsModel(self)
        self.now = 0
        self.last_write: float | None = None
        self.damaged_kept = 0  # damaged files earlier restores moved into backups/
        self._check_cache: dict[tuple[str, int, int], str] = {}
        self._check_queue: list[str] = []
        self._checking: str | None = None
        self._check_job: Any = None
        ctx.workers.jobDone.connect(self._on_job_done)
        self.last_result: Any = None  # the last backup written / restore result (tests)

        self.backup_button = QPushButton(self.tr("Back up now"))
        self.restore_button = QPushButton(self.tr("Restore…"))
        self.compare_button = QPushButton(self.tr("Open read-only to compare"))
        self.folder_button = QPushButton(self.tr("Show folder"))
        self.backup_button.clicked.connect(lambda: self.backup_now())
        self.restore_button.clicked.connect(lambda: self.restore_selected())
        self.compare_button.clicked.connect(lambda: self.open_selected())
        self.folder_button.clicked.connect(self._show_folder)
        with contextlib.suppress(Exception):
            from philont_desktop.resources import icon

            self.backup_button.setIcon(icon("backup"))
            self.compare_button.setIcon(icon("open"))
            self.restore_button.setIcon(icon("undo"))
        bar = QHBoxLayout()
        for b in (self.backup_button, self.restore_button, self.compare_button, self.folder_button):
            bar.addWidget(b)
        bar.addStretch(1)

        self.where = QLabel()
        self.where.setWordWrap(True)
        self.where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary = QLabel()

        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setAlternatingRowColors(True)
        self.view.setWordWrap(False)
        self.view.verticalHeader().setVisible(False)
        self.view.verticalHeader().setDefaultSectionSize(self.view.fontMetrics().height() + 8)
        h = self.view.horizontalHeader()
        h.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        h.setStretchLastSection(True)
        h.setHighlightSections(False)
        self.view.selectionModel().currentRowChanged.connect(lambda *_: self._update_buttons())
        self.view.doubleClicked.connect(lambda *_: self.open_selected())

        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note = QLabel(
            self.tr(
                "Restoring replaces the content of the open database with the backup. It is only possible "
                "while the agent is not running (no other program may have the database open); the current "
                "file is backed up first, so a restore can itself be undone by restoring that backup (a "
                "damaged file is moved into the backups folder unchanged instead). Browsing a backup never "
                "writes anything into the backups folder."
            )
        )
        self.note.setWordWrap(True)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(bar)
        layout.addWidget(self.where)
        layout.addWidget(self.summary)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.details)
        layout.addWidget(self.note)

        self.watcher = QFileSystemWatcher(self)
        self.watcher.directoryChanged.connect(lambda *_: self._debounce.start())
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(700)
        self._debounce.timeout.connect(self.refresh)

        ctx.theme.changed.connect(self._apply_colors)
        self._apply_colors()
        self._update_where()
        self._update_buttons()

    # -- BaseTab hooks --------------------------------------------------------------------------------
    def activate(self) -> None:
        state = self.ctx.settings.header_state("backups/table")
        if state:
            self.view.horizontalHeader().restoreState(state)
        self._watch()
        self.refresh()

    def save_state(self) -> None:
        super().save_state()
        self.ctx.settings.set_header_state("backups/table", self.view.horizontalHeader().saveState())

    def refresh(self) -> None:
        self._update_where()
        if self.browsing:
            self.model.set_rows([])
            self._update_summary()
            self._update_buttons()
            return
        self.run(
            _list,
            str(self.ctx.db_path),
            on_result=self._on_listed,
            on_error=lambda exc: self.ctx.show_error(self.tr("The backups could not be listed"), exc),
            key="list",
            label=self.tr("Listing backups"),
        )

    def set_editing(self, on: bool) -> None:
        self._update_buttons()

    def wait_idle(self, timeout_ms: int = 10_000) -> bool:
        from philont_desktop.workers import spin_until

        return spin_until(lambda: not self._pending and self._checking is None, timeout_ms)

    # -- state ----------------------------------------------------------------------------------------
    @property
    def browsing(self) -> str | None:
        """The backup this window shows (then there is nothing to list, back up or restore here)."""
        return browsing_backup_of(self)

    @property
    def backups_dir(self) -> Path:
        return backups_dir(self.ctx.db_path)

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

    def _apply_colors(self) -> None:
        t = self.ctx.theme
        self.model.set_colors(
            {"ok": t.status_color("live"), "bad": t.status_color("error"), "muted": t.muted_text()}
        )

    def _update_where(self) -> None:
        src = self.browsing
        if src:
            self.where.setText(
                self.tr(
                    "This window shows the backup {0} read-only, for comparing. Its own backups are not "
                    "listed, and nothing can be backed up or restored here."
                ).format(src)
            )
            return
        self.where.setText(
            self.tr("Backups of {0} are kept in {1}.").format(self.ctx.db_path, self.backups_dir)
        )

    def _update_summary(self) -> None:
        rows = self.model.rows
        if self.browsing:
            self.summary.setText("")
            return
        if not rows:
            self.summary.setText(self.tr("No backups yet. “Back up now” writes the first one."))
        else:
            total = sum(r.size for r in rows)
            bad = sum(1 for r in rows if (self.model.check_of(r) or "ok") != "ok")
            text = self.tr("{0} backup(s), {1} in all; newest {2}.").format(
                len(rows), fmt_size(total), fmt_age(rows[0].age)
            )
            if bad:
                text += " " + self.tr("{0} fail quick_check.").format(bad)
            self.summary.setText(text)
        if self.damaged_kept:
            self.summary.setText(
                self.summary.text()
                + "  "
                + self.tr("{0} damaged file(s) kept by earlier restores (damaged-…).").format(
                    self.damaged_kept
                )
            )
        if self.last_write is not None:
            ago = fmt_age(int(now_ms() - self.last_write * 1000))
            self.summary.setText(
                self.summary.text() + "  " + self.tr("The database was last written {0}.").format(ago)
            )

    def selected_info(self) -> BackupInfo | None:
        idx = self.view.selectionModel().currentIndex()
        if not idx.isValid():
            return None
        return self.model.info(idx.row())

    def select_path(self, path: str | Path) -> bool:
        row = self.model.row_of(str(path))
        if row is None:
            return False
        self.view.selectRow(row)
        return True

    def _update_buttons(self) -> None:
        info = self.selected_info()
        browsing = bool(self.browsing)
        for b in (self.backup_button, self.restore_button, self.folder_button):
            b.setVisible(not browsing)
        self.compare_button.setVisible(not browsing)
        self.note.setVisible(not browsing)
        check = self.model.check_of(info) if info is not None else None
        self.restore_button.setEnabled(info is not None and check == "ok" and not self.ctx.forced_read_only)
        if self.ctx.forced_read_only:
            self.restore_button.setToolTip(self.tr("Not possible: the app was started read-only."))
        elif info is not None and check not in ("ok", None):
            self.restore_button.setToolTip(self.tr("This backup fails quick_check."))
        else:
            self.restore_button.setToolTip(
                self.tr("Replace the database's content with the selected backup.")
            )
        self.compare_button.setEnabled(info is not None)
        self.folder_button.setEnabled(self.backups_dir.is_dir())
        if info is None:
            self.details.setText("")
            return
        text = self.tr("{0} — {1} bytes — quick_check: {2}").format(
            info.path, f"{info.size:,}", self.model.text(info, "check")
        )
        if info.side_files:
            text += "\n" + self.model.side_files_text(info)
        self.details.setText(text)

    # -- loading --------------------------------------------------------------------------------------
    def _on_listed(self, result: tuple[list[BackupInfo], float | None, int]) -> None:
        infos, last, self.damaged_kept = result
        self.last_write = last
        selected = self.selected_info()
        keep = str(selected.path) if selected is not None else None
        checks: dict[str, Notice | None] = {}
        queue: list[str] = []
        for info in infos:
            ck = self._cache_key(info)
            if info.kind != "file":  # never opened: nothing to check
                continue
            if ck in self._check_cache:
                checks[str(info.path)] = self._check_cache[ck]
            else:
                checks[str(info.path)] = None
                queue.append(str(info.path))
        first = not self.model.rows
        self.model.set_rows(infos, checks)
        if first and infos:
            self.view.resizeColumnsToContents()
            h = self.view.horizontalHeader()
            h.setStretchLastSection(False)  # re-apply: sizing to contents can leave the last section narrow
            h.setStretchLastSection(True)
        if (keep is None or not self.select_path(keep)) and infos:
            self.view.selectRow(0)
        self._check_queue = queue
        if self._checking is None:
            self._check_next()
        self._watch()
        self._update_summary()
        self._update_buttons()

    @staticmethod
    def _cache_key(info: BackupInfo) -> tuple[str, int, int]:
        try:
            mtime = info.path.stat().st_mtime_ns
        except OSError:
            mtime = 0
        return (str(info.path), info.size, mtime)

    def _check_next(self) -> None:
        if not self._check_queue:
            self._checking = None
            self._update_summary()
            self._update_buttons()
            return
        path = self._check_queue.pop(0)
        self._checking = path

        def _done(result: Notice, path: str = path) -> None:
            info = next((i for i in self.model.rows if str(i.path) == path), None)
            if info is not None:
                self._check_cache[self._cache_key(info)] = result
                self.model.set_check(path, result)
            self._check_next()

        def _failed(exc: BaseException, path: str = path) -> None:
            self.model.set_check(path, Notice("backup.unreadable", str(exc), {"error": str(exc)}))
            self._check_next()

        self._check_job = self.ctx.run(
            _check, path, on_result=_done, on_error=_failed, label=self.tr("Checking backups")
        )

    def _on_job_done(self, job: Any) -> None:
        if job is self._check_job:
            self._check_job = None
            if job.state == "cancelled":
                self._checking = None  # the database was closed meanwhile

    # -- actions --------------------------------------------------------------------------------------
    def backup_now(self):
        """Write a backup of the open database now (in a worker, with progress)."""
        if self.browsing:
            return None

        def _done(path: Path) -> None:
            self.last_result = path
            self.ctx.statusMessage.emit(self.tr("Backup written to {0}").format(path))
            self.refresh()

        return self.run(
            _backup_now,
            on_result=_done,
            on_error=lambda exc: self.ctx.show_error(self.tr("The backup failed"), exc),
            progress=True,
            label=self.tr("Backing up"),
        )

    def _ask_restore(self, info: BackupInfo) -> bool:
        """The confirmation naming both files (tests replace this)."""
        created = self.model.text(info, "created")
        text = self.tr(
            "Replace the content of the open database\n\n    {0}\n\nwith the backup\n\n    {1}\n    "
            "(created {2}, {3})?\n\nThe current file is kept in {4}: backed up first, or, when it is damaged, "
            "moved there unchanged. The agent must not be running: the restore is refused while another "
            "program has the database open. The database is closed during the restore and opened again "
            "afterwards; the undo history is cleared."
        ).format(self.ctx.db_path, info.path, created, fmt_age(info.age), self.backups_dir)
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
        return restore_in_window(window, info.path)

    def open_selected(self):
        info = self.selected_info()
        if info is None or self.browsing:
            return None
        window = self.window()
        if not hasattr(window, "open_database"):
            return None
        return open_backup_window(window, info.path)

    def _show_folder(self) -> None:
        if self.backups_dir.is_dir():
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.backups_dir)))

    # -- export (File › Export… › current view) ---------------------------------------------------------
    def export_view(self) -> dict[str, Any]:
        return {
            "name": "backups",
            "description": self.tr("the list of backups"),
            "columns": ["file", "created_at", "age_ms", "size", "quick_check", "kind"],
            "rows": [self.model.export_row(i) for i in self.model.rows],
        }
