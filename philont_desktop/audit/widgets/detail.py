"""The detail of one audit entry: who, when, what, the target, then a coloured before/after diff."""

from __future__ import annotations

from typing import Any

from core.audit import AuditEntry
from philont_desktop.audit import words
from philont_desktop.audit.human import field_changes, target_label
from philont_desktop.audit.model import format_time
from philont_desktop.qt import QCoreApplication, QTextBrowser, QWidget
from philont_desktop.widgets import plain

RAW_LINK = "raw"


def _tr(text: str) -> str:
    return QCoreApplication.translate("AuditTab", text)


def entry_html(e: AuditEntry, theme: Any, raw: bool = False) -> str:
    """The detail view of one entry: facts, the fields that changed, and (``raw``) the before/after JSON
    as a coloured diff behind a disclosure link."""
    muted = theme.muted_text().name()
    rows = [
        (_tr("Entry"), f"#{e.id}"),
        (_tr("When"), format_time(e.at)),
        (_tr("Who"), e.actor),
        (_tr("What"), e.action + (f" ({e.original_action})" if e.original_action else "")),
        (_tr("Target"), f"{target_label(e.target_type, e.target_id, e.before, e.after)}"),
        (_tr("Row"), f"{e.target_type} {e.target_id}"),
    ]
    if e.undone_of is not None:
        rows.append((_tr("Refers to"), f"#{e.undone_of}"))
    if e.is_original and e.undone:
        rows.append((_tr("State"), _tr("undone")))
    if e.note:
        rows.append((_tr("Note"), e.note))
    head = "".join(
        f"<tr><td style='color:{muted}; padding-right:12px'>{plain.html(k)}</td>"
        f"<td>{plain.html(str(v))}</td></tr>"
        for k, v in rows
    )
    errors = "".join(f"<p style='color:#cf222e'>{plain.html(x)}</p>" for x in e.json_errors)
    changes = field_changes(e.before, e.after, words.label, words.value)
    stored = words.raw_lines(e.before, e.after, limit=len(changes))
    fields = "".join(
        f"<tr><td style='padding-right:12px'><b>{plain.html(f)}</b></td>"
        f"<td>{plain.html(a)}</td><td style='color:{muted}'>&nbsp;→&nbsp;</td><td>{plain.html(b)}</td>"
        f"<td style='color:{muted}; padding-left:12px'>{plain.html(raw)}</td></tr>"
        for (f, a, b), raw in zip(changes, stored, strict=False)
    )
    body = f"<table>{head}</table>{errors}"
    if fields:
        body += f"<p style='margin-top:10px'><b>{plain.html(_tr('Changes'))}</b></p><table>{fields}</table>"
    link = _tr("Hide the raw JSON") if raw else _tr("Show the raw JSON (before → after)")
    body += f"<p style='margin-top:10px'><a href='{RAW_LINK}'>{plain.html(link)}</a></p>"
    if raw:
        body += f"<pre style='white-space:pre-wrap'>{_diff_html(e, theme)}</pre>"
    return body


def _diff_html(e: AuditEntry, theme: Any) -> str:
    removed, added = theme.diff_colors()
    muted = theme.muted_text().name()
    lines = []
    for ln in e.diff():
        esc = plain.html(ln)
        if ln.startswith("+"):
            lines.append(f"<div style='background:{added.name()}'>{esc}</div>")
        elif ln.startswith("-"):
            lines.append(f"<div style='background:{removed.name()}'>{esc}</div>")
        elif ln.startswith("@@"):
            lines.append(f"<div style='color:{muted}'>{esc}</div>")
        else:
            lines.append(f"<div>{esc}</div>")
    return "".join(lines) or f"<div style='color:{muted}'>{plain.html(_tr('No difference recorded.'))}</div>"


class EntryDetail(QTextBrowser):
    """Shows one entry (:meth:`show_entry`), or what the trail is for when it is empty."""

    def __init__(self, theme: Any, parent: QWidget | None = None):
        super().__init__(parent)
        self.theme = theme
        self.setOpenLinks(False)
        self.entry: AuditEntry | None = None
        self.raw_shown = False  # the raw JSON's disclosure, kept from entry to entry
        self.anchorClicked.connect(self._on_link)

    def _on_link(self, url: Any) -> None:
        if url.toString() == RAW_LINK and self.entry is not None:
            self.raw_shown = not self.raw_shown
            self.show_entry(self.entry)

    def empty_text(self) -> str:
        return self.tr(
            "No manual edits are recorded in this database yet. Edits made in editing mode appear here: "
            "who, when, what, and the state before and after."
        )

    def show_entry(self, e: AuditEntry | None) -> None:
        self.entry = e
        self.setHtml(entry_html(e, self.theme, self.raw_shown) if e is not None else "")

    def show_empty(self) -> None:
        self.entry = None
        self.setHtml(f"<p>{plain.html(self.empty_text())}</p>")
