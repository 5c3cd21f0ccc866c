"""Table models of the Calendar tab: upcoming occurrences and tasks, all events, all schedules.

The models hold rows the tab loaded in a worker (plain core objects); they never touch the database.
Each row has a stable key (``kind:id[:occurrence]``) so that the view can keep the selection across a
live refresh.
"""

from __future__ import annotations

from typing import Any

from core.models import CalendarEvent, Schedule
from core.upcoming import UpcomingItem
from philont_desktop import humanize as hz
from philont_desktop import i18n
from philont_desktop.calendar.cells import (
    fmt_in_zone,
    fmt_local,
    fmt_relative,
    paused_tooltip,
    payload_message,
    plain_tooltip,
    rule_tooltip,
    utc_text,
)
from philont_desktop.calendar.words import action_words, event_words, stored_as, task_words
from philont_desktop.qt import (
    QAbstractTableModel,
    QColor,
    QFont,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from philont_desktop.widgets import plain
from philont_desktop.widgets.rows_model import fill_roles

_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
_BACKGROUND = int(Qt.ItemDataRole.BackgroundRole)
_FONT = int(Qt.ItemDataRole.FontRole)
_UNANSWERED = frozenset(
    int(r)
    for r in (
        Qt.ItemDataRole.DecorationRole,
        Qt.ItemDataRole.CheckStateRole,
        Qt.ItemDataRole.TextAlignmentRole,
    )
)


class _Table(QAbstractTableModel):
    """A read-only table of loaded rows with per-column text; subclasses define the columns."""

    COLUMNS: tuple[str, ...] = ()
    RowRole = Qt.ItemDataRole.UserRole + 1
    KeyRole = Qt.ItemDataRole.UserRole + 2
    SortRole = Qt.ItemDataRole.UserRole + 3

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._rows: list[Any] = []
        self.now = 0
        self.colors: dict[str, QColor] = {}
        self.paused: dict[str, int] = {}  # task id -> paused_until, for tasks paused at ``now``
        # What the cells and headers say, made once per row set and language: sizing the columns to
        # their contents and painting ask for every cell's text again and again.
        self._texts: dict[tuple[int, int], str] = {}
        self._headers: dict[int, str] = {}
        self._texts_lang = ""

    # -- Qt API ---------------------------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.COLUMNS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            self._check_language()
            got = self._headers.get(section)
            if got is None:
                got = self._headers[section] = self.header(self.COLUMNS[section])
            return got
        return None

    def _check_language(self) -> None:
        lang = i18n.current_language()
        if lang != self._texts_lang:
            self._texts.clear()
            self._headers.clear()
            self._texts_lang = lang

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        if not 0 <= index.column() < len(self.COLUMNS):
            return None
        row = self._rows[index.row()]
        col = self.COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._cell_text(index.row(), index.column(), row, col)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tip(row, col)
        if role == self.RowRole:
            return row
        if role == self.KeyRole:
            return self.key(row)
        if role == self.SortRole:
            return self.sort_value(row, col)
        if role == Qt.ItemDataRole.ForegroundRole:
            return self.foreground(row, col)
        if role == Qt.ItemDataRole.BackgroundRole:
            return self.background(row, col)
        if role == Qt.ItemDataRole.FontRole:
            return self.font(row, col)
        return None

    def multiData(self, index: QModelIndex | QPersistentModelIndex, roleDataSpan: Any) -> None:
        """The roles an item delegate asks of a cell to paint it, in one call from Qt instead of seven
        calls of :meth:`data` (sizing the columns and painting ask for thousands of cells' roles)."""
        r, c = index.row(), index.column()
        if not index.isValid() or not 0 <= r < len(self._rows) or not 0 <= c < len(self.COLUMNS):
            fill_roles(roleDataSpan, None)
            return
        row, col = self._rows[r], self.COLUMNS[c]

        def answer(role: int) -> Any:
            if role == _DISPLAY:
                return self._cell_text(r, c, row, col)
            if role == _FOREGROUND:
                return self.foreground(row, col)
            if role == _BACKGROUND:
                return self.background(row, col)
            if role == _FONT:
                return self.font(row, col)
            if role in _UNANSWERED:
                return None
            return self.data(index, role)

        fill_roles(roleDataSpan, answer)

    # flags(): QAbstractTableModel's own (enabled and selectable, no children), without a call into
    # Python: a view asks it twice per cell at every paint.

    def _cell_text(self, r: int, c: int, row: Any, col: str) -> str:
        self._check_language()
        got = self._texts.get((r, c))
        if got is None:
            got = self._texts[(r, c)] = self._display(row, col)
        return got

    def _display(self, row: Any, col: str) -> str:
        """Stored text as text, the damage marker in front of a column showing an unreadable value."""
        text = plain.plain(self.text(row, col), 500, one_line=True)
        stored, columns = self.stored_row(row), _STORED.get(col, ())
        if not text and any(d.problem != "missing" for c, d in plain.damages(stored).items() if c in columns):
            return hz.unreadable()  # something is stored, but nothing readable ('yesterday' as an end)
        return plain.mark(text, stored, columns)

    def _tip(self, row: Any, col: str) -> str | None:
        """The column's tooltip (already rich text, or plain text made so) and what is unreadable."""
        tip = self.tooltip(row, col)
        if tip and not tip.startswith("<qt>"):
            tip = plain.tooltip(tip)
        hurt = plain.damage_tooltip(self.stored_row(row))
        if not hurt:
            return tip or None
        return (tip[: -len("</qt>")] + "<br>" if tip else "<qt>") + plain.html(hurt, None) + "</qt>"

    def stored_row(self, row: Any) -> Any:
        """The stored row behind a table row (its damaged values are marked)."""
        return row

    # -- content --------------------------------------------------------------------------------------
    def set_rows(self, rows: list[Any], now: int, paused: dict[str, int] | None = None) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self._texts.clear()
        self.now = now
        if paused is not None:
            self.paused = dict(paused)
        self.endResetModel()

    def set_colors(self, colors: dict[str, QColor]) -> None:
        self.colors = dict(colors)
        if self._rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, len(self.COLUMNS) - 1))

    @property
    def rows(self) -> list[Any]:
        return list(self._rows)

    def row_at(self, row: int) -> Any:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of_key(self, key: str) -> int | None:
        for i, r in enumerate(self._rows):
            if self.key(r) == key:
                return i
        return None

    def export_columns(self) -> list[tuple[str, str]]:
        """``(key, header)`` of the columns, for exporting what the table shows."""
        return [(c, self.header(c)) for c in self.COLUMNS]

    def export_row(self, row: Any) -> dict[str, Any]:
        return {c: self.text(row, c) for c in self.COLUMNS}

    # -- per-subclass ------------------------------------------------------------------------------------
    def header(self, col: str) -> str:
        return col

    def key(self, row: Any) -> str:
        return ""

    def text(self, row: Any, col: str) -> str:
        return ""

    def tooltip(self, row: Any, col: str) -> str | None:
        return None

    def sort_value(self, row: Any, col: str) -> Any:
        return self.text(row, col)

    def foreground(self, row: Any, col: str) -> QColor | None:
        return None

    def background(self, row: Any, col: str) -> QColor | None:
        return None

    def font(self, row: Any, col: str) -> QFont | None:
        return None


