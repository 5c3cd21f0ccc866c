"""Skill maturity: the newer state machine (Part A §3.1 + Part B §4), helpers, replay, explanations."""

from __future__ import annotations

import itertools

import pytest

from core.maturity import (
    CONFIRMED_MIN_SUCCESS,
    DEPRECATED_CONSECUTIVE_FAILURES,
    DEPRECATED_FAILURE_RATIO,
    DEPRECATED_RATIO_MIN_SUCCESS,
    MATURITIES,
    STABLE_MAX_FAILURE_RATIO,
    STABLE_MIN_SUCCESS,
    Explanation,
    ReplayStep,
    explain_maturity,
    is_callable_maturity,
    maturity_caveat,
    next_maturity,
    parse_maturity,
    replay,
)


def test_constants():
    assert CONFIRMED_MIN_SUCCESS == 2
    assert STABLE_MIN_SUCCESS == 5
    assert STABLE_MAX_FAILURE_RATIO == 0.1
    assert DEPRECATED_CONSECUTIVE_FAILURES == 3
    assert DEPRECATED_RATIO_MIN_SUCCESS == 5
    assert DEPRECATED_FAILURE_RATIO == 0.3
    assert MATURITIES == ("playbook", "draft", "confirmed", "stable", "deprecated")


def test_maturities_agree_with_the_row_models():
    from core.models import MATURITIES as MODEL_MATURITIES

    assert set(MATURITIES) == set(MODEL_MATURITIES)


# --- the state machine, branch by branch ----------------------------------------------------------
# (current, success, failure, consecutive, outcome, expected); counts are post-update values.
MACHINE_TABLE = [
    # playbook: stays, except a failure with >= 3 consecutive failures (the newer rule)
    ("playbook", 0, 0, 0, "success", "playbook"),
    ("playbook", 50, 0, 0, "success", "playbook"),
    ("playbook", 0, 1, 1, "failure", "playbook"),
    ("playbook", 0, 2, 2, "failure", "playbook"),
    ("playbook", 0, 3, 3, "failure", "deprecated"),
    ("playbook", 4, 9, 7, "failure", "deprecated"),
    ("playbook", 10, 9, 2, "failure", "playbook"),  # the ratio rule does not apply to playbooks
    ("playbook", 0, 3, 3, "success", "playbook"),  # a success never deprecates
    # deprecated: terminal
    ("deprecated", 100, 0, 0, "success", "deprecated"),
    ("deprecated", 0, 1, 1, "failure", "deprecated"),
    # draft, success path
    ("draft", 1, 0, 0, "success", "draft"),
    ("draft", 2, 0, 0, "success", "confirmed"),
    ("draft", 9, 0, 0, "success", "confirmed"),  # never skips to stable
    ("draft", 2, 1, 0, "success", "draft"),  # any failure blocks confirmation
    ("draft", 20, 1, 0, "success", "draft"),
    # confirmed, success path
    ("confirmed", 4, 0, 0, "success", "confirmed"),
    ("confirmed", 5, 0, 0, "success", "stable"),
    ("confirmed", 10, 0, 0, "success", "stable"),
    ("confirmed", 10, 1, 0, "success", "confirmed"),  # 1/10 = 0.1 is not < 0.1
    ("confirmed", 11, 1, 0, "success", "stable"),
    ("confirmed", 30, 3, 0, "success", "confirmed"),  # 3/30 == 0.1 in floating point
    ("confirmed", 31, 3, 0, "success", "stable"),
    # stable, success path
    ("stable", 6, 0, 0, "success", "stable"),
    ("stable", 6, 5, 0, "success", "stable"),
    # failure path: consecutive failures
    ("draft", 0, 3, 3, "failure", "deprecated"),
    ("confirmed", 10, 3, 3, "failure", "deprecated"),
    ("stable", 100, 3, 3, "failure", "deprecated"),
    # failure path: ratio (success >= 5 and failure/success > 0.3)
    ("stable", 10, 4, 1, "failure", "deprecated"),
    ("stable", 10, 3, 1, "failure", "confirmed"),  # 0.3 is not > 0.3
    ("confirmed", 5, 2, 1, "failure", "deprecated"),
    ("draft", 4, 2, 2, "failure", "draft"),  # success < 5: no ratio rule
    ("draft", 5, 2, 1, "failure", "deprecated"),
    # failure path: one tier down
    ("stable", 20, 1, 1, "failure", "confirmed"),
    ("confirmed", 3, 1, 1, "failure", "draft"),
    ("draft", 1, 1, 1, "failure", "draft"),
    ("draft", 0, 2, 2, "failure", "draft"),
    # unknown grades are kept unless deprecated (as in the reference)
    ("legendary", 9, 0, 0, "success", "legendary"),
    ("legendary", 0, 1, 1, "failure", "legendary"),
    ("legendary", 0, 3, 3, "failure", "deprecated"),
]


