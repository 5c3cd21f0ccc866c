"""The actions of one change, in editing mode: what makes sense for its layer and its state.

Facts: revert to the previous value, correct, pin or unpin, forget or unforget. Skills: demote one grade,
deprecate, revert a recipe revision. Notes: forget or unforget. Each button emits ``requested(name)``;
the view asks what it needs (a value, a reason) and the controller runs the audited, undoable edit.
"""

from __future__ import annotations

from core.changes import ChangeItem
from philont_desktop.qt import QHBoxLayout, QLabel, QPushButton, Qt, QWidget, Signal

__all__ = ["ACTIONS", "ItemActions", "available"]

ACTIONS = (
    "revert_fact",
    "correct_fact",
    "pin",
    "unpin",
    "forget_fact",
    "unforget_fact",
    "demote",
    "deprecate",
    "revert_revision",
    "forget_note",
    "unforget_note",
)
_DEMOTABLE = ("stable", "confirmed")


def _skill_grade(item: ChangeItem) -> str | None:
    after = item.after if isinstance(item.after, dict) else {}
    got = after.get("maturity") or item.params.get("to") or item.params.get("maturity")
    return str(got) if got else None


def available(item: ChangeItem | None) -> list[str]:
    """The actions that apply to ``item`` as it was found (the edit itself checks it is still so)."""
    if item is None:
        return []
    after = item.after if isinstance(item.after, dict) else {}
    kind = item.target.type
    out: list[str] = []
    if kind == "fact" and item.code != "change.fact.removed":
        if item.code == "change.fact.replaced" and isinstance(item.before, dict):
            out.append("revert_fact")
        if after.get("status") != "superseded":
            out.append("correct_fact")
        out.append("unpin" if after.get("pinned") else "pin")
        out.append("unforget_fact" if after.get("status") == "forgotten" else "forget_fact")
    elif kind == "skill" and item.code != "change.skill.removed":
        g = _skill_grade(item)
        if g in _DEMOTABLE:
            out.append("demote")
        if g != "deprecated":
            out.append("deprecate")
        if item.code == "change.skill.revised":
            out.append("revert_revision")
    elif kind == "note" and item.code != "change.note.removed":
        out.append("unforget_note" if after.get("forgottenAt") is not None else "forget_note")
    return out


class ItemActions(QWidget):
    requested = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("reviewItemActions")
        self.editing = False
        self.buttons: dict[str, QPushButton] = {}
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.hint = QLabel(self.tr("Turn on editing to act on this change."), self)
        self.hint.setTextFormat(Qt.TextFormat.PlainText)
        self.hint.setWordWrap(True)  # large text: two lines rather than a detail pane wider than the list
        lay.addWidget(self.hint, 100)  # the pane's width, the buttons being hidden then
        for name, text in self._texts().items():
            btn = QPushButton(text, self)
            btn.setObjectName(f"review_{name}")
            btn.clicked.connect(lambda _c=False, n=name: self.requested.emit(n))
            self.buttons[name] = btn
            lay.addWidget(btn)
        lay.addStretch(1)

    def _texts(self) -> dict[str, str]:
        return {
            "revert_fact": self.tr("Revert to the old value"),
            "correct_fact": self.tr("Correct…"),
            "pin": self.tr("Pin"),
            "unpin": self.tr("Unpin"),
            "forget_fact": self.tr("Forget"),
            "unforget_fact": self.tr("Unforget"),
            "demote": self.tr("Demote"),
            "deprecate": self.tr("Deprecate"),
            "revert_revision": self.tr("Revert this revision"),
            "forget_note": self.tr("Forget note"),
            "unforget_note": self.tr("Unforget note"),
        }

    def show_item(self, item: ChangeItem | None, editing: bool) -> None:
        self.editing = editing
        names = set(available(item))
        for name, btn in self.buttons.items():
            btn.setVisible(editing and name in names)
        self.hint.setVisible(bool(names) and not editing)
        self.setVisible(bool(names))

    def retranslate(self) -> None:
        self.hint.setText(self.tr("Turn on editing to act on this change."))
        for name, text in self._texts().items():
            self.buttons[name].setText(text)
