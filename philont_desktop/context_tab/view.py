"""The Context tab: what the agent would be given if a message arrived now, and why each piece is there.

The shape of every tab (see :mod:`philont_desktop.tabs`): :mod:`.state` holds the inputs and what was
computed, without Qt; :mod:`.controller` computes the preview off the GUI thread (debounced, stale
computations cancelled, the rest of the preview first while a slow recall search runs, the recall
explanation's details after); this view composes the inputs, the time-travel banner, the preview, the
comparison with a pinned preview, the budgets and the left-out table (``widgets/``) and wires them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.context import ContextResult
from core.jsutil import now_ms
from philont_desktop.context_tab.controller import DEBOUNCE_MS, PROVISIONAL_AFTER_MS, ContextController
from philont_desktop.context_tab.htmltext import first_line, fmt_int
from philont_desktop.context_tab.model import parse_session_list
from philont_desktop.context_tab.state import Budgets, ContextState
from philont_desktop.context_tab.widgets.budgets import BudgetPanel
from philont_desktop.context_tab.widgets.diff_view import DiffView
from philont_desktop.context_tab.widgets.inputs import InputsPanel
from philont_desktop.context_tab.widgets.left_out import LeftOutTable
from philont_desktop.context_tab.widgets.picker import MessagePicker
from philont_desktop.context_tab.widgets.preview import PreviewPane
from philont_desktop.context_tab.widgets.travel import TimeTravelBanner
from philont_desktop.humanize import abs_time
from philont_desktop.jobs import spin_until
from philont_desktop.qt import (
    QApplication,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSplitter,
    Qt,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.tabs.base import BaseTab
from philont_desktop.tabs.navigation import ShowTurn, Target

__all__ = ["DEBOUNCE_MS", "PROVISIONAL_AFTER_MS", "ContextTab"]


class ContextTab(BaseTab):
    """Inputs at the top; the preview (or the comparison with a pinned preview) and the budgets below."""

    name = "context"
    targets = (ShowTurn,)

    def __init__(self, ctx: Any, parent: QWidget | None = None):
        super().__init__(ctx, parent)
        self.inputs_panel = InputsPanel(self.controller.conversations, self)
        self.travel_banner = TimeTravelBanner(ctx.theme, self)
        self.preview = PreviewPane(ctx.theme, self)
        self.diff_view = DiffView(ctx.theme, self)
        self.diff_view.setObjectName("contextDiff")
        self.out_tabs = QTabWidget(self)
        self.out_tabs.setObjectName("contextOutput")
        self.out_tabs.setDocumentMode(True)
        self.out_tabs.addTab(self.preview, self.tr("Preview"))
        self.out_tabs.addTab(self.diff_view, self.tr("Compare"))
        self.budget_panel = BudgetPanel(ctx.theme, self)
        self.budget_panel.setObjectName("contextBudgets")
        self.left_out_table = LeftOutTable(self)
        self.status_label = QLabel(self)
        self.status_label.setObjectName("contextStatus")
        self.status_label.setWordWrap(True)  # large text in a narrow window: a second line
        self.copy_button = QPushButton(self.tr("Copy as text"), self)
        self.export_button = QPushButton(self.tr("Export JSON…"), self)
        self.export_button.setToolTip(
            self.tr("The same JSON as “philont-memory context --json” (file readable only by you)")
        )
        self.pin_button = QPushButton(self.tr("Pin for comparison"), self)
        self.pin_button.setObjectName("pinButton")
        self._layout()
        self._wire()
        self.inputs_panel.show_inputs(self.state)
        self._show_status()

    def create_state(self) -> ContextState:
        return ContextState()

    def create_controller(self) -> ContextController:
        return ContextController(self.ctx, self.state, self.name, self)

    def _layout(self) -> None:
        side = QWidget(self)
        side_lay = QVBoxLayout(side)
        side_lay.setContentsMargins(8, 8, 8, 8)
        side_lay.setSpacing(8)
        side_lay.addWidget(self.budget_panel)
        side_lay.addWidget(self.left_out_table, 1)
        # On a short window the budgets, the legend and the left-out table scroll rather than clip.
        side_scroll = QScrollArea(self)
        side_scroll.setObjectName("contextSide")
        side_scroll.setWidgetResizable(True)
        side_scroll.setFrameShape(QFrame.Shape.NoFrame)
        side_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        side_scroll.setWidget(side)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.setObjectName("contextMain")
        split.addWidget(self.out_tabs)
        split.addWidget(side_scroll)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([820, 480])
        split.setChildrenCollapsible(False)
        actions = QHBoxLayout()
        actions.setContentsMargins(8, 0, 8, 6)
        actions.addWidget(self.status_label, 1)
        for b in (self.copy_button, self.export_button, self.pin_button):
            b.setEnabled(False)
            actions.addWidget(b)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)
        lay.addWidget(self.inputs_panel)
        lay.addWidget(self.travel_banner)
        lay.addWidget(split, 1)
        lay.addLayout(actions)
        self.register_splitter(split, "main")

    def _wire(self) -> None:
        c, p = self.controller, self.inputs_panel
        p.messageEdited.connect(lambda text: c.edit(message=text))
        p.sessionsEdited.connect(lambda ids: c.edit(session_ids=tuple(ids)))
        p.homeEdited.connect(lambda home: c.edit(home=home))
        p.hostEdited.connect(lambda host: c.edit(host_os=host))
        p.budgetsEdited.connect(lambda b: c.edit(budgets=b))
        p.defaultsRequested.connect(c.reset_defaults)
        p.pickRequested.connect(self.open_picker)
        self.travel_banner.backRequested.connect(c.back_to_now)
        self.preview.toggleRequested.connect(c.toggle_section)
        self.preview.expandRequested.connect(c.expand_all)
        self.preview.fullTextRequested.connect(self._show_full)
        self.copy_button.clicked.connect(self.copy_text)
        self.export_button.clicked.connect(self.export_dialog)
        self.pin_button.clicked.connect(c.pin)
        self.diff_view.unpinRequested.connect(c.unpin)
        self.diff_view.modeChanged.connect(self._on_diff_mode)
        c.exported.connect(
            lambda p: self.ctx.statusMessage.emit(self.tr("Exported to %1").replace("%1", str(p)))
        )
        self.state.changed.connect(self._on_state)
        self.ctx.theme.changed.connect(self._restyle)

    # -- the state on screen ----------------------------------------------------------------------------
    def _on_state(self, names: frozenset[str]) -> None:
        st = self.state
        self.inputs_panel.show_inputs(st, names)
        if "sessions" in names:
            self.inputs_panel.set_sessions(st.sessions)
        if "as_of" in names:
            self.travel_banner.show_point(st.as_of, self._now())
        if names & {"result", "provisional", "explaining", "expanded"}:
            self._render()
        if "result" in names and st.result is not None:
            self.budget_panel.set_result(st.result)
            self.left_out_table.set_rows(st.result.left_out, st.result.now)
        if names & {"result", "provisional", "phase"}:
            ready = st.result is not None and st.provisional is None
            for b in (self.copy_button, self.export_button, self.pin_button):
                b.setEnabled(ready)  # they act on the full preview only
            self._show_status()
        if "pinned" in names:
            self._show_pinned()
        if "diff" in names and st.diff is not None:
            self.diff_view.set_diff(st.diff)

    def _render(self) -> None:
        st = self.state
        self.preview.show_result(
            st.shown, st.expanded, provisional=st.provisional is not None, explaining=st.explaining
        )

    def _now(self) -> int:
        return self.state.fixed_now if self.state.fixed_now is not None else now_ms()

    def _show_status(self) -> None:
        st = self.state
        text = {
            "idle": self.tr("Type a message, or pick a past one."),
            "computing": self.tr("Computing…"),
            "searching": self.tr("Searching the timeline for recall candidates…"),
            "failed": self.tr("The context could not be computed."),
            "gone": self.tr("The picked message no longer exists."),
        }.get(st.phase)
        if text is None and st.result is not None:
            text = self._summary(st.result)
        self.status_label.setText(text or "")

    def _summary(self, r: ContextResult) -> str:
        t = r.timeline
        parts = [
            self.tr("%1 prefix tokens").replace("%1", fmt_int(r.prefix.tokens)),
            self.tr("%1 timeline tokens (%2 recent, %3 recalled)")
            .replace("%1", fmt_int(t.total_tokens))
            .replace("%2", str(t.recency_count))
            .replace("%3", str(t.recall_count)),
        ]
        if r.left_out:
            parts.append(self.tr("%n left out", None, len(r.left_out)))
        ms = r.timings_ms.get("total", 0.0)
        parts.append(self.tr("computed in %1 ms").replace("%1", f"{ms:,.0f}"))
        return "  ·  ".join(parts)

    def _restyle(self) -> None:
        self.travel_banner.restyle()
        self._render()
        if self.state.result is not None:
            self.budget_panel.set_result(self.state.result)
        self.diff_view.render()

    def _show_pinned(self) -> None:
        pinned = self.state.pinned
        if pinned is None:
            self.diff_view.show_empty()
            self.out_tabs.setTabText(1, self.tr("Compare"))
            return
        what = first_line(pinned.result.message, 60) or self.tr("(empty message)")
        self.diff_view.set_pinned_info(
            self.tr("Pinned at %1: “%2”. Compared with the current preview (− pinned, + current).")
            .replace("%1", abs_time(pinned.at, seconds=True))
            .replace("%2", what)
        )
        self.out_tabs.setTabText(1, self.tr("Compare (pinned)"))

    def _on_diff_mode(self) -> None:
        if self.controller.diff_context != self.diff_view.context_lines:
            self.controller.set_diff_context(self.diff_view.context_lines)
        else:
            self.diff_view.render()

    # -- BaseTab --------------------------------------------------------------------------------------
    def retranslate(self) -> None:
        """Show the last result in the new language (nothing is recomputed)."""
        self.inputs_panel.retranslate()
        self.travel_banner.retranslate(self._now())
        self._restyle()
        if self.state.result is not None:
            self.left_out_table.set_rows(self.state.result.left_out, self.state.result.now)
        self._show_pinned()
        self._show_status()

    # -- inputs (the inputs panel's widgets show them: typing there is the same) --------------------------
    def set_message(self, text: str) -> None:
        self.inputs_panel.message_edit.setPlainText(text)

    def set_sessions(self, ids: list[str] | tuple[str, ...]) -> None:
        self.inputs_panel.session_combo.setEditText(", ".join(ids))

    def set_home_session(self, sid: str | None) -> None:
        """The conversation the message arrives in (``None``: none), as if picked in the combo box."""
        self.controller.edit(home=sid or None)

    def set_host_os(self, host: str | None) -> None:
        combo = self.inputs_panel.host_combo
        combo.setCurrentIndex(max(0, combo.findData(host or "")))

    def set_budgets(self, **values: int | None) -> None:
        for key, v in values.items():
            if v is not None:
                self.inputs_panel.spins[key].setValue(v)

    def reset_defaults(self) -> None:
        self.controller.edit(budgets=Budgets())

    def set_fixed_now(self, now: int | None) -> None:
        """Compute at this time (tests, screenshots) instead of the current time."""
        self.controller.edit(fixed_now=now)

    def compute_now(self) -> Any:
        return self.controller.compute_now()

    # -- what is shown --------------------------------------------------------------------------------
    @property
    def message_edit(self) -> Any:
        return self.inputs_panel.message_edit

    @property
    def result(self) -> ContextResult | None:
        return self.state.result

    @property
    def provisional(self) -> ContextResult | None:
        return self.state.provisional

    @property
    def error(self) -> str | None:
        return self.state.error

    @property
    def pinned(self) -> ContextResult | None:
        return None if self.state.pinned is None else self.state.pinned.result

    @property
    def as_of(self) -> tuple[int, int] | None:
        p = self.state.as_of
        return None if p is None else (p.timestamp, p.message_id)

    @property
    def expanded_sections(self) -> set[str]:
        return set(self.state.expanded)

    def preview_text(self) -> str:
        return self.preview.text()

    def wait_idle(self, timeout_ms: int = 10_000) -> bool:
        """Until the computations are done and the last preview is on screen."""
        ok = super().wait_idle(timeout_ms)
        spin_until(lambda: not self.preview.pending, 1000)  # shown in its own turns, as without a wait
        self.preview.flush()
        return ok

    def session_ids(self) -> tuple[str, ...]:
        return parse_session_list(self.inputs_panel.session_combo.currentText())

    # -- actions --------------------------------------------------------------------------------------
    def expand_all(self, on: bool = True) -> None:
        self.controller.expand_all(on)

    def toggle_section(self, name: str) -> None:
        self.controller.toggle_section(name)

    def pin(self) -> None:
        self.controller.pin()

    def unpin(self) -> None:
        self.controller.unpin()

    def pick_message(self, m: Any) -> None:
        """Show what the agent saw when ``m`` arrived: only what existed before it."""
        self.controller.pick(m)

    def back_to_now(self) -> None:
        self.controller.back_to_now()

    def navigate(self, target: Target) -> bool:
        """:class:`ShowTurn`: what the agent saw at that past user message."""
        if isinstance(target, ShowTurn):
            self.controller.pick_id(target.message_id)
            return True
        return False

    def open_picker(self) -> MessagePicker:
        picker = MessagePicker(self.run, self.ctx.theme, self)
        picker.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        picker.picked.connect(self.pick_message)
        picker.open()
        picker.load("")
        return picker

    def _show_full(self, arg: str) -> None:
        from philont_desktop.context_tab.render import shown_text
        from philont_desktop.widgets.fulltext import FullTextDialog

        r = self.state.result
        if r is None:
            return
        want_raw, arg = arg.startswith("raw:"), arg.removeprefix("raw:")
        stored = None  # the stored text, when the text shown is its readable form
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
                .replace("%3", abs_time(m.timestamp, seconds=True))
            )
            text = shown_text(m)
            stored = m.content if text is not m.content else None
        dlg = FullTextDialog(title, text, self, monospace=stored is not None, raw=stored)
        dlg.set_raw(want_raw)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        dlg.show()

    def copy_text(self) -> None:
        if self.state.result is not None:
            QApplication.clipboard().setText(self.state.result.to_text())
            self.ctx.statusMessage.emit(self.tr("The whole context was copied as text."))

    def export_dialog(self) -> None:
        if self.state.result is None:
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
        """Write the preview's JSON (the command line's shape) to ``path``, mode 0600, off the GUI thread."""
        return self.controller.export_to(path)


# The measurements of the last computation (tests, the benchmark), read from the controller.
for _name in (
    "computations_started",
    "results_shown",
    "last_compute_ms",
    "last_input_to_shown_ms",
    "last_render_ms",
    "last_input_to_first_paint_ms",
    "last_export",
):
    setattr(ContextTab, _name, property(lambda self, n=_name: getattr(self.controller, n)))
