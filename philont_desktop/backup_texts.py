"""The core's backup and restore codes in the interface's language: a backup's check, why a restore was
refused or what it found (``backup.*``, ``restore.*``). Shown by the window's restores and by the Backups
tab; :mod:`philont_desktop.messages` renders these codes through :func:`code_text`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.errors import MemoryError_, Notice
from philont_desktop.qt import QCoreApplication


def _tr(text: str) -> str:
    return QCoreApplication.translate("BackupsTab", text)


# --------------------------------------------------------------------------------------------------
# Texts from the core's codes and results
# --------------------------------------------------------------------------------------------------


def problem_text(problem: str | None) -> str:
    """What was wrong with a file, as :class:`core.errors.DatabaseOpenError` names it."""
    names = {
        "not-sqlite": _tr("not an SQLite database"),
        "empty": _tr("empty"),
        "truncated": _tr("truncated"),
        "corrupt": _tr("damaged"),
        "missing": _tr("missing"),
        "unreadable": _tr("unreadable"),
    }
    return names.get(problem or "", problem or "")


def kind_text(kind: str | None) -> str:
    """A kind of file that is never opened (:func:`core.backups.file_kind`)."""
    names = {
        "FIFO": _tr("FIFO"),
        "socket": _tr("socket"),
        "device": _tr("device"),
        "directory": _tr("folder"),
        "special file": _tr("special file"),
        "unreadable": _tr("unreadable entry"),
    }
    return names.get(kind or "", kind or "")


def check_text(notice: Notice) -> str:
    """A backup's check (:func:`core.backups.check_backup`) in the interface's language."""
    p = notice.params
    if notice.code == "backup.ok":
        return _tr("ok")
    if notice.code == "backup.missing":
        return _tr("missing")
    if notice.code == "backup.not_regular":
        return _tr("not a regular file ({0}): never opened").format(kind_text(p.get("kind")))
    if notice.code.startswith("db.open."):
        headers = {
            "empty": _tr("The file is empty."),
            "not-sqlite": _tr("Not an SQLite database."),
            "truncated": _tr("The file is truncated."),
            "unreadable": _tr("The file cannot be read."),
        }
        return headers.get(str(p.get("problem")), notice.message)
    if notice.code == "backup.unreadable":
        return _tr("cannot be read: {0}").format(p.get("error"))
    if notice.code == "backup.quick_check":
        return _tr("quick integrity check: {0}").format(p.get("result"))
    if notice.code == "backup.not_memory":
        return _tr("not a memory database: missing {0}").format(", ".join(p.get("missing") or ()))
    return notice.message


def _error_templates() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Translated templates of the core's backup and restore errors, with the parameters they take."""
    return {
        "restore.backup_bad": (
            _tr("The backup {0} cannot be restored: {1}. Nothing was changed."),
            ("backup", "problem"),
        ),
        "restore.backup_newer": (
            _tr(
                "The backup {0} has schema version {1}, newer than this version understands ({2}); it is not "
                "restored. Nothing was changed."
            ),
            ("backup", "version", "known"),
        ),
        "restore.same_file": (_tr("The backup and the database are the same file."), ()),
        "restore.live_unreadable": (
            _tr("{0} cannot be read ({1}). Nothing was changed."),
            ("path", "detail"),
        ),
        "restore.dir_not_writable": (
            _tr("The folder of {0} cannot be written, so nothing can be restored there."),
            ("path",),
        ),
        "restore.result_bad": (
            _tr(
                "The restored database fails the quick integrity check ({0}); the replaced file is kept in {1}."
            ),
            ("problem", "kept"),
        ),
        "restore.move_failed": (
            _tr(
                "The damaged file {0} could not be moved into the backups folder ({1}). Nothing was changed."
            ),
            ("path", "error"),
        ),
        "restore.live_reappeared": (
            _tr(
                "A new file appeared at {0} during the restore (did the agent start?); it was left alone. The "
                "restored copy is {1}."
            ),
            ("path", "staged"),
        ),
        "backup.not_found": (_tr("The backup {0} does not exist."), ("path",)),
    }


def error_text(exc: BaseException) -> str | None:
    """The translated message of a backup or restore error from the core, by its code (else ``None``)."""
    if not isinstance(exc, MemoryError_):
        return None
    return code_text(exc.code, exc.params, exc.message)


def codes() -> frozenset[str]:
    """The codes with a template here (:func:`philont_desktop.messages.codes` gathers them)."""
    checks = {"backup.ok", "backup.missing", "backup.not_regular", "backup.unreadable", "backup.quick_check"}
    return (
        frozenset(_error_templates())
        | checks
        | {
            "backup.not_memory",
            "restore.agent_running",
            "restore.live_not_regular",
            "restore.move_incomplete",
        }
    )


def code_text(code: str, p: Mapping[str, Any], english: str = "") -> str | None:
    """A backup or restore error's text by its code and parameters (``None`` for another code)."""
    if code in (
        "backup.ok",
        "backup.missing",
        "backup.unreadable",
        "backup.quick_check",
        "backup.not_memory",
    ):
        return check_text(Notice(code, english, p))
    if code == "restore.agent_running" and p.get("reason") == "wal_recent":
        return _tr(
            "{0} seems to be in use: its -wal file was written {1} s ago (probably by the agent). Stop the "
            "agent, wait a few seconds and try again. Nothing was changed."
        ).format(p.get("path"), p.get("age_s"))
    if code == "restore.agent_running" and p.get("reason") == "written":
        return _tr(
            "{0} seems to be in use: it was written while the restore looked at it (probably by the agent, "
            "which may open a connection for each write). Stop the agent, wait a few seconds and try again. "
            "Nothing was changed."
        ).format(p.get("path"))
    if code == "restore.agent_running":
        return _tr(
            "{0} is open in another program (probably the agent). Stop the agent (and close other windows or "
            "tools that show this file), then try again. Nothing was changed."
        ).format(p.get("path"))
    if code == "restore.move_incomplete":
        return _tr(
            "The damaged file {0} could not be moved into the backups folder ({1}), and moving back what was "
            "moved failed too: {2} stayed there, byte for byte. Move them back beside the database before "
            "anything else."
        ).format(p.get("path"), p.get("error"), ", ".join(str(m) for m in p.get("moved") or ()))
    if code == "restore.live_not_regular":
        return _tr("{0} is a {1}, not a database file: nothing can be restored there.").format(
            p.get("path"), kind_text(p.get("kind"))
        )
    if code == "backup.not_regular":
        return _tr("{0} is a {1}, not a backup file; it was not opened.").format(
            p.get("path"), kind_text(p.get("kind"))
        )
    found = _error_templates().get(code)
    if found is None:
        return None
    template, keys = found
    return template.format(*(p.get(k) for k in keys))
