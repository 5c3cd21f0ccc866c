"""What :func:`core.context.build_context` computed (:class:`ContextResult`): the command line's
``context --json`` shape (:meth:`ContextResult.to_json`), the budgets and the text a viewer shows."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from core.errors import Notice
from core.jsutil import iso_ms
from core.models import Message
from core.prefix import MEMORY_PREFIX_TOTAL_CAP, PrefixResult
from core.recall import RetrievedMessage, RetrieveResult
from core.recall_explain import RecallExplanation

__all__ = ["BudgetUse", "ContextResult", "LeftOut", "SearchModeName", "TriggerInfo"]

SearchModeName = Literal["none", "empty", "fts", "like"]


class TriggerInfo(BaseModel):
    """The recall trigger's result: the matched ``snippet`` and rule, and the text the server injects."""

    hit: bool = True
    snippet: str
    pattern: str
    injected: str


class LeftOut(BaseModel):
    """A message that was considered and is not in the timeline output, with the reason."""

    id: int
    reason: str  # over_budget | already_recent | system_message | candidate_limit
    section: Literal["recent", "recall"]
    role: str | None = None
    timestamp: int | None = None
    session_id: str | None = None
    tokens: int | None = None
    chars: int | None = None
    preview: str = ""


class BudgetUse(BaseModel):
    """One budget: what was used against its limit (``used`` may pass ``limit``: the first message is
    always taken)."""

    name: Literal["recent_tokens", "recall_tokens", "recent_messages", "recall_candidates", "prefix_chars"]
    used: int
    limit: int
    parts: list[tuple[str, int]] = Field(default_factory=list)  # (label, amount) stacked segments


