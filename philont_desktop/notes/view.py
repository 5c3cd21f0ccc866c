"""The Notes tab: search and browse notes; in editing mode edit, forget / unforget and add them.

Every edit goes through :mod:`core.curation.notes` and ``ctx.curate`` (one audited transaction on the
writer, then a command on the shared undo stack), so it is in the audit trail and can be undone from
any tab. An edit carries the note as it was shown: if the agent changed it meanwhile, nothing is
overwritten and the conflict is reported.
"""

from __future__ import annotations

from typing import Any

from core.curation import notes as note_curation
from core.errors import ValidationError_
from core.models import Note
from philont_desktop.notes.model import (
    COL_CONTENT,
    COL_IMPORTANCE,
    NotesModel,
    NotesQuery,
)
from philont_desktop.qt import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QItemSelectionModel,
    QKeySequence,
    QLabel,
    QLineEdit,
    QMessageBox,
    QModelIndex,
    QPlainTextEdit,
    QPushButton,
    QShortcut,
    QSplitter,
    Qt,
    QTableView,
    QTimer,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.tabs.base import BaseTab
from philont_desktop.timeline.model import format_local
from philont_desktop.widgets.rows_model import RowRole

SEARCH_DEBOUNCE_MS = 250


class AddNoteDialog(QDialog):
    """Text and importance of a new note."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Add a note"))
        self.setObjectName("addNoteDialog")
        self.resize(520, 320)
        self.text = QPlainTextEdit(self)
        self.text.setPlaceholderText(self.tr("What should be remembered?"))
        self.importance = QDoubleSpinBox(self)
        self.importance.setRange(0.0, 1.0)
        self.importance.setSingleStep(0.05)
        self.importance.setDecimals(2)
        self.importance.setValue(0.5)
        form = QFormLayout()
        form.addRow(self.tr("Importance"), self.importance)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Add"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.text.textChanged.connect(self._update)
        lay = QVBoxLayout(self)
        lay.addWidget(self.text, 1)
        lay.addLayout(form)
        lay.addWidget(self.buttons)
        self._update()

    def _update(self) -> None:
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(
            bool(self.text.toPlainText().strip())
        )


class NotesTab(BaseTab):
    """Notes table with search; editing controls in editing mode."""

    name = "notes"

    def __init__(self, ctx, parent: QWidget | None = None):
        super().__init__(ctx, parent)
        self._editing = False
        self._shown: Note | None = None  # the note in the editor, as it was when shown
        self._shown_text = ""
        self._select_after_load: str | None = None
        self.model = NotesModel(self._run_job, ctx.theme, self)

        # toolbar
        self.search_edit = QLineEdit(self)
        self.search_edit.setObjectName("notesSearch")
        self.search_edit.setClearButtonEnabled(True)
        self.search_edit.setPlaceholderText(
            self.tr("Search notes (the agent's search: 3+ characters full-text)")
        )
        self.hide_forgotten = QCheckBox(self.tr("Hide forgotten"), self)
        self.order_combo = QComboBox(self)
        self.order_combo.addItem(self.tr("Newest first"), "created")
        self.order_combo.addItem(self.tr("Most important first"), "importance")
        self.add_btn = QPushButton(self.tr("Add note…"), self)
        self.add_btn.setObjectName("addNote")
        self.count_label = QLabel(self)
        bar = QHBoxLayout()
        bar.setContentsMargins(6, 6, 6, 2)
        bar.addWidget(self.search_edit, 3)
        bar.addWidget(self.hide_forgotten)
        bar.addWidget(self.order_combo)
        bar.addWidget(self.add_btn)
        bar.addWidget(self.count_label)

        # table
        self.table = QTableView(self)
        self.table.setObjectName("notesTable")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.setAlternatingRowColors(True)
        self.table.setShowGrid(False)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setHighlightSections(False)
        hh.setStretchLastSection(False)
        fm = self.fontMetrics()
        stamp = fm.horizontalAdvance("2026-12-31") + 20
        for col, w in enumerate((420, fm.horizontalAdvance("Importance") + 24, stamp, stamp, stamp, 140)):
            hh.resizeSection(col, w)
        hh.setSectionResizeMode(COL_CONTENT, QHeaderView.ResizeMode.Stretch)
        self.table.selectionModel().currentRowChanged.connect(self._on_current)

        # detail / editor
        self.meta = QLabel(self)
        self.meta.setObjectName("noteMeta")
        self.meta.setWordWrap(True)
        self.meta.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.content_edit = QPlainTextEdit(self)
        self.content_edit.setObjectName("noteContent")
        self.content_edit.setReadOnly(True)
        self.importance_spin = QDoubleSpinBox(self)
        self.importance_spin.setObjectName("noteImportance")
        self.importance_spin.setRange(0.0, 1.0)
        self.importance_spin.setSingleStep(0.05)
        self.importance_spin.setDecimals(2)
        self.importance_spin.setEnabled(False)
        self.save_btn = QPushButton(self.tr("Save changes"), self)
        self.save_btn.setObjectName("saveNote")
        self.revert_btn = QPushButton(self.tr("Revert"), self)
        self.forget_btn = QPushButton(self.tr("Forget"), self)
        self.forget_btn.setObjectName("forgetNote")
        self.hint = QLabel(self)
        self.hint.setObjectName("noteHint")
        self.hint.setWordWrap(True)
        imp_row = QHBoxLayout()
        imp_row.addWidget(QLabel(self.tr("Importance"), self))
        imp_row.addWidget(self.importance_spin)
        imp_row.addStretch(1)
        btns = QHBoxLayout()
        btns.addWidget(self.save_btn)
        btns.addWidget(self.revert_btn)
        btns.addStretch(1)
        btns.addWidget(self.forget_btn)
        detail = QWidget(self)
        dl = QVBoxLayout(detail)
        dl.setContentsMargins(6, 0, 6, 6)
        dl.addWidget(self.meta)
        dl.addWidget(self.content_edit, 1)
        dl.addLayout(imp_row)
        dl.addLayout(btns)
        dl.addWidget(self.hint)

        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.setObjectName("notesSplit")
        split.addWidget(self.table)
        split.addWidget(detail)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([880, 480])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(bar)
        lay.addWidget(split, 1)
        self.register_splitter(split, "main")

        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(SEARCH_DEBOUNCE_MS)
        self._debounce.timeout.connect(self.reload)
        self.search_edit.textChanged.connect(lambda _t: self._debounce.start())
        self.search_edit.returnPressed.connect(self.reload)
        self.hide_forgotten.toggled.connect(lambda _b: self.reload())
        self.order_combo.currentIndexChanged.connect(lambda _i: self.reload())
        self.add_btn.clicked.connect(self.add_note)
        self.save_btn.clicked.connect(self.save)
        self.revert_btn.clicked.connect(self._revert)
        self.forget_btn.clicked.connect(self.toggle_forgotten)
        self.content_edit.textChanged.connect(self._update_buttons)
        self.importance_spin.valueChanged.connect(lambda _v: self._update_buttons())
        self.model.loaded.connect(self._on_loaded)
        self.model.failed.connect(lambda exc: self.ctx.show_error(self.tr("Notes could not be read"), exc))
        if hasattr(ctx, "undo") and hasattr(ctx.undo, "stepFinished"):
            ctx.undo.stepFinished.connect(lambda *_: self.refresh())
        QShortcut(QKeySequence.StandardKey.Find, self, activated=self.search_edit.setFocus)
        QShortcut(QKeySequence.StandardKey.Save, self, activated=self.save)
        self.set_editing(bool(getattr(ctx, "editing", False)))
        self._show(None)

    # -- BaseTab -------------------------------------------------------------------------------------------
    def title(self) -> str:
        return self.tr("Notes")

    def _run_job(self, fn, *args, on_result=None, on_error=None, key=None):
        return self.run(fn, *args, on_result=on_result, on_error=on_error, key=key)

    def activate(self) -> None:
        self.reload()

    def refresh(self) -> None:
        if self.activated:
            self.model.refresh()

    def retranslate(self) -> None:
        super().retranslate()
        if not self._dirty():  # an edit in progress keeps its text; the labels follow on the next show
            self._show(self._shown)

    def set_editing(self, on: bool) -> None:
        self._editing = bool(on)
        self.add_btn.setVisible(self._editing)
        self.content_edit.setReadOnly(not self._editing)
        self.importance_spin.setEnabled(self._editing and self._shown is not None)
        self.save_btn.setVisible(self._editing)
        self.revert_btn.setVisible(self._editing)
        self.forget_btn.setVisible(self._editing)
        self._update_buttons()

    def self_test(self) -> list[str]:
        errors: list[str] = []
        for q in ("note", "a-b", '"', "笔记"):
            self.search_edit.setText(q)
            self.reload()
            self.wait_idle(10_000)
        self.search_edit.clear()
        self.reload()
        self.wait_idle(10_000)
        return errors

    def wait_idle(self, timeout_ms: int = 10_000) -> bool:
        from philont_desktop.qt import QDateTime

        deadline = QDateTime.currentMSecsSinceEpoch() + timeout_ms
        while True:
            left = deadline - QDateTime.currentMSecsSinceEpoch()
            if super().wait_idle(max(0, int(left))):
                return True
            if left <= 0:
                return False

    # -- loading ----------------------------------------------------------------------------------------------
    def query(self) -> NotesQuery:
        return NotesQuery(
            text=self.search_edit.text(),
            include_forgotten=not self.hide_forgotten.isChecked(),
            order=self.order_combo.currentData() or "created",
        )

    def reload(self) -> None:
        self._debounce.stop()
        searching = bool(self.search_edit.text().strip())
        self.order_combo.setEnabled(not searching)
        self.order_combo.setToolTip(
            self.tr("Search results come as the agent's search orders them: most important first")
            if searching
            else ""
        )
        keep = self._shown.id if self._shown is not None else None
        self._select_after_load = keep
        self.model.set_query(self.query())

    def _on_loaded(self) -> None:
        n = self.model.rowCount()
        q = self.model.query
        if q.text.strip():
            text = self.tr("1 note found") if n == 1 else self.tr("%1 notes found").replace("%1", f"{n:,}")
        else:
            text = self.tr("1 note") if n == 1 else self.tr("%1 notes").replace("%1", f"{n:,}")
            if not self.model.complete:
                text = self.tr("%1+ notes").replace("%1", f"{n:,}")
        self.count_label.setText(text)
        want = self._select_after_load
        self._select_after_load = None
        if want is None and self._shown is None and n and not self.table.currentIndex().isValid():
            want = self.model.row_at(0).id
        if want is not None:
            row = self.model.row_of(want)
            if row >= 0 and self.table.currentIndex().row() != row:
                self.table.selectionModel().setCurrentIndex(
                    self.model.index(row, 0),
                    QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
                )
                self.table.scrollTo(self.model.index(row, 0))
        cur = self.table.currentIndex()
        note = cur.data(RowRole) if cur.isValid() else None
        if note is None:
            if self._shown is not None and self.model.row_of(self._shown.id) < 0 and not self._dirty():
                self._show(None)
        elif self._shown is None or note.id != self._shown.id or self._changed(note):
            self._show_updated(note)

    # -- detail ---------------------------------------------------------------------------------------------
    def _on_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        note = current.data(RowRole) if current.isValid() else None
        if note is not None and self._shown is not None and note.id == self._shown.id:
            return
        if self._dirty() and not self._confirm_discard():
            return
        self._show(note)

    def _confirm_discard(self) -> bool:
        box = QMessageBox(
            QMessageBox.Icon.Question,
            self.tr("Unsaved changes"),
            self.tr("The note you were editing has unsaved changes. Discard them?"),
            QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            self,
        )
        return box.exec() == QMessageBox.StandardButton.Discard

    def _changed(self, note: Note) -> bool:
        s = self._shown
        return s is None or (s.content, s.importance, s.forgotten_at, s.last_accessed_at) != (
            note.content,
            note.importance,
            note.forgotten_at,
            note.last_accessed_at,
        )

    def _show_updated(self, note: Note) -> None:
        """The shown note changed in the database (live refresh)."""
        if self._dirty() and self._shown is not None and note.id == self._shown.id:
            self.hint.setText(
                self.tr(
                    "This note was changed in the database while you were editing it. Saving will be "
                    "refused; revert to see the new text."
                )
            )
            return
        self._show(note)

    def _show(self, note: Note | None) -> None:
        self._shown = note
        self.content_edit.blockSignals(True)
        self.importance_spin.blockSignals(True)
        if note is None:
            self.meta.setText(self.tr("Select a note to see it."))
            self.content_edit.setPlainText("")
            self._shown_text = ""
            self.importance_spin.setValue(0.0)
        else:
            parts = [
                self.tr("Id: %1").replace("%1", note.id),
                self.tr("Session: %1").replace("%1", note.session_id or "—"),
                self.tr("Created: %1").replace("%1", format_local(note.created_at)),
                self.tr("Accessed: %1").replace(
                    "%1", format_local(note.last_accessed_at) or self.tr("never")
                ),
            ]
            if note.forgotten_at is not None:
                parts.append(self.tr("Forgotten: %1").replace("%1", format_local(note.forgotten_at)))
            self.meta.setText("\n".join(parts))
            self.content_edit.setPlainText(note.content)
            self._shown_text = self.content_edit.toPlainText()
            try:
                self.importance_spin.setValue(float(note.importance))
            except (TypeError, ValueError):
                self.importance_spin.setValue(0.0)
        self.content_edit.blockSignals(False)
        self.importance_spin.blockSignals(False)
        self.hint.setText("")
        self.importance_spin.setEnabled(self._editing and note is not None)
        self._update_buttons()

    def _dirty(self) -> bool:
        if self._shown is None or not self._editing:
            return False
        return self._text_edited() or self._importance_edited()

    def _text_edited(self) -> bool:
        """Compared with the editor's own rendering of the shown text (it folds CR LF, NBSP, U+2028)."""
        return self.content_edit.toPlainText() != self._shown_text

    def _importance_edited(self) -> bool:
        """The spin box rounds to 2 decimals: an unedited 0.333 must not count as a change."""
        s = self._shown
        try:
            return round(float(s.importance), 2) != round(self.importance_spin.value(), 2)  # type: ignore[union-attr]
        except (TypeError, ValueError):
            return True

    def _update_buttons(self) -> None:
        s = self._shown
        dirty = self._dirty()
        self.save_btn.setEnabled(self._editing and dirty)
        self.revert_btn.setEnabled(self._editing and dirty)
        self.forget_btn.setEnabled(self._editing and s is not None)
        self.forget_btn.setText(
            self.tr("Unforget") if s is not None and s.forgotten_at is not None else self.tr("Forget")
        )
        if not self._editing:
            self.hint.setText(self.tr("Turn on editing mode to change, forget or add notes."))
        elif self.hint.text() == self.tr("Turn on editing mode to change, forget or add notes."):
            self.hint.setText("")

    def _revert(self) -> None:
        s = self._shown
        if s is None:
            return
        row = self.model.row_of(s.id)
        self._show(self.model.row_at(row) if row >= 0 else s)

    # -- edits ----------------------------------------------------------------------------------------------
    def _curate(self, text: str, change: Any, select: str | None, on_failed: Any = None) -> None:
        def _done(_edit: Any) -> None:
            self._select_after_load = select
            self.model.refresh()

        def _failed(exc: BaseException) -> None:
            if on_failed is not None:
                on_failed()
            self.ctx.show_error(self.tr("The note was not changed"), exc)

        self.curate(
            text,
            action=change.action,
            target_type=change.target_type,
            target_id=change.target_id,
            fn=change.fn,
            on_result=_done,
            on_error=_failed,
        )

    def save(self) -> None:
        """Save the text and importance of the shown note (one audited, undoable edit)."""
        s = self._shown
        if s is None or not self._editing or not self._dirty():
            return
        content = self.content_edit.toPlainText()
        kwargs: dict[str, Any] = {}
        if self._text_edited():
            kwargs["content"] = content
        if self._importance_edited():
            kwargs["importance"] = round(self.importance_spin.value(), 2)
        try:
            change = note_curation.update(s.id, seen=s, **kwargs)
        except ValidationError_ as exc:
            self.hint.setText(str(exc))
            return
        # the editor shows the saved state from now on (the refresh brings the row itself)
        prev_text = self._shown_text
        self._shown = s.model_copy(update=dict(kwargs))
        self._shown_text = content
        self._update_buttons()

        def _restore() -> None:  # not saved: the editor is "changed" again
            if self._shown is not None and self._shown.id == s.id:
                self._shown, self._shown_text = s, prev_text
                self._update_buttons()

        self._curate(self.tr("Edit note"), change, s.id, _restore)

    def toggle_forgotten(self) -> None:
        s = self._shown
        if s is None or not self._editing:
            return
        if s.forgotten_at is None:
            self._curate(self.tr("Forget note"), note_curation.forget(s.id, seen=s), s.id)
        else:
            self._curate(self.tr("Unforget note"), note_curation.unforget(s.id, seen=s), s.id)

    def add_note(self, text: str | None = None, importance: float | None = None) -> None:
        """Ask for a new note (or add ``text`` directly) and add it (audited, undoable)."""
        if not self._editing:
            return
        if text is None:
            dlg = AddNoteDialog(self)
            if dlg.exec() != QDialog.DialogCode.Accepted:
                return
            text = dlg.text.toPlainText()
            importance = dlg.importance.value()
        try:
            change = note_curation.add(text, 0.5 if importance is None else round(float(importance), 2))
        except ValidationError_ as exc:
            self.hint.setText(str(exc))
            return
        self._curate(self.tr("Add note"), change, change.target_id)

    def select_note(self, note_id: str) -> bool:
        row = self.model.row_of(note_id)
        if row < 0:
            return False
        self.table.selectionModel().setCurrentIndex(
            self.model.index(row, 0),
            QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
        )
        return True


__all__ = ["COL_IMPORTANCE", "AddNoteDialog", "NotesTab"]
