"""Conversations as the agent's timeline records them: user line, tool calls, reply, at plausible times."""

from __future__ import annotations

import random
from typing import Any

from core.demo.calls import render_call, tool_message
from core.demo.data import Dialogue, Turn, phrases, pick
from core.demo.text import Slots

#: ``(role, content, timestamp)``
Msg = tuple[str, str, int]
#: ``(timestamp, tool, params, result, success, linked_skill)``
Call = tuple[int, str, dict[str, Any], str, bool, "str | None"]

STATUS_P = 0.6
_LOWER_AFTER_STATUS = frozenset(
    [
        "Done",
        "Yes",
        "Rolled",
        "Restored",
        "Fixed",
        "Moved",
        "Added",
        "Booked",
        "Found",
        "Ran",
        "Healthy",
        "Deployed",
        "Patched",
        "Updated",
        "Set",
        "It",
        "The",
        "Two",
        "Much",
        "Posted",
        "Announced",
        "Cancelled",
        "Blocked",
        "Freed",
        "Tests",
        "Green",
        "All",
        "Drill",
        "Restore",
    ]
)
_NO_STATUS = frozenset(("Yes", "No", "Not", "Nothing", "Sorry", "Typical", "Nice", "Congratulations", "Done"))
THANKS_P = 0.35  # a conversation of several turns ends with thanks
ACK_P = 0.7  # the agent says it is on it before a tool call
_RETRY = {
    "en": ("Try again?", "Can you retry?", "Give it another go.", "Retry, please."),
    "zh": ("再试一次？", "重试一下吧", "再跑一遍看看", "麻烦再试一次"),
}


class Conv:
    """One rendered conversation: its messages and tool calls, and what notes and recalls can say of it."""

    __slots__ = (
        "calls", "channel", "hidden", "kind", "lang", "msgs", "note", "priority", "show_p", "slots", "source",
        "summary", "trigger",
    )  # fmt: skip

    def __init__(self, kind: str, lang: str, slots: Slots | None = None, source: Any = None):
        self.kind = kind  # chat, story, fact, agenda, skill, scheduled, autonomous, recall
        self.lang = lang
        self.msgs: list[Msg] = []
        self.calls: list[Call] = []  # the calls the timeline shows as tool messages
        self.hidden: list[Call] = []  # calls only the action log has
        self.slots = slots
        self.source = source  # the Dialogue (or episode) it was rendered from
        self.channel: str | None = None  # web / wechat / telegram, or web:<key> for one ongoing web chat
        self.priority = 0  # when the message budget is short, the lowest priorities are left out first
        self.trigger = "chat"
        self.show_p = 1.0  # the share of its tool calls the timeline shows as tool messages
        self.summary: str | None = None  # what a session summary says of it (dialogues: from the script)
        self.note: str | None = None  # a lesson worth a note

    @property
    def start(self) -> int:
        return self.msgs[0][2]

    @property
    def end(self) -> int:
        return self.msgs[-1][2]

    def say(self, role: str, content: str, t: int) -> None:
        self.msgs.append((role, content, t))

    def call(
        self, t: int, tool: str, params: dict[str, Any], result: str, ok: bool, skill: str | None = None,
        shown: bool = True,
    ) -> None:  # fmt: skip
        """A tool call; ``shown``: the timeline also has its ``tool`` message (the action log always has it)."""
        if shown:
            self.msgs.append(("tool", tool_message(tool, ok, result), t))
            self.calls.append((t, tool, params, result, ok, skill))
        else:
            self.hidden.append((t, tool, params, result, ok, skill))


def think(rng: random.Random) -> int:
    """The agent's time between a user line and its first step."""
    return 3_000 + int(rng.random() * 40_000)


def step(rng: random.Random) -> int:
    """Between two steps of the agent (a tool call, the reply)."""
    return 1_000 + int(rng.random() * 20_000)


def pause(rng: random.Random) -> int:
    """Between a reply and the user's next line."""
    return 20_000 + int(rng.random() * 600_000)


