"""The Review tab: what the agent learned and changed since the last review, layer by layer.

The shape of every tab (see :mod:`philont_desktop.tabs`): :mod:`.state` holds the baseline, the change
set and the review marks without Qt; :mod:`.controller` computes the changes (a time baseline on the read
lane, a backup comparison with progress and cancel on the task lane), keeps the review mark outside the
database and runs the item actions through the audited, undoable curation; this view composes the
baseline picker, the grouped change list and the detail pane (``widgets/``) and wires them together.
A live refresh inserts new changes at the top and keeps the selected change and the rows in view.
"""

from __future__ import annotations

import json
import time
from typing import Any

from core.changes import ChangeItem
from philont_desktop import humanize, zoom
from philont_desktop.jobs import spin_until
from philont_desktop.qt import (
    QAbstractItemView,
    QEvent,
    QFileDialog,
    QHeaderView,
    QInputDialog,
    QItemSelectionModel,
    QLabel,
    QMessageBox,
    QModelIndex,
    QPoint,
    QSplitter,
    Qt,
    QTreeView,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.review.controller import DEMOTE, ReviewController, load_messages
from philont_desktop.review.export import DigestTexts, write_digest
from philont_desktop.review.model import COL_BY, COL_CHANGE, COL_TIME, COL_WHEN, ChangeTreeModel
from philont_desktop.review.state import BACKUP, ReviewState
from philont_desktop.review.texts import layer_name, notice_text, summary
from philont_desktop.review.widgets.baseline_bar import BaselineBar
from philont_desktop.review.widgets.detail import ReviewDetailPane
from philont_desktop.review.widgets.review_bar import ReviewBar
from philont_desktop.review.widgets.summary_delegate import SummaryDelegate
from philont_desktop.tabs.base import BaseTab
from philont_desktop.tabs.navigation import ShowMessage, ShowTime
from philont_desktop.widgets.after_paint import next_turn

__all__ = ["ReviewTab"]

#: Below this width of the change list (at 100 % on 96 dpi; it grows with the text) the "Time" column
#: is hidden, below the second the "Source" column too: the summaries keep the room (both are in the
#: rows' tooltips and the detail pane).
NARROW_TREE = 700
NARROWER_TREE = 560
#: Below this width of the tab (at 100 % on 96 dpi: 1120 px at 200 %) the detail pane goes under the
#: list rather than beside it, so that the summaries have the tab's whole width.
STACKED = 560


def _backups(db_path: str) -> list[Any]:
    from core.backups import list_backups_info

    return list_backups_info(db_path, check=False)


class ReviewTab(BaseTab):
    """Baseline picker, the change list grouped by layer, and the detail pane of the selected change."""

    name = "review"

    def __init__(self, ctx: Any, parent: QWidget | None = None):
        super().__init__(ctx, parent)
        self.baseline_bar = BaselineBar(self)
        self.review_bar = ReviewBar(self)
        self.notices = QLabel(self)
        self.notices.setObjectName("reviewNotices")
        self.notices.setTextFormat(Qt.TextFormat.PlainText)
        self.notices.setWordWrap(True)
        self.model = ChangeTreeModel(ctx.theme, self)
        self.tree = self._make_tree()
        self.detail = ReviewDetailPane(ctx.theme, self)
        self.split = split = QSplitter(Qt.Orientation.Horizontal, self)
        split.setObjectName("reviewSplit")
        split.addWidget(self.tree)
        split.addWidget(self.detail)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setChildrenCollapsible(False)
        zoom.set_splitter_sizes(split, [760, 560])  # the list grows with the text
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.baseline_bar)
        lay.addWidget(self.review_bar)
        lay.addWidget(self.notices)
        lay.addWidget(split, 1)
        self.register_splitter(split, "main")
        self.tree.installEventFilter(self)
        # The first change is chosen a turn after the list went in: its detail (text, diff, plot) and
        # the list's first layout and paint made one turn of ~40 ms on a big change set.
        self._first_pick = next_turn(self, self._select_first)
        self._wire()
        self.set_editing(bool(ctx.editing))

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self.fit_split()

    def fit_split(self) -> None:
        """Large text in a narrow window: the detail pane under the list (beside it otherwise)."""
        stacked = self.width() / zoom.text_scale() < STACKED
        rows = self.tree.header().sizeHint().height() + 5 * (self.tree.fontMetrics().lineSpacing() + 6)
        self.tree.setMinimumHeight(rows if stacked else 0)  # five changes at least when stacked
        want = Qt.Orientation.Vertical if stacked else Qt.Orientation.Horizontal
        if self.split.orientation() == want:
            return
        self.split.setOrientation(want)
        if stacked:
            self.split.setSizes([rows, max(self.height() - rows, rows)])
        else:
            zoom.set_splitter_sizes(self.split, [760, 560])

    def eventFilter(self, watched: Any, event: Any) -> bool:
        if watched is self.tree and event.type() == QEvent.Type.Resize:
            self.fit_columns()
        return super().eventFilter(watched, event)

    def fit_columns(self) -> None:
        """A narrow list (1024 px, large text): the exact time column, then the source column make room
        for the summaries (both stay in the rows' tooltips and the detail pane)."""
        width = self.tree.width() / zoom.text_scale()
        self.tree.setColumnHidden(COL_TIME, width < NARROW_TREE)
        self.tree.setColumnHidden(COL_BY, width < NARROWER_TREE)

    def create_state(self) -> ReviewState:
        return ReviewState()

    def create_controller(self) -> ReviewController:
        return ReviewController(self.ctx, self.state, self.name, self)

    def _make_tree(self) -> QTreeView:
        tree = QTreeView(self)
        tree.setObjectName("reviewTree")
        tree.setModel(self.model)
        tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        tree.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        tree.setUniformRowHeights(True)
        tree.setAlternatingRowColors(True)
        tree.setRootIsDecorated(True)
        # A summary too long for its column keeps its beginning and its end, and loses the middle; the
        # whole text is in the row's tooltip.
        tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.summary_delegate = SummaryDelegate(tree)
        tree.setItemDelegateForColumn(COL_CHANGE, self.summary_delegate)
        header = tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(COL_CHANGE, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(24)
        metrics = tree.fontMetrics()
        for col, sample in (
            (COL_WHEN, "10 days ago"),
            (COL_TIME, "2026-12-31 23:59"),
            (COL_BY, "unknown time"),
        ):
            header.resizeSection(col, metrics.horizontalAdvance(sample) + 24)
        return tree

    def _wire(self) -> None:
        self.baseline_bar.baselineChosen.connect(self.controller.set_baseline)
        self.baseline_bar.cancelRequested.connect(self.controller.cancel)
        self.review_bar.looksRight.connect(self.looks_right)
        self.review_bar.markAll.connect(self.mark_all_reviewed)
        self.review_bar.undoMarkAll.connect(self.controller.undo_mark_all)
        self.review_bar.hideReviewedChanged.connect(lambda on: self.state.update(hide_reviewed=on))
        self.review_bar.exportRequested.connect(self.export)
        self.tree.selectionModel().currentChanged.connect(self._on_current)
        self.detail.actions.requested.connect(self._act)
        self.detail.timelineRequested.connect(self.show_in_timeline)
        self.model.modelReset.connect(self.tree.expandAll)
        self.ctx.theme.changed.connect(self.fit_split)  # the zoom changed the text size
        self.ctx.theme.changed.connect(self.fit_columns)
        self.state.changed.connect(self._on_state)

    # -- BaseTab --------------------------------------------------------------------------------------
    def activate(self) -> None:
        self.run(
            _backups,
            str(self.ctx.db_path),
            lane="task",
            key="backups",
            on_result=self.baseline_bar.set_backups,
        )
        self.controller.activate()
        self.baseline_bar.show_baseline(self.state.baseline, self.state.mark)

    def wait_idle(self, timeout_ms: int = 10_000) -> bool:
        """Until the changes are listed, the first one chosen and its messages loaded."""
        return spin_until(lambda: not self.busy and not self._first_pick.isActive(), timeout_ms)

    def set_editing(self, on: bool) -> None:
        self.controller.set_editing(on)
        self.detail.actions.show_item(self.detail.item, bool(on))

    def retranslate(self) -> None:
        self.baseline_bar.retranslate()
        self.detail.actions.retranslate()
        self.model.retranslate()
        self.detail.retranslate()
        self._show_notices()
        self._show_counts()
        self.review_bar.show_undo(self.state.undo_count if self.state.undo_mark is not None else None)

    # -- the state ------------------------------------------------------------------------------------
    def _on_state(self, names: frozenset[str]) -> None:
        s = self.state
        if names & {"changes", "reviewed", "new_ids", "hide_reviewed"}:
            self._update_list()
        if names & {"baseline", "mark"}:
            self.baseline_bar.show_baseline(s.baseline, s.mark)
        if "progress" in names:
            self.baseline_bar.show_progress(s.progress)
        if names & {"changes", "error"}:
            self._show_notices()
        if names & {"changes", "reviewed", "new_ids", "loading"}:
            self._show_counts()
        if "editing" in names:
            self.detail.actions.show_item(self.detail.item, s.editing)
        if names & {"undo_mark", "undo_count"}:
            self.review_bar.show_undo(s.undo_count if s.undo_mark is not None else None)

    def _update_list(self) -> None:
        """Update the rows in place: the selected change and the change at the top of the view stay."""
        s = self.state
        top = self.model.item(self.tree.indexAt(QPoint(4, 4)))
        first = self.model.rowCount() == 0
        self.model.set_changes(
            s.changes, reviewed=s.reviewed, new_ids=s.new_ids, hide_reviewed=s.hide_reviewed
        )
        if first and self.detail.item is None:  # (expanded by the model's reset)
            self._first_pick.start()
        for pos in range(self.model.rowCount()):
            self.tree.expand(self.model.index(pos, 0))
        if top is not None:
            anchor = self.model.index_of(top.id)
            if anchor.isValid():
                self.tree.scrollTo(anchor, QAbstractItemView.ScrollHint.PositionAtTop)
        cur = self.model.item(self.tree.currentIndex())
        if cur is not None:
            self.detail.actions.show_item(cur, s.editing)
        elif self.detail.item is not None and not self.model.index_of(self.detail.item.id).isValid():
            self.detail.show_item(None)

    def _show_counts(self) -> None:
        s = self.state
        items = s.changes.items if s.changes is not None else []
        reviewed = sum(1 for it in items if it.id in s.reviewed)
        new = sum(1 for it in items if it.id in s.new_ids)
        self.review_bar.show_counts(len(items), reviewed, new, s.loading)

    def _show_notices(self) -> None:
        s = self.state
        texts = [s.error] if s.error else []
        if s.changes is not None:
            texts += [notice_text(n.code, n.params, n.message) for n in s.changes.notices]
        self.notices.setText("\n".join(texts))
        self.notices.setVisible(bool(texts))

    # -- the selected change --------------------------------------------------------------------------
    def _on_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        item = self.model.item(current)
        if item is None:
            return
        self.state.update(selected=item.id)
        self.detail.show_item(item, editing=self.state.editing)
        self.run(load_messages, item, key="messages", on_result=self._got_messages(item.id))

    def _got_messages(self, item_id: str) -> Any:
        def show(messages: list[Any]) -> None:
            if self.detail.item is not None and self.detail.item.id == item_id:
                self.detail.show_messages(messages)

        return show

    def _select_first(self) -> None:
        if self.detail.item is not None or self.tree.currentIndex().isValid():
            return  # a change was chosen meanwhile
        for pos in range(self.model.rowCount()):
            parent = self.model.index(pos, 0)
            if self.model.rowCount(parent):
                self.tree.selectionModel().setCurrentIndex(
                    self.model.index(0, 0, parent),
                    QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
                )
                return

    def selected_items(self) -> list[ChangeItem]:
        rows = self.tree.selectionModel().selectedRows(COL_CHANGE)
        items = [self.model.item(i) for i in rows]
        return [it for it in items if it is not None]

    def select(self, item_id: str) -> bool:
        index = self.model.index_of(item_id)
        if not index.isValid():
            return False
        self.tree.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        )
        self.tree.scrollTo(index)
        return True

    def looks_right(self) -> None:
        """Mark the selected changes (or the shown one) reviewed; again on reviewed ones: not reviewed."""
        items = self.selected_items() or ([self.detail.item] if self.detail.item else [])
        ids = [it.id for it in items if it is not None]
        if not ids:
            return
        undo = all(i in self.state.reviewed for i in ids)
        self.controller.mark_reviewed(ids, reviewed=not undo)

    def mark_all_reviewed(self) -> None:
        """Ask first: how many changes leave the list, and that it can be undone."""
        cs = self.state.changes
        if cs is None or not cs.items:
            return
        if self.confirm_mark_all(len(cs.items)):
            self.controller.mark_all_reviewed()

    def confirm_mark_all(self, count: int) -> bool:
        text = self.tr(
            "Mark all %n change(s) as reviewed? They leave the list and the next review starts after them. "
            "You can undo this with “Undo mark” in the review bar.",
            None,
            count,
        )
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Mark all reviewed"), text, parent=self)
        yes = box.addButton(self.tr("Mark all reviewed"), QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(box.addButton(QMessageBox.StandardButton.Cancel))
        box.exec()
        return box.clickedButton() is yes

    def show_in_timeline(self) -> None:
        item = self.detail.item
        if item is None:
            return
        first = item.after.get("firstId") if isinstance(item.after, dict) else None
        if item.code == "change.timeline.conversation" and isinstance(first, int):
            self.ctx.navigator.go(ShowMessage(first))
        elif item.at is not None:
            self.ctx.navigator.go(ShowTime(item.at))

    # -- actions ----------------------------------------------------------------------------------------
    def _act(self, name: str) -> None:
        item, c = self.detail.item, self.controller
        if item is None or not self.state.editing:
            return
        simple = {
            "revert_fact": lambda: c.revert_fact(item),
            "pin": lambda: c.pin_fact(item, True),
            "unpin": lambda: c.pin_fact(item, False),
            "forget_fact": lambda: c.forget_fact(item, True),
            "unforget_fact": lambda: c.forget_fact(item, False),
            "forget_note": lambda: c.forget_note(item, True),
            "unforget_note": lambda: c.forget_note(item, False),
        }
        if name in simple:
            simple[name]()
        elif name == "correct_fact":
            self._correct(item)
        elif name in ("demote", "deprecate", "revert_revision"):
            self._with_reason(item, name)

    def _correct(self, item: ChangeItem) -> None:
        after = item.after if isinstance(item.after, dict) else {}
        text, ok = QInputDialog.getMultiLineText(
            self,
            self.tr("Correct fact"),
            self.tr("The correct value (JSON):"),
            str(after.get("valueJson", "")),
        )
        if not ok:
            return
        try:
            value = json.loads(text)
        except ValueError:
            value = text  # not JSON: stored as text
        self.controller.correct_fact(item, value)

    def _with_reason(self, item: ChangeItem, name: str) -> None:
        text, ok = QInputDialog.getText(self, self.tr("Reason"), self.tr("Why (kept in the audit trail):"))
        if not ok or not text.strip():
            return
        if name == "revert_revision":
            self.controller.revert_revision(item, text.strip())
            return
        after = item.after if isinstance(item.after, dict) else {}
        current = after.get("maturity") or item.params.get("to")
        target = DEMOTE.get(str(current), "draft") if name == "demote" else "deprecated"
        self.controller.set_grade(item, target, text.strip())

    # -- export -----------------------------------------------------------------------------------------
    def digest_texts(self) -> DigestTexts | None:
        cs = self.state.changes
        if cs is None:
            return None
        now = int(time.time() * 1000)
        since = humanize.when(cs.baseline.since, now) if cs.baseline.since is not None else ""
        if cs.baseline.kind == BACKUP or cs.baseline.kind == "backups":
            baseline = self.tr("Compared with {0} ({1})").format(cs.baseline.path or "", since)
        else:
            baseline = self.tr("Changes since {0}").format(since)
        return DigestTexts(
            title=self.tr("Memory review, {0}").format(humanize.abs_time(cs.until)),
            baseline=baseline,
            layer_names={layer: layer_name(layer) for layer in cs.layers},
            summaries={it.id: summary(it) for it in cs.items},
            times={
                it.id: humanize.when(it.at, now) if it.at is not None else self.tr("time unknown")
                for it in cs.items
            },
            reviewed_label=self.tr("reviewed"),
            notices=[notice_text(n.code, n.params, n.message) for n in cs.notices],
        )

    def export(self, fmt: str, path: str | None = None) -> None:
        cs = self.state.changes
        if cs is None:
            return
        if path is None:
            pattern = self.tr("Markdown (*.md)") if fmt == "markdown" else self.tr("JSON (*.json)")
            path, _ = QFileDialog.getSaveFileName(self, self.tr("Export the review"), "", pattern)
            if not path:
                return
        texts = self.digest_texts() if fmt == "markdown" else None
        self.run(
            write_digest,
            path,
            fmt,
            cs,
            texts,
            self.state.reviewed,
            str(self.ctx.db_path),
            lane="task",
            label=self.tr("Exporting the review"),
            on_result=lambda p: self.ctx.statusMessage.emit(self.tr("Review exported to {0}").format(p)),
            on_error=lambda exc: self.ctx.show_error(self.tr("The review could not be exported"), exc),
        )
