"""The doctor's findings as a two-level tree: the layers with their counts, then each layer's findings,
worst first. A finding's text is its message in the interface's language (stored names in it are shown
as text: the views are plain text)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from core.health.finding import LAYERS, SEVERITIES, Finding
from philont_desktop import messages
from philont_desktop.health.doctor.texts import layer_name, severity_name
from philont_desktop.qt import QFont, QModelIndex, QObject, QPersistentModelIndex, Qt
from philont_desktop.widgets import plain
from philont_desktop.widgets.grouped_model import GroupedModel

__all__ = ["COL_FINDING", "COL_SEVERITY", "FindingRole", "FindingsModel", "layer_counts", "severity_role"]

COL_FINDING, COL_SEVERITY = range(2)
FindingRole = Qt.ItemDataRole.UserRole + 1
LayerRole = Qt.ItemDataRole.UserRole + 2
Index = QModelIndex | QPersistentModelIndex
_STATUS_OF = {"fail": "error", "warn": "editing", "info": "changed", "ok": "live"}


def severity_role(severity: str) -> str:
    """The theme's status colour of a severity (``fail``, ``warn``, ``info``, ``ok``)."""
    return _STATUS_OF.get(severity, "paused")


def layer_counts(findings: Iterable[Finding]) -> dict[str, dict[str, int]]:
    """``{layer: {"fail": n, "warn": n, "info": n}}`` for every layer."""
    out = {layer: dict.fromkeys(SEVERITIES, 0) for layer in LAYERS}
    for f in findings:
        if f.layer in out and f.severity in out[f.layer]:
            out[f.layer][f.severity] += 1
    return out


def _identity(f: Finding) -> tuple[str, str, str]:
    return f.code, f.layer, repr(f.targets)


def finding_text(f: Finding) -> str:
    return messages.text(f.message.code or f.code, f.message.params, f.message.message)


class FindingsModel(GroupedModel):
    """Layers that have findings (top level) and their findings."""

    columns = 2

    def __init__(self, theme: Any = None, parent: QObject | None = None):
        super().__init__(parent)
        self.theme = theme
        self.layers: list[str] = []
        self.rows: dict[str, list[Finding]] = {}
        self._texts: dict[int, str] = {}

    def set_findings(self, findings: Iterable[Finding]) -> None:
        order = {s: i for i, s in enumerate(SEVERITIES)}
        groups: dict[str, list[Finding]] = {}
        for f in findings:
            groups.setdefault(f.layer, []).append(f)
        self.beginResetModel()
        self.layers = [la for la in LAYERS if la in groups] + sorted(set(groups) - set(LAYERS))
        self.rows = {la: sorted(groups[la], key=lambda f: order.get(f.severity, 9)) for la in self.layers}
        self._texts.clear()
        self.endResetModel()

    def retranslate(self) -> None:
        self._texts.clear()
        self.beginResetModel()
        self.endResetModel()

    # -- lookups ---------------------------------------------------------------------------------------
    def finding(self, index: Index) -> Finding | None:
        if not index.isValid() or index.internalId() == 0:
            return None
        rows = self.rows.get(self.layers[index.internalId() - 1], [])
        return rows[index.row()] if 0 <= index.row() < len(rows) else None

    def findings(self) -> list[Finding]:
        return [f for la in self.layers for f in self.rows[la]]

    def index_of(self, f: Finding) -> QModelIndex:
        """Where ``f`` is, or the finding of the same code about the same rows (its measure may have
        moved since: a new check of the same thing)."""
        key = _identity(f)
        for pos, layer in enumerate(self.layers):
            for row, g in enumerate(self.rows[layer]):
                if g is f or _identity(g) == key:
                    return self.index(row, 0, self.index(pos, 0))
        return QModelIndex()

    def text(self, f: Finding) -> str:
        key = id(f)
        got = self._texts.get(key)
        if got is None:
            got = self._texts[key] = plain.plain(finding_text(f), 600, one_line=True)
        return got

    # -- QAbstractItemModel ----------------------------------------------------------------------------
    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        if not 0 <= section < 2:
            return None
        return (self.tr("Finding"), self.tr("Severity"))[section]

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        if index.internalId() == 0:
            return self._layer_data(index, role)
        f = self.finding(index)
        if f is None:
            return None
        if role == FindingRole:
            return f
        if role == Qt.ItemDataRole.DisplayRole:
            return self.text(f) if index.column() == COL_FINDING else severity_name(f.severity)
        if role == Qt.ItemDataRole.ToolTipRole and index.column() == COL_FINDING:
            return plain.tooltip(finding_text(f))
        if (
            role == Qt.ItemDataRole.ForegroundRole
            and index.column() == COL_SEVERITY
            and self.theme is not None
        ):
            return self.theme.status_color(severity_role(f.severity))
        return None

    def _layer_data(self, index: Index, role: int) -> Any:
        if not 0 <= index.row() < len(self.layers):
            return None
        layer = self.layers[index.row()]
        if role == LayerRole:
            return layer
        if role == Qt.ItemDataRole.DisplayRole:
            if index.column() == COL_FINDING:
                return f"{layer_name(layer)} ({len(self.rows[layer])})"
            return ""
        if role == Qt.ItemDataRole.FontRole:
            font = QFont()
            font.setBold(True)
            return font
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
