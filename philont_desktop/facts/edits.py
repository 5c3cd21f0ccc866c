"""The Facts tab's curation: add, edit, pin, τ, forget and unforget one fact; bulk forget, pin and move
with a confirmation that lists every change; the forget pool's pin and forget. A part of
:class:`~philont_desktop.facts.view.FactsTab` (its controller runs every edit)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.curation.facts import BulkPlan
from philont_desktop.facts.data import FactRow
from philont_desktop.facts.widgets.bulk_dialog import BulkConfirmDialog
from philont_desktop.facts.widgets.fact_dialog import FactEditDialog
from philont_desktop.facts.widgets.tau_dialog import NamespaceDialog, TauDialog
from philont_desktop.qt import QDialog


class FactsEdits:
    """The edits of the Facts tab, asked for by its edit bar, its forget pool and its shortcuts."""

    state: Any
    controller: Any
    tree: Any
    whatif: Any
    offset_days: int
    selected_rows: Callable[[], list[Any]]
    current_row: Callable[[], Any]

    def _on_edit_request(self, name: str) -> None:
        actions: dict[str, Callable[[], Any]] = {
            "add": self.add_fact,
            "edit": self.edit_current,
            "pin": lambda: self.pin_selected(True),
            "unpin": lambda: self.pin_selected(False),
            "tau": self.tau_current,
            "forget": self.forget_selected,
            "unforget": self.unforget_current,
            "forget_pool": self.forget_pool_candidates,
            "bulk_forget": lambda: self.bulk_selected("forget"),
            "bulk_pin": lambda: self.bulk_selected("pin"),
            "bulk_unpin": lambda: self.bulk_selected("unpin"),
            "move": self.move_selected,
        }
        actions[name]()

    def add_fact(self) -> None:
        if not self.state.editing:
            return
        dlg = FactEditDialog(
            None, self.controller.namespaces(), self, namespace=self.tree.current_namespace()
        )
        if dlg.exec() == QDialog.DialogCode.Accepted:
            self.controller.add(dlg.changes())

    def edit_current(self) -> None:
        row = self.current_row()
        if row is None or not self.state.editing:
            return
        dlg = FactEditDialog(row.fact, self.controller.namespaces(), self)
        if dlg.exec() == QDialog.DialogCode.Accepted:
            self.edit_fact(row, dlg.changes())

    def edit_fact(self, row: FactRow, changes: dict[str, Any]) -> None:
        """Store a new version of ``row`` with ``changes`` (keyword arguments of ``cf.edit``)."""
        self.controller.edit(row, changes)

    def pin_selected(self, pin: bool) -> None:
        rows = self.selected_rows()
        if not rows or not self.state.editing:
            return
        if len(rows) > 1:
            self.bulk_selected("pin" if pin else "unpin")
        else:
            self.controller.pin(rows[0], pin)

    def tau_current(self) -> None:
        row = self.current_row()
        if row is None or not self.state.editing:
            return
        dlg = TauDialog(row.fact, self)
        if dlg.exec() == QDialog.DialogCode.Accepted:
            self.controller.set_tau(row, dlg.decay_tau_days())

    def forget_selected(self) -> None:
        rows = self.selected_rows()
        if not rows or not self.state.editing:
            return
        if len(rows) > 1:
            self.bulk_selected("forget")
        else:
            self.controller.forget(rows[0])

    def unforget_current(self) -> None:
        row = self.current_row()
        if row is not None and self.state.editing:
            self.controller.unforget(row)

    def apply_whatif(self) -> None:
        self.whatif.apply()

    # bulk
    def bulk_selected(self, op: str) -> None:
        rows = self.selected_rows()
        if rows and self.state.editing:
            self.controller.start_bulk(op, [r.fact.id for r in rows], self.confirm_bulk)

    def move_selected(self) -> None:
        rows = self.selected_rows()
        if not rows or not self.state.editing:
            return
        dlg = NamespaceDialog(self.controller.namespaces(), len(rows), self)
        if dlg.exec() == QDialog.DialogCode.Accepted:
            ids = [r.fact.id for r in rows]
            self.controller.start_bulk("move", ids, self.confirm_bulk, new_namespace=dlg.namespace())

    def forget_pool_candidates(self) -> None:
        if self.state.editing:
            self.controller.forget_pool_candidates(self.confirm_bulk)

    def pool_pin(self, facts: list[Any]) -> None:
        if not facts or not self.state.editing:
            return
        if len(facts) == 1:
            self.controller.pin_fact(facts[0])
        else:
            self.controller.start_bulk("pin", [f.id for f in facts], self.confirm_bulk)

    def pool_forget(self, facts: list[Any]) -> None:
        if facts and self.state.editing:
            ids = [f.id for f in facts]
            self.controller.start_bulk(
                "forget", ids, self.confirm_bulk, candidates_only=self.offset_days == 0
            )

    def confirm_bulk(self, plan: BulkPlan) -> bool:
        """Show every change of ``plan`` and ask; ``True`` to apply."""
        self.last_bulk_dialog = dlg = BulkConfirmDialog(plan, self)
        return dlg.exec() == QDialog.DialogCode.Accepted
