"""Skill maturity: the state machine, its helpers, and plain-English explanations.

The machine is the newer reference's ``nextMaturity`` (spec Part A §3.1 as changed by Part B §4), which
this project adopts (Decisions 3 and 4):

1. ``playbook`` stays ``playbook``, except that a failure with 3 or more consecutive failures
   deprecates it.
2. ``deprecated`` stays ``deprecated``.
3. On success: ``draft`` with success ≥ 2 and no failure becomes ``confirmed``; ``confirmed`` with
   success ≥ 5 and failure/max(1, success) < 0.1 becomes ``stable``; otherwise unchanged. Grades are
   never skipped.
4. On failure: consecutive ≥ 3 deprecates; success ≥ 5 and failure/max(1, success) > 0.3 deprecates;
   otherwise one tier down (stable → confirmed → draft; draft stays draft).

Counts given to :func:`next_maturity` are the values *after* the outcome was recorded (a success adds 1
to ``success_count`` and resets ``consecutive_failures``; a failure adds 1 to ``failure_count`` and to
``consecutive_failures``). The machine never enters ``playbook``; only setting the grade by hand or by
reflection does.

Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

__all__ = [
    "CONFIRMED_MIN_SUCCESS",
    "DEPRECATED_CONSECUTIVE_FAILURES",
    "DEPRECATED_FAILURE_RATIO",
    "DEPRECATED_RATIO_MIN_SUCCESS",
    "MATURITIES",
    "STABLE_MAX_FAILURE_RATIO",
    "STABLE_MIN_SUCCESS",
    "Explanation",
    "ReplayStep",
    "explain_maturity",
    "is_callable_maturity",
    "maturity_caveat",
    "next_maturity",
    "parse_maturity",
    "replay",
]

CONFIRMED_MIN_SUCCESS = 2
STABLE_MIN_SUCCESS = 5
STABLE_MAX_FAILURE_RATIO = 0.1
DEPRECATED_CONSECUTIVE_FAILURES = 3
DEPRECATED_RATIO_MIN_SUCCESS = 5
DEPRECATED_FAILURE_RATIO = 0.3

#: The five grades, in the order the schema and :mod:`core.models` list them.
MATURITIES: tuple[str, ...] = ("playbook", "draft", "confirmed", "stable", "deprecated")

_CALLABLE = frozenset({"draft", "confirmed", "stable"})

_CAVEATS = {
    "playbook": "[lesson-only, no use_skill]",
    "draft": "[draft · not fully validated, verify before use]",
    "confirmed": "[confirmed]",
    "stable": "[stable]",
    "deprecated": "[deprecated · verified unreliable, use as a counter-example]",
}


def _is_success(outcome: Any) -> bool:
    # The reference tests ``lastOutcome === 'success'``; anything else takes the failure path.
    return outcome is True or outcome == "success"


def next_maturity(
    current: str,
    success_count: int,
    failure_count: int,
    consecutive_failures: int,
    last_outcome: str | bool,
) -> str:
    """The grade after an outcome (``'success'``/``'failure'``, or ``True``/``False``).

    Counts are post-update values. An unknown ``current`` grade is kept unless a failure deprecates
    it, as in the reference.
    """
    success = _is_success(last_outcome)
    if current == "playbook":
        if not success and consecutive_failures >= DEPRECATED_CONSECUTIVE_FAILURES:
            return "deprecated"
        return "playbook"
    if current == "deprecated":
        return "deprecated"
    if success:
        if current == "draft" and success_count >= CONFIRMED_MIN_SUCCESS and failure_count == 0:
            return "confirmed"
        if (
            current == "confirmed"
            and success_count >= STABLE_MIN_SUCCESS
            and failure_count / max(1, success_count) < STABLE_MAX_FAILURE_RATIO
        ):
            return "stable"
        return current
    if consecutive_failures >= DEPRECATED_CONSECUTIVE_FAILURES:
        return "deprecated"
    if (
        success_count >= DEPRECATED_RATIO_MIN_SUCCESS
        and failure_count / max(1, success_count) > DEPRECATED_FAILURE_RATIO
    ):
        return "deprecated"
    if current == "stable":
        return "confirmed"
    if current == "confirmed":
        return "draft"
    return current


def is_callable_maturity(m: str) -> bool:
    """Whether ``use_skill`` may run a skill of this grade: draft, confirmed and stable."""
    return m in _CALLABLE


def maturity_caveat(m: str) -> str:
    """The grade tag shown before a skill's description (spec §3.1); ``''`` for an unknown grade."""
    return _CAVEATS.get(m, "")


