"""Facts (``facts.toml``): the curated ones, the manual operations, and key families for bigger memories.

Every bulk fact version is drawn from its key's own value family (a list, a range or a template), so a
key never holds a value that belongs to another key. A key with several versions walks its list in
order where that means something (a ticket's status) and numbers can be made to grow. Unless the key is
one the agent keeps while it works (``silent``), each version comes with the short conversation in
which it was said, and the ``store_fact`` call of that conversation happens at the version's time.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from core.demo import data
from core.demo.calls import fact_params, fact_result
from core.demo.chat import Conv, step
from core.demo.data import DataError, Num, pick
from core.demo.stories import FactOp, fact_kwargs
from core.demo.text import DAY_MS, HOUR_MS, MINUTE_MS, Slots, at_spec, local_iso, placeholders

_TAUS = (3.0, 7.0, 30.0, 90.0, 730.0)


@dataclass(frozen=True)
class KeySpec:
    """One ``[[key]]``: a fact key (or a family of keys) and the values it may hold."""

    ns: str
    key: str
    values: tuple[tuple[Any, str, str], ...]  # (value, as English says it, as Chinese says it)
    span: tuple[float, float, int] | None
    template: str | None
    fams: tuple[str, ...]
    numbers: tuple[Num, ...]
    choose: dict[str, list[str]]
    ordered: bool
    rising: bool
    versions: tuple[int, int]
    lines: dict[str, dict[str, list[str]]]  # say / change / reply -> language -> lines
    silent: bool
    weight: float
    kind: str
    forget_p: float
    vary: tuple[str, ...] = ()  # template values drawn anew for each version (the rest stays)

    @property
    def many(self) -> bool:
        """Whether ``key`` is a template (one key per number or record)."""
        return "{" in self.key

    def accepts(self, value: Any) -> bool:
        """Whether ``value`` belongs to this key's value family."""
        if self.values:
            return value in [v for v, _en, _zh in self.values]
        if self.span is not None:
            return isinstance(value, int | float) and self.span[0] <= value <= self.span[1]
        if self.template is not None and isinstance(value, str):
            rx = re.escape(self.template)
            for name in placeholders(self.template):
                rx = rx.replace(re.escape("{" + name + "}"), "(.+?)")
            return re.fullmatch(rx, value) is not None
        return False

    def key_pattern(self) -> re.Pattern[str]:
        rx = re.escape(self.key)
        for name in placeholders(self.key):
            rx = rx.replace(re.escape("{" + name + "}"), ".+?")
        return re.compile(rx)


def _entry(v: Any) -> tuple[Any, str, str]:
    if isinstance(v, dict):
        return v["value"], str(v.get("en", v["value"])), str(v.get("zh", v["value"]))
    return v, str(v), str(v)


def _spec(d: dict[str, Any]) -> KeySpec:
    where = f"facts.toml key {d.get('ns')}.{d.get('key')}"
    span = d.get("range")
    if not (d.get("values") or span or d.get("value")):
        raise DataError(f"{where}: needs values, range or value")
    if not d.get("silent") and not d.get("say"):
        raise DataError(f"{where}: needs say lines (or silent = true)")
    lines: dict[str, Any] = {name: d[name] for name in ("say", "change", "reply") if name in d}
    return KeySpec(
        ns=d["ns"], key=d["key"], values=tuple(_entry(v) for v in d.get("values", ())),
        span=(float(span[0]), float(span[1]), int(span[2]) if len(span) > 2 else 0) if span else None,
        template=d.get("value"), fams=tuple(d.get("families", ())), numbers=data.nums(d.get("nums"), where),
        choose=d.get("choose", {}), ordered=bool(d.get("ordered")), rising=bool(d.get("rising")),
        versions=tuple(d.get("versions", (1, 1))), lines=lines, silent=bool(d.get("silent")),
        weight=float(d.get("weight", 1.0)), kind=d.get("kind", "state"), forget_p=float(d.get("forget_p", 0.03)),
        vary=tuple(d.get("vary", ())),
    )  # fmt: skip


def key_specs() -> tuple[KeySpec, ...]:
    return tuple(_spec(d) for d in data.raw("facts").get("key", ()))


# -- curated ----------------------------------------------------------------------------------------------------


def _when(d: dict[str, Any], now: int) -> int:
    if "ago" in d:
        return now - int(float(d["ago"]) * DAY_MS)
    return at_spec(now, d["at"])


def curated_ops(now: int, start: int) -> list[FactOp]:
    """``[[fact]]``, ``[[op]]`` and ``[[self]]`` of ``facts.toml`` (the self refs name skills; see the writer)."""
    doc = data.raw("facts")
    ops: list[FactOp] = []
    for d in doc.get("fact", ()):
        kw, _iso = fact_kwargs(d, now)
        ops.append((_when(d, now), "store", (d["ns"], d["key"], d["value"], kw)))
    for d in doc.get("op", ()):
        args = (d["ns"], d["key"], float(d["tau"])) if d["op"] == "tau" else (d["ns"], d["key"])
        ops.append((_when(d, now), d["op"], args))
    for d in doc.get("self", ()):
        ops.append((_when(d, now), "self", (d["key"], d["content"], list(d.get("refs", ())))))
    return [o for o in ops if start <= o[0] < now]


# -- bulk --------------------------------------------------------------------------------------------------------


@dataclass
class Talk:
    """A fact version said in a conversation: rendered by :func:`render_talk`."""

    t: int
    spec: KeySpec
    key: str
    slots: dict[str, Any]
    value: Any
    shown: tuple[str, str]  # the value as English / Chinese say it
    old: tuple[str, str] | None
    kw: dict[str, Any]


