"""Word-level diffs of two versions of a text (a recipe, a note), shown side by side.

The diff itself (:func:`tokenize`, :func:`word_diff`, :func:`changed_spans`) lives in
:mod:`core.worddiff` (plain Python, shared with the change set) and is re-exported here.

:class:`SideBySideDiff` renders the fields of two versions as a two-column table in a ``QTextBrowser``
(rows stay aligned field by field), removed words highlighted on the left, added words on the right.
Shared by the Skills tab (revisions) and the Review tab (revised recipes, edited notes).
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import NamedTuple

from core.visible import visible
from core.worddiff import Segment, changed_spans, tokenize, word_diff
from philont_desktop.qt import QColor, QTextBrowser, QWidget

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


def _text_html(text: str) -> str:
    out = html.escape(visible(text), quote=False).replace("\t", "    ")
    # Keep runs of spaces (rich text collapses them) while still letting lines wrap.
    out = re.sub(r" {2,}", lambda m: "&nbsp;" * (len(m.group(0)) - 1) + " ", out)
    out = re.sub(r"^ ", "&nbsp;", out, flags=re.MULTILINE)
    return out.replace("\n", "<br/>")


def segments_html(
    segments: Sequence[Segment], highlight: QColor | str, text_color: QColor | str | None = None
) -> str:
    """HTML of ``segments`` with the changed ones on a ``highlight`` background."""
    bg = highlight.name() if isinstance(highlight, QColor) else highlight
    fg = ""
    if text_color is not None:
        fg = f" color:{text_color.name() if isinstance(text_color, QColor) else text_color};"
    parts = []
    for seg in segments:
        body = _text_html(seg.text)
        if seg.changed and seg.text.strip():
            parts.append(f'<span style="background-color:{bg};{fg}">{body}</span>')
        else:
            parts.append(body)
    return "".join(parts)


class DiffField(NamedTuple):
    """One compared field: its label, the two texts, and whether to show it in a monospace font."""

    label: str
    old: str
    new: str
    monospace: bool = False


def diff_table_html(
    left_title: str,
    right_title: str,
    fields: Sequence[DiffField],
    *,
    removed: QColor | str,
    added: QColor | str,
    muted: QColor | str,
    unchanged_label: str = "unchanged",
    empty_label: str = "(empty)",
) -> str:
    """A two-column table: a title row, then per field a label row and the two versions side by side."""
    mut = muted.name() if isinstance(muted, QColor) else muted
    rows = [
        '<table width="100%" cellspacing="0" cellpadding="6" style="border-collapse:collapse">',
        f'<tr><th width="50%" align="left">{html.escape(left_title)}</th>'
        f'<th width="50%" align="left">{html.escape(right_title)}</th></tr>',
    ]
    for f in fields:
        same = f.old == f.new
        note = (
            f' <span style="color:{mut}; font-weight:normal">· {html.escape(unchanged_label)}</span>'
            if same
            else ""
        )
        rows.append(f'<tr><td colspan="2"><b>{html.escape(f.label)}</b>{note}</td></tr>')
        left, right = word_diff(f.old, f.new)
        font = ' style="font-family:monospace"' if f.monospace else ""

        def cell(segs: list[Segment], text: str, color: QColor | str) -> str:
            if not text:
                return f'<span style="color:{mut}">{html.escape(empty_label)}</span>'
            return segments_html(segs, color)

        rows.append(
            f'<tr><td valign="top"{font}>{cell(left, f.old, removed)}</td>'
            f'<td valign="top"{font}>{cell(right, f.new, added)}</td></tr>'
        )
    rows.append("</table>")
    return "".join(rows)


class SideBySideDiff(QTextBrowser):
    """Two versions of a recipe side by side, changed words highlighted (see :func:`diff_table_html`)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setReadOnly(True)
        self.fields: list[DiffField] = []

    def set_diff(
        self,
        left_title: str,
        right_title: str,
        fields: Sequence[DiffField],
        *,
        removed: QColor,
        added: QColor,
        muted: QColor,
    ) -> None:
        self.fields = list(fields)
        self.setHtml(
            diff_table_html(
                left_title,
                right_title,
                fields,
                removed=removed,
                added=added,
                muted=muted,
                unchanged_label=self.tr("unchanged"),
                empty_label=self.tr("(empty)"),
            )
        )
