"""A fact re-learned: a stronger signal of need than shared words alone.

A fact version is *re-learned* when an earlier version with the same namespace, key and value existed
and had been superseded by another version or forgotten before this one was written: the agent had
known it, lost it and was told again. It is attributed to the user turn it was written in (the last
user message of the replayed range at or before its ``created_at``, while the next one has not come),
and the words of its value join that turn's need under the correction threshold (twice the rarity
threshold; :mod:`core.replay.need`). Those words are not given to the what-if strategies: the agent
could not know them when it recalled.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.models import Fact

if TYPE_CHECKING:
    from core.db import MemoryDB

__all__ = ["Relearned", "attribute", "relearned_facts"]


@dataclass(frozen=True)
class Relearned:
    """``name`` is ``namespace.key``; ``text`` is the value as text (a string as it is, else its JSON)."""

    at: int
    fact_id: str
    name: str
    text: str


def _text(f: Fact) -> str:
    return f.value if isinstance(f.value, str) else (f.value_json or "")


def _lost_before(g: Fact, f: Fact, created: dict[str, int]) -> bool:
    """Whether ``g`` was superseded (by another version, written before ``f``) or forgotten before ``f``."""
    if g.forgotten_at is not None and g.forgotten_at <= f.created_at:
        return True
    by = g.superseded_by
    return by is not None and by != f.id and created.get(by, f.created_at) <= f.created_at


_REPEATED = (
    "SELECT * FROM memory_facts WHERE (namespace, key, value_json) IN "
    "(SELECT namespace, key, value_json FROM memory_facts GROUP BY namespace, key, value_json "
    "HAVING count(*) > 1)"
)


def relearned_facts(db: MemoryDB) -> list[Relearned]:
    """Every re-learned fact version of the file, oldest first (reads only). Only the versions whose
    namespace, key and value were written more than once are read as facts."""
    with db.lock:
        created = {
            r[0]: r[1]
            for r in db.conn.execute("SELECT id, created_at FROM memory_facts")
            if type(r[1]) is int
        }
        rows = [Fact.from_row(r) for r in db.conn.execute(_REPEATED)]
    rows = [f for f in rows if isinstance(f.created_at, int)]
    created.update({f.id: f.created_at for f in rows})
    groups: dict[tuple[str, str, str], list[Fact]] = {}
    for f in rows:
        groups.setdefault((f.namespace, f.key, f.value_json), []).append(f)
    out: list[Relearned] = []
    for (ns, key, _v), versions in groups.items():
        versions.sort(key=lambda f: (f.created_at, f.id))
        for i, f in enumerate(versions):
            if any(_lost_before(g, f, created) for g in versions[:i] if g.created_at < f.created_at):
                out.append(Relearned(f.created_at, f.id, f"{ns}.{key}", _text(f)))
    return sorted(out, key=lambda r: (r.at, r.fact_id))


def attribute(found: Sequence[Relearned], starts: Sequence[int], end: int | None) -> list[list[Relearned]]:
    """The re-learned facts of each turn: ``starts`` are the turns' times (ascending), ``end`` the time of
    the user message after the last turn (None: none came)."""
    out: list[list[Relearned]] = [[] for _ in starts]
    for r in found:
        i = bisect.bisect_right(starts, r.at) - 1
        if i < 0 or (i == len(starts) - 1 and end is not None and r.at >= end):
            continue
        out[i].append(r)
    return out
