"""The board's rows, prepared without Qt: sorted, with what the filter looks at and the columns made.

The loader job builds a :class:`BoardRows` next to the read (:func:`~philont_desktop.skills.loaders.
load_board_rows`), for the sort mode and filter the board has when it asks, so the board model takes the
rows as they are on the GUI thread: for 2,000 skills, sorting, the filter's fields, the "what is shown"
keys and the key indexes cost ~20 ms of Python, which would otherwise be one event-loop turn of the GUI
thread. The model builds one itself when the mode or filter changed meanwhile.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from core.models import Skill
from core.skills import score_skill
from philont_desktop.skills.state import BOARD_COLUMNS, BoardFilter, shown_key, source_class

__all__ = ["BoardRows", "RowInfo", "columns_of", "index_rows", "passes", "sort_key"]


class RowInfo:
    """What the filter looks at in a row, made with the rows (off the GUI thread)."""

    __slots__ = ("blob", "kind", "maturity", "recipe", "source")

    def __init__(self, s: Skill):
        self.maturity: str = s.maturity
        self.kind: str = s.kind
        self.source: str = source_class(s)
        self.recipe: bool = s.is_recipe
        kws = " ".join(str(k) for k in s.trigger_keywords)
        #: The casefolded name, description, when to use, keywords and source: what a text filter searches.
        self.blob: str = "\n".join((s.name, s.description, s.when_to_use, kws, s.source or "")).casefold()


def passes(info: RowInfo, f: BoardFilter) -> bool:
    """Whether the row of ``info`` passes the board filter ``f``."""
    if f.kind != "all" and info.kind != f.kind:
        return False
    if f.source != "all" and info.source != f.source:
        return False
    if f.recipes_only and not info.recipe:
        return False
    if not f.terms:
        return True
    blob = info.blob
    return all(t in blob for t in f.terms)


def sort_key(s: Skill, mode: str, now: int) -> tuple[Any, ...]:
    """The key of ``s`` in the sort mode ``mode`` (ties broken by name, then id); ``now`` in ms."""
    name = s.name.casefold()
    if mode == "uses":
        head: tuple[Any, ...] = (-s.use_count,)
    elif mode == "recent":
        head = (-(s.last_used_at if s.last_used_at is not None else -1),)
    elif mode == "successes":
        head = (-s.success_count, s.failure_count)
    elif mode == "failures":
        head = (-s.failure_count, -s.consecutive_failures)
    elif mode == "score":
        head = (-score_skill(s, now),)
    elif mode == "newest":
        head = (-s.created_at,)
    else:
        head = ()
    return (*head, name, s.name, s.id)


def columns_of(infos: Sequence[RowInfo], passed: Sequence[bool]) -> dict[str, list[int]]:
    """The rows that pass, by grade (ascending row numbers)."""
    out: dict[str, list[int]] = {m: [] for m in BOARD_COLUMNS}
    for row, (info, ok) in enumerate(zip(infos, passed, strict=True)):
        if ok:
            out.setdefault(info.maturity, []).append(row)
    return out


def index_rows(
    skills: Sequence[Skill], infos: Sequence[RowInfo]
) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """The row of each skill id and of each name, and how many rows each grade has."""
    counts = dict.fromkeys(BOARD_COLUMNS, 0)
    for info in infos:
        counts[info.maturity] = counts.get(info.maturity, 0) + 1
    return {s.id: i for i, s in enumerate(skills)}, {s.name: i for i, s in enumerate(skills)}, counts


class BoardRows:
    """Every skill in the order of :attr:`mode`, with each row's sort key, filter fields, whether it passes
    :attr:`filter`, its "what is shown" key (:func:`~philont_desktop.skills.state.shown_key`), the row of
    each id and name, the rows of each column and the count of each grade.

    ``now`` is the time the score sort is computed at (``None``: the clock at build time). The lists are
    read by the model, never changed: the model copies what it changes later.
    """

    def __init__(self, skills: Sequence[Skill], mode: str, flt: BoardFilter, now: int | None = None):
        self.mode = mode
        self.filter = flt
        self.now = now
        at = now if now is not None else int(time.time() * 1000)
        keyed = sorted(((sort_key(s, mode, at), s) for s in skills), key=itemgetter(0))
        self.skills: list[Skill] = [s for _k, s in keyed]
        self.keys: list[tuple[Any, ...]] = [k for k, _s in keyed]
        self.infos: list[RowInfo] = [RowInfo(s) for s in self.skills]
        self.passed: list[bool] = [passes(i, flt) for i in self.infos]
        self.shown: dict[str, tuple[Any, ...]] = {s.id: shown_key(s) for s in self.skills}
        self.row_of, self.row_by_name, self.counts = index_rows(self.skills, self.infos)
        self.columns: dict[str, list[int]] = columns_of(self.infos, self.passed)

    def fits(self, mode: str, flt: BoardFilter, now: int | None) -> bool:
        """Whether these rows were made for this sort mode, filter and fixed time."""
        return self.mode == mode and self.filter == flt and self.now == now

    def __len__(self) -> int:
        return len(self.skills)