# The stored columns a table column shows (a damaged one is marked: core.damage).
_STORED: dict[str, tuple[str, ...]] = {
    "title": ("title", "name"),
    "when": ("starts_at", "next_run_at"),
    "relative": ("starts_at", "next_run_at"),
    "starts": ("starts_at",),
    "ends": ("ends_at",),
    "repeats": ("rrule", "cron_expr"),
    "timezone": ("timezone",),
    "detail": ("timezone", "action_type"),
    "related": ("related_fact_id",),
    "external": ("external_ref",),
    "created": ("created_at",),
    "name": ("name",),
    "state": ("enabled", "paused_until"),
    "status": ("enabled", "paused_until", "payload_json"),
    "next": ("next_run_at",),
    "action": ("action_type",),
    "last": ("last_run_at",),
    "failures": ("consecutive_failures",),
    "project": ("project",),
    "message": ("payload_json",),
}


class UpcomingModel(_Table):
    """``list_upcoming`` items in the agenda's order (overdue tasks first, then by time)."""

    # The status (overdue, paused) next to the title: in sight in a narrow window.
    COLUMNS = ("when", "relative", "kind", "title", "status", "repeats", "detail")

    def header(self, col: str) -> str:
        return {
            "when": self.tr("When"),
            "relative": self.tr("In"),
            "kind": self.tr("Kind"),
            "title": self.tr("Title / task"),
            "repeats": self.tr("Repeats"),
            "detail": self.tr("Zone / action"),
            "status": self.tr("Status"),
        }[col]

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._sources: dict[tuple[str, str], Any] = {}

    def set_sources(self, events: Any, schedules: Any) -> None:
        """The stored events and tasks behind the items (their damaged values are marked on the items)."""
        self._sources = {("event", e.id): e for e in events}
        self._sources.update({("task", s.id): s for s in schedules})

    def stored_row(self, row: UpcomingItem) -> Any:
        return self._sources.get((row.kind, row.source_id))

    def key(self, row: UpcomingItem) -> str:
        return f"{row.kind}:{row.source_id}:{row.at}"

    def text(self, row: UpcomingItem, col: str) -> str:
        if col == "when":
            return fmt_local(row.at)
        if col == "relative":
            return fmt_relative(row.at, self.now)
        if col == "kind":
            return self.tr("event") if row.kind == "event" else self.tr("task")
        if col == "title":
            return row.title
        if col == "repeats":
            if row.kind == "event":
                start = row.base_starts_at if row.base_starts_at is not None else row.at
                return event_words(row.rrule, start, row.timezone, self.now)
            return task_words(row.cron_expr, self.now)
        if col == "detail":
            return (row.timezone or "") if row.kind == "event" else action_words(row.action_type)
        if col == "status":
            if row.kind == "task" and row.source_id in self.paused:
                return self.tr("paused until {0}").format(fmt_local(self.paused[row.source_id]))
            if row.overdue:
                return self.tr("overdue")
            if row.payload_error:
                return self.tr("payload broken")
            return ""
        return ""

    def tooltip(self, row: UpcomingItem, col: str) -> str | None:
        if col in ("when", "relative"):
            parts = [self.tr("UTC: {0}").format(utc_text(row.at))]
            zoned = fmt_in_zone(row.at, row.timezone) if row.kind == "event" else None
            if zoned:
                parts.append(self.tr("In the event's zone: {0}").format(zoned))
            return "\n".join(parts)
        if col == "status" and row.kind == "task" and row.source_id in self.paused:
            return paused_tooltip(self.paused[row.source_id])
        if col == "status" and row.overdue:
            return self.tr("The task's next run is in the past: the agent has not run it yet.")
        if col == "title":
            return plain_tooltip(row.line)
        if col == "repeats":
            return rule_tooltip(self.text(row, col), row.rrule if row.kind == "event" else row.cron_expr)
        if col == "detail" and row.kind == "task":
            return stored_as(self.text(row, col), row.action_type)
        return None

    def sort_value(self, row: UpcomingItem, col: str) -> Any:
        if col in ("when", "relative"):
            return row.at
        return self.text(row, col)

    def _overdue(self, row: UpcomingItem) -> bool:
        return row.overdue and row.source_id not in self.paused  # a paused task waits for its pause

    def foreground(self, row: UpcomingItem, col: str) -> QColor | None:
        if row.kind == "task" and row.source_id in self.paused:
            return self.colors.get("paused")
        if self._overdue(row):
            return self.colors.get("overdue_fg")
        return None

    def background(self, row: UpcomingItem, col: str) -> QColor | None:
        if self._overdue(row):
            return self.colors.get("overdue_bg")
        return None

    def font(self, row: UpcomingItem, col: str) -> QFont | None:
        if row.kind == "task" and row.source_id in self.paused and col == "status":
            f = QFont()
            f.setItalic(True)
            return f
        if self._overdue(row) and col in ("status", "relative"):
            f = QFont()
            f.setBold(True)
            return f
        return None


