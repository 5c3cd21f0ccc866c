"""What the Review tab shows, without Qt: the baseline, the change set, what is reviewed and what is new."""

from __future__ import annotations

from dataclasses import dataclass

from core.changes import ChangeSet
from core.changes.marks import ReviewMark
from philont_desktop.tabs.state import TabState

__all__ = ["BACKUP", "MARK", "TIME", "Baseline", "ReviewState"]

MARK, TIME, BACKUP = "mark", "time", "backup"
DEFAULT_DAYS = 7
DAY_MS = 86_400_000


@dataclass(frozen=True)
class Baseline:
    """What the review compares with: the review mark (``MARK``; the last 7 days without one), a time
    (``TIME``, ``since``) or a backup file (``BACKUP``, ``backup``)."""

    kind: str = MARK
    since: int | None = None
    backup: str | None = None

    def since_for(self, mark: int | None, now: int) -> int:
        """The time a time-like baseline starts at."""
        if self.kind == TIME and self.since is not None:
            return self.since
        return mark if mark is not None else now - DEFAULT_DAYS * DAY_MS


@dataclass(eq=False)
class ReviewState(TabState):
    """``selected`` is the id of the change shown in the detail pane."""

    baseline: Baseline = Baseline()
    mark: int | None = None  # the database's review mark (None: never reviewed)
    changes: ChangeSet | None = None
    reviewed: frozenset[str] = frozenset()  # ids of changes marked "looks right" since the mark
    new_ids: frozenset[str] = frozenset()  # ids that arrived with a live refresh
    hide_reviewed: bool = False
    progress: tuple[int, int] | None = None  # a backup comparison under way
    error: str = ""
    editing: bool = False
    undo_mark: ReviewMark | None = None  # the mark before the last "Mark all reviewed" (None: no undo)
    undo_count: int = 0  # how many changes that "Mark all reviewed" took off the list
