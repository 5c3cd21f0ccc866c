"""The tabs of the window: every registered tab's title at once, each tab built when first needed.

:class:`TabHost` fills a ``QTabWidget`` from the registry (:mod:`philont_desktop.tabs`) for one open
database. A tab's place holds a :class:`TabSlot` until the tab is shown or looked up; then its module is
imported and the tab built in place (an :class:`ErrorTab` saying why when that fails). Once the shown tab
is idle the modules of the others are imported in the background, then the tabs built one at a time
while the event loop is quiet (``prebuild``; ``prebuilt`` when all are). When the database changes the
shown tab refreshes at once and the others when they are next shown.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from philont_desktop import preload
from philont_desktop.qt import (
    QLabel,
    QObject,
    QSizePolicy,
    Qt,
    QTabWidget,
    QTimer,
    QVBoxLayout,
    QWidget,
    Signal,
    is_valid,
)
from philont_desktop.retranslate import on_language_changed
from philont_desktop.settings import Settings
from philont_desktop.tabs import TabEntry, TabRegistrationError, registry
from philont_desktop.tabs.base import BaseTab
from philont_desktop.widgets import accessible

if TYPE_CHECKING:
    from philont_desktop.context import AppContext


class ErrorTab(BaseTab):
    """Stands in for a tab that failed to load, saying why (``load_error``; the self-test reports it)."""

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
    """Holds a tab's place (and title) in the tab bar until the tab is built."""

    def __init__(self, entry: TabEntry, parent: QWidget | None = None):
        super().__init__(parent)
        self.entry = entry
        self.name = entry.name
        self.setObjectName(f"{entry.name}Slot")

    def title(self) -> str:
        return self.entry.title()


class TabsByName(Mapping):
    """Every tab by name; looking one up builds it when it is not built yet.

    Iterating gives the names in display order without building anything; ``values()`` builds them all.
    """

    def __init__(self, host: TabHost):
        self._host = host

    def __getitem__(self, name: str) -> BaseTab:
        tab = self._host.tab(name)
        if tab is None:
            raise KeyError(name)
        return tab

    def __contains__(self, name: object) -> bool:
        return name in self._host.names()

    def __iter__(self) -> Iterator[str]:
        return iter(self._host.names())

    def __len__(self) -> int:
        return len(self._host.names())


# Tabs are built in the background when the event loop is quiet: a tick every PREBUILD_TICK_MS, and a
# tab built after PREBUILD_QUIET_TICKS ticks in a row came on time. A late tick means something else ran
# in that turn (a tab's plots made one per turn, a page of rows): building a tab then would add its
# construction to that work, in one long turn. A loop never quiet still gets a tab every PREBUILD_MAX_WAIT_S.
PREBUILD_TICK_MS = 10
PREBUILD_QUIET_TICKS = 3
PREBUILD_LATE_MS = 6
PREBUILD_MAX_WAIT_S = 1.0
PRELOAD_LATEST_S = 3.0  # the imports wait for the shown tab to be idle, this long at most


