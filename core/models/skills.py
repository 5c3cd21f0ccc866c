"""Layer 3 rows: skills, with the revision history of a recipe."""

from __future__ import annotations

import math
from typing import Any

from pydantic import Field

from core.damage import RowReader
from core.models.base import MATURITIES, RowModel, parse_json_lenient


class RevisionSnapshot(RowModel):
    """One entry of ``memory_skills.revision_history`` (Part B §2), oldest first."""

    at: int
    action_template: str | None = None
    verification: Any = None
    tool_policy: list[Any] | None = None
    reason: str = ""


def _snapshot_time(at: Any) -> int | None:
    if isinstance(at, bool) or not isinstance(at, int | float):
        return None
    if isinstance(at, float) and not math.isfinite(at):
        return None
    return int(at) if -8_640_000_000_000_000 <= at <= 8_640_000_000_000_000 else None


def _revisions(items: list[Any]) -> tuple[list[RevisionSnapshot], list[str]]:
    out: list[RevisionSnapshot] = []
    problems: list[str] = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            problems.append(f"entry {i + 1} is not an object")
            continue
        at = _snapshot_time(item.get("at"))
        if at is None:
            problems.append(f"entry {i + 1} has no readable time")
        tpl = item.get("actionTemplate")
        tp = item.get("toolPolicy")
        reason = item.get("reason")
        out.append(
            RevisionSnapshot.model_construct(
                at=0 if at is None else at,
                action_template=tpl if tpl is None or isinstance(tpl, str) else str(tpl),
                verification=item.get("verification"),
                tool_policy=tp if isinstance(tp, list) else None,
                reason=reason if isinstance(reason, str) else "",
            )
        )
    return out, problems


def parse_revision_history(text: str | None) -> list[RevisionSnapshot]:
    """Part B §2: ``[]`` for NULL, empty, malformed or non-array values."""
    value, err = parse_json_lenient(text)
    if err or not isinstance(value, list):
        return []
    return _revisions(value)[0]


def _revision_history(r: RowReader) -> list[RevisionSnapshot]:
    """Part B §2 (``[]`` for NULL, empty, malformed or non-array values), with the damage recorded."""
    if not r.has("revision_history"):
        return []
    text, value, err = r.json("revision_history", null_ok=True)
    if not text or err is not None:
        return []
    if not isinstance(value, list):
        r.wrong_type("revision_history", "not a JSON array (read as no revisions)")
        return []
    out, problems = _revisions(value)
    if problems:
        r.wrong_type("revision_history", "; ".join(problems))
    return out


def _safe_json(r: RowReader, col: str) -> Any:
    """The reference's ``safeParse``: NULL, empty or malformed gives None (the damage recorded)."""
    return r.json(col, null_ok=True)[1]


class Skill(RowModel):
    id: str
    name: str
    description: str
    trigger_keywords: list[Any] = Field(default_factory=list)
    trigger_keywords_json: str = "[]"
    action_template: str = ""
    use_count: int = 0
    last_used_at: int | None = None
    created_at: int
    success_count: int = 0
    failure_count: int = 0
    last_failure_at: int | None = None
    kind: str = "positive"
    source: str | None = None
    root_pursuit_id: str | None = None
    maturity: str = "draft"
    maturity_raw: str | None = None
    last_success_at: int | None = None
    consecutive_failures: int = 0
    when_to_use: str = ""
    verification: Any = None
    tool_policy: list[Any] | None = None
    revision_history: list[RevisionSnapshot] = Field(default_factory=list)
    offered_count: int = 0
    from_disk: int = 0
    matched_count: int = 0
    rowid: int | None = None
    json_errors: list[str] = Field(default_factory=list)

    @property
    def is_recipe(self) -> bool:
        """A callable recipe is a skill whose ``verification`` is set (decision 5)."""
        return self.verification is not None

    @classmethod
    def from_row(cls, row: Any) -> Skill:
        r = RowReader(row)
        errors: list[str] = []
        kw_json, kws, err = r.json("trigger_keywords")
        if err:
            errors.append(err)
            kws = []
        elif not isinstance(kws, list):
            errors.append("trigger_keywords: not a JSON array")
            r.wrong_type("trigger_keywords", "not a JSON array")
            kws = []
        raw_mat = r.text("maturity", default="draft")
        tp = _safe_json(r, "tool_policy")
        if tp is not None and not isinstance(tp, list):
            r.wrong_type("tool_policy", "not a JSON array (read as no policy)")
        return cls.model_construct(
            id=r.text("id"),
            name=r.text("name"),
            description=r.text("description"),
            trigger_keywords=kws,
            trigger_keywords_json=kw_json,
            action_template=r.text("action_template"),
            use_count=r.count("use_count"),
            last_used_at=r.time("last_used_at"),
            created_at=r.time("created_at", required=True),
            success_count=r.count("success_count"),
            failure_count=r.count("failure_count"),
            last_failure_at=r.time("last_failure_at"),
            kind="negative" if r.text("kind", default="positive") == "negative" else "positive",
            source=r.text("source", null_ok=True),
            root_pursuit_id=r.text("root_pursuit_id", null_ok=True),
            maturity=raw_mat if raw_mat in MATURITIES else "draft",
            maturity_raw=raw_mat,
            last_success_at=r.time("last_success_at"),
            consecutive_failures=r.count("consecutive_failures"),
            when_to_use=r.text("when_to_use", null_ok=True) or "",
            verification=_safe_json(r, "verification"),
            tool_policy=tp if isinstance(tp, list) else None,
            revision_history=_revision_history(r),
            offered_count=r.count("offered_count"),
            from_disk=r.count("from_disk"),
            matched_count=r.count("matched_count"),
            rowid=row["rowid"] if r.has("rowid") else None,
            json_errors=errors,
            damaged=r.damaged,
        )
