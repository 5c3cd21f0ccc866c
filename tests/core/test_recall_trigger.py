"""Recall trigger (spec Part A §5, Part C i): JS regex semantics and the injected system text."""

from __future__ import annotations

import re

import pytest

from core.recall_trigger import PATTERNS, TriggerHit, detect, injected_text

EMOJI = "\U0001f600"


def test_patterns_are_the_twelve_reference_patterns_in_order():
    assert [name for name, _ in PATTERNS] == [f"Z{i}" for i in range(1, 7)] + [f"E{i}" for i in range(1, 7)]
    sources = dict(PATTERNS)
    assert sources["Z2"] == "(?:还|你)?(?:记得|记不记得|记不得|忘了吗|忘了没)"
    assert sources["E5"] == r"\bdo\s+you\s+(?:still\s+)?remember\b"
    assert sources["Z4"] == (
        r"(?:之前|上次|上回|上回儿|前面|先前)[^。！？\n]{0,15}(?:说|做|讨论|搞|弄|聊|提|发|答|想|讲)"
    )


# The spec's example table (verified against the reference).
@pytest.mark.parametrize(
    ("message", "snippet", "pattern"),
    [
        ("我刚才说搞不定就算了…", "我刚才说", "Z3"),
        ("上次我们讨论过的方案是啥？", "我们讨论过", "Z1"),
        ("你还记得我喜欢吃啥吗？", "还记得", "Z2"),
        ("刚才说的是什么？", "刚才说的是什么", "Z6"),
        ("As we said previously, …", "we said previously", "E2"),  # E2, not E4
        ("Do you still remember me?", "Do you still remember", "E5"),
    ],
)
def test_spec_examples_hit(message, snippet, pattern):
    assert detect(message) == TriggerHit(snippet=snippet, pattern=pattern)


@pytest.mark.parametrize(
    "message",
    [
        "Please remember to buy milk",
        "I remember nothing",
        "他说过",  # too short (3 units)
        "",
        "   ",
        "hello there, how are you?",
        "今天天气不错",
    ],
)
def test_spec_examples_miss(message):
    assert detect(message) is None


def test_hit_fields():
    hit = detect("你说过的那个方案")
    assert hit is not None
    assert hit.hit is True
    assert hit.snippet == "你说过"
    assert hit.pattern == "Z1"


@pytest.mark.parametrize(
    ("message", "snippet", "pattern"),
    [
        ("记得带钥匙", "记得", "Z2"),  # the known false positive
        ("继续上次的话题", "继续上次", "Z5"),
        ("之前那个bug你是怎么搞的", "之前那个bug你是怎么搞", "Z4"),
        ("上回儿聊的东西", "上回儿聊", "Z4"),
        ("我们\u3000刚刚 讨论的", "我们\u3000刚刚 讨论", "Z3"),  # JS \s includes U+3000
        ("remember when we met", "remember when", "E1"),
        ("REMEMBER WHAT I said", "REMEMBER WHAT", "E1"),  # ASCII case folding still works
        ("You mentioned last time that", "You mentioned last time", "E2"),
        ("earlier you said so", "earlier you said", "E3"),
        ("Before I asked about X", "Before I asked", "E3"),
        ("as you mentioned before, yes", "you mentioned before", "E2"),  # E2 wins over E4
        ("do  you remember", "do  you remember", "E5"),
        ("like in our previous conversation", "in our previous conversation", "E6"),
        ("do you remember 你说过", "你说过", "Z1"),  # Chinese patterns are tried first
        ("上次我们讨论过的方案是啥", "我们讨论过", "Z1"),  # Z1 before Z4/Z6
    ],
)
def test_more_hits(message, snippet, pattern):
    assert detect(message) == TriggerHit(snippet=snippet, pattern=pattern)


# --- JS regex semantics (Part C i) ------------------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        "we \u017faid earlier",  # ſ (long s) would fold to s in Python's re.I
        "we tal\u212aed about it",  # Kelvin sign would fold to k
        "we d\u0131scussed before",  # dotless ı
        "we d\u0130scussed before",  # dotted İ
    ],
)
def test_case_fold_traps_do_not_hit(message):
    assert detect(message) is None
    # The trap is real: a naive Python translation (plain re.IGNORECASE) would report a hit.
    e2 = dict(PATTERNS)["E2"]
    assert re.search(e2, message, re.IGNORECASE)


