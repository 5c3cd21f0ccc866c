"""A range of user turns answered from the saved replay (:mod:`core.replay.store`) instead of replayed.

A turn's replay depends only on the messages before it, so the saved result of every turn, brought up
to date (:meth:`~core.replay.store.ReplayStore.update`: only the turns written since are replayed), holds
the turns of any time range exactly as a replay of that range would make them. Its turns file is in
time order (``(timestamp, messageId)``, oldest first): the range's first and last turns are found by
halving the file's byte range, reading one line at each step, and only the lines between are read.

The turns are read from the file as it was when the range was found (an open descriptor): an update by
the app at the same moment appends after the saved bytes, or puts a new file in place, and neither
changes what this range reads. A range of the newest N turns (``limit``) counts the lines of the range
first, without reading them as JSON.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any, BinaryIO

from core.errors import ValidationError_
from core.replay.run import ReplayOptions
from core.replay.saved import SavedReplayError
from core.replay.store import MAX_LINE, ReplayStore, Updated, turn_record

__all__ = ["SavedRange", "answer"]

_TOP = (1 << 63) - 1
_CHUNK = 1 << 20


@dataclass
class SavedRange:
    """The turns of a range in a saved result: the bytes ``start``-``end`` of its turns file, read after
    skipping ``skip`` lines (a limit). Close it when done (``with``); :meth:`records` gives the turns'
    JSON objects, :func:`core.replay.saved.turn_from_json` makes them whole."""

    updated: Updated
    fh: BinaryIO
    start: int
    end: int
    skip: int

    def __enter__(self) -> SavedRange:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.fh.close()

    @property
    def strategies(self) -> tuple[str, ...]:
        return tuple(self.updated.saved.summary.get("strategies") or ())

    def records(self) -> Iterator[dict[str, Any]]:
        """The turns' JSON objects, oldest first (again on each call)."""
        self.fh.seek(self.start)
        left, skip = self.end - self.start, self.skip
        while left > 0:
            line = self.fh.readline(min(left, MAX_LINE))
            left -= len(line)
            if not line.endswith(b"\n"):
                raise SavedReplayError("a turn is cut")
            if skip:
                skip -= 1
                continue
            yield turn_record(line)


def answer(
    db: Any,
    db_path: str | os.PathLike[str],
    options: ReplayOptions | None = None,
    *,
    store: ReplayStore | None = None,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> SavedRange:
    """The user turns of ``options``' range (``since``, ``until``, ``limit``) from the saved replay of
    ``db``, brought up to date first with the other options (strategies, rule of need): only the turns
    written since are replayed (``progress`` counts them), every turn when nothing was saved for this
    file with those options. Reads the database only. ``origin`` cannot be answered from a saved result
    (it holds no conversation ids): :class:`core.errors.ValidationError_` ``replay.saved_origin``."""
    o = options or ReplayOptions()
    if o.origin is not None:
        raise ValidationError_(
            f"The saved replay covers every conversation and cannot answer for one ({o.origin}): replay that "
            "conversation's turns instead.",
            code="replay.saved_origin",
            params={"origin": o.origin},
        )
    store = store if store is not None else ReplayStore()
    whole = replace(o, since=None, until=None, limit=None, after_id=None)
    updated = store.update(db, db_path, whole, progress=progress, cancelled=cancelled)
    size = updated.saved.size if updated.saved.count else 0
    fh = open(store.turns_path(db_path), "rb") if size else open(os.devnull, "rb")  # noqa: SIM115
    try:
        start = 0 if o.since is None else _first_at(fh, size, (o.since, -_TOP))
        end = size if o.until is None else _first_at(fh, size, (o.until, _TOP), start)
        if o.limit is None:
            return SavedRange(updated, fh, start, end, 0)
        skip = max(_count_lines(fh, start, end) - max(o.limit, 0), 0)
        return SavedRange(updated, fh, start, end, skip)
    except BaseException:
        fh.close()
        raise


def _key(line: bytes) -> tuple[int, int]:
    value = turn_record(line)
    ts, mid = value.get("timestamp"), value.get("messageId")
    if type(ts) is not int or type(mid) is not int:
        raise SavedReplayError("a turn has no time or id")
    return ts, mid


def _line_at(fh: BinaryIO, pos: int, end: int) -> bytes:
    fh.seek(pos)
    line = fh.readline(min(end - pos, MAX_LINE))
    if not line.endswith(b"\n"):
        raise SavedReplayError("a turn is cut")
    return line


def _first_at(fh: BinaryIO, size: int, key: tuple[int, int], lo: int = 0) -> int:
    """The offset of the first line at or after ``lo`` whose ``(timestamp, messageId)`` is at least
    ``key`` (``size``: none). Every line before ``lo`` is below it; each line starts after a newline."""
    hi = size  # a line start (or the end) whose line is at least key
    while lo < hi:
        mid = (lo + hi) // 2
        fh.seek(max(mid - 1, lo))
        if mid > lo:
            fh.readline(MAX_LINE)  # to the first line starting at or after mid
        start = fh.tell()
        if start >= hi:
            break  # no line starts in [mid, hi): the answer is lo's line or hi
        line = _line_at(fh, start, hi)
        if _key(line) < key:
            lo = start + len(line)
        else:
            hi = start
    while lo < hi:  # at most a line or two left between them
        line = _line_at(fh, lo, hi)
        if _key(line) >= key:
            return lo
        lo += len(line)
    return hi


def _count_lines(fh: BinaryIO, start: int, end: int) -> int:
    fh.seek(start)
    n, left = 0, end - start
    while left > 0:
        chunk = fh.read(min(left, _CHUNK))
        if not chunk:
            raise SavedReplayError("the turns file is short")
        n += chunk.count(b"\n")
        left -= len(chunk)
    return n
