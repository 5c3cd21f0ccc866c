"""The recall tools: ``search_notes`` and ``recall_sessions`` (hits grouped by conversation)."""

from __future__ import annotations

from typing import Any

from core.jsutil import (
    int_if_integral,
    iso_ms,
    js_max,
    js_min,
    js_slice,
    js_slice_end,
    js_to_number,
    js_trim,
    js_truthy,
    parse_time_field,
)
from core.notes import NotesStore
from core.timeline import RawStore, sanitize_query
from core.tool_params import RecallSessionsParams, SearchNotesParams
from core.tools.result import Ctx, ToolResult, fail, ok, sql_int_ok


def search_notes(ctx: Ctx, p: SearchNotesParams) -> ToolResult:
    limit = 5 if p.limit is None else int_if_integral(js_to_number(p.limit))
    if not sanitize_query(p.query):
        return ok("", [])
    if not sql_int_ok(limit):
        return fail("SqliteError: datatype mismatch")
    notes = NotesStore(ctx.db).search(p.query, limit)
    return ok("\n".join(f"- {n.content}" for n in notes), [n.to_json() for n in notes])


def recall_sessions(ctx: Ctx, p: RecallSessionsParams) -> ToolResult:
    q = p.query
    if not isinstance(q, str) or not js_trim(q):
        return fail("query must be a non-empty string")
    since = parse_time_field(p.since)
    until = parse_time_field(p.until)
    lim = js_max(1, js_min(20, 5 if p.limit is None else js_to_number(p.limit)))
    search_limit = int_if_integral(lim * 6)
    hits = []
    if sanitize_query(q):
        if not sql_int_ok(search_limit):
            return fail("SqliteError: datatype mismatch")
        hits = RawStore(ctx.db).search_messages(q, since=since, until=until, limit=search_limit)
    if not hits:
        return ok(
            f'No past sessions matching "{q}" (0 hits). Try search_notes / list_facts to look up facts rather '
            "than conversation records.",
            [],
        )
    by_session: dict[str, list[Any]] = {}
    for m in hits:
        by_session.setdefault(m.session_id, []).append(m)
    notes = NotesStore(ctx.db)
    raw = RawStore(ctx.db)
    aggregated: list[dict[str, Any]] = []
    for sid, msgs in by_session.items():
        top = msgs[:3]
        session = raw.get_session(sid, with_count=False)
        note = notes.get(f"session-summary-{sid}")
        aggregated.append(
            {
                "sessionId": sid,
                "startedAt": session.started_at if session is not None else top[0].timestamp,
                "endedAt": session.ended_at if session is not None else None,
                "summary": note.content if note is not None else None,
                "topHits": [
                    {"role": m.role, "timestamp": m.timestamp, "snippet": js_slice(m.content, 0, 200)}
                    for m in top
                ],
            }
        )
    aggregated.sort(key=lambda s: s["startedAt"], reverse=True)
    aggregated = aggregated[: js_slice_end(lim)]
    blocks: list[str] = []
    for s in aggregated:
        start_iso = iso_ms(s["startedAt"])
        end_frag = f" - {iso_ms(s['endedAt'])}" if js_truthy(s["endedAt"]) else " (not closed)"
        summary_frag = f"\n  summary: {s['summary']}" if js_truthy(s["summary"]) else "\n  (no summary)"
        hits_frag = "\n".join(f"    [{h['role']}] {h['snippet']}" for h in s["topHits"])
        blocks.append(
            f"- session={s['sessionId']} @ {start_iso}{end_frag}{summary_frag}\n  hits:\n{hits_frag}"
        )
    return ok("\n\n".join(blocks), aggregated)
