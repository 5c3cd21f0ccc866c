"""The Timeline tab: sessions, the conversation, the activity chart and search.

Everything is loaded through ``self.run`` (a worker, never the GUI thread): the newest page first (one
``LIMIT`` query, no count), then the sessions with their counts and the per-day counts for the chart.
"""

from __future__ import annotations

from typing import Any

from core.timeline import DAY_MS, RawStore
from philont_desktop import preload
from philont_desktop.qt import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDate,
    QDateEdit,
    QDateTime,
    QHBoxLayout,
    QHeaderView,
    QItemSelectionModel,
    QKeySequence,
    QLabel,
    QLineEdit,
    QListView,
    QModelIndex,
    QShortcut,
    QSplitter,
    Qt,
    QTableView,
    QTime,
    QTimer,
    QVBoxLayout,
    QWidget,
    Signal,
    is_valid,
)
from philont_desktop.tabs.base import BaseTab
from philont_desktop.tabs.navigation import ShowMessage, ShowTime, Target
from philont_desktop.timeline.conversation import ConversationView
from philont_desktop.timeline.model import (
    MessagesModel,
    SessionsModel,
    TimelineFilter,
    local_offset_minutes,
)
from philont_desktop.timeline.search import (
    HitDelegate,
    SearchQuery,
    SearchResult,
    SearchResultsModel,
    describe_mode,
)

SEARCH_DEBOUNCE_MS = 300
SESSIONS_REFRESH_MIN_MS = 5000
ROLE_CHOICES = ("user", "assistant", "tool", "system")


def job_daily_counts(
    db: Any, session_ids: tuple[str, ...] | None, tz_minutes: int, since: int | None = None
) -> tuple[int | None, list[tuple[int, int]]]:
    return since, RawStore(db).daily_counts(
        since=since, session_ids=list(session_ids) if session_ids else None, tz_offset_minutes=tz_minutes
    )


class SearchLineEdit(QLineEdit):
    """Enter: next hit; Shift+Enter: previous hit; Escape: clear."""

    nextRequested = Signal()
    previousRequested = Signal()

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                self.previousRequested.emit()
            else:
                self.nextRequested.emit()
            return
        if event.key() == Qt.Key.Key_Escape and self.text():
            self.clear()
            return
        super().keyPressEvent(event)


