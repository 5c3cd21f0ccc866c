"""Repair attempts of a recipe: the agent's skill self-repair, counted (spec Part B §2).

When a verified recipe fails in use, the agent demotes it to ``playbook``; its repair driver then
proposes a rewrite, and the rewrite is stored by ``reviseRecipe`` with a reason
``"skill_repair:<initiative id>: <diagnosis>"``. Every revision whose reason starts with
``skill_repair:`` counts as one attempt, consecutive or not; at :data:`MAX_REPAIR_ATTEMPTS` the agent
stops proposing repairs for the skill. Pure functions over :class:`core.models.Skill` and its
``revision_history`` (oldest first).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, Field

REPAIR_REASON_PREFIX = "skill_repair:"
MAX_REPAIR_ATTEMPTS = 3


def _reason(entry: Any) -> Any:
    return entry.get("reason") if isinstance(entry, Mapping) else getattr(entry, "reason", None)


def is_repair_reason(reason: Any) -> bool:
    """Whether a revision's reason marks it as one of the agent's repair attempts."""
    return isinstance(reason, str) and reason.startswith(REPAIR_REASON_PREFIX)


def parse_repair_reason(reason: Any) -> tuple[str, str] | None:
    """``(initiative id, diagnosis)`` of a repair reason, or None for any other reason.

    ``"skill_repair:init-1f3a: the prune step missed a folder"`` gives ``("init-1f3a", "the prune step
    missed a folder")``; a reason without the second colon gives ``(rest, "")``.
    """
    if not is_repair_reason(reason):
        return None
    rest = reason[len(REPAIR_REASON_PREFIX) :]
    initiative, sep, diagnosis = rest.partition(":")
    if not sep:
        return rest.strip(), ""
    return initiative.strip(), diagnosis.strip()


class RepairAttempts(BaseModel):
    """How many times the agent tried to repair a recipe, against its limit ("2 of 3")."""

    count: int = 0
    limit: int = MAX_REPAIR_ATTEMPTS
    revisions: list[int] = Field(default_factory=list)  # indexes into revision_history, oldest first

    @property
    def exhausted(self) -> bool:
        """The agent proposes no further repair (``repairAttemptsExhausted``)."""
        return self.count >= self.limit

    def to_json(self) -> dict[str, Any]:
        return {
            "count": self.count,
            "limit": self.limit,
            "exhausted": self.exhausted,
            "revisions": self.revisions,
        }


def repair_attempts(revision_history: Sequence[Any]) -> RepairAttempts:
    """The repair attempts among ``revision_history`` (snapshots or their JSON objects)."""
    idx = [i for i, entry in enumerate(revision_history) if is_repair_reason(_reason(entry))]
    return RepairAttempts(count=len(idx), revisions=idx)


def is_repair_candidate(skill: Any) -> bool:
    """``isRepairCandidate``: a demoted recipe (maturity ``playbook`` with a verification)."""
    return getattr(skill, "maturity", None) == "playbook" and getattr(skill, "verification", None) is not None


__all__ = [
    "MAX_REPAIR_ATTEMPTS",
    "REPAIR_REASON_PREFIX",
    "RepairAttempts",
    "is_repair_candidate",
    "is_repair_reason",
    "parse_repair_reason",
    "repair_attempts",
]
