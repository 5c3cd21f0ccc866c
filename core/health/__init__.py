"""Memory health: checks of every layer (a measurement, a threshold, a severity, the rows concerned and
the fix offered) and the one-step fixes they offer. :mod:`.finding` holds the shapes."""

from core.health.checks import HealthOptions, HealthReport, run_checks
from core.health.finding import LAYERS, SEVERITIES, Finding, Fix

__all__ = ["LAYERS", "SEVERITIES", "Finding", "Fix", "HealthOptions", "HealthReport", "run_checks"]
