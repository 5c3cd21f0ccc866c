"""The detail pane of a skill: overview (fields, counters, why this grade), ladder history, revisions.

Everything shown comes from one :class:`~philont_desktop.skills.model.SkillDetail` loaded off the GUI
thread. The editing buttons only emit requests; the tab turns them into audited, undoable edits.
"""

from __future__ import annotations

import html
import json
from typing import Any

from core.jsutil import js_stringify
from core.models import Skill
from core.skills import RevisionWindow
from philont_desktop.core_strings import explanation, maturity_caveat
from philont_desktop.qt import (
    QAbstractItemView,
    QCheckBox,
    QColor,
    QComboBox,
    QDateTime,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    Qt,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.skills.board import Colors
from philont_desktop.skills.diff import DiffField, SideBySideDiff
from philont_desktop.skills.model import LadderModel, SkillDetail

DAY_MS = 86_400_000


def format_time(ms: int | None) -> str:
    if ms is None:
        return "—"
    return QDateTime.fromMSecsSinceEpoch(int(ms)).toLocalTime().toString("yyyy-MM-dd HH:mm")


def format_date(ms: int | None) -> str:
    if ms is None:
        return "—"
    return QDateTime.fromMSecsSinceEpoch(int(ms)).toLocalTime().toString("yyyy-MM-dd")


def verification_text(value: Any) -> str:
    """``kind: check`` for a reference-shaped verification, else its JSON; ``""`` for none."""
    if value is None:
        return ""
    if isinstance(value, dict) and isinstance(value.get("kind"), str) and isinstance(value.get("check"), str):
        extra = {k: v for k, v in value.items() if k not in ("kind", "check")}
        text = f"{value['kind']}: {value['check']}"
        return text + (" " + js_stringify(extra) if extra else "")
    try:
        return js_stringify(value)
    except (TypeError, ValueError):
        return json.dumps(value, ensure_ascii=False, default=str)


def policy_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return js_stringify(value)


def _esc(text: Any) -> str:
    return html.escape("" if text is None else str(text), quote=False).replace("\n", "<br/>")


class DetailPane(QWidget):
    """Header with the editing buttons, and three tabs: Overview, Ladder history, Revisions."""

    editRecipeRequested = Signal()
    editDetailsRequested = Signal()
    setGradeRequested = Signal()
    flipKindRequested = Signal()
    deleteRequested = Signal()
    revertRequested = Signal(int)  # index into revision_history (0-based)

    def __init__(self, colors: Colors, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("skillsDetail")
        self.colors = colors
        self.detail: SkillDetail | None = None
        self.editing = False
        self.grade_name = lambda m: m

        self.title = QLabel(self)
        self.title.setObjectName("skillsDetailTitle")
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons: dict[str, QPushButton] = {}
        header = QHBoxLayout()
        header.setContentsMargins(0, 0, 0, 0)
        header.addWidget(self.title, 1)
        for key, text, signal in (
            ("recipe", self.tr("Edit recipe…"), self.editRecipeRequested),
            ("details", self.tr("Edit details…"), self.editDetailsRequested),
            ("grade", self.tr("Set grade…"), self.setGradeRequested),
            ("kind", self.tr("Mark as avoid"), self.flipKindRequested),
            ("delete", self.tr("Delete…"), self.deleteRequested),
        ):
            b = QPushButton(text, self)
            b.setObjectName(f"skillsButton_{key}")
            b.clicked.connect(signal)
            header.addWidget(b)
            self.buttons[key] = b

        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        # Overview: fields (left), grade and counters (right)
        self.fields_view = QTextBrowser(self)
        self.fields_view.setObjectName("skillsFields")
        self.fields_view.setOpenLinks(False)
        self.grade_view = QTextBrowser(self)
        self.grade_view.setObjectName("skillsGrade")
        self.grade_view.setOpenLinks(False)
        overview = QSplitter(Qt.Orientation.Horizontal, self)
        overview.addWidget(self.grade_view)
        overview.addWidget(self.fields_view)
        overview.setStretchFactor(0, 2)
        overview.setStretchFactor(1, 3)
        self.overview_splitter = overview
        self.tabs.addTab(overview, self.tr("Overview"))

        # Ladder history
        ladder = QWidget(self)
        self.ladder_summary = QLabel(ladder)
        self.ladder_summary.setObjectName("skillsLadderSummary")
        self.ladder_summary.setWordWrap(True)
        self.ladder_summary.setTextFormat(Qt.TextFormat.RichText)
        self.ladder_all = QCheckBox(self.tr("Show every outcome, not only grade changes"), ladder)
        self.ladder_all.toggled.connect(lambda _b: self._fill_ladder())
        self.ladder_model = LadderModel(self)
        self.ladder_model.time_format = format_time
        self.ladder_model.grade_name = lambda m: self.grade_name(m)
        self.ladder_table = QTableView(ladder)
        self.ladder_table.setObjectName("skillsLadder")
        self.ladder_table.setModel(self.ladder_model)
        self.ladder_table.verticalHeader().setVisible(False)
        self.ladder_table.verticalHeader().setDefaultSectionSize(22)
        self.ladder_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.ladder_table.setWordWrap(False)
        hh = self.ladder_table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setStretchLastSection(True)
        for col, width in enumerate((130, 260, 90, 200)):
            self.ladder_table.setColumnWidth(col, width)
        lay = QVBoxLayout(ladder)
        lay.setContentsMargins(0, 4, 0, 0)
        lay.addWidget(self.ladder_summary)
        lay.addWidget(self.ladder_all)
        lay.addWidget(self.ladder_table, 1)
        self.tabs.addTab(ladder, self.tr("Ladder history"))

        # Revisions
        revisions = QWidget(self)
        self.revision_summary = QLabel(revisions)
        self.revision_summary.setWordWrap(True)
        self.revision_table = QTableWidget(0, 5, revisions)
        self.revision_table.setObjectName("skillsRevisions")
        self.revision_table.setHorizontalHeaderLabels(
            [
                self.tr("Version"),
                self.tr("Successes"),
                self.tr("Failures"),
                self.tr("In effect"),
                self.tr("Replaced because"),
            ]
        )
        self.revision_table.verticalHeader().setVisible(False)
        self.revision_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.revision_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.revision_table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.revision_table.setWordWrap(False)
        rh = self.revision_table.horizontalHeader()
        rh.setStretchLastSection(True)
        for col, width in enumerate((150, 90, 70, 250)):
            self.revision_table.setColumnWidth(col, width)
        self.revision_table.itemSelectionChanged.connect(self._on_revision_selected)
        self.left_combo = QComboBox(revisions)
        self.left_combo.setObjectName("skillsDiffLeft")
        self.right_combo = QComboBox(revisions)
        self.right_combo.setObjectName("skillsDiffRight")
        self.left_combo.currentIndexChanged.connect(lambda _i: self._fill_diff())
        self.right_combo.currentIndexChanged.connect(lambda _i: self._fill_diff())
        self.revert_button = QPushButton(self.tr("Restore this version…"), revisions)
        self.revert_button.setObjectName("skillsButton_revert")
        self.revert_button.clicked.connect(self._on_revert)
        compare = QHBoxLayout()
        compare.addWidget(QLabel(self.tr("Compare"), revisions))
        compare.addWidget(self.left_combo, 1)
        compare.addWidget(QLabel(self.tr("with"), revisions))
        compare.addWidget(self.right_combo, 1)
        compare.addStretch(0)
        compare.addWidget(self.revert_button)
        self.diff_view = SideBySideDiff(revisions)
        self.diff_view.setObjectName("skillsDiff")
        split = QSplitter(Qt.Orientation.Horizontal, revisions)
        left = QWidget(split)
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.revision_summary)
        ll.addWidget(self.revision_table, 1)
        right = QWidget(split)
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addLayout(compare)
        rl.addWidget(self.diff_view, 1)
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        self.revisions_splitter = split
        rv = QVBoxLayout(revisions)
        rv.setContentsMargins(0, 4, 0, 0)
        rv.addWidget(split, 1)
        self.tabs.addTab(revisions, self.tr("Revisions"))

        self.placeholder = QLabel(self.tr("Select a skill on the board to see why it has its grade."), self)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setObjectName("skillsDetailPlaceholder")

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addLayout(header)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.placeholder, 1)
        self.set_detail(None)

    # -- state -------------------------------------------------------------------------------------------
    @property
    def skill(self) -> Skill | None:
        return self.detail.skill if self.detail is not None else None

    def set_colors(self, colors: Colors) -> None:
        self.colors = colors
        if self.detail is not None:
            self.set_detail(self.detail, keep_view=True)

    def set_editing(self, on: bool) -> None:
        self.editing = on
        self._update_buttons()

    def _update_buttons(self) -> None:
        s = self.skill
        show = self.editing and s is not None
        for key, b in self.buttons.items():
            b.setVisible(show)
            if key == "recipe":
                b.setEnabled(bool(s and s.is_recipe))
                b.setToolTip(
                    self.tr("Rewrite the recipe; the current version is kept in its revision history.")
                    if s and s.is_recipe
                    else self.tr("Only a recipe (a skill with a verification) has versions to revise.")
                )
        if s is not None:
            self.buttons["kind"].setText(
                self.tr("Mark as positive") if s.kind == "negative" else self.tr("Mark as avoid")
            )
        idx = self.selected_revision_index()
        self.revert_button.setVisible(self.editing and s is not None and bool(s.revision_history))
        self.revert_button.setEnabled(idx is not None)

    def set_detail(self, detail: SkillDetail | None, *, keep_view: bool = False) -> None:
        """Show ``detail`` (None: nothing selected). ``keep_view`` keeps the chosen diff and tab."""
        same_skill = (
            detail is not None and self.detail is not None and detail.skill.id == self.detail.skill.id
        )
        keep = keep_view or same_skill
        left_i, right_i = self.left_combo.currentIndex(), self.right_combo.currentIndex()
        old_count = self.left_combo.count()
        sel_rev = self.selected_revision_index()
        self.detail = detail
        has = detail is not None
        self.tabs.setVisible(has)
        self.placeholder.setVisible(not has)
        if not has:
            self.title.setText("")
            self._update_buttons()
            return
        self._fill_title()
        self._fill_overview()
        self._fill_ladder()
        self._fill_revisions(
            keep_pair=(left_i, right_i) if keep and old_count == len(detail.windows) else None,
            select=sel_rev if keep else None,
        )
        self._update_buttons()

    # -- title -------------------------------------------------------------------------------------------
    def _chip(self, text: str, color: Any, filled: bool = False) -> str:
        c = color.name()
        if filled:
            return f'<span style="background-color:{c}; color:#ffffff">&nbsp;{_esc(text)}&nbsp;</span>'
        return f'<span style="color:{c}; font-weight:bold">{_esc(text)}</span>'

    def _fill_title(self) -> None:
        s = self.skill
        assert s is not None
        c = self.colors
        parts = [f'<span style="font-size:large; font-weight:bold">{_esc(s.name)}</span>']
        parts.append(self._chip(self.grade_name(s.maturity), c.grade(s.maturity), True))
        if s.kind == "negative":
            parts.append(self._chip(self.tr("avoid"), c.avoid, True))
        if s.is_recipe:
            parts.append(self._chip(self.tr("recipe"), c.recipe))
        caveat = maturity_caveat(s.maturity)
        if caveat:
            parts.append(f'<span style="color:{c.muted.name()}">{_esc(caveat)}</span>')
        self.title.setText("&nbsp;&nbsp;".join(parts))

    # -- overview ------------------------------------------------------------------------------------------
    def _section(self, title: str, body: str) -> str:
        return f'<p style="margin-top:10px; margin-bottom:2px"><b>{_esc(title)}</b></p>{body}'

    def _fill_overview(self) -> None:
        d = self.detail
        assert d is not None
        s, c = d.skill, self.colors
        muted = c.muted.name()
        none = f'<span style="color:{muted}">{_esc(self.tr("(none)"))}</span>'

        def para(text: str) -> str:
            return f"<p style='margin-top:0'>{_esc(text)}</p>" if text else none

        # grade side
        g = [self._section(self.tr("Why this grade"), para(explanation(d.explanation.why)))]
        g.append(self._section(self.tr("What would move it next"), para(explanation(d.explanation.next))))
        if s.maturity_raw is not None and s.maturity_raw != s.maturity:
            g.append(
                f"<p style='color:{c.failure.name()}'>"
                + _esc(
                    self.tr("The database holds the unknown grade {0}; it is read as draft.").format(
                        repr(s.maturity_raw)
                    )
                )
                + "</p>"
            )
        ladder = d.ladder
        if d.outcomes or s.revision_history:
            if ladder.grade == s.maturity:
                note = self.tr("A replay of its {0} linked actions from draft also ends on {1}.").format(
                    len(d.outcomes), self.grade_name(ladder.grade)
                )
            else:
                note = self.tr(
                    "A replay of its {0} linked actions from draft ends on {1}, but the database says {2}: "
                    "see Ladder history."
                ).format(len(d.outcomes), self.grade_name(ladder.grade), self.grade_name(s.maturity))
            g.append(f"<p style='color:{muted}'>{_esc(note)}</p>")
        rows = [
            (self.tr("Uses"), s.use_count),
            (self.tr("Successes"), s.success_count),
            (self.tr("Failures"), s.failure_count),
            (self.tr("Consecutive failures"), s.consecutive_failures),
            (self.tr("Offered in the skill index"), s.offered_count),
            (self.tr("Matched when offered"), s.matched_count),
            (self.tr("Last used"), format_time(s.last_used_at)),
            (self.tr("Last success"), format_time(s.last_success_at)),
            (self.tr("Last failure"), format_time(s.last_failure_at)),
            (self.tr("Created"), format_time(s.created_at)),
            (self.tr("Revisions kept"), len(s.revision_history)),
            (self.tr("Linked actions"), len(d.outcomes)),
        ]
        table = (
            "<table cellspacing='0' cellpadding='2'>"
            + "".join(
                f"<tr><td style='color:{muted}; padding-right:12px'>{_esc(k)}</td><td>{_esc(v)}</td></tr>"
                for k, v in rows
            )
            + "</table>"
        )
        g.append(self._section(self.tr("Counters"), table))
        self.grade_view.setHtml("".join(g))

        # fields side
        f = [self._section(self.tr("Description"), para(s.description))]
        f.append(self._section(self.tr("When to use"), para(s.when_to_use)))
        if s.trigger_keywords:
            kws = " ".join(
                f"<span style='background-color:{c.lane.name()}'>&nbsp;{_esc(k)}&nbsp;</span>"
                for k in s.trigger_keywords
            )
            f.append(self._section(self.tr("Trigger keywords"), f"<p style='margin-top:0'>{kws}</p>"))
        else:
            f.append(self._section(self.tr("Trigger keywords"), none))
        tpl = (
            f"<p style='margin-top:0; font-family:monospace'>{_esc(s.action_template)}</p>"
            if s.action_template
            else none
        )
        f.append(self._section(self.tr("Action template"), tpl))
        if s.verification is None:
            ver = f"<p style='margin-top:0; color:{muted}'>{_esc(self.tr('none: an advisory lesson, not a callable recipe'))}</p>"
        else:
            ver = f"<p style='margin-top:0; font-family:monospace'>{_esc(verification_text(s.verification))}</p>"
        f.append(self._section(self.tr("Verification"), ver))
        f.append(self._section(self.tr("Tool policy"), para(policy_text(s.tool_policy))))
        src = s.source or ""
        if s.from_disk:
            src = (src + " " if src else "") + self.tr("(installed from disk)")
        f.append(self._section(self.tr("Source"), para(src)))
        if s.json_errors:
            f.append(
                f"<p style='color:{c.failure.name()}'>"
                + _esc(self.tr("Unreadable JSON in this row: {0}").format("; ".join(s.json_errors)))
                + "</p>"
            )
        self.fields_view.setHtml("".join(f))

    # -- ladder --------------------------------------------------------------------------------------------
    def _fill_ladder(self) -> None:
        d = self.detail
        if d is None:
            self.ladder_model.set_steps([])
            return
        s, lad = d.skill, d.ladder
        steps = lad.steps if self.ladder_all.isChecked() else lad.changes
        self.ladder_model.set_steps(steps)
        c = self.colors
        if not d.outcomes and not s.revision_history:
            text = self.tr(
                "No action in the log is linked to this skill, so there is nothing to replay. "
                "Its grade in the database is {0}."
            ).format(self.grade_name(s.maturity))
        else:
            text = self.tr(
                "{0} linked actions in time order, replayed through the state machine from draft with zero "
                "counters (each revision of the recipe resets the grade to draft): the replay ends on <b>{1}</b> "
                "with {2} successes and {3} failures. The database says <b>{4}</b> with {5} successes and {6} "
                "failures."
            ).format(
                len(d.outcomes),
                _esc(self.grade_name(lad.grade)),
                lad.success_count,
                lad.failure_count,
                _esc(self.grade_name(s.maturity)),
                s.success_count,
                s.failure_count,
            )
            if lad.grade != s.maturity or (lad.success_count, lad.failure_count) != (
                s.success_count,
                s.failure_count,
            ):
                color = c.failure.name() if lad.grade != s.maturity else c.muted.name()
                why = self.tr(
                    "They differ: grades set by hand or by reflection (playbooks, recipe demotions), "
                    "outcomes recorded without a linked action, and the reflector crediting one failure "
                    "per failing group are not visible in the action log."
                )
                text += f" <span style='color:{color}'>{_esc(why)}</span>"
        self.ladder_summary.setText(text)

    # -- revisions -----------------------------------------------------------------------------------------
    def version_label(self, w: RevisionWindow) -> str:
        if w.is_current:
            return self.tr("Version {0} (current)").format(w.revision)
        if w.revision == 1:
            return self.tr("Version 1 (original)")
        return self.tr("Version {0}").format(w.revision)

    def _fill_revisions(self, keep_pair: tuple[int, int] | None = None, select: int | None = None) -> None:
        d = self.detail
        assert d is not None
        windows = d.windows
        s = d.skill
        if not s.revision_history:
            self.revision_summary.setText(
                self.tr("Never revised: only the current version exists.")
                if s.is_recipe
                else self.tr("Not a recipe (no verification): its rewrites are not versioned.")
            )
        else:
            self.revision_summary.setText(
                self.tr(
                    "{0} earlier versions are kept. Successes and failures are the linked actions recorded while each version was current."
                ).format(len(s.revision_history))
            )
        t = self.revision_table
        t.blockSignals(True)
        t.setRowCount(len(windows))
        for r, w in enumerate(reversed(windows)):  # newest first
            start = format_date(w.start) if w.start is not None else self.tr("creation")
            end = self.tr("now") if w.end is None else format_date(w.end)
            total = w.successes + w.failures
            rate = f" ({round(100 * w.successes / total)}%)" if total else ""
            cells = [
                self.version_label(w),
                f"{w.successes}{rate}",
                str(w.failures),
                f"{start} → {end}",
                w.reason or "",
            ]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, w.revision)
                if col == 4 and w.reason:
                    item.setToolTip(w.reason)
                if col == 3:
                    item.setToolTip(f"{format_time(w.start)} → {format_time(w.end) if w.end else end}")
                if col in (1, 2):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if w.is_current:
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                t.setItem(r, col, item)
        t.clearSelection()
        if select is not None:
            for r in range(t.rowCount()):
                if t.item(r, 0).data(Qt.ItemDataRole.UserRole) == select + 1:
                    t.selectRow(r)
        t.blockSignals(False)
        for combo in (self.left_combo, self.right_combo):
            combo.blockSignals(True)
            combo.clear()
            for w in windows:
                combo.addItem(self.version_label(w), w.revision)
            combo.blockSignals(False)
        n = len(windows)
        if keep_pair is not None and all(0 <= i < n for i in keep_pair):
            li, ri = keep_pair
        else:
            li, ri = max(0, n - 2), n - 1
        self.left_combo.blockSignals(True)
        self.right_combo.blockSignals(True)
        self.left_combo.setCurrentIndex(li)
        self.right_combo.setCurrentIndex(ri)
        self.left_combo.blockSignals(False)
        self.right_combo.blockSignals(False)
        self._fill_diff()

    def compare(self, left_revision: int, right_revision: int) -> None:
        """Show the diff of two versions (1-based revision numbers; the last is the current one)."""
        self.left_combo.setCurrentIndex(self.left_combo.findData(left_revision))
        self.right_combo.setCurrentIndex(self.right_combo.findData(right_revision))
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
        if d is None or not d.windows:
            self.diff_view.clear()
            return
        by_rev = {w.revision: w for w in d.windows}
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

    def selected_revision_index(self) -> int | None:
        """The 0-based ``revision_history`` index of the selected earlier version (None: none/current)."""
        d = self.detail
        rows = (
            self.revision_table.selectionModel().selectedRows()
            if self.revision_table.selectionModel()
            else []
        )
        if d is None or not rows:
            return None
        item = self.revision_table.item(rows[0].row(), 0)
        rev = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        if not isinstance(rev, int) or rev > len(d.skill.revision_history):
            return None
        return rev - 1

    def _on_revision_selected(self) -> None:
        """A version picked in the table is compared with the current one (the current one with the
        version before it), which is what restoring it would change."""
        self._update_buttons()
        d = self.detail
        rows = self.revision_table.selectionModel().selectedRows()
        if d is None or not rows or not d.windows:
            return
        rev = self.revision_table.item(rows[0].row(), 0).data(Qt.ItemDataRole.UserRole)
        current = d.windows[-1].revision
        if rev == current:
            if current > 1:
                self.compare(current - 1, current)
        else:
            self.compare(rev, current)

    def select_revision(self, index: int) -> None:
        for r in range(self.revision_table.rowCount()):
            if self.revision_table.item(r, 0).data(Qt.ItemDataRole.UserRole) == index + 1:
                self.revision_table.selectRow(r)
                return

    def _on_revert(self) -> None:
        idx = self.selected_revision_index()
        if idx is not None:
            self.revertRequested.emit(idx)
