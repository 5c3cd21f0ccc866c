"""The baseline picker: since the last review (the default), since a time, or compared with a backup
(from ``backups/`` with their dates, or any file), with the comparison's progress and a cancel button."""

from __future__ import annotations

import time
from typing import Any

from philont_desktop import humanize
from philont_desktop.qt import (
    QComboBox,
    QDateTime,
    QDateTimeEdit,
    QFileDialog,
    QLabel,
    QProgressBar,
    QPushButton,
    Qt,
    QWidget,
    Signal,
)
from philont_desktop.review.state import BACKUP, MARK, TIME, Baseline
from philont_desktop.widgets.flow import FlowLayout

__all__ = ["BaselineBar"]

DAY_MS = 86_400_000
_OTHER = "\x00other"


class BaselineBar(QWidget):
    """``baselineChosen(Baseline)`` when the person picks one; ``cancelRequested`` stops a comparison."""

    baselineChosen = Signal(object)
    cancelRequested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("reviewBaselineBar")
        self.kind = QComboBox(self)
        self.kind.setObjectName("reviewBaselineKind")
        self.since = QDateTimeEdit(self)
        self.since.setObjectName("reviewSince")
        self.since.setCalendarPopup(True)
        self.since.setDisplayFormat("yyyy-MM-dd HH:mm")
        self.since.setDateTime(QDateTime.fromMSecsSinceEpoch(int(time.time() * 1000) - DAY_MS))
        self.backups = QComboBox(self)
        self.backups.setObjectName("reviewBackups")
        self.backups.setMinimumContentsLength(28)
        self.compare_btn = QPushButton(self.tr("Compare"), self)
        self.compare_btn.setObjectName("reviewCompare")
        self.progress = QProgressBar(self)
        self.progress.setObjectName("reviewProgress")
        self.progress.setMaximumWidth(180)
        self.cancel_btn = QPushButton(self.tr("Cancel"), self)
        self.cancel_btn.setObjectName("reviewCancel")
        self.status = QLabel(self)
        self.status.setObjectName("reviewMarkStatus")
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        lay = FlowLayout(self)  # large text in a narrow window: what does not fit goes to a second line
        lay.setContentsMargins(6, 4, 6, 4)
        for w in (QLabel(self.tr("Changes"), self), self.kind, self.since, self.backups, self.compare_btn):
            lay.addWidget(w)
        lay.addWidget(self.progress)
        lay.addWidget(self.cancel_btn)
        lay.addWidget(self.status)
        self._fill_kinds()
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self.since.editingFinished.connect(self._time_chosen)
        self.compare_btn.clicked.connect(self._compare)
        self.cancel_btn.clicked.connect(self.cancelRequested)
        self.backups.activated.connect(self._backup_activated)
        self.show_progress(None)
        self._kind_changed()

    def _fill_kinds(self) -> None:
        current = self.kind.currentData() or MARK
        self.kind.blockSignals(True)
        self.kind.clear()
        self.kind.addItem(self.tr("since the last review"), MARK)
        self.kind.addItem(self.tr("since a time"), TIME)
        self.kind.addItem(self.tr("compared with a backup"), BACKUP)
        self.kind.setCurrentIndex(max(0, self.kind.findData(current)))
        self.kind.blockSignals(False)

    # -- from the state -----------------------------------------------------------------------------------
    def show_baseline(self, b: Baseline, mark: int | None) -> None:
        self.kind.blockSignals(True)
        self.kind.setCurrentIndex(max(0, self.kind.findData(b.kind)))
        self.kind.blockSignals(False)
        if b.kind == TIME and b.since is not None:
            self.since.setDateTime(QDateTime.fromMSecsSinceEpoch(b.since))
        self._update_visibility()
        self.show_mark(mark)
        self.status.setVisible(b.kind == MARK)

    def show_mark(self, mark: int | None) -> None:
        now = int(time.time() * 1000)
        if mark is None:
            self.status.setText(self.tr("Never reviewed: showing the last 7 days"))
        else:
            self.status.setText(self.tr("Reviewed up to {0}").format(humanize.when(mark, now)))

    def set_backups(self, backups: list[Any]) -> None:
        """``backups``: :class:`core.backups.BackupInfo` values, newest first."""
        now = int(time.time() * 1000)
        chosen = self.backups.currentData()
        self.backups.clear()
        for b in backups:
            when = humanize.when(b.created_at, now) if b.created_at is not None else b.name
            self.backups.addItem(f"{when} · {humanize.size_text(b.size)}", str(b.path))
        self.backups.addItem(self.tr("Another file…"), _OTHER)
        if chosen:
            self.backups.setCurrentIndex(max(0, self.backups.findData(chosen)))

    def show_progress(self, progress: tuple[int, int] | None) -> None:
        busy = progress is not None
        self.progress.setVisible(busy)
        self.cancel_btn.setVisible(busy)
        if busy:
            done, total = progress
            self.progress.setRange(0, max(1, total))
            self.progress.setValue(min(done, total))

    # -- from the person ------------------------------------------------------------------------------------
    def _update_visibility(self) -> None:
        kind = self.kind.currentData()
        self.since.setVisible(kind == TIME)
        self.backups.setVisible(kind == BACKUP)
        self.compare_btn.setVisible(kind == BACKUP)

    def _kind_changed(self, *_: Any) -> None:
        self._update_visibility()
        kind = self.kind.currentData()
        self.status.setVisible(kind == MARK)
        if kind == MARK:
            self.baselineChosen.emit(Baseline(MARK))
        elif kind == TIME:
            self._time_chosen()

    def _time_chosen(self) -> None:
        if self.kind.currentData() == TIME:
            self.baselineChosen.emit(Baseline(TIME, since=self.since.dateTime().toMSecsSinceEpoch()))

    def _backup_activated(self, _index: int) -> None:
        if self.backups.currentData() == _OTHER:
            path, _ = QFileDialog.getOpenFileName(
                self,
                self.tr("Compare with a backup"),
                "",
                self.tr("SQLite databases (*.sqlite *.db);;All files (*)"),
            )
            if path:
                self.backups.insertItem(0, path, path)
                self.backups.setCurrentIndex(0)
                self._compare()

    def _compare(self) -> None:
        path = self.backups.currentData()
        if path and path != _OTHER:
            self.baselineChosen.emit(Baseline(BACKUP, backup=str(path)))

    def retranslate(self) -> None:
        self._fill_kinds()
        self.compare_btn.setText(self.tr("Compare"))
        self.cancel_btn.setText(self.tr("Cancel"))
