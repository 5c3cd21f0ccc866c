"""What the Actions tab shows, without Qt: the filter, the action in the detail pane, the lists the
filters offer and the failure rates."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.models import Action
from philont_desktop.tabs.state import TabState

MAX_TOOLS = 12  # the failure-rate chart shows the most called tools, this many at most


def chart_height(metrics: Any, tools: int) -> int:
    """The height the failure-rate chart asks for with ``tools`` tools' numbers, in the font of
    ``metrics`` (a ``QFontMetrics``)."""
    return min(320, 60 + int(metrics.height() * 1.3) * max(3, min(tools, MAX_TOOLS)))


@dataclass(frozen=True)
class ActionsFilter:
    tool: str | None = None
    success: bool | None = None
    linked_skill: str | None = None

    def kwargs(self) -> dict[str, Any]:
        return {"tool": self.tool, "success": self.success, "linked_skill": self.linked_skill}


@dataclass(eq=False)
class ActionsState(TabState):
    filter: ActionsFilter = ActionsFilter()
    shown: Action | None = None  # the action in the detail pane
    tools: tuple[str, ...] = ()  # what the tool filter offers
    skills: tuple[str, ...] = ()  # what the linked-skill filter offers
    stats: tuple[Any, ...] = ()  # core.actions.ToolStat per tool: the failure rates

    def total(self) -> int | None:
        """How many actions the filter admits, from the per-tool counts (``None``: not known, as with
        a linked-skill filter, or before the counts are read)."""
        flt = self.filter
        if flt.linked_skill is not None or not self.stats:
            return None
        stats = [s for s in self.stats if flt.tool is None or s.tool == flt.tool]
        if flt.success is None:
            return sum(s.total for s in stats)
        return sum(s.total - s.failures if flt.success else s.failures for s in stats)
