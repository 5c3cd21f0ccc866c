"""What if: try another tau or confidence for one fact, see its curve and crossing, then apply."""

from __future__ import annotations

import math
from typing import Any

from core.decay import effective_tau, namespace_tau_days
from core.facts import UNSET
from philont_desktop.facts.curves import whatif_crossing, whatif_tau
from philont_desktop.facts.data import THRESHOLD, FactRow
from philont_desktop.facts.text import fmt_relative, fmt_time, namespace_tau_text
from philont_desktop.qt import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.widgets import plain


class WhatIfBox(QGroupBox):
    """``previewChanged(row | None, confidence, effective tau)``: the curve to draw (``None``: none);
    ``applyRequested(row, fields)``: store ``fields`` (``confidence`` / ``decay_tau_days``)."""

    previewChanged = Signal(object, float, float)
    applyRequested = Signal(object, dict)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(self.tr("What if"), parent)
        self.setObjectName("whatIf")
        self.setMinimumWidth(260)
        self.setMaximumWidth(340)
        self.row: FactRow | None = None
        self.real_now = 0
        self.threshold = THRESHOLD
        self.editing = False
        self._loading = False
        self._build()
        self._set_enabled(False)

    def _build(self) -> None:
        self.fact_label = QLabel(self.tr("Select one fact."), self)
        self.fact_label.setWordWrap(True)
        self.mode = QComboBox(self)
        self.mode.setObjectName("whatifMode")
        self.mode.addItem(self.tr("namespace default"), "namespace")
        self.mode.addItem(self.tr("custom"), "custom")
        self.mode.addItem(self.tr("pinned"), "pinned")
        self.tau = QDoubleSpinBox(self)
        self.tau.setObjectName("whatifTau")
        self.tau.setRange(0.01, 36500)
        self.tau.setDecimals(2)
        self.tau.setSuffix(self.tr(" d"))
        self.conf = QDoubleSpinBox(self)
        self.conf.setObjectName("whatifConfidence")
        self.conf.setRange(0.0, 1.0)
        self.conf.setDecimals(3)
        self.conf.setSingleStep(0.05)
        self.result = QLabel(self)
        self.result.setObjectName("whatifResult")
        self.result.setWordWrap(True)
        self.reset_button = QPushButton(self.tr("Reset"), self)
        self.apply_button = QPushButton(self.tr("Apply"), self)
        self.apply_button.setObjectName("whatifApply")
        self.reset_button.clicked.connect(lambda *_: self.load(self.row, force=True))
        self.apply_button.clicked.connect(lambda *_: self.apply())
        self.form = QWidget(self)
        form = QFormLayout(self.form)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow(self.tr("Tau"), self.mode)
        form.addRow("", self.tau)
        form.addRow(self.tr("Confidence"), self.conf)
        buttons = QHBoxLayout()
        buttons.addWidget(self.reset_button)
        buttons.addWidget(self.apply_button)
        lay = QVBoxLayout(self)
        lay.addWidget(self.fact_label)
        lay.addWidget(self.form)
        lay.addWidget(self.result)
        lay.addStretch(1)
        lay.addLayout(buttons)
        self.mode.currentIndexChanged.connect(lambda *_: self._changed())
        self.tau.valueChanged.connect(lambda *_: self._changed())
        self.conf.valueChanged.connect(lambda *_: self._changed())

    def _set_enabled(self, on: bool) -> None:
        for w in (self.mode, self.tau, self.conf, self.reset_button, self.apply_button):
            w.setEnabled(on)
        self.form.setVisible(on)
        self.reset_button.setVisible(on)
        self.apply_button.setVisible(on and self.editing)

    def set_editing(self, on: bool) -> None:
        self.editing = bool(on)
        self.apply_button.setVisible(self.editing and self.row is not None)
        self._changed()

    def set_now(self, real_now: int) -> None:
        self.real_now = int(real_now)
        self._update_result()

    # -- the fact tried -------------------------------------------------------------------------------
    def load(self, row: FactRow | None, force: bool = False) -> None:
        """Try things on ``row`` (``None``: nothing chosen); a refresh of the same version keeps the trial."""
        old = self.row
        if (
            not force
            and row is not None
            and old is not None
            and old.fact.id == row.fact.id
            and old.sig == row.sig
        ):
            self.row = row
            self._changed()
            return
        self.row = row
        self._loading = True
        try:
            if row is None:
                self.fact_label.setText(self.tr("Select one fact to try another tau or confidence."))
                self.result.setText("")
                self._set_enabled(False)
            else:
                self._show_values(row)
                self._set_enabled(True)
        finally:
            self._loading = False
        self.previewChanged.emit(None, 1.0, math.inf)
        self._changed()

    def _show_values(self, row: FactRow) -> None:
        f = row.fact
        self.fact_label.setText(f"<b>{plain.html(row.name, 300, one_line=True)}</b>")
        mode = row.tau_src
        self.mode.setCurrentIndex(self.mode.findData(mode))
        self.mode.setItemText(0, self.tr("default ({0})").format(namespace_tau_text(f.namespace)))
        tau = f.decay_tau_days if mode == "custom" else namespace_tau_days(f.namespace)
        self.tau.setValue(float(tau) if tau is not None and math.isfinite(tau) and tau > 0 else 365.0)
        self.conf.setValue(f.confidence if f.confidence_valid else 1.0)

    def values(self) -> tuple[float, float | None]:
        """``(confidence, decay_tau_days as it would be stored)`` of the controls."""
        mode = self.mode.currentData()
        tau: float | None
        if mode == "pinned":
            tau = -1.0
        elif mode == "custom":
            tau = float(self.tau.value())
        else:
            tau = None
        return round(float(self.conf.value()), 6), tau

    def changed_fields(self) -> dict[str, Any]:
        """What differs from the fact as stored (``confidence``, ``decay_tau_days``)."""
        row = self.row
        if row is None:
            return {}
        f = row.fact
        conf, tau = self.values()
        out: dict[str, Any] = {}
        if not (f.confidence_valid and abs(conf - f.confidence) < 5e-4):
            out["confidence"] = conf
        old = f.decay_tau_days
        same_tau = (tau is None and old is None) or (
            tau is not None and old is not None and ((tau < 0 and old < 0) or abs(tau - old) < 5e-3)
        )
        if not same_tau:
            out["decay_tau_days"] = tau
        return out

    def apply(self) -> None:
        changes = self.changed_fields()
        if self.row is not None and changes and self.editing:
            self.applyRequested.emit(self.row, changes)

    # -- feedback -------------------------------------------------------------------------------------
    def _changed(self) -> None:
        if self._loading:
            return
        self.tau.setEnabled(self.row is not None and self.mode.currentData() == "custom")
        row = self.row
        if row is None:
            return
        changes = self.changed_fields()
        if changes:
            conf, tau = self.values()
            self.previewChanged.emit(row, conf, whatif_tau(row, tau))
        else:
            self.previewChanged.emit(None, 1.0, math.inf)
        self.apply_button.setEnabled(bool(changes) and self.editing)
        self._update_result()

    def _update_result(self) -> None:
        row = self.row
        if row is None:
            return
        conf, tau = self.values()
        actual = self.crossing_text(row.crossing, row)
        if not self.changed_fields():
            self.result.setText(self.tr("Now: {0}").format(actual))
            return
        cross = whatif_crossing(row, conf, tau)
        self.result.setText(
            self.tr("Now: {0}\nWhat if: {1}").format(
                actual, self.crossing_text(cross, row, tau=tau, conf=conf)
            )
        )

    def crossing_text(self, cross: int | None, row: FactRow, tau: Any = UNSET, conf: Any = UNSET) -> str:
        t = row.fact.decay_tau_days if tau is UNSET else tau
        if t is not None and t < 0:
            return self.tr("pinned, never decays")
        if math.isinf(effective_tau(row.fact.namespace, t)):
            c = row.fact.confidence if conf is UNSET else conf
            return (
                self.tr("never decays")
                if c >= self.threshold
                else self.tr("below the threshold (confidence)")
            )
        if cross is None:
            return self.tr("stays above the threshold")
        now = self.real_now
        if cross <= now:
            return self.tr("below the threshold since {0}").format(fmt_time(cross))
        # The same words as the table's "Below threshold from" (one humanizer: "in 2 years", not "2.9 y").
        return self.tr("falls below the threshold on {0} ({1})").format(
            fmt_time(cross), fmt_relative(cross, now)
        )
