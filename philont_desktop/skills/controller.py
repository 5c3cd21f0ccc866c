"""The Skills tab's controller: reads the board, the selected skill's detail and the card sparklines,
and runs skill curation.

Reads go off the GUI thread (:mod:`.loaders`); their answers land in :class:`~.state.SkillsState`. Every
edit is built by :mod:`core.curation.skills` from the skill as shown (its version stamp makes a
concurrent change by the agent a conflict instead of an overwrite) and runs through ``ctx.curate``, so it
is audited and lands on the shared undo stack; the board reloads when any skill edit, undo or redo lands.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from core.curation import Change, Changes
from core.curation import skills as skill_curation
from core.errors import ValidationError_
from core.models import Skill
from philont_desktop import messages
from philont_desktop.ops import ReadOp
from philont_desktop.qt import QObject
from philont_desktop.skills.loaders import (
    BoardLoad,
    SkillDetail,
    load_board_rows,
    load_detail,
    load_histories,
)
from philont_desktop.skills.state import BoardFilter, SkillsState, shown_key
from philont_desktop.tabs.controller import TabController
from philont_desktop.workers import Job


class SkillsController(TabController):
    layers = ("skills",)

    def __init__(self, ctx: Any, state: SkillsState, name: str, parent: QObject | None = None):
        super().__init__(ctx, state, name, parent)
        self.state: SkillsState = state
        #: How a grade is named in the texts of edits (the view sets its translated names).
        self.grade_name: Callable[[str], str] = lambda m: m
        #: The board's fixed time (tests, screenshots); ``None``: the clock.
        self.now: int | None = None

    # -- reading --------------------------------------------------------------------------------------
    def refresh(self) -> None:
        st = self.state
        st.update(loading=True)
        self.submit(
            ReadOp(
                load_board_rows,
                (st.sort, st.filter, self.now, st.skills),
                key="board",
                label=self.tr("Loading skills"),
            ),
            on_result=self._on_board,
            on_error=self._on_board_error,
        )

    def changes_applied(self, changes: Changes) -> None:
        self.refresh()

    def _on_board(self, load: BoardLoad) -> None:
        st = self.state
        if load.same and st.ready:
            st.update(error="", loading=False)
            return
        skills = load.skills
        first = not st.ready
        selected = st.selected if any(s.id == st.selected for s in skills) else None
        if first and selected is None and skills:
            # Start with the most recently used skill, so the pane below says something at once.
            selected = max(skills, key=lambda s: (s.last_used_at or -1, s.created_at)).id
        fresh = next((s for s in skills if s.id == selected), None)
        d = st.detail
        stale = d is None or fresh is None or d.skill.id != fresh.id or shown_key(d.skill) != shown_key(fresh)
        st.update(
            skills=skills,
            board=load.rows,
            ready=True,
            error="",
            loading=False,
            loaded=len(skills),
            selected=selected,
            detail=None if fresh is None else d,
        )
        if fresh is not None and stale:
            self._load_detail(fresh)

    def _on_board_error(self, exc: BaseException) -> None:
        self.state.update(error=messages.error_text(exc), loading=False)

    def select(self, skill_id: str | None) -> None:
        """Select a skill (``None``: none) and read its detail."""
        skill_id = skill_id or None
        if skill_id == self.state.selected:
            return
        skill = self.state.skill(skill_id)
        self.state.update(selected=skill_id if skill is not None else None, detail=None)
        if skill is not None:
            self._load_detail(skill)

    def _load_detail(self, skill: Skill) -> None:
        self.submit(
            ReadOp(
                load_detail,
                (skill.name,),
                key="detail",
                label=self.tr("Loading skill {0}").format(skill.name),
            ),
            on_result=lambda d, sid=skill.id: self._on_detail(sid, d),
        )

    def _on_detail(self, skill_id: str, detail: SkillDetail | None) -> None:
        if skill_id != self.state.selected:
            return
        self.state.update(detail=detail if detail is not None and detail.skill.id == skill_id else None)

    def load_histories(
        self, names: Sequence[str], done: Callable[[dict[str, list[bool]]], Any], failed: Callable[[], Any]
    ) -> Job:
        """The sparklines of ``names`` (``done(histories)``; ``failed()`` when they cannot be read)."""
        return self.submit(
            ReadOp(load_histories, (list(names),)), on_result=done, on_error=lambda _e: failed()
        )

    def set_filter(self, f: BoardFilter) -> None:
        self.state.update(filter=f)

    def set_sort(self, mode: str) -> None:
        self.state.update(sort=mode)

    def set_editing(self, on: bool) -> None:
        self.state.update(editing=bool(on))

    # -- curation -------------------------------------------------------------------------------------
    def apply_edit(self, text: str, build: Callable[[], Change]) -> Job | None:
        """Build a :class:`core.curation.Change` (``build()``) and run it as an audited, undoable edit."""
        try:
            change = build()
        except ValidationError_ as exc:
            self.ctx.show_error(self.tr("The change was not made"), exc)
            return None
        return self.curate(change, text, on_error=self._on_edit_error)

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
            self.tr("Set {0} to {1}").format(skill.name, self.grade_name(maturity)),
            lambda: skill_curation.set_maturity(skill, maturity, reason=reason),
        )

    def flip_kind(self, skill: Skill) -> Job | None:
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
