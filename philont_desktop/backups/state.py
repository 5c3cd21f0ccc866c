"""What the Backups tab shows, without Qt: the files in ``backups/``, their checks, what is being checked."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.backups import BackupInfo
from core.errors import Notice
from philont_desktop.tabs.state import TabState


@dataclass(eq=False)
class BackupsState(TabState):
    """``selected`` is the path (``str``) of the selected backup.

    ``checks`` holds the checks known so far (path -> :class:`Notice`); ``checking`` is the path being
    checked now. ``browsing`` is set in a window that shows a backup read-only (nothing is listed, backed
    up or restored there).
    """

    rows: tuple[BackupInfo, ...] = ()
    checks: Mapping[str, Notice] = field(default_factory=dict)
    checking: str | None = None
    last_write: float | None = None  # when the database was last written (file or -wal mtime)
    damaged_kept: int = 0  # damaged files earlier restores moved into backups/
    browsing: str | None = None
    last_result: Any = None  # the last backup written

    def info(self, path: str | Path | None) -> BackupInfo | None:
        return next((i for i in self.rows if str(i.path) == str(path)), None) if path is not None else None

    def failing(self) -> int:
        """How many backups are known to fail their check (special files count)."""
        return sum(1 for i in self.rows if (n := self.check_of(i)) is not None and n.code != "backup.ok")

    def check_of(self, info: BackupInfo) -> Notice | None:
        if info.kind != "file":
            return Notice("backup.not_regular", info.quick_check or "", {"kind": info.kind})
        return self.checks.get(str(info.path))
