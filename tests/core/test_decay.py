"""Decay scoring (spec Part A §2, Part C h): exact values at fixed times, edge cases, crossing times."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import decay
from core.decay import (
    DAY_MS,
    DEFAULT_FORGET_THRESHOLD,
    DEFAULT_TAU_DAYS,
    PIN_SENTINEL,
    effective_tau,
    forget_crossing_time,
    is_pinned,
    namespace_tau_days,
    score_curve,
    score_memory,
    tau_source,
)

T0 = 1_767_225_600_000  # 2026-01-01T00:00:00.000Z


def days(n: float) -> int:
    return T0 + round(n * DAY_MS)


def test_constants():
    assert PIN_SENTINEL == -1
    assert DEFAULT_TAU_DAYS == 365
    assert DEFAULT_FORGET_THRESHOLD == 0.05
    assert DAY_MS == 86_400_000


@pytest.mark.parametrize(
    ("ns", "tau"),
    [
        ("user", math.inf),
        ("user.preferences", math.inf),
        ("user.a.b", math.inf),
        ("project", 60),
        ("project.mycox", 60),
        ("context", 1),
        ("context.today", 1),
        ("session", 1),
        ("session.x", 1),
        ("decisions", 365),
        ("skills", 365),
        ("self", 365),
        ("travel", 365),
        ("", 365),
        ("USER", 365),
        ("User", 365),
        ("username", 365),
        ("contextual", 365),
        ("Project", 365),
        (".user", 365),  # the first segment is ''
        (" user", 365),
    ],
)
def test_namespace_tau_days(ns, tau):
    assert namespace_tau_days(ns) == tau


@pytest.mark.parametrize(
    ("tau_days", "pinned"),
    [
        (None, False),
        (-1, True),
        (-0.5, True),
        (-1e9, True),
        (0, False),
        (-0.0, False),
        (30, False),
        (math.nan, False),
    ],
)
def test_is_pinned(tau_days, pinned):
    assert is_pinned(tau_days) is pinned


@pytest.mark.parametrize(
    ("ns", "tau_days", "effective", "source"),
    [
        ("project", None, 60, "namespace"),
        ("user.x", None, math.inf, "namespace"),
        ("misc", None, 365, "namespace"),
        ("project", -1, math.inf, "pinned"),
        ("user", -1, math.inf, "pinned"),
        ("project", 7, 7, "custom"),
        ("user", 7, 7, "custom"),  # an explicit tau wins over user's infinity
        ("context", 0, 0, "custom"),
    ],
)
def test_effective_tau_and_source(ns, tau_days, effective, source):
    assert effective_tau(ns, tau_days) == effective
    assert tau_source(ns, tau_days) == source


# --- score_memory at fixed times --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ns", "conf", "created", "accessed", "tau_days", "now", "expected"),
    [
        # project fact, confidence 0.8, 30 days old: 0.8 * exp(-30/60)
        ("project", 0.8, T0, None, None, days(30), 0.8 * math.exp(-0.5)),
        ("project.mycox", 0.8, T0, None, None, days(60), 0.8 * math.exp(-1)),
        ("context", 1.0, T0, None, None, days(1), math.exp(-1)),
        ("session.s", 0.5, T0, None, None, days(2), 0.5 * math.exp(-2)),
        ("decisions", 1.0, T0, None, None, days(365), math.exp(-1)),
        ("USER", 1.0, T0, None, None, days(365), math.exp(-1)),  # not the user namespace
        # the anchor is last_accessed_at when set
        ("project", 0.8, T0, days(30), None, days(30), 0.8),
        ("project", 0.8, T0, days(15), None, days(30), 0.8 * math.exp(-0.25)),
        # user.* never decays, pinned never decays
        ("user", 0.7, T0, None, None, days(10_000), 0.7),
        ("user.preferences", 0.7, T0, None, None, days(10_000), 0.7),
        ("project", 0.6, T0, None, PIN_SENTINEL, days(10_000), 0.6),
        ("context", 0.6, T0, None, -3, days(10_000), 0.6),
        # a custom tau
        ("project", 1.0, T0, None, 10, days(5), math.exp(-0.5)),
        ("user", 1.0, T0, None, 10, days(10), math.exp(-1)),
        # age is clamped at 0 (anchor in the future)
        ("project", 0.8, days(5), None, None, T0, 0.8),
        # age 0
        ("project", 0.8, T0, None, None, T0, 0.8),
        # underflow: a context fact 800 days old scores exactly 0
        ("context", 1.0, T0, None, None, days(800), 0.0),
        ("project", 0.9, T0, None, None, T0 + 1, 0.9 * math.exp(-1 / DAY_MS / 60)),
    ],
)
def test_score_memory_exact(ns, conf, created, accessed, tau_days, now, expected):
    assert score_memory(ns, conf, created, accessed, tau_days, now) == expected


def test_score_memory_tau_zero_edge_cases():
    # tau 0: NaN at age 0 (0/0), 0 for any positive age (Part C h)
    assert math.isnan(score_memory("project", 0.8, T0, None, 0, T0))
    assert math.isnan(score_memory("project", 0.8, days(3), None, 0, T0))  # future anchor: age 0
    assert score_memory("project", 0.8, T0, None, 0, T0 + 1) == 0.0
    assert score_memory("project", 0.8, T0, None, 0, days(100)) == 0.0
    # NaN is never below a threshold, so such a fact is never a forget candidate
    assert not (score_memory("project", 0.8, T0, None, 0, T0) < DEFAULT_FORGET_THRESHOLD)


def test_score_memory_nan_confidence_propagates():
    assert math.isnan(score_memory("project", math.nan, T0, None, None, days(1)))
    assert math.isnan(score_memory("user", math.nan, T0, None, None, days(1)))
    assert math.isnan(score_memory("project", math.nan, T0, None, PIN_SENTINEL, days(1)))
    assert math.isnan(score_memory("project", math.nan, T0, None, 0, days(1)))


def test_score_memory_js_arithmetic_quirks_never_raise():
    # A custom tau of -0 is not "pinned" (-0 < 0 is false): -age / -0 is +Infinity, exp gives Infinity.
    assert score_memory("project", 0.5, T0, None, -0.0, days(1)) == math.inf
    assert math.isnan(score_memory("project", 0.5, T0, None, -0.0, T0))
    # Huge ages and tiny taus underflow to 0 instead of raising.
    assert score_memory("project", 1.0, T0, None, 1e-300, days(1)) == 0.0
    # A NaN custom tau is not finite: no decay.
    assert score_memory("project", 0.4, T0, None, math.nan, days(100)) == 0.4
    # Infinite confidence times exp(-x) stays infinite; times an underflowed 0 it is NaN.
    assert score_memory("project", math.inf, T0, None, None, days(1)) == math.inf
    assert math.isnan(score_memory("context", math.inf, T0, None, None, days(800)))
    # A missing created_at reads as 0 (JS null), it does not raise.
    assert score_memory("project", 1.0, None, None, None, 0) == 1.0


def test_score_memory_default_now_uses_the_core_clock(monkeypatch):
    monkeypatch.setattr(decay, "now_ms", lambda: days(30))
    assert score_memory("project", 0.8, T0, None, None) == 0.8 * math.exp(-0.5)


def test_score_curve_is_score_memory_at_each_time():
    times = [T0, days(1), days(30), days(60), days(365)]
    curve = score_curve("project", 0.8, T0, None, None, times)
    assert curve == [score_memory("project", 0.8, T0, None, None, t) for t in times]
    assert curve[0] == 0.8
    assert curve[2] == 0.8 * math.exp(-0.5)
    assert score_curve("user", 0.3, T0, None, None, times) == [0.3] * 5
    assert score_curve("project", 0.8, T0, None, None, []) == []


# --- forget_crossing_time ---------------------------------------------------------------------------


def assert_first_crossing(ns, conf, created, accessed, tau_days, threshold, t):
    assert score_memory(ns, conf, created, accessed, tau_days, t) < threshold
    anchor = accessed if accessed is not None else created
    if t > anchor:
        assert not (score_memory(ns, conf, created, accessed, tau_days, t - 1) < threshold)


def test_forget_crossing_time_project_fact():
    t = forget_crossing_time("project", 0.8, T0, None, None)
    # 0.8 * exp(-d/60) = 0.05  =>  d = 60 * ln(16) days
    assert abs(t - (T0 + 60 * math.log(16) * DAY_MS)) <= 1
    assert_first_crossing("project", 0.8, T0, None, None, 0.05, t)


@pytest.mark.parametrize(
    ("ns", "conf", "created", "accessed", "tau_days", "threshold", "expected_days"),
    [
        ("context", 1.0, T0, None, None, 0.05, math.log(20)),
        ("misc", 1.0, T0, None, None, 0.05, 365 * math.log(20)),
        ("project", 1.0, T0, days(10), None, 0.05, 10 + 60 * math.log(20)),
        ("project", 1.0, T0, None, 30, 0.5, 30 * math.log(2)),
        ("user", 1.0, T0, None, 5, 0.05, 5 * math.log(20)),
        ("project", 0.05, T0, None, None, 0.05, 0),  # score == threshold is not below: crosses at once after
    ],
)
def test_forget_crossing_time_matches_the_closed_form(
    ns, conf, created, accessed, tau_days, threshold, expected_days
):
    t = forget_crossing_time(ns, conf, created, accessed, tau_days, threshold)
    assert t is not None
    assert abs(t - (T0 + expected_days * DAY_MS)) <= 1
    assert_first_crossing(ns, conf, created, accessed, tau_days, threshold, t)


@pytest.mark.parametrize(
    ("ns", "conf", "created", "accessed", "tau_days", "threshold", "expected"),
    [
        ("project", 0.04, T0, None, None, 0.05, T0),  # already below at age 0: the anchor itself
        ("project", 0.04, T0, days(3), None, 0.05, days(3)),
        ("user", 0.01, T0, None, None, 0.05, T0),  # never decays, but already below
        ("user", 0.9, T0, None, None, 0.05, None),  # never decays, never below
        ("project", 0.9, T0, None, PIN_SENTINEL, 0.05, None),  # pinned: never a candidate
        ("project", 0.01, T0, None, PIN_SENTINEL, 0.05, None),
        ("project", 0.8, T0, None, 0, 0.05, T0 + 1),  # tau 0: NaN at age 0, 0 just after
        ("project", 0.8, T0, None, 0, 0.0, None),
        ("project", math.nan, T0, None, None, 0.05, None),
        ("project", 0.8, T0, None, None, math.nan, None),
        ("project", 0.8, T0, None, None, 0.0, None),  # the score only tends to 0
        ("project", 0.8, T0, None, None, -1.0, None),
        ("project", math.inf, T0, None, None, 0.05, None),
        ("project", -0.5, T0, None, None, 0.05, T0),
        ("project", 0.8, T0, None, math.nan, 0.05, None),
    ],
)
def test_forget_crossing_time_special_cases(ns, conf, created, accessed, tau_days, threshold, expected):
    assert forget_crossing_time(ns, conf, created, accessed, tau_days, threshold) == expected


def test_forget_crossing_time_default_threshold():
    assert forget_crossing_time("project", 0.8, T0, None, None) == forget_crossing_time(
        "project", 0.8, T0, None, None, DEFAULT_FORGET_THRESHOLD
    )


@settings(max_examples=300, deadline=None)
@given(
    ns=st.sampled_from(["project", "context", "misc", "session.x"]),
    conf=st.floats(min_value=0.0, max_value=1.0),
    created=st.integers(min_value=0, max_value=4_000_000_000_000),
    accessed_after=st.one_of(st.none(), st.integers(min_value=0, max_value=400 * DAY_MS)),
    tau_days=st.one_of(st.none(), st.floats(min_value=0.001, max_value=5000)),
    threshold=st.floats(min_value=1e-6, max_value=1.0),
)
def test_forget_crossing_time_is_the_first_ms_below(ns, conf, created, accessed_after, tau_days, threshold):
    accessed = None if accessed_after is None else created + accessed_after
    t = forget_crossing_time(ns, conf, created, accessed, tau_days, threshold)
    assert t is not None  # every decaying fact with a positive threshold eventually crosses
    assert_first_crossing(ns, conf, created, accessed, tau_days, threshold, t)
