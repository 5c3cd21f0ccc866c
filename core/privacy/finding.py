"""The shape of one privacy finding: where it is (file, table, row, column, span), what it is and a masked
preview that never holds the whole secret."""

from __future__ import annotations

from dataclasses import dataclass

CATEGORIES = ("secret", "personal", "instruction")


@dataclass(frozen=True)
class PrivacyFinding:
    """``id`` is stable for the same span of the same row of the same file (so an allow-list and a purge
    named on the command line find it again); ``kind`` is e.g. ``secret.openai_key``, ``personal.email``,
    ``instruction.override``; ``category`` one of :data:`CATEGORIES`; ``layer`` the memory layer
    (``messages``, ``actions``, ``notes``, ``facts``, ``skills``, ``skill_revisions``, ``calendar``,
    ``tasks``); ``table``/``row``/``column`` the stored place (``row`` the table's key);
    ``start``/``end`` the span in the column's text (characters); ``file`` ``None`` for the live
    database, else the backup's path; ``confidence`` in 0..1."""

    id: str
    kind: str
    category: str
    layer: str
    table: str
    row: int | str
    column: str
    start: int
    end: int
    preview: str
    confidence: float
    file: str | None = None
