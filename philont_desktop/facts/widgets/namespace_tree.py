"""The namespace tree: namespaces nested by their dots, with their active facts and default tau."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from core.decay import namespace_tau_days
from philont_desktop import humanize
from philont_desktop.facts.data import FactRow, NamespaceNode, namespace_tree
from philont_desktop.facts.text import fmt_tau
from philont_desktop.qt import QHeaderView, Qt, QTreeWidget, QTreeWidgetItem, QWidget, Signal
from philont_desktop.widgets import plain

NsRole = Qt.ItemDataRole.UserRole + 10


class NamespaceTree(QTreeWidget):
    """ "All namespaces" on top, then every namespace; ``namespaceChanged(ns | None)`` on a choice."""

    namespaceChanged = Signal(object)

    def __init__(self, theme: Any, parent: QWidget | None = None):
        super().__init__(parent)
        self._theme = theme
        self.setObjectName("namespaceTree")
        self._set_headers()
        self.setUniformRowHeights(True)
        self.setRootIsDecorated(True)
        th = self.header()
        th.setStretchLastSection(False)
        th.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        th.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        th.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        # Room for a namespace's name beside its counts, also in large text (zoom, 144 dpi).
        self.setMinimumWidth(self.fontMetrics().horizontalAdvance("x" * 26))
        self.currentItemChanged.connect(self._on_current)
        self._shown: tuple[list[NamespaceNode], int] = ([], -1)

    def current_namespace(self) -> str | None:
        item = self.currentItem()
        return item.data(0, NsRole) if item is not None else None

    def select_namespace(self, ns: str | None) -> bool:
        """Make ``ns`` (``None``: all) the current namespace; ``False`` when it is not in the tree."""
        top = self.topLevelItem(0)
        if top is None:
            return False
        found = top if ns is None else self._find(top, ns)
        if found is not None:
            self.setCurrentItem(found)
        return found is not None

    def set_rows(self, rows: Sequence[FactRow]) -> bool:
        """Rebuild from ``rows`` (see :meth:`set_tree`)."""
        return self.set_tree(namespace_tree(rows), sum(1 for r in rows if r.fact.active))

    def set_tree(self, nodes: list[NamespaceNode], active: int) -> bool:
        """Show ``nodes`` (``active`` facts in all), keeping the current namespace; ``False`` when it is
        gone (then "all"). The same namespaces with the same counts as shown leave the tree as it is."""
        current = self.current_namespace()
        if (nodes, active) == self._shown and self.topLevelItem(0) is not None:
            return True
        self._shown = (nodes, active)
        self.blockSignals(True)
        try:
            self.clear()
            top = QTreeWidgetItem([self.tr("All namespaces"), str(active), ""])
            top.setData(0, NsRole, None)
            self.addTopLevelItem(top)
            chosen: QTreeWidgetItem = top
            for node in nodes:
                item = self._item(node)
                top.addChild(item)
                found = self._find(item, current) if current is not None else None
                if found is not None:
                    chosen = found
            self.expandAll()
            self.setCurrentItem(chosen)
        finally:
            self.blockSignals(False)
        return current is None or chosen is not top

    def _set_headers(self) -> None:
        self.setHeaderLabels([self.tr("Namespace"), self.tr("Facts"), self.tr("Tau")])
        self.headerItem().setToolTip(2, humanize.tau_help())

    def retranslate(self) -> None:
        """Texts in the new language: rebuild the items."""
        nodes, active = self._shown
        self._shown = ([], -1)
        self._set_headers()
        if active >= 0:
            self.set_tree(nodes, active)

    def _item(self, node: NamespaceNode) -> QTreeWidgetItem:
        label = node.namespace.rsplit(".", 1)[-1] if "." in node.namespace else node.namespace
        count = str(node.active)
        if node.subtree_active != node.active:
            count = f"{node.active} ({node.subtree_active})"
        tau = namespace_tau_days(node.namespace)
        item = QTreeWidgetItem(
            [plain.plain(label, 200, one_line=True) or self.tr("(empty)"), count, fmt_tau(tau)]
        )
        item.setData(0, NsRole, node.namespace)
        right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        item.setTextAlignment(1, right)
        item.setTextAlignment(2, right)
        tip = self.tr("{0}: {1} active facts here, {2} with sub-namespaces, {3} rows in all.").format(
            node.namespace, node.active, node.subtree_active, node.rows
        )
        if math.isinf(tau):
            tip += "\n" + self.tr("Tau ∞: facts of user.* never decay.")
        else:
            tip += "\n" + self.tr("Tau {0} (namespace default).").format(fmt_tau(tau))
        if not node.exists:
            tip += "\n" + self.tr("No facts in this namespace itself.")
            item.setForeground(0, self._theme.muted_text())
        for c in range(3):
            item.setToolTip(c, plain.tooltip(tip))
        for child in node.children:
            item.addChild(self._item(child))
        return item

    def _find(self, item: QTreeWidgetItem, ns: str) -> QTreeWidgetItem | None:
        if item.data(0, NsRole) == ns:
            return item
        for i in range(item.childCount()):
            found = self._find(item.child(i), ns)
            if found is not None:
                return found
        return None

    def _on_current(self, item: QTreeWidgetItem | None, _prev: Any = None) -> None:
        self.namespaceChanged.emit(item.data(0, NsRole) if item is not None else None)
