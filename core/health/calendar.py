"""The doctor's checks of the calendar layer."""

from __future__ import annotations

from typing import Any

CHECKS: list[Any] = []
