"""The skill card: one skill painted by a delegate (no widget per skill), so thousands of cards scroll.

A card shows the name with its badges, the success and failure counters with the outcome sparkline
beside them, the uses and last use, and one caveat line (the draft caveat, else the source).

Each card is painted once into a picture, then drawn from it. Pictures are made at most 6 ms' worth in
every 16 ms (a frame at 60 Hz): a board's first paint (or the one after its sparklines arrived) would
otherwise make twenty of them, 15-25 ms, in the turn that also fills the board. A card whose picture is
still to make is drawn as its frame alone (or as its previous picture, when it has one of the same
size) and painted again when the next frame's budget begins.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any

from core.models import Skill
from core.repair import is_repair_candidate
from philont_desktop import i18n
from philont_desktop.humanize import rel_time
from philont_desktop.qt import (
    QAbstractScrollArea,
    QColor,
    QFont,
    QFontMetrics,
    QModelIndex,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
    QPixmap,
    QRect,
    QRectF,
    QSize,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    Qt,
    QTimer,
    QWidget,
    is_valid,
)
from philont_desktop.skills.loaders import HISTORY_LENGTH
from philont_desktop.skills.model import SkillBoardModel
from philont_desktop.skills.repairs import attempts_of, badge_text
from philont_desktop.skills.widgets.colors import Colors
from philont_desktop.skills.words import grade_caveat
from philont_desktop.widgets import plain

DAY_MS = 86_400_000
PICTURES = 120  # cards kept as pictures (a board shows a few dozen; ~100 KB each)
FRAME_MS = 16  # pictures are made ...
FRAME_BUDGET_S = 0.006  # ... at most ~6 ms of them in every 16 ms (one takes 0.5-1 ms)
_LEFT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter


def _same_size(look: tuple, other: tuple) -> bool:
    """Two looks (:meth:`CardDelegate._look`) of the same width, height and pixel ratio."""
    return look[:2] == other[:2] and look[8] == other[8]


class _Fonts:
    """The card's fonts and their metrics for one base font."""

    def __init__(self, base: QFont):
        self.name = QFont(base)
        self.name.setBold(True)
        self.small = QFont(base)
        self.small.setPointSizeF(max(7.0, base.pointSizeF() * 0.88))
        self.badge = QFont(self.small)
        self.badge.setPointSizeF(max(6.5, base.pointSizeF() * 0.78))
        self.badge.setBold(True)
        self.fm_name = QFontMetrics(self.name)
        self.fm_small = QFontMetrics(self.small)
        self.fm_badge = QFontMetrics(self.badge)


