"""Decay curves with numpy (Qt-free): a fact's score over time, many facts' scores at one time.

Times are epoch milliseconds here; the plots divide by 1000 at their edge (pyqtgraph's date axis counts
seconds). Scores follow :func:`core.decay.score_memory` exactly (pinned and ``user.*``: flat; tau 0: NaN
at age 0, then 0). A confidence that is not a finite number >= 0 (a damaged or hand-edited row) cannot
be drawn as a score: :func:`drawable_confidence` says so, the plots draw it at 0 with a note.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from core.decay import effective_tau, forget_crossing_time
from philont_desktop.facts.data import DAY_MS, FactRow

CURVE_POINTS = 240

# -- confidences that cannot be drawn ---------------------------------------------------------------------

_Y_LIMIT = 1e6  # the y axis never extends beyond this (a finite but absurd confidence is clipped)


def drawable_confidence(confidence: Any) -> bool:
    """Whether a stored confidence can be drawn as a score: a finite number, not negative.

    NaN (or text), ±Infinity and negative values come only from a damaged or hand-edited database; the
    plots leave them out of the overview and draw their decay curve at 0 with a note instead of letting
    pyqtgraph fail on a non-finite range.
    """
    return (
        isinstance(confidence, int | float)
        and not isinstance(confidence, bool)
        and math.isfinite(confidence)
        and confidence >= 0
    )


def clamped_confidence(confidence: Any) -> float:
    """The confidence a curve is drawn with: itself when drawable, otherwise 0."""
    return min(float(confidence), _Y_LIMIT) if drawable_confidence(confidence) else 0.0


def y_top(values: Any, floor: float = 1.0) -> float:
    """The top of a score axis for these values: the largest finite one (at least ``floor``), capped."""
    arr = np.asarray(values, dtype=float).ravel()
    arr = arr[np.isfinite(arr)]
    top = float(arr.max()) if arr.size else floor
    return min(max(floor, top), _Y_LIMIT)


# -- scores with numpy ----------------------------------------------------------------------------------------


def scores_over_time(confidence: float, anchor: float, tau_days: float, times_ms: np.ndarray) -> np.ndarray:
    """``confidence × exp(−max(0, t − anchor)/tau)`` for each t; ``tau_days`` is the *effective* tau."""
    t = np.asarray(times_ms, dtype=float)
    if not math.isfinite(tau_days) and not math.isnan(tau_days):
        return np.full(t.shape, float(confidence))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        age = np.maximum(0.0, (t - float(anchor)) / DAY_MS)
        return float(confidence) * np.exp(-age / float(tau_days))


def scores_at(conf: np.ndarray, anchor: np.ndarray, tau: np.ndarray, at: float) -> np.ndarray:
    """The score of many facts at one time (arrays of confidence, anchor ms, effective tau)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        age = np.maximum(0.0, (float(at) - anchor) / DAY_MS)
        s = conf * np.exp(-age / tau)
    flat = np.isinf(tau)
    s[flat] = conf[flat]
    return s


def _union(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``np.union1d`` of finite values (sorted, each once) without it: ``np.unique`` imports
    ``numpy.ma`` the first time it runs, 20-50 ms of the GUI thread in the first drawing of the curves."""
    t = np.sort(np.concatenate((a, b)))
    if t.size > 1:
        t = t[np.concatenate(([True], t[1:] != t[:-1]))]
    return t


def curve_xy(
    row: FactRow, start_ms: float, end_ms: float, n: int = CURVE_POINTS, extra: Sequence[float] = ()
) -> tuple[np.ndarray, np.ndarray]:
    """The score curve of one fact from ``start_ms`` to ``end_ms`` (epoch ms), assuming no further read.

    From creation to the last access the score is drawn as it decayed from creation (the database keeps
    only the last access, so earlier reads are unknown); at the last access it resets to the confidence
    (a vertical step); from then on it is exactly :func:`core.decay.score_memory` at each time. The
    times in ``extra`` (e.g. now) are sampled exactly too.
    """
    f = row.fact
    conf = float(f.confidence)
    tau = row.tau_eff
    created = float(f.created_at)
    anchor = float(row.anchor)
    lo = max(start_ms, created)
    if end_ms <= lo:
        return np.empty(0), np.empty(0)
    extra_arr = np.asarray([e for e in extra if math.isfinite(e)], dtype=float)

    def times(a: float, b: float, k: int) -> np.ndarray:
        inside = extra_arr[(extra_arr > a) & (extra_arr < b)]
        return _union(np.linspace(a, b, k), inside)

    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    if anchor > lo:
        pre = times(lo, min(anchor, end_ms), max(2, n // 3))
        xs.append(pre)
        ys.append(scores_over_time(conf, created, tau, pre))
        lo = min(anchor, end_ms)
    if end_ms > lo or not xs:
        post = times(lo, end_ms, n)
        xs.append(post)
        ys.append(scores_over_time(conf, anchor, tau, post))
    return np.concatenate(xs), np.concatenate(ys)


def split_at(
    x: np.ndarray, y: np.ndarray, t: float
) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """``(past, future)`` parts of a curve, both including the point at ``t`` when it is sampled."""
    if x.size == 0:
        return (x, y), (x, y)
    if t <= x[0]:
        return (x[:0], y[:0]), (x, y)
    if t >= x[-1]:
        return (x, y), (x[:0], y[:0])
    k = int(np.searchsorted(x, t, side="right"))  # x[k-1] <= t < x[k]
    if x[k - 1] == t:
        return (x[:k], y[:k]), (x[k - 1 :], y[k - 1 :])
    yt = np.interp(t, x[k - 1 : k + 1], y[k - 1 : k + 1])
    return (np.append(x[:k], t), np.append(y[:k], yt)), (np.insert(x[k:], 0, t), np.insert(y[k:], 0, yt))


def joined(parts: Sequence[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """Curves joined with NaN separators for one ``connect='finite'`` item."""
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    for x, y in parts:
        if x.size == 0:
            continue
        xs.extend((x, np.array([np.nan])))
        ys.extend((y, np.array([np.nan])))
    if not xs:
        return np.empty(0), np.empty(0)
    return np.concatenate(xs), np.concatenate(ys)


def flat_reason(row: FactRow) -> str | None:
    """Why a fact's curve is flat: ``pinned``, ``user`` (namespace never decays), or ``None``."""
    if row.tau_src == "pinned":
        return "pinned"
    if math.isinf(row.tau_eff):
        return "user"
    return None


def with_values(row: FactRow, confidence: float, tau: float) -> FactRow:
    """``row`` as it would be with another confidence and effective tau (for a what-if curve)."""
    f = row.fact.model_copy(update={"confidence": confidence})
    return row.with_fact(f, tau)


def whatif_crossing(row: FactRow, confidence: float, decay_tau_days: float | None) -> int | None:
    """When the fact would fall below the threshold with these values (``decay_tau_days`` as stored)."""
    f = row.fact
    return forget_crossing_time(f.namespace, confidence, f.created_at, f.last_accessed_at, decay_tau_days)


def whatif_tau(row: FactRow, decay_tau_days: float | None) -> float:
    return effective_tau(row.fact.namespace, decay_tau_days)
