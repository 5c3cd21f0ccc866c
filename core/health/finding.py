"""The shapes of the doctor's answers: a :class:`Finding` and the :class:`Fix` it offers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.errors import Notice

SEVERITIES = ("fail", "warn", "info")  # worst first
LAYERS = ("facts", "skills", "notes", "indexes", "calendar", "file")


@dataclass(frozen=True)
class Fix:
    """A one-step fix: ``code`` (``health.fix.*``, translated in the app) and what it needs to run."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}


@dataclass(frozen=True)
class Finding:
    """One thing found wrong (or worth knowing): ``code`` (``health.<layer>.<what>``), ``severity`` (one of
    :data:`SEVERITIES`), ``layer`` (one of :data:`LAYERS`), ``targets`` (ids or names of the rows
    concerned), ``message`` (a code with parameters, rendered in English), ``measure`` (the measured
    values and the threshold they were held against) and the ``fix`` offered, if any."""

    code: str
    severity: str
    layer: str
    targets: list[Any]
    message: Notice
    measure: dict[str, Any] = field(default_factory=dict)
    fix: Fix | None = None
