"""Fact decay scoring, as the reference computes it (``decay.ts``; spec Part A §2 and Part C h).

``score = confidence × exp(−age_days / tau)`` with ``age_days = max(0, (now − anchor) / 86 400 000)`` and
``anchor = last_accessed_at ?? created_at``. ``tau`` is the fact's own ``decay_tau_days`` when set,
otherwise the namespace default (first dot segment, exact and case-sensitive). A negative
``decay_tau_days`` (the sentinel ``-1``) pins the fact: it never decays.

The score feeds only the forget pool (facts scoring below the threshold); nothing is forgotten
automatically. The helpers here follow JavaScript arithmetic exactly, including its edge cases: an
explicit tau of 0 gives NaN at age 0 (never a candidate, because ``NaN < x`` is false) and 0 for any
positive age, and no input makes a function raise.

Standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Literal

from core.jsutil import js_div, js_exp, now_ms

__all__ = [
    "DAY_MS",
    "DEFAULT_FORGET_THRESHOLD",
    "DEFAULT_TAU_DAYS",
    "NAMESPACE_TAU_DAYS",
    "PIN_SENTINEL",
    "effective_tau",
    "forget_crossing_time",
    "is_pinned",
    "namespace_tau_days",
    "score_curve",
    "score_memory",
    "tau_source",
]

#: ``decay_tau_days`` value written by "pin"; any negative value counts as pinned.
PIN_SENTINEL = -1
#: Decay constant (days) of namespaces without a specific default.
DEFAULT_TAU_DAYS = 365
#: Facts scoring strictly below this are forget candidates.
DEFAULT_FORGET_THRESHOLD = 0.05
#: Milliseconds per day, the unit of ``age_days``.
DAY_MS = 86_400_000

#: Namespace roots with their own default tau (days); every other root gets :data:`DEFAULT_TAU_DAYS`.
NAMESPACE_TAU_DAYS: dict[str, float] = {
    "user": math.inf,
    "project": 60.0,
    "context": 1.0,
    "session": 1.0,
}

TauSource = Literal["pinned", "custom", "namespace"]


def namespace_tau_days(ns: str) -> float:
    """Default tau of a namespace, from its first dot segment compared exactly (case-sensitive).

    ``user`` → ``math.inf``, ``project`` → 60, ``context``/``session`` → 1, anything else (``USER``,
    ``username``, ``contextual``, ``''``) → 365. ``user.preferences`` decays like ``user``.
    """
    root = ns.split(".", 1)[0]
    return NAMESPACE_TAU_DAYS.get(root, float(DEFAULT_TAU_DAYS))


def is_pinned(decay_tau_days: float | None) -> bool:
    """True when ``decay_tau_days`` is set and negative (the pin sentinel)."""
    return decay_tau_days is not None and decay_tau_days < 0


def effective_tau(ns: str, decay_tau_days: float | None) -> float:
    """The tau the score uses: ``math.inf`` when pinned, else the fact's own value, else the namespace's.

    A custom value is returned as given (a NaN custom tau stays NaN; the score treats any non-finite
    tau as "no decay").
    """
    if is_pinned(decay_tau_days):
        return math.inf
    if decay_tau_days is not None:
        return float(decay_tau_days)
    return namespace_tau_days(ns)


def tau_source(ns: str, decay_tau_days: float | None) -> TauSource:
    """Where the effective tau comes from: ``'pinned'``, ``'custom'`` (own value) or ``'namespace'``."""
    if is_pinned(decay_tau_days):
        return "pinned"
    if decay_tau_days is not None:
        return "custom"
    return "namespace"


def _num(x: float | None) -> float:
    """JavaScript ToNumber for the values a row can hold (``null`` → 0)."""
    return 0.0 if x is None else float(x)


def _age_days(created_at: float | None, last_accessed_at: float | None, now: float) -> float:
    anchor = _num(last_accessed_at if last_accessed_at is not None else created_at)
    age = (float(now) - anchor) / DAY_MS
    if math.isnan(age):
        return math.nan  # Math.max(0, NaN) is NaN
    return max(0.0, age)


def _score_at(confidence: float, tau: float, age_days: float) -> float:
    return confidence * js_exp(js_div(-age_days, tau))


def score_memory(
    namespace: str,
    confidence: float,
    created_at: float | None,
    last_accessed_at: float | None,
    decay_tau_days: float | None,
    now: int | None = None,
) -> float:
    """``scoreMemory``: the decay score of a fact at ``now`` (epoch ms; ``None`` = current time).

    * pinned (``decay_tau_days < 0``) → ``confidence``;
    * tau = ``decay_tau_days ?? namespace_tau_days(namespace)``; a non-finite tau (``user.*``) →
      ``confidence``;
    * otherwise ``confidence × exp(−age_days / tau)``. Tau 0 gives NaN at age 0 (an anchor in the
      future also has age 0) and ``0 × confidence`` for any positive age. NaN inputs propagate.
    """
    conf = _num(confidence)
    if is_pinned(decay_tau_days):
        return conf
    tau = float(decay_tau_days) if decay_tau_days is not None else namespace_tau_days(namespace)
    if not math.isfinite(tau):
        return conf
    t = now_ms() if now is None else now
    return _score_at(conf, tau, _age_days(created_at, last_accessed_at, t))


def score_curve(
    namespace: str,
    confidence: float,
    created_at: float | None,
    last_accessed_at: float | None,
    decay_tau_days: float | None,
    times: list[int],
) -> list[float]:
    """:func:`score_memory` at each time of ``times`` (epoch ms), assuming no further access."""
    return [
        score_memory(namespace, confidence, created_at, last_accessed_at, decay_tau_days, t) for t in times
    ]


def _as_int_ms(x: float) -> int:
    return math.ceil(x)


def _first_below(below: Callable[[int], bool], start: int, guess: int) -> int:
    """The first ms after ``start`` at which ``below`` holds (it holds from some time on and not at
    ``start``): bracket it from ``guess`` by doubling steps, then bisect to the exact millisecond."""
    hi = max(start + 1, guess)
    step = 1
    while not below(hi):
        hi += step
        step *= 2
    lo = max(start, hi - 2)
    step = 2
    while lo > start and below(lo):
        lo = max(start, lo - step)
        step *= 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if below(mid):
            hi = mid
        else:
            lo = mid
    return hi


def forget_crossing_time(
    namespace: str,
    confidence: float,
    created_at: float | None,
    last_accessed_at: float | None,
    decay_tau_days: float | None,
    threshold: float = DEFAULT_FORGET_THRESHOLD,
) -> int | None:
    """First epoch ms at which the score is strictly below ``threshold``, assuming no further access.

    * The anchor (``last_accessed_at ?? created_at``, rounded up to a whole ms) when the score is
      already below at age 0. This includes a non-decaying ``user.*`` fact whose confidence is below.
    * ``None`` when it never happens: pinned facts (the forget pool excludes them), a non-decaying
      fact at or above the threshold, NaN confidence or threshold, ``+inf`` confidence, or a
      threshold the score cannot go under (``threshold <= 0``: the score only tends to 0).
    * With tau 0 the score is NaN at age 0 and 0 afterwards, so the answer is ``anchor + 1`` when
      ``0 < threshold``.

    The result is exact at millisecond resolution: ``score_memory(..., now=t)`` is below the threshold
    at the returned ``t`` and not below at ``t - 1`` (unless ``t`` is the anchor).
    """
    conf = _num(confidence)
    thr = float(threshold)
    if is_pinned(decay_tau_days) or math.isnan(conf) or math.isnan(thr):
        return None
    anchor = _num(last_accessed_at if last_accessed_at is not None else created_at)
    if not math.isfinite(anchor):
        return None
    start = _as_int_ms(anchor)
    tau = float(decay_tau_days) if decay_tau_days is not None else namespace_tau_days(namespace)
    if not math.isfinite(tau):
        return start if conf < thr else None

    def below(t: int) -> bool:
        return _score_at(conf, tau, _age_days(created_at, last_accessed_at, t)) < thr

    if below(start):
        return start
    if tau == 0:
        return start + 1 if below(start + 1) else None
    if conf == math.inf or thr <= 0:
        return None
    # Here conf >= thr > 0 and the score falls monotonically: solve conf * exp(-age/tau) = thr, then
    # settle on the exact millisecond with a bisection between a "not below" and a "below" time.
    guess = anchor + tau * math.log(conf / thr) * DAY_MS
    if not math.isfinite(guess) or guess > 2**62:
        return None
    return _first_below(below, start, _as_int_ms(guess))
