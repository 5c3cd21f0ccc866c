"""A scheduled task's action type in words: shown by the Calendar tab and by the Review tab's change
sets, so it lives outside both."""

from __future__ import annotations

from philont_desktop.qt import QCoreApplication


def _tr(text: str) -> str:
    return QCoreApplication.translate("RepeatWords", text)


def _action_names() -> dict[str, str]:
    return {
        "prompt": _tr("reminder message"),
        "tool_call": _tr("tool call"),
        "reflect": _tr("reflection"),
        "autonomous_turn": _tr("agent turn (acts on its own)"),
    }


def action_words(action_type: str | None) -> str:
    """A task's action type in words (``autonomous_turn`` → "agent turn (acts on its own)"); a value
    the app does not know is shown as stored."""
    return _action_names().get(action_type or "", action_type or "")
