"""What the test suites share besides fixtures (importable as ``tests.support``)."""

from __future__ import annotations

# The fixed "now" of time-dependent tests and of the demo databases they build: 2026-06-15T12:00:00.000Z.
FIXED_NOW = 1_781_524_800_000
