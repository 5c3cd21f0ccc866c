"""The note editor: the shown note's details, its text and importance, save / revert / forget."""

from __future__ import annotations

from typing import Any

from core.models import Note
from philont_desktop.notes.widgets.add_dialog import importance_spin
from philont_desktop.qt import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.widgets import plain
from philont_desktop.widgets.conversations import label_of_id
from philont_desktop.widgets.text import format_local


class NoteEditor(QWidget):
    """Shows one note; in editing mode its text and importance can be changed.

    ``dirty()`` says whether the text or importance differ from the note shown; the buttons emit
    ``saveRequested``, ``revertRequested`` and ``forgetRequested`` (forget or unforget).
    """

    saveRequested = Signal()
    revertRequested = Signal()
    forgetRequested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._editing = False
        self._note: Note | None = None
        self._shown_text = ""  # the editor's own rendering of the note's text
        self.meta = QLabel(self)
        self.meta.setObjectName("noteMeta")
        self.meta.setTextFormat(Qt.TextFormat.PlainText)  # ids and sessions are stored text
        self.meta.setWordWrap(True)
        self.meta.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.content_edit = QPlainTextEdit(self)
        self.content_edit.setObjectName("noteContent")
        self.content_edit.setReadOnly(True)
        self.importance_spin = importance_spin(self)
        self.importance_spin.setObjectName("noteImportance")
        self.importance_spin.setEnabled(False)
        self.save_btn = QPushButton(self.tr("Save changes"), self)
        self.save_btn.setObjectName("saveNote")
        self.revert_btn = QPushButton(self.tr("Revert"), self)
        self.forget_btn = QPushButton(self.tr("Forget"), self)
        self.forget_btn.setObjectName("forgetNote")
        self.hint = QLabel(self)
        self.hint.setObjectName("noteHint")
        self.hint.setWordWrap(True)
        self._lay_out()
        self.save_btn.clicked.connect(self.saveRequested)
        self.revert_btn.clicked.connect(self.revertRequested)
        self.forget_btn.clicked.connect(self.forgetRequested)
        self.content_edit.textChanged.connect(self.update_buttons)
        self.importance_spin.valueChanged.connect(lambda _v: self.update_buttons())

    def _lay_out(self) -> None:
        imp_row = QHBoxLayout()
        imp_row.addWidget(QLabel(self.tr("Importance"), self))
        imp_row.addWidget(self.importance_spin)
        imp_row.addStretch(1)
        btns = QHBoxLayout()
        btns.addWidget(self.save_btn)
        btns.addWidget(self.revert_btn)
        btns.addStretch(1)
        btns.addWidget(self.forget_btn)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 0, 6, 6)
        lay.addWidget(self.meta)
        lay.addWidget(self.content_edit, 1)
        lay.addLayout(imp_row)
        lay.addLayout(btns)
        lay.addWidget(self.hint)

    # -- what is shown --------------------------------------------------------------------------------
    @property
    def note(self) -> Note | None:
        return self._note

    def show_note(self, note: Note | None) -> None:
        """Show ``note`` (``None``: nothing selected), dropping unsaved edits."""
        self._note = note
        self.content_edit.blockSignals(True)
        self.importance_spin.blockSignals(True)
        if note is None:
            self.meta.setText(self.tr("Select a note to see it."))
            self.meta.setToolTip("")
            self.content_edit.setPlainText("")
            self.importance_spin.setValue(0.0)
        else:
            self.meta.setText(self._meta_text(note))
            sid = plain.plain(note.session_id or "—", 300, one_line=True)
            self.meta.setToolTip(plain.tooltip(self.tr("Conversation id as stored: %1").replace("%1", sid)))
            self.content_edit.setPlainText(self._content_text(note))
            try:
                self.importance_spin.setValue(float(note.importance))
            except (TypeError, ValueError):
                self.importance_spin.setValue(0.0)
        self._shown_text = self.content_edit.toPlainText()
        self.content_edit.blockSignals(False)
        self.importance_spin.blockSignals(False)
        self.hint.setText("")
        self.importance_spin.setEnabled(self._editing and note is not None)
        self.update_buttons()

    def _content_text(self, note: Note) -> str:
        """The note's text as the pane shows it: with its controls and direction overrides spelled
        (:func:`plain.plain`), except in editing mode, where the editor holds the stored text itself (an
        unedited save must not write the spelled form)."""
        return note.content if self._editing else plain.plain(note.content, None)

    def _meta_text(self, note: Note) -> str:
        parts = [
            self.tr("Id: %1").replace("%1", plain.plain(note.id, 300, one_line=True)),
            self.tr("Conversation: %1").replace(
                "%1",
                plain.plain(label_of_id(note.session_id), 300, one_line=True) if note.session_id else "—",
            ),
            self.tr("Created: %1").replace("%1", format_local(note.created_at)),
            self.tr("Accessed: %1").replace("%1", format_local(note.last_accessed_at) or self.tr("never")),
        ]
        if note.forgotten_at is not None:
            parts.append(self.tr("Forgotten: %1").replace("%1", format_local(note.forgotten_at)))
        return "\n".join(parts)

    @property
    def saved_text(self) -> str:
        """The text as saved (the editor's rendering of the shown note's text)."""
        return self._shown_text

    def mark_saved(self, note: Note) -> None:
        """The edits were sent as ``note``: the editor's text is its saved state from now on."""
        self._note = note
        self._shown_text = self.content_edit.toPlainText()
        self.update_buttons()

    def restore(self, note: Note, text: str) -> None:
        """The save failed: ``note`` and ``text`` are what is saved, so the edits count as changes again."""
        self._note, self._shown_text = note, text
        self.update_buttons()

    def warn_changed_meanwhile(self) -> None:
        self.hint.setText(
            self.tr(
                "This note was changed in the database while you were editing it. Saving will be "
                "refused; revert to see the new text."
            )
        )

    # -- edits ----------------------------------------------------------------------------------------
    def dirty(self) -> bool:
        if self._note is None or not self._editing:
            return False
        return self.text_edited() or self.importance_edited()

    def text_edited(self) -> bool:
        """Compared with the editor's own rendering of the shown text (it folds CR LF, NBSP, U+2028)."""
        return self.content_edit.toPlainText() != self._shown_text

    def importance_edited(self) -> bool:
        """The spin box rounds to 2 decimals: an unedited 0.333 must not count as a change."""
        try:
            return round(float(self._note.importance), 2) != round(self.importance_spin.value(), 2)  # type: ignore[union-attr]
        except (TypeError, ValueError):
            return True

    def edits(self) -> dict[str, Any]:
        """``content`` and/or ``importance`` as edited (``None`` for what was not)."""
        return {
            "content": self.content_edit.toPlainText() if self.text_edited() else None,
            "importance": round(self.importance_spin.value(), 2) if self.importance_edited() else None,
        }

    # -- editing mode and buttons ---------------------------------------------------------------------
    def set_editing(self, on: bool) -> None:
        was, edited = self._editing, self.text_edited()
        self._editing = on
        if was != on and self._note is not None and not edited:  # the stored text, or its spelled form
            self.content_edit.blockSignals(True)
            self.content_edit.setPlainText(self._content_text(self._note))
            self._shown_text = self.content_edit.toPlainText()
            self.content_edit.blockSignals(False)
        self.content_edit.setReadOnly(not on)
        self.importance_spin.setEnabled(on and self._note is not None)
        for b in (self.save_btn, self.revert_btn, self.forget_btn):
            b.setVisible(on)
        self.update_buttons()

    def set_notice(self, text: str) -> None:
        self.hint.setText(text)

    def update_buttons(self) -> None:
        note, dirty, editing = self._note, self.dirty(), self._editing
        self.save_btn.setEnabled(editing and dirty)
        self.revert_btn.setEnabled(editing and dirty)
        self.forget_btn.setEnabled(editing and note is not None)
        forgotten = note is not None and note.forgotten_at is not None
        self.forget_btn.setText(self.tr("Unforget") if forgotten else self.tr("Forget"))
        read_only_hint = self.tr("Turn on editing mode to change, forget or add notes.")
        if not editing:
            self.hint.setText(read_only_hint)
        elif self.hint.text() == read_only_hint:
            self.hint.setText("")
