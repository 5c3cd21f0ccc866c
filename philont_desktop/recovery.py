"""Restoring and browsing backups at the level of a window (these outlive a tab: a restore closes and
reopens the database).

* :func:`restore_in_window` restores a backup into a database path, the one shown or one that could not
  be opened: the window's own connections to it are closed first, :func:`core.backups.restore_backup`
  refuses while another program (the agent) has the file open, backs up a sound file and moves a damaged
  one aside unchanged; the database is opened again whatever happened.
* :func:`open_backup_window` shows a backup read-only in a second window; a backup written by the agent
  (a WAL-mode copy) is browsed through a private copy, so nothing is ever written into ``backups/``.
* :func:`offer_backup` is what a failed open offers when it names the newest good backup: restore it,
  or open it read-only.
* :func:`restore_message` turns a restore's result into translated text (the codes' texts are
  :mod:`philont_desktop.backup_texts`).

A browsing window is made by a factory the caller passes (by default a window of ``window``'s class),
so this module never imports the main window.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.backups import RestoreResult, browse_copy_needed, copy_for_browsing, restore_backup
from core.errors import DatabaseOpenError
from core.paths import backups_dir
from philont_desktop import APP_NAME
from philont_desktop.backup_texts import check_text, code_text, codes, error_text, kind_text, problem_text
from philont_desktop.qt import QCoreApplication, QMessageBox, Qt, QWidget

__all__ = [
    "BROWSING_PROPERTY",
    "ask_and_restore",
    "backup_offer",
    "browsing_backup_of",
    "check_text",
    "code_text",
    "codes",
    "error_text",
    "kind_text",
    "offer_backup",
    "open_backup_window",
    "problem_text",
    "restore_confirmation",
    "restore_in_window",
    "restore_message",
    "restore_over_start_problem",
]

BROWSING_PROPERTY = "philontBrowsingBackup"
_BROWSE_WINDOWS: dict[int, Any] = {}


def _tr(text: str) -> str:
    return QCoreApplication.translate("BackupsTab", text)


def show_restore_error(window: Any, exc: BaseException) -> None:
    window.show_error(_tr("The backup was not restored"), error_text(exc) or exc)


def restore_message(result: RestoreResult) -> str:
    """What a finished restore did, and where the replaced file is."""
    names = ", ".join(str(p) for p in result.damaged)
    if result.safety_backup is not None:
        return _tr("Restored {0} from {1}. The replaced content was backed up to {2}.").format(
            result.db_path, result.restored_from.name, result.safety_backup
        )
    if result.problem == "missing" and not result.damaged:
        return _tr("Restored {0} from {1}: there was no file, so it was created from the backup.").format(
            result.db_path, result.restored_from.name
        )
    if result.problem == "missing":
        return _tr(
            "Restored {0} from {1}: there was no file. The files left at that path were moved, unchanged, to "
            "{2}."
        ).format(result.db_path, result.restored_from.name, names)
    return _tr("Restored {0} from {1}. The damaged file ({2}) was moved, unchanged, to {3}.").format(
        result.db_path, result.restored_from.name, problem_text(result.problem), names
    )


# --------------------------------------------------------------------------------------------------
# Restoring
# --------------------------------------------------------------------------------------------------


def restore_confirmation(
    parent: QWidget | None, db_path: Path, backup: Path, problem: str | None = None
) -> tuple[QMessageBox, Any]:
    """The question before a restore, naming both files and where the current file will go, and its
    "Restore" button (Cancel is the default)."""
    folder = backups_dir(db_path)
    if problem is None:
        what = _tr(
            "The current file is kept in {0}: backed up first, or, when it is damaged, moved there unchanged."
        ).format(folder)
    else:
        what = _tr(
            "The file there cannot be opened ({0}). It is not deleted: it is moved, unchanged and with its -wal "
            "and -shm files, into {1}."
        ).format(problem_text(problem), folder)
    text = _tr(
        "Replace the database\n\n    {0}\n\nwith the backup\n\n    {1}?\n\n{2} The agent must not be running: "
        "the restore is refused while another program has the database open."
    ).format(db_path, backup, what)
    box = QMessageBox(QMessageBox.Icon.Warning, _tr("Restore a backup"), text, parent=parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    yes = box.addButton(_tr("Restore"), QMessageBox.ButtonRole.DestructiveRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    return box, yes


def confirm_restore(parent: QWidget, db_path: Path, backup: Path, problem: str | None = None) -> bool:
    """Ask before a restore (tests replace this)."""
    box, yes = restore_confirmation(parent, db_path, backup, problem)
    box.exec()
    return box.clickedButton() is yes


def _run_restore(db_path: Path, backup: Path, job: Any) -> RestoreResult:
    return restore_backup(db_path, backup, progress=job.progress)


def _reopen(window: Any, target: Path, message: str | None) -> None:
    """Open ``target`` in ``window`` again; with a ``message``, show it and the Backups tab once opened."""

    def _shown(_ctx: Any) -> None:
        with contextlib.suppress(RuntimeError, TypeError):
            window.databaseOpened.disconnect(_shown)
        window.show_tab("backups")
        window.statusBar().showMessage(message, 20_000)

    if message:
        window.databaseOpened.connect(_shown)
    window.open_database(target)


def _restored(window: Any, target: Path, result: RestoreResult) -> None:
    msg = restore_message(result)
    _reopen(window, target, msg)
    if window.interactive:
        box = QMessageBox(QMessageBox.Icon.Information, _tr("Backup restored"), msg, parent=window)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()


def restore_in_window(
    window: Any,
    backup_path: str | Path,
    *,
    db_path: str | Path | None = None,
    on_done: Callable[[Any], Any] | None = None,
):
    """Restore ``backup_path`` into ``db_path`` (default: the database ``window`` shows), then open it.

    The window's connections to that file are closed first. Returns the task
    :class:`~philont_desktop.workers.Job`: its result is a :class:`RestoreResult`; it fails with
    :class:`core.backups.AgentRunningError` while the agent has the file open. The database is opened
    again whatever happened; errors are shown by the window. ``on_done`` gets the result or the error.
    """
    ctx = window.ctx
    if db_path is None and ctx is None:
        return None
    target = Path(db_path) if db_path is not None else Path(ctx.db_path)
    backup = Path(backup_path)
    if ctx is not None and Path(ctx.db_path) == target:
        window.close_database()
    window.loading_page.setText(_tr("Restoring {0} from {1}…").format(target, backup.name))
    if window.ctx is None:
        window.pages.setCurrentWidget(window.loading_page)

    def _done(result: RestoreResult) -> None:
        _restored(window, target, result)
        if on_done is not None:
            on_done(result)

    def _failed(exc: BaseException) -> None:
        _reopen(window, target, None)
        show_restore_error(window, exc)
        if on_done is not None:
            on_done(exc)

    return window.tasks.task(
        _run_restore,
        target,
        backup,
        on_result=_done,
        on_error=_failed,
        progress=True,
        label=_tr("Restoring a backup"),
    )


def ask_and_restore(window: Any, db_path: str | Path, backup: str | Path, problem: str | None = None):
    """Confirm, then :func:`restore_in_window` (``None`` when the person says no)."""
    if window.read_only:  # started read-only: nothing is ever written
        return None
    if window.interactive and not confirm_restore(window, Path(db_path), Path(backup), problem):
        return None
    return restore_in_window(window, backup, db_path=db_path)


def backup_offer(parent: QWidget | None, exc: DatabaseOpenError) -> tuple[QMessageBox, Any, Any]:
    """The dialog of a failed open that names a good backup, with its "Restore this backup…" and "Open
    the backup read-only" buttons."""
    from philont_desktop.widgets.error_dialog import readable_message

    box = QMessageBox(
        QMessageBox.Icon.Warning, _tr("The database cannot be opened"), readable_message(exc), parent=parent
    )
    box.setTextFormat(Qt.TextFormat.PlainText)
    restore = box.addButton(_tr("Restore this backup…"), QMessageBox.ButtonRole.DestructiveRole)
    restore.setVisible(not getattr(parent, "read_only", False))  # started read-only: never a restore
    browse = box.addButton(_tr("Open the backup read-only"), QMessageBox.ButtonRole.ActionRole)
    box.addButton(QMessageBox.StandardButton.Close)
    return box, restore, browse


