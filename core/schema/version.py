"""Schema version rules: how a stored ``schema_version`` is read and where it stands.

Versions 31 to 50 are *known*: the newer reference changed only other tables and the additive columns,
so a file at any of them can be curated. Nothing here ever re-stamps a version.
"""

from __future__ import annotations

import math
import re
from typing import Any, Literal

from core import MAX_KNOWN_SCHEMA_VERSION, MIN_KNOWN_SCHEMA_VERSION
from core.jsutil import js_string_to_number

VersionStatus = Literal["known", "newer", "older", "invalid", "missing"]


def version_status(version: int | None, raw: str | None) -> VersionStatus:
    """Where a stored ``schema_version`` stands (``version`` as :func:`parse_schema_version` reads it).

    ``known``: 31 to 50 (curation allowed); ``newer``: above 50; ``older``: 1 to 30 (a file this project
    does not migrate); ``invalid``: not a positive decimal integer (``'abc'``, ``'-1'``, ``''``, ``'31.5'``,
    ``'+31'``, ``'3.1e1'``, ``' 31'``: see :func:`parse_schema_version`);
    ``missing``: no ``schema_version`` row (or no ``memory_meta``).
    """
    if version is None:
        return "missing" if raw is None else "invalid"
    if version < 1:
        return "invalid"
    if version < MIN_KNOWN_SCHEMA_VERSION:
        return "older"
    if version > MAX_KNOWN_SCHEMA_VERSION:
        return "newer"
    return "known"


def js_number(value: Any) -> float | None:
    """``Number(value)`` as JavaScript computes it for a stored version; None where JS gives NaN."""
    if value is None:
        return 0.0  # Number(null) is 0 (a NULL cannot be stored under the NOT NULL constraint anyway)
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, int | float):
        return None if isinstance(value, float) and math.isnan(value) else float(value)
    if not isinstance(value, str):
        return None
    number = js_string_to_number(value)
    return None if isinstance(number, float) and math.isnan(number) else float(number)


_DECIMAL = re.compile(r"[0-9]+")


def parse_schema_version(value: Any) -> int | None:
    """The stored version as an int when it is a decimal integer, else None.

    A decimal integer is text of ASCII digits only (``'31'``, ``'031'``; no sign, no surrounding
    space, no fraction or exponent) or an SQLite INTEGER. ``'+31'``, ``' 31 '``, ``'31.0'``, ``'3.1e1'``,
    ``'0x1F'``, ``'31.5'``, ``''`` and a REAL give None: the file is shown read-only with the value as
    stored (``invalid``), although the agent's ``Number(value)`` reads some of them as 31. Any number of
    digits is read exactly (a 26-digit version is that number, not a rounded float).
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and _DECIMAL.fullmatch(value):
        return int(value)
    return None