def test_feff_is_js_whitespace():
    assert detect("do\ufeffyou remember") == TriggerHit(snippet="do\ufeffyou remember", pattern="E5")


def test_nel_is_not_js_whitespace():
    assert detect("do\u0085you remember") is None
    assert detect("do\x1cyou remember") is None


def test_trim_uses_the_js_whitespace_set():
    # U+FEFF is trimmed: 2 units remain, below the gate.
    assert detect("\ufeff记得\ufeff") is None
    # U+0085 is not trimmed: 4 units, and 记得 hits.
    assert detect("\u0085记得\u0085") == TriggerHit(snippet="记得", pattern="Z2")


def test_ascii_word_boundary_before_remember():
    # JS \b is ASCII: there is a boundary between 住 and r. Python's Unicode \b would see none.
    assert detect("记住remember when") == TriggerHit(snippet="remember when", pattern="E1")
    assert re.search(r"\bremember\s+when", "记住remember when") is None  # the trap, shown


def test_no_boundary_inside_an_ascii_word():
    assert detect("doyou remember") is None
    assert detect("misremember when") is None
    assert detect("_remember when") is None


def test_counted_repeat_counts_utf16_units():
    # 8 emoji are 16 UTF-16 units: more than {0,15} allows in JS.
    assert detect("之前" + EMOJI * 8 + "说") is None
    # 7 emoji are 14 units: a hit, and the snippet keeps the emoji whole.
    assert detect("之前" + EMOJI * 7 + "说") == TriggerHit(snippet="之前" + EMOJI * 7 + "说", pattern="Z4")
    # the same for Z6
    assert detect("刚才" + EMOJI * 8 + "是什么") is None
    assert detect("刚才" + EMOJI * 7 + "x是什么") == TriggerHit(
        snippet="刚才" + EMOJI * 7 + "x是什么", pattern="Z6"
    )


def test_length_gate_counts_utf16_units():
    assert detect("记得" + EMOJI) == TriggerHit(snippet="记得", pattern="Z2")  # 4 units, 3 code points
    assert detect("  他说过  ") is None  # 3 units after trim
    assert detect("你说过吗") == TriggerHit(snippet="你说过", pattern="Z1")


def test_snippet_is_taken_from_the_trimmed_message():
    assert detect("   还记得吗   ") == TriggerHit(snippet="还记得", pattern="Z2")
    assert detect("   记得吗   ") is None  # 3 units after trim


def test_e4_is_shadowed_by_e2():
    # Every E4 match contains an E2 match (same verbs, same tails), and E2 is tried first.
    for msg in ("as we said earlier", "As I mentioned last time", "as you discussed previously"):
        hit = detect(msg)
        assert hit is not None
        assert hit.pattern == "E2"


def test_newline_stops_the_z4_gap():
    assert detect("之前\n说") is None
    assert detect("之前。说的") is None


# --- injected text ----------------------------------------------------------------------------------


def test_injected_text_exact():
    expected = (
        '\n\n## \u26a0\ufe0f 用户在引用过去对话(命中"我刚才说")'
        "\n用户的当前消息引用了过往对话。请**立即调用 recall_sessions**"
        '(query 用消息里的关键名词,limit=5)查清楚再回答。**不要**说"我看不到'
        '之前的聊天记录"\u2014\u2014你完全有 recall_sessions 工具可用,直接用。'
    )
    assert injected_text("我刚才说") == expected


def test_injected_text_structure():
    text = injected_text("remember when")
    lines = text.split("\n")
    assert lines[:2] == ["", ""]
    assert lines[2] == '## ⚠️ 用户在引用过去对话(命中"remember when")'
    assert len(lines) == 4
    assert "recall_sessions" in lines[3]
    assert "limit=5" in lines[3]


def test_injected_text_uses_the_detected_snippet():
    hit = detect("Do you still remember me?")
    assert hit is not None
    assert '(命中"Do you still remember")' in injected_text(hit.snippet)
