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

from core.errors import Notice

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

    ``why`` and ``next`` are the sentences to show, in English. ``why_notices`` and ``next_notices`` are
    the same with codes and parameters (``maturity.why.<case>``, ``maturity.next.<clause>``; the counts
    ``successes``, ``failures``, ``consecutive`` and ``n``, ``grade`` where a clause needs them): ``why``
    is the notices' messages joined with "; ", ``next`` likewise. The structured fields carry the same
    promises: after ``successes_to_promote`` more successes in a row the grade becomes ``promote_to``
    (both ``None`` when no run of successes can promote it); one more failure gives
    ``after_one_failure``; ``failures_to_deprecate`` more failures in a row deprecate it (``None`` when
    already deprecated).
    """

    maturity: str
    why: str
    next: str
    promote_to: str | None
    successes_to_promote: int | None
    after_one_failure: str
    failures_to_deprecate: int | None
    why_notices: tuple[Notice, ...] = ()
    next_notices: tuple[Notice, ...] = ()


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


def _deprecated_why(s: int, f: int, c: int, counts: str, p: dict[str, Any]) -> Notice:
    if c >= DEPRECATED_CONSECUTIVE_FAILURES:
        return Notice(
            "maturity.why.deprecated_run", f"{counts}: deprecated ({c} failures in a row)", {**p, "n": c}
        )
    if s >= DEPRECATED_RATIO_MIN_SUCCESS and f / max(1, s) > DEPRECATED_FAILURE_RATIO:
        return Notice(
            "maturity.why.deprecated_ratio", f"{counts}: deprecated (failures above 30% of its successes)", p
        )
    return Notice(
        "maturity.why.deprecated_manual",
        f"{counts}: deprecated (set by hand, or by failures its counters no longer show)",
        p,
    )


def _why(m: str, s: int, f: int, c: int) -> Notice:
    """The reason for grade ``m`` with these counters (``maturity.why.<case>``)."""
    counts = _counts_phrase(s, f, c)
    p: dict[str, Any] = {"successes": s, "failures": f, "consecutive": c if f > 0 else 0}
    if m == "draft" and f > 0:
        return Notice(
            "maturity.why.draft_failed", f"{counts}: draft (a recorded failure rules out confirmation)", p
        )
    if m == "draft" and s >= CONFIRMED_MIN_SUCCESS:
        return Notice(
            "maturity.why.draft_reset",
            f"{counts}: draft (reset to draft with its counters kept; the next success confirms it)",
            p,
        )
    if m == "draft":
        return Notice(
            "maturity.why.draft_new",
            f"{counts}: draft (not yet validated; confirmation needs 2 successes and no failure)",
            p,
        )
    if m == "confirmed" and _stable_ready(s, f):
        return Notice(
            "maturity.why.confirmed_ready", f"{counts}: confirmed (the next success makes it stable)", p
        )
    if m == "confirmed":
        return Notice(
            "maturity.why.confirmed",
            f"{counts}: confirmed (stable needs 5 successes and failures under 10% of them)",
            p,
        )
    if m == "stable":
        return Notice("maturity.why.stable", f"{counts}: stable (the highest grade successes can reach)", p)
    if m == "playbook":
        return Notice(
            "maturity.why.playbook",
            f"{counts}: playbook, a lesson shown as a hint that use_skill does not run",
            p,
        )
    return _deprecated_why(s, f, c, counts, p)


def _fail_clauses(m: str, after_fail: str, to_dep: int | None) -> list[Notice]:
    if after_fail == "deprecated":
        return [Notice("maturity.next.fail_deprecates", "the next failure deprecates it", {})]
    parts = []
    if after_fail != m:
        parts.append(
            Notice("maturity.next.fail_back", f"1 failure: back to {after_fail}", {"grade": after_fail})
        )
    if to_dep is not None and to_dep > 1:
        parts.append(
            Notice(
                "maturity.next.deprecate_run",
                f"{_count(to_dep, 'failure', 'failures')} in a row: deprecated",
                {"n": to_dep},
            )
        )
    elif to_dep is not None:
        parts.append(Notice("maturity.next.deprecate", "1 failure: deprecated", {"n": to_dep}))
    return parts


def _next(m: str, s: int, f: int, after_fail: str, to_dep: int | None, k_up: int | None) -> list[Notice]:
    """What would move grade ``m`` next (``maturity.next.<clause>``, in order)."""
    if m == "draft" and f > 0:
        head = [
            Notice(
                "maturity.next.no_promotion",
                "no run of successes can promote it, as confirmation needs zero failures",
                {},
            )
        ]
        return head + _fail_clauses(m, after_fail, to_dep)
    if m == "draft":
        n = k_up or 0
        more = _count(n, "more success", "more successes")
        text = f"{more} with no failure: confirmed (a failure rules confirmation out)"
        return [Notice("maturity.next.confirm", text, {"n": n}), *_fail_clauses(m, after_fail, to_dep)]
    if m == "confirmed":
        n = k_up or 0
        more = _count(n, "more success", "more successes")
        first = (
            Notice("maturity.next.stable_run", f"{more} in a row: stable", {"n": n})
            if n > 1
            else Notice("maturity.next.stable", f"{more}: stable", {"n": n})
        )
        return [first, *_fail_clauses(m, after_fail, to_dep)]
    if m == "stable":
        keep = Notice("maturity.next.keeps_stable", "successes keep it stable", {})
        return [keep, *_fail_clauses(m, after_fail, to_dep)]
    if m == "playbook":
        n = to_dep or 0
        more = _count(n, "more failure", "more failures")
        last = (
            Notice("maturity.next.playbook_deprecate_run", f"{more} in a row deprecate it", {"n": n})
            if n > 1
            else Notice("maturity.next.playbook_deprecate", f"{more} deprecates it", {"n": n})
        )
        fixed = Notice(
            "maturity.next.playbook_fixed", "set by hand or by reflection, and successes never change it", {}
        )
        return [fixed, last]
    return [
        Notice("maturity.next.final", "final for outcomes: no success or failure changes it", {}),
        Notice(
            "maturity.next.final_back",
            "only setting the grade by hand or revising the recipe (which restarts it as draft) brings it back",
            {},
        ),
    ]


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
    after_fail = _apply(m, s, f, c, False)[0]
    to_dep = _failures_to_deprecate(m, s, f, c)
    k_up, up_to = _successes_to_promote(m, s, f)
    why = [_why(m, s, f, c)]
    if maturity not in MATURITIES:
        unknown = f"unrecognised grade {maturity!r}, read as draft"
        why.insert(0, Notice("maturity.why.unrecognised", unknown, {"grade": maturity}))
    nxt = _next(m, s, f, after_fail, to_dep, k_up)
    return Explanation(
        maturity=m,
        why="; ".join(n.message for n in why),
        next="; ".join(n.message for n in nxt),
        promote_to=up_to,
        successes_to_promote=k_up,
        after_one_failure=after_fail,
        failures_to_deprecate=to_dep,
        why_notices=tuple(why),
        next_notices=tuple(nxt),
    )
