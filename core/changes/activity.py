"""Timeline and action-log changes: messages per conversation, calls and failures per tool, tools that
started failing.

A conversation is a message's ``origin_session_id`` (the newer reference's per-chat id; messages
without one are grouped by their ``session_id``). Both logs are append-only, so with a time baseline
the window's rows are read through the timestamp index and grouped by SQLite; with a backup baseline the
rows the backup lacks are grouped by SQLite chunk by chunk during the comparison and the groups added up
here, and rows of the backup that changed or are gone (which the agent never does) are reported as such,
undated.

A tool "started failing" when it failed in the window and none of its calls failed in the week before
(or, when the window is longer, in as long a stretch before it), though it was called then.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.changes.context import ACTIONS, MESSAGES, Ctx, ms
from core.changes.model import ChangeItem, Target
from core.changes.rowdiff import TableDiff

__all__ = ["ActionTally", "ConversationTally", "actions_since", "timeline_since"]

DAY_MS = 86_400_000
PREVIOUS_MIN_MS = 7 * DAY_MS


@dataclass
class _Conv:
    origin: str | None
    session: str | None
    messages: int = 0
    user: int = 0
    assistant: int = 0
    first_at: int | None = None
    last_at: int | None = None
    first_id: int | None = None
    last_id: int | None = None

    def add(self, n: int, user: int, assistant: int, times: tuple[Any, Any], ids: tuple[Any, Any]) -> None:
        self.messages += n
        self.user += user
        self.assistant += assistant
        t0, t1 = ms(times[0]), ms(times[1])
        if t0 is not None and (self.first_at is None or t0 < self.first_at):
            self.first_at = t0
        if t1 is not None and (self.last_at is None or t1 > self.last_at):
            self.last_at = t1
        if self.first_id is None or ids[0] < self.first_id:
            self.first_id = ids[0]
        if self.last_id is None or ids[1] > self.last_id:
            self.last_id = ids[1]


class ConversationTally:
    """Messages per conversation, fed by grouped SQL rows or streamed message rows."""

    def __init__(self) -> None:
        self.convs: dict[tuple[str | None, str | None], _Conv] = {}

    def conv(self, origin: Any, session: Any) -> _Conv:
        key = (origin, None if origin is not None else session)
        got = self.convs.get(key)
        if got is None:
            got = self.convs[key] = _Conv(*key)
        return got

    def items(self) -> list[ChangeItem]:
        ranked = sorted(self.convs.values(), key=lambda c: (-c.messages, -(c.last_at or 0)))
        out = []
        for rank, c in enumerate(ranked, 1):
            conv = c.origin if c.origin is not None else str(c.session)
            after = {
                "messages": c.messages,
                "user": c.user,
                "assistant": c.assistant,
                "firstAt": c.first_at,
                "lastAt": c.last_at,
                "firstId": c.first_id,
                "lastId": c.last_id,
                "origin": c.origin,
                "session": c.session,
            }
            params = {
                "conversation": conv,
                "messages": c.messages,
                "user": c.user,
                "assistant": c.assistant,
                "rank": rank,
            }
            out.append(
                ChangeItem(
                    "timeline",
                    "change.timeline.conversation",
                    Target("conversation", conv, conv),
                    params,
                    after=after,
                    at=c.last_at,
                    key=f"{conv}:{c.last_id}",
                )
            )
        return out


def _message_groups(ctx: Ctx) -> tuple[str, str]:
    """The select list and GROUP BY that tally messages (alias ``m``) per conversation."""
    origin = "m.origin_session_id" if "origin_session_id" in ctx.after.columns(MESSAGES) else "NULL"
    select = (
        f"{origin} AS origin, CASE WHEN {origin} IS NULL THEN m.session_id END AS session, "
        "sum(m.role = 'user') AS user, sum(m.role = 'assistant') AS assistant, min(m.timestamp) AS t0, "
        "max(m.timestamp) AS t1, min(m.id) AS i0, max(m.id) AS i1"
    )
    return select, "origin, session"


def _add_message_groups(tally: ConversationTally, rows: list[Any]) -> None:
    for r in rows:
        tally.conv(r["origin"], r["session"]).add(
            r["_n_"], r["user"] or 0, r["assistant"] or 0, (r["t0"], r["t1"]), (r["i0"], r["i1"])
        )


def message_aggregate(ctx: Ctx, tally: ConversationTally) -> tuple[str, str, Any]:
    """How a backup comparison tallies the new messages (see :class:`core.changes.rowdiff.RowDiffer`)."""
    select, group_by = _message_groups(ctx)
    return select, group_by, lambda rows: _add_message_groups(tally, rows)


def timeline_since(ctx: Ctx) -> list[ChangeItem]:
    select, group_by = _message_groups(ctx)
    lo = ctx.since if ctx.since is not None else -(2**63)
    rows = ctx.after.rows(
        f"SELECT count(*) AS _n_, {select} FROM {ctx.after.t(MESSAGES)} m "
        f"WHERE m.timestamp > ? AND m.timestamp <= ? GROUP BY {group_by}",
        (lo, ctx.until),
    )
    tally = ConversationTally()
    _add_message_groups(tally, rows)
    return tally.items()


# -- actions ---------------------------------------------------------------------------------------------------


@dataclass
class _Tool:
    calls: int = 0
    failures: int = 0
    last_at: int | None = None
    last_id: int | None = None
    first_fail_at: int | None = None
    first_fail_id: int | None = None


class ActionTally:
    """Calls and failures per tool, fed by grouped SQL rows or streamed action rows."""

    def __init__(self) -> None:
        self.tools: dict[str, _Tool] = {}

    def add_groups(self, rows: list[Any]) -> None:
        """Grouped rows (``_n_`` calls and the :data:`_ACTION_SELECT` columns) of one tool each."""
        for r in rows:
            tool = self.tools.setdefault(str(r["tool"]), _Tool())
            tool.calls += int(r["_n_"])
            tool.failures += int(r["failures"] or 0)
            last, fail = ms(r["last_at"]), ms(r["fail_at"])
            if last is not None and (tool.last_at is None or last > tool.last_at):
                tool.last_at = last
            if tool.last_id is None or (r["last_id"] is not None and r["last_id"] > tool.last_id):
                tool.last_id = r["last_id"]
            if fail is not None and (tool.first_fail_at is None or fail < tool.first_fail_at):
                tool.first_fail_at, tool.first_fail_id = fail, r["fail_id"]

    def items(self, previous: dict[str, tuple[int, int]]) -> list[ChangeItem]:
        out = []
        for name, tl in sorted(self.tools.items()):
            prev_calls, prev_fail = previous.get(name, (0, 0))
            after = {
                "calls": tl.calls,
                "failures": tl.failures,
                "failureRate": tl.failures / tl.calls if tl.calls else 0.0,
                "lastAt": tl.last_at,
                "lastId": tl.last_id,
                "firstFailureAt": tl.first_fail_at,
                "firstFailureId": tl.first_fail_id,
            }
            before = {"calls": prev_calls, "failures": prev_fail}
            target = Target("tool", name, name)
            params = {"tool": name, "calls": tl.calls, "failures": tl.failures}
            out.append(
                ChangeItem(
                    "actions",
                    "change.actions.tool",
                    target,
                    params,
                    before=before,
                    after=after,
                    at=tl.last_at,
                    key=f"{name}:{tl.last_id}",
                )
            )
            if tl.failures and prev_calls and not prev_fail:
                params = {**params, "previous_calls": prev_calls}
                out.append(
                    ChangeItem(
                        "actions",
                        "change.actions.started_failing",
                        target,
                        params,
                        before=before,
                        after=after,
                        at=tl.first_fail_at,
                        key=f"{name}:failing@{tl.first_fail_id}",
                    )
                )
        return out


def _previous(ctx: Ctx, side: Any) -> dict[str, tuple[int, int]]:
    """Calls and failures per tool in the stretch before the window (on ``side``)."""
    if ctx.since is None or not side.has_table(ACTIONS):
        return {}
    span = max(ctx.until - ctx.since, PREVIOUS_MIN_MS)
    rows = side.rows(
        f"SELECT tool_name, count(*), sum(CASE WHEN success THEN 0 ELSE 1 END) FROM {side.t(ACTIONS)} "
        "WHERE timestamp > ? AND timestamp <= ? GROUP BY tool_name",
        (ctx.since - span, ctx.since),
    )
    return {str(r[0]): (int(r[1]), int(r[2] or 0)) for r in rows}


_ACTION_SELECT = (
    "m.tool_name AS tool, sum(CASE WHEN m.success THEN 0 ELSE 1 END) AS failures, max(m.timestamp) AS last_at, "
    "max(m.id) AS last_id, min(CASE WHEN m.success THEN NULL ELSE m.timestamp END) AS fail_at, "
    "min(CASE WHEN m.success THEN NULL ELSE m.id END) AS fail_id"
)


def action_aggregate(tally: ActionTally) -> tuple[str, str, Any]:
    """How a backup comparison tallies the new actions (see :class:`core.changes.rowdiff.RowDiffer`)."""
    return _ACTION_SELECT, "m.tool_name", tally.add_groups


def actions_since(ctx: Ctx) -> list[ChangeItem]:
    lo = ctx.since if ctx.since is not None else -(2**63)
    rows = ctx.after.rows(
        f"SELECT count(*) AS _n_, {_ACTION_SELECT} FROM {ctx.after.t(ACTIONS)} m "
        "WHERE m.timestamp > ? AND m.timestamp <= ? GROUP BY m.tool_name",
        (lo, ctx.until),
    )
    tally = ActionTally()
    tally.add_groups(rows)
    return tally.items(_previous(ctx, ctx.after))


def actions_against(ctx: Ctx, tally: ActionTally, diff: TableDiff) -> list[ChangeItem]:
    assert ctx.before is not None
    return tally.items(_previous(ctx, ctx.before)) + altered(ctx, "actions", diff)


def altered(ctx: Ctx, layer: str, diff: TableDiff) -> list[ChangeItem]:
    """Rows of the baseline that changed or are gone in a log the agent only appends to."""
    if not (diff.changed_count or diff.removed_count):
        return []
    code = "change.timeline.altered" if layer == "timeline" else "change.actions.altered"
    params = {"changed": diff.changed_count, "missing": diff.removed_count}
    details = {"changedSample": diff.changed_sample, "missingSample": diff.removed_sample}
    target = Target("messages" if layer == "timeline" else "actions", diff.table, diff.table)
    key = f"{diff.changed_count}/{diff.removed_count}/{diff.changed_sample[:1]}/{diff.removed_sample[:1]}"
    return [ChangeItem(layer, code, target, params, at=None, dating="unknown", details=details, key=key)]
