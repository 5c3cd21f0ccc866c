"""Recall, explained (issue 16): why the recall section of a turn context holds what it holds.

The agent's recall searches the whole message (spec Part A §4.2-4.3): the trimmed message goes to
``RawStore.searchMessages``, which runs it as a full-text query and, when that finds nothing or fails
(a ``?`` or ``,`` is an FTS5 syntax error), looks for the *whole text* as one substring. A question
such as "Do you remember what we discussed about the Berlin trip last time?" therefore recalls nothing
although dozens of messages mention Berlin. :class:`RecallExplanation` says so in data:

* ``query``: the exact text the agent's search received, and ``safe``, what its sanitiser left;
* ``mode``: ``fts`` (full-text rows), ``like`` (the substring fallback; ``substring`` says whether
  its answer was ``proven`` from the index or ``scanned``), ``empty`` or ``none`` (no search);
* ``fts``: whether the full-text query ran, its rows, and SQLite's error when it failed;
* ``tokens``: each word of the query and how many messages contain it alone (capped);
* ``reason`` and ``notices``: every sentence a person reads, as a :class:`core.errors.Notice`
  (code, params, English message); a viewer translates by code;
* ``keyword``: clearly *not what the agent does*: the query a keyword search (``recall_sessions``)
  would likely be called with, derived by :func:`keyword_query` (rule :data:`KEYWORD_RULE`), and what
  that search finds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from core.errors import Notice
from core.jsutil import js_split_ws, js_trim, utf16_len
from core.search import Keyset
from core.substring import (
    FtsOutcome,
    IndexState,
    ProvingRawStore,
    ScanRefusedError,
    SubstringOutcome,
    proof_query,
)

__all__ = [
    "KEYWORD_LIMIT",
    "KEYWORD_RULE",
    "TOKEN_CAP",
    "KeywordHit",
    "KeywordRecall",
    "RecallExplanation",
    "TokenCount",
    "add_details",
    "explain_recall",
    "keyword_query",
]

#: Each word's messages are counted up to this many ("1,000+").
TOKEN_CAP = 1000
#: At most this many distinct words of the query are counted (function words are not).
MAX_COUNTED = 8
#: ``recall_sessions``' default limit is 5 sessions; it searches ``limit x 6`` messages.
KEYWORD_LIMIT = 30
#: The name of the rule :func:`keyword_query` follows (a viewer may show it; it changes with the rule).
KEYWORD_RULE = "keywords-v1"
MAX_KEYWORDS = 6

# -- the keyword rule ----------------------------------------------------------------------------------------

# English function words and the words people use to refer back to a conversation.
_EN_STOP_WORDS = """
    a about above after again against ago all also am an and any are as at be been before being below
    between both but by can could did do does doing done down during each earlier else ever every few
    for from further get got had has have having he her here hers him his how i if in into is it its
    itself just last let like may me might more most much must my myself no nor not now of off on once
    only or other our ours out over own please previous previously same say she should so some still
    such than that the their theirs them then there these they this those through time times to too
    under until up us very was we were what when where which while who whom why will with would yes
    yet you your yours
    remember remembered remembering recall recalled recollect forget forgot forgotten discuss discussed
    discussing discussion talk talked talking mention mentioned say said tell told chat chatted agree
    agreed ask asked asking conversation conversations session sessions thing things something stuff
    know think thought wonder wondering
"""
_EN_STOP = frozenset(_EN_STOP_WORDS.split())
# Chinese function words and refer-back words, cut out of a run of Han characters (longest first).
_ZH_STOP_WORDS = """
        记不记得 记不得 忘了吗 忘了没 还记得 记得 记住 忘了 讨论过 讨论 商量过 商量 聊过 聊天 聊 说过 说 讲过 讲
        提到过 提到 提过 提 告诉过 告诉 答应过 答应 约定过 约定 问过 问 上次 上回 之前 以前 刚才 刚刚 前面 先前
        曾经 那时 那次 时候 早些时候 我们 你们 咱们 他们 她们 大家 我 你 他 她 它 的 了 吗 呢 吧 啊 呀 嘛 和 跟
        与 还 又 也 都 就 是 在 有 这 那 这个 那个 这些 那些 什么 怎么 怎样 哪个 哪些 关于 一下 一起 请 帮 想
        知道 一些 一点 过 个 么
