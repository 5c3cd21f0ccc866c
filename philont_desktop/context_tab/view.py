"""The Context tab: what the agent would be given if a message arrived now, and why each piece is there.

Everything shown comes from :func:`core.context.build_context` (the computation behind
``philont-memory context``), run off the GUI thread through ``self.run(..., key="preview")``: a newer
keystroke cancels the computation still running (its result is dropped). Typing is debounced
(:data:`DEBOUNCE_MS`); the memory prefix, which does not depend on the message, is reused between
keystrokes until the database, the session, the host OS or the moment changes.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from core.context import DEFAULTS, ContextCancelledError, ContextResult
from core.errors import NotFoundError
from core.models import Message
from core.prefix import agent_platform
from philont_desktop.context_tab.diff import compute_diff
from philont_desktop.context_tab.model import (
    ContextInputs,
    SessionChoice,
    job_build_context,
    job_sessions,
    parse_session_list,
    task_export,
)
from philont_desktop.context_tab.render import SECTION_ORDER, PreviewRenderer, first_line, fmt_int, local_time
from philont_desktop.context_tab.widgets import BudgetPanel, DiffView, MessagePicker
from philont_desktop.qt import (
    QApplication,
    QComboBox,
    QCompleter,
    QDateTime,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    Qt,
    QTabWidget,
    QTextBrowser,
    QTimer,
    QUrl,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.settings import Key
from philont_desktop.tabs.base import BaseTab

DEBOUNCE_MS = 250
# When the recall search runs, the rest of the preview (prefix, trigger, recent messages; no search) is
# computed alongside and shown if the full result has not arrived this long after the computation began.
PROVISIONAL_AFTER_MS = 150
SESSIONS_REFRESH_MIN_MS = 10_000

K_RECENT_BUDGET: Key[int] = Key("context/recent_budget", int, DEFAULTS["recent_budget"])
K_RECALL_BUDGET: Key[int] = Key("context/recall_budget", int, DEFAULTS["recall_budget"])
K_RECENT_LIMIT: Key[int] = Key("context/recent_limit", int, DEFAULTS["recent_limit"])
K_RECALL_LIMIT: Key[int] = Key("context/recall_limit", int, DEFAULTS["recall_limit"])
K_HOST_OS: Key[str] = Key("context/host_os", str, "", ("", "linux", "windows", "darwin"))


def task_diff(old: str, new: str, context: int) -> Any:
    return compute_diff(old, new, context)


class ContextTab(BaseTab):
    """Inputs at the top; the preview (or the comparison with a pinned preview) and the budgets below."""

    name = "context"
    resultShown = Signal(object)  # ContextResult

    def __init__(self, ctx, parent: QWidget | None = None):
        super().__init__(ctx, parent)
        self.renderer = PreviewRenderer(ctx.theme, self)
        self.result: ContextResult | None = None
        self.error: str | None = None
        self._job_fn = job_build_context  # replaceable in tests
        self._fixed_now: int | None = None
        self._as_of: tuple[int, int] | None = None
        self._as_of_message: Message | None = None
        self._expanded: set[str] = set()
        self._pinned: ContextResult | None = None
        self._pinned_at = 0
        self._prefix_cache: dict[tuple[Any, ...], tuple[int, Any]] = {}
        self._generation = 0
        self._seq = 0
        self._input_at: float | None = None
        self._first_paint_done = False
        self._last_sessions_reload = 0
        self.sessions: list[SessionChoice] = []
        # measurements (tests, benchmark)
        self.computations_started = 0
        self.results_shown = 0
        self.last_compute_ms: float | None = None  # submit -> shown
        self.last_input_to_shown_ms: float | None = None  # last input change -> shown (includes debounce)
        self.last_render_ms: float | None = None
        self.last_input_to_first_paint_ms: float | None = None  # provisional or full, whichever came first
        self.provisional: ContextResult | None = None  # shown while the recall search still runs
        self._provisional_timer = QTimer(self)
        self._provisional_timer.setSingleShot(True)
        self._provisional_timer.timeout.connect(self._show_provisional)
        self._pending_provisional: tuple[int, float | None, ContextResult] | None = None
        self.last_export: Path | None = None

        # -- inputs --------------------------------------------------------------------------------------
        self.message_edit = QPlainTextEdit(self)
        self.message_edit.setObjectName("contextMessage")
        self.message_edit.setPlaceholderText(
            self.tr("Type a message as the user would send it; the preview follows as you type.")
        )
        self.message_edit.setTabChangesFocus(True)
        fm = self.message_edit.fontMetrics()
        self.message_edit.setFixedHeight(fm.lineSpacing() * 3 + 14)
        self.pick_button = QPushButton(self.tr("Pick a past message…"), self)
        self.pick_button.setObjectName("pickMessage")
        self.pick_button.setToolTip(
            self.tr(
                "What did the agent see here? Choose a user message from the timeline: the preview uses only what existed before it."
            )
        )
        self.clear_button = QPushButton(self.tr("Clear"), self)

        self.session_combo = self._session_combo(
            self.tr("All sessions (comma-separated ids restrict the timeline)")
        )
        self.session_combo.setObjectName("contextSessions")
        self.home_combo = self._session_combo(self.tr("No home conversation"))
        self.home_combo.setObjectName("contextHome")
        self.home_combo.setToolTip(
            self.tr(
                "The conversation's own id (newer reference): recent messages from other conversations are left out, recalled ones are labelled."
            )
        )
        self.host_combo = QComboBox(self)
        self.host_combo.setObjectName("contextHostOs")
        self.host_combo.addItem(self.tr("This machine (%1)").replace("%1", agent_platform(None)), "")
        self.host_combo.addItem("Linux", "linux")
        self.host_combo.addItem("Windows", "windows")
        self.host_combo.addItem("macOS", "darwin")
        s = ctx.settings
        self.recent_budget_spin = self._spin(0, 10_000_000, s.get(K_RECENT_BUDGET), 500)
        self.recall_budget_spin = self._spin(0, 10_000_000, s.get(K_RECALL_BUDGET), 500)
        self.recent_limit_spin = self._spin(0, 100_000, s.get(K_RECENT_LIMIT), 1)
        self.recall_limit_spin = self._spin(0, 100_000, s.get(K_RECALL_LIMIT), 1)
        for w, n in (
            (self.recent_budget_spin, "recentBudget"),
            (self.recall_budget_spin, "recallBudget"),
            (self.recent_limit_spin, "recentLimit"),
            (self.recall_limit_spin, "recallLimit"),
        ):
            w.setObjectName(n)
        i = self.host_combo.findData(s.get(K_HOST_OS))
        self.host_combo.setCurrentIndex(max(0, i))
        self.defaults_button = QPushButton(self.tr("Defaults"), self)
        self.defaults_button.setToolTip(
            self.tr("8,000 / 4,000 tokens, 30 recent messages, 10 recall candidates")
        )

        grid = QGridLayout()
        grid.setContentsMargins(8, 8, 8, 0)
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(4)
        msg_label = QLabel(self.tr("Message"), self)
        grid.addWidget(msg_label, 0, 0, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self.message_edit, 0, 1, 1, 7)
        side = QVBoxLayout()
        side.setSpacing(4)
        side.addWidget(self.pick_button)
        side.addWidget(self.clear_button)
        side.addStretch(1)
        grid.addLayout(side, 0, 8)
        grid.addWidget(QLabel(self.tr("Sessions"), self), 1, 0)
        grid.addWidget(self.session_combo, 1, 1, 1, 3)
        grid.addWidget(QLabel(self.tr("Home conversation"), self), 1, 4)
        grid.addWidget(self.home_combo, 1, 5, 1, 2)
        grid.addWidget(QLabel(self.tr("Host OS"), self), 1, 7, Qt.AlignmentFlag.AlignRight)
        grid.addWidget(self.host_combo, 1, 8)
        grid.addWidget(QLabel(self.tr("Recent tokens"), self), 2, 0)
        grid.addWidget(self.recent_budget_spin, 2, 1)
        grid.addWidget(QLabel(self.tr("Recall tokens"), self), 2, 2, Qt.AlignmentFlag.AlignRight)
        grid.addWidget(self.recall_budget_spin, 2, 3)
        grid.addWidget(QLabel(self.tr("Recent messages"), self), 2, 4)
        grid.addWidget(self.recent_limit_spin, 2, 5)
        grid.addWidget(QLabel(self.tr("Recall candidates"), self), 2, 6, Qt.AlignmentFlag.AlignRight)
        grid.addWidget(self.recall_limit_spin, 2, 7)
        grid.addWidget(self.defaults_button, 2, 8)
        for col, stretch in ((1, 2), (3, 2), (5, 2), (6, 1), (7, 2)):
            grid.setColumnStretch(col, stretch)

        # time-travel banner
        self.travel_banner = QWidget(self)
        self.travel_banner.setObjectName("timeTravelBanner")
        self.travel_label = QLabel(self.travel_banner)
        self.travel_label.setObjectName("timeTravelLabel")
        self.travel_label.setWordWrap(True)
        self.back_button = QPushButton(self.tr("Back to now"), self.travel_banner)
        tb = QHBoxLayout(self.travel_banner)
        tb.setContentsMargins(8, 4, 8, 0)
        tb.addWidget(self.travel_label, 1)
        tb.addWidget(self.back_button)
        self.travel_banner.hide()

        # -- output ----------------------------------------------------------------------------------------
        self.preview = QTextBrowser(self)
        self.preview.setObjectName("contextPreview")
        self.preview.setOpenLinks(False)
        self.preview.setOpenExternalLinks(False)
        self.diff_view = DiffView(ctx.theme, self)
        self.diff_view.setObjectName("contextDiff")
        self.out_tabs = QTabWidget(self)
        self.out_tabs.setObjectName("contextOutput")
        self.out_tabs.setDocumentMode(True)
        self.out_tabs.addTab(self.preview, self.tr("Preview"))
        self.out_tabs.addTab(self.diff_view, self.tr("Compare"))
        self.budget_panel = BudgetPanel(ctx.theme, self.renderer, self)
        self.budget_panel.setObjectName("contextBudgets")
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.setObjectName("contextMain")
        split.addWidget(self.out_tabs)
        split.addWidget(self.budget_panel)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([820, 480])
        split.setChildrenCollapsible(False)

        # -- actions ----------------------------------------------------------------------------------------
        self.status_label = QLabel(self)
        self.status_label.setObjectName("contextStatus")
        self.copy_button = QPushButton(self.tr("Copy as text"), self)
        self.export_button = QPushButton(self.tr("Export JSON…"), self)
        self.export_button.setToolTip(
            self.tr("The same JSON as “philont-memory context --json” (file readable only by you)")
        )
        self.pin_button = QPushButton(self.tr("Pin for comparison"), self)
        self.pin_button.setObjectName("pinButton")
        for b in (self.copy_button, self.export_button, self.pin_button):
            b.setEnabled(False)
        actions = QHBoxLayout()
        actions.setContentsMargins(8, 0, 8, 6)
        actions.addWidget(self.status_label, 1)
        actions.addWidget(self.copy_button)
        actions.addWidget(self.export_button)
        actions.addWidget(self.pin_button)

        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)
        lay.addLayout(grid)
        lay.addWidget(self.travel_banner)
        lay.addWidget(split, 1)
        lay.addLayout(actions)
        self.register_splitter(split, "main")

        # -- wiring ----------------------------------------------------------------------------------------
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(DEBOUNCE_MS)
        self._debounce.timeout.connect(self.compute_now)
        self.message_edit.textChanged.connect(self._schedule)
        self.session_combo.currentTextChanged.connect(self._schedule)
        self.home_combo.currentTextChanged.connect(self._schedule)
        self.host_combo.currentIndexChanged.connect(self._on_host)
        for spin in self._spins():
            spin.valueChanged.connect(self._on_budget)
        self.defaults_button.clicked.connect(self.reset_defaults)
        self.clear_button.clicked.connect(self.message_edit.clear)
        self.pick_button.clicked.connect(self.open_picker)
        self.back_button.clicked.connect(self.back_to_now)
        self.preview.anchorClicked.connect(self._on_link)
        self.copy_button.clicked.connect(self.copy_text)
        self.export_button.clicked.connect(self.export_dialog)
        self.pin_button.clicked.connect(self.pin)
        self.diff_view.unpinRequested.connect(self.unpin)
        self.diff_view.modeChanged.connect(self._update_diff)
        ctx.theme.changed.connect(self._restyle)
        self._restyle()
        self._set_status(self.tr("Type a message, or pick a past one."))

    # -- construction helpers ------------------------------------------------------------------------------
    def _session_combo(self, placeholder: str) -> QComboBox:
        combo = QComboBox(self)
        combo.setEditable(True)
        combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        combo.setMaxVisibleItems(20)
        combo.lineEdit().setPlaceholderText(placeholder)
        combo.lineEdit().setClearButtonEnabled(True)
        combo.addItem("", "")
        comp = combo.completer()
        if comp is not None:
            comp.setFilterMode(Qt.MatchFlag.MatchContains)
            comp.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        combo.setMinimumContentsLength(14)
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        return combo

    def _spin(self, lo: int, hi: int, value: int, step: int) -> QSpinBox:
        spin = QSpinBox(self)
        spin.setRange(lo, hi)
        spin.setSingleStep(step)
        spin.setGroupSeparatorShown(True)
        spin.setValue(max(lo, min(hi, int(value))))
        spin.setAccelerated(True)
        return spin

    def _spins(self) -> tuple[QSpinBox, ...]:
        return (
            self.recent_budget_spin,
            self.recall_budget_spin,
            self.recent_limit_spin,
            self.recall_limit_spin,
        )

    # -- BaseTab -----------------------------------------------------------------------------------------
    def activate(self) -> None:
        self._load_sessions()
        self.compute_now()

    def retranslate(self) -> None:
        """Re-render the last result in the new language (nothing is recomputed)."""
        self.host_combo.setItemText(0, self.tr("This machine (%1)").replace("%1", agent_platform(None)))
        self._restyle()
        self._update_status()

    def refresh(self) -> None:
        """The database changed: the prefix cache is stale; recompute (a pinned preview stays)."""
        self._generation += 1
        self._prefix_cache.clear()
        if not self.activated:
            return
        self.compute_now()
        now = QDateTime.currentMSecsSinceEpoch()
        if now - self._last_sessions_reload >= SESSIONS_REFRESH_MIN_MS:
            self._load_sessions()

    def wait_idle(self, timeout_ms: int = 10_000) -> bool:
        """Until the pending computation (a debounced one is started now) and the diff are done."""
        if self._debounce.isActive():
            self.compute_now()
        deadline = QDateTime.currentMSecsSinceEpoch() + timeout_ms
        while True:
            left = deadline - QDateTime.currentMSecsSinceEpoch()
            ok = super().wait_idle(max(0, int(left)))
            if ok and not self._debounce.isActive():
                return True
            if self._debounce.isActive():
                self.compute_now()
            if left <= 0:
                return False

    # -- inputs -------------------------------------------------------------------------------------------
    def set_fixed_now(self, now: int | None) -> None:
        """Compute at this time (tests, screenshots) instead of the current time."""
        self._fixed_now = now
        self._prefix_cache.clear()
        self._schedule()

    def set_message(self, text: str) -> None:
        self.message_edit.setPlainText(text)

    def set_sessions(self, ids: list[str] | tuple[str, ...]) -> None:
        self.session_combo.setEditText(", ".join(ids))

    def set_home_session(self, sid: str | None) -> None:
        self.home_combo.setEditText(sid or "")

    def set_host_os(self, host: str | None) -> None:
        self.host_combo.setCurrentIndex(max(0, self.host_combo.findData(host or "")))

    def set_budgets(
        self,
        recent_budget: int | None = None,
        recall_budget: int | None = None,
        recent_limit: int | None = None,
        recall_limit: int | None = None,
    ) -> None:
        for spin, v in zip(self._spins(), (recent_budget, recall_budget, recent_limit, recall_limit)):
            if v is not None:
                spin.setValue(v)

    def reset_defaults(self) -> None:
        self.set_budgets(**DEFAULTS)

    def inputs(self) -> ContextInputs:
        home = self.home_combo.currentText().strip()
        host = self.host_combo.currentData() or None
        return ContextInputs(
            message=self.message_edit.toPlainText(),
            session_ids=parse_session_list(self.session_combo.currentText()),
            recent_budget=self.recent_budget_spin.value(),
            recall_budget=self.recall_budget_spin.value(),
            recent_limit=self.recent_limit_spin.value(),
            recall_limit=self.recall_limit_spin.value(),
            host_os=host,
            home_session_id=home or None,
            as_of=self._as_of[0] if self._as_of else None,
            as_of_id=self._as_of[1] if self._as_of else None,
            now=self._fixed_now,
        )

    def _on_host(self, _i: int) -> None:
        self.ctx.settings.set(K_HOST_OS, self.host_combo.currentData() or "")
        self._schedule()

    def _on_budget(self, _v: int) -> None:
        s = self.ctx.settings
        s.set(K_RECENT_BUDGET, self.recent_budget_spin.value())
        s.set(K_RECALL_BUDGET, self.recall_budget_spin.value())
        s.set(K_RECENT_LIMIT, self.recent_limit_spin.value())
        s.set(K_RECALL_LIMIT, self.recall_limit_spin.value())
        self._schedule()

    def _schedule(self, *_: object) -> None:
        self._input_at = time.perf_counter()
        if self.activated:
            self._debounce.start()

    # -- sessions -------------------------------------------------------------------------------------------
    def _load_sessions(self) -> None:
        self._last_sessions_reload = QDateTime.currentMSecsSinceEpoch()
        self.run(job_sessions, on_result=self._on_sessions, on_error=lambda _e: None, key="sessions")

    def _on_sessions(self, sessions: list[SessionChoice]) -> None:
        self.sessions = sessions
        for combo in (self.session_combo, self.home_combo):
            text = combo.currentText()
            combo.blockSignals(True)
            combo.clear()
            combo.addItem("", "")
            for s in sessions:
                combo.addItem(s.id, s.id)
                combo.setItemData(
                    combo.count() - 1,
                    self.tr("%1 messages, since %2")
                    .replace("%1", fmt_int(s.count))
                    .replace("%2", local_time(s.started_at, False)),
                    Qt.ItemDataRole.ToolTipRole,
                )
            combo.setEditText(text)
            combo.blockSignals(False)

    # -- computing ------------------------------------------------------------------------------------------
    def compute_now(self) -> Any:
        """Compute the preview for the current inputs now (cancels one still running); returns the job."""
        self._debounce.stop()
        inputs = self.inputs()
        minute = QDateTime.currentMSecsSinceEpoch() // 60_000
        pkey = inputs.prefix_key(minute)
        cached = self._prefix_cache.get(pkey)
        prefix = cached[1] if cached is not None and cached[0] == self._generation else None
        self._seq += 1
        seq, gen = self._seq, self._generation
        submitted = time.perf_counter()
        input_at = self._input_at  # the last input change this computation reflects
        self.computations_started += 1
        self._set_status(self.tr("Computing…"))
        self._provisional_timer.stop()
        self._pending_provisional = None
        self._first_paint_done = False
        job = self.run(
            self._job_fn,
            inputs,
            prefix,
            on_result=lambda r: self._on_result(seq, gen, pkey, submitted, input_at, r),
            on_error=lambda e: self._on_error(seq, e),
            key="preview",
            label=self.tr("Computing the context preview"),
        )
        if inputs.recall_budget > 0 and len(inputs.message.strip()) >= 2:
            fast = replace(inputs, recall_budget=0)  # no recall search: the rest of the preview at once
            self.run(
                self._job_fn,
                fast,
                prefix,
                on_result=lambda r: self._on_fast(seq, submitted, input_at, r),
                on_error=lambda _e: None,
                key="preview-fast",
            )
        return job

    def _on_fast(self, seq: int, submitted: float, input_at: float | None, r: ContextResult) -> None:
        if seq != self._seq or self._first_paint_done:
            return
        self._pending_provisional = (seq, input_at, r)
        wait = PROVISIONAL_AFTER_MS - (time.perf_counter() - submitted) * 1000
        self._provisional_timer.start(max(0, int(wait)))

    def _show_provisional(self) -> None:
        pending, self._pending_provisional = self._pending_provisional, None
        if pending is None or pending[0] != self._seq or self._first_paint_done:
            return
        _seq, input_at, r = pending
        self.provisional = r
        self._first_paint_done = True
        if input_at is not None:
            self.last_input_to_first_paint_ms = (time.perf_counter() - input_at) * 1000
        for b in (self.copy_button, self.export_button, self.pin_button):
            b.setEnabled(False)  # they act on the full preview only
        self._render()
        self._set_status(self.tr("Searching the timeline for recall candidates…"))

    def _on_result(
        self,
        seq: int,
        gen: int,
        pkey: tuple[Any, ...],
        submitted: float,
        input_at: float | None,
        r: ContextResult,
    ) -> None:
        if seq != self._seq:
            return  # a newer computation was started after this one
        if gen == self._generation:
            self._prefix_cache = {pkey: (gen, r.prefix)}
        self._provisional_timer.stop()
        self._pending_provisional = None
        self.provisional = None
        first = not self._first_paint_done
        self._first_paint_done = True
        self.result = r
        self.error = None
        t = time.perf_counter()
        self._render()
        self.budget_panel.set_result(r)
        shown = time.perf_counter()
        self.last_render_ms = (shown - t) * 1000
        self.last_compute_ms = (shown - submitted) * 1000
        self.last_input_to_shown_ms = (shown - input_at) * 1000 if input_at is not None else None
        if first:
            self.last_input_to_first_paint_ms = self.last_input_to_shown_ms
        self.results_shown += 1
        for b in (self.copy_button, self.export_button, self.pin_button):
            b.setEnabled(True)
        self._update_status()
        self._update_diff()
        self.resultShown.emit(r)

    def _on_error(self, seq: int, exc: BaseException) -> None:
        if seq != self._seq or isinstance(exc, ContextCancelledError):
            return
        self._provisional_timer.stop()
        self._pending_provisional = None
        self.provisional = None
        self.error = f"{type(exc).__name__}: {exc}"
        if isinstance(exc, NotFoundError) and self._as_of is not None:
            self._set_status(self.tr("The picked message no longer exists."))
            self.back_to_now()
            return
        self._set_status(self.tr("The context could not be computed."))
        self.ctx.show_error(self.tr("The context could not be computed"), exc)

    def _set_status(self, text: str) -> None:
        self.status_label.setText(text)

    def _update_status(self) -> None:
        r = self.result
        if r is None:
            return
        t = r.timeline
        parts = [
            self.tr("%1 prefix tokens").replace("%1", fmt_int(r.prefix.tokens)),
            self.tr("%1 timeline tokens (%2 recent, %3 recalled)")
            .replace("%1", fmt_int(t.total_tokens))
            .replace("%2", str(t.recency_count))
            .replace("%3", str(t.recall_count)),
        ]
        if r.left_out:
            parts.append(self.tr("%1 left out").replace("%1", str(len(r.left_out))))
        ms = r.timings_ms.get("total", 0.0)
        parts.append(self.tr("computed in %1 ms").replace("%1", f"{ms:,.0f}"))
        self._set_status("  ·  ".join(parts))

    # -- rendering ---------------------------------------------------------------------------------------------
    def _render(self) -> None:
        r = self.provisional or self.result
        if r is None:
            return
        sb = self.preview.verticalScrollBar()
        pos = sb.value()
        self.preview.setHtml(self.renderer.render(r, self._expanded, provisional=r is self.provisional))
        sb.setValue(pos)

    def _restyle(self) -> None:
        bg, fg, border = self.ctx.theme.banner_colors("info")
        self.travel_banner.setStyleSheet(
            f"#timeTravelLabel {{ background-color: {bg.name()}; color: {fg.name()}; "
            f"border: 1px solid {border.name()}; border-radius: 4px; padding: 5px 8px; }}"
        )
        self._render()
        if self.result is not None:
            self.budget_panel.set_result(self.result)
        self.diff_view.render()

    def expand_all(self, on: bool = True) -> None:
        self._expanded = set(SECTION_ORDER) if on else set()
        if self.result is not None:
            self._expanded |= {s.name for s in self.result.prefix.sections} if on else set()
        self._render()

    def toggle_section(self, name: str) -> None:
        self._expanded ^= {name}
        self._render()

    @property
    def expanded_sections(self) -> set[str]:
        return set(self._expanded)

    def preview_text(self) -> str:
        return self.preview.toPlainText()

    def _on_link(self, url: QUrl) -> None:
        s = url.toString()
        kind, _, arg = s.partition(":")
        if kind == "toggle":
            self.toggle_section(arg)
        elif kind == "expand":
            self.expand_all(True)
        elif kind == "collapse":
            self.expand_all(False)
        elif kind == "full":
            self._show_full(arg)

    def _show_full(self, arg: str) -> None:
        from philont_desktop.widgets.fulltext import FullTextDialog

        r = self.result
        if r is None:
            return
        if arg == "this":
            title, text = self.tr("This turn"), r.message
        else:
            m = next((m for m in r.timeline.messages if str(m.id) == arg), None)
            if m is None:
                return
            title = (
                self.tr("Message #%1 · %2 · %3")
                .replace("%1", str(m.id))
                .replace("%2", m.role)
                .replace("%3", local_time(m.timestamp))
            )
            text = m.content
        dlg = FullTextDialog(title, text, self)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        dlg.show()

    # -- time travel ---------------------------------------------------------------------------------------------
    def open_picker(self) -> MessagePicker:
        picker = MessagePicker(self.run, self.ctx.theme, self)
        picker.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        picker.picked.connect(self.pick_message)
        picker.open()
        picker.load("")
        return picker

    def pick_message(self, m: Message) -> None:
        """Show what the agent saw when ``m`` arrived: only what existed before it."""
        self._as_of = (m.timestamp, m.id)
        self._as_of_message = m
        self._prefix_cache.clear()
        notes: list[str] = []
        if m.session_id.startswith("system:scheduled:") and parse_session_list(
            self.session_combo.currentText()
        ) != (m.session_id,):
            self.session_combo.blockSignals(True)
            self.set_sessions([m.session_id])
            self.session_combo.blockSignals(False)
            notes.append(self.tr("the timeline is restricted to its scheduled session, as the agent does"))
        if m.origin_session_id and self.home_combo.currentText().strip() != m.origin_session_id:
            self.home_combo.blockSignals(True)
            self.set_home_session(m.origin_session_id)
            self.home_combo.blockSignals(False)
            notes.append(self.tr("its conversation is the home conversation"))
        self.message_edit.blockSignals(True)
        self.message_edit.setPlainText(m.content)
        self.message_edit.blockSignals(False)
        text = (
            self.tr(
                "What the agent saw before message #%1 (%2, session %3): only messages, facts and skills that existed then."
            )
            .replace("%1", str(m.id))
            .replace("%2", local_time(m.timestamp))
            .replace("%3", m.session_id)
        )
        if notes:
            text += " " + self.tr("Set from the message: %1.").replace("%1", self.tr("; ").join(notes))
        self.travel_label.setText(text)
        self.travel_banner.show()
        self._input_at = time.perf_counter()
        self.compute_now()

    def back_to_now(self) -> None:
        self._as_of = None
        self._as_of_message = None
        self._prefix_cache.clear()
        self.travel_banner.hide()
        self._input_at = time.perf_counter()
        self.compute_now()

    @property
    def as_of(self) -> tuple[int, int] | None:
        return self._as_of

    # -- copy / export ---------------------------------------------------------------------------------------------
    def copy_text(self) -> None:
        if self.result is None:
            return
        QApplication.clipboard().setText(self.result.to_text())
        self.ctx.statusMessage.emit(self.tr("The whole context was copied as text."))

    def export_dialog(self) -> None:
        if self.result is None:
            return
        start = self.ctx.settings.last_directory or str(Path.home())
        path, _f = QFileDialog.getSaveFileName(
            self,
            self.tr("Export the context as JSON"),
            str(Path(start) / "context.json"),
            self.tr("JSON (*.json)"),
        )
        if path:
            self.ctx.settings.last_directory = str(Path(path).parent)
            self.export_to(path)

    def export_to(self, path: str | Path) -> Any:
        """Write the current preview's JSON (the command line's shape) to ``path``, mode 0600, off the GUI thread."""
        r = self.result
        if r is None:
            return None

        def done(p: Path) -> None:
            self.ctx.statusMessage.emit(self.tr("Exported to %1").replace("%1", str(p)))
            self.last_export = Path(p)

        return self.controller.track(
            self.ctx.run(
                task_export,
                r,
                str(path),
                on_result=done,
                on_error=lambda e: self.ctx.show_error(self.tr("The JSON could not be written"), e),
                lane="task",
                label=self.tr("Exporting the context"),
            )
        )

    # -- compare ----------------------------------------------------------------------------------------------------
    def pin(self) -> None:
        """Pin the current preview; the Compare view then diffs it against every new preview."""
        if self.result is None:
            return
        self._pinned = self.result
        self._pinned_at = QDateTime.currentMSecsSinceEpoch()
        r = self.result
        what = first_line(r.message, 60) or self.tr("(empty message)")
        self.diff_view.set_pinned_info(
            self.tr("Pinned at %1: “%2”. Compared with the current preview (− pinned, + current).")
            .replace("%1", local_time(self._pinned_at))
            .replace("%2", what)
        )
        self.out_tabs.setTabText(1, self.tr("Compare (pinned)"))
        self._update_diff()

    def unpin(self) -> None:
        self._pinned = None
        self.diff_view.show_empty()
        self.out_tabs.setTabText(1, self.tr("Compare"))

    @property
    def pinned(self) -> ContextResult | None:
        return self._pinned

    def _update_diff(self) -> None:
        if self._pinned is None or self.result is None:
            return
        old, new = self._pinned.to_text(), self.result.to_text()
        self.controller.track(
            self.ctx.run(
                task_diff,
                old,
                new,
                self.diff_view.context_lines,
                on_result=self.diff_view.set_diff,
                key="context:diff",
                lane="task",
            )
        )
