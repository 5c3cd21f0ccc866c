"""The text around one privacy finding as a person judges it: the window :func:`core.privacy.scan.context`
reads again from the finding's file, marked where the text goes on, with every other finding of the same
value masked (a secret next to the one shown is never shown whole beside it).

The whole value of the finding is in :attr:`FindingContext.value` only: a viewer shows
:meth:`FindingContext.masked` until the person asks for the value.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from core.privacy.finding import PrivacyFinding
from core.privacy.hits import mask

__all__ = ["CONTEXT_CHARS", "FindingContext", "finding_context"]

#: Characters shown on each side of the span.
CONTEXT_CHARS = 240
ELLIPSIS = "…"


@dataclass(frozen=True)
class FindingContext:
    """``before`` + ``value`` + ``after`` is the window of the value's text around the finding (``before``
    and ``after`` with the other findings of that value masked, ``…`` where the text goes on)."""

    before: str
    value: str
    after: str
    preview: str

    def masked(self) -> str:
        return self.before + "⟦" + self.preview + "⟧" + self.after


def _mask_others(text: str, offset: int, others: Iterable[PrivacyFinding]) -> str:
    """``text`` (the value's characters from ``offset``) with every span of ``others`` in it replaced by its
    preview; a span cut by the window's edge is masked whole."""
    spans = sorted(
        (max(o.start - offset, 0), min(o.end - offset, len(text)), o.preview)
        for o in others
        if o.end > offset and o.start < offset + len(text)
    )
    out, at = [], 0
    for start, end, preview in spans:
        if start < at:
            continue
        out.append(text[at:start])
        out.append("⟦" + preview + "⟧")
        at = end
    out.append(text[at:])
    return "".join(out)


def _same_value(a: PrivacyFinding, b: PrivacyFinding) -> bool:
    return (a.file, a.table, str(a.row), a.column) == (b.file, b.table, str(b.row), b.column)


def finding_context(
    db: Any, finding: PrivacyFinding, others: Iterable[PrivacyFinding] = (), chars: int = CONTEXT_CHARS
) -> FindingContext | None:
    """The window around ``finding`` (``db``: the open :class:`core.db.MemoryDB`; a finding in a backup is
    read from its file). ``others``: other findings; those of the same value are masked. ``None`` when the
    row is gone or its span no longer holds what the scan found there."""
    from core.privacy.scan import context

    found = context(db, finding, chars + 1)  # one more character each side says whether the text goes on
    if found is None:
        return None
    before, value, after = found
    if mask(value) != finding.preview:
        return None  # the row was changed since the scan: its span holds something else now
    more_before, more_after = len(before) > chars, len(after) > chars
    before, after = before[len(before) - chars :] if more_before else before, after[:chars]
    same = [o for o in others if o.id != finding.id and _same_value(o, finding)]
    return FindingContext(
        (ELLIPSIS if more_before else "") + _mask_others(before, finding.start - len(before), same),
        value,
        _mask_others(after, finding.end, same) + (ELLIPSIS if more_after else ""),
        finding.preview,
    )