"""
_ZH_STOP = sorted(set(_ZH_STOP_WORDS.split()), key=len, reverse=True)
_ZH_STOP_RE = re.compile("|".join(re.escape(w) for w in _ZH_STOP))
_WORD = re.compile(r"[^\W_]+")
_HAN = re.compile(r"([\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]+)")


def keyword_query(message: str, trigger_snippet: str | None = None) -> str:
    """The query a keyword search (``recall_sessions``) would likely be called with for ``message``.

    The server tells the agent to search for "the key nouns in the message" (spec Part A §5). Rule
    ``keywords-v1``, in order:

    1. the message, trimmed, with the recall trigger's matched text removed;
    2. words: runs of letters and digits, with Han characters split from the others;
    3. English: words of 3 or more characters that are not function words or words of referring back
       (``remember``, ``discussed``, ``last``, ``time`` ...), compared in lower case;
    4. Chinese: each Han run is cut at function words and referring-back words (``我们``, ``上次``,
       ``讨论``, ``的``, ``吗`` ...); the pieces of 2 or more characters are kept;
    5. the first 6 distinct words (case-insensitive), in the message's order, joined by spaces.

    An empty string when no word is left.
    """
    text = js_trim(message or "")
    if trigger_snippet:
        text = text.replace(trigger_snippet, " ", 1)
    out: list[str] = []
    seen: set[str] = set()

    def keep(w: str) -> None:
        k = w.lower()
        if k not in seen and len(out) < MAX_KEYWORDS:
            seen.add(k)
            out.append(w)

    for run in _WORD.findall(text):
        for part in _HAN.split(run):
            if not part:
                continue
            if _HAN.fullmatch(part):
                for piece in _ZH_STOP_RE.split(part):
                    if len(piece) >= 2:
                        keep(piece)
            elif len(part) >= 3 and part.lower() not in _EN_STOP:
                keep(part)
    return " ".join(out)


# -- the explanation -----------------------------------------------------------------------------------------


@dataclass
class TokenCount:
    """One word of the query and how many messages contain it alone (``capped``: at least ``count``).
    ``count`` is None when it was not counted; ``note`` is then the code of why (``token.short``: under
    3 characters, the index cannot look it up; ``token.index``: the index is not provably in step;
    ``token.common``: a function word or a word of referring back, in most messages; ``token.limit``:
    beyond the first words counted)."""

    text: str
    chars: int
    count: int | None = None
    capped: bool = False
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "chars": self.chars,
            "count": self.count,
            "capped": self.capped,
            "note": self.note,
        }


@dataclass
class KeywordHit:
    id: int
    session_id: str
    role: str
    timestamp: Any
    excerpt: str

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "sessionId": self.session_id,
            "role": self.role,
            "timestamp": self.timestamp,
            "excerpt": self.excerpt,
        }


@dataclass
class KeywordRecall:
    """What a keyword query would recall: **not what the agent does** on its own."""

    query: str
    rule: str = KEYWORD_RULE
    mode: str = "empty"
    substring: str | None = None
    count: int = 0
    sessions: int = 0
    hits: list[KeywordHit] = field(default_factory=list)
    notice: Notice | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "rule": self.rule,
            "agent": False,
            "mode": self.mode,
            "substring": self.substring,
            "count": self.count,
            "sessions": self.sessions,
            "hits": [h.to_json() for h in self.hits],
            "notice": None if self.notice is None else self.notice.to_json(),
        }


SearchModeName = Literal["none", "empty", "fts", "like"]


@dataclass
class RecallExplanation:
    """Why the recall section holds what it holds (module docstring). :meth:`to_json` is the
    ``recall`` member of ``context --json``."""

    query: str
    safe: str = ""
    searched: bool = False
    mode: SearchModeName = "none"
    substring: str | None = None
    fts: dict[str, Any] = field(default_factory=lambda: {"ran": False, "rows": 0, "error": None})
    index: IndexState | None = None
    found: int = 0
    recalled: int = 0
    tokens: list[TokenCount] = field(default_factory=list)
    reason: Notice = field(default_factory=lambda: _n("recall.skipped.short", chars=0))
    notices: list[Notice] = field(default_factory=list)
    keyword: KeywordRecall | None = None
    detailed: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "safe": self.safe,
            "searched": self.searched,
            "mode": self.mode,
            "substring": self.substring,
            "fts": dict(self.fts),
            "index": None if self.index is None else self.index.to_json(),
            "found": self.found,
            "recalled": self.recalled,
            "tokens": [t.to_json() for t in self.tokens],
            "reason": self.reason.to_json(),
            "notices": [n.to_json() for n in self.notices],
            "keyword": None if self.keyword is None else self.keyword.to_json(),
        }

    def summary_lines(self) -> list[str]:
        """The explanation as plain text lines (English), for the command line."""
        head = "nothing recalled" if self.recalled == 0 else f"{self.recalled} recalled"
        lines = [f"=== recall: {head} ===", f"query: {_shown(self.query)!r}"]
        lines.append("search: " + _MODE_TEXT.get((self.mode, self.substring), self.mode))
        lines.append("why: " + self.reason.message)
        lines += ["  " + n.message for n in self.notices]
        if self.tokens:
            words = []
            for t in self.tokens:
                if t.count is None:
                    words.append(f"{_shown(t.text)!r} ({_TOKEN_NOTE.get(t.note or '', 'not counted')})")
                else:
                    words.append(f"{_shown(t.text)!r} {t.count:,}{'+' if t.capped else ''}")
            lines.append("each word alone: " + ", ".join(words))
        k = self.keyword
        if k is not None:
            lines.append(f"not what the agent does: {k.notice.message if k.notice else ''}")
            for h in k.hits[:5]:
                lines.append(f"  #{h.id} {h.session_id} {h.role}: {_shown(h.excerpt)}")
        return lines


_MODE_TEXT = {
    ("fts", None): "full-text (trigram)",
    ("like", "proven"): "substring, proven from the full-text index (no scan)",
    ("like", "scanned"): "substring, scanned every message",
    ("empty", None): "none (nothing left after the sanitiser)",
    ("none", None): "none",
}
_TOKEN_NOTE = {
    "token.short": "under 3 characters, not counted",
    "token.common": "common word, not counted",
    "token.index": "not counted: index not in step",
    "token.limit": "not counted",
}

_TEXT = {
    "recall.skipped.short": "The message has {chars} characters; the agent searches only from 2.",
    "recall.skipped.budget": "The recall budget is 0: the agent does not search.",
    "recall.skipped.empty": "Nothing is left of the message once ' \" * ( ) are removed: no search.",
    "recall.found": "The search returned {found} messages (it asks for {limit} at most); {recalled} "
    "were recalled.",
    "recall.found.all_recent": "The search found {found} messages, all already among the recent messages.",
    "recall.found.only_system": "The search found {found} messages; those that fit are system messages, "
    "which the agent drops.",
    "recall.none.fts_error": "The full-text query failed ({error}), so the search looked for the whole "
    "message as one piece of text; no message contains it.",
    "recall.none.fts_miss": "No message contains every word (full-text search), and none contains the "
    "whole message as one piece of text.",
    "recall.none.too_short": "The message is shorter than 3 characters, too short for the full-text "
    "index; no message contains it.",
    "recall.words.apart": "Words of the message are in other messages ({words}), but the search needs "
    "them all in one message, in the message's exact order.",
    "recall.words.apart_fts": "Words of the message are in other messages ({words}), but no message "
    "contains all of them.",
    "recall.words.nowhere": "No word of the message (function words aside) is in any message.",
    "recall.keyword.found": "A keyword query such as {query!r} (rule {rule}) would find {count} "
    "message{count_s} in {sessions} session{sessions_s}.",
    "recall.keyword.none": "A keyword query such as {query!r} (rule {rule}) would find nothing either.",
    "recall.keyword.no_words": "The message has no keyword to search for (rule {rule}).",
    "recall.keyword.needs_scan": "A keyword query such as {query!r} (rule {rule}) would need a scan of "
    "every message (no part of 3 characters, or the index is not provably in step); it is not run here.",
}


def _word(v: Any) -> str:
    """A list item of a notice's parameters in English: a word with its count, or the value."""
    if isinstance(v, dict) and "text" in v:
        return f"{v['text']!r} ({v['count']:,}{'+' if v.get('capped') else ''})"
    return str(v)


