"""The Actions tab's controller: loads the tool-call log page by page (live rows on top), the tools,
skills and failure rates the filters and the chart show, and asks the Timeline to show an action."""

from __future__ import annotations

from typing import Any

from core.models import Action
from philont_desktop.actions.model import ActionsMeta, ActionsModel, job_meta
from philont_desktop.actions.state import ActionsFilter, ActionsState
from philont_desktop.ops import ReadOp
from philont_desktop.qt import QObject
from philont_desktop.tabs.controller import TabController
from philont_desktop.tabs.navigation import ShowTime


class ActionsController(TabController):
    def __init__(self, ctx: Any, state: ActionsState, name: str, parent: QObject | None = None):
        super().__init__(ctx, state, name, parent)
        self.state: ActionsState = state
        self.model = ActionsModel(self.submit, ctx.theme, self)
        self.model.loaded.connect(self._on_loaded)
        self.model.loadingChanged.connect(lambda on: self.state.update(loading=on))
        self.model.failed.connect(
            lambda exc: ctx.show_error(self.tr("The action log could not be read"), exc)
        )

    def activate(self) -> None:
        self.model.set_filter(self.state.filter)
        self.load_meta()

    def refresh(self) -> None:
        self.model.refresh()
        self.load_meta()

    def set_filter(self, flt: ActionsFilter) -> None:
        """Show the actions ``flt`` admits (nothing to do when they are already shown)."""
        if flt == self.model.filter and self.model.rowCount() and not self.model.loading:
            return
        self.state.update(filter=flt)
        self.model.set_filter(flt)

    def load_meta(self) -> None:
        self.submit(ReadOp(job_meta, key="meta"), on_result=self._on_meta)

    def _on_meta(self, meta: ActionsMeta) -> None:
        self.state.update(tools=tuple(meta.tools), skills=tuple(meta.skills), stats=tuple(meta.stats))

    def _on_loaded(self) -> None:
        self.state.update(loaded=self.model.rowCount(), complete=self.model.complete)

    def show(self, action: Action | None) -> None:
        self.state.update(shown=action, selected=action.id if action is not None else None)

    def show_in_timeline(self) -> bool:
        """Show the messages around the shown action in the Timeline tab."""
        a = self.state.shown
        if a is None:
            return False
        if not self.ctx.navigator.go(ShowTime(a.timestamp)):
            self.ctx.statusMessage.emit(self.tr("The Timeline tab is not available."))
            return False
        return True
