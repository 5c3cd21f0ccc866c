"""Schedules, calendar entries and notes (``agenda.toml``), and the conversations that asked for them."""

from __future__ import annotations

import random
import re
from typing import Any

from core import schema
from core.demo import data
from core.demo.chat import Conv, exchange
from core.demo.data import pick
from core.demo.planner import ScheduleRun, Timeline
from core.demo.text import DAY_MS, HOUR_MS, MINUTE_MS, Slots, at_spec, local_day_start, local_iso
from core.jsutil import iso_ms

_EVERY = re.compile(r"(\d+)([hd])")


def every_ms(spec: str) -> int:
    m = _EVERY.fullmatch(spec)
    if m is None:
        raise data.DataError(f"agenda.toml: every = {spec!r} is not like 6h or 7d")
    return int(m.group(1)) * (HOUR_MS if m.group(2) == "h" else DAY_MS)


def schedule_specs() -> dict[str, dict[str, Any]]:
    """``[[schedule]]`` by key."""
    return {s.get("key", s["name"]): s for s in data.raw("agenda")["schedule"]}


def _first_run(spec: dict[str, Any], created: int, now: int) -> int:
    if "at" in spec:
        return at_spec(now, spec["at"])
    every = every_ms(spec["every"])
    return at_spec(now, spec["first"]) if "first" in spec else created + every


