"""The context menu of a skill card: the edits (enabled in editing mode) and copying the name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.maturity import MATURITIES
from core.models import Skill
from philont_desktop.qt import QApplication, QMenu, QWidget


class SkillMenu(QMenu):
    """``handlers``: ``recipe``, ``details``, ``grade`` (takes the target grade), ``kind``, ``delete``,
    each called with the skill."""

    def __init__(
        self,
        skill: Skill,
        editing: bool,
        grade_name: Callable[[str], str],
        handlers: dict[str, Callable[..., Any]],
        parent: QWidget | None = None,
    ):
        super().__init__(parent)
        h = handlers
        a = self.addAction(self.tr("Edit recipe…"), lambda: h["recipe"](skill))
        a.setEnabled(editing and skill.is_recipe)
        self.addAction(self.tr("Edit details…"), lambda: h["details"](skill)).setEnabled(editing)
        grades = self.addMenu(self.tr("Set grade"))
        grades.setEnabled(editing)
        for m in MATURITIES:
            act = grades.addAction(grade_name(m), lambda m=m: h["grade"](skill, m))
            act.setEnabled(m != skill.maturity)
        kind_text = self.tr("Mark as positive") if skill.kind == "negative" else self.tr("Mark as avoid")
        self.addAction(kind_text, lambda: h["kind"](skill)).setEnabled(editing)
        self.addAction(self.tr("Delete…"), lambda: h["delete"](skill)).setEnabled(editing)
        self.addSeparator()
        self.addAction(self.tr("Copy name"), lambda: QApplication.clipboard().setText(skill.name))
        if not editing:
            self.addSeparator()
            self.addAction(self.tr("Turn on editing mode to change skills")).setEnabled(False)
