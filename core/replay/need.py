"""Which earlier messages a user turn needed: an estimate ("silver labels"), computed without a model.

The rule (the README states it too):

* A **term** of a message is a word of 3 or more letters or digits (lower-cased; English stop words
  left out) or a 3-character window of a run of CJK characters (the trigram the full-text index looks
  up; windows holding a Chinese stop word left out).
* A term is **distinctive** at a turn when it is *rare* in the history before that turn: its document
  frequency (how many earlier messages contain it, every conversation counted; "contain" as the
  case-insensitive trigram index finds it, a substring: :class:`NeedIndex`) is at least 1 and at most
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
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from core.replay.tops import TopIds
from core.search.index_state import index_state
from core.search.sql import FTS, MSG, Where, keyset_cond

if TYPE_CHECKING:
    from core.db import MemoryDB

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
    """Document frequencies and the holders of rare terms at each turn, answered from the trigram index.

    A term's document frequency before a turn is the number of messages before it (by ``(timestamp,
    id)``, every conversation) that contain it, as the case-insensitive trigram index finds it (a
    substring: ``zephyrine`` is found in "Zephyrine's"). Only whether it is at most twice
    :attr:`NeedRule.max_df` matters, so each term is one index look-up of at most that many rows plus
    one, whatever the size of the history; a term once seen more often stays frequent at every later
    turn and is not looked up again (the turns come in order). When the index is not provably in step
    with the messages (:func:`core.search.index_state.index_state`) the same count is made on the
    messages themselves (slow: a scan per term).
    """

    def __init__(self, db: MemoryDB, rule: NeedRule | None = None, tops: TopIds | None = None):
        self.db = db
        self.rule = rule or NeedRule()
        self.frequent: set[str] = set()  # the terms in more than :attr:`cap` messages before a turn
        self.tops = TopIds(db) if tops is None else tops
        with db.lock:
            self.indexed = index_state(db).consistent

    @property
    def cap(self) -> int:
        """A term is counted up to this many messages (twice the threshold: a correction doubles it)."""
        return 2 * self.rule.max_df

    def need(self, text: str, before: tuple[int, int], relearned: str = "") -> TurnNeed:
        """The need of a user message ``text`` against the messages before ``before`` (its exclusive
        ``(timestamp, id)`` bound); ``relearned``: the values of the facts re-learned in this turn
        (:mod:`core.replay.relearn`), whose rare words count under the correction threshold."""
        phrase = correction(text)
        own = terms(text)
        extra = terms(relearned) - own if relearned else set()
        counts = self._counts(own | extra, before)
        rare = _rarest(own, counts, self.rule.max_df * (2 if phrase else 1))
        more = [t for t in _rarest(extra, counts, 2 * self.rule.max_df) if t not in rare]
        holders: dict[int, list[str]] = {}
        for t in rare + more:
            for mid, role in counts[t][1]:
                if role != "system":
                    holders.setdefault(mid, []).append(t)
        return TurnNeed(terms=rare, holders=holders, correction=phrase)

    def _counts(
        self, found: set[str], before: tuple[int, int]
    ) -> dict[str, tuple[int, list[tuple[int, str]]]]:
        """``term -> (document frequency, capped; the holders (id, role) when not above the cap)``."""
        cap = self.cap
        out: dict[str, tuple[int, list[tuple[int, str]]]] = {}
        top = self.tops.top(before) if self.indexed else None
        for t in sorted(found):
            if t in self.frequent:
                continue
            rows = self._holders(t, before, top, cap + 1)
            if len(rows) > cap:
                self.frequent.add(t)
            else:
                out[t] = (len(rows), rows)
        return out

    def _holders(
        self, term: str, before: tuple[int, int], top: int | None, limit: int
    ) -> list[tuple[int, str]]:
        """Up to ``limit`` messages before ``before`` containing ``term``: ``(id, role)``."""
        w = Where()
        keyset_cond(w, "m.", before, None)
        if self.indexed:
            if top is None:
                return []
            sql = (
                f"SELECT m.id, m.role FROM {FTS} CROSS JOIN {MSG} AS m ON m.id = {FTS}.rowid "
                f"WHERE {FTS} MATCH ? AND {FTS}.rowid <= ?{w.and_sql()} LIMIT ?"
            )
            args: tuple[object, ...] = ('"' + term.replace('"', '""') + '"', top, *w.args, limit)
        else:
            sql = f"SELECT m.id, m.role FROM {MSG} AS m WHERE instr(lower(m.content), ?) > 0{w.and_sql()} LIMIT ?"
            args = (term, *w.args, limit)
        with self.db.lock:
            return [(r[0], r[1] if isinstance(r[1], str) else "") for r in self.db.conn.execute(sql, args)]


def _rarest(found: set[str], counts: dict[str, tuple[int, list[tuple[int, str]]]], limit: int) -> list[str]:
    """The rare ones of ``found`` (document frequency 1 to ``limit``), rarest first, at most
    :data:`MAX_TERMS`."""
    rare = [t for t in found if t in counts and 1 <= counts[t][0] <= limit]
    rare.sort(key=lambda t: (counts[t][0], t))
    return rare[:MAX_TERMS]


def needed_ids(need: TurnNeed, recency: Iterable[int]) -> list[int]:
    """The needed messages of a turn: the holders outside the recency window, oldest id first."""
    seen = set(recency)
    return sorted(i for i in need.holders if i not in seen)
