"""What the Skills tab shows, without Qt: the loaded skills, the filter and sort, the selected skill and
its detail, editing mode, and why the board could not be read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core.models import Skill
from philont_desktop.tabs.state import TabState

if TYPE_CHECKING:
    from philont_desktop.skills.loaders import SkillDetail
    from philont_desktop.skills.rows import BoardRows

#: The board's columns, in ladder order (playbook first: a lesson that is not callable).
BOARD_COLUMNS: tuple[str, ...] = ("playbook", "draft", "confirmed", "stable", "deprecated")
SORT_MODES: tuple[str, ...] = ("name", "uses", "recent", "successes", "failures", "score", "newest")
KINDS: tuple[str, ...] = ("all", "positive", "negative")
SOURCES: tuple[str, ...] = ("all", "self", "external", "none")


def source_class(skill: Skill) -> str:
    """``self`` (learned by the agent: ``self:…``), ``external`` (imported, or from disk) or ``none``."""
    src = skill.source or ""
    if src.startswith("self:"):
        return "self"
    if src or skill.from_disk:
        return "external"
    return "none"


def shown_key(s: Skill) -> tuple[Any, ...]:
    """What the board shows of a skill: a changed key means the row is updated."""
    last = s.revision_history[-1].at if s.revision_history else None
    return (
        s.name,
        s.description,
        s.trigger_keywords_json,
        s.action_template,
        s.kind,
        s.source,
        s.when_to_use,
        s.maturity_raw,
        s.maturity,
        s.verification,
        s.tool_policy,
        len(s.revision_history),
        last,
        s.use_count,
        s.last_used_at,
        s.success_count,
        s.failure_count,
        s.consecutive_failures,
        s.offered_count,
        s.matched_count,
        s.from_disk,
        s.rowid,
    )


@dataclass(frozen=True)
class BoardFilter:
    """The filter shared by the five columns: words (all must appear), kind, source, recipes only."""

    text: str = ""
    kind: str = "all"  # all | positive | negative
    source: str = "all"  # all | self | external | none
    recipes_only: bool = False
    terms: tuple[str, ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "terms", tuple(t for t in self.text.casefold().split() if t))

    def with_(self, **values: Any) -> BoardFilter:
        """A copy with ``values`` changed (``None`` values are left as they are)."""
        now = {k: getattr(self, k) for k in ("text", "kind", "source", "recipes_only")}
        now.update({k: v for k, v in values.items() if v is not None})
        return BoardFilter(**now)

    @property
    def active(self) -> bool:
        return bool(self.terms) or self.kind != "all" or self.source != "all" or self.recipes_only


@dataclass(eq=False)
class SkillsState(TabState):
    """``selected`` is the id of the selected skill (``None``: none); ``detail`` is what is known of it."""

    skills: tuple[Skill, ...] = ()  # every skill, in rowid order, as last read
    board: BoardRows | None = None  # the same skills prepared for the board (compared by identity)
    ready: bool = False  # the board was read at least once
    error: str = ""  # why the last read of the board failed ("" when it worked)
    filter: BoardFilter = BoardFilter()
    sort: str = "name"
    detail: SkillDetail | None = None  # the selected skill's detail, once read
    editing: bool = False

    def skill(self, skill_id: str | None) -> Skill | None:
        """The loaded skill with ``skill_id``."""
        if not skill_id:
            return None
        return next((s for s in self.skills if s.id == skill_id), None)

    def selected_skill(self) -> Skill | None:
        """The selected skill as last read (the detail's copy when it is loaded)."""
        d = self.detail
        if d is not None and d.skill.id == self.selected:
            return d.skill
        return self.skill(self.selected)  # type: ignore[arg-type]
