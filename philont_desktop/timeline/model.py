"""Qt models of the Timeline tab: the sessions list and the lazily loaded conversation.

:class:`MessagesModel` holds a window of the timeline ordered by ``(timestamp, id)`` (oldest at the top)
and grows it a page at a time in either direction by keyset pagination (``RawStore.query_timeline``
with ``before``/``after``), each page fetched by a worker through ``ctx.run``. It never counts the
timeline: opening a 1M-message database costs one ``LIMIT`` query of the newest page. The bottom end is
Qt's ``canFetchMore``/``fetchMore`` (the view asks when it is scrolled to the end); the top end is
:meth:`MessagesModel.fetch_older`, asked by the view when it is scrolled near the top. The window is
capped at :data:`MAX_ROWS`: growing it at one end drops rows at the other, which can be fetched again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import philont_desktop.widgets.pyside_compat  # noqa: F401  (before any model is used; see its docstring)
from core.models import Message, Session
from core.timeline import INT64_MAX, RawStore
from philont_desktop.qt import (
    QAbstractListModel,
    QAbstractTableModel,
    QDateTime,
    QFont,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from philont_desktop.timeline.textutil import first_line, origin_of
from philont_desktop.widgets.text import format_local

PAGE_SIZE = 100
MAX_ROWS = 2000
LIVE_LIMIT = 500
NEW_COUNT_CAP = 1000

Keyset = tuple[int, int]

_R = Qt.ItemDataRole.UserRole
MessageRole = _R + 1  # the core.models.Message
IdRole = _R + 2
RoleNameRole = _R + 3
TimestampRole = _R + 4
ExpandedRole = _R + 5
HighlightRole = _R + 6  # list[(start, end)] spans to highlight in the content, or None
SessionIdRole = _R + 7
LengthRole = _R + 8


def local_offset_minutes() -> int:
    """Minutes east of UTC of the local zone now (for per-day counts)."""
    return QDateTime.currentDateTime().offsetFromUtc() // 60


@dataclass(frozen=True)
class TimelineFilter:
    """What the conversation shows: sessions (None = the whole timeline) and a time range."""

    session_ids: tuple[str, ...] | None = None
    since: int | None = None
    until: int | None = None

    def query_kwargs(self) -> dict[str, Any]:
        return {
            "session_ids": list(self.session_ids) if self.session_ids else None,
            "since": self.since,
            "until": self.until,
        }

    def admits(self, m: Message) -> bool:
        if self.session_ids and m.session_id not in self.session_ids:
            return False
        if self.since is not None and m.timestamp < self.since:
            return False
        return not (self.until is not None and m.timestamp > self.until)


# -- worker functions (run off the GUI thread through ctx.run; Qt-free) ---------------------------------


def job_newest(db: Any, flt: TimelineFilter, limit: int) -> list[Message]:
    rows = RawStore(db).query_timeline("desc", limit, **flt.query_kwargs())
    rows.reverse()
    return rows


def job_older(db: Any, flt: TimelineFilter, before: Keyset, limit: int) -> list[Message]:
    rows = RawStore(db).query_timeline("desc", limit, before=before, **flt.query_kwargs())
    rows.reverse()
    return rows


def job_newer(db: Any, flt: TimelineFilter, after: Keyset, limit: int) -> list[Message]:
    return RawStore(db).query_timeline("asc", limit, after=after, **flt.query_kwargs())


@dataclass
class AroundResult:
    older: list[Message]
    newer: list[Message]  # the anchor message (if any) is newer[0]
    anchor_id: int | None
    half: int


def job_around_message(db: Any, flt: TimelineFilter, message_id: int, half: int) -> AroundResult:
    store = RawStore(db)
    m = store.get_message(message_id)
    if m is None:
        return job_around_time(db, flt, None, half)
    key = (m.timestamp, m.id)
    older = store.query_timeline("desc", half, before=key, **flt.query_kwargs())
    older.reverse()
    newer = store.query_timeline("asc", half, after=key, **flt.query_kwargs())
    return AroundResult(older=older, newer=[m, *newer], anchor_id=m.id, half=half)


def job_around_time(db: Any, flt: TimelineFilter, ts: int | None, half: int) -> AroundResult:
    store = RawStore(db)
    if ts is None:
        older = store.query_timeline("desc", half, **flt.query_kwargs())
        older.reverse()
        return AroundResult(older=older, newer=[], anchor_id=older[-1].id if older else None, half=half)
    key = (int(ts), INT64_MAX)
    older = store.query_timeline("desc", half, before=key, **flt.query_kwargs())
    older.reverse()
    newer = store.query_timeline("asc", half, after=key, **flt.query_kwargs())
    anchor = older[-1].id if older else (newer[0].id if newer else None)
    return AroundResult(older=older, newer=newer, anchor_id=anchor, half=half)


def job_count_newer(db: Any, flt: TimelineFilter, after: Keyset, cap: int) -> int:
    return len(RawStore(db).query_timeline("asc", cap, after=after, **flt.query_kwargs()))


def job_sessions(db: Any) -> list[Session]:
    return RawStore(db).list_sessions()


# -- the conversation ----------------------------------------------------------------------------------


class MessagesModel(QAbstractListModel):
    """A window of the timeline, oldest at row 0, grown lazily at both ends."""

    loadingChanged = Signal(bool)
    pageLoaded = Signal(str, int)  # "reset" | "older" | "newer" | "live", rows added
    anchorReady = Signal(int)  # row of the message asked for by show_message / show_time
    liveAppended = Signal(int)  # rows appended by a live refresh
    newerPending = Signal(int)  # messages newer than the window that are not loaded (capped)
    failed = Signal(object)

    def __init__(
        self,
        run: Callable[..., Any],
        parent: QObject | None = None,
        *,
        page_size: int = PAGE_SIZE,
        max_rows: int = MAX_ROWS,
        key_prefix: str = "timeline",
    ):
        super().__init__(parent)
        self._run = run
        self.page_size = max(2, int(page_size))
        self.max_rows = max(self.page_size * 2, int(max_rows))
        self._key = f"{key_prefix}.{id(self):x}"
        self._rows: list[Message] = []
        self._ids: dict[int, int] | None = None  # id -> row, rebuilt lazily
        self._filter = TimelineFilter()
        self._has_older = False
        self._has_newer = False
        self._fetching: set[str] = set()
        self._gen = 0
        self._expanded: set[int] = set()
        self._highlights: dict[int, list[tuple[int, int]]] = {}
        self._newest_known: Keyset | None = None  # the newest key ever loaded for this filter
        self._loaded_once = False
        self.anchor_pending: int | None = None
        self._hold = False

    # -- Qt model API ----------------------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid() or index.column() != 0 or not 0 <= index.row() < len(self._rows):
            return None
        m = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{m.role}: {first_line(m.content)}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"#{m.id} · {m.session_id} · {format_local(m.timestamp)}"
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return f"{m.role}, {format_local(m.timestamp)}: {first_line(m.content)}"
        if role == MessageRole:
            return m
        if role == IdRole:
            return m.id
        if role == RoleNameRole:
            return m.role
        if role == TimestampRole:
            return m.timestamp
        if role == SessionIdRole:
            return m.session_id
        if role == ExpandedRole:
            return m.id in self._expanded
        if role == HighlightRole:
            return self._highlights.get(m.id)
        if role == LengthRole:
            return len(m.content)
        return None

    def roleNames(self) -> dict[int, bytes]:
        names = dict(super().roleNames())
        names.update(
            {
                MessageRole: b"message",
                IdRole: b"messageId",
                RoleNameRole: b"role",
                TimestampRole: b"timestamp",
                ExpandedRole: b"expanded",
                HighlightRole: b"highlight",
                SessionIdRole: b"sessionId",
                LengthRole: b"length",
            }
        )
        return names

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def canFetchMore(self, parent: QModelIndex | QPersistentModelIndex) -> bool:
        """Newer rows below the window (the end Qt's views fetch at).

        ``False`` while a window just loaded around a message or time waits for the view to scroll to
        it (:meth:`release_hold`): before that, the view would see its last row on screen and ask.
        """
        return not parent.isValid() and self._has_newer and "newer" not in self._fetching and not self._hold

    def fetchMore(self, parent: QModelIndex | QPersistentModelIndex) -> None:
        if not parent.isValid():
            self.fetch_newer()

    # -- state -----------------------------------------------------------------------------------------
    @property
    def filter(self) -> TimelineFilter:
        return self._filter

    @property
    def has_older(self) -> bool:
        return self._has_older

    @property
    def has_newer(self) -> bool:
        return self._has_newer

    @property
    def loading(self) -> bool:
        return bool(self._fetching)

    @property
    def loaded_once(self) -> bool:
        return self._loaded_once

    def can_fetch_older(self) -> bool:
        return self._has_older and "older" not in self._fetching and "reset" not in self._fetching

    def message_at(self, row: int) -> Message | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def messages(self) -> list[Message]:
        return list(self._rows)

    def row_of(self, message_id: int) -> int:
        if self._ids is None:
            self._ids = {m.id: i for i, m in enumerate(self._rows)}
        return self._ids.get(message_id, -1)

    def is_expanded(self, message_id: int) -> bool:
        return message_id in self._expanded

    def set_expanded(self, row: int, expanded: bool) -> None:
        m = self.message_at(row)
        if m is None:
            return
        if expanded:
            self._expanded.add(m.id)
        else:
            self._expanded.discard(m.id)
        idx = self.index(row, 0)
        self.dataChanged.emit(idx, idx, [ExpandedRole])

    def toggle_expanded(self, row: int) -> None:
        m = self.message_at(row)
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

    # -- loading ---------------------------------------------------------------------------------------
    def _start(self, kind: str, fn: Callable[..., Any], *args: Any, done: Callable[[Any], None]) -> None:
        gen = self._gen
        was_loading = bool(self._fetching)
        self._fetching.add(kind)

        def _ok(result: Any) -> None:
            if gen != self._gen:
                return
            self._fetching.discard(kind)
            try:
                done(result)
            finally:
                if not self._fetching:
                    self.loadingChanged.emit(False)

        def _err(exc: BaseException) -> None:
            if gen != self._gen:
                return
            self._fetching.discard(kind)
            if not self._fetching:
                self.loadingChanged.emit(False)
            self.failed.emit(exc)

        if not was_loading:
            self.loadingChanged.emit(True)
        self._run(fn, *args, on_result=_ok, on_error=_err, key=f"{self._key}.{kind}")

    def _new_generation(self) -> None:
        self._gen += 1
        had = bool(self._fetching)
        self._fetching.clear()
        if had:
            self.loadingChanged.emit(False)

    def set_filter(self, flt: TimelineFilter, *, reload: bool = True) -> None:
        """Show ``flt`` from its newest page."""
        self._filter = flt
        self._newest_known = None
        if reload:
            self.load_newest()

    def load_newest(self) -> None:
        """Replace the window by the newest page of the current filter."""
        self._hold = False
        self._new_generation()
        self._start("reset", job_newest, self._filter, self.page_size, done=self._on_newest)

    def _on_newest(self, rows: list[Message]) -> None:
        self._reset_rows(rows, has_older=len(rows) >= self.page_size, has_newer=False)
        self.pageLoaded.emit("reset", len(rows))

    def show_message(self, message_id: int, flt: TimelineFilter | None = None) -> None:
        """Load the page around ``message_id`` (emits ``anchorReady`` with its row)."""
        if flt is not None:
            self._filter = flt
            self._newest_known = None
        r = self.row_of(message_id)
        if r >= 0 and flt is None:
            self.anchorReady.emit(r)
            return
        self._new_generation()
        half = max(1, self.page_size // 2)
        self._start("reset", job_around_message, self._filter, int(message_id), half, done=self._on_around)

    def show_time(self, ts: int, flt: TimelineFilter | None = None) -> None:
        """Load the page around the time ``ts`` (emits ``anchorReady`` with the row nearest it)."""
        if flt is not None:
            self._filter = flt
            self._newest_known = None
        self._new_generation()
        half = max(1, self.page_size // 2)
        self._start("reset", job_around_time, self._filter, int(ts), half, done=self._on_around)

    def _on_around(self, res: AroundResult) -> None:
        rows = [*res.older, *res.newer]
        anchored = res.anchor_id is not None and bool(res.newer) and res.newer[0].id == res.anchor_id
        newer_part = len(res.newer) - (1 if anchored else 0)
        self.anchor_pending = res.anchor_id  # the view must not settle at the bottom after this reset
        self._hold = res.anchor_id is not None
        try:
            self._reset_rows(rows, has_older=len(res.older) >= res.half, has_newer=newer_part >= res.half)
            self.pageLoaded.emit("reset", len(rows))
            if res.anchor_id is not None:
                r = self.row_of(res.anchor_id)
                if r >= 0:
                    self.anchorReady.emit(r)
        finally:
            self.anchor_pending = None

    def release_hold(self) -> None:
        """The view shows the anchor: Qt may ask for newer rows again."""
        self._hold = False

    def _reset_rows(self, rows: list[Message], *, has_older: bool, has_newer: bool) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self._ids = None
        self._has_older = has_older
        self._has_newer = has_newer
        self.endResetModel()
        self._loaded_once = True
        self._note_newest()

    def _note_newest(self) -> None:
        if self._rows:
            k = (self._rows[-1].timestamp, self._rows[-1].id)
            if self._newest_known is None or k > self._newest_known:
                self._newest_known = k

    def fetch_older(self) -> bool:
        """Prepend the page before the first row. ``False`` when there is nothing to fetch now."""
        if not self.can_fetch_older():
            return False
        if not self._rows:
            self.load_newest()
            return True
        first = self._rows[0]
        self._start(
            "older", job_older, self._filter, (first.timestamp, first.id), self.page_size, done=self._on_older
        )
        return True

    def _on_older(self, rows: list[Message]) -> None:
        self._has_older = len(rows) >= self.page_size
        if self._rows:
            first = (self._rows[0].timestamp, self._rows[0].id)
            rows = [m for m in rows if (m.timestamp, m.id) < first]
        if rows:
            self.beginInsertRows(QModelIndex(), 0, len(rows) - 1)
            self._rows[0:0] = rows
            self._ids = None
            self.endInsertRows()
            excess = len(self._rows) - self.max_rows
            if excess > 0:
                self._drop_newest(excess)
        self.pageLoaded.emit("older", len(rows))

    def fetch_newer(self) -> bool:
        if not self._has_newer or "newer" in self._fetching or "reset" in self._fetching:
            return False
        if not self._rows:
            self.load_newest()
            return True
        last = self._rows[-1]
        self._start(
            "newer", job_newer, self._filter, (last.timestamp, last.id), self.page_size, done=self._on_newer
        )
        return True

    def _on_newer(self, rows: list[Message]) -> None:
        self._has_newer = len(rows) >= self.page_size
        added = self._append(rows)
        self.pageLoaded.emit("newer", added)

    def _append(self, rows: list[Message]) -> int:
        if self._rows:
            last = (self._rows[-1].timestamp, self._rows[-1].id)
            rows = [m for m in rows if (m.timestamp, m.id) > last]
        if not rows:
            return 0
        n = len(self._rows)
        self.beginInsertRows(QModelIndex(), n, n + len(rows) - 1)
        self._rows.extend(rows)
        self._ids = None
        self.endInsertRows()
        self._note_newest()
        excess = len(self._rows) - self.max_rows
        if excess > 0:
            self._drop_oldest(excess)
        return len(rows)

    def _drop_newest(self, n: int) -> None:
        total = len(self._rows)
        self.beginRemoveRows(QModelIndex(), total - n, total - 1)
        del self._rows[total - n :]
        self._ids = None
        self.endRemoveRows()
        self._has_newer = True

    def _drop_oldest(self, n: int) -> None:
        self.beginRemoveRows(QModelIndex(), 0, n - 1)
        del self._rows[:n]
        self._ids = None
        self.endRemoveRows()
        self._has_older = True

    # -- live refresh ------------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Another writer may have appended: fetch what is newer than the window (or count it).

        At the newest end the new rows are appended (selection and scroll position are kept by the
        view: rows only ever arrive below). Away from it, ``newerPending`` says how many wait.
        """
        if "reset" in self._fetching or "live" in self._fetching:
            return
        if not self._rows:
            if not self._fetching:
                self.load_newest()
            return
        if self._has_newer:
            if self._newest_known is not None:
                self._start(
                    "live",
                    job_count_newer,
                    self._filter,
                    self._newest_known,
                    NEW_COUNT_CAP,
                    done=self._on_count_newer,
                )
            return
        if "newer" in self._fetching:
            return
        last = self._rows[-1]
        self._start(
            "live", job_newer, self._filter, (last.timestamp, last.id), LIVE_LIMIT, done=self._on_live
        )

    def _on_live(self, rows: list[Message]) -> None:
        if len(rows) >= LIVE_LIMIT:
            self._has_newer = True
        added = self._append(rows)
        if added:
            self.liveAppended.emit(added)
        self.pageLoaded.emit("live", added)

    def _on_count_newer(self, n: int) -> None:
        if n:
            self.newerPending.emit(n)


# -- sessions -----------------------------------------------------------------------------------------


@dataclass
class SessionRow:
    id: str | None  # None: the whole timeline
    started_at: int | None
    ended_at: int | None
    message_count: int | None
    extra: dict[str, Any] = field(default_factory=dict)


class SessionsModel(QAbstractTableModel):
    """Sessions newest first, after a first row that stands for the whole timeline."""

    COLUMNS = ("id", "messages", "origin", "started", "ended")
    COL_ID, COL_COUNT, COL_ORIGIN, COL_STARTED, COL_ENDED = range(5)
    SessionIdRole = _R + 20

    loaded = Signal()
    failed = Signal(object)

    def __init__(self, run: Callable[..., Any], parent: QObject | None = None):
        super().__init__(parent)
        self._run = run
        self._rows: list[SessionRow] = [SessionRow(None, None, None, None)]
        self._loading = False
        self._key = f"timeline.sessions.{id(self):x}"

    def headers(self) -> list[str]:
        return [
            self.tr("Session"),
            self.tr("Messages"),
            self.tr("Origin"),
            self.tr("Started"),
            self.tr("Ended"),
        ]

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            h = self.headers()
            return h[section] if 0 <= section < len(h) else None
        return None

    def origin_text(self, session_id: str | None) -> str:
        if session_id is None:
            return ""
        kind, detail = origin_of(session_id)
        if kind == "global":
            return self.tr("shared timeline")
        if kind == "wechat":
            return self.tr("WeChat")
        if kind == "telegram":
            return self.tr("Telegram")
        if kind == "scheduled":
            return self.tr("scheduled task %1").replace("%1", detail or self.tr("(unnamed)"))
        if kind == "background":
            return self.tr("a background run")
        return self.tr("the web UI")

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        s = self._rows[index.row()]
        col = index.column()
        if role == self.SessionIdRole:
            return s.id
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            if col == self.COL_ID:
                return s.id if s.id is not None else self.tr("All sessions")
            if col == self.COL_COUNT:
                return "" if s.message_count is None else f"{s.message_count:,}"
            if col == self.COL_ORIGIN:
                if s.id is None:
                    return self.tr("whole timeline")
                if role == Qt.ItemDataRole.DisplayRole and origin_of(s.id)[0] == "scheduled":
                    return self.tr("scheduled task")  # the task's name is in the session id and the tooltip
                return self.origin_text(s.id)
            if col == self.COL_STARTED:
                return format_local(s.started_at, with_seconds=False)
            if col == self.COL_ENDED:
                if s.id is None:
                    return ""
                return format_local(s.ended_at, with_seconds=False) if s.ended_at else self.tr("open")
        if role == Qt.ItemDataRole.TextAlignmentRole and col == self.COL_COUNT:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole and s.id is None and col == self.COL_ID:
            f = QFont()
            f.setBold(True)
            return f
        return None

    def session_at(self, row: int) -> SessionRow | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, session_id: str | None) -> int:
        for i, s in enumerate(self._rows):
            if s.id == session_id:
                return i
        return -1

    @property
    def loading(self) -> bool:
        return self._loading

    def reload(self) -> None:
        self._loading = True
        self._run(job_sessions, on_result=self._on_sessions, on_error=self._on_error, key=self._key)

    def _on_error(self, exc: BaseException) -> None:
        self._loading = False
        self.failed.emit(exc)

    def _on_sessions(self, sessions: list[Session]) -> None:
        self._loading = False
        total = sum(s.message_count or 0 for s in sessions)
        starts = [s.started_at for s in sessions if isinstance(s.started_at, int)]
        rows = [SessionRow(None, min(starts) if starts else None, None, total)]
        rows += [SessionRow(s.id, s.started_at, s.ended_at, s.message_count) for s in sessions]
        old_ids = [r.id for r in self._rows]
        new_ids = [r.id for r in rows]
        if old_ids == new_ids:
            # same sessions in the same order: update in place (keeps selection and scroll position)
            self._rows = rows
            if rows:
                self.dataChanged.emit(self.index(0, 0), self.index(len(rows) - 1, len(self.COLUMNS) - 1))
        else:
            self.layoutAboutToBeChanged.emit()
            old_persistent = self.persistentIndexList()
            old_keys = [
                (old_ids[i.row()] if 0 <= i.row() < len(old_ids) else None, i.column())
                for i in old_persistent
            ]
            self._rows = rows
            pos = {sid: i for i, sid in enumerate(new_ids)}
            new_list = []
            for sid, col in old_keys:
                r = pos.get(sid, -1)
                new_list.append(self.index(r, col) if r >= 0 else QModelIndex())
            self.changePersistentIndexList(old_persistent, new_list)
            self.layoutChanged.emit()
        self.loaded.emit()


__all__ = [
    "ExpandedRole",
    "HighlightRole",
    "IdRole",
    "LengthRole",
    "MessageRole",
    "MessagesModel",
    "RoleNameRole",
    "SessionIdRole",
    "SessionRow",
    "SessionsModel",
    "TimelineFilter",
    "TimestampRole",
    "format_local",
    "local_offset_minutes",
]
