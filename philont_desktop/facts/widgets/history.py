"""The history of one fact: its supersede chain side by side, newest first, changes tinted."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.decay import effective_tau
from core.models import Fact
from philont_desktop.facts.data import readable_value, status_at
from philont_desktop.facts.text import fmt_number, fmt_when, kind_text, status_text
from philont_desktop.humanize import days, json_html
from philont_desktop.qt import QPalette, QTextBrowser, QWidget
from philont_desktop.widgets import plain


class HistoryView(QTextBrowser):
    """Every version of the chosen fact in a table, one column per version."""

    def __init__(self, theme: Any, parent: QWidget | None = None):
        super().__init__(parent)
        self._theme = theme
        self.setObjectName("factHistory")
        self.setOpenLinks(False)

    def show_placeholder(self) -> None:
        self.setHtml(plain.html(self.tr("Select one fact to see its versions side by side.")))

    def show_versions(self, versions: list[Fact], selected_id: str | None, now: int) -> None:
        self.setHtml(self.history_html(versions, selected_id, now))

    def _fields(self, now: int) -> list[tuple[str, Callable[[Fact], str], bool]]:
        """(name, text of a version, whether a change is tinted)."""
        return [
            (self.tr("Value"), lambda f: readable_value(f)[1], True),
            (self.tr("Confidence"), lambda f: fmt_number(f.confidence), True),
            (self.tr("Kind"), lambda f: kind_text(f.fact_kind), True),
            (self.tr("Occurred"), lambda f: fmt_when(f.occurred_at, now), True),
            (self.tr("Valid from"), lambda f: fmt_when(f.valid_from, now), True),
            (self.tr("Valid until"), lambda f: fmt_when(f.valid_until, now), True),
            (self.tr("Tau"), lambda f: days(effective_tau(f.namespace, f.decay_tau_days)), True),
            (self.tr("Created"), lambda f: fmt_when(f.created_at, now), False),
            (self.tr("Last accessed"), lambda f: fmt_when(f.last_accessed_at, now), False),
            (self.tr("Status"), lambda f: status_text(status_at(f, now)), False),
        ]

    def _value_html(self, f: Fact, text: str) -> str:
        """A value pretty-printed; JSON (not a plain string, not damaged) coloured."""
        if f.json_errors or isinstance(f.value, str):
            return plain.html(text)
        # (stored text as text: controls and direction overrides spelled, long values cut)
        return json_html(plain.plain(text), self.palette().color(QPalette.ColorRole.Base).lightness() < 128)

    def history_html(self, versions: list[Fact], selected_id: str | None, now: int) -> str:
        """The supersede chain, newest first, one column per version; changed cells are tinted."""
        if not versions:
            return plain.html(self.tr("No versions."))
        _removed, added = self._theme.diff_colors()
        head = versions[0]
        title = plain.html(
            self.tr("{0}: %n version(s), newest first", None, len(versions)).format(
                f"{head.namespace}.{head.key}"
            )
        )
        n = len(versions)
        cells = ["<th></th>"]
        for i, f in enumerate(versions):
            label = (
                self.tr("current") if i == 0 and f.superseded_by is None else self.tr("v{0}").format(n - i)
            )
            mark = " ◀" if f.id == selected_id else ""
            cells.append(f"<th align='left'>{plain.html(label + mark)}</th>")
        out = [
            f"<p><b>{title}</b></p>",
            "<table cellspacing='0' cellpadding='4' border='1' style='border-collapse:collapse'>",
            "<tr>" + "".join(cells) + "</tr>",
        ]
        value_name = self.tr("Value")
        for name, get, tinted in self._fields(now):
            texts = [get(f) for f in versions]
            row = [f"<th align='left' valign='top'>{plain.html(name)}</th>"]
            for i, t in enumerate(texts):
                older = texts[i + 1] if i + 1 < n else None
                changed = tinted and older is not None and t != older
                style = f" style='background-color:{added.name()}'" if changed else ""
                if name == value_name and t:
                    body = f"<pre style='margin:0'>{self._value_html(versions[i], t)}</pre>"
                else:
                    body = plain.html(t).replace("\n", "<br>") if t else "&nbsp;"
                row.append(f"<td valign='top'{style}>{body}</td>")
            out.append("<tr>" + "".join(row) + "</tr>")
        if any(plain.damages(f) for f in versions):
            out.append(self._damage_row(versions))
        out.append("</table>")
        return "".join(out)

    def _damage_row(self, versions: list[Fact]) -> str:
        """What is unreadable in each version, with the stored bytes (core.damage)."""
        err = self._theme.status_color("error").name()
        cells = [f"<th align='left' valign='top'>{plain.html(self.tr('Unreadable'))}</th>"]
        for f in versions:
            lines = plain.damage_lines(f)
            body = "<br>".join(plain.html(ln) for ln in lines) if lines else "&nbsp;"
            cells.append(f"<td valign='top' style='color:{err}'>{body}</td>")
        return "<tr>" + "".join(cells) + "</tr>"
