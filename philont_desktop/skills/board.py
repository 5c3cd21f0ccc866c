"""The maturity board: five columns of skill cards, painted by a delegate (no widget per skill).

One :class:`~philont_desktop.skills.model.SkillBoardModel` holds every skill; each column is a
``QListView`` over its own :class:`~philont_desktop.skills.model.ColumnProxy` (grade + shared filter +
sort), with uniform item sizes, so thousands of cards scroll and filter smoothly: only the visible
cards are painted, and only they ask for their outcome sparkline.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import Any

from core.models import Skill
from philont_desktop.core_strings import maturity_caveat
from philont_desktop.qt import (
    QAbstractItemView,
    QCheckBox,
    QColor,
    QComboBox,
    QEvent,
    QFont,
    QFontMetrics,
    QFrame,
    QHBoxLayout,
    QItemSelectionModel,
    QLabel,
    QLineEdit,
    QListView,
    QModelIndex,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
    QPoint,
    QRect,
    QRectF,
    QSize,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    Qt,
    QTimer,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.skills.model import (
    BOARD_COLUMNS,
    HISTORY_LENGTH,
    BoardFilter,
    ColumnProxy,
    SkillBoardModel,
)

DAY_MS = 86_400_000

_GRADE_COLORS = {
    # light, dark
    "playbook": ("#8250df", "#bc8cff"),
    "draft": ("#b07800", "#d29922"),
    "confirmed": ("#0969da", "#58a6ff"),
    "stable": ("#1a7f37", "#3fb950"),
    "deprecated": ("#6e7781", "#8b949e"),
}
_AVOID = ("#cf222e", "#f85149")
_RECIPE = ("#1b7c83", "#39c5cf")
_SUCCESS = ("#1a7f37", "#3fb950")
_FAILURE = ("#cf222e", "#f85149")
_LANE = ("#e9ecf0", "#15171a")
_CARD = ("#ffffff", "#24282d")
_CARD_BORDER = ("#d0d7de", "#363c44")
_MUTED = ("#656d76", "#8b949e")


def _pick(pair: tuple[str, str], dark: bool) -> QColor:
    return QColor(pair[1] if dark else pair[0])


def grade_color(maturity: str, dark: bool) -> QColor:
    return _pick(_GRADE_COLORS.get(maturity, _GRADE_COLORS["draft"]), dark)


class Colors:
    """The board's colours for light or dark mode."""

    def __init__(self, dark: bool):
        self.dark = dark
        self.lane = _pick(_LANE, dark)
        self.card = _pick(_CARD, dark)
        self.border = _pick(_CARD_BORDER, dark)
        self.muted = _pick(_MUTED, dark)
        self.avoid = _pick(_AVOID, dark)
        self.recipe = _pick(_RECIPE, dark)
        self.success = _pick(_SUCCESS, dark)
        self.failure = _pick(_FAILURE, dark)

    def grade(self, maturity: str) -> QColor:
        return grade_color(maturity, self.dark)


