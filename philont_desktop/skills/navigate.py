"""The Skills tab's way in from other tabs: :class:`~philont_desktop.tabs.navigation.ShowSkill` selects the
skill's card, once the board is loaded."""

from __future__ import annotations

from typing import Any

from philont_desktop.tabs.navigation import ShowSkill, Target


class SkillsNavigation:
    """Mixed into the Skills tab (before ``BaseTab``): its ``targets`` and ``navigate``."""

    targets = (ShowSkill,)
    _wanted: str | None = None
    _listening = False

    def navigate(self, target: Target) -> bool:
        if not isinstance(target, ShowSkill):
            return False
        tab: Any = self
        self._wanted = target.skill_id
        if not tab.board.select_skill(target.skill_id) and not self._listening:
            self._listening = True
            tab.state.changed.connect(self._loaded_for_navigation)
        else:
            self._wanted = None
        return True

    def _loaded_for_navigation(self, _names: frozenset[str]) -> None:
        tab: Any = self
        if self._wanted and tab.board.select_skill(self._wanted):
            self._wanted = None
