"""Navigation between tabs without importing them: targets and the navigator (Qt-free).

A tab that wants another tab to show something never imports that tab: it asks the navigator with a
target, a small frozen dataclass naming the tab (``tab``) and what to show::

    self.ctx.navigator.go(ShowTime(action.timestamp))   # the Actions tab: "messages around this call"

The window's navigator builds (if needed) and selects the target's tab, then calls its
``navigate(target)`` hook, which returns whether it could show the target. A tab that can be navigated
to lists the target types it accepts in ``BaseTab.targets``. Add a target type here when a tab gains a
way in; the registry's tab name is its ``tab``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol


@dataclass(frozen=True)
class Target:
    """Something a tab can show. Subclasses set ``tab`` to the registered name of that tab."""

    tab: ClassVar[str] = ""


@dataclass(frozen=True)
class ShowTime(Target):
    """The messages around a moment (epoch ms): in ``conversation`` (an id of
    :mod:`core.conversations`), or else in the conversation the moment belongs to, when it can be told."""

    tab: ClassVar[str] = "timeline"
    timestamp: int
    conversation: str | None = None


@dataclass(frozen=True)
class ShowMessage(Target):
    """One message of the timeline, with the messages around it."""

    tab: ClassVar[str] = "timeline"
    message_id: int


@dataclass(frozen=True)
class ShowNote(Target):
    tab: ClassVar[str] = "notes"
    note_id: str


@dataclass(frozen=True)
class ShowFacts(Target):
    """Facts selected in the Facts tab (every version named, whatever the namespace shown)."""

    tab: ClassVar[str] = "facts"
    fact_ids: tuple[str, ...]


@dataclass(frozen=True)
class ShowSkill(Target):
    tab: ClassVar[str] = "skills"
    skill_id: str


@dataclass(frozen=True)
class ShowTask(Target):
    """A scheduled task, in the Calendar tab's list of every task."""

    tab: ClassVar[str] = "calendar"
    task_id: str


@dataclass(frozen=True)
class ShowAuditEntry(Target):
    tab: ClassVar[str] = "audit"
    audit_id: int


class Navigable(Protocol):
    def navigate(self, target: Target) -> bool: ...


class Navigator:
    """Shows targets in the tab they name; ``show_tab(name)`` builds and selects a tab (the window's).

    Without a window (a tab tested alone) nothing can be shown and :meth:`go` returns ``False``.
    """

    def __init__(self, show_tab: Callable[[str], Any] | None = None):
        self._show_tab = show_tab
        self.history: list[Target] = []  # targets shown, oldest first (a "back" action can use it)

    def can_go(self, target: Target) -> bool:
        return self._show_tab is not None and bool(target.tab)

    def go(self, target: Target) -> bool:
        """Select ``target.tab`` and let it show ``target``; ``False`` when no tab could show it."""
        if not isinstance(target, Target) or not target.tab:
            raise TypeError(f"not a navigation target: {target!r}")
        if self._show_tab is None:
            return False
        tab = self._show_tab(target.tab)
        if tab is None:
            return False
        navigate = getattr(tab, "navigate", None)
        ok = bool(navigate(target)) if callable(navigate) else False
        if ok:
            self.history.append(target)
        return ok
