"""Data of the Skills tab: loaders run by the worker layer, the ladder replay, and the board's Qt models.

* Loaders (``fn(db, ...)`` for ``ctx.run``; core APIs only): :func:`load_board` (every skill),
  :func:`load_histories` (recent linked outcomes of some skills, for the card sparklines, asked for only
  when a card is painted) and :func:`load_detail` (one skill with its whole outcome history, revision
  windows and ladder replay).
* :func:`build_ladder` (from :mod:`core.ladder`, shared with the change set): the linked actions in time
  order replayed through :mod:`core.maturity` from ``draft`` with zero counters, each revision of the
  recipe resetting the grade to ``draft``; the database's grade may differ, and the view shows both.
* :class:`SkillBoardModel`: one list model of all skills (kept in ``rowid`` order and merged on refresh so
  that selections and scroll positions survive), with precomputed filter text and sort keys;
  :class:`ColumnProxy`: one per maturity column, filtering by grade and the shared :class:`BoardFilter`,
  sorting by the model's keys.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from core.curation.skills import skill_version
from core.ladder import Ladder, LadderStep, build_ladder
from core.maturity import Explanation, explain_maturity
from core.models import MATURITIES, Skill
from core.skills import OutcomePoint, RevisionWindow, SkillStore, score_skill
from philont_desktop.core_strings import maturity_caveat
from philont_desktop.qt import (
    QAbstractListModel,
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    QTimer,
    Signal,
)

__all__ = [
    "BOARD_COLUMNS",
    "HISTORY_LENGTH",
    "SORT_MODES",
    "BoardFilter",
    "ColumnProxy",
    "LadderModel",
    "LadderStep",
    "SkillBoardModel",
    "SkillDetail",
    "build_ladder",
    "load_board",
    "load_detail",
    "load_histories",
    "source_class",
]

#: The board's columns, in ladder order (playbook first: a lesson that is not callable).
BOARD_COLUMNS: tuple[str, ...] = ("playbook", "draft", "confirmed", "stable", "deprecated")
assert set(BOARD_COLUMNS) == set(MATURITIES)
#: Outcomes shown in a card's sparkline (the newest ones).
HISTORY_LENGTH = 24
SORT_MODES: tuple[str, ...] = ("name", "uses", "recent", "successes", "failures", "score", "newest")

Invalid = QModelIndex | QPersistentModelIndex


# ---------------------------------------------------------------------------------------------------
# Loaders (worker threads)
# ---------------------------------------------------------------------------------------------------


def load_board(db: Any) -> list[Skill]:
    """Every skill, deprecated included, in rowid order."""
    return SkillStore(db).list_every()


def load_histories(
    db: Any, names: Sequence[str], limit: int = HISTORY_LENGTH, job: Any = None
) -> dict[str, list[bool]]:
    """The newest ``limit`` linked outcomes (oldest first) of each skill in ``names``."""
    store = SkillStore(db)
    out: dict[str, list[bool]] = {}
    for name in names:
        if job is not None and job.cancelled:
            break
        out[name] = [p.success for p in store.outcome_history(name, limit)]
    return out


@dataclass
class SkillDetail:
    """Everything the detail pane shows about one skill."""

    skill: Skill
    version: str
    explanation: Explanation
    outcomes: list[OutcomePoint]
    windows: list[RevisionWindow]
    ladder: Ladder
    loaded_at: int = 0


def load_detail(db: Any, name: str) -> SkillDetail | None:
    store = SkillStore(db)
    skill = store.get_by_name(name)
    if skill is None:
        return None
    outcomes = store.outcome_history(name)
    windows = store.revision_outcomes(name)
    return SkillDetail(
        skill=skill,
        version=skill_version(skill),
        explanation=explain_maturity(
            skill.maturity, skill.success_count, skill.failure_count, skill.consecutive_failures
        ),
        outcomes=outcomes,
        windows=windows,
        ladder=build_ladder(skill, outcomes),
        loaded_at=int(time.time() * 1000),
    )


# ---------------------------------------------------------------------------------------------------
# Board model
# ---------------------------------------------------------------------------------------------------


def source_class(skill: Skill) -> str:
    """``self`` (learned by the agent: ``self:…``), ``external`` (imported, or from disk) or ``none``."""
    src = skill.source or ""
    if src.startswith("self:"):
        return "self"
    if src or skill.from_disk:
        return "external"
    return "none"


@dataclass
class BoardFilter:
    """The filter shared by the five columns."""

    text: str = ""
    kind: str = "all"  # all | positive | negative
    source: str = "all"  # all | self | external | none
    recipes_only: bool = False
    _terms: list[str] = field(default_factory=list, repr=False)

    def set_text(self, text: str) -> None:
        self.text = text
        self._terms = [t for t in text.casefold().split() if t]

    @property
    def terms(self) -> list[str]:
        return self._terms

    @property
    def active(self) -> bool:
        return bool(self._terms) or self.kind != "all" or self.source != "all" or self.recipes_only


class _RowInfo(NamedTuple):
    maturity: str
    kind: str
    source: str
    recipe: bool
    blob: str  # casefolded name, description, when to use, keywords, source


def _info(s: Skill) -> _RowInfo:
    kws = " ".join(str(k) for k in s.trigger_keywords)
    blob = "\n".join((s.name, s.description, s.when_to_use, kws, s.source or "")).casefold()
    return _RowInfo(s.maturity, s.kind, source_class(s), s.is_recipe, blob)


def _state_key(s: Skill) -> tuple[Any, ...]:
    """What the board shows of a skill: a changed key means the row is updated."""
    last = s.revision_history[-1].at if s.revision_history else None
    return (
        s.name,
        s.description,
        s.trigger_keywords_json,
        s.action_template,
        s.kind,
        s.source,
        s.when_to_use,
        s.maturity_raw,
        s.maturity,
        s.verification,
        s.tool_policy,
        len(s.revision_history),
        last,
        s.use_count,
        s.last_used_at,
        s.success_count,
        s.failure_count,
        s.consecutive_failures,
        s.offered_count,
        s.matched_count,
        s.from_disk,
        s.rowid,
    )


def _passes(info: _RowInfo, f: BoardFilter) -> bool:
    if f.kind != "all" and info.kind != f.kind:
        return False
    if f.source != "all" and info.source != f.source:
        return False
    if f.recipes_only and not info.recipe:
        return False
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
        self._request_timer = QTimer(self)
        self._request_timer.setSingleShot(True)
        self._request_timer.setInterval(0)
        self._request_timer.timeout.connect(self._emit_requests)

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
            return s.name
        if role == self.HistoryRole:
            return self.history(s.name)
        if role == self.IdRole:
            return s.id
        if role == self.MaturityRole:
            return s.maturity
        if role == Qt.ItemDataRole.ToolTipRole:
            text = s.description if len(s.description) <= 400 else s.description[:400] + "…"
            return f"{s.name}\n{maturity_caveat(s.maturity)}\n\n{text}"
        return None

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
            self.beginResetModel()
            keyed = sorted(((self._key(s), s) for s in skills), key=lambda ks: ks[0])
            self._skills = [s for _, s in keyed]
            self._keys = [k for k, _ in keyed]
            self._info = [_info(s) for s in self._skills]
            self._pass = [_passes(i, self._filter) for i in self._info]
            self._state = {s.id: _state_key(s) for s in self._skills}
            self._reindex()
            self.endResetModel()
            self.skillsChanged.emit()
            return [s.id for s in self._skills]
        fresh = {s.id: s for s in skills}
        # 1. removals: contiguous runs, bottom up
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
        # 2. updates in place
        changed: list[str] = []
        for row, old in enumerate(self._skills):
            s = fresh[old.id]
            key = _state_key(s)
            if self._state.get(s.id) == key:
                continue
            self._skills[row] = s
            self._info[row] = _info(s)
            self._keys[row] = self._key(s)
            self._pass[row] = _passes(self._info[row], self._filter)
            self._state[s.id] = key
            if old.name != s.name:
                self._hist.pop(old.name, None)
            idx = self.index(row)
            self.dataChanged.emit(idx, idx, [])
            changed.append(s.id)
        # 3. new rows, appended
        have = {s.id for s in self._skills}
        added = [s for s in skills if s.id not in have]
        if added:
            first = len(self._skills)
            self.beginInsertRows(QModelIndex(), first, first + len(added) - 1)
            for s in added:
                info = _info(s)
                self._skills.append(s)
                self._info.append(info)
                self._keys.append(self._key(s))
                self._pass.append(_passes(info, self._filter))
                self._state[s.id] = _state_key(s)
            self.endInsertRows()
            changed.extend(s.id for s in added)
        self._reindex()
        # 4. the sort order
        self._restore_order()
        self.skillsChanged.emit()
        return changed

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


# ---------------------------------------------------------------------------------------------------
# Ladder table
# ---------------------------------------------------------------------------------------------------


class LadderModel(QAbstractTableModel):
    """Ladder steps (grade changes and revisions, or every step) for a table view."""

    COLUMNS = ("when", "event", "outcome", "counts", "grade")
    StepRole = Qt.ItemDataRole.UserRole + 1

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._steps: list[LadderStep] = []
        self.time_format = lambda ms: str(ms)
        self.grade_name = lambda m: m

    def set_steps(self, steps: Sequence[LadderStep]) -> None:
        self.beginResetModel()
        self._steps = list(steps)
        self.endResetModel()

    @property
    def steps(self) -> list[LadderStep]:
        return list(self._steps)

    def rowCount(self, parent: Invalid = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._steps)

    def columnCount(self, parent: Invalid = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if role != Qt.ItemDataRole.DisplayRole or orientation != Qt.Orientation.Horizontal:
            return None
        if not 0 <= section < len(self.COLUMNS):
            return None
        return (self.tr("When"), self.tr("Event"), self.tr("Outcome"), self.tr("After it"), self.tr("Grade"))[
            section
        ]

    def data(self, index: Invalid, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._steps):
            return None
        st = self._steps[index.row()]
        if role == self.StepRole:
            return st
        col = self.COLUMNS[index.column()] if 0 <= index.column() < len(self.COLUMNS) else ""
        if role == Qt.ItemDataRole.DisplayRole:
            if col == "when":
                return self.time_format(st.at)
            if col == "event":
                if st.kind == "revision":
                    return (
                        self.tr("recipe revised: {0}").format(st.reason)
                        if st.reason
                        else self.tr("recipe revised")
                    )
                return self.tr("{0} (action #{1})").format(st.tool, st.action_id)
            if col == "outcome":
                if st.kind == "revision":
                    return self.tr("back to draft")
                return self.tr("success") if st.success else self.tr("failure")
            if col == "counts":
                return self.tr("{0} ✓ · {1} ✗ · {2} in a row").format(
                    st.success_count, st.failure_count, st.consecutive_failures
                )
            if col == "grade":
                if st.before == st.after:
                    return self.grade_name(st.after)
                return f"{self.grade_name(st.before)} → {self.grade_name(st.after)}"
        if role == Qt.ItemDataRole.ToolTipRole and col == "event" and st.reason:
            return st.reason
        return None
