"""The confirmation of a bulk action: every fact it will change, and what it leaves out."""

from __future__ import annotations

from typing import Any

from core.curation.facts import BulkPlan
from core.decay import effective_tau
from philont_desktop import messages
from philont_desktop.facts.data import readable_value
from philont_desktop.facts.text import fmt_score, fmt_tau, fmt_time, namespace_tau_text
from philont_desktop.qt import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.widgets import plain


class BulkConfirmDialog(QDialog):
    """Lists every fact a bulk action will change, and what it leaves out, before anything is written."""

    def __init__(self, plan: BulkPlan, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("bulkConfirmDialog")
        self.plan = plan
        title, action_text = self._titles(plan)
        self.setWindowTitle(plain.plain(title, 200, one_line=True))
        head = QLabel(self)
        plain.set_plain(head, self._intro(plan))  # a namespace is stored text: shown, never markup
        head.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.addWidget(head)
        lay.addWidget(self._items_tree(plan), 3)
        self.skipped = QTreeWidget(self)
        self.skipped.setObjectName("bulkSkipped")
        if plan.skipped:
            lay.addWidget(QLabel(self.tr("Left out ({0}):").format(len(plan.skipped)), self))
            self.skipped.setRootIsDecorated(False)
            self.skipped.setHeaderLabels([self.tr("Fact"), self.tr("Why")])
            for (f, fid, _reason), why in zip(plan.skipped, plan.skip_notices, strict=True):
                name = plain.plain(f"{f.namespace}.{f.key}" if f else fid, 300, one_line=True)
                self.skipped.addTopLevelItem(QTreeWidgetItem([name, messages.notice_text(why)]))
            self.skipped.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
            lay.addWidget(self.skipped, 1)
        else:
            self.skipped.hide()
        lay.addWidget(QLabel(self.tr("This is one change: one Undo reverts all of it."), self))
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText(action_text)
        ok.setEnabled(bool(plan.items))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        self.resize(760, 520)

    def _titles(self, plan: BulkPlan) -> tuple[str, str]:
        """The window title and the text of the button that applies the plan."""
        n = len(plan.items)
        titles = {
            "forget": (self.tr("Forget facts"), self.tr("Forget {0} facts").format(n)),
            "pin": (self.tr("Pin facts"), self.tr("Pin {0} facts").format(n)),
            "unpin": (self.tr("Unpin facts"), self.tr("Unpin {0} facts").format(n)),
            "move": (
                self.tr("Move facts to {0}").format(plan.namespace),
                self.tr("Move {0} facts").format(n),
            ),
        }
        return titles[plan.op]

    def _items_tree(self, plan: BulkPlan) -> QTreeWidget:
        self.tree = QTreeWidget(self)
        self.tree.setObjectName("bulkItems")
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.tree.setHeaderLabels([self.tr("Fact"), self.tr("Value"), self.tr("Score"), self.tr("Change")])
        for it in plan.items:
            f = it.fact
            item = QTreeWidgetItem(
                [
                    plain.mark(
                        plain.plain(f"{f.namespace}.{f.key}", 300, one_line=True), f, ("namespace", "key")
                    ),
                    plain.mark(plain.plain(readable_value(f)[0], 300, one_line=True), f, ("value_json",)),
                    fmt_score(it.score) if it.score is not None else "",
                    plain.plain(self._change(it), 300, one_line=True),
                ]
            )
            tip = "\n".join(t for t in (readable_value(f)[1], plain.damage_tooltip(f)) if t)
            item.setToolTip(1, plain.tooltip(tip))
            item.setToolTip(3, plain.tooltip(item.text(3)))
            self.tree.addTopLevelItem(item)
        hh = self.tree.header()
        hh.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        hh.setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)
        hh.resizeSection(1, 220)
        hh.setStretchLastSection(True)
        return self.tree

    def _intro(self, plan: BulkPlan) -> str:
        n = len(plan.items)
        if plan.op == "forget":
            return self.tr(
                "%n fact(s) will be forgotten (soft: they stay in the history and can be unforgotten).",
                None,
                n,
            )
        if plan.op == "pin":
            return self.tr("%n fact(s) will be pinned: they stop decaying.", None, n)
        if plan.op == "unpin":
            return self.tr("%n fact(s) will be unpinned: their namespace's tau applies again.", None, n)
        return self.tr(
            '%n fact(s) will be stored under namespace "{0}" with the same key and value; the old ones are '
            "forgotten.",
            None,
            n,
        ).format(plan.namespace)

    def _change(self, it: Any) -> str:
        f = it.fact
        op = self.plan.op
        if op == "forget":
            return self.tr("forgotten")
        if op == "pin":
            return self.tr("pinned (tau was {0})").format(
                fmt_tau(effective_tau(f.namespace, f.decay_tau_days))
            )
        if op == "unpin":
            return self.tr("unpinned → namespace default {0}").format(namespace_tau_text(f.namespace))
        text = self.tr("→ {0}").format(f"{self.plan.namespace}.{f.key}")
        if it.replaces is not None:
            text += " " + self.tr("(supersedes the version stored {0}: {1})").format(
                fmt_time(it.replaces.created_at), readable_value(it.replaces)[0][:40]
            )
        return text

    def item_texts(self) -> list[list[str]]:
        """The listed rows (fact, value, score, change), for tests and screenshots."""
        out = []
        for i in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(i)
            out.append([item.text(c) for c in range(4)])
        return out
