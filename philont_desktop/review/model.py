"""The change list of the Review tab: a two-level tree model, layers with their counts, then changes.

Updates are incremental (:meth:`ChangeTreeModel.set_changes`): rows that are gone are removed, rows that
arrived are inserted where they belong (newest first, so a live refresh inserts at the top), and every
other row keeps its index, so the selection, the expanded layers and the reader's place survive.
"""

from __future__ import annotations

import html
import time
from typing import Any

from core.changes import ChangeItem, ChangeSet
from philont_desktop import humanize
from philont_desktop.qt import (
    QFont,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from philont_desktop.review.texts import dating_text, layer_name, summary
from philont_desktop.widgets.grouped_model import GroupedModel

__all__ = ["COL_BY", "COL_CHANGE", "COL_TIME", "COL_WHEN", "ChangeTreeModel", "ItemRole", "plain_tooltip"]

COL_CHANGE, COL_WHEN, COL_TIME, COL_BY = range(4)
ItemRole = Qt.ItemDataRole.UserRole + 1
LayerRole = Qt.ItemDataRole.UserRole + 2
Index = QModelIndex | QPersistentModelIndex


def plain_tooltip(text: str) -> str:
    """A tooltip that shows ``text`` literally (stored text is never read as rich text)."""
    return "<qt>" + html.escape(text, quote=False).replace("\n", "<br/>") + "</qt>"


class ChangeTreeModel(GroupedModel):
    """Layers (top level) and their changes; the theme's muted colour for reviewed changes."""

    columns = 4

    def __init__(self, theme: Any = None, parent: QObject | None = None):
        super().__init__(parent)
        self.theme = theme
        self.layers: list[str] = []
        self.rows: dict[str, list[ChangeItem]] = {}
        self.reviewed: frozenset[str] = frozenset()
        self.new_ids: frozenset[str] = frozenset()
        self.now = int(time.time() * 1000)
        self._texts: dict[str, str] = {}

    # -- updating -------------------------------------------------------------------------------------
    def set_changes(
        self,
        cs: ChangeSet | None,
        *,
        reviewed: frozenset[str] = frozenset(),
        new_ids: frozenset[str] = frozenset(),
        hide_reviewed: bool = False,
    ) -> None:
        self.now = int(time.time() * 1000)
        self.reviewed, self.new_ids = reviewed, new_ids
        layers = list(cs.layers) if cs is not None else []
        groups = cs.by_layer() if cs is not None else {}
        wanted = {
            layer: [it for it in groups.get(layer, []) if not (hide_reviewed and it.id in reviewed)]
            for layer in layers
        }
        if layers != self.layers:
            self.beginResetModel()
            self.layers, self.rows = layers, wanted
            self.endResetModel()
            return
        for pos, layer in enumerate(layers):
            self._update_layer(pos, layer, wanted[layer])
        if self.layers:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.layers) - 1, COL_BY))
            for pos in range(len(self.layers)):
                n = len(self.rows[self.layers[pos]])
                if n:
                    parent = self.index(pos, 0)
                    self.dataChanged.emit(self.index(0, 0, parent), self.index(n - 1, COL_BY, parent))

    def _update_layer(self, pos: int, layer: str, new: list[ChangeItem]) -> None:
        parent = self.index(pos, 0)
        old = self.rows[layer]
        keep = {it.id for it in new}
        for row in range(len(old) - 1, -1, -1):
            if old[row].id not in keep:
                self.beginRemoveRows(parent, row, row)
                del old[row]
                self.endRemoveRows()
        have = {it.id for it in old}
        order = [it.id for it in new if it.id in have]
        if [it.id for it in old] != order:  # the kept rows changed order: rebuild this layer
            self.beginRemoveRows(parent, 0, len(old) - 1)
            old.clear()
            self.endRemoveRows()
            have = set()
        for row, it in enumerate(new):
            if it.id in have:
                old[row] = it
                continue
            self.beginInsertRows(parent, row, row)
            old.insert(row, it)
            self.endInsertRows()

    def retranslate(self) -> None:
        self._texts.clear()
        if self.layers:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.layers) - 1, COL_BY))
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, COL_BY)

    # -- lookups ---------------------------------------------------------------------------------------
    def item(self, index: Index) -> ChangeItem | None:
        if not index.isValid() or index.internalId() == 0:
            return None
        layer = self.layers[index.internalId() - 1]
        rows = self.rows.get(layer, [])
        return rows[index.row()] if 0 <= index.row() < len(rows) else None

    def index_of(self, item_id: str) -> QModelIndex:
        for pos, layer in enumerate(self.layers):
            for row, it in enumerate(self.rows[layer]):
                if it.id == item_id:
                    return self.index(row, 0, self.index(pos, 0))
        return QModelIndex()

    def items(self) -> list[ChangeItem]:
        return [it for layer in self.layers for it in self.rows[layer]]

    def text(self, it: ChangeItem) -> str:
        got = self._texts.get(it.id)
        if got is None:
            got = self._texts[it.id] = summary(it)
        return got

    # -- QAbstractItemModel ----------------------------------------------------------------------------
    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.ToolTipRole and section == COL_BY:
            return self.tr(
                "Who made the change, when a person made it in this app; otherwise how its time is known: "
                "“derived” means worked out from other data (the action log, the decay model), not "
                "recorded with the change; “unknown time” means only a backup comparison saw it."
            )
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        return (self.tr("Change"), self.tr("When"), self.tr("Time"), self.tr("Source"))[section]

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        if index.internalId() == 0:
            return self._layer_data(index, role)
        it = self.item(index)
        if it is None:
            return None
        if role == ItemRole:
            return it
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(it, index.column())
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(it)
        if role == Qt.ItemDataRole.FontRole and it.id in self.new_ids:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ForegroundRole and it.id in self.reviewed and self.theme is not None:
            return self.theme.muted_text()
        return None

    def _layer_data(self, index: Index, role: int) -> Any:
        layer = self.layers[index.row()] if index.row() < len(self.layers) else ""
        if role == LayerRole:
            return layer
        if role == Qt.ItemDataRole.DisplayRole and index.column() == COL_CHANGE:
            rows = self.rows.get(layer, [])
            done = sum(1 for it in rows if it.id in self.reviewed)
            if done:
                return self.tr("{0} ({1}, {2} reviewed)").format(layer_name(layer), len(rows), done)
            return self.tr("{0} ({1})").format(layer_name(layer), len(rows))
        if role == Qt.ItemDataRole.FontRole:
            font = QFont()
            font.setBold(True)
            return font
        return None

    def _display(self, it: ChangeItem, column: int) -> str:
        if column == COL_CHANGE:
            return ("✓ " if it.id in self.reviewed else "") + self.text(it)
        if column == COL_WHEN:
            return humanize.rel_time(it.at, self.now) if it.at is not None else self.tr("time unknown")
        if column == COL_TIME:
            return humanize.abs_time(it.at) if it.at is not None else ""
        if it.actor:
            return it.actor
        if it.dating == "derived":
            return self.tr("derived")
        if it.dating == "unknown":
            return self.tr("unknown time")
        return ""

    def _tooltip(self, it: ChangeItem) -> str:
        parts = [self.text(it), dating_text(it)]
        if it.at is not None:
            parts.insert(1, humanize.abs_time(it.at))
        if it.actor:
            parts.append(self.tr("made in this app by {0}").format(it.actor))
        if it.code == "change.fact.tau":
            parts.append(humanize.tau_help())
        return plain_tooltip("\n".join(parts))

    # flags(): Qt's own (enabled and selectable; none for the root), without a call into Python per
    # cell at each paint.
