"""The recall explanation in words: one translated template per code (context ``RecallText``).

:mod:`core.recall_explain` says why the recall section holds what it holds as codes with parameters
(``recall.found`` with ``found``, ``limit``, ``recalled``; ``substring.proven_miss`` with ``pieces``
...). Each code here has a template in the application's language, filled with the parameters; the
core's English sentence is never parsed, and is shown only for a code this version does not know.
Stored text among the parameters (the query, words) is inserted as it is: the preview escapes it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from core.errors import Notice
from philont_desktop import messages
from philont_desktop.qt import QCoreApplication

__all__ = ["keyword_text", "notice_text", "search_text", "token_group", "words_list"]

MAX_LISTED = 8  # words or pieces listed in one sentence; more are shown as "…"


def _t(text: str, n: int = -1) -> str:
    return QCoreApplication.translate("RecallText", text, None, n)


def _int(v: Any) -> int:
    return v if isinstance(v, int) and not isinstance(v, bool) else 0


def _num(v: Any) -> str:
    return f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else str(v)


def quoted(text: Any) -> str:
    return _t("“{0}”").format(text)


def words_list(items: Sequence[Any]) -> str:
    """``“Berlin” (15), “trip” (19)`` for word counts, ``“you”, “remember”`` for plain words."""
    out: list[str] = []
    for v in list(items)[:MAX_LISTED]:
        if isinstance(v, Mapping) and "text" in v:
            count = _num(v.get("count")) + ("+" if v.get("capped") else "")
            out.append(_t("{0} ({1})").format(quoted(v["text"]), count))
        else:
            out.append(quoted(v))
    if len(items) > MAX_LISTED:
        out.append("…")
    return _t(", ").join(out)


Template = Callable[[Mapping[str, Any]], str]

_REASONS: dict[str, Template] = {
    "recall.skipped.short": lambda p: _t(
        "The message has %n character(s); the agent searches only from 2.", _int(p.get("chars"))
    ),
    "recall.skipped.budget": lambda p: _t("The recall budget is 0: the agent does not search."),
    "recall.skipped.empty": lambda p: _t(
        "Nothing is left of the message once ' \" * ( ) are removed: the agent does not search."
    ),
    "recall.found": lambda p: _t(
        "The agent's search returned %n message(s) (it asks for {limit} at most); {recalled} recalled.",
        _int(p.get("found")),
    ).format(limit=_num(p.get("limit")), recalled=_num(p.get("recalled"))),
    "recall.found.all_recent": lambda p: _t(
        "The agent's search found %n message(s), all already among the recent messages.",
        _int(p.get("found")),
    ),
    "recall.found.only_system": lambda p: _t(
        "The agent's search found %n message(s); those that fit are system messages, which the agent drops.",
        _int(p.get("found")),
    ),
    "recall.none.fts_error": lambda p: _t(
        "The full-text query failed (SQLite: {error}), so the agent's search looked for the whole message "
        "as one piece of text, and no message contains it."
    ).format(error=p.get("error")),
    "recall.none.fts_miss": lambda p: _t(
        "No message contains every word of the message (full-text search), and none contains the whole "
        "message as one piece of text."
    ),
    "recall.none.too_short": lambda p: _t(
        "The message is shorter than 3 characters, too short for the full-text index, and no message "
        "contains it."
    ),
}

_NOTICES: dict[str, Template] = {
    "substring.proven_by_fts": lambda p: _t(
        "Proven, not scanned: the full-text query found no message with every word, so none can contain "
        "the whole text."
    ),
    "substring.proven_miss": lambda p: _t(
        "Proven, not scanned: no message contains all of {pieces}, so none can contain the whole text."
    ).format(pieces=words_list(p.get("pieces") or ())),
    "substring.proven_rows": lambda p: _t(
        "Answered from the index, not scanned: all of {pieces} are in %n message(s); the whole text is in "
        "{rows} of them.",
        _int(p.get("candidates")),
    ).format(pieces=words_list(p.get("pieces") or ()), rows=_num(p.get("rows"))),
    "substring.short_pieces": lambda p: _t(
        "Scanned every message: no part of the text has 3 characters, the least the full-text index can "
        "look up."
    ),
    "substring.index": lambda p: _t(
        "Scanned every message: the full-text index is not provably in step with the messages."
    ),
    "substring.candidates": lambda p: _t(
        "Scanned every message: more than {cap} messages contain all of {pieces}."
    ).format(cap=_num(p.get("cap")), pieces=words_list(p.get("pieces") or ())),
    "substring.proof_error": lambda p: _t("Scanned every message: the index lookup failed ({error}).").format(
        error=p.get("error")
    ),
    "substring.unprovable_input": lambda p: _t(
        "Scanned every message: the text holds a character the index lookup cannot take."
    ),
    "index.consistent": lambda p: _t(
        "The full-text index covers every message (rowids {first}–{last}), so a full-text miss proves a "
        "substring miss."
    ).format(first=_num(p.get("first")), last=_num(p.get("last"))),
    "index.empty": lambda p: _t("There are no messages."),
    "index.missing": lambda p: _t("The full-text table is missing."),
    "index.tokenizer": lambda p: _t(
        "The full-text table is not the case-insensitive trigram index of the message text ({detail})."
    ).format(detail=p.get("detail")),
    "index.triggers": lambda p: _t(
        "The triggers that keep the full-text index in step are not the agent's ({detail})."
    ).format(detail=p.get("detail")),
    "index.uncovered": lambda p: _t(
        "Messages {first}–{last} are not all inside the indexed range {indexed_first}–{indexed_last}: some "
        "were written without the full-text trigger, or their index rows were deleted."
    ).format(**{k: _num(p.get(k)) for k in ("first", "last", "indexed_first", "indexed_last")}),
    "index.gaps": lambda p: _t(
        "The index holds {indexed} documents for rowids {indexed_first}–{indexed_last}: deleted messages "
        "or index rows leave gaps, so it cannot be checked cheaply that every message is indexed."
    ).format(**{k: _num(p.get(k)) for k in ("indexed", "indexed_first", "indexed_last")}),
    "index.unreadable": lambda p: _t(
        "The full-text index's bookkeeping could not be read ({detail})."
    ).format(detail=p.get("detail")),
    "recall.words.apart": lambda p: _t(
        "Words of the message are in other messages ({words}), but the agent's search needs them all in "
        "one message, in the message's exact order."
    ).format(words=words_list(p.get("words") or ())),
    "recall.words.apart_fts": lambda p: _t(
        "Words of the message are in other messages ({words}), but no message contains all of them."
    ).format(words=words_list(p.get("words") or ())),
    "recall.words.nowhere": lambda p: _t("No word of the message (function words aside) is in any message."),
}

_KEYWORD: dict[str, Template] = {
    "recall.keyword.found": lambda p: _t(
        "A keyword query such as {query} would find %n message(s) in {sessions}.", _int(p.get("count"))
    ).format(query=quoted(p.get("query")), sessions=_t("%n session(s)", _int(p.get("sessions")))),
    "recall.keyword.none": lambda p: _t("A keyword query such as {query} would find nothing either.").format(
        query=quoted(p.get("query"))
    ),
    "recall.keyword.no_words": lambda p: _t("The message has no keyword to search for."),
    "recall.keyword.needs_scan": lambda p: _t(
        "A keyword query such as {query} would need a scan of every message (no part of 3 characters, or "
        "the index is not provably in step); it is not run here."
    ).format(query=quoted(p.get("query"))),
}

_TOKEN_GROUPS: dict[str, Callable[[], str]] = {
    "token.short": lambda: _t("under 3 characters, the index cannot look them up: {words}"),
    "token.common": lambda: _t("common words, not counted: {words}"),
    "token.index": lambda: _t("not counted, the index is not provably in step: {words}"),
    "token.limit": lambda: _t("not counted (only the first 8 words are): {words}"),
}


def _fill(table: Mapping[str, Template], notice: Any) -> str:
    code = getattr(notice, "code", None)
    params = getattr(notice, "params", None) or {}
    fn = table.get(code) if isinstance(code, str) else None
    if fn is None:
        return str(getattr(notice, "message", "") or code or "")
    try:
        return fn(params)
    except (KeyError, IndexError, ValueError, TypeError):
        return str(getattr(notice, "message", "") or code)


def notice_text(notice: Any) -> str:
    """Any notice of the explanation (reason, substring, index, words, keyword) in the current language."""
    for table in (_REASONS, _NOTICES, _KEYWORD):
        if getattr(notice, "code", None) in table:
            return _fill(table, notice)
    return _fill({}, notice)


def keyword_text(notice: Any) -> str:
    return _fill(_KEYWORD, notice)


def token_group(code: str | None, words: Sequence[str]) -> str:
    """The words of the query that were not counted for the same reason (``token.short`` ...)."""
    fn = _TOKEN_GROUPS.get(code or "")
    listed = words_list(list(words))
    return fn().format(words=listed) if fn is not None else f"{code}: {listed}"


def search_text(mode: str, substring: str | None) -> str:
    """How the agent's search ran, said plainly (a proven answer says that nothing was scanned)."""
    if mode == "fts":
        return _t("full-text search (trigram index)")
    if mode == "like" and substring == "proven":
        return _t("substring search, proven from the full-text index: no message was scanned")
    if mode == "like" and substring == "scanned":
        return _t("substring search: every message was scanned")
    if mode == "like":
        return _t("substring search")
    if mode == "empty":
        return _t("no search: nothing is left of the message")
    return _t("no search")


def codes() -> frozenset[str]:
    """Every code with a template (tests check that the core's codes are all here)."""
    return frozenset(_REASONS) | frozenset(_NOTICES) | frozenset(_KEYWORD) | frozenset(_TOKEN_GROUPS)


def code_text(code: str, params: Mapping[str, Any], english: str = "") -> str | None:
    """A code of the recall explanation by its parameters (``None`` for one without a template here)."""
    if code.startswith("token."):
        return token_group(code, list(params.get("words") or ()))
    if code in codes():
        return notice_text(Notice(code, english, params))
    return None


messages.register_templates(("recall.", "substring.", "index.", "token.", "words."), code_text, codes)
