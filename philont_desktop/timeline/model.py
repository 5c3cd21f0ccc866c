"""The Timeline tab's conversation model: a window of the timeline, lazily loaded both ways.

:class:`MessagesModel` is a :class:`~philont_desktop.widgets.rows_model.PagedRowsModel` holding a window
of the timeline ordered by ``(timestamp, id)``, oldest at the top. It opens at the newest page (one
``LIMIT`` query of ``RawStore.query_timeline``, never a count) or around a message or a time, and grows
a page at a time: older rows at the top (:meth:`fetch_older`, asked by the view near the top), newer
rows at the bottom (Qt's ``canFetchMore``/``fetchMore``). The window is capped at :data:`MAX_ROWS`:
growing it at one end drops rows at the other, which can be loaded again. A live refresh appends the
new rows when the window ends at the newest message, and otherwise counts them (``newerPending``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from core.conversations import ConversationMatch, conversation_at, conversation_of
from core.jsutil import now_ms
from core.models import Message
from core.timeline import INT64_MAX, RawStore
from philont_desktop import humanize
from philont_desktop.ops import ReadOp
from philont_desktop.qt import QDateTime, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal
from philont_desktop.timeline.state import TimelineFilter
from philont_desktop.timeline.textutil import first_line
from philont_desktop.widgets.conversations import label_of_id
from philont_desktop.widgets.rows_model import Page, PagedRowsModel, Submit

PAGE_SIZE = 100
MAX_ROWS = 1000
LIVE_LIMIT = 500
WARM_MIN_ROWS = 20  # a page this long has its cards laid out before it goes in (MessagesModel.warm)
NEW_COUNT_CAP = 1000

Keyset = tuple[int, int]

_R = int(Qt.ItemDataRole.UserRole)
MessageRole = _R + 1  # the core.models.Message
IdRole = _R + 2
RoleNameRole = _R + 3
TimestampRole = _R + 4
ExpandedRole = _R + 5
HighlightRole = _R + 6  # list[(start, end)] spans to highlight in the content, or None
ConversationRole = _R + 7  # the id of the message's conversation
LengthRole = _R + 8


def local_offset_minutes() -> int:
    """Minutes east of UTC of the local zone now (for per-day counts)."""
    return QDateTime.currentDateTime().offsetFromUtc() // 60


def _key(m: Message) -> Keyset:
    return (m.timestamp, m.id)


# -- worker functions (run off the GUI thread; Qt-free) ---------------------------------------------------


@dataclass
class Window:
    """A first page: the rows before an anchor (oldest first) and from it on (the anchor first)."""

    older: list[Message]
    newer: list[Message]
    anchor_id: int | None
    half: int


def job_newest(db: Any, flt: TimelineFilter, limit: int) -> Window:
    rows = RawStore(db).query_timeline("desc", limit, **flt.query_kwargs())
    rows.reverse()
    return Window(older=rows, newer=[], anchor_id=None, half=limit)


def job_older(db: Any, flt: TimelineFilter, before: Keyset, limit: int) -> list[Message]:
    rows = RawStore(db).query_timeline("desc", limit, before=before, **flt.query_kwargs())
    rows.reverse()
    return rows


def job_newer(db: Any, flt: TimelineFilter, after: Keyset, limit: int) -> list[Message]:
    return RawStore(db).query_timeline("asc", limit, after=after, **flt.query_kwargs())


def job_around_message(db: Any, flt: TimelineFilter, message_id: int, half: int) -> Window:
    store = RawStore(db)
    m = store.get_message(message_id)
    if m is None:
        return job_newest(db, flt, 2 * half)
    older = store.query_timeline("desc", half, before=_key(m), **flt.query_kwargs())
    older.reverse()
    newer = store.query_timeline("asc", half, after=_key(m), **flt.query_kwargs())
    return Window(older=older, newer=[m, *newer], anchor_id=m.id, half=half)


def job_around_time(db: Any, flt: TimelineFilter, ts: int, half: int) -> Window:
    store = RawStore(db)
    key = (int(ts), INT64_MAX)
    older = store.query_timeline("desc", half, before=key, **flt.query_kwargs())
    older.reverse()
    newer = store.query_timeline("asc", half, after=key, **flt.query_kwargs())
    anchor = older[-1].id if older else (newer[0].id if newer else None)
    return Window(older=older, newer=newer, anchor_id=anchor, half=half)


def job_count_newer(db: Any, flt: TimelineFilter, after: Keyset, cap: int) -> int:
    return len(RawStore(db).query_timeline("asc", cap, after=after, **flt.query_kwargs()))


def job_daily_counts(
    db: Any, flt: TimelineFilter, tz_minutes: int, since: int | None = None
) -> tuple[int | None, list[tuple[int, int]], int]:
    """Messages per local day of the filter's conversation (all dates: the chart picks the range), and
    how many of its messages hold a time no date can hold (they are in no day)."""
    conv = [flt.conversation] if flt.conversation is not None else None
    store = RawStore(db)
    days = store.daily_counts(since=since, conversations=conv, tz_offset_minutes=tz_minutes)
    return since, days, store.count_timeless(conv)


def job_conversation_at(db: Any, ts: int) -> ConversationMatch | None:
    return conversation_at(db, int(ts))


# -- the conversation ---------------------------------------------------------------------------------------


class MessagesModel(PagedRowsModel):
    """A window of the timeline, oldest at row 0, grown lazily at both ends (one column)."""

    live_at = "end"
    anchorReady = Signal(int)  # row of the message asked for by show_message / show_time
    liveAppended = Signal(int)  # rows appended by a live refresh
    newerPending = Signal(int)  # messages newer than the window that are not loaded (capped)

    def __init__(
        self,
        submit: Submit,
        parent: QObject | None = None,
        *,
        page_size: int = PAGE_SIZE,
        max_rows: int = MAX_ROWS,
    ):
        page_size = max(2, int(page_size))
        super().__init__(
            submit, "timeline.messages", page_size, parent, max_rows=max(page_size * 2, int(max_rows))
        )
        self._filter = TimelineFilter()
        self._around: ReadOp | None = None  # the op of the next first page, when not the newest
        self._expanded: set[int] = set()
        self._highlights: dict[int, list[tuple[int, int]]] = {}
        self._newest_known: Keyset | None = None  # the newest key ever loaded for this filter
        self._loaded_once = False
        self.anchor_pending: int | None = None  # a window around this message is being shown
        self._hold = False
        # warm(rows, apply): prepares the display of a page's rows, then calls apply() (the view's).
        self.warm: Callable[[list[Message], Callable[[], None]], None] | None = None
        self.loaded.connect(self._after_load)

    # -- Qt ---------------------------------------------------------------------------------------------
    def headers(self) -> list[str]:
        return [self.tr("Message")]

    def display(self, m: Message, column: int) -> str:
        return f"{m.role}: {first_line(m.content)}"

    def tooltip(self, m: Message, column: int) -> str:
        when = humanize.when(m.timestamp, now_ms(), seconds=True)
        return f"#{m.id} · {label_of_id(conversation_of(m))} · {when}"

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role < _R or role > LengthRole:
            if role == Qt.ItemDataRole.AccessibleTextRole and index.isValid():
                m = self.row_at(index.row())
                if m is not None:
                    return f"{m.role}, {humanize.abs_time(m.timestamp)}: {first_line(m.content)}"
            return super().data(index, role)
        m = self.row_at(index.row()) if index.isValid() else None
        if m is None:
            return None
        values = {
            MessageRole: lambda: m,
            IdRole: lambda: m.id,
            RoleNameRole: lambda: m.role,
            TimestampRole: lambda: m.timestamp,
            ExpandedRole: lambda: m.id in self._expanded,
            HighlightRole: lambda: self._highlights.get(m.id),
            ConversationRole: lambda: conversation_of(m),
            LengthRole: lambda: len(m.content),
        }
        get = values.get(role)
        return get() if get is not None else None

    def canFetchMore(self, parent: QModelIndex | QPersistentModelIndex) -> bool:
        """Newer rows below the window; not while a window loaded around a message or time waits for the
        view to scroll to it (:meth:`release_hold`): before that the view would see its last row."""
        return super().canFetchMore(parent) and not self._hold

    # -- state ------------------------------------------------------------------------------------------
    @property
    def filter(self) -> TimelineFilter:
        return self._filter

    @property
    def has_older(self) -> bool:
        return not self.complete_at_start

    @property
    def has_newer(self) -> bool:
        return not self.complete

    @property
    def loaded_once(self) -> bool:
        return self._loaded_once

    def message_at(self, row: int) -> Message | None:
        return self.row_at(row)

    def messages(self) -> list[Message]:
        return self.rows()

    def is_expanded(self, message_id: int) -> bool:
        return message_id in self._expanded

    def set_expanded(self, row: int, expanded: bool) -> None:
        m = self.row_at(row)
        if m is None:
            return
        if expanded:
            self._expanded.add(m.id)
        else:
            self._expanded.discard(m.id)
        idx = self.index(row, 0)
        self.dataChanged.emit(idx, idx, [ExpandedRole])

    def toggle_expanded(self, row: int) -> None:
        m = self.row_at(row)
        if m is not None:
            self.set_expanded(row, m.id not in self._expanded)

    def set_highlight(self, message_id: int | None, spans: Sequence[tuple[int, int]] | None) -> None:
        """Spans to highlight in one message (a search hit); ``None`` clears every highlight."""
        old = list(self._highlights)
        self._highlights.clear()
        if message_id is not None and spans:
            self._highlights[message_id] = list(spans)
        for mid in {*old, *self._highlights}:
            r = self.row_of(mid)
            if r >= 0:
                idx = self.index(r, 0)
                self.dataChanged.emit(idx, idx, [HighlightRole])

    def highlight_of(self, message_id: int) -> list[tuple[int, int]] | None:
        return self._highlights.get(message_id)

    @property
    def highlighted(self) -> dict[int, list[tuple[int, int]]]:
        return dict(self._highlights)

    # -- loading ------------------------------------------------------------------------------------------
    def set_filter(self, flt: TimelineFilter) -> None:
        """Show ``flt`` from its newest page."""
        self._filter = flt
        self._newest_known = None
        self.load_newest()

    def load_newest(self) -> None:
        """Replace the window by the newest page of the current filter."""
        self._hold = False
        self._around = None
        self.load_first_page()

    def show_message(self, message_id: int, flt: TimelineFilter | None = None) -> None:
        """Load the page around ``message_id`` (emits ``anchorReady`` with its row)."""
        if flt is not None and flt != self._filter:
            self._filter = flt
            self._newest_known = None
        elif not self.loading:
            r = self.row_of(message_id)
            if r >= 0:
                self.anchorReady.emit(r)
                return
        half = max(1, self.page_size // 2)
        self._open_at(ReadOp(job_around_message, (self._filter, int(message_id), half)))

    def show_time(self, ts: int, flt: TimelineFilter | None = None) -> None:
        """Load the page around the time ``ts`` (emits ``anchorReady`` with the row nearest it)."""
        if flt is not None and flt != self._filter:
            self._filter = flt
            self._newest_known = None
        half = max(1, self.page_size // 2)
        self._open_at(ReadOp(job_around_time, (self._filter, int(ts), half)))

    def _open_at(self, op: ReadOp) -> None:
        self._around = op
        try:
            self.load_first_page()
        finally:
            self._around = None

    def release_hold(self) -> None:
        """The view shows the anchor: Qt may ask for newer rows again."""
        self._hold = False

    def fetch_older(self) -> bool:
        """Prepend the page before the first row; ``False`` when there is nothing to fetch now."""
        return self.fetch_start()

    def can_fetch_older(self) -> bool:
        return self.can_fetch_start()

    def fetch_newer(self) -> bool:
        if not self.canFetchMore(QModelIndex()):
            return False
        self.fetchMore(QModelIndex())
        return True

    # -- the ops --------------------------------------------------------------------------------------------
    def page_op(self, after: Message | None, limit: int) -> ReadOp:
        if after is None:
            return self._around or ReadOp(job_newest, (self._filter, limit))
        return ReadOp(job_newer, (self._filter, _key(after), limit))

    def start_op(self, before: Message, limit: int) -> ReadOp:
        return ReadOp(job_older, (self._filter, _key(before), limit))

    def live_op(self, last: Message) -> ReadOp:
        if self.complete:  # the window ends at the newest message: bring the new ones in below
            return ReadOp(job_newer, (self._filter, _key(last), LIVE_LIMIT))
        after = self._newest_known or _key(last)
        return ReadOp(job_count_newer, (self._filter, after, NEW_COUNT_CAP))

    def unpack(self, result: Any, limit: int) -> Page:
        if isinstance(result, Window):
            anchored = (
                result.anchor_id is not None
                and result.newer[:1] != []
                and (result.newer[0].id == result.anchor_id)
            )
            newer_part = len(result.newer) - (1 if anchored else 0)
            self.anchor_pending = result.anchor_id  # the view must not settle at the bottom
            self._hold = result.anchor_id is not None
            return Page(
                [*result.older, *result.newer],
                exhausted=newer_part < result.half,
                more_before=len(result.older) >= result.half,
            )
        return Page(list(result), exhausted=len(result) < limit)

    def before_apply(self, kind: str, result: Any, apply: Callable[[], None]) -> None:
        """A page is handed to :attr:`warm` (the view lays its cards out over a few event-loop turns)
        before it goes in; a live refresh's few rows go in at once."""
        if isinstance(result, Window):
            rows = [*result.older, *result.newer]
        else:
            rows = result if isinstance(result, list) else []
        if self.warm is None or kind == "live" or len(rows) < WARM_MIN_ROWS:
            apply()
        else:
            self.warm(rows, apply)

    def merge_live(self, result: Any) -> int:
        if isinstance(result, int):
            if result:
                self.newerPending.emit(result)
            return 0
        n = super().merge_live(result)
        if len(result) >= LIVE_LIMIT:
            self._complete = False  # a burst: the rest loads as the view scrolls down
        if n:
            self.liveAppended.emit(n)
        return n

    def _after_load(self) -> None:
        self._loaded_once = True
        if self._rows:
            k = _key(self._rows[-1])
            if self._newest_known is None or k > self._newest_known:
                self._newest_known = k
        anchor, self.anchor_pending = self.anchor_pending, None
        if anchor is not None:
            r = self.row_of(anchor)
            if r >= 0:
                self.anchorReady.emit(r)
            else:
                self._hold = False


__all__ = [
    "ConversationRole",
    "ExpandedRole",
    "HighlightRole",
    "IdRole",
    "LengthRole",
    "MessageRole",
    "MessagesModel",
    "RoleNameRole",
    "TimelineFilter",
    "TimestampRole",
    "local_offset_minutes",
]
