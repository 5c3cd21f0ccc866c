"""The findings' filters: a category, a kind, a layer and a file (this database or its backups)."""

from __future__ import annotations

from collections.abc import Sequence

from core.privacy.finding import CATEGORIES
from philont_desktop.health.privacy.texts import category_name, kind_name, layer_name
from philont_desktop.qt import QComboBox, QLabel, QWidget, Signal
from philont_desktop.widgets.flow import FlowLayout

__all__ = ["FilterBar"]


class FilterBar(QWidget):
    """``changed(dict)`` with the filter's fields (``category``, ``kind``, ``layer``, ``where``)."""

    changed = Signal(dict)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("privacyFilterBar")
        self.kinds: list[str] = []
        self.layers: list[str] = []
        self.category = self._combo("privacyCategory")
        self.kind = self._combo("privacyKind")
        self.layer = self._combo("privacyLayer")
        self.where = self._combo("privacyWhere")
        lay = FlowLayout(self)
        lay.setContentsMargins(6, 0, 6, 0)
        self.label = QLabel(self.tr("Show"), self)
        self.label.setBuddy(self.category)
        for w in (self.label, self.category, self.kind, self.layer, self.where):
            lay.addWidget(w)
        self._fill()

    def _combo(self, name: str) -> QComboBox:
        combo = QComboBox(self)
        combo.setObjectName(name)
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        combo.activated.connect(lambda _i: self.changed.emit(self.values()))
        return combo

    def values(self) -> dict[str, str]:
        return {
            "category": self.category.currentData() or "",
            "kind": self.kind.currentData() or "",
            "layer": self.layer.currentData() or "",
            "where": self.where.currentData() or "",
        }

    def set_choices(self, kinds: Sequence[str], layers: Sequence[str]) -> None:
        """The kinds and layers of the last scan (a chosen one stays chosen while it is there)."""
        self.kinds, self.layers = list(kinds), list(layers)
        self._fill()

    def choose(self, **values: str) -> None:
        """Set fields of the filter (as a click in the summary does) and say so."""
        for name, value in values.items():
            combo: QComboBox = getattr(self, name)
            combo.setCurrentIndex(max(0, combo.findData(value)))
        self.changed.emit(self.values())

    def _fill(self) -> None:
        keep = self.values()
        lists = (
            (self.category, self.tr("Every category"), [(c, category_name(c)) for c in CATEGORIES]),
            (self.kind, self.tr("Every kind"), [(k, kind_name(k)) for k in self.kinds]),
            (self.layer, self.tr("Every layer"), [(la, layer_name(la)) for la in self.layers]),
            (
                self.where,
                self.tr("This database and its backups"),
                [("live", self.tr("This database")), ("backups", self.tr("Backups"))],
            ),
        )
        for combo, every, items in lists:
            combo.blockSignals(True)
            combo.clear()
            combo.addItem(every, "")
            for data, text in items:
                combo.addItem(text, data)
            combo.setCurrentIndex(max(0, combo.findData(keep[self._field(combo)])))
            combo.blockSignals(False)

    def _field(self, combo: QComboBox) -> str:
        return {id(self.category): "category", id(self.kind): "kind", id(self.layer): "layer"}.get(
            id(combo), "where"
        )

    def retranslate(self) -> None:
        self._fill()