def exchange(
    conv: Conv,
    rng: random.Random,
    t: int,
    user: str | None,
    calls: list[tuple[str, dict[str, Any], str, bool, str | None]],
    reply: str,
    ack: bool = False,
) -> int:
    """Append one user line (none for a run the agent starts), its calls and the reply; returns the next time."""
    if user is not None:
        conv.say("user", user, t)
        t += think(rng)
    if calls and ack:
        conv.say("assistant", pick(rng, phrases("ack")[conv.lang]), t)
        t += 1_000 + int(rng.random() * 5_000)
    for tool, params, result, ok, skill in calls:
        conv.call(t, tool, params, result, ok, skill, conv.show_p >= 1.0 or rng.random() < conv.show_p)
        t += step(rng)
    conv.say("assistant", reply, t)
    return t + pause(rng)


def _turn(conv: Conv, rng: random.Random, turn: Turn, t: int, slots: Slots, user: str, last: bool) -> int:
    r = rng.random
    if turn.call is None:
        reply = pick(rng, turn.reply).format_map(slots)
        return exchange(conv, rng, t, user, [], _status(rng, turn, conv.lang, reply))
    params, result, ok = render_call(rng, turn.call, slots)
    tool = turn.call.tool
    if ok:
        reply = _status(rng, turn, conv.lang, pick(rng, turn.reply).format_map(slots))
        return exchange(conv, rng, t, user, [(tool, params, result, True, None)], reply, r() < ACK_P)
    fail = pick(rng, turn.fail).format_map(slots)
    t = exchange(conv, rng, t, user, [(tool, params, result, False, None)], fail, r() < ACK_P)
    if last:
        return t
    # The user asks again and the call goes through, so the script's next turn still follows.
    params, result, _ok = render_call(rng, turn.call, slots, ok=True)
    reply = pick(rng, turn.reply).format_map(slots)
    return exchange(conv, rng, t, pick(rng, _RETRY[conv.lang]), [(tool, params, result, True, None)], reply)


def _status(rng: random.Random, turn: Turn, lang: str, reply: str) -> str:
    """Now and then a reply after a successful call reads as a status update ("Quick update: …")."""
    if not turn.status or rng.random() >= STATUS_P:
        return reply
    first = reply.split(" ", 1)[0]
    word = first.rstrip(":,.!")
    if word in _NO_STATUS or ":" in reply[:16] or "：" in reply[:8]:
        return reply  # "Done: …" or "找到了：…" already opens like a report
    head = pick(rng, phrases("status")[lang])
    if lang == "en" and word in _LOWER_AFTER_STATUS:
        reply = reply[0].lower() + reply[1:]
    return head + reply


def render_dialogue(
    rng: random.Random, d: Dialogue, lang: str, turns: int, t0: int, slots: Slots, show_p: float = 1.0
) -> Conv:
    """The first ``turns`` turns of ``d`` in ``lang`` from ``t0`` (``show_p``: see :attr:`Conv.show_p`)."""
    conv = Conv("chat", lang, slots, d)
    conv.show_p = show_p
    script = d.turns[lang][:turns]
    t = t0
    for i, turn in enumerate(script):
        user = pick(rng, turn.user).format_map(slots)
        t = _turn(conv, rng, turn, t, slots, user, i == len(script) - 1)
    if turns > 1 and rng.random() < THANKS_P:
        thanks, welcome = phrases("thanks")[lang], phrases("welcome")[lang]
        exchange(conv, rng, t, pick(rng, thanks), [], pick(rng, welcome))
    return conv


def calls_per_turn(d: Dialogue, lang: str) -> float:
    turns = d.turns[lang]
    return sum(1 for t in turns if t.call is not None) / len(turns)


def messages_per_turn(d: Dialogue, lang: str, show_p: float = 1.0) -> float:
    """Expected messages of one turn of ``d`` (user, reply, a call with its acknowledgement, the thanks)."""
    return 2.0 + (show_p + ACK_P) * calls_per_turn(d, lang) + 2.0 * THANKS_P / len(d.turns[lang])
