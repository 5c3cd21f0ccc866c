"""Layer 2 rows: notes and facts."""

from __future__ import annotations

import math
from typing import Any

from pydantic import Field

from core.damage import RowReader
from core.models.base import RowModel


class Note(RowModel):
    id: str
    content: str
    importance: float = 0.5
    session_id: str | None = None
    created_at: int
    last_accessed_at: int | None = None
    forgotten_at: int | None = None
    root_pursuit_id: str | None = None

    @classmethod
    def from_row(cls, row: Any) -> Note:
        r = RowReader(row)
        return cls.model_construct(
            id=r.text("id"),
            content=r.text("content"),
            importance=r.real("importance", required=True),
            session_id=r.text("session_id", null_ok=True),
            created_at=r.time("created_at", required=True),
            last_accessed_at=r.time("last_accessed_at"),
            forgotten_at=r.time("forgotten_at"),
            root_pursuit_id=r.text("root_pursuit_id", null_ok=True),
            damaged=r.damaged,
        )


class Fact(RowModel):
    id: str
    namespace: str
    key: str
    value: Any = None
    value_json: str
    confidence: float = 1.0
    superseded_by: str | None = None
    supersedes: str | None = None
    created_at: int
    occurred_at: int | None = None
    valid_from: int | None = None
    valid_until: int | None = None
    last_accessed_at: int | None = None
    decay_tau_days: float | None = None
    forgotten_at: int | None = None
    fact_kind: str = "state"
    root_pursuit_id: str | None = None
    json_errors: list[str] = Field(default_factory=list)

    @property
    def pinned(self) -> bool:
        return self.decay_tau_days is not None and self.decay_tau_days < 0

    @property
    def active(self) -> bool:
        return self.superseded_by is None and self.forgotten_at is None

    @property
    def confidence_valid(self) -> bool:
        c = self.confidence
        return isinstance(c, int | float) and not math.isnan(c) and 0.0 <= c <= 1.0

    @classmethod
    def from_row(cls, row: Any) -> Fact:
        r = RowReader(row)
        text, value, err = r.json("value_json")
        if err is not None and "value_json" in r.damaged and r.damaged["value_json"].problem != "missing":
            value = text  # shown as the stored text
        kind = r.text("fact_kind", default="state")
        return cls.model_construct(
            id=r.text("id"),
            namespace=r.text("namespace"),
            key=r.text("key"),
            value=value,
            value_json=text,
            confidence=r.real("confidence", required=True),
            superseded_by=r.text("superseded_by", null_ok=True),
            supersedes=r.text("supersedes", null_ok=True),
            created_at=r.time("created_at", required=True),
            occurred_at=r.time("occurred_at"),
            valid_from=r.time("valid_from"),
            valid_until=r.time("valid_until"),
            last_accessed_at=r.time("last_accessed_at"),
            decay_tau_days=r.real("decay_tau_days"),
            forgotten_at=r.time("forgotten_at"),
            fact_kind="event" if kind == "event" else "state",
            root_pursuit_id=r.text("root_pursuit_id", null_ok=True),
            json_errors=[err] if err else [],
            damaged=r.damaged,
        )
