"""The search results under the conversation list: a header (how many hits, how found, which one is
shown) and the hits as two-line snippets, or a short message when there is none."""

from __future__ import annotations

from typing import Any

from philont_desktop import humanize
from philont_desktop.qt import (
    QAbstractItemView,
    QColor,
    QFont,
    QFontMetrics,
    QItemSelectionModel,
    QLabel,
    QModelIndex,
    QPainter,
    QPalette,
    QPointF,
    QRect,
    QSize,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    Qt,
    QTextCharFormat,
    QTextLayout,
    QTextOption,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.timeline.search import HitRole, HitRow, SearchResultsModel
from philont_desktop.timeline.widgets.placeholder import PlaceholderListView
from philont_desktop.widgets.conversations import label_of_id


def highlight_colors(theme: Any) -> tuple[QColor, QColor]:
    """Background and text of a highlighted match, readable in the light and the dark theme."""
    dark = bool(getattr(theme, "is_dark", False))
    return (QColor("#7a5d00"), QColor("#fff6d5")) if dark else (QColor("#ffe066"), QColor("#1f2328"))


def role_label(role: str) -> str:
    from philont_desktop.qt import QCoreApplication

    labels = {
        "user": QCoreApplication.translate("TimelineTab", "User"),
        "assistant": QCoreApplication.translate("TimelineTab", "Assistant"),
        "tool": QCoreApplication.translate("TimelineTab", "Tool"),
        "system": QCoreApplication.translate("TimelineTab", "System"),
    }
    return labels.get(role, role or "?")


class HitDelegate(QStyledItemDelegate):
    """Two lines per hit: role · time · conversation, then the snippet with the matches highlighted."""

    def __init__(self, view: Any, theme: Any):
        super().__init__(view)
        self._view = view
        self._theme = theme

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:
        fm = QFontMetrics(self._view.font())
        return QSize(200, fm.height() * 2 + 14)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        h: HitRow | None = index.data(HitRole)
        if h is None:
            return
        painter.save()
        r = option.rect
        pal = option.palette
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        if selected:
            painter.fillRect(r, pal.color(QPalette.ColorRole.Highlight))
        elif index.row() % 2:
            painter.fillRect(r, pal.color(QPalette.ColorRole.AlternateBase))
        font = QFont(self._view.font())
        fm = QFontMetrics(font)
        x, y, w = r.left() + 8, r.top() + 5, r.width() - 14
        accent = QColor(self._theme.role_colors(h.role).accent)
        painter.fillRect(QRect(r.left() + 2, r.top() + 4, 3, r.height() - 8), accent)
        self._paint_meta(painter, h, font, fm, (x, y, w), selected, pal, accent)
        self._paint_snippet(painter, h, font, fm, (x, y, w), selected, pal)
        painter.restore()

    def _paint_meta(self, painter, h, font, fm, box, selected, pal, accent) -> None:
        x, y, w = box
        bold = QFont(font)
        bold.setBold(True)
        painter.setFont(bold)
        painter.setPen(pal.color(QPalette.ColorRole.HighlightedText) if selected else accent)
        role = role_label(h.role)
        role_w = QFontMetrics(bold).horizontalAdvance(role) + 8
        painter.drawText(QRect(x, y, role_w, fm.height()), Qt.AlignmentFlag.AlignVCenter, role)
        painter.setFont(font)
        muted = (
            pal.color(QPalette.ColorRole.HighlightedText) if selected else QColor(self._theme.muted_text())
        )
        painter.setPen(muted)
        meta = f"{humanize.abs_time(h.timestamp)}  ·  {label_of_id(h.conversation)}  ·  #{h.message_id}"
        painter.drawText(
            QRect(x + role_w, y, w - role_w, fm.height()),
            Qt.AlignmentFlag.AlignVCenter,
            fm.elidedText(meta, Qt.TextElideMode.ElideRight, max(0, w - role_w)),
        )

    def _paint_snippet(self, painter, h, font, fm, box, selected, pal) -> None:
        x, y, w = box
        layout = QTextLayout(h.snippet, font)
        opt = QTextOption()
        opt.setWrapMode(QTextOption.WrapMode.NoWrap)
        layout.setTextOption(opt)
        bg, fg = highlight_colors(self._theme)
        fmts = []
        for s, e in h.snippet_spans:
            fr = QTextLayout.FormatRange()
            fr.start, fr.length = s, e - s
            f = QTextCharFormat()
            f.setBackground(bg)
            f.setForeground(fg)
            f.setFontWeight(QFont.Weight.Bold)
            fr.format = f
            fmts.append(fr)
        layout.setFormats(fmts)
        layout.beginLayout()
        line = layout.createLine()
        if line.isValid():
            line.setLineWidth(100_000)
        layout.endLayout()
        painter.setClipRect(QRect(x, y + fm.height() + 2, w, fm.height() + 2))
        painter.setPen(pal.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text))
        layout.draw(painter, QPointF(x, y + fm.height() + 2))


class ResultsPane(QWidget):
    """The hits of the search; ``hitChosen(row)`` when one is clicked or becomes current."""

    hitChosen = Signal(int)

    def __init__(self, model: SearchResultsModel, theme: Any, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = model
        self.header = QLabel(self)
        self.header.setObjectName("resultsHeader")
        self.header.setWordWrap(True)
        self.header.setTextFormat(Qt.TextFormat.PlainText)
        self.view = PlaceholderListView(theme, self)
        self.view.setObjectName("searchResults")
        self.view.setModel(model)
        self.view.setItemDelegate(HitDelegate(self.view, theme))
        self.view.setUniformItemSizes(True)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.selectionModel().currentRowChanged.connect(self._on_current)
        self.view.clicked.connect(lambda idx: self.hitChosen.emit(idx.row()))
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 4, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(self.header)
        lay.addWidget(self.view, 1)
        self._quiet = False

    def _on_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid() and not self._quiet:
            self.hitChosen.emit(current.row())

    def show_current(self, row: int) -> None:
        """Make hit ``row`` the current one (without announcing it again) and scroll to it."""
        idx = self.model.index(row, 0)
        if not idx.isValid():
            return
        if self.view.currentIndex() != idx:
            self._quiet = True
            try:
                self.view.selectionModel().setCurrentIndex(
                    idx, QItemSelectionModel.SelectionFlag.ClearAndSelect
                )
            finally:
                self._quiet = False
        self.view.scrollTo(idx)

    def set_texts(self, header: str, placeholder: str) -> None:
        self.header.setText(header)
        self.view.set_placeholder(placeholder)