class EventsModel(_Table):
    """Every row of ``memory_calendar`` (base start order)."""

    COLUMNS = ("title", "starts", "ends", "repeats", "timezone", "related", "external", "created")

    def header(self, col: str) -> str:
        return {
            "title": self.tr("Title"),
            "starts": self.tr("Starts"),
            "ends": self.tr("Ends"),
            "repeats": self.tr("Repeats"),
            "timezone": self.tr("Time zone"),
            "related": self.tr("Related fact"),
            "external": self.tr("External ref"),
            "created": self.tr("Created"),
        }[col]

    def key(self, row: CalendarEvent) -> str:
        return f"event:{row.id}"

    def text(self, row: CalendarEvent, col: str) -> str:
        if col == "title":
            return row.title
        if col == "starts":
            return fmt_local(row.starts_at)
        if col == "ends":
            return fmt_local(row.ends_at)
        if col == "repeats":
            return event_words(row.rrule, row.starts_at, row.timezone, self.now)
        if col == "timezone":
            return row.timezone
        if col == "related":
            return row.related_fact_id or ""
        if col == "external":
            return row.external_ref or ""
        if col == "created":
            return fmt_local(row.created_at)
        return ""

    def tooltip(self, row: CalendarEvent, col: str) -> str | None:
        if col in ("starts", "ends"):
            ms = row.starts_at if col == "starts" else row.ends_at
            if ms is None:
                return None
            zoned = fmt_in_zone(ms, row.timezone)
            return "\n".join(
                [self.tr("UTC: {0}").format(utc_text(ms))]
                + ([self.tr("In the event's zone: {0}").format(zoned)] if zoned else [])
            )
        if col == "title":
            return plain_tooltip(row.title)
        if col == "repeats":
            return rule_tooltip(self.text(row, col), row.rrule)
        return None

    def sort_value(self, row: CalendarEvent, col: str) -> Any:
        if col == "starts":
            return row.starts_at
        if col == "ends":
            return row.ends_at if row.ends_at is not None else -1
        if col == "created":
            return row.created_at
        return self.text(row, col)

    def foreground(self, row: CalendarEvent, col: str) -> QColor | None:
        # One-time events in the past are history: muted.
        if not row.rrule and row.starts_at < self.now:
            return self.colors.get("muted")
        return None


