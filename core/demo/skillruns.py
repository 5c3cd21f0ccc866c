"""A skill's history as events, runs and conversations (see :mod:`core.demo.skillbook`)."""

from __future__ import annotations

import random
from typing import Any

from core import schema
from core.demo import data
from core.demo.calls import render_call
from core.demo.chat import Conv, step
from core.demo.data import pick
from core.demo.skillbook import Event, SkillSpec
from core.demo.stories import FactOp
from core.demo.text import Slots
from core.maturity import is_callable_maturity, next_maturity
from core.skills import RECIPE_DECAY_KEY, recipe_decay_text

# (timestamp, session_id, tool, params, result, success, trigger, linked_skill)
ActionSpec = tuple[int, str, str, dict[str, Any], str, bool, str | None, str | None]
_GENERIC_FIX = "re-check the result against the verification before reporting success"


class History:
    """What the skills' histories produce: store events, conversations, background actions, self facts."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.convs: list[Conv] = []
        self.actions: list[ActionSpec] = []
        self.facts: list[FactOp] = []


class _Skill:
    """Replays one skill's steps the way the store will, to know its grade at every run."""

    def __init__(self, spec: SkillSpec, rng: random.Random, now: int, out: History):
        self.spec, self.rng, self.now, self.out = spec, rng, now, out
        self.grade = spec.maturity or "draft"
        self.s = self.f = self.c = 0
        self.template = spec.template
        self.why = ""
        self.reviewed: set[str] = set()

    def run(self, t: int, ok: bool, mode: str, conv_p: float) -> None:
        spec, rng = self.spec, self.rng
        slots = Slots({**data.draw_values(rng, spec.fams, spec.numbers), **spec.slots}, t, self.now)
        tool, params, result = self._linked(slots, ok, mode)
        self.why = str(slots.get("why", ""))
        lines = spec.lines
        quiet = not ok and spec.failures.get(mode, {}).get("quiet", False)
        if "task" in lines and not quiet and rng.random() < conv_p:
            self._conversation(t, slots, ok, (tool, params, result))
        else:
            self.out.actions.append(
                (t, schema.GLOBAL_SESSION_ID, tool, params, result, ok, spec.background, spec.name)
            )
        self.out.events.append((t, spec.name, "o", (ok,)))
        if ok:
            self.s, self.c = self.s + 1, 0
        else:
            self.f, self.c = self.f + 1, self.c + 1
        self.grade = next_maturity(self.grade, self.s, self.f, self.c, ok)
        if not ok and spec.is_recipe:  # the reflector demotes a recipe that failed its own verification
            self.grade = "playbook"
            self.out.events.append((t + 1, spec.name, "m", ("playbook",)))
            self.out.facts.append(
                (t + 2, "self", (RECIPE_DECAY_KEY, recipe_decay_text(spec.name), [f"skill:{spec.name}"]))
            )

    def _linked(self, slots: Slots, ok: bool, mode: str) -> tuple[str, dict[str, Any], str]:
        spec, rng = self.spec, self.rng
        if not ok and mode in spec.failures:
            f = spec.failures[mode]
            slots["why"] = f["why"].format_map(slots)
            slots["why_zh"] = f.get("why_zh", f["why"]).format_map(slots)
            params = {k: v.format_map(slots) if isinstance(v, str) else v for k, v in f["params"].items()}
            return f["tool"], params, f["result"].format_map(slots)
        pool = spec.ok_calls if ok else (spec.fail_calls or spec.ok_calls)
        tmpl = pick(rng, pool)
        params, result, _ok = render_call(rng, tmpl, slots, ok=ok)
        if not ok and "why" not in slots:
            slots["why"] = slots["why_zh"] = result.splitlines()[-1]
        return tmpl.tool, params, result

    def _conversation(self, t: int, slots: Slots, ok: bool, linked: tuple[str, dict[str, Any], str]) -> None:
        spec, rng = self.spec, self.rng
        lang = spec.lang  # a skill learnt in one language is asked for in it
        conv = Conv("skill", lang, slots)
        conv.priority = 1
        t_user = t - 20_000 - int(rng.random() * 40_000)
        conv.say("user", pick(rng, spec.lines["task"][lang]).format_map(slots), t_user)
        if spec.kind == "positive" and is_callable_maturity(self.grade):
            t_use = t - 5_000 - int(rng.random() * 8_000)
            conv.call(t_use, "use_skill", {"name": spec.name}, self.use_output(), True)
            self.out.events.append((t_use, spec.name, "u", ()))
        conv.call(t, linked[0], linked[1], linked[2], ok, spec.name)
        reply = pick(rng, spec.lines["done" if ok else "failed"][lang]).format_map(slots)
        conv.say("assistant", reply, t + step(rng))
        self.out.convs.append(conv)

    def use_output(self) -> str:
        spec = self.spec
        return f"# Skill: {spec.name}\n{spec.description}\n\n## Action Template\n{self.template}"[:500]

    def use(self, t: int) -> None:
        """A retrieval without an outcome (``use_skill``); a playbook or deprecated skill is not callable."""
        if self.spec.kind == "positive" and not is_callable_maturity(self.grade):
            return
        self.out.events.append((t, self.spec.name, "u", ()))
        self.out.actions.append((t, schema.GLOBAL_SESSION_ID, "use_skill", {"name": self.spec.name},
                                 self.use_output(), True, "chat", None))  # fmt: skip

    def revise(self, t: int, op: str, arg: str) -> None:
        spec, rng = self.spec, self.rng
        if op == "repair":
            mode = spec.failures.get(arg, {})
            why = mode.get("why", self.why) or "the verification failed"
            reason = f"skill_repair:init-{rng.getrandbits(32):08x}: {why.format_map(Slots(spec.slots, t, self.now))}"
            fix = mode.get("step") or (pick(rng, spec.fixes) if spec.fixes else _GENERIC_FIX)
        else:
            fresh = [k for k in spec.reviews if k not in self.reviewed] or list(spec.reviews)
            name = arg if arg in spec.reviews else (pick(rng, fresh) if fresh else "")
            self.reviewed.add(name)
            review = spec.reviews.get(name)
            fix = review["step"] if review else _GENERIC_FIX
            reason = review["reason"] if review else f"review: {fix}"
        n = self.template.count("\n") + 2
        self.template = f"{self.template}\n{n}. {fix}"
        self.grade = "draft"
        self.out.events.append((t, spec.name, "r", (reason[:500], self.template)))


def plan_histories(rng: random.Random, specs: list[SkillSpec], now: int, conv_p: float) -> History:
    """Every skill's steps as store events, with the runs' actions and conversations."""
    out = History()
    for spec in specs:
        skill = _Skill(spec, rng, now, out)
        p = conv_p if spec.conv_p is None else spec.conv_p
        for t, op, arg in sorted(spec.steps, key=lambda s: s[0]):
            if op in ("ok", "fail"):
                skill.run(t, op == "ok", arg, p)
            elif op == "use":
                skill.use(t)
            elif op in ("repair", "review"):
                if spec.is_recipe:
                    skill.revise(t, op, arg)
            else:
                raise data.DataError(f"skill {spec.name}: unknown step {op!r}")
    out.events.sort(key=lambda e: e[0])
    return out
