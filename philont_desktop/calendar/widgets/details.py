"""The Calendar tab's details pane: everything about the selected event, occurrence or task, and the line
``list_upcoming`` gives the agent for it. Stored text is escaped: it is shown, never interpreted."""

from __future__ import annotations

import json
from typing import Any

from core.models import CalendarEvent, Schedule
from core.upcoming import UpcomingItem
from philont_desktop import humanize as hz
from philont_desktop.calendar.cells import fmt_in_zone, fmt_local, payload_message, utc_text
from philont_desktop.calendar.state import CalendarState
from philont_desktop.calendar.words import action_words, created_by_words, event_words, task_words
from philont_desktop.qt import QDate, QLocale, QTextBrowser, QWidget
from philont_desktop.widgets import plain

Lines = list[tuple[str, str]]  # (label, HTML value)


def _none(row: Any, column: str) -> str:
    """An empty optional value: ``—``, or the unreadable marker when what is stored could not be read."""
    d = plain.damages(row).get(column)
    return plain.html(hz.unreadable()) if d is not None and d.problem != "missing" else "—"


class DetailsPane(QTextBrowser):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setMinimumWidth(220)  # its share of the splitter grows with the text (see the view)
        self.muted = "#888888"
        self.error = "#cf222e"

    def show_row(self, row: Any, state: CalendarState) -> None:
        self.setHtml(self.details_html(row, state))

    def show_day(self, day: Any, entries: list[Any], state: CalendarState) -> None:
        """What falls on one day of the month grid (stored titles escaped)."""
        from philont_desktop.calendar.widgets.month import entry_line

        if day is None:
            self.setHtml(self.details_html(None, state))
            return
        head = QLocale().toString(QDate(day.year, day.month, day.day), QLocale.FormatType.LongFormat)
        if not entries:
            body = f"<p style='color:{self.muted}'>" + plain.html(self.tr("Nothing on this day.")) + "</p>"
        else:
            body = "".join(
                f"<p>{plain.html(self.tr('event') if e.kind == 'event' else self.tr('task'))}: "
                f"{plain.html(entry_line(e))}</p>"
                for e in entries
            )
        self.setHtml(f"<h3>{plain.html(head)}</h3>{body}")

    def details_html(self, row: Any, state: CalendarState) -> str:
        if row is None:
            return (
                f"<p style='color:{self.muted}'>"
                + plain.html(self.tr("Select a row to see its details."))
                + "</p>"
            )
        title, lines, agent_line = "", [], ""
        if isinstance(row, UpcomingItem):
            agent_line = row.line
            if row.kind == "task":
                row = state.task(row.source_id) or row
            else:
                title = row.title
                lines += self._occurrence(row, state.now)
                row = state.event(row.source_id) or row
        if isinstance(row, CalendarEvent):
            title = row.title
            lines += self._event(row, state.now)
        elif isinstance(row, Schedule):
            title = row.name
            lines += self._task(row, state)
        return self._render(
            plain.mark(plain.plain(title, 500, one_line=True), row, plain.damages(row)),
            lines,
            agent_line,
            plain.damage_lines(row),
        )

    def _render(self, title: str, lines: Lines, agent_line: str, hurt: list[str] | None = None) -> str:
        body = "".join(
            f"<tr><td style='color:{self.muted}; padding-right:8px' valign='top' nowrap>{plain.html(k)}</td>"
            f"<td>{v}</td></tr>"
            for k, v in lines
        )
        out = f"<h3>{plain.html(title)}</h3><table>{body}</table>"
        if hurt:  # what is unreadable in the stored row, with the stored bytes (core.damage)
            out += f"<p style='color:{self.error}'>" + "<br>".join(plain.html(ln) for ln in hurt) + "</p>"
        if agent_line:
            out += (
                f"<p style='color:{self.muted}'>"
                + plain.html(self.tr("What list_upcoming tells the agent:"))
                + f"</p><pre style='white-space: pre-wrap'>{plain.html(agent_line)}</pre>"
            )
        return out

    def _occurrence(self, item: UpcomingItem, now: int) -> Lines:
        return [
            (self.tr("This occurrence"), self._when(item.at, item.timezone, now)),
            (self.tr("Ends"), self._when(item.ends_at, item.timezone, now) if item.ends_at else "—"),
        ]

    def _event(self, e: CalendarEvent, now: int) -> Lines:
        return [
            (self.tr("First start"), self._when(e.starts_at, e.timezone, now)),
            (
                self.tr("End"),
                self._when(e.ends_at, e.timezone, now) if e.ends_at is not None else _none(e, "ends_at"),
            ),
            (self.tr("Repeats"), self._rule(event_words(e.rrule, e.starts_at, e.timezone, now), e.rrule)),
            (self.tr("Time zone"), plain.html(e.timezone)),
            (self.tr("Related fact"), plain.html(e.related_fact_id or "—")),
            (self.tr("External ref"), plain.html(e.external_ref or "—")),
            (self.tr("Created"), plain.html(fmt_local(e.created_at, seconds=True))),
            (self.tr("Id"), f"<code>{plain.html(e.id)}</code>"),
        ]

    def _task_state(self, s: Schedule, state: CalendarState) -> str:
        if not s.enabled:
            return self.tr("disabled")
        if s.id in state.paused:
            return self.tr("enabled, paused: the agent's scheduler skips it until {0}").format(
                fmt_local(s.paused_until)
            )
        if s.next_run_at < state.now:
            return self.tr("enabled, overdue")
        return self.tr("enabled")

    def _task(self, s: Schedule, state: CalendarState) -> Lines:
        now = state.now
        payload = json.dumps(s.payload, ensure_ascii=False, indent=2) if not s.json_errors else s.payload_json
        return [
            (self.tr("State"), plain.html(self._task_state(s, state))),
            (self.tr("Next run"), self._when(s.next_run_at, None, now)),
            (
                self.tr("Last run"),
                self._when(s.last_run_at, None, now) if s.last_run_at else _none(s, "last_run_at"),
            ),
            (self.tr("Repeats"), self._rule(task_words(s.cron_expr, now), s.cron_expr)),
            (self.tr("Action"), self._rule(action_words(s.action_type), s.action_type)),
            (self.tr("Message"), plain.html(payload_message(s)) or "—"),
            (self.tr("Failures in a row"), str(s.consecutive_failures or 0)),
            (
                self.tr("Paused until"),
                plain.html(fmt_local(s.paused_until)) if s.paused_until else _none(s, "paused_until"),
            ),
            (self.tr("Project"), plain.html(s.project or "—")),
            (self.tr("Created by"), self._rule(created_by_words(s.created_by), s.created_by)),
            (self.tr("Created"), plain.html(fmt_local(s.created_at, seconds=True))),
            (self.tr("Id"), f"<code>{plain.html(s.id)}</code>"),
            (self.tr("Payload"), f"<pre style='white-space: pre-wrap'>{plain.html(payload)}</pre>"),
        ]

    def _rule(self, words: str, stored: str | None) -> str:
        """The rule (or value) in words, and as stored (muted) when there is one and it differs."""
        out = plain.html(words)
        if stored and stored != words:
            out += f"<br><span style='color:{self.muted}'>" + plain.html(stored) + "</span>"
        return out

    def _when(self, ms: int | None, zone: str | None, now: int) -> str:
        if ms is None:
            return "—"
        # One time a line; a pane too narrow for one (large text) breaks it between its words, never
        # inside a number. The agent's exact ISO form is in the list_upcoming line below.
        parts = [
            hz.rel_time(ms, now),
            hz.abs_time(ms, seconds=True),
            self.tr("UTC {0}").format(utc_text(ms).replace("T", " ").removesuffix(".000Z")),
        ]
        zoned = fmt_in_zone(ms, zone)
        if zoned:
            parts.append(zoned)
        return "<br>".join(plain.html(p) for p in parts)
