"""The findings counted by kind (rows) and layer (columns); a click on a count shows those findings."""

from __future__ import annotations

from philont_desktop.health.privacy.model import SummaryModel
from philont_desktop.qt import QAbstractItemView, QHeaderView, QModelIndex, QTableView, QWidget, Signal
from philont_desktop.widgets.table import column_width, row_height

__all__ = ["SummaryView"]


class SummaryView(QTableView):
    """``cellChosen(kind, layer)`` (``""``: every one) when a count is clicked or activated."""

    cellChosen = Signal(str, str)

    def __init__(self, model: SummaryModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("privacySummary")
        self.setModel(model)
        self.summary = model
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.setTabKeyNavigation(False)
        self.setWordWrap(False)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        vh = self.verticalHeader()
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vh.setDefaultSectionSize(row_height(self))
        hh = self.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        hh.setMinimumSectionSize(column_width(self, "0000"))
        self.clicked.connect(self._chosen)
        self.activated.connect(self._chosen)

    def _chosen(self, index: QModelIndex) -> None:
        if index.isValid():
            kind, layer = self.summary.cell(index.row(), index.column())
            self.cellChosen.emit(kind, layer)
