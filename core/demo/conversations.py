"""The everyday conversations that fill the timeline, the runs of schedules, and look-backs at earlier talks.

:class:`Fillers` draws a dialogue script (topic, language, script by weight), fills it with one record
of each family it uses and renders as many turns as the message budget asks. About one conversation in
thirty instead refers back to an earlier one ("Do you remember what we discussed about …"): the agent
calls ``recall_sessions`` and answers with what came of it then.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from core.demo import data
from core.demo.calls import render_call
from core.demo.chat import Conv, calls_per_turn, exchange, messages_per_turn, render_dialogue
from core.demo.data import CallTemplate, Dialogue, Num, pick, weighted
from core.demo.text import HOUR_MS, Day, Slots
from core.jsutil import iso_ms

ZH_SHARE = 0.47
RECALL_P = 0.035

#: ``(end, dialogue, slots, session, first user line)`` of a conversation a later one may recall.
Recallable = tuple[int, Dialogue, Slots, str, str]


class Fillers:
    """Renders the everyday conversations of the timeline."""

    def __init__(self, rng: random.Random, now: int):
        self.rng = rng
        self.now = now
        self.topics = data.topics()
        self.topic_cum = data.cumulate([t.weight for t in self.topics])
        self.recent: dict[str, deque[Recallable]] = {"en": deque(maxlen=40), "zh": deque(maxlen=40)}
        self.recall = data.raw("runs")["recall"]
        self._shape: dict[tuple[str, str], tuple[float, float]] = {}  # messages (no tool) and calls a turn
        self.show_p = 1.0

    def pick_lang(self) -> str:
        return "zh" if self.rng.random() < ZH_SHARE else "en"

    def render(self, t0: int, want_msgs: float, lang: str) -> Conv:
        """One conversation starting at ``t0`` of about ``want_msgs`` messages."""
        rng = self.rng
        if rng.random() < RECALL_P:
            conv = self._recall(t0, lang)
            if conv is not None:
                return conv
        topic = self.topics[weighted(rng, self.topic_cum)]
        li = 0 if lang == "en" else 1
        d = topic.by_lang[li][weighted(rng, topic.cumulative[li])]
        shape = self._shape.get((d.id, lang))
        if shape is None:
            shape = self._shape[(d.id, lang)] = (messages_per_turn(d, lang, 0.0), calls_per_turn(d, lang))
        mpt = shape[0] + self.show_p * shape[1]
        n_turns = len(d.turns[lang])
        turns = max(1, min(n_turns, round(want_msgs / mpt + rng.uniform(-0.8, 0.8))))
        slots = Slots(data.draw_values(rng, d.fams, d.numbers), t0, self.now)
        return render_dialogue(rng, d, lang, turns, t0, slots, self.show_p)

    def remember(self, conv: Conv, session: str) -> None:
        """Let later conversations recall ``conv`` (a dialogue with a subject and a summary)."""
        d = conv.source
        if (
            conv.kind == "chat"
            and isinstance(d, Dialogue)
            and d.subject
            and d.summary
            and conv.slots is not None
        ):
            self.recent[conv.lang].append((conv.end, d, conv.slots, session, conv.msgs[0][1]))

    def _recall(self, t0: int, lang: str) -> Conv | None:
        rng = self.rng
        old = [r for r in self.recent[lang] if r[0] < t0 - 3 * HOUR_MS]
        if not old:
            return None
        end, d, slots, session, first = pick(rng, old)
        subject = d.subject[lang].format_map(slots)
        summary = d.summary[lang].format_map(slots)
        s = Slots({"subject": subject, "summary": summary, "then": Day(end)}, t0, self.now)
        conv = Conv("recall", lang, s, d)
        user = pick(rng, self.recall[lang]).format_map(s)
        result = (
            f"- session={session} @ {iso_ms(end - 10 * 60_000)} (not closed)\n  (no summary)\n"
            f"  hits:\n    [user] {first[:200]}"
        )
        params = {"query": subject, "limit": 5}
        reply = pick(rng, self.recall[f"answer_{lang}"]).format_map(s)
        exchange(conv, rng, t0, user, [("recall_sessions", params, result, True, None)], reply)
        return conv

    def expected(self, show_p: float = 1.0) -> tuple[float, float]:
        """Messages and calls of an average conversation rendered in full (to size the timeline)."""
        msgs = calls = weight = 0.0
        for topic in self.topics:
            inner = sum(d.weight for d in topic.dialogues)
            for d in topic.dialogues:
                for lang in d.turns:
                    w = topic.weight * d.weight / inner
                    n = len(d.turns[lang])
                    msgs += w * messages_per_turn(d, lang, show_p) * n
                    calls += w * calls_per_turn(d, lang) * n
                    weight += w
        return (msgs / weight, calls / weight) if weight else (6.0, 1.0)

    def fit_calls(self, budget: int, room: int) -> None:
        """Show only as many tool messages as the action log has room for (every tool message has its action)."""
        m1, calls = self.expected(1.0)
        m0 = m1 - calls  # the messages of a conversation besides its tool messages
        if budget <= 0 or calls <= 0 or budget * calls / m1 <= room:
            self.show_p = 1.0
        else:
            self.show_p = max(0.0, min(1.0, room * m0 / (calls * max(1.0, budget - room))))


# -- runs of schedules and background work ---------------------------------------------------------------


class _RunSpec:
    __slots__ = ("call", "fail", "fams", "numbers", "reply", "system")

    def __init__(self, spec: dict[str, Any]):
        self.system: dict[str, str] = spec["system"]
        self.call: CallTemplate | None = data.calls()[spec["call"]] if "call" in spec else None
        self.fams: tuple[str, ...] = tuple(spec.get("families", ()))
        self.numbers: tuple[Num, ...] = data.nums(spec.get("nums"), "runs.toml")
        self.reply: dict[str, list[str]] = spec["reply"]
        self.fail: dict[str, list[str]] = spec.get("fail", spec["reply"])


def run_specs() -> tuple[dict[str, _RunSpec], list[_RunSpec]]:
    doc = data.raw("runs")
    return {k: _RunSpec(v) for k, v in doc["run"].items()}, [_RunSpec(v) for v in doc["autonomous"]]


def render_run(
    rng: random.Random,
    spec: _RunSpec,
    lang: str,
    t0: int,
    now: int,
    name: str,
    kind: str,
    show_p: float = 1.0,
) -> Conv:
    """A run the agent starts: a system line, its call, its report (``kind`` scheduled or autonomous)."""
    slots = Slots({"name": name, **data.draw_values(rng, spec.fams, spec.numbers)}, t0, now)
    conv = Conv(kind, lang, slots)
    conv.show_p = show_p
    conv.say("system", spec.system[lang].format_map(slots), t0)
    t = t0 + 500 + int(rng.random() * 3_000)
    calls: list[tuple[str, dict[str, Any], str, bool, str | None]] = []
    ok = True
    if spec.call is not None:
        params, result, ok = render_call(rng, spec.call, slots)
        calls.append((spec.call.tool, params, result, ok, None))
    reply = pick(rng, (spec.reply if ok else spec.fail)[lang]).format_map(slots)
    exchange(conv, rng, t, None, calls, reply)
    return conv
