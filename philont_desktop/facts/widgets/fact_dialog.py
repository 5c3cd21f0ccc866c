"""Edit a fact (a new version through the supersede chain) or add one."""

from __future__ import annotations

import json
import math
from typing import Any

from core.facts import SELF_NAMESPACE
from core.models import Fact
from philont_desktop.facts.data import readable_value
from philont_desktop.qt import (
    QCheckBox,
    QComboBox,
    QDateTime,
    QDateTimeEdit,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.widgets import plain


class OptionalTimeEdit(QWidget):
    """A checkbox ("set") and a local date-time editor; ``value()`` is epoch ms or ``None``."""

    def __init__(self, ms: int | None, parent: QWidget | None = None):
        super().__init__(parent)
        self.check = QCheckBox(self)
        self.edit = QDateTimeEdit(self)
        self.edit.setCalendarPopup(True)
        self.edit.setDisplayFormat("yyyy-MM-dd HH:mm")
        self.edit.setDateTime(
            QDateTime.fromMSecsSinceEpoch(int(ms)) if ms is not None else QDateTime.currentDateTime()
        )
        self.check.setChecked(ms is not None)
        self.edit.setEnabled(ms is not None)
        self.check.toggled.connect(self.edit.setEnabled)
        self._orig = ms
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.check)
        lay.addWidget(self.edit, 1)

    def value(self) -> int | None:
        if not self.check.isChecked():
            return None
        ms = int(self.edit.dateTime().toMSecsSinceEpoch())
        if self._orig is not None and abs(ms - self._orig) < 60_000:
            return self._orig  # minutes shown: an untouched field keeps its exact value
        return ms

    def set_value(self, ms: int | None) -> None:
        self._orig = ms
        self.check.setChecked(ms is not None)
        if ms is not None:
            self.edit.setDateTime(QDateTime.fromMSecsSinceEpoch(int(ms)))


