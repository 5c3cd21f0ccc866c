"""The Recall page's words (context ``RecallText``): causes, strategies and search paths by name, the
summary with how certain each number is, why a saved result was recomputed.

The causes in full sentences are the core's codes (``replay.cause.*``) with their templates in
:mod:`philont_desktop.message_templates` (:func:`philont_desktop.messages.notice_text`); here they get a
short name for the chart and the list. A code this version does not know is shown as it is.
"""

from __future__ import annotations

from typing import Any

from core.replay import Replay
from philont_desktop.health.recall.data import wilson
from philont_desktop.qt import QT_TRANSLATE_NOOP, QCoreApplication, QLocale

CTX = "RecallText"

CAUSES = {
    "replay.cause.query_failed": QT_TRANSLATE_NOOP("RecallText", "query failed"),
    "replay.cause.no_overlap": QT_TRANSLATE_NOOP("RecallText", "no shared words"),
    "replay.cause.budget_cut": QT_TRANSLATE_NOOP("RecallText", "cut by the budget"),
    "replay.cause.candidate_limit": QT_TRANSLATE_NOOP("RecallText", "beyond the candidate limit"),
    "replay.cause.session_restricted": QT_TRANSLATE_NOOP("RecallText", "restricted to a session"),
    "replay.cause.not_searched": QT_TRANSLATE_NOOP("RecallText", "no recall ran"),
}
STRATEGIES = {
    "agent": QT_TRANSLATE_NOOP("RecallText", "the agent's query"),
    "terms-or": QT_TRANSLATE_NOOP("RecallText", "rare words ORed"),
    "terms-or-wide": QT_TRANSLATE_NOOP("RecallText", "rare words ORed, wider"),
}
PATHS = {
    "fts": QT_TRANSLATE_NOOP("RecallText", "full-text search"),
    "substring_scan": QT_TRANSLATE_NOOP("RecallText", "substring scan"),
    "substring_proven": QT_TRANSLATE_NOOP("RecallText", "substring, answered from the index"),
    "empty": QT_TRANSLATE_NOOP("RecallText", "nothing left to search for"),
    "none": QT_TRANSLATE_NOOP("RecallText", "no recall ran"),
}
REASONS = {
    "options": QT_TRANSLATE_NOOP("RecallText", "the saved result was made with other settings"),
    "replaced": QT_TRANSLATE_NOOP("RecallText", "the file was replaced since the result was saved"),
    "changed": QT_TRANSLATE_NOOP("RecallText", "the history changed since the result was saved"),
}


def tr(text: str) -> str:
    return QCoreApplication.translate(CTX, text)


def cause_name(code: str) -> str:
    return tr(CAUSES[code]) if code in CAUSES else code


def strategy_name(name: str) -> str:
    return tr(STRATEGIES[name]) if name in STRATEGIES else name


def path_name(path: str) -> str:
    return tr(PATHS[path]) if path in PATHS else path


def reason_text(reason: str | None) -> str:
    return tr(REASONS[reason]) if reason in REASONS else (reason or "")


def number(n: int | float) -> str:
    return QLocale().toString(n) if isinstance(n, int) else QLocale().toString(float(n), "f", 1)


def percent(rate: float | None) -> str:
    return "—" if rate is None else tr("{0}%").format(f"{100 * rate:.0f}")


def summary(r: Replay | None) -> str:
    """The summary in words, each number with how certain it is."""
    if r is None:
        return tr("No replay saved yet for this file.")
    s = r.summary()
    if s["turns"] == 0:
        if r.history == 0:
            return tr("The history is empty: there are no user turns to replay.")
        return tr("There are no user turns in this history: nothing to replay.")
    lines = [
        tr("{0} user turns replayed, each as the agent computed it then (exact).").format(number(s["turns"])),
        tr(
            "{0} of them needed an earlier message from outside the recent messages. This is an estimate "
            "(silver labels): the message shares a rare word with the turn, not a judgement of a person or "
            "a model."
        ).format(number(s["withNeed"])),
    ]
    if s["withNeed"]:
        lines.append(hit_line(s["hits"], s["withNeed"]))
    return "\n".join(lines)


def hit_line(hits: int, n: int) -> str:
    lo_hi = wilson(hits, n)
    assert lo_hi is not None
    return tr(
        "Recall brought a needed message back in {0} of them: hit rate {1} (95% interval {2} to {3} from "
        "the number of turns alone; the labels add their own error)."
    ).format(number(hits), percent(hits / n), percent(lo_hi[0]), percent(lo_hi[1]))


def strategy_note() -> str:
    return tr(
        "The rare-words strategies query with the very words that label a turn as needing a message: "
        "read their hit rates as an upper bound, and their tokens per hit as the price."
    )


def status(updated: Any, count: int) -> str:
    """What the last update did."""
    if updated is None:
        return tr("Showing the saved result.")
    if updated.how == "extended":
        if updated.replayed == 0:
            return tr("Up to date: no new user turns since the saved result.")
        return tr("Up to date: {0} new user turns replayed.").format(number(updated.replayed))
    if updated.how == "recomputed":
        return tr("Replayed every user turn again: {0}.").format(reason_text(updated.reason))
    return tr("Replayed {0} user turns; the result is saved beside your other app data.").format(
        number(count)
    )
