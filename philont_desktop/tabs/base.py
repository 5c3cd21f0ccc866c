"""``BaseTab``: what every tab of the main window is.

A tab gets the :class:`~philont_desktop.context.AppContext` and never owns threads or connections.
The shell calls, on the GUI thread:

* ``activate()`` once, the first time the tab is shown: start loading (through ``self.run``).
* ``refresh()`` when the database changed (``ctx.dataChanged``) while the tab is visible, or when it
  becomes visible after a change: reload what is shown, keep selection and scroll position, show
  "N new" rather than jumping.
* ``set_editing(on)`` when editing mode changes (also once right after construction).
* ``self_test()`` from ``--self-test`` (after ``activate`` and ``wait_idle``): exercise the tab (run a
  search, render a plot; waiting synchronously with ``job.wait()`` is fine there) and return the
  problems found, one readable line each (empty: all good).
* ``wait_idle(timeout_ms)`` for screenshots and tests: returns when the loads started through
  ``self.run`` / ``self.write`` / ``self.curate`` are done.
* ``retranslate()`` after a language switch (``changeEvent(LanguageChange)``): texts set once with
  ``self.tr("...")`` are already switched by then; rebuild those made with ``tr(...).format(...)``.
  The default reloads the tab when it was shown (``refresh()``), which rebuilds them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from philont_desktop.i18n import Retranslatable
from philont_desktop.qt import QSplitter, QWidget, Signal
from philont_desktop.workers import Job, spin_until

if TYPE_CHECKING:
    from philont_desktop.context import AppContext


class BaseTab(Retranslatable, QWidget):
    """Base class of the tabs. Subclasses set ``name`` and override ``title`` and the hooks."""

    name: str = ""
    busyChanged = Signal(bool)

    def __init__(self, ctx: AppContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName(f"{self.name or 'tab'}Tab")
        self._pending: set[Job] = set()
        self._activated = False
        self._splitters: list[tuple[QSplitter, str]] = []
        ctx.workers.jobDone.connect(self._untrack)

    # -- hooks ----------------------------------------------------------------------------------------
    def title(self) -> str:
        """The tab's label (translated). Override with a literal ``self.tr("Timeline")``."""
        return self.name.capitalize()

    def activate(self) -> None:
        """First shown: start loading. The default calls :meth:`refresh`."""
        self.refresh()

    def refresh(self) -> None:
        """The database changed: reload what is visible, keeping selection and scroll position."""

    def set_editing(self, on: bool) -> None:
        """Editing mode changed: show or hide the editing controls."""

    def self_test(self) -> list[str]:
        """Exercise the tab for ``--self-test``; return the problems found (empty: all good)."""
        return []

    def retranslate(self) -> None:
        """The language changed: rebuild texts made at run time (default: ``refresh()`` if shown once)."""
        if self._activated:
            self.refresh()

    def save_state(self) -> None:
        """Persist view state (splitters registered with :meth:`register_splitter` are saved here)."""
        for splitter, key in self._splitters:
            self.ctx.settings.set_splitter_state(key, splitter.saveState())

    # -- used by the shell ----------------------------------------------------------------------------
    @property
    def activated(self) -> bool:
        return self._activated

    def ensure_activated(self) -> None:
        if not self._activated:
            self._activated = True
            self.activate()

    @property
    def busy(self) -> bool:
        return bool(self._pending)

    def wait_idle(self, timeout_ms: int = 10_000) -> bool:
        """Spin the event loop until this tab's jobs are done (screenshots, tests)."""
        return spin_until(lambda: not self._pending, timeout_ms)

    # -- helpers for subclasses -------------------------------------------------------------------------
    def run(
        self,
        fn: Callable[..., Any],
        *args: Any,
        on_result: Callable[[Any], Any] | None = None,
        on_error: Callable[[BaseException], Any] | None = None,
        key: str | None = None,
        progress: bool = False,
        on_progress: Callable[[int, int], Any] | None = None,
        label: str = "",
    ) -> Job:
        """``ctx.run`` whose job is tracked by :meth:`wait_idle` and :attr:`busy`."""
        return self._track(
            self.ctx.run(
                fn,
                *args,
                on_result=on_result,
                on_error=on_error,
                key=f"{self.name}:{key}" if key else None,
                progress=progress,
                on_progress=on_progress,
                label=label,
            )
        )

    def write(
        self,
        fn: Callable[..., Any],
        *args: Any,
        on_result: Callable[[Any], Any] | None = None,
        on_error: Callable[[BaseException], Any] | None = None,
        label: str = "",
    ) -> Job:
        return self._track(self.ctx.write(fn, *args, on_result=on_result, on_error=on_error, label=label))

    def curate(self, text: Any, **kwargs: Any) -> Job:
        """``ctx.curate`` (audited, undoable edit; ``text`` or a change object) tracked by :meth:`wait_idle`."""
        return self._track(self.ctx.curate(text, **kwargs))

    def register_splitter(self, splitter: QSplitter, key: str) -> None:
        """Restore ``splitter`` from the settings now and save it with :meth:`save_state`."""
        state = self.ctx.settings.splitter_state(f"{self.name}/{key}")
        if state:
            splitter.restoreState(state)
        self._splitters.append((splitter, f"{self.name}/{key}"))

    def _track(self, job: Job) -> Job:
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
