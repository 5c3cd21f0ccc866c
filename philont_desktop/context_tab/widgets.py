"""Widgets of the Context tab: budget bars, the left-out table, the past-message picker and the diff view."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from core.context import ContextResult, LeftOut
from core.models import Message
from philont_desktop.context_tab.diff import DiffResult
from philont_desktop.context_tab.model import PickerPage, job_user_messages
from philont_desktop.context_tab.render import esc, first_line, fmt_int, highlight_html, local_time
from philont_desktop.qt import (
    QAbstractItemView,
    QAbstractTextDocumentLayout,
    QApplication,
    QColor,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFont,
    QFontMetrics,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPainter,
    QPalette,
    QPushButton,
    QRectF,
    QSize,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    Qt,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QTextDocument,
    QTimer,
    QToolTip,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.theme import Theme

SEGMENT_COLORS_LIGHT = (
    "#1f6feb", "#1a7f37", "#9a6700", "#8250df", "#cf222e", "#0a7ea4",
    "#bf3989", "#57606a", "#6b8e00", "#e36209", "#3d5afe", "#00897b",
)  # fmt: skip
SEGMENT_COLORS_DARK = (
    "#58a6ff", "#3fb950", "#d29922", "#bc8cff", "#f85149", "#39c5cf",
    "#ff7eb6", "#8b949e", "#a5d610", "#ffa657", "#8c9eff", "#4db6ac",
)  # fmt: skip


class BudgetBar(QWidget):
    """One budget: a title, ``used / limit`` and a bar of stacked parts; past the limit is drawn red."""

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
        return QFontMetrics(self.font()).height() + 18

    def sizeHint(self) -> QSize:
        return QSize(260, self._height())

    def set_data(
        self, title: str, used: int, limit: int, unit: str, parts: Sequence[tuple[str, int, QColor]]
    ) -> None:
        self.title, self.used, self.limit, self.unit = title, int(used), int(limit), unit
        self.parts = [(n, int(v), c) for n, v, c in parts if v > 0]
        self.setToolTip(self.tooltip_text())
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
        p.drawText(
            QRectF(0, 0, w, text_h), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, self.title
        )
        over = self.limit > 0 and self.used > self.limit
        val_color = self.theme.status_color("error") if over else pal.color(QPalette.ColorRole.WindowText)
        p.setPen(val_color)
        p.drawText(
            QRectF(0, 0, w, text_h),
            Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
            self.value_text,
        )
        top, bar_h = text_h + 4, 10
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
    """A bar per budget and the table of what was left out, with the reason for each."""

    def __init__(self, theme: Theme, renderer: Any, parent: QWidget | None = None):
        super().__init__(parent)
        self.theme = theme
        self.renderer = renderer
        self.bars: dict[str, BudgetBar] = {}
        lay = QVBoxLayout(self)
        lay.setContentsMargins(8, 8, 8, 8)
        lay.setSpacing(6)
        head = QLabel(self.tr("Budgets"), self)
        f = QFont(head.font())
        f.setBold(True)
        head.setFont(f)
        lay.addWidget(head)
        for name in (
            "recent_tokens",
            "recall_tokens",
            "recent_messages",
            "recall_candidates",
            "prefix_chars",
        ):
            bar = BudgetBar(theme, self)
            bar.setObjectName(f"budget_{name}")
            self.bars[name] = bar
            lay.addWidget(bar)
        self.legend = QLabel(self)
        self.legend.setObjectName("prefixLegend")
        self.legend.setWordWrap(True)
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        lay.addWidget(self.legend)
        self.left_label = QLabel(self)
        self.left_label.setFont(f)
        lay.addSpacing(6)
        lay.addWidget(self.left_label)
        self.table = QTableWidget(0, 6, self)
        self.table.setObjectName("leftOutTable")
        self.table.setHorizontalHeaderLabels(
            [
                self.tr("Message"),
                self.tr("Section"),
                self.tr("Reason"),
                self.tr("Role"),
                self.tr("Tokens"),
                self.tr("Text"),
            ]
        )
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(False)
        self.table.setShowGrid(False)
        self.table.setAlternatingRowColors(True)
        hh = self.table.horizontalHeader()
        hh.setStretchLastSection(True)
        hh.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        lay.addWidget(self.table, 1)
        self._filler = QWidget(self)  # takes the table's room while nothing is left out
        lay.addWidget(self._filler, 1)
        self.left_out: list[LeftOut] = []

    def _colors(self) -> tuple[str, ...]:
        return SEGMENT_COLORS_DARK if self.theme.is_dark else SEGMENT_COLORS_LIGHT

    def set_result(self, r: ContextResult) -> None:
        cols = self._colors()
        titles = {
            "recent_tokens": (self.tr("Recent messages: tokens"), self.tr("tokens")),
            "recall_tokens": (self.tr("Recalled messages: tokens"), self.tr("tokens")),
            "recent_messages": (self.tr("Recent messages: count"), self.tr("messages")),
            "recall_candidates": (self.tr("Recall candidates"), self.tr("candidates")),
            "prefix_chars": (self.tr("Memory prefix: characters (cap)"), self.tr("chars")),
        }
        part_names = {
            "shown": self.tr("shown"),
            "system": self.tr("system messages (counted, not shown)"),
            "chosen": self.tr("recalled"),
            "skipped": self.tr("skipped (already recent or over budget)"),
        }
        legend: list[str] = []
        for use in r.budgets():
            title, unit = titles[use.name]
            parts: list[tuple[str, int, QColor]] = []
            if use.name == "prefix_chars":
                for i, (n, v) in enumerate(use.parts):
                    color = cols[i % len(cols)]
                    label = self.renderer.section_title(n)
                    parts.append((label, v, QColor(color)))
                    legend.append(f"<span style='color:{color}'>■</span>&nbsp;{esc(label)} {fmt_int(v)}")
            elif use.parts:
                for i, (n, v) in enumerate(use.parts):
                    parts.append((part_names.get(n, n), v, QColor(cols[i if i == 0 else 2])))
            else:
                parts.append((title, use.used, QColor(cols[0])))
            self.bars[use.name].set_data(title, use.used, use.limit, unit, parts)
        self.legend.setText(" &nbsp; ".join(legend))
        self.set_left_out(r.left_out)

    def set_left_out(self, rows: list[LeftOut]) -> None:
        self.left_out = list(rows)
        self.left_label.setText(
            self.tr("Left out: %1").replace("%1", str(len(rows)))
            if rows
            else self.tr("Nothing was left out.")
        )
        self.table.setRowCount(len(rows))
        self.table.setVisible(bool(rows))
        self._filler.setVisible(not rows)
        sections = {"recent": self.tr("recent"), "recall": self.tr("recall")}
        for i, e in enumerate(rows):
            cells = [
                f"#{e.id}",
                sections.get(e.section, e.section),
                self.renderer.reason_short(e.reason),
                self.renderer.role_name(e.role) if e.role else "–",
                fmt_int(e.tokens) if e.tokens is not None else "–",
                e.preview,
            ]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if col == 0:
                    item.setData(Qt.ItemDataRole.UserRole, e.id)
                if col == 2:
                    item.setToolTip(self.renderer.reason_text(e.reason))
                if col == 5:
                    item.setToolTip(f"{local_time(e.timestamp)} · {e.session_id or ''}\n{e.preview}")
                if col == 4:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(i, col, item)


def hit_snippet(
    content: str, spans: Sequence[tuple[int, int]], width: int = 220
) -> tuple[str, list[tuple[int, int]]]:
    """One line of ``content`` around its first hit, with the hits moved into it."""
    start = max(0, spans[0][0] - 40) if spans else 0
    end = min(len(content), start + width)
    text = "".join(" " if c in "\r\n\t" else c for c in content[start:end])
    shift = start
    if start > 0:
        text = "…" + text
        shift -= 1
    if end < len(content):
        text += "…"
    inside = [(max(a, start) - shift, min(b, end) - shift) for a, b in spans if b > start and a < end]
    return text, inside


class PickerDelegate(QStyledItemDelegate):
    """Two lines per message: time and session (muted), then the text with the search hits marked."""

    def __init__(self, theme: Theme, parent: QWidget | None = None):
        super().__init__(parent)
        self.theme = theme

    def _doc(self, index: Any, width: int) -> QTextDocument:
        meta, text, spans = index.data(Qt.ItemDataRole.UserRole + 1)
        mark = (
            "background-color: #7a6200; color: #ffffff;"
            if self.theme.is_dark
            else "background-color: #ffe066; color: #000000;"
        )
        doc = QTextDocument()
        doc.setDocumentMargin(4)
        doc.setHtml(
            f"<span style='color:{self.theme.muted_text().name()}'>{esc(meta)}</span><br/>"
            + highlight_html(text, spans, mark)
        )
        doc.setTextWidth(width)
        return doc

    def paint(self, painter: QPainter, option: Any, index: Any) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        style = opt.widget.style() if opt.widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        doc = self._doc(index, opt.rect.width())
        painter.save()
        painter.translate(opt.rect.topLeft())
        ctx = QAbstractTextDocumentLayout.PaintContext()
        if opt.state & QStyle.StateFlag.State_Selected:
            ctx.palette.setColor(
                QPalette.ColorRole.Text, opt.palette.color(QPalette.ColorRole.HighlightedText)
            )
        else:
            ctx.palette.setColor(QPalette.ColorRole.Text, opt.palette.color(QPalette.ColorRole.Text))
        doc.documentLayout().draw(painter, ctx)
        painter.restore()

    def sizeHint(self, option: Any, index: Any) -> QSize:
        width = option.rect.width() if option.rect.width() > 0 else 600
        doc = self._doc(index, width)
        return QSize(width, int(doc.size().height()))


class MessagePicker(QDialog):
    """Pick a past user message (newest first, searchable): "what did the agent see here?"."""

    picked = Signal(object)  # Message

    def __init__(self, run: Callable[..., Any], theme: Theme, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("contextMessagePicker")
        self.setWindowTitle(self.tr("What did the agent see here? Pick a user message"))
        self.resize(760, 560)
        self._run = run
        self.theme = theme
        self.messages: list[Message] = []
        self._next: tuple[int, int] | None = None
        self._query = ""
        self.loading = False
        self.search = QLineEdit(self)
        self.search.setObjectName("pickerSearch")
        self.search.setClearButtonEnabled(True)
        self.search.setPlaceholderText(self.tr("Search user messages (3+ characters full-text)"))
        self.list = QListWidget(self)
        self.list.setObjectName("pickerList")
        self.list.setWordWrap(True)
        self.list.setUniformItemSizes(False)
        self.list.setAlternatingRowColors(True)
        self.list.setItemDelegate(PickerDelegate(theme, self.list))
        self.status = QLabel(self)
        self.more = QPushButton(self.tr("Load older"), self)
        self.more.setEnabled(False)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.ok = self.buttons.addButton(
            self.tr("Show what the agent saw"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.ok.setEnabled(False)
        lay = QVBoxLayout(self)
        lay.addWidget(self.search)
        lay.addWidget(self.list, 1)
        row = QHBoxLayout()
        row.addWidget(self.status, 1)
        row.addWidget(self.more)
        lay.addLayout(row)
        lay.addWidget(self.buttons)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(250)
        self._debounce.timeout.connect(lambda: self.load(self.search.text()))
        self.search.textChanged.connect(lambda _t: self._debounce.start())
        self.more.clicked.connect(self.load_more)
        self.list.currentRowChanged.connect(lambda row: self.ok.setEnabled(row >= 0))
        self.list.itemDoubleClicked.connect(lambda _i: self.accept())
        self.buttons.rejected.connect(self.reject)
        self.buttons.accepted.connect(self.accept)
        self.list.verticalScrollBar().valueChanged.connect(self._maybe_more)

    def load(self, query: str = "") -> None:
        self._query = query
        self._next = None
        self.messages = []
        self.list.clear()
        self._fetch()

    def load_more(self) -> None:
        if self._next is not None and not self.loading:
            self._fetch()

    def _maybe_more(self, value: int) -> None:
        sb = self.list.verticalScrollBar()
        if value >= sb.maximum() - 4:
            self.load_more()

    def _fetch(self) -> None:
        self.loading = True
        self.status.setText(self.tr("Loading…"))
        self._run(
            job_user_messages,
            self._query,
            self._next,
            on_result=self._on_page,
            on_error=self._on_error,
            key="picker",
        )

    def _on_error(self, exc: BaseException) -> None:
        self.loading = False
        self.status.setText(self.tr("The messages could not be read: %1").replace("%1", str(exc)))

    def _on_page(self, page: PickerPage) -> None:
        self.loading = False
        if page.query != self._query:
            return
        for m in page.messages:
            meta = f"#{m.id} · {local_time(m.timestamp, seconds=False)} · {m.session_id}"
            text, spans = hit_snippet(m.content, page.spans.get(m.id, []))
            item = QListWidgetItem(f"{meta}\n{first_line(m.content, 200)}")
            item.setData(Qt.ItemDataRole.UserRole, m.id)
            item.setData(Qt.ItemDataRole.UserRole + 1, (meta, text, spans))
            item.setToolTip(m.content[:2000])
            self.list.addItem(item)
        self.messages += page.messages
        self._next = page.next_before
        self.more.setEnabled(self._next is not None)
        n = len(self.messages)
        if page.error:
            self.status.setText(self.tr("The search could not run: %1").replace("%1", page.error))
        elif n == 0:
            self.status.setText(self.tr("No user messages found."))
        else:
            text = self.tr("%1 user messages, newest first").replace("%1", fmt_int(n))
            if self._next is not None:
                text += " " + self.tr("(more below)")
            self.status.setText(text)
        if self.list.currentRow() < 0 and self.list.count():
            self.list.setCurrentRow(0)

    def current_message(self) -> Message | None:
        row = self.list.currentRow()
        return self.messages[row] if 0 <= row < len(self.messages) else None

    def accept(self) -> None:
        m = self.current_message()
        if m is None:
            return
        super().accept()
        self.picked.emit(m)


class DiffView(QWidget):
    """The pinned preview against the current one, as a unified or side-by-side diff."""

    unpinRequested = Signal()
    modeChanged = Signal()

    def __init__(self, theme: Theme, parent: QWidget | None = None):
        super().__init__(parent)
        self.theme = theme
        self.info = QLabel(self)
        self.info.setObjectName("pinInfo")
        self.info.setWordWrap(True)
        self.summary = QLabel(self)
        self.summary.setObjectName("diffSummary")
        self.mode = QComboBox(self)
        self.mode.setObjectName("diffMode")
        self.mode.addItem(self.tr("Unified"), "unified")
        self.mode.addItem(self.tr("Side by side"), "side")
        self.context_combo = QComboBox(self)
        for n in (3, 10):
            self.context_combo.addItem(self.tr("%1 lines of context").replace("%1", str(n)), n)
        self.context_combo.addItem(self.tr("Whole text"), -1)
        self.unpin = QPushButton(self.tr("Unpin"), self)
        self.browser = QTextBrowser(self)
        self.browser.setObjectName("diffBrowser")
        self.browser.setOpenLinks(False)
        bar = QHBoxLayout()
        bar.addWidget(self.info, 1)
        bar.addWidget(self.summary)
        bar.addWidget(self.mode)
        bar.addWidget(self.context_combo)
        bar.addWidget(self.unpin)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 4, 0, 0)
        lay.addLayout(bar)
        lay.addWidget(self.browser, 1)
        self.unpin.clicked.connect(self.unpinRequested)
        self.mode.currentIndexChanged.connect(lambda _i: self.modeChanged.emit())
        self.context_combo.currentIndexChanged.connect(lambda _i: self.modeChanged.emit())
        self.diff: DiffResult | None = None
        self.show_empty()

    @property
    def context_lines(self) -> int:
        return int(self.context_combo.currentData())

    def show_empty(self) -> None:
        self.diff = None
        self.info.setText(
            self.tr(
                "Nothing is pinned. Pin a preview, change something (a fact, the message, a budget), and compare here."
            )
        )
        self.summary.setText("")
        self.browser.setHtml("")
        for w in (self.mode, self.context_combo, self.unpin):
            w.setEnabled(False)

    def set_pinned_info(self, text: str) -> None:
        self.info.setText(text)
        for w in (self.mode, self.context_combo, self.unpin):
            w.setEnabled(True)

    def set_diff(self, diff: DiffResult) -> None:
        self.diff = diff
        if diff.identical:
            self.summary.setText(self.tr("identical"))
        else:
            self.summary.setText(
                self.tr("+%1 −%2 lines")
                .replace("%1", fmt_int(diff.added))
                .replace("%2", fmt_int(diff.removed))
            )
        self.render()

    def render(self) -> None:
        if self.diff is None:
            return
        sb = self.browser.verticalScrollBar()
        pos = sb.value()
        self.browser.setHtml(self.diff_html(self.diff, self.mode.currentData()))
        sb.setValue(pos)

    def _styles(self) -> dict[str, str]:
        removed, added = self.theme.diff_colors()
        # stronger tints for the changed characters inside a changed line
        strong_r, strong_a = ("#8e2f2f", "#2b6a3c") if self.theme.is_dark else ("#ffb3b0", "#8fe3a5")
        return {
            "del": removed.name(),
            "ins": added.name(),
            "del_mark": f"background-color: {strong_r};",
            "ins_mark": f"background-color: {strong_a};",
            "muted": self.theme.muted_text().name(),
            "skip": "#262b31" if self.theme.is_dark else "#eaeef2",
        }

    def diff_html(self, diff: DiffResult, mode: str) -> str:
        s = self._styles()
        if diff.identical:
            return f"<p style='color:{s['muted']}'>{esc(self.tr('The two previews are identical.'))}</p>"
        rows: list[str] = [
            "<table width='100%' cellspacing='0' cellpadding='1' style='font-family: monospace'>"
        ]

        def num(n: int | None) -> str:
            return (
                f"<td align='right' width='44' nowrap style='color:{s['muted']}'>"
                f"{'' if n is None else n}&nbsp;</td>"
            )

        half = mode == "side"

        def cell(text: str, spans: Sequence[tuple[int, int]], mark: str, bg: str | None, sign: str) -> str:
            body = highlight_html(text, spans, mark) if spans else esc(text)
            attr = (f" bgcolor='{bg}'" if bg else "") + (" width='46%'" if half else "")
            return f"<td{attr}><pre>{esc(sign)}{body}</pre></td>"

        def skip(n: int, cols: int) -> str:
            t = self.tr("⋯ %1 unchanged lines").replace("%1", fmt_int(n))
            return f"<tr><td colspan='{cols}' bgcolor='{s['skip']}' style='color:{s['muted']}'>{esc(t)}</td></tr>"

        if mode == "side":
            for r in diff.rows:
                if r.kind == "skip":
                    rows.append(skip(r.skipped, 4))
                    continue
                o, n = r.old, r.new
                bg_o = None if r.kind == "equal" else s["del"]
                bg_n = None if r.kind == "equal" else s["ins"]
                rows.append(
                    "<tr>"
                    + num(o.number if o else None)
                    + (cell(o.text, o.spans, s["del_mark"], bg_o, "") if o else "<td width='46%'></td>")
                    + num(n.number if n else None)
                    + (cell(n.text, n.spans, s["ins_mark"], bg_n, "") if n else "<td width='46%'></td>")
                    + "</tr>"
                )
        else:
            for u in diff.unified():
                if u.kind == "skip":
                    rows.append(skip(u.skipped, 3))
                    continue
                if u.kind == "delete":
                    rows.append(
                        "<tr>"
                        + num(u.old_number)
                        + num(None)
                        + cell(u.text, u.spans, s["del_mark"], s["del"], "−")
                        + "</tr>"
                    )
                elif u.kind == "insert":
                    rows.append(
                        "<tr>"
                        + num(None)
                        + num(u.new_number)
                        + cell(u.text, u.spans, s["ins_mark"], s["ins"], "+")
                        + "</tr>"
                    )
                else:
                    rows.append(
                        "<tr>"
                        + num(u.old_number)
                        + num(u.new_number)
                        + cell(u.text, (), "", None, " ")
                        + "</tr>"
                    )
        rows.append("</table>")
        return (
            "<html><body><style>pre { white-space: pre-wrap; margin: 0px; }</style>"
            + "".join(rows)
            + "</body></html>"
        )