@pytest.mark.parametrize(("current", "s", "f", "c", "outcome", "expected"), MACHINE_TABLE)
def test_next_maturity_table(current, s, f, c, outcome, expected):
    assert next_maturity(current, s, f, c, outcome) == expected
    # booleans are accepted for the outcome too
    assert next_maturity(current, s, f, c, outcome == "success") == expected


def _spec_next(current, s, f, c, outcome):
    """Independent transcription of the spec rules, for the exhaustive cross-check."""
    if current == "playbook":
        return "deprecated" if outcome == "failure" and c >= 3 else "playbook"
    if current == "deprecated":
        return "deprecated"
    if outcome == "success":
        if current == "draft" and s >= 2 and f == 0:
            return "confirmed"
        if current == "confirmed" and s >= 5 and f / max(1, s) < 0.1:
            return "stable"
        return current
    if c >= 3 or (s >= 5 and f / max(1, s) > 0.3):
        return "deprecated"
    return {"stable": "confirmed", "confirmed": "draft"}.get(current, current)


def test_next_maturity_exhaustive_against_the_spec_rules():
    grades = [*MATURITIES, "unknown"]
    for current, s, f, c, outcome in itertools.product(
        grades, range(0, 16), range(0, 16), range(0, 5), ("success", "failure")
    ):
        assert next_maturity(current, s, f, c, outcome) == _spec_next(current, s, f, c, outcome), (
            current,
            s,
            f,
            c,
            outcome,
        )


def test_any_non_success_outcome_takes_the_failure_path():
    assert next_maturity("confirmed", 3, 1, 1, "oops") == "draft"
    assert next_maturity("confirmed", 3, 1, 1, False) == "draft"


def test_the_machine_never_enters_playbook():
    for current, s, f, c, outcome in itertools.product(
        ("draft", "confirmed", "stable", "deprecated"), range(8), range(8), range(4), ("success", "failure")
    ):
        assert next_maturity(current, s, f, c, outcome) != "playbook"


# --- helpers ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("m", "callable_", "caveat"),
    [
        ("playbook", False, "[lesson-only, no use_skill]"),
        ("draft", True, "[draft · not fully validated, verify before use]"),
        ("confirmed", True, "[confirmed]"),
        ("stable", True, "[stable]"),
        ("deprecated", False, "[deprecated · verified unreliable, use as a counter-example]"),
        ("Draft", False, ""),
        ("", False, ""),
    ],
)
def test_callable_and_caveat(m, callable_, caveat):
    assert is_callable_maturity(m) is callable_
    assert maturity_caveat(m) == caveat


def test_caveat_uses_the_middle_dot():
    assert "\u00b7" in maturity_caveat("draft")
    assert "\u00b7" in maturity_caveat("deprecated")


@pytest.mark.parametrize(
    ("s", "fallback", "expected"),
    [
        ("playbook", "draft", "playbook"),
        ("draft", "stable", "draft"),
        ("confirmed", "draft", "confirmed"),
        ("stable", "draft", "stable"),
        ("deprecated", "draft", "deprecated"),
        ("Stable", "draft", "draft"),
        (" stable", "draft", "draft"),
        ("", "draft", "draft"),
        (None, "draft", "draft"),
        (3, "draft", "draft"),
        ("weird", "playbook", "playbook"),
    ],
)
def test_parse_maturity(s, fallback, expected):
    assert parse_maturity(s, fallback) == expected


def test_parse_maturity_default_fallback():
    assert parse_maturity("nope") == "draft"


# --- replay -----------------------------------------------------------------------------------------


