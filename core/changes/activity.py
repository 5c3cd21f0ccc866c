"""Timeline and action-log changes: messages per conversation, calls and failures per tool, tools that
started failing.

A conversation is a message's ``origin_session_id`` (the newer reference's per-chat id; messages
without one are grouped by their ``session_id``). Both logs are append-only, so with a time baseline
the window's rows are read through the timestamp index and grouped by SQLite; with a backup baseline the
rows the backup lacks arrive chunk by chunk from the comparison and are tallied here, and rows of the
backup that changed or are gone (which the agent never does) are reported as such, undated.

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
MESSAGE_COLUMNS = ("id", "session_id", "role", "timestamp", "origin_session_id")
ACTION_COLUMNS = ("id", "tool_name", "success", "timestamp")


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

    def add_rows(self, rows: list[Any]) -> None:
        if not rows:
            return
        has_origin = "origin_session_id" in set(rows[0].keys())
        for r in rows:
            role, t, i = r["role"], r["timestamp"], r["id"]
            origin = r["origin_session_id"] if has_origin else None
            self.conv(origin, r["session_id"]).add(1, role == "user", role == "assistant", (t, t), (i, i))

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


def timeline_since(ctx: Ctx) -> list[ChangeItem]:
    t = ctx.after.t(MESSAGES)
    origin = "origin_session_id" if "origin_session_id" in ctx.after.columns(MESSAGES) else "NULL"
    lo = ctx.since if ctx.since is not None else -(2**63)
    rows = ctx.after.rows(
        f"SELECT {origin}, CASE WHEN {origin} IS NULL THEN session_id END, count(*), "
        "sum(role = 'user'), sum(role = 'assistant'), min(timestamp), max(timestamp), min(id), max(id) "
        f"FROM {t} WHERE timestamp > ? AND timestamp <= ? GROUP BY 1, 2",
        (lo, ctx.until),
    )
    tally = ConversationTally()
    for origin, session, n, user, assistant, t0, t1, i0, i1 in rows:
        tally.conv(origin, session).add(n, user, assistant, (t0, t1), (i0, i1))
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

    def add_rows(self, rows: list[Any]) -> None:
        for r in rows:
            tool = self.tools.setdefault(str(r["tool_name"]), _Tool())
            t, i = ms(r["timestamp"]), r["id"]
            tool.calls += 1
            if tool.last_at is None or (t is not None and (t, i) > (tool.last_at, tool.last_id)):
                tool.last_at, tool.last_id = t, i
            if not r["success"]:
                tool.failures += 1
                if t is not None and (
                    tool.first_fail_at is None or (t, i) < (tool.first_fail_at, tool.first_fail_id)
                ):
                    tool.first_fail_at, tool.first_fail_id = t, i

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


def actions_since(ctx: Ctx) -> list[ChangeItem]:
    t = ctx.after.t(ACTIONS)
    lo = ctx.since if ctx.since is not None else -(2**63)
    rows = ctx.after.rows(
        "SELECT tool_name, count(*), sum(CASE WHEN success THEN 0 ELSE 1 END), max(timestamp), max(id), "
        "min(CASE WHEN success THEN NULL ELSE timestamp END), min(CASE WHEN success THEN NULL ELSE id END) "
        f"FROM {t} WHERE timestamp > ? AND timestamp <= ? GROUP BY tool_name",
        (lo, ctx.until),
    )
    tally = ActionTally()
    for name, calls, failures, last_at, last_id, fail_at, fail_id in rows:
        tally.tools[str(name)] = _Tool(calls, failures or 0, ms(last_at), last_id, ms(fail_at), fail_id)
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
