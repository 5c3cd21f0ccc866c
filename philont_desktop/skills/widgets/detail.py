"""The detail pane of a skill: a title with the editing buttons, and three tabs: Overview, Ladder
history, Revisions (:mod:`.overview`, :mod:`.ladder`, :mod:`.revisions`).

Everything shown comes from one :class:`~philont_desktop.skills.loaders.SkillDetail` read off the GUI
thread: the tab on screen at once, the two others in the next event-loop turn (or when one is chosen
before), so that a skill's first detail, which comes with the board's first paint, is a shorter turn.
The editing buttons only emit requests; the tab turns them into audited, undoable edits.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.models import Skill
from philont_desktop.qt import QHBoxLayout, QLabel, QPushButton, Qt, QTabWidget, QVBoxLayout, QWidget, Signal
from philont_desktop.skills.loaders import SkillDetail
from philont_desktop.skills.widgets.colors import Colors
from philont_desktop.skills.widgets.ladder import LadderPanel
from philont_desktop.skills.widgets.overview import OverviewPanel, esc
from philont_desktop.skills.widgets.revisions import RevisionsPanel
from philont_desktop.skills.words import grade_caveat
from philont_desktop.widgets import plain
from philont_desktop.widgets.after_paint import next_turn


class DetailPane(QWidget):
    """Title and editing buttons over the Overview, Ladder history and Revisions tabs."""

    editRecipeRequested = Signal()
    editDetailsRequested = Signal()
    setGradeRequested = Signal()
    flipKindRequested = Signal()
    deleteRequested = Signal()
    revertRequested = Signal(int)  # index into revision_history (0-based)

    def __init__(self, colors: Colors, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("skillsDetail")
        self.colors = colors
        self.detail: SkillDetail | None = None
        self.editing = False
        self._grade_name: Callable[[str], str] = lambda m: m
        self.title = QLabel(self)
        self.title.setObjectName("skillsDetailTitle")
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        header = QHBoxLayout()
        header.setContentsMargins(0, 0, 0, 0)
        header.addWidget(self.title, 1)
        self.buttons: dict[str, QPushButton] = {}
        for key, text, signal in (
            ("recipe", self.tr("Edit recipe…"), self.editRecipeRequested),
            ("details", self.tr("Edit details…"), self.editDetailsRequested),
            ("grade", self.tr("Set grade…"), self.setGradeRequested),
            ("kind", self.tr("Mark as avoid"), self.flipKindRequested),
            ("delete", self.tr("Delete…"), self.deleteRequested),
        ):
            b = QPushButton(text, self)
            b.setObjectName(f"skillsButton_{key}")
            b.clicked.connect(signal)
            header.addWidget(b)
            self.buttons[key] = b
        self.overview = OverviewPanel(self)
        self.ladder = LadderPanel(self)
        self.revisions = RevisionsPanel(self)
        self.revisions.revertRequested.connect(self.revertRequested)
        self.revisions.selectionChanged.connect(self._update_buttons)
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("skillsDetailTabs")
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.overview, self.tr("Overview"))
        self.tabs.addTab(self.ladder, self.tr("Ladder history"))
        self.tabs.addTab(self.revisions, self.tr("Revisions"))
        # the detail the tabs not on screen wait for: (detail, keep the compared pair, the tab shown)
        self._hidden: tuple[SkillDetail, bool, QWidget] | None = None
        self._hidden_timer = next_turn(self, self.flush)
        self.tabs.currentChanged.connect(lambda _i: self.flush())
        self.placeholder = QLabel(self.tr("Select a skill on the board to see why it has its grade."), self)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setObjectName("skillsDetailPlaceholder")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addLayout(header)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.placeholder, 1)
        self.set_detail(None)

    # -- the parts, by name (tests and the self-test use them) ----------------------------------------
    @property
    def grade_view(self):
        return self.overview.grade_view

    @property
    def fields_view(self):
        return self.overview.fields_view

    @property
    def ladder_summary(self):
        return self.ladder.summary

    @property
    def revision_table(self):
        return self.revisions.table

    @property
    def left_combo(self):
        return self.revisions.left_combo

    @property
    def right_combo(self):
        return self.revisions.right_combo

    @property
    def diff_view(self):
        return self.revisions.diff_view

    def select_revision(self, index: int) -> None:
        self.revisions.select_revision(index)

    def selected_revision_index(self) -> int | None:
        return self.revisions.selected_revision_index()

    # -- state -------------------------------------------------------------------------------------------
    @property
    def grade_name(self) -> Callable[[str], str]:
        return self._grade_name

    @grade_name.setter
    def grade_name(self, fn: Callable[[str], str]) -> None:
        self._grade_name = fn
        self.overview.grade_name = fn
        self.ladder.grade_name = fn

    @property
    def skill(self) -> Skill | None:
        return self.detail.skill if self.detail is not None else None

    def set_colors(self, colors: Colors) -> None:
        self.colors = colors
        if self.detail is not None:
            self.set_detail(self.detail, keep_view=True)

    def set_editing(self, on: bool) -> None:
        self.editing = on
        self._update_buttons()

    def _update_buttons(self) -> None:
        s = self.skill
        show = self.editing and s is not None
        for b in self.buttons.values():
            b.setVisible(show)
        recipe = self.buttons["recipe"]
        recipe.setEnabled(bool(s and s.is_recipe))
        recipe.setToolTip(
            self.tr("Rewrite the recipe; the current version is kept in its revision history.")
            if s and s.is_recipe
            else self.tr("Only a recipe (a skill with a verification) has versions to revise.")
        )
        if s is not None:
            self.buttons["kind"].setText(
                self.tr("Mark as positive") if s.kind == "negative" else self.tr("Mark as avoid")
            )
        revert = self.revisions.revert_button
        revert.setVisible(show and bool(s.revision_history))  # type: ignore[union-attr]
        revert.setEnabled(self.selected_revision_index() is not None)

    def set_detail(self, detail: SkillDetail | None, *, keep_view: bool = False) -> None:
        """Show ``detail`` (None: nothing selected). ``keep_view`` keeps the chosen diff and tab."""
        same_skill = (
            detail is not None and self.detail is not None and detail.skill.id == self.detail.skill.id
        )
        self.detail = detail
        self.tabs.setVisible(detail is not None)
        self.placeholder.setVisible(detail is None)
        if detail is None:
            self._hidden = None
            self._hidden_timer.stop()
            self.title.setText("")
            self.ladder.show_detail(None, self.colors)
            self._update_buttons()
            return
        self.title.setText(self._title_html(detail.skill))
        self.flush()  # a detail still waiting for the hidden tabs goes there first (the pair kept)
        shown = self.tabs.currentWidget()
        self._hidden = (detail, keep_view or same_skill, shown)
        self._show_tab(shown)
        self._hidden_timer.start()
        self._update_buttons()

    def _show_tab(self, panel: QWidget) -> None:
        assert self._hidden is not None
        detail, keep, _shown = self._hidden
        if panel is self.overview:
            self.overview.show_detail(detail, self.colors)
        elif panel is self.ladder:
            self.ladder.show_detail(detail, self.colors)
        elif panel is self.revisions:
            self.revisions.show_detail(detail, self.colors, keep=keep)

    @property
    def pending(self) -> bool:
        """Tabs not on screen wait for the last detail (shown in the next event-loop turn)."""
        return self._hidden is not None

    def flush(self) -> None:
        """Show the last detail in the tabs that wait for it, now."""
        if self._hidden is None:
            return
        self._hidden_timer.stop()
        shown = self._hidden[2]
        for panel in (self.overview, self.ladder, self.revisions):
            if panel is not shown:
                self._show_tab(panel)
        self._hidden = None
        self._update_buttons()

    def _chip(self, text: str, color: Any, filled: bool = False) -> str:
        c = color.name()
        if filled:
            on = self.colors.on_filled.name()
            return f'<span style="background-color:{c}; color:{on}">&nbsp;{esc(text)}&nbsp;</span>'
        return f'<span style="color:{c}; font-weight:bold">{esc(text)}</span>'

    def _title_html(self, s: Skill) -> str:
        c = self.colors
        name = plain.mark(plain.plain(s.name, 300, one_line=True), s, plain.damages(s))
        parts = [f'<span style="font-size:large; font-weight:bold">{esc(name)}</span>']
        parts.append(self._chip(self.grade_name(s.maturity), c.grade(s.maturity), True))
        if s.kind == "negative":
            parts.append(self._chip(self.tr("avoid"), c.avoid, True))
        if s.is_recipe:
            parts.append(self._chip(self.tr("recipe"), c.recipe))
        if s.from_disk:
            parts.append(self._chip(self.tr("from disk"), c.muted))
        caveat = grade_caveat(s.maturity)
        if caveat:
            parts.append(f'<span style="color:{c.muted.name()}">{esc(caveat)}</span>')
        return "&nbsp;&nbsp;".join(parts)
