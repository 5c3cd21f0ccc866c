"""The start page: shown when no database is open (open a file, create a demo or an empty database,
recent files), with the reason when opening failed and the newest good backup to open instead."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

from philont_desktop import APP_NAME
from philont_desktop.qt import (
    QEvent,
    QGridLayout,
    QHBoxLayout,
    QIcon,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QStandardPaths,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.shell import placement


def ui_icon(name: str) -> QIcon:
    """A UI icon from the resources, or an empty icon when it is not available."""
    try:
        from philont_desktop.resources import icon

        return icon(name)
    except Exception:  # a missing icon must never stop the window from opening
        return QIcon()


def demo_default_path() -> Path:
    """Where ``--demo`` and "Create demo database" put the demo by default (the user data dir)."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    if not base:
        base = str(Path.home() / ".local" / "share" / APP_NAME)
    return Path(base) / "demo" / "memory.sqlite"


def free_demo_path() -> Path:
    """Where "Create demo database…" saves (and says it saves): the default place, or a free name beside
    it when a file is already there (a demo is never written over a file)."""
    base = demo_default_path()
    path, n = base, 2
    while path.exists():
        path = base.with_name(f"{base.stem}-{n}{base.suffix}")
        n += 1
    return path


class StartPage(QWidget):
    """Shown when no database is open: open a file, create a demo or an empty database, recent files."""

    openRequested = Signal()
    demoRequested = Signal()
    emptyRequested = Signal()
    recentChosen = Signal(str)
    backupChosen = Signal(str)  # open the newest good backup read-only
    restoreChosen = Signal(str)  # restore it over the file that cannot be opened
    cancelRequested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("startPage")
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.problem.setTextFormat(Qt.TextFormat.RichText)
        self.open_button = self._big_button(self.tr("Open file…"), "open", self.openRequested)
        self.demo_button = self._big_button(self.tr("Create demo database…"), "refresh", self.demoRequested)
        self.empty_button = self._big_button(self.tr("Create empty database…"), "edit", self.emptyRequested)
        self.backup_button = QPushButton(ui_icon("open"), self.tr("Open the backup read-only"))
        self.backup_button.clicked.connect(lambda: self.backupChosen.emit(self._backup or ""))
        self.restore_button = QPushButton(ui_icon("undo"), self.tr("Restore this backup…"))
        self.restore_button.clicked.connect(lambda: self.restoreChosen.emit(self._backup or ""))
        self._backup: str | None = None
        self.backup_box = QWidget()  # what to do about the problem (add_problem_action adds more)
        self.problem_actions = QHBoxLayout(self.backup_box)
        self.problem_actions.setContentsMargins(0, 0, 0, 0)
        self.problem_actions.addWidget(self.restore_button)
        self.problem_actions.addWidget(self.backup_button)
        self.problem_actions.addStretch(1)
        self.backup_box.setVisible(False)
        self._extra_actions: list[QPushButton] = []
        self.recent_label = QLabel(f"<b>{self.tr('Recent files')}</b>")
        self.recent = QListWidget()
        self.recent.setMaximumHeight(200)
        self.recent.itemActivated.connect(
            lambda item: self.recentChosen.emit(item.data(Qt.ItemDataRole.UserRole))
        )
        self.busy_box = self._busy_box()
        self.demo_hint = QLabel()
        self.demo_hint.setWordWrap(True)
        self.set_demo_path(None)
        self._lay_out()

    def _busy_box(self) -> QWidget:
        self.busy_label = QLabel()
        self.busy_bar = QProgressBar()
        self.busy_cancel = QPushButton(self.tr("Cancel"))
        self.busy_cancel.clicked.connect(self.cancelRequested)
        busy = QHBoxLayout()
        busy.addWidget(self.busy_bar, 1)
        busy.addWidget(self.busy_cancel)
        box = QWidget()
        bl = QVBoxLayout(box)
        bl.setContentsMargins(0, 0, 0, 0)
        bl.addWidget(self.busy_label)
        bl.addLayout(busy)
        box.setVisible(False)
        return box

    def _choices(self) -> QGridLayout:
        browse = self.tr(
            "Browse an existing memory database. Nothing in it changes until you turn on editing mode."
        )
        empty = self.tr("A new memory database with the full schema, for the agent to fill.")
        choices = QGridLayout()
        choices.setHorizontalSpacing(16)
        choices.setVerticalSpacing(10)
        rows = (
            (self.open_button, QLabel(browse)),
            (self.demo_button, self.demo_hint),
            (self.empty_button, QLabel(empty)),
        )
        for row, (button, hint) in enumerate(rows):
            hint.setWordWrap(True)
            choices.addWidget(button, row, 0)
            choices.addWidget(hint, row, 1)
        choices.setColumnStretch(1, 1)
        return choices

    def _heading(self) -> QHBoxLayout:
        title = QLabel(f"<span style='font-size:20pt; font-weight:600'>{APP_NAME}</span>")
        subtitle = QLabel(self.tr("Inspect and curate the memory of a Philont agent — also while it runs."))
        subtitle.setWordWrap(True)
        heading = QHBoxLayout()
        self.logo = QLabel()
        with contextlib.suppress(Exception):
            from philont_desktop.resources import app_icon

            self.logo.setPixmap(app_icon().pixmap(56, 56))
        heading.addWidget(self.logo)
        titles = QVBoxLayout()
        titles.addWidget(title)
        titles.addWidget(subtitle)
        heading.addLayout(titles, 1)
        return heading

    def _lay_out(self) -> None:
        column = QVBoxLayout()
        column.addLayout(self._heading())
        column.addSpacing(16)
        column.addWidget(self.problem)
        column.addWidget(self.backup_box)
        column.addSpacing(12)
        column.addLayout(self._choices())
        column.addWidget(self.busy_box)
        column.addSpacing(16)
        column.addWidget(self.recent_label)
        column.addWidget(self.recent)
        column.addStretch(1)
        box = QWidget()
        box.setLayout(column)
        box.setMaximumWidth(760)
        page = QWidget()
        outer = QHBoxLayout(page)
        outer.addStretch(1)
        outer.addWidget(box, 4)
        outer.addStretch(1)
        outer.setContentsMargins(24, 32, 24, 24)
        whole = QVBoxLayout(self)
        whole.setContentsMargins(0, 0, 0, 0)
        whole.addWidget(placement.scrolling(page))  # large text (192 dpi) scrolls in a small window

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.recent_label.setText(f"<b>{self.tr('Recent files')}</b>")
            self.set_demo_path(self._demo_path)
        super().changeEvent(event)

    def _big_button(self, text: str, icon: str, signal) -> QPushButton:
        b = QPushButton(ui_icon(icon), text)
        b.setMinimumHeight(36)
        b.setMinimumWidth(220)
        b.setStyleSheet("text-align: left; padding-left: 12px;")
        b.clicked.connect(signal)
        return b

    def set_demo_path(self, path: Path | None) -> None:
        self._demo_path = path
        where = str(path or free_demo_path())
        self.demo_hint.setText(
            self.tr(
                "A generated memory of a few months of English and Chinese conversations, to try the app (default location: {0})."
            ).format(where)
        )

    def set_problem(self, text_html: str, backup: str | None = None, *, can_restore: bool = True) -> None:
        """Say what went wrong (rich text); ``backup``: offer to restore it, or to open it read-only."""
        self.problem.setText(text_html)
        self._backup = backup
        for button in self._extra_actions:
            button.deleteLater()
        self._extra_actions = []
        self.restore_button.setVisible(bool(backup))
        self.backup_button.setVisible(bool(backup))
        self.backup_box.setVisible(bool(backup))
        if backup:
            self.restore_button.setEnabled(can_restore)
            self.restore_button.setToolTip(
                self.tr(
                    "Replace the file with this backup; the file is kept, unchanged, in the backups folder."
                )
                if can_restore
                else self.tr("Not possible: the app was started read-only.")
            )
            self.backup_button.setToolTip(
                self.tr("Look at {0} in a new window, changing nothing.").format(backup)
            )

    def add_problem_action(self, text: str, on_click: Callable[[], object]) -> QPushButton:
        """One more thing to do about the problem shown (a button beside the backup's; the next
        :meth:`set_problem` removes it)."""
        button = QPushButton(text)
        button.clicked.connect(on_click)
        self.problem_actions.insertWidget(self.problem_actions.count() - 1, button)
        button.setVisible(True)  # a child added to a page already shown stays hidden otherwise
        self.backup_box.setVisible(True)
        self._extra_actions.append(button)
        return button

    def set_recent(self, files: list[str]) -> None:
        self.recent.clear()
        for f in files:
            item = QListWidgetItem(f)
            item.setData(Qt.ItemDataRole.UserRole, f)
            if not Path(f).exists():
                item.setToolTip(self.tr("This file does not exist any more."))
                item.setForeground(self.palette().color(self.palette().ColorRole.PlaceholderText))
            self.recent.addItem(item)
        self.recent_label.setVisible(bool(files))
        self.recent.setVisible(bool(files))

    def set_busy(self, text: str | None) -> None:
        self.busy_box.setVisible(text is not None)
        for b in (self.open_button, self.demo_button, self.empty_button):
            b.setEnabled(text is None)
        if text is not None:
            self.busy_label.setText(text)
            self.busy_bar.setRange(0, 0)

    def set_progress(self, done: int, total: int) -> None:
        if total > 0:
            self.busy_bar.setRange(0, total)
            self.busy_bar.setValue(min(done, total))
