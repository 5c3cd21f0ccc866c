"""Dialogs of the Facts tab: edit / add a fact, set tau, confirm a bulk action, choose a namespace."""

from __future__ import annotations

import json
import math
from typing import Any

from core.curation.facts import BulkPlan
from core.decay import namespace_tau_days
from core.facts import SELF_NAMESPACE, UNSET
from core.models import Fact
from philont_desktop.facts.model import fmt_score, fmt_tau, fmt_time, namespace_tau_text, readable_value
from philont_desktop.qt import (
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDateTime,
    QDateTimeEdit,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QRadioButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)


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
            self.tr("Edit {0}").format(f"{fact.namespace}.{fact.key}") if fact else self.tr("Add a fact")
        )
        form = QFormLayout()
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
        self.error.setText(p or "")
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


class TauDialog(QDialog):
    """Namespace default, a custom tau in days, or pinned. :meth:`decay_tau_days` gives the column value."""

    def __init__(self, fact: Fact, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("tauDialog")
        self.setWindowTitle(self.tr("Decay of {0}").format(f"{fact.namespace}.{fact.key}"))
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


class BulkConfirmDialog(QDialog):
    """Lists every fact a bulk action will change, and what it leaves out, before anything is written."""

    def __init__(self, plan: BulkPlan, title: str, action_text: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("bulkConfirmDialog")
        self.plan = plan
        self.setWindowTitle(title)
        n = len(plan.items)
        head = QLabel(self._intro(plan), self)
        head.setWordWrap(True)
        self.tree = QTreeWidget(self)
        self.tree.setObjectName("bulkItems")
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.tree.setHeaderLabels([self.tr("Fact"), self.tr("Value"), self.tr("Score"), self.tr("Change")])
        for it in plan.items:
            f = it.fact
            item = QTreeWidgetItem(
                [
                    f"{f.namespace}.{f.key}",
                    readable_value(f)[0],
                    fmt_score(it.score) if it.score is not None else "",
                    self._change(it),
                ]
            )
            item.setToolTip(1, readable_value(f)[1])
            item.setToolTip(3, item.text(3))
            self.tree.addTopLevelItem(item)
        hh = self.tree.header()
        hh.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        hh.setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)
        hh.resizeSection(1, 220)
        hh.setStretchLastSection(True)
        lay = QVBoxLayout(self)
        lay.addWidget(head)
        lay.addWidget(self.tree, 3)
        self.skipped = QTreeWidget(self)
        self.skipped.setObjectName("bulkSkipped")
        if plan.skipped:
            lay.addWidget(QLabel(self.tr("Left out ({0}):").format(len(plan.skipped)), self))
            self.skipped.setRootIsDecorated(False)
            self.skipped.setHeaderLabels([self.tr("Fact"), self.tr("Why")])
            for f, fid, reason in plan.skipped:
                self.skipped.addTopLevelItem(
                    QTreeWidgetItem([f"{f.namespace}.{f.key}" if f else fid, reason])
                )
            self.skipped.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
            lay.addWidget(self.skipped, 1)
        else:
            self.skipped.hide()
        note = QLabel(self.tr("This is one change: one Undo reverts all of it."), self)
        lay.addWidget(note)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText(action_text)
        ok.setEnabled(n > 0)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        self.resize(760, 520)

    def _intro(self, plan: BulkPlan) -> str:
        n = len(plan.items)
        if plan.op == "forget":
            return self.tr(
                "{0} facts will be forgotten (soft: they stay in the history and can be unforgotten)."
            ).format(n)
        if plan.op == "pin":
            return self.tr("{0} facts will be pinned: they stop decaying.").format(n)
        if plan.op == "unpin":
            return self.tr("{0} facts will be unpinned: their namespace's tau applies again.").format(n)
        return self.tr(
            '{0} facts will be stored under namespace "{1}" with the same key and value; the old ones are '
            "forgotten."
        ).format(n, plan.namespace)

    def _change(self, it: Any) -> str:
        f = it.fact
        op = self.plan.op
        if op == "forget":
            return self.tr("forgotten")
        if op == "pin":
            return self.tr("pinned (tau was {0})").format(fmt_tau(_tau_of(f)))
        if op == "unpin":
            return self.tr("unpinned → namespace default {0}").format(namespace_tau_text(f.namespace))
        text = self.tr("→ {0}").format(f"{self.plan.namespace}.{f.key}")
        if it.replaces is not None:
            text += " " + self.tr("(supersedes the version stored {0}: {1})").format(
                fmt_time(it.replaces.created_at), readable_value(it.replaces)[0][:40]
            )
        return text

    def item_texts(self) -> list[list[str]]:
        """The listed rows (fact, value, score, change), for tests and screenshots."""
        out = []
        for i in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(i)
            out.append([item.text(c) for c in range(4)])
        return out


def _tau_of(f: Fact) -> float:
    from core.decay import effective_tau

    return effective_tau(f.namespace, f.decay_tau_days)


__all__ = ["UNSET", "BulkConfirmDialog", "FactEditDialog", "NamespaceDialog", "OptionalTimeEdit", "TauDialog"]
