"""Why a turn's recall missed every needed message: one cause code per missed turn, with parameters
(the shape of :mod:`core.errors` codes; a viewer translates by code).

The codes, in the order they are tried, each with an example:

``replay.cause.not_yet_written`` {id}
    The needed message was written after the turn: its time puts it before the user's message, but
    its id is greater (ids grow with every write), so it was stored later — a reply or a tool result
    written in the same turn with the turn's clock, an import or a backfill with older times. The
    replay sees the timeline by time, as the Context preview does; the agent, when it recalled, did not
    have that row yet. Example: "Did Zephyrine book the Quillfeather lodge?" is message #41 at 10:50;
    "Zephyrine booked the Quillfeather lodge in May." is message #42, imported later with the time
    10:00.
``replay.cause.session_restricted`` {id, session}
    The turn is in a scheduled session (``system:scheduled:<task>``), whose recall the agent restricts to
    that session, and the needed message is in another one. Example: the task "daily-report" asks about
    "Zephyrine", named only in the web chat.
``replay.cause.not_searched`` {}
    No recall ran: the message is shorter than 2 characters or the recall budget is 0.
``replay.cause.query_failed`` {path}
    Nothing was found: no full-text query could be made (FTS5 refused the message: punctuation such as
    ``?`` or ``.``; or it is shorter than 3 characters) and the substring scan of the whole message found
    no message. Example: "Did Zephyrine confirm the Quillfeather booking?" (the question mark fails
    FTS5; no message contains the whole sentence). ``path`` is how the empty answer was reached:
    ``substring_scan``, ``substring_proven`` (proven from the trigram index) or ``empty``.
``replay.cause.candidate_limit`` {id, limit}
    The needed message matches the query but more recent hits filled the candidate limit. Example: "what
    about zephyrine" matches 14 messages and the needed one is the oldest.
``replay.cause.budget_cut`` {id, tokens}
    The needed message was a candidate and the recall budget ran out before it: ``tokens`` more tokens
    of budget would have taken it in.
``replay.cause.no_overlap`` {id, missing}
    The full-text query ran and the needed message is not among its answers because it lacks part of
    the query: ``missing`` is a word of the query it does not contain (FTS5 ANDs every word), or
    ``null`` when only the substring scan (of the whole message) answered. Example: "Zephyrine called
    again today" against "Zephyrine's flight lands at 9" (no "called"; the substring scan that follows
    an empty full-text answer finds nothing either).
"""

from __future__ import annotations

from typing import Any

from core.errors import Notice
from core.search.index_state import coded_notice

__all__ = ["CAUSE_TEXT", "cause_notice"]

CAUSE_TEXT: dict[str, str] = {
    "replay.cause.not_yet_written": "Message #{id} was written after this turn (its time is earlier, its "
    "id later): recall could not have seen it.",
    "replay.cause.session_restricted": "Recall was restricted to this scheduled session; message #{id} is "
    "in {session}.",
    "replay.cause.not_searched": "No recall ran: the message is too short or the recall budget is 0.",
    "replay.cause.query_failed": "Recall found nothing ({path}): no full-text query could be made and no "
    "message contains the whole text.",
    "replay.cause.candidate_limit": "Message #{id} matched, but {limit} newer matches filled the candidate "
    "limit.",
    "replay.cause.budget_cut": "Message #{id} was found, then cut by the recall budget ({tokens} tokens "
    "short).",
    "replay.cause.no_overlap": "Message #{id} does not contain every word of the query (missing: {missing}).",
}


def cause_notice(code: str, params: dict[str, Any]) -> Notice:
    """The cause as a :class:`Notice` with its English text."""
    return coded_notice(CAUSE_TEXT, code, params)
