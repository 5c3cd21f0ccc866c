"""The Audit tab's controller: reads the audit trail page by page (new entries on top), the target types
to filter by, and undoes or redoes one entry on request (audited, announced like any edit)."""

from __future__ import annotations

from typing import Any

from core import audit
from core.audit import AuditEntry
from philont_desktop.audit.human import target_label
from philont_desktop.audit.model import AuditModel
from philont_desktop.audit.state import AuditState
from philont_desktop.ops import ReadOp
from philont_desktop.qt import QObject
from philont_desktop.tabs.controller import TabController
from philont_desktop.workers import Job


class AuditController(TabController):
    def __init__(self, ctx: Any, state: AuditState, name: str, parent: QObject | None = None):
        super().__init__(ctx, state, name, parent)
        self.state: AuditState = state
        self.model = AuditModel(self.submit, self)
        self.model.set_muted_color(ctx.theme.muted_text())
        self.model.loaded.connect(self._on_loaded)
        self.model.failed.connect(lambda exc: ctx.show_error(self.tr("The audit trail cannot be read"), exc))

    layers = ("*",)  # every edit of every layer is an audit entry

    def activate(self) -> None:
        self.model.reload()
        self.load_target_types()

    def refresh(self) -> None:
        self.model.refresh()
        self.load_target_types()

    def load_target_types(self) -> None:
        self.submit(ReadOp(audit.target_types, key="targets"), on_result=self._on_target_types)

    def _on_target_types(self, types: list[str]) -> None:
        self.state.update(target_types=tuple(types))

    def set_target_type(self, target_type: str | None) -> None:
        self.state.update(target_type=target_type, new_on_top=0)
        self.model.set_target_type(target_type)

    def _on_loaded(self) -> None:
        self.state.update(loaded=self.model.rowCount(), complete=self.model.complete)

    def show(self, entry: AuditEntry | None) -> None:
        self.state.update(shown=entry, selected=entry.id if entry is not None else None)

    def set_editing(self, on: bool) -> None:
        self.state.update(editing=bool(on))

    def step(self, kind: str) -> Job | None:
        """Undo (``curation.UNDO``) or redo the shown entry, outside the undo stack's order."""
        e = self.state.shown
        if e is None or not e.is_original or not self.state.editing:
            return None
        # The status bar says "Undone: <this text>": the entry's action and target, not the button's words.
        what = f"{e.action} {target_label(e.target_type, e.target_id, e.before, e.after)}"
        text = self.tr("{0} (audit entry #{1})").format(what, e.id)
        return self.track(self.ctx.undo.step_entry(e.id, kind, text))
