"""Calendar and schedule changes: new, changed, gone, and tasks paused after failures.

``created_at`` dates new events and tasks. Changes in place and deletions leave no time: with a time
baseline only those made in the desktop app are seen (its audit trail); with a backup baseline all are,
dated by the audit trail or not at all. A task is paused after failures when ``paused_until`` is set
and ``consecutive_failures`` is above zero; the pause is dated by the task's newest failed run in the
window (``schedule_outcomes``), else by its ``last_run_at`` there. The scheduler's own bookkeeping
(``next_run_at``, ``last_run_at``, the failure count) is not a change to review.
"""

from __future__ import annotations

from typing import Any

from core.changes.context import EVENTS, OUTCOMES, SCHEDULES, Ctx, Transition, ms
from core.changes.model import ChangeItem, Target
from core.changes.rowdiff import TableDiff

__all__ = ["calendar_against", "calendar_since", "schedules_against", "schedules_since"]

_SCHEDULE_BOOKKEEPING = frozenset({"next_run_at", "last_run_at", "consecutive_failures", "paused_until"})


def _event(code: str, row: dict[str, Any] | Any, key: str, **kw: Any) -> ChangeItem:
    title = str(row["title"])
    params = {"title": title, **kw.pop("params", {})}
    return ChangeItem("calendar", code, Target("event", str(row["id"]), title), params, key=key, **kw)


def _task(code: str, row: dict[str, Any] | Any, key: str, **kw: Any) -> ChangeItem:
    name = str(row["name"])
    params = {"name": name, **kw.pop("params", {})}
    return ChangeItem("schedules", code, Target("schedule", str(row["id"]), name), params, key=key, **kw)


def _plain(row: Any) -> dict[str, Any]:
    return dict(zip(row.keys(), tuple(row), strict=True)) if not isinstance(row, dict) else dict(row)


def _w(tr: Transition | None) -> dict[str, Any]:
    if tr is None:
        return {"at": None, "dating": "unknown"}
    return {"at": tr.entry.at, "actor": tr.entry.actor, "dating": "exact"}


def _created(ctx: Ctx, table: str) -> list[Any]:
    lo = ctx.since if ctx.since is not None else -(2**63)
    if not ctx.after.has_table(table):
        return []
    return ctx.after.rows(
        f"SELECT * FROM {ctx.after.t(table)} WHERE created_at > ? AND created_at <= ?", (lo, ctx.until)
    )


def _audited(ctx: Ctx, table: str, build: Any, ignore: frozenset[str]) -> list[ChangeItem]:
    items: list[ChangeItem] = []
    if ctx.audit is None:
        return items
    for tr in ctx.audit.table(table):
        if tr.before is not None and tr.after is None:
            items.append(build("removed", tr.before, f"{tr.row_id}:removed", before=tr.before, **_w(tr)))
        elif tr.before is not None and tr.after is not None:
            fields = [c for c in tr.after if c not in ignore and tr.changed(c)]
            if fields:
                items.append(
                    build(
                        "changed",
                        tr.after,
                        f"{tr.row_id}:changed@{tr.entry.at}",
                        params={"fields": fields},
                        before=tr.before,
                        after=tr.after,
                        **_w(tr),
                    )
                )
    return items


def _event_code(what: str, row: Any, key: str, **kw: Any) -> ChangeItem:
    return _event(f"change.calendar.{what}", row, key, **kw)


def _task_code(what: str, row: Any, key: str, **kw: Any) -> ChangeItem:
    return _task(f"change.schedule.{what}", row, key, **kw)


# -- calendar --------------------------------------------------------------------------------------------------


def calendar_since(ctx: Ctx) -> list[ChangeItem]:
    items = [_new_event(ctx, r) for r in _created(ctx, EVENTS)]
    return items + _audited(ctx, EVENTS, _event_code, frozenset())


def _new_event(ctx: Ctx, row: Any) -> ChangeItem:
    actor = ctx.audit.creator(EVENTS, row["id"]) if ctx.audit else None
    return _event(
        "change.calendar.new",
        row,
        str(row["id"]),
        params={"starts_at": ms(row["starts_at"])},
        after=_plain(row),
        at=ms(row["created_at"]),
        actor=actor,
    )


