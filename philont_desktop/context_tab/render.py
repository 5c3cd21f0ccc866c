"""The preview document: a :class:`core.context.ContextResult` as HTML for a ``QTextBrowser``.

In the order the agent receives it: the memory prefix by section (each collapsible, with its characters
and tokens), the recall-trigger banner with the injected text, the recalled messages with the search
hits highlighted, the separator, the recent messages, and the message of this turn. Links drive the
view: ``toggle:<section>``, ``expand:all``, ``collapse:all``, ``full:<message id>``.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

from core.context import ContextResult
from core.recall import RetrievedMessage
from philont_desktop.qt import QColor, QDateTime, QObject
from philont_desktop.theme import Theme

CLIP_CHARS = 4000  # a message longer than this shows its beginning and a "full text" link
PREVIEW_LINE_CHARS = 140

SECTION_ORDER = (
    "runtime",
    "project_plan",
    "active_plan",
    "task_mode",
    "user_facts",
    "project_facts",
    "extended_capabilities",
    "skill_index",
    "failure_patterns",
    "lessons",
    "negative_skills",
    "self_knowledge",
)


def esc(text: str) -> str:
    return html.escape(text, quote=False)


def fmt_int(n: int | float) -> str:
    return f"{int(n):,}"


def local_time(ms: int | None, seconds: bool = True) -> str:
    if ms is None:
        return "–"
    return QDateTime.fromMSecsSinceEpoch(int(ms)).toString(
        "yyyy-MM-dd HH:mm:ss" if seconds else "yyyy-MM-dd HH:mm"
    )


def highlight_html(text: str, spans: Sequence[tuple[int, int]], style: str) -> str:
    """``text`` escaped, with ``spans`` (``[start, end)`` indices into ``text``) wrapped in ``style``."""
    out: list[str] = []
    pos = 0
    for a, b in sorted(spans):
        a, b = max(a, pos), min(b, len(text))
        if b <= a:
            continue
        out.append(esc(text[pos:a]))
        out.append(f'<span style="{style}">{esc(text[a:b])}</span>')
        pos = b
    out.append(esc(text[pos:]))
    return "".join(out)


def section_gist(text: str, limit: int = PREVIEW_LINE_CHARS) -> str:
    """A collapsed section's one-line summary: its first line after the heading (or the heading)."""
    lines = [ln.strip() for ln in text[: limit * 16].split("\n") if ln.strip()]
    if not lines:
        return ""
    s = lines[1] if len(lines) > 1 else lines[0]
    return s if len(s) <= limit else s[: limit - 1] + "…"


def first_line(text: str, limit: int = PREVIEW_LINE_CHARS) -> str:
    for line in text[: limit * 8].split("\n"):
        s = line.strip()
        if s:
            return s if len(s) <= limit else s[: limit - 1] + "…"
    return ""