def relative_time(obj: Any, ms: int | None, now: int) -> str:
    """``never``, ``just now``, ``5 min ago``, ``3 h ago``, ``12 d ago``, ``4 mo ago``, ``2 y ago``."""
    tr = obj.tr
    if ms is None:
        return tr("never used")
    d = max(0, now - ms)
    if d < 60_000:
        return tr("used just now")
    if d < 3_600_000:
        return tr("used {0} min ago").format(d // 60_000)
    if d < DAY_MS:
        return tr("used {0} h ago").format(d // 3_600_000)
    days = d // DAY_MS
    if days < 60:
        return tr("used {0} d ago").format(days)
    if days < 730:
        return tr("used {0} mo ago").format(days // 30)
    return tr("used {0} y ago").format(days // 365)


# ---------------------------------------------------------------------------------------------------
# The card delegate
# ---------------------------------------------------------------------------------------------------


class CardDelegate(QStyledItemDelegate):
    """Paints one skill as a card: name and badges, counters, last use, sparkline, caveat or source."""

    PAD = 8
    MARGIN_X = 6
    MARGIN_Y = 4
    SPARK_BAR = 3
    SPARK_GAP = 1

    def __init__(self, colors: Colors, parent: QWidget | None = None):
        super().__init__(parent)
        self.colors = colors
        self.now_ms: int | None = None  # fixed "now" for screenshots and tests
        self._cache_font: QFont | None = None
        self._height = 0

    def set_colors(self, colors: Colors) -> None:
        self.colors = colors

    def _fonts(self, base: QFont) -> tuple[QFont, QFont, QFont]:
        name = QFont(base)
        name.setBold(True)
        small = QFont(base)
        small.setPointSizeF(max(7.0, base.pointSizeF() * 0.88))
        badge = QFont(small)
        badge.setPointSizeF(max(6.5, base.pointSizeF() * 0.78))
        badge.setBold(True)
        return name, small, badge

    def card_height(self, base: QFont) -> int:
        if self._cache_font is None or self._cache_font != base:
            name, small, _ = self._fonts(base)
            hn = QFontMetrics(name).height()
            hs = QFontMetrics(small).height()
            self._height = self.MARGIN_Y * 2 + self.PAD * 2 + hn + 3 * hs + 3 * 3
            self._cache_font = QFont(base)
        return self._height

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:
        return QSize(max(160, option.rect.width()), self.card_height(option.font))

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        skill: Skill | None = index.data(SkillBoardModel.SkillRole)
        if skill is None:
            return
        history: list[bool] | None = index.data(SkillBoardModel.HistoryRole)
        c = self.colors
        now = self.now_ms if self.now_ms is not None else int(time.time() * 1000)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        outer = QRectF(option.rect.adjusted(self.MARGIN_X, self.MARGIN_Y, -self.MARGIN_X, -self.MARGIN_Y))
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        hover = bool(option.state & QStyle.StateFlag.State_MouseOver)
        path = QPainterPath()
        path.addRoundedRect(outer, 6, 6)
        painter.fillPath(path, c.card)
        if selected:
            hl = option.palette.color(QPalette.ColorRole.Highlight)
            tint = QColor(hl)
            tint.setAlpha(40 if c.dark else 28)
            painter.fillPath(path, tint)
            painter.setPen(QPen(hl, 2))
        else:
            painter.setPen(
                QPen(
                    c.border.darker(115)
                    if hover and not c.dark
                    else c.border.lighter(130)
                    if hover
                    else c.border,
                    1,
                )
            )
        painter.drawPath(path)
        # grade stripe
        stripe = QPainterPath()
        stripe.addRoundedRect(QRectF(outer.left(), outer.top(), 4, outer.height()), 2, 2)
        painter.fillPath(stripe, c.grade(skill.maturity))

        name_font, small_font, badge_font = self._fonts(option.font)
        fm_name, fm_small, fm_badge = (
            QFontMetrics(name_font),
            QFontMetrics(small_font),
            QFontMetrics(badge_font),
        )
        text_color = option.palette.color(QPalette.ColorRole.Text)
        x0 = int(outer.left()) + self.PAD + 2
        right = int(outer.right()) - self.PAD
        y = int(outer.top()) + self.PAD

        # line 1: badges (right), name (elided)
        badges: list[tuple[str, QColor, bool]] = []
        if skill.kind == "negative":
            badges.append((self.tr("avoid"), c.avoid, True))
        if skill.is_recipe:
            badges.append((self.tr("recipe"), c.recipe, False))
        bx = right
        hn = fm_name.height()
        painter.setFont(badge_font)
        for text, color, filled in badges:
            w = fm_badge.horizontalAdvance(text) + 10
            h = fm_badge.height() + 2
            r = QRectF(bx - w, y + (hn - h) / 2, w, h)
            pill = QPainterPath()
            pill.addRoundedRect(r, h / 2, h / 2)
            if filled:
                painter.fillPath(pill, color)
                painter.setPen(QColor("#ffffff"))
            else:
                painter.setPen(QPen(color, 1))
                painter.drawPath(pill)
                painter.setPen(color)
            painter.drawText(r, Qt.AlignmentFlag.AlignCenter, text)
            bx -= w + 4
        painter.setFont(name_font)
        painter.setPen(text_color)
        name = fm_name.elidedText(skill.name, Qt.TextElideMode.ElideRight, max(10, bx - x0 - 4))
        painter.drawText(
            QRect(x0, y, bx - x0, hn), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, name
        )
        y += hn + 3

        # sparkline area (right of lines 2-3)
        hs = fm_small.height()
        step = self.SPARK_BAR + self.SPARK_GAP
        bars = min(HISTORY_LENGTH, int((right - x0) * 0.45) // step)
        spark_w = bars * step if bars >= 8 else 0
        spark_rect = QRect(right - spark_w, y - 1, spark_w, hs + 3)
        text_right = right - spark_w - (8 if spark_w else 0)

        # line 2: counters
        painter.setFont(small_font)
        x = x0
        pieces: list[tuple[str, QColor]] = [
            (f"✓ {skill.success_count}", c.success),
            ("  ", text_color),
            (f"✗ {skill.failure_count}", c.failure if skill.failure_count else c.muted),
        ]
        if skill.consecutive_failures:
            pieces += [
                ("  ", text_color),
                (self.tr("{0} in a row").format(skill.consecutive_failures), c.failure),
            ]
        for text, color in pieces:
            w = fm_small.horizontalAdvance(text)
            if x + w > text_right:
                text = fm_small.elidedText(text, Qt.TextElideMode.ElideRight, max(0, text_right - x))
                w = fm_small.horizontalAdvance(text)
            painter.setPen(color)
            painter.drawText(
                QRect(x, y, w + 1, hs), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text
            )
            x += w
            if x >= text_right:
                break
        y += hs + 3

        # line 3: uses and last use
        painter.setPen(c.muted)
        line3 = (
            self.tr("{0} uses").format(skill.use_count) + " · " + relative_time(self, skill.last_used_at, now)
        )
        used = fm_small.elidedText(line3, Qt.TextElideMode.ElideRight, right - x0)
        painter.drawText(
            QRect(x0, y, right - x0, hs),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            used,
        )
        y += hs + 3

        # line 4: the draft caveat, else the source
        if skill.maturity == "draft":
            painter.setPen(c.grade("draft"))
            line4 = maturity_caveat("draft")
        else:
            painter.setPen(c.muted)
            line4 = skill.source or (self.tr("from disk") if skill.from_disk else "")
        if line4:
            line4 = fm_small.elidedText(line4, Qt.TextElideMode.ElideRight, right - x0)
            painter.drawText(
                QRect(x0, y, right - x0, hs),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                line4,
            )

        if spark_w:
            self._paint_sparkline(painter, spark_rect, history, c)
        painter.restore()

    def _paint_sparkline(self, painter: QPainter, rect: QRect, history: list[bool] | None, c: Colors) -> None:
        mid = rect.top() + rect.height() // 2
        base = QColor(c.muted)
        base.setAlpha(90)
        painter.setPen(QPen(base, 1))
        painter.drawLine(rect.left(), mid, rect.right(), mid)
        if not history:
            return
        half = rect.height() // 2 - 1
        step = self.SPARK_BAR + self.SPARK_GAP
        items = history[-max(1, rect.width() // step) :]
        x = rect.right() - len(items) * step + 1
        for ok in items:
            if ok:
                painter.fillRect(QRect(x, mid - half, self.SPARK_BAR, half), c.success)
            else:
                painter.fillRect(QRect(x, mid + 1, self.SPARK_BAR, half), c.failure)
            x += step


# ---------------------------------------------------------------------------------------------------
# Columns
# ---------------------------------------------------------------------------------------------------


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

    def __init__(self, dark: bool = False, parent: QWidget | None = None, *, now: int | None = None):
        super().__init__(parent)
        self.setObjectName("skillsBoard")
        self.model = SkillBoardModel(self, now=now)
        self.model.historiesNeeded.connect(self.historiesNeeded)
        self.filter = BoardFilter()
        self.model.set_filter(self.filter)
        self._counts_timer = QTimer(self)
        self._counts_timer.setSingleShot(True)
        self._counts_timer.setInterval(0)
        self._counts_timer.timeout.connect(self._update_counts)
        self.colors = Colors(dark)
        self.delegate = CardDelegate(self.colors, self)
        self.delegate.now_ms = now
        self._current_id = ""
        self._syncing = False

        # filter bar
        self.search = QLineEdit(self)
        self.search.setObjectName("skillsFilter")
        self.search.setClearButtonEnabled(True)
        self.search.setPlaceholderText(self.tr("Filter by name, description, keywords, source…"))
        self.kind_combo = QComboBox(self)
        self.kind_combo.setObjectName("skillsKind")
        for text, value in (
            (self.tr("All kinds"), "all"),
            (self.tr("Positive"), "positive"),
            (self.tr("Avoid (negative)"), "negative"),
        ):
            self.kind_combo.addItem(text, value)
        self.source_combo = QComboBox(self)
        self.source_combo.setObjectName("skillsSource")
        for text, value in (
            (self.tr("All sources"), "all"),
            (self.tr("Learned (self:…)"), "self"),
            (self.tr("Imported"), "external"),
            (self.tr("No source"), "none"),
        ):
            self.source_combo.addItem(text, value)
        self.recipes_check = QCheckBox(self.tr("Recipes only"), self)
        self.sort_combo = QComboBox(self)
        self.sort_combo.setObjectName("skillsSort")
        for text, value in (
            (self.tr("Sort: name"), "name"),
            (self.tr("Sort: most used"), "uses"),
            (self.tr("Sort: recently used"), "recent"),
            (self.tr("Sort: most successes"), "successes"),
            (self.tr("Sort: most failures"), "failures"),
            (self.tr("Sort: ranking score"), "score"),
            (self.tr("Sort: newest"), "newest"),
        ):
            self.sort_combo.addItem(text, value)
        self.summary = QLabel(self)
        self.summary.setObjectName("skillsSummary")
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(self.search, 3)
        bar.addWidget(self.kind_combo)
        bar.addWidget(self.source_combo)
        bar.addWidget(self.recipes_check)
        bar.addWidget(self.sort_combo)
        bar.addWidget(self.summary, 1)

        self._text_timer = QTimer(self)
        self._text_timer.setSingleShot(True)
        self._text_timer.setInterval(120)
        self._text_timer.timeout.connect(self._apply_text)
        self.search.textChanged.connect(lambda _t: self._text_timer.start())
        self.kind_combo.currentIndexChanged.connect(lambda _i: self._apply_combo())
        self.source_combo.currentIndexChanged.connect(lambda _i: self._apply_combo())
        self.recipes_check.toggled.connect(lambda _b: self._apply_combo())
        self.sort_combo.currentIndexChanged.connect(
            lambda _i: self.set_sort_mode(self.sort_combo.currentData())
        )

        # columns
        self.proxies: dict[str, ColumnProxy] = {}
        self.views: dict[str, ColumnView] = {}
        self.headers: dict[str, QLabel] = {}
        cols = QHBoxLayout()
        cols.setContentsMargins(0, 0, 0, 0)
        cols.setSpacing(6)
        for m in BOARD_COLUMNS:
            proxy = ColumnProxy(self.model, m, self)
            view = ColumnView(m, self)
            view.setModel(proxy)
            view.setItemDelegate(self.delegate)
            view.selectionModel().currentChanged.connect(lambda cur, _prev, m=m: self._on_current(m, cur))
            view.customContextMenuRequested.connect(lambda pos, v=view: self._on_context_menu(v, pos))
            view.doubleClicked.connect(lambda idx: self._emit_activated(idx))
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
            cols.addLayout(lane, 1)
            self.proxies[m] = proxy
            self.views[m] = view
            self.headers[m] = header
            for signal in (proxy.rowsInserted, proxy.rowsRemoved, proxy.modelReset, proxy.layoutChanged):
                signal.connect(self._counts_timer.start)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        layout.addLayout(bar)
        layout.addLayout(cols, 1)
        self.model.skillsChanged.connect(self._after_model_change)
        self.apply_colors(dark)
        self._update_counts()

    # -- text ---------------------------------------------------------------------------------------------
    def grade_name(self, maturity: str) -> str:
        return {
            "playbook": self.tr("Playbook"),
            "draft": self.tr("Draft"),
            "confirmed": self.tr("Confirmed"),
            "stable": self.tr("Stable"),
            "deprecated": self.tr("Deprecated"),
        }.get(maturity, maturity)

    def grade_help(self, maturity: str) -> str:
        return {
            "playbook": self.tr("A lesson shown as a hint; use_skill does not run it."),
            "draft": self.tr("Not yet validated: returned with a caveat, verify before use."),
            "confirmed": self.tr("At least 2 successes without a failure."),
            "stable": self.tr("At least 5 successes with failures under 10% of them."),
            "deprecated": self.tr("Verified unreliable: kept as a counter-example, no longer callable."),
        }.get(maturity, "")

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
    def _apply_text(self) -> None:
        self.filter.set_text(self.search.text())
        self._refilter()

    def _apply_combo(self) -> None:
        self.filter.kind = self.kind_combo.currentData() or "all"
        self.filter.source = self.source_combo.currentData() or "all"
        self.filter.recipes_only = self.recipes_check.isChecked()
        self._refilter()

    def set_filter(
        self,
        text: str | None = None,
        kind: str | None = None,
        source: str | None = None,
        recipes_only: bool | None = None,
    ) -> None:
        """Set the filter programmatically (updates the widgets; applies at once)."""
        for widget, value in ((self.kind_combo, kind), (self.source_combo, source)):
            if value is not None:
                widget.blockSignals(True)
                widget.setCurrentIndex(max(0, widget.findData(value)))
                widget.blockSignals(False)
        if recipes_only is not None:
            self.recipes_check.blockSignals(True)
            self.recipes_check.setChecked(recipes_only)
            self.recipes_check.blockSignals(False)
        if text is not None:
            self.search.blockSignals(True)
            self.search.setText(text)
            self.search.blockSignals(False)
            self.filter.set_text(text)
        self.filter.kind = self.kind_combo.currentData() or "all"
        self.filter.source = self.source_combo.currentData() or "all"
        self.filter.recipes_only = self.recipes_check.isChecked()
        self._refilter()

    def _refilter(self) -> None:
        self.model.set_filter(self.filter)
        with self._quiet():
            for proxy in self.proxies.values():
                proxy.refilter()
        self._update_counts()
        self._reselect()

    def set_sort_mode(self, mode: str) -> None:
        with self._quiet():
            self.model.set_sort_mode(mode)
        idx = self.sort_combo.findData(mode)
        if idx >= 0 and idx != self.sort_combo.currentIndex():
            self.sort_combo.blockSignals(True)
            self.sort_combo.setCurrentIndex(idx)
            self.sort_combo.blockSignals(False)
        self._reselect()

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
        n = self.model.rowCount()
        self.summary.setText(
            self.tr("{0} skills").format(n)
            if shown_all == n
            else self.tr("{0} of {1} skills").format(shown_all, n)
        )

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
            for r in range(first, min(n, first + max(count, 6))):
                name = proxy.index(r, 0).data()
                if name:
                    names.append(name)
        return names

    def set_skills(self, skills: list[Skill]) -> list[str]:
        """Merge a fresh list into the model (see :meth:`SkillBoardModel.set_skills`), keeping the
        selected skill selected, in whichever column it is now."""
        with self._quiet():
            changed = self.model.set_skills(skills)
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
                order = list(BOARD_COLUMNS)
                i = order.index(obj.maturity)
                step = -1 if key == Qt.Key.Key_Left else 1
                j = i + step
                while 0 <= j < len(order):
                    target = self.views[order[j]]
                    if target.model().rowCount():
                        row = min(max(obj.currentIndex().row(), 0), target.model().rowCount() - 1)
                        target.setFocus()
                        target.setCurrentIndex(target.model().index(row, 0))
                        return True
                    j += step
        return super().eventFilter(obj, event)
