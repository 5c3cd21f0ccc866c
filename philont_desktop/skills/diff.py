"""The Skills tab's recipe diff: the shared side-by-side word diff (:mod:`philont_desktop.widgets.diff`)."""

from philont_desktop.widgets.diff import (
    DiffField,
    Segment,
    SideBySideDiff,
    changed_spans,
    diff_table_html,
    segments_html,
    tokenize,
    word_diff,
)

__all__ = [
    "DiffField",
    "Segment",
    "SideBySideDiff",
    "changed_spans",
    "diff_table_html",
    "segments_html",
    "tokenize",
    "word_diff",
]
