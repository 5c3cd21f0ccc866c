"""The timeline: every conversation in time order, in its session and origin, within the message budget.

Conversations that carry the memory's story (the persona's episodes, the talks that established facts,
calendar entries and reminders, the runs of skills) are rendered first and placed at their times;
everyday conversations fill the rest of the budget, denser towards ``now``. When the budget is short,
the fixed conversations of lowest priority are left out (their memory still exists, as if told
elsewhere); the newest conversation always ends shortly before ``now``.

Sessions follow the reference's history: the oldest 35 % of the span uses named sessions
(``sess-<day>-<hex>``, before the ``global`` timeline of v8), then everything goes to ``global``,
without an origin until 60 % of the span and with one after (``web-ui:…``, ``wechat:…``,
``telegram:…``, ``system:scheduled:<id>``, ``system:autonomous-…``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from core import schema
from core.demo.chat import Conv
from core.demo.conversations import Fillers, render_run, run_specs
from core.demo.text import HOUR_MS, MINUTE_MS

MsgRow = tuple[str, str, str, int, str | None]  # session_id, role, content, timestamp, origin
# (timestamp, session_id, tool, params, result, success, trigger, linked_skill)
ActionSpec = tuple[int, str, str, dict[str, Any], str, bool, str | None, str | None]
FIXED_SHARE = 0.5
SCHEDULED_P = 0.06
AUTONOMOUS_P = 0.04


@dataclass(frozen=True)
class ScheduleRun:
    """A schedule whose runs appear in the timeline while it is enabled."""

    id: str
    kind: str  # a [run.<kind>] of runs.toml
    name: str
    lang: str
    created: int
    disabled: int | None
    first: int = 0  # its first run; then one every ``every`` ms
    every: int = 0

    def at(self, t: int, now: int) -> int | None:
        """The run of this schedule nearest to ``t`` while it was enabled, or None."""
        if self.every <= 0:
            return None
        end = min(now - HOUR_MS, self.disabled if self.disabled is not None else now)
        run = self.first + round((t - self.first) / self.every) * self.every
        while run >= end:
            run -= self.every
        while run < max(self.created, self.first):
            run += self.every
        return run if run < end else None


def _hex(rng: random.Random, n: int) -> str:
    return f"{rng.getrandbits(4 * n):0{n}x}"


class Timeline:
    """The planned rows, sessions and tool calls, and what notes can say of the conversations."""

    def __init__(self) -> None:
        self.rows: list[MsgRow] = []
        self.sessions: dict[str, list[int]] = {}  # session other than global -> [first ts, last ts]
        self.calls: list[ActionSpec] = []  # the calls of the conversations in the timeline
        self.unseen_calls: list[ActionSpec] = []  # the calls of fixed conversations the budget left out
        self.summaries: dict[str, list[tuple[int, str, str]]] = {}  # session/origin -> [(end, text, lang)]
        self.lessons: list[tuple[int, str, str, str]] = []  # (time, text, lang, session)
        self.conversations = 0


class _Router:
    """Which session and origin a conversation starting at a given time belongs to."""

    def __init__(self, rng: random.Random, start: int, now: int):
        self.rng = rng
        span = now - start
        self.b1 = start + int(span * 0.35)
        self.b2 = start + int(span * 0.60)
        self.named: str | None = None
        self.named_last = 0
        self.web: str | None = None
        self.web_last = 0
        self.web_keys: dict[str, str] = {}
        self.wechat = ("wechat:wxid_" + _hex(rng, 12), "wechat:wxid_" + _hex(rng, 12))
        self.telegram = f"telegram:{rng.randint(10_000_000, 999_999_999)}"

    def route(self, t0: int, conv: Conv) -> tuple[str, str | None]:
        if conv.kind == "scheduled":
            session = f"system:scheduled:{conv.channel}"
            return session, session if t0 >= self.b2 else None
        if t0 < self.b1:
            gap = t0 - self.named_last
            if self.named is None or gap < 0 or gap > 4 * HOUR_MS or self.rng.random() < 0.08:
                day = datetime.fromtimestamp(t0 / 1000, UTC).strftime("%Y%m%d")
                self.named = f"sess-{day}-{_hex(self.rng, 4)}"
            self.named_last = t0
            return self.named, None
        if t0 < self.b2:
            return schema.GLOBAL_SESSION_ID, None
        return schema.GLOBAL_SESSION_ID, self._origin(conv)

    def _origin(self, conv: Conv) -> str:
        r = self.rng.random
        if conv.kind == "autonomous":
            return "system:autonomous-" + _hex(self.rng, 6)
        channel = conv.channel
        if channel is None:
            x = r()
            channel = "web" if x < 0.6 else "wechat" if x < 0.85 else "telegram"
        if channel.startswith("web:"):
            if channel not in self.web_keys:
                self.web_keys[channel] = "web-ui:" + _hex(self.rng, 12)
            return self.web_keys[channel]
        if channel == "web":  # a new chat, unless the last one is over and recent enough to go on with
            t0 = conv.msgs[0][2]
            if self.web is None or t0 - self.web_last > 12 * HOUR_MS or t0 < self.web_last or r() < 0.4:
                self.web = "web-ui:" + _hex(self.rng, 12)
            self.web_last = conv.msgs[-1][2]
            return self.web
        if channel == "wechat":  # the persona's own chat; now and then a group she is in
            return self.wechat[0] if conv.kind == "story" or r() < 0.8 else self.wechat[1]
        return self.telegram


def _keep_fixed(rng: random.Random, fixed: list[Conv], n: int) -> tuple[list[Conv], list[Conv]]:
    """The fixed conversations that fit in half the budget (lowest priorities left out first), and the rest."""
    allowed = int(n * FIXED_SHARE)
    total = sum(len(c.msgs) for c in fixed)
    if total <= allowed:
        return list(fixed), []
    order = sorted(range(len(fixed)), key=lambda i: (fixed[i].priority, rng.random()))
    dropped: set[int] = set()
    for i in order:
        if total <= allowed:
            break
        dropped.add(i)
        total -= len(fixed[i].msgs)
    return [c for i, c in enumerate(fixed) if i not in dropped], [fixed[i] for i in sorted(dropped)]


class _Recorder:
    """Writes rendered conversations into the :class:`Timeline`."""

    def __init__(
        self, tl: Timeline, router: _Router, fillers: Fillers, rng: random.Random, lesson_p: float, now: int
    ):
        self.tl, self.router, self.fillers, self.rng = tl, router, fillers, rng
        self.lesson_p = lesson_p
        self.cap = now - 1_000
        self.noted: set[str] = set()

    def record(self, conv: Conv) -> None:
        tl = self.tl
        t0 = conv.msgs[0][2]
        session, origin = self.router.route(t0, conv)
        cap = self.cap
        rows = tl.rows
        for role, content, ts in conv.msgs:
            rows.append((session, role, content, ts if ts < cap else cap, origin))
        last = min(conv.msgs[-1][2], cap)
        if session != schema.GLOBAL_SESSION_ID:
            span = tl.sessions.get(session)
            if span is None:
                tl.sessions[session] = [t0, last]
            else:
                span[0], span[1] = min(span[0], t0), max(span[1], last)
        for ts, tool, params, result, ok, skill in conv.calls:
            tl.calls.append((min(ts, cap), session, tool, params, result, ok, conv.trigger, skill))
        for ts, tool, params, result, ok, skill in conv.hidden:
            tl.unseen_calls.append((min(ts, cap), session, tool, params, result, ok, conv.trigger, skill))
        tl.conversations += 1
        self._notes(conv, origin or session, last)
        self.fillers.remember(conv, session)

    def _notes(self, conv: Conv, key: str, end: int) -> None:
        d = conv.source
        summary, note = conv.summary, conv.note
        if conv.kind == "chat" and d is not None and conv.slots is not None:
            if d.summary:
                summary = d.summary[conv.lang].format_map(conv.slots)
            if d.note and self.rng.random() < self.lesson_p:
                note = d.note[conv.lang].format_map(conv.slots)
        if summary:
            for k in (key, schema.GLOBAL_SESSION_ID) if key != schema.GLOBAL_SESSION_ID else (key,):
                lst = self.tl.summaries.setdefault(k, [])
                lst.append((end, summary, conv.lang))
                if len(lst) > 3:
                    del lst[0]
        if note and note not in self.noted:
            self.noted.add(note)
            self.tl.lessons.append((end, note, conv.lang, key))


def _truncate(conv: Conv, n: int) -> None:
    if len(conv.msgs) > n:
        del conv.msgs[n:]
        last = conv.msgs[-1][2] if conv.msgs else 0
        conv.calls = [c for c in conv.calls if c[0] <= last]
        conv.hidden = [c for c in conv.hidden if c[0] <= last]


def _starts(rng: random.Random, k: int, start: int, last_start: int) -> list[int]:
    return sorted(start + int((last_start - start) * (rng.random() ** 0.8)) for _ in range(k))


class _Filling:
    """Everyday conversations between the fixed ones, within the message budget and the room for calls."""

    def __init__(
        self, rng: random.Random, fillers: Fillers, router: _Router, runs: list[ScheduleRun], now: int
    ):
        self.rng, self.fillers, self.router, self.runs, self.now = rng, fillers, router, runs, now
        self.specs, self.autonomous = run_specs()
        self.left = 0  # messages still to write
        self.room = 0  # tool messages the action log still has room for
        self.per_call = 1.0  # calls of a conversation, shown or not

    def next(self, t0: int, slots_left: int) -> Conv:
        """The conversation of a planned slot (``slots_left``: slots after this one)."""
        f = self.fillers
        # fewer tool messages as the room fills up (each shown call needs its action)
        f.show_p = (
            max(0.0, min(1.0, self.room / (self.per_call * (slots_left + 1)))) if self.room > 0 else 0.0
        )
        return self._take(self._draw(t0, self.left / (slots_left + 1)))

    def extra(self, t0: int) -> Conv:
        """One more conversation where the planned ones came out shorter than expected."""
        self.fillers.show_p = 1.0 if self.room > 8 else 0.0
        return self._take(self.fillers.render(t0, min(self.left, 8), self.fillers.pick_lang()))

    def _take(self, conv: Conv) -> Conv:
        _truncate(conv, self.left)
        self.left -= len(conv.msgs)
        self.room -= len(conv.calls)
        return conv

    def _draw(self, t0: int, want: float) -> Conv:
        rng, f = self.rng, self.fillers
        x = rng.random()
        if x < SCHEDULED_P:
            active = [r for r in self.runs if r.created <= t0 and (r.disabled is None or t0 < r.disabled)]
            run = active[int(rng.random() * len(active))] if active else None
            t_run = run.at(t0, self.now) if run is not None else None
            if run is not None and t_run is not None:  # at the schedule's own time of day
                t_run += int(rng.random() * 40_000)
                spec = self.specs[run.kind]
                conv = render_run(rng, spec, run.lang, t_run, self.now, run.name, "scheduled", f.show_p)
                conv.channel = run.id
                conv.trigger = f"schedule:{run.name}"
                return conv
        elif x < SCHEDULED_P + AUTONOMOUS_P and t0 >= self.router.b2:
            spec = self.autonomous[int(rng.random() * len(self.autonomous))]
            conv = render_run(rng, spec, f.pick_lang(), t0, self.now, "", "autonomous", f.show_p)
            conv.trigger = "autonomous"
            return conv
        return f.render(t0, want, f.pick_lang())


def plan_timeline(
    rng: random.Random,
    n: int,
    start: int,
    now: int,
    fixed: list[Conv],
    runs: list[ScheduleRun],
    notes_wanted: int,
    call_room: int | None = None,
) -> Timeline:
    """Plan ``n`` messages from ``start`` to ``now`` around the ``fixed`` conversations.

    ``call_room``: how many tool calls the action log has room for besides the skills' own runs (default:
    no limit); beyond it the timeline shows fewer tool messages, so that each one has its action.
    """
    tl = Timeline()
    kept, dropped = _keep_fixed(rng, fixed, max(0, n))
    for gone in dropped:  # what they did still happened; only the conversation is not in the timeline
        for ts, tool, params, result, ok, skill in gone.calls + gone.hidden:
            tl.unseen_calls.append(
                (ts, schema.GLOBAL_SESSION_ID, tool, params, result, ok, gone.trigger, skill)
            )
    if n <= 0:
        return tl
    fillers = Fillers(rng, now)
    router = _Router(rng, start, now)
    fill = _Filling(rng, fillers, router, runs, now)
    last = fillers.render(now - 25 * MINUTE_MS, 4, fillers.pick_lang())
    _truncate(last, 6)
    fill.left = max(0, n - sum(len(c.msgs) for c in kept) - len(last.msgs))
    fill.room = (n if call_room is None else call_room) - sum(len(c.calls) for c in kept) - len(last.calls)
    fillers.fit_calls(fill.left, fill.room)
    per_conv = fillers.expected(fillers.show_p)
    fill.per_call = per_conv[1] / max(fillers.show_p, 0.01)
    k = round(fill.left / per_conv[0])
    rec = _Recorder(tl, router, fillers, rng, min(1.0, 2.0 * notes_wanted / max(1, k)), now)
    events: list[tuple[int, int, Conv | None]] = [(c.msgs[0][2], 0, c) for c in kept]
    events += [(t, 1, None) for t in _starts(rng, k, start, now - 40 * MINUTE_MS)]
    events.append((last.msgs[0][2], 2, last))
    events.sort(key=lambda e: (e[0], e[1]))
    slots_left = k
    for t0, _order, conv in events:
        if conv is None:
            slots_left -= 1
            if fill.left <= 0:
                continue
            conv = fill.next(t0, slots_left)
        rec.record(conv)
    while fill.left > 0:  # the conversations came out shorter than planned: a few more, anywhere
        rec.record(fill.extra(start + int((now - 40 * MINUTE_MS - start) * rng.random())))
    tl.rows.sort(key=lambda row: row[3])
    return tl
