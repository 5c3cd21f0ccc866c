"""Small dialogs of the Facts tab: the decay (tau) of one fact, the namespace to move facts into."""

from __future__ import annotations

import math

from core.decay import namespace_tau_days
from core.facts import SELF_NAMESPACE
from core.models import Fact
from philont_desktop.facts.text import namespace_tau_text
from philont_desktop.qt import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.widgets import plain


class TauDialog(QDialog):
    """Namespace default, a custom tau in days, or pinned. :meth:`decay_tau_days` gives the column value."""

    def __init__(self, fact: Fact, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("tauDialog")
        self.setWindowTitle(
            self.tr("Decay of {0}").format(plain.plain(f"{fact.namespace}.{fact.key}", 200, one_line=True))
        )
        self.default_radio = QRadioButton(
            self.tr("Namespace default ({0})").format(namespace_tau_text(fact.namespace)), self
        )
        self.custom_radio = QRadioButton(self.tr("Custom tau (days)"), self)
        self.pin_radio = QRadioButton(self.tr("Pinned: never decays, never a forget candidate"), self)
        group = QButtonGroup(self)
        for b in (self.default_radio, self.custom_radio, self.pin_radio):
            group.addButton(b)
        self.spin = QDoubleSpinBox(self)
        self.spin.setRange(0.01, 36500)
        self.spin.setDecimals(2)
        tau = fact.decay_tau_days
        if tau is None:
            self.default_radio.setChecked(True)
            ns_tau = namespace_tau_days(fact.namespace)
            self.spin.setValue(ns_tau if math.isfinite(ns_tau) else 365)
        elif tau < 0:
            self.pin_radio.setChecked(True)
            self.spin.setValue(365)
        else:
            self.custom_radio.setChecked(True)
            self.spin.setValue(max(0.01, float(tau)))
        self.spin.setEnabled(self.custom_radio.isChecked())
        self.custom_radio.toggled.connect(self.spin.setEnabled)
        row = QHBoxLayout()
        row.addWidget(self.custom_radio)
        row.addWidget(self.spin)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(self.default_radio)
        lay.addLayout(row)
        lay.addWidget(self.pin_radio)
        lay.addWidget(buttons)

    def decay_tau_days(self) -> float | None:
        if self.pin_radio.isChecked():
            return -1.0
        if self.custom_radio.isChecked():
            return float(self.spin.value())
        return None


class NamespaceDialog(QDialog):
    """Choose the namespace to move facts into (existing or new)."""

    def __init__(self, namespaces: list[str], count: int, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("namespaceDialog")
        self.setWindowTitle(self.tr("Move to namespace"))
        self.combo = QComboBox(self)
        self.combo.setEditable(True)
        self.combo.addItems([n for n in namespaces if n != SELF_NAMESPACE])
        self.combo.setCurrentText("")
        info = QLabel(
            self.tr(
                "Each of the {0} selected facts is stored under the new namespace with the same key and "
                "value, and the old one is forgotten (it stays in the history). The decay restarts from the same "
                "last read, now with the new namespace's tau."
            ).format(count),
            self,
        )
        info.setWordWrap(True)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.combo.currentTextChanged.connect(self._validate)
        lay = QVBoxLayout(self)
        lay.addWidget(info)
        lay.addWidget(self.combo)
        lay.addWidget(self.buttons)
        self._validate()

    def namespace(self) -> str:
        return self.combo.currentText()

    def _validate(self) -> None:
        ns = self.combo.currentText()
        ok = bool(ns.strip()) and ns != SELF_NAMESPACE
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ok)
