"""Notes for the damaged rows the agent would be given (issue 12): what the agent makes of each one.

The core reports them as :attr:`core.context.ContextResult.row_notices`, one ``Notice`` per damaged fact,
skill or message that reaches the context, with ``layer``, ``id``, ``label``, ``section`` and ``columns``
(codes ``context.row.agent_cannot_read``, ``context.row.replacement_chars``, ``context.row.damaged``).
The preview shows each note on its row, in words from the code; a core without them shows none.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.errors import Notice
from philont_desktop import field_names, messages
from philont_desktop.qt import QCoreApplication


def _t(text: str) -> str:
    return QCoreApplication.translate("RowNotes", text)


def _row(p: Mapping[str, Any]) -> str:
    layer, row_id = p.get("layer"), p.get("id")
    if layer == "facts":
        return _t("The fact {key}").format(key=p.get("label", row_id))
    if layer == "skills":
        return _t("Skill #{id}").format(id=row_id)
    return _t("This message")


def note_text(notice: Any) -> str:
    """One note in the current language (the core's English sentence only for a code this version does
    not know)."""
    code = getattr(notice, "code", "")
    p = getattr(notice, "params", None) or {}
    listed = str(p.get("columns") or "")
    row, columns = _row(p), field_names.fields_text(listed.split(", ")) if listed else ""
    if code == "context.row.agent_cannot_read":
        text = _t(
            "{row} cannot be read by the agent ({columns}): its own reading of this layer fails on this row. "
            "Shown here as stored."
        )
    elif code == "context.row.replacement_chars":
        text = _t(
            "{row}: {columns} holds bytes that are not UTF-8; the agent reads them as U+FFFD (�), as shown."
        )
    elif code == "context.row.damaged":
        text = _t(
            "{row} has damaged values ({columns}); the agent reads them as stored, so what it makes of this row "
            "can differ from what is shown here."
        )
    else:
        return str(getattr(notice, "message", "") or code)
    return "⚠ " + text.format(row=row, columns=columns)


def codes() -> frozenset[str]:
    """The codes with a template here (:func:`philont_desktop.messages.codes` gathers them)."""
    return frozenset(
        {"context.row.agent_cannot_read", "context.row.replacement_chars", "context.row.damaged"}
    )


def notes_by_row(result: Any) -> tuple[dict[str, list[str]], dict[int, list[str]]]:
    """The notes of a result: by prefix section (facts and skills) and by message id."""
    sections: dict[str, list[str]] = {}
    messages: dict[int, list[str]] = {}
    for n in getattr(result, "row_notices", None) or ():
        p = getattr(n, "params", None) or {}
        if p.get("layer") == "messages" and isinstance(p.get("id"), int):
            messages.setdefault(p["id"], []).append(note_text(n))
        else:
            sections.setdefault(str(p.get("section") or ""), []).append(note_text(n))
    return sections, messages


def code_text(code: str, params: Mapping[str, Any], english: str = "") -> str:
    """A damaged row's note by its code and parameters."""
    return note_text(Notice(code, english, params))


messages.register_templates(("context.row.",), code_text, codes)
