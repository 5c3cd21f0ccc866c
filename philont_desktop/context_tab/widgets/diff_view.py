"""The pinned preview against the current one, as a unified or side-by-side diff."""

from __future__ import annotations

from collections.abc import Sequence

from philont_desktop.context_tab.diff import DiffResult
from philont_desktop.context_tab.htmltext import esc, fmt_int, highlight_html
from philont_desktop.qt import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.theme import Theme


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
        rows = self._side_rows(diff, s) if mode == "side" else self._unified_rows(diff, s)
        return (
            "<html><body><style>pre { white-space: pre-wrap; margin: 0px; }</style>"
            "<table width='100%' cellspacing='0' cellpadding='1' style='font-family: monospace'>"
            + "".join(rows)
            + "</table></body></html>"
        )

    def _num(self, n: int | None, s: dict[str, str]) -> str:
        return f"<td align='right' width='44' nowrap style='color:{s['muted']}'>{'' if n is None else n}&nbsp;</td>"

    @staticmethod
    def _cell(
        text: str, spans: Sequence[tuple[int, int]], mark: str, bg: str | None, sign: str, half: bool
    ) -> str:
        body = highlight_html(text, spans, mark) if spans else esc(text)
        attr = (f" bgcolor='{bg}'" if bg else "") + (" width='46%'" if half else "")
        return f"<td{attr}><pre>{esc(sign)}{body}</pre></td>"

    def _skip(self, n: int, cols: int, s: dict[str, str]) -> str:
        t = self.tr("⋯ %n unchanged line(s)", None, n)
        return f"<tr><td colspan='{cols}' bgcolor='{s['skip']}' style='color:{s['muted']}'>{esc(t)}</td></tr>"

    def _side_rows(self, diff: DiffResult, s: dict[str, str]) -> list[str]:
        rows = []
        empty = "<td width='46%'></td>"
        for r in diff.rows:
            if r.kind == "skip":
                rows.append(self._skip(r.skipped, 4, s))
                continue
            o, n = r.old, r.new
            bg_o = None if r.kind == "equal" else s["del"]
            bg_n = None if r.kind == "equal" else s["ins"]
            rows.append(
                "<tr>"
                + self._num(o.number if o else None, s)
                + (self._cell(o.text, o.spans, s["del_mark"], bg_o, "", True) if o else empty)
                + self._num(n.number if n else None, s)
                + (self._cell(n.text, n.spans, s["ins_mark"], bg_n, "", True) if n else empty)
                + "</tr>"
            )
        return rows

    def _unified_rows(self, diff: DiffResult, s: dict[str, str]) -> list[str]:
        rows = []
        for u in diff.unified():
            if u.kind == "skip":
                rows.append(self._skip(u.skipped, 3, s))
            elif u.kind == "delete":
                cell = self._cell(u.text, u.spans, s["del_mark"], s["del"], "−", False)
                rows.append(f"<tr>{self._num(u.old_number, s)}{self._num(None, s)}{cell}</tr>")
            elif u.kind == "insert":
                cell = self._cell(u.text, u.spans, s["ins_mark"], s["ins"], "+", False)
                rows.append(f"<tr>{self._num(None, s)}{self._num(u.new_number, s)}{cell}</tr>")
            else:
                cell = self._cell(u.text, (), "", None, " ", False)
                rows.append(f"<tr>{self._num(u.old_number, s)}{self._num(u.new_number, s)}{cell}</tr>")
        return rows
