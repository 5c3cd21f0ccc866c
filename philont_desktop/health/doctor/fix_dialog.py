"""The confirmation of a fix: what it does, the choice it needs (the one to keep, a decay time, the
reason), and every value it will change, before anything is written."""

from __future__ import annotations

from typing import Any

from core.health.finding import Finding, Fix
from core.health.fixes import RowChange, needs_choice
from philont_desktop import field_names, humanize
from philont_desktop.health.doctor.texts import fix_summary, fix_title
from philont_desktop.messages import grade_name
from philont_desktop.qt import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.widgets import accessible, plain

__all__ = ["FixDialog"]

DEFAULT_TAU_DAYS = 30.0


def _value(column: str, v: Any) -> str:
    """A value as people read it: a time as a local date, a number in full, an id as it is."""
    if v is None:
        return "—"
    if column == "paused_until" and isinstance(v, int) and not isinstance(v, bool):
        return humanize.abs_time(v, seconds=True)
    if isinstance(v, str) and column in ("superseded_by", "maturity"):
        return grade_name(v) if column == "maturity" else plain.plain(v, 200, one_line=True)
    return plain.plain(field_names.field_value(column, v), 200, one_line=True)


class FixDialog(QDialog):
    """``choiceChanged(value)`` asks for a new preview (:meth:`set_preview`); ``choice()`` is what the
    person chose when they accept."""

    choiceChanged = Signal(object)

    def __init__(
        self,
        fix: Fix,
        finding: Finding | None,
        options: list[tuple[str, str]],
        reason: str = "",
        parent: QWidget | None = None,
    ):
        super().__init__(parent)
        self.setObjectName("doctorFixDialog")
        self.fix = fix
        self.finding = finding
        self.need = needs_choice(fix)
        self.setWindowTitle(fix_title(fix.code))
        lay = QVBoxLayout(self)
        intro = QLabel(self)
        layer = str(fix.params.get("layer") or (finding.layer if finding else ""))
        plain.set_plain(intro, fix_summary(fix.code, layer))
        intro.setWordWrap(True)
        lay.addWidget(intro)
        form = QFormLayout()
        self.survivor = QComboBox(self)
        self.survivor.setObjectName("doctorFixSurvivor")
        self.tau = QDoubleSpinBox(self)
        self.tau.setObjectName("doctorFixTau")
        self.reason = QLineEdit(self)
        self.reason.setObjectName("doctorFixReason")
        self._choice_widgets(form, options, reason)
        lay.addLayout(form)
        self.preview = QTreeWidget(self)
        self.preview.setObjectName("doctorFixPreview")
        self.preview.setRootIsDecorated(False)
        self.preview.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.preview.setHeaderLabels(
            [self.tr("Row"), self.tr("Value"), self.tr("Now"), self.tr("After the fix")]
        )
        self.preview.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        lay.addWidget(self.preview, 1)
        self.status = QLabel(self)
        self.status.setObjectName("doctorFixStatus")
        self.status.setWordWrap(True)
        lay.addWidget(self.status)
        lay.addWidget(QLabel(self.tr("This is one change: one Undo reverts all of it."), self))
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok.setText(self.tr("Apply"))
        self.ok.setObjectName("doctorFixApply")
        self.ok.setEnabled(False)
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setObjectName("doctorFixCancel")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        self.resize(720, 420)
        accessible.prepare(self)

    def _choice_widgets(self, form: QFormLayout, options: list[tuple[str, str]], reason: str) -> None:
        self.survivor.setVisible(self.need == "survivor")
        self.tau.setVisible(self.need == "tau")
        self.reason.setVisible(self.need == "reason")
        if self.need == "survivor":
            suggested = str(self.fix.params.get("survivor") or "")
            for rid, label in options:
                self.survivor.addItem(plain.plain(label, 120, one_line=True), rid)
            if suggested:
                self.survivor.setCurrentIndex(max(0, self.survivor.findData(suggested)))
            form.addRow(self.tr("Keep:"), self.survivor)
            self.survivor.currentIndexChanged.connect(lambda _i: self.choiceChanged.emit(self.choice()))
        elif self.need == "tau":
            self.tau.setRange(0.1, 36_500)
            self.tau.setDecimals(1)
            self.tau.setSuffix(self.tr(" days"))
            self.tau.setValue(DEFAULT_TAU_DAYS)
            form.addRow(self.tr("Decay time (τ):"), self.tau)
            self.tau.valueChanged.connect(lambda _v: self.choiceChanged.emit(self.choice()))
        elif self.need == "reason":
            self.reason.setText(reason)
            form.addRow(self.tr("Reason:"), self.reason)
            self.reason.textChanged.connect(self._reason_changed)

    def _reason_changed(self, text: str) -> None:
        self.ok.setEnabled(bool(text.strip()) and self.preview.topLevelItemCount() > 0)

    def choice(self) -> Any:
        if self.need == "survivor":
            return self.survivor.currentData()
        if self.need == "tau":
            return float(self.tau.value())
        if self.need == "reason":
            return self.reason.text().strip()
        return None

    def set_preview(self, changes: list[RowChange]) -> None:
        """Show every value the fix will change (none: nothing to do, and it cannot be applied)."""
        self.preview.clear()
        for c in changes:
            row = [
                plain.plain(c.label, 200, one_line=True),
                field_names.field_label(c.column),
                _value(c.column, c.before),
                _value(c.column, c.after),
            ]
            item = QTreeWidgetItem(row)
            item.setToolTip(0, plain.tooltip(f"{c.table} {c.id}"))
            self.preview.addTopLevelItem(item)
        if changes:
            self.status.setText(self.tr("%n value(s) will change.", None, len(changes)))
        else:
            self.status.setText(self.tr("Nothing to change: the rows no longer need this fix."))
        reason_ok = self.need != "reason" or bool(self.reason.text().strip())
        self.ok.setEnabled(bool(changes) and reason_ok)

    def set_error(self, text: str) -> None:
        self.preview.clear()
        plain.set_plain(self.status, text)
        self.ok.setEnabled(False)