def _n(code: str, **params: Any) -> Notice:
    shown = {k: ", ".join(map(_word, v)) if isinstance(v, list | tuple) else v for k, v in params.items()}
    shown.update({f"{k}_s": "" if v == 1 else "s" for k, v in params.items() if type(v) is int})
    try:
        message = _TEXT[code].format(**shown)
    except (KeyError, IndexError):
        message = _TEXT.get(code, code)
    return Notice(code, message, params)


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _shown(text: str, n: int = 200) -> str:
    """One line: control characters made visible, at most ``n`` characters."""
    s = _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text[: n * 2])
    return s if len(s) <= n else s[: n - 1] + "…"


def _excerpt(text: str, n: int = 200) -> str:
    one = " ".join(text[: n * 2].split())
    return one if len(one) <= n else one[: n - 1] + "…"


def _is_common(word: str) -> bool:
    """A function word or a word of referring back (the keyword rule's lists), punctuation aside."""
    letters = "".join(_WORD.findall(word))
    if not letters:
        return False
    if _HAN.fullmatch(letters):
        return not _ZH_STOP_RE.sub("", letters)
    return letters.lower() in _EN_STOP


def _count_words(
    store: ProvingRawStore,
    safe: str,
    session_ids: Sequence[str] | None,
    before: Keyset | None,
) -> list[TokenCount]:
    """Each word of ``safe`` with the messages containing it alone: at most :data:`MAX_COUNTED`
    words are counted, function words and words of referring back are not (they are in most
    messages and say nothing about the gap), nor words without 3 characters between wildcards."""
    out: list[TokenCount] = []
    counted = 0
    for word in dict.fromkeys(js_split_ws(safe)):
        t = TokenCount(text=word, chars=len(word))
        if proof_query(word) is None:
            t.note = "token.short"  # no part of 3 characters between LIKE's wildcards
        elif _is_common(word):
            t.note = "token.common"
        elif counted >= MAX_COUNTED:
            t.note = "token.limit"
        else:
            counted += 1
            got = store.count_containing(word, cap=TOKEN_CAP, session_ids=session_ids, before=before)
            if got is None:
                t.note = "token.index"
            else:
                t.count, t.capped = got
        out.append(t)
    return out