def parse_maturity(s: Any, fallback: str = "draft") -> str:
    """``s`` when it is one of the five grades (exact, case-sensitive), otherwise ``fallback``."""
    return s if isinstance(s, str) and s in MATURITIES else fallback


# ---------------------------------------------------------------------------------------------------
# Replay
# ---------------------------------------------------------------------------------------------------


class ReplayStep(NamedTuple):
    """One outcome replayed through the machine; counts are the values after the outcome."""

    outcome: str  # 'success' or 'failure'
    success_count: int
    failure_count: int
    consecutive_failures: int
    maturity_before: str
    maturity_after: str


def _apply(maturity: str, s: int, f: int, c: int, success: bool) -> tuple[str, int, int, int]:
    if success:
        s, c = s + 1, 0
    else:
        f, c = f + 1, c + 1
    return next_maturity(maturity, s, f, c, "success" if success else "failure"), s, f, c


def replay(
    initial: str,
    outcomes: list[bool] | list[str],
    success_count: int = 0,
    failure_count: int = 0,
    consecutive_failures: int = 0,
) -> list[ReplayStep]:
    """Replay outcomes through the machine the way ``recordSkillOutcome`` updates a skill.

    ``outcomes`` holds ``True``/``'success'`` or ``False``/``'failure'``; the starting counters default
    to zero. Each step reports the post-update counts and the grade before and after.
    """
    steps: list[ReplayStep] = []
    m, s, f, c = initial, success_count, failure_count, consecutive_failures
    for o in outcomes:
        success = _is_success(o)
        before = m
        m, s, f, c = _apply(m, s, f, c, success)
        steps.append(ReplayStep("success" if success else "failure", s, f, c, before, m))
    return steps


# ---------------------------------------------------------------------------------------------------
# Explanations
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Explanation:
    """Why a skill has its grade and what would move it next.

    ``why`` and ``next`` are the sentences to show. The structured fields carry the same promises:
    after ``successes_to_promote`` more successes in a row the grade becomes ``promote_to`` (both
    ``None`` when no run of successes can promote it); one more failure gives ``after_one_failure``;
    ``failures_to_deprecate`` more failures in a row deprecate it (``None`` when already deprecated).
    """

    maturity: str
    why: str
    next: str
    promote_to: str | None
    successes_to_promote: int | None
    after_one_failure: str
    failures_to_deprecate: int | None


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _counts_phrase(s: int, f: int, c: int) -> str:
    succ = "no success" if s == 0 else _count(s, "success", "successes")
    fail = "no failure" if f == 0 else _count(f, "failure", "failures")
    text = f"{succ} and {fail}"
    if c > 0 and f > 0:
        text += " (the last one)" if c == 1 else f" (the last {c} in a row)"
    return text


def _stable_ready(s: int, f: int) -> bool:
    return s >= STABLE_MIN_SUCCESS and f / max(1, s) < STABLE_MAX_FAILURE_RATIO


def _successes_to_promote(m: str, s: int, f: int) -> tuple[int | None, str | None]:
    """How many more successes in a row promote a draft or confirmed skill, and to what."""
    if m == "draft":
        return (max(1, CONFIRMED_MIN_SUCCESS - s), "confirmed") if f == 0 else (None, None)
    if m == "confirmed":
        # Smallest total s' > s with s' >= 5 and f/s' < 0.1, using the same float test as the machine.
        low = max(s + 1, STABLE_MIN_SUCCESS)
        total = max(low, 10 * f + 1)
        while total > low and _stable_ready(total - 1, f):
            total -= 1
        while not _stable_ready(total, f):
            total += 1
        return total - s, "stable"
    return None, None


