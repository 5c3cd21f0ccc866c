"""The Facts tab's way in from other tabs: :class:`~philont_desktop.tabs.navigation.ShowFacts` selects the
facts named (every namespace shown), once the rows are loaded."""

from __future__ import annotations

from typing import Any

from philont_desktop.tabs.navigation import ShowFacts, Target


class FactsNavigation:
    """Mixed into the Facts tab (before ``BaseTab``): its ``targets`` and ``navigate``."""

    targets = (ShowFacts,)
    _wanted: list[str] | None = None

    def navigate(self, target: Target) -> bool:
        if not isinstance(target, ShowFacts):
            return False
        tab: Any = self
        first = self._wanted is None
        self._wanted = list(target.fact_ids)
        if tab.state.data is not None and tab.model.rowCount():
            self._select_wanted()
        elif first:
            tab.state.changed.connect(self._loaded_for_navigation)
        return True

    def _loaded_for_navigation(self, names: frozenset[str]) -> None:
        tab: Any = self
        if "data" in names and tab.state.data is not None and self._wanted:
            self._select_wanted()

    def _select_wanted(self) -> None:
        tab: Any = self
        wanted, self._wanted = self._wanted or [], []
        tab.select_namespace(None)
        tab.select_ids(wanted)
