"""The database session: opening a file, generating a demo or an empty database, and the
:class:`~philont_desktop.context.AppContext` of the database that is open.

:class:`DatabaseSession` knows nothing of widgets: it opens in the background (a read-only look at the
file on the task lane), announces ``closing`` / ``opened`` / ``openFailed`` / ``closed``, and reports
what a person must be told through ``errorRaised``. The window shows pages, tabs and dialogs in
reaction; an "open failed" dialog or a "Demo" badge hangs off these signals.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.errors import DatabaseOpenError
from philont_desktop.interpreter import settle_loaded_code, stop_settling
from philont_desktop.qt import QObject, QTimer, Signal
from philont_desktop.settings import Settings
from philont_desktop.theme import Theme
from philont_desktop.workers import Job, Workers

if TYPE_CHECKING:  # imported when a database opens (off the GUI thread first), not at start-up
    from core.db import MemoryDB, OpenReport
    from philont_desktop.context import AppContext

DEMO_MESSAGES = 20_000
DEMO_PHASES = 9  # plan, schedules, messages, fts, skills, actions, facts, notes, calendar


def open_report(path: Path) -> OpenReport:
    """What opening ``path`` read-only finds (schema, problems, warnings); raises when it cannot."""
    return open_info(path)[0]


def open_info(path: Path, remembered: str = "") -> tuple[OpenReport, bool, list[str]]:
    """:func:`open_report`, whether the file is a generated demo database, and the application's modules
    the window needs once the file is open (the context's, the tab shown first), in the order the GUI
    thread imports them (:mod:`philont_desktop.import_plan`: never on this worker, where creating
    PySide classes races the GUI thread). First, off the GUI thread, the ``core`` modules they need are
    imported and the tabs' tests of the path run (the Review tab's reads its marks), so that the GUI
    thread then only runs the application's modules' own bodies and builds the window's parts."""
    from philont_desktop import import_plan

    app: list[str] = []
    try:
        core, app = import_plan.plan(_first_modules(path, remembered))
        import_plan.import_core(core)
    except Exception:  # the window imports them again and shows what is wrong, in the tab's place
        pass
    from core import demofile
    from core.db import MemoryDB

    db = MemoryDB.open(path, check=False)
    try:
        return db.report, demofile.is_demo(db.conn), app
    finally:
        db.close()


def _first_modules(path: Path, remembered: str = "") -> tuple[str, ...]:
    """What the window imports once ``path`` is open: the context, and the tab shown first."""
    from philont_desktop.tabs import registry

    tabs = registry()
    first = tabs.home_for(path) or tabs.get(remembered) or tabs.home()
    return ("philont_desktop.context", *((first.module,) if first is not None else ()))


def create_empty(path: Path) -> Path:
    from core.db import MemoryDB

    MemoryDB.create(path).close()
    return path


def generate_demo(path: Path, messages: int, job: Job) -> Path:
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


def backup(db: MemoryDB, job: Job) -> Path:
    return db.backup(progress=job.progress)


