"""The conversation view: messages as role-coloured cards in a ``QListView``, lazily grown at both ends.

* :class:`MessageDelegate` paints a card per message (role label, local time, session, the text laid out
  with ``QTextLayout``; tool messages in a monospace face). Only a bounded preview of each message is
  laid out (:func:`~philont_desktop.timeline.textutil.preview`), so a 10 MB message paints as fast as a
  short one; its full text opens on demand in :class:`~philont_desktop.widgets.fulltext.FullTextDialog`.
  Lay-outs are cached per message, expansion state and width.
* :class:`ConversationView` keeps the reading position when rows are prepended (older pages) or dropped
  at the top, asks the model for older rows near the top, follows the newest end when it is at the
  bottom, and otherwise shows an "N new" pill when a live refresh appended rows.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from philont_desktop.i18n import monospace_font
from philont_desktop.qt import (
    QAbstractItemView,
    QApplication,
    QColor,
    QEvent,
    QFont,
    QFontMetrics,
    QKeySequence,
    QListView,
    QMenu,
    QModelIndex,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
    QPoint,
    QPointF,
    QPushButton,
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
    QTimer,
    Signal,
)
from philont_desktop.timeline.model import (
    ExpandedRole,
    HighlightRole,
    MessageRole,
    MessagesModel,
    format_local,
)
from philont_desktop.timeline.textutil import ELLIPSIS, clip_spans, preview

OUTER_H = 8
OUTER_V = 3
PAD = 8
BAR = 4
RADIUS = 6
GAP = 3
CACHE_SIZE = 600
FETCH_MARGIN_PX = 120


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


def _display(text: str) -> str:
    """Newlines as Qt line separators (same length: highlight spans stay valid)."""
    return text.replace("\r\n", " \u2028").replace("\n", "\u2028").replace("\r", " ")


class MessageDelegate(QStyledItemDelegate):
    """Paints a message card; a click on "Show more/less" (or on a collapsed long message) toggles it."""

    toggleRequested = Signal(int)  # row
    openRequested = Signal(int)  # row: show the full text

    def __init__(self, view: QListView, theme: Any, *, show_session: bool = True):
        super().__init__(view)
        self._view = view
        self._theme = theme
        self.show_session = show_session
        self._cache: OrderedDict[tuple, _Card] = OrderedDict()
        self._font_cache: dict[str, tuple] = {}
        self._font_key = ""
        self._vp_width = 0
        self._mono = monospace_font()
        if hasattr(theme, "changed"):
            theme.changed.connect(self.invalidate)

    # -- geometry -------------------------------------------------------------------------------------
    def invalidate(self) -> None:
        self._cache.clear()
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

    def card(self, index: QModelIndex, width: int | None = None) -> _Card | None:
        m = index.data(MessageRole)
        if m is None:
            return None
        width = width or self._width()
        expanded = bool(index.data(ExpandedRole))
        spans = index.data(HighlightRole) or None
        if not self._font_key:
            self._fonts("text")
        key = (m.id, expanded, width, tuple(spans) if spans else None, self._font_key)
        c = self._cache.get(key)
        if c is not None:
            self._cache.move_to_end(key)
            return c
        c = self._build(m, expanded, spans, width)
        self._cache[key] = c
        if len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return c

    def _build(self, m: Any, expanded: bool, spans: list[tuple[int, int]] | None, width: int) -> _Card:
        _base, body = self._fonts(m.role)
        content = m.content if isinstance(m.content, str) else str(m.content)
        pv = preview(content, expanded=expanded, focus=spans[0][0] if spans else None)
        text = pv.text
        lead = 0
        if pv.start > 0:
            text = ELLIPSIS + text
            lead = 1
        if pv.truncated and not expanded:
            text = text.rstrip() + " " + ELLIPSIS
        layout = QTextLayout(_display(text), body)
        opt = QTextOption()
        opt.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        layout.setTextOption(opt)
        if spans:
            fmts = []
            hl_bg, hl_fg = self._highlight_colors()
            for s, e in clip_spans(spans, pv.start, len(pv.text)):
                fr = QTextLayout.FormatRange()
                fr.start = s + lead
                fr.length = e - s
                f = QTextCharFormat()
                f.setBackground(hl_bg)
                f.setForeground(hl_fg)
                fr.format = f
                fmts.append(fr)
            layout.setFormats(fmts)
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
        c = self.card(index, w)
        return QSize(w, c.height if c else 24)

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
        path = QPainterPath()
        path.addRoundedRect(QRectF(r), RADIUS, RADIUS)
        painter.fillPath(path, bg)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        if selected:
            painter.setPen(QPen(option.palette.color(QPalette.ColorRole.Highlight), 2))
        else:
            border = QColor(accent)
            border.setAlpha(70)
            pen = QPen(border, 1)
            if m.role == "tool":
                pen.setStyle(Qt.PenStyle.DashLine)
            painter.setPen(pen)
        painter.drawPath(path)
        # accent bar
        bar = QPainterPath()
        bar.addRoundedRect(QRectF(r.left(), r.top(), BAR + RADIUS, r.height()), RADIUS, RADIUS)
        clip = QPainterPath()
        clip.addRect(QRectF(r.left(), r.top(), BAR, r.height()))
        painter.fillPath(bar.intersected(clip), accent)

        base, fm, bold, bfm = self._metrics()
        x = r.left() + BAR + PAD
        y = r.top() + PAD
        w = r.width() - BAR - 2 * PAD
        # header: role · session · #id ........ local time
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
        when = format_local(m.timestamp)
        tw = fm.horizontalAdvance(when)
        painter.drawText(
            QRect(x + w - tw, y, tw, fm.height()),
            Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
            when,
        )
        meta = f"#{m.id}"
        if self.show_session:
            meta = f"{m.session_id}  ·  {meta}"
        avail = max(0, x + w - tw - 12 - lx)
        painter.drawText(
            QRect(lx, y, avail, fm.height()),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            fm.elidedText(meta, Qt.TextElideMode.ElideMiddle, avail),
        )
        # body
        painter.setPen(fg)
        c.layout.draw(painter, QPointF(x, y + c.header_h))
        # footer
        if c.footer:
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


class NewPill(QPushButton):
    """The floating "N new" button at the bottom of the conversation."""

    def __init__(self, parent):
        super().__init__(parent)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setObjectName("newMessagesPill")
        self.count = 0
        self.hide()

    def restyle(self, theme: Any) -> None:
        accent = theme.role_color("user") if theme is not None else QColor("#1f6feb")
        self.setStyleSheet(
            f"QPushButton#newMessagesPill {{ background: {accent.name()}; color: white; border: none;"
            " border-radius: 12px; padding: 4px 14px; font-weight: bold; }"
        )


class ConversationView(QListView):
    """A list of message cards that keeps its reading position while pages arrive at either end."""

    messageActivated = Signal(object)  # the Message double-clicked / opened
    newPillClicked = Signal()
    firstRowsPainted = Signal()  # once: messages were painted for the first time

    def __init__(self, model: MessagesModel, theme: Any, parent=None):
        super().__init__(parent)
        self._model = model
        self._theme = theme
        self.setModel(model)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # always there: a scroll bar that appears would change the width and lay every card out again
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setUniformItemSizes(False)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setWordWrap(True)
        self.setMouseTracking(True)
        self.setFrameShape(QListView.Shape.NoFrame)
        self.verticalScrollBar().setSingleStep(24)
        self.delegate = MessageDelegate(self, theme)
        self.setItemDelegate(self.delegate)
        self.delegate.toggleRequested.connect(self._toggle)
        self.delegate.openRequested.connect(self._open)
        self.pill = NewPill(self.viewport())
        self.pill.clicked.connect(self._pill_clicked)
        self.pill.restyle(theme)
        if hasattr(theme, "changed"):
            theme.changed.connect(lambda: self.pill.restyle(theme))
        self._anchor: tuple[int, int] | None = None  # (message id, top y) kept across top changes
        self._stick_bottom = True
        self._pending_new = 0
        self._scroll_to_row_after_reset: int | None = None
        model.rowsAboutToBeInserted.connect(self._before_insert)
        model.rowsInserted.connect(self._after_insert)
        model.rowsAboutToBeRemoved.connect(self._before_remove)
        model.rowsRemoved.connect(self._after_remove)
        model.modelAboutToBeReset.connect(self._before_reset)
        model.modelReset.connect(self._after_reset)
        model.anchorReady.connect(self.scroll_to_anchor)
        model.liveAppended.connect(self._on_live)
        model.newerPending.connect(self._on_newer_pending)
        self.verticalScrollBar().valueChanged.connect(self._on_scroll)
        self.verticalScrollBar().rangeChanged.connect(self._on_range)
        self._bottom_timer = QTimer(self)
        self._bottom_timer.setSingleShot(True)
        self._bottom_timer.setInterval(0)
        self._bottom_timer.timeout.connect(self.scrollToBottom)
        self._anchor_timer = QTimer(self)
        self._anchor_timer.setSingleShot(True)
        self._anchor_timer.setInterval(0)
        self._anchor_timer.timeout.connect(self._apply_anchor)
        self._fill_timer = QTimer(self)
        self._fill_timer.setSingleShot(True)
        self._fill_timer.setInterval(0)
        self._fill_timer.timeout.connect(self._maybe_fetch_older)
        self._anchor_row: int | None = None
        self._rows_painted = False

    # -- position --------------------------------------------------------------------------------------
    def at_bottom(self) -> bool:
        sb = self.verticalScrollBar()
        return sb.value() >= sb.maximum() - 4

    def _top_anchor(self) -> tuple[int, int] | None:
        idx = self.indexAt(QPoint(OUTER_H + 2, 1))
        if not idx.isValid():
            idx = self.indexAt(self.viewport().rect().center())
        if not idx.isValid():
            return None
        m = idx.data(MessageRole)
        return (m.id, self.visualRect(idx).top()) if m is not None else None

    def _restore_anchor(self) -> None:
        anchor, self._anchor = self._anchor, None
        if anchor is None:
            return
        row = self._model.row_of(anchor[0])
        if row < 0:
            return
        self.doItemsLayout()
        idx = self._model.index(row, 0)
        delta = self.visualRect(idx).top() - anchor[1]
        if delta:
            sb = self.verticalScrollBar()
            sb.setValue(sb.value() + delta)

    def _before_insert(self, parent: QModelIndex, first: int, last: int) -> None:
        self._stick_bottom = self.at_bottom() and self._model.rowCount() > 0 and not self._model.has_newer
        if first == 0 and self._model.rowCount() > 0:
            self._anchor = self._top_anchor()

    def _after_insert(self, parent: QModelIndex, first: int, last: int) -> None:
        if first == 0 and self._anchor is not None:
            self._restore_anchor()
        elif self._stick_bottom and first > 0:
            self._bottom_timer.start()
        self._fill_timer.start()

    def _before_remove(self, parent: QModelIndex, first: int, last: int) -> None:
        if first == 0:
            self._anchor = self._top_anchor()

    def _after_remove(self, parent: QModelIndex, first: int, last: int) -> None:
        if first == 0:
            self._restore_anchor()

    def _before_reset(self) -> None:
        self.hide_pill()

    def _after_reset(self) -> None:
        if self._anchor_row is None and self._model.anchor_pending is None:
            self._settle_bottom()
        self._fill_timer.start()

    def _settle_bottom(self) -> None:
        if self._model.rowCount():
            self.doItemsLayout()
        self.scrollToBottom()
        self._stick_bottom = True

    def scroll_to_anchor(self, row: int) -> None:
        """Show ``row`` (a search hit, a time) in the middle of the view and select it."""
        self._anchor_row = row
        self._anchor_timer.start()

    def _apply_anchor(self) -> None:
        row, self._anchor_row = self._anchor_row, None
        if row is None or not 0 <= row < self._model.rowCount():
            self._model.release_hold()
            return
        idx = self._model.index(row, 0)
        self.doItemsLayout()
        self.scrollTo(idx, QAbstractItemView.ScrollHint.PositionAtCenter)
        self.setCurrentIndex(idx)
        self._stick_bottom = self.at_bottom() and not self._model.has_newer
        self._model.release_hold()
        if self.at_bottom() and self._model.canFetchMore(QModelIndex()):
            self._model.fetchMore(QModelIndex())
        self._fill_timer.start()

    def _on_range(self, _lo: int, _hi: int) -> None:
        self._fill_timer.start()

    def _on_scroll(self, value: int) -> None:
        if value <= FETCH_MARGIN_PX:
            self._fill_timer.start()
        if self.at_bottom():
            if self._model.has_newer and self._model.canFetchMore(QModelIndex()):
                self._model.fetchMore(QModelIndex())
            elif not self._model.has_newer:
                self.hide_pill()
                self._stick_bottom = True
        else:
            self._stick_bottom = False

    def _maybe_fetch_older(self) -> None:
        if self._anchor_row is not None:
            return
        sb = self.verticalScrollBar()
        if sb.value() <= FETCH_MARGIN_PX or sb.maximum() == 0:
            self._model.fetch_older()

    # -- live ----------------------------------------------------------------------------------------------
    def _on_live(self, n: int) -> None:
        if self._stick_bottom:
            self._bottom_timer.start()
            return
        self._pending_new += n
        self.show_pill(self._pending_new)

    def _on_newer_pending(self, n: int) -> None:
        self._pending_new = n
        self.show_pill(n)

    def show_pill(self, n: int) -> None:
        self.pill.count = n
        if n == 1:
            text = self.tr("1 new message")
        elif n < 1000:
            text = self.tr("%1 new messages").replace("%1", str(n))
        else:
            text = self.tr("999+ new messages")
        self.pill.setText("\u2193 " + text)
        self.pill.adjustSize()
        self._place_pill()
        self.pill.show()
        self.pill.raise_()

    def hide_pill(self) -> None:
        self._pending_new = 0
        self.pill.count = 0
        self.pill.hide()

    @property
    def pill_visible(self) -> bool:
        return not self.pill.isHidden()

    def _place_pill(self) -> None:
        vp = self.viewport()
        self.pill.move((vp.width() - self.pill.width()) // 2, vp.height() - self.pill.height() - 12)

    def resizeEvent(self, event) -> None:
        self.delegate.set_width(self.viewport().width())
        super().resizeEvent(event)
        self.delegate.set_width(self.viewport().width())
        self._place_pill()

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        if not self._rows_painted and self._model.rowCount() > 0:
            self._rows_painted = True
            self.firstRowsPainted.emit()

    def changeEvent(self, event) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.LanguageChange):
            self.delegate.invalidate()
        super().changeEvent(event)

    def _pill_clicked(self) -> None:
        self.hide_pill()
        if self._model.has_newer:
            self._model.load_newest()
        else:
            self.scrollToBottom()
            self._stick_bottom = True
        self.newPillClicked.emit()

    # -- interaction -----------------------------------------------------------------------------------
    def _toggle(self, row: int) -> None:
        self._model.toggle_expanded(row)
        idx = self._model.index(row, 0)
        self.doItemsLayout()
        self.scrollTo(idx, QAbstractItemView.ScrollHint.EnsureVisible)

    def _open(self, row: int) -> None:
        m = self._model.message_at(row)
        if m is not None:
            self.messageActivated.emit(m)

    def selected_messages(self) -> list[Any]:
        rows = sorted(i.row() for i in self.selectionModel().selectedIndexes())
        return [m for m in (self._model.message_at(r) for r in rows) if m is not None]

    def copy_selection(self) -> None:
        msgs = self.selected_messages()
        if not msgs:
            return
        parts = [f"[{format_local(m.timestamp)}] {m.role}: {m.content}" for m in msgs]
        QApplication.clipboard().setText("\n\n".join(parts))

    def contextMenuEvent(self, event) -> None:
        idx = self.indexAt(event.pos())
        if not idx.isValid():
            return
        if not self.selectionModel().isSelected(idx):
            self.setCurrentIndex(idx)
        m = idx.data(MessageRole)
        menu = QMenu(self)
        expanded = self._model.is_expanded(m.id)
        menu.addAction(
            self.tr("Collapse") if expanded else self.tr("Expand"), lambda: self._toggle(idx.row())
        )
        menu.addAction(self.tr("Open full text…"), lambda: self.messageActivated.emit(m))
        menu.addAction(self.tr("Copy"), self.copy_selection)
        menu.exec(event.globalPos())

    def keyPressEvent(self, event) -> None:
        if event.matches(QKeySequence.StandardKey.Copy):
            self.copy_selection()
            return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            idx = self.currentIndex()
            if idx.isValid():
                self._toggle(idx.row())
                return
        super().keyPressEvent(event)
