"""Skills (``skills.toml``) and their histories: runs, failures, repairs, reviews.

A skill's outcomes are runs of it: each is one action in the log linked to the skill, with the call
the skill makes and a result that says how it went (a failure says why, and the repair that follows
quotes that reason and adds the step that fixes it). A run either belongs to a conversation (the user
asks for the task, the agent retrieves the skill with ``use_skill`` when its grade allows it, runs it
and answers) or happens in the background (a schedule, an autonomous turn). Grades are never set here:
the writer replays the events through the store, so the maturity follows from the action log.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from core.demo import data
from core.demo.data import CallTemplate, DataError, pick
from core.demo.text import DAY_MS, HOUR_MS, MINUTE_MS, at_spec

#: ``(time, skill name, op, args)``: ``o (success, run)``, ``u ()``, ``m (grade,)``, ``r (reason, template)``.
Event = tuple[int, str, str, tuple[Any, ...]]


@dataclass
class SkillSpec:
    """A skill to create, and what its runs need."""

    name: str
    description: str
    keywords: list[str]
    template: str
    when: str
    created: int
    kind: str = "positive"
    source: str | None = None
    maturity: str | None = None
    verification: dict[str, str] | None = None
    policy: list[str] | None = None
    lang: str = "en"
    slots: dict[str, Any] = field(default_factory=dict)  # values every run shares
    fams: tuple[str, ...] = ()  # families drawn anew for each run
    numbers: tuple[data.Num, ...] = ()
    ok_calls: tuple[CallTemplate, ...] = ()
    fail_calls: tuple[CallTemplate, ...] = ()
    failures: dict[str, dict[str, Any]] = field(default_factory=dict)
    reviews: dict[str, dict[str, str]] = field(default_factory=dict)
    fixes: tuple[str, ...] = ()
    lines: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # task / done / failed
    background: str = "autonomous"
    steps: list[tuple[int, str, str]] = field(default_factory=list)  # (time, op, argument)
    curated: bool = False
    conv_p: float | None = None  # the chance a run is a conversation (None: the generator's default)

    @property
    def is_recipe(self) -> bool:
        return self.verification is not None and bool(self.policy)


def _calls(names: list[str], where: str) -> tuple[CallTemplate, ...]:
    table = data.calls()
    missing = [n for n in names if n not in table]
    if missing:
        raise DataError(f"{where}: unknown calls {missing}")
    return tuple(table[n] for n in names)


def _hexes(rng: random.Random) -> dict[str, str]:
    return {"hex": f"{rng.getrandbits(24):06x}", "hex8": f"{rng.getrandbits(32):08x}"}


def _curated(rng: random.Random, d: dict[str, Any], now: int) -> SkillSpec:
    where = f"skills.toml skill {d['name']}"
    hexes = _hexes(rng)
    steps = []
    for item in d.get("history", ()):
        when, _sp, what = item.partition(" ")
        op, _c, arg = what.partition(":")
        steps.append((at_spec(now, when), op, arg))
    return SkillSpec(
        name=d["name"].format_map(hexes), description=d["description"], keywords=list(d.get("keywords", ())),
        template=d["template"], when=d.get("when", ""), created=at_spec(now, d["created"]),
        kind=d.get("kind", "positive"), source=d["source"].format_map(hexes) if "source" in d else None,
        maturity=d.get("maturity"), verification=d.get("verification"), policy=d.get("policy"),
        lang=d.get("lang", "en"), slots=dict(d.get("set", {})), fams=tuple(d.get("families", ())),
        numbers=data.nums(d.get("nums"), where), conv_p=0.25 if "background" in d else 0.6,
        ok_calls=_calls(d.get("ok", []), where), fail_calls=_calls(d.get("fail", []), where),
        failures=d.get("failures", {}), reviews=d.get("reviews", {}),
        lines={k: d[k] for k in ("task", "done", "failed") if k in d},
        background=d.get("background", "autonomous"), steps=steps, curated=True,
    )  # fmt: skip


def curated_skills(rng: random.Random, now: int) -> list[SkillSpec]:
    """The skills with fixed names and dated histories."""
    return [_curated(rng, d, now) for d in data.raw("skills")["skill"]]


# -- bulk ----------------------------------------------------------------------------------------------------------


def _numbered(steps: list[str]) -> str:
    return "\n".join(f"{i}. {s}" for i, s in enumerate(steps, 1))


class _Bulk:
    """Draws skills of the kinds, negatives and playbook lessons of ``skills.toml``."""

    def __init__(self, rng: random.Random, start: int, now: int, taken: set[str]):
        doc = data.raw("skills")
        self.rng, self.start, self.now, self.taken = rng, start, now, taken
        self.kinds, self.negatives, self.lessons = doc["kind"], doc["negative"], doc["lesson"]
        self.reviews: dict[str, dict[str, str]] = doc["reviews"]
        self.plans: dict[str, list[str]] = doc["plans"]
        weights = doc["plan_weights"]
        self.plan_names = list(weights)
        self.cum = data.cumulate([float(weights[p]) for p in self.plan_names])

    def _name(self, base: str) -> str:
        name, i = base, 1
        while name in self.taken:
            i += 1
            name = f"{base}-v{i}"
        self.taken.add(name)
        return name

    def draw(self) -> SkillSpec:
        rng = self.rng
        plan = self.plan_names[data.weighted(rng, self.cum)]
        created = (
            self.start - 20 * DAY_MS + int(rng.random() * (self.now - 3 * DAY_MS - self.start + 20 * DAY_MS))
        )
        lang = "zh" if rng.random() < 0.35 else "en"
        if plan.startswith("playbook"):
            spec = self._playbook(lang, created)
        elif plan == "negative":
            spec = self._negative(lang, created)
        else:
            spec = self._positive(lang, created, plan.startswith("recipe"))
        spec.steps = [(0, *token.partition(":")[::2]) for token in self.plans[plan]]
        return spec

    def _common(self, d: dict[str, Any], lang: str, created: int, where: str) -> dict[str, Any]:
        slots = data.draw_values(self.rng, tuple(d.get("families", ())), ())
        return dict(
            lang=lang, created=created, slots=slots, numbers=data.nums(d.get("nums"), where),
            lines={k: d[k] for k in ("task", "done", "failed") if k in d},
        )  # fmt: skip

    def _positive(self, lang: str, created: int, recipe: bool) -> SkillSpec:
        rng = self.rng
        for _attempt in range(8):  # a skill not learnt yet, if there is one
            d = pick(rng, self.kinds)
            c = self._common(d, lang, created, "skills.toml kind")
            s = c["slots"]
            base = (d["name_zh"] if lang == "zh" else d["name"]).format_map(s)
            if base not in self.taken:
                break
        x = rng.random()
        source = None
        if x < 0.25:
            source = f"self:reflect-{rng.getrandbits(32):08x}"
        elif x < 0.33:
            source = f"clawhub:{pick(rng, ('k8s-helper', 'pg-tools', 'calendar-sync'))}@1.{int(rng.random() * 10)}.0"
        return SkillSpec(
            name=self._name(base), description=d["description"][lang].format_map(s), keywords=list(d["keywords"]),
            template=_numbered([t.format_map(s) for t in d["steps"][lang]]),
            when=d["when"][lang].format_map(s) if rng.random() < 0.6 else "", source=source,
            verification={"kind": "tool_result_ok", "check": d["description"]["en"].format_map(s)} if recipe else None,
            policy=list(d["policy"]) if recipe else None, ok_calls=_calls(d["ok"], "kind"),
            fail_calls=_calls(d.get("fail", []), "kind"), fixes=tuple(d.get("fixes", ())),
            reviews=self.reviews, **c,
        )  # fmt: skip

    def _negative(self, lang: str, created: int) -> SkillSpec:
        d = pick(self.rng, self.negatives)
        c = self._common(d, lang, created, "skills.toml negative")
        text = d["description"][lang].format_map(c["slots"])
        return SkillSpec(
            name=self._name(d["name"].format_map(c["slots"])), description=text, keywords=list(d["keywords"]),
            template=text, when="", kind="negative", ok_calls=_calls([d["call"]], "negative"), **c,
        )  # fmt: skip

    def _playbook(self, lang: str, created: int) -> SkillSpec:
        rng = self.rng
        d = pick(rng, self.lessons)
        c = self._common(d, lang, created, "skills.toml lesson")
        failure = rng.random() < 0.3
        sig = d["sig"]
        text = f"{d[lang]}\nApplies when: {sig} tasks\nNext time: {d['next'][lang]}"
        hexes = _hexes(rng)
        source = f"plan-failure:{sig}:{hexes['hex']}" if failure else f"self:reflect-{hexes['hex8']}"
        call = _calls([d["call"]], "lesson")
        return SkillSpec(
            name=self._name(f"playbook-{sig}-{'fail-' if failure else ''}{hexes['hex']}"), description=text,
            keywords=[], template=text + "\n[Why not routing_rule] too specific for a routing rule", when="",
            source=source, maturity="playbook", ok_calls=call, fail_calls=call, **c,
        )  # fmt: skip


def bulk_skills(rng: random.Random, count: int, taken: set[str], start: int, now: int) -> list[SkillSpec]:
    bulk = _Bulk(rng, start, now, set(taken))
    out = [bulk.draw() for _ in range(max(0, count))]
    for spec in out:
        _time_steps(rng, spec, now)
    return out


def _time_steps(rng: random.Random, spec: SkillSpec, now: int) -> None:
    """Random times for a bulk skill's steps (a repair follows its failure within hours), plus retrievals."""
    ops = [(op, arg) for _t, op, arg in spec.steps]
    for _ in range(int(rng.random() * 3)):
        ops.insert(int(rng.random() * (len(ops) + 1)), ("use", ""))
    lo, hi = spec.created + HOUR_MS, now - 10 * MINUTE_MS
    times = sorted(lo + int(rng.random() * (hi - lo)) for _ in ops)
    for i, (op, _arg) in enumerate(ops):
        if op == "repair" and i > 0:
            nxt = times[i + 1] if i + 1 < len(times) else hi
            times[i] = times[i - 1] + int(
                min(30 * HOUR_MS, (nxt - times[i - 1]) * 0.5) * (0.2 + 0.8 * rng.random())
            )
    spec.steps = [(t, op, arg) for t, (op, arg) in zip(times, ops, strict=True)]


