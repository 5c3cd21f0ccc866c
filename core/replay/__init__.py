"""Recall replay: how well the agent's own recall serves this history, measured on the history itself.

For every user message of a range, :func:`replay` computes the agent's turn as of that message (only the
messages before it; the recency window and recall as the agent computed them, through
:func:`core.context.build_context`: :mod:`core.recall_trigger`, :class:`core.recall.TimelineRetriever`,
:mod:`core.search` and :mod:`core.substring`; scheduled sessions restricted to themselves as the agent's
server restricts them), then:

* which earlier messages the turn **needed**: an estimate from shared rare words ("silver labels", the
  rule in :mod:`core.replay.need`), never a judgement of a model or a person;
* **hit** when recall included a needed message, else a **miss** with one cause code
  (:mod:`core.replay.causes`: ``replay.cause.query_failed``, ``.no_overlap``, ``.budget_cut``,
  ``.candidate_limit``, ``.session_restricted``, ``.not_searched``, ``.not_yet_written``);
* the **what-if strategies** on the same turns (:mod:`core.replay.strategies`: ``agent``, ``terms-or``,
  ``terms-or-wide``).

The replay only reads: it never writes to the database (open it read-only).

The modules:

* :mod:`core.replay.need`: terms, document frequency, the need rule;
* :mod:`core.replay.relearn`: facts re-learned in a turn (a stronger signal of need);
* :mod:`core.replay.turn`: one turn as the agent had it, and the cause of a miss;
* :mod:`core.replay.search`: the agent's search run turn after turn, what one turn found kept for the next;
* :mod:`core.replay.causes`: the cause codes, their English text and examples;
* :mod:`core.replay.strategies`: the what-if strategies;
* :mod:`core.replay.run`: the loop over the turns, the summary and the JSON.
* :mod:`core.replay.store`: the saved results, and :mod:`core.replay.turnfile`: their turns written as
  they are replayed.
"""

from core.replay.causes import CAUSE_TEXT, cause_notice
from core.replay.need import CORRECTIONS, DEFAULT_MAX_DF, NeedRule, terms
from core.replay.run import Replay, ReplayOptions, TurnReport, WhatIf, replay
from core.replay.strategies import STRATEGIES, Strategy, fts_or_query

__all__ = [
    "CAUSE_TEXT",
    "CORRECTIONS",
    "DEFAULT_MAX_DF",
    "STRATEGIES",
    "NeedRule",
    "Replay",
    "ReplayOptions",
    "Strategy",
    "TurnReport",
    "WhatIf",
    "cause_notice",
    "fts_or_query",
    "replay",
    "terms",
]
