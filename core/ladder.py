"""The maturity ladder of a skill replayed from the action log (the Skills tab's and the change set's).

:func:`build_ladder` replays a skill's linked actions (``memory_actions.linked_skill``, oldest first)
through :func:`core.maturity.replay` from ``draft`` with zero counters, each revision of the recipe
(``revision_history``) resetting the grade to ``draft`` as ``revise_recipe`` does. The database's grade
may differ from where the replay ends (grades set by hand or by reflection are not in the action log);
callers show both.

Standard library and :mod:`core.maturity` only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from core.maturity import replay
from core.models import Skill
from core.skills import OutcomePoint

__all__ = ["Ladder", "LadderStep", "build_ladder"]


class LadderStep(NamedTuple):
    """One event of the ladder replay. ``kind`` is ``outcome`` or ``revision``; counts are after it."""

    at: int
    kind: str
    tool: str
    action_id: int | None
    success: bool | None
    success_count: int
    failure_count: int
    consecutive_failures: int
    before: str
    after: str
    reason: str = ""

    @property
    def changed(self) -> bool:
        return self.before != self.after


@dataclass
class Ladder:
    steps: list[LadderStep]
    grade: str  # the grade the replay ends on
    success_count: int
    failure_count: int
    consecutive_failures: int

    @property
    def changes(self) -> list[LadderStep]:
        """Grade changes and revisions (what the ladder view shows by default)."""
        return [s for s in self.steps if s.changed or s.kind == "revision"]


def build_ladder(skill: Skill, outcomes: Iterable[OutcomePoint]) -> Ladder:
    """Replay ``outcomes`` (oldest first) from ``draft`` with zero counters; revisions reset to ``draft``.

    A revision taking effect at the same millisecond as an action counts before it (``revision_outcomes``
    credits such an action to the new version too).
    """
    revisions = sorted(skill.revision_history, key=lambda r: r.at)
    events: list[tuple[int, int, Any]] = [(r.at, 0, r) for r in revisions]
    events += [(p.timestamp, 1, p) for p in outcomes]
    events.sort(key=lambda e: (e[0], e[1], getattr(e[2], "action_id", 0)))
    m, s, f, c = "draft", 0, 0, 0
    steps: list[LadderStep] = []
    run: list[OutcomePoint] = []

    def flush() -> None:
        # One replay per run of outcomes between two revisions (fast for long histories).
        nonlocal m, s, f, c
        if not run:
            return
        for p, st in zip(run, replay(m, [bool(p.success) for p in run], s, f, c), strict=True):
            steps.append(
                LadderStep(
                    p.timestamp,
                    "outcome",
                    p.tool_name,
                    p.action_id,
                    bool(p.success),
                    st.success_count,
                    st.failure_count,
                    st.consecutive_failures,
                    st.maturity_before,
                    st.maturity_after,
                )
            )
        last = steps[-1]
        m, s, f, c = last.after, last.success_count, last.failure_count, last.consecutive_failures
        run.clear()

    for at, kind, ev in events:
        if kind == 0:
            flush()
            steps.append(LadderStep(at, "revision", "", None, None, s, f, c, m, "draft", ev.reason))
            m = "draft"
        else:
            run.append(ev)
    flush()
    return Ladder(steps, m, s, f, c)
