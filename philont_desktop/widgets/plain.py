"""Stored text shown as text, and the markers of damaged values: the one helper every view uses.

Qt renders a tooltip, a ``QLabel`` in its automatic format and ``QTextDocument`` HTML as rich text when
the string looks like markup: ``<img src=file:///…>`` in a note would load a local image, ``<h1>`` would
be a heading. Whatever the agent (or anyone) wrote passes through here before it is shown:

* :func:`plain`: control characters and direction overrides spelled visibly (:func:`core.visible.visible`)
  and cut at a length that stays quick to lay out (a 10 MB message or a 200 000-bracket JSON value in
  one label would freeze the window);
* :func:`with_offsets`: the same for a text drawn with highlighted spans, with where each offset lands;
* :func:`html`: the same, HTML-escaped with line breaks kept, to compose rich text with;
* :func:`tooltip`: a whole tooltip: rich text Qt cannot mistake, holding the escaped text;
* :func:`set_plain`: a ``QLabel`` in ``Qt.PlainText`` format showing :func:`plain`;
* :func:`damage_lines` / :func:`damage_tooltip` / :func:`mark`: what is unreadable in a row, translated
  by the damage's code (:mod:`core.damage`), with the stored bytes in hex on hover.
"""

from __future__ import annotations

import html as _html
from collections.abc import Iterable, Mapping
from typing import Any

from core.damage import Damage
from core.visible import visible, visible_with_offsets
from philont_desktop.qt import QCoreApplication, Qt

#: Characters of stored text a label or detail pane shows (the rest is summarised).
LABEL_LIMIT = 4000
#: Characters of stored text a tooltip shows.
TOOLTIP_LIMIT = 1500
#: Stored bytes a tooltip spells in hex.
HEX_LIMIT = 64
#: The marker in front of a damaged value.
MARK = "⚠"


def plain(text: Any, limit: int | None = LABEL_LIMIT, *, one_line: bool = False) -> str:
    """``text`` (any stored value: ``None`` is empty) with controls and direction overrides visible,
    at most ``limit`` characters followed by ``… (N more characters)``. ``one_line`` spells line breaks
    too (for one-line cells and labels)."""
    if text is None:
        return ""
    s = text if isinstance(text, str) else str(text)
    rest = 0
    if limit is not None and len(s) > limit:
        rest = len(s) - limit
        s = s[:limit]
    s = visible(s, keep_newlines=not one_line)
    if rest:
        s += " … " + QCoreApplication.translate("PlainText", "(%n more character(s))", None, rest)
    return s


def with_offsets(text: str) -> tuple[str, list[int] | None]:
    """:func:`plain` of ``text`` without a limit (line breaks kept), and where each offset of ``text``
    lands in it (``None``: unchanged), for text drawn with highlighted spans."""
    return visible_with_offsets(text)


def html(text: Any, limit: int | None = LABEL_LIMIT, *, one_line: bool = False) -> str:
    """:func:`plain` escaped for rich text, line breaks as ``<br>``: a piece of HTML to compose with."""
    return _html.escape(plain(text, limit, one_line=one_line)).replace("\n", "<br>")


def tooltip(text: Any, limit: int | None = TOOLTIP_LIMIT) -> str:
    """A whole tooltip holding ``text`` as text (empty for empty text): rich text that Qt renders as
    such whatever the content, with the content escaped, so stored markup is shown, never applied."""
    if text is None or text == "":
        return ""
    return f"<qt>{html(text, limit)}</qt>"


def set_plain(label: Any, text: Any, limit: int | None = LABEL_LIMIT, *, one_line: bool = False) -> None:
    """Show ``text`` in ``label`` (a ``QLabel``) as plain text."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(plain(text, limit, one_line=one_line))


# -- damaged values ---------------------------------------------------------------------------------------------


def _templates() -> dict[str, str]:
    return {
        "not_utf8": QCoreApplication.translate(
            "PlainText", "%1: not valid UTF-8 (%2 bytes); the unreadable bytes are shown as �"
        ),
        "blob": QCoreApplication.translate("PlainText", "%1: binary data (%2 bytes) where text belongs"),
        "missing": QCoreApplication.translate("PlainText", "%1: empty (NULL), though it must have a value"),
        "not_text": QCoreApplication.translate("PlainText", "%1: a number where text belongs"),
        "not_a_number": QCoreApplication.translate("PlainText", "%1: not a number"),
        "non_finite": QCoreApplication.translate("PlainText", "%1: not a finite number"),
        "not_a_time": QCoreApplication.translate("PlainText", "%1: not a time"),
        "out_of_range": QCoreApplication.translate("PlainText", "%1: beyond the range it can hold"),
        "invalid_json": QCoreApplication.translate("PlainText", "%1: not valid JSON (shown as stored)"),
        "too_deep": QCoreApplication.translate(
            "PlainText", "%1: JSON nested too deep to read (shown as stored)"
        ),
        "wrong_type": QCoreApplication.translate("PlainText", "%1: JSON of the wrong kind"),
    }


def damage_text(d: Damage) -> str:
    """One damage in words (translated by its problem), with the stored value or bytes."""
    template = _templates().get(d.problem)
    if template is None:
        text = d.message
    else:
        text = template.replace("%1", d.column).replace("%2", str(len(d.raw) if d.raw is not None else 0))
    if d.raw is not None:
        shown = d.raw[:HEX_LIMIT].hex(" ")
        more = " …" if len(d.raw) > HEX_LIMIT else ""
        text += " — " + QCoreApplication.translate("PlainText", "stored bytes: %1").replace(
            "%1", shown + more
        )
    elif d.stored is not None and d.problem != "not_utf8":
        text += " — " + QCoreApplication.translate("PlainText", "stored: %1").replace(
            "%1", plain(repr(d.stored), 80, one_line=True)
        )
    return text


def damages(row: Any) -> Mapping[str, Damage]:
    """The damaged values of a row model (``{}`` for rows without any, or objects of other kinds)."""
    d = getattr(row, "damaged", None)
    return d if isinstance(d, Mapping) else {}


def damage_lines(row: Any, columns: Iterable[str] | None = None) -> list[str]:
    """``⚠ <what is unreadable>`` for each damaged value of ``row`` (of ``columns`` when given)."""
    dmg = damages(row)
    wanted = None if columns is None else set(columns)
    return [f"{MARK} {damage_text(d)}" for c, d in dmg.items() if wanted is None or c in wanted]


def damage_tooltip(row: Any, columns: Iterable[str] | None = None) -> str:
    """The damage lines of ``row`` as plain text for a tooltip (``''`` when nothing is damaged)."""
    return "\n".join(damage_lines(row, columns))


def is_damaged(row: Any, columns: Iterable[str]) -> bool:
    dmg = damages(row)
    return any(c in dmg for c in columns)


def mark(text: str, row: Any, columns: Iterable[str]) -> str:
    """``text`` with the damage marker in front when one of ``columns`` of ``row`` is damaged."""
    if text.startswith(MARK) or not is_damaged(row, columns):
        return text  # (an unreadable time already reads "⚠ unreadable")
    return f"{MARK} {text}"


__all__ = [
    "HEX_LIMIT",
    "LABEL_LIMIT",
    "MARK",
    "TOOLTIP_LIMIT",
    "damage_lines",
    "damage_text",
    "damage_tooltip",
    "damages",
    "html",
    "is_damaged",
    "mark",
    "plain",
    "set_plain",
    "tooltip",
]
