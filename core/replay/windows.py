"""Window counts kept from one replay to the next (beside the saved replay: ``<digest>.windows.json``).

The substring step of the replay asks the index for a text's rarest 3-character windows
(:class:`core.replay.search.ReplayProof`), and counts each window in the whole index up to
:data:`core.replay.search.WINDOW_COUNT_BOUND` rows to know which are rare. A replay of the turns written
since the saved one runs in a new process that would count them all again: on the 1M bench file that is
a fifth of the update. The counts are kept instead, each with the greatest message id when it was
counted.

Why a kept count is still good: a count chooses which windows are asked (any choice gives the same rows)
and, below the bound, vouches that a piece of the text has few candidates (at most the count, under the
agent's :data:`core.substring.CANDIDATE_CAP`). Rows only add to a count by being written after it was
made, with a greater id (ids are never reused: ``AUTOINCREMENT``); a deleted row only lowers it. So a
count made when the greatest id was ``top`` stays a sound choice while fewer than
:data:`ADDED_AT_MOST` rows have an id above ``top`` (the cap minus the bound): a count below the bound
is then still under the cap. Older counts are dropped and made again.

The need's frequent terms are kept too (:class:`core.replay.need.NeedIndex`: a term found in more than
``cap`` messages before a turn is never looked up again): the history before a saved turn does not change
(a saved replay is extended only while it holds; the privacy purge deletes this file with it), so a term
frequent before the last saved turn is frequent before every later one, under the same ``cap``.

The file::

    {"version": 1, "windows": [["abc", 17, 1000000], ...],   # window (lower case), count, top
     "frequent": {"cap": 10, "terms": ["build", ...]}}

windows oldest use first. A file that cannot be read is only a cache: it is ignored (and replaced by the
next update), never the reason an update fails.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from core import sidefiles
from core.replay.search import WINDOW_COUNT_BOUND
from core.search.sql import MSG
from core.substring import CANDIDATE_CAP

if TYPE_CHECKING:
    from core.db import MemoryDB

__all__ = ["ADDED_AT_MOST", "WindowCounts"]

#: A count made when the greatest id was ``top`` is used while fewer rows than this have a greater id.
ADDED_AT_MOST = CANDIDATE_CAP - WINDOW_COUNT_BOUND
VERSION = 1
#: The file is at most this large (50,000 windows take about 1.5 MB).
MAX_BYTES = 16 * 1024 * 1024


class WindowCounts:
    """Window counts with the greatest id when each was made: ``entries[window] = (count, top)``,
    oldest use first. :func:`core.replay.replay` takes those still sound (:meth:`usable`) and gives back
    what it counted and used (:meth:`keep`)."""

    def __init__(
        self,
        entries: OrderedDict[str, tuple[int, int]] | None = None,
        frequent: tuple[int, set[str]] | None = None,
    ):
        self.entries: OrderedDict[str, tuple[int, int]] = entries if entries is not None else OrderedDict()
        self.frequent = frequent  # (cap, the terms in more than ``cap`` messages) or None

    def usable(self, db: MemoryDB) -> dict[str, int]:
        """The counts still sound in ``db`` (fewer than :data:`ADDED_AT_MOST` rows written since each)."""
        added: dict[int, int] = {}
        sql = f"SELECT count(*) FROM (SELECT 1 FROM {MSG} WHERE id > ? LIMIT ?)"
        out: dict[str, int] = {}
        with db.lock:
            for window, (count, top) in self.entries.items():
                if top not in added:
                    added[top] = int(db.conn.execute(sql, (top, ADDED_AT_MOST)).fetchone()[0])
                if added[top] < ADDED_AT_MOST:
                    out[window] = count
        return out

    def keep(
        self, counts: OrderedDict[str, int], given: dict[str, int], top: int, frequent: tuple[int, set[str]]
    ) -> None:
        """After a replay: ``counts`` its windows (oldest use first), ``given`` those it was given (they
        keep their own top), ``top`` the greatest id when it started (the others were counted after);
        ``frequent`` the need's cap and frequent terms."""
        self.frequent = frequent
        old = self.entries
        self.entries = OrderedDict((w, old[w] if w in given else (n, top)) for w, n in counts.items())

    # -- the file -------------------------------------------------------------------------------------
    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> WindowCounts:
        """The counts in ``path``; none when there is no file or it cannot be read (a cache)."""
        data, _problem = sidefiles.read_json(path, MAX_BYTES)
        entries: OrderedDict[str, tuple[int, int]] = OrderedDict()
        frequent = None
        if (
            isinstance(data, dict)
            and data.get("version") == VERSION
            and isinstance(data.get("windows"), list)
        ):
            for item in data["windows"]:
                if _entry(item):
                    entries[item[0]] = (item[1], item[2])
            f = data.get("frequent")
            if isinstance(f, dict) and type(f.get("cap")) is int and isinstance(f.get("terms"), list):
                frequent = (f["cap"], {t for t in f["terms"] if isinstance(t, str)})
        return cls(entries, frequent)

    def write(self, path: str | os.PathLike[str]) -> None:
        data: dict[str, Any] = {
            "version": VERSION,
            "windows": [[w, n, top] for w, (n, top) in self.entries.items()],
        }
        if self.frequent is not None:
            data["frequent"] = {"cap": self.frequent[0], "terms": sorted(self.frequent[1])}
        sidefiles.write_json(path, data, indent=None)


def _entry(item: Any) -> bool:
    return (
        isinstance(item, list)
        and len(item) == 3
        and isinstance(item[0], str)
        and type(item[1]) is int
        and type(item[2]) is int
        and 0 <= item[1] <= WINDOW_COUNT_BOUND
    )
