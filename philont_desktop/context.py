"""``AppContext``: what every tab gets from the shell for one open database.

A tab never opens connections, threads or dialogs of its own for database work; its controller asks
the context::

    ctx.submit(ReadOp(core_fn, (arg,), key="notes:search"), on_result=show)  # read, off the GUI thread
    ctx.curate(note_curation.update(note_id, content=text), text=tr("Edit note"))  # audited, undoable
    ctx.changed.connect(...)      # ChangeNotice: what an edit, undo or redo of this app changed, by whom
    ctx.dataChanged.connect(...)  # the file changed (any writer, this app included)
    ctx.navigator.go(ShowTime(ts))  # show another tab at a target (the window sets the navigator)
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from core.audit import default_actor
from core.curation import Change, Changes
from core.db import MemoryDB, OpenReport
from core.errors import ReadOnlyError
from philont_desktop import messages
from philont_desktop.live import LiveMonitor
from philont_desktop.ops import ReadOp
from philont_desktop.qt import QApplication, QObject, Signal
from philont_desktop.settings import Settings
from philont_desktop.tabs.navigation import Navigator
from philont_desktop.theme import Theme
from philont_desktop.undo import UndoManager
from philont_desktop.workers import Job, Workers


@dataclass(frozen=True)
class ChangeNotice(Changes):
    """:class:`core.curation.Changes` as :attr:`AppContext.changed` announces them (after Anki's
    ``OpChanges`` and its ``initiator``), with who asked for the edit.

    * ``initiator``: the object (a tab's controller) that asked for the edit; it applies the edit's
      result itself and does not hear its own notice. ``None`` for an undo or redo from the Edit menu:
      every controller showing the layer hears it.
    * ``probe``: the live monitor's probe started after the write (``None`` when none was): the file
      change it reports is this edit's, so the tabs that reload for the notice do not reload for that
      file change too, and they reload once it has answered.
    """

    initiator: Any = field(default=None, compare=False, repr=False)
    probe: Any = field(default=None, compare=False, repr=False)

    @classmethod
    def of_changes(cls, changes: Changes, initiator: Any = None, probe: Any = None) -> ChangeNotice:
        values = {f.name: getattr(changes, f.name) for f in fields(Changes)}
        return cls(**values, initiator=initiator, probe=probe)


class AppContext(QObject):
    """One open database: its report, the workers, live refresh, editing mode and the undo stack."""

    editingChanged = Signal(bool)
    dataChanged = Signal()
    reportChanged = Signal()  # the background quick_check finished (report.quick_check is set)
    statusMessage = Signal(str)  # a short message for the status bar
    errorShown = Signal(str, str)  # title, readable message
    changed = Signal(object)  # ChangeNotice: an edit, undo or redo made here succeeded

    def __init__(
        self,
        db_path: str | Path,
        report: OpenReport,
        *,
        settings: Settings | None = None,
        theme: Theme | None = None,
        read_only: bool = False,
        interactive: bool = True,
        live_interval_ms: int = 1000,
        workers: Workers | None = None,
        parent: QObject | None = None,
    ):
        super().__init__(parent)
        self.db_path = Path(db_path)
        self.report = report
        self.settings = settings if settings is not None else Settings()
        self.theme = theme if theme is not None else Theme("light")
        self.forced_read_only = read_only
        self.interactive = interactive
        self.actor = default_actor()
        self.errors: list[str] = []  # what show_error reported (kept for --self-test)
        self.last_backup: Path | None = None
        self.workers = workers if workers is not None else Workers(self.db_path, parent=self)
        self.workers.unhandledError.connect(self._on_unhandled)
        self.live = LiveMonitor(
            self.workers, interval_ms=live_interval_ms, immutable=report.immutable, parent=self
        )
        self.live.changed.connect(self._on_live_changed)
        self.live.fileChanged.connect(self._on_file_changed)
        self.undo = UndoManager(self)
        self._editing = False
        self._editing_busy = False
        self._closed = False
        self._checking = False  # the quick_check was started
        self.error_parent: Any = None  # the widget error dialogs are parented to (the main window)
        self.navigator = Navigator()  # the window replaces it with one that can show its tabs
        self._write_probe: Job | None = None  # the probe started after the write being delivered
        self._explains: dict[int, ChangeNotice] = {}  # by id of its probe, until the probe is done
        # While ``dataChanged`` is emitted: the notice of the edit made here that this file change is
        self.explained: ChangeNotice | None = None

    @classmethod
    def open(cls, path: str | Path, **kwargs: Any) -> AppContext:
        """Open ``path`` read-only now (quick; no quick_check) and build a context for it (tests, tools)."""
        db = MemoryDB.open(path, check=False)
        try:
            report = db.report
        finally:
            db.close()
        return cls(path, report, **kwargs)

    # -- lifecycle ------------------------------------------------------------------------------------
    def start(self, *, live: bool = True, quick_check: bool = True) -> None:
        """Start live refresh and the one background ``quick_check`` (call after the first paint)."""
        if live:
            self.live.start()
        if quick_check:
            self.start_quick_check()

    def start_quick_check(self) -> None:
        """The one ``quick_check`` of this database, in the background (nothing when it ran or runs).

        On the background lane, with a connection of its own: seconds on a big file must not take a
        reader away from the tabs, nor a processor from the window."""
        if self._checking or self._closed or self.report.quick_check is not None:
            return
        self._checking = True
        self.workers.submit(
            ReadOp(
                _quick_check, (self.db_path,), lane="background", label=self.tr("Checking database integrity")
            ),
            on_result=self._on_quick_check,
            on_error=self._on_quick_check_error,
        )

    def close(self, timeout_ms: int = 5000) -> bool:
        """Stop polling, drop the undo history, close the writer and every connection."""
        if self._closed:
            return True
        self._closed = True
        self.live.stop()
        self.undo.stack.clear()
        self._editing = False
        return self.workers.shutdown(timeout_ms)

    @property
    def closed(self) -> bool:
        return self._closed

    # -- reading --------------------------------------------------------------------------------------
    def submit(
        self,
        op: ReadOp,
        *,
        on_result: Callable[[Any], Any] | None = None,
        on_error: Callable[[BaseException], Any] | None = None,
        on_progress: Callable[[int, int], Any] | None = None,
    ) -> Job:
        """Run the read op off the GUI thread (see :mod:`philont_desktop.ops` and :mod:`workers`)."""
        return self.workers.submit(op, on_result=on_result, on_error=on_error, on_progress=on_progress)

    def run(
        self,
        fn: Callable[..., Any],
        *args: Any,
        on_result: Callable[[Any], Any] | None = None,
        on_error: Callable[[BaseException], Any] | None = None,
        on_progress: Callable[[int, int], Any] | None = None,
        **op: Any,
    ) -> Job:
        """``submit(ReadOp(fn, args, **op))``: ``op`` holds ``key``, ``label``, ``progress``, ``lane``."""
        return self.submit(
            ReadOp(fn, args, **op), on_result=on_result, on_error=on_error, on_progress=on_progress
        )

    # -- writing --------------------------------------------------------------------------------------
    @property
    def editing(self) -> bool:
        return self._editing

    @property
    def file_problem(self) -> str | None:
        """``replaced``, ``deleted`` or ``emptied`` once the live monitor saw the opened file leave its
        path (what is shown is still the opened file); ``None`` otherwise."""
        return self.live.file_problem

    def _on_file_changed(self, problem: str) -> None:
        # Never write to a file that is not the one shown: editing stops (the writer closes).
        if self._editing or self.workers.writer_open:
            self.set_editing(False)
        self.reportChanged.emit()

    @property
    def read_only_reason(self) -> str | None:
        """Why editing cannot be turned on (``None`` when it can)."""
        if self.file_problem is not None:
            return self.tr("the database file was replaced or deleted on disk after it was opened")
        if self.forced_read_only:
            return self.tr("the app was started with --read-only")
        return messages.read_only_reason(self.report.read_only_notice())

    @property
    def can_edit(self) -> bool:
        return self.read_only_reason is None

    def write(
        self,
        fn: Callable[..., Any],
        *args: Any,
        on_result: Callable[[Any], Any] | None = None,
        on_error: Callable[[BaseException], Any] | None = None,
        label: str = "",
    ) -> Job:
        """Run ``fn(writer_db, *args)`` on the single writer (editing mode only).

        ``fn`` should make one short change (``with db.write():``); after it succeeds the live monitor
        probes at once, so ``dataChanged`` follows our own writes too.
        """

        def _done(value: Any) -> None:
            self._write_probe = self.live.check_now()
            try:
                if on_result is not None:
                    on_result(value)
            finally:
                self._write_probe = None

        if not self._editing and not self.workers.writer_open:
            exc = ReadOnlyError(self.tr("Editing mode is off: turn it on to change the database."))
            return self.workers.run(_raise, exc, on_error=on_error, lane="task", label=label)
        return self.workers.write(fn, *args, on_result=_done, on_error=on_error, label=label)

    def curate(
        self,
        change: Change,
        *,
        text: str | None = None,
        on_result: Callable[[Any], Any] | None = None,
        on_error: Callable[[BaseException], Any] | None = None,
        initiator: Any = None,
    ) -> Job:
        """An audited, undoable edit (see :mod:`core.curation`): one transaction on the writer.

        When it succeeds the edit goes on the shared undo stack as ``text`` (else the change's
        description or action), :attr:`changed` is emitted and ``on_result(changes)`` is called with the
        :class:`ChangeNotice` (which layer and rows changed; ``changes.entry`` is
        the audit row; ``initiator``, who asked for the edit). Without ``on_error`` a failure is shown as
        an error.
        """
        if not isinstance(change, Change):
            raise TypeError(f"curate() takes a core.curation.Change, not {type(change).__name__}")
        label = text or change.description or change.action
        return self.undo.perform(change, label, on_result=on_result, on_error=on_error, initiator=initiator)

    def announce(self, changes: Changes, initiator: Any = None) -> ChangeNotice:
        """Emit :attr:`changed` for an edit, undo or redo just written here, as a
        :class:`ChangeNotice` naming ``initiator`` and the probe of the write."""
        probe = self._write_probe if self._write_probe is not None and not self._write_probe.is_done else None
        notice = ChangeNotice.of_changes(changes, initiator, probe)
        if probe is not None:
            key = id(probe)
            self._explains[key] = notice
            probe.done.connect(lambda: self._explains.pop(key, None))
        self.changed.emit(notice)
        return notice

    def after_probe(self, changes: Changes, fn: Callable[[], Any]) -> None:
        """``fn()`` once the probe of ``changes``' write has answered (at once without one): a reload
        started then reads everything the file change that probe reports."""
        probe = getattr(changes, "probe", None)
        if probe is None or probe.is_done:
            fn()
        else:
            probe.done.connect(fn)

    def _on_live_changed(self) -> None:
        """The live monitor saw the file change: :attr:`dataChanged`, with :attr:`explained` set while a
        probe started after an edit made here is the one reporting it."""
        self.explained = next(iter(self._explains.values()), None)
        try:
            self.dataChanged.emit()
        finally:
            self.explained = None

    @property
    def undo_stack(self):
        return self.undo.stack

    def set_editing(
        self,
        on: bool,
        *,
        on_done: Callable[[bool], Any] | None = None,
    ) -> Job | None:
        """Turn editing mode on (backup first, then the writer opens) or off (the writer closes).

        Emits ``editingChanged`` with the resulting state (also when turning on failed, so that toggles
        resynchronise). ``on_done(state)`` is called when the change is complete.
        """
        if self._editing_busy:
            return None
        done = on_done or (lambda _state: None)
        return self._editing_on(done) if on else self._editing_off(done)

    def _editing_off(self, done: Callable[[bool], Any]) -> Job | None:
        if not self._editing and not self.workers.writer_open:
            done(False)
            return None
        self._editing = False  # the undo history stays: undoing it needs editing on again
        self._editing_busy = True

        def _closed(_: Any) -> None:
            self._editing_busy = False
            self.editingChanged.emit(False)
            self.statusMessage.emit(self.tr("Editing mode is off; the database is only read."))
            done(False)

        return self.workers.close_writer(on_result=_closed)

    def _editing_on(self, done: Callable[[bool], Any]) -> Job | None:
        if self._editing:
            done(True)
            return None
        reason = self.read_only_reason
        if reason is not None:
            self.show_error(
                self.tr("Editing is not possible"),
                ReadOnlyError(self.tr("This database cannot be edited: {0}.").format(reason)),
            )
            self.editingChanged.emit(False)
            done(False)
            return None
        self._editing_busy = True

        def _opened(backup: Path | None) -> None:
            self._editing_busy = False
            self._editing = True
            self.last_backup = backup
            self.editingChanged.emit(True)
            where = str(backup) if backup else self.tr("(new database: no backup needed)")
            self.statusMessage.emit(self.tr("Editing mode is on. Backup taken first: {0}").format(where))
            done(True)

        def _failed(exc: BaseException) -> None:
            self._editing_busy = False
            self._editing = False
            self.show_error(self.tr("Editing mode could not be turned on"), exc)
            self.editingChanged.emit(False)
            done(False)

        return self.workers.open_writer(
            check=self.report.quick_check is None,
            on_result=_opened,
            on_error=_failed,
            progress=True,
            label=self.tr("Backing up before editing"),
        )

    @property
    def editing_busy(self) -> bool:
        return self._editing_busy

    # -- errors ---------------------------------------------------------------------------------------
    def show_error(self, title: str, exc: BaseException | str) -> None:
        """Tell the user: a non-blocking dialog (interactive) or a line on stderr (--self-test etc.)."""
        from philont_desktop.widgets.error_dialog import readable_message, show_error

        message = readable_message(exc)
        self.errors.append(f"{title}: {message}")
        self.errorShown.emit(title, message)
        if self.interactive and QApplication.instance() is not None:
            show_error(title, exc, self.error_parent)
        else:
            print(f"{title}: {message}", file=sys.stderr)

    def _on_unhandled(self, job: Job, exc: BaseException) -> None:
        title = job.label or self.tr("A background task failed")
        self.show_error(title, exc)

    # -- integrity check ------------------------------------------------------------------------------
    def _on_quick_check(self, result: tuple[str, str | None]) -> None:
        self.report.quick_check, reason = result
        if reason and not self.report.read_only_reason:
            self.report.read_only_reason = reason
            self.report.writable = False
        self.reportChanged.emit()

    def _on_quick_check_error(self, exc: BaseException) -> None:
        self.report.quick_check = self.tr("quick integrity check failed: {0}").format(exc)
        self.reportChanged.emit()


def _quick_check(path: Path, job: Job) -> tuple[str, str | None]:
    db = MemoryDB.open(path, check=False)
    try:
        with job.interruptible(db):
            result = db.run_quick_check()
        job.raise_if_cancelled()
        return result, db.report.read_only_reason
    finally:
        db.close()


def _raise(exc: BaseException) -> Any:
    raise exc
