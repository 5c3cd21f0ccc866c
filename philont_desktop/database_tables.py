"""The tables of the open database, grouped as ``philont-memory info`` groups them, with their row counts.

Shown in the About dialog under the database's versions. The names come first (``sqlite_master`` only),
the counts afterwards: both are read by :mod:`core.tables` in a worker, never on the GUI thread.
"""

from __future__ import annotations

from typing import Any

from core import tables
from philont_desktop import messages
from philont_desktop.qt import (
    QCoreApplication,
    QHeaderView,
    QLabel,
    Qt,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
    is_valid,
)


def group_title(group: str) -> str:
    """The heading of a group of tables (:data:`core.tables.GROUPS`)."""
    titles = {
        "memory": QCoreApplication.translate("DatabaseTables", "Memory layers"),
        "agent": QCoreApplication.translate("DatabaseTables", "The agent's other tables"),
        "project": QCoreApplication.translate("DatabaseTables", "This application's tables"),
        "search": QCoreApplication.translate("DatabaseTables", "Full-text indexes"),
        "sqlite": QCoreApplication.translate("DatabaseTables", "SQLite's own tables"),
        "unknown": QCoreApplication.translate("DatabaseTables", "Unknown tables"),
    }
    return titles.get(group, group)


class DatabaseTables(QWidget):
    """A tree of the tables by group, with row counts (filled in when a worker has counted them)."""

    def __init__(self, ctx: Any, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("databaseTables")
        self.ctx = ctx
        self.tables: list[tables.TableInfo] = []
        self.counted = False
        self.status = QLabel(self.tr("Reading the list of tables…"))
        self.tree = QTreeWidget()
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels([self.tr("Table"), self.tr("Rows")])
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.status)
        layout.addWidget(self.tree, 1)
        if ctx is not None:
            ctx.run(_list, on_result=self._listed, on_error=self._failed, label="tables")

    # -- results (they may arrive after the dialog was closed and deleted) ------------------------------
    def _alive(self) -> bool:
        return is_valid(self) and is_valid(self.tree) and is_valid(self.status)

    def _listed(self, listed: list[tables.TableInfo]) -> None:
        if not self._alive():
            return
        self.tables = listed
        self._fill()
        self.status.setText(self.tr("Counting rows…"))
        self.ctx.run(_count, on_result=self._counted, on_error=self._failed, label="row counts")

    def _counted(self, counted: list[tables.TableInfo]) -> None:
        if not self._alive():
            return
        self.tables = counted
        self.counted = True
        self._fill()
        self.status.setText(self.tr("{0} tables").format(len(counted)))

    def _failed(self, exc: BaseException) -> None:
        if not self._alive():
            return
        self.status.setText(self.tr("The tables could not be read: {0}").format(messages.error_text(exc)))

    def _fill(self) -> None:
        self.tree.clear()
        for group in tables.GROUPS:
            members = [t for t in self.tables if t.group == group]
            if not members:
                continue
            head = QTreeWidgetItem([group_title(group), ""])
            total = sum(t.rows or 0 for t in members)
            if self.counted:
                head.setText(1, f"{total:,}")
            head.setTextAlignment(1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            for t in members:
                child = QTreeWidgetItem([t.name, self._rows_text(t)])
                child.setToolTip(0, t.name)
                child.setTextAlignment(1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                head.addChild(child)
            self.tree.addTopLevelItem(head)
            head.setExpanded(group in ("memory", "agent", "unknown"))

    def _rows_text(self, t: tables.TableInfo) -> str:
        if t.virtual:
            return self.tr("virtual")
        if t.rows is None:
            return "…" if not self.counted else "?"
        return f"{t.rows:,}"

    def text(self) -> str:
        """The tree as plain text (for the About dialog's Copy)."""
        lines: list[str] = []
        for i in range(self.tree.topLevelItemCount()):
            head = self.tree.topLevelItem(i)
            lines.append(f"{head.text(0)}  {head.text(1)}".rstrip())
            lines += [f"  {head.child(j).text(0)}  {head.child(j).text(1)}" for j in range(head.childCount())]
        return "\n".join(lines)


def _list(db: Any) -> list[tables.TableInfo]:
    return tables.inventory(db, counts=False)


def _count(db: Any) -> list[tables.TableInfo]:
    return tables.inventory(db, counts=True)
