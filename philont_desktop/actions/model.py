"""The tool-call log as a table: newest first, more pages as the user scrolls, live rows on top.

Pages come from ``ActionStore.list`` by keyset (``before=(timestamp, id)`` of the last row); a live
refresh asks for what is newer than the first row (``after=``) and inserts it above, so what the user
looks at does not move (the view compensates the scroll position).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from core.actions import ActionStore, ToolStat
from core.models import Action
from core.skills import SkillStore
from philont_desktop.actions.state import ActionsFilter
from philont_desktop.ops import ReadOp
from philont_desktop.qt import QColor, QObject
from philont_desktop.widgets.readable import readable_form
from philont_desktop.widgets.rows_model import PagedRowsModel, Submit
from philont_desktop.widgets.text import format_local

PAGE_SIZE = 200
LIVE_LIMIT = 1000
TOOLTIP_PARSE_LIMIT = 100_000  # characters of a stored text read as JSON for a tooltip

COL_TIME, COL_TOOL, COL_OUTCOME, COL_SKILL, COL_PARAMS, COL_RESULT = range(6)


def job_actions(db: Any, flt: ActionsFilter, limit: int, before: tuple[int, int] | None) -> list[Action]:
    return ActionStore(db).list(limit=limit, before=before, **flt.kwargs())


def job_newer_actions(db: Any, flt: ActionsFilter, after: tuple[int, int], limit: int) -> list[Action]:
    rows = ActionStore(db).list(limit=limit, after=after, order="asc", **flt.kwargs())
    rows.reverse()
    return rows


@dataclass
class ActionsMeta:
    tools: list[str]
    stats: list[ToolStat]
    skills: list[str]


def job_meta(db: Any) -> ActionsMeta:
    store = ActionStore(db)
    try:
        skills = SkillStore(db).names()
    except Exception:  # an odd skills table must not hide the action log
        skills = []
    return ActionsMeta(tools=store.tools(), stats=store.tool_stats(), skills=skills)


def compact_json(value: Any, text: str, limit: int = 160) -> str:
    """A one-line form of the parameters for the table."""
    s = text if isinstance(text, str) else json.dumps(value, ensure_ascii=False)
    s = " ".join(s[: limit * 2].split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


_ACTION_COLUMNS = {
    COL_TIME: ("timestamp",),
    COL_TOOL: ("tool_name",),
    COL_OUTCOME: ("success",),
    COL_SKILL: ("linked_skill",),
    COL_PARAMS: ("params_json",),
    COL_RESULT: ("result",),
}


class ActionsModel(PagedRowsModel):
    """Actions newest first."""

    def __init__(self, submit: Submit, theme: Any = None, parent: QObject | None = None):
        super().__init__(submit, "actions", PAGE_SIZE, parent)
        self._theme = theme
        self._filter = ActionsFilter()

    def headers(self) -> list[str]:
        return [
            self.tr("Time"),
            self.tr("Tool"),
            self.tr("Outcome"),
            self.tr("Linked skill"),
            self.tr("Parameters"),
            self.tr("Result"),
        ]

    def key(self, row: Action) -> int:
        return row.id

    def display(self, a: Action, column: int) -> str:
        if column == COL_TIME:
            return format_local(a.timestamp)
        if column == COL_TOOL:
            return a.tool_name
        if column == COL_OUTCOME:
            return ("\u2713 " + self.tr("success")) if a.success else ("\u2717 " + self.tr("failure"))
        if column == COL_SKILL:
            return a.linked_skill or ""
        if column == COL_PARAMS:
            return compact_json(a.params, a.params_json)
        if column == COL_RESULT:
            return compact_json(None, a.result or "")
        return ""

    def damage_columns(self, column: int) -> tuple[str, ...]:
        return _ACTION_COLUMNS.get(column, ())

    def tooltip(self, a: Action, column: int) -> str:
        if column in (COL_PARAMS, COL_RESULT):  # the readable form, as the detail pane shows it
            stored = a.params_json if column == COL_PARAMS else a.result or ""
            text = readable_form(stored[:TOOLTIP_PARSE_LIMIT]).text
            return text if len(text) <= 2000 else text[:2000] + "…"
        if column == COL_TOOL:  # elided in a narrow window
            return f"{a.tool_name}\n#{a.id} · {a.session_id}"
        if column == COL_SKILL and a.linked_skill:
            return f"{a.linked_skill}\n#{a.id} · {a.session_id}"
        return f"#{a.id} · {a.session_id}"

    def foreground(self, a: Action, column: int) -> Any:
        if column == COL_OUTCOME:
            if self._theme is not None:
                return self._theme.status_color("live" if a.success else "error")
            return QColor("#1a7f37" if a.success else "#cf222e")
        return None

    # -- loading ---------------------------------------------------------------------------------------------
    @property
    def filter(self) -> ActionsFilter:
        return self._filter

    def set_filter(self, flt: ActionsFilter) -> None:
        self._filter = flt
        self.load_first_page()

    def page_op(self, after: Action | None, limit: int) -> ReadOp:
        before = None if after is None else (after.timestamp, after.id)
        return ReadOp(job_actions, (self._filter, limit, before))

    def live_op(self, first: Action) -> ReadOp:
        """What was logged after the newest row shown (a live refresh puts it on top)."""
        return ReadOp(job_newer_actions, (self._filter, (first.timestamp, first.id), LIVE_LIMIT))

    def merge_live(self, rows: list[Action]) -> int:
        if len(rows) >= LIVE_LIMIT:  # a burst: start again from the newest page
            self.load_first_page()
            return 0
        return super().merge_live(rows)
