"""The preview document: a :class:`core.context.ContextResult` as HTML for a ``QTextBrowser``.

At the top, the recall trigger and what recall found (:mod:`.render_recall`); then, in the order the
agent receives it: the memory prefix by section (each collapsible, with its characters and tokens), the
trigger's injected text, the recalled messages (why, word by word, and the search hits highlighted),
the separator, the recent messages, and the message of this turn. Long messages show a bounded excerpt
with a "show the full text" link. Links drive the view: ``toggle:<section>``, ``expand:all``,
``collapse:all``, ``full:<message id>``, ``full:this``, ``why:recall``.

Every stored text is escaped: a message holding ``<img src=…>`` shows those characters.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from core.context import ContextResult
from core.recall import RetrievedMessage
from philont_desktop import humanize, messages
from philont_desktop.context_tab import texts
from philont_desktop.context_tab.htmltext import esc, first_line, fmt_int, highlight_html, section_gist
from philont_desktop.context_tab.render_recall import RecallRenderer
from philont_desktop.context_tab.row_notes import notes_by_row
from philont_desktop.qt import QColor, QObject
from philont_desktop.theme import Theme
from philont_desktop.widgets.readable import readable_form

#: A message longer than this (characters or lines) shows its beginning and a "show the full text" link:
#: laying out a long unbroken paragraph takes time that grows faster than its length (4,000 characters
#: in one paragraph cost about 50 ms, 1,500 a few).
CLIP_CHARS = 1500
CLIP_LINES = 30
TOOL_PARSE_LIMIT = 100_000  # characters of a tool message read as JSON for the preview

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


class PreviewRenderer(QObject):
    """Builds the preview HTML with the theme's colours; every label is translatable."""

    def __init__(self, theme: Theme, parent: QObject | None = None):
        super().__init__(parent)
        self.theme = theme
        self.recall = RecallRenderer(self)
        self._section_notes: dict[str, list[str]] = {}
        self._message_notes: dict[int, list[str]] = {}

    # -- colours -----------------------------------------------------------------------------------------
    def colors(self) -> dict[str, str]:
        t = self.theme
        dark = t.is_dark
        trig_bg, trig_fg, trig_border = t.banner_colors("editing")
        info_bg, info_fg, info_border = t.banner_colors("info")
        err_bg, err_fg, err_border = t.banner_colors("error")
        return {
            "muted": t.muted_text().name(),
            "code_bg": "#1c2026" if dark else "#f6f8fa",
            "head_bg": "#262b31" if dark else "#eaeef2",
            "trig_bg": trig_bg.name(),
            "trig_fg": trig_fg.name(),
            "trig_border": trig_border.name(),
            "info_bg": info_bg.name(),
            "info_fg": info_fg.name(),
            "info_border": info_border.name(),
            "err_bg": err_bg.name(),
            "err_fg": err_fg.name(),
            "err_border": err_border.name(),
            "kw_bg": "#1e1b2e" if dark else "#f6f2ff",
            "kw_border": "#8c6ff0" if dark else "#8250df",
            "mark": "background-color: #7a6200; color: #ffffff;"
            if dark
            else "background-color: #ffe066; color: #000000;",
            "link": "#58a6ff" if dark else "#0969da",
            "sep": "#8b949e" if dark else "#6e7781",
        }

    # -- the document ------------------------------------------------------------------------------------
    def render(
        self,
        r: ContextResult,
        expanded: Iterable[str],
        *,
        clip: int = CLIP_CHARS,
        provisional: bool = False,
        explaining: bool = False,
    ) -> str:
        """The preview document. ``provisional``: ``r`` was computed without recall (shown while the
        recall search, which can take a while on a big timeline, is still running). ``explaining``: the
        explanation's word counts and keyword query are still being computed."""
        c = self.colors()
        self._section_notes, self._message_notes = notes_by_row(r)
        h: list[str] = [
            "<html><body>",
            f"<style>a {{ color: {c['link']}; text-decoration: none; }} "
            "pre { white-space: pre-wrap; margin: 0px; }</style>",
        ]
        if r.as_of is not None:
            h.append(self._time_travel(r, c))
        h.append(self.recall.summary(r, c, provisional=provisional))
        h += self._prefix(r, set(expanded), c)
        h.append(self._trigger(r, c))
        h += self._recalled(r, c, clip, provisional=provisional, explaining=explaining)
        h += self._recent(r, c, clip)
        h.append(self.heading("5", self.tr("This turn"), self.tr("the message being answered"), "", c))
        this = RetrievedMessage(id=None, role="user", content=r.message, timestamp=0, section="recent")
        h.append(self.message(this, [], c, clip, now=r.now, this_turn=True))
        h.append("</body></html>")
        return "".join(h)

    def _time_travel(self, r: ContextResult, c: dict[str, str]) -> str:
        who = (
            self.tr("before message #%1").replace("%1", str(r.as_of_id))
            if r.as_of_id is not None
            else self.tr("before %1").replace("%1", humanize.abs_time(r.as_of, seconds=True))
        )
        lines = "".join(f"<li>{esc(texts.limit_text(k, v))}</li>" for k, v in r.limits.items())
        title = (
            self.tr("Rebuilt as of %1 (%2) from what the database records. What cannot be rewound:")
            .replace("%1", who)
            .replace("%2", humanize.abs_time(r.as_of, seconds=True))
        )
        inner = f"<b>{esc(title)}</b>" + (
            f"<ul style='margin-top:2px; margin-bottom:0px'>{lines}</ul>" if lines else ""
        )
        return self.box(c["info_bg"], c["info_fg"], inner)

    def _prefix(self, r: ContextResult, open_: set[str], c: dict[str, str]) -> list[str]:
        p = r.prefix
        stats = (
            self.tr("%n section(s)", None, len(p.sections)) + " · " + self._chars_tokens(p.chars, p.tokens)
        )
        links = (
            f"<a href='expand:all'>{esc(self.tr('Expand all'))}</a> &nbsp; "
            f"<a href='collapse:all'>{esc(self.tr('Collapse all'))}</a>"
        )
        h = [self.heading("1", self.tr("Memory prefix"), stats, links, c)]
        coded = len(p.notices) == len(p.warnings)  # every warning of the core has its notice
        warnings = [messages.notice_text(n) for n in p.notices] if coded else list(p.warnings)
        h += [self.box(c["err_bg"], c["err_fg"], esc(w)) for w in warnings]
        if p.truncated:
            text = self.tr("The prefix is over 40,000 characters (%1): the agent gets it truncated.")
            h.append(self.box(c["err_bg"], c["err_fg"], esc(text.replace("%1", fmt_int(p.raw_chars)))))
        h.append(f"<p style='color:{c['muted']}; margin:2px 0px'><tt>{esc(_wrapper(True))}</tt></p>")
        for s in p.sections:
            is_open = s.name in open_
            head = (
                f"<a href='toggle:{esc(s.name)}'><b>{'▾' if is_open else '▸'} "
                f"{esc(texts.section_title(s.name))}</b></a>"
                f" &nbsp;<span style='color:{c['muted']}'>{esc(self._chars_tokens(s.chars, s.tokens))}</span>"
            )
            body = (
                f"<pre>{esc(s.text)}</pre>"
                if is_open
                else f"<br/><span style='color:{c['muted']}'>{esc(section_gist(s.text))}</span>"
            )
            h.append(
                f"<table width='100%' cellspacing='0' cellpadding='4' style='margin-top:3px' "
                f"bgcolor='{c['code_bg']}'><tr><td>{head}{self._notes(s.name, c)}{body}</td></tr></table>"
            )
        h.append(f"<p style='color:{c['muted']}; margin:2px 0px'><tt>{esc(_wrapper(False))}</tt></p>")
        if r.omitted:
            names = self.tr(", ").join(texts.omitted_title(k) for k in r.omitted)
            text = self.tr("Not reproduced here (only the agent's running server fills them): %1.")
            h.append(f"<p style='color:{c['muted']}; margin-top:4px'>{esc(text.replace('%1', names))}</p>")
        return h

    def _notes(self, key: str | int | None, c: dict[str, str]) -> str:
        """The notes on the damaged rows of a prefix section (a name) or of a message (an id)."""
        notes = (
            self._section_notes.get(key, [])
            if isinstance(key, str)
            else self._message_notes.get(key or -1, [])
        )
        return "".join(f"<br/><span style='color:{c['err_fg']}'>{esc(n)}</span>" for n in notes)

    def _chars_tokens(self, chars: int, tokens: int) -> str:
        return self.tr("%1 chars · %2 tokens").replace("%1", fmt_int(chars)).replace("%2", fmt_int(tokens))

    def _trigger(self, r: ContextResult, c: dict[str, str]) -> str:
        if r.trigger is None:
            return self.heading("2", self.tr("Recall trigger"), self.tr("no hit: nothing is injected"), "", c)
        title = (
            self.tr("Recall trigger hit (%1): “%2”")
            .replace("%1", r.trigger.pattern)
            .replace("%2", r.trigger.snippet)
        )
        note = self.tr("The server appends this to the system message:")
        return self.heading("2", self.tr("Recall trigger"), "", "", c) + (
            f"<table width='100%' cellspacing='0' cellpadding='6' bgcolor='{c['trig_bg']}'>"
            f"<tr><td width='4' bgcolor='{c['trig_border']}'></td><td style='color:{c['trig_fg']}'>"
            f"<b>⚠ {esc(title)}</b><br/><span>{esc(note)}</span>"
            f"<pre>{esc(r.trigger.injected.lstrip(chr(10)))}</pre></td></tr></table>"
        )

    def _recalled(
        self, r: ContextResult, c: dict[str, str], clip: int, *, provisional: bool, explaining: bool
    ) -> list[str]:
        recall = r.messages_in("recall")
        if provisional:
            note = self.tr("searching…")
        else:
            note = (
                self.tr("%n message(s)", None, len(recall))
                + " · "
                + self.tr("%1 tokens").replace("%1", fmt_int(r.recall_tokens))
            )
        h = ["<a name='recall'></a>", self.heading("3", self.tr("Recalled messages"), note, "", c)]
        if provisional:
            text = self.tr("Searching the timeline for recall candidates…")
            h.append(f"<p style='color:{c['muted']}'>{esc(text)}</p>")
            return h
        h += self.recall.explanation(r, c, explaining=explaining)
        for m in recall:
            h.append(self.message(m, r.highlights.get(m.id or -1, []), c, clip, now=r.now))
        for m in r.messages_in("separator"):
            when = humanize.abs_time(m.timestamp, seconds=True)
            h.append(
                f"<p align='center' style='color:{c['sep']}; margin:8px 0px'>{esc(m.content)}"
                f" <span style='color:{c['muted']}'>&nbsp;{esc(when)}</span></p>"
            )
        return h

    def _recent(self, r: ContextResult, c: dict[str, str], clip: int) -> list[str]:
        recent = r.messages_in("recent")
        note = (
            self.tr("%n message(s)", None, len(recent))
            + " · "
            + self.tr("%1 tokens").replace("%1", fmt_int(r.recent_tokens))
        )
        h = [self.heading("4", self.tr("Recent messages"), note, "", c)]
        if not recent:
            h.append(f"<p style='color:{c['muted']}'>{esc(self.tr('No recent messages.'))}</p>")
        h += [self.message(m, [], c, clip, now=r.now) for m in recent]
        return h

    # -- pieces ------------------------------------------------------------------------------------------
    def heading(self, num: str, title: str, note: str, extra: str, c: dict[str, str]) -> str:
        return (
            f"<table width='100%' cellspacing='0' cellpadding='4' style='margin-top:10px' "
            f"bgcolor='{c['head_bg']}'><tr><td><b>{esc(num)}. {esc(title)}</b>"
            + (f" &nbsp;<span style='color:{c['muted']}'>{esc(note)}</span>" if note else "")
            + "</td>"
            + (f"<td align='right'>{extra}</td>" if extra else "")
            + "</tr></table>"
        )

    @staticmethod
    def box(bg: str, fg: str, inner: str, border: str | None = None) -> str:
        bar = f"<td width='4' bgcolor='{border}'></td>" if border else ""
        color = f" style='color:{fg}'" if fg else ""
        return (
            f"<table width='100%' cellspacing='0' cellpadding='6' style='margin-top:4px' bgcolor='{bg}'>"
            f"<tr>{bar}<td{color}>{inner}</td></tr></table>"
        )

    def message(
        self,
        m: RetrievedMessage,
        spans: Sequence[tuple[int, int]],
        c: dict[str, str],
        clip: int,
        *,
        now: int,
        this_turn: bool = False,
    ) -> str:
        raw_role = m.raw_role or m.role
        colors = self.theme.role_colors(m.role)
        role = texts.role_name(m.role)
        if raw_role != m.role:
            role += " " + self.tr("(stored as %1)").replace("%1", texts.role_name(raw_role))
        if this_turn:
            meta = [self.tr("this turn")]
        else:
            meta = [f"#{m.id}"] if m.id is not None else []
            meta += [humanize.when(m.timestamp, now), self.tr("%1 tokens").replace("%1", fmt_int(m.tokens))]
        whole = shown_text(m) if not spans else m.content  # a hit's spans are places in the stored text
        content, more = excerpt(whole, clip), ""
        if len(content) < len(whole):
            link = f"full:{m.id}" if m.id is not None else "full:this"
            hidden = self.tr("… %1 more characters: show the full text").replace(
                "%1", fmt_int(len(whole) - len(content))
            )
            more = f"<br/><a href='{link}'>{esc(hidden)}</a>"
        if whole is not m.content and m.id is not None:
            more += f" &nbsp;<a href='raw:{m.id}'>{esc(self.tr('Raw: the text as stored'))}</a>"
        body = highlight_html(content, spans, c["mark"]) if spans else esc(content)
        return (
            f"<table width='100%' cellspacing='0' cellpadding='5' style='margin-top:4px' "
            f"bgcolor='{colors.background}'><tr><td width='4' bgcolor='{colors.accent}'></td>"
            f"<td style='color:{colors.text}'><b style='color:{colors.accent}'>{esc(role)}</b>"
            f" &nbsp;<span style='color:{QColor(colors.text).name()}; font-size:small'>"
            f"{esc(' · '.join(meta))}</span>{'' if this_turn else self._notes(m.id, c)}"
            f"<p style='white-space: pre-wrap; margin:2px 0px 0px 0px'>{body}</p>{more}</td></tr></table>"
        )


__all__ = [
    "CLIP_CHARS",
    "CLIP_LINES",
    "SECTION_ORDER",
    "PreviewRenderer",
    "esc",
    "excerpt",
    "first_line",
    "fmt_int",
    "highlight_html",
    "shown_text",
]


def shown_text(m: RetrievedMessage) -> str:
    """What the preview shows of a message: a tool message holding JSON in its readable form
    (:mod:`core.readable`), anything else (and a very long tool message) as stored."""
    if (m.raw_role or m.role) != "tool" or len(m.content) > TOOL_PARSE_LIMIT:
        return m.content
    form = readable_form(m.content)
    return form.text if form.is_json else m.content


def excerpt(text: str, clip: int = CLIP_CHARS, lines: int = CLIP_LINES) -> str:
    """The beginning of ``text`` the preview shows: at most ``clip`` characters and ``lines`` lines."""
    head = text[:clip]
    cut = -1
    for _ in range(lines):
        cut = head.find("\n", cut + 1)
        if cut < 0:
            return head
    return head[:cut]


def _wrapper(opening: bool) -> str:
    from core.prefix import WRAPPER_CLOSE, WRAPPER_OPEN

    return (WRAPPER_OPEN if opening else WRAPPER_CLOSE).strip("\n")