class FactEditDialog(QDialog):
    """Edit a fact (a new version through the supersede chain) or add one.

    :meth:`changes` gives the keyword arguments for :func:`core.curation.facts.edit` (only what changed)
    or, when adding, for :func:`core.curation.facts.add`.
    """

    def __init__(
        self,
        fact: Fact | None,
        namespaces: list[str],
        parent: QWidget | None = None,
        namespace: str | None = None,
    ):
        super().__init__(parent)
        self.setObjectName("factEditDialog")
        self.fact = fact
        self.setWindowTitle(
            self.tr("Edit {0}").format(plain.plain(f"{fact.namespace}.{fact.key}", 200, one_line=True))
            if fact
            else self.tr("Add a fact")
        )
        form = QFormLayout()
        self._build_name(form, namespaces, namespace)
        self._build_value(form)
        self._build_fields(form)
        self.error = QLabel(self)
        self.error.setObjectName("editError")
        self.error.setWordWrap(True)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(
            self.tr("Save new version") if fact else self.tr("Add")
        )
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(self.error)
        lay.addWidget(self.buttons)
        for sig in (
            self.value_edit.textChanged,
            self.text_check.toggled,
            self.key_edit.textChanged,
            self.ns_combo.currentTextChanged,
        ):
            sig.connect(self._validate)
        self.resize(520, 520)
        self._validate()
        (self.value_edit if fact is not None else self.ns_combo).setFocus()

    def _build_name(self, form: QFormLayout, namespaces: list[str], namespace: str | None) -> None:
        fact = self.fact
        self.ns_combo = QComboBox(self)
        self.ns_combo.setEditable(True)
        self.ns_combo.addItems([n for n in namespaces if n != SELF_NAMESPACE])
        self.key_edit = QLineEdit(self)
        if fact is not None:
            self.ns_combo.setCurrentText(fact.namespace)
            self.key_edit.setText(fact.key)
            self.ns_combo.setEnabled(False)
            self.key_edit.setReadOnly(True)
            note = QLabel(self.tr("Saving stores a new version; the current one stays in the history."), self)
            note.setWordWrap(True)
            form.addRow(note)
        else:
            self.ns_combo.setCurrentText(namespace if namespace and namespace != SELF_NAMESPACE else "")
        form.addRow(self.tr("Namespace"), self.ns_combo)
        form.addRow(self.tr("Key"), self.key_edit)

    def _build_value(self, form: QFormLayout) -> None:
        fact = self.fact
        self.value_edit = QPlainTextEdit(self)
        self.value_edit.setObjectName("valueEdit")
        self.value_edit.setTabChangesFocus(True)
        self.text_check = QCheckBox(self.tr("Text (stored as a JSON string)"), self)
        if fact is not None:
            if isinstance(fact.value, str) and not fact.json_errors:
                self.text_check.setChecked(True)
                self.value_edit.setPlainText(fact.value)
            else:
                self.value_edit.setPlainText(
                    readable_value(fact)[1]
                    if fact.json_errors
                    else json.dumps(fact.value, ensure_ascii=False, indent=2)
                )
        else:
            self.text_check.setChecked(True)
        self._orig_value_text = self.value_edit.toPlainText()
        self._orig_text_mode = self.text_check.isChecked()
        vbox = QVBoxLayout()
        vbox.addWidget(self.value_edit)
        vbox.addWidget(self.text_check)
        form.addRow(self.tr("Value"), vbox)

    def _build_fields(self, form: QFormLayout) -> None:
        fact = self.fact
        self.conf_spin = QDoubleSpinBox(self)
        self.conf_spin.setRange(0.0, 1.0)
        self.conf_spin.setDecimals(3)
        self.conf_spin.setSingleStep(0.05)
        conf = fact.confidence if fact is not None and fact.confidence_valid else 1.0
        self.conf_spin.setValue(conf)
        form.addRow(self.tr("Confidence"), self.conf_spin)
        self.kind_combo = QComboBox(self)
        self.kind_combo.addItem(self.tr("state (ongoing)"), "state")
        self.kind_combo.addItem(self.tr("event (happened once)"), "event")
        self.kind_combo.setCurrentIndex(1 if fact is not None and fact.fact_kind == "event" else 0)
        form.addRow(self.tr("Kind"), self.kind_combo)
        self.occurred = OptionalTimeEdit(fact.occurred_at if fact else None, self)
        self.valid_from = OptionalTimeEdit(fact.valid_from if fact else None, self)
        self.valid_until = OptionalTimeEdit(fact.valid_until if fact else None, self)
        form.addRow(self.tr("Occurred"), self.occurred)
        form.addRow(self.tr("Valid from"), self.valid_from)
        form.addRow(self.tr("Valid until"), self.valid_until)

    # -- values --------------------------------------------------------------------------------------------
    def _value(self) -> tuple[Any, str | None]:
        text = self.value_edit.toPlainText()
        if self.text_check.isChecked():
            return text, None
        try:
            return json.loads(text), None
        except ValueError as exc:
            return None, self.tr(
                'The value is not valid JSON ({0}). Tick "Text" to store it as text.'
            ).format(exc.msg if hasattr(exc, "msg") else str(exc))

    def problem(self) -> str | None:
        if self.fact is None:
            ns = self.ns_combo.currentText()
            if not ns.strip():
                return self.tr("Enter a namespace.")
            if ns == SELF_NAMESPACE:
                return self.tr("The self namespace is written by the agent's kernel only.")
            if not self.key_edit.text().strip():
                return self.tr("Enter a key.")
        _v, err = self._value()
        if err:
            return err
        vf, vu = self.valid_from.value(), self.valid_until.value()
        if vf is not None and vu is not None and vu < vf:
            return self.tr("'Valid until' is before 'valid from'.")
        return None

    def _validate(self) -> None:
        p = self.problem()
        plain.set_plain(self.error, p or "")  # may quote what was typed: shown as text
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(p is None)

    def _accept(self) -> None:
        if self.problem() is None:
            self.accept()

    def changes(self) -> dict[str, Any]:
        """Keyword arguments: for an edit only the fields that changed; for an add every field."""
        value, _err = self._value()
        fields = {
            "confidence": round(self.conf_spin.value(), 6),
            "fact_kind": self.kind_combo.currentData(),
            "occurred_at": self.occurred.value(),
            "valid_from": self.valid_from.value(),
            "valid_until": self.valid_until.value(),
        }
        if self.fact is None:
            return {
                "namespace": self.ns_combo.currentText(),
                "key": self.key_edit.text(),
                "value": value,
                **fields,
            }
        f = self.fact
        out: dict[str, Any] = {}
        value_touched = (
            self.value_edit.toPlainText() != self._orig_value_text
            or self.text_check.isChecked() != self._orig_text_mode
        )
        if value_touched:
            out["value"] = value
        if not (f.confidence_valid and math.isclose(fields["confidence"], f.confidence, abs_tol=5e-4)):
            out["confidence"] = fields["confidence"]
        if fields["fact_kind"] != f.fact_kind:
            out["fact_kind"] = fields["fact_kind"]
        for name in ("occurred_at", "valid_from", "valid_until"):
            if fields[name] != getattr(f, name):
                out[name] = fields[name]
        return out
