"""The Skills tab: the maturity board on top, the selected skill's detail below, curation in editing mode.

Loading: the board gets every skill (``load_board``) and merges it into its model on each refresh, so
selection and scroll positions stay; cards ask for their outcome sparkline only when painted
(``load_histories``, batched); the selected skill's detail (``load_detail``) is reloaded only when the
skill changed. Curation: every edit is built by :mod:`core.curation.skills` from the skill as shown
(its version stamp makes a concurrent change by the agent a conflict instead of an overwrite) and runs
through ``ctx.curate``, so it is audited and lands on the shared undo stack.
"""

from __future__ import annotations

import time
from typing import Any

from core.curation import Change
from core.curation import skills as skill_curation
from core.errors import ValidationError_
from core.maturity import MATURITIES
from core.models import Skill
from philont_desktop.qt import (
    QApplication,
    QDialog,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMenu,
    QPoint,
    QSplitter,
    Qt,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.skills.board import BoardWidget
from philont_desktop.skills.detail import DetailPane
from philont_desktop.skills.dialogs import DetailsDialog, GradeDialog, RecipeDialog, confirm
from philont_desktop.skills.model import SkillDetail, load_board, load_detail, load_histories
from philont_desktop.tabs.base import BaseTab
from philont_desktop.workers import Job


class SkillsTab(BaseTab):
    name = "skills"

    def __init__(self, ctx: Any, parent: QWidget | None = None, *, now: int | None = None):
        super().__init__(ctx, parent)
        dark = bool(getattr(ctx.theme, "is_dark", False))
        self.board = BoardWidget(dark, self, now=now)
        self.detail_pane = DetailPane(self.board.colors, self)
        self.detail_pane.grade_name = self.board.grade_name
        self.status = QLabel(self)
        self.status.setObjectName("skillsStatus")
        self.status.setWordWrap(True)
        self.status.hide()
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setObjectName("skillsSplitter")
        self.splitter.addWidget(self.board)
        self.splitter.addWidget(self.detail_pane)
        self.splitter.setStretchFactor(0, 5)
        self.splitter.setStretchFactor(1, 4)
        self.splitter.setSizes([460, 360])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.status)
        layout.addWidget(self.splitter, 1)
        self.register_splitter(self.splitter, "main")

        self.loaded = False
        self.load_error: BaseException | None = None
        self._detail_id = ""
        self._editing = False
        self._selected_once = False

        self.board.currentSkillChanged.connect(self._on_current)
        self.board.historiesNeeded.connect(self._load_histories)
        self.board.contextMenuRequested.connect(self._context_menu)
        self.board.skillActivated.connect(lambda _s: self.detail_pane.tabs.setCurrentIndex(0))
        d = self.detail_pane
        d.editRecipeRequested.connect(lambda: self._ask_and_revise(self.current_skill()))
        d.editDetailsRequested.connect(lambda: self._ask_and_update(self.current_skill()))
        d.setGradeRequested.connect(lambda: self._ask_and_set_grade(self.current_skill()))
        d.flipKindRequested.connect(lambda: self.flip_kind(self.current_skill()))
        d.deleteRequested.connect(lambda: self._ask_and_delete(self.current_skill()))
        d.revertRequested.connect(lambda i: self._ask_and_revert(self.current_skill(), i))
        theme_changed = getattr(ctx.theme, "changed", None)
        if theme_changed is not None:
            theme_changed.connect(self._on_theme)

    # -- loading --------------------------------------------------------------------------------------------
    def activate(self) -> None:
        self.refresh()

    def refresh(self) -> None:
        self.run(
            load_board,
            on_result=self._on_board,
            on_error=self._on_board_error,
            key="board",
            label=self.tr("Loading skills"),
        )

    def _on_board(self, skills: list[Skill]) -> None:
        self.loaded = True
        self.load_error = None
        self.status.hide()
        model = self.board.model
        model.invalidate_histories()
        changed = set(self.board.set_skills(skills))
        # The cards in view get their sparklines in the same round (the others when scrolled to).
        model.request_histories_now(self.board.visible_names())
        for view in self.board.views.values():
            view.viewport().update()
        first = not self._selected_once
        self._selected_once = True
        if first and not self.board.current_id and skills:
            # Start with the most recently used skill, so the pane below says something at once.
            recent = max(skills, key=lambda s: (s.last_used_at or -1, s.created_at))
            self.board.select_skill(recent.id)
            return
        cur = self.board.current_id
        if cur and (cur in changed or self.detail_pane.detail is None or self._detail_id != cur):
            self._load_detail(cur)
        elif not cur and self.detail_pane.detail is not None:
            self._detail_id = ""
            self.detail_pane.set_detail(None)

    def _on_board_error(self, exc: BaseException) -> None:
        self.load_error = exc
        self.status.setText(self.tr("The skills could not be read: {0}").format(exc))
        self.status.show()

    def _load_histories(self, names: list[str]) -> None:
        model = self.board.model
        self.run(
            load_histories,
            names,
            on_result=lambda h, names=names: model.set_histories(h, names),
            on_error=lambda _e, names=names: model.histories_failed(names),
        )

    def _on_current(self, skill_id: str) -> None:
        if not skill_id:
            self._detail_id = ""
            self.detail_pane.set_detail(None)
            return
        self._load_detail(skill_id)

    def _load_detail(self, skill_id: str) -> None:
        skill = self.board.model.skill_by_id(skill_id)
        if skill is None:
            return
        self.run(
            load_detail,
            skill.name,
            on_result=lambda d, sid=skill_id: self._on_detail(sid, d),
            key="detail",
            label=self.tr("Loading skill {0}").format(skill.name),
        )

    def _on_detail(self, skill_id: str, detail: SkillDetail | None) -> None:
        if skill_id != self.board.current_id:
            return
        if detail is None or detail.skill.id != skill_id:
            self._detail_id = ""
            self.detail_pane.set_detail(None)
            return
        self._detail_id = skill_id
        self.detail_pane.set_detail(detail)

    def wait_idle(self, timeout_ms: int = 10_000) -> bool:
        """Until loads are done and no card painted since asks for its sparkline."""
        deadline = time.monotonic() + timeout_ms / 1000
        while True:
            left = max(0, int((deadline - time.monotonic()) * 1000))
            super().wait_idle(left)
            QApplication.processEvents()
            if not self._pending and not self.board.model.requests_pending:
                return True
            if time.monotonic() >= deadline:
                return False

    # -- selection (also for tests and screenshots) ---------------------------------------------------------
    def select_skill(self, name: str) -> bool:
        skill = self.board.model.skill_by_name(name)
        return skill is not None and self.board.select_skill(skill.id)

    def current_skill(self) -> Skill | None:
        """The selected skill as last read (the detail's copy when it is loaded)."""
        d = self.detail_pane.detail
        if d is not None and d.skill.id == self.board.current_id:
            return d.skill
        return self.board.current_skill()

    # -- appearance and mode --------------------------------------------------------------------------------
    def retranslate(self) -> None:
        super().retranslate()
        self._on_theme()  # repaints the cards and re-renders the detail in the new language

    def _on_theme(self) -> None:
        self.board.apply_colors(bool(self.ctx.theme.is_dark))
        self.detail_pane.set_colors(self.board.colors)

    def set_editing(self, on: bool) -> None:
        self._editing = on
        self.detail_pane.set_editing(on)

    # -- curation (non-interactive; the dialogs end here) ---------------------------------------------------
    def apply_edit(self, text: str, build: Any) -> Job | None:
        """Build a :class:`core.curation.Change` (``build()``) and run it as an audited, undoable edit."""
        try:
            change: Change = build()
        except ValidationError_ as exc:
            self.ctx.show_error(self.tr("The change was not made"), exc)
            return None
        return self.curate(change, text, on_result=lambda _c: self.refresh(), on_error=self._on_edit_error)

    def _on_edit_error(self, exc: BaseException) -> None:
        self.ctx.show_error(self.tr("The change was not made"), exc)
        self.refresh()

    def revise_recipe(self, skill: Skill, **values: Any) -> Job | None:
        return self.apply_edit(
            self.tr("Revise recipe {0}").format(skill.name),
            lambda: skill_curation.revise_recipe(skill, **values),
        )

    def revert(self, skill: Skill, index: int, reason: str | None = None) -> Job | None:
        return self.apply_edit(
            self.tr("Restore version {0} of {1}").format(index + 1, skill.name),
            lambda: skill_curation.revert(skill, index, reason),
        )

    def update_details(self, skill: Skill, **values: Any) -> Job | None:
        return self.apply_edit(
            self.tr("Edit skill {0}").format(skill.name), lambda: skill_curation.update(skill, **values)
        )

    def set_grade(self, skill: Skill, maturity: str, reason: str) -> Job | None:
        return self.apply_edit(
            self.tr("Set {0} to {1}").format(skill.name, self.board.grade_name(maturity)),
            lambda: skill_curation.set_maturity(skill, maturity, reason=reason),
        )

    def flip_kind(self, skill: Skill | None) -> Job | None:
        if skill is None:
            return None
        kind = "positive" if skill.kind == "negative" else "negative"
        text = (
            self.tr("Mark {0} as avoid").format(skill.name)
            if kind == "negative"
            else self.tr("Mark {0} as positive").format(skill.name)
        )
        return self.apply_edit(text, lambda: skill_curation.set_kind(skill, kind))

    def delete(self, skill: Skill) -> Job | None:
        return self.apply_edit(
            self.tr("Delete skill {0}").format(skill.name), lambda: skill_curation.delete(skill)
        )

    # -- asking the user (tests replace these) --------------------------------------------------------------
    def ask_recipe(self, skill: Skill) -> dict[str, Any] | None:
        dlg = RecipeDialog(skill, self)
        return dlg.values() if dlg.exec() == QDialog.DialogCode.Accepted else None

    def ask_details(self, skill: Skill) -> dict[str, Any] | None:
        dlg = DetailsDialog(skill, self)
        return dlg.values() if dlg.exec() == QDialog.DialogCode.Accepted else None

    def ask_grade(self, skill: Skill, target: str | None = None) -> tuple[str, str] | None:
        dlg = GradeDialog(skill, self.board.grade_name, target, self)
        return dlg.values() if dlg.exec() == QDialog.DialogCode.Accepted else None

    def ask_revert(self, skill: Skill, index: int) -> str | None:
        """The optional reason, or None when the user cancelled."""
        text, ok = QInputDialog.getText(
            self,
            self.tr("Restore an earlier version"),
            self.tr(
                "Restore version {0} of {1} as a new version? The current version is kept in the revision "
                "history and the grade goes back to draft.\n\nReason (optional):"
            ).format(index + 1, skill.name),
            QLineEdit.EchoMode.Normal,
            "",
        )
        return text if ok else None

    def confirm_delete(self, skill: Skill) -> bool:
        return confirm(
            self,
            self.tr("Delete skill"),
            self.tr(
                "Delete {0} ({1}, {2} uses, {3} successes, {4} failures)? The agent will no longer find it. "
                "Undo restores it with every field as it was."
            ).format(
                skill.name,
                self.board.grade_name(skill.maturity),
                skill.use_count,
                skill.success_count,
                skill.failure_count,
            ),
            self.tr("Delete"),
        )

    def _ask_and_revise(self, skill: Skill | None) -> None:
        if skill is not None and self._editing:
            values = self.ask_recipe(skill)
            if values:
                self.revise_recipe(skill, **values)

    def _ask_and_update(self, skill: Skill | None) -> None:
        if skill is not None and self._editing:
            values = self.ask_details(skill)
            if values:
                self.update_details(skill, **values)

    def _ask_and_set_grade(self, skill: Skill | None, target: str | None = None) -> None:
        if skill is not None and self._editing:
            answer = self.ask_grade(skill, target)
            if answer:
                self.set_grade(skill, *answer)

    def _ask_and_delete(self, skill: Skill | None) -> None:
        if skill is not None and self._editing and self.confirm_delete(skill):
            self.delete(skill)

    def _ask_and_revert(self, skill: Skill | None, index: int) -> None:
        if skill is not None and self._editing:
            reason = self.ask_revert(skill, index)
            if reason is not None:
                self.revert(skill, index, reason)

    def _context_menu(self, skill: Skill, pos: QPoint) -> None:
        menu = QMenu(self)
        editing = self._editing
        a = menu.addAction(self.tr("Edit recipe…"), lambda: self._ask_and_revise(skill))
        a.setEnabled(editing and skill.is_recipe)
        menu.addAction(self.tr("Edit details…"), lambda: self._ask_and_update(skill)).setEnabled(editing)
        grades = menu.addMenu(self.tr("Set grade"))
        grades.setEnabled(editing)
        for m in MATURITIES:
            act = grades.addAction(self.board.grade_name(m), lambda m=m: self._ask_and_set_grade(skill, m))
            act.setEnabled(m != skill.maturity)
        kind_text = self.tr("Mark as positive") if skill.kind == "negative" else self.tr("Mark as avoid")
        menu.addAction(kind_text, lambda: self.flip_kind(skill)).setEnabled(editing)
        menu.addAction(self.tr("Delete…"), lambda: self._ask_and_delete(skill)).setEnabled(editing)
        menu.addSeparator()
        menu.addAction(self.tr("Copy name"), lambda: QApplication.clipboard().setText(skill.name))
        if not editing:
            menu.addSeparator()
            menu.addAction(self.tr("Turn on editing mode to change skills")).setEnabled(False)
        menu.exec(pos)

    # -- self-test --------------------------------------------------------------------------------------------
