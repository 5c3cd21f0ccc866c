"""Word-level diffs of two versions of a recipe, shown side by side.

The diff itself (:func:`tokenize`, :func:`word_diff`, :func:`changed_spans`) is plain Python: text is cut
into words, whitespace runs and single punctuation characters, with every CJK character a token of its
own (Chinese has no spaces between words), and :class:`difflib.SequenceMatcher` aligns the tokens.
Whitespace is "junk" for the matcher (it never anchors a match) and a whitespace run between two changed
words of one side is shown as changed too, so a rewritten phrase reads as one highlight.

:class:`SideBySideDiff` renders the fields of two versions as a two-column table in a ``QTextBrowser``
(rows stay aligned field by field), removed words highlighted on the left, added words on the right.
"""

from __future__ import annotations

import difflib
import html
import re
from collections.abc import Sequence
from typing import NamedTuple

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

# CJK ideographs (unified, extensions A-B+, compatibility), kana, bopomofo, hangul syllables, CJK
# radicals and fullwidth forms: one token per character.
_CJK = (
    "\u2e80-\u2fdf\u3005-\u3007\u3021-\u3029\u3040-\u30ff\u3100-\u312f\u3190-\u31ff\u3400-\u4dbf"
    "\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003134f"
)
_TOKEN_RE = re.compile(rf"[{_CJK}]|\s+|(?:(?![{_CJK}])\w)+|.", re.DOTALL)


class Segment(NamedTuple):
    text: str
    changed: bool


def tokenize(text: str) -> list[str]:
    """Words, whitespace runs, single punctuation marks, single CJK characters; ``"".join`` gives ``text``."""
    return _TOKEN_RE.findall(text or "")


def _merge(tokens: list[tuple[str, bool]]) -> list[Segment]:
    # A whitespace-only unchanged token between two changed tokens joins the highlight.
    flags = [c for _, c in tokens]
    for i in range(1, len(tokens) - 1):
        text, changed = tokens[i]
        if not changed and text.isspace() and flags[i - 1] and flags[i + 1]:
            flags[i] = True
    runs: list[Segment] = []
    for (text, _), changed in zip(tokens, flags, strict=True):
        if runs and runs[-1].changed == changed:
            runs[-1] = Segment(runs[-1].text + text, changed)
        else:
            runs.append(Segment(text, changed))
    # Leading and trailing whitespace of a highlight is not part of it.
    out: list[Segment] = []
    for seg in runs:
        pieces = [Segment(seg.text, False)]
        if seg.changed:
            core = seg.text.strip()
            if core:
                start = seg.text.index(core)
                pieces = [
                    Segment(seg.text[:start], False),
                    Segment(core, True),
                    Segment(seg.text[start + len(core) :], False),
                ]
        for piece in pieces:
            if not piece.text:
                continue
            if out and out[-1].changed == piece.changed:
                out[-1] = Segment(out[-1].text + piece.text, piece.changed)
            else:
                out.append(piece)
    return out


def word_diff(old: str, new: str) -> tuple[list[Segment], list[Segment]]:
    """Segments of ``old`` (changed = removed) and of ``new`` (changed = added)."""
    a, b = tokenize(old), tokenize(new)
    sm = difflib.SequenceMatcher(lambda t: t.isspace(), a, b, autojunk=False)
    left: list[tuple[str, bool]] = []
    right: list[tuple[str, bool]] = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        same = tag == "equal"
        left.extend((t, not same) for t in a[i1:i2])
        right.extend((t, not same) for t in b[j1:j2])
    return _merge(left), _merge(right)


def changed_spans(segments: Sequence[Segment]) -> list[tuple[int, int, str]]:
    """``(start, end, text)`` of each highlighted run (offsets in Python characters)."""
    spans: list[tuple[int, int, str]] = []
    pos = 0
    for seg in segments:
        if seg.changed and seg.text.strip():
            spans.append((pos, pos + len(seg.text), seg.text))
        pos += len(seg.text)
    return spans


def _text_html(text: str) -> str:
    out = html.escape(text, quote=False).replace("\t", "    ")
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