class DatabaseSession(QObject):
    """The open database (:attr:`ctx`) and the work of opening or creating one."""

    closing = Signal(object)  # the AppContext about to close (save what belongs to it now)
    closed = Signal()
    opened = Signal(object, bool)  # the new AppContext, editing asked for
    started = Signal(object)  # the AppContext after its first paint: live polling, quick_check running
    # (unless defer_quick_check: then whoever set it starts it)
    openingStarted = Signal(object)  # the path being opened
    openFailed = Signal(str, object)  # path, exception
    creationStarted = Signal(str)  # what is being generated (a sentence)
    creationProgress = Signal(int, int)
    creationEnded = Signal()
    errorRaised = Signal(str, object)  # title, exception: to be shown to the user

    def __init__(
        self,
        settings: Settings,
        theme: Theme,
        *,
        read_only: bool = False,
        interactive: bool = True,
        live_interval_ms: int = 1000,
        parent: QObject | None = None,
    ):
        super().__init__(parent)
        self.settings = settings
        self.theme = theme
        self.read_only = read_only
        self.interactive = interactive
        self.live_interval_ms = live_interval_ms
        self.ctx: AppContext | None = None
        self.demo = False  # the open database is a generated demo (see core.demofile)
        self.opening: Path | None = None
        self._open_serial = 0  # which open is the latest (an earlier one's result is not shown)
        self.open_error: BaseException | None = None
        self.creating: Job | None = None
        # The window starts the quick_check itself, once its tabs are built (see MainWindow).
        self.defer_quick_check = False
        self.tasks = Workers(None, parent=self)
        self.tasks.unhandledError.connect(lambda job, exc: self.errorRaised.emit(job.label, exc))

    @property
    def settled(self) -> bool:
        """Nothing is being opened or generated (batch runs wait for this)."""
        creating = self.creating is not None and not self.creating.is_done
        return not creating and self.opening is None and self.tasks.pending() == 0

    # -- opening --------------------------------------------------------------------------------------
    def open(self, path: str | Path, *, editing: bool = False) -> Job:
        """Open ``path`` read-only in the background (then turn editing on if asked)."""
        path = Path(path).expanduser()
        self._open_serial += 1
        serial = self._open_serial
        self.opening = path
        self.open_error = None
        self.openingStarted.emit(path)
        settle_loaded_code()  # the window's imports are in; the file's and the first tab's follow
        return self.tasks.task(
            open_info,
            path,
            self.settings.current_tab if self.interactive else "",
            on_result=lambda info: self._import_then_open(path, info, editing, serial),
            on_error=lambda exc: self._open_failed(path, exc),
            label=self.tr("Opening {0}").format(path.name),
        )

    def _open_failed(self, path: Path, exc: BaseException) -> None:
        self.opening = None
        self.open_error = exc
        self.openFailed.emit(str(path), exc)

    def _import_then_open(
        self, path: Path, info: tuple[OpenReport, bool, list[str]], editing: bool, serial: int
    ) -> None:
        """Import the modules :func:`open_info` named on the GUI thread, one per event-loop turn, then
        show the file (unless another open started meanwhile)."""
        report, demo, modules = info
        pending = [m for m in modules if m not in sys.modules]

        def _step() -> None:
            if serial != self._open_serial:
                return  # superseded by another open, which shows its own file
            while pending and pending[0] in sys.modules:
                pending.pop(0)
            if not pending:
                self._opened(path, report, demo, editing)
                return
            with contextlib.suppress(Exception):  # imported again by the window, which shows the error
                importlib.import_module(pending.pop(0))
            QTimer.singleShot(0, _step)

        _step()

    def _opened(self, path: Path, report: OpenReport, demo: bool, editing: bool) -> None:
        self.close()
        self.opening = None
        self.demo = demo
        from philont_desktop.context import AppContext

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
        self.ctx = ctx
        if self.interactive:
            self.settings.add_recent_file(path)
            self.settings.last_database = str(path.absolute())
        self.opened.emit(ctx, editing)
        settle_loaded_code()  # the context's and the first tab's modules are in
        # After the first paint: live polling and the one quick_check.
        QTimer.singleShot(0, lambda: self._start(ctx))

    def _start(self, ctx: AppContext) -> None:
        if ctx is self.ctx and not ctx.closed:
            ctx.start(quick_check=not self.defer_quick_check)
            self.started.emit(ctx)

    def close(self) -> None:
        """Close the open database (if any): ``closing``, then every connection, then ``closed``."""
        ctx = self.ctx
        if ctx is None:
            return
        stop_settling()  # what it leaves behind must stay collectable
        self.closing.emit(ctx)
        self.ctx = None
        self.demo = False
        ctx.close()
        ctx.deleteLater()
        self.closed.emit()

    def shutdown(self, timeout_ms: int = 2000) -> None:
        self.close()
        self.tasks.shutdown(timeout_ms)

    # -- creating -------------------------------------------------------------------------------------
    def create_demo(
        self, path: str | Path, messages: int = DEMO_MESSAGES, *, open_after: bool = True
    ) -> Job | None:
        """Generate a demo database at ``path`` in the background, then open it (``None``: a file is there)."""
        path = Path(path).expanduser()
        title = self.tr("The demo database was not created")
        if path.exists() and path.stat().st_size > 0:
            exists = self.tr("A file already exists at this path; it was left alone.")
            self.errorRaised.emit(title, DatabaseOpenError(path, "exists", exists))
            return None
        self.creationStarted.emit(self.tr("Generating a demo database at {0}…").format(path))

        def _done(p: Path) -> None:
            self.creating = None
            if open_after:
                self.open(p)

        def _failed(exc: BaseException) -> None:
            self.creating = None
            self.errorRaised.emit(title, exc)

        job = self.tasks.task(
            generate_demo,
            path,
            messages,
            on_result=_done,
            on_error=_failed,
            progress=True,
            label=self.tr("Generating demo database"),
        )
        self.creating = job
        job.progressed.connect(self.creationProgress)
        job.done.connect(self.creationEnded)
        return job

    def cancel_creation(self) -> None:
        if self.creating is not None:
            self.creating.cancel()

    def create_empty(self, path: str | Path, *, open_after: bool = True) -> Job:
        path = Path(path).expanduser()

        def _done(p: Path) -> None:
            if open_after:
                self.open(p)

        return self.tasks.task(
            create_empty,
            path,
            on_result=_done,
            on_error=lambda exc: self.errorRaised.emit(self.tr("The database was not created"), exc),
            label=self.tr("Creating database"),
        )

    # -- the open database ----------------------------------------------------------------------------
    def backup(self, on_done: Any = None) -> Job | None:
        """Write a backup of the open database into its ``backups/`` folder (with progress)."""
        ctx = self.ctx
        if ctx is None:
            return None
        return ctx.run(
            backup,
            on_result=on_done,
            on_error=lambda exc: self.errorRaised.emit(self.tr("The backup failed"), exc),
            progress=True,
            label=self.tr("Backing up"),
        )
