"""The Backups tab's controller: lists ``backups/``, checks each backup in turn (never writing beside
one), backs up now, and hands restoring and browsing to :mod:`philont_desktop.recovery`."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from core.backups import BackupInfo, check_backup, damaged_files, list_backups_info
from core.errors import Notice
from philont_desktop import recovery
from philont_desktop.backups.state import BackupsState
from philont_desktop.qt import QObject
from philont_desktop.tabs.controller import TabController
from philont_desktop.workers import Job, spin_until


def list_backups_job(db: Any, db_path: str) -> tuple[list[BackupInfo], float | None, int]:
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


def check_job(db: Any, path: str) -> Notice:
    return check_backup(path)


def backup_job(db: Any, job: Any) -> Path:
    return db.backup(progress=job.progress)


def _cache_key(info: BackupInfo) -> tuple[str, int, int]:
    try:
        mtime = info.path.stat().st_mtime_ns
    except OSError:
        mtime = 0
    return (str(info.path), info.size, mtime)


class BackupsController(TabController):
    def __init__(self, ctx: Any, state: BackupsState, name: str, parent: QObject | None = None):
        super().__init__(ctx, state, name, parent)
        self.state: BackupsState = state
        self._cache: dict[tuple[str, int, int], Notice] = {}  # checks by (path, size, mtime)
        self._queue: list[BackupInfo] = []
        self._check: Job | None = None
        ctx.workers.jobDone.connect(self._on_job_done)

    # -- listing and checking -------------------------------------------------------------------------
    def refresh(self) -> None:
        if self.state.browsing:
            self.state.update(rows=(), checks={}, checking=None)
            return
        self.run(
            list_backups_job,
            str(self.ctx.db_path),
            on_result=self._on_listed,
            on_error=lambda exc: self.ctx.show_error(self.tr("The backups could not be listed"), exc),
            key="list",
            label=self.tr("Listing backups"),
        )

    def _on_listed(self, result: tuple[list[BackupInfo], float | None, int]) -> None:
        infos, last, kept = result
        checks = {str(i.path): self._cache[_cache_key(i)] for i in infos if _cache_key(i) in self._cache}
        self._queue = [i for i in infos if i.kind == "file" and str(i.path) not in checks]
        self.state.update(rows=tuple(infos), checks=checks, last_write=last, damaged_kept=kept)
        if self._check is None:
            self._check_next()

    def _check_next(self) -> None:
        if not self._queue:
            self._check = None
            self.state.update(checking=None)
            return
        info = self._queue.pop(0)
        self.state.update(checking=str(info.path))

        def _done(notice: Notice, info: BackupInfo = info) -> None:
            self._cache[_cache_key(info)] = notice
            self._set_check(info, notice)

        def _failed(exc: BaseException, info: BackupInfo = info) -> None:
            self._set_check(info, Notice("backup.unreadable", str(exc), {"error": str(exc)}))

        self._check = self.run(
            check_job, str(info.path), on_result=_done, on_error=_failed, label=self.tr("Checking backups")
        )

    def _set_check(self, info: BackupInfo, notice: Notice) -> None:
        if self.state.info(info.path) is not None:
            self.state.update(checks={**self.state.checks, str(info.path): notice})
        self._check_next()

    def _on_job_done(self, job: Job) -> None:
        if job is self._check and job.state == "cancelled":  # the database was closed meanwhile
            self._check = None
            self.state.update(checking=None)

    def wait_idle(self, timeout_ms: int = 10_000) -> bool:
        return spin_until(lambda: not self.pending and self.state.checking is None, timeout_ms)

    # -- actions --------------------------------------------------------------------------------------
    def backup_now(self) -> Job | None:
        """Write a backup of the open database now (in a worker, with progress)."""
        if self.state.browsing:
            return None

        def _done(path: Path) -> None:
            self.state.update(last_result=path)
            self.ctx.statusMessage.emit(self.tr("Backup written to {0}").format(path))
            self.refresh()

        return self.run(
            backup_job,
            on_result=_done,
            on_error=lambda exc: self.ctx.show_error(self.tr("The backup failed"), exc),
            progress=True,
            label=self.tr("Backing up"),
        )

    def restore(self, window: Any, info: BackupInfo) -> Job | None:
        """Restore ``info`` into the database ``window`` shows (it closes and reopens it)."""
        if self.state.browsing or self.ctx.forced_read_only:
            return None
        return recovery.restore_in_window(window, info.path)

    def open_read_only(self, window: Any, info: BackupInfo) -> Any:
        if self.state.browsing:
            return None
        return recovery.open_backup_window(window, info.path)