def _texts(d: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for key in ("task", "done", "failed", "description", "steps", "when"):
        v = d.get(key)
        if isinstance(v, dict):
            for x in v.values():
                out += x if isinstance(x, list) else [x]
    for name in (*d.get("ok", ()), *d.get("fail", ()), *([d["call"]] if "call" in d else [])):
        out += data.calls()[name].texts()
    for f in d.get("failures", {}).values():
        out += [
            f["result"],
            f["why"],
            f.get("why_zh", ""),
            *[v for v in f["params"].values() if isinstance(v, str)],
        ]
    return [t for t in out if t]


def check_skills() -> list[str]:
    """Every template of the skills' data resolves (for the tests)."""
    doc = data.raw("skills")
    problems = []
    groups = [("skill", d) for d in doc["skill"]] + [("kind", d) for d in doc["kind"]]
    groups += [("negative", d) for d in doc["negative"]] + [("lesson", d) for d in doc["lesson"]]
    for what, d in groups:
        known = (
            set().union(*(data.family_fields(f) for f in d.get("families", ())))
            if d.get("families")
            else set()
        )
        known |= set(d.get("nums", {})) | set(d.get("set", {})) | {"why", "why_zh"}
        bad = data.unknown_placeholders(_texts(d), known)
        if bad:
            problems.append(f"skills.toml {what} {d.get('name', d.get('sig'))}: {sorted(bad)}")
    return problems
