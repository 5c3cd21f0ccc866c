"""The text around one privacy finding, for a person to judge it: the stored value of its cell read again,
cut to a window around the span, with every other finding of the same cell masked.

Read-only, like the scan: the live file through an open :class:`core.db.MemoryDB` (or a path, opened
read-only here), a backup through an ``immutable=1`` connection. The whole value of the finding is in
:attr:`FindingContext.value` only: a viewer shows :meth:`FindingContext.masked` until the person asks.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.engine import sqlite3
from core.privacy.finding import PrivacyFinding
from core.privacy.hits import mask

__all__ = ["CONTEXT_CHARS", "FindingContext", "finding_context"]

#: Characters shown on each side of the span.
CONTEXT_CHARS = 240
ELLIPSIS = "…"


@dataclass(frozen=True)
class FindingContext:
    """``before`` + ``value`` + ``after`` is the window of the cell's text around the finding (``before``
    and ``after`` with other findings of the cell masked, ``…`` where the text goes on)."""

    before: str
    value: str
    after: str
    preview: str

    def masked(self) -> str:
        return self.before + "⟦" + self.preview + "⟧" + self.after


def _mask_others(text: str, offset: int, others: Iterable[PrivacyFinding]) -> str:
    """``text`` (the cell's characters from ``offset``) with every span of ``others`` in it replaced by its
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


def _cell(conn: sqlite3.Connection, finding: PrivacyFinding) -> Any:
    from core.privacy.scan import SOURCES

    if not any(s.table == finding.table and finding.column in s.columns for s in SOURCES):
        return None
    names = {str(r[1]) for r in conn.execute(f'PRAGMA table_info("{finding.table}")')}
    key = '"id"' if "id" in names else "rowid"
    row = conn.execute(
        f'SELECT "{finding.column}" FROM "{finding.table}" WHERE {key} = ?', (finding.row,)
    ).fetchone()
    return None if row is None else row[0]


def _read(db: Any, finding: PrivacyFinding) -> Any:
    if finding.file is not None:
        from core.backups.listing import open_backup

        conn = open_backup(Path(finding.file))
        try:
            return _cell(conn, finding)
        finally:
            conn.close()
    from core.db import MemoryDB

    own = not isinstance(db, MemoryDB)
    mdb = MemoryDB.open(db, check=False) if own else db
    try:
        with mdb.lock:
            return _cell(mdb.conn, finding)
    finally:
        if own:
            mdb.close()


def finding_context(
    db: str | os.PathLike[str] | Any,
    finding: PrivacyFinding,
    others: Iterable[PrivacyFinding] = (),
    chars: int = CONTEXT_CHARS,
) -> FindingContext | None:
    """The window around ``finding`` in the database ``db`` (a path or an open ``MemoryDB``; a finding in
    a backup is read from its file). ``others``: the other findings, those of the same cell are masked.
    ``None`` when the row is gone or its text no longer holds the span as found."""
    text: Any = None
    with contextlib.suppress(sqlite3.Error, OSError):
        text = _read(db, finding)
    if not isinstance(text, str) or finding.end > len(text) or finding.start < 0:
        return None
    if mask(text[finding.start : finding.end]) != finding.preview:
        return None  # the row was changed since the scan: its span holds something else now
    same = [
        o
        for o in others
        if o.id != finding.id
        and (o.file, o.table, str(o.row), o.column)
        == (finding.file, finding.table, str(finding.row), finding.column)
    ]
    lo, hi = max(0, finding.start - chars), min(len(text), finding.end + chars)
    before = _mask_others(text[lo : finding.start], lo, same)
    after = _mask_others(text[finding.end : hi], finding.end, same)
    return FindingContext(
        (ELLIPSIS if lo > 0 else "") + before,
        text[finding.start : finding.end],
        after + (ELLIPSIS if hi < len(text) else ""),
        finding.preview,
    )