class SchedulesModel(_Table):
    """Every row of ``memory_schedules``, enabled or not (next run order)."""

    COLUMNS = ("name", "state", "next", "repeats", "action", "last", "failures", "project", "message")

    def header(self, col: str) -> str:
        return {
            "name": self.tr("Name"),
            "state": self.tr("State"),
            "next": self.tr("Next run"),
            "repeats": self.tr("Repeats"),
            "action": self.tr("Action"),
            "last": self.tr("Last run"),
            "failures": self.tr("Failures"),
            "project": self.tr("Project"),
            "message": self.tr("Message"),
        }[col]

    def key(self, row: Schedule) -> str:
        return f"task:{row.id}"

    def is_paused(self, row: Schedule) -> bool:
        """Enabled and in a pause (``paused_until`` after now): the agent's scheduler skips it until then."""
        return bool(row.enabled) and row.paused_until is not None and row.paused_until > self.now

    def overdue(self, row: Schedule) -> bool:
        return bool(row.enabled) and row.next_run_at < self.now and not self.is_paused(row)

    def text(self, row: Schedule, col: str) -> str:
        if col == "name":
            return row.name
        if col == "state":
            if not row.enabled:
                return self.tr("disabled")
            if self.is_paused(row):
                return self.tr("paused until {0}").format(fmt_local(row.paused_until))
            return self.tr("overdue") if self.overdue(row) else self.tr("enabled")
        if col == "next":
            return f"{fmt_local(row.next_run_at)}  ({fmt_relative(row.next_run_at, self.now)})"
        if col == "repeats":
            return task_words(row.cron_expr, self.now)
        if col == "action":
            return action_words(row.action_type)
        if col == "last":
            return fmt_local(row.last_run_at)
        if col == "failures":
            return str(row.consecutive_failures or 0)
        if col == "project":
            return row.project or ""
        if col == "message":
            return " ".join(payload_message(row).split())
        return ""

    def tooltip(self, row: Schedule, col: str) -> str | None:
        if col == "next":
            return self.tr("UTC: {0}").format(utc_text(row.next_run_at))
        if col == "message":
            return plain_tooltip(payload_message(row))
        if col == "name":
            return plain_tooltip(row.name)
        if col == "repeats":
            return rule_tooltip(self.text(row, col), row.cron_expr)
        if col == "action":
            return stored_as(self.text(row, col), row.action_type)
        if col == "state" and self.is_paused(row):
            return paused_tooltip(row.paused_until)
        if col == "state" and row.paused_until:
            return self.tr("Was paused until {0}.").format(fmt_local(row.paused_until))
        return None

    def sort_value(self, row: Schedule, col: str) -> Any:
        if col == "next":
            return row.next_run_at
        if col == "last":
            return row.last_run_at if row.last_run_at is not None else -1
        if col == "failures":
            return row.consecutive_failures or 0
        return self.text(row, col)

    def foreground(self, row: Schedule, col: str) -> QColor | None:
        if not row.enabled:
            return self.colors.get("muted")
        if self.is_paused(row):
            return self.colors.get("paused")
        if self.overdue(row):
            return self.colors.get("overdue_fg")
        return None

    def background(self, row: Schedule, col: str) -> QColor | None:
        if self.overdue(row):
            return self.colors.get("overdue_bg")
        return None

    def font(self, row: Schedule, col: str) -> QFont | None:
        if col == "state" and self.overdue(row):
            f = QFont()
            f.setBold(True)
            return f
        if (not row.enabled and col == "name") or (col == "state" and self.is_paused(row)):
            f = QFont()
            f.setItalic(True)
            return f
        return None
