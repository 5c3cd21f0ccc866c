"""The window's menus and their actions: File, Edit, View, Help.

:class:`WindowMenus` builds them on the window's menu bar and keeps them in step with the open
database (:meth:`WindowMenus.update`, :meth:`WindowMenus.update_undo`). The actions are attributes of
the window (``window.action_undo``, ``window.theme_actions``, ...), as the hooks of
:mod:`~philont_desktop.export_dialog` and :mod:`~philont_desktop.help_dialog` add theirs.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from philont_desktop import APP_NAME, i18n
from philont_desktop.qt import QAction, QActionGroup, QKeySequence, QMenu, QMessageBox, QObject
from philont_desktop.shell.start_page import ui_icon

if TYPE_CHECKING:
    from philont_desktop.main_window import MainWindow


class WindowMenus(QObject):
    """Builds the menus of ``window`` and updates what they enable."""

    def __init__(self, window: MainWindow):
        super().__init__(window)
        self.w = window
        mb = window.menuBar()
        file_menu = self._file_menu(mb.addMenu(self.tr("&File")))
        window.edit_menu = self._edit_menu(mb.addMenu(self.tr("&Edit")))
        view = self._view_menu(mb.addMenu(self.tr("&View")))
        help_menu = mb.addMenu(self.tr("&Help"))
        about = QAction(self.tr("&About {0}").format(APP_NAME), window)
        about.setMenuRole(QAction.MenuRole.AboutRole)
        about.triggered.connect(window.show_about)
        help_menu.addAction(about)
        # Hooks: File › Export… (export_dialog.py); Help › Keyboard shortcuts, Find, Ctrl+1..9 and the
        # missing standard keys (help_dialog.py).
        from philont_desktop import export_dialog, help_dialog

        export_dialog.install(window, file_menu)
        help_dialog.install(window, help_menu, view)
        self.update()

    def _action(self, text: str, icon: str | None = None, shortcut: QKeySequence | None = None) -> QAction:
        action = QAction(ui_icon(icon), text, self.w) if icon else QAction(text, self.w)
        if shortcut is not None:
            action.setShortcut(shortcut)
        return action

    def _file_menu(self, menu: QMenu) -> QMenu:
        w = self.w
        w.action_open = self._action(self.tr("&Open (read-only)…"), "open", QKeySequence.StandardKey.Open)
        w.action_open.triggered.connect(lambda: w.choose_and_open(editing=False))
        w.action_open_edit = self._action(self.tr("Open for &editing…"), "edit", QKeySequence("Ctrl+Shift+O"))
        w.action_open_edit.triggered.connect(lambda: w.choose_and_open(editing=True))
        w.action_open_edit.setEnabled(not w.read_only)
        w.recent_menu = menu.addMenu(self.tr("&Recent files"))
        w.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        w.action_backup = self._action(self.tr("&Backup now"), "backup", QKeySequence("Ctrl+B"))
        w.action_backup.triggered.connect(w.backup_now)
        w.action_close_db = self._action(self.tr("&Close database"), None, QKeySequence.StandardKey.Close)
        w.action_close_db.triggered.connect(w.close_database_to_start)
        w.action_quit = self._action(self.tr("&Quit"), None, QKeySequence.StandardKey.Quit)
        w.action_quit.setMenuRole(QAction.MenuRole.QuitRole)
        w.action_quit.triggered.connect(w.close)
        menu.insertAction(w.recent_menu.menuAction(), w.action_open)
        menu.insertAction(w.recent_menu.menuAction(), w.action_open_edit)
        menu.addSeparator()
        menu.addAction(w.action_backup)
        menu.addAction(w.action_close_db)
        menu.addSeparator()
        menu.addAction(w.action_quit)
        return menu

    def _edit_menu(self, menu: QMenu) -> QMenu:
        w = self.w
        w.action_undo = self._action(self.tr("&Undo"), "undo", QKeySequence.StandardKey.Undo)
        w.action_redo = self._action(self.tr("&Redo"), "redo", QKeySequence.StandardKey.Redo)
        w.action_undo.setEnabled(False)
        w.action_redo.setEnabled(False)
        w.action_undo.triggered.connect(lambda: w.ctx is not None and w.ctx.undo.undo())
        w.action_redo.triggered.connect(lambda: w.ctx is not None and w.ctx.undo.redo())
        menu.addAction(w.action_undo)
        menu.addAction(w.action_redo)
        menu.addSeparator()
        w.action_editing = self._action(self.tr("&Editing mode"), "edit", QKeySequence("Ctrl+E"))
        w.action_editing.setCheckable(True)
        w.action_editing.toggled.connect(w.set_editing)
        menu.addAction(w.action_editing)
        return menu

    def _view_menu(self, view: QMenu) -> QMenu:
        w = self.w
        w.theme_actions = self._choices(
            view.addMenu(self.tr("&Theme")),
            (
                ("system", self.tr("Follow &system")),
                ("light", self.tr("&Light")),
                ("dark", self.tr("&Dark")),
                ("high-contrast", self.tr("&High contrast")),
            ),
            w.theme.mode,
            w.set_theme,
        )
        w.language_actions = self._choices(
            view.addMenu(self.tr("&Language")),
            (("", self.tr("Follow system")), *i18n.LANGUAGES.items()),
            w.settings.language,
            w.set_language,
        )
        self._zoom_actions(view)
        view.addSeparator()
        w.action_audit = self._action(self.tr("&Audit log"), None, QKeySequence("Ctrl+Shift+A"))
        w.action_audit.triggered.connect(lambda: w.show_tab("audit"))
        view.addAction(w.action_audit)
        w.action_refresh = self._action(self.tr("&Refresh"), "refresh", QKeySequence.StandardKey.Refresh)
        w.action_refresh.triggered.connect(w.refresh_current)
        view.addAction(w.action_refresh)
        return view

    def _zoom_actions(self, view: QMenu) -> None:
        """View › Zoom In / Zoom Out / Actual Size: every font, remembered in the settings."""
        w = self.w
        view.addSeparator()
        w.action_zoom_in = self._action(self.tr("Zoom &In"))
        w.action_zoom_in.setShortcuts([QKeySequence("Ctrl++"), QKeySequence("Ctrl+=")])
        w.action_zoom_out = self._action(self.tr("Zoom &Out"), None, QKeySequence("Ctrl+-"))
        w.action_zoom_reset = self._action(self.tr("Actual &Size"), None, QKeySequence("Ctrl+0"))
        for action, direction in ((w.action_zoom_in, 1), (w.action_zoom_out, -1), (w.action_zoom_reset, 0)):
            action.triggered.connect(lambda _=False, d=direction: self.zoom(d))
            view.addAction(action)

    def zoom(self, direction: int) -> int:
        """One step larger (1), smaller (-1) or the normal size (0); said in the status bar."""
        from philont_desktop import zoom

        w = self.w
        level = zoom.step(w.theme.zoom, direction)
        w.theme.set_zoom(level)
        if w.persist:
            w.settings.zoom = level
        w.statusBar().showMessage(self.tr("Text size: {0} %").format(level), 3000)
        return level

    def _choices(self, menu: QMenu, choices, current: str, choose) -> dict[str, QAction]:
        group = QActionGroup(self.w)
        actions: dict[str, QAction] = {}
        for key, text in choices:
            a = QAction(text, self.w, checkable=True)
            a.setChecked(current == key)
            a.triggered.connect(lambda _=False, k=key: choose(k))
            group.addAction(a)
            menu.addAction(a)
            actions[key] = a
        return actions

    def _fill_recent_menu(self) -> None:
        w = self.w
        w.recent_menu.clear()
        files = w.settings.recent_files
        for f in files:
            a = w.recent_menu.addAction(f)
            a.setEnabled(Path(f).exists())
            a.triggered.connect(lambda _=False, p=f: w.open_database(p))
        if not files:
            a = w.recent_menu.addAction(self.tr("(none)"))
            a.setEnabled(False)
        else:
            w.recent_menu.addSeparator()
            clear = w.recent_menu.addAction(self.tr("Clear list"))
            clear.triggered.connect(w.settings.clear_recent_files)

    # -- following the database ---------------------------------------------------------------------------
    def update(self) -> None:
        """Enable what the open database allows; the editing toggle shows the editing state."""
        w, ctx = self.w, self.w.ctx
        has = ctx is not None
        w.action_backup.setEnabled(has)
        w.action_close_db.setEnabled(has)
        w.action_refresh.setEnabled(has)
        w.action_audit.setEnabled(has and "audit" in w.tabs_by_name)
        can_edit = has and ctx.can_edit and not ctx.editing_busy
        w.action_editing.setEnabled(bool(can_edit) or bool(has and ctx.editing))
        reason = ctx.read_only_reason if has else None
        w.action_editing.setToolTip(reason or self.tr("Editing mode"))
        w.action_editing.blockSignals(True)
        w.action_editing.setChecked(bool(has and ctx.editing))
        w.action_editing.blockSignals(False)

    def update_undo(self) -> None:
        """Undo / Redo name the edit they would undo or redo, and wait while a step runs. With editing
        off they stay available for the session's edits (a step then needs editing on again)."""
        w, ctx = self.w, self.w.ctx
        if ctx is None:
            for a, base in ((w.action_undo, self.tr("&Undo")), (w.action_redo, self.tr("&Redo"))):
                a.setEnabled(False)
                a.setText(base)
                a.setToolTip("")
            return
        stack, busy = ctx.undo.stack, ctx.undo.busy
        writable = ctx.editing or ctx.can_edit
        for a, base, can, text in (
            (w.action_undo, self.tr("&Undo"), stack.canUndo(), stack.undoText()),
            (w.action_redo, self.tr("&Redo"), stack.canRedo(), stack.redoText()),
        ):
            a.setEnabled(can and not busy and writable)
            a.setText(f"{base} {text}".strip() if can else base)
            a.setToolTip(
                "" if ctx.editing or not can else self.tr("Editing mode is off: it is turned on first")
            )

    def step_needs_editing(self, kind: str, text: str) -> None:
        """Undo or redo was asked for while editing is off: offer to turn it on (then step), or say so."""
        w, ctx = self.w, self.w.ctx
        if ctx is None:
            return
        undo = kind == "undo"
        if not ctx.can_edit:
            msg = self.tr("“{0}” cannot be changed now: {1}.").format(text, ctx.read_only_reason)
            w.statusBar().showMessage(msg, 15000)
            return
        if w.interactive and self._ask_editing(undo, text):

            def _step(on: bool) -> None:
                if on and w.ctx is ctx:
                    ctx.undo.undo() if undo else ctx.undo.redo()

            w.set_editing(True, on_done=_step)
            return
        said = (
            self.tr("Undo needs editing mode: turn it on (Edit › Editing mode) to undo “{0}”.")
            if undo
            else self.tr("Redo needs editing mode: turn it on (Edit › Editing mode) to redo “{0}”.")
        )
        w.statusBar().showMessage(said.format(text), 15000)

    def _ask_editing(self, undo: bool, text: str) -> bool:
        question = (
            self.tr(
                "Undoing “{0}” changes the database. Turn editing mode on (a backup is taken first) and undo it?"
            )
            if undo
            else self.tr(
                "Redoing “{0}” changes the database. Turn editing mode on (a backup is taken first) and redo it?"
            )
        )
        buttons = QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No
        answer = QMessageBox.question(
            self.w,
            self.tr("Turn editing mode on?"),
            question.format(text),
            buttons,
            QMessageBox.StandardButton.Yes,
        )
        return answer == QMessageBox.StandardButton.Yes
