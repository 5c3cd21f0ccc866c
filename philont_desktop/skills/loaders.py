"""The reads of the Skills tab, run off the GUI thread (``fn(db, ...)``; core APIs only).

* :func:`load_board`: every skill;
* :func:`load_board_rows`: every skill, and the board's rows prepared for a sort mode and filter
  (:class:`~philont_desktop.skills.rows.BoardRows`), and whether anything changed since the last read;
* :func:`load_histories`: the recent linked outcomes of some skills, for the card sparklines (asked for
  only when a card is painted);
* :func:`load_detail`: one skill with its whole outcome history, revision windows, ladder replay and
  repair attempts.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.curation.skills import skill_version
from core.ladder import Ladder, build_ladder
from core.maturity import Explanation, explain_maturity
from core.models import Skill
from core.repair import RepairAttempts, repair_attempts
from core.skills import OutcomePoint, RevisionWindow, SkillStore
from philont_desktop.skills.rows import BoardRows
from philont_desktop.skills.state import BoardFilter

#: Outcomes shown in a card's sparkline (the newest ones).
HISTORY_LENGTH = 24


def load_board(db: Any) -> list[Skill]:
    """Every skill, deprecated included, in rowid order."""
    return SkillStore(db).list_every()


@dataclass
class BoardLoad:
    """A read of the board: the skills in rowid order, their rows prepared, and whether the skills are
    the same as the ones the read was given (nothing to show anew then)."""

    skills: tuple[Skill, ...]
    rows: BoardRows
    same: bool


def load_board_rows(
    db: Any,
    mode: str = "name",
    flt: BoardFilter | None = None,
    now: int | None = None,
    previous: Sequence[Skill] = (),
) -> BoardLoad:
    """Every skill, with the rows of the board prepared for ``mode`` and ``flt`` at ``now`` (see
    :class:`~philont_desktop.skills.rows.BoardRows`); ``previous``: the skills shown (compared here, off
    the GUI thread: comparing 2,000 skills takes ~10 ms)."""
    skills = tuple(SkillStore(db).list_every())
    same = len(skills) == len(previous) and skills == tuple(previous)
    return BoardLoad(skills, BoardRows(skills, mode, flt if flt is not None else BoardFilter(), now), same)


def load_histories(
    db: Any, names: Sequence[str], limit: int = HISTORY_LENGTH, job: Any = None
) -> dict[str, list[bool]]:
    """The newest ``limit`` linked outcomes (oldest first) of each skill in ``names``."""
    store = SkillStore(db)
    out: dict[str, list[bool]] = {}
    for name in names:
        if job is not None and job.cancelled:
            break
        out[name] = [p.success for p in store.outcome_history(name, limit)]
    return out


@dataclass
class SkillDetail:
    """Everything the detail pane shows about one skill."""

    skill: Skill
    version: str
    explanation: Explanation
    outcomes: list[OutcomePoint]
    windows: list[RevisionWindow]
    ladder: Ladder
    loaded_at: int = 0
    repairs: RepairAttempts | None = None


def load_detail(db: Any, name: str) -> SkillDetail | None:
    store = SkillStore(db)
    skill = store.get_by_name(name)
    if skill is None:
        return None
    outcomes = store.outcome_history(name)
    windows = store.revision_outcomes(name)
    return SkillDetail(
        skill=skill,
        version=skill_version(skill),
        explanation=explain_maturity(
            skill.maturity, skill.success_count, skill.failure_count, skill.consecutive_failures
        ),
        outcomes=outcomes,
        windows=windows,
        ladder=build_ladder(skill, outcomes),
        loaded_at=int(time.time() * 1000),
        repairs=repair_attempts(skill.revision_history),
    )
