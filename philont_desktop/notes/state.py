"""What the Notes tab shows, without Qt: the query, the note in the editor, editing mode, a notice."""

from __future__ import annotations

from dataclasses import dataclass

from core.models import Note
from philont_desktop.tabs.state import TabState


@dataclass(frozen=True)
class NotesQuery:
    text: str = ""
    include_forgotten: bool = True
    order: str = "created"  # "created" | "importance"

    @property
    def searching(self) -> bool:
        return bool(self.text.strip())


@dataclass(eq=False)
class NotesState(TabState):
    """``selected`` is the id of the note to select once rows are loaded (the editor's note)."""

    query: NotesQuery = NotesQuery()
    shown: Note | None = None  # the note in the editor, as it was when shown
    editing: bool = False
    notice: str = ""  # why the last edit was refused before it was sent (shown under the editor)
