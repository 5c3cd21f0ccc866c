"""What a scan found and what a purge did, in sentences of the application's language (context
``PrivacyResults``); codes of the core in them are worded by :mod:`.texts` (through
:mod:`philont_desktop.messages`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from philont_desktop import messages
from philont_desktop.qt import QCoreApplication

__all__ = ["planned_file_text", "purge_text", "scan_text", "unreachable_text"]


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
        else _tr("%n finding(s)", shown) + _tr(" in %n file(s).", len(read))
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


def _role(role: str, owner: Any) -> str:
    if role == "live":
        return _tr("the database")
    if role == "wal":
        return _tr("its write-ahead log (-wal), emptied")
    if role == "derived":
        return _tr("a file this app derives from the text, removed (made again when needed)")
    if role == "backup":
        return _tr("a backup of the agent's") if owner == "agent" else _tr("a backup of this app's")
    return role


def planned_file_text(planned: Any) -> str:
    """One file a purge will rewrite: its path, what it is, how many rows change in it."""
    what = _role(str(planned.role), getattr(planned, "owner", None))
    rows = int(getattr(planned, "rows", 0) or 0)
    audit_rows = int(getattr(planned, "audit_rows", 0) or 0)
    if rows:
        what += _tr(", %n row(s)", rows)
    if audit_rows:
        what += _tr(", %n audit row(s)", audit_rows)
    return f"{planned.path} — {what}"


def unreachable_text() -> str:
    """What no purge reaches (the core's list, in words)."""
    items = (
        _tr("copies outside the memory folder (exports, copies a person made, other machines)"),
        _tr("file system or backup-tool snapshots of the memory folder"),
        _tr("disk blocks a file system keeps after a file is rewritten"),
    )
    return _tr("A purge cannot reach:") + "\n" + "\n".join(f"  • {i}" for i in items)


def purge_text(result: Any) -> str:
    """What a purge rewrote, how much, and which files it left as they were (and why)."""
    lines = []
    done = [f for f in result.files if f.error is None]
    failed = [f for f in result.files if f.error is not None]
    rows = sum(int(f.rows or 0) for f in done)
    if result.mode == "delete":
        lines.append(_tr("Purged: %n row(s) deleted", rows) + _tr(" in %n file(s).", len(done)))
    else:
        lines.append(_tr("Purged: %n row(s) redacted", rows) + _tr(" in %n file(s).", len(done)))
    for f in done:
        detail = _role(f.role, None) + _tr(", %n row(s)", int(f.rows or 0))
        if f.audit_rows:
            detail += _tr(", %n audit row(s)", int(f.audit_rows))
        if f.wal_truncated:
            detail += _tr(", -wal emptied")
        lines.append(f"  {f.path} — {detail}")
    for f in failed:
        err = f.error or {}
        why = messages.text(
            str(err.get("code") or ""), err.get("params") or {}, str(err.get("message") or "")
        )
        lines.append(_tr("Left as it was: {0}: {1}").format(f.path, why))
    derived = list(getattr(result, "derived_removed", ()) or ())
    if derived:
        lines.append(_tr("Removed (made again when needed):") + "\n" + "\n".join(f"  {d}" for d in derived))
    return "\n".join(lines)
