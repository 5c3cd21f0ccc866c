"""Dialogs of the Skills tab: revise a recipe, edit details, set the grade by hand, confirm."""

from __future__ import annotations

from typing import Any

from core.curation.skills import VERIFICATION_KINDS
from core.maturity import MATURITIES
from core.models import Skill
from philont_desktop.fonts import monospace_font
from philont_desktop.qt import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFont,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    Qt,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.skills.widgets.overview import policy_text
from philont_desktop.widgets import plain

_NONE = "__none__"


def split_list(text: str) -> list[str]:
    """``"a, b，c"`` -> ``["a", "b", "c"]`` (ASCII or full-width commas, blanks dropped)."""
    return [t.strip() for t in text.replace("，", ",").replace("、", ",").split(",") if t.strip()]


def _mono(widget: QWidget) -> None:
    font = monospace_font()
    font.setPointSizeF(max(8.0, widget.font().pointSizeF()))
    widget.setFont(QFont(font))


class RecipeDialog(QDialog):
    """New action template, verification and tool policy of a recipe, and the required reason."""

    def __init__(self, skill: Skill, parent: QWidget | None = None):
        super().__init__(parent)
        self.skill = skill
        self.setWindowTitle(self.tr("Revise recipe {0}").format(_name(skill)))
        self.setMinimumWidth(560)
        info = QLabel(
            self.tr(
                "The current version is kept in the revision history with your reason. Revising resets the "
                "grade to draft; the counters are kept."
            ),
            self,
        )
        info.setWordWrap(True)
        self.template = QPlainTextEdit(skill.action_template, self)
        self.template.setObjectName("recipeTemplate")
        _mono(self.template)
        self.kind = QComboBox(self)
        self.kind.setObjectName("recipeVerificationKind")
        for k in VERIFICATION_KINDS:
            self.kind.addItem(k, k)
        self.kind.addItem(self.tr("none: make it an advisory lesson"), _NONE)
        ver = skill.verification if isinstance(skill.verification, dict) else {}
        self.kind.setCurrentIndex(max(0, self.kind.findData(ver.get("kind", VERIFICATION_KINDS[1]))))
        self.check = QLineEdit(str(ver.get("check", "")), self)
        self.check.setObjectName("recipeVerificationCheck")
        self.policy = QLineEdit(policy_text(skill.tool_policy), self)
        self.policy.setObjectName("recipePolicy")
        self.policy.setPlaceholderText(self.tr("tool names, separated by commas"))
        self.reason = QLineEdit(self)
        self.reason.setObjectName("recipeReason")
        self.reason.setPlaceholderText(self.tr("why this rewrite (required)"))
        form = QFormLayout()
        form.addRow(self.tr("Action template"), self.template)
        form.addRow(self.tr("Verification"), self.kind)
        form.addRow(self.tr("Check"), self.check)
        form.addRow(self.tr("Tool policy"), self.policy)
        form.addRow(self.tr("Reason"), self.reason)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.ok = self.buttons.addButton(
            self.tr("Save as new version"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(info)
        lay.addLayout(form)
        lay.addWidget(self.buttons)
        for w in (self.template, self.check, self.policy, self.reason):
            w.textChanged.connect(self._validate)
        self.kind.currentIndexChanged.connect(self._validate)
        self._validate()

    def values(self) -> dict[str, Any]:
        """Keyword arguments of :func:`core.curation.skills.revise_recipe` for what changed."""
        out: dict[str, Any] = {"reason": self.reason.text().strip()}
        tpl = self.template.toPlainText()
        if tpl != self.skill.action_template:
            out["action_template"] = tpl
        kind = self.kind.currentData()
        ver = None if kind == _NONE else {"kind": kind, "check": self.check.text()}
        if ver != self.skill.verification:
            out["verification"] = ver
        pol = split_list(self.policy.text()) or None
        if pol != self.skill.tool_policy:
            out["tool_policy"] = pol
        return out

    def _validate(self) -> None:
        self.check.setEnabled(self.kind.currentData() != _NONE)
        v = self.values()
        self.ok.setEnabled(bool(v["reason"]) and len(v) > 1)


class DetailsDialog(QDialog):
    """Description, when to use, trigger keywords (and the template of a skill that is not a recipe)."""

    def __init__(self, skill: Skill, parent: QWidget | None = None):
        super().__init__(parent)
        self.skill = skill
        self.setWindowTitle(self.tr("Edit {0}").format(_name(skill)))
        self.setMinimumWidth(520)
        self.description = QPlainTextEdit(skill.description, self)
        self.description.setObjectName("detailsDescription")
        self.when = QPlainTextEdit(skill.when_to_use, self)
        self.when.setObjectName("detailsWhen")
        self.when.setMaximumHeight(80)
        self.keywords = QLineEdit(", ".join(str(k) for k in skill.trigger_keywords), self)
        self.keywords.setObjectName("detailsKeywords")
        self.keywords.setPlaceholderText(self.tr("keywords, separated by commas"))
        form = QFormLayout()
        form.addRow(self.tr("Description"), self.description)
        form.addRow(self.tr("When to use"), self.when)
        form.addRow(self.tr("Trigger keywords"), self.keywords)
        self.template: QPlainTextEdit | None = None
        if not skill.is_recipe:
            self.template = QPlainTextEdit(skill.action_template, self)
            self.template.setObjectName("detailsTemplate")
            _mono(self.template)
            form.addRow(self.tr("Action template"), self.template)
        note = QLabel(
            self.tr("These fields keep no history; the audit trail records the change and Undo reverts it."),
            self,
        )
        note.setWordWrap(True)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(note)
        lay.addWidget(self.buttons)
        for w in (self.description, self.when, self.keywords) + ((self.template,) if self.template else ()):
            w.textChanged.connect(self._validate)
        self._validate()

    def values(self) -> dict[str, Any]:
        """Keyword arguments of :func:`core.curation.skills.update` for what changed."""
        s = self.skill
        out: dict[str, Any] = {}
        desc = self.description.toPlainText()
        if desc != s.description:
            out["description"] = desc
        when = self.when.toPlainText()
        if when != s.when_to_use:
            out["when_to_use"] = when
        kws = split_list(self.keywords.text())
        if kws != [str(k) for k in s.trigger_keywords]:
            out["trigger_keywords"] = kws
        if self.template is not None and self.template.toPlainText() != s.action_template:
            out["action_template"] = self.template.toPlainText()
        return out

    def _validate(self) -> None:
        v = self.values()
        ok = bool(v) and bool(self.description.toPlainText().strip())
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(ok)


class GradeDialog(QDialog):
    """Confirm a grade set by hand, with the required reason."""

    def __init__(
        self, skill: Skill, grade_name: Any, target: str | None = None, parent: QWidget | None = None
    ):
        super().__init__(parent)
        self.skill = skill
        self.grade_name = grade_name
        self.setWindowTitle(self.tr("Set the grade of {0} by hand").format(_name(skill)))
        self.setMinimumWidth(480)
        self.grade = QComboBox(self)
        self.grade.setObjectName("gradeCombo")
        for m in MATURITIES:
            if m != skill.maturity:
                self.grade.addItem(grade_name(m), m)
        if target is not None:
            self.grade.setCurrentIndex(max(0, self.grade.findData(target)))
        self.question = QLabel(self)
        self.question.setTextFormat(Qt.TextFormat.PlainText)  # it names the skill: stored text
        self.question.setWordWrap(True)
        self.reason = QLineEdit(self)
        self.reason.setObjectName("gradeReason")
        self.reason.setPlaceholderText(self.tr("why (required; kept in the audit trail)"))
        form = QFormLayout()
        form.addRow(self.tr("New grade"), self.grade)
        form.addRow(self.tr("Reason"), self.reason)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.ok = self.buttons.addButton(self.tr("Set grade"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(self.question)
        lay.addLayout(form)
        lay.addWidget(self.buttons)
        self.grade.currentIndexChanged.connect(self._validate)
        self.reason.textChanged.connect(self._validate)
        self._validate()

    def values(self) -> tuple[str, str]:
        return self.grade.currentData(), self.reason.text().strip()

    def _validate(self) -> None:
        target, reason = self.values()
        self.question.setText(
            self.tr(
                "Move {0} from {1} to {2}? This overrides the state machine: its counters stay as they are, "
                "and later outcomes move it on from the new grade."
            ).format(_name(self.skill), self.grade_name(self.skill.maturity), self.grade_name(target or ""))
        )
        self.ok.setEnabled(bool(target) and bool(reason))


def _name(skill: Skill) -> str:
    """A skill's name for a title or a question: stored text with controls and overrides visible."""
    return plain.plain(skill.name, 200, one_line=True)


def confirm(parent: QWidget | None, title: str, text: str, ok_text: str) -> bool:
    """A Yes/No question with a named confirming button; Cancel is the default."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle(title)
    box.setTextFormat(Qt.TextFormat.PlainText)  # skill names are stored text: shown, never markup
    box.setText(text)
    yes = box.addButton(ok_text, QMessageBox.ButtonRole.DestructiveRole)
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(cancel)
    box.exec()
    return box.clickedButton() is yes
