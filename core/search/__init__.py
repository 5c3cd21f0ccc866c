"""The search of the raw timeline as its own component (spec Part A §4.3).

:class:`MessageSearch` runs the reference's search over a :class:`core.timeline.RawStore`, which only
reads and writes rows (its search methods delegate here, so callers keep calling ``RawStore``). A new
search feature plugs in without overriding a step: a substring strategy (:class:`SubstringStrategy`,
as :mod:`core.substring`'s proof from the trigram index), or a filter (:class:`Filters`, built into
conditions by :meth:`MessageSearch.where`; the conversation filter lives in
:mod:`core.search.conversation_filter`). The modules:

* :mod:`core.search.sql`: table names, the conditions of the filters, the sanitiser;
* :mod:`core.search.fts`: the full-text step and its first page without sorting every hit;
* :mod:`core.search.conversation_filter`: the conversation filter;
* :mod:`core.search.messages`: :class:`MessageSearch`, its steps and extension points;
* :mod:`core.search.results`: pages, hits, highlight spans, the notice of a failed search;
* :mod:`core.search.rows`: :class:`~core.search.rows.RowReader`, what the search reads rows through;
* :mod:`core.search.index_state`: whether the trigram index provably covers every message (the
  condition of :mod:`core.substring`'s proof).
"""

from core.search.messages import Filters, MessageSearch, PlainScan, SubstringStrategy
from core.search.results import (
    MAX_SPANS,
    SearchHit,
    SearchMode,
    SearchPage,
    fts_terms,
    search_failure,
    span_finder,
)
from core.search.sql import (
    Keyset,
    Where,
    conversation_condition,
    resolve_session_filter,
    sanitize_query,
)

__all__ = [
    "MAX_SPANS",
    "ConversationFilter",
    "Filters",
    "Keyset",
    "MessageSearch",
    "PlainScan",
    "SearchHit",
    "SearchMode",
    "SearchPage",
    "SubstringStrategy",
    "Where",
    "conversation_condition",
    "fts_terms",
    "resolve_session_filter",
    "sanitize_query",
    "search_failure",
    "span_finder",
]
