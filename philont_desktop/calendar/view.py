"""The Calendar tab: what is coming up (as the agent's ``list_upcoming`` sees it), every event, every task.

* **Agenda**: calendar occurrences and enabled tasks in a window of 1–90 days, with exactly the
  semantics of ``list_upcoming`` (:mod:`core.upcoming`), merged by time with the overdue tasks first
  (highlighted); paused tasks shown as paused; repeat rules in words. The details pane shows the line
  the agent would be given.
* **Month**: a month grid of every event occurrence and task run (:mod:`.widgets.month`).
* **Events** and **Tasks**: every row of ``memory_calendar`` and ``memory_schedules``, disabled tasks
  and past events included (muted).
* In editing mode: enable / disable / delete a task, delete an event, each an audited edit on the shared
  undo stack (:mod:`core.curation.calendar`); deleting asks first.

The shape of every tab (see :mod:`philont_desktop.tabs`): :mod:`.state` holds the window, the clock and
what was loaded without Qt; :mod:`.controller` loads and runs the edits; this view composes the toolbar,
the tables and the details pane (``widgets/``) and wires them together.
"""

from __future__ import annotations

import html
from typing import Any

from core.upcoming import UpcomingResult
from philont_desktop import zoom
from philont_desktop.calendar.cells import fmt_local
from philont_desktop.calendar.controller import CalendarController
from philont_desktop.calendar.navigate import CalendarNavigation
from philont_desktop.calendar.state import CalendarState
from philont_desktop.calendar.widgets.details import DetailsPane
from philont_desktop.calendar.widgets.tables import CalendarTables
from philont_desktop.calendar.widgets.toolbar import CalendarToolbar
from philont_desktop.qt import QLabel, QMessageBox, QModelIndex, QSplitter, Qt, QVBoxLayout, QWidget
from philont_desktop.tabs.base import BaseTab
from philont_desktop.widgets.after_paint import next_turn


