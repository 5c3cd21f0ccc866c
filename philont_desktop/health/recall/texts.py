"""The Recall page's words (context ``RecallText``): causes, strategies and search paths by name, the
summary with how certain each number is, why a saved result was recomputed.

The causes in full sentences are the core's codes (``replay.cause.*``) with their templates in
:mod:`philont_desktop.message_templates` (:func:`philont_desktop.messages.notice_text`); here they get a
short name for the chart and the list. A code this version does not know is shown as it is.
"""

from __future__ import annotations

from typing import Any

from philont_desktop.health.recall.data import RecallView, wilson
from philont_desktop.qt import QCoreApplication, QLocale


def tr(text: str) -> str:
    return QCoreApplication.translate("RecallText", text)


def cause_name(code: str) -> str:
    """A cause code in a few words (the chart, the list); an unknown code as it is."""
    names = {
        "replay.cause.query_failed": tr("query failed"),
        "replay.cause.no_overlap": tr("no shared words"),
        "replay.cause.budget_cut": tr("cut by the budget"),
        "replay.cause.candidate_limit": tr("beyond the candidate limit"),
        "replay.cause.session_restricted": tr("restricted to a session"),
        "replay.cause.not_searched": tr("no recall ran"),
        "replay.cause.not_yet_written": tr("written after the turn"),
    }
    return names.get(code, code)


def strategy_name(name: str) -> str:
    names = {
        "agent": tr("the agent's query"),
        "terms-or": tr("rare words ORed"),
        "terms-or-wide": tr("rare words ORed, wider"),
    }
    return names.get(name, name)


def path_name(path: str) -> str:
    """How recall was answered (:func:`core.replay.turn.agent_turn`'s ``path``)."""
    names = {
        "fts": tr("full-text search"),
        "substring_scan": tr("substring scan"),
        "substring_proven": tr("substring, answered from the index"),
        "empty": tr("nothing left to search for"),
        "none": tr("no recall ran"),
    }
    return names.get(path, path)


def reason_text(reason: str | None) -> str:
    """Why a saved result was replayed again (:class:`core.replay.store.Updated`'s ``reason``)."""
    names = {
        "options": tr("the saved result was made with other settings"),
        "replaced": tr("the file was replaced since the result was saved"),
        "changed": tr("the history changed since the result was saved"),
    }
    return names.get(reason or "", reason or "")


def number(n: int | float) -> str:
    return QLocale().toString(n) if isinstance(n, int) else QLocale().toString(float(n), "f", 1)


def percent(rate: float | None) -> str:
    return "—" if rate is None else tr("{0}%").format(f"{100 * rate:.0f}")


def summary(view: RecallView | None) -> str:
    """The summary in words, each number with how certain it is."""
    if view is None or view.summary is None:
        return tr("No replay saved yet for this file.")
    s = view.summary
    if s["turns"] == 0:
        if view.history == 0:
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
