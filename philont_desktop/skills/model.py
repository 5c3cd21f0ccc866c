"""The board's Qt models: every skill in one list model, and one filtered column per grade.

:class:`SkillBoardModel` keeps every skill (merged on refresh, so selections and scroll positions
survive), with precomputed filter text and sort keys; :class:`ColumnProxy` is one maturity column,
filtering by grade and the shared :class:`~philont_desktop.skills.state.BoardFilter`, in the model's order.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

from core.models import MATURITIES, Skill
from core.skills import score_skill
from philont_desktop.humanize import when
from philont_desktop.qt import (
    QAbstractListModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from philont_desktop.skills.repairs import attempts_of, attempts_text
from philont_desktop.skills.state import BOARD_COLUMNS, SORT_MODES, BoardFilter, shown_key, source_class
from philont_desktop.skills.words import grade_caveat, grade_name
from philont_desktop.widgets import plain
from philont_desktop.widgets.after_paint import next_turn

__all__ = ["BOARD_COLUMNS", "SORT_MODES", "BoardFilter", "ColumnProxy", "SkillBoardModel", "source_class"]

assert set(BOARD_COLUMNS) == set(MATURITIES)

Invalid = QModelIndex | QPersistentModelIndex


class _RowInfo:
    """What the filter looks at in a row; the text it searches is made when a text filter first asks."""

    __slots__ = ("_blob", "_skill", "kind", "maturity", "recipe", "source")

    def __init__(self, s: Skill):
        self.maturity: str = s.maturity
        self.kind: str = s.kind
        self.source: str = source_class(s)
        self.recipe: bool = s.is_recipe
        self._skill = s
        self._blob: str | None = None

    @property
    def blob(self) -> str:
        """The casefolded name, description, when to use, keywords and source."""
        if self._blob is None:
            s = self._skill
            kws = " ".join(str(k) for k in s.trigger_keywords)
            self._blob = "\n".join((s.name, s.description, s.when_to_use, kws, s.source or "")).casefold()
        return self._blob


def _passes(info: _RowInfo, f: BoardFilter) -> bool:
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


class SkillBoardModel(QAbstractListModel):
    """All skills, one row each, kept in the order of the current sort mode. Display role: the name.

    The model does the sorting and the filter matching in plain Python (one pass over the rows when the
    sort mode or the filter changes); the column proxies only ask :meth:`accepts`, a list lookup, and keep
    the model's order. A refresh merges: rows that are gone are removed, changed rows updated in place,
    new rows appended, and the order restored with one layout change when needed, so views keep their
    selection and scroll position.
    """

    SkillRole = Qt.ItemDataRole.UserRole + 1
    HistoryRole = Qt.ItemDataRole.UserRole + 2
    IdRole = Qt.ItemDataRole.UserRole + 3
    MaturityRole = Qt.ItemDataRole.UserRole + 4

    historiesNeeded = Signal(list)  # names whose sparkline should be (re)loaded
    skillsChanged = Signal()

    def __init__(self, parent: QObject | None = None, *, now: int | None = None):
        super().__init__(parent)
        self._skills: list[Skill] = []
        self._info: list[_RowInfo] = []
        self._keys: list[tuple[Any, ...]] = []
        self._pass: list[bool] = []
        self._row_of: dict[str, int] = {}
        self._row_by_name: dict[str, int] = {}
        self._state: dict[str, tuple[Any, ...]] = {}
        self._counts: dict[str, int] = dict.fromkeys(BOARD_COLUMNS, 0)
        self._sort = "name"
        self._now = now
        self._filter = BoardFilter()
        self._hist: dict[str, tuple[int, list[bool]]] = {}
        self._hist_gen = 0
        self._wanted: set[str] = set()
        self._in_flight: set[str] = set()
        self._request_timer = next_turn(self, self._emit_requests)

    # -- Qt model API --------------------------------------------------------------------------------
    def rowCount(self, parent: Invalid = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._skills)

    def data(self, index: Invalid, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._skills):
            return None
        s = self._skills[index.row()]
        if role == self.SkillRole:
            return s
        if role == Qt.ItemDataRole.DisplayRole:
            # stored text as text, the damage marker in front when any value of the row is unreadable
            return plain.mark(plain.plain(s.name, 300, one_line=True), s, plain.damages(s))
        if role == self.HistoryRole:
            return self.history(s.name)
        if role == self.IdRole:
            return s.id
        if role == self.MaturityRole:
            return s.maturity
        if role == Qt.ItemDataRole.ToolTipRole:
            hurt = plain.damage_tooltip(s)
            return plain.tooltip(self.tooltip(s) + (f"\n\n{hurt}" if hurt else ""))
        return None

    def tooltip(self, s: Skill) -> str:
        """The card's tooltip: the full name, the grade and its caveat, where it came from, repairs, the
        last use (relative and absolute), the description."""
        text = s.description if len(s.description) <= 400 else s.description[:400] + "…"
        caveat = grade_caveat(s.maturity)
        lines = [s.name, grade_name(s.maturity) + (f": {caveat}" if caveat else "")]
        if s.source:
            lines.append(self.tr("Source: {0}").format(s.source))
        if s.from_disk:
            lines.append(self.tr("Installed from disk"))
        repairs = attempts_of(s)
        if repairs.count:
            lines.append(attempts_text(repairs))
        if s.last_used_at is not None:
            now = self._now if self._now is not None else int(time.time() * 1000)
            lines.append(self.tr("Last used {0}").format(when(s.last_used_at, now)))
        return "\n".join(line for line in lines if line) + ("\n\n" + text if text else "")

    def flags(self, index: Invalid) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def roleNames(self) -> dict[int, bytes]:
        names = dict(super().roleNames())
        names[self.SkillRole] = b"skill"
        names[self.HistoryRole] = b"history"
        names[self.IdRole] = b"skillId"
        names[self.MaturityRole] = b"maturity"
        return names

    # -- access -----------------------------------------------------------------------------------------
    @property
    def skills(self) -> list[Skill]:
        return list(self._skills)

    def skill_at(self, row: int) -> Skill:
        return self._skills[row]

    def info(self, row: int) -> _RowInfo:
        return self._info[row]

    def accepts(self, row: int, maturity: str) -> bool:
        """Whether the source ``row`` belongs in the column ``maturity`` under the current filter."""
        return self._pass[row] and self._info[row].maturity == maturity

    def row_of(self, skill_id: str) -> int | None:
        return self._row_of.get(skill_id)

    def skill_by_id(self, skill_id: str) -> Skill | None:
        row = self._row_of.get(skill_id)
        return None if row is None else self._skills[row]

    def skill_by_name(self, name: str) -> Skill | None:
        row = self._row_by_name.get(name)
        return None if row is None else self._skills[row]

    def count_by_maturity(self) -> dict[str, int]:
        return dict(self._counts)

    # -- filter -----------------------------------------------------------------------------------------
    @property
    def board_filter(self) -> BoardFilter:
        return self._filter

    def set_filter(self, board_filter: BoardFilter) -> None:
        """Re-match every row (the proxies must then re-filter: :meth:`ColumnProxy.refilter`)."""
        self._filter = board_filter
        self._pass = [_passes(i, board_filter) for i in self._info]

    # -- sorting ----------------------------------------------------------------------------------------
    @property
    def sort_mode(self) -> str:
        return self._sort

    def set_sort_mode(self, mode: str) -> None:
        """Sort by ``mode`` (one of :data:`SORT_MODES`): one layout change, selections kept."""
        if mode not in SORT_MODES:
            raise ValueError(f"unknown sort mode {mode!r}")
        self._sort = mode
        self._keys = [self._key(s) for s in self._skills]
        self._restore_order()

    def _key(self, s: Skill) -> tuple[Any, ...]:
        name = s.name.casefold()
        mode = self._sort
        if mode == "uses":
            head: tuple[Any, ...] = (-s.use_count,)
        elif mode == "recent":
            head = (-(s.last_used_at if s.last_used_at is not None else -1),)
        elif mode == "successes":
            head = (-s.success_count, s.failure_count)
        elif mode == "failures":
            head = (-s.failure_count, -s.consecutive_failures)
        elif mode == "score":
            now = self._now if self._now is not None else int(time.time() * 1000)
            head = (-score_skill(s, now),)
        elif mode == "newest":
            head = (-s.created_at,)
        else:
            head = ()
        return (*head, name, s.name, s.id)

    def _restore_order(self) -> None:
        order = sorted(range(len(self._skills)), key=self._keys.__getitem__)
        if order == list(range(len(order))):
            return
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        old_ids = [self._skills[p.row()].id if 0 <= p.row() < len(self._skills) else None for p in old]
        for name in ("_skills", "_info", "_keys", "_pass"):
            lst = getattr(self, name)
            setattr(self, name, [lst[i] for i in order])
        self._reindex()
        new = [self.index(self._row_of[i]) if i in self._row_of else QModelIndex() for i in old_ids]
        self.changePersistentIndexList(old, new)
        self.layoutChanged.emit()

    # -- loading ----------------------------------------------------------------------------------------
    def set_skills(self, skills: Sequence[Skill]) -> list[str]:
        """Merge a fresh list into the model; returns the ids whose row is new or changed."""
        if not self._skills or not skills:
            return self._reset(skills)
        fresh = {s.id: s for s in skills}
        self._remove_gone(fresh)
        changed = self._update_changed(fresh)
        changed += self._append_new(skills)
        self._reindex()
        self._restore_order()
        self.skillsChanged.emit()
        return changed

    def _reset(self, skills: Sequence[Skill]) -> list[str]:
        self.beginResetModel()
        keyed = sorted(((self._key(s), s) for s in skills), key=lambda ks: ks[0])
        self._skills = [s for _, s in keyed]
        self._keys = [k for k, _ in keyed]
        self._info = [_RowInfo(s) for s in self._skills]
        self._pass = [_passes(i, self._filter) for i in self._info]
        self._state = {s.id: shown_key(s) for s in self._skills}
        self._reindex()
        self.endResetModel()
        self.skillsChanged.emit()
        return [s.id for s in self._skills]

    def _remove_gone(self, fresh: dict[str, Skill]) -> None:
        """Remove the rows whose skill is gone, in contiguous runs, bottom up."""
        row = len(self._skills) - 1
        while row >= 0:
            if self._skills[row].id in fresh:
                row -= 1
                continue
            end = row
            while row - 1 >= 0 and self._skills[row - 1].id not in fresh:
                row -= 1
            self.beginRemoveRows(QModelIndex(), row, end)
            for gone in self._skills[row : end + 1]:
                self._state.pop(gone.id, None)
            for lst in (self._skills, self._info, self._keys, self._pass):
                del lst[row : end + 1]
            self.endRemoveRows()
            row -= 1

    def _update_changed(self, fresh: dict[str, Skill]) -> list[str]:
        """Update the rows whose skill changed, in place."""
        changed: list[str] = []
        for row, old in enumerate(self._skills):
            s = fresh[old.id]
            key = shown_key(s)
            if self._state.get(s.id) == key:
                continue
            self._skills[row] = s
            self._info[row] = _RowInfo(s)
            self._keys[row] = self._key(s)
            self._pass[row] = _passes(self._info[row], self._filter)
            self._state[s.id] = key
            if old.name != s.name:
                self._hist.pop(old.name, None)
            idx = self.index(row)
            self.dataChanged.emit(idx, idx, [])
            changed.append(s.id)
        return changed

    def _append_new(self, skills: Sequence[Skill]) -> list[str]:
        have = {s.id for s in self._skills}
        added = [s for s in skills if s.id not in have]
        if not added:
            return []
        first = len(self._skills)
        self.beginInsertRows(QModelIndex(), first, first + len(added) - 1)
        for s in added:
            info = _RowInfo(s)
            self._skills.append(s)
            self._info.append(info)
            self._keys.append(self._key(s))
            self._pass.append(_passes(info, self._filter))
            self._state[s.id] = shown_key(s)
        self.endInsertRows()
        return [s.id for s in added]

    def _reindex(self) -> None:
        self._row_of = {s.id: i for i, s in enumerate(self._skills)}
        self._row_by_name = {s.name: i for i, s in enumerate(self._skills)}
        counts = dict.fromkeys(BOARD_COLUMNS, 0)
        for i in self._info:
            counts[i.maturity] = counts.get(i.maturity, 0) + 1
        self._counts = counts

    # -- sparkline histories ------------------------------------------------------------------------------
    def history(self, name: str) -> list[bool] | None:
        """The cached outcomes of ``name`` (possibly from before the last refresh); asks for fresh ones."""
        entry = self._hist.get(name)
        if entry is None or entry[0] != self._hist_gen:
            self.request_history(name)
        return None if entry is None else entry[1]

    def request_history(self, name: str) -> None:
        if name in self._in_flight:
            return
        self._wanted.add(name)
        if not self._request_timer.isActive():
            self._request_timer.start()

    def request_histories_now(self, names: Iterable[str]) -> None:
        """Ask for the sparklines of ``names`` at once (not batched by the timer)."""
        for name in names:
            entry = self._hist.get(name)
            if name not in self._in_flight and (entry is None or entry[0] != self._hist_gen):
                self._wanted.add(name)
        self._emit_requests()

    @property
    def requests_pending(self) -> bool:
        return self._request_timer.isActive() or bool(self._wanted)

    def _emit_requests(self) -> None:
        names = sorted(self._wanted - self._in_flight)
        self._wanted.clear()
        if names:
            self._in_flight.update(names)
            self.historiesNeeded.emit(names)

    def invalidate_histories(self) -> None:
        """After a refresh: cached sparklines stay shown but are reloaded when painted."""
        self._hist_gen += 1

    def set_histories(self, histories: dict[str, list[bool]], names: Iterable[str] | None = None) -> None:
        for name in names if names is not None else histories:
            self._in_flight.discard(name)
        gen = self._hist_gen
        rows = []
        for name, outcomes in histories.items():
            old = self._hist.get(name)
            self._hist[name] = (gen, list(outcomes))
            if old is None or old[1] != outcomes:
                r = self._row_by_name.get(name)
                if r is not None:
                    rows.append(r)
        for r in rows:
            idx = self.index(r)
            self.dataChanged.emit(idx, idx, [self.HistoryRole])

    def histories_failed(self, names: Iterable[str]) -> None:
        for name in names:
            self._in_flight.discard(name)


class ColumnProxy(QSortFilterProxyModel):
    """The skills of one grade that pass the shared filter, in the model's (sorted) order."""

    def __init__(self, source: SkillBoardModel, maturity: str, parent: QObject | None = None):
        super().__init__(parent)
        self.maturity = maturity
        self._src = source
        self.setDynamicSortFilter(True)
        self.setSourceModel(source)

    def filterAcceptsRow(self, source_row: int, source_parent: Invalid) -> bool:
        return self._src.accepts(source_row, self.maturity)

    def refilter(self) -> None:
        """After :meth:`SkillBoardModel.set_filter`."""
        self.beginFilterChange()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
