"""Which earlier messages a user turn needed: an estimate ("silver labels"), computed without a model.

The rule (the README states it too):

* A **term** of a message is a word of 3 or more letters or digits (lower-cased; English stop words
  left out) or a 3-character window of a run of CJK characters (the trigram the full-text index looks
  up; windows holding a Chinese stop word left out).
* A term is **distinctive** at a turn when it is *rare* in the history before that turn: its document
  frequency (how many earlier messages contain it, every conversation counted) is at least 1 and at most
  :attr:`NeedRule.max_df` (default :data:`DEFAULT_MAX_DF`, adjustable: ``replay --max-df``).
* An earlier message is **needed** by a user turn when it is not a ``system`` message, is outside the
  turn's recency window and holds one of the turn's distinctive terms.
* Stronger signals: when the user corrects the agent (:data:`CORRECTIONS`, "I told you", "你忘了" …) the
  threshold is doubled for that turn (a reference back is then certain; its words may be less rare) and
  the turn is marked ``correction``. When the agent re-learns a fact in that turn (the same namespace,
  key and value as a version superseded or forgotten before: :mod:`core.replay.relearn`), the rare words
  of its value (under the doubled threshold) also make earlier messages needed, and the turn lists the
  fact (``relearned``).

This is an estimate: a shared rare word is evidence that the user referred back, not proof; a message
referred back to in other words is not found. The terms of the "terms-or" what-if strategy are the
same distinctive terms, so that strategy is scored by the very rule that picks its query: its hit rate
is an upper bound of what querying by rare words can do, not a fair comparison.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

__all__ = [
    "CORRECTIONS",
    "DEFAULT_MAX_DF",
    "NeedIndex",
    "NeedRule",
    "correction",
    "terms",
]

#: A term found in at most this many earlier messages is rare (``replay --max-df``).
DEFAULT_MAX_DF = 5
#: How many of a turn's distinctive terms are kept (the rarest first).
MAX_TERMS = 8

#: The user correcting the agent: the turn refers back for certain.
CORRECTIONS: tuple[str, ...] = (
    "i told you",
    "you forgot",
    "as i said",
    "i already said",
    "i already told you",
    "我说过",
    "我告诉过你",
    "你忘了",
    "不是说过了",
)

_WORD = re.compile(r"[A-Za-z0-9_]{3,}")
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{3,}")

_STOP_EN_WORDS = """the and for are but not you your yours all any can had has have her his him how its our out she
    who was were what when where which why will with this that these those them they their there then
    than from into onto about above after again against also been before being below between both
    did does doing down during each few further here just more most must myself nor now off once only
    other over own same should some such too under until very would could shall may might yes okay
    please thanks thank let lets get got make made want need like know think said say says tell told
    remember forgot forget again still really well just going today tomorrow yesterday time day one
    two three four five six seven eight nine ten because while many much else anything something
    nothing everything last next discuss discussed mention mentioned talk talked"""
#: English stop words (never a term).
STOP_EN = frozenset(_STOP_EN_WORDS.split())

#: Chinese function words and common phrases: a trigram holding one is not distinctive.
STOP_ZH: tuple[str, ...] = (
    "我们", "你们", "他们", "什么", "时候", "因为", "所以", "可以", "这个", "那个", "没有", "已经",
    "告诉", "记得", "说过", "之前", "上次", "一下", "还是", "就是", "不是", "知道", "现在", "今天",
    "明天", "昨天", "一个", "怎么", "为什么", "如果", "但是", "然后", "的", "了", "吗", "呢", "吧",
    "啊", "是", "在", "我", "你", "他", "她", "它", "和", "也", "都", "就", "还", "又", "很", "请",
)  # fmt: skip
_STOP_ZH_RX = re.compile("|".join(re.escape(w) for w in sorted(STOP_ZH, key=len, reverse=True)))


def terms(text: str) -> set[str]:
    """The terms of ``text`` (see the module docstring)."""
    out: set[str] = set()
    for w in _WORD.findall(text):
        w = w.lower()
        if w not in STOP_EN and not w.isdigit():
            out.add(w)
    for run in _CJK_RUN.findall(text):
        for i in range(len(run) - 2):
            tri = run[i : i + 3]
            if _STOP_ZH_RX.search(tri) is None:
                out.add(tri)
    return out


def correction(text: str) -> str | None:
    """The correction phrase in ``text`` (lower-cased for English), or None."""
    low = text.lower()
    for phrase in CORRECTIONS:
        if phrase in low:
            return phrase
    return None


@dataclass(frozen=True)
class NeedRule:
    """The adjustable part of the rule: ``max_df`` (the rarity threshold)."""

    max_df: int = DEFAULT_MAX_DF


@dataclass
class TurnNeed:
    """A turn's distinctive terms (rarest first), the earlier messages holding one (by id, before the
    recency window is taken out) and the correction phrase, if any."""

    terms: list[str]
    holders: dict[int, list[str]] = field(default_factory=dict)
    correction: str | None = None


class NeedIndex:
    """Document frequencies and the holders of rare terms, grown one message at a time in timeline order.

    Holders are kept only while a term is rare under the doubled threshold (the correction case); a more
    frequent term keeps only its count, so memory stays bounded by the vocabulary.
    """

    def __init__(self, rule: NeedRule | None = None):
        self.rule = rule or NeedRule()
        self.df: Counter[str] = Counter()
        self.holders: dict[str, list[int]] = {}

    def add(self, message_id: int, text: str, role: str) -> None:
        """Count the message's terms (a ``system`` message is counted but never needed)."""
        cap = 2 * self.rule.max_df
        for t in terms(text):
            n = self.df[t] + 1
            self.df[t] = n
            if n > cap:
                self.holders.pop(t, None)
            elif role != "system":
                self.holders.setdefault(t, []).append(message_id)

    def need(self, text: str, relearned: str = "") -> TurnNeed:
        """The need of a user message ``text`` against the history counted so far; ``relearned``: the
        values of the facts re-learned in this turn (:mod:`core.replay.relearn`), whose rare words count
        under the correction threshold."""
        phrase = correction(text)
        rare = self._rare(terms(text), self.rule.max_df * (2 if phrase else 1))
        extra = [t for t in self._rare(terms(relearned), 2 * self.rule.max_df) if t not in rare]
        holders: dict[int, list[str]] = {}
        for t in rare + extra:
            for mid in self.holders.get(t, ()):
                holders.setdefault(mid, []).append(t)
        return TurnNeed(terms=rare, holders=holders, correction=phrase)

    def _rare(self, found: set[str], limit: int) -> list[str]:
        """The rare ones of ``found`` (document frequency 1 to ``limit``), rarest first, at most
        :data:`MAX_TERMS`."""
        rare = sorted((t for t in found if 1 <= self.df.get(t, 0) <= limit), key=lambda t: (self.df[t], t))
        return rare[:MAX_TERMS]


def needed_ids(need: TurnNeed, recency: Iterable[int]) -> list[int]:
    """The needed messages of a turn: the holders outside the recency window, oldest id first."""
    seen = set(recency)
    return sorted(i for i in need.holders if i not in seen)
