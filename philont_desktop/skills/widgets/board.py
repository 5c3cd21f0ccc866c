"""The maturity board: the filter bar over five columns of skill cards.

One :class:`~philont_desktop.skills.model.SkillBoardModel` holds every skill; each column is a
``QListView`` over its own :class:`~philont_desktop.skills.model.ColumnProxy` (grade + shared filter +
sort), with uniform item sizes and cards painted by :class:`~.card.CardDelegate`, so thousands of cards
scroll and filter smoothly: only the visible cards are painted, and only they ask for their sparkline.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from core.models import Skill
from philont_desktop.qt import (
    QAbstractItemView,
    QEvent,
    QFrame,
    QHBoxLayout,
    QItemSelectionModel,
    QLabel,
    QListView,
    QModelIndex,
    QPainter,
    QPalette,
    QPoint,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.skills.model import ColumnProxy, SkillBoardModel
from philont_desktop.skills.rows import BoardRows
from philont_desktop.skills.state import BOARD_COLUMNS, BoardFilter
from philont_desktop.skills.widgets.card import CardDelegate
from philont_desktop.skills.widgets.colors import Colors
from philont_desktop.skills.widgets.filter_bar import SkillsFilterBar
from philont_desktop.skills.words import grade_help, grade_name
from philont_desktop.widgets.after_paint import next_turn


class ColumnView(QListView):
    """One grade's cards. Shows a placeholder when empty."""

    def __init__(self, maturity: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.maturity = maturity
        self.placeholder = ""
        self.setObjectName(f"skillsColumn_{maturity}")
        self.setUniformItemSizes(True)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.verticalScrollBar().setSingleStep(24)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setMouseTracking(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setLayoutMode(QListView.LayoutMode.Batched)
        self.setBatchSize(200)

    def paintEvent(self, event: Any) -> None:
        delegate = self.itemDelegate()
        if isinstance(delegate, CardDelegate):
            delegate.painting(self)
        super().paintEvent(event)
        model = self.model()
        if model is not None and model.rowCount() == 0 and self.placeholder:
            p = QPainter(self.viewport())
            p.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
            p.drawText(
                self.viewport().rect().adjusted(8, 16, -8, -8),
                Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap,
                self.placeholder,
            )
            p.end()


class BoardWidget(QWidget):
    """Filter bar and the five columns. Emits the selected skill's id (``""`` when none)."""

    currentSkillChanged = Signal(str)
    contextMenuRequested = Signal(object, QPoint)  # Skill, global position
    skillActivated = Signal(object)  # Skill (double click / Enter)
    historiesNeeded = Signal(list)
    filterChanged = Signal(object)  # BoardFilter, after the user (or set_filter) changed it
    sortChanged = Signal(str)

    def __init__(self, dark: bool = False, parent: QWidget | None = None, *, now: int | None = None):
        super().__init__(parent)
        self.setObjectName("skillsBoard")
        self.model = SkillBoardModel(self, now=now)
        self.model.historiesNeeded.connect(self.historiesNeeded)
        self.filter = BoardFilter()
        self._counts_timer = next_turn(self, self._update_counts)
        self.colors = Colors(dark)
        self.delegate = CardDelegate(self.colors, self)
        self.delegate.now_ms = now
        self._current_id = ""
        self._syncing = False
        self.bar = SkillsFilterBar(self)
        self.bar.filterEdited.connect(self._on_filter_edited)
        self.bar.sortChosen.connect(self.set_sort_mode)
        self.proxies: dict[str, ColumnProxy] = {}
        self.views: dict[str, ColumnView] = {}
        self.headers: dict[str, QLabel] = {}
        cols = QHBoxLayout()
        cols.setContentsMargins(0, 0, 0, 0)
        cols.setSpacing(6)
        for m in BOARD_COLUMNS:
            cols.addLayout(self._make_column(m), 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        layout.addWidget(self.bar)
        layout.addLayout(cols, 1)
        self.model.skillsChanged.connect(self._after_model_change)
        self.apply_colors(dark)
        self._update_counts()

    def _make_column(self, m: str) -> QVBoxLayout:
        proxy = ColumnProxy(self.model, m, self)
        view = ColumnView(m, self)
        view.setModel(proxy)
        view.setItemDelegate(self.delegate)
        view.selectionModel().currentChanged.connect(lambda cur, _prev, m=m: self._on_current(m, cur))
        view.customContextMenuRequested.connect(lambda pos, v=view: self._on_context_menu(v, pos))
        view.doubleClicked.connect(self._emit_activated)
        view.installEventFilter(self)
        header = QLabel(self)
        header.setObjectName(f"skillsHeader_{m}")
        header.setTextFormat(Qt.TextFormat.RichText)
        header.setToolTip(self.grade_help(m))
        lane = QVBoxLayout()
        lane.setContentsMargins(0, 0, 0, 0)
        lane.setSpacing(2)
        lane.addWidget(header)
        lane.addWidget(view, 1)
        self.proxies[m] = proxy
        self.views[m] = view
        self.headers[m] = header
        for signal in (proxy.rowsInserted, proxy.rowsRemoved, proxy.modelReset, proxy.layoutChanged):
            signal.connect(self._counts_timer.start)
        return lane

    # -- the filter bar's parts, by name -------------------------------------------------------------------
    @property
    def search(self):
        return self.bar.search

    @property
    def sort_combo(self):
        return self.bar.sort_combo

    @property
    def summary(self):
        return self.bar.summary

    # -- text ---------------------------------------------------------------------------------------------
    def grade_name(self, maturity: str) -> str:
        return grade_name(maturity)

    def grade_help(self, maturity: str) -> str:
        return grade_help(maturity)

    # -- appearance ---------------------------------------------------------------------------------------
    def apply_colors(self, dark: bool) -> None:
        self.colors = Colors(dark)
        self.delegate.set_colors(self.colors)
        for view in self.views.values():
            pal = view.palette()
            pal.setColor(QPalette.ColorRole.Base, self.colors.lane)
            view.setPalette(pal)
            view.viewport().update()
        self._update_counts()

    # -- filter and sort ------------------------------------------------------------------------------------
    def _on_filter_edited(self, f: BoardFilter) -> None:
        self.apply_filter(f)
        self.filterChanged.emit(f)

    def set_filter(
        self,
        text: str | None = None,
        kind: str | None = None,
        source: str | None = None,
        recipes_only: bool | None = None,
    ) -> None:
        """Change the filter programmatically (the widgets follow; applies at once)."""
        f = self.filter.with_(text=text, kind=kind, source=source, recipes_only=recipes_only)
        self.bar.show_filter(f)
        self._on_filter_edited(f)

    def apply_filter(self, f: BoardFilter) -> None:
        """Show the cards that pass ``f`` (the widgets follow)."""
        self.bar.show_filter(f)
        if f == self.filter:
            return
        self.filter = f
        self.model.set_filter(f)
        with self._quiet():
            for proxy in self.proxies.values():
                proxy.refilter()
        self._update_counts()
        self._reselect()

    def set_sort_mode(self, mode: str) -> None:
        if mode != self.model.sort_mode:
            with self._quiet():
                self.model.set_sort_mode(mode)
            self._reselect()
            self.sortChanged.emit(mode)
        self.bar.show_sort(mode)

    def _update_counts(self, *_: Any) -> None:
        totals = self.model.count_by_maturity()
        shown_all = 0
        for m in BOARD_COLUMNS:
            shown = self.proxies[m].rowCount()
            shown_all += shown
            total = totals.get(m, 0)
            count = str(total) if shown == total else self.tr("{0} of {1}").format(shown, total)
            color = self.colors.grade(m).name()
            self.headers[m].setText(
                f'<span style="color:{color}">●</span> <b>{self.grade_name(m)}</b> '
                f'<span style="color:{self.colors.muted.name()}">{count}</span>'
            )
            view = self.views[m]
            view.placeholder = self.tr("No skill matches the filter.") if total else self.tr("No skills.")
        self.bar.show_count(shown_all, self.model.rowCount())

    def visible_names(self, extra: int = 2) -> list[str]:
        """Names of the cards in view in every column (the first few when not laid out yet)."""
        names: list[str] = []
        card_h = max(1, self.delegate.card_height(self.font()))
        for view in self.views.values():
            proxy = view.model()
            n = proxy.rowCount()
            if not n:
                continue
            top = view.indexAt(QPoint(4, 1))
            first = top.row() if top.isValid() else 0
            count = view.viewport().height() // card_h + extra
            role = self.model.SkillRole  # the stored name (the shown one may carry a damage marker)
            for r in range(first, min(n, first + max(count, 6))):
                skill = proxy.index(r, 0).data(role)
                if skill is not None and skill.name:
                    names.append(skill.name)
        return names

    def set_skills(self, skills: list[Skill], rows: BoardRows | None = None) -> list[str]:
        """Merge a fresh list into the model (see :meth:`SkillBoardModel.set_skills`; ``rows``: the same
        skills prepared off the GUI thread), keeping the selected skill selected, in whichever column it
        is now."""
        with self._quiet():
            changed = self.model.set_skills(skills, rows)
        self._after_model_change()
        return changed

    @contextlib.contextmanager
    def _quiet(self) -> Iterator[None]:
        """While rows move, views pick a neighbour as current on their own: not a user's choice."""
        was = self._syncing
        self._syncing = True
        try:
            yield
        finally:
            self._syncing = was

    # -- selection ------------------------------------------------------------------------------------------
    @property
    def cards_pending(self) -> bool:
        """Cards on screen wait for their picture (made in the next frames)."""
        return self.delegate.pending

    @property
    def current_id(self) -> str:
        return self._current_id

    def current_skill(self) -> Skill | None:
        return self.model.skill_by_id(self._current_id) if self._current_id else None

    def _on_current(self, maturity: str, cur: QModelIndex) -> None:
        if self._syncing or not cur.isValid():
            return
        sid = cur.data(SkillBoardModel.IdRole) or ""
        with self._quiet():
            for m, view in self.views.items():
                if m != maturity:
                    view.selectionModel().clearSelection()
                    view.selectionModel().setCurrentIndex(
                        QModelIndex(), QItemSelectionModel.SelectionFlag.NoUpdate
                    )
        if sid != self._current_id:
            self._current_id = sid
            self.currentSkillChanged.emit(sid)

    def select_skill(self, skill_id: str, *, scroll: bool = True) -> bool:
        """Select the card of ``skill_id`` (in whichever column shows it); False when it is not shown."""
        row = self.model.row_of(skill_id)
        found = False
        with self._quiet():
            for view in self.views.values():
                proxy = view.model()
                pidx = proxy.mapFromSource(self.model.index(row)) if row is not None else QModelIndex()
                sm = view.selectionModel()
                if pidx.isValid():
                    sm.setCurrentIndex(pidx, QItemSelectionModel.SelectionFlag.ClearAndSelect)
                    if scroll:
                        view.scrollTo(pidx, QAbstractItemView.ScrollHint.EnsureVisible)
                    found = True
                else:
                    sm.clearSelection()
                    sm.setCurrentIndex(QModelIndex(), QItemSelectionModel.SelectionFlag.NoUpdate)
        if skill_id != self._current_id:
            self._current_id = skill_id if row is not None else ""
            self.currentSkillChanged.emit(self._current_id)
        return found

    def _reselect(self) -> None:
        if self._current_id:
            self.select_skill(self._current_id, scroll=False)

    def _after_model_change(self) -> None:
        self._update_counts()
        if self._current_id and self.model.row_of(self._current_id) is None:
            self._current_id = ""
            self.currentSkillChanged.emit("")
        else:
            self._reselect()

    def _on_context_menu(self, view: ColumnView, pos: QPoint) -> None:
        idx = view.indexAt(pos)
        if not idx.isValid():
            return
        view.selectionModel().setCurrentIndex(idx, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        skill = idx.data(SkillBoardModel.SkillRole)
        if skill is not None:
            self.contextMenuRequested.emit(skill, view.viewport().mapToGlobal(pos))

    def _emit_activated(self, idx: QModelIndex) -> None:
        skill = idx.data(SkillBoardModel.SkillRole)
        if skill is not None:
            self.skillActivated.emit(skill)

    def eventFilter(self, obj: Any, event: Any) -> bool:
        # Left/Right move the selection to the neighbouring column.
        if event.type() == QEvent.Type.KeyPress and isinstance(obj, ColumnView):
            key = event.key()
            if key in (Qt.Key.Key_Left, Qt.Key.Key_Right):
                return self._move_column(obj, -1 if key == Qt.Key.Key_Left else 1)
        return super().eventFilter(obj, event)

    def _move_column(self, view: ColumnView, step: int) -> bool:
        order = list(BOARD_COLUMNS)
        j = order.index(view.maturity) + step
        while 0 <= j < len(order):
            target = self.views[order[j]]
            if target.model().rowCount():
                row = min(max(view.currentIndex().row(), 0), target.model().rowCount() - 1)
                target.setFocus()
                target.setCurrentIndex(target.model().index(row, 0))
                return True
            j += step
        return False
