"""The agent's repair attempts of a recipe in words: "repair attempts 2 of 3", "repair 2/3".

The count comes from :func:`core.repair.repair_attempts`: each revision whose reason starts with
``skill_repair:`` is one attempt; at the limit (3) the agent proposes no further repair.
"""

from __future__ import annotations

from typing import Any

from core.repair import MAX_REPAIR_ATTEMPTS, RepairAttempts, parse_repair_reason, repair_attempts
from philont_desktop.qt import QCoreApplication


def attempts_of(skill: Any) -> RepairAttempts:
    return repair_attempts(getattr(skill, "revision_history", None) or [])


def attempts_text(r: RepairAttempts) -> str:
    """``repair attempts 2 of 3`` (and that the agent stops, at the limit)."""
    text = QCoreApplication.translate("SkillRepairs", "repair attempts {0} of {1}").format(r.count, r.limit)
    if r.exhausted:
        text += QCoreApplication.translate("SkillRepairs", ": the agent proposes no further repair")
    return text


def badge_text(r: RepairAttempts) -> str:
    """The card's short badge: ``repair 2/3``."""
    return QCoreApplication.translate("SkillRepairs", "repair {0}/{1}").format(r.count, r.limit)


def attempt_number(r: RepairAttempts, history_index: int) -> int | None:
    """Which attempt (1-based) the revision that replaced ``revision_history[history_index]`` was."""
    try:
        return r.revisions.index(history_index) + 1
    except ValueError:
        return None


def reason_text(reason: str | None, number: int | None, limit: int = MAX_REPAIR_ATTEMPTS) -> str:
    """A revision's reason; a repair's as ``repair attempt 1 of 3 (init-1f3a): the diagnosis``."""
    parsed = parse_repair_reason(reason)
    if parsed is None or number is None:
        return reason or ""
    initiative, diagnosis = parsed
    head = QCoreApplication.translate("SkillRepairs", "repair attempt {0} of {1}").format(number, limit)
    if initiative:
        head += f" ({initiative})"
    return f"{head}: {diagnosis}" if diagnosis else head
