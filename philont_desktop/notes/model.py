"""The notes table model: browse (newest first, lazily) or search (``NotesStore.search`` semantics).

Browsing pages through ``NotesStore.list`` by keyset (``before=(created_at, id)``) or, sorted by
importance, by offset; searching shows what the reference's ``NotesStore.search`` returns (FTS phrases,
LIKE fallback, never an error) with a generous limit. Forgotten notes are greyed and can be hidden.
A live refresh reloads the rows already loaded in one query and keeps selection and scroll position.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.damage import unreadable_time
from core.models import Note
from core.notes import NotesStore
from philont_desktop.notes.state import NotesQuery
from philont_desktop.ops import ReadOp
from philont_desktop.qt import QColor, QFont, QObject, Qt
from philont_desktop.widgets.rows_model import Page, PagedRowsModel, Submit
from philont_desktop.widgets.text import first_line, format_local

PAGE_SIZE = 200
SEARCH_LIMIT = 1000

COL_CONTENT, COL_IMPORTANCE, COL_CREATED, COL_ACCESSED, COL_FORGOTTEN, COL_SESSION = range(6)


@dataclass
class NotesPage:
    query: NotesQuery
    rows: list[Note]
    complete: bool  # no more rows after these
    total: int | None = None  # how many notes the query browses (the first page of a long list)


def job_notes(
    db: Any, q: NotesQuery, limit: int, after_row: tuple[int, str] | None, offset: int
) -> NotesPage:
    store = NotesStore(db)
    if q.text.strip():
        rows = store.search(q.text, limit=SEARCH_LIMIT)
        if not q.include_forgotten:
            rows = [n for n in rows if n.forgotten_at is None]
        return NotesPage(q, rows, True)
    if q.order == "importance":
        rows = store.list(limit, offset, include_forgotten=q.include_forgotten, order="importance")
    else:
        rows = store.list(limit, before=after_row, include_forgotten=q.include_forgotten, order="created")
    complete = len(rows) < limit
    first = after_row is None and offset == 0
    # Notes are few (the agent writes a handful a day): counting them says "1,234 notes", never "200+".
    total = store.count(include_forgotten=q.include_forgotten) if first and not complete else None
    return NotesPage(q, rows, complete, total)


_NOTE_COLUMNS = {
    COL_CONTENT: ("content", "id"),
    COL_IMPORTANCE: ("importance",),
    COL_CREATED: ("created_at",),
    COL_ACCESSED: ("last_accessed_at",),
    COL_FORGOTTEN: ("forgotten_at",),
    COL_SESSION: ("session_id",),
}


def _date(ms: int | None) -> str:
    """The date of a time (the unreadable marker kept whole)."""
    text = format_local(ms)
    return text if unreadable_time(ms) else text[:10]


class NotesModel(PagedRowsModel):
    """Notes; more pages through ``canFetchMore``/``fetchMore`` while browsing."""

    def __init__(self, submit: Submit, theme: Any = None, parent: QObject | None = None):
        super().__init__(submit, "notes", PAGE_SIZE, parent)
        self._theme = theme
        self._query = NotesQuery()
        self.total: int | None = None  # how many notes the query browses, when more pages are left

    def headers(self) -> list[str]:
        return [
            self.tr("Note"),
            self.tr("Importance"),
            self.tr("Created"),
            self.tr("Accessed"),
            self.tr("Forgotten"),
            self.tr("Session"),
        ]

    def key(self, row: Note) -> str:
        return row.id

    def display(self, n: Note, column: int) -> str:
        if column == COL_CONTENT:
            return first_line(n.content, 200) or self.tr("(empty)")
        if column == COL_IMPORTANCE:
            try:
                return f"{float(n.importance):.2f}"
            except (TypeError, ValueError):
                return str(n.importance)
        if column == COL_CREATED:
            return _date(n.created_at)
        if column == COL_ACCESSED:
            return _date(n.last_accessed_at)
        if column == COL_FORGOTTEN:
            return _date(n.forgotten_at)
        if column == COL_SESSION:
            return n.session_id or ""
        return ""

    def damage_columns(self, column: int) -> tuple[str, ...]:
        return _NOTE_COLUMNS.get(column, ())

    def tooltip(self, n: Note, column: int) -> str:
        if column == COL_CONTENT:
            text = n.content if len(n.content) <= 600 else n.content[:600] + "…"
            return text
        if column == COL_CREATED:
            return format_local(n.created_at)
        if column == COL_ACCESSED:
            return format_local(n.last_accessed_at) or self.tr("never")
        if column == COL_FORGOTTEN:
            return format_local(n.forgotten_at) or self.tr("not forgotten")
        if column == COL_SESSION and n.session_id:
            return n.session_id  # elided in its narrow column
        return f"{n.id}"

    def foreground(self, n: Note, column: int) -> Any:
        if n.forgotten_at is not None:
            return QColor(self._theme.muted_text()) if self._theme is not None else QColor("#8c959f")
        return None

    def font(self, n: Note, column: int) -> Any:
        if n.forgotten_at is not None:
            f = QFont()
            f.setItalic(True)
            return f
        return None

    def alignment(self, column: int) -> Any:
        if column == COL_IMPORTANCE:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    # -- loading ---------------------------------------------------------------------------------------------
    @property
    def query(self) -> NotesQuery:
        return self._query

    def set_query(self, q: NotesQuery) -> None:
        """Show ``q`` from its first page."""
        self._query = q
        self.total = None
        self.load_first_page()

    def page_op(self, after: Note | None, limit: int) -> ReadOp:
        if after is None:
            return ReadOp(job_notes, (self._query, limit, None, 0))
        return ReadOp(job_notes, (self._query, limit, (after.created_at, after.id), len(self._rows)))

    def unpack(self, page: NotesPage, limit: int) -> Page:
        if page.total is not None:
            self.total = page.total
        return Page(page.rows, page.complete)
