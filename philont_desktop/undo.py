"""Undo and redo across tabs: one ``QUndoStack`` whose commands call :mod:`core.curation` on the writer.

Flow of an edit: ``ctx.curate(change)`` runs the :class:`core.curation.Change` on the writer thread;
when it has succeeded a :class:`CurationCommand` holding the audit entry is pushed (its first ``redo``
does nothing: the change is already made) and ``ctx.changed`` tells every tab what changed
(:class:`core.curation.Changes`); undo and redo steps announce theirs the same way. Undo/redo run
``curation.undo`` / ``curation.redo`` on the writer, each audited. While one of them runs, the stack's
actions are disabled; if it fails (the row changed since, for instance) the error is shown and the
command is dropped from the stack so that the stack never claims a state the database does not have.

The history outlives editing mode (turning it off keeps the stack); a step asked for while editing is
off changes nothing and emits ``needsEditing`` (the window offers to turn editing on, or says so).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from core import curation
from core.audit import AuditEntry
from philont_desktop.qt import QObject, QUndoCommand, QUndoStack, Signal, is_valid
from philont_desktop.workers import Job

if TYPE_CHECKING:
    from philont_desktop.context import AppContext


class CurationCommand(QUndoCommand):
    """An edit already made and audited; ``undo``/``redo`` ask the core to reverse / re-apply it."""

    def __init__(self, manager: UndoManager, edit: AuditEntry, text: str):
        super().__init__(text)
        self.manager = manager
        self.edit = edit
        self._skip_redo = True  # push() calls redo(): the change is already in the database

    @property
    def audit_id(self) -> int:
        return self.edit.id

    def redo(self) -> None:
        if self._skip_redo:
            self._skip_redo = False
            return
        self.manager._step(self, curation.REDO)

    def undo(self) -> None:
        self.manager._step(self, curation.UNDO)


class UndoManager(QObject):
    """The shared ``QUndoStack`` and the writer steps behind it (``ctx.undo``)."""

    busyChanged = Signal(bool)
    stepFinished = Signal(str, object)  # "perform" | "undo" | "redo", the new audit entry
    needsEditing = Signal(str, str)  # "undo" | "redo", the edit's text: asked for while editing is off

    def __init__(self, ctx: AppContext):
        super().__init__(ctx)
        self.ctx = ctx
        self.stack = QUndoStack(self)
        self._busy = 0
        self._last_step: Job | None = None  # the writer job of the last stack step started

    @property
    def busy(self) -> bool:
        return self._busy > 0

    def _set_busy(self, delta: int) -> None:
        was = self.busy
        self._busy = max(0, self._busy + delta)
        if was != self.busy:
            self.busyChanged.emit(self.busy)

    # -- stepping -------------------------------------------------------------------------------------
    def undo(self) -> None:
        """Undo the last edit of the stack (with editing off: ``needsEditing`` instead)."""
        self._request(curation.UNDO)

    def redo(self) -> None:
        self._request(curation.REDO)

    def _request(self, kind: str) -> None:
        undo = kind == curation.UNDO
        if not self.busy:
            self._skip_obsolete()
        if self.busy or not (self.stack.canUndo() if undo else self.stack.canRedo()):
            return
        if not self.ctx.editing:
            # The history outlives editing mode; a step writes, so it waits for editing to be on again.
            self.needsEditing.emit(kind, self.stack.undoText() if undo else self.stack.redoText())
            return
        if undo:
            self.stack.undo()
        else:
            self.stack.redo()

    # -- perform ----------------------------------------------------------------------------------------
    def perform(
        self,
        change: curation.Change,
        text: str,
        *,
        on_result: Callable[[curation.Changes], Any] | None = None,
        on_error: Callable[[BaseException], Any] | None = None,
        initiator: Any = None,
    ) -> Job:
        actor = self.ctx.actor

        def _perform(db: Any) -> AuditEntry:
            return change.perform(db, actor)

        def _done(edit: AuditEntry) -> None:
            self._set_busy(-1)
            self.stack.push(CurationCommand(self, edit, text))
            changes = self._announce("perform", edit, initiator)
            if on_result is not None:
                on_result(changes)

        def _failed(exc: BaseException) -> None:
            self._set_busy(-1)
            if on_error is not None:
                on_error(exc)
            else:
                self.ctx.show_error(self.tr("The change was not made"), exc)

        self._set_busy(+1)
        return self.ctx.write(_perform, on_result=_done, on_error=_failed, label=text)

    def step_entry(self, audit_id: int, kind: str, text: str) -> Job:
        """Undo or redo one audit entry by id (the Audit tab). The stack's next step when the entry is
        that step (Edit › Undo then offers the edit before it); otherwise outside the stack's order, and
        the stack's command for the entry, if any, is set aside (:meth:`_sync_stack`) so that Edit › Undo
        never offers a step the database has already taken."""
        undo = kind == curation.UNDO
        nxt = self._next_command(undo)
        if nxt is not None and nxt.audit_id == audit_id and self.ctx.editing and not self.busy:
            self._last_step = None
            if undo:
                self.stack.undo()
            else:
                self.stack.redo()
            if self._last_step is not None:
                return self._last_step
        actor = self.ctx.actor
        fn = curation.undo if kind == curation.UNDO else curation.redo

        def _failed(exc: BaseException) -> None:
            self._set_busy(-1)
            self.ctx.show_error(
                self.tr("Undo failed") if kind == curation.UNDO else self.tr("Redo failed"), exc
            )

        def _done(entry: AuditEntry) -> None:
            self._sync_stack(audit_id, kind)  # first: busyChanged then tells the actions about the stack
            self._set_busy(-1)
            self._announce(kind, entry)
            self._say(kind, text)

        self._set_busy(+1)
        return self.ctx.write(
            lambda db: fn(db, audit_id, actor), on_result=_done, on_error=_failed, label=text
        )

    def _next_command(self, undo: bool) -> CurationCommand | None:
        """The command Edit › Undo (``undo``) or Edit › Redo would step next."""
        idx = self.stack.index() - 1 if undo else self.stack.index()
        cmd = self.stack.command(idx) if 0 <= idx < self.stack.count() else None
        return cmd if isinstance(cmd, CurationCommand) else None

    def _sync_stack(self, audit_id: int, kind: str) -> None:
        """After an entry was undone or redone outside the stack's order: its command, if the stack has
        one, is obsolete while the database's state and the command's place in the stack disagree (an
        undone edit below the stack's index, a redone one above it), and whole again when they agree."""
        undone = kind == curation.UNDO
        for i in range(self.stack.count()):
            cmd = self.stack.command(i)
            if isinstance(cmd, CurationCommand) and cmd.audit_id == audit_id:
                applied_by_stack = i < self.stack.index()
                cmd.setObsolete(applied_by_stack == undone)
        self._skip_obsolete()

    def _skip_obsolete(self) -> None:
        """Drop the obsolete commands next to the stack's index, so that Edit › Undo and Edit › Redo name
        (or, with none left, disable) the steps that can really be taken."""
        while (cmd := self._next_command(True)) is not None and cmd.isObsolete():
            self.stack.undo()  # deletes an obsolete command without running it
        while (cmd := self._next_command(False)) is not None and cmd.isObsolete():
            self.stack.redo()

    def _announce(self, kind: str, entry: AuditEntry, initiator: Any = None) -> curation.Changes:
        """Tell the tabs (``ctx.changed``): an undo or redo step has no initiator, every tab showing the
        rows it changed reloads them."""
        self.stepFinished.emit(kind, entry)
        return self.ctx.announce(curation.Changes.of(entry, kind), initiator)

    # -- undo / redo steps ----------------------------------------------------------------------------
    def _step(self, cmd: CurationCommand, kind: str) -> None:
        actor = self.ctx.actor
        audit_id = cmd.audit_id
        fn = curation.undo if kind == curation.UNDO else curation.redo

        def _run(db: Any) -> AuditEntry:
            return fn(db, audit_id, actor)

        def _done(entry: AuditEntry) -> None:
            self._skip_obsolete()
            self._set_busy(-1)
            self._announce(kind, entry)
            self._say(kind, cmd.text())

        def _failed(exc: BaseException) -> None:
            self._drop(cmd, kind)  # first: busyChanged then tells the actions about the new stack
            self._set_busy(-1)
            what = self.tr("Undo failed") if kind == curation.UNDO else self.tr("Redo failed")
            self.ctx.show_error(what, exc)

        self._set_busy(+1)
        self._last_step = self.ctx.write(_run, on_result=_done, on_error=_failed, label=cmd.text())

    def _say(self, kind: str, text: str) -> None:
        """The status bar says which edit was undone or redone."""
        said = self.tr("Undone: {0}") if kind == curation.UNDO else self.tr("Redone: {0}")
        self.ctx.statusMessage.emit(said.format(text))

    def _drop(self, cmd: CurationCommand, kind: str) -> None:
        """After a failed step: remove ``cmd`` from the stack, keeping the index truthful."""
        if not is_valid(cmd):
            return
        idx = self.stack.index()
        cmd.setObsolete(True)
        if kind == curation.UNDO:
            # The stack moved below cmd although the change is still applied; redo() on an obsolete
            # command deletes it without running it.
            if idx < self.stack.count() and self.stack.command(idx) is cmd:
                self.stack.redo()
        elif idx > 0 and self.stack.command(idx - 1) is cmd:
            # A failed redo: undo() on an obsolete command deletes it without running it.
            self.stack.undo()
