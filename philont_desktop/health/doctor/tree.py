"""The findings tree: a line per layer with its count, the layer's findings under it, worst first.

Its lines are items Qt reads and paints itself: a Python model is asked seven roles of every cell at each
paint, and its index, parent and flags besides (about 1,300 calls into Python to paint 40 lines, 16 ms
of the GUI thread at 1M messages, and each call waits for the interpreter while a check runs in a
worker); the items take 8 ms (bench/README.md, "Fifth pass"). A layer shown folded gets its items when
it is first opened, so that showing hundreds of findings costs only the open layers.
"""

from __future__ import annotations

from typing import Any

from core.health.finding import SEVERITIES, Finding
from philont_desktop.health.doctor.model import (
    COL_FINDING,
    COL_SEVERITY,
    FindingGroups,
    finding_line,
    finding_text,
    severity_role,
)
from philont_desktop.health.doctor.texts import severity_name
from philont_desktop.qt import (
    QAbstractItemView,
    QBrush,
    QFont,
    QHeaderView,
    QModelIndex,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)
from philont_desktop.widgets import plain

__all__ = ["FOLD_OVER", "FindingsTree"]

#: A layer with more findings than this is shown folded (its line says how many) unless it was open
#: before: a person reads so many findings of one layer by opening it, and a folded layer's lines are
#: made only when it is opened.
FOLD_OVER = 100

_SHOW_INDICATOR = QTreeWidgetItem.ChildIndicatorPolicy.ShowIndicator


class FindingsTree(QTreeWidget):
    """The findings of :attr:`groups` by layer. The severity column is as wide as its widest text,
    worked out from one line of each severity (the column shows nothing else)."""

    def __init__(self, groups: FindingGroups, theme: Any = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("doctorFindings")
        self.groups = groups
        self.theme = theme
        self.setColumnCount(2)
        self.setUniformRowHeights(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.header()
        header.setSectionResizeMode(COL_FINDING, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(COL_SEVERITY, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)
        self.itemExpanded.connect(self._fill)
        changed = getattr(theme, "changed", None)
        if changed is not None:
            changed.connect(self.restyle)
        self.retranslate()

    # -- building ---------------------------------------------------------------------------------------
    def show_groups(self, before: dict[str, bool] | None = None) -> None:
        """Make the lines of :attr:`groups` again; each layer open as in ``before`` (:meth:`open_layers`),
        a layer not in it open when it has at most :data:`FOLD_OVER` findings."""
        before = before or {}
        self.clear()
        bold = self._bold()
        tops = []
        for layer in self.groups.layers:
            top = QTreeWidgetItem([self.groups.layer_line(layer), ""])
            top.setFont(COL_FINDING, bold)
            top.setChildIndicatorPolicy(_SHOW_INDICATOR)
            tops.append(top)
        self.addTopLevelItems(tops)
        for top, layer in zip(tops, self.groups.layers, strict=True):
            if before.get(layer, len(self.groups.rows[layer]) <= FOLD_OVER):
                self._fill(top)
                top.setExpanded(True)

    def _fill(self, top: QTreeWidgetItem) -> None:
        """Give a layer's line the lines of its findings (once: when it is first shown open)."""
        pos = self.indexOfTopLevelItem(top)
        if pos < 0 or top.childCount() > 0:
            return
        brushes = self._brushes()
        names = {s: severity_name(s) for s in SEVERITIES}
        items = []
        for f in self.groups.rows[self.groups.layers[pos]]:
            item = QTreeWidgetItem([finding_line(f), names.get(f.severity, f.severity)])
            item.setToolTip(COL_FINDING, plain.tooltip(finding_text(f)))
            if brushes:
                item.setForeground(COL_SEVERITY, brushes[severity_role(f.severity)])
            items.append(item)
        top.addChildren(items)

    def _brushes(self) -> dict[str, QBrush]:
        if self.theme is None:
            return {}
        roles = {severity_role(s) for s in SEVERITIES} | {severity_role("?")}
        return {r: QBrush(self.theme.status_color(r)) for r in roles}

    def restyle(self) -> None:
        """The layers' lines in the current text size, the severities in the theme's colours (after the
        theme or the text size changed: the items keep what they were given)."""
        bold, brushes = self._bold(), self._brushes()
        for pos in range(self.topLevelItemCount()):
            top = self.topLevelItem(pos)
            top.setFont(COL_FINDING, bold)
            for row in range(top.childCount() if brushes else 0):
                f = self.groups.finding(pos, row)
                if f is not None:
                    top.child(row).setForeground(COL_SEVERITY, brushes[severity_role(f.severity)])

    @staticmethod
    def _bold() -> QFont:
        bold = QFont()  # the application's font now (the tree's own follows it only later)
        bold.setBold(True)
        return bold

    def retranslate(self) -> None:
        """The headers and every line in the interface's language, the open layers kept."""
        self.setHeaderLabels([self.tr("Finding"), self.tr("Severity")])
        if self.topLevelItemCount():
            current = self.finding(self.currentIndex())
            self.show_groups(self.open_layers())
            index = self.index_of(current) if current is not None else QModelIndex()
            if index.isValid():
                self.setCurrentIndex(index)

    def expandAll(self) -> None:
        for pos in range(self.topLevelItemCount()):
            top = self.topLevelItem(pos)
            if top is not None:
                self._fill(top)
        super().expandAll()

    # -- lookups ----------------------------------------------------------------------------------------
    def finding(self, index: Any) -> Finding | None:
        """The finding on the line at ``index`` (``None``: a layer's line, or nothing)."""
        if not index.isValid() or not index.parent().isValid():
            return None
        return self.groups.finding(index.parent().row(), index.row())

    def layer_index(self, layer: str) -> QModelIndex:
        """The line of ``layer`` (invalid when it has no findings)."""
        if layer not in self.groups.layers:
            return QModelIndex()
        return self.model().index(self.groups.layers.index(layer), 0)

    def index_of(self, f: Finding, fill: bool = True) -> QModelIndex:
        """The line of ``f`` (or of the same finding checked again); with ``fill=False`` the line of its
        layer when that layer was never opened."""
        at = self.groups.position(f)
        if at is None:
            return QModelIndex()
        top = self.topLevelItem(at[0])
        if top is None:
            return QModelIndex()
        layer = self.model().index(at[0], 0)
        if top.childCount() == 0:
            if not fill:
                return layer
            self._fill(top)
        return self.model().index(at[1], 0, layer)

    def open_layers(self) -> dict[str, bool]:
        """Whether each layer shown is open (for :meth:`show_groups` after the findings are replaced)."""
        out = {}
        for pos in range(self.topLevelItemCount()):
            top = self.topLevelItem(pos)
            if top is not None and pos < len(self.groups.layers):
                out[self.groups.layers[pos]] = top.isExpanded()
        return out

    def sizeHintForColumn(self, column: int) -> int:
        if column != COL_SEVERITY:
            return super().sizeHintForColumn(column)
        best, seen = -1, set()
        model = self.model()
        for pos, layer in enumerate(self.groups.layers):
            group = model.index(pos, 0)
            best = max(best, self.sizeHintForIndex(model.index(pos, column)).width())
            top = self.topLevelItem(pos)
            if top is None or not top.isExpanded():
                continue
            for row, f in enumerate(self.groups.rows[layer]):
                if f.severity not in seen:
                    seen.add(f.severity)
                    best = max(best, self.sizeHintForIndex(model.index(row, column, group)).width())
        return best
