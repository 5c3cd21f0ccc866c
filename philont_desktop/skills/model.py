"""The board's Qt models: every skill in one list model, and one filtered column per grade.

:class:`SkillBoardModel` keeps every skill (merged on refresh, so selections and scroll positions
survive), with precomputed filter fields, sort keys and the rows of each column, taken as prepared off
the GUI thread (:class:`~philont_desktop.skills.rows.BoardRows`); :class:`ColumnProxy` is one maturity
column: the model's list of that column's rows, in the model's order.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

from core.models import MATURITIES, Skill
from philont_desktop.humanize import when
from philont_desktop.qt import (
    QAbstractListModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from philont_desktop.skills.repairs import attempts_of, attempts_text
from philont_desktop.skills.rows import BoardRows, RowInfo, columns_of, index_rows, passes, sort_key
from philont_desktop.skills.state import BOARD_COLUMNS, SORT_MODES, BoardFilter, source_class
from philont_desktop.skills.words import grade_caveat, grade_name
from philont_desktop.widgets import plain
from philont_desktop.widgets.after_paint import next_turn
from philont_desktop.widgets.kept_rows import KeptRowsProxy

__all__ = ["BOARD_COLUMNS", "SORT_MODES", "BoardFilter", "ColumnProxy", "SkillBoardModel", "source_class"]

assert set(BOARD_COLUMNS) == set(MATURITIES)

Invalid = QModelIndex | QPersistentModelIndex


class SkillBoardModel(QAbstractListModel):
    """All skills, one row each, kept in the order of the current sort mode. Display role: the name.

    The model does the sorting and the filter matching in plain Python (one pass over the rows when the
    sort mode or the filter changes; at a load, the loader job has done it: :meth:`set_skills` takes its
    :class:`~philont_desktop.skills.rows.BoardRows`); the column proxies ask for their rows
    (:meth:`column_rows`) once per change and keep the model's order. A refresh merges: rows that are gone
    are removed, changed rows updated in place, new rows appended, and the order restored with one layout
    change when needed, so views keep their selection and scroll position.
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
        self._info: list[RowInfo] = []
        self._keys: list[tuple[Any, ...]] = []
        self._pass: list[bool] = []
        self._row_of: dict[str, int] = {}
        self._row_by_name: dict[str, int] = {}
        self._state: dict[str, tuple[Any, ...]] = {}
        self._counts: dict[str, int] = dict.fromkeys(BOARD_COLUMNS, 0)
        self._columns: dict[str, list[int]] | None = None  # the rows of each column; None: to be made
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

    def info(self, row: int) -> RowInfo:
        return self._info[row]

    def accepts(self, row: int, maturity: str) -> bool:
        """Whether the source ``row`` belongs in the column ``maturity`` under the current filter."""
        return self._pass[row] and self._info[row].maturity == maturity

    def column_rows(self, maturity: str) -> list[int]:
        """The rows of the column ``maturity`` under the current filter, ascending (made in one pass for
        all columns after a change; do not change the list)."""
        if self._columns is None:
            self._columns = columns_of(self._info, self._pass)
        return self._columns.get(maturity, [])

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
        self._pass = [passes(i, board_filter) for i in self._info]
        self._columns = None

    # -- sorting ----------------------------------------------------------------------------------------
    @property
    def sort_mode(self) -> str:
        return self._sort

    def set_sort_mode(self, mode: str) -> None:
        """Sort by ``mode`` (one of :data:`SORT_MODES`): one layout change, selections kept."""
        if mode not in SORT_MODES:
            raise ValueError(f"unknown sort mode {mode!r}")
        self._sort = mode
        now = self._clock()
        self._keys = [sort_key(s, mode, now) for s in self._skills]
        self._restore_order()

    def _clock(self) -> int:
        return self._now if self._now is not None else int(time.time() * 1000)

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
        self._columns = None
        new = [self.index(self._row_of[i]) if i in self._row_of else QModelIndex() for i in old_ids]
        self.changePersistentIndexList(old, new)
        self.layoutChanged.emit()

    # -- loading ----------------------------------------------------------------------------------------
    def prepare(self, skills: Sequence[Skill]) -> BoardRows:
        """The rows of ``skills`` for the current sort mode and filter (what a loader job makes)."""
        return BoardRows(skills, self._sort, self._filter, self._now)

    def set_skills(self, skills: Sequence[Skill], rows: BoardRows | None = None) -> list[str]:
        """Merge a fresh list into the model; returns the ids whose row is new or changed.

        ``rows``: the same skills prepared off the GUI thread (:meth:`prepare`); made here when missing
        or made for another sort mode, filter or time.
        """
        if rows is None or not rows.fits(self._sort, self._filter, self._now):
            rows = self.prepare(skills)
        if not self._skills or not rows.skills:
            return self._reset(rows)
        self._remove_gone(rows.row_of)
        changed = self._update_changed(rows)
        changed += self._append_new(rows)
        self._reindex()  # the counts: a grade may have changed in place (each step dropped the columns)
        self._restore_order()
        self.skillsChanged.emit()
        return changed

    def _reset(self, rows: BoardRows) -> list[str]:
        self.beginResetModel()
        # copies of what a merge changes in place later; the rest is replaced, never changed
        self._skills = list(rows.skills)
        self._keys = list(rows.keys)
        self._info = list(rows.infos)
        self._pass = list(rows.passed)
        self._state = dict(rows.shown)
        self._row_of = rows.row_of
        self._row_by_name = rows.row_by_name
        self._counts = dict(rows.counts)
        self._columns = rows.columns
        self.endResetModel()
        self.skillsChanged.emit()
        return [s.id for s in self._skills]

    def _remove_gone(self, fresh: dict[str, int]) -> None:
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
            self._reindex()
            self._columns = None
            self.endRemoveRows()
            row -= 1

    def _update_changed(self, rows: BoardRows) -> list[str]:
        """Update the rows whose skill changed, in place."""
        changed: list[str] = []
        for row, old in enumerate(self._skills):
            i = rows.row_of[old.id]
            key = rows.shown[old.id]
            if self._state.get(old.id) == key:
                continue
            s = rows.skills[i]
            self._skills[row] = s
            self._info[row] = rows.infos[i]
            self._keys[row] = rows.keys[i]
            self._pass[row] = rows.passed[i]
            self._state[s.id] = key
            self._columns = None
            if old.name != s.name:
                self._hist.pop(old.name, None)
                self._reindex()
            idx = self.index(row)
            self.dataChanged.emit(idx, idx, [])
            changed.append(s.id)
        return changed

    def _append_new(self, rows: BoardRows) -> list[str]:
        have = {s.id for s in self._skills}
        added = [i for i, s in enumerate(rows.skills) if s.id not in have]
        if not added:
            return []
        first = len(self._skills)
        self.beginInsertRows(QModelIndex(), first, first + len(added) - 1)
        for i in added:
            s = rows.skills[i]
            self._skills.append(s)
            self._info.append(rows.infos[i])
            self._keys.append(rows.keys[i])
            self._pass.append(rows.passed[i])
            self._state[s.id] = rows.shown[s.id]
        self._reindex()
        self._columns = None
        self.endInsertRows()
        return [rows.skills[i].id for i in added]

    def _reindex(self) -> None:
        self._row_of, self._row_by_name, self._counts = index_rows(self._skills, self._info)

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


class ColumnProxy(KeptRowsProxy):
    """The skills of one grade that pass the shared filter, in the model's (sorted) order: the model's
    :meth:`~SkillBoardModel.column_rows`, read once per change."""

    def __init__(self, source: SkillBoardModel, maturity: str, parent: QObject | None = None):
        super().__init__(parent)
        self.maturity = maturity
        self._src = source
        self.setSourceModel(source)

    def shown_rows(self) -> list[int]:
        return self._src.column_rows(self.maturity)

    def row_key(self, source_row: int) -> str | None:
        return self._src.skill_at(source_row).id if 0 <= source_row < self._src.rowCount() else None

    def source_row_of(self, key: Any) -> int:
        row = self._src.row_of(key)
        return -1 if row is None else row

    def membership_changed(self, first: int, last: int) -> bool:
        src = self._src
        return any(src.accepts(r, self.maturity) != self.is_shown(r) for r in range(first, last + 1))
