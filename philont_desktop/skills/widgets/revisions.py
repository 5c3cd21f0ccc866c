"""The detail's Revisions: every version of a recipe with the outcomes while it was current, a side by
side word diff of any two versions, and (in editing mode) restoring an earlier one."""

from __future__ import annotations

from typing import Any

from core.skills import RevisionWindow
from philont_desktop.qt import (
    QAbstractItemView,
    QColor,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    Qt,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.skills.diff import DiffField, SideBySideDiff
from philont_desktop.skills.loaders import SkillDetail
from philont_desktop.skills.repairs import attempt_number, attempts_text, reason_text
from philont_desktop.skills.widgets.colors import Colors
from philont_desktop.skills.widgets.overview import format_time, policy_text, verification_text
from philont_desktop.widgets import plain
from philont_desktop.widgets.narrow import LinesHigh, Narrowing
from philont_desktop.widgets.text import format_local

_ROLE = Qt.ItemDataRole.UserRole
COL_REASON, COL_EFFECT = 3, 4
#: The panel's width at 100 % under which the diff goes under the versions table.
PANEL_NARROW = 720


def format_date(ms: int | None) -> str:
    return format_local(ms)[:10] if ms is not None else "—"


class RevisionsPanel(QSplitter):
    """Versions table (left), compare bar and diff (right). Emits ``revertRequested(index)``."""

    revertRequested = Signal(int)  # index into revision_history (0-based)
    selectionChanged = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.detail: SkillDetail | None = None
        self.colors = Colors(False)
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.table = self._make_table()
        self.left_combo = QComboBox(self)
        self.left_combo.setObjectName("skillsDiffLeft")
        self.right_combo = QComboBox(self)
        self.right_combo.setObjectName("skillsDiffRight")
        self.left_combo.currentIndexChanged.connect(lambda _i: self._fill_diff())
        self.right_combo.currentIndexChanged.connect(lambda _i: self._fill_diff())
        self.revert_button = QPushButton(self.tr("Restore this version…"), self)
        self.revert_button.setObjectName("skillsButton_revert")
        self.revert_button.clicked.connect(self._on_revert)
        self.diff_view = SideBySideDiff(self)
        self.diff_view.setObjectName("skillsDiff")
        compare = QHBoxLayout()
        compare.addWidget(QLabel(self.tr("Compare"), self))
        compare.addWidget(self.left_combo, 1)
        compare.addWidget(QLabel(self.tr("with"), self))
        compare.addWidget(self.right_combo, 1)
        compare.addStretch(0)
        compare.addWidget(self.revert_button)
        left = QWidget(self)
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 4, 0, 0)
        ll.addWidget(self.summary)
        ll.addWidget(self.table, 1)
        right = QWidget(self)
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 4, 0, 0)
        rl.addLayout(compare)
        rl.addWidget(self.diff_view, 1)
        self.addWidget(left)
        self.addWidget(right)
        self.setStretchFactor(0, 6)
        self.setStretchFactor(1, 5)
        self.setSizes([600, 420])  # the versions table needs room for its reasons
        Narrowing(parent or self, PANEL_NARROW, self._place)  # the detail pane: resized on every page
        LinesHigh(self.table, 5)  # its header and a few versions in large text (the tab scrolls instead)

    def _place(self, narrow: bool) -> None:
        """The diff beside the versions table; under it where the panel is narrow (large text)."""
        self.setOrientation(Qt.Orientation.Vertical if narrow else Qt.Orientation.Horizontal)

    def _make_table(self) -> QTableWidget:
        t = QTableWidget(0, 5, self)
        t.setObjectName("skillsRevisions")
        t.setHorizontalHeaderLabels(
            [
                self.tr("Version"),
                self.tr("Successes"),
                self.tr("Failures"),
                self.tr("Replaced because"),
                self.tr("In effect"),
            ]
        )
        t.verticalHeader().setVisible(False)
        t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        t.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        t.setWordWrap(False)
        t.horizontalHeader().setStretchLastSection(False)
        t.horizontalHeader().setSectionResizeMode(COL_REASON, QHeaderView.ResizeMode.Stretch)
        t.horizontalHeader().setMinimumSectionSize(40)
        t.itemSelectionChanged.connect(self._on_revision_selected)
        return t

    def version_label(self, w: RevisionWindow) -> str:
        if w.is_current:
            return self.tr("Version {0} (current)").format(w.revision)
        if w.revision == 1:
            return self.tr("Version 1 (original)")
        return self.tr("Version {0}").format(w.revision)

    def show_detail(self, d: SkillDetail, colors: Colors, *, keep: bool) -> None:
        """Show the versions of ``d``; ``keep`` keeps the compared pair and the selected version."""
        self.colors = colors
        pair = (self.left_combo.currentIndex(), self.right_combo.currentIndex())
        same_count = self.left_combo.count() == len(d.windows)
        select = self.selected_revision_index() if keep else None
        self.detail = d
        self.summary.setText(self._summary(d))
        self._fill_table(d.windows, select)
        self._fill_combos(d.windows, pair if keep and same_count else None)

    def _summary(self, d: SkillDetail) -> str:
        s = d.skill
        if not s.revision_history:
            return (
                self.tr("Never revised: only the current version exists.")
                if s.is_recipe
                else self.tr("Not a recipe (no verification): its rewrites are not versioned.")
            )
        text = self.tr(
            "%n earlier version(s) kept. Successes and failures are the linked actions recorded while each "
            "version was current.",
            None,
            len(s.revision_history),
        )
        if d.repairs is not None and d.repairs.count:
            text += " " + self.tr("The agent's own rewrites: {0}.").format(attempts_text(d.repairs))
        return text

    def _row_cells(self, w: RevisionWindow) -> list[str]:
        start = format_date(w.start) if w.start is not None else self.tr("creation")
        end = self.tr("now") if w.end is None else format_date(w.end)
        total = w.successes + w.failures
        rate = f" ({round(100 * w.successes / total)}%)" if total else ""
        return [
            self.version_label(w),
            f"{w.successes}{rate}",
            str(w.failures),
            self._reason(w),
            f"{start} → {end}",
        ]

    def _reason(self, w: RevisionWindow) -> str:
        r = self.detail.repairs if self.detail is not None else None
        if r is None or w.is_current:
            return w.reason or ""
        return reason_text(w.reason, attempt_number(r, w.revision - 1), r.limit)

    def _fill_table(self, windows: list[RevisionWindow], select: int | None) -> None:
        t = self.table
        t.blockSignals(True)
        t.setRowCount(len(windows))
        for r, w in enumerate(reversed(windows)):  # newest first
            for col, text in enumerate(self._row_cells(w)):
                item = QTableWidgetItem(plain.plain(text, 400, one_line=True) if col == COL_REASON else text)
                item.setData(_ROLE, w.revision)
                if col == COL_REASON and w.reason:
                    item.setToolTip(plain.tooltip(w.reason))
                if col == COL_EFFECT:
                    end = format_time(w.end) if w.end else self.tr("now")
                    item.setToolTip(f"{format_time(w.start)} → {end}")
                if col in (1, 2):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if w.is_current:
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                t.setItem(r, col, item)
        t.clearSelection()
        if select is not None:
            self._select_row_of(select + 1)
        for col in (0, 1, 2, COL_EFFECT):  # the reason takes the rest; a cut reason has its tooltip
            t.resizeColumnToContents(col)
        t.blockSignals(False)

    def _fill_combos(self, windows: list[RevisionWindow], pair: tuple[int, int] | None) -> None:
        n = len(windows)
        li, ri = pair if pair is not None and all(0 <= i < n for i in pair) else (max(0, n - 2), n - 1)
        for combo, index in ((self.left_combo, li), (self.right_combo, ri)):
            combo.blockSignals(True)
            combo.clear()
            for w in windows:
                combo.addItem(self.version_label(w), w.revision)
            combo.setCurrentIndex(index)
            combo.blockSignals(False)
        self._fill_diff()

    def compare(self, left_revision: int, right_revision: int) -> None:
        """Show the diff of two versions (1-based revision numbers; the last is the current one)."""
        for combo, rev in ((self.left_combo, left_revision), (self.right_combo, right_revision)):
            combo.blockSignals(True)
            combo.setCurrentIndex(combo.findData(rev))
            combo.blockSignals(False)
        self._fill_diff()

    def diff_fields(self, left: RevisionWindow, right: RevisionWindow) -> list[DiffField]:
        return [
            DiffField(
                self.tr("Action template"), left.action_template or "", right.action_template or "", True
            ),
            DiffField(
                self.tr("Verification"),
                verification_text(left.verification),
                verification_text(right.verification),
                True,
            ),
            DiffField(
                self.tr("Tool policy"), policy_text(left.tool_policy), policy_text(right.tool_policy), True
            ),
        ]

    def _fill_diff(self) -> None:
        d = self.detail
        by_rev = {w.revision: w for w in d.windows} if d is not None else {}
        left = by_rev.get(self.left_combo.currentData())
        right = by_rev.get(self.right_combo.currentData())
        if left is None or right is None:
            self.diff_view.clear()
            return
        removed, added = self._diff_colors()
        self.diff_view.set_diff(
            self.version_label(left),
            self.version_label(right),
            self.diff_fields(left, right),
            removed=removed,
            added=added,
            muted=self.colors.muted,
        )

    def _diff_colors(self) -> tuple[Any, Any]:
        if self.colors.dark:
            return QColor("#8b2b2f"), QColor("#1f6b36")
        return QColor("#ffc1bd"), QColor("#aceebb")

    def _selected_revision(self) -> int | None:
        sm = self.table.selectionModel()
        rows = sm.selectedRows() if sm is not None else []
        item = self.table.item(rows[0].row(), 0) if rows else None
        rev = item.data(_ROLE) if item is not None else None
        return rev if isinstance(rev, int) else None

    def selected_revision_index(self) -> int | None:
        """The 0-based ``revision_history`` index of the selected earlier version (None: none/current)."""
        d, rev = self.detail, self._selected_revision()
        if d is None or rev is None or rev > len(d.skill.revision_history):
            return None
        return rev - 1

    def _on_revision_selected(self) -> None:
        """A version picked in the table is compared with the current one (the current one with the
        version before it), which is what restoring it would change."""
        self.selectionChanged.emit()
        d, rev = self.detail, self._selected_revision()
        if d is None or rev is None or not d.windows:
            return
        current = d.windows[-1].revision
        if rev != current:
            self.compare(rev, current)
        elif current > 1:
            self.compare(current - 1, current)

    def _select_row_of(self, revision: int) -> None:
        for r in range(self.table.rowCount()):
            if self.table.item(r, 0).data(_ROLE) == revision:
                self.table.selectRow(r)
                return

    def select_revision(self, index: int) -> None:
        """Select the version at ``revision_history[index]`` (0-based)."""
        self._select_row_of(index + 1)

    def _on_revert(self) -> None:
        idx = self.selected_revision_index()
        if idx is not None:
            self.revertRequested.emit(idx)