class ContextResult(BaseModel):
    """Everything :func:`build_context` computed. :meth:`to_json` is the command line's shape."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    message: str
    session_ids: list[str] = Field(default_factory=list)
    recent_budget: int | float = 8000
    recall_budget: int | float = 4000
    recent_limit: int = 30
    recall_limit: int = 10
    host_os: str | None = None
    home_session_id: str | None = None
    as_of: int | None = None
    as_of_id: int | None = None
    as_of_message: Message | None = None
    now: int
    prefix_session_id: str
    prefix: PrefixResult
    trigger: TriggerInfo | None = None
    timeline: RetrieveResult
    recall_query: str = ""
    search_mode: SearchModeName = "none"
    search_safe: str = ""
    substring: Literal["proven", "scanned"] | None = None
    recall: RecallExplanation | None = None
    highlights: dict[int, list[tuple[int, int]]] = Field(default_factory=dict)
    left_out: list[LeftOut] = Field(default_factory=list)
    recent_tokens: int = 0
    recall_tokens: int = 0
    omitted: dict[str, str] = Field(default_factory=dict)
    limits: dict[str, str] = Field(default_factory=dict)
    timings_ms: dict[str, float] = Field(default_factory=dict)
    #: For each damaged row the agent would be given (a prefix fact or skill, a timeline message): what
    #: the agent makes of it (:func:`core.damage.row_notice`); the prefix's first.
    row_notices: list[Notice] = Field(default_factory=list)

    # -- the command line's shape ----------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """``philont-memory context --json`` (issue 3): exactly these keys, in this order; ``damaged_rows``
        lists :attr:`row_notices` (``{code, message, params}``)."""
        t = self.timeline
        return {
            "prefix": self.prefix.text,
            "sections": [
                {"name": s.name, "text": s.text, "chars": s.chars, "tokens": s.tokens}
                for s in self.prefix.sections
            ],
            "recall_trigger": None
            if self.trigger is None
            else {"hit": self.trigger.hit, "snippet": self.trigger.snippet, "pattern": self.trigger.pattern},
            "timeline": {
                "messages": [
                    {
                        "id": m.id,
                        "role": m.role,
                        "content": m.content,
                        "timestamp": m.timestamp,
                        "section": m.section,
                    }
                    for m in t.messages
                ],
                "totalTokens": t.total_tokens,
                "recencyCount": t.recency_count,
                "recallCount": t.recall_count,
                "excluded": [{"id": e.id, "reason": e.reason} for e in t.excluded],
            },
            "recall": None if self.recall is None else self.recall.to_json(),
            "damaged_rows": [n.to_json() for n in self.row_notices],
        }

    def to_json_text(self) -> str:
        """:meth:`to_json` as the command line prints it (UTF-8, two-space indent, final newline)."""
        return json.dumps(self.to_json(), ensure_ascii=False, indent=2) + "\n"

    # -- views -----------------------------------------------------------------------------------------
    def messages_in(self, section: str) -> list[RetrievedMessage]:
        return [m for m in self.timeline.messages if m.section == section]

    def budgets(self) -> list[BudgetUse]:
        """The five budgets, each with what the sections use (tokens are the retriever's estimates)."""
        t = self.timeline
        # Candidates the recall walk saw and did not take (the rest of the recall_limit search hits).
        skipped = sum(
            1
            for e in self.left_out
            if e.section == "recall" and e.reason in ("already_recent", "over_budget")
        )
        recent_out = sum(m.tokens for m in self.messages_in("recent"))
        recall_out = sum(m.tokens for m in self.messages_in("recall"))
        return [
            BudgetUse(
                name="recent_tokens",
                used=self.recent_tokens,
                limit=int(self.recent_budget),
                parts=[("shown", recent_out), ("system", self.recent_tokens - recent_out)],
            ),
            BudgetUse(
                name="recall_tokens",
                used=self.recall_tokens,
                limit=int(self.recall_budget),
                parts=[("shown", recall_out), ("system", self.recall_tokens - recall_out)],
            ),
            BudgetUse(name="recent_messages", used=t.recency_count, limit=self.recent_limit),
            BudgetUse(
                name="recall_candidates",
                used=t.recall_count + skipped,
                limit=self.recall_limit,
                parts=[("chosen", t.recall_count), ("skipped", skipped)],
            ),
            BudgetUse(
                name="prefix_chars",
                used=self.prefix.chars,
                limit=MEMORY_PREFIX_TOTAL_CAP,
                parts=[(s.name, s.chars) for s in self.prefix.sections],
            ),
        ]

    def to_text(self) -> str:
        """The whole context as text, in the order the agent receives it (for copying)."""
        p = self.prefix
        out: list[str] = []
        head = f"=== Memory prefix: {len(p.sections)} sections, {p.chars} chars, {p.tokens} tokens"
        if self.as_of is not None:
            head += f" (as of {_iso(self.as_of)}"
            head += f", before message #{self.as_of_id})" if self.as_of_id is not None else ")"
        out += [head + " ===", p.text, ""]
        if self.trigger is None:
            out += ["=== Recall trigger: no hit ===", ""]
        else:
            out += [
                f'=== Recall trigger: {self.trigger.pattern} "{self.trigger.snippet}" ===',
                self.trigger.injected,
                "",
            ]
        t = self.timeline
        out.append(
            f"=== Timeline: {len(t.messages)} messages, {t.total_tokens} tokens "
            f"(recent {t.recency_count}, recalled {t.recall_count}) ==="
        )
        for m in t.messages:
            ident = "" if m.id is None else f"#{m.id} "
            out.append(f"[{m.section}] {ident}{_iso(m.timestamp)} {m.role}: {m.content}")
        out.append("")
        out += ["=== This turn ===", f"user: {self.message}", ""]
        if self.left_out:
            out.append("=== Left out ===")
            out += [f"#{e.id} ({e.section}, {e.reason})" for e in self.left_out]
            out.append("")
        if self.omitted:
            out.append("=== Not reproduced (filled only by the agent's server) ===")
            out += [f"- {v}" for v in self.omitted.values()]
            out.append("")
        return "\n".join(out)


def _iso(ms: int | float | None) -> str:
    if ms is None:
        return "-"
    try:
        return iso_ms(ms)
    except (ValueError, OverflowError, TypeError):
        return str(ms)
