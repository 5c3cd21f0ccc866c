"""The persona's dated episodes (``stories.toml``): conversations whose tool calls are the memory.

An episode is a conversation at a given day and local time. Its turns are written out in full; a turn's
``calls`` are ordinary tool calls, and its ``facts``, ``events`` and ``reminders`` become the
``store_fact``, ``create_calendar_event`` and ``schedule_reminder`` calls the agent made, with the
parameters and results the tools give, and at the same moment the fact, the calendar entry or the
schedule that the generator writes. So every fact a story mentions was stored in the conversation that
mentions it, and a later version (a supersede) is stored where the persona says it changed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from core.demo import data
from core.demo.agenda import reminder_call, schedule_specs
from core.demo.calls import fact_params, fact_result
from core.demo.chat import Conv, pause, step, think
from core.demo.data import DataError
from core.demo.text import DAY_MS, Slots, at_spec, local_iso, zone_offset_ms
from core.jsutil import iso_ms

#: ``(time, op, args)``; ops: ``store (ns, key, value, kw)``, ``self (key, content, refs)``, ``pin``,
#: ``tau``, ``forget``, ``access`` ``(ns, key[, tau])``.
FactOp = tuple[int, str, tuple[Any, ...]]


@dataclass
class Effects:
    """What the episodes wrote besides their messages."""

    facts: list[FactOp] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    reminders: dict[str, int] = field(default_factory=dict)  # schedule name -> when it was asked for


def _fill(value: Any, slots: Slots) -> Any:
    if isinstance(value, str):
        return value.format_map(slots)
    if isinstance(value, dict):
        return {k: _fill(v, slots) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, slots) for v in value]
    return value


def fact_kwargs(spec: dict[str, Any], now: int) -> tuple[dict[str, Any], dict[str, str]]:
    """``FactStore.store_fact`` keyword arguments of a fact spec, and its times as ISO parameters."""
    tz = spec.get("tz", "Asia/Shanghai")
    kw: dict[str, Any] = {}
    iso: dict[str, str] = {}
    if "confidence" in spec:
        kw["confidence"] = float(spec["confidence"])
    if spec.get("kind") == "event":
        kw["fact_kind"] = "event"
    if "tau" in spec:
        kw["decay_tau_days"] = float(spec["tau"])
    for name, arg in (("occurred", "occurred_at"), ("from", "valid_from"), ("until", "valid_until")):
        if name in spec:
            t = at_spec(now, spec[name], tz)
            kw[arg] = t
            iso[arg] = local_iso(t, zone_offset_ms(tz, t))
    if "occurred_ms" in spec:
        kw["occurred_at"] = int(spec["occurred_ms"])
        iso["occurred_at"] = iso_ms(kw["occurred_at"])
    return kw, iso


class _Turn:
    """Renders one turn of an episode and collects its effects."""

    def __init__(self, conv: Conv, rng: random.Random, slots: Slots, now: int, effects: Effects):
        self.conv, self.rng, self.slots, self.now, self.eff = conv, rng, slots, now, effects

    def run(self, t: int, turn: dict[str, Any]) -> int:
        conv, rng = self.conv, self.rng
        if "user" in turn:
            conv.say("user", turn["user"].format_map(self.slots), t)
            t += think(rng)
        for call in turn.get("calls", ()):
            conv.call(t, call["tool"], _fill(call.get("params", {}), self.slots),
                      _fill(call["result"], self.slots), bool(call.get("ok", True)))  # fmt: skip
            t += step(rng)
        for spec in turn.get("facts", ()):
            self._fact(t, spec)
            t += step(rng)
        for spec in turn.get("events", ()):
            self._event(t, spec)
            t += step(rng)
        for key in turn.get("reminders", ()):
            spec = schedule_specs().get(key)
            if spec is None:
                raise DataError(f"stories.toml: no [[schedule]] with the key {key!r} in agenda.toml")
            self.eff.reminders[key] = t
            params, result = reminder_call(spec, t, self.now, replaced=bool(spec.get("replaces")))
            self.conv.call(t, "schedule_reminder", params, result, True)
            t += step(rng)
        conv.say("assistant", turn["reply"].format_map(self.slots), t)
        return t + pause(rng)

    def _fact(self, t: int, spec: dict[str, Any]) -> None:
        ns, key = spec["ns"], spec["key"]
        value = _fill(spec["value"], self.slots)
        kw, iso = fact_kwargs(spec, self.now)
        self.eff.facts.append((t, "store", (ns, key, value, kw)))
        self.conv.call(
            t, "store_fact", fact_params(ns, key, value, kw, iso), fact_result(ns, key, kw, t), True
        )

    def _event(self, t: int, spec: dict[str, Any]) -> None:
        tz = spec.get("tz", "Asia/Shanghai")
        start = at_spec(self.now, spec["start"], tz)
        end = at_spec(self.now, spec["end"], tz) if "end" in spec else None
        title = spec["title"].format_map(self.slots)
        rrule = spec["rrule"].format_map(self.slots) if "rrule" in spec else None
        params: dict[str, Any] = {"title": title, "starts_at": local_iso(start, zone_offset_ms(tz, start))}
        if end is not None:
            params["ends_at"] = local_iso(end, zone_offset_ms(tz, end))
        if rrule:
            params["rrule"] = rrule
        params["timezone"] = tz
        self.conv.call(
            t, "create_calendar_event", params, f"Created calendar event '{title}' @ {iso_ms(start)}", True
        )
        related = tuple(spec["related"].split(".", 1)) if "related" in spec else None
        self.eff.events.append(
            dict(
                title=title,
                starts_at=start,
                ends_at=end,
                rrule=rrule,
                timezone=tz,
                related=related,
                external_ref=spec.get("ref"),
                created=t,
            )
        )


def _start(now: int, ep: dict[str, Any]) -> int:
    if "ago" in ep:
        return now - int(float(ep["ago"]) * DAY_MS)
    tz = ep.get("tz", "Asia/Shanghai")
    return at_spec(now, f"{ep['day']}T{ep.get('time', '10:00')}", tz)


def render_episodes(rng: random.Random, now: int, start: int) -> tuple[list[Conv], Effects]:
    """Every episode of ``stories.toml`` after ``start`` (the timeline's beginning), and their effects."""
    effects = Effects()
    convs: list[Conv] = []
    for i, ep in enumerate(data.raw("stories")["episode"]):
        try:
            t0 = _start(now, ep)
        except (KeyError, ValueError) as exc:
            raise DataError(f"stories.toml episode {i + 1}: {exc}") from exc
        if t0 < start or t0 >= now:
            continue
        slots = Slots({}, t0, now)
        conv = Conv("story", ep["lang"], slots, ep)
        conv.channel = ep.get("channel")
        conv.priority = 3
        turn = _Turn(conv, rng, slots, now, effects)
        t = t0
        for spec in ep["turn"]:
            t = turn.run(t, spec)
        conv.msgs = [(role, text, min(ts, now - 1_000)) for role, text, ts in conv.msgs]
        if "summary" in ep:
            conv.summary = ep["summary"].format_map(slots)
        if "note" in ep:
            conv.note = ep["note"].format_map(slots)
        convs.append(conv)
    return convs, effects