def _failures_to_deprecate(m: str, s: int, f: int, c: int) -> int | None:
    if m == "deprecated":
        return None
    cur = m
    for k in range(1, DEPRECATED_CONSECUTIVE_FAILURES + 1):
        cur, s, f, c = _apply(cur, s, f, c, False)
        if cur == "deprecated":
            return k
    return None  # unreachable for the five grades: 3 failures in a row always deprecate


def _deprecation_reason(s: int, f: int, c: int) -> str:
    if c >= DEPRECATED_CONSECUTIVE_FAILURES:
        return f"{c} failures in a row"
    if s >= DEPRECATED_RATIO_MIN_SUCCESS and f / max(1, s) > DEPRECATED_FAILURE_RATIO:
        return "failures above 30% of its successes"
    return "set by hand, or by failures its counters no longer show"


def explain_maturity(
    maturity: str,
    success_count: int,
    failure_count: int,
    consecutive_failures: int,
) -> Explanation:
    """Explain a grade in plain English, consistently with :func:`next_maturity`.

    Example: ``explain_maturity('confirmed', 2, 0, 0)`` gives why = "2 successes and no failure:
    confirmed" and next = "3 more successes in a row: stable; 1 failure: back to draft; 3 failures in
    a row: deprecated". Every number in ``next`` comes from running the machine forward, so the promise
    holds by construction. An unknown grade is explained as the reference reads it (draft).
    """
    s, f, c = success_count, failure_count, consecutive_failures
    m = maturity if maturity in MATURITIES else "draft"
    counts = _counts_phrase(s, f, c)
    after_fail = _apply(m, s, f, c, False)[0]
    to_dep = _failures_to_deprecate(m, s, f, c)
    k_up, up_to = _successes_to_promote(m, s, f)

    def fail_clause() -> str:
        if after_fail == "deprecated":
            return "the next failure deprecates it"
        parts = []
        if after_fail != m:
            parts.append(f"1 failure: back to {after_fail}")
        if to_dep is not None:
            run = " in a row" if to_dep > 1 else ""
            parts.append(f"{_count(to_dep, 'failure', 'failures')}{run}: deprecated")
        return "; ".join(parts)

    if m == "draft":
        if f > 0:
            why = f"{counts}: draft (a recorded failure rules out confirmation)"
            nxt = f"no run of successes can promote it, as confirmation needs zero failures; {fail_clause()}"
        else:
            if s >= CONFIRMED_MIN_SUCCESS:
                why = f"{counts}: draft (reset to draft with its counters kept; the next success confirms it)"
            else:
                why = f"{counts}: draft (not yet validated; confirmation needs 2 successes and no failure)"
            more = _count(k_up or 0, "more success", "more successes")
            nxt = f"{more} with no failure: confirmed (a failure rules confirmation out); {fail_clause()}"
    elif m == "confirmed":
        if _stable_ready(s, f):
            why = f"{counts}: confirmed (the next success makes it stable)"
        else:
            why = f"{counts}: confirmed (stable needs 5 successes and failures under 10% of them)"
        k = k_up or 0
        more = _count(k, "more success", "more successes") + (" in a row" if k > 1 else "")
        nxt = f"{more}: stable; {fail_clause()}"
    elif m == "stable":
        why = f"{counts}: stable (the highest grade successes can reach)"
        nxt = f"successes keep it stable; {fail_clause()}"
    elif m == "playbook":
        why = f"{counts}: playbook, a lesson shown as a hint that use_skill does not run"
        n = to_dep or 0
        run = " in a row" if n > 1 else ""
        verb = "deprecates" if n == 1 else "deprecate"
        nxt = (
            "set by hand or by reflection, and successes never change it; "
            f"{_count(n, 'more failure', 'more failures')}{run} {verb} it"
        )
    else:  # deprecated
        why = f"{counts}: deprecated ({_deprecation_reason(s, f, c)})"
        nxt = (
            "final for outcomes: no success or failure changes it; only setting the grade by hand "
            "or revising the recipe (which restarts it as draft) brings it back"
        )
    if maturity not in MATURITIES:
        why = f"unrecognised grade {maturity!r}, read as draft; " + why
    return Explanation(
        maturity=m,
        why=why,
        next=nxt,
        promote_to=up_to,
        successes_to_promote=k_up,
        after_one_failure=after_fail,
        failures_to_deprecate=to_dep,
    )
