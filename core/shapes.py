"""The JSON shape of each kind of row as the front ends give it (``philont-memory --json`` and the MCP
server): the row's own JSON form (``to_json()``: the reference's camelCase fields, ``jsonErrors``,
``damaged``) plus what is computed about it at ``now``.

``FACT``, ``SKILL`` and ``AUDIT`` are described with the command line (README); messages, notes,
conversations and calendar items are their models' ``to_json()`` as they are.
"""

from __future__ import annotations

import math
from typing import Any

from core.audit import summarize
from core.decay import effective_tau, is_pinned, score_memory, tau_source
from core.maturity import is_callable_maturity
from core.repair import repair_attempts
from core.skills import score_skill

__all__ = ["audit_json", "backup_json", "fact_json", "fact_status", "skill_json", "upcoming_json"]

_SKILL_FIELDS = (
    "name", "id", "kind", "maturity", "source", "description", "triggerKeywords", "whenToUse",
    "useCount", "successCount", "failureCount", "consecutiveFailures", "lastUsedAt",
    "lastSuccessAt", "lastFailureAt", "offeredCount", "matchedCount", "createdAt",
)  # fmt: skip


def fact_status(fact: Any) -> str:
    """``forgotten``, ``superseded`` or ``active``."""
    if fact.forgotten_at is not None:
        return "forgotten"
    if fact.superseded_by is not None:
        return "superseded"
    return "active"


def fact_json(fact: Any, now: int) -> dict[str, Any]:
    """A fact's JSON form plus status, pin, effective tau and score at ``now``."""
    out = fact.to_json()
    tau = effective_tau(fact.namespace, fact.decay_tau_days)
    out["status"] = fact_status(fact)
    out["pinned"] = is_pinned(fact.decay_tau_days)
    out["tauDays"] = tau if math.isfinite(tau) else None
    out["tauSource"] = tau_source(fact.namespace, fact.decay_tau_days)
    out["score"] = score_memory(
        fact.namespace, fact.confidence, fact.created_at, fact.last_accessed_at, fact.decay_tau_days, now
    )
    return out


def skill_json(skill: Any, now: int) -> dict[str, Any]:
    """A skill's counters, maturity and recipe facts, with its ranking score at ``now``."""
    j = skill.to_json()
    out = {k: j[k] for k in _SKILL_FIELDS}
    out["callable"] = is_callable_maturity(skill.maturity)
    out["isRecipe"] = skill.is_recipe
    out["verification"] = skill.verification
    out["toolPolicy"] = skill.tool_policy
    out["revisionCount"] = len(skill.revision_history)
    out["repairAttempts"] = repair_attempts(skill.revision_history).count
    out["fromDisk"] = bool(skill.from_disk)
    out["score"] = score_skill(skill, now)
    out["jsonErrors"] = j["jsonErrors"]
    out["damaged"] = j["damaged"]
    return out


def audit_json(entry: Any) -> dict[str, Any]:
    """An audit entry with the edit it refers to, whether it is undone and a one-word summary."""
    return {
        "id": entry.id,
        "at": entry.at,
        "actor": entry.actor,
        "action": entry.action,
        "targetType": entry.target_type,
        "targetId": entry.target_id,
        "before": entry.before,
        "after": entry.after,
        "undoneOf": entry.undone_of,
        "note": entry.note,
        "undone": entry.undone,
        "originalAction": entry.original_action,
        "summary": summarize(entry.before, entry.after),
        "jsonErrors": entry.json_errors,
    }


def upcoming_json(item: Any) -> dict[str, Any]:
    """An event occurrence or a task run of ``upcoming``, with why a task's payload does not parse."""
    return {**item.to_json(), "payloadError": item.payload_error}


def backup_json(info: Any) -> dict[str, Any]:
    """A file of ``backups/`` (:class:`core.backups.BackupInfo`): owner, time, age, size, kind, check."""
    return {
        "name": info.name,
        "path": str(info.path),
        "owner": info.owner,
        "createdAt": info.created_at,
        "age": info.age,
        "size": info.size,
        "kind": info.journal,
        "quickCheck": info.quick_check,
    }
