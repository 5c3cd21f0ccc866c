"""core.repair: the agent's repair attempts of a recipe, counted against its limit of 3."""

from __future__ import annotations

import json

import pytest

from core.models import parse_revision_history
from core.repair import (
    MAX_REPAIR_ATTEMPTS,
    is_repair_candidate,
    is_repair_reason,
    parse_repair_reason,
    repair_attempts,
)
from core.skills import SkillStore


def _history(*reasons):
    return [
        {"at": i, "actionTemplate": "x", "verification": None, "toolPolicy": None, "reason": r}
        for i, r in enumerate(reasons)
    ]


def test_repairs_are_counted_wherever_they_are_in_the_history():
    hist = parse_revision_history(
        json.dumps(_history("skill_repair:a: x", "manual fix", "skill_repair:b: y", "Skill_repair:c"))
    )
    got = repair_attempts(hist)
    assert (got.count, got.limit, got.exhausted, got.revisions) == (2, MAX_REPAIR_ATTEMPTS, False, [0, 2])
    assert got.to_json() == {"count": 2, "limit": 3, "exhausted": False, "revisions": [0, 2]}
    third = repair_attempts(_history("skill_repair:a", "skill_repair:b", "owner", "skill_repair:c"))
    assert (third.count, third.exhausted) == (3, True)
    assert repair_attempts([]).count == 0


@pytest.mark.parametrize(
    ("reason", "parsed"),
    [
        (
            "skill_repair:init-1f3a: the prune step missed a folder",
            ("init-1f3a", "the prune step missed a folder"),
        ),
        ("skill_repair:init-9", ("init-9", "")),
        ("skill_repair:: empty id", ("", "empty id")),
        (" skill_repair:x: y", None),
        ("owner asked", None),
        (None, None),
        (42, None),
    ],
)
def test_a_repair_reason_names_its_initiative_and_diagnosis(reason, parsed):
    assert parse_repair_reason(reason) == parsed
    assert is_repair_reason(reason) is (parsed is not None)


def test_a_candidate_is_a_demoted_recipe(mem_db):
    store = SkillStore(mem_db)
    recipe = store.create_skill(
        "r", "d", ["k"], "steps", verification={"kind": "assert", "check": "c"}, tool_policy=["shell"]
    )
    store.create_skill("l", "d", ["k"], "steps")
    assert not is_repair_candidate(recipe)
    store.set_maturity("r", "playbook")
    store.set_maturity("l", "playbook")
    assert is_repair_candidate(store.get_by_name("r"))
    assert not is_repair_candidate(store.get_by_name("l"))
