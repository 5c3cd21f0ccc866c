"""The recall parts of the preview: the summary at its top and the explanation above the recalled
messages (issue 16, "recall, explained").

The summary says in three lines whether the recall trigger fired, what recall found and how the agent's
search ran (full-text, or a substring search *proven* from the index rather than scanned), and why. The
explanation gives the exact query the agent's search received, the full-text query's outcome, every
notice of :attr:`core.context.ContextResult.recall` in words (:mod:`.recall_text`), each word's count
alone, and, clearly marked as not what the agent does, what a keyword query would recall, with its hits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.context import ContextResult
from philont_desktop import humanize
from philont_desktop.context_tab import recall_text as rt
from philont_desktop.context_tab import texts
from philont_desktop.context_tab.htmltext import esc, fmt_int
from philont_desktop.qt import QObject

if TYPE_CHECKING:
    from philont_desktop.context_tab.render import PreviewRenderer

QUERY_CHARS = 400  # the query is shown up to this many characters
KEYWORD_HITS_SHOWN = 8


def _visible(text: str, limit: int = QUERY_CHARS) -> str:
    """One line: line breaks and other control characters shown as symbols, at most ``limit`` characters."""
    out = []
    for ch in text[: limit + 1]:
        o = ord(ch)
        if ch == "\n":
            out.append("⏎")
        elif o < 0x20 or 0x7F <= o < 0xA0:
            out.append(chr(0x2400 + o) if o < 0x20 else "�")
        else:
            out.append(ch)
    s = "".join(out)
    return s if len(s) <= limit else s[: limit - 1] + "…"


class RecallRenderer(QObject):
    def __init__(self, doc: PreviewRenderer):
        super().__init__(doc)
        self.doc = doc

    # -- the summary at the top --------------------------------------------------------------------------
    def summary(self, r: ContextResult, c: dict[str, str], *, provisional: bool) -> str:
        lines = [self._trigger_line(r)]
        e = r.recall
        if provisional:
            lines.append(esc(self.tr("Recall: searching the timeline…")))
        elif e is not None:
            head = (
                self.tr("Recall: %n message(s) recalled", None, e.recalled)
                if e.recalled
                else self.tr("Recall: nothing recalled")
            )
            lines.append(f"<b>{esc(head)}</b> · {esc(rt.search_text(e.mode, e.substring))}")
            why = f" <a href='why:recall'>{esc(self.tr('Why, word by word ↓'))}</a>" if e.searched else ""
            lines.append(esc(rt.notice_text(e.reason)) + why)
        kind = "trig" if r.trigger is not None else "info"
        return self.doc.box(c[f"{kind}_bg"], c[f"{kind}_fg"], "<br/>".join(lines), c[f"{kind}_border"])

    def _trigger_line(self, r: ContextResult) -> str:
        if r.trigger is None:
            return esc(self.tr("No recall trigger: nothing is added to the system message."))
        text = (
            self.tr("⚠ Recall trigger hit (%1): “%2”. The agent is told to call recall_sessions.")
            .replace("%1", r.trigger.pattern)
            .replace("%2", r.trigger.snippet)
        )
        return f"<b>{esc(text)}</b>"

    # -- the explanation above the recalled messages --------------------------------------------------------
    def explanation(self, r: ContextResult, c: dict[str, str], *, explaining: bool) -> list[str]:
        e = r.recall
        if e is None:
            return []
        muted = c["muted"]
        rows = [self._row(self.tr("The agent's search received"), f"<tt>{esc(_visible(e.query))}</tt>", c)]
        if e.searched and e.safe != e.query:
            rows.append(
                self._row(self.tr("After removing ' \" * ( )"), f"<tt>{esc(_visible(e.safe))}</tt>", c)
            )
        rows.append(self._row(self.tr("Search"), esc(rt.search_text(e.mode, e.substring)), c))
        if e.fts.get("ran"):
            rows.append(self._row(self.tr("Full-text query"), esc(self._fts_text(e.fts)), c))
        rows.append(self._row(self.tr("Why"), esc(rt.notice_text(e.reason)), c))
        for n in e.notices:
            rows.append(self._row("", esc(rt.notice_text(n)), c))
        if e.index is not None and e.index.consistent:
            rows.append(
                self._row("", f"<span style='color:{muted}'>{esc(rt.notice_text(e.index))}</span>", c)
            )
        if explaining:
            wait = self.tr("Counting each word's messages and the keyword query…")
            rows.append(
                self._row(self.tr("Each word alone"), f"<span style='color:{muted}'>{esc(wait)}</span>", c)
            )
        elif e.tokens:
            rows.append(self._row(self.tr("Each word alone"), self._tokens(e.tokens, c), c))
        h = [f"<table cellspacing='0' cellpadding='3' style='margin-top:4px'>{''.join(rows)}</table>"]
        if not explaining and e.keyword is not None:
            h.append(self._keyword(e.keyword, r.now, c))
        return h

    def _row(self, label: str, value: str, c: dict[str, str]) -> str:
        head = f"{esc(label)}:" if label else ""
        return (
            f"<tr><td valign='top' nowrap style='color:{c['muted']}'>{head}</td>"
            f"<td valign='top'>{value}</td></tr>"
        )

    def _fts_text(self, fts: dict[str, Any]) -> str:
        if fts.get("error"):
            return self.tr("failed (SQLite: %1)").replace("%1", str(fts["error"]))
        return self.tr("%n row(s)", None, int(fts.get("rows") or 0))

    def _tokens(self, tokens: list[Any], c: dict[str, str]) -> str:
        """The counted words first (``Berlin 15 messages``), then the others grouped by why not."""
        counted = []
        skipped: dict[str, list[str]] = {}
        for t in tokens:
            if t.count is None:
                skipped.setdefault(t.note or "", []).append(_visible(t.text, 60))
                continue
            n = (
                self.tr("%1+ messages").replace("%1", fmt_int(t.count))
                if t.capped
                else self.tr("%n message(s)", None, t.count)
            )
            counted.append(f"<tt>{esc(_visible(t.text, 60))}</tt> <b>{esc(n)}</b>")
        lines = [" &nbsp;·&nbsp; ".join(counted)] if counted else []
        lines += [
            f"<span style='color:{c['muted']}'>{esc(rt.token_group(code, words))}</span>"
            for code, words in skipped.items()
        ]
        return "<br/>".join(lines)

    def _keyword(self, k: Any, now: int, c: dict[str, str]) -> str:
        title = self.tr("What a keyword query would recall — not what the agent does")
        note = self.tr(
            "The agent searches for the whole message. A keyword search (what recall_sessions is asked for "
            "when the agent calls it) would use the message's key words; shown here to see the gap."
        )
        lines = [f"<b>{esc(title)}</b>", f"<span style='color:{c['muted']}'>{esc(note)}</span>"]
        if k.query:
            rule = self.tr("rule %1").replace("%1", k.rule)
            lines.append(
                f"{esc(self.tr('Keyword query'))}: <tt>{esc(_visible(k.query, 120))}</tt>"
                f" <span style='color:{c['muted']}'>({esc(rule)})</span>"
            )
        if k.notice is not None:
            lines.append(esc(rt.keyword_text(k.notice)))
        for hit in k.hits[:KEYWORD_HITS_SHOWN]:
            meta = f"#{hit.id} · {humanize.when(hit.timestamp, now)} · {texts.role_name(hit.role)}"
            lines.append(
                f"<span style='color:{c['muted']}'>{esc(meta)}</span> {esc(_visible(hit.excerpt, 200))}"
            )
        more = len(k.hits) - KEYWORD_HITS_SHOWN
        if more > 0:
            lines.append(f"<span style='color:{c['muted']}'>{esc(self.tr('and %n more', None, more))}</span>")
        return self.doc.box(c["kw_bg"], "", "<br/>".join(lines), c["kw_border"])