class TimelineTab(BaseTab):
    """Sessions list, conversation (lazy both ways), activity chart and search."""

    name = "timeline"
    targets = (ShowTime, ShowMessage)

    def __init__(self, ctx, parent: QWidget | None = None):
        super().__init__(ctx, parent)
        theme = ctx.theme
        self._tz = local_offset_minutes()
        self._session_ids: tuple[str, ...] | None = None
        self._since: int | None = None
        self._until: int | None = None
        self._suppress_session_change = False
        self._pending_enter = False
        self._current_hit = -1
        self._counts_session: tuple[str, ...] | None = None

        # models
        self.messages = MessagesModel(self.run, self)
        self.sessions = SessionsModel(self.run, self)
        self.results = SearchResultsModel(self.run, self)

        # search bar
        self.search_edit = SearchLineEdit(self)
        self.search_edit.setObjectName("timelineSearch")
        self.search_edit.setClearButtonEnabled(True)
        self.search_edit.setPlaceholderText(
            self.tr("Search messages (3+ characters full-text; Enter: next hit)")
        )
        self.role_combo = QComboBox(self)
        self.role_combo.addItem(self.tr("All roles"), None)
        for r in ROLE_CHOICES:
            self.role_combo.addItem(self._role_name(r), r)
        self.scope_combo = QComboBox(self)
        self.scope_combo.addItem(self.tr("All sessions"), "all")
        self.scope_combo.addItem(self.tr("Selected session"), "selected")
        self.range_check = QCheckBox(self.tr("Dates"), self)
        self.from_edit = QDateEdit(self)
        self.to_edit = QDateEdit(self)
        for e in (self.from_edit, self.to_edit):
            e.setCalendarPopup(True)
            e.setDisplayFormat("yyyy-MM-dd")
            e.setEnabled(False)
        today = QDate.currentDate()
        self.from_edit.setDate(today.addDays(-30))
        self.to_edit.setDate(today)
        self.hits_label = QLabel(self)
        self.hits_label.setObjectName("hitCount")
        self.hits_label.setMinimumWidth(120)
        bar = QHBoxLayout()
        bar.setContentsMargins(6, 6, 6, 2)
        bar.addWidget(self.search_edit, 3)
        bar.addWidget(self.role_combo)
        bar.addWidget(self.scope_combo)
        bar.addSpacing(8)
        bar.addWidget(self.range_check)
        bar.addWidget(self.from_edit)
        bar.addWidget(QLabel("–", self))
        bar.addWidget(self.to_edit)
        bar.addSpacing(8)
        bar.addWidget(self.hits_label)

        # sessions
        self.sessions_view = QTableView(self)
        self.sessions_view.setObjectName("sessionsTable")
        self.sessions_view.setModel(self.sessions)
        self.sessions_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.sessions_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.sessions_view.verticalHeader().hide()
        self.sessions_view.setAlternatingRowColors(True)
        self.sessions_view.setWordWrap(False)
        self.sessions_view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.sessions_view.setShowGrid(False)
        hh = self.sessions_view.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setStretchLastSection(False)
        hh.setHighlightSections(False)
        self.sessions_view.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.sessions_view.selectionModel().currentRowChanged.connect(self._on_session_row)
        self.sessions.loaded.connect(self._on_sessions_loaded)

        # search results
        self.results_view = QListView(self)
        self.results_view.setObjectName("searchResults")
        self.results_view.setModel(self.results)
        self.results_view.setItemDelegate(HitDelegate(self.results_view, theme))
        self.results_view.setUniformItemSizes(True)
        self.results_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.results_view.selectionModel().currentRowChanged.connect(self._on_hit_row)
        self.results_view.clicked.connect(lambda idx: self._choose_hit(idx.row()))
        self.results_header = QLabel(self)
        self.results_header.setObjectName("resultsHeader")
        self.results_header.setWordWrap(True)
        self.results_box = QWidget(self)
        rl = QVBoxLayout(self.results_box)
        rl.setContentsMargins(0, 4, 0, 0)
        rl.setSpacing(2)
        rl.addWidget(self.results_header)
        rl.addWidget(self.results_view, 1)
        self.results_box.hide()

        left = QSplitter(Qt.Orientation.Vertical, self)
        left.setObjectName("timelineLeft")
        left.addWidget(self.sessions_view)
        left.addWidget(self.results_box)
        left.setStretchFactor(0, 2)
        left.setStretchFactor(1, 3)
        left.setChildrenCollapsible(False)

        # chart (built after the first page is shown: its first paint is not free) and conversation
        self._chart: Any = None
        self._counts: list[tuple[int, int]] = []
        self.chart_box = QWidget(self)
        self.chart_box.setObjectName("activityChartBox")
        self.chart_box.setMinimumHeight(110)
        self._chart_layout = QVBoxLayout(self.chart_box)
        self._chart_layout.setContentsMargins(0, 0, 0, 0)
        self.conversation = ConversationView(self.messages, theme, self)
        self.conversation.setObjectName("conversation")
        self.conversation.messageActivated.connect(self._open_full_text)
        self.status_label = QLabel(self)
        self.status_label.setObjectName("conversationStatus")
        conv_box = QWidget(self)
        cl = QVBoxLayout(conv_box)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.setSpacing(2)
        cl.addWidget(self.status_label)
        cl.addWidget(self.conversation, 1)
        right = QSplitter(Qt.Orientation.Vertical, self)
        right.setObjectName("timelineRight")
        right.addWidget(self.chart_box)
        right.addWidget(conv_box)
        right.setStretchFactor(0, 1)
        right.setStretchFactor(1, 4)
        right.setSizes([150, 600])
        right.setChildrenCollapsible(False)

        main = QSplitter(Qt.Orientation.Horizontal, self)
        main.setObjectName("timelineMain")
        main.addWidget(left)
        main.addWidget(right)
        main.setStretchFactor(0, 2)
        main.setStretchFactor(1, 5)
        main.setSizes([560, 840])
        self._splitters_ui = (main, left, right)

        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addLayout(bar)
        lay.addWidget(main, 1)

        self.register_splitter(main, "main")
        self.register_splitter(left, "left")
        self.register_splitter(right, "right")

        # search wiring
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(SEARCH_DEBOUNCE_MS)
        self._debounce.timeout.connect(self.run_search)
        self.search_edit.textChanged.connect(self._on_text_changed)
        self.search_edit.nextRequested.connect(self.next_hit)
        self.search_edit.previousRequested.connect(self.previous_hit)
        self.role_combo.currentIndexChanged.connect(self._filters_changed)
        self.scope_combo.currentIndexChanged.connect(self._filters_changed)
        self.range_check.toggled.connect(self._on_range_check)
        self.from_edit.dateChanged.connect(self._on_date_edit)
        self.to_edit.dateChanged.connect(self._on_date_edit)
        self.results.searchStarted.connect(self._update_hits_label)
        self.results.searchFinished.connect(self._on_search_finished)
        self.results.countChanged.connect(self._update_hits_label)
        self.messages.loadingChanged.connect(lambda _b: self._update_status())
        self.messages.pageLoaded.connect(lambda *_: self._update_status())
        self.conversation.firstRowsPainted.connect(self._start_secondary)
        self.conversation.firstRowsPainted.connect(self._build_chart_later)
        self.messages.pageLoaded.connect(self._on_page_loaded)
        self.messages.failed.connect(
            lambda exc: self.ctx.show_error(self.tr("The timeline could not be read"), exc)
        )
        self.sessions.failed.connect(
            lambda exc: self.ctx.show_error(self.tr("Sessions could not be read"), exc)
        )
        QShortcut(QKeySequence.StandardKey.Find, self, activated=self.focus_search)

        self._secondary_started = True
        self._secondary_timer = QTimer(self)
        self._secondary_timer.setSingleShot(True)
        self._secondary_timer.timeout.connect(self._start_secondary)
        self._chart_timer = QTimer(self)
        self._chart_timer.setSingleShot(True)
        self._chart_timer.timeout.connect(lambda: self.chart)
        self._sessions_timer = QTimer(self)
        self._sessions_timer.setSingleShot(True)
        self._sessions_timer.timeout.connect(self.sessions.reload)
        self._last_sessions_reload = 0
        self._update_status()
        self._update_hits_label()

    # -- BaseTab -----------------------------------------------------------------------------------------
    def activate(self) -> None:
        # The newest page first, alone: the sessions (a scan of the session index) and the per-day
        # counts follow once it is painted, so they do not compete with it for the interpreter.
        self._secondary_started = False
        self.messages.set_filter(self._filter())
        self._secondary_timer.start(1500)  # in case nothing is painted (a hidden window)

    def _start_secondary(self, *_: object) -> None:
        if getattr(self, "_secondary_started", True):
            return
        self._secondary_started = True
        self.sessions.reload()
        self._last_sessions_reload = QDateTime.currentMSecsSinceEpoch()
        self._load_counts()

    def refresh(self) -> None:
        """Live refresh: new messages below, updated counts; selection and scroll position kept."""
        if not self.activated:
            return
        self.messages.refresh()
        self._load_counts(incremental=True)
        now = QDateTime.currentMSecsSinceEpoch()
        wait = SESSIONS_REFRESH_MIN_MS - (now - self._last_sessions_reload)
        if not self._sessions_timer.isActive():
            self._sessions_timer.start(max(0, int(wait)))
            self._last_sessions_reload = now + max(0, int(wait))

    def wait_idle(self, timeout_ms: int = 10_000) -> bool:
        """Until this tab's loads are done, including loads that finished ones start (filling the view)."""
        deadline = QDateTime.currentMSecsSinceEpoch() + timeout_ms
        while True:
            left = deadline - QDateTime.currentMSecsSinceEpoch()
            if super().wait_idle(max(0, int(left))):
                return True
            if left <= 0:
                return False

    # -- helpers -----------------------------------------------------------------------------------------
    def _role_name(self, role: str) -> str:
        return {
            "user": self.tr("User"),
            "assistant": self.tr("Assistant"),
            "tool": self.tr("Tool"),
            "system": self.tr("System"),
        }.get(role, role)

    def _filter(self) -> TimelineFilter:
        return TimelineFilter(session_ids=self._session_ids, since=self._since, until=self._until)

    def focus_search(self) -> None:
        self.search_edit.setFocus()
        self.search_edit.selectAll()

    def _update_status(self) -> None:
        scope = (
            self.tr("All sessions")
            if not self._session_ids
            else self.tr("Session %1").replace("%1", ", ".join(self._session_ids))
        )
        parts = [scope]
        if self._since is not None or self._until is not None:
            parts.append(self._range_text())
        n = self.messages.rowCount()
        if self.messages.loading:
            parts.append(self.tr("loading…"))
        elif self.messages.loaded_once:
            if n == 0:
                parts.append(self.tr("no messages"))
            else:
                more = self.messages.has_older or self.messages.has_newer
                shown = self.tr("%1 loaded").replace("%1", f"{n:,}")
                if more:
                    shown += " " + self.tr("(more load as you scroll)")
                parts.append(shown)
        self.status_label.setText("  ·  ".join(parts))

    def _range_text(self) -> str:
        from philont_desktop.timeline.model import format_local

        a = format_local(self._since)[:10] if self._since is not None else "…"
        b = format_local(self._until)[:10] if self._until is not None else "…"
        return f"{a} – {b}"

    # -- sessions ------------------------------------------------------------------------------------------
    def _on_session_row(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._suppress_session_change or not current.isValid():
            return
        s = self.sessions.session_at(current.row())
        if s is None:
            return
        ids = (s.id,) if s.id is not None else None
        if ids == self._session_ids:
            return
        self._session_ids = ids
        self.messages.set_filter(self._filter())
        self._load_counts()
        self._update_status()
        if self.scope_combo.currentData() == "selected" and self.search_edit.text().strip():
            self.run_search()

    def _on_sessions_loaded(self) -> None:
        if self.sessions_view.currentIndex().isValid():
            return
        row = self.sessions.row_of(self._session_ids[0] if self._session_ids else None)
        self._select_session_row(max(0, row))
        if not getattr(self, "_sized", False):
            self._sized = True
            self._size_session_columns()

    def _size_session_columns(self) -> None:
        fm = self.sessions_view.fontMetrics()
        hh = self.sessions_view.horizontalHeader()
        stamp = fm.horizontalAdvance("2026-12-31 23:59") + 16
        widths = [
            fm.horizontalAdvance("sess-20260803-47d3") + 24,
            fm.horizontalAdvance("1,000,000") + 16,
            fm.horizontalAdvance("scheduled task") + 16,
            stamp,
            stamp,
        ]
        for c, w in enumerate(widths):
            hh.resizeSection(
                c,
                max(
                    w, fm.horizontalAdvance(str(self.sessions.headerData(c, Qt.Orientation.Horizontal))) + 24
                ),
            )

    def _select_session_row(self, row: int) -> None:
        if row < 0:
            return
        self._suppress_session_change = True
        try:
            self.sessions_view.selectionModel().setCurrentIndex(
                self.sessions.index(row, 0),
                QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
            )
        finally:
            self._suppress_session_change = False

    # -- chart / date range ------------------------------------------------------------------------------
    def _load_counts(self, *, incremental: bool = False) -> None:
        since = None
        counts = self._counts
        if incremental and counts and self._counts_session == self._session_ids:
            since = counts[-1][0]
        self._counts_session = self._session_ids
        self.run(
            job_daily_counts,
            self._session_ids,
            self._tz,
            since,
            on_result=self._on_counts,
            key="counts",
        )

    def _on_counts(self, result: tuple[int | None, list[tuple[int, int]]]) -> None:
        since, counts = result
        if since is not None:
            merged = [(d, c) for d, c in self._counts if d < since] + list(counts)
            if merged == self._counts:
                return
            counts = merged
        self._counts = list(counts)
        if self._chart is not None:
            self._chart.set_counts(counts)
            if self._since is not None or self._until is not None:
                self._chart.set_range(self._since, self._until)
        if counts and not self.range_check.isChecked():
            last = QDateTime.fromMSecsSinceEpoch(counts[-1][0]).date()
            for e, d in ((self.from_edit, last.addDays(-30)), (self.to_edit, last)):
                e.blockSignals(True)
                e.setDate(d)
                e.blockSignals(False)

    @property
    def chart(self) -> Any:
        """The activity chart (built on first use; normally right after the first page is shown)."""
        if self._chart is None:
            from philont_desktop.timeline.chart import ActivityChart

            self._chart = ActivityChart(self.ctx.theme, self.chart_box, tz_offset_minutes=self._tz)
            self._chart.rangeSelected.connect(self._on_chart_range)
            self._chart_layout.addWidget(self._chart)
            if self._counts:
                self._chart.set_counts(self._counts)
            if self._since is not None or self._until is not None:
                self._chart.set_range(self._since, self._until)
        return self._chart

    def _on_page_loaded(self, kind: str, n: int) -> None:
        if self.messages.rowCount() == 0:  # nothing to paint: start the rest now
            self._start_secondary()
            self._build_chart_later()

    def _build_chart_later(self, *_: object) -> None:
        if self._chart is None:  # once pyqtgraph is imported (off the GUI thread when preloading)
            preload.when_loaded(preload.PLOTS, self._start_chart_timer)

    def _start_chart_timer(self) -> None:
        if is_valid(self) and self._chart is None:
            self._chart_timer.start(30)

    def _on_chart_range(self, since: int | None, until: int | None) -> None:
        self._set_range(since, until, from_chart=True)

    def _on_range_check(self, on: bool) -> None:
        self.from_edit.setEnabled(on)
        self.to_edit.setEnabled(on)
        if on:
            self._on_date_edit()
        else:
            self._set_range(None, None)

    def _on_date_edit(self, *_: object) -> None:
        if not self.range_check.isChecked():
            return
        a = QDateTime(self.from_edit.date(), QTime(0, 0)).toMSecsSinceEpoch()
        b = QDateTime(self.to_edit.date(), QTime(0, 0)).toMSecsSinceEpoch() + DAY_MS - 1
        if b < a:
            a, b = b - DAY_MS + 1, a + DAY_MS - 1
        self._set_range(a, b)

    def _set_range(self, since: int | None, until: int | None, *, from_chart: bool = False) -> None:
        if (since, until) == (self._since, self._until):
            return
        self._since, self._until = since, until
        if not from_chart and self._chart is not None:
            self._chart.set_range(since, until)
        # keep the date edits in step without re-entering
        for w in (self.range_check, self.from_edit, self.to_edit):
            w.blockSignals(True)
        on = since is not None or until is not None
        self.range_check.setChecked(on)
        self.from_edit.setEnabled(on)
        self.to_edit.setEnabled(on)
        if since is not None:
            self.from_edit.setDate(QDateTime.fromMSecsSinceEpoch(since).date())
        if until is not None:
            self.to_edit.setDate(QDateTime.fromMSecsSinceEpoch(until).date())
        for w in (self.range_check, self.from_edit, self.to_edit):
            w.blockSignals(False)
        self.messages.set_filter(self._filter())
        self._update_status()
        if self.search_edit.text().strip():
            self.run_search()

    def set_date_range(self, since: int | None, until: int | None) -> None:
        """Filter the conversation (and search) to ``[since, until]`` (epoch ms; None: open end)."""
        self._set_range(since, until)

    @property
    def date_range(self) -> tuple[int | None, int | None]:
        return self._since, self._until

    # -- search --------------------------------------------------------------------------------------------
    def _query(self, text: str) -> SearchQuery:
        role = self.role_combo.currentData()
        scope = self.scope_combo.currentData()
        return SearchQuery(
            text=text,
            roles=(role,) if role else None,
            session_ids=self._session_ids if scope == "selected" else None,
            since=self._since,
            until=self._until,
        )

    def _on_text_changed(self, text: str) -> None:
        if not text.strip():
            self._debounce.stop()
            self.results.clear()
            self.results_box.hide()
            self.messages.set_highlight(None, None)
            self._current_hit = -1
            self._update_hits_label()
            return
        self._debounce.start()

    def _filters_changed(self, *_: object) -> None:
        if self.search_edit.text().strip():
            self.run_search()

    def run_search(self) -> None:
        """Search now with the text and filters of the search bar (cancels a running search)."""
        self._debounce.stop()
        text = self.search_edit.text()
        if not text.strip():
            self.results.clear()
            return
        self._current_hit = -1
        self.results_box.show()
        self.results.search(self._query(text))

    def search(self, text: str) -> None:
        """Set the search text and search at once (no debounce)."""
        self.search_edit.blockSignals(True)
        self.search_edit.setText(text)
        self.search_edit.blockSignals(False)
        if text.strip():
            self.run_search()
        else:
            self._on_text_changed(text)

    def _on_search_finished(self, res: SearchResult) -> None:
        self._update_hits_label()
        if self._pending_enter:
            self._pending_enter = False
            if self.results.rowCount():
                self._choose_hit(0)

    def _update_hits_label(self) -> None:
        if not self.search_edit.text().strip() or self.results.query is None:
            self.hits_label.setText("")
            self.results_header.setText("")
            return
        if self.results.searching:
            self.hits_label.setText(self.tr("Searching…"))
            return
        n = self.results.rowCount()
        if self.results.error:
            text = self.tr("No results (the search could not run: %1)").replace("%1", self.results.error)
        elif self.results.mode == "empty":
            text = self.tr("Nothing to search for")
        elif n == 0:
            text = self.tr("No hits")
        elif self.results.has_more:
            text = self.tr("%1+ hits").replace("%1", f"{n:,}")
        else:
            text = self.tr("1 hit") if n == 1 else self.tr("%1 hits").replace("%1", f"{n:,}")
        mode = describe_mode(self.results.mode, self.tr)
        self.hits_label.setText(text)
        pos = f"{self._current_hit + 1}/{n}" if 0 <= self._current_hit < n else ""
        extra = [e for e in (mode, pos) if e]
        self.results_header.setText(text + (f"  ({', '.join(extra)})" if extra else ""))

    @property
    def hit_count(self) -> int:
        return self.results.rowCount()

    def next_hit(self) -> None:
        """Enter in the search box: search now if the text changed, else go to the next hit."""
        if (
            self._debounce.isActive()
            or (self.search_edit.text().strip() and self.results.query is None)
            or (self.results.query is not None and self.results.query.text != self.search_edit.text())
        ):
            self._pending_enter = True
            self.run_search()
            return
        if self.results.searching:
            self._pending_enter = True
            return
        n = self.results.rowCount()
        if n == 0:
            return
        row = self._current_hit + 1
        if row >= n:
            if self.results.canFetchMore(QModelIndex()):
                self.results.fetchMore(QModelIndex())
                return
            row = 0
        self._choose_hit(row)

    def previous_hit(self) -> None:
        n = self.results.rowCount()
        if n == 0:
            return
        self._choose_hit((self._current_hit - 1) % n)

    def _on_hit_row(self, current: QModelIndex, _prev: QModelIndex) -> None:
        if current.isValid() and current.row() != self._current_hit:
            self._choose_hit(current.row())

    def _choose_hit(self, row: int) -> None:
        """Show hit ``row`` in its conversation: load the page around it and highlight the matches."""
        h = self.results.hit_at(row)
        if h is None:
            return
        self._current_hit = row
        idx = self.results.index(row, 0)
        if self.results_view.currentIndex() != idx:
            self.results_view.selectionModel().setCurrentIndex(
                idx, QItemSelectionModel.SelectionFlag.ClearAndSelect
            )
        self.results_view.scrollTo(idx)
        if self._session_ids and h.session_id not in self._session_ids:
            self._session_ids = (h.session_id,)
            self._select_session_row(self.sessions.row_of(h.session_id))
            self._load_counts()
        flt = self._filter()
        self.messages.set_highlight(h.message_id, h.spans)
        self.messages.show_message(h.message_id, flt if flt != self.messages.filter else None)
        self._update_hits_label()
        self._update_status()

    # -- navigation from other tabs ------------------------------------------------------------------------
    def show_time(self, ts: int, session_id: str | None = None) -> None:
        """Show the conversation around the time ``ts`` (e.g. an action's timestamp)."""
        self.ensure_activated()
        if session_id is None:
            self._session_ids = None
            self._select_session_row(self.sessions.row_of(None))
        else:
            self._session_ids = (session_id,)
            self._select_session_row(self.sessions.row_of(session_id))
        if (self._since is not None and ts < self._since) or (self._until is not None and ts > self._until):
            self._since = self._until = None
            if self._chart is not None:
                self._chart.set_range(None, None)
            self.range_check.blockSignals(True)
            self.range_check.setChecked(False)
            self.range_check.blockSignals(False)
        self.messages.set_highlight(None, None)
        self.messages.show_time(ts, self._filter())
        self._load_counts()
        self._update_status()

    def show_message(self, message_id: int) -> None:
        """Show one message in the whole timeline."""
        self.ensure_activated()
        self.messages.show_message(message_id, self._filter())

    def navigate(self, target: Target) -> bool:
        if isinstance(target, ShowTime):
            self.show_time(target.timestamp, target.session_id)
            return True
        if isinstance(target, ShowMessage):
            self.show_message(target.message_id)
            return True
        return False

    # -- full text ----------------------------------------------------------------------------------------
    def _open_full_text(self, m: Any) -> None:
        from philont_desktop.timeline.model import format_local
        from philont_desktop.widgets.fulltext import FullTextDialog

        title = (
            self.tr("Message #%1 · %2 · %3")
            .replace("%1", str(m.id))
            .replace("%2", m.role)
            .replace("%3", format_local(m.timestamp))
        )
        dlg = FullTextDialog(title, m.content, self, monospace=m.role == "tool")
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        dlg.show()
