"""The doctor page: one line per layer, the findings grouped by layer with their severity, the finding's
measurement (a small picture where one reads better than numbers), its rows shown in their tabs, and, in
editing mode, its fix with a preview of every change, applied as one undoable edit.

The last result is shown at once (kept beside the file by :mod:`core.health.sidedata`, read on the task
lane) while the checks run again in a worker with their progress; every change of the database (an edit,
an undo, the agent writing) runs them again.
"""

from __future__ import annotations

import time
from typing import Any

from core.health.finding import Finding, Fix
from philont_desktop import humanize, messages
from philont_desktop.health.doctor import work
from philont_desktop.health.doctor.fix_dialog import FixDialog
from philont_desktop.health.doctor.model import FindingGroups, finding_text
from philont_desktop.health.doctor.texts import fix_title
from philont_desktop.health.doctor.tree import FindingsTree
from philont_desktop.health.doctor.widgets import FindingDetail, LayerSummary
from philont_desktop.health.page import HealthPage
from philont_desktop.qt import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    Qt,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.tabs.navigation import ShowFacts, ShowNote, ShowSkill, ShowTask, Target
from philont_desktop.widgets import accessible

__all__ = ["DoctorPage", "target_of"]


def target_of(f: Finding) -> Target | None:
    """Where the rows of ``f`` are shown: the facts, the first note, skill or task (``None``: nowhere)."""
    ids = [str(t) for t in f.targets if t is not None]
    if not ids:
        return None
    if f.layer == "facts":
        return ShowFacts(tuple(ids))
    if f.layer == "notes":
        return ShowNote(ids[0])
    if f.layer == "skills":
        return ShowSkill(ids[0])
    if f.layer == "calendar":
        return ShowTask(ids[0])
    return None


#: The checks run again this long after the last result is shown: its first paint does not share the
#: interpreter with them (bench/README.md).
FIRST_PAINT_S = 0.25
#: The last result is read this long after the page is first shown: reading it (3.2 MB at 1M messages,
#: 65-90 ms of a worker) while Qt showed and painted the page for the first time made that turn wait
#: for the interpreter (30-35 ms of wall time for 14-17 ms of the GUI thread's CPU; bench/README.md).
FIRST_SHOW_S = 0.05


