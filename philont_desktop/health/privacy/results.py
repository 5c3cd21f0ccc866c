"""What a scan found and what a purge did, in sentences of the application's language (context
``PrivacyResults``); codes of the core in them are worded by :mod:`.texts` (through
:mod:`philont_desktop.messages`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from philont_desktop import messages
from philont_desktop.qt import QCoreApplication

__all__ = ["purge_text", "scan_text"]


def _tr(text: str, n: int = -1) -> str:
    return QCoreApplication.translate("PrivacyResults", text, None, n)


def _name(path: Any) -> str:
    return _tr("this database") if path is None else Path(str(path)).name


def scan_text(result: Any, allowed_now: int = 0) -> str:
    """``12 findings in 3 files. 2 on your allow-list, not shown. …``"""
    files = list(getattr(result, "files", ()))
    shown = len(result.findings) - allowed_now
    read = [f for f in files if getattr(f, "error", None) is None]
    parts = [
        _tr("No finding in %n file(s).", len(read))
        if shown == 0
        else _tr("%n finding(s)", shown) + " " + _tr("in %n file(s).", len(read))
    ]
    allowed = len(getattr(result, "allowed", ())) + allowed_now
    if allowed:
        parts.append(_tr("%n on your allow-list, not shown.", allowed))
    skipped = list(getattr(result, "skipped", ()))
    if skipped:
        parts.append(_tr("%n value(s) or table(s) could not be read.", len(skipped)))
    for f in files:
        if getattr(f, "error", None) is not None:
            why = messages.text(str(f.error_code or ""), {"path": str(f.file)}, str(f.error))
            parts.append(_tr("{0} could not be read: {1}").format(_name(f.file), why))
    return " ".join(parts)


def purge_text(result: Any) -> str:
    """What a purge rewrote, and how much."""
    lines = []
    redacted = int(getattr(result, "redacted", 0) or 0)
    deleted = int(getattr(result, "deleted", 0) or 0)
    if redacted:
        lines.append(_tr("%n span(s) redacted.", redacted))
    if deleted:
        lines.append(_tr("%n row(s) deleted.", deleted))
    files = [str(f) for f in getattr(result, "files", ()) or ()]
    if files:
        lines.append(_tr("Rewritten:") + "\n" + "\n".join(f"  {f}" for f in files))
    return "\n".join(lines) or _tr("The purge found nothing left to remove.")