def calendar_against(ctx: Ctx, diff: TableDiff) -> list[ChangeItem]:
    items = [_new_event(ctx, r) for r in diff.added]
    for r in diff.removed:
        tr = _last_removal(ctx, EVENTS, r["id"])
        items.append(_event("change.calendar.removed", r, f"{r['id']}:removed", before=r, **_w(tr)))
    for before, after in diff.changed:
        fields = [c for c in after if before.get(c) != after.get(c)]
        tr = ctx.audit.last_changing(EVENTS, after["id"], fields) if ctx.audit else None
        items.append(
            _event(
                "change.calendar.changed",
                after,
                f"{after['id']}:changed:{','.join(fields)}@{_w(tr)['at']}",
                params={"fields": fields},
                before=before,
                after=after,
                **_w(tr),
            )
        )
    return items


def _last_removal(ctx: Ctx, table: str, row_id: Any) -> Transition | None:
    if ctx.audit is None:
        return None
    return next((t for t in reversed(ctx.audit.of(table, row_id)) if t.after is None), None)


# -- schedules ---------------------------------------------------------------------------------------------------


def _new_task(ctx: Ctx, row: Any) -> ChangeItem:
    actor = ctx.audit.creator(SCHEDULES, row["id"]) if ctx.audit else None
    return _task(
        "change.schedule.new",
        row,
        str(row["id"]),
        params={"action_type": row["action_type"], "cron": row["cron_expr"]},
        after=_plain(row),
        at=ms(row["created_at"]),
        actor=actor,
    )


def _paused_at(ctx: Ctx, row: Any) -> int | None:
    """The newest failed run of the task in the window, else its last run there (``None``: not dated)."""
    if ctx.after.has_table(OUTCOMES):
        lo = ctx.since if ctx.since is not None else -(2**63)
        got = ctx.after.one(
            f"SELECT max(fired_at) FROM {ctx.after.t(OUTCOMES)} WHERE schedule_id = ? AND outcome != 'ok' "
            "AND fired_at > ? AND fired_at <= ?",
            (row["id"], lo, ctx.until),
        )
        if got is not None and got[0] is not None:
            return ms(got[0])
    last = ms(row["last_run_at"])
    return last if last is not None and ctx.inside(last) else None


def _is_paused(row: dict[str, Any]) -> bool:
    failures = row.get("consecutive_failures") or 0
    return row.get("paused_until") is not None and isinstance(failures, int | float) and failures > 0


def _paused_item(ctx: Ctx, row: Any, before: Any = None, *, must_date: bool) -> ChangeItem | None:
    at = _paused_at(ctx, row)
    if at is None and must_date:
        return None
    params = {"failures": row["consecutive_failures"], "paused_until": ms(row["paused_until"])}
    return _task(
        "change.schedule.paused",
        row,
        f"{row['id']}:paused@{row['paused_until']}",
        params=params,
        before=before,
        after=_plain(row),
        at=at,
        dating="derived" if at is not None else "unknown",
    )


def schedules_since(ctx: Ctx) -> list[ChangeItem]:
    items = [_new_task(ctx, r) for r in _created(ctx, SCHEDULES)]
    if ctx.after.has_table(SCHEDULES) and "paused_until" in ctx.after.columns(SCHEDULES):
        paused = ctx.after.rows(
            f"SELECT * FROM {ctx.after.t(SCHEDULES)} WHERE paused_until IS NOT NULL AND consecutive_failures > 0"
        )
        items += [it for r in paused if (it := _paused_item(ctx, r, must_date=True)) is not None]
    return items + _audited(ctx, SCHEDULES, _task_code, _SCHEDULE_BOOKKEEPING)


def schedules_against(ctx: Ctx, diff: TableDiff) -> list[ChangeItem]:
    items = [_new_task(ctx, r) for r in diff.added]
    for r in diff.removed:
        items.append(
            _task(
                "change.schedule.removed",
                r,
                f"{r['id']}:removed",
                before=r,
                **_w(_last_removal(ctx, SCHEDULES, r["id"])),
            )
        )
    for before, after in diff.changed:
        if _is_paused(after) and before.get("paused_until") != after.get("paused_until"):
            item = _paused_item(ctx, after, before, must_date=False)
            if item is not None:
                items.append(item)
        fields = [c for c in after if c not in _SCHEDULE_BOOKKEEPING and before.get(c) != after.get(c)]
        if fields:
            tr = ctx.audit.last_changing(SCHEDULES, after["id"], fields) if ctx.audit else None
            items.append(
                _task(
                    "change.schedule.changed",
                    after,
                    f"{after['id']}:changed:{','.join(fields)}@{_w(tr)['at']}",
                    params={"fields": fields},
                    before=before,
                    after=after,
                    **_w(tr),
                )
            )
    return items