def _versions(
    rng: random.Random, spec: KeySpec, slots: dict[str, Any], count: int
) -> list[tuple[Any, str, str]]:
    """``count`` successive values of a key (in order, rising, or changing every time)."""
    if spec.values:
        n = len(spec.values)
        if spec.ordered:
            start = int(rng.random() * max(1, n - count + 1))
            return [spec.values[min(start + i, n - 1)] for i in range(count)]
        picked: list[tuple[Any, str, str]] = []
        last = None
        for _ in range(count):
            choices = [v for v in spec.values if v is not last] or list(spec.values)
            last = pick(rng, choices)
            picked.append(last)
        return picked
    if spec.span is not None:
        lo, hi, places = spec.span
        nums = [round(lo + rng.random() * (hi - lo), places) if places else int(lo + rng.random() * (hi - lo + 1))
                for _ in range(count)]  # fmt: skip
        if spec.rising:
            nums.sort()
        return [(v, str(v), str(v)) for v in nums]
    out: list[tuple[Any, str, str]] = []
    first = {name: int(rng.random() * max(1, len(opts) - count + 1)) for name, opts in spec.choose.items()}
    for i in range(count):
        for _attempt in range(6):  # only what the spec lets vary changes from version to version
            fresh = data.draw_values(rng, spec.fams, spec.numbers)
            s = {**slots, **{k: fresh[k] for k in spec.vary if k in fresh}}
            for name, opts in spec.choose.items():
                s[name] = opts[min(first[name] + i, len(opts) - 1)] if spec.ordered else pick(rng, opts)
            text = spec.template.format_map(s) if spec.template else ""
            if not out or text != out[-1][0]:
                break
        slots.update(s)
        out.append((text, text, text))
    return out


def _kwargs(rng: random.Random, spec: KeySpec, t: int) -> dict[str, Any]:
    kw: dict[str, Any] = {}
    if rng.random() < 0.3:
        kw["confidence"] = round(0.5 + rng.random() * 0.5, 2)
    if spec.kind == "event":
        kw["fact_kind"] = "event"
        kw["occurred_at"] = t - int(rng.random() * 2 * DAY_MS)
    if rng.random() < 0.03:
        kw["decay_tau_days"] = pick(rng, _TAUS)
    return kw


def bulk_facts(
    rng: random.Random, rows: int, start: int, now: int, taken: set[tuple[str, str]]
) -> tuple[list[FactOp], list[Talk]]:
    """``rows`` more fact rows under keys not in ``taken``; the versions said in conversations."""
    specs = key_specs()
    single = [s for s in specs if not s.many and (s.ns, s.key) not in taken]
    rng.shuffle(single)
    many = [s for s in specs if s.many]
    cum = data.cumulate([s.weight for s in many])
    ops: list[FactOp] = []
    talks: list[Talk] = []
    used = set(taken)
    made = 0
    while made < rows and (single or many):
        spec = single.pop() if single else many[data.weighted(rng, cum)]
        slots = data.draw_values(rng, spec.fams, spec.numbers)
        key = spec.key.format_map(slots)
        if (spec.ns, key) in used:
            continue
        used.add((spec.ns, key))
        count = min(
            rows - made, spec.versions[0] + int(rng.random() * (spec.versions[1] - spec.versions[0] + 1))
        )
        if spec.ordered:  # a status walks forward and never repeats
            count = min(count, len(spec.values) or min((len(o) for o in spec.choose.values()), default=count))
        t = start + int(rng.random() * (now - start - HOUR_MS))
        old: tuple[str, str] | None = None
        for value, en, zh in _versions(rng, spec, slots, count):
            kw = _kwargs(rng, spec, t)
            ops.append((t, "store", (spec.ns, key, value, kw)))
            if not spec.silent:
                talks.append(Talk(t, spec, key, dict(slots), value, (en, zh), old, kw))
            old = (en, zh)
            made += 1
            nxt = t + max(MINUTE_MS, int(rng.random() * (now - t) * 0.6))
            if rng.random() < 0.25:
                ops.append((t + int(rng.random() * (now - t)), "access", (spec.ns, key)))
            if nxt >= now - MINUTE_MS:
                break
            t = nxt
        if rng.random() < 0.02:
            ops.append((t + 1, "pin", (spec.ns, key)))
        elif rng.random() < spec.forget_p:
            ops.append((t + int(rng.random() * max(1, now - t)), "forget", (spec.ns, key)))
    return ops, talks


def render_talk(rng: random.Random, talk: Talk, now: int) -> Conv:
    """The conversation in which a fact version was said; its ``store_fact`` call is at ``talk.t``."""
    lang = "zh" if rng.random() < 0.45 else "en"
    spec = talk.spec
    values = dict(talk.slots)
    values["v"] = talk.shown[lang == "zh"]
    values["old"] = talk.old[lang == "zh"] if talk.old else ""
    t_user = talk.t - 4_000 - int(rng.random() * 30_000)
    slots = Slots(values, t_user, now)
    conv = Conv("fact", lang, slots)
    conv.priority = 1
    kind = "change" if talk.old is not None and "change" in spec.lines else "say"
    conv.say("user", pick(rng, spec.lines[kind][lang]).format_map(slots), t_user)
    iso = {k: local_iso(v) for k, v in talk.kw.items() if k in ("occurred_at", "valid_from", "valid_until")}
    params = fact_params(spec.ns, talk.key, talk.value, talk.kw, iso)
    conv.call(talk.t, "store_fact", params, fact_result(spec.ns, talk.key, talk.kw, talk.t), True)
    reply = pick(rng, spec.lines["reply"][lang]).format_map(slots)
    conv.say("assistant", reply, talk.t + step(rng))
    return conv
