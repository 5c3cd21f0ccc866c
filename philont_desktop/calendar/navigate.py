"""The Calendar tab's way in from other tabs: :class:`~philont_desktop.tabs.navigation.ShowTask` selects the
task in the list of every task, once the rows are loaded."""

from __future__ import annotations

from typing import Any

from philont_desktop.tabs.navigation import ShowTask, Target


class CalendarNavigation:
    """Mixed into the Calendar tab (before ``BaseTab``): its ``targets`` and ``navigate``."""

    targets = (ShowTask,)
    _wanted: str | None = None
    _listening = False

    def navigate(self, target: Target) -> bool:
        if not isinstance(target, ShowTask):
            return False
        tab: Any = self
        self._wanted = None
        if not tab.select("tasks", f"task:{target.task_id}"):
            self._wanted = target.task_id
            if not self._listening:
                self._listening = True
                tab.state.changed.connect(self._loaded_for_navigation)
        return True

    def _loaded_for_navigation(self, _names: frozenset[str]) -> None:
        tab: Any = self
        if self._wanted and tab.select("tasks", f"task:{self._wanted}"):
            self._wanted = None