class CardDelegate(QStyledItemDelegate):
    """Paints one skill as a card: name and badges, counters, last use, sparkline, caveat or source."""

    PAD = 7
    MARGIN_X = 4
    MARGIN_Y = 4
    SPARK_BAR = 3
    SPARK_GAP = 1

    def __init__(self, colors: Colors, parent: QWidget | None = None):
        super().__init__(parent)
        self.colors = colors
        self.now_ms: int | None = None  # fixed "now" for screenshots and tests
        self._cache_font: QFont | None = None
        self._height = 0
        self._fonts_for: tuple[QFont, _Fonts] | None = None  # the fonts of the last base font
        # skill id -> (skill, look, picture) of the cards painted lately (see paint())
        self._pictures: OrderedDict[int, tuple[Skill, tuple, QPixmap]] = OrderedDict()
        self.frame_budget = FRAME_BUDGET_S
        self._spent = 0.0  # seconds spent making pictures in this frame
        self._frame = QTimer(self)  # the end of the frame that began with the first picture made
        self._frame.setSingleShot(True)
        self._frame.setInterval(FRAME_MS)
        self._frame.timeout.connect(self._next_frame)
        # the views painted with cards still to make, and where those cards are
        self._short: dict[QAbstractScrollArea, list[QRect]] = {}

    def fonts(self, base: QFont) -> _Fonts:
        """The card's fonts for ``base``, made once (not for every card painted)."""
        cached = self._fonts_for
        if cached is None or cached[0] != base:
            cached = (QFont(base), _Fonts(base))
            self._fonts_for = cached
        return cached[1]

    def set_colors(self, colors: Colors) -> None:
        self.colors = colors
        self._pictures.clear()

    def card_height(self, base: QFont) -> int:
        if self._cache_font is None or self._cache_font != base:
            f = self.fonts(base)
            hn, hs = f.fm_name.height(), f.fm_small.height()
            self._height = self.MARGIN_Y * 2 + self.PAD * 2 + hn + 4 * hs + 4 * 3
            self._cache_font = QFont(base)
        return self._height

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:
        return QSize(max(160, option.rect.width()), self.card_height(option.font))

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        """The card from a picture made when it was first painted as it looks now (a board repaints every
        card in view at each selection, hover or update; painting one anew takes about a millisecond)."""
        skill: Skill | None = index.data(SkillBoardModel.SkillRole)
        if skill is None:
            return
        history: list[bool] | None = index.data(SkillBoardModel.HistoryRole)
        name = str(index.data() or "")
        dpr = painter.device().devicePixelRatioF() if painter.device() is not None else 1.0
        bg = self._background(option)
        key = self._look(option, name, history, bg, dpr)
        got = self._pictures.get(id(skill))
        if got is not None and got[0] is skill and got[1] == key:
            self._pictures.move_to_end(id(skill))
        elif self._spent > self.frame_budget:  # at least one picture in every frame
            self._defer(option)
            if got is not None and got[0] is skill and _same_size(got[1], key):
                painter.drawPixmap(option.rect.topLeft(), got[2])  # as it was, a frame longer
            else:
                painter.save()
                painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
                self._paint_frame(painter, option, self._outer(option.rect), skill)
                painter.restore()
            return
        else:
            started = time.perf_counter()
            got = (skill, key, self._picture(option, skill, name, history, bg, dpr))
            self._spent += time.perf_counter() - started
            if not self._frame.isActive():
                self._frame.start()  # the budget is new in the next frame
            self._pictures[id(skill)] = got
            if len(self._pictures) > PICTURES:
                self._pictures.popitem(last=False)
        painter.drawPixmap(option.rect.topLeft(), got[2])

    # -- pictures made over several frames -------------------------------------------------------------
    def _defer(self, option: QStyleOptionViewItem) -> None:
        view = option.widget
        if isinstance(view, QAbstractScrollArea):
            self._short.setdefault(view, []).append(QRect(option.rect))
        if not self._frame.isActive():
            self._frame.start()

    def _next_frame(self) -> None:
        self._spent = 0.0
        for view, rects in list(self._short.items()):
            if not is_valid(view):
                del self._short[view]
                continue
            vp = view.viewport()
            for r in rects:
                vp.update(r)

    def painting(self, view: QAbstractScrollArea) -> None:
        """``view`` paints again: the cards it still lacks are noted anew (:attr:`pending`)."""
        self._short.pop(view, None)

    @property
    def pending(self) -> bool:
        """A view on screen shows cards whose picture is still to make (made in the next frames)."""
        return any(is_valid(v) and v.isVisible() for v in self._short)

    @staticmethod
    def _background(option: QStyleOptionViewItem) -> QColor:
        view = option.widget
        vp = view.viewport() if isinstance(view, QAbstractScrollArea) else None
        if vp is None:
            return option.palette.color(QPalette.ColorRole.Base)
        return vp.palette().color(vp.backgroundRole())

    def _look(self, option: QStyleOptionViewItem, name: str, history: Any, bg: QColor, dpr: float) -> tuple:
        """Everything a card's picture depends on besides its skill."""
        now = self.now_ms if self.now_ms is not None else int(time.time() * 1000)
        pal = option.palette
        return (
            option.rect.width(),
            option.rect.height(),
            bool(option.state & QStyle.StateFlag.State_Selected),
            bool(option.state & QStyle.StateFlag.State_MouseOver),
            option.font.key(),
            pal.color(QPalette.ColorRole.Highlight).rgba(),
            pal.color(QPalette.ColorRole.Text).rgba(),
            bg.rgba(),
            dpr,
            name,
            tuple(history) if history else None,
            i18n.current_language(),
            now // 60_000,  # "used 3 min ago" moves with the clock
        )

    def _picture(
        self, option: QStyleOptionViewItem, skill: Skill, name: str, history: Any, bg: QColor, dpr: float
    ) -> QPixmap:
        size = option.rect.size()
        pix = QPixmap(int(size.width() * dpr + 0.5), int(size.height() * dpr + 0.5))
        pix.setDevicePixelRatio(dpr)
        pix.fill(bg)
        opt = QStyleOptionViewItem(option)
        opt.rect = QRect(0, 0, size.width(), size.height())
        p = QPainter(pix)
        try:
            self._paint_card(p, opt, skill, name, history)
        finally:
            p.end()
        return pix

    def _paint_card(
        self, painter: QPainter, option: QStyleOptionViewItem, skill: Skill, name: str, history: Any
    ) -> None:
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        outer = self._outer(option.rect)
        self._paint_frame(painter, option, outer, skill)
        f = self.fonts(option.font)
        text_color = option.palette.color(QPalette.ColorRole.Text)
        x0 = int(outer.left()) + self.PAD + 2
        right = int(outer.right()) - self.PAD
        y = int(outer.top()) + self.PAD
        # line 1: the name, the whole width (the full name is in the tooltip)
        hn = f.fm_name.height()
        painter.setFont(f.name)
        painter.setPen(text_color)
        painter.drawText(
            QRect(x0, y, right - x0, hn),
            _LEFT,
            # the model's name: stored text as text, ⚠ in front when a value of the row is unreadable
            f.fm_name.elidedText(name, Qt.TextElideMode.ElideRight, right - x0),
        )
        y += hn + 3
        # line 2: the badges (left), the outcome sparkline (right)
        hs = f.fm_small.height()
        badges_right = self._paint_badges(painter, f, skill, x0, y, hs)
        step = self.SPARK_BAR + self.SPARK_GAP
        bars = min(HISTORY_LENGTH, (right - max(badges_right + 8, x0 + (right - x0) // 2)) // step)
        if bars >= 6:
            self._paint_sparkline(
                painter, QRect(right - bars * step, y - 1, bars * step, hs + 3), history, self.colors
            )
        y += hs + 3
        self._paint_counters(painter, f, skill, x0, right, y, text_color)
        y += hs + 3
        self._paint_lines(painter, f, skill, x0, right, y)
        painter.restore()

    def _outer(self, rect: QRect) -> QRectF:
        return QRectF(rect.adjusted(self.MARGIN_X, self.MARGIN_Y, -self.MARGIN_X, -self.MARGIN_Y))

    def _paint_frame(
        self, painter: QPainter, option: QStyleOptionViewItem, outer: QRectF, skill: Skill
    ) -> None:
        c = self.colors
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
        elif hover:
            painter.setPen(QPen(c.border.lighter(130) if c.dark else c.border.darker(115), 1))
        else:
            painter.setPen(QPen(c.border, 1))
        painter.drawPath(path)
        stripe = QPainterPath()
        stripe.addRoundedRect(QRectF(outer.left(), outer.top(), 4, outer.height()), 2, 2)
        painter.fillPath(stripe, c.grade(skill.maturity))

    def badges(self, skill: Skill) -> list[tuple[str, QColor, bool]]:
        """The badges of a card, left to right: (text, colour, filled)."""
        c = self.colors
        out: list[tuple[str, QColor, bool]] = []
        if skill.kind == "negative":
            out.append((self.tr("avoid"), c.avoid, True))
        if skill.is_recipe:
            out.append((self.tr("recipe"), c.recipe, False))
        if skill.from_disk:
            out.append((self.tr("from disk"), c.muted, False))
        repairs = attempts_of(skill)
        if repairs.count:
            out.append(
                (badge_text(repairs), c.failure if repairs.exhausted else c.grade("draft"), repairs.exhausted)
            )
        return out

    def _paint_badges(self, painter: QPainter, f: _Fonts, skill: Skill, x: int, y: int, line_h: int) -> int:
        """The badges from ``x``, left to right; returns where they end."""
        painter.setFont(f.badge)
        for text, color, filled in self.badges(skill):
            w = f.fm_badge.horizontalAdvance(text) + 10
            h = f.fm_badge.height() + 2
            r = QRectF(x, y + (line_h - h) / 2, w, h)
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
            x += w + 4
        return x

    def _paint_counters(
        self, painter: QPainter, f: _Fonts, skill: Skill, x0: int, text_right: int, y: int, text_color: QColor
    ) -> None:
        """Line 2: successes, failures, failures in a row."""
        c = self.colors
        hs = f.fm_small.height()
        painter.setFont(f.small)
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
        x = x0
        for text, color in pieces:
            w = f.fm_small.horizontalAdvance(text)
            if x + w > text_right:
                text = f.fm_small.elidedText(text, Qt.TextElideMode.ElideRight, max(0, text_right - x))
                w = f.fm_small.horizontalAdvance(text)
            painter.setPen(color)
            painter.drawText(QRect(x, y, w + 1, hs), _LEFT, text)
            x += w
            if x >= text_right:
                break

    def caveat_line(self, skill: Skill) -> tuple[str, QColor]:
        """The card's one caveat line and its colour: what is wrong with this row, else the caveat of its
        grade (without the grade's name, which the column says), else where it came from."""
        c = self.colors
        if skill.json_errors:
            return self.tr("⚠ unreadable JSON in this row"), c.failure
        if skill.damaged:
            return self.tr("⚠ unreadable: {0}").format(", ".join(skill.damaged)), c.failure
        if skill.maturity_raw is not None and skill.maturity_raw != skill.maturity:
            return self.tr("⚠ unknown grade, read as draft"), c.failure
        if is_repair_candidate(skill):
            return self.tr("demoted, awaiting repair"), c.grade("draft")
        caveat = grade_caveat(skill.maturity)
        if caveat:
            return caveat, c.grade(skill.maturity) if skill.maturity == "draft" else c.muted
        return plain.plain(skill.source, 200, one_line=True), c.muted

    def use_line(self, skill: Skill) -> str:
        """``12 uses · used 3 days ago``."""
        now = self.now_ms if self.now_ms is not None else int(time.time() * 1000)
        uses = self.tr("%n use(s)", None, skill.use_count)
        if skill.last_used_at is None:
            return uses + " · " + self.tr("never used")
        return uses + " · " + self.tr("used {0}").format(rel_time(skill.last_used_at, now))

    def _paint_lines(self, painter: QPainter, f: _Fonts, skill: Skill, x0: int, right: int, y: int) -> int:
        """Lines 4 and 5: uses and last use; the one caveat line."""
        hs = f.fm_small.height()
        painter.setPen(self.colors.muted)
        line3 = self.use_line(skill)
        painter.drawText(
            QRect(x0, y, right - x0, hs),
            _LEFT,
            f.fm_small.elidedText(line3, Qt.TextElideMode.ElideRight, right - x0),
        )
        y += hs + 3
        line4, color = self.caveat_line(skill)
        if line4:
            painter.setPen(color)
            line4 = f.fm_small.elidedText(line4, Qt.TextElideMode.ElideRight, right - x0)
            painter.drawText(QRect(x0, y, right - x0, hs), _LEFT, line4)
        return y + hs + 3

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
