"""The Calendar tab: what is coming up (as the agent's ``list_upcoming`` sees it), every event, every task.

* **Upcoming**: calendar occurrences and enabled tasks in a window of 1–90 days, with exactly the
  semantics of ``list_upcoming`` (:mod:`core.upcoming`): recurring events expanded, overdue tasks
  included and highlighted. The details pane shows the line the agent would be given.
* **Events** and **Tasks**: every row of ``memory_calendar`` and ``memory_schedules``, disabled tasks
  and past events included (muted).
* In editing mode: enable / disable / delete a task, delete an event, each an audited edit on the shared
  undo stack (:mod:`core.curation.calendar`); deleting asks first.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from typing import Any

from core.calendar import CalendarStore
from core.curation import calendar as cal_curation
from core.jsutil import iso_ms, now_ms
from core.models import CalendarEvent, Schedule
from core.schedules import ScheduleStore
from core.tools import run_tool
from core.upcoming import MAX_WINDOW_DAYS, MIN_WINDOW_DAYS, UpcomingItem, UpcomingResult, upcoming
from philont_desktop.calendar.model import (
    EventsModel,
    SchedulesModel,
    UpcomingModel,
    _Table,
    fmt_in_zone,
    fmt_local,
    fmt_relative,
    paused_tasks,
    payload_message,
    repeats_text,
)
from philont_desktop.qt import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QItemSelectionModel,
    QLabel,
    QLineEdit,
    QMessageBox,
    QModelIndex,
    QPushButton,
    QSortFilterProxyModel,
    QSpinBox,
    QSplitter,
    Qt,
    QTableView,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.tabs.base import BaseTab

DEFAULT_DAYS = 7


def load_calendar(db: Any, days: int, now: int) -> tuple[UpcomingResult, list[CalendarEvent], list[Schedule]]:
    """Everything the tab shows, read in one worker job."""
    return upcoming(db, days, now), CalendarStore(db).list_all(), ScheduleStore(db).list_all()


def _compare_with_tool(db: Any, days: int, now: int) -> tuple[str, bool, str]:
    res = run_tool(db, "list_upcoming", {"window_days": days}, now=now)
    return upcoming(db, days, now).text(), bool(res.success), res.output or res.error or ""


class _Proxy(QSortFilterProxyModel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setSortRole(_Table.SortRole)
        self.setFilterKeyColumn(-1)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)


class CalendarTab(BaseTab):
    """Upcoming occurrences and tasks, all events, all tasks; curation of tasks and events."""

    name = "calendar"

    def __init__(self, ctx, parent: QWidget | None = None):
        super().__init__(ctx, parent)
        self.fixed_now: int | None = None  # tests and screenshots pin the clock
        self.result: UpcomingResult | None = None
        self.now = 0
        self._loaded_once = False

        # -- toolbar ------------------------------------------------------------------------------------
        self.days_spin = QSpinBox()
        self.days_spin.setRange(MIN_WINDOW_DAYS, MAX_WINDOW_DAYS)
        self.days_spin.setValue(DEFAULT_DAYS)
        self.days_spin.setSuffix(self.tr(" days"))
        self.days_spin.setToolTip(self.tr("How many days ahead, as the agent's list_upcoming window (1–90)."))
        self.days_spin.valueChanged.connect(lambda *_: self.refresh())
        self.filter_edit = QLineEdit()
        self.filter_edit.setObjectName("calendarSearch")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.setPlaceholderText(self.tr("Filter by title, task, zone, message…"))
        self.filter_edit.textChanged.connect(self._apply_filter)
        self.summary = QLabel()
        self.summary.setTextFormat(Qt.TextFormat.RichText)

        self.enable_button = QPushButton(self.tr("Enable task"))
        self.disable_button = QPushButton(self.tr("Disable task"))
        self.delete_button = QPushButton(self.tr("Delete…"))
        self.enable_button.clicked.connect(lambda: self.set_selected_enabled(True))
        self.disable_button.clicked.connect(lambda: self.set_selected_enabled(False))
        self.delete_button.clicked.connect(lambda: self.delete_selected())
        self.edit_box = QWidget()
        eb = QHBoxLayout(self.edit_box)
        eb.setContentsMargins(0, 0, 0, 0)
        for b in (self.enable_button, self.disable_button, self.delete_button):
            eb.addWidget(b)

        bar = QHBoxLayout()
        bar.addWidget(QLabel(self.tr("Coming up in the next")))
        bar.addWidget(self.days_spin)
        bar.addSpacing(12)
        bar.addWidget(self.filter_edit, 1)
        bar.addSpacing(12)
        bar.addWidget(self.edit_box)

        # -- tables -------------------------------------------------------------------------------------
        self.upcoming_model = UpcomingModel(self)
        self.events_model = EventsModel(self)
        self.schedules_model = SchedulesModel(self)
        self.upcoming_view = self._table(self.upcoming_model, sortable=False)
        self.events_view = self._table(self.events_model, sortable=True)
        self.schedules_view = self._table(self.schedules_model, sortable=True)
        self.views: dict[str, QTableView] = {
            "upcoming": self.upcoming_view,
            "events": self.events_view,
            "tasks": self.schedules_view,
        }
        self.inner = QTabWidget()
        self.inner.setDocumentMode(True)
        self.inner.addTab(self.upcoming_view, "")
        self.inner.addTab(self.events_view, "")
        self.inner.addTab(self.schedules_view, "")
        self.inner.currentChanged.connect(lambda *_: self._on_selection())

        self.details = QTextBrowser()
        self.details.setOpenLinks(False)
        self.details.setMinimumWidth(260)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.inner)
        self.splitter.addWidget(self.details)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([900, 320])
        self.register_splitter(self.splitter, "main")

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(bar)
        layout.addWidget(self.summary)
        layout.addWidget(self.splitter, 1)

        ctx.theme.changed.connect(self._apply_colors)
        self._apply_colors()
        self._update_titles()
        self.set_editing(ctx.editing)
        self._update_buttons()

    # -- construction helpers -------------------------------------------------------------------------
    def _table(self, model: _Table, *, sortable: bool) -> QTableView:
        proxy = _Proxy(self)
        proxy.setSourceModel(model)
        view = QTableView()
        view.setModel(proxy)
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        view.setAlternatingRowColors(True)
        view.setWordWrap(False)
        view.verticalHeader().setVisible(False)
        view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 8)
        h = view.horizontalHeader()
        h.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        h.setStretchLastSection(True)
        h.setHighlightSections(False)
        if sortable:
            h.setSortIndicatorClearable(True)
            h.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
            view.setSortingEnabled(True)
            proxy.sort(-1)  # the store's order until a header is clicked
        view.selectionModel().currentRowChanged.connect(lambda *_: self._on_selection())
        view.doubleClicked.connect(lambda *_: self._on_selection())
        return view

    def _apply_colors(self) -> None:
        bg, fg, _ = self.ctx.theme.banner_colors("error")
        colors = {
            "overdue_bg": bg,
            "overdue_fg": fg,
            "muted": self.ctx.theme.muted_text(),
            "paused": self.ctx.theme.status_color("paused"),
        }
        for m in (self.upcoming_model, self.events_model, self.schedules_model):
            m.set_colors(colors)
        self._on_selection()

    def _update_titles(self) -> None:
        r = self.result
        n_up = len(r.items) if r else 0
        self.inner.setTabText(0, self.tr("Upcoming ({0})").format(n_up))
        self.inner.setTabText(1, self.tr("All events ({0})").format(self.events_model.rowCount()))
        self.inner.setTabText(2, self.tr("All tasks ({0})").format(self.schedules_model.rowCount()))

    # -- BaseTab hooks --------------------------------------------------------------------------------
    def activate(self) -> None:
        for key, view in self.views.items():
            state = self.ctx.settings.header_state(f"calendar/{key}")
            if state:
                view.horizontalHeader().restoreState(state)
        self.refresh()

    def save_state(self) -> None:
        super().save_state()
        for key, view in self.views.items():
            self.ctx.settings.set_header_state(f"calendar/{key}", view.horizontalHeader().saveState())

    def refresh(self) -> None:
        self.now = self.fixed_now if self.fixed_now is not None else now_ms()
        self.run(
            load_calendar,
            self.days_spin.value(),
            self.now,
            on_result=self._on_loaded,
            on_error=lambda exc: self.ctx.show_error(self.tr("The calendar could not be loaded"), exc),
            key="load",
            label=self.tr("Loading the calendar"),
        )

    def set_editing(self, on: bool) -> None:
        self.edit_box.setVisible(on)
        self._update_buttons()

    def focus_search(self) -> None:
        self.filter_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.filter_edit.selectAll()

    # -- loading --------------------------------------------------------------------------------------
    def _on_loaded(self, data: tuple[UpcomingResult, list[CalendarEvent], list[Schedule]]) -> None:
        result, events, schedules = data
        keep = {name: self._selected_key(view) for name, view in self.views.items()}
        scroll = {name: view.verticalScrollBar().value() for name, view in self.views.items()}
        self.result = result
        paused = paused_tasks(schedules, result.now)
        self.upcoming_model.set_rows(result.items, result.now, paused)
        self.events_model.set_rows(events, result.now)
        self.schedules_model.set_rows(schedules, result.now, paused)
        for name, view in self.views.items():
            reselected = bool(keep[name]) and self._select_key(view, keep[name])
            if not reselected and view.model().rowCount() and (not self._loaded_once or keep[name]):
                view.selectRow(0)  # first load, or the selected row went away
            view.verticalScrollBar().setValue(scroll[name])
        if not self._loaded_once:
            self._loaded_once = True
            for view in self.views.values():
                if not self.ctx.settings.header_state(f"calendar/{self._view_name(view)}"):
                    view.resizeColumnsToContents()
                    self._cap_columns(view)
        self._update_titles()
        self._update_summary()
        self._on_selection()

    def _view_name(self, view: QTableView) -> str:
        return next(k for k, v in self.views.items() if v is view)

    @staticmethod
    def _cap_columns(view: QTableView, cap: int = 320) -> None:
        h = view.horizontalHeader()
        for i in range(h.count()):
            if h.sectionSize(i) > cap:
                h.resizeSection(i, cap)
        h.setStretchLastSection(False)  # re-apply: sizing to contents can leave the last section narrow
        h.setStretchLastSection(True)

    def _update_summary(self) -> None:
        r = self.result
        if r is None:
            self.summary.setText("")
            return
        paused = self.schedules_model.paused
        events, tasks = len(r.events), len(r.tasks)
        overdue = sum(1 for i in r.overdue if i.source_id not in paused)  # a paused task is not late
        parts = [
            self.tr("{0} event occurrence(s)").format(events),
            self.tr("{0} task(s)").format(tasks),
        ]
        text = self.tr("Next {0} days: {1}").format(self.days_spin.value(), self.tr(", ").join(parts))
        if overdue:
            c = self.ctx.theme.status_color("error").name()
            text = (
                html.escape(text)
                + f" · <b style='color:{c}'>"
                + html.escape(self.tr("{0} overdue").format(overdue))
                + "</b>"
            )
        else:
            text = html.escape(text)
        if paused:
            text += " · " + html.escape(self.tr("{0} paused task(s)").format(len(paused)))
        disabled = sum(1 for s in self.schedules_model.rows if not s.enabled)
        if disabled:
            text += " · " + html.escape(self.tr("{0} disabled task(s) not listed").format(disabled))
        self.summary.setText(text)

    def _apply_filter(self, text: str) -> None:
        for view in self.views.values():
            view.model().setFilterFixedString(text)
        self._on_selection()

    # -- selection ------------------------------------------------------------------------------------
    def current_view(self) -> QTableView:
        return self.inner.currentWidget()  # type: ignore[return-value]

    def _source_row(self, view: QTableView) -> Any:
        idx = view.selectionModel().currentIndex()
        if not idx.isValid():
            rows = view.selectionModel().selectedRows()
            if not rows:
                return None
            idx = rows[0]
        proxy = view.model()
        src = proxy.mapToSource(idx)
        return proxy.sourceModel().row_at(src.row())

    def _selected_key(self, view: QTableView) -> str | None:
        row = self._source_row(view)
        return None if row is None else view.model().sourceModel().key(row)

    def _select_key(self, view: QTableView, key: str) -> bool:
        proxy = view.model()
        src_row = proxy.sourceModel().row_of_key(key)
        if src_row is None:
            return False
        idx = proxy.mapFromSource(proxy.sourceModel().index(src_row, 0))
        if not idx.isValid():
            return False
        view.selectionModel().setCurrentIndex(
            idx, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        )
        return True

    def select(self, view_name: str, key: str) -> bool:
        """Show a sub-tab (``upcoming``, ``events``, ``tasks``) and select the row with ``key``."""
        view = self.views[view_name]
        self.inner.setCurrentWidget(view)
        return self._select_key(view, key)

    def selected_target(self) -> tuple[str, Any] | None:
        """``("task", Schedule)`` or ``("event", CalendarEvent)`` behind the current row, if any."""
        view = self.current_view()
        row = self._source_row(view)
        if row is None:
            return None
        if isinstance(row, Schedule):
            return "task", row
        if isinstance(row, CalendarEvent):
            return "event", row
        if isinstance(row, UpcomingItem):
            if row.kind == "task":
                s = next((s for s in self.schedules_model.rows if s.id == row.source_id), None)
                return ("task", s) if s is not None else None
            e = next((e for e in self.events_model.rows if e.id == row.source_id), None)
            return ("event", e) if e is not None else None
        return None

    def _on_selection(self) -> None:
        self._update_buttons()
        view = self.current_view()
        row = self._source_row(view) if view is not None else None
        self.details.setHtml(self._details_html(row))

    def _update_buttons(self) -> None:
        target = self.selected_target() if hasattr(self, "inner") else None
        editing = self.ctx.editing
        is_task = target is not None and target[0] == "task"
        self.enable_button.setEnabled(editing and is_task and not target[1].enabled)
        self.disable_button.setEnabled(editing and is_task and bool(target[1].enabled))
        self.delete_button.setEnabled(editing and target is not None)
        if target is None:
            self.delete_button.setText(self.tr("Delete…"))
        elif target[0] == "task":
            self.delete_button.setText(self.tr("Delete task…"))
        else:
            self.delete_button.setText(self.tr("Delete event…"))

    # -- details --------------------------------------------------------------------------------------
    def _details_html(self, row: Any) -> str:
        muted = self.ctx.theme.muted_text().name()
        if row is None:
            return (
                f"<p style='color:{muted}'>"
                + html.escape(self.tr("Select a row to see its details."))
                + "</p>"
            )
        lines: list[tuple[str, str]] = []
        title = ""
        agent_line = ""
        if isinstance(row, UpcomingItem):
            agent_line = row.line
            if row.kind == "task":
                s = next((s for s in self.schedules_model.rows if s.id == row.source_id), None)
                if s is not None:
                    row = s
            else:
                e = next((e for e in self.events_model.rows if e.id == row.source_id), None)
                title = row.title
                lines += [
                    (self.tr("This occurrence"), self._when(row.at, row.timezone)),
                    (self.tr("Ends"), self._when(row.ends_at, row.timezone) if row.ends_at else "—"),
                ]
                row = e if e is not None else row
        if isinstance(row, CalendarEvent):
            title = row.title
            lines += [
                (self.tr("First start"), self._when(row.starts_at, row.timezone)),
                (self.tr("End"), self._when(row.ends_at, row.timezone) if row.ends_at is not None else "—"),
                (self.tr("Repeats"), html.escape(row.rrule or self.tr("once"))),
                (self.tr("Time zone"), html.escape(row.timezone)),
                (self.tr("Related fact"), html.escape(row.related_fact_id or "—")),
                (self.tr("External ref"), html.escape(row.external_ref or "—")),
                (self.tr("Created"), html.escape(fmt_local(row.created_at, seconds=True))),
                (self.tr("Id"), f"<code>{html.escape(row.id)}</code>"),
            ]
        elif isinstance(row, Schedule):
            title = row.name
            state = self.tr("enabled") if row.enabled else self.tr("disabled")
            if self.schedules_model.is_paused(row):
                state = self.tr("enabled, paused: the agent's scheduler skips it until {0}").format(
                    fmt_local(row.paused_until)
                )
            elif row.enabled and row.next_run_at < self.now:
                state = self.tr("enabled, overdue")
            payload = (
                json.dumps(row.payload, ensure_ascii=False, indent=2)
                if not row.json_errors
                else row.payload_json
            )
            lines += [
                (self.tr("State"), html.escape(state)),
                (self.tr("Next run"), self._when(row.next_run_at, None)),
                (self.tr("Last run"), self._when(row.last_run_at, None) if row.last_run_at else "—"),
                (self.tr("Repeats"), html.escape(repeats_text(row.cron_expr))),
                (self.tr("Action"), html.escape(row.action_type)),
                (self.tr("Message"), html.escape(payload_message(row)) or "—"),
                (self.tr("Failures in a row"), str(row.consecutive_failures or 0)),
                (
                    self.tr("Paused until"),
                    html.escape(fmt_local(row.paused_until)) if row.paused_until else "—",
                ),
                (self.tr("Project"), html.escape(row.project or "—")),
                (self.tr("Created by"), html.escape(row.created_by)),
                (self.tr("Created"), html.escape(fmt_local(row.created_at, seconds=True))),
                (self.tr("Id"), f"<code>{html.escape(row.id)}</code>"),
                (self.tr("Payload"), f"<pre style='white-space: pre-wrap'>{html.escape(payload)}</pre>"),
            ]
        body = "".join(
            f"<tr><td style='color:{muted}; padding-right:8px' valign='top' nowrap>{html.escape(k)}</td>"
            f"<td>{v}</td></tr>"
            for k, v in lines
        )
        out = f"<h3>{html.escape(title)}</h3><table>{body}</table>"
        if agent_line:
            out += (
                f"<p style='color:{muted}'>"
                + html.escape(self.tr("What list_upcoming tells the agent:"))
                + f"</p><pre style='white-space: pre-wrap'>{html.escape(agent_line)}</pre>"
            )
        return out

    def _when(self, ms: int | None, zone: str | None) -> str:
        if ms is None:
            return "—"
        parts = [
            html.escape(f"{fmt_local(ms)}  ({fmt_relative(ms, self.now)})"),
            html.escape(self.tr("UTC {0}").format(iso_ms(ms))),
        ]
        zoned = fmt_in_zone(ms, zone)
        if zoned:
            parts.append(html.escape(zoned))
        return "<br>".join(parts)

    # -- curation -------------------------------------------------------------------------------------
    def _ask(self, title: str, text: str) -> bool:
        """Ask for confirmation (tests replace this)."""
        box = QMessageBox(QMessageBox.Icon.Warning, title, text, parent=self)
        yes = box.addButton(self.tr("Delete"), QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        return box.clickedButton() is yes

    def _curate(self, change: Any, text: str, on_done: Callable[[Any], Any] | None = None):
        def _done(edit: Any) -> None:
            self.refresh()
            if on_done is not None:
                on_done(edit)

        return self.curate(change, text, on_result=_done)

    def set_selected_enabled(self, enabled: bool):
        target = self.selected_target()
        if target is None or target[0] != "task" or not self.ctx.editing:
            return None
        s: Schedule = target[1]
        change = cal_curation.set_schedule_enabled(s.id, enabled, seen=s)
        text = (self.tr("Enable task “{0}”") if enabled else self.tr("Disable task “{0}”")).format(s.name)
        return self._curate(change, text)

    def delete_selected(self, *, confirm: bool = True):
        target = self.selected_target()
        if target is None or not self.ctx.editing:
            return None
        kind, row = target
        if kind == "task":
            question = self.tr(
                "Delete the task “{0}” (next run {1})?\n\nThe agent will not run it any more. "
                "You can undo this with Edit › Undo."
            ).format(row.name, fmt_local(row.next_run_at))
            change = cal_curation.delete_schedule(row.id, seen=row)
            text = self.tr("Delete task “{0}”").format(row.name)
        else:
            occurrences = self.tr(" and all its repetitions") if row.rrule else ""
            question = self.tr(
                "Delete the event “{0}” ({1}){2}?\n\nYou can undo this with Edit › Undo."
            ).format(row.title, fmt_local(row.starts_at), occurrences)
            change = cal_curation.delete_event(row.id, seen=row)
            text = self.tr("Delete event “{0}”").format(row.title)
        if confirm and not self._ask(self.tr("Delete"), question):
            return None
        return self._curate(change, text)

    # -- export (File › Export… › current view) ---------------------------------------------------------
    def export_view(self) -> dict[str, Any]:
        """What the current sub-table shows (filter and sort applied), for the export dialog."""
        view = self.current_view()
        proxy = view.model()
        model: _Table = proxy.sourceModel()
        rows = []
        for r in range(proxy.rowCount()):
            src = proxy.mapToSource(proxy.index(r, 0))
            rows.append(model.export_row(model.row_at(src.row())))
        names = {"upcoming": "calendar-upcoming", "events": "calendar-events", "tasks": "calendar-tasks"}
        name = names[self._view_name(view)]
        return {
            "name": name,
            "description": self.inner.tabText(self.inner.currentIndex()),
            "columns": [c for c, _ in model.export_columns()],
            "rows": rows,
        }

    # -- for tests ------------------------------------------------------------------------------------
    def index_of_key(self, view_name: str, key: str) -> QModelIndex:
        view = self.views[view_name]
        proxy = view.model()
        row = proxy.sourceModel().row_of_key(key)
        return QModelIndex() if row is None else proxy.mapFromSource(proxy.sourceModel().index(row, 0))
