"""The detail's Overview: why the skill has its grade and its counters (left), its fields (right)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from core.jsutil import js_stringify
from philont_desktop.humanize import json_html, json_pretty, when
from philont_desktop.messages import explanation
from philont_desktop.qt import QSplitter, Qt, QTextBrowser, QWidget
from philont_desktop.skills.loaders import SkillDetail
from philont_desktop.skills.widgets.colors import Colors
from philont_desktop.widgets import plain
from philont_desktop.widgets.text import format_local


def format_time(ms: int | None) -> str:
    return format_local(ms, with_seconds=False) if ms is not None else "—"


def as_json(text: str) -> str | None:
    """``text`` re-indented when it is a JSON object or array (a recipe written as JSON), else None."""
    t = text.strip()
    if not t or t[0] not in "[{":
        return None
    try:
        return json_pretty(json.loads(t))
    except (ValueError, RecursionError):
        return None


def verification_text(value: Any) -> str:
    """``kind: check`` for a reference-shaped verification, else its JSON; ``""`` for none."""
    if value is None:
        return ""
    if isinstance(value, dict) and isinstance(value.get("kind"), str) and isinstance(value.get("check"), str):
        extra = {k: v for k, v in value.items() if k not in ("kind", "check")}
        text = f"{value['kind']}: {value['check']}"
        return text + (" " + js_stringify(extra) if extra else "")
    try:
        return js_stringify(value)
    except (TypeError, ValueError):
        return json.dumps(value, ensure_ascii=False, default=str)


def policy_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return js_stringify(value)


def esc(text: Any) -> str:
    """Stored text as HTML text: controls and direction overrides visible, at most 20,000 characters."""
    return plain.html(text, 20_000)


def section(title: str, body: str) -> str:
    return f'<p style="margin-top:10px; margin-bottom:2px"><b>{esc(title)}</b></p>{body}'


class OverviewPanel(QSplitter):
    """Two rich-text views over one :class:`SkillDetail`; all stored text is escaped."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.fields_view = QTextBrowser(self)
        self.fields_view.setObjectName("skillsFields")
        self.fields_view.setOpenLinks(False)
        self.grade_view = QTextBrowser(self)
        self.grade_view.setObjectName("skillsGrade")
        self.grade_view.setOpenLinks(False)
        self.addWidget(self.grade_view)
        self.addWidget(self.fields_view)
        self.setStretchFactor(0, 2)
        self.setStretchFactor(1, 3)
        self.colors = Colors(False)
        self.grade_name: Callable[[str], str] = lambda m: m
        self.now_ms: int | None = None  # fixed "now" for screenshots and tests

    def _when(self, ms: int | None) -> str:
        """Relative and absolute (``3 days ago · 2026-11-28 14:05``); ``never`` for none."""
        if ms is None:
            return self.tr("never")
        return when(ms, self.now_ms if self.now_ms is not None else int(time.time() * 1000))

    def _code(self, text: str) -> str:
        """A template, check or policy: JSON pretty-printed and coloured, other text in monospace."""
        pretty = as_json(text)
        if pretty is not None:
            body = json_html(plain.plain(pretty, 20_000), self.colors.dark)
            return f"<pre style='margin-top:0; font-family:monospace'>{body}</pre>"
        return f"<p style='margin-top:0; font-family:monospace'>{esc(text)}</p>"

    def show_detail(self, d: SkillDetail, colors: Colors) -> None:
        self.colors = colors
        self.grade_view.setHtml(self._grade_html(d))
        self.fields_view.setHtml(self._fields_html(d))

    def _none(self) -> str:
        return f'<span style="color:{self.colors.muted.name()}">{esc(self.tr("(none)"))}</span>'

    def _para(self, text: str) -> str:
        return f"<p style='margin-top:0'>{esc(text)}</p>" if text else self._none()

    def _grade_html(self, d: SkillDetail) -> str:
        s, c = d.skill, self.colors
        muted = c.muted.name()
        g = [section(self.tr("Why this grade"), self._para(explanation(d.explanation.why_notices)))]
        g.append(
            section(self.tr("What would move it next"), self._para(explanation(d.explanation.next_notices)))
        )
        if s.maturity_raw is not None and s.maturity_raw != s.maturity:
            unknown = self.tr("The database holds the unknown grade {0}; it is read as draft.")
            g.append(
                f"<p style='color:{c.failure.name()}'>" + esc(unknown.format(repr(s.maturity_raw))) + "</p>"
            )
        if d.outcomes or s.revision_history:
            g.append(f"<p style='color:{muted}'>{esc(self._replay_note(d))}</p>")
        table = "".join(
            f"<tr><td style='color:{muted}; padding-right:12px'>{esc(k)}</td><td>{esc(v)}</td></tr>"
            for k, v in self._counters(d)
        )
        g.append(section(self.tr("Counters"), f"<table cellspacing='0' cellpadding='2'>{table}</table>"))
        return "".join(g)

    def _replay_note(self, d: SkillDetail) -> str:
        s, ladder, n = d.skill, d.ladder, len(d.outcomes)
        if ladder.grade == s.maturity:
            return self.tr(
                "A replay of its %n linked action(s) from draft also ends on {0}.", None, n
            ).format(self.grade_name(ladder.grade))
        return self.tr(
            "A replay of its %n linked action(s) from draft ends on {0}, but the database says {1}: "
            "see Ladder history.",
            None,
            n,
        ).format(self.grade_name(ladder.grade), self.grade_name(s.maturity))

    def _counters(self, d: SkillDetail) -> list[tuple[str, Any]]:
        s = d.skill
        return [
            (self.tr("Uses"), s.use_count),
            (self.tr("Successes"), s.success_count),
            (self.tr("Failures"), s.failure_count),
            (self.tr("Consecutive failures"), s.consecutive_failures),
            (self.tr("Offered in the skill index"), s.offered_count),
            (self.tr("Matched when offered"), s.matched_count),
            (self.tr("Last used"), self._when(s.last_used_at)),
            (self.tr("Last success"), self._when(s.last_success_at)),
            (self.tr("Last failure"), self._when(s.last_failure_at)),
            (self.tr("Created"), self._when(s.created_at)),
            (self.tr("Revisions kept"), len(s.revision_history)),
            *self._repairs_row(d),
            (self.tr("Linked actions"), len(d.outcomes)),
        ]

    def _repairs_row(self, d: SkillDetail) -> list[tuple[str, Any]]:
        r = d.repairs
        if r is None or (not r.count and not d.skill.is_recipe):
            return []
        value = self.tr("{0} of {1}").format(r.count, r.limit)
        if r.exhausted:
            value += " · " + self.tr("the agent proposes no further repair")
        return [(self.tr("Repair attempts by the agent"), value)]

    def _fields_html(self, d: SkillDetail) -> str:
        s, c = d.skill, self.colors
        muted = c.muted.name()
        f = [section(self.tr("Description"), self._para(s.description))]
        f.append(section(self.tr("When to use"), self._para(s.when_to_use)))
        if s.trigger_keywords:
            kws = " ".join(
                f"<span style='background-color:{c.chip.name()}'>&nbsp;{esc(k)}&nbsp;</span>"
                for k in s.trigger_keywords
            )
            f.append(section(self.tr("Trigger keywords"), f"<p style='margin-top:0'>{kws}</p>"))
        else:
            f.append(section(self.tr("Trigger keywords"), self._none()))
        tpl = self._code(s.action_template) if s.action_template else self._none()
        f.append(section(self.tr("Action template"), tpl))
        if s.verification is None:
            lesson = self.tr("none: an advisory lesson, not a callable recipe")
            ver = f"<p style='margin-top:0; color:{muted}'>{esc(lesson)}</p>"
        else:
            ver = self._code(verification_text(s.verification))
        f.append(section(self.tr("Verification"), ver))
        policy = policy_text(s.tool_policy)
        f.append(section(self.tr("Tool policy"), self._code(policy) if policy else self._none()))
        src = s.source or ""
        if s.from_disk:
            src = (src + " " if src else "") + self.tr("(installed from disk)")
        f.append(section(self.tr("Source"), self._para(src)))
        if s.json_errors:
            bad = self.tr("Unreadable JSON in this row: {0}").format("; ".join(s.json_errors))
            f.append(f"<p style='color:{c.failure.name()}'>" + esc(bad) + "</p>")
        hurt = plain.damage_lines(s)  # what is unreadable, with the stored bytes (core.damage)
        if hurt:
            f.append(f"<p style='color:{c.failure.name()}'>" + "<br>".join(esc(ln) for ln in hurt) + "</p>")
        return "".join(f)
