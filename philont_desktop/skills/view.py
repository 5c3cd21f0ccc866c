"""The Skills tab: the maturity board on top, the selected skill's detail below, curation in editing mode.

The shape of every tab (see :mod:`philont_desktop.tabs`): :mod:`.state` holds the loaded skills, the
filter, sort, selection and detail without Qt; :mod:`.controller` reads them off the GUI thread and runs
the edits; this view composes the board (:mod:`.widgets.board`: filter bar, columns, cards) and the
detail (:mod:`.widgets.detail`: overview, ladder history, revisions) and wires them together. The board
merges each fresh list into its model, so selection and scroll positions stay; cards ask for their
outcome sparkline only when painted.
"""

from __future__ import annotations

import time
from typing import Any

from core.models import Skill
from philont_desktop.qt import (
    QApplication,
    QDialog,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPoint,
    QSplitter,
    Qt,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.skills.controller import SkillsController
from philont_desktop.skills.dialogs import DetailsDialog, GradeDialog, RecipeDialog, confirm
from philont_desktop.skills.navigate import SkillsNavigation
from philont_desktop.skills.state import SkillsState
from philont_desktop.skills.widgets.board import BoardWidget
from philont_desktop.skills.widgets.detail import DetailPane
from philont_desktop.skills.widgets.menu import SkillMenu
from philont_desktop.tabs.base import BaseTab
from philont_desktop.widgets import plain
from philont_desktop.workers import Job


class SkillsTab(SkillsNavigation, BaseTab):
    name = "skills"

    def __init__(self, ctx: Any, parent: QWidget | None = None, *, now: int | None = None):
        super().__init__(ctx, parent)
        self.board = BoardWidget(bool(getattr(ctx.theme, "is_dark", False)), self, now=now)
        self.detail_pane = DetailPane(self.board.colors, self)
        self.detail_pane.grade_name = self.board.grade_name
        self.detail_pane.overview.now_ms = now
        self.controller.grade_name = self.board.grade_name
        self.controller.now = now
        self.status = QLabel(self)
        self.status.setObjectName("skillsStatus")
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.PlainText)
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
        self._wire()

    def create_state(self) -> SkillsState:
        return SkillsState()

    def create_controller(self) -> SkillsController:
        return SkillsController(self.ctx, self.state, self.name, self)

    def _wire(self) -> None:
        b, d, c = self.board, self.detail_pane, self.controller
        b.currentSkillChanged.connect(c.select)
        b.filterChanged.connect(c.set_filter)
        b.sortChanged.connect(c.set_sort)
        b.historiesNeeded.connect(self._load_histories)
        b.contextMenuRequested.connect(self._context_menu)
        b.skillActivated.connect(lambda _s: d.tabs.setCurrentIndex(0))
        d.editRecipeRequested.connect(lambda: self.request_recipe(self.current_skill()))
        d.editDetailsRequested.connect(lambda: self.request_details(self.current_skill()))
        d.setGradeRequested.connect(lambda: self.request_grade(self.current_skill()))
        d.flipKindRequested.connect(lambda: self.flip_kind(self.current_skill()))
        d.deleteRequested.connect(lambda: self.request_delete(self.current_skill()))
        d.revertRequested.connect(lambda i: self.request_revert(self.current_skill(), i))
        self.state.changed.connect(self._on_state)
        theme_changed = getattr(self.ctx.theme, "changed", None)
        if theme_changed is not None:
            theme_changed.connect(self._on_theme)

    # -- state -> widgets -----------------------------------------------------------------------------
    def _on_state(self, names: frozenset[str]) -> None:
        st = self.state
        if "error" in names:
            self.status.setText(
                self.tr("The skills could not be read: {0}").format(st.error) if st.error else ""
            )
            self.status.setVisible(bool(st.error))
        if "filter" in names:
            self.board.apply_filter(st.filter)
        if "sort" in names:
            self.board.set_sort_mode(st.sort)
        if "skills" in names:
            self._show_skills()
        selected = st.selected or ""
        if names & {"selected", "skills"} and selected != self.board.current_id:
            self.board.select_skill(selected)
        if "detail" in names:
            self.detail_pane.set_detail(st.detail)
        if "editing" in names:
            self.detail_pane.set_editing(st.editing)

    def _show_skills(self) -> None:
        model = self.board.model
        model.invalidate_histories()
        self.board.set_skills(list(self.state.skills), self.state.board)
        # The cards in view get their sparklines in the same round (the others when scrolled to).
        model.request_histories_now(self.board.visible_names())
        for view in self.board.views.values():
            view.viewport().update()

    def _load_histories(self, names: list[str]) -> None:
        model = self.board.model
        self.controller.load_histories(
            names,
            lambda h, names=names: model.set_histories(h, names),
            lambda names=names: model.histories_failed(names),
        )

    @property
    def loaded(self) -> bool:
        """The board was read at least once."""
        return self.state.ready

    @property
    def load_error(self) -> str:
        return self.state.error

    def wait_idle(self, timeout_ms: int = 10_000) -> bool:
        """Until loads are done, no card painted since asks for its sparkline and every card on screen
        is painted in full; the detail is then in every tab."""
        deadline = time.monotonic() + timeout_ms / 1000
        while True:
            left = max(0, int((deadline - time.monotonic()) * 1000))
            super().wait_idle(left)
            QApplication.processEvents()
            if not self._pending and not self.board.model.requests_pending and not self.board.cards_pending:
                self.detail_pane.flush()
                return True
            if time.monotonic() >= deadline:
                return False

    # -- selection (also for tests and screenshots) ---------------------------------------------------
    def select_skill(self, name: str) -> bool:
        skill = self.board.model.skill_by_name(name)
        return skill is not None and self.board.select_skill(skill.id)

    def current_skill(self) -> Skill | None:
        """The selected skill as last read (the detail's copy when it is loaded)."""
        return self.state.selected_skill()

    # -- appearance and mode --------------------------------------------------------------------------
    def retranslate(self) -> None:
        super().retranslate()
        self._on_theme()  # repaints the cards and re-renders the detail in the new language

    def _on_theme(self) -> None:
        self.board.apply_colors(bool(self.ctx.theme.is_dark))
        self.detail_pane.set_colors(self.board.colors)

    def set_editing(self, on: bool) -> None:
        self.controller.set_editing(on)

    # -- edits (non-interactive; the dialogs end here) ------------------------------------------------
    def revise_recipe(self, skill: Skill, **values: Any) -> Job | None:
        return self.controller.revise_recipe(skill, **values)

    def revert(self, skill: Skill, index: int, reason: str | None = None) -> Job | None:
        return self.controller.revert(skill, index, reason)

    def update_details(self, skill: Skill, **values: Any) -> Job | None:
        return self.controller.update_details(skill, **values)

    def set_grade(self, skill: Skill, maturity: str, reason: str) -> Job | None:
        return self.controller.set_grade(skill, maturity, reason)

    def flip_kind(self, skill: Skill | None) -> Job | None:
        return self.controller.flip_kind(skill) if skill is not None and self.state.editing else None

    def delete(self, skill: Skill) -> Job | None:
        return self.controller.delete(skill)

    # -- asking the user (tests replace the ask_* methods) -----------------------------------------------
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
        text = self.tr(
            "Delete {0} ({1}, {2} uses, {3} successes, {4} failures)? The agent will no longer find it. "
            "Undo restores it with every field as it was."
        ).format(
            plain.plain(skill.name, 200, one_line=True),
            self.board.grade_name(skill.maturity),
            skill.use_count,
            skill.success_count,
            skill.failure_count,
        )
        return confirm(self, self.tr("Delete skill"), text, self.tr("Delete"))

    def request_recipe(self, skill: Skill | None) -> None:
        """Ask for a new version of ``skill``'s recipe and save it (editing mode only)."""
        if skill is not None and self.state.editing:
            values = self.ask_recipe(skill)
            if values:
                self.revise_recipe(skill, **values)

    def request_details(self, skill: Skill | None) -> None:
        if skill is not None and self.state.editing:
            values = self.ask_details(skill)
            if values:
                self.update_details(skill, **values)

    def request_grade(self, skill: Skill | None, target: str | None = None) -> None:
        if skill is not None and self.state.editing:
            answer = self.ask_grade(skill, target)
            if answer:
                self.set_grade(skill, *answer)

    def request_delete(self, skill: Skill | None) -> None:
        if skill is not None and self.state.editing and self.confirm_delete(skill):
            self.delete(skill)

    def request_revert(self, skill: Skill | None, index: int) -> None:
        if skill is not None and self.state.editing:
            reason = self.ask_revert(skill, index)
            if reason is not None:
                self.revert(skill, index, reason)

    def _context_menu(self, skill: Skill, pos: QPoint) -> None:
        handlers = {
            "recipe": self.request_recipe,
            "details": self.request_details,
            "grade": self.request_grade,
            "kind": self.flip_kind,
            "delete": self.request_delete,
        }
        SkillMenu(skill, self.state.editing, self.board.grade_name, handlers, self).exec(pos)
