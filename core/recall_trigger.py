"""Detection of messages that refer back to earlier conversations (``recall_trigger.ts``).

Port of the reference's ``detectTimeRetrospectiveQuery`` (spec Part A §5) with JavaScript regex
semantics reproduced as Part C i prescribes:

* every ``\\s`` is the 25-code-point JavaScript white-space class (:data:`core.jsutil.JS_WS`);
* the English patterns are compiled with ``re.IGNORECASE | re.ASCII``: only ASCII letters fold (JS
  ``/i`` without ``u`` refuses ``ſ``→s, Kelvin ``K``→k, ``ı``/``İ``→i) and ``\\b`` is ASCII, so
  ``记住remember when`` hits;
* the Chinese patterns have no flags;
* matching runs on the UTF-16 view of the message, so ``{0,15}`` counts UTF-16 units (an emoji is 2);
* the message is trimmed with JavaScript ``trim()`` and must be at least 4 UTF-16 units long;
* the Chinese patterns are tried first, then the English ones; the first hit wins, and a Chinese hit
  also needs a snippet that is not blank after JS ``trim()``.

Standard library only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.jsutil import JS_WS, from_utf16_view, js_trim, utf16_view

__all__ = ["MIN_LENGTH", "PATTERNS", "TriggerHit", "detect", "injected_text"]

#: The twelve patterns as written in the reference (JavaScript source), in the order they are tried.
#: Z1-Z6 have no flags; E1-E6 have the ``i`` flag.
PATTERNS: list[tuple[str, str]] = [
    (
        "Z1",
        r"(?:我|你|我们|咱们|大家)?\s*(?:刚才|之前|上次|上回|前面|先前|早些时候|上面|曾经|那时)?\s*"
        r"(?:说过|聊过|讲过|讨论过|答应过|约定过|告诉过|提过|提到过|商量过)",
    ),
    ("Z2", r"(?:还|你)?(?:记得|记不记得|记不得|忘了吗|忘了没)"),
    ("Z3", r"(?:我|你|我们)\s*(?:刚才|刚刚|刚)\s*(?:说|聊|提|讲|问|讨论)"),
    ("Z4", r"(?:之前|上次|上回|上回儿|前面|先前)[^。！？\n]{0,15}(?:说|做|讨论|搞|弄|聊|提|发|答|想|讲)"),
    ("Z5", r"(?:接着|继续)(?:上次|之前|刚才)"),
    ("Z6", r"(?:刚才|之前|上次)[^。！？\n]{0,15}(?:是什么|是啥|说的啥|聊的啥|做的啥)"),
    ("E1", r"\bremember\s+(?:when|what|how|that|our)"),
    (
        "E2",
        r"\b(?:we|you|I)\s+(?:talked|discussed|mentioned|agreed|said|told|chatted)\s+"
        r"(?:about|earlier|before|previously|last time)\b",
    ),
    ("E3", r"\b(?:earlier|previously|before)(?:\s+(?:you|we|I))?\s+(?:said|told|mentioned|asked|wrote|did)"),
    ("E4", r"\bas\s+(?:you|we|I)\s+(?:said|mentioned|discussed)\s+(?:earlier|before|last time|previously)\b"),
    ("E5", r"\bdo\s+you\s+(?:still\s+)?remember\b"),
    (
        "E6",
        r"\b(?:from|in)\s+our\s+(?:last|previous|earlier)\s+(?:chat|conversation|talk|discussion|session)",
    ),
]


def _compile(name: str, source: str) -> re.Pattern[str]:
    py = source.replace(r"\s", JS_WS)
    flags = re.IGNORECASE | re.ASCII if name.startswith("E") else 0
    return re.compile(py, flags)


_COMPILED: list[tuple[str, re.Pattern[str]]] = [(name, _compile(name, src)) for name, src in PATTERNS]

#: Messages shorter than this (UTF-16 units, after JS trim) never trigger.
MIN_LENGTH = 4


@dataclass(frozen=True)
class TriggerHit:
    """A hit: ``snippet`` is the matched text (``match[0]``), ``pattern`` the rule name (``Z1``…``E6``)."""

    snippet: str
    pattern: str
    hit: bool = True


def detect(message: str) -> TriggerHit | None:
    """``detectTimeRetrospectiveQuery(message)``: the first pattern hit, or ``None``."""
    view = js_trim(utf16_view(message))
    if len(view) < MIN_LENGTH:
        return None
    for name, rx in _COMPILED:
        m = rx.search(view)
        if m is None:
            continue
        if name.startswith("Z") and not js_trim(m.group(0)):
            continue
        return TriggerHit(snippet=from_utf16_view(m.group(0)), pattern=name)
    return None


def injected_text(snippet: str) -> str:
    """The text the reference server appends to the system-context message on a hit.

    Copied character for character from the reference ``server/src/chat-handler.ts``, including the
    two leading newlines (the server appends this string directly to ``messages[0].content``). The
    parentheses, quotes and commas are ASCII; the dash is two U+2014.
    """
    return (
        f'\n\n## ⚠️ 用户在引用过去对话(命中"{snippet}")'
        "\n用户的当前消息引用了过往对话。请**立即调用 recall_sessions**"
        '(query 用消息里的关键名词,limit=5)查清楚再回答。**不要**说"我看不到'
        '之前的聊天记录"——你完全有 recall_sessions 工具可用,直接用。'
    )
