"""The Notes tab's controller: loads notes (browse or search) and runs note curation.

Every edit is a :mod:`core.curation.notes` change run by ``ctx.curate`` (one audited transaction on the
writer, then a command on the shared undo stack), so it is in the audit trail and can be undone from any
tab. An edit carries the note as it was shown: if the agent changed it meanwhile, nothing is
overwritten and the conflict is reported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.curation import REDO, UNDO, Change, Changes
from core.curation import notes as note_curation
from core.errors import ValidationError_
from core.models import Note
from philont_desktop.notes.model import NotesModel
from philont_desktop.notes.state import NotesQuery, NotesState
from philont_desktop.qt import QObject
from philont_desktop.tabs.controller import TabController
from philont_desktop.widgets.error_dialog import readable_message


class NotesController(TabController):
    layers = ("notes",)

    def __init__(self, ctx: Any, state: NotesState, name: str, parent: QObject | None = None):
        super().__init__(ctx, state, name, parent)
        self.state: NotesState = state
        self.reveal = False  # scroll to the selected note after the next load (an undo or redo)
        self.model = NotesModel(self.submit, ctx.theme, self)
        self.model.loaded.connect(self._on_loaded)
        self.model.loadingChanged.connect(lambda on: self.state.update(loading=on))
        self.model.failed.connect(lambda exc: ctx.show_error(self.tr("Notes could not be read"), exc))

    # -- reading --------------------------------------------------------------------------------------
    def activate(self) -> None:
        self.model.set_query(self.state.query)

    def refresh(self) -> None:
        self.model.refresh()

    def changes_applied(self, changes: Changes) -> None:
        if changes.kind in (UNDO, REDO) and len(changes.ids) == 1:
            # The note undone or redone is selected and scrolled to once reloaded.
            self.state.update(selected=next(iter(changes.ids)))
            self.reveal = True
        self.model.refresh()

    def set_query(self, query: NotesQuery) -> None:
        """Show ``query`` from its first page, keeping the shown note selected if it is found again."""
        shown = self.state.shown
        self.state.update(query=query, selected=shown.id if shown is not None else None)
        self.model.set_query(query)

    def _on_loaded(self) -> None:
        self.state.update(loaded=self.model.rowCount(), complete=self.model.complete)

    # -- editing --------------------------------------------------------------------------------------
    def set_editing(self, on: bool) -> None:
        self.state.update(editing=bool(on), notice="")

    def show(self, note: Note | None) -> None:
        """The editor now shows ``note`` (as it is now)."""
        self.state.update(shown=note, selected=note.id if note is not None else None, notice="")

    def save(
        self, note: Note, *, content: str | None, importance: float | None, on_failed: Callable[[], Any]
    ) -> bool:
        """Save a new text and/or importance of ``note`` (as shown); ``False`` when refused at once."""
        fields: dict[str, Any] = {}
        if content is not None:
            fields["content"] = content
        if importance is not None:
            fields["importance"] = importance
        change = self._build(lambda: note_curation.update(note.id, seen=note, **fields))
        if change is None:
            return False
        # The editor shows the saved state from now on (the refresh brings the row itself).
        self.state.update(shown=note.model_copy(update=fields))
        self._curate(change, self.tr("Edit note"), note.id, on_failed)
        return True

    def toggle_forgotten(self, note: Note) -> None:
        if note.forgotten_at is None:
            self._curate(note_curation.forget(note.id, seen=note), self.tr("Forget note"), note.id)
        else:
            self._curate(note_curation.unforget(note.id, seen=note), self.tr("Unforget note"), note.id)

    def add(self, text: str, importance: float) -> bool:
        """Add a note (audited, undoable); ``False`` when refused at once (an empty text)."""
        change = self._build(lambda: note_curation.add(text, round(float(importance), 2)))
        if change is None:
            return False
        self._curate(change, self.tr("Add note"), change.target_id)
        return True

    def _build(self, build: Callable[[], Change]) -> Change | None:
        try:
            return build()
        except ValidationError_ as exc:
            self.state.update(notice=readable_message(exc))
            return None

    def _curate(
        self, change: Change, text: str, select: str | None, on_failed: Callable[[], Any] | None = None
    ) -> None:
        def _done(_changes: Changes) -> None:
            self.state.update(selected=select)
            self.model.refresh()

        def _failed(exc: BaseException) -> None:
            if on_failed is not None:
                on_failed()
            self.ctx.show_error(self.tr("The note was not changed"), exc)

        self.curate(change, text, on_result=_done, on_error=_failed)
