"""``TabController``: runs a tab's read ops and curation through the AppContext; holds no widgets.

After Spyder's split of a plugin from its widgets and Anki's ``CollectionOp``/``OpChanges``:

* reads: ``self.submit(ReadOp(...), on_result=...)`` runs off the GUI thread; the op's key is put under
  the tab's name (a newer op with the same key cancels the older one) and the job is tracked, so
  :meth:`wait_idle` and :attr:`busy` know when the tab has everything it asked for;
* edits: ``self.curate(change, text)`` runs a :class:`core.curation.Change` as one audited, undoable
  transaction; the answer is a :class:`~philont_desktop.context.ChangeNotice` (which layer, which rows, and
  this controller as its ``initiator``), applied by the edit's ``on_result`` (default
  :meth:`changes_applied`);
* every other edit, and every undo or redo, made anywhere in the app reaches :meth:`changes_applied`
  when its layer is one of :attr:`layers`; the default reloads (:meth:`refresh`), a controller can
  reload only the rows named by ``changes.ids``. The file change the live monitor then reports is the
  edit's own: a tab that heard the notice does not reload for it again.

A controller writes its tab's :class:`~philont_desktop.tabs.state.TabState`; the view listens to the
state. Subclasses override :meth:`activate` (first shown), :meth:`refresh` (the database changed) and
add the reads and edits of their tab.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from philont_desktop.ops import ReadOp
from philont_desktop.qt import QObject, Signal
from philont_desktop.tabs.state import TabState
from philont_desktop.workers import Job, spin_until

if TYPE_CHECKING:
    from core.curation import Change, Changes
    from philont_desktop.context import AppContext


class TabController(QObject):
    """The controller of one tab (named ``name``) over ``state``."""

    busyChanged = Signal(bool)
    #: The curation layers (``core.curation`` module names) whose changes this tab shows ("*": all).
    layers: tuple[str, ...] = ()

    def __init__(self, ctx: AppContext, state: TabState, name: str, parent: QObject | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.state = state
        self.name = name
        self._pending: set[Job] = set()
        self.active = False  # set when the tab is first shown; changes reach an active controller only
        ctx.workers.jobDone.connect(self._untrack)
        ctx.changed.connect(self._on_changes)

    # -- hooks ----------------------------------------------------------------------------------------
    def activate(self) -> None:
        """The tab is shown for the first time: start loading (default: :meth:`refresh`)."""
        self.refresh()

    def refresh(self) -> None:
        """The database changed: reload what the state shows, keeping the selection."""

    def changes_applied(self, changes: Changes) -> None:
        """An edit, undo or redo changed one of :attr:`layers` (default: :meth:`refresh`)."""
        self.refresh()

    # -- reads ----------------------------------------------------------------------------------------
    def submit(
        self,
        op: ReadOp,
        *,
        on_result: Callable[[Any], Any] | None = None,
        on_error: Callable[[BaseException], Any] | None = None,
        on_progress: Callable[[int, int], Any] | None = None,
    ) -> Job:
        """Run ``op`` off the GUI thread; tracked by :meth:`wait_idle` (its key goes under the tab's name)."""
        job = self.ctx.submit(
            op.keyed(self.name), on_result=on_result, on_error=on_error, on_progress=on_progress
        )
        return self.track(job)

    def run(
        self,
        fn: Callable[..., Any],
        *args: Any,
        on_result: Callable[[Any], Any] | None = None,
        on_error: Callable[[BaseException], Any] | None = None,
        on_progress: Callable[[int, int], Any] | None = None,
        **op: Any,
    ) -> Job:
        """``submit(ReadOp(fn, args, **op))``."""
        return self.submit(
            ReadOp(fn, args, **op), on_result=on_result, on_error=on_error, on_progress=on_progress
        )

    # -- writes ---------------------------------------------------------------------------------------
    def curate(
        self,
        change: Change,
        text: str | None = None,
        *,
        on_result: Callable[[Changes], Any] | None = None,
        on_error: Callable[[BaseException], Any] | None = None,
    ) -> Job:
        """Run ``change`` as an audited, undoable edit named ``text`` on the undo stack.

        This controller is the edit's initiator: it does not hear the edit's change notice; ``on_result``
        (by default :meth:`changes_applied`) applies the result, once the live monitor has seen the write.
        """
        apply = on_result if on_result is not None else self.changes_applied

        def _applied(changes: Changes) -> None:
            self.after_probe(changes, lambda: apply(changes))

        job = self.ctx.curate(change, text=text, on_result=_applied, on_error=on_error, initiator=self)
        return self.track(job)

    def write(
        self,
        fn: Callable[..., Any],
        *args: Any,
        on_result: Callable[[Any], Any] | None = None,
        on_error: Callable[[BaseException], Any] | None = None,
        label: str = "",
    ) -> Job:
        """``fn(writer_db, *args)`` on the writer, not audited (backups, restores); prefer :meth:`curate`."""
        return self.track(self.ctx.write(fn, *args, on_result=on_result, on_error=on_error, label=label))

    # -- waiting --------------------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        return bool(self._pending)

    @property
    def pending(self) -> set[Job]:
        return self._pending

    def wait_idle(self, timeout_ms: int = 10_000) -> bool:
        """Spin the event loop until this tab's jobs are done (screenshots, tests, self-test)."""
        return spin_until(lambda: not self._pending, timeout_ms)

    def track(self, job: Job) -> Job:
        """Count ``job`` (started elsewhere) as this tab's: :meth:`wait_idle` waits for it too."""
        if job.is_done:
            return job
        was = self.busy
        self._pending.add(job)
        if not was:
            self.busyChanged.emit(True)
        return job

    def _untrack(self, job: Job) -> None:
        if job in self._pending:
            self._pending.discard(job)
            if not self._pending:
                self.busyChanged.emit(False)

    def hears(self, changes: Changes) -> bool:
        """Whether ``changes`` reach :meth:`changes_applied`: the tab is shown and shows their layer."""
        return self.active and (changes.layer in self.layers or "*" in self.layers)

    def after_probe(self, changes: Changes, fn: Callable[[], Any]) -> None:
        """``fn()`` once the live monitor has seen the write of ``changes`` (its probe is this tab's job
        meanwhile, so :meth:`wait_idle` waits for what follows)."""
        probe = getattr(changes, "probe", None)
        if probe is not None:
            self.track(probe)
        self.ctx.after_probe(changes, fn)

    def _on_changes(self, changes: Changes) -> None:
        if getattr(changes, "initiator", None) is self:
            return  # its own edit: the result is applied by the edit's on_result
        if self.hears(changes):
            self.after_probe(changes, lambda: self.changes_applied(changes))
