"""The main window: a shell around one open database.

It composes parts that live in :mod:`philont_desktop.shell`: the start page, the database session
(opening, demo generation, editing mode), the tabs (:class:`~philont_desktop.shell.tab_host.TabHost`),
the menus, the banners and the status bar; this module wires them together and keeps the window's
public API (``open_database``, ``show_tab``, ``set_editing``, ...) that the command line, the tests and
the dialogs use.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.errors import DatabaseOpenError
from core.paths import resolve_db_path
from philont_desktop import APP_NAME, i18n
from philont_desktop.interpreter import resume_settling
from philont_desktop.qt import (
    QT_TRANSLATE_NOOP,
    QApplication,
    QCloseEvent,
    QEvent,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressDialog,
    QStackedWidget,
    Qt,
    QTabWidget,
    QTimer,
    QVBoxLayout,
    QWidget,
    Signal,
    is_valid,
)
from philont_desktop.settings import Settings
from philont_desktop.shell import placement, warm
from philont_desktop.shell.banners import Banners
from philont_desktop.shell.demo_badge import DemoBadge
from philont_desktop.shell.menus import WindowMenus
from philont_desktop.shell.session import DEMO_MESSAGES, DatabaseSession
from philont_desktop.shell.side_files import SideFileNotices
from philont_desktop.shell.start_page import StartPage, demo_default_path, free_demo_path, ui_icon
from philont_desktop.shell.status import StatusArea
from philont_desktop.shell.tab_host import ErrorTab, TabHost, TabsByName, TabSlot
from philont_desktop.tabs.base import BaseTab
from philont_desktop.tabs.navigation import Navigator
from philont_desktop.theme import Theme
from philont_desktop.workers import Job

if TYPE_CHECKING:  # imported when a database opens, not before the first paint
    from philont_desktop.context import AppContext

__all__ = ["DEMO_MESSAGES", "ErrorTab", "MainWindow", "TabSlot", "demo_default_path", "ui_icon"]

QUICK_CHECK_LATEST_MS = 20_000  # the quick_check waits for the tabs to be built, this long at most
DB_FILTER = QT_TRANSLATE_NOOP("MainWindow", "SQLite databases (*.sqlite *.sqlite3 *.db);;All files (*)")


def _recovery():
    from philont_desktop import recovery

    return recovery


def _part(owner: str, name: str) -> property:
    return property(lambda self: getattr(getattr(self, owner), name), doc=f"``self.{owner}.{name}``")


def _session(name: str) -> property:
    """What the database session owns (settings, theme, the run's modes), asked of it: one owner."""
    return property(
        lambda self: getattr(self.session, name),
        lambda self, value: setattr(self.session, name, value),
        doc=f"``self.session.{name}``",
    )


class MainWindow(QMainWindow):
    """The application window. ``open_database(path)`` opens (asynchronously) and shows a database."""

    databaseOpened = Signal(object)  # AppContext
    databaseClosed = Signal()
    openFailed = Signal(str, object)  # path, exception

    def __init__(
        self,
        settings: Settings,
        theme: Theme,
        *,
        read_only: bool = False,
        interactive: bool = True,
        live_interval_ms: int = 1000,
        parent: QWidget | None = None,
    ):
        super().__init__(parent)
        self._start_problem: tuple[Path | None, BaseException | None] = (None, None)
        self._editing_asked = False
        self._after_paint: list[Callable[[], Any]] | None = []  # None once painted
        self.session = DatabaseSession(
            settings,
            theme,
            read_only=read_only,
            interactive=interactive,
            live_interval_ms=live_interval_ms,
            parent=self,
        )
        self._set_app_icon()
        self._build_pages()
        self.status = StatusArea(self.statusBar(), theme, self)
        self.side_files = SideFileNotices(self.statusBar(), self)  # a review-marks file set aside, ...
        self.demo_status = self.status.add_badge(DemoBadge(theme), shown=lambda _ctx: self.session.demo)
        self.tabs = TabHost(self.tab_widget, settings, persist=interactive, parent=self)
        self.tabs.prebuilt.connect(self._start_quick_check)
        self.tabs.prebuilt.connect(resume_settling)  # after another database was closed
        self.prebuild_tabs = interactive
        self.menus = WindowMenus(self)
        self._connect_session()
        self.resize(*placement.PREFERRED)
        if self.persist and settings.geometry:
            self.restoreGeometry(settings.geometry)
        placement.fit_to_screen(self)  # a screen smaller than the window, or than the one it was on
        if self.persist and settings.window_state:
            self.restoreState(settings.window_state)
        self.show_start_page()

    def _set_app_icon(self) -> None:
        try:
            from philont_desktop.resources import app_icon

            self.setWindowIcon(app_icon())
        except Exception:  # a missing icon must never stop the window from opening
            pass

    def _build_pages(self) -> None:
        self.start_page = StartPage()
        self.start_page.openRequested.connect(lambda: self.choose_and_open(editing=False))
        self.start_page.demoRequested.connect(self.choose_and_create_demo)
        self.start_page.emptyRequested.connect(self.choose_and_create_empty)
        self.start_page.recentChosen.connect(lambda p: self.open_database(p))
        self.start_page.backupChosen.connect(lambda p: _recovery().open_backup_window(self, p))
        self.start_page.restoreChosen.connect(lambda p: _recovery().restore_over_start_problem(self, p))
        self.start_page.cancelRequested.connect(self.session.cancel_creation)
        self.loading_page = QLabel()
        self.loading_page.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.tab_widget = QTabWidget()
        self.tab_widget.setDocumentMode(True)
        self.demo_badge = DemoBadge(self.theme)
        self.tab_widget.setCornerWidget(self.demo_badge, Qt.Corner.TopRightCorner)
        self.banners = Banners(self.theme)
        self.db_page = QWidget()
        dl = QVBoxLayout(self.db_page)
        dl.setContentsMargins(6, 6, 6, 0)
        dl.setSpacing(6)
        dl.addWidget(self.banners)
        dl.addWidget(placement.scrolling(self.tab_widget), 1)  # scrolls where large text outgrows it
        self.pages = QStackedWidget()
        for page in (self.start_page, self.loading_page, self.db_page):
            self.pages.addWidget(page)
        self.setCentralWidget(self.pages)

    def _connect_session(self) -> None:
        s = self.session
        s.openingStarted.connect(self._on_opening)
        s.openFailed.connect(self._on_open_failed)
        s.closing.connect(lambda _ctx: self.tabs.clear())
        s.closed.connect(self._on_closed)
        s.opened.connect(self._on_opened)
        s.started.connect(self._on_started)
        s.errorRaised.connect(self.show_error)
        s.creationStarted.connect(self._on_creation_started)
        s.creationProgress.connect(self.start_page.set_progress)
        s.creationEnded.connect(lambda: self.start_page.set_busy(None))

    # -- the parts, by name -----------------------------------------------------------------------------
    settings = _session("settings")
    theme = _session("theme")
    read_only = _session("read_only")  # never allow editing in this run
    interactive = _session("interactive")  # dialogs may be shown (off for batch runs and tests)
    live_interval_ms = _session("live_interval_ms")

    @property
    def ctx(self) -> AppContext | None:
        return self.session.ctx

    @property
    def persist(self) -> bool:
        """Save geometry, the current tab and the tabs' view state (off for batch runs)."""
        return self.tabs.persist

    @persist.setter
    def persist(self, on: bool) -> None:
        self.tabs.persist = on

    @property
    def prebuild_tabs(self) -> bool:
        return self.tabs.prebuild

    @prebuild_tabs.setter
    def prebuild_tabs(self, on: bool) -> None:
        # While the other tabs are built the quick_check waits: it would compete with their imports
        # and the GUI thread for the two processors of a small machine (QUICK_CHECK_LATEST_MS at most).
        self.tabs.prebuild = on
        self.session.defer_quick_check = on

    @property
    def opening(self) -> Path | None:
        return self.session.opening

    @property
    def open_error(self) -> BaseException | None:
        return self.session.open_error

    @property
    def tasks(self):
        return self.session.tasks

    @property
    def counts(self) -> dict[str, int | None]:
        return self.status.counts

    @property
    def counts_loaded(self) -> bool:
        return self.status.counts_loaded

    @property
    def tab_errors(self) -> list[str]:
        return self.tabs.errors

    # The status labels and the banners, by the names tests and dialogs know them by.
    path_label = _part("status", "path_label")
    schema_label = _part("status", "schema_label")
    mode_label = _part("status", "mode_label")
    live_label = _part("status", "live_label")
    counts_label = _part("status", "counts_label")
    integrity_label = _part("status", "integrity_label")
    jobs = _part("status", "jobs")
    banner = _part("banners", "mode")
    notice = _part("banners", "notice")

    # -- tabs -------------------------------------------------------------------------------------------
    def tab_names(self) -> list[str]:
        return self.tabs.names()

    @property
    def tabs_by_name(self) -> TabsByName:
        """Every tab by name; looking a tab up builds it."""
        return TabsByName(self.tabs)

    def built_tabs(self) -> list[BaseTab]:
        return self.tabs.built()

    def tab(self, name: str) -> BaseTab | None:
        return self.tabs.tab(name)

    def tab_at(self, index: int) -> BaseTab | None:
        return self.tabs.tab_at(index)

    def show_tab(self, name: str) -> BaseTab | None:
        return self.tabs.show(name)

    def refresh_current(self) -> None:
        self.tabs.refresh_current()
        self.status.load_counts()

    # -- the first paint ------------------------------------------------------------------------------
    def after_first_paint(self, fn: Callable[[], Any], latest_ms: int = 1000) -> None:
        """``fn()`` in the event-loop turn after the window's first paint (or after ``latest_ms`` if the
        window is not painted by then, e.g. started minimized): work that would compete with that paint
        for the interpreter, such as opening a database (imports on the task lane), waits for it."""
        if self._after_paint is None:
            QTimer.singleShot(0, self, fn)
            return
        once = [fn]

        def run() -> None:
            if once:
                once.pop()()

        self._after_paint.append(run)
        QTimer.singleShot(latest_ms, self, run)

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        if self._after_paint is not None:  # the first paint: the children are painted in this pass
            waiting, self._after_paint = self._after_paint, None
            for fn in waiting:
                QTimer.singleShot(0, self, fn)

    # -- language ---------------------------------------------------------------------------------------
    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        """The language changed: rebuild the texts made at run time (menus and labels switch by themselves)."""
        self.tabs.retitle()
        self._update_all()
        if self.pages.currentWidget() is self.start_page:
            self.show_start_page(*self._start_problem)

    def _update_all(self) -> None:
        self.status.update()
        self.banners.update_for(self.ctx, lambda: self.set_editing(False), self._reopen)
        self._update_title()
        self.menus.update()
        self.menus.update_undo()

    @property
    def is_demo(self) -> bool:
        """A generated demo database is open (badges and title say so)."""
        return self.ctx is not None and self.session.demo

    def _update_title(self) -> None:
        demo = self.is_demo
        for badge in (self.demo_badge, self.demo_status):
            badge.retranslate()
        self.demo_badge.setVisible(demo)
        if self.ctx is None:
            self.setWindowTitle(APP_NAME)
            return
        mode = self.tr("EDITING") if self.ctx.editing else self.tr("read-only")
        name = self.ctx.db_path.name
        if demo:
            name = self.tr("{0} (demo)").format(name)
        self.setWindowTitle(f"{name} [{mode}] — {APP_NAME}")

    # -- start page -------------------------------------------------------------------------------------
    def show_start_page(self, path: Path | None = None, problem: BaseException | None = None) -> None:
        self._start_problem = (path, problem)
        self.start_page.set_recent(self.settings.recent_files)
        self.start_page.set_demo_path(None)  # where "Create demo database…" saves now
        backup = None
        missing = isinstance(problem, DatabaseOpenError) and problem.problem == "missing"
        if problem is None and path is None:
            text = self.tr("No database is open.")
        elif problem is not None and not missing:
            from philont_desktop import messages  # a problem to word: not before the first paint

            text = self.tr("<b>This file cannot be opened.</b><br>{0}").format(
                html.escape(messages.error_text(problem))
            )
            if isinstance(problem, DatabaseOpenError) and problem.backup is not None:
                backup = str(problem.backup)
        else:
            text = self.tr("No memory database exists at <b>{0}</b> yet.").format(html.escape(str(path)))
        self.start_page.set_problem(text, backup, can_restore=not self.read_only)
        self.pages.setCurrentWidget(self.start_page)
        self._update_all()

    # -- opening ----------------------------------------------------------------------------------------
    def choose_and_open(self, *, editing: bool) -> None:
        start = self.settings.last_directory or str(resolve_db_path(None).parent)
        title = self.tr("Open for editing") if editing else self.tr("Open (read-only)")
        path, _ = QFileDialog.getOpenFileName(self, title, start, self.tr(DB_FILTER))
        if path:
            self.settings.last_directory = str(Path(path).parent)
            self.open_database(path, editing=editing)

    def _reopen(self) -> None:
        """Open the file now at the database's path (after the shown one was replaced on disk)."""
        if self.ctx is not None:
            self.open_database(self.ctx.db_path)

    def open_database(self, path: str | Path, *, editing: bool = False) -> Job:
        """Open ``path`` read-only in the background and show it (then turn editing on if asked)."""
        return self.session.open(path, editing=editing)

    def _on_opening(self, path: Path) -> None:
        self.loading_page.setText(self.tr("Opening {0}…").format(path))
        if self.ctx is None:
            self.pages.setCurrentWidget(self.loading_page)
        warm.while_opening()

    def _on_open_failed(self, path: str, exc: BaseException) -> None:
        self.openFailed.emit(path, exc)
        if self.ctx is not None:  # another database stays open
            if isinstance(exc, DatabaseOpenError) and exc.backup is not None:
                _recovery().offer_backup(
                    self, Path(path), exc
                )  # restore the backup it names, or open it read-only
            else:
                self.show_error(self.tr("The database cannot be opened"), exc)
            return
        self.show_start_page(Path(path), exc)
        missing = isinstance(exc, DatabaseOpenError) and exc.problem == "missing"
        if not missing and not self.interactive:
            self.show_error(self.tr("The database cannot be opened"), exc)

    def _on_opened(self, ctx: AppContext, editing: bool) -> None:
        self._editing_asked = editing
        ctx.error_parent = self
        ctx.navigator = Navigator(self.show_tab)
        ctx.editingChanged.connect(self._on_editing_changed)
        ctx.dataChanged.connect(self._on_data_changed)
        ctx.reportChanged.connect(self._on_report_changed)
        ctx.statusMessage.connect(lambda m: self.statusBar().showMessage(m, 8000))
        ctx.undo.stack.indexChanged.connect(lambda *_: self.menus.update_undo())
        ctx.undo.busyChanged.connect(lambda *_: self.menus.update_undo())
        ctx.undo.needsEditing.connect(self.menus.step_needs_editing)
        self.status.attach(ctx)
        self.tabs.build(ctx)
        self.pages.setCurrentWidget(self.db_page)
        self._update_all()
        self.databaseOpened.emit(ctx)

    def _on_started(self, ctx: AppContext) -> None:
        self.status.load_counts()
        if self._editing_asked:
            self.set_editing(True)
        if self.session.defer_quick_check:
            QTimer.singleShot(QUICK_CHECK_LATEST_MS, ctx, ctx.start_quick_check)
        self.tabs.start_prebuilding()

    def _start_quick_check(self) -> None:
        """The tabs are built: the database's quick_check now (nothing when it ran or runs)."""
        ctx = self.ctx
        if ctx is not None:
            ctx.start_quick_check()

    def close_database(self) -> None:
        """Close the open database (if any): save tab state, stop the workers, remove the tabs."""
        self.session.close()

    def _on_closed(self) -> None:
        self.status.attach(None)
        self.menus.update_undo()
        self.databaseClosed.emit()

    def close_database_to_start(self) -> None:
        self.close_database()
        self.show_start_page()

    # -- creating ---------------------------------------------------------------------------------------
    def choose_and_create_demo(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("Create demo database"), str(free_demo_path()), self.tr(DB_FILTER)
        )
        if path:
            self.create_demo(path)

    def choose_and_create_empty(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("Create empty database"), str(resolve_db_path(None)), self.tr(DB_FILTER)
        )
        if path:
            self.create_empty(path)

    def create_demo(
        self, path: str | Path, messages: int = DEMO_MESSAGES, *, open_after: bool = True
    ) -> Job | None:
        """Generate a demo database at ``path`` in the background (progress on the start page), then open it."""
        job = self.session.create_demo(path, messages, open_after=open_after)
        if job is not None:
            saved = self.tr("Demo database saved to {0}").format(Path(path).expanduser())
            job.done.connect(lambda: job.error is None and self.statusBar().showMessage(saved, 15000))
        return job

    def _on_creation_started(self, text: str) -> None:
        self.start_page.set_busy(text)
        self.pages.setCurrentWidget(self.start_page)

    def create_empty(self, path: str | Path, *, open_after: bool = True) -> Job:
        return self.session.create_empty(path, open_after=open_after)

    # -- editing ----------------------------------------------------------------------------------------
    def set_editing(self, on: bool, *, on_done: Callable[[bool], Any] | None = None) -> Job | None:
        """Turn editing mode on or off; ``on_done(state)`` when that is complete."""
        if self.ctx is None:
            return None
        job = self.ctx.set_editing(on, on_done=on_done)
        self.menus.update()
        if job is not None and on:
            self._progress_dialog(job, self.tr("Taking a backup before editing…"))
        return job

    def _on_editing_changed(self, on: bool) -> None:
        self.tabs.set_editing(on)
        self._update_all()

    # -- backups ----------------------------------------------------------------------------------------
    def backup_now(self) -> Job | None:
        ctx = self.ctx
        if ctx is None:
            return None
        job = self.session.backup(on_done=self._backup_written)
        if job is not None:
            self._progress_dialog(job, self.tr("Writing a backup of {0}…").format(ctx.db_path.name))
        return job

    def _backup_written(self, path: Path) -> None:
        msg = self.tr("Backup written to {0}").format(path)
        self.statusBar().showMessage(msg, 15000)
        if self.interactive:
            box = QMessageBox(
                QMessageBox.Icon.Information, self.tr("Backup now"), msg, QMessageBox.StandardButton.Ok, self
            )
            box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            box.open()

    def _progress_dialog(self, job: Job, text: str) -> None:
        if not self.interactive or job.is_done:
            return
        dlg = QProgressDialog(text, None, 0, 0, self)
        dlg.setWindowTitle(APP_NAME)
        dlg.setMinimumDuration(400)
        dlg.setWindowModality(Qt.WindowModality.WindowModal)
        dlg.setAutoClose(False)
        dlg.setAutoReset(False)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def _progress(done: int, total: int) -> None:
            if is_valid(dlg) and total > 0:
                dlg.setRange(0, total)
                dlg.setValue(min(done, total))

        job.progressed.connect(_progress)
        job.done.connect(lambda: is_valid(dlg) and dlg.close())
        dlg.setValue(0)

    # -- live refresh -----------------------------------------------------------------------------------
    def _on_data_changed(self) -> None:
        self.tabs.data_changed()
        self.status.schedule_counts()

    def _on_report_changed(self) -> None:
        self.status.update()
        self.banners.update_for(self.ctx, lambda: self.set_editing(False), self._reopen)
        self.menus.update()

    # -- appearance -------------------------------------------------------------------------------------
    def set_theme(self, mode: str) -> None:
        self.theme.set_mode(mode)
        if self.persist:
            self.settings.theme = mode
        if mode in self.theme_actions:
            self.theme_actions[mode].setChecked(True)

    def set_language(self, code: str) -> None:
        if self.persist:
            self.settings.language = code
        i18n.install(code)
        if code in self.language_actions:
            self.language_actions[code].setChecked(True)

    # -- dialogs ----------------------------------------------------------------------------------------
    def show_error(self, title: str, exc: BaseException | str) -> None:
        if self.ctx is not None:
            self.ctx.show_error(title, exc)
            return
        from philont_desktop.widgets.error_dialog import readable_message, show_error

        if self.interactive:
            show_error(title, exc, self)
        else:
            import sys

            print(f"{title}: {readable_message(exc)}", file=sys.stderr)

    def about_text(self) -> str:
        """The About dialog's rich text (versions and the open database): see :mod:`about_dialog`."""
        from philont_desktop.about_dialog import about_html

        ctx = self.ctx
        return about_html(
            ctx.report if ctx else None, ctx.db_path if ctx else None, bool(ctx and ctx.editing)
        )

    def show_about(self) -> None:
        from philont_desktop.about_dialog import show_about

        show_about(self)

    # -- closing ----------------------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        if self.persist:
            self.settings.geometry = self.saveGeometry()
            self.settings.window_state = self.saveState()
        self.session.shutdown(2000)
        if self.persist:
            self.settings.sync()
        super().closeEvent(event)


def app_instance() -> QApplication | None:
    app = QApplication.instance()
    return app if isinstance(app, QApplication) else None
