"""The Notes tab: search and browse notes; in editing mode edit, forget / unforget and add them.

The shape of every tab (see :mod:`philont_desktop.tabs`): :mod:`.state` holds the query, the shown note
and editing mode without Qt; :mod:`.controller` loads notes and runs the edits; this view composes the
filter bar, the table and the editor (``widgets/``) and wires them together.
"""

from __future__ import annotations

from core.models import Note
from philont_desktop.notes.controller import NotesController
from philont_desktop.notes.model import COL_CONTENT, COL_IMPORTANCE, NotesModel, NotesQuery
from philont_desktop.notes.state import NotesState
from philont_desktop.notes.widgets.add_dialog import AddNoteDialog
from philont_desktop.notes.widgets.editor import NoteEditor
from philont_desktop.notes.widgets.filter_bar import NotesFilterBar
from philont_desktop.qt import (
    QDialog,
    QItemSelectionModel,
    QKeySequence,
    QMessageBox,
    QModelIndex,
    QShortcut,
    QSplitter,
    Qt,
    QTableView,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.tabs.base import BaseTab
from philont_desktop.tabs.navigation import ShowNote, Target
from philont_desktop.widgets.rows_model import RowRole
from philont_desktop.widgets.table import setup_table

DATE = "2026-12-31"


class NotesTab(BaseTab):
    """Notes table with search; editing controls in editing mode."""

    name = "notes"
    targets = (ShowNote,)

    def __init__(self, ctx, parent: QWidget | None = None):
        super().__init__(ctx, parent)
        self.bar = NotesFilterBar(self)
        self.table = setup_table(
            QTableView(self),
            self.model,
            name="notesTable",
            widths={0: 420, 1: "Importance", 2: DATE, 3: DATE, 4: DATE, 5: 120},
            stretch=COL_CONTENT,
        )
        self.editor = NoteEditor(self)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.setObjectName("notesSplit")
        split.addWidget(self.table)
        split.addWidget(self.editor)
        split.setStretchFactor(0, 2)  # the notes' text takes the width (at 1024 px too)
        split.setStretchFactor(1, 1)
        split.setSizes([900, 400])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.bar)
        lay.addWidget(split, 1)
        self.register_splitter(split, "main")
        self._wire()
        self.set_editing(bool(ctx.editing))
        self.editor.show_note(None)

    def create_state(self) -> NotesState:
        return NotesState()

    def create_controller(self) -> NotesController:
        return NotesController(self.ctx, self.state, self.name, self)

    def _wire(self) -> None:
        self.bar.queryChanged.connect(self.reload)
        self.bar.addRequested.connect(self.add_note)
        self.table.selectionModel().currentRowChanged.connect(self._on_current)
        self.editor.saveRequested.connect(self.save)
        self.editor.revertRequested.connect(self._revert)
        self.editor.forgetRequested.connect(self.toggle_forgotten)
        self.model.loaded.connect(self._on_loaded)
        self.state.changed.connect(self._on_state)
        QShortcut(QKeySequence.StandardKey.Find, self, activated=self.search_edit.setFocus)
        QShortcut(QKeySequence.StandardKey.Save, self, activated=self.save)

    # -- the parts, by name (tests and the self-test use them) ----------------------------------------
    @property
    def model(self) -> NotesModel:
        return self.controller.model

    @property
    def search_edit(self):
        return self.bar.search_edit

    @property
    def hide_forgotten(self):
        return self.bar.hide_forgotten

    @property
    def order_combo(self):
        return self.bar.order_combo

    @property
    def add_btn(self):
        return self.bar.add_btn

    @property
    def count_label(self):
        return self.bar.count_label

    @property
    def content_edit(self):
        return self.editor.content_edit

    @property
    def importance_spin(self):
        return self.editor.importance_spin

    @property
    def save_btn(self):
        return self.editor.save_btn

    @property
    def forget_btn(self):
        return self.editor.forget_btn

    @property
    def hint(self):
        return self.editor.hint

    # -- BaseTab --------------------------------------------------------------------------------------
    def activate(self) -> None:
        self.reload()

    def retranslate(self) -> None:
        super().retranslate()
        if not self.editor.dirty():  # an edit in progress keeps its text; the labels follow on the next show
            self.editor.show_note(self.editor.note)

    def set_editing(self, on: bool) -> None:
        self.controller.set_editing(on)
        self.bar.set_editing(bool(on))
        self.editor.set_editing(bool(on))

    def navigate(self, target: Target) -> bool:
        if isinstance(target, ShowNote):
            self.state.update(selected=target.note_id)
            return self.select_note(target.note_id)
        return False

    def _on_state(self, names: frozenset[str]) -> None:
        if "notice" in names and self.state.notice:
            self.editor.set_notice(self.state.notice)
        if names & {"loaded", "complete"}:
            self.bar.show_count(
                self.state.loaded, self.state.complete, self.state.query.searching, self.model.total
            )

    # -- loading ----------------------------------------------------------------------------------------
    def query(self) -> NotesQuery:
        return self.bar.query()

    def reload(self) -> None:
        """Load the notes the bar asks for (at once; typing waits for a pause first)."""
        query = self.bar.query()
        self.bar.show_query(query)
        self.controller.set_query(query)

    def _on_loaded(self) -> None:
        self.bar.show_count(
            self.model.rowCount(), self.model.complete, self.state.query.searching, self.model.total
        )
        want, shown = self.state.selected, self.editor.note
        if (
            want is None
            and shown is None
            and self.model.rowCount()
            and not self.table.currentIndex().isValid()
        ):
            want = self.model.row_at(0).id
        if want is not None:
            self.select_note(want, reveal=self.controller.reveal)
            self.controller.reveal = False
        cur = self.table.currentIndex()
        note = cur.data(RowRole) if cur.isValid() else None
        if note is None:
            if shown is not None and self.model.row_of(shown.id) < 0 and not self.editor.dirty():
                self._show(None)
        elif shown is None or note.id != shown.id or _changed(shown, note):
            self._show_updated(note)

    # -- the editor -------------------------------------------------------------------------------------
    def _on_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        note = current.data(RowRole) if current.isValid() else None
        shown = self.editor.note
        if note is not None and shown is not None and note.id == shown.id:
            return
        if self.editor.dirty() and not self._confirm_discard():
            return
        self._show(note)

    def _confirm_discard(self) -> bool:
        box = QMessageBox(
            QMessageBox.Icon.Question,
            self.tr("Unsaved changes"),
            self.tr("The note you were editing has unsaved changes. Discard them?"),
            QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            self,
        )
        return box.exec() == QMessageBox.StandardButton.Discard

    def _show(self, note: Note | None) -> None:
        self.controller.show(note)
        self.editor.show_note(note)

    def _show_updated(self, note: Note) -> None:
        """The shown note changed in the database (live refresh)."""
        shown = self.editor.note
        if self.editor.dirty() and shown is not None and note.id == shown.id:
            self.editor.warn_changed_meanwhile()
            return
        self._show(note)

    def _revert(self) -> None:
        shown = self.editor.note
        if shown is not None:
            row = self.model.row_of(shown.id)
            self._show(self.model.row_at(row) if row >= 0 else shown)

    # -- edits ------------------------------------------------------------------------------------------
    def save(self) -> None:
        """Save the text and importance of the shown note (one audited, undoable edit)."""
        note = self.editor.note
        if note is None or not self.state.editing or not self.editor.dirty():
            return
        saved_text = self.editor.saved_text
        edits = self.editor.edits()
        if self.controller.save(note, **edits, on_failed=lambda: self.editor.restore(note, saved_text)):
            self.editor.mark_saved(self.state.shown or note)

    def toggle_forgotten(self) -> None:
        note = self.editor.note
        if note is not None and self.state.editing:
            self.controller.toggle_forgotten(note)

    def add_note(self, text: str | None = None, importance: float | None = None) -> None:
        """Ask for a new note (or add ``text`` directly) and add it (audited, undoable)."""
        if not self.state.editing:
            return
        if text is None:
            dlg = AddNoteDialog(self)
            if dlg.exec() != QDialog.DialogCode.Accepted:
                return
            text, importance = dlg.text.toPlainText(), dlg.importance.value()
        self.controller.add(text, 0.5 if importance is None else importance)

    def select_note(self, note_id: str, *, reveal: bool = False) -> bool:
        """Select the note (scrolled to when it was not selected yet, or when ``reveal``)."""
        row = self.model.row_of(note_id)
        if row < 0:
            return False
        moved = self.table.currentIndex().row() != row
        if moved:
            self.table.selectionModel().setCurrentIndex(
                self.model.index(row, 0),
                QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
            )
        if moved or reveal:
            self.table.scrollTo(self.model.index(row, 0))
        return True


def _changed(shown: Note, note: Note) -> bool:
    return (shown.content, shown.importance, shown.forgotten_at, shown.last_accessed_at) != (
        note.content,
        note.importance,
        note.forgotten_at,
        note.last_accessed_at,
    )


__all__ = ["COL_IMPORTANCE", "AddNoteDialog", "NotesTab"]