class DoctorPage(HealthPage):
    name = "doctor"

    def __init__(self, ctx, tab, parent: QWidget | None = None):
        super().__init__(ctx, tab, parent)
        self.at: int | None = None  # when the findings shown were computed
        self.findings: list[Finding] | None = None
        self.checking = False
        self.dialog: FixDialog | None = None
        self._build()
        tab.register_splitter(self.splitter, "doctor")
        accessible.prepare(self)

    def _build(self) -> None:
        self.recheck = QPushButton(self)
        self.recheck.setObjectName("doctorRecheck")
        self.recheck.clicked.connect(self.refresh)
        self.status = QLabel(self)
        self.status.setObjectName("doctorStatus")
        self.status.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(self.recheck)
        top.addWidget(self.status, 1)
        self.summary = LayerSummary(self.ctx.theme, self)
        self.groups = FindingGroups()
        self.tree = FindingsTree(self.groups, self.ctx.theme, self)
        self.tree.selectionModel().currentChanged.connect(lambda cur, _prev: self._on_current(cur))
        self.detail = FindingDetail(self.ctx.theme, self)
        self.detail.show_rows.clicked.connect(self.show_rows)
        self.detail.fixChosen.connect(self.start_fix)
        self.detail.dismiss.clicked.connect(self.dismiss_current)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setObjectName("doctorSplitter")
        self.splitter.addWidget(self.tree)
        self.splitter.addWidget(self.detail)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(self.summary)
        lay.addWidget(self.splitter, 1)
        QWidget.setTabOrder(self.recheck, self.tree)
        QWidget.setTabOrder(self.tree, self.detail.numbers)
        QWidget.setTabOrder(self.detail.numbers, self.detail.show_rows)
        QWidget.setTabOrder(self.detail.show_rows, self.detail.fix)
        QWidget.setTabOrder(self.detail.fix, self.detail.dismiss)
        self.retranslate_static()

    def retranslate_static(self) -> None:
        self.recheck.setText(self.tr("Check again"))
        self.recheck.setToolTip(self.tr("Run every check again (F5)"))

    # -- loading ----------------------------------------------------------------------------------------
    def activate(self) -> None:
        self.checking = True  # the last result is read first, then every check runs again
        self._show_status(None)
        self.controller.run(
            work.load_last,
            str(self.ctx.db_path),
            FIRST_SHOW_S,
            lane="task",
            key="doctor-last",
            label=self.tr("Reading the last check"),
            on_result=self._got_last,
            on_error=lambda _e: self.refresh(),
        )

    def _got_last(self, got: Any) -> None:
        at, findings, _more = got
        shown = at is not None and self.findings is None
        if shown:
            self._show(at, findings)
        self.refresh(after_s=FIRST_PAINT_S if shown else 0.0)

    def refresh(self, after_s: float = 0.0) -> None:
        """Run every check again in a worker (the result shown so far stays until the new one arrives),
        after ``after_s`` seconds (the last result was just shown: :data:`FIRST_PAINT_S`)."""
        self.checking = True
        self._show_status((0, 1))
        self.controller.run(
            work.check,
            str(self.ctx.db_path),
            after_s,
            key="doctor-check",
            label=self.tr("Checking the memory's health"),
            progress=True,
            on_result=self._got_check,
            on_error=self._check_failed,
            on_progress=lambda done, total: self._show_status((done, total)),
        )

    def _got_check(self, got: Any) -> None:
        self.checking = False
        at, findings = got
        self._show(at, findings)

    def _check_failed(self, exc: BaseException) -> None:
        self.checking = False
        self.status.setText(self.tr("The checks failed: {0}").format(messages.error_text(exc)))

    def _show(self, at: int, findings: list[Finding]) -> None:
        """Show ``findings``; the lines are made again only when they differ from those shown (a check
        that found the same keeps the tree as it is: its selection, folds and scroll)."""
        current = self.current_finding()
        was_open = self.tree.open_layers()
        self.at, self.findings = at, list(findings)
        changed = self.groups.set_findings(self.findings)
        self.summary.show_findings(self.findings)
        self._show_status(None)
        if not changed and self.tree.topLevelItemCount() == len(self.groups.layers):
            self._on_current(self.tree.currentIndex())  # the same finding, checked again
            return
        self.tree.show_groups(was_open)
        index = self.tree.index_of(current, fill=False) if current is not None else None
        folded = index is not None and index.parent().isValid() and not self.tree.isExpanded(index.parent())
        if folded and index is not None:
            index = index.parent()  # its layer was folded: the layer's line, the fold kept
        if (index is None or not index.isValid()) and self.groups.layers:
            index = self._first_shown()
        if index is not None and index.isValid():
            self.tree.setCurrentIndex(index)
        else:
            self._on_current(self.tree.currentIndex())

    def _first_shown(self) -> Any:
        """The worst finding of the first open layer, else the first layer's line."""
        model = self.tree.model()
        for pos in range(len(self.groups.layers)):
            layer = model.index(pos, 0)
            if self.tree.isExpanded(layer):
                return model.index(0, 0, layer)
        return model.index(0, 0)

    def _show_status(self, progress: tuple[int, int] | None) -> None:
        parts = []
        if self.at is not None:
            now = int(time.time() * 1000)
            parts.append(self.tr("Last checked {0}.").format(humanize.when(self.at, now)))
        else:
            parts.append(self.tr("Not checked yet."))
        if self.checking:
            done, total = progress if progress is not None else (0, 1)
            parts.append(self.tr("Checking… ({0} of {1} layers)").format(done, total))
        elif self.findings is not None and not self.findings:
            parts.append(self.tr("Nothing found wrong."))
        self.status.setText(" ".join(parts))

    # -- the finding selected ---------------------------------------------------------------------------
    def current_finding(self) -> Finding | None:
        return self.tree.finding(self.tree.currentIndex())

    def select_finding(self, code: str) -> bool:
        """Select the first finding of ``code`` (tests, screenshots)."""
        for f in self.groups.findings():
            if f.code == code:
                index = self.tree.index_of(f)
                self.tree.expand(index.parent())
                self.tree.setCurrentIndex(index)
                return True
        return False

    def _on_current(self, index: Any) -> None:
        f = self.tree.finding(index)
        target = target_of(f) if f is not None else None
        self.detail.show_finding(f, can_show=target is not None and self.ctx.navigator.can_go(target))

    def show_rows(self) -> bool:
        f = self.current_finding()
        target = target_of(f) if f is not None else None
        return target is not None and self.ctx.navigator.go(target)

    def dismiss_current(self) -> None:
        f = self.current_finding()
        if f is None or f.fix is None:
            return
        ids = [str(t) for t in (f.fix.params.get("ids") or f.targets)]
        self.controller.run(
            work.dismiss,
            str(self.ctx.db_path),
            ids,
            lane="task",
            label=self.tr("Remembering they are not duplicates"),
            on_result=lambda _r: self._dropped(f),
        )

    def _dropped(self, f: Finding) -> None:
        if self.findings is not None and self.at is not None:
            self._show(self.at, [g for g in self.findings if g is not f])

    # -- fixing -----------------------------------------------------------------------------------------
    def start_fix(self, fix: Fix | None = None) -> None:
        """Work out ``fix`` (default: the one the finding offers) and ask, showing every change."""
        f = self.current_finding()
        fix = fix if fix is not None else (f.fix if f is not None else None)
        if f is None or fix is None or not self.ctx.editing:
            return
        self.controller.run(
            work.fix_preview,
            fix,
            f,
            None,
            key="doctor-preview",
            label=self.tr("Working out the fix"),
            on_result=lambda got: self._open_dialog(f, fix, got),
        )

    def _open_dialog(self, f: Finding, fix: Fix, got: Any) -> None:
        options, changes = got
        dialog = FixDialog(fix, f, options, reason=finding_text(f), parent=self)
        self.dialog = dialog
        dialog.choiceChanged.connect(lambda choice: self._preview(dialog, choice))
        dialog.accepted.connect(lambda: self._apply(f, fix, dialog.choice()))
        dialog.finished.connect(lambda _r: setattr(self, "dialog", None))
        if dialog.need in ("tau", "survivor"):
            self._preview(dialog, dialog.choice())
        else:
            dialog.set_preview(changes)
        dialog.open()

    def _preview(self, dialog: FixDialog, choice: Any) -> None:
        assert dialog.fix is not None
        self.controller.run(
            work.fix_preview,
            dialog.fix,
            dialog.finding,
            choice,
            key="doctor-preview",
            label=self.tr("Working out the fix"),
            on_result=lambda got: dialog.set_preview(got[1]),
            on_error=lambda exc: dialog.set_error(messages.error_text(exc)),
        )

    def _apply(self, f: Finding, fix: Fix, choice: Any) -> None:
        title = fix_title(fix.code)
        self.controller.run(
            work.fix_change,
            fix,
            f,
            choice,
            key="doctor-change",
            label=title,
            on_result=lambda change: self.controller.curate(
                change, title, on_result=lambda _c: self.refresh()
            ),
        )

    # -- hooks ------------------------------------------------------------------------------------------
    def set_editing(self, on: bool) -> None:
        self.detail.set_editing(on)

    def retranslate(self) -> None:
        self.retranslate_static()
        self.tree.retranslate()
        self.summary.retranslate()
        self.detail.retranslate()
        self._show_status(None)
