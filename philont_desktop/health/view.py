"""The Health tab: its pages (:mod:`.pages`) as inner tabs, each built the first time it is shown."""

from __future__ import annotations

import functools
from collections.abc import Callable

from philont_desktop.health.page import HealthPage
from philont_desktop.health.pages import PAGES
from philont_desktop.qt import QTabWidget, QVBoxLayout, QWidget
from philont_desktop.tabs.base import BaseTab
from philont_desktop.tabs.controller import TabController


class HealthController(TabController):
    """The tab's controller: the pages' reads and edits go through it; every layer's change reaches
    the pages built so far."""

    layers = ("*",)

    def __init__(self, ctx, state, name, tab: HealthTab):
        super().__init__(ctx, state, name, tab)
        self._tab = tab

    def refresh(self) -> None:
        for page in self._tab.pages():
            if page.activated:
                page.refresh()


class HealthTab(BaseTab):
    """What is wrong with this memory: one page per concern (the doctor, recall, privacy)."""

    name = "health"
    loading_sign = False  # each page says what it is doing in its own place

    def __init__(self, ctx, parent: QWidget | None = None):
        super().__init__(ctx, parent)
        self.inner = QTabWidget(self)
        self.inner.setObjectName("healthPages")
        self.inner.setDocumentMode(True)
        self._slots: list[QWidget] = []
        self._pages: dict[int, HealthPage] = {}
        for entry in PAGES:
            slot = QWidget(self.inner)
            QVBoxLayout(slot).setContentsMargins(0, 0, 0, 0)
            self._slots.append(slot)
            self.inner.addTab(slot, entry.title())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.inner)
        self.inner.currentChanged.connect(self._on_current)
        self.set_editing(ctx.editing)

    def create_controller(self) -> HealthController:
        return HealthController(self.ctx, self.state, self.name, self)

    # -- pages ----------------------------------------------------------------------------------------
    def pages(self) -> list[HealthPage]:
        """The pages built so far, in display order."""
        return [self._pages[i] for i in sorted(self._pages)]

    def page(self, name: str) -> HealthPage | None:
        """The page ``name``, built (not activated) if it was not yet."""
        for i, entry in enumerate(PAGES):
            if entry.name == name:
                return self._build(i)
        return None

    def show_page(self, name: str) -> HealthPage | None:
        """Make the page ``name`` current (built and activated)."""
        for i, entry in enumerate(PAGES):
            if entry.name == name:
                self.inner.setCurrentIndex(i)
                page = self._build(i)
                if self.activated:
                    page.ensure_activated()
                return page
        return None

    def screenshot_views(self) -> list[tuple[str, Callable[[int], bool]]]:
        """The pages after the first, each shown and settled in turn (``--screenshot`` saves each as
        ``health-<page>.png``)."""

        def _show(name: str, timeout_ms: int) -> bool:
            page = self.show_page(name)
            return page is not None and page.settle(timeout_ms)

        return [(f"health-{e.name}", functools.partial(_show, e.name)) for e in PAGES[1:]]

    def _build(self, index: int) -> HealthPage:
        page = self._pages.get(index)
        if page is None:
            cls = PAGES[index].load()
            slot = self._slots[index]
            page = cls(self.ctx, self, slot)
            slot.layout().addWidget(page)
            page.set_editing(self.ctx.editing)
            self._pages[index] = page
        return page

    def _on_current(self, index: int) -> None:
        if 0 <= index < len(PAGES) and self.activated:
            self._build(index).ensure_activated()

    # -- hooks ----------------------------------------------------------------------------------------
    def activate(self) -> None:
        index = self.inner.currentIndex()
        if 0 <= index < len(PAGES):
            self._build(index).ensure_activated()

    def set_editing(self, on: bool) -> None:
        for page in self.pages():
            page.set_editing(on)

    def retranslate(self) -> None:
        for i, entry in enumerate(PAGES):
            self.inner.setTabText(i, entry.title())
        for page in self.pages():
            page.retranslate()

    def save_state(self) -> None:
        super().save_state()
        for page in self.pages():
            page.save_state()
