"""The table model of the Backups tab: files of ``backups/`` with owner, age, size, journal and
quick_check."""

from __future__ import annotations

from typing import Any

from core.backups import BackupInfo
from core.errors import Notice
from core.jsutil import iso_ms
from philont_desktop.backup_texts import check_text, kind_text
from philont_desktop.qt import (
    QAbstractTableModel,
    QColor,
    QCoreApplication,
    QDateTime,
    QLocale,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)

MINUTE_MS = 60_000
HOUR_MS = 3_600_000
DAY_MS = 86_400_000


def fmt_age(age_ms: int | None) -> str:
    """``12 min``, ``5 h``, ``3 d`` (whole units, rounded down); ``in the future`` for a time more than a
    minute ahead (a backup named for a later date: its date is in the next column)."""
    if age_ms is None:
        return "?"
    if int(age_ms) <= -MINUTE_MS:
        return QCoreApplication.translate("BackupsTab", "in the future")
    a = max(0, int(age_ms))
    if a < MINUTE_MS:
        return QCoreApplication.translate("BackupsTab", "just now")
    if a < HOUR_MS:
        return QCoreApplication.translate("BackupsTab", "{0} min ago").format(a // MINUTE_MS)
    if a < 2 * DAY_MS:
        return QCoreApplication.translate("BackupsTab", "{0} h ago").format(a // HOUR_MS)
    return QCoreApplication.translate("BackupsTab", "{0} d ago").format(a // DAY_MS)


def fmt_size(n: int) -> str:
    """Bytes in binary units with the locale's number format (``1.5 MiB``)."""
    return QLocale().formattedDataSize(int(n), 1, QLocale.DataSizeFormat.DataSizeIecFormat)


class BackupsModel(QAbstractTableModel):
    """Backups newest first; ``quick_check`` results arrive later (``set_check``)."""

    COLUMNS = ("name", "owner", "created", "age", "size", "journal", "check")
    InfoRole = Qt.ItemDataRole.UserRole + 1
    PENDING = None  # quick_check not known yet

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._rows: list[BackupInfo] = []
        self._checks: dict[str, Notice | None] = {}
        self.colors: dict[str, QColor] = {}

    # -- Qt API -----------------------------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        if not 0 <= section < len(self.COLUMNS):
            return None
        return self.header(self.COLUMNS[section])

    def header(self, col: str) -> str:
        return {
            "name": self.tr("File"),
            "owner": self.tr("Written by"),
            "created": self.tr("Created"),
            "age": self.tr("Age"),
            "size": self.tr("Size"),
            "check": self.tr("Integrity check"),
            "journal": self.tr("Kind"),
        }[col]

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        if not 0 <= index.column() < len(self.COLUMNS):
            return None
        info = self._rows[index.row()]
        col = self.COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self.text(info, col)
        if role == self.InfoRole:
            return info
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == "check":
                notice = self.check_notice(info)
                if notice is None:
                    return self.tr("Checking…")
                shown = check_text(notice)
                return shown if shown == notice.message else f"{shown}\n{notice.message}"
            if col == "created" and info.created_at is not None:
                return self.tr("UTC: {0}").format(iso_ms(info.created_at))
            if col == "name":
                return str(info.path) + ("\n" + self.side_files_text(info) if info.side_files else "")
            if col == "journal" and info.kind != "file":
                return self.tr("Not a regular file: it is never opened, so it cannot hang anything.")
            if col == "journal":
                return (
                    self.tr("Copied by the agent from its WAL database: browsing it uses a private copy.")
                    if info.journal == "wal"
                    else self.tr("A self-contained copy: it can be browsed in place.")
                )
            if col == "size":
                return self.tr("{0} bytes").format(f"{info.size:,}")
            if col == "owner":
                return (
                    self.tr(
                        "Written by the agent: its own rotation keeps or deletes it; this app never does."
                    )
                    if info.owner == "agent"
                    else self.tr("Written by this app: the agent never counts or deletes it.")
                )
            return None
        if role == Qt.ItemDataRole.ForegroundRole and col == "check":
            check = self.check_of(info)
            if check is None:
                return self.colors.get("muted")
            return self.colors.get("ok") if check == "ok" else self.colors.get("bad")
        if role == Qt.ItemDataRole.TextAlignmentRole and col == "size":
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    # -- content ------------------------------------------------------------------------------------------
    def text(self, info: BackupInfo, col: str) -> str:
        if col == "name":
            return info.name
        if col == "owner":
            return self.tr("the agent") if info.owner == "agent" else self.tr("this app")
        if col == "created":
            if info.created_at is None:
                return ""
            return (
                QDateTime.fromMSecsSinceEpoch(info.created_at).toLocalTime().toString("yyyy-MM-dd HH:mm:ss")
            )
        if col == "age":
            return fmt_age(info.age)
        if col == "size":
            return fmt_size(info.size)
        if col == "check":
            notice = self.check_notice(info)
            if notice is None:
                return self.tr("checking…")
            return check_text(notice).splitlines()[0]
        if col == "journal" and info.kind != "file":
            return kind_text(info.kind)
        if col == "journal":
            if info.journal == "wal":
                return self.tr("agent (WAL)")
            if info.journal == "rollback":
                return self.tr("self-contained")
            return self.tr("unreadable")
        return ""

    def side_files_text(self, info: BackupInfo) -> str:
        return self.tr("Files beside it ({0}) are not part of the backup and are ignored.").format(
            ", ".join(info.side_files)
        )

    def check_notice(self, info: BackupInfo) -> Notice | None:
        """The check of a backup (:func:`core.backups.check_backup`); ``None`` while not known yet."""
        if info.kind != "file":
            return Notice("backup.not_regular", info.quick_check or "", {"kind": info.kind})
        return self._checks.get(str(info.path))

    def check_of(self, info: BackupInfo) -> str | None:
        """The check's English text: ``"ok"``, the reason, or ``None`` while not known yet."""
        notice = self.check_notice(info)
        return None if notice is None else notice.message

    def set_rows(self, rows: list[BackupInfo], checks: dict[str, Notice | None] | None = None) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        if checks is not None:
            self._checks = dict(checks)
        self.endResetModel()

    def set_checks(self, checks: dict[str, Notice]) -> None:
        """The checks known now (path -> notice); rows without one show "checking…"."""
        self._checks = dict(checks)
        if self._rows:
            col = self.COLUMNS.index("check")
            self.dataChanged.emit(self.index(0, col), self.index(len(self._rows) - 1, col))

    def set_check(self, path: str, result: Notice) -> None:
        self._checks[path] = result
        for i, info in enumerate(self._rows):
            if str(info.path) == path:
                col = self.COLUMNS.index("check")
                self.dataChanged.emit(self.index(i, col), self.index(i, col))

    def set_colors(self, colors: dict[str, QColor]) -> None:
        self.colors = dict(colors)
        if self._rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, len(self.COLUMNS) - 1))

    @property
    def rows(self) -> list[BackupInfo]:
        return list(self._rows)

    @property
    def checks(self) -> dict[str, Notice | None]:
        return dict(self._checks)

    def info(self, row: int) -> BackupInfo | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, path: str) -> int | None:
        for i, info in enumerate(self._rows):
            if str(info.path) == path:
                return i
        return None

    def export_row(self, info: BackupInfo) -> dict[str, Any]:
        return {
            "file": str(info.path),
            "owner": info.owner,
            "created_at": iso_ms(info.created_at) if info.created_at is not None else None,
            "age_ms": info.age,
            "size": info.size,
            "quick_check": self.check_of(info),
            "kind": info.journal,
        }
