"""What the Context tab shows, without Qt: the inputs of the preview and what was computed from them.

The inputs are the arguments of :func:`core.context.build_context`: the message typed, the sessions
the timeline is restricted to, the budgets, the home conversation, the host OS, the time-travel point
(a past user message: only what existed before it) and a fixed "now" (tests, screenshots). What was
computed: the preview (``result``), the preview shown while the recall search still runs
(``provisional``), whether the recall explanation's word counts and keyword query are still coming
(``explaining``), the pinned preview, the comparison with it, and the phase the status line tells.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.context import DEFAULTS, ContextResult
from core.models import Message
from philont_desktop.context_tab.model import ContextInputs
from philont_desktop.tabs.state import TabState

#: What the status line says: nothing typed yet, computing, the recall search still running, shown,
#: failed, or the picked message no longer exists.
PHASES = ("idle", "computing", "searching", "shown", "failed", "gone")


@dataclass(frozen=True)
class Budgets:
    """The retriever's budgets (``philont-memory context --recent-budget`` ...)."""

    recent_budget: int = DEFAULTS["recent_budget"]
    recall_budget: int = DEFAULTS["recall_budget"]
    recent_limit: int = DEFAULTS["recent_limit"]
    recall_limit: int = DEFAULTS["recall_limit"]


@dataclass(frozen=True)
class TimePoint:
    """ "What did the agent see here?": the preview as of this past user message.

    ``set_sessions``/``set_home``: the pick restricted the timeline to the message's scheduled session,
    or made its conversation the home conversation (the banner says so)."""

    message: Message
    set_sessions: bool = False
    set_home: bool = False

    @property
    def timestamp(self) -> int:
        return int(self.message.timestamp)

    @property
    def message_id(self) -> int:
        return int(self.message.id)


@dataclass(frozen=True)
class Pinned:
    """A preview kept for comparison, and when it was pinned (epoch ms)."""

    result: ContextResult
    at: int


@dataclass(eq=False)
class ContextState(TabState):
    # -- inputs ---------------------------------------------------------------------------------------
    message: str = ""
    session_ids: tuple[str, ...] = ()
    budgets: Budgets = Budgets()
    home: str | None = None  # the home conversation's id
    host_os: str | None = None  # None: this machine
    as_of: TimePoint | None = None
    fixed_now: int | None = None
    # -- what was computed ------------------------------------------------------------------------------
    result: ContextResult | None = None
    provisional: ContextResult | None = None  # shown while the recall search still runs
    explaining: bool = False  # the recall explanation's details are being computed
    phase: str = "idle"
    error: str | None = None
    pinned: Pinned | None = None
    diff: Any = None  # DiffResult of the pinned preview against the current one
    expanded: frozenset[str] = frozenset()  # prefix sections shown in full
    sessions: tuple[Any, ...] = ()  # model.SessionChoice, newest first (the session restriction)

    def inputs(self) -> ContextInputs:
        """The arguments of the next computation."""
        b = self.budgets
        return ContextInputs(
            message=self.message,
            session_ids=tuple(self.session_ids),
            recent_budget=b.recent_budget,
            recall_budget=b.recall_budget,
            recent_limit=b.recent_limit,
            recall_limit=b.recall_limit,
            host_os=self.host_os or None,
            home_session_id=self.home or None,
            as_of=None if self.as_of is None else self.as_of.timestamp,
            as_of_id=None if self.as_of is None else self.as_of.message_id,
            now=self.fixed_now,
        )

    @property
    def shown(self) -> ContextResult | None:
        """The preview on screen: the provisional one while the recall search runs, else the result."""
        return self.provisional or self.result