def test_replay_the_full_ladder():
    outcomes = [True] * 5 + [False] + [True] * 6 + [False] * 3
    assert replay("draft", outcomes) == [
        ReplayStep("success", 1, 0, 0, "draft", "draft"),
        ReplayStep("success", 2, 0, 0, "draft", "confirmed"),
        ReplayStep("success", 3, 0, 0, "confirmed", "confirmed"),
        ReplayStep("success", 4, 0, 0, "confirmed", "confirmed"),
        ReplayStep("success", 5, 0, 0, "confirmed", "stable"),
        ReplayStep("failure", 5, 1, 1, "stable", "confirmed"),
        ReplayStep("success", 6, 1, 0, "confirmed", "confirmed"),  # 1/6 is not < 0.1
        ReplayStep("success", 7, 1, 0, "confirmed", "confirmed"),
        ReplayStep("success", 8, 1, 0, "confirmed", "confirmed"),
        ReplayStep("success", 9, 1, 0, "confirmed", "confirmed"),
        ReplayStep("success", 10, 1, 0, "confirmed", "confirmed"),  # 1/10 is not < 0.1 either
        ReplayStep("success", 11, 1, 0, "confirmed", "stable"),
        ReplayStep("failure", 11, 2, 1, "stable", "confirmed"),
        ReplayStep("failure", 11, 3, 2, "confirmed", "draft"),
        ReplayStep("failure", 11, 4, 3, "draft", "deprecated"),  # third failure in a row
    ]


def test_replay_ratio_deprecation():
    # 6 successes, then a second failure: 2/6 > 0.3 deprecates a confirmed skill at once.
    steps = replay("confirmed", [False, False], success_count=6, failure_count=0)
    assert steps == [
        ReplayStep("failure", 6, 1, 1, "confirmed", "draft"),
        ReplayStep("failure", 6, 2, 2, "draft", "deprecated"),
    ]


def test_replay_accepts_strings_and_starting_counts():
    steps = replay("playbook", ["failure", "failure", "success", "failure"], 4, 1, 1)
    assert steps == [
        ReplayStep("failure", 4, 2, 2, "playbook", "playbook"),
        ReplayStep("failure", 4, 3, 3, "playbook", "deprecated"),
        ReplayStep("success", 5, 3, 0, "deprecated", "deprecated"),
        ReplayStep("failure", 5, 4, 1, "deprecated", "deprecated"),
    ]
    assert steps[0].maturity_after == "playbook"
    assert tuple(steps[1]) == ("failure", 4, 3, 3, "playbook", "deprecated")


def test_replay_nothing():
    assert replay("stable", []) == []


def test_a_revised_recipe_with_a_failure_can_never_be_confirmed_again():
    # Part B §2: reviseRecipe sets maturity back to draft and keeps the counters.
    steps = replay("draft", [True] * 50, success_count=3, failure_count=1)
    assert {s.maturity_after for s in steps} == {"draft"}


# --- explanations -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "why", "next_"),
    [
        (
            ("draft", 0, 0, 0),
            "no success and no failure: draft (not yet validated; confirmation needs 2 successes and no failure)",
            "2 more successes with no failure: confirmed (a failure rules confirmation out); "
            "3 failures in a row: deprecated",
        ),
        (
            ("draft", 1, 0, 0),
            "1 success and no failure: draft (not yet validated; confirmation needs 2 successes and no failure)",
            "1 more success with no failure: confirmed (a failure rules confirmation out); "
            "3 failures in a row: deprecated",
        ),
        (
            ("draft", 3, 1, 1),
            "3 successes and 1 failure (the last one): draft (a recorded failure rules out confirmation)",
            "no run of successes can promote it, as confirmation needs zero failures; 2 failures in a row: deprecated",
        ),
        (
            ("draft", 10, 3, 0),
            "10 successes and 3 failures: draft (a recorded failure rules out confirmation)",
            "no run of successes can promote it, as confirmation needs zero failures; "
            "the next failure deprecates it",
        ),
        (
            ("confirmed", 2, 0, 0),
            "2 successes and no failure: confirmed (stable needs 5 successes and failures under 10% of them)",
            "3 more successes in a row: stable; 1 failure: back to draft; 3 failures in a row: deprecated",
        ),
        (
            ("confirmed", 5, 0, 0),
            "5 successes and no failure: confirmed (the next success makes it stable)",
            "1 more success: stable; 1 failure: back to draft; 2 failures in a row: deprecated",
        ),
        (
            ("confirmed", 10, 1, 0),
            "10 successes and 1 failure: confirmed (stable needs 5 successes and failures under 10% of them)",
            "1 more success: stable; 1 failure: back to draft; 3 failures in a row: deprecated",
        ),
        (
            ("stable", 5, 0, 0),
            "5 successes and no failure: stable (the highest grade successes can reach)",
            "successes keep it stable; 1 failure: back to confirmed; 2 failures in a row: deprecated",
        ),
        (
            ("playbook", 0, 0, 0),
            "no success and no failure: playbook, a lesson shown as a hint that use_skill does not run",
            "set by hand or by reflection, and successes never change it; 3 more failures in a row deprecate it",
        ),
        (
            ("playbook", 0, 2, 2),
            "no success and 2 failures (the last 2 in a row): playbook, a lesson shown as a hint that "
            "use_skill does not run",
            "set by hand or by reflection, and successes never change it; 1 more failure deprecates it",
        ),
        (
            ("deprecated", 1, 3, 3),
            "1 success and 3 failures (the last 3 in a row): deprecated (3 failures in a row)",
            "final for outcomes: no success or failure changes it; only setting the grade by hand or "
            "revising the recipe (which restarts it as draft) brings it back",
        ),
        (
            ("deprecated", 10, 4, 1),
            "10 successes and 4 failures (the last one): deprecated (failures above 30% of its successes)",
            "final for outcomes: no success or failure changes it; only setting the grade by hand or "
            "revising the recipe (which restarts it as draft) brings it back",
        ),
        (
            ("deprecated", 2, 3, 0),
            "2 successes and 3 failures: deprecated (set by hand, or by failures its counters no longer show)",
            "final for outcomes: no success or failure changes it; only setting the grade by hand or "
            "revising the recipe (which restarts it as draft) brings it back",
        ),
    ],
)
def test_explain_maturity_text(args, why, next_):
    e = explain_maturity(*args)
    assert isinstance(e, Explanation)
    assert e.why == why
    assert e.next == next_


