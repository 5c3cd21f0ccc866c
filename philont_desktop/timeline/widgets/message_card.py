"""A message of the conversation as a card: role, conversation, time, and a bounded excerpt of its text.

:class:`MessageDelegate` paints a card per message (role label, its conversation, the time relative and
absolute, the text laid out with ``QTextLayout``; tool messages in a monospace face, in their readable
form (:func:`card_text`) unless a search highlights places in the stored text). Only a bounded
excerpt of each message is laid out (:func:`~philont_desktop.timeline.textutil.preview`), so a 10 MB
message paints as fast as a short one; "Show more" expands the excerpt (still bounded) and the full text
opens on demand (double-click) in :class:`~philont_desktop.widgets.fulltext.FullTextDialog`. Lay-outs
are cached per message, expansion state, highlight and width.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.jsutil import now_ms
from philont_desktop import humanize
from philont_desktop.fonts import monospace_font
from philont_desktop.qt import (
    QColor,
    QEvent,
    QFont,
    QFontMetrics,
    QListView,
    QModelIndex,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
    QPointF,
    QRect,
    QRectF,
    QSize,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    Qt,
    QTextCharFormat,
    QTextLayout,
    QTextOption,
    Signal,
)
from philont_desktop.timeline.model import (
    ConversationRole,
    ExpandedRole,
    HighlightRole,
    MessageRole,
    MessagesModel,
)
from philont_desktop.timeline.textutil import ELLIPSIS, clip_spans, preview
from philont_desktop.widgets import plain
from philont_desktop.widgets.conversations import label_of_id
from philont_desktop.widgets.readable import readable_form

OUTER_H = 8
OUTER_V = 3
PAD = 8
BAR = 4
RADIUS = 6
GAP = 3
CACHE_SIZE = 600  # laid-out cards (the ones painted lately)
HEIGHTS_SIZE = 20_000  # card heights: a layout of the whole window asks every row's height
CARD_PARSE_LIMIT = 100_000  # characters of a tool message read as JSON for its card


@dataclass
class _Card:
    layout: QTextLayout
    height: int
    text_height: float
    truncated: bool
    expanded: bool
    hidden: int
    footer: str
    header_h: int
    footer_h: int


def card_text(content: str) -> str:
    """What a tool message's card shows: its readable form (:mod:`core.readable`) when it is JSON of a
    size a card lays out quickly, else the stored text."""
    if len(content) > CARD_PARSE_LIMIT:
        return content
    return readable_form(content).text


def _display(text: str) -> tuple[str, list[int] | None]:
    """Stored text as the card draws it: controls and direction overrides spelled (:func:`plain.plain`:
    ``gnp.exe`` behind U+202E cannot read as ``exe.png``), a CR LF line end as a line end, newlines as
    Qt line separators; with where each offset of ``text`` lands (``None``: the same), for highlights."""
    shown, offsets = plain.with_offsets(text.replace("\r\n", " \n"))
    return shown.replace("\n", "\u2028"), offsets


class MessageDelegate(QStyledItemDelegate):
    """Paints a message card; a click on "Show more/less" (or on a collapsed long message) toggles it."""

    toggleRequested = Signal(int)  # row
    openRequested = Signal(int)  # row: show the full text

    def __init__(self, view: QListView, theme: Any, *, show_conversation: bool = True):
        super().__init__(view)
        self._view = view
        self._theme = theme
        self.show_conversation = show_conversation  # off while the view shows one conversation
        self.now_fn: Callable[[], int] = now_ms  # tests and screenshots pin the clock
        self._cache: OrderedDict[tuple, _Card] = OrderedDict()
        self._heights: dict[tuple, int] = {}
        self._font_cache: dict[str, tuple] = {}
        self._font_key = ""
        self._vp_width = 0
        self._mono = monospace_font()
        if hasattr(theme, "changed"):
            theme.changed.connect(self.invalidate)

    # -- geometry -------------------------------------------------------------------------------------
    def invalidate(self) -> None:
        self._cache.clear()
        self._heights.clear()
        self._font_cache.clear()
        self._font_key = ""
        if self._view is not None:
            self._view.viewport().update()

    def set_width(self, width: int) -> None:
        """The viewport width (kept by the view, so painting never asks the widget for it)."""
        self._vp_width = width

    def _width(self, option: QStyleOptionViewItem | None = None) -> int:
        w = self._vp_width
        if w <= 0:
            w = self._view.viewport().width()
        if w <= 0 and option is not None:
            w = option.rect.width()
        return max(160, w)

    def _fonts(self, role: str) -> tuple[QFont, QFont]:
        kind = "tool" if role == "tool" else "text"
        got = self._font_cache.get(kind)
        if got is None:
            base = QFont(self._view.font())
            body = QFont(self._mono) if kind == "tool" else QFont(base)
            if kind == "tool":
                body.setPointSizeF(max(6.0, base.pointSizeF() * 0.95))
            bold = QFont(base)
            bold.setBold(True)
            got = (base, body, bold, QFontMetrics(base), QFontMetrics(bold))
            self._font_cache[kind] = got
            self._font_key = base.key()
        return got[0], got[1]

    def _metrics(self) -> tuple[QFont, QFontMetrics, QFont, QFontMetrics]:
        self._fonts("text")
        base, _body, bold, fm, bfm = self._font_cache["text"]
        return base, fm, bold, bfm

    def _key(self, index: QModelIndex, width: int) -> tuple[Any, tuple | None, bool, Any]:
        """The message of a row and its card's cache key (message, expansion, highlight, width, font)."""
        model = index.model()
        row = index.row()
        if isinstance(model, MessagesModel):  # straight to the rows: no trip through Qt's data()
            m = model.row_at(row)
            if m is None:
                return None, None, False, None
            expanded, spans = model.is_expanded(m.id), model.highlight_of(m.id)
        else:
            m = index.data(MessageRole)
            if m is None:
                return None, None, False, None
            expanded, spans = bool(index.data(ExpandedRole)), index.data(HighlightRole) or None
        return m, self._key_of(m, expanded, spans, width), expanded, spans

    def _key_of(self, m: Any, expanded: bool, spans: Any, width: int) -> tuple:
        if not self._font_key:
            self._fonts("text")
        return (m.id, expanded, width, tuple(spans) if spans else None, self._font_key)

    def warm(self, messages: list[Any], model: MessagesModel) -> None:
        """Lay out the cards of ``messages`` (rows about to go into ``model``) at the current width, so
        that the list's layout finds their heights instead of laying a whole page out in one turn."""
        width = self._width()
        for m in messages:
            expanded, spans = model.is_expanded(m.id), model.highlight_of(m.id)
            self._card(m, self._key_of(m, expanded, spans, width), expanded, spans)

    def card(self, index: QModelIndex, width: int | None = None) -> _Card | None:
        m, key, expanded, spans = self._key(index, width or self._width())
        if m is None or key is None:
            return None
        return self._card(m, key, expanded, spans)

    def _card(self, m: Any, key: tuple, expanded: bool, spans: Any) -> _Card:
        c = self._cache.get(key)
        if c is not None:
            self._cache.move_to_end(key)
            return c
        c = self._build(m, expanded, spans, key[2])
        self._cache[key] = c
        if len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        if len(self._heights) >= HEIGHTS_SIZE:
            self._heights.clear()
        self._heights[key] = c.height
        return c

    def _highlights(self, spans: list[tuple[int, int]], offsets: list[int] | None) -> list[Any]:
        """The formats of the hits (spans of the text before its controls were spelled)."""
        fmts = []
        hl_bg, hl_fg = self._highlight_colors()
        for s, e in spans:
            if offsets is not None:  # the text may end before the span (trailing space cut)
                s, e = offsets[min(s, len(offsets) - 1)], offsets[min(e, len(offsets) - 1)]
            fr = QTextLayout.FormatRange()
            fr.start = s
            fr.length = e - s
            f = QTextCharFormat()
            f.setBackground(hl_bg)
            f.setForeground(hl_fg)
            fr.format = f
            fmts.append(fr)
        return fmts

    def _build(self, m: Any, expanded: bool, spans: list[tuple[int, int]] | None, width: int) -> _Card:
        _base, body = self._fonts(m.role)
        content = m.content if isinstance(m.content, str) else str(m.content)
        if m.role == "tool" and not spans:  # a search hit's spans are places in the stored text
            content = card_text(content)
        pv = preview(content, expanded=expanded, focus=spans[0][0] if spans else None)
        text = pv.text
        lead = 0
        if pv.start > 0:
            text = ELLIPSIS + text
            lead = 1
        if pv.truncated and not expanded:
            text = text.rstrip() + " " + ELLIPSIS
        shown, offsets = _display(text)
        layout = QTextLayout(shown, body)
        opt = QTextOption()
        opt.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        layout.setTextOption(opt)
        if spans:
            moved = [(s + lead, e + lead) for s, e in clip_spans(spans, pv.start, len(pv.text))]
            layout.setFormats(self._highlights(moved, offsets))
        text_w = max(40, width - 2 * OUTER_H - BAR - 2 * PAD)
        layout.beginLayout()
        y = 0.0
        while True:
            line = layout.createLine()
            if not line.isValid():
                break
            line.setLineWidth(text_w)
            line.setPosition(QPointF(0, y))
            y += line.height()
        layout.endLayout()
        fm = self._metrics()[1]
        header_h = fm.height() + GAP
        footer = ""
        if pv.truncated or pv.start > 0 or (expanded and len(content) > len(pv.text)):
            if not expanded:
                footer = self.tr("Show more") + f"  ·  {len(content):,} " + self.tr("characters")
            elif pv.hidden_chars > 0:
                footer = (
                    self.tr("Show less")
                    + f"  ·  {pv.hidden_chars:,} "
                    + self.tr("more characters: double-click for the full text")
                )
            else:
                footer = self.tr("Show less")
        elif expanded:
            footer = self.tr("Show less")
        footer_h = (fm.height() + GAP) if footer else 0
        height = int(2 * OUTER_V + 2 * PAD + header_h + y + footer_h + 0.999)
        return _Card(layout, height, y, pv.truncated, expanded, pv.hidden_chars, footer, header_h, footer_h)

    def _highlight_colors(self) -> tuple[QColor, QColor]:
        dark = bool(getattr(self._theme, "is_dark", False))
        return (QColor("#7a5d00"), QColor("#fff6d5")) if dark else (QColor("#ffe066"), QColor("#1f2328"))

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:
        w = self._width(option)
        _m, key, _expanded, _spans = self._key(index, w)
        h = self._heights.get(key) if key is not None else None
        if h is None:
            c = self.card(index, w)
            h = c.height if c else 24
        return QSize(w, h)

    # -- painting -------------------------------------------------------------------------------------
    def _colors(self, role: str) -> tuple[QColor, QColor, QColor]:
        rc = self._theme.role_colors(role)
        return QColor(rc.accent), QColor(rc.background), QColor(rc.text)

    def _role_label(self, role: str) -> str:
        labels = {
            "user": self.tr("User"),
            "assistant": self.tr("Assistant"),
            "tool": "\u2699 " + self.tr("Tool"),
            "system": self.tr("System"),
        }
        return labels.get(role, role or "?")

    def time_text(self, ms: int, room: int, fm: QFontMetrics) -> str:
        """``3 days ago · 2026-11-28 14:05:09``, or the absolute time alone when that does not fit."""
        full = humanize.when(ms, self.now_fn(), seconds=True)
        if fm.horizontalAdvance(full) <= room:
            return full
        return humanize.abs_time(ms, seconds=True)

    def card_rect(self, rect: QRect) -> QRect:
        return rect.adjusted(OUTER_H, OUTER_V, -OUTER_H, -OUTER_V)

    def footer_rect(self, rect: QRect, c: _Card) -> QRect:
        r = self.card_rect(rect)
        return QRect(
            r.left() + BAR + PAD, r.bottom() - PAD - c.footer_h + 1, r.width() - BAR - 2 * PAD, c.footer_h
        )

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        m = index.data(MessageRole)
        c = self.card(index, self._width(option))
        if m is None or c is None:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        accent, bg, fg = self._colors(m.role)
        r = self.card_rect(option.rect)
        self._paint_frame(painter, option, m.role, r, accent, bg)
        x, y, w = r.left() + BAR + PAD, r.top() + PAD, r.width() - BAR - 2 * PAD
        self._paint_header(painter, m, index, QRect(x, y, w, 0), accent, fg)
        painter.setPen(fg)
        c.layout.draw(painter, QPointF(x, y + c.header_h))
        if c.footer:
            base, fm, _bold, _bfm = self._metrics()
            painter.setPen(accent)
            under = QFont(base)
            under.setUnderline(True)
            painter.setFont(under)
            fr = self.footer_rect(option.rect, c)
            painter.drawText(
                fr,
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                fm.elidedText(c.footer, Qt.TextElideMode.ElideRight, fr.width()),
            )
        painter.restore()

    def _paint_frame(
        self, painter: QPainter, option: QStyleOptionViewItem, role: str, r: QRect, accent: QColor, bg: QColor
    ) -> None:
        """The card's rounded background, its border (dashed for tools) and the accent bar."""
        path = QPainterPath()
        path.addRoundedRect(QRectF(r), RADIUS, RADIUS)
        painter.fillPath(path, bg)
        if option.state & QStyle.StateFlag.State_Selected:
            painter.setPen(QPen(option.palette.color(QPalette.ColorRole.Highlight), 2))
        else:
            border = QColor(accent)
            border.setAlpha(70)
            pen = QPen(border, 1)
            if role == "tool":
                pen.setStyle(Qt.PenStyle.DashLine)
            painter.setPen(pen)
        painter.drawPath(path)
        bar = QPainterPath()
        bar.addRoundedRect(QRectF(r.left(), r.top(), BAR + RADIUS, r.height()), RADIUS, RADIUS)
        clip = QPainterPath()
        clip.addRect(QRectF(r.left(), r.top(), BAR, r.height()))
        painter.fillPath(bar.intersected(clip), accent)

    def _paint_header(
        self, painter: QPainter, m: Any, index: QModelIndex, at: QRect, accent: QColor, fg: QColor
    ) -> None:
        """role · conversation · #id ........ relative and absolute time"""
        base, fm, bold, bfm = self._metrics()
        x, y, w = at.left(), at.top(), at.width()
        painter.setFont(bold)
        painter.setPen(accent)
        label = self._role_label(m.role)
        painter.drawText(
            QRect(x, y, w, fm.height()), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, label
        )
        lx = x + bfm.horizontalAdvance(label) + 10
        muted = QColor(self._theme.muted_text()) if hasattr(self._theme, "muted_text") else QColor(fg)
        painter.setFont(base)
        painter.setPen(muted)
        when = self.time_text(m.timestamp, w // 2, fm)
        tw = fm.horizontalAdvance(when)
        painter.drawText(
            QRect(x + w - tw, y, tw, fm.height()),
            Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
            when,
        )
        meta = f"#{m.id}"
        if self.show_conversation:
            meta = f"{label_of_id(index.data(ConversationRole) or m.session_id)}  ·  {meta}"
        avail = max(0, x + w - tw - 12 - lx)
        painter.drawText(
            QRect(lx, y, avail, fm.height()),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            fm.elidedText(meta, Qt.TextElideMode.ElideMiddle, avail),
        )

    def editorEvent(
        self, event: QEvent, model: Any, option: QStyleOptionViewItem, index: QModelIndex
    ) -> bool:
        et = event.type()
        if et == QEvent.Type.MouseButtonRelease and event.button() == Qt.MouseButton.LeftButton:
            c = self.card(index, self._width(option))
            if c is not None and c.footer:
                pos = event.position().toPoint()
                on_footer = self.footer_rect(option.rect, c).adjusted(0, -2, 0, 2).contains(pos)
                if on_footer or (
                    c.truncated and not c.expanded and self.card_rect(option.rect).contains(pos)
                ):
                    self.toggleRequested.emit(index.row())
                    return True
        if et == QEvent.Type.MouseButtonDblClick and event.button() == Qt.MouseButton.LeftButton:
            self.openRequested.emit(index.row())
            return True
        return super().editorEvent(event, model, option, index)
