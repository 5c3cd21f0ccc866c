"""The findings of a scan as a table (:class:`FindingsModel`), the rows a filter keeps
(:class:`FindingsProxy`) and the counts by kind and layer (:class:`SummaryModel`).

Every text a cell or a tooltip shows comes from the finding's masked preview and its place: the whole
secret is never in a model (it is read on demand by the context pane only). Stored text is spelled with
its control characters visible (:mod:`philont_desktop.widgets.plain`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.privacy.finding import CATEGORIES, PrivacyFinding
from philont_desktop.health.privacy.texts import category_name, kind_name, layer_name
from philont_desktop.qt import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from philont_desktop.widgets import plain
from philont_desktop.widgets.kept_rows import FilterProxy

__all__ = [
    "COLUMNS",
    "FindingFilter",
    "FindingRole",
    "FindingsModel",
    "FindingsProxy",
    "SummaryModel",
    "place_text",
    "where_text",
]

COL_KIND, COL_LAYER, COL_PREVIEW, COL_CONFIDENCE, COL_FILE, COL_PLACE = range(6)
COLUMNS = 6
FindingRole = Qt.ItemDataRole.UserRole + 1
Index = QModelIndex | QPersistentModelIndex


def _tr(text: str) -> str:
    return QCoreApplication.translate("PrivacyModel", text)


def where_text(finding: PrivacyFinding, *, in_sentence: bool = False) -> str:
    """The file a finding is in: the live database, or the backup's name."""
    if finding.file is not None:
        return Path(finding.file).name
    return _tr("this database") if in_sentence else _tr("This database")


def place_text(finding: PrivacyFinding) -> str:
    """``memory_notes #n-1 · content``: the table, the row and the column."""
    return f"{finding.table} #{plain.plain(str(finding.row), 80, one_line=True)} · {finding.column}"


@dataclass
class FindingFilter:
    """What the table shows: a category, a kind, a layer, a file ("live", "backups" or all) and never
    the findings allowed meanwhile (``hidden``)."""

    category: str = ""
    kind: str = ""
    layer: str = ""
    where: str = ""
    hidden: set[str] = field(default_factory=set)

    def keeps(self, f: PrivacyFinding) -> bool:
        if f.id in self.hidden:
            return False
        if (self.category and f.category != self.category) or (self.kind and f.kind != self.kind):
            return False
        if self.layer and f.layer != self.layer:
            return False
        if self.where == "live":
            return f.file is None
        if self.where == "backups":
            return f.file is not None
        return True


