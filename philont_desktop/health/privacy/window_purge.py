"""The purge at the level of the window: like a restore, it needs the database to itself.

The core refuses a purge while any connection but its own has the file open (it cannot tell the app's
from the agent's), so the window's connections are closed first (:meth:`close_database`), the purge runs
on the window's task lane with its progress, and the database is opened again whatever happened (with
editing on again when it was on); the Privacy page then shows what the purge did, or why it was refused,
and scans again. ``window`` is the main window (duck-typed: this module never imports it).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from philont_desktop.health.privacy import ops
from philont_desktop.qt import QCoreApplication

__all__ = ["can_purge_in", "purge_in_window"]


def _tr(text: str) -> str:
    return QCoreApplication.translate("PrivacyPage", text)


def can_purge_in(window: Any) -> bool:
    """Whether ``window`` can close and reopen its database (the main window can)."""
    return all(hasattr(window, name) for name in ("close_database", "open_database", "tasks", "show_tab"))


def _reopen(window: Any, target: Path, editing: bool, then: Callable[[Any], Any]) -> None:
    """Open ``target`` again; once it is shown, ``then(page)`` with the Privacy page, shown."""

    def _opened(_ctx: Any) -> None:
        with contextlib.suppress(RuntimeError, TypeError):
            window.databaseOpened.disconnect(_opened)
        tab = window.show_tab("health")
        page = tab.show_page("privacy") if tab is not None and hasattr(tab, "show_page") else None
        if page is not None:
            then(page)

    window.databaseOpened.connect(_opened)
    window.open_database(target, editing=editing)


def purge_in_window(window: Any, plan: Any, *, include_backups: bool, editing: bool) -> Any:
    """Close the window's database, purge as ``plan`` says, open the database again and show the result on
    the Privacy page (which then scans again, backups included when ``include_backups``). Returns the
    task's job."""
    target = Path(window.ctx.db_path)
    window.close_database()
    window.loading_page.setText(_tr("Purging {0}…").format(target))
    window.pages.setCurrentWidget(window.loading_page)

    def _done(result: Any) -> None:
        _reopen(window, target, editing, lambda page: page.show_purge_result(result, include_backups))

    def _failed(exc: BaseException) -> None:
        _reopen(window, target, editing, lambda page: page.show_purge_error(exc, include_backups))

    return window.tasks.task(
        ops.purge_file,
        target,
        plan,
        on_result=_done,
        on_error=_failed,
        progress=True,
        label=_tr("Purging"),
    )