class TabHost(QObject):
    """The registered tabs of one database in ``widget`` (a ``QTabWidget``)."""

    prebuilt = Signal()  # every tab is built (the background build is over)

    def __init__(
        self, widget: QTabWidget, settings: Settings, *, persist: bool, parent: QObject | None = None
    ):
        super().__init__(parent)
        self.widget = widget
        self.settings = settings
        self.persist = persist  # remember the current tab and the tabs' view state
        self.prebuild = False  # build the tabs not shown yet in idle time
        self.ctx: AppContext | None = None
        self.errors: list[str] = []
        self._tabs: dict[str, BaseTab] = {}  # built so far (the others are TabSlots)
        self._stale: set[BaseTab] = set()
        self._prebuild_timer = QTimer(self)
        self._prebuild_timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._prebuild_timer.setInterval(PREBUILD_TICK_MS)
        self._prebuild_timer.timeout.connect(self._prebuild_tick)
        self._tick_due = 0.0  # when the next tick should come (time.monotonic())
        self._quiet_ticks = 0
        self._waiting_since = 0.0
        self._to_preload: list[str] | None = None  # imported once the shown tab is idle
        self._preload_due = 0.0  # or at this time (time.monotonic()) if it is busy for so long
        widget.currentChanged.connect(self._on_current_changed)
        widget.setObjectName("windowTabs")
        accessible.name_widget(widget)
        on_language_changed(widget, lambda: accessible.name_widget(widget))

    # -- building -------------------------------------------------------------------------------------
    def build(self, ctx: AppContext) -> None:
        """Put every tab's title in the bar and build the tab shown first (the others when needed)."""
        self.ctx = ctx
        self.widget.blockSignals(True)
        self.errors = []
        for entry in registry():
            slot = TabSlot(entry)
            self.widget.addTab(slot, slot.title())
        wanted = self.settings.current_tab if self.persist else ""
        names = self.names()
        preferred = registry().home_for(ctx.db_path)  # the Review tab, for a database reviewed before
        if preferred is not None:
            wanted = preferred.name
        if wanted not in names:
            home = registry().home()
            wanted = home.name if home is not None else ""
        self.widget.setCurrentIndex(names.index(wanted) if wanted in names else 0)
        self.widget.blockSignals(False)
        current = self.tab_at(self.widget.currentIndex())
        if current is not None:
            current.ensure_activated()
            accessible.prepare(current)

    def start_prebuilding(self) -> None:
        """Once the shown tab is idle, import the plots and the tabs not built yet in the background,
        then build those tabs one at a time while the shown tab is idle and the event loop quiet (each
        once its module is in). The imports wait for the shown tab: beside its first load (a page of
        rows, its cards laid out) they would compete with the GUI thread for the interpreter."""
        if self.prebuild:
            current = self.current()
            shown = registry().get(current.name) if current is not None else None
            modules = [preload.PLOTS, *(shown.preload if shown is not None else ())]
            for i in range(self.widget.count()):
                slot = self.widget.widget(i)
                if isinstance(slot, TabSlot):
                    modules += [slot.entry.module, *slot.entry.preload]
            self._to_preload = modules
            preload.start(self._to_preload, now=False)  # what needs them waits for them
            now = time.monotonic()
            self._preload_due = now + PRELOAD_LATEST_S
            self._tick_due, self._quiet_ticks, self._waiting_since = now + PREBUILD_TICK_MS / 1000, 0, now
            self._prebuild_timer.start()

    def _prebuild_tick(self) -> None:
        now = time.monotonic()
        on_time = now - self._tick_due <= PREBUILD_LATE_MS / 1000
        self._tick_due = now + PREBUILD_TICK_MS / 1000
        self._quiet_ticks = self._quiet_ticks + 1 if on_time else 0
        if self._quiet_ticks >= PREBUILD_QUIET_TICKS or now - self._waiting_since > PREBUILD_MAX_WAIT_S:
            self._prebuild_next()

    def names(self) -> list[str]:
        """The names of the tabs in display order, built or not."""
        out = []
        for i in range(self.widget.count()):
            page = self.widget.widget(i)
            if isinstance(page, BaseTab | TabSlot):
                out.append(page.name)
        return out

    def built(self) -> list[BaseTab]:
        """The tabs built so far, in display order."""
        return [t for t in self._tabs.values() if is_valid(t)]

    def tab(self, name: str) -> BaseTab | None:
        """The tab called ``name``, built now if it was not yet (``None``: no such tab or no database)."""
        tab = self._tabs.get(name)
        if tab is not None:
            return tab
        for i in range(self.widget.count()):
            page = self.widget.widget(i)
            if isinstance(page, TabSlot) and page.name == name:
                return self._build_tab(page)
        return None

    def tab_at(self, index: int) -> BaseTab | None:
        """The tab at ``index`` of the tab bar, built now if it was not yet."""
        page = self.widget.widget(index)
        if isinstance(page, TabSlot):
            return self._build_tab(page)
        return page if isinstance(page, BaseTab) else None

    def show(self, name: str) -> BaseTab | None:
        """Select the tab called ``name`` (built if needed)."""
        tab = self.tab(name)
        if tab is not None:
            self.widget.setCurrentWidget(tab)
        return tab

    def current(self) -> BaseTab | None:
        page = self.widget.currentWidget()
        return page if isinstance(page, BaseTab) else None

    def _build_tab(self, slot: TabSlot) -> BaseTab:
        """Import and construct the tab ``slot`` stands for and put it in the slot's place."""
        ctx = self.ctx
        assert ctx is not None
        tab: BaseTab | None = None
        try:
            with preload.quiet():  # its imports (and its widgets' own) never beside a background one
                tab = registry().load_class(slot.entry)(ctx)
        except TabRegistrationError as exc:
            error = str(exc)
        except Exception as exc:  # one broken tab must not take the window down
            error = f"{slot.name}: {type(exc).__name__}: {exc}"
        if tab is None:
            tab = ErrorTab(ctx, slot.name, error)
            self.errors.append(error)
        tab.set_editing(ctx.editing)
        accessible.prepare(tab)
        on_language_changed(tab, lambda: accessible.prepare(tab))
        self._tabs[slot.name] = tab
        self._replace(slot, tab)
        return tab

    def _replace(self, slot: TabSlot, tab: BaseTab) -> None:
        # Insert the tab before its slot, then remove the slot selecting the tab on its left (the new
        # one): the current page never changes on the way.
        bar = self.widget.tabBar()
        behaviour = bar.selectionBehaviorOnRemove()
        blocked = self.widget.blockSignals(True)
        try:
            index = self.widget.indexOf(slot)
            current = self.widget.currentIndex()
            bar.setSelectionBehaviorOnRemove(bar.SelectionBehavior.SelectLeftTab)
            self.widget.insertTab(index, tab, tab.title())
            self.widget.removeTab(index + 1)
            self.widget.setCurrentIndex(current)
        finally:
            bar.setSelectionBehaviorOnRemove(behaviour)
            self.widget.blockSignals(blocked)
        slot.deleteLater()

    def _prebuild_next(self) -> None:
        """Build one tab that is not built yet, when the shown tab has finished loading."""
        if self.ctx is None or self.ctx.closed:
            self._prebuild_timer.stop()
            self._start_preloading()
            return
        current = self.current()
        busy = current is not None and current.busy
        if self._to_preload is not None and (not busy or time.monotonic() > self._preload_due):
            self._start_preloading()
            return
        if busy:
            self._waiting_since = time.monotonic()  # its loading first, however long it takes
            return
        if preload.busy():  # a tab is built when no module is imported beside it
            self._waiting_since = time.monotonic()
            return
        waiting = False
        for i in range(self.widget.count()):
            slot = self.widget.widget(i)
            if isinstance(slot, TabSlot):
                if preload.is_pending(slot.entry.module):  # built once imported, not imported here
                    waiting = True
                    continue
                self.tab_at(i)
                self._quiet_ticks, self._waiting_since = 0, time.monotonic()
                return
        if not waiting:
            self._prebuild_timer.stop()
            self.prebuilt.emit()

    def _start_preloading(self) -> None:
        modules, self._to_preload = self._to_preload, None
        if modules:
            preload.start(modules)  # announced: imported now, so that nothing waits for ever
        self._quiet_ticks, self._waiting_since = 0, time.monotonic()

    def clear(self) -> None:
        """Save the tabs' state (when persisting) and remove them all."""
        if self.persist:
            self.save_states()
        self._prebuild_timer.stop()
        self._start_preloading()
        self.widget.blockSignals(True)
        while self.widget.count():
            w = self.widget.widget(0)
            self.widget.removeTab(0)
            w.deleteLater()
        self.widget.blockSignals(False)
        self._tabs = {}
        self._stale.clear()
        self.ctx = None

    def save_states(self) -> None:
        for tab in self.built():
            with contextlib.suppress(Exception):
                tab.save_state()
        current = self.current()
        if current is not None:
            self.settings.current_tab = current.name

    # -- following the database -----------------------------------------------------------------------
    def set_editing(self, on: bool) -> None:
        for tab in self.built():
            tab.set_editing(on)

    def data_changed(self) -> None:
        """The database changed: the shown tab refreshes (paced: ``live_refresh``), the others when next
        shown."""
        current = self.widget.currentWidget()
        for tab in self.built():
            if not tab.activated:
                continue
            if tab is current:
                tab.live_refresh()
            else:
                self._stale.add(tab)

    def refresh_current(self) -> None:
        tab = self.current()
        if tab is not None and tab.activated:
            tab.refresh()

    def retitle(self) -> None:
        """The language changed: the titles of the tab bar follow."""
        for index in range(self.widget.count()):
            page = self.widget.widget(index)
            if isinstance(page, BaseTab | TabSlot):
                self.widget.setTabText(index, page.title())

    def _on_current_changed(self, index: int) -> None:
        self._size_by_current(index)
        tab: Any = self.tab_at(index) if index >= 0 else None
        if not isinstance(tab, BaseTab):
            return
        if not tab.activated:
            tab.ensure_activated()
            accessible.prepare(tab)  # and what the tab made when it was first shown
            self._stale.discard(tab)
        elif tab in self._stale:
            self._stale.discard(tab)
            tab.refresh()

    def _size_by_current(self, index: int) -> None:
        """The window's tabs are as wide and tall as the shown tab needs, not as the widest tab shown
        before: with large text one tab scrolling sideways would otherwise make every tab scroll."""
        ignored, preferred = QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred
        for i in range(self.widget.count()):
            page = self.widget.widget(i)
            policy = preferred if i == index else ignored
            if page.sizePolicy().horizontalPolicy() != policy:
                page.setSizePolicy(policy, policy)