class FindingsModel(QAbstractTableModel):
    """The findings, sorted by the model itself (the proxy forwards ``sort``)."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._rows: list[PrivacyFinding] = []
        self._at: dict[str, int] = {}

    # -- content ---------------------------------------------------------------------------------------
    def set_findings(self, findings: Iterable[PrivacyFinding]) -> None:
        self.beginResetModel()
        self._rows = list(findings)
        self._reindex()
        self.endResetModel()

    def _reindex(self) -> None:
        self._at = {f.id: i for i, f in enumerate(self._rows)}

    def findings(self) -> list[PrivacyFinding]:
        return list(self._rows)

    def finding(self, row: int) -> PrivacyFinding:
        return self._rows[row]

    def find(self, finding_id: Any) -> int:
        return self._at.get(finding_id, -1)

    def accepted(self, flt: FindingFilter) -> list[bool]:
        return [flt.keeps(f) for f in self._rows]

    # -- Qt API ----------------------------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else COLUMNS

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        names = {
            COL_KIND: _tr("Kind"),
            COL_LAYER: _tr("Layer"),
            COL_PREVIEW: _tr("Preview"),
            COL_CONFIDENCE: _tr("Confidence"),
            COL_FILE: _tr("File"),
            COL_PLACE: _tr("Place"),
        }
        return names.get(section)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        f, c = self._rows[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self.display(f, c)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(f, c)
        if role == FindingRole:
            return f
        if role == Qt.ItemDataRole.TextAlignmentRole and c == COL_CONFIDENCE:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def display(self, f: PrivacyFinding, c: int) -> str:
        if c == COL_KIND:
            return kind_name(f.kind)
        if c == COL_LAYER:
            return layer_name(f.layer)
        if c == COL_PLACE:
            return place_text(f)
        if c == COL_PREVIEW:
            return plain.plain(f.preview, 200, one_line=True)
        if c == COL_CONFIDENCE:
            return f"{round(f.confidence * 100)} %"
        if c == COL_FILE:
            return where_text(f)
        return ""

    def _tooltip(self, f: PrivacyFinding, c: int) -> str:
        if c == COL_KIND:
            return plain.tooltip(f"{category_name(f.category)} · {f.kind}")
        if c == COL_PREVIEW:
            return plain.tooltip(f.preview)
        if c == COL_FILE:
            return plain.tooltip(f.file or _tr("The database this window shows"))
        return plain.tooltip(self.display(f, c))

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        keys = {
            COL_KIND: lambda f: (kind_name(f.kind), f.layer),
            COL_LAYER: lambda f: (layer_name(f.layer), f.kind),
            COL_PLACE: lambda f: (f.table, str(f.row), f.column, f.start),
            COL_PREVIEW: lambda f: f.preview,
            COL_CONFIDENCE: lambda f: f.confidence,
            COL_FILE: lambda f: (f.file is not None, f.file or ""),
        }
        key = keys.get(column)
        if key is None:
            return
        self.layoutAboutToBeChanged.emit()
        held = [(p, self._rows[p.row()].id) for p in self.persistentIndexList() if p.isValid()]
        self._rows.sort(key=key, reverse=order == Qt.SortOrder.DescendingOrder)
        self._reindex()
        for p, fid in held:
            row = self._at.get(fid, -1)
            self.changePersistentIndex(p, self.index(row, p.column()) if row >= 0 else QModelIndex())
        self.layoutChanged.emit()


class FindingsProxy(FilterProxy):
    """The findings :attr:`flt` keeps, in the model's order."""

    columns = COLUMNS

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.flt = FindingFilter()

    def row_key(self, source_row: int) -> str | None:
        return self.source().finding(source_row).id

    def set_filter(self, **changes: Any) -> None:
        """Change the filter's fields (``category``, ``kind``, ``layer``, ``where``)."""
        for k, v in changes.items():
            setattr(self.flt, k, v)
        self.refilter()

    def hide(self, ids: Iterable[str]) -> None:
        """Leave these findings out from now on (allowed as "not a secret")."""
        self.flt.hidden.update(ids)
        self.refilter()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.source().sort(column, order)

    def finding_at(self, proxy_row: int) -> PrivacyFinding:
        return self.source().finding(self.mapToSource(self.index(proxy_row, 0)).row())

    def shown_findings(self) -> list[PrivacyFinding]:
        return [self.finding_at(r) for r in range(self.rowCount())]


class SummaryModel(QAbstractTableModel):
    """Findings counted by kind (rows) and layer (columns, then the total); the last row is the total."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.kinds: list[str] = []
        self.layers: list[str] = []
        self.counts: Counter[tuple[str, str]] = Counter()

    def set_findings(self, findings: Sequence[PrivacyFinding]) -> None:
        self.beginResetModel()
        self.counts = Counter((f.kind, f.layer) for f in findings)
        self.kinds = sorted({f.kind for f in findings}, key=_kind_order)
        self.layers = sorted({f.layer for f in findings}, key=_layer_order)
        self.endResetModel()

    def count(self, kind: str = "", layer: str = "") -> int:
        return sum(n for (k, la), n in self.counts.items() if kind in ("", k) and layer in ("", la))

    def cell(self, row: int, column: int) -> tuple[str, str]:
        """The (kind, layer) a cell counts (``""``: every one)."""
        kind = self.kinds[row] if row < len(self.kinds) else ""
        layer = self.layers[column] if column < len(self.layers) else ""
        return kind, layer

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() or not self.kinds else len(self.kinds) + 1

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.layers) + 1

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return layer_name(self.layers[section]) if section < len(self.layers) else _tr("All layers")
        if section < len(self.kinds):
            return kind_name(self.kinds[section])
        return _tr("All kinds")

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        kind, layer = self.cell(index.row(), index.column())
        if role == Qt.ItemDataRole.DisplayRole:
            n = self.count(kind, layer)
            return str(n) if n else "—"
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            return _tr("Show these findings")
        return None


def _kind_order(kind: str) -> tuple[int, str]:
    """Secrets first, then personal data, then planted instructions; by name within each."""
    category = kind.split(".", 1)[0]
    return (CATEGORIES.index(category) if category in CATEGORIES else len(CATEGORIES), kind_name(kind))


_ORDER = ("messages", "actions", "notes", "facts", "skills", "skill_revisions", "calendar", "tasks")


def _layer_order(layer: str) -> tuple[int, str]:
    return (_ORDER.index(layer) if layer in _ORDER else len(_ORDER), layer)