def next_run(spec: dict[str, Any], created: int, stopped: int | None, now: int) -> int:
    """``next_run_at`` as the scheduler left it: the first run after ``now`` (or after it was stopped)."""
    first = _first_run(spec, created, now)
    if "at" in spec:
        return first
    every = every_ms(spec["every"])
    end = now if stopped is None else stopped
    if first > end:
        return first
    return first + ((end - first) // every + 1) * every


def reminder_call(
    spec: dict[str, Any], t: int, now: int, replaced: bool = False
) -> tuple[dict[str, Any], str]:
    """The ``schedule_reminder`` parameters and output of the call that created ``spec`` at ``t``."""
    action = spec.get("action", "prompt")
    payload = spec.get("payload", {})
    params: dict[str, Any] = {
        "name": spec["name"],
        "message": payload.get("message") or payload.get("prompt", ""),
    }
    first = _first_run(spec, t, now)
    if "at" in spec:
        params["at"] = local_iso(first)
        kind = "one-time"
    else:
        params["interval_ms"] = every_ms(spec["every"])
        kind = f"recurring(interval:{params['interval_ms']})"
    if action == "autonomous_turn":
        params["action_type"] = "autonomous_turn"
    if spec.get("project"):
        params["project"] = spec["project"]
    tag = "🤖 autonomous" if action == "autonomous_turn" else "🔔 prompt"
    extra = " (replaced 1 old task(s) with the same name)" if replaced else ""
    return params, f"Scheduled task '{spec['name']}' [{kind}, {tag}], first run @ {iso_ms(first)}{extra}"


def _created(spec: dict[str, Any], asked: dict[str, int], key: str, now: int) -> int:
    if key in asked:
        return asked[key]
    if "created" in spec:
        return at_spec(now, spec["created"])
    first = _first_run(spec, now, now)
    return first - (every_ms(spec["every"]) if "every" in spec else DAY_MS)


def create_schedules(
    store: Any, asked: dict[str, int], extras: list[tuple[dict[str, Any], int]], now: int
) -> tuple[list[ScheduleRun], int]:
    """Write the schedules (curated, then ``extras``) in the order they were made; the runs they write."""
    specs = schedule_specs()
    made: list[tuple[int, str, dict[str, Any]]] = [
        (_created(s, asked, k, now), k, s) for k, s in specs.items()
    ]
    made += [(t, f"extra-{i}", s) for i, (s, t) in enumerate(extras)]
    made.sort(key=lambda m: (m[0], m[1]))
    created_at = {k: t for t, k, _s in made}
    runs: list[ScheduleRun] = []
    for t, key, spec in made:
        stopped = at_spec(now, spec["disabled"]) if "disabled" in spec else None
        replaced_by = [
            k for k, s in specs.items() if k != key and s["name"] == spec["name"] and created_at[k] > t
        ]
        if replaced_by:
            stopped = created_at[replaced_by[0]]
        action = spec.get("action", "prompt")
        sched = store.create(
            spec["name"], next_run(spec, t, stopped, now), action, spec.get("payload", {}),
            f"interval:{every_ms(spec['every'])}" if "every" in spec else None,
            created_by=spec.get("created_by", "llm_external"), project=spec.get("project"), now=t,
        )  # fmt: skip
        if stopped is not None or spec.get("enabled", True) is False:
            store.set_enabled(sched.id, False)
        if "run" in spec:
            every = every_ms(spec["every"]) if "every" in spec else 0
            first = _first_run(spec, t, now)
            runs.append(
                ScheduleRun(
                    sched.id, spec["run"], spec["name"], spec.get("lang", "en"), t, stopped, first, every
                )
            )
    return runs, len(made)


# -- conversations that ask for a reminder or an entry -------------------------------------------------------


def _ask(rng: random.Random, kind: dict[str, Any], t: int, now: int, conv_kind: str) -> tuple[Conv, Slots]:
    lang = "zh" if rng.random() < 0.45 else "en"
    values = data.draw_values(
        rng, tuple(kind.get("families", ())), data.nums(kind.get("nums"), "agenda.toml")
    )
    values.setdefault("hh", 9 + int(rng.random() * 9))
    slots = Slots(values, t, now)
    conv = Conv(conv_kind, lang, slots)
    conv.priority = 2
    return conv, slots


def extra_reminders(
    rng: random.Random, count: int, start: int, now: int
) -> tuple[list[tuple[dict[str, Any], int]], list[Conv]]:
    """``count`` more reminders, each asked for in a conversation; ``([(spec, created)], convs)``."""
    kinds = data.raw("agenda").get("reminder_kind", [])
    out: list[tuple[dict[str, Any], int]] = []
    convs: list[Conv] = []
    names: set[str] = set()
    for _ in range(count if kinds else 0):
        kind = pick(rng, kinds)
        t = start + int(rng.random() * (now - start - HOUR_MS))
        conv, slots = _ask(rng, kind, t, now, "agenda")
        name = kind["name"].format_map(slots)
        while name in names:
            name += "+"
        names.add(name)
        spec = {"name": name, "action": "prompt", "payload": {"message": kind["message"][conv.lang].format_map(slots)},
                "every": kind["every"].format_map(slots), "enabled": rng.random() < 0.7}  # fmt: skip
        params, result = reminder_call(spec, t + 20_000, now)
        user = pick(rng, kind["ask"][conv.lang]).format_map(slots)
        reply = pick(rng, kind["reply"][conv.lang]).format_map(slots)
        exchange(conv, rng, t, user, [("schedule_reminder", params, result, True, None)], reply)
        out.append((spec, conv.calls[0][0]))
        convs.append(conv)
    return out, convs


def _event_from_spec(spec: dict[str, Any], now: int) -> dict[str, Any]:
    tz = spec.get("tz", "Asia/Shanghai")
    slots = Slots({}, now, now)
    return dict(
        title=spec["title"], starts_at=at_spec(now, spec["start"], tz),
        ends_at=at_spec(now, spec["end"], tz) if "end" in spec else None,
        rrule=spec["rrule"].format_map(slots) if "rrule" in spec else None, timezone=tz, related=None,
        external_ref=spec.get("ref"), created=at_spec(now, spec["created"]),
    )  # fmt: skip


def plan_events(
    rng: random.Random, count: int, start: int, now: int, from_stories: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[Conv]]:
    """``count`` calendar entries: the stories', the synced ones, then entries asked for in conversations."""
    doc = data.raw("agenda")
    events = list(from_stories) + [_event_from_spec(s, now) for s in doc.get("event", ())]
    events = [e for e in events if e["created"] < now]
    convs: list[Conv] = []
    kinds = doc.get("event_kind", [])
    while len(events) < count and kinds:
        kind = pick(rng, kinds)
        t = start + int(rng.random() * (now - start - HOUR_MS))
        conv, slots = _ask(rng, kind, t, now, "agenda")
        day = local_day_start(t) + int(kind.get("in_days", 3)) * DAY_MS
        st = day + slots["hh"] * HOUR_MS
        title = kind["title"][conv.lang].format_map(slots)
        ev = dict(title=title, starts_at=st, ends_at=st + int(kind.get("minutes", 60)) * MINUTE_MS, rrule=None,
                  timezone="Asia/Shanghai", related=None, external_ref=None, created=t + 20_000)  # fmt: skip
        params = {
            "title": title,
            "starts_at": local_iso(st),
            "ends_at": local_iso(ev["ends_at"]),
            "timezone": "Asia/Shanghai",
        }
        result = f"Created calendar event '{title}' @ {iso_ms(st)}"
        user = pick(rng, kind["ask"][conv.lang]).format_map(slots)
        reply = pick(rng, kind["reply"][conv.lang]).format_map(slots)
        exchange(conv, rng, t, user, [("create_calendar_event", params, result, True, None)], reply)
        ev["created"] = conv.calls[0][0]
        events.append(ev)
        convs.append(conv)
    events.sort(key=lambda e: e["created"])
    return events[: max(count, 0)], convs


# -- notes ------------------------------------------------------------------------------------------------------

#: ``(time, id or None, content, importance, session_id, forgotten_at or None)``
NoteSpec = tuple[int, str | None, str, float, str | None, int | None]
_SUMMARY_HEAD = {"en": "Session summary: ", "zh": "会话摘要："}


def plan_notes(rng: random.Random, count: int, tl: Timeline, start: int, now: int) -> list[NoteSpec]:
    """Session summaries of real conversations, lessons they taught, and the notes kept for their own sake."""
    out: list[NoteSpec] = []
    summary_budget = count // 2
    keys = sorted(tl.summaries, key=lambda k: (k != schema.GLOBAL_SESSION_ID, tl.summaries[k][-1][0], k))
    for key in keys:
        if len(out) >= summary_budget or (key.startswith("system:") and key != schema.GLOBAL_SESSION_ID):
            continue
        items = tl.summaries[key]
        end, _text, lang = items[-1]
        body = ("" if lang == "zh" else " ").join(text for _e, text, _l in items if _l == lang)
        at = min(end + int(rng.random() * HOUR_MS), now - 1)
        forgotten = at + int(rng.random() * (now - at)) if rng.random() < 0.06 else None
        out.append(
            (
                at,
                f"session-summary-{key}",
                _SUMMARY_HEAD[lang] + body,
                round(0.55 + rng.random() * 0.3, 2),
                key,
                forgotten,
            )
        )
    lessons = list(tl.lessons)
    rng.shuffle(lessons)
    for end, text, _lang, key in lessons[: max(0, count - len(out))]:
        forgotten = end + int(rng.random() * (now - end)) if rng.random() < 0.05 else None
        out.append((end + 60_000, None, text, round(0.4 + rng.random() * 0.55, 2), key, forgotten))
    kept = data.raw("agenda")["notes"]
    pool = [(t, lang) for lang in ("en", "zh") for t in kept[lang]]
    while len(out) < count:
        text, _lang = pick(rng, pool)
        t = start + int(rng.random() * (now - start - MINUTE_MS))
        out.append((t, None, text, round(0.3 + rng.random() * 0.6, 2), None, None))
    out.sort(key=lambda n: n[0])
    return out[:count]
