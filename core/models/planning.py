"""Planning rows: calendar events and scheduled tasks."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from core.damage import RowReader
from core.models.base import RowModel


class CalendarEvent(RowModel):
    id: str
    title: str
    starts_at: int
    ends_at: int | None = None
    rrule: str | None = None
    timezone: str
    related_fact_id: str | None = None
    external_ref: str | None = None
    created_at: int
    root_pursuit_id: str | None = None

    @classmethod
    def from_row(cls, row: Any) -> CalendarEvent:
        r = RowReader(row)
        return cls.model_construct(
            id=r.text("id"),
            title=r.text("title"),
            starts_at=r.time("starts_at", required=True),
            ends_at=r.time("ends_at"),
            rrule=r.text("rrule", null_ok=True),
            timezone=r.text("timezone"),
            related_fact_id=r.text("related_fact_id", null_ok=True),
            external_ref=r.text("external_ref", null_ok=True),
            created_at=r.time("created_at", required=True),
            root_pursuit_id=r.text("root_pursuit_id", null_ok=True),
            damaged=r.damaged,
        )


class Schedule(RowModel):
    id: str
    name: str
    cron_expr: str | None = None
    next_run_at: int
    last_run_at: int | None = None
    action_type: str
    payload_json: str
    payload: Any = None
    enabled: bool = True
    created_at: int
    created_by: str = "llm_external"
    consecutive_failures: int = 0
    paused_until: int | None = None
    project: str | None = None
    root_pursuit_id: str | None = None
    json_errors: list[str] = Field(default_factory=list)

    @classmethod
    def from_row(cls, row: Any) -> Schedule:
        r = RowReader(row)
        text, payload, err = r.json("payload_json")
        return cls.model_construct(
            id=r.text("id"),
            name=r.text("name"),
            cron_expr=r.text("cron_expr", null_ok=True),
            next_run_at=r.time("next_run_at", required=True),
            last_run_at=r.time("last_run_at"),
            action_type=r.text("action_type"),
            payload_json=text,
            payload=payload,
            enabled=r.flag("enabled", default=True),
            created_at=r.time("created_at", required=True),
            created_by=r.text("created_by", default="llm_external"),
            consecutive_failures=r.count("consecutive_failures"),
            paused_until=r.time("paused_until"),
            project=r.text("project", null_ok=True),
            root_pursuit_id=r.text("root_pursuit_id", null_ok=True),
            json_errors=[err] if err else [],
            damaged=r.damaged,
        )


# -- damage of a stored row, for readers of raw rows (exports) ----------------------------------------------
