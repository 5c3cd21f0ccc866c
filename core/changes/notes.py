"""Note changes: new, edited, forgotten, unforgotten, gone.

A note's ``created_at`` and ``forgotten_at`` date those changes; an edit (the agent's upsert of a session
summary, a person's correction) writes no time, so with a time baseline only the edits made in the
desktop app are seen (its audit trail), and with a backup baseline every edit is seen, dated by the
audit trail or not at all.
"""

from __future__ import annotations

import hashlib
from typing import Any

from core.changes.context import NOTES, Ctx, Transition, ms, note_state
from core.changes.model import ChangeItem, Target, preview
from core.changes.rowdiff import TableDiff

__all__ = ["notes_against", "notes_since"]

LAYER = "notes"
_EDITABLE = ("content", "importance", "session_id", "created_at", "root_pursuit_id")


def _item(code: str, row: Any, key: str, **kw: Any) -> ChangeItem:
    text = preview(row.get("content") if isinstance(row, dict) else row["content"])
    params = {"preview": text, **kw.pop("params", {})}
    return ChangeItem(LAYER, code, Target("note", str(row["id"]), text), params, key=key, **kw)


def _new(ctx: Ctx, row: Any) -> ChangeItem:
    actor = ctx.audit.creator(NOTES, row["id"]) if ctx.audit else None
    return _item(
        "change.note.new",
        row,
        str(row["id"]),
        params={"importance": row["importance"]},
        after=note_state(row),
        at=ms(row["created_at"]),
        actor=actor,
    )


def _forgotten(ctx: Ctx, row: Any, before_forgotten: Any = None) -> ChangeItem:
    at = ms(row["forgotten_at"])
    tr = ctx.audit.last_changing(NOTES, row["id"], ("forgotten_at",)) if ctx.audit else None
    before = {**note_state(row), "forgottenAt": before_forgotten}
    return _item(
        "change.note.forgotten",
        row,
        f"{row['id']}@{at}",
        before=before,
        after=note_state(row),
        at=at,
        actor=tr.entry.actor if tr else None,
    )


def _dating(tr: Transition | None) -> dict[str, Any]:
    if tr is None:
        return {"at": None, "dating": "unknown"}
    return {"at": tr.entry.at, "actor": tr.entry.actor, "dating": "exact"}


def _inplace(
    ctx: Ctx, before: dict[str, Any], after: dict[str, Any], tr: Transition | None = None
) -> list[ChangeItem]:
    out: list[ChangeItem] = []
    nid = after["id"]
    fields = [c for c in _EDITABLE if c in after and before.get(c) != after.get(c)]
    if fields:
        w = _dating(tr or (ctx.audit.last_changing(NOTES, nid, fields) if ctx.audit else None))
        out.append(
            _item(
                "change.note.edited",
                after,
                f"{nid}:edited:{hash_text(after)}",
                params={"fields": fields},
                before=note_state(before),
                after=note_state(after),
                **w,
            )
        )
    if before.get("forgotten_at") is not None and after.get("forgotten_at") is None:
        w = _dating(tr or (ctx.audit.last_changing(NOTES, nid, ("forgotten_at",)) if ctx.audit else None))
        out.append(
            _item(
                "change.note.unforgotten",
                after,
                f"{nid}:unforgot@{w['at']}",
                before=note_state(before),
                after=note_state(after),
                **w,
            )
        )
    return out


def hash_text(row: dict[str, Any]) -> str:
    basis = f"{row.get('content')}\x1f{row.get('importance')}"
    return hashlib.sha1(basis.encode("utf-8", "surrogatepass")).hexdigest()[:12]


def _removed(ctx: Ctx, row: dict[str, Any]) -> ChangeItem:
    tr = None
    if ctx.audit:
        tr = next((t for t in reversed(ctx.audit.of(NOTES, row["id"])) if t.after is None), None)
    w = _dating(tr)
    return _item("change.note.removed", row, f"{row['id']}:removed", before=note_state(row), **w)


def notes_since(ctx: Ctx) -> list[ChangeItem]:
    t = ctx.after.t(NOTES)
    rng = (ctx.since if ctx.since is not None else -(2**63), ctx.until)
    items = [
        _new(ctx, r)
        for r in ctx.after.rows(f"SELECT * FROM {t} WHERE created_at > ? AND created_at <= ?", rng)
    ]
    forgotten = ctx.after.rows(f"SELECT * FROM {t} WHERE forgotten_at > ? AND forgotten_at <= ?", rng)
    items += [_forgotten(ctx, r) for r in forgotten]
    if ctx.audit is not None:
        for tr in ctx.audit.table(NOTES):
            if tr.before is not None and tr.after is not None:
                items += _inplace(ctx, tr.before, tr.after, tr)
            elif tr.before is not None:
                items.append(_removed(ctx, tr.before))
    return items


def notes_against(ctx: Ctx, diff: TableDiff) -> list[ChangeItem]:
    items = [_new(ctx, r) for r in diff.added]
    for before, after in diff.changed:
        items += _inplace(ctx, before, after)
        fb, fa = before.get("forgotten_at"), after.get("forgotten_at")
        if fa is not None and fa != fb:
            items.append(_forgotten(ctx, after, before_forgotten=fb))
    items += [_removed(ctx, r) for r in diff.removed]
    return items