def ask_backup_choice(window: Any, exc: DatabaseOpenError) -> str:
    """Show :func:`backup_offer`: ``"restore"``, ``"open"`` or ``"close"`` (tests replace this)."""
    box, restore, browse = backup_offer(window, exc)
    box.exec()
    clicked = box.clickedButton()
    return "restore" if clicked is restore else "open" if clicked is browse else "close"


def restore_over_start_problem(window: Any, backup: str):
    """ "Restore this backup" on the start page: over the file the window could not open."""
    path, problem = window._start_problem
    if path is None or not backup or window.read_only:
        return None
    return ask_and_restore(window, path, backup, getattr(problem, "problem", None))


def offer_backup(
    window: Any, path: Path, exc: DatabaseOpenError, factory: WindowFactory | None = None
) -> Any:
    """The open of ``path`` failed and ``exc`` names a good backup: offer to restore it (with the same
    confirmation and agent check as every restore) or to open it read-only (in a window ``factory``
    makes, see :func:`open_backup_window`). Without a person the error is only reported. Returns the
    restore job or the browsing window, if any."""
    if not window.interactive:
        window.show_error(_tr("The database cannot be opened"), exc)
        return None
    choice = ask_backup_choice(window, exc)
    if choice == "restore":
        return ask_and_restore(window, path, exc.backup, exc.problem)
    if choice == "open":
        return open_backup_window(window, exc.backup, factory)
    return None


