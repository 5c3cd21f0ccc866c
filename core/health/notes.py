"""The doctor's checks of the notes layer (``memory_notes``).

* ``health.notes.duplicate`` (warn): live notes holding the same text (white space collapsed,
  case-folded);
* ``health.notes.forgotten_found`` (warn): forgotten notes still in the notes' full-text index: the
  agent's ``search_notes`` ignores ``forgotten_at`` and keeps finding them (spec Part A §0.8).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from core.health.context import Context, finding, stored_text
from core.health.finding import Finding, Fix


def check_duplicates(ctx: Context) -> list[Finding]:
    groups: dict[str, list[tuple[Any, Any, Any, Any]]] = defaultdict(list)
    for n in ctx.notes:
        _, content, _, forgotten_at = n
        if forgotten_at is None and isinstance(content, str):
            text = " ".join(content.split()).casefold()
            if text:
                groups[text].append(n)
    out = []
    for notes in groups.values():
        if len(notes) > 1:
            ids = [n[0] for n in notes]  # oldest row first
            out.append(
                finding(
                    "health.notes.duplicate",
                    "warn",
                    ids,
                    {"count": len(ids)},
                    Fix("health.fix.merge_duplicates", {"layer": "notes", "ids": ids}),
                    count=len(ids),
                )
            )
    return out


def check_forgotten_found(ctx: Context) -> list[Finding]:
    if not ctx.has_table("memory_notes_fts_docsize"):
        return []
    rows = ctx.rows(
        "SELECT n.id FROM memory_notes AS n WHERE n.forgotten_at IS NOT NULL "
        "AND EXISTS (SELECT 1 FROM memory_notes_fts_docsize AS d WHERE d.id = n.rowid) ORDER BY n.rowid"
    )
    ids = [stored_text(r[0]) for r in rows]
    if not ids:
        return []
    return [
        finding(
            "health.notes.forgotten_found",
            "warn",
            ids,
            {"count": len(ids)},
            None,
            count=len(ids),
        )
    ]


CHECKS = [check_duplicates, check_forgotten_found]
