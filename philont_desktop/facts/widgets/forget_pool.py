"""The forget pool: active, unpinned facts scoring below the threshold at the view time, lowest first."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from core.decay import effective_tau, forget_crossing_time, score_memory
from core.models import Fact
from philont_desktop.facts.data import readable_value
from philont_desktop.facts.text import fmt_number, fmt_relative, fmt_score, fmt_tau, fmt_time
from philont_desktop.qt import (
    QGridLayout,
    QItemSelection,
    QItemSelectionModel,
    QLabel,
    QObject,
    QPushButton,
    Qt,
    QTableView,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.widgets.rows_model import KeyedRowsModel
from philont_desktop.widgets.table import setup_table

TIME_SAMPLE = "2026-06-15 12:00"
#: The stored columns each pool column shows (a damaged one is marked).
_POOL_COLUMNS = {
    0: ("namespace", "key"),
    1: ("value_json",),
    2: ("confidence", "created_at", "last_accessed_at"),
    4: ("last_accessed_at",),
    5: ("decay_tau_days",),
}


def _score(f: Fact, at: int) -> float:
    return score_memory(f.namespace, f.confidence, f.created_at, f.last_accessed_at, f.decay_tau_days, at)


@dataclass(frozen=True)
class PoolRow:
    """A candidate; its crossing time and value text are computed when first shown (the pool is
    rebuilt at every step of the time control, and only the rows on screen are ever looked at)."""

    fact: Fact
    score: float

    @cached_property
    def crossing(self) -> int | None:
        f = self.fact
        return forget_crossing_time(
            f.namespace, f.confidence, f.created_at, f.last_accessed_at, f.decay_tau_days
        )

    @cached_property
    def value(self) -> str:
        return readable_value(self.fact)[0]

    @property
    def id(self) -> str:
        return self.fact.id

    @property
    def damaged(self) -> Any:
        return self.fact.damaged  # what is unreadable in the fact (core.damage), marked in its cells


class PoolModel(KeyedRowsModel):
    """Forget candidates (score below the threshold, not pinned) at a time, lowest score first."""

    N_COLUMNS = 6

    def __init__(self, theme: Any = None, parent: QObject | None = None):
        super().__init__(parent)
        self._theme = theme
        self.at = 0
        self.real_now = 0

    def headers(self) -> list[str]:
        return [
            self.tr("Fact"),
            self.tr("Value"),
            self.tr("Score"),
            self.tr("Below threshold from"),
            self.tr("Last accessed"),
            self.tr("Tau"),
        ]

    def set_candidates(self, cands: list[tuple[Fact, float]], at: int, real_now: int) -> None:
        self.at, self.real_now = at, real_now
        self.set_rows([PoolRow(f, s) for f, s in cands])

    def fact(self, row: int) -> Fact:
        return self._rows[row].fact

    def score(self, row: int) -> float:
        return self._rows[row].score

    def facts(self) -> list[Fact]:
        return [r.fact for r in self._rows]

    def display(self, r: PoolRow, column: int) -> str:
        f = r.fact
        if column == 0:
            return f"{f.namespace}.{f.key}"
        if column == 1:
            return r.value
        if column == 2:
            return fmt_score(r.score)
        if column == 3:
            if r.crossing is None:
                return ""
            return f"{fmt_time(r.crossing)} · {fmt_relative(r.crossing, self.real_now)}"
        if column == 4:
            return fmt_time(f.last_accessed_at)
        if column == 5:
            return fmt_tau(effective_tau(f.namespace, f.decay_tau_days))
        return ""

    def damage_columns(self, column: int) -> tuple[str, ...]:
        return _POOL_COLUMNS.get(column, ())

    def _future(self, r: PoolRow) -> bool:
        return r.crossing is not None and r.crossing > self.real_now

    def tooltip(self, r: PoolRow, column: int) -> str | None:
        if column == 3 and self._future(r):
            return self.tr("Not a candidate yet: it falls below the threshold at the chosen future time")
        return None

    def foreground(self, r: PoolRow, column: int) -> Any:
        if column == 3 and self._future(r) and self._theme is not None:
            return self._theme.status_color("changed")
        return None

    def alignment(self, column: int) -> Any:
        if column in (2, 5):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class ForgetPool(QWidget):
    """The pool's table with what it means, and its actions (pin / forget: editing mode only)."""

    pinRequested = Signal(list)  # facts
    forgetRequested = Signal(list)  # facts
    forgetAllRequested = Signal()
    showRequested = Signal(list)  # fact ids to select in the table

    def __init__(self, theme: Any, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = PoolModel(theme, self)
        self.label = QLabel(self)
        self.label.setObjectName("poolLabel")
        self.label.setWordWrap(True)
        fm = self.fontMetrics()
        crossing = fm.horizontalAdvance(TIME_SAMPLE + " · in 365 d") + 24
        self.view = setup_table(
            QTableView(self),
            self.model,
            name="forgetPool",
            widths={0: 200, 1: 280, 2: 90, 3: crossing, 4: TIME_SAMPLE},
            stretch_last=True,
            multi=True,
        )
        self.view.doubleClicked.connect(lambda *_: self._show())
        self.pin_btn = self._button(
            self.tr("Pin"), "poolPin", lambda: self.pinRequested.emit(self.selected())
        )
        self.forget_btn = self._button(
            self.tr("Forget selected…"), "poolForget", lambda: self.forgetRequested.emit(self.selected())
        )
        self.forget_all_btn = self._button(
            self.tr("Forget all candidates…"), "poolForgetAll", self.forgetAllRequested.emit
        )
        self.show_btn = self._button(self.tr("Show in table"), "poolShow", self._show)
        self.buttons = QGridLayout()
        self.buttons.setColumnStretch(1, 1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.label)
        lay.addWidget(self.view, 1)
        lay.addLayout(self.buttons)
        self.place_buttons(False)

    def place_buttons(self, narrow: bool) -> None:
        """One row; two where the pool is narrow (large text), the forget buttons on the second."""
        row = ((0, 0), (0, 2), (0, 3), (0, 4))
        two = ((0, 0), (0, 2), (1, 0), (1, 2))
        for b, at in zip(
            (self.show_btn, self.pin_btn, self.forget_btn, self.forget_all_btn),
            two if narrow else row,
            strict=True,
        ):
            self.buttons.removeWidget(b)  # moved, not added twice
            self.buttons.addWidget(b, *at)

    def _button(self, text: str, name: str, slot: Any) -> QPushButton:
        b = QPushButton(text, self)
        b.setObjectName(name)
        b.clicked.connect(lambda *_: slot())
        return b

    def selected(self) -> list[Fact]:
        return [self.model.fact(i.row()) for i in sorted(self.view.selectionModel().selectedRows())]

    def _show(self) -> None:
        facts = self.selected()
        if facts:
            self.showRequested.emit([f.id for f in facts])

    def set_candidates(
        self,
        cands: list[tuple[Fact, float]],
        at: int,
        real_now: int,
        offset_days: int,
        threshold: float,
        now_count: int | None = None,
    ) -> None:
        """Show ``cands`` (the pool at ``at``), keeping the selected facts selected; ``now_count``: how
        many of them are candidates at ``real_now`` (counted here when not given)."""
        selected = {f.id for f in self.selected()}
        self.model.set_candidates(cands, at, real_now)
        if selected:
            sel = QItemSelection()
            last = self.model.N_COLUMNS - 1
            for r, f in enumerate(self.model.facts()):
                if f.id in selected:
                    sel.select(self.model.index(r, 0), self.model.index(r, last))
            self.view.selectionModel().select(sel, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        self.label.setText(self._summary(cands, at, offset_days, threshold, now_count))

    def _summary(
        self,
        cands: list[tuple[Fact, float]],
        at: int,
        offset_days: int,
        threshold: float,
        now_count: int | None = None,
    ) -> str:
        n = len(cands)
        if offset_days:
            now = self.model.real_now
            if now_count is None:
                now_count = sum(1 for f, _s in cands if _score(f, now) < threshold)
            return self.tr(
                "At {0} (+{1} d): {2} forget candidates (score below {3}, not pinned); {4} of them are candidates now."
            ).format(fmt_time(at), offset_days, n, fmt_number(threshold, 4), now_count)
        return self.tr(
            "{0} forget candidates now: active facts scoring below {1} that are not pinned."
        ).format(n, fmt_number(threshold, 4))

    def set_editing(self, on: bool) -> None:
        for b in (self.pin_btn, self.forget_btn, self.forget_all_btn):
            b.setVisible(on)
        self.update_actions(on)

    def update_actions(self, editing: bool) -> None:
        has = self.model.rowCount() > 0
        for b in (self.pin_btn, self.forget_btn, self.forget_all_btn):
            b.setEnabled(editing and has)
