"""How the Facts tab writes times, durations, numbers, scores and tau."""

from __future__ import annotations

import math
from typing import Any

from core.decay import namespace_tau_days
from philont_desktop import humanize
from philont_desktop.qt import QCoreApplication


def _tr(text: str) -> str:
    return QCoreApplication.translate("FactsModel", text)


def fmt_time(ms: Any, seconds: bool = False) -> str:
    """Local time ``YYYY-MM-DD HH:MM``; empty for ``None``, the unreadable marker for a damaged value."""
    return humanize.abs_time(ms, seconds=seconds)


def fmt_when(ms: Any, now: int, seconds: bool = False) -> str:
    """Relative and absolute: ``3 days ago · 2026-11-28 14:05``; empty for ``None``."""
    return humanize.when(ms, now, seconds=seconds)


def never_text(status: str, pinned: bool) -> str:
    """ "Below threshold from" of a fact that never falls below it: ``never`` / ``never (pinned)``."""
    if status not in ("active", "outside"):
        return ""
    return _tr("never (pinned)") if pinned else _tr("never")


def with_pin(status: str, pinned: bool) -> str:
    """A status with the pin in words (``active, pinned``): an emoji pin is missing from many fonts."""
    return _tr("{0}, pinned").format(status) if pinned else status


def fmt_relative(ms: int, now: int) -> str:
    """``in 12 days`` / ``12 days ago``."""
    return humanize.rel_time(ms, now)


def fmt_number(x: Any, digits: int = 3) -> str:
    if x is None:
        return ""
    if isinstance(x, float) and math.isnan(x):
        return "NaN"
    if isinstance(x, float) and math.isinf(x):
        return "∞" if x > 0 else "-∞"
    s = f"{float(x):.{digits}f}".rstrip("0").rstrip(".")
    return s if s not in ("-0", "") else "0"


def fmt_score(s: float) -> str:
    """A score for people: ``87 %``, ``0.31 %``, ``≈ 0`` below the display floor (the exact value goes in
    tooltips: :func:`humanize.exact_number`)."""
    return humanize.score_text(s)


def fmt_tau(tau: float) -> str:
    if math.isnan(tau):
        return "NaN"
    if math.isinf(tau):
        return "∞"
    return _tr("{0} d").format(fmt_number(tau, 2))


def namespace_tau_text(ns: str) -> str:
    return fmt_tau(namespace_tau_days(ns))


def status_text(status: str) -> str:
    """``active``, ``outside validity window``, ``superseded`` or ``forgotten`` in the interface's language."""
    texts = {
        "active": QCoreApplication.translate("FactsModel", "active"),
        "outside": QCoreApplication.translate("FactsModel", "outside validity window"),
        "superseded": QCoreApplication.translate("FactsModel", "superseded"),
        "forgotten": QCoreApplication.translate("FactsModel", "forgotten"),
    }
    return texts.get(status, status)


def kind_text(kind: str) -> str:
    return (
        QCoreApplication.translate("FactsModel", "event")
        if kind == "event"
        else QCoreApplication.translate("FactsModel", "state")
    )