def test_explain_unknown_grade_reads_as_draft():
    e = explain_maturity("legendary", 0, 0, 0)
    assert e.maturity == "draft"
    assert e.why.startswith("unrecognised grade 'legendary', read as draft; no success and no failure: draft")


def test_explain_is_deterministic():
    assert explain_maturity("confirmed", 7, 1, 0) == explain_maturity("confirmed", 7, 1, 0)


def _reachable_states():
    for m in MATURITIES:
        for s, f in itertools.product(range(0, 25), range(0, 12)):
            for c in range(0, min(f, 4) + 1):
                yield m, s, f, c


def test_explain_promises_hold_when_simulated_with_next_maturity():
    for m, s, f, c in _reachable_states():
        e = explain_maturity(m, s, f, c)
        assert e.maturity == m

        # Successes: exactly k more in a row promote to promote_to, and not earlier.
        if e.successes_to_promote is not None:
            k = e.successes_to_promote
            steps = replay(m, [True] * k, s, f, c)
            assert [st.maturity_after for st in steps[:-1]] == [m] * (k - 1), (m, s, f, c)
            assert steps[-1].maturity_after == e.promote_to, (m, s, f, c)
            assert f"{k} more success" in e.next
            assert e.promote_to in e.next
        else:
            assert e.promote_to is None
            steps = replay(m, [True] * 60, s, f, c)
            assert {st.maturity_after for st in steps} == {m}, (m, s, f, c)

        # One failure.
        assert e.after_one_failure == replay(m, [False], s, f, c)[0].maturity_after

        # Failures in a row: exactly j deprecate it, not earlier.
        if e.failures_to_deprecate is None:
            assert m == "deprecated"
        else:
            j = e.failures_to_deprecate
            steps = replay(m, [False] * j, s, f, c)
            assert steps[-1].maturity_after == "deprecated", (m, s, f, c)
            assert all(st.maturity_after != "deprecated" for st in steps[:-1]), (m, s, f, c)
            if j == 1 and m != "playbook":
                assert "the next failure deprecates it" in e.next
            elif m == "playbook":
                assert f"{j} more failure" in e.next
            else:
                assert f"{j} failure" in e.next

        # The one-failure outcome is stated when it is a demotion.
        if e.after_one_failure not in (m, "deprecated"):
            assert f"1 failure: back to {e.after_one_failure}" in e.next


def test_explain_confirmed_with_many_failures_is_fast_and_exact():
    e = explain_maturity("confirmed", 40, 1000, 0)
    assert e.successes_to_promote == 10_001 - 40
    steps = replay("confirmed", [True] * e.successes_to_promote, 40, 1000, 0)
    assert steps[-1].maturity_after == "stable"
    assert steps[-2].maturity_after == "confirmed"
