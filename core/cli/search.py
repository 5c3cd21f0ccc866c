"""``search`` (full-text search of one layer) and ``conversations`` (the timeline's conversations)."""

from __future__ import annotations

import argparse
from typing import Any

from core.cli.args import arg_text, optional_time, positive_int
from core.cli.command import Command, Ctx
from core.cli.output import UsageError, damage_note, first_line, fmt_num, iso, one_line

LAYERS = ("messages", "notes", "skills")


def configure_search(p: argparse.ArgumentParser) -> None:
    p.add_argument("query", metavar="QUERY", type=arg_text)
    p.add_argument("--layer", choices=LAYERS, default="messages")
    p.add_argument("--limit", type=positive_int, default=20)
    p.add_argument(
        "--session", metavar="ID", action="append", type=arg_text, help="only these sessions (repeatable)"
    )
    p.add_argument(
        "--origin",
        metavar="ID",
        action="append",
        type=arg_text,
        help="only these conversations (repeatable): an origin such as web-ui:abc or wechat:x, an older "
        "session's id, or 'global' for messages of unknown origin",
    )
    p.add_argument("--since", metavar="T")
    p.add_argument("--until", metavar="T")


def _search_rows(ctx: Ctx, since: int | None, until: int | None) -> list[dict[str, Any]]:
    a = ctx.args
    with ctx.open() as db:
        if a.layer == "messages":
            from core.timeline import RawStore

            rows = RawStore(db).search_messages(
                a.query,
                since=since,
                until=until,
                session_ids=a.session or None,
                limit=a.limit,
                conversations=a.origin,
            )
            return [m.to_json() for m in rows]
        if a.layer == "notes":
            from core.notes import NotesStore

            return [n.to_json() for n in NotesStore(db).search(a.query, limit=a.limit)]
        from core.shapes import skill_json
        from core.skills import SkillStore

        skills = SkillStore(db).search(a.query, limit=a.limit, now=ctx.now)
        return [skill_json(s, ctx.now) for s in skills]


def _result_line(layer: str, row: dict[str, Any]) -> str:
    if layer == "messages":
        where = (row["sessionId"] or "?") + (
            f" ← {row['originSessionId']}" if row.get("originSessionId") else ""
        )
        return (
            f"#{row['id']}  {iso(row['timestamp'])}  [{where}] {row['role'] or '?'}: {first_line(row['content'])}"
            + damage_note(row)
        )
    if layer == "notes":
        flag = " (forgotten)" if row.get("forgottenAt") is not None else ""
        return (
            f"{row['id']}  importance {fmt_num(row['importance'])}{flag}: {first_line(row['content'])}"
            + damage_note(row)
        )
    return (
        f"{row['name']}  [{row['maturity'] or '?'}, {row['kind'] or '?'}]  {first_line(row['description'])}"
        + damage_note(row)
    )


def run_search(ctx: Ctx) -> int:
    a = ctx.args
    since = optional_time(a.since, "--since")
    until = optional_time(a.until, "--until")
    if a.layer != "messages" and (a.session or a.origin or since is not None or until is not None):
        raise UsageError("--session, --origin, --since and --until apply only to --layer messages")
    results = _search_rows(ctx, since, until)
    if ctx.out.as_json:
        ctx.out.json({"layer": a.layer, "query": a.query, "count": len(results), "results": results})
        return 0
    for row in results:
        ctx.out.text(_result_line(a.layer, row))
    ctx.out.text(f"({len(results)} result{'s' if len(results) != 1 else ''})")
    return 0


def run_conversations(ctx: Ctx) -> int:
    from core.conversations import list_conversations

    with ctx.open() as db:
        convs = list_conversations(db)
    if ctx.out.as_json:
        ctx.out.json({"conversations": [c.to_json() for c in convs]})
        return 0
    o = ctx.out.text
    for c in convs:
        o(f"{one_line(c.id):<40} {c.channel:<10} {c.message_count:>7}  {iso(c.first_at)} .. {iso(c.last_at)}")
    o(f"({len(convs)} conversation{'s' if len(convs) != 1 else ''})")
    return 0


COMMANDS = (
    Command(
        "search",
        "full-text search of messages, notes or skills (the reference's search)",
        run_search,
        configure_search,
    ),
    Command("conversations", "the conversations of the timeline, by origin, newest first", run_conversations),
)
