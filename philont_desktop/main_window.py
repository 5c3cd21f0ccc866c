"""The main window: start page, tabs, menus, banners and the status bar around one open database."""

from __future__ import annotations

import contextlib
import html
from collections.abc import Iterator, Mapping
from pathlib import Path

from core import MAX_KNOWN_SCHEMA_VERSION, MIN_KNOWN_SCHEMA_VERSION
from core.db import MemoryDB, OpenReport
from core.errors import DatabaseOpenError
from core.paths import resolve_db_path
from philont_desktop import APP_NAME, core_strings, i18n
from philont_desktop.backups import recovery
from philont_desktop.context import AppContext
from philont_desktop.qt import (
    QT_TRANSLATE_NOOP,
    QAction,
    QActionGroup,
    QApplication,
    QCloseEvent,
    QEvent,
    QFileDialog,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QIcon,
    QKeySequence,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QProgressDialog,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QStandardPaths,
    Qt,
    QTabWidget,
    QTimer,
    QToolButton,
    QVBoxLayout,
    QWidget,
    Signal,
    is_valid,
)
from philont_desktop.settings import Settings
from philont_desktop.tabs import TabEntry, TabRegistrationError, registry
from philont_desktop.tabs.base import BaseTab
from philont_desktop.tabs.navigation import Navigator
from philont_desktop.theme import Theme
from philont_desktop.workers import Job, Workers

DEMO_MESSAGES = 20_000
COUNTS_MIN_INTERVAL_MS = 5000
DB_FILTER = QT_TRANSLATE_NOOP("MainWindow", "SQLite databases (*.sqlite *.sqlite3 *.db);;All files (*)")


def ui_icon(name: str) -> QIcon:
    """A UI icon from the resources, or an empty icon when it is not available."""
    try:
        from philont_desktop.resources import icon

        return icon(name)
    except Exception:  # a missing icon must never stop the window from opening
        return QIcon()