class PreviewRenderer(QObject):
    """Builds the preview HTML with the theme's colours; every label is translatable."""

    def __init__(self, theme: Theme, parent: QObject | None = None):
        super().__init__(parent)
        self.theme = theme

    # -- labels ----------------------------------------------------------------------------------------
    def section_title(self, name: str) -> str:
        return {
            "runtime": self.tr("Runtime environment"),
            "project_plan": self.tr("Project plan.md"),
            "active_plan": self.tr("Active project plan"),
            "task_mode": self.tr("Task mode (fast)"),
            "user_facts": self.tr("Known user information"),
            "project_facts": self.tr("Known project information"),
            "extended_capabilities": self.tr("Extended capabilities"),
            "skill_index": self.tr("Skill index"),
            "failure_patterns": self.tr("Past failure patterns"),
            "lessons": self.tr("Lessons learned"),
            "negative_skills": self.tr("Corrected behaviours (negative skills)"),
            "self_knowledge": self.tr("Who I am now"),
        }.get(name, name)

    def omitted_title(self, key: str) -> str:
        return {
            "schedule_outcomes": self.tr("Recent runs of this schedule"),
            "recent_uploads": self.tr("Recently uploaded files"),
            "fetched_resources": self.tr("Resources fetched earlier"),
            "signals": self.tr("Signals and interrupts"),
            "autonomous_review": self.tr("Autonomous self-correction review"),
            "autonomous_progress": self.tr("Autonomous research progress"),
            "research_approvals": self.tr("Pending research approvals"),
            "reasoning_progress": self.tr("Deep-reasoning progress"),
            "user_patterns": self.tr("User-pattern observations"),
        }.get(key, key)

    def reason_text(self, reason: str) -> str:
        return {
            "over_budget": self.tr("over the token budget"),
            "already_recent": self.tr("already among the recent messages"),
            "system_message": self.tr("system message (counted, not shown)"),
            "candidate_limit": self.tr("beyond the candidate limit"),
        }.get(reason, reason)

    def reason_short(self, reason: str) -> str:
        return {
            "over_budget": self.tr("over budget"),
            "already_recent": self.tr("already recent"),
            "system_message": self.tr("system message"),
            "candidate_limit": self.tr("candidate limit"),
        }.get(reason, reason)

    def role_name(self, role: str) -> str:
        return {
            "user": self.tr("User"),
            "assistant": self.tr("Assistant"),
            "tool": self.tr("Tool"),
            "system": self.tr("System"),
        }.get(role, role)

    def limit_text(self, code: str, fallback: str) -> str:
        return {
            "skill_state": self.tr(
                "Skills are shown with today's counters, maturity and descriptions; only skills created "
                "later are left out, and deleted skills are missing."
            ),
            "fact_access": self.tr(
                "Facts read after that moment are ordered by their creation time (their last access then "
                "is not recorded)."
            ),
            "restored_rows": self.tr(
                "A fact forgotten and restored since, or a row edited in place, shows its current state."
            ),
            "schedules": self.tr("Scheduled tasks are read as they are now."),
        }.get(code, fallback)

    def search_mode_text(self, mode: str) -> str:
        return {
            "fts": self.tr("full-text (trigram) search"),
            "like": self.tr("substring (LIKE) search"),
            "empty": self.tr("nothing to search for"),
            "none": self.tr("no search (fewer than 2 characters)"),
        }.get(mode, mode)

    # -- colours -----------------------------------------------------------------------------------------
    def _c(self) -> dict[str, str]:
        t = self.theme
        dark = t.is_dark
        banner_bg, banner_fg, banner_border = t.banner_colors("editing")
        info_bg, info_fg, info_border = t.banner_colors("info")
        err_bg, err_fg, _ = t.banner_colors("error")
        return {
            "muted": t.muted_text().name(),
            "code_bg": "#1c2026" if dark else "#f6f8fa",
            "head_bg": "#262b31" if dark else "#eaeef2",
            "trig_bg": banner_bg.name(),
            "trig_fg": banner_fg.name(),
            "trig_border": banner_border.name(),
            "info_bg": info_bg.name(),
            "info_fg": info_fg.name(),
            "info_border": info_border.name(),
            "err_bg": err_bg.name(),
            "err_fg": err_fg.name(),
            "mark": "background-color: #7a6200; color: #ffffff;"
            if dark
            else "background-color: #ffe066; color: #000000;",
            "link": "#58a6ff" if dark else "#0969da",
            "sep": "#8b949e" if dark else "#6e7781",
        }

    # -- the document ------------------------------------------------------------------------------------
    def render(
        self, r: ContextResult, expanded: Iterable[str], *, clip: int = CLIP_CHARS, provisional: bool = False
    ) -> str:
        """The preview document. ``provisional``: ``r`` was computed without recall (shown while the
        recall search, which can take a while on a big timeline, is still running)."""
        c = self._c()
        open_ = set(expanded)
        p = r.prefix
        h: list[str] = [
            "<html><body>",
            f"<style>a {{ color: {c['link']}; text-decoration: none; }} "
            "pre { white-space: pre-wrap; margin: 0px; }</style>",
        ]
        # time travel
        if r.as_of is not None:
            who = (
                self.tr("before message #%1").replace("%1", str(r.as_of_id))
                if r.as_of_id is not None
                else self.tr("before %1").replace("%1", local_time(r.as_of))
            )
            lines = "".join(f"<li>{esc(self.limit_text(k, v))}</li>" for k, v in r.limits.items())
            h.append(
                self._box(
                    c["info_bg"],
                    c["info_fg"],
                    "<b>"
                    + esc(
                        self.tr(
                            "Rebuilt as of %1 (%2) from what the database records. What cannot be rewound:"
                        )
                        .replace("%1", who)
                        .replace("%2", local_time(r.as_of))
                    )
                    + "</b>"
                    + (f"<ul style='margin-top:2px; margin-bottom:0px'>{lines}</ul>" if lines else ""),
                )
            )
        # 1. memory prefix
        h.append(
            self._heading(
                "1",
                self.tr("Memory prefix"),
                self.tr("%1 sections · %2 characters · %3 tokens")
                .replace("%1", str(len(p.sections)))
                .replace("%2", fmt_int(p.chars))
                .replace("%3", fmt_int(p.tokens)),
                f"<a href='expand:all'>{esc(self.tr('Expand all'))}</a> &nbsp; "
                f"<a href='collapse:all'>{esc(self.tr('Collapse all'))}</a>",
                c,
            )
        )
        for w in p.warnings:
            h.append(self._box(c["err_bg"], c["err_fg"], esc(w)))
        if p.truncated:
            h.append(
                self._box(
                    c["err_bg"],
                    c["err_fg"],
                    esc(
                        self.tr(
                            "The prefix is over 40,000 characters (%1): the agent gets it truncated."
                        ).replace("%1", fmt_int(p.raw_chars))
                    ),
                )
            )
        h.append(f"<p style='color:{c['muted']}; margin:2px 0px'><tt>{esc(_wrapper_open())}</tt></p>")
        for s in p.sections:
            is_open = s.name in open_
            arrow = "▾" if is_open else "▸"
            stats = (
                self.tr("%1 chars · %2 tokens")
                .replace("%1", fmt_int(s.chars))
                .replace("%2", fmt_int(s.tokens))
            )
            head = (
                f"<a href='toggle:{esc(s.name)}'><b>{arrow} {esc(self.section_title(s.name))}</b></a>"
                f" &nbsp;<span style='color:{c['muted']}'>{esc(stats)}</span>"
            )
            if is_open:
                body = f"<pre>{esc(s.text)}</pre>"
            else:
                body = f"<span style='color:{c['muted']}'>{esc(section_gist(s.text))}</span>"
            h.append(
                f"<table width='100%' cellspacing='0' cellpadding='4' style='margin-top:3px' bgcolor='{c['code_bg']}'>"
                f"<tr><td>{head}{body if is_open else '<br/>' + body}</td></tr></table>"
            )
        h.append(f"<p style='color:{c['muted']}; margin:2px 0px'><tt>{esc(_wrapper_close())}</tt></p>")
        if r.omitted:
            names = self.tr(", ").join(self.omitted_title(k) for k in r.omitted)
            h.append(
                f"<p style='color:{c['muted']}; margin-top:4px'>"
                + esc(
                    self.tr("Not reproduced here (only the agent's running server fills them): %1.").replace(
                        "%1", names
                    )
                )
                + "</p>"
            )
        # 2. recall trigger
        if r.trigger is not None:
            title = (
                self.tr("Recall trigger hit (%1): “%2”")
                .replace("%1", r.trigger.pattern)
                .replace("%2", r.trigger.snippet)
            )
            note = self.tr("The server appends this to the system message:")
            h.append(self._heading("2", self.tr("Recall trigger"), "", "", c))
            h.append(
                f"<table width='100%' cellspacing='0' cellpadding='6' bgcolor='{c['trig_bg']}'>"
                f"<tr><td width='4' bgcolor='{c['trig_border']}'></td><td style='color:{c['trig_fg']}'>"
                f"<b>⚠ {esc(title)}</b><br/><span>{esc(note)}</span>"
                f"<pre>{esc(r.trigger.injected.lstrip(chr(10)))}</pre></td></tr></table>"
            )
        else:
            h.append(
                self._heading("2", self.tr("Recall trigger"), self.tr("no hit: nothing is injected"), "", c)
            )
        # 3. recalled, separator, recent
        recall = r.messages_in("recall")
        recent = r.messages_in("recent")
        recall_note = self.tr("%1 messages · %2 tokens · %3").replace("%1", str(len(recall)))
        if provisional:
            recall_note = self.tr("searching…")
        recall_note = recall_note.replace("%2", fmt_int(r.recall_tokens)).replace(
            "%3", self.search_mode_text(r.search_mode)
        )
        h.append(self._heading("3", self.tr("Recalled messages"), recall_note, "", c))
        if provisional:
            h.append(
                f"<p style='color:{c['muted']}'>"
                + esc(self.tr("Searching the timeline for recall candidates…"))
                + "</p>"
            )
        elif not recall:
            h.append(f"<p style='color:{c['muted']}'>{esc(self.tr('Nothing recalled.'))}</p>")
        for m in recall:
            h.append(self._message(m, r.highlights.get(m.id or -1, []), c, clip))
        for m in r.messages_in("separator"):
            h.append(
                f"<p align='center' style='color:{c['sep']}; margin:8px 0px'>{esc(m.content)}"
                f" <span style='color:{c['muted']}'>&nbsp;{esc(local_time(m.timestamp))}</span></p>"
            )
        recent_note = (
            self.tr("%1 messages · %2 tokens")
            .replace("%1", str(len(recent)))
            .replace("%2", fmt_int(r.recent_tokens))
        )
        h.append(self._heading("4", self.tr("Recent messages"), recent_note, "", c))
        if not recent:
            h.append(f"<p style='color:{c['muted']}'>{esc(self.tr('No recent messages.'))}</p>")
        for m in recent:
            h.append(self._message(m, [], c, clip))
        # 4. this turn
        h.append(self._heading("5", self.tr("This turn"), self.tr("the message being answered"), "", c))
        this = RetrievedMessage(id=None, role="user", content=r.message, timestamp=0, section="recent")
        h.append(self._message(this, [], c, clip, this_turn=True))
        h.append("</body></html>")
        return "".join(h)

    # -- pieces ------------------------------------------------------------------------------------------
    def _heading(self, num: str, title: str, note: str, extra: str, c: dict[str, str]) -> str:
        return (
            f"<table width='100%' cellspacing='0' cellpadding='4' style='margin-top:10px' bgcolor='{c['head_bg']}'><tr>"
            f"<td><b>{esc(num)}. {esc(title)}</b>"
            + (f" &nbsp;<span style='color:{c['muted']}'>{esc(note)}</span>" if note else "")
            + "</td>"
            + (f"<td align='right'>{extra}</td>" if extra else "")
            + "</tr></table>"
        )

    @staticmethod
    def _box(bg: str, fg: str, inner: str) -> str:
        return (
            f"<table width='100%' cellspacing='0' cellpadding='6' style='margin-top:4px' bgcolor='{bg}'>"
            f"<tr><td style='color:{fg}'>{inner}</td></tr></table>"
        )

    def _message(
        self,
        m: RetrievedMessage,
        spans: Sequence[tuple[int, int]],
        c: dict[str, str],
        clip: int,
        *,
        this_turn: bool = False,
    ) -> str:
        raw_role = m.raw_role or m.role
        colors = self.theme.role_colors(m.role)
        role = self.role_name(m.role)
        if raw_role != m.role:
            role += " " + self.tr("(stored as %1)").replace("%1", self.role_name(raw_role))
        meta: list[str] = []
        if this_turn:
            meta.append(self.tr("this turn"))
        else:
            if m.id is not None:
                meta.append(f"#{m.id}")
            meta.append(local_time(m.timestamp))
            meta.append(self.tr("%1 tokens").replace("%1", fmt_int(m.tokens)))
        content = m.content
        more = ""
        if len(content) > clip:
            hidden = len(content) - clip
            content = content[:clip]
            link = f"full:{m.id}" if m.id is not None else "full:this"
            more = (
                f"<br/><a href='{link}'>"
                + esc(self.tr("… %1 more characters: show the full text").replace("%1", fmt_int(hidden)))
                + "</a>"
            )
        body = highlight_html(content, spans, c["mark"]) if spans else esc(content)
        return (
            f"<table width='100%' cellspacing='0' cellpadding='5' style='margin-top:4px' bgcolor='{colors.background}'>"
            f"<tr><td width='4' bgcolor='{colors.accent}'></td><td style='color:{colors.text}'>"
            f"<b style='color:{colors.accent}'>{esc(role)}</b>"
            f" &nbsp;<span style='color:{QColor(colors.text).name()}; font-size:small'>{esc(' · '.join(meta))}</span>"
            f"<p style='white-space: pre-wrap; margin:2px 0px 0px 0px'>{body}</p>{more}</td></tr></table>"
        )


def _wrapper_open() -> str:
    from core.prefix import WRAPPER_OPEN

    return WRAPPER_OPEN.strip("\n")


def _wrapper_close() -> str:
    from core.prefix import WRAPPER_CLOSE

    return WRAPPER_CLOSE.strip("\n")
