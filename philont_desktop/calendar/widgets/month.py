"""The Calendar tab's month grid: six weeks of days (Monday first), each with what falls on it.

A cell shows the day's number and its first entries ("14:00 Dentist"), coloured by kind and status
(overdue, paused), then "+N more"; its tooltip lists them all as plain
text. Clicking a day emits ``dayChanged`` with the day and its entries (the details pane shows them).
What is on each day comes from :mod:`philont_desktop.calendar.agenda` (no Qt there).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from philont_desktop.calendar.agenda import DayEntry, month_days, month_entries, month_of, shift_month
from philont_desktop.qt import (
    QAbstractTableModel,
    QColor,
    QCoreApplication,
    QDate,
    QDateTime,
    QFont,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLocale,
    QModelIndex,
    QPalette,
    QPersistentModelIndex,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    Qt,
    QTableView,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.widgets import plain

DayRole = Qt.ItemDataRole.UserRole + 1
EntriesRole = Qt.ItemDataRole.UserRole + 2
Index = QModelIndex | QPersistentModelIndex


def entry_time(e: DayEntry) -> str:
    return QDateTime.fromMSecsSinceEpoch(int(e.at)).toString("HH:mm")


def status_text(status: str) -> str:
    return {
        "overdue": QCoreApplication.translate("MonthGrid", "overdue"),
        "paused": QCoreApplication.translate("MonthGrid", "paused"),
    }.get(status, "")


def entry_line(e: DayEntry) -> str:
    """``14:00 Dentist`` or ``09:00 交房租 (overdue)``: one line of a day, plain text (controls and direction
    overrides of the stored title visible; ``⚠`` in front of an event or task with an unreadable value)."""
    title = plain.plain(" ".join(e.title.split()), 300, one_line=True)
    text = f"{entry_time(e)} {plain.MARK + ' ' if e.damaged else ''}{title}"
    st = status_text(e.status)
    return f"{text} ({st})" if st else text


class MonthModel(QAbstractTableModel):
    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self.days: list[dt.date] = []
        self.entries: dict[dt.date, list[DayEntry]] = {}
        self.month = (2000, 1)
        self.today: dt.date | None = None

    def set_month(self, year: int, month: int, state: Any) -> None:
        self.beginResetModel()
        self.month = (year, month)
        self.days = month_days(year, month)
        self.entries = month_entries(state.events, state.schedules, self.days, state.now, state.paused)
        self.today = dt.datetime.fromtimestamp(state.now / 1000).date() if state.now else None
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() or not self.days else 6

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 7

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return QLocale().dayName(section + 1, QLocale.FormatType.ShortFormat)
        return None

    def day_at(self, index: Index) -> dt.date | None:
        if not index.isValid() or not self.days:
            return None
        i = index.row() * 7 + index.column()
        return self.days[i] if 0 <= i < len(self.days) else None

    def index_of_day(self, day: dt.date) -> QModelIndex:
        if day not in self.days:
            return QModelIndex()
        i = self.days.index(day)
        return self.index(i // 7, i % 7)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole):
        day = self.day_at(index)
        if day is None:
            return None
        items = self.entries.get(day, [])
        if role == Qt.ItemDataRole.DisplayRole:
            return str(day.day)
        if role == Qt.ItemDataRole.ToolTipRole:
            head = QLocale().toString(QDate(day.year, day.month, day.day), QLocale.FormatType.LongFormat)
            lines = [head] + [entry_line(e) for e in items]
            return plain.tooltip("\n".join(lines))
        if role == DayRole:
            return day
        if role == EntriesRole:
            return items
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return "; ".join([str(day)] + [entry_line(e) for e in items])
        return None


class DayDelegate(QStyledItemDelegate):
    """Paints a day: its number (bold today, muted outside the month), then its first entries."""

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self.colors: dict[str, QColor] = {}

    def paint(self, painter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        model: MonthModel = index.model()
        day = model.day_at(index)
        if day is None:
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        style = opt.widget.style() if opt.widget else QStyle()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        pal = option.palette
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        base = pal.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        muted = self.colors.get("muted", pal.color(QPalette.ColorRole.PlaceholderText))
        rect = option.rect.adjusted(4, 2, -4, -2)
        fm = option.fontMetrics
        line_h = fm.height()
        painter.save()
        font = QFont(option.font)
        font.setBold(day == model.today)
        painter.setFont(font)
        in_month = (day.year, day.month) == model.month
        painter.setPen(base if in_month or selected else muted)
        painter.drawText(rect.x(), rect.y() + fm.ascent(), str(day.day))
        painter.setFont(option.font)
        items = model.entries.get(day, [])
        room = max(0, (rect.height() - line_h) // line_h)
        shown = items if len(items) <= room else items[: max(0, room - 1)]
        y = rect.y() + line_h
        for e in shown:
            painter.setPen(base if selected else self._color(e, base, muted))
            text = fm.elidedText(entry_line(e), Qt.TextElideMode.ElideRight, rect.width())
            painter.drawText(rect.x(), y + fm.ascent(), text)
            y += line_h
        if len(shown) < len(items):
            painter.setPen(base if selected else muted)
            more = QCoreApplication.translate("MonthGrid", "+%n more", None, len(items) - len(shown))
            painter.drawText(
                rect.x(), y + fm.ascent(), fm.elidedText(more, Qt.TextElideMode.ElideRight, rect.width())
            )
        painter.restore()

    def _color(self, e: DayEntry, base: QColor, muted: QColor) -> QColor:
        if e.status == "overdue":
            return self.colors.get("overdue_text", base)
        if e.status == "paused":
            return self.colors.get("paused", muted)
        if e.kind == "task":
            return self.colors.get("task", base)
        return base


class MonthView(QWidget):
    """The month's title with previous / today / next, over the grid. Emits ``dayChanged(object, list)``."""

    dayChanged = Signal(object, list)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = MonthModel(self)
        self.delegate = DayDelegate(self)
        self.grid = QTableView(self)
        self.grid.setObjectName("calendar_month")
        self.grid.setModel(self.model)
        self.grid.setItemDelegate(self.delegate)
        self.grid.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.grid.verticalHeader().hide()
        self.grid.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.grid.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.grid.verticalHeader().setMinimumSectionSize(20)
        self.grid.setWordWrap(False)
        self.grid.selectionModel().currentChanged.connect(lambda *_: self._emit_day())
        self.title = QLabel(self)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.prev_button = QPushButton("‹", self)
        self.next_button = QPushButton("›", self)
        self.today_button = QPushButton(self.tr("Today"), self)
        self.prev_button.setToolTip(self.tr("Previous month"))
        self.next_button.setToolTip(self.tr("Next month"))
        for b in (self.prev_button, self.next_button):
            b.setFixedWidth(32)
        self.prev_button.clicked.connect(lambda: self.go(-1))
        self.next_button.clicked.connect(lambda: self.go(1))
        self.today_button.clicked.connect(lambda: self.go(0))
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(self.prev_button)
        bar.addWidget(self.today_button)
        bar.addWidget(self.next_button)
        bar.addSpacing(8)
        bar.addWidget(self.title, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.grid, 1)
        self._state: Any = None
        self.month: tuple[int, int] | None = None  # None: the month of "now"

    def go(self, delta: int) -> None:
        """``delta`` months from the one shown; 0: the month of today."""
        if self._state is None:
            return
        if delta == 0 or self.month is None:
            self.month = month_of(self._state.now) if self._state.now else None
        if delta and self.month is not None:
            self.month = shift_month(*self.month, delta)
        self._fill(select_today=delta == 0)

    def show_state(self, state: Any) -> None:
        self._state = state
        keep = self.grid.currentIndex().data(DayRole)
        self._fill(select_today=keep is None, keep=keep)

    def _fill(self, *, select_today: bool = False, keep: dt.date | None = None) -> None:
        s = self._state
        if s is None or not s.now:
            return
        year, month = self.month or month_of(s.now)
        self.model.set_month(year, month, s)
        self.retranslate()
        day = keep if keep in self.model.days else (self.model.today if select_today else None)
        if day is None or day not in self.model.days:
            day = dt.date(year, month, 1)
        self.grid.setCurrentIndex(self.model.index_of_day(day))

    def retranslate(self) -> None:
        self.today_button.setText(self.tr("Today"))
        year, month = self.model.month
        self.title.setText(QLocale().toString(QDate(year, month, 1), self.tr("MMMM yyyy")))

    def set_colors(self, colors: dict[str, QColor]) -> None:
        self.delegate.colors = dict(colors)
        self.grid.viewport().update()

    def selected_day(self) -> tuple[dt.date | None, list[DayEntry]]:
        idx = self.grid.currentIndex()
        return idx.data(DayRole), list(idx.data(EntriesRole) or [])

    def _emit_day(self) -> None:
        day, items = self.selected_day()
        self.dayChanged.emit(day, items)
