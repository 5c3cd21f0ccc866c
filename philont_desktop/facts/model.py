"""The facts table model.

:class:`FactsModel` holds every loaded :class:`~philont_desktop.facts.data.FactRow` with its score and
status at the view time. Sorting is done by the model itself (a Python sort of prepared keys, ~10 ms
for 10,000 rows); :class:`FactsProxy` filters and forwards ``sort()`` to it, because a
``QSortFilterProxyModel`` that sorts calls back into Python for every comparison (seconds for 10,000
rows). Updates after a reload are merged row by row (removed, changed, appended), so selection and
scroll position survive.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from core.jsutil import now_ms
from philont_desktop import humanize
from philont_desktop.facts.columns import (
    C_ACCESSED,
    C_CONFIDENCE,
    C_CREATED,
    C_CROSSES,
    C_KEY,
    C_KIND,
    C_NAMESPACE,
    C_OCCURRED,
    C_SCORE,
    C_STATUS,
    C_TAU,
    C_TAU_SOURCE,
    C_VALID_FROM,
    C_VALID_UNTIL,
    C_VALUE,
    N_COLUMNS,
    SORT_KEYS,
    FactsFilter,
)
from philont_desktop.facts.data import (
    DAY_MS,
    FORGOTTEN,
    SUPERSEDED,
    THRESHOLD,
    FactRow,
    FactsData,
    ranges,
    row_score,
    score_rows,
    status_at,
)
from philont_desktop.facts.text import (
    fmt_number,
    fmt_score,
    fmt_tau,
    fmt_time,
    fmt_when,
    kind_text,
    namespace_tau_text,
    never_text,
    status_text,
    with_pin,
)
from philont_desktop.humanize import exact_number
from philont_desktop.qt import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from philont_desktop.retranslate import on_language_changed
from philont_desktop.widgets import plain

FactRole = Qt.ItemDataRole.UserRole + 1
IdRole = Qt.ItemDataRole.UserRole + 2
SortRole = Qt.ItemDataRole.UserRole + 3
ScoreRole = Qt.ItemDataRole.UserRole + 4  # the score as a number, for the bar painted in its cell
_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_ALIGN = int(Qt.ItemDataRole.TextAlignmentRole)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
_SORT, _SCORE, _FACT, _ID = int(SortRole), int(ScoreRole), int(FactRole), int(IdRole)
#: The roles ``data()`` answers; a view asks for about seven roles of every cell it paints, so the
#: others are turned away before any other work (a repaint of the table is a thousand calls).
ANSWERED_ROLES = frozenset({_DISPLAY, _TOOLTIP, _ALIGN, _FOREGROUND, _SORT, _SCORE, _FACT, _ID})
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_NUMBER_COLUMNS = frozenset({C_CONFIDENCE, C_TAU, C_SCORE})
RELATIVE_MS = 60_000  # how far the clock moves before the relative times are written again
CHANGE_BLOCK = 64  # rows per dataChanged of the score column at a new view time
_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_NO_FLAGS = Qt.ItemFlag.NoItemFlags
_TIME_FIELDS = {
    C_OCCURRED: "occurred_at",
    C_VALID_FROM: "valid_from",
    C_VALID_UNTIL: "valid_until",
    C_CREATED: "created_at",
    C_ACCESSED: "last_accessed_at",
}


#: The stored columns each view column shows: a damaged one puts the marker in front (core.damage).
_STORED_COLUMNS = {
    C_NAMESPACE: ("namespace",),
    C_KEY: ("key",),
    C_VALUE: ("value_json",),
    C_CONFIDENCE: ("confidence",),
    C_KIND: ("fact_kind",),
    C_TAU: ("decay_tau_days",),
    C_SCORE: ("confidence", "created_at", "last_accessed_at"),
    **{c: (name,) for c, name in _TIME_FIELDS.items()},
}

#: The text columns sort case-insensitively.
_TEXT_SORT = {
    C_NAMESPACE: lambda r: r.fact.namespace.casefold(),
    C_KEY: lambda r: r.fact.key.casefold(),
    C_VALUE: lambda r: r.value_text.casefold(),
}


class FactsModel(QAbstractTableModel):
    """Every loaded fact row; scores and status at :attr:`view_time`."""

    def headers(self) -> tuple[str, ...]:
        """The column titles in the current language (made once per language: a view asks for a title
        at every paint of the header, and the table's paint asks for all of them)."""
        if self._headers is None:
            self._headers = self._make_headers()
        return self._headers

    def _make_headers(self) -> tuple[str, ...]:
        h = {
            C_NAMESPACE: self.tr("Namespace"),
            C_KEY: self.tr("Key"),
            C_VALUE: self.tr("Value"),
            C_CONFIDENCE: self.tr("Confidence"),
            C_KIND: self.tr("Kind"),
            C_OCCURRED: self.tr("Occurred"),
            C_VALID_FROM: self.tr("Valid from"),
            C_VALID_UNTIL: self.tr("Valid until"),
            C_CREATED: self.tr("Created"),
            C_ACCESSED: self.tr("Last accessed"),
            C_TAU: self.tr("Tau"),
            C_TAU_SOURCE: self.tr("Tau from"),
            C_SCORE: self.tr("Score"),
            C_CROSSES: self.tr("Below threshold from"),
            C_STATUS: self.tr("Status"),
        }
        return tuple(h[c] for c in range(N_COLUMNS))

    def __init__(self, theme: Any = None, parent: QObject | None = None):
        super().__init__(parent)
        self._theme = theme
        self._rows: list[FactRow] = []
        self._pos: dict[str, int] = {}
        self.view_time = now_ms()
        self.real_now = self.view_time
        self._texts_now = self.real_now  # the "now" the relative times shown were written for
        self.threshold = THRESHOLD
        self._sort: tuple[int, Qt.SortOrder] | None = None
        self._gen = 0  # bumped whenever rows or their scores change
        self._sorted_gen = -1
        # the texts of the cells but the score, by (fact id, column, status): a drag of the time control
        # repaints the table at every step
        self._display_cache: dict[tuple[str, int, str], str] = {}
        self._headers: tuple[str, ...] | None = None
        on_language_changed(self, self._language_changed)

    def _language_changed(self) -> None:
        self._display_cache.clear()
        self._headers = None

    # -- Qt API ----------------------------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else N_COLUMNS

    def index(
        self,
        row: int,
        column: int,
        parent: QModelIndex | QPersistentModelIndex = QModelIndex(),  # noqa: B008
    ) -> QModelIndex:
        # Qt's own index() asks rowCount() and columnCount(): two calls into Python for every index
        # the proxy maps while a view paints, one here
        if 0 <= row < len(self._rows) and 0 <= column < N_COLUMNS and not parent.isValid():
            return self.createIndex(row, column)
        return QModelIndex()

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < N_COLUMNS:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            if section == C_SCORE and self.view_time != self.real_now:
                days = round((self.view_time - self.real_now) / DAY_MS)
                return self.tr("Score (+{0} d)").format(days)
            return self.headers()[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._header_tip(section)
        return None

    def _header_tip(self, section: int) -> str | None:
        tips = {
            C_TAU: self.tr("Decay time constant in days (∞: never decays)") + "\n" + humanize.tau_help(),
            C_TAU_SOURCE: self.tr("Where tau comes from: the namespace default, a custom value, or a pin"),
            C_SCORE: self.tr(
                "confidence × exp(−age / tau) at the view time; below the threshold = forget candidate"
            ),
            C_CROSSES: self.tr(
                "When the score drops below the forget threshold if the fact is not read again"
            ),
            C_STATUS: self.tr(
                "active, superseded by a newer version, forgotten, or outside its validity window"
            ),
        }
        return tips.get(section)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if role not in ANSWERED_ROLES or not index.isValid():
            return None
        return self.value(self._rows[index.row()], index.column(), role)

    def value(self, r: FactRow, c: int, role: int) -> Any:
        """What ``data()`` answers for ``role`` of row ``r``'s column ``c`` (a role of :data:`ANSWERED_ROLES`)."""
        if role == _DISPLAY:
            if c == C_SCORE:
                return self._shown(r, c)
            key = (r.fid, c, r.status)  # the status and the crossing's "never" follow the status
            text = self._display_cache.get(key)
            if text is None:
                text = self._display_cache[key] = self._shown(r, c)
            return text
        if role == _FOREGROUND:
            return self._foreground(r, c)
        if role == _ALIGN:
            return _RIGHT if c in _NUMBER_COLUMNS else None
        if role == _SORT:
            return self.sort_value(r, c)
        if role == _SCORE:
            return r.score if c == C_SCORE else None
        if role == _FACT:
            return r.fact
        if role == _ID:
            return r.fact.id
        if role == _TOOLTIP:
            tip = "\n".join(t for t in (self._tooltip(r, c), plain.damage_tooltip(r.fact)) if t)
            return plain.tooltip(tip) if tip else None
        return None

    def _shown(self, r: FactRow, c: int) -> str:
        """Stored text as text: controls and direction overrides visible, the damage marker in front."""
        return plain.mark(plain.plain(self.display(r, c), None), r.fact, _STORED_COLUMNS.get(c, ()))

    def _foreground(self, r: FactRow, c: int) -> Any:
        if self._theme is None:
            return None
        if r.status in ("superseded", "forgotten"):
            return self._theme.muted_text()
        if c == C_SCORE and r.score < self.threshold and r.tau_src != "pinned":
            return self._theme.status_color("error")
        if c == C_CONFIDENCE and not r.fact.confidence_valid:
            return self._theme.status_color("error")
        return None

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        return _FLAGS if index.isValid() else _NO_FLAGS

    # -- texts -----------------------------------------------------------------------------------------
    def status_text(self, status: str) -> str:
        return status_text(status)

    def tau_source_text(self, src: str, ns: str) -> str:
        if src == "pinned":
            return self.tr("pinned")
        if src == "custom":
            return self.tr("custom")
        return self.tr("namespace default")

    def display(self, r: FactRow, c: int) -> str:
        f = r.fact
        if c == C_NAMESPACE:
            return f.namespace
        if c == C_KEY:
            return f.key
        if c == C_VALUE:
            return r.value_text
        if c == C_CONFIDENCE:
            return fmt_number(f.confidence)
        if c == C_KIND:
            return kind_text(f.fact_kind)
        if c in _TIME_FIELDS:
            return fmt_when(getattr(f, _TIME_FIELDS[c]), self.real_now)
        if c == C_TAU:
            return humanize.days(r.tau_eff)
        if c == C_TAU_SOURCE:
            return self.tau_source_text(r.tau_src, f.namespace)
        if c == C_SCORE:
            return fmt_score(r.score)
        if c == C_CROSSES:
            if r.crossing is None:
                return never_text(r.status, r.tau_src == "pinned")
            return fmt_when(r.crossing, self.real_now)
        if c == C_STATUS:  # the pin is seen in the default columns (τ and its source are to the right)
            return with_pin(self.status_text(r.status), r.tau_src == "pinned")
        return ""

    def sort_value(self, r: FactRow, c: int) -> Any:
        key = SORT_KEYS.get(c)
        return key(r) if key is not None else None

    def _tooltip(self, r: FactRow, c: int) -> str | None:
        f = r.fact
        if c == C_VALUE:
            text = r.value_full
            if f.json_errors:
                text = self.tr("Not valid JSON; shown as stored:") + "\n" + text
            return text
        if c in (C_TAU, C_TAU_SOURCE, C_STATUS, C_CROSSES) and r.tau_src == "pinned":
            return self.tr("Pinned: never decays and never enters the forget pool")
        if c in (C_TAU, C_TAU_SOURCE):
            if r.tau_src == "pinned":
                return self.tr("Pinned: never decays and never enters the forget pool")
            if r.tau_src == "custom":
                return self.tr("Custom tau {0} (namespace default: {1})").format(
                    fmt_tau(r.tau_eff), namespace_tau_text(f.namespace)
                )
            if math.isinf(r.tau_eff):
                return self.tr("user.* facts never decay")
            return self.tr("Default of namespace root '{0}'").format(f.namespace.split(".", 1)[0])
        if c == C_SCORE:
            return self.tr("Score at {0}: {1}").format(fmt_time(self.view_time), exact_number(r.score))
        if c == C_CROSSES and r.crossing is not None:
            return fmt_time(r.crossing, seconds=True)
        if c in _TIME_FIELDS:
            return fmt_time(getattr(f, _TIME_FIELDS[c]), seconds=True) or None
        if c == C_CONFIDENCE:
            exact = exact_number(f.confidence)
            if not f.confidence_valid:
                return self.tr("Confidence outside 0…1 as stored") + f": {exact}"
            return exact
        if c in (C_NAMESPACE, C_KEY):
            return r.name
        return None

    # -- access -------------------------------------------------------------------------------------------
    def rows(self) -> list[FactRow]:
        return self._rows

    def row(self, i: int) -> FactRow:
        return self._rows[i]

    def row_of(self, fact_id: str) -> int:
        return self._pos.get(fact_id, -1)

    def find(self, fact_id: str) -> int:
        """The row of ``fact_id`` (``-1``: none), also while rows are being removed or added."""
        i = self._pos.get(fact_id, -1)
        if 0 <= i < len(self._rows) and self._rows[i].fid == fact_id:
            return i
        return next((k for k, r in enumerate(self._rows) if r.fid == fact_id), -1)

    def fact_row(self, fact_id: str) -> FactRow | None:
        i = self._pos.get(fact_id, -1)
        return self._rows[i] if i >= 0 else None

    def ids(self) -> list[str]:
        return [r.fact.id for r in self._rows]

    # -- loading ---------------------------------------------------------------------------------------------
    def _score_rows(self, rows: Iterable[FactRow]) -> None:
        t = self.view_time
        for r in rows:
            r.score = row_score(r, t)
            r.status = status_at(r.fact, t)

    def set_data(self, data: FactsData) -> bool:
        """Merge a fresh load: removed rows go, changed rows update in place, new rows are appended.

        Returns whether rows changed in place (a filtering proxy should then filter again)."""
        self._gen += 1
        self._display_cache.clear()
        self._texts_now = self.real_now
        new = data.rows
        fresh = data.scored_at is not None and data.scored_at == self.view_time
        if not self._rows:
            self.beginResetModel()
            self._rows = list(new)
            if not fresh:
                self._score_rows(self._rows)
            order = self._sorted_order()
            if order is not None:
                self._rows = [self._rows[i] for i in order]
            self._reindex()
            self.endResetModel()
            return False
        new_by_id = {r.fact.id: r for r in new}
        gone = [i for i, r in enumerate(self._rows) if r.fact.id not in new_by_id]
        for start, end in reversed(ranges(gone)):
            self.beginRemoveRows(QModelIndex(), start, end)
            del self._rows[start : end + 1]
            self.endRemoveRows()
        changed: list[int] = []
        for i, r in enumerate(self._rows):
            n = new_by_id[r.fact.id]
            if n.sig != r.sig:
                self._rows[i] = n
                changed.append(i)
            else:
                r.order = n.order
                if fresh:
                    r.score, r.status = n.score, n.status
        if not fresh:
            self._score_rows(self._rows[i] for i in changed)
        elif self._rows:
            self.dataChanged.emit(self.index(0, C_SCORE), self.index(len(self._rows) - 1, C_CROSSES))
        for start, end in ranges(changed):
            self.dataChanged.emit(self.index(start, 0), self.index(end, N_COLUMNS - 1))
        present = {r.fact.id for r in self._rows}
        added = [r for r in new if r.fact.id not in present]
        if added:
            if not fresh:
                self._score_rows(added)
            n0 = len(self._rows)
            self.beginInsertRows(QModelIndex(), n0, n0 + len(added) - 1)
            self._rows.extend(added)
            self.endInsertRows()
        self._reindex()
        if (
            gone
            or changed
            or added
            or (fresh and self._sort is not None and self._sort[0] in (C_SCORE, C_STATUS))
        ):
            self._resort()
        return bool(changed)

    def clear(self) -> None:
        self.beginResetModel()
        self._rows = []
        self._pos = {}
        self._display_cache.clear()
        self.endResetModel()

    def _reindex(self) -> None:
        self._pos = {r.fid: i for i, r in enumerate(self._rows)}

    def set_view_time(self, at: int, real_now: int | None = None) -> None:
        """Scores and status at ``at`` (the time control); ``real_now`` for relative texts.

        Only the score column changes for every row; the status (and the crossing's "never") only for
        the rows whose status moved, and the relative times only when ``real_now`` moved: the view
        repaints those cells, not the whole table, at every step of a drag.
        """
        self._gen += 1
        was_ahead = self.view_time != self.real_now
        self.view_time = int(at)
        # "3 days ago" does not change in a few milliseconds: the clock read at each step of a drag
        # moves the relative times only when it has moved a minute since they were written
        moved_now = real_now is not None and abs(int(real_now) - self._texts_now) >= RELATIVE_MS
        if real_now is not None:
            self.real_now = int(real_now)
        if moved_now:
            self._texts_now = self.real_now
            self._display_cache.clear()  # relative times ("3 days ago")
        rows = self._rows
        if not rows:
            return
        score_rows(rows, self.view_time)
        moved: list[int] = []
        for i, r in enumerate(rows):
            if r.windowed:
                status = status_at(r.fact, self.view_time)
                if status != r.status:
                    r.status = status
                    moved.append(i)
        last = len(rows) - 1
        if moved_now:
            self.dataChanged.emit(self.index(0, C_SCORE), self.index(last, C_CROSSES))
        else:
            # in blocks: Qt repaints the whole table for a change of more than about a hundred rows,
            # and only the cells shown of a smaller one
            for start in range(0, last + 1, CHANGE_BLOCK):
                end = min(start + CHANGE_BLOCK - 1, last)
                self.dataChanged.emit(self.index(start, C_SCORE), self.index(end, C_SCORE))
            for start, end in ranges(moved):
                self.dataChanged.emit(self.index(start, 0), self.index(end, N_COLUMNS - 1))
        if was_ahead != (self.view_time != self.real_now):
            # "Score" ↔ "Score (+N d)". Not at every step: a header that changes its data makes the
            # table repaint every cell; the tab repaints the score's header section instead
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, C_SCORE, C_SCORE)
        if self._sort is not None and self._sort[0] in (C_SCORE, C_STATUS, C_CROSSES):
            self._resort()

    # -- sorting ------------------------------------------------------------------------------------------------
    @property
    def sort_state(self) -> tuple[int, Qt.SortOrder] | None:
        return self._sort

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < N_COLUMNS:
            self._sort = None
            return
        if self._sort == (column, order) and self._sorted_gen == self._gen:
            return  # QTableView.sortByColumn asks twice (directly and through the header's signal)
        self._sort = (column, order)
        self._resort()

    def _sorted_order(self) -> list[int] | None:
        """The row order of the current sort (``None``: no sort, or already in order)."""
        if self._sort is None or not self._rows:
            return None
        column, order = self._sort
        desc = order == Qt.SortOrder.DescendingOrder
        keyed: list[tuple[Any, int, int]] = []
        missing: list[int] = []
        text = _TEXT_SORT.get(column)
        if text is not None:
            keyed = [(text(r), r.order, i) for i, r in enumerate(self._rows)]
        else:
            key = SORT_KEYS[column]
            for i, r in enumerate(self._rows):
                v = key(r)
                if v is None or v != v:  # None and NaN go last
                    missing.append(i)
                else:
                    keyed.append((v, r.order, i))
        keyed.sort(reverse=desc)
        missing.sort(key=lambda i: self._rows[i].order)
        new_order = [t[2] for t in keyed] + missing
        if new_order == list(range(len(self._rows))):
            return None
        return new_order

    def _resort(self) -> None:
        self._sorted_gen = self._gen
        new_order = self._sorted_order()
        if new_order is None:
            return
        self.layoutAboutToBeChanged.emit()
        old_pers = self.persistentIndexList()
        inv = [0] * len(new_order)
        for new_pos, old_pos in enumerate(new_order):
            inv[old_pos] = new_pos
        self._rows = [self._rows[i] for i in new_order]
        self._reindex()
        self.changePersistentIndexList(old_pers, [self.index(inv[p.row()], p.column()) for p in old_pers])
        self.layoutChanged.emit()

    # -- filtering ------------------------------------------------------------------------------------------------
    def accepted(self, flt: FactsFilter) -> list[bool]:
        """:meth:`accepts` of every row, in row order, one condition at a time over all rows (a filter
        change asks for all rows; the value text is searched only in the rows the other conditions keep)."""
        rows = self._rows
        hide = (0 if flt.show_superseded else SUPERSEDED) | (0 if flt.show_forgotten else FORGOTTEN)
        keep = [not r.hidden & hide for r in rows] if hide else [True] * len(rows)
        ids = flt.ids
        if ids is not None:
            keep = [k and r.fid in ids for k, r in zip(keep, rows, strict=True)]
        ns = flt.namespace
        if ns is not None:
            under = ns + "."
            keep = [
                k and ((n := r.fact.namespace) == ns or n.startswith(under))
                for k, r in zip(keep, rows, strict=True)
            ]
        text = flt.text
        if text:
            keep = [k and text in r.search for k, r in zip(keep, rows, strict=True)]
        test, c = flt.compiled, flt.column
        if test is not None and c is not None:
            keep = [
                k and bool(test(self.sort_value(r, c), self.display(r, c)))
                for k, r in zip(keep, rows, strict=True)
            ]
        return keep

    def accepts(self, i: int, flt: FactsFilter) -> bool:
        return self._accepts(self._rows[i], flt)

    def _accepts(self, r: FactRow, flt: FactsFilter) -> bool:
        f = r.fact
        if f.superseded_by is not None and not flt.show_superseded:
            return False
        if f.forgotten_at is not None and not flt.show_forgotten:
            return False
        if flt.ids is not None and f.id not in flt.ids:
            return False
        ns = flt.namespace
        if ns is not None and f.namespace != ns and not f.namespace.startswith(ns + "."):
            return False
        if flt.text and flt.text not in r.search:
            return False
        test = flt.compiled
        if test is not None and flt.column is not None:
            c = flt.column
            return test(self.sort_value(r, c), self.display(r, c))
        return True
