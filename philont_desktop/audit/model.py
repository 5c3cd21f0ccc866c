"""The audit trail as a table: newest first, a page at a time, entries added since put on top.

A refresh asks for the entries newer than the newest shown (``live_op``) and puts them on top; an undo
or redo entry among them also changes the state shown for the entry it refers to.
"""

from __future__ import annotations

from typing import Any

from core import audit
from core.audit import AuditEntry
from philont_desktop.audit import words
from philont_desktop.audit.human import changes_line, field_changes, target_label
from philont_desktop.ops import ReadOp
from philont_desktop.qt import QDateTime, QObject, Qt, Signal
from philont_desktop.widgets.rows_model import Page, PagedRowsModel, Submit

PAGE_SIZE = 200
LIVE_LIMIT = 10_000


def job_page(
    db: Any, limit: int, before: int | None, target_type: str | None
) -> tuple[list[AuditEntry], int | None]:
    """A page of entries, newest first, and on a full first page how many there are in all (the
    count says "1,234 entries" once loaded, never "200+")."""
    rows = audit.list_entries(db, limit, before, target_type)
    first_full = before is None and len(rows) >= limit
    return rows, audit.count_entries(db, target_type) if first_full else None


def format_time(ms: int) -> str:
    return QDateTime.fromMSecsSinceEpoch(int(ms)).toLocalTime().toString("yyyy-MM-dd HH:mm:ss")


class AuditModel(PagedRowsModel):
    """Audit entries, newest first; ``target_type`` filters them (``None``: all)."""

    COLUMNS = ("when", "who", "what", "target", "change", "state")
    EntryRole = Qt.ItemDataRole.UserRole + 1
    newEntries = Signal(int)  # entries put on top by a refresh

    def __init__(self, submit: Submit, parent: QObject | None = None, page_size: int = PAGE_SIZE):
        super().__init__(submit, "audit", page_size, parent)
        self._target_type: str | None = None
        self._muted: Any = None
        self.total: int | None = None  # how many entries there are, when more pages are left
        self.rowsPrepended.connect(self.newEntries)

    # -- columns --------------------------------------------------------------------------------------
    def headers(self) -> list[str]:
        return [
            self.tr("When"),
            self.tr("Who"),
            self.tr("What"),
            self.tr("Target"),
            self.tr("Change"),
            self.tr("State"),
        ]

    def key(self, row: AuditEntry) -> int:
        return row.id

    def display(self, e: AuditEntry, column: int) -> str:
        col = self.COLUMNS[column] if 0 <= column < len(self.COLUMNS) else ""
        if col == "when":
            return format_time(e.at)
        if col == "who":
            return e.actor
        if col == "what":
            return self._what(e)
        if col == "target":
            return target_label(e.target_type, e.target_id, e.before, e.after)
        if col == "change":
            summary = audit.summarize(e.before, e.after)
            if summary in ("created", "deleted"):
                return self.tr("created") if summary == "created" else self.tr("deleted")
            return changes_line(e.before, e.after, label=words.label, value=words.value) or summary
        if col == "state":
            return self._state(e)
        return ""

    def _what(self, e: AuditEntry) -> str:
        if e.is_undo:
            return self.tr("undo {0}").format(e.original_action or "?")
        if e.is_redo:
            return self.tr("redo {0}").format(e.original_action or "?")
        return e.action

    def _state(self, e: AuditEntry) -> str:
        if e.is_undo:
            return self.tr("undo of #{0}").format(e.undone_of)
        if e.is_redo:
            return self.tr("redo of #{0}").format(e.undone_of)
        return self.tr("undone") if e.undone else ""

    def tooltip(self, e: AuditEntry, column: int) -> str:
        text = self.display(e, column)
        if self.COLUMNS[column] == "change":
            changes = field_changes(e.before, e.after, words.label, words.value)
            shown = "\n".join(f"{f}: {a} → {b}" for f, a, b in changes[:40]) or text
            raw = words.raw_lines(e.before, e.after)
            return shown + ("\n\n" + self.tr("As stored:") + "\n" + "\n".join(raw) if raw else "")
        if self.COLUMNS[column] == "target":
            return f"{text}\n{e.target_type} {e.target_id}"
        return text

    def foreground(self, e: AuditEntry, column: int) -> Any:
        return self._muted if e.is_original and e.undone else None

    def data(self, index: Any, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == self.EntryRole:
            return self.row_at(index.row()) if index.isValid() else None
        return super().data(index, role)

    # -- loading --------------------------------------------------------------------------------------
    @property
    def entries(self) -> list[AuditEntry]:
        return self.rows()

    def entry(self, row: int) -> AuditEntry | None:
        return self.row_at(row)

    def set_muted_color(self, color: Any) -> None:
        self._muted = color

    def set_target_type(self, target_type: str | None) -> None:
        """Filter by target type (``None``: all) and reload from the newest entry."""
        self._target_type = target_type
        self.total = None
        self.load_first_page()

    def reload(self) -> None:
        self.load_first_page()

    def page_op(self, after: AuditEntry | None, limit: int) -> ReadOp:
        before = after.id if after is not None else None
        return ReadOp(job_page, (limit, before, self._target_type))

    def unpack(self, result: tuple[list[AuditEntry], int | None], limit: int) -> Page:
        rows, total = result
        if total is not None:
            self.total = total
        return Page(rows, len(rows) < limit)

    def live_op(self, first: AuditEntry) -> ReadOp:
        return ReadOp(audit.list_entries, (LIVE_LIMIT, None, self._target_type, None, first.id))

    def merge_live(self, rows: list[AuditEntry]) -> int:
        n = super().merge_live(rows)
        # An undo/redo row changes the state of the entry it refers to (oldest first, so the latest wins).
        for r in sorted(rows, key=lambda r: r.id):
            if (r.is_undo or r.is_redo) and self.row_of(r.undone_of) >= 0:
                old = self.row_at(self.row_of(r.undone_of))
                self.update_row(old.model_copy(update={"undone": r.is_undo}))
        return n