def demo_default_path() -> Path:
    """Where ``--demo`` and "Create demo database" put the demo by default (the user data dir)."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    if not base:
        base = str(Path.home() / ".local" / "share" / APP_NAME)
    return Path(base) / "demo" / "memory.sqlite"


def _open_report(path: Path) -> OpenReport:
    db = MemoryDB.open(path, check=False)
    try:
        return db.report
    finally:
        db.close()


def _create_empty(path: Path) -> Path:
    MemoryDB.create(path).close()
    return path


DEMO_PHASES = 9  # plan, schedules, messages, fts, skills, actions, facts, notes, calendar


def _generate_demo(path: Path, messages: int, job: Job) -> Path:
    from core import demo

    seen: list[str] = []

    def _progress(phase: str, done: int, total: int) -> None:
        job.raise_if_cancelled()
        if phase not in seen:
            seen.append(phase)
        fraction = done / total if total else 1.0
        job.progress(int(1000 * (len(seen) - 1 + fraction)), 1000 * max(DEMO_PHASES, len(seen)))

    demo.generate(path, messages=messages, progress=_progress)
    return path


def _estimate_counts(db: MemoryDB) -> dict[str, int | None]:
    """Cheap row counts for the status bar (max(rowid)-based on the big tables; never a scan of them).

    A layer whose table is missing or unreadable is left out.
    """
    from core.actions import ActionStore
    from core.facts import FactStore
    from core.notes import NotesStore
    from core.skills import SkillStore
    from core.timeline import RawStore

    probes = {
        "messages": lambda: RawStore(db).count_estimate(),
        "actions": lambda: ActionStore(db).latest_id() or 0,
        "notes": lambda: NotesStore(db).count(),
        "facts": lambda: FactStore(db).count(),
        "skills": lambda: SkillStore(db).count(),
    }
    out: dict[str, int | None] = {}
    for key, probe in probes.items():
        try:
            out[key] = int(probe())
        except Exception:  # a damaged or partial database: show what can be counted
            out[key] = None
    return out


def _backup(db: MemoryDB, job: Job) -> Path:
    return db.backup(progress=job.progress)


# --------------------------------------------------------------------------------------------------
# Pieces of the window
# --------------------------------------------------------------------------------------------------


class Banner(QFrame):
    """A coloured line above the tabs: editing mode, read-only reason, warnings."""

    def __init__(self, theme: Theme, parent: QWidget | None = None):
        super().__init__(parent)
        self.theme = theme
        self.kind = "info"
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.button = QPushButton()
        self.button.setVisible(False)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.button)
        self._callback = None
        self.button.clicked.connect(self._clicked)
        theme.changed.connect(self._restyle)
        self.setVisible(False)

    def show_message(self, kind: str, text_html: str, button: str | None = None, on_click=None) -> None:
        self.kind = kind
        self.label.setText(text_html)
        self.button.setVisible(button is not None)
        if button is not None:
            self.button.setText(button)
        self._callback = on_click
        self._restyle()
        self.setVisible(True)

    def text(self) -> str:
        return self.label.text()

    def _clicked(self) -> None:
        if self._callback is not None:
            self._callback()

    def _restyle(self) -> None:
        if not is_valid(self):
            return
        bg, fg, border = self.theme.banner_colors(self.kind)
        self.setStyleSheet(
            f"Banner {{ background-color: {bg.name()}; border: 1px solid {border.name()}; border-radius: 4px; }}"
            f"Banner QLabel {{ color: {fg.name()}; background: transparent; border: none; }}"
        )


class StartPage(QWidget):
    """Shown when no database is open: open a file, create a demo or an empty database, recent files."""

    openRequested = Signal()
    demoRequested = Signal()
    emptyRequested = Signal()
    recentChosen = Signal(str)
    backupChosen = Signal(str)  # open the newest good backup read-only
    restoreChosen = Signal(str)  # restore it over the file that cannot be opened
    cancelRequested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("startPage")
        title = QLabel(f"<span style='font-size:20pt; font-weight:600'>{APP_NAME}</span>")
        subtitle = QLabel(self.tr("Inspect and curate the memory of a Philont agent — also while it runs."))
        subtitle.setWordWrap(True)
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.problem.setTextFormat(Qt.TextFormat.RichText)

        self.open_button = self._big_button(self.tr("Open file…"), "open", self.openRequested)
        self.demo_button = self._big_button(self.tr("Create demo database…"), "refresh", self.demoRequested)
        self.empty_button = self._big_button(self.tr("Create empty database…"), "edit", self.emptyRequested)
        self.backup_button = QPushButton(ui_icon("open"), self.tr("Open the backup read-only"))
        self.backup_button.clicked.connect(lambda: self.backupChosen.emit(self._backup or ""))
        self.restore_button = QPushButton(ui_icon("undo"), self.tr("Restore this backup…"))
        self.restore_button.clicked.connect(lambda: self.restoreChosen.emit(self._backup or ""))
        self.backup_box = QWidget()
        backup_row = QHBoxLayout(self.backup_box)
        backup_row.setContentsMargins(0, 0, 0, 0)
        backup_row.addWidget(self.restore_button)
        backup_row.addWidget(self.backup_button)
        backup_row.addStretch(1)
        self.backup_box.setVisible(False)
        self._backup: str | None = None

        self.recent_label = QLabel(f"<b>{self.tr('Recent files')}</b>")
        self.recent = QListWidget()
        self.recent.setMaximumHeight(200)
        self.recent.itemActivated.connect(
            lambda item: self.recentChosen.emit(item.data(Qt.ItemDataRole.UserRole))
        )

        self.busy_label = QLabel()
        self.busy_bar = QProgressBar()
        self.busy_cancel = QPushButton(self.tr("Cancel"))
        self.busy_cancel.clicked.connect(self.cancelRequested)
        busy = QHBoxLayout()
        busy.addWidget(self.busy_bar, 1)
        busy.addWidget(self.busy_cancel)
        self.busy_box = QWidget()
        bl = QVBoxLayout(self.busy_box)
        bl.setContentsMargins(0, 0, 0, 0)
        bl.addWidget(self.busy_label)
        bl.addLayout(busy)
        self.busy_box.setVisible(False)

        self.demo_hint = QLabel()
        self.demo_hint.setWordWrap(True)
        self.set_demo_path(None)
        choices = QGridLayout()
        choices.setHorizontalSpacing(16)
        choices.setVerticalSpacing(10)
        for row, (button, hint) in enumerate(
            (
                (
                    self.open_button,
                    QLabel(
                        self.tr(
                            "Browse an existing memory database. Nothing in it changes until you turn on editing mode."
                        )
                    ),
                ),
                (self.demo_button, self.demo_hint),
                (
                    self.empty_button,
                    QLabel(self.tr("A new memory database with the full schema, for the agent to fill.")),
                ),
            )
        ):
            hint.setWordWrap(True)
            choices.addWidget(button, row, 0)
            choices.addWidget(hint, row, 1)
        choices.setColumnStretch(1, 1)

        heading = QHBoxLayout()
        self.logo = QLabel()
        with contextlib.suppress(Exception):
            from philont_desktop.resources import app_icon

            self.logo.setPixmap(app_icon().pixmap(56, 56))
        heading.addWidget(self.logo)
        titles = QVBoxLayout()
        titles.addWidget(title)
        titles.addWidget(subtitle)
        heading.addLayout(titles, 1)

        column = QVBoxLayout()
        column.addLayout(heading)
        column.addSpacing(16)
        column.addWidget(self.problem)
        column.addWidget(self.backup_box)
        column.addSpacing(12)
        column.addLayout(choices)
        column.addWidget(self.busy_box)
        column.addSpacing(16)
        column.addWidget(self.recent_label)
        column.addWidget(self.recent)
        column.addStretch(1)

        box = QWidget()
        box.setLayout(column)
        box.setMaximumWidth(760)
        outer = QHBoxLayout(self)
        outer.addStretch(1)
        outer.addWidget(box, 4)
        outer.addStretch(1)
        outer.setContentsMargins(24, 32, 24, 24)

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.recent_label.setText(f"<b>{self.tr('Recent files')}</b>")
            self.set_demo_path(self._demo_path)
        super().changeEvent(event)

    def _big_button(self, text: str, icon: str, signal) -> QPushButton:
        b = QPushButton(ui_icon(icon), text)
        b.setMinimumHeight(36)
        b.setMinimumWidth(220)
        b.setStyleSheet("text-align: left; padding-left: 12px;")
        b.clicked.connect(signal)
        return b

    def set_demo_path(self, path: Path | None) -> None:
        self._demo_path = path
        where = str(path or demo_default_path())
        self.demo_hint.setText(
            self.tr(
                "A generated memory of a few months of English and Chinese conversations, to try the app (default location: {0})."
            ).format(where)
        )

    def set_problem(self, text_html: str, backup: str | None = None, *, can_restore: bool = True) -> None:
        self.problem.setText(text_html)
        self._backup = backup
        self.backup_box.setVisible(bool(backup))
        if backup:
            self.restore_button.setEnabled(can_restore)
            self.restore_button.setToolTip(
                self.tr(
                    "Replace the file with this backup; the file is kept, unchanged, in the backups folder."
                )
                if can_restore
                else self.tr("Not possible: the app was started read-only.")
            )
            self.backup_button.setToolTip(
                self.tr("Look at {0} in a new window, changing nothing.").format(backup)
            )

    def set_recent(self, files: list[str]) -> None:
        self.recent.clear()
        for f in files:
            item = QListWidgetItem(f)
            item.setData(Qt.ItemDataRole.UserRole, f)
            if not Path(f).exists():
                item.setToolTip(self.tr("This file does not exist any more."))
                item.setForeground(self.palette().color(self.palette().ColorRole.PlaceholderText))
            self.recent.addItem(item)
        self.recent_label.setVisible(bool(files))
        self.recent.setVisible(bool(files))

    def set_busy(self, text: str | None) -> None:
        self.busy_box.setVisible(text is not None)
        for b in (self.open_button, self.demo_button, self.empty_button):
            b.setEnabled(text is None)
        if text is not None:
            self.busy_label.setText(text)
            self.busy_bar.setRange(0, 0)

    def set_progress(self, done: int, total: int) -> None:
        if total > 0:
            self.busy_bar.setRange(0, total)
            self.busy_bar.setValue(min(done, total))


class JobIndicator(QWidget):
    """Status-bar progress of long jobs (``progress=True``) with a cancel button."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.label = QLabel()
        self.bar = QProgressBar()
        self.bar.setMaximumWidth(140)
        self.bar.setMaximumHeight(14)
        self.bar.setTextVisible(False)
        self.cancel = QToolButton()
        self.cancel.setText("✕")
        self.cancel.setToolTip(self.tr("Cancel"))
        self.cancel.clicked.connect(self._cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        layout.addWidget(self.cancel)
        self._jobs: list[Job] = []
        self.setVisible(False)

    def attach(self, workers: Workers) -> None:
        """Follow the progress jobs of ``workers`` (connected once; jobs are passed, never captured)."""
        workers.jobStarted.connect(self.track)
        workers.jobProgress.connect(self.on_progress)
        workers.jobDone.connect(self.on_done)

    def track(self, job: Job) -> None:
        if job.is_done or job in self._jobs:
            return
        self._jobs.append(job)
        self._show()

    def on_progress(self, job: Job, done: int, total: int) -> None:
        if self._jobs and self._jobs[-1] is job and total > 0:
            self.bar.setRange(0, total)
            self.bar.setValue(min(done, total))

    def on_done(self, job: Job) -> None:
        if job in self._jobs:
            self._jobs.remove(job)
            self._show()

    def _show(self) -> None:
        if not self._jobs:
            self.setVisible(False)
            return
        job = self._jobs[-1]
        self.label.setText(job.label or self.tr("Working…"))
        self.bar.setRange(0, 0)
        if job.last_progress and job.last_progress[1] > 0:
            self.bar.setRange(0, job.last_progress[1])
            self.bar.setValue(job.last_progress[0])
        self.cancel.setVisible(job.lane in ("read", "task"))
        self.setVisible(True)

    def _cancel(self) -> None:
        if self._jobs:
            self._jobs[-1].cancel()


class ErrorTab(BaseTab):
    """Stands in for a tab that failed to load, saying why."""

    name = "error"

    def __init__(self, ctx: AppContext, tab_name: str, message: str, parent: QWidget | None = None):
        super().__init__(ctx, parent)
        self.name = tab_name
        self.load_error = message
        label = QLabel(self.tr("This tab could not be loaded:\n\n{0}").format(message))
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.addWidget(label)
        layout.addStretch(1)


class TabSlot(QWidget):
    """Holds a tab's place (and title) in the tab bar until the tab is built (:meth:`MainWindow.tab`)."""

    def __init__(self, entry: TabEntry, parent: QWidget | None = None):
        super().__init__(parent)
        self.entry = entry
        self.name = entry.name
        self.setObjectName(f"{entry.name}Slot")

    def title(self) -> str:
        return self.entry.title()


class TabsByName(Mapping):
    """``MainWindow.tabs_by_name``: every tab by name; looking one up builds it when it is not built yet.

    Iterating gives the names in display order without building anything; ``values()`` builds them all.
    """

    def __init__(self, window: MainWindow):
        self._window = window

    def __getitem__(self, name: str) -> BaseTab:
        tab = self._window.tab(name)
        if tab is None:
            raise KeyError(name)
        return tab

    def __contains__(self, name: object) -> bool:
        return name in self._window.tab_names()

    def __iter__(self) -> Iterator[str]:
        return iter(self._window.tab_names())

    def __len__(self) -> int:
        return len(self._window.tab_names())


# --------------------------------------------------------------------------------------------------
# The window
# --------------------------------------------------------------------------------------------------


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
        self.settings = settings
        self.theme = theme
        self.read_only = read_only
        self.interactive = interactive
        self.persist = interactive  # save geometry & co. on close
        self.live_interval_ms = live_interval_ms
        self.ctx: AppContext | None = None
        self._tabs: dict[str, BaseTab] = {}  # the tabs built so far (the others are TabSlots)
        self.tab_errors: list[str] = []
        # Build the tabs not shown yet in idle time, one per event-loop turn, once the shown tab is idle.
        self.prebuild_tabs = interactive
        self._prebuild_timer = QTimer(self)
        self._prebuild_timer.setSingleShot(True)
        self._prebuild_timer.timeout.connect(self._prebuild_next)
        self.open_error: BaseException | None = None
        self.opening: Path | None = None
        self._start_problem: tuple[Path | None, BaseException | None] = (None, None)
        self.counts: dict[str, int | None] = {}
        self._stale: set[BaseTab] = set()
        self._counts_pending = False
        self._counts_timer = QTimer(self)
        self._counts_timer.setSingleShot(True)
        self._counts_timer.timeout.connect(self._load_counts)
        self._creating: Job | None = None
        self.tasks = Workers(None, parent=self)
        self.tasks.unhandledError.connect(lambda job, exc: self.show_error(job.label, exc))

        with contextlib.suppress(Exception):
            from philont_desktop.resources import app_icon

            self.setWindowIcon(app_icon())

        # pages
        self.start_page = StartPage()
        self.start_page.openRequested.connect(lambda: self.choose_and_open(editing=False))
        self.start_page.demoRequested.connect(self.choose_and_create_demo)
        self.start_page.emptyRequested.connect(self.choose_and_create_empty)
        self.start_page.recentChosen.connect(lambda p: self.open_database(p))
        self.start_page.backupChosen.connect(lambda p: recovery.open_backup_window(self, p))
        self.start_page.restoreChosen.connect(lambda p: recovery.restore_over_start_problem(self, p))
        self.start_page.cancelRequested.connect(self._cancel_creation)
        self.loading_page = QLabel()
        self.loading_page.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.tab_widget = QTabWidget()
        self.tab_widget.setDocumentMode(True)
        self.tab_widget.currentChanged.connect(self._on_tab_changed)
        self.banner = Banner(theme)
        self.notice = Banner(theme)
        db_page = QWidget()
        dl = QVBoxLayout(db_page)
        dl.setContentsMargins(6, 6, 6, 0)
        dl.setSpacing(6)
        dl.addWidget(self.banner)
        dl.addWidget(self.notice)
        dl.addWidget(self.tab_widget, 1)
        self.db_page = db_page
        self.pages = QStackedWidget()
        for page in (self.start_page, self.loading_page, self.db_page):
            self.pages.addWidget(page)
        self.setCentralWidget(self.pages)

        self._build_status_bar()
        self._build_menus()
        theme.changed.connect(self._update_status)
        self.resize(1280, 820)
        if self.persist and settings.geometry:
            self.restoreGeometry(settings.geometry)
        if self.persist and settings.window_state:
            self.restoreState(settings.window_state)
        self.show_start_page()

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        """The language changed: rebuild the texts made at run time (menus and labels switch by themselves)."""
        for index in range(self.tab_widget.count()):
            page = self.tab_widget.widget(index)
            if isinstance(page, BaseTab | TabSlot):
                self.tab_widget.setTabText(index, page.title())
        self._update_status()
        self._update_banners()
        self._update_title()
        self._update_actions()
        self._update_undo_actions()
        if self.pages.currentWidget() is self.start_page:
            self.show_start_page(*self._start_problem)

    # -- menus ----------------------------------------------------------------------------------------
    def _build_menus(self) -> None:
        mb = self.menuBar()
        file_menu = mb.addMenu(self.tr("&File"))
        self.action_open = QAction(ui_icon("open"), self.tr("&Open (read-only)…"), self)
        self.action_open.setShortcut(QKeySequence.StandardKey.Open)
        self.action_open.triggered.connect(lambda: self.choose_and_open(editing=False))
        self.action_open_edit = QAction(ui_icon("edit"), self.tr("Open for &editing…"), self)
        self.action_open_edit.setShortcut(QKeySequence("Ctrl+Shift+O"))
        self.action_open_edit.triggered.connect(lambda: self.choose_and_open(editing=True))
        self.action_open_edit.setEnabled(not self.read_only)
        self.recent_menu = file_menu.addMenu(self.tr("&Recent files"))
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        self.action_backup = QAction(ui_icon("backup"), self.tr("&Backup now"), self)
        self.action_backup.setShortcut(QKeySequence("Ctrl+B"))
        self.action_backup.triggered.connect(self.backup_now)
        self.action_close_db = QAction(self.tr("&Close database"), self)
        self.action_close_db.setShortcut(QKeySequence.StandardKey.Close)
        self.action_close_db.triggered.connect(self.close_database_to_start)
        self.action_quit = QAction(self.tr("&Quit"), self)
        self.action_quit.setShortcut(QKeySequence.StandardKey.Quit)
        self.action_quit.setMenuRole(QAction.MenuRole.QuitRole)
        self.action_quit.triggered.connect(self.close)
        file_menu.insertAction(self.recent_menu.menuAction(), self.action_open)
        file_menu.insertAction(self.recent_menu.menuAction(), self.action_open_edit)
        file_menu.addSeparator()
        file_menu.addAction(self.action_backup)
        file_menu.addAction(self.action_close_db)
        file_menu.addSeparator()
        file_menu.addAction(self.action_quit)

        self.edit_menu = mb.addMenu(self.tr("&Edit"))
        self.action_undo = QAction(ui_icon("undo"), self.tr("&Undo"), self)
        self.action_undo.setShortcut(QKeySequence.StandardKey.Undo)
        self.action_undo.setEnabled(False)
        self.action_redo = QAction(ui_icon("redo"), self.tr("&Redo"), self)
        self.action_redo.setShortcut(QKeySequence.StandardKey.Redo)
        self.action_redo.setEnabled(False)
        self.action_undo.triggered.connect(lambda: self.ctx is not None and self.ctx.undo.undo())
        self.action_redo.triggered.connect(lambda: self.ctx is not None and self.ctx.undo.redo())
        self.edit_menu.addAction(self.action_undo)
        self.edit_menu.addAction(self.action_redo)
        self.edit_menu.addSeparator()
        self.action_editing = QAction(ui_icon("edit"), self.tr("&Editing mode"), self)
        self.action_editing.setCheckable(True)
        self.action_editing.setShortcut(QKeySequence("Ctrl+E"))
        self.action_editing.toggled.connect(self._editing_toggled)
        self.edit_menu.addAction(self.action_editing)

        view = mb.addMenu(self.tr("&View"))
        theme_menu = view.addMenu(self.tr("&Theme"))
        group = QActionGroup(self)
        self.theme_actions: dict[str, QAction] = {}
        for mode, text in (
            ("system", self.tr("Follow &system")),
            ("light", self.tr("&Light")),
            ("dark", self.tr("&Dark")),
        ):
            a = QAction(text, self, checkable=True)
            a.setChecked(self.theme.mode == mode)
            a.triggered.connect(lambda _=False, m=mode: self.set_theme(m))
            group.addAction(a)
            theme_menu.addAction(a)
            self.theme_actions[mode] = a
        lang_menu = view.addMenu(self.tr("&Language"))
        lang_group = QActionGroup(self)
        self.language_actions: dict[str, QAction] = {}
        for code, text in (("", self.tr("Follow system")), *i18n.LANGUAGES.items()):
            a = QAction(text, self, checkable=True)
            a.setChecked(self.settings.language == code)
            a.triggered.connect(lambda _=False, c=code: self.set_language(c))
            lang_group.addAction(a)
            lang_menu.addAction(a)
            self.language_actions[code] = a
        view.addSeparator()
        self.action_audit = QAction(self.tr("&Audit log"), self)
        self.action_audit.setShortcut(QKeySequence("Ctrl+Shift+A"))
        self.action_audit.triggered.connect(lambda: self.show_tab("audit"))
        view.addAction(self.action_audit)
        self.action_refresh = QAction(ui_icon("refresh"), self.tr("&Refresh"), self)
        self.action_refresh.setShortcut(QKeySequence.StandardKey.Refresh)
        self.action_refresh.triggered.connect(self._refresh_current)
        view.addAction(self.action_refresh)

        help_menu = mb.addMenu(self.tr("&Help"))
        about = QAction(self.tr("&About {0}").format(APP_NAME), self)
        about.setMenuRole(QAction.MenuRole.AboutRole)
        about.triggered.connect(self.show_about)
        help_menu.addAction(about)
        # Hook: File › Export… (export_dialog.py); Help › Keyboard shortcuts, Find, Ctrl+1..9 and the
        # missing standard keys (help_dialog.py).
        from philont_desktop import export_dialog, help_dialog

        export_dialog.install(self, file_menu)
        help_dialog.install(self, help_menu, view)
        self._update_actions()

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        files = self.settings.recent_files
        for f in files:
            a = self.recent_menu.addAction(f)
            a.setEnabled(Path(f).exists())
            a.triggered.connect(lambda _=False, p=f: self.open_database(p))
        if not files:
            a = self.recent_menu.addAction(self.tr("(none)"))
            a.setEnabled(False)
        else:
            self.recent_menu.addSeparator()
            clear = self.recent_menu.addAction(self.tr("Clear list"))
            clear.triggered.connect(self.settings.clear_recent_files)

    # -- status bar ------------------------------------------------------------------------------------
    def _build_status_bar(self) -> None:
        sb = self.statusBar()
        self.path_label = QLabel()
        self.path_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.path_label.setMinimumWidth(120)
        self.schema_label = QLabel()
        self.mode_label = QLabel()
        self.live_label = QLabel()
        self.counts_label = QLabel()
        self.integrity_label = QLabel()
        self.jobs = JobIndicator()
        for w in (
            self.schema_label,
            self.mode_label,
            self.live_label,
            self.counts_label,
            self.integrity_label,
        ):
            w.setContentsMargins(10, 0, 2, 0)
        sb.addWidget(self.path_label, 1)
        for w in (
            self.jobs,
            self.counts_label,
            self.schema_label,
            self.integrity_label,
            self.mode_label,
            self.live_label,
        ):
            sb.addPermanentWidget(w)

    def _update_status(self) -> None:
        ctx = self.ctx
        labels = (
            self.schema_label,
            self.mode_label,
            self.live_label,
            self.counts_label,
            self.integrity_label,
        )
        if ctx is None:
            for w in labels:
                w.setVisible(False)
            self.path_label.setText("")
            return
        for w in labels:
            w.setVisible(True)
        r = ctx.report
        self.path_label.setText(str(ctx.db_path))
        self.path_label.setToolTip(str(ctx.db_path))
        v = r.schema_version
        schema = self.tr("schema {0}").format(v if v is not None else "?")
        if r.schema_status == "newer":
            schema += " " + self.tr("(newer)")
        self.schema_label.setText(schema)
        self.schema_label.setToolTip(
            self.tr("Schema version of the file; this version understands {0}. Journal: {1}.").format(
                f"{MIN_KNOWN_SCHEMA_VERSION}–{MAX_KNOWN_SCHEMA_VERSION}", r.journal_mode or "?"
            )
        )
        if ctx.editing:
            c = self.theme.status_color("editing").name()
            self.mode_label.setText(f"<b style='color:{c}'>{html.escape(self.tr('EDITING'))}</b>")
            self.mode_label.setToolTip(self.tr("Changes are written to the database and audited."))
        else:
            self.mode_label.setText(self.tr("read-only"))
            self.mode_label.setToolTip(
                ctx.read_only_reason or self.tr("Turn on editing mode to make changes.")
            )
        state, detail = ctx.live.state, ctx.live.detail
        text = {
            "live": self.tr("live"),
            "changed": self.tr("changed"),
            "starting": self.tr("live"),
            "paused": self.tr("paused"),
            "static": self.tr("not live"),
            "error": self.tr("live: error"),
        }.get(state, state)
        color = self.theme.status_color({"starting": "live", "static": "paused"}.get(state, state)).name()
        self.live_label.setText(f"<span style='color:{color}'>●</span> {html.escape(text)}")
        self.live_label.setToolTip(detail)
        q = r.quick_check
        if q is None:
            self.integrity_label.setText(self.tr("checking…"))
            self.integrity_label.setToolTip(self.tr("quick_check is running in the background."))
        elif q == "ok":
            self.integrity_label.setText(self.tr("integrity ok"))
            self.integrity_label.setToolTip(self.tr("PRAGMA quick_check: ok"))
        else:
            c = self.theme.status_color("error").name()
            self.integrity_label.setText(f"<b style='color:{c}'>{html.escape(self.tr('damaged'))}</b>")
            self.integrity_label.setToolTip(q)
        self._update_counts_label()

    def _update_counts_label(self) -> None:
        names = {
            "messages": self.tr("messages"),
            "actions": self.tr("actions"),
            "notes": self.tr("notes"),
            "facts": self.tr("facts"),
            "skills": self.tr("skills"),
        }
        parts = [
            f"{names[k]} {'~' if k in ('messages', 'actions') else ''}{v:,}"
            for k, v in self.counts.items()
            if v is not None and k in names
        ]
        self.counts_label.setText(" · ".join(parts))
        self.counts_label.setToolTip(
            self.tr("Row counts (~: estimated from the highest row id, without counting the table).")
        )

    def _load_counts(self) -> None:
        if self.ctx is None or self._counts_pending:
            return
        self._counts_pending = True
        ctx = self.ctx

        def _got(counts: dict[str, int | None]) -> None:
            self._counts_pending = False
            if ctx is self.ctx:
                self.counts = counts
                self._update_counts_label()

        def _failed(exc: BaseException) -> None:
            self._counts_pending = False

        ctx.run(_estimate_counts, on_result=_got, on_error=_failed, lane="monitor", label="counts")

    def _schedule_counts(self) -> None:
        if not self._counts_timer.isActive():
            self._counts_timer.start(COUNTS_MIN_INTERVAL_MS)

    @property
    def counts_loaded(self) -> bool:
        return bool(self.counts) and not self._counts_pending

    # -- banners & title -------------------------------------------------------------------------------
    def _update_banners(self) -> None:
        ctx = self.ctx
        if ctx is None:
            self.banner.setVisible(False)
            self.notice.setVisible(False)
            return
        if ctx.editing:
            where = html.escape(str(ctx.last_backup)) if ctx.last_backup else self.tr("not needed (new file)")
            self.banner.show_message(
                "editing",
                self.tr(
                    "<b>Editing mode.</b> Changes are written to this database and recorded in its audit "
                    "log. A backup was taken first: {0}"
                ).format(where),
                self.tr("Stop editing"),
                lambda: self.set_editing(False),
            )
        elif ctx.report.read_only_reason:
            self.banner.show_message(
                "readonly",
                self.tr("<b>Read-only.</b> This database cannot be edited here: {0}.").format(
                    html.escape(core_strings.read_only_reason(ctx.report.read_only_reason) or "")
                ),
            )
        else:
            self.banner.setVisible(False)
        if ctx.report.warnings:
            self.notice.show_message(
                "info", "<br>".join(html.escape(core_strings.message(w)) for w in ctx.report.warnings)
            )
        else:
            self.notice.setVisible(False)

    def _update_title(self) -> None:
        if self.ctx is None:
            self.setWindowTitle(APP_NAME)
            return
        mode = self.tr("EDITING") if self.ctx.editing else self.tr("read-only")
        self.setWindowTitle(f"{self.ctx.db_path.name} [{mode}] — {APP_NAME}")

    def _update_actions(self) -> None:
        has = self.ctx is not None
        self.action_backup.setEnabled(has)
        self.action_close_db.setEnabled(has)
        self.action_refresh.setEnabled(has)
        self.action_audit.setEnabled(has and "audit" in self.tabs_by_name)
        can_edit = has and self.ctx.can_edit and not self.ctx.editing_busy
        self.action_editing.setEnabled(bool(can_edit) or bool(has and self.ctx.editing))
        self.action_editing.setToolTip(
            self.ctx.read_only_reason or "" if has and self.ctx.read_only_reason else self.tr("Editing mode")
        )
        self.action_editing.blockSignals(True)
        self.action_editing.setChecked(bool(has and self.ctx.editing))
        self.action_editing.blockSignals(False)

    # -- start page -----------------------------------------------------------------------------------
    def show_start_page(self, path: Path | None = None, problem: BaseException | None = None) -> None:
        self._start_problem = (path, problem)
        self.start_page.set_recent(self.settings.recent_files)
        backup = None
        if problem is None and path is None:
            text = self.tr("No database is open.")
        elif isinstance(problem, DatabaseOpenError) and problem.problem == "missing":
            text = self.tr("No memory database exists at <b>{0}</b> yet.").format(html.escape(str(path)))
        elif problem is not None:
            text = self.tr("<b>This file cannot be opened.</b><br>{0}").format(
                html.escape(core_strings.message(str(problem)))
            )
            if isinstance(problem, DatabaseOpenError) and problem.backup is not None:
                backup = str(problem.backup)
        else:
            text = self.tr("No memory database exists at <b>{0}</b> yet.").format(html.escape(str(path)))
        self.start_page.set_problem(text, backup, can_restore=not self.read_only)
        self.pages.setCurrentWidget(self.start_page)
        self._update_status()
        self._update_title()
        self._update_actions()

    # -- opening --------------------------------------------------------------------------------------
    def choose_and_open(self, *, editing: bool) -> None:
        start = self.settings.last_directory or str(resolve_db_path(None).parent)
        title = self.tr("Open for editing") if editing else self.tr("Open (read-only)")
        path, _ = QFileDialog.getOpenFileName(self, title, start, self.tr(DB_FILTER))
        if path:
            self.settings.last_directory = str(Path(path).parent)
            self.open_database(path, editing=editing)

    def open_database(self, path: str | Path, *, editing: bool = False) -> Job:
        """Open ``path`` read-only in the background and show it (then turn editing on if asked)."""
        path = Path(path).expanduser()
        self.opening = path
        self.open_error = None
        self.loading_page.setText(self.tr("Opening {0}…").format(path))
        if self.ctx is None:
            self.pages.setCurrentWidget(self.loading_page)
        return self.tasks.task(
            _open_report,
            path,
            on_result=lambda report: self._opened(path, report, editing),
            on_error=lambda exc: self._open_failed(path, exc),
            label=self.tr("Opening {0}").format(path.name),
        )

    def _open_failed(self, path: Path, exc: BaseException) -> None:
        self.opening = None
        self.open_error = exc
        self.openFailed.emit(str(path), exc)
        if self.ctx is not None:  # another database stays open
            if isinstance(exc, DatabaseOpenError) and exc.backup is not None:
                recovery.offer_backup(self, path, exc)  # restore the backup it names, or open it read-only
            else:
                self.show_error(self.tr("The database cannot be opened"), exc)
            return
        self.show_start_page(path, exc)
        missing = isinstance(exc, DatabaseOpenError) and exc.problem == "missing"
        if not missing and not self.interactive:
            self.show_error(self.tr("The database cannot be opened"), exc)

    def _opened(self, path: Path, report: OpenReport, editing: bool) -> None:
        self.close_database()
        self.opening = None
        ctx = AppContext(
            path,
            report,
            settings=self.settings,
            theme=self.theme,
            read_only=self.read_only,
            interactive=self.interactive,
            live_interval_ms=self.live_interval_ms,
            parent=self,
        )
        ctx.error_parent = self
        ctx.navigator = Navigator(self.show_tab)
        self.ctx = ctx
        self.counts = {}
        ctx.editingChanged.connect(self._on_editing_changed)
        ctx.dataChanged.connect(self._on_data_changed)
        ctx.reportChanged.connect(self._on_report_changed)
        ctx.statusMessage.connect(lambda m: self.statusBar().showMessage(m, 8000))
        ctx.live.stateChanged.connect(lambda *_: self._update_status())
        self.jobs.attach(ctx.workers)
        ctx.undo.stack.indexChanged.connect(lambda *_: self._update_undo_actions())
        ctx.undo.busyChanged.connect(lambda *_: self._update_undo_actions())

        self._build_tabs(ctx)
        self.pages.setCurrentWidget(self.db_page)
        if self.interactive:
            self.settings.add_recent_file(path)
            self.settings.last_database = str(path.absolute())
        self._update_status()
        self._update_banners()
        self._update_title()
        self._update_actions()
        self._update_undo_actions()
        current = self.tab_widget.currentWidget()
        if isinstance(current, BaseTab):
            current.ensure_activated()
        # After the first paint: live polling, the one quick_check, the counts.
        QTimer.singleShot(0, lambda: self._start_context(ctx, editing))
        self.databaseOpened.emit(ctx)

    def _start_context(self, ctx: AppContext, editing: bool) -> None:
        if ctx is not self.ctx or ctx.closed:
            return
        ctx.start()
        self._load_counts()
        if editing:
            self.set_editing(True)
        if self.prebuild_tabs:
            self._prebuild_timer.start(0)

    def _build_tabs(self, ctx: AppContext) -> None:
        """Put every tab's title in the tab bar and build the tab shown first (the others when needed)."""
        self.tab_widget.blockSignals(True)
        self.tab_errors = []
        for entry in registry():
            slot = TabSlot(entry)
            self.tab_widget.addTab(slot, slot.title())
        wanted = self.settings.current_tab if self.persist else ""
        names = self.tab_names()
        preferred = registry().home_for(ctx.db_path)  # the Review tab, for a database reviewed before
        if preferred is not None:
            wanted = preferred.name
        if wanted not in names:
            home = registry().home()
            wanted = home.name if home is not None else ""
        self.tab_widget.setCurrentIndex(names.index(wanted) if wanted in names else 0)
        self.tab_widget.blockSignals(False)
        self.tab_at(self.tab_widget.currentIndex())

    def tab_names(self) -> list[str]:
        """The names of the tabs in display order, built or not."""
        names = []
        for i in range(self.tab_widget.count()):
            page = self.tab_widget.widget(i)
            if isinstance(page, BaseTab | TabSlot):
                names.append(page.name)
        return names

    @property
    def tabs_by_name(self) -> TabsByName:
        """Every tab by name; looking a tab up builds it (see :meth:`tab`)."""
        return TabsByName(self)

    def built_tabs(self) -> list[BaseTab]:
        """The tabs built so far, in display order."""
        return [t for t in self._tabs.values() if is_valid(t)]

    def tab(self, name: str) -> BaseTab | None:
        """The tab called ``name``, built now if it was not yet (``None``: no such tab or no database)."""
        tab = self._tabs.get(name)
        if tab is not None:
            return tab
        for i in range(self.tab_widget.count()):
            page = self.tab_widget.widget(i)
            if isinstance(page, TabSlot) and page.name == name:
                return self._build_tab(page)
        return None

    def tab_at(self, index: int) -> BaseTab | None:
        """The tab at ``index`` of the tab bar, built now if it was not yet."""
        page = self.tab_widget.widget(index)
        if isinstance(page, TabSlot):
            return self._build_tab(page)
        return page if isinstance(page, BaseTab) else None

    def _build_tab(self, slot: TabSlot) -> BaseTab:
        """Import and construct the tab ``slot`` stands for and put it in the slot's place."""
        ctx = self.ctx
        assert ctx is not None
        tab: BaseTab | None = None
        try:
            tab = registry().load_class(slot.entry)(ctx)
        except TabRegistrationError as exc:
            error = str(exc)
        except Exception as exc:  # one broken tab must not take the window down
            error = f"{slot.name}: {type(exc).__name__}: {exc}"
        if tab is None:
            tab = ErrorTab(ctx, slot.name, error)
            self.tab_errors.append(error)
        tab.set_editing(ctx.editing)
        self._tabs[slot.name] = tab
        # Insert the tab before its slot, then remove the slot selecting the tab on its left (the new
        # one): the current page never changes on the way.
        bar = self.tab_widget.tabBar()
        behaviour = bar.selectionBehaviorOnRemove()
        blocked = self.tab_widget.blockSignals(True)
        try:
            index = self.tab_widget.indexOf(slot)
            current = self.tab_widget.currentIndex()
            bar.setSelectionBehaviorOnRemove(bar.SelectionBehavior.SelectLeftTab)
            self.tab_widget.insertTab(index, tab, tab.title())
            self.tab_widget.removeTab(index + 1)
            self.tab_widget.setCurrentIndex(current)
        finally:
            bar.setSelectionBehaviorOnRemove(behaviour)
            self.tab_widget.blockSignals(blocked)
        slot.deleteLater()
        return tab

    def _prebuild_next(self) -> None:
        """Build one tab that is not built yet, when the shown tab has finished loading."""
        if self.ctx is None or self.ctx.closed:
            return
        current = self.tab_widget.currentWidget()
        if isinstance(current, BaseTab) and current.busy:
            self._prebuild_timer.start(100)
            return
        for i in range(self.tab_widget.count()):
            if isinstance(self.tab_widget.widget(i), TabSlot):
                self.tab_at(i)
                self._prebuild_timer.start(0)
                return

    def close_database(self) -> None:
        """Close the open database (if any): save tab state, stop the workers, remove the tabs."""
        ctx = self.ctx
        if ctx is None:
            return
        if self.persist:
            self._save_tab_states()
        self.ctx = None
        self._prebuild_timer.stop()
        self.tab_widget.blockSignals(True)
        while self.tab_widget.count():
            w = self.tab_widget.widget(0)
            self.tab_widget.removeTab(0)
            w.deleteLater()
        self.tab_widget.blockSignals(False)
        self._tabs = {}
        self._stale.clear()
        self.counts = {}
        ctx.close()
        ctx.deleteLater()
        self._update_undo_actions()
        self.databaseClosed.emit()

    def close_database_to_start(self) -> None:
        self.close_database()
        self.show_start_page()

    def _save_tab_states(self) -> None:
        for tab in self.built_tabs():
            with contextlib.suppress(Exception):
                tab.save_state()
        current = self.tab_widget.currentWidget()
        if isinstance(current, BaseTab):
            self.settings.current_tab = current.name

    # -- creating -------------------------------------------------------------------------------------
    def choose_and_create_demo(self) -> None:
        default = demo_default_path()
        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("Create demo database"), str(default), self.tr(DB_FILTER)
        )
        if path:
            self.create_demo(path)

    def choose_and_create_empty(self) -> None:
        default = resolve_db_path(None)
        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("Create empty database"), str(default), self.tr(DB_FILTER)
        )
        if path:
            self.create_empty(path)

    def create_demo(
        self, path: str | Path, messages: int = DEMO_MESSAGES, *, open_after: bool = True
    ) -> Job | None:
        """Generate a demo database at ``path`` in the background (progress on the start page), then open it."""
        path = Path(path).expanduser()
        if path.exists() and path.stat().st_size > 0:
            self.show_error(
                self.tr("The demo database was not created"),
                DatabaseOpenError(
                    path, "exists", self.tr("A file already exists at this path; it was left alone.")
                ),
            )
            return None
        self.start_page.set_busy(self.tr("Generating a demo database at {0}…").format(path))
        self.pages.setCurrentWidget(self.start_page)

        def _done(p: Path) -> None:
            self._creating = None
            self.start_page.set_busy(None)
            if open_after:
                self.open_database(p)

        def _failed(exc: BaseException) -> None:
            self._creating = None
            self.start_page.set_busy(None)
            self.show_error(self.tr("The demo database was not created"), exc)

        self._creating = self.tasks.task(
            _generate_demo,
            path,
            messages,
            on_result=_done,
            on_error=_failed,
            progress=True,
            label=self.tr("Generating demo database"),
        )
        self._creating.progressed.connect(self.start_page.set_progress)
        self._creating.done.connect(lambda: self.start_page.set_busy(None))
        return self._creating

    def _cancel_creation(self) -> None:
        if self._creating is not None:
            self._creating.cancel()

    def create_empty(self, path: str | Path, *, open_after: bool = True) -> Job:
        path = Path(path).expanduser()

        def _done(p: Path) -> None:
            if open_after:
                self.open_database(p)

        return self.tasks.task(
            _create_empty,
            path,
            on_result=_done,
            on_error=lambda exc: self.show_error(self.tr("The database was not created"), exc),
            label=self.tr("Creating database"),
        )

    # -- editing --------------------------------------------------------------------------------------
    def set_editing(self, on: bool) -> Job | None:
        if self.ctx is None:
            return None
        job = self.ctx.set_editing(on)
        self._update_actions()
        if job is not None and on:
            self._progress_dialog(job, self.tr("Taking a backup before editing…"))
        return job

    def _editing_toggled(self, checked: bool) -> None:
        self.set_editing(checked)

    def _on_editing_changed(self, on: bool) -> None:
        for tab in self.built_tabs():
            tab.set_editing(on)
        self._update_status()
        self._update_banners()
        self._update_title()
        self._update_actions()

    def _update_undo_actions(self) -> None:
        ctx = self.ctx
        if ctx is None:
            for a, base in ((self.action_undo, self.tr("&Undo")), (self.action_redo, self.tr("&Redo"))):
                a.setEnabled(False)
                a.setText(base)
            return
        stack = ctx.undo.stack
        busy = ctx.undo.busy
        for a, base, can, text in (
            (self.action_undo, self.tr("&Undo"), stack.canUndo(), stack.undoText()),
            (self.action_redo, self.tr("&Redo"), stack.canRedo(), stack.redoText()),
        ):
            a.setEnabled(can and not busy)
            a.setText(f"{base} {text}".strip() if can else base)

    # -- backups --------------------------------------------------------------------------------------
    def backup_now(self) -> Job | None:
        ctx = self.ctx
        if ctx is None:
            return None

        def _done(path: Path) -> None:
            msg = self.tr("Backup written to {0}").format(path)
            self.statusBar().showMessage(msg, 15000)
            if self.interactive:
                box = QMessageBox(
                    QMessageBox.Icon.Information,
                    self.tr("Backup now"),
                    msg,
                    QMessageBox.StandardButton.Ok,
                    self,
                )
                box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
                box.open()

        job = ctx.run(
            _backup,
            on_result=_done,
            on_error=lambda exc: self.show_error(self.tr("The backup failed"), exc),
            progress=True,
            label=self.tr("Backing up"),
        )
        self._progress_dialog(job, self.tr("Writing a backup of {0}…").format(ctx.db_path.name))
        return job

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
        current = self.tab_widget.currentWidget()
        for tab in self.built_tabs():
            if not tab.activated:
                continue
            if tab is current:
                tab.refresh()
            else:
                self._stale.add(tab)
        self._schedule_counts()

    def _on_report_changed(self) -> None:
        self._update_status()
        self._update_banners()
        self._update_actions()

    def _on_tab_changed(self, index: int) -> None:
        tab = self.tab_at(index) if index >= 0 else None
        if not isinstance(tab, BaseTab):
            return
        if not tab.activated:
            tab.ensure_activated()
            self._stale.discard(tab)
        elif tab in self._stale:
            self._stale.discard(tab)
            tab.refresh()

    def _refresh_current(self) -> None:
        tab = self.tab_widget.currentWidget()
        if isinstance(tab, BaseTab) and tab.activated:
            tab.refresh()
        self._load_counts()

    def show_tab(self, name: str) -> BaseTab | None:
        tab = self.tab(name)
        if tab is not None:
            self.tab_widget.setCurrentWidget(tab)
        return tab

    # -- appearance -----------------------------------------------------------------------------------
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

    # -- dialogs --------------------------------------------------------------------------------------
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

    # -- closing --------------------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        if self.persist:
            self.settings.geometry = self.saveGeometry()
            self.settings.window_state = self.saveState()
        self.close_database()
        self.tasks.shutdown(2000)
        if self.persist:
            self.settings.sync()
        super().closeEvent(event)


def app_instance() -> QApplication | None:
    app = QApplication.instance()
    return app if isinstance(app, QApplication) else None
