"""The editing bar (editing mode only): add, edit, pin, tau, forget, and bulk actions."""

from __future__ import annotations

from collections.abc import Sequence

from philont_desktop.facts.data import FactRow
from philont_desktop.qt import QHBoxLayout, QLabel, QMenu, QPushButton, QToolButton, QWidget, Signal


class EditBar(QWidget):
    """Emits ``requested(name)``: ``add``, ``edit``, ``pin``, ``unpin``, ``tau``, ``forget``, ``unforget``,
    ``forget_pool``, ``bulk_forget``, ``bulk_pin``, ``bulk_unpin``, ``move``."""

    requested = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("factsEditBar")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(6, 0, 6, 2)
        self.add_button = self._button(self.tr("Add…"), "add", "addFact")
        self.edit_button = self._button(self.tr("Edit…"), "edit", "editFact")
        self.pin_button = self._button(self.tr("Pin"), "pin", "pinFact")
        self.unpin_button = self._button(self.tr("Unpin"), "unpin", "unpinFact")
        self.tau_button = self._button(self.tr("Tau…"), "tau", "tauFact")
        self.forget_button = self._button(self.tr("Forget"), "forget", "forgetFact")
        self.unforget_button = self._button(self.tr("Unforget"), "unforget", "unforgetFact")
        for b in self.buttons():
            lay.addWidget(b)
        self.bulk_button = QToolButton(self)
        self.bulk_button.setObjectName("bulkActions")
        self.bulk_button.setText(self.tr("Bulk"))
        self.bulk_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.bulk_button)
        self.act_forget_pool = menu.addAction(self.tr("Forget all forget-pool candidates…"))
        self.act_bulk_forget = menu.addAction(self.tr("Forget selected…"))
        self.act_bulk_pin = menu.addAction(self.tr("Pin selected…"))
        self.act_bulk_unpin = menu.addAction(self.tr("Unpin selected…"))
        self.act_move = menu.addAction(self.tr("Move selected to namespace…"))
        for act, name in (
            (self.act_forget_pool, "forget_pool"),
            (self.act_bulk_forget, "bulk_forget"),
            (self.act_bulk_pin, "bulk_pin"),
            (self.act_bulk_unpin, "bulk_unpin"),
            (self.act_move, "move"),
        ):
            act.triggered.connect(lambda *_, n=name: self.requested.emit(n))
        self.bulk_button.setMenu(menu)
        lay.addWidget(self.bulk_button)
        lay.addStretch(1)
        self.hint = QLabel(self.tr("Every change is audited and can be undone (Ctrl+Z)."), self)
        lay.addWidget(self.hint)

    def _button(self, text: str, name: str, object_name: str) -> QPushButton:
        b = QPushButton(text, self)
        b.setObjectName(object_name)
        b.clicked.connect(lambda *_: self.requested.emit(name))
        return b

    def buttons(self) -> list[QPushButton]:
        return [
            self.add_button,
            self.edit_button,
            self.pin_button,
            self.unpin_button,
            self.tau_button,
            self.forget_button,
            self.unforget_button,
        ]

    def update_actions(self, rows: Sequence[FactRow], editing: bool) -> None:
        """Enable what applies to the selected ``rows``."""
        one = rows[0] if len(rows) == 1 else None
        e = editing
        self.add_button.setEnabled(e)
        self.edit_button.setEnabled(e and one is not None and one.fact.namespace != "self")
        self.pin_button.setEnabled(e and any(not r.fact.pinned for r in rows))
        self.unpin_button.setEnabled(e and any(r.fact.pinned for r in rows))
        self.tau_button.setEnabled(e and one is not None)
        self.forget_button.setEnabled(e and any(r.fact.forgotten_at is None for r in rows))
        self.unforget_button.setEnabled(e and one is not None and one.fact.forgotten_at is not None)
        self.bulk_button.setEnabled(e)
        for a in (self.act_bulk_forget, self.act_bulk_pin, self.act_bulk_unpin, self.act_move):
            a.setEnabled(e and bool(rows))
