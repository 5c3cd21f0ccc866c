"""``HealthPage``: one page of the Health tab, and the hooks the tab passes to it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from philont_desktop.qt import QWidget
from philont_desktop.retranslate import Retranslatable

if TYPE_CHECKING:
    from philont_desktop.context import AppContext
    from philont_desktop.tabs.base import BaseTab
    from philont_desktop.tabs.controller import TabController


class HealthPage(Retranslatable, QWidget):
    """Base class of the Health tab's pages. Subclasses set ``name`` (their declared name).

    Reads go through :attr:`controller` (the tab's: ``controller.run(fn, *args, key=..., label=...)``),
    edits through ``controller.curate(change, text)``; both are tracked, so the tab's ``wait_idle`` and
    busy state cover the page.
    """

    name: str = ""

    def __init__(self, ctx: AppContext, tab: BaseTab, parent: QWidget | None = None):
        super().__init__(parent if parent is not None else tab)
        self.ctx = ctx
        self.tab = tab
        self.setObjectName(f"health{self.name[:1].upper()}{self.name[1:]}Page")
        self.activated = False

    @property
    def controller(self) -> TabController:
        return self.tab.controller

    def ensure_activated(self) -> None:
        if not self.activated:
            self.activated = True
            self.activate()

    # -- hooks (on the GUI thread) ----------------------------------------------------------------------
    def activate(self) -> None:
        """First shown: start loading (default: :meth:`refresh`)."""
        self.refresh()

    def refresh(self) -> None:
        """The database changed (or F5) while the page has been shown once: reload what it shows."""

    def set_editing(self, on: bool) -> None:
        """Editing mode changed: show or hide the page's fixes."""

    def retranslate(self) -> None:
        """The language changed: rebuild texts made at run time (default: :meth:`refresh` if shown once)."""
        if self.activated:
            self.refresh()

    def save_state(self) -> None:
        """Persist the page's view state (splitters)."""

    def settle(self, timeout_ms: int) -> bool:
        """Spin the event loop until the page shows everything it is working on (screenshots); default:
        the tab's reads (a page whose work runs beside them, as the Recall page's replay, waits for it)."""
        return self.controller.wait_idle(timeout_ms)