# --------------------------------------------------------------------------------------------------
# Browsing
# --------------------------------------------------------------------------------------------------


def browsing_backup_of(widget: QWidget) -> str | None:
    """The backup a window shows read-only (set by :func:`open_backup_window`), else ``None``."""
    w = widget.window()
    value = w.property(BROWSING_PROPERTY) if w is not None else None
    return str(value) if value else None


#: ``factory(settings, theme, read_only=True, interactive=..., live_interval_ms=...)``: a new main window
WindowFactory = Callable[..., Any]


def _browse_window(window: Any, path: Path, factory: WindowFactory | None) -> Any:
    make = factory if factory is not None else type(window)
    w = make(
        window.settings,
        window.theme,
        read_only=True,
        interactive=window.interactive,
        live_interval_ms=window.live_interval_ms,
    )
    w.persist = False
    w.setProperty(BROWSING_PROPERTY, str(path))
    w.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    w.action_backup.setVisible(False)  # a backup of a backup would be written beside it
    w.action_open_edit.setVisible(False)
    key = id(w)
    _BROWSE_WINDOWS[key] = w
    w.destroyed.connect(lambda *_: _BROWSE_WINDOWS.pop(key, None))
    w.resize(window.size())
    return w


def open_backup_window(window: Any, backup_path: str | Path, factory: WindowFactory | None = None):
    """Open ``backup_path`` read-only in a new main window (never editable; nothing written beside it),
    made by ``factory`` (by default a window of ``window``'s class)."""
    from philont_desktop.settings import RECENT_FILES

    if not backup_path:
        return None
    path = Path(backup_path)
    settings = window.settings
    remembered = (settings.get(RECENT_FILES), settings.last_database)
    source = window.ctx.db_path if window.ctx is not None else None
    w = _browse_window(window, path, factory)

    def _opened(ctx: Any) -> None:
        # Browsing a backup is not "the last database" and does not belong in the recent files.
        settings.set(RECENT_FILES, remembered[0])
        settings.last_database = remembered[1]
        where = (
            ""
            if Path(ctx.db_path) == path
            else " " + _tr("(browsed through a private copy: {0})").format(ctx.db_path)
        )
        ctx.report.warnings.insert(
            0, _tr("This is the backup {0}, shown read-only for comparing.{1}").format(path, where)
        )
        ctx.reportChanged.emit()
        of = f" ({source.name})" if source is not None else ""
        w.setWindowTitle(_tr("Backup {0}{1} [read-only] — {2}").format(path.name, of, APP_NAME))

    w.databaseOpened.connect(_opened)
    w.show()
    w.browse_job = w.open_database(path) if not browse_copy_needed(path) else _open_through_copy(w, path)
    return w


def _copy_for_browsing(src: Path, dest: str, job: Any) -> Path:
    return copy_for_browsing(src, dest, progress=job.progress, cancel=lambda: job.cancelled)


def _open_through_copy(w: Any, path: Path) -> Any:
    """Copy ``path`` into a private folder (removed with the window) and open the copy in ``w``."""
    tmp = tempfile.mkdtemp(prefix="philont-browse-")
    w.destroyed.connect(lambda *_: shutil.rmtree(tmp, ignore_errors=True))
    w.loading_page.setText(_tr("Copying {0} to a private folder to browse it…").format(path.name))
    w.pages.setCurrentWidget(w.loading_page)
    return w.tasks.task(
        _copy_for_browsing,
        path,
        tmp,
        on_result=lambda p: w.open_database(p),
        on_error=lambda exc: w.show_error(_tr("The backup cannot be opened"), error_text(exc) or exc),
        progress=True,
        label=_tr("Copying the backup"),
    )
