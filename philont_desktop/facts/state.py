"""What the Facts tab shows, without Qt: namespace, filters, view time, selection and the loaded rows.

The controller writes it (a load, the forget pool, a fact's history, the clock); the view turns user
input into controller calls and redraws from ``state.changed``. Times are epoch milliseconds: ``real_now``
is the clock, ``view_time`` the time the scores are shown at (``offset_days`` ahead of ``real_now``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.models import Fact
from philont_desktop.facts.columns import FactsQuery
from philont_desktop.facts.data import DAY_MS, THRESHOLD, FactsData
from philont_desktop.tabs.state import TabState

MAX_OFFSET_DAYS = 365  # the time control reaches a year ahead


@dataclass(eq=False)
class FactsState(TabState):
    """``selected`` is the current fact's id (history, what-if); ``selection`` every selected id."""

    namespace: str | None = None  # the namespace chosen in the tree (None: all)
    query: FactsQuery = field(default_factory=FactsQuery)
    offset_days: int = 0
    real_now: int = 0
    view_time: int = 0
    threshold: float = THRESHOLD
    data: FactsData | None = None  # the rows of the last load
    selection: tuple[str, ...] = ()
    pool: tuple[tuple[Fact, float], ...] = ()  # the forget candidates at pool_at, lowest score first
    pool_at: int = 0
    pool_now: int | None = None  # how many of the pool are candidates at real_now too
    history: tuple[Fact, ...] = ()  # the versions of the current fact, newest first
    history_of: str | None = None  # the fact id the history was loaded for
    editing: bool = False

    def view_time_at(self, real_now: int, offset_days: int | None = None) -> int:
        """The view time ``offset_days`` (default: the state's) after ``real_now``."""
        return int(real_now) + (self.offset_days if offset_days is None else offset_days) * DAY_MS

    @property
    def active(self) -> int:
        """Active facts loaded (not superseded, not forgotten), as the status bar counts them."""
        return self.data.active if self.data is not None else 0