def _keyword(
    store: ProvingRawStore, message: str, snippet: str | None, before: Keyset | None
) -> KeywordRecall:
    q = keyword_query(message, snippet)
    k = KeywordRecall(query=q)
    if not q:
        k.notice = _n("recall.keyword.no_words", rule=KEYWORD_RULE)
        return k
    store.scan_allowed = False  # bounded: a keyword the index cannot answer is not scanned for
    try:
        rows, mode = store.search_with_mode(q, limit=KEYWORD_LIMIT, before=before)
    except ScanRefusedError:
        k.mode, k.substring = "like", None
        k.notice = _n("recall.keyword.needs_scan", query=q, rule=KEYWORD_RULE)
        return k
    finally:
        store.scan_allowed = True
    k.mode = mode
    k.substring = None if mode != "like" or store.last_substring is None else store.last_substring.how
    k.count = len(rows)
    k.sessions = len({m.session_id for m in rows})
    k.hits = [KeywordHit(m.id, m.session_id, m.role, m.timestamp, _excerpt(m.content)) for m in rows]
    k.notice = (
        _n("recall.keyword.found", query=q, rule=KEYWORD_RULE, count=k.count, sessions=k.sessions)
        if rows
        else _n("recall.keyword.none", query=q, rule=KEYWORD_RULE)
    )
    return k


