"""What the Context tab asks the core for, and the jobs that run it off the GUI thread (Qt-free).

The computation itself is :func:`core.context.build_context`; the tab only collects its inputs
(:class:`ContextInputs`), keeps the memory prefix of the last computation for the next keystroke (the
prefix does not depend on the message), and shows the result.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from core.context import ContextResult, build_context, explain_context, export_json, prefix_session_id
from core.models import Message
from core.prefix import PrefixResult
from core.timeline import RawStore

HOST_OSES = ("linux", "windows", "darwin")
PICKER_PAGE = 200


@dataclass(frozen=True)
class ContextInputs:
    """The inputs of one preview (the arguments of :func:`core.context.build_context`)."""

    message: str = ""
    session_ids: tuple[str, ...] = ()
    recent_budget: int = 8000
    recall_budget: int = 4000
    recent_limit: int = 30
    recall_limit: int = 10
    host_os: str | None = None
    home_session_id: str | None = None
    as_of: int | None = None
    as_of_id: int | None = None
    now: int | None = None

    def kwargs(self) -> dict[str, Any]:
        return {
            "session_ids": list(self.session_ids),
            "recent_budget": self.recent_budget,
            "recall_budget": self.recall_budget,
            "recent_limit": self.recent_limit,
            "recall_limit": self.recall_limit,
            "host_os": self.host_os,
            "home_session_id": self.home_session_id,
            "as_of": self.as_of,
            "as_of_id": self.as_of_id,
            "now": self.now,
        }

    def prefix_key(self, minute: int) -> tuple[Any, ...]:
        """What the memory prefix depends on (besides the database): reused while this is unchanged.

        ``minute`` stands for "now" when no fixed time is set (skill ranking moves slowly with time).
        """
        return (
            self.host_os,
            prefix_session_id(self.session_ids),
            self.as_of,
            self.as_of_id,
            self.now if self.now is not None or self.as_of is not None else minute,
        )

    def with_message(self, text: str) -> ContextInputs:
        return replace(self, message=text)


def parse_session_list(text: str) -> tuple[str, ...]:
    """``"a, b  c"`` -> ``("a", "b", "c")`` (commas or whitespace separate ids; duplicates dropped)."""
    parts = [p for chunk in text.replace(",", " ").split() for p in [chunk.strip()] if p]
    return tuple(dict.fromkeys(parts))


# -- jobs (run on a worker: ``fn(db, *args)``) ----------------------------------------------------------


def job_build_context(
    db: Any, inputs: ContextInputs, prefix: PrefixResult | None, job: Any = None
) -> ContextResult:
    """:func:`build_context` for ``inputs`` without the recall explanation's details (word counts,
    keyword query: :func:`job_explain` adds them after the preview is shown); stops early once the job
    is cancelled (a newer keystroke)."""
    check = (lambda: job.cancelled) if job is not None else None
    return build_context(
        db, inputs.message, prefix=prefix, cancel_check=check, explain=False, **inputs.kwargs()
    )


def with_details(db: Any, result: ContextResult, cancel_check: Any = None) -> ContextResult:
    """``result`` with its recall explanation complete (what ``context --json`` prints); ``result``
    itself is not changed (it may be on screen)."""
    e = result.recall
    if e is None or e.detailed:
        return result
    own = result.model_copy(update={"recall": replace(e, notices=list(e.notices))})
    explained = explain_context(db, own, cancel_check=cancel_check)
    return own.model_copy(update={"recall": explained})


def job_explain(db: Any, result: ContextResult, job: Any = None) -> ContextResult:
    """:func:`with_details` on a worker; cancelled with the preview it explains."""
    check = (lambda: job.cancelled) if job is not None else None
    return with_details(db, result, check)


def job_message(db: Any, message_id: int) -> Message | None:
    """The message ``message_id`` (``None`` when it is not in the file): a past turn to show."""
    found = RawStore(db).get_messages([message_id])
    return found[0] if found else None


@dataclass(frozen=True)
class SessionChoice:
    id: str
    count: int
    started_at: int | None


def job_sessions(db: Any) -> list[SessionChoice]:
    """The sessions with messages, newest first, for the session pickers."""
    out = []
    for s in RawStore(db).list_sessions():
        if s.id is None:
            continue
        out.append(SessionChoice(s.id, int(s.message_count or 0), s.started_at))
    return out


@dataclass
class PickerPage:
    query: str
    messages: list[Message] = field(default_factory=list)
    spans: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    next_before: tuple[int, int] | None = None
    error: str | None = None


def job_user_messages(
    db: Any, query: str, before: tuple[int, int] | None, limit: int = PICKER_PAGE
) -> PickerPage:
    """A page of user messages, newest first: all of them, or those the timeline search finds."""
    raw = RawStore(db)
    if query.strip():
        page = raw.search_page(query, roles=["user"], limit=limit, before=before)
        msgs = [h.message for h in page.hits]
        return PickerPage(
            query=query,
            messages=msgs,
            spans={h.message.id: list(h.match_spans) for h in page.hits},
            next_before=page.next_before,
            error=page.error,
        )
    msgs = raw.query_timeline(order="desc", limit=limit, roles=["user"], before=before)
    nb = (msgs[-1].timestamp, msgs[-1].id) if len(msgs) == limit else None
    return PickerPage(query=query, messages=msgs, next_before=nb)


def job_export(db: Any, result: ContextResult, path: str) -> Path:
    """Write the command line's JSON to ``path`` (mode 0600), with the recall explanation complete."""
    return export_json(with_details(db, result), path)
