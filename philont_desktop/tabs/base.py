"""``BaseTab``: the view of a tab, and the hooks the window calls.

A tab folder has three parts (see :mod:`philont_desktop.tabs`): a Qt-free ``state.py``
(:class:`~philont_desktop.tabs.state.TabState`), a ``controller.py``
(:class:`~philont_desktop.tabs.controller.TabController`: read ops and curation through the
:class:`~philont_desktop.context.AppContext`) and a short ``view.py`` whose ``BaseTab`` subclass composes
the widgets (``widgets/`` when there are several) and wires them to state and controller. The view
makes its state and controller in :meth:`create_state` / :meth:`create_controller`; a tab that has not
been converted yet gets a plain ``TabState`` and a ``TabController`` and uses :meth:`run` /
:meth:`curate`, which go through that controller.

The window calls, on the GUI thread:

* ``activate()`` once, the first time the tab is shown: start loading (default: the controller's).
* ``refresh()`` when the database changed (``ctx.dataChanged``) while the tab is visible, or when it
  becomes visible after a change: reload what is shown, keep selection and scroll position, show
  "N new" rather than jumping (default: the controller's).
* ``live_refresh()`` when another process wrote while the tab is shown: ``refresh()``, paced so that the
  tab is idle between reloads while the agent keeps writing.
* ``set_editing(on)`` when editing mode changes (also once right after construction).
* ``navigate(target)`` when another tab asks to show something here (see
  :mod:`~philont_desktop.tabs.navigation`); return whether it could.
* ``wait_idle(timeout_ms)`` for screenshots and tests: returns when the jobs started through the
  controller are done.
* ``retranslate()`` after a language switch: texts set once with ``self.tr("...")`` are already
  switched; rebuild those made with ``tr(...).format(...)`` (default: ``refresh()`` if shown once).

The title comes from the tab's registration (:mod:`philont_desktop.tabs`), never from the class. The
checks of ``--self-test`` live in :mod:`philont_desktop.selftest`, not in the views.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from philont_desktop.qt import QSplitter, QWidget, Signal
from philont_desktop.retranslate import Retranslatable
from philont_desktop.tabs.controller import TabController
from philont_desktop.tabs.navigation import Target
from philont_desktop.tabs.pacing import LivePacer
from philont_desktop.tabs.state import TabState
from philont_desktop.workers import Job

if TYPE_CHECKING:
    from core.curation import Change
    from philont_desktop.context import AppContext
    from philont_desktop.widgets.loading import LoadingOverlay


class BaseTab(Retranslatable, QWidget):
    """Base class of the tabs' views. Subclasses set ``name`` (their registered name)."""

    name: str = ""
    #: The navigation target types this tab can show (see :meth:`navigate`).
    targets: tuple[type[Target], ...] = ()
    busyChanged = Signal(bool)
    #: Veil the tab with "Loading…" until its first read arrives (off for a tab that says so in its own
    #: places, as the Timeline does in its list, chart and conversation).
    loading_sign = True

    def __init__(self, ctx: AppContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName(f"{self.name or 'tab'}Tab")
        self._activated = False
        self._splitters: list[tuple[QSplitter, str]] = []
        self._pacer: LivePacer | None = None
        self._loading: LoadingOverlay | None = None
        self._first_read = False
        self.state = self.create_state()
        self.controller = self.create_controller()
        self.controller.busyChanged.connect(self.busyChanged)

    # -- construction ---------------------------------------------------------------------------------
    def create_state(self) -> TabState:
        """This tab's Qt-free state (override in the tab's view)."""
        return TabState()

    def create_controller(self) -> TabController:
        """This tab's controller (override in the tab's view)."""
        return TabController(self.ctx, self.state, self.name, self)

    # -- hooks ----------------------------------------------------------------------------------------
    def title(self) -> str:
        """The tab's label in the current language, from its registration."""
        from philont_desktop.tabs import registry

        entry = registry().get(self.name)
        return entry.title() if entry is not None else self.name.capitalize()

    def activate(self) -> None:
        """First shown: start loading."""
        self.controller.activate()

    def refresh(self) -> None:
        """The database changed: reload what is visible, keeping selection and scroll position."""
        self.controller.refresh()

    def live_refresh(self) -> None:
        """Another process (the agent) wrote to the file while the tab is shown: :meth:`refresh`, paced.

        The changes are coalesced (see :mod:`~philont_desktop.tabs.pacing`), so that the tab becomes
        idle between reloads while an agent keeps writing; an explicit :meth:`refresh` (F5, another
        tab's edit) is never delayed.
        """
        notice = getattr(self.ctx, "explained", None)
        if notice is not None and (notice.initiator is self.controller or self.controller.hears(notice)):
            return  # an edit made here: its change notice reloads what it changed, once
        if self._pacer is None:
            self._pacer = LivePacer(self.refresh, lambda: self.busy, self.controller.busyChanged, self)
        self._pacer.request()

    def set_editing(self, on: bool) -> None:
        """Editing mode changed: show or hide the editing controls."""

    def navigate(self, target: Target) -> bool:
        """Show ``target`` (one of :attr:`targets`); ``False`` when it cannot be shown."""
        return False

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
            self.controller.active = True
            self.activate()
            if self.busy:  # until the first read arrives the tab says so, not a blank page
                self._first_read = True
                if self.loading_sign:
                    from philont_desktop.widgets.loading import LoadingOverlay

                    self._loading = LoadingOverlay(self)
                self.controller.busyChanged.connect(self._first_read_arrived)

    def _first_read_arrived(self, busy: bool) -> None:
        if busy or not self._first_read:
            return
        self.controller.busyChanged.disconnect(self._first_read_arrived)
        self._first_read = False
        if self._loading is not None:
            self._loading.finish()
            self._loading = None

    @property
    def loading(self) -> bool:
        """The tab's first read has not arrived yet (it says "Loading…")."""
        return self._first_read

    @property
    def loading_overlay(self) -> LoadingOverlay | None:
        """The "Loading…" veil over the tab while its first read is on its way (``None``: none)."""
        return self._loading

    @property
    def busy(self) -> bool:
        return self.controller.busy

    @property
    def _pending(self) -> set[Job]:
        return self.controller.pending

    def wait_idle(self, timeout_ms: int = 10_000) -> bool:
        """Spin the event loop until this tab's jobs are done (screenshots, tests)."""
        return self.controller.wait_idle(timeout_ms)

    # -- helpers for tabs not converted to a controller yet --------------------------------------------
    def run(
        self,
        fn: Callable[..., Any],
        *args: Any,
        on_result: Callable[[Any], Any] | None = None,
        on_error: Callable[[BaseException], Any] | None = None,
        on_progress: Callable[[int, int], Any] | None = None,
        **op: Any,
    ) -> Job:
        """``controller.run``: a read op (``key``, ``label``, ``progress``) tracked by :meth:`wait_idle`."""
        return self.controller.run(
            fn, *args, on_result=on_result, on_error=on_error, on_progress=on_progress, **op
        )

    def write(
        self,
        fn: Callable[..., Any],
        *args: Any,
        on_result: Callable[[Any], Any] | None = None,
        on_error: Callable[[BaseException], Any] | None = None,
        label: str = "",
    ) -> Job:
        return self.controller.write(fn, *args, on_result=on_result, on_error=on_error, label=label)

    def curate(
        self,
        change: Change,
        text: str | None = None,
        *,
        on_result: Callable[[Any], Any] | None = None,
        on_error: Callable[[BaseException], Any] | None = None,
    ) -> Job:
        """``controller.curate``: an audited, undoable edit tracked by :meth:`wait_idle`."""
        return self.controller.curate(change, text, on_result=on_result, on_error=on_error)

    def register_splitter(self, splitter: QSplitter, key: str) -> None:
        """Restore ``splitter`` from the settings now and save it with :meth:`save_state`."""
        state = self.ctx.settings.splitter_state(f"{self.name}/{key}")
        if state:
            splitter.restoreState(state)
        self._splitters.append((splitter, f"{self.name}/{key}"))