def explain_recall(
    store: ProvingRawStore,
    *,
    message: str,
    searched: bool,
    budget_zero: bool,
    mode: SearchModeName,
    safe: str,
    fts: FtsOutcome | None,
    substring: SubstringOutcome | None,
    found: int,
    limit: int,
    recalled: int,
    recalled_shown: int,
    all_recent: bool,
    session_ids: Sequence[str] | None = None,
    before: Keyset | None = None,
    trigger_snippet: str | None = None,
    detailed: bool = True,
) -> RecallExplanation:
    """The explanation of one recall search, from what the search recorded (``store.last_fts``,
    ``store.last_substring``) and what the retriever chose. ``detailed`` adds the word counts and the
    keyword query (bounded: a few index look-ups and one search)."""
    query = js_trim(message or "")
    e = RecallExplanation(query=query, safe=safe, searched=searched, mode=mode)
    if fts is not None:
        e.fts = {"ran": True, "rows": fts.rows, "error": fts.error}
    if substring is not None:
        e.substring = substring.how
        e.index = substring.index
    e.found, e.recalled = found, recalled
    e.reason = _reason(e, query, budget_zero, fts, recalled_shown, all_recent, limit)
    if substring is not None:
        e.notices.append(substring.notice())
        if substring.index is not None and not substring.index.consistent:
            e.notices.append(substring.index.notice())
    if detailed:
        add_details(
            store,
            e,
            message=message,
            trigger_snippet=trigger_snippet,
            session_ids=session_ids,
            before=before,
        )
    return e


def _reason(
    e: RecallExplanation,
    query: str,
    budget_zero: bool,
    fts: FtsOutcome | None,
    recalled_shown: int,
    all_recent: bool,
    limit: int,
) -> Notice:
    """Why the recall section holds what it holds, in one notice."""
    found, recalled = e.found, e.recalled
    if not e.searched:
        if budget_zero and utf16_len(query) >= 2:
            return _n("recall.skipped.budget")
        return _n("recall.skipped.short", chars=utf16_len(query))
    if e.mode == "empty":
        return _n("recall.skipped.empty")
    if found:
        if recalled == 0 and all_recent:
            return _n("recall.found.all_recent", found=found)
        if recalled and recalled_shown == 0:
            return _n("recall.found.only_system", found=found)
        return _n("recall.found", found=found, limit=limit, recalled=recalled)
    if fts is None:
        return _n("recall.none.too_short")
    if fts.error is not None:
        return _n("recall.none.fts_error", error=fts.error)
    return _n("recall.none.fts_miss")


def add_details(
    store: ProvingRawStore,
    e: RecallExplanation,
    *,
    message: str,
    trigger_snippet: str | None = None,
    session_ids: Sequence[str] | None = None,
    before: Keyset | None = None,
) -> RecallExplanation:
    """Add the word counts and the keyword query to an explanation made without them (bounded: a
    few index look-ups and one search that never scans). ``session_ids`` and ``before`` bound the
    counts as the agent's search was bounded; the keyword search is bounded by ``before`` only
    (``recall_sessions`` searches every session)."""
    if e.detailed:
        return e
    e.detailed = True
    if e.searched and e.safe:
        e.tokens = _count_words(store, e.safe, session_ids, before)
        counted = [t for t in e.tokens if t.count is not None]
        if not e.found and counted:
            apart = [{"text": t.text, "count": t.count, "capped": t.capped} for t in counted if t.count]
            if apart:
                fts_ok = e.fts.get("ran") and e.fts.get("error") is None
                e.notices.append(
                    _n("recall.words.apart_fts" if fts_ok else "recall.words.apart", words=apart)
                )
            else:
                e.notices.append(_n("recall.words.nowhere"))
    if e.query:
        e.keyword = _keyword(store, message, trigger_snippet, before)
    return e
