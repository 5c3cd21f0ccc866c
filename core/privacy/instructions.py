"""Planted instructions: text that tells the agent what to do, in the layers the memory prefix shows
(facts, skills and their revisions, notes), English and Chinese.

A fact, skill or note is pasted into every later turn; a sentence in one that overrides the agent's
instructions ("ignore all previous instructions", "忽略之前的指令"), gives it a new role ("you are now…",
"你现在是…"), asks for its system prompt, or tells it to hide something from the person is reported.
"""

from __future__ import annotations

import re

from core.privacy.hits import Hit

_PREVIOUS = r"(?:previous|prior|above|earlier|preceding|former|original)"
_ORDERS = r"(?:instructions?|prompts?|rules?|directions?|guidelines?|messages?|context|constraints?)"

#: (kind, pattern, confidence)
PATTERNS: tuple[tuple[str, re.Pattern[str], float], ...] = (
    (
        "instruction.override",
        re.compile(
            rf"(?i)\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|every\s+)?(?:of\s+)?"
            rf"(?:the\s+|your\s+|my\s+)?{_PREVIOUS}\s+{_ORDERS}"
        ),
        0.95,
    ),
    (
        "instruction.override",
        re.compile(
            r"忽略(?:掉)?(?:你)?(?:之前|以前|上面|以上|前面|先前|此前|原有|原来)(?:的)?(?:所有|全部|一切)?(?:的)?"
            r"(?:指令|指示|提示词?|规则|说明|要求|设定|内容)"
        ),
        0.95,
    ),
    ("instruction.override", re.compile(r"忽略(?:以上|上面|之前|前面)(?:所有|全部|一切)"), 0.95),
    ("instruction.override", re.compile(r"(?i)\bnew\s+(?:system\s+)?instructions?\s*:"), 0.7),
    ("instruction.override", re.compile(r"(?i)\byou\s+must\s+now\b"), 0.7),
    (
        "instruction.override",
        re.compile(r"(?:从现在(?:开始|起)|从今以后)[，,]?\s*你(?:必须|只能|要|应该)"),
        0.75,
    ),
    (
        "instruction.role",
        re.compile(r"(?i)\byou\s+are\s+now\s+(?:a|an|the|in|my|called|named|no\s+longer)\b"),
        0.75,
    ),
    ("instruction.role", re.compile(r"你现在(?:是|扮演|的身份是|不再是)"), 0.7),
    ("instruction.role", re.compile(r"(?i)\b(?:pretend|act)\s+(?:to\s+be|as\s+if\s+you\s+are)\b"), 0.5),
    (
        "instruction.system_prompt",
        re.compile(
            r"(?i)\b(?:reveal|print|show|repeat|output|leak|dump|tell\s+me)\s+(?:me\s+)?(?:your|the)\s+"
            r"(?:full\s+|entire\s+|hidden\s+)?system\s+prompt"
        ),
        0.9,
    ),
    ("instruction.system_prompt", re.compile(r"(?i)\bsystem\s+prompt\b"), 0.5),
    ("instruction.system_prompt", re.compile(r"(?:系统提示词?|系统指令)"), 0.5),
    (
        "instruction.concealment",
        re.compile(
            r"(?i)\b(?:do\s+not|don't|never)\s+(?:tell|inform|mention\s+(?:this\s+)?to|let)\s+the\s+user\b"
        ),
        0.7,
    ),
    ("instruction.concealment", re.compile(r"(?:不要|别|不得|切勿)(?:告诉|告知|让)用户"), 0.7),
)

#: Every kind this module finds.
KINDS: tuple[str, ...] = tuple(sorted({kind for kind, _pattern, _confidence in PATTERNS}))

#: The literals (lower case) one of which each pattern holds: a text without any holds no instruction.
TRIGGERS: tuple[str, ...] = (
    "ignore",
    "disregard",
    "forget",
    "override",
    "bypass",
    "instruction",
    "must",
    "now",
    "pretend",
    "act ",
    "system",
    "user",
    "忽略",
    "从现在",
    "从今以后",
    "你现在",
    "系统提示",
    "系统指令",
    "用户",
)


def find(text: str, low: str | None = None) -> list[Hit]:
    """Every planted instruction in ``text``, the strongest first (overlaps are merged by the caller)."""
    low = text.lower() if low is None else low
    if not any(t in low for t in TRIGGERS):
        return []
    out: list[Hit] = []
    for kind, pattern, confidence in PATTERNS:
        out.extend(Hit(kind, m.start(), m.end(), confidence) for m in pattern.finditer(text))
    return out
