"""The budgets of a preview: a bar per budget (used against its limit, stacked by what uses it) and the
legend of the memory prefix's sections."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.context import ContextResult
from philont_desktop.context_tab import texts
from philont_desktop.context_tab.htmltext import esc, fmt_int
from philont_desktop.qt import (
    QColor,
    QFont,
    QFontMetrics,
    QLabel,
    QPainter,
    QPalette,
    QRect,
    QRectF,
    QSize,
    Qt,
    QToolTip,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.theme import Theme
from philont_desktop.widgets.flow import FlowLayout

SEGMENT_COLORS_LIGHT = (
    "#1f6feb", "#1a7f37", "#9a6700", "#8250df", "#cf222e", "#0a7ea4",
    "#bf3989", "#57606a", "#6b8e00", "#e36209", "#3d5afe", "#00897b",
)  # fmt: skip
SEGMENT_COLORS_DARK = (
    "#58a6ff", "#3fb950", "#d29922", "#bc8cff", "#f85149", "#39c5cf",
    "#ff7eb6", "#8b949e", "#a5d610", "#ffa657", "#8c9eff", "#4db6ac",
)  # fmt: skip
WRAP = Qt.TextFlag.TextWordWrap
BUDGETS = ("recent_tokens", "recall_tokens", "recent_messages", "recall_candidates", "prefix_chars")


class BudgetBar(QWidget):
    """One budget: a title, ``used / limit`` and a bar of stacked parts; past the limit is drawn red."""

    BAR_H = 8
    GAP = 3

    def __init__(self, theme: Theme, parent: QWidget | None = None):
        super().__init__(parent)
        self.theme = theme
        self.title = ""
        self.used = 0
        self.limit = 0
        self.unit = ""
        self.parts: list[tuple[str, int, QColor]] = []
        self.setMouseTracking(True)
        self.setMinimumHeight(self._height())

    def _height(self) -> int:
        return QFontMetrics(self.font()).height() + self.GAP + self.BAR_H + 2

    def sizeHint(self) -> QSize:
        return QSize(260, self._height())

    def two_lines(self, width: int) -> bool:
        """Whether the title and ``used / limit`` need a line each at ``width`` (large text, a narrow
        panel): they are never drawn over each other."""
        fm = QFontMetrics(self.font())
        need = (
            fm.horizontalAdvance(self.title)
            + fm.horizontalAdvance("  ")
            + fm.horizontalAdvance(self.value_text)
        )
        return need > width

    def _title_height(self, width: int) -> int:
        """The title's height at ``width``: one line, or as many as it takes wrapped between words
        (never cut at the pane's edge)."""
        fm = QFontMetrics(self.font())
        if fm.horizontalAdvance(self.title) <= width:
            return fm.height()
        return fm.boundingRect(QRect(0, 0, max(1, width), 1 << 16), WRAP, self.title).height()

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        if not self.two_lines(width):
            return self._height()
        return self._height() + self._title_height(width)

    def _fit_height(self) -> None:
        height = self.heightForWidth(self.width())
        if height != self.minimumHeight():
            self.setMinimumHeight(height)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._fit_height()

    def set_data(
        self, title: str, used: int, limit: int, unit: str, parts: Sequence[tuple[str, int, QColor]]
    ) -> None:
        self.title, self.used, self.limit, self.unit = title, int(used), int(limit), unit
        self.parts = [(n, int(v), c) for n, v, c in parts if v > 0]
        self.setToolTip(self.tooltip_text())
        self._fit_height()
        self.update()

    @property
    def value_text(self) -> str:
        return f"{fmt_int(self.used)} / {fmt_int(self.limit)} {self.unit}".rstrip()

    def tooltip_text(self) -> str:
        lines = [f"{self.title}: {self.value_text}"]
        lines += [f"  {n}: {fmt_int(v)}" for n, v, _c in self.parts]
        return "\n".join(lines)

    def _scale(self) -> int:
        return max(self.used, self.limit, 1)

    def paintEvent(self, _event: Any) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        pal = self.palette()
        fm = QFontMetrics(self.font())
        w = self.width()
        text_h = fm.height()
        p.setPen(pal.color(QPalette.ColorRole.WindowText))
        two = self.two_lines(w)
        title_h = self._title_height(w) if two else text_h
        p.drawText(QRectF(0, 0, w, title_h), Qt.AlignmentFlag.AlignLeft | WRAP, self.title)
        over = self.limit > 0 and self.used > self.limit
        val_color = self.theme.status_color("error") if over else pal.color(QPalette.ColorRole.WindowText)
        p.setPen(val_color)
        value_top = title_h if two else 0
        p.drawText(
            QRectF(0, value_top, w, text_h),
            Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
            self.value_text,
        )
        top, bar_h = value_top + text_h + self.GAP, self.BAR_H
        track = QRectF(0, top, w, bar_h)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(
            pal.color(QPalette.ColorRole.Midlight if not self.theme.is_dark else QPalette.ColorRole.Light)
        )
        p.drawRoundedRect(track, 3, 3)
        scale = self._scale()
        x = 0.0
        for _n, v, color in self.parts:
            seg = w * v / scale
            p.setBrush(color)
            p.drawRect(QRectF(x, top, seg, bar_h))
            x += seg
        if over:
            lim_x = w * self.limit / scale
            red = QColor(self.theme.status_color("error"))
            red.setAlpha(90)
            p.setBrush(red)
            p.drawRect(QRectF(lim_x, top, w - lim_x, bar_h))
        if self.limit > 0:
            lim_x = min(w - 1.0, w * self.limit / scale)
            p.setPen(pal.color(QPalette.ColorRole.WindowText))
            p.drawLine(int(lim_x), top - 2, int(lim_x), top + bar_h + 2)
        p.end()

    def mouseMoveEvent(self, event: Any) -> None:
        scale = self._scale()
        x = event.position().x()
        acc = 0.0
        for n, v, _c in self.parts:
            seg = self.width() * v / scale
            if acc <= x < acc + seg:
                QToolTip.showText(event.globalPosition().toPoint(), f"{n}: {fmt_int(v)}", self)
                return
            acc += seg
        super().mouseMoveEvent(event)


class BudgetPanel(QWidget):
    """A bar per budget and the legend of the prefix's sections."""

    def __init__(self, theme: Theme, parent: QWidget | None = None):
        super().__init__(parent)
        self.theme = theme
        self.bars: dict[str, BudgetBar] = {}
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)
        head = QLabel(self.tr("Budgets"), self)
        f = QFont(head.font())
        f.setBold(True)
        head.setFont(f)
        lay.addWidget(head)
        for name in BUDGETS:
            bar = BudgetBar(theme, self)
            bar.setObjectName(f"budget_{name}")
            self.bars[name] = bar
            lay.addWidget(bar)
        self.legend = QWidget(self)
        self.legend.setObjectName("prefixLegend")
        self._legend_flow = FlowLayout(self.legend)
        lay.addWidget(self.legend)

    def _colors(self) -> tuple[str, ...]:
        return SEGMENT_COLORS_DARK if self.theme.is_dark else SEGMENT_COLORS_LIGHT

    def set_result(self, r: ContextResult) -> None:
        cols = self._colors()
        legend: list[tuple[str, str]] = []
        for use in r.budgets():
            title, unit = texts.budget_title(use.name)
            parts: list[tuple[str, int, QColor]] = []
            if use.name == "prefix_chars":
                for i, (n, v) in enumerate(use.parts):
                    color = cols[i % len(cols)]
                    label = texts.section_title(n)
                    parts.append((label, v, QColor(color)))
                    legend.append((color, f"{label} {fmt_int(v)}"))
            elif use.parts:
                for i, (n, v) in enumerate(use.parts):
                    parts.append((texts.budget_part(n), v, QColor(cols[i if i == 0 else 2])))
            else:
                parts.append((title, use.used, QColor(cols[0])))
            self.bars[use.name].set_data(title, use.used, use.limit, unit, parts)
        self._set_legend(legend)

    def _set_legend(self, entries: Sequence[tuple[str, str]]) -> None:
        """One label per section, each kept whole: the flow wraps between entries, never inside one. The
        labels are kept from one preview to the next (a preview follows every pause in typing): only
        their texts change, and labels are added or removed when the number of sections does."""
        flow = self._legend_flow
        while flow.count() > len(entries):
            gone = flow.takeAt(flow.count() - 1).widget()
            gone.hide()
            gone.deleteLater()
        while flow.count() < len(entries):
            entry = QLabel(self.legend)
            entry.setTextFormat(Qt.TextFormat.RichText)
            entry.setWordWrap(True)  # large text in a narrow pane: an entry wider than the pane wraps
            flow.addWidget(entry)
        for i, (color, text) in enumerate(entries):
            entry = flow.itemAt(i).widget()
            entry.setText(f"<span style='color:{color}'>■</span>&nbsp;{esc(text)}")
            entry.setProperty("plain_text", text)

    def legend_texts(self) -> list[str]:
        """The legend's entries as plain text, in order."""
        flow = self._legend_flow
        return [str(flow.itemAt(i).widget().property("plain_text")) for i in range(flow.count())]