class CalendarTab(CalendarNavigation, BaseTab):
    """Upcoming occurrences and tasks, all events, all tasks; curation of tasks and events."""

    name = "calendar"

    def __init__(self, ctx, parent: QWidget | None = None):
        super().__init__(ctx, parent)
        self.toolbar = CalendarToolbar(self)
        self.summary = QLabel(self)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setWordWrap(True)  # large text in a narrow window: a second line
        self.tables = CalendarTables(self)
        self.details = DetailsPane(self)
        self.tables.setObjectName("calendarTables")
        self.details.setObjectName("calendarDetails")
        self._details_timer = next_turn(self, self._show_details)  # after a load: a turn later
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.addWidget(self.tables)
        self.splitter.addWidget(self.details)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        # The details grow with the text (their dates and names stay on their lines); the tables keep
        # at least 55 % of the width.
        zoom.set_splitter_sizes(self.splitter, [900, 360], panes=(1,), rest_share=0.55)
        self.register_splitter(self.splitter, "main")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.summary)
        layout.addWidget(self.splitter, 1)
        self._wire()
        self._apply_colors()
        self.tables.update_titles(0)
        self.set_editing(bool(ctx.editing))

    def create_state(self) -> CalendarState:
        return CalendarState()

    def create_controller(self) -> CalendarController:
        return CalendarController(self.ctx, self.state, self.name, self)

    def _wire(self) -> None:
        self.toolbar.daysChanged.connect(self.controller.set_days)
        self.toolbar.filterChanged.connect(self.tables.set_filter)
        self.toolbar.enableRequested.connect(self.set_selected_enabled)
        self.toolbar.deleteRequested.connect(lambda: self.delete_selected())
        self.tables.rowChanged.connect(lambda *_: self._on_selection())
        self.tables.month.dayChanged.connect(lambda *_: self._on_selection())
        self.state.changed.connect(self._on_state)
        self.ctx.theme.changed.connect(self._apply_colors)

    # -- the parts, by name (tests, the self-test and the export dialog use them) ------------------------
    @property
    def fixed_now(self) -> int | None:
        return self.state.fixed_now

    @fixed_now.setter
    def fixed_now(self, now: int | None) -> None:
        self.state.update(fixed_now=now)

    @property
    def result(self) -> UpcomingResult | None:
        return self.state.result

    @property
    def now(self) -> int:
        return self.state.now

    @property
    def days_spin(self):
        return self.toolbar.days_spin

    @property
    def filter_edit(self):
        return self.toolbar.filter_edit

    @property
    def enable_button(self):
        return self.toolbar.enable_button

    @property
    def disable_button(self):
        return self.toolbar.disable_button

    @property
    def delete_button(self):
        return self.toolbar.delete_button

    @property
    def edit_box(self):
        return self.toolbar.edit_box

    @property
    def upcoming_model(self):
        return self.tables.upcoming_model

    @property
    def events_model(self):
        return self.tables.events_model

    @property
    def schedules_model(self):
        return self.tables.schedules_model

    @property
    def views(self):
        return self.tables.views

    @property
    def inner(self) -> CalendarTables:
        return self.tables

    # -- BaseTab --------------------------------------------------------------------------------------
    def activate(self) -> None:
        for key, view in self.tables.views.items():
            state = self.ctx.settings.header_state(f"calendar/{key}")
            if state:
                view.horizontalHeader().restoreState(state)
                self.tables.keep_times_whole(key)
        self.refresh()

    def save_state(self) -> None:
        super().save_state()
        for key, view in self.tables.views.items():
            if self.tables.sized(key):  # a table never shown keeps no header: sized when first shown
                self.ctx.settings.set_header_state(f"calendar/{key}", view.horizontalHeader().saveState())

    def set_editing(self, on: bool) -> None:
        self.controller.set_editing(on)
        self.toolbar.set_editing(bool(on))
        self._on_selection()

    def retranslate(self) -> None:
        super().retranslate()
        self.tables.month.retranslate()
        self.tables.update_titles(len(self.state.result.items) if self.state.result else 0)
        self._show_summary()

    def focus_search(self) -> None:
        self.toolbar.filter_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.toolbar.filter_edit.selectAll()

    def export_view(self) -> dict[str, Any]:
        return self.tables.export_view()

    # -- showing the state ------------------------------------------------------------------------------
    def _on_state(self, names: frozenset[str]) -> None:
        if "result" in names or "schedules" in names or "events" in names:
            self.tables.show_state(
                self.state, lambda n: bool(self.ctx.settings.header_state(f"calendar/{n}"))
            )
            self._show_summary()
            self._on_selection(later=True)  # the details document in a turn of its own

    def _apply_colors(self) -> None:
        theme = self.ctx.theme
        bg, fg, _ = theme.banner_colors("error")
        self.details.muted = theme.muted_text().name()
        self.details.error = theme.status_color("error").name()
        self.tables.set_colors(
            {
                "overdue_bg": bg,
                "overdue_fg": fg,
                "muted": theme.muted_text(),
                "paused": theme.status_color("paused"),
                "task": theme.status_color("changed"),
                "overdue_text": theme.status_color("error"),
            }
        )
        self._on_selection()

    def _show_summary(self) -> None:
        if self.state.result is None:
            self.summary.setText("")
            return
        c = self.state.counts()
        parts = [
            self.tr("%n event occurrence(s)", None, c.events),
            self.tr("%n task(s)", None, c.tasks),
        ]
        text = html.escape(
            self.tr("Next %n day(s): {0}", None, self.state.days).format(self.tr(", ").join(parts))
        )
        if c.overdue:
            color = self.ctx.theme.status_color("error").name()
            text += (
                f" · <b style='color:{color}'>" + html.escape(self.tr("%n overdue", None, c.overdue)) + "</b>"
            )
        if c.paused:
            text += " · " + html.escape(self.tr("%n paused task(s)", None, c.paused))
        if c.disabled:
            text += " · " + html.escape(self.tr("%n disabled task(s) not listed", None, c.disabled))
        self.summary.setText(text)

    def _on_selection(self, *, later: bool = False) -> None:
        target = self.selected_target()
        self.toolbar.show_target(target, self.state.editing)
        if later:
            self._details_timer.start()
        else:
            self._show_details()

    def _show_details(self) -> None:
        self._details_timer.stop()
        if self.tables.currentWidget() is self.tables.month:
            self.details.show_day(*self.tables.month.selected_day(), self.state)
        else:
            self.details.show_row(self.tables.current_row(), self.state)

    def wait_idle(self, timeout_ms: int = 10_000) -> bool:
        """Until the loads are done and the details show the selected row."""
        ok = super().wait_idle(timeout_ms)
        if self._details_timer.isActive():
            self._show_details()
        return ok

    # -- selection ------------------------------------------------------------------------------------
    def current_view(self):
        return self.tables.current_view()

    def select(self, view_name: str, key: str) -> bool:
        """Show a sub-tab (``upcoming``, ``events``, ``tasks``) and select the row with ``key``."""
        self.tables.setCurrentWidget(self.tables.views[view_name])
        return self.tables.select_key(view_name, key)

    def selected_target(self) -> tuple[str, Any] | None:
        """``("task", Schedule)`` or ``("event", CalendarEvent)`` behind the current row, if any."""
        return self.state.target_of(self.tables.current_row())

    def index_of_key(self, view_name: str, key: str) -> QModelIndex:
        return self.tables.index_of_key(view_name, key)

    # -- curation -------------------------------------------------------------------------------------
    def _ask(self, title: str, text: str) -> bool:
        """Ask for confirmation (tests replace this)."""
        box = QMessageBox(QMessageBox.Icon.Warning, title, text, parent=self)
        yes = box.addButton(self.tr("Delete"), QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        return box.clickedButton() is yes

    def set_selected_enabled(self, enabled: bool):
        target = self.selected_target()
        if target is None or target[0] != "task":
            return None
        task = target[1]
        text = (self.tr("Enable task “{0}”") if enabled else self.tr("Disable task “{0}”")).format(task.name)
        return self.controller.set_enabled(task, enabled, text)

    def delete_selected(self, *, confirm: bool = True):
        target = self.selected_target()
        if target is None or not self.state.editing:
            return None
        kind, row = target
        if kind == "task":
            question = self.tr(
                "Delete the task “{0}” (next run {1})?\n\nThe agent will not run it any more. "
                "You can undo this with Edit › Undo."
            ).format(row.name, fmt_local(row.next_run_at))
            text = self.tr("Delete task “{0}”").format(row.name)
        else:
            occurrences = self.tr(" and all its repetitions") if row.rrule else ""
            question = self.tr(
                "Delete the event “{0}” ({1}){2}?\n\nYou can undo this with Edit › Undo."
            ).format(row.title, fmt_local(row.starts_at), occurrences)
            text = self.tr("Delete event “{0}”").format(row.title)
        if confirm and not self._ask(self.tr("Delete"), question):
            return None
        return self.controller.delete(kind, row, text)
