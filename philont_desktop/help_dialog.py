"""Keyboard shortcuts: the standard ones the main window lacks, and a help dialog that lists them all.

:func:`install` (called once from the main window's menu construction) adds

* Help › Keyboard shortcuts… (F1) and Help › Use with AI clients (MCP)… (:mod:`mcp_dialog`),
* Edit › Find in this tab (Ctrl+F): focuses the current tab's search or filter field,
* View › Go to tab: every registered tab (Ctrl+1 … Ctrl+9, Alt+1 … Alt+0, then Alt+Shift+1 …
  Alt+Shift+0), the next and previous tab (Ctrl+Tab, Ctrl+Shift+Tab, from anywhere in the window),
* the missing standard keys: F5 for Refresh, Ctrl+Shift+Z (and the platform's other keys) for Redo,
  Ctrl+Q for Quit where the platform has none.

:func:`collect_shortcuts` reads the shortcuts from the live widgets (every ``QAction`` and
``QShortcut`` of the window, its menus and its tabs), so the dialog can never drift from what the keys
really do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from philont_desktop.qt import (
    QAbstractItemView,
    QAction,
    QCoreApplication,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QKeySequence,
    QLabel,
    QLineEdit,
    QMenu,
    QShortcut,
    Qt,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
    is_valid,
)
from philont_desktop.retranslate import on_language_changed

TAB_KEYS = 9  # tab entries shown before a database is open
CTRL_TAB_KEYS = 9  # Ctrl+1 … Ctrl+9
ALT_TAB_KEYS = 10  # Alt+1 … Alt+9, Alt+0
ALT_SHIFT_TAB_KEYS = 20  # then Alt+Shift+1 … Alt+Shift+9, Alt+Shift+0
_NAMED_KEYS = {
    "Esc",
    "Escape",
    "Del",
    "Delete",
    "Backspace",
    "Return",
    "Enter",
    "Home",
    "End",
    "PgUp",
    "PgDown",
    "Tab",
    "Space",
    "Ins",
    "Left",
    "Right",
    "Up",
    "Down",
}


def _plain(text: str) -> str:
    """Menu text without mnemonics and trailing ellipsis: ``&Open…`` -> ``Open``, ``打开(&O)…`` -> ``打开``."""
    t = re.sub(r"\s*\(&[^&)]\)", "", text)  # the CJK style: the mnemonic letter in parentheses
    t = re.sub(r"&(?!&)", "", t).replace("&&", "&")
    return t.removesuffix("…").removesuffix("...").strip()


def key_text(seq: QKeySequence) -> str:
    return seq.toString(QKeySequence.SequenceFormat.NativeText)


def typeable(seq: QKeySequence) -> bool:
    """False for the media/special keys some platforms add (``Refresh``, ``Redo``, ``Find``…)."""
    s = seq.toString(QKeySequence.SequenceFormat.PortableText)
    if not s:
        return False
    if "+" in s or len(s) == 1 or re.fullmatch(r"F\d{1,2}", s):
        return True
    return s in _NAMED_KEYS


def _bindings(key: QKeySequence.StandardKey) -> list[QKeySequence]:
    return [s for s in QKeySequence.keyBindings(key) if typeable(s)]


def _unique(seqs: list[QKeySequence]) -> list[QKeySequence]:
    out: list[QKeySequence] = []
    seen: set[str] = set()
    for s in seqs:
        k = s.toString(QKeySequence.SequenceFormat.PortableText)
        if k and k not in seen:
            seen.add(k)
            out.append(s)
    return out


@dataclass(frozen=True)
class ShortcutEntry:
    group: str
    text: str
    keys: tuple[str, ...]
    enabled: bool = True


# --------------------------------------------------------------------------------------------------
# Installing the shortcuts
# --------------------------------------------------------------------------------------------------


def _tab_has_own(tab: QWidget | None, seqs: list[QKeySequence]) -> bool:
    """Whether ``tab`` registers one of ``seqs`` itself (then a window-wide one would be ambiguous)."""
    if tab is None:
        return False
    wanted = {s.toString(QKeySequence.SequenceFormat.PortableText) for s in seqs}
    for sc in tab.findChildren(QShortcut):
        if sc.isEnabled() and sc.key().toString(QKeySequence.SequenceFormat.PortableText) in wanted:
            return True
    for a in tab.findChildren(QAction):
        if any(k.toString(QKeySequence.SequenceFormat.PortableText) in wanted for k in a.shortcuts()):
            return True
    return False


def focus_search(tab: QWidget | None) -> bool:
    """Focus the search/filter field of ``tab``: its ``focus_search()``, else a line edit named like one."""
    if tab is None:
        return False
    fn = getattr(tab, "focus_search", None)
    if callable(fn):
        fn()
        return True
    edits = [e for e in tab.findChildren(QLineEdit) if e.isVisible() and e.isEnabled() and not e.isReadOnly()]
    if not edits:
        return False

    def score(e: QLineEdit) -> int:
        hint = f"{e.objectName()} {e.placeholderText()}".lower()
        return 0 if any(w in hint for w in ("search", "filter", "find", "搜索", "筛选")) else 1

    edit = sorted(edits, key=score)[0]
    edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
    edit.selectAll()
    return True


def install(window: Any, help_menu: QMenu, view_menu: QMenu | None = None) -> None:
    """Add the help dialog, Find, tab switching and the missing standard keys to ``window``."""
    _standard_keys(window)
    _help_actions(window, help_menu)
    find_keys = _unique([QKeySequence("Ctrl+F"), *_bindings(QKeySequence.StandardKey.Find)])
    _find_action(window, find_keys)
    _tab_actions(window, view_menu)

    def _update(*_: Any) -> None:
        _update_tab_actions(window, find_keys)

    window.databaseOpened.connect(_update)
    window.databaseClosed.connect(_update)
    window.tab_widget.currentChanged.connect(_update)
    on_language_changed(window, _update)
    _update()


def _standard_keys(window: Any) -> None:
    """Standard keys the window's actions lack."""
    window.action_refresh.setShortcuts(
        _unique([QKeySequence("F5"), *_bindings(QKeySequence.StandardKey.Refresh)])
    )
    window.action_undo.setShortcuts(
        _unique([QKeySequence("Ctrl+Z"), *_bindings(QKeySequence.StandardKey.Undo)])
    )
    window.action_redo.setShortcuts(
        _unique([QKeySequence("Ctrl+Shift+Z"), *_bindings(QKeySequence.StandardKey.Redo)])
    )
    if not window.action_quit.shortcuts():
        window.action_quit.setShortcut(QKeySequence("Ctrl+Q"))


def _help_actions(window: Any, help_menu: QMenu) -> None:
    """Help › Keyboard shortcuts… and Help › Use with AI clients (MCP)… (mcp_dialog.py)."""
    window.action_shortcuts = QAction(
        QCoreApplication.translate("HelpDialog", "&Keyboard shortcuts…"), window
    )
    window.action_shortcuts.setShortcuts(
        _unique([QKeySequence("F1"), *_bindings(QKeySequence.StandardKey.HelpContents)])
    )
    window.action_shortcuts.triggered.connect(lambda: show_help(window))
    first = help_menu.actions()[0] if help_menu.actions() else None
    help_menu.insertAction(first, window.action_shortcuts)
    window.action_mcp = QAction(
        QCoreApplication.translate("HelpDialog", "Use with &AI clients (MCP)…"), window
    )
    window.action_mcp.triggered.connect(lambda: _show_mcp(window))
    help_menu.insertAction(first, window.action_mcp)
    if first is not None:
        help_menu.insertSeparator(first)


def _find_action(window: Any, find_keys: list[QKeySequence]) -> None:
    """Edit › Find in this tab."""
    window.action_find = QAction(QCoreApplication.translate("HelpDialog", "&Find in this tab"), window)
    window.action_find.setShortcuts(find_keys)
    window.action_find.triggered.connect(lambda: focus_search(window.tab_widget.currentWidget()))
    window.edit_menu.addSeparator()
    window.edit_menu.addAction(window.action_find)


def tab_keys(index: int) -> list[QKeySequence]:
    """The keys of the tab at ``index`` (from 0): Ctrl+1 … Ctrl+9 for the first nine, and Alt+1 …
    Alt+9, Alt+0 for the first ten (Ctrl+0 is Actual Size); Alt+Shift+1 … Alt+Shift+9, Alt+Shift+0 for
    the eleventh to the twentieth; a tab after those has none (View › Go to tab, Ctrl+Tab)."""
    keys = [QKeySequence(f"Ctrl+{index + 1}")] if index < CTRL_TAB_KEYS else []
    if index < ALT_TAB_KEYS:
        keys.append(QKeySequence(f"Alt+{(index + 1) % 10}"))
    elif index < ALT_SHIFT_TAB_KEYS:
        keys.append(QKeySequence(f"Alt+Shift+{(index + 1) % 10}"))
    return keys


def _tab_actions(window: Any, view_menu: QMenu | None) -> None:
    """View › Go to tab: one entry per registered tab, and the next and previous tab."""
    from philont_desktop.tabs import registry

    window.tab_actions = []
    go_menu = (
        view_menu.addMenu(QCoreApplication.translate("HelpDialog", "&Go to tab"))
        if view_menu is not None
        else None
    )
    for i in range(max(TAB_KEYS, len(registry()))):
        a = QAction(QCoreApplication.translate("HelpDialog", "Tab {0}").format(i + 1), window)
        a.setShortcuts(tab_keys(i))
        a.triggered.connect(lambda _=False, n=i: _go_to_tab(window, n))
        window.addAction(a)
        if go_menu is not None:
            go_menu.addAction(a)
        window.tab_actions.append(a)
    window.action_next_tab = QAction(QCoreApplication.translate("HelpDialog", "&Next tab"), window)
    window.action_next_tab.setShortcuts(
        _unique([QKeySequence("Ctrl+Tab"), *_bindings(QKeySequence.StandardKey.NextChild)])
    )
    window.action_next_tab.triggered.connect(lambda: _step_tab(window, 1))
    window.action_previous_tab = QAction(QCoreApplication.translate("HelpDialog", "&Previous tab"), window)
    window.action_previous_tab.setShortcuts(
        _unique([QKeySequence("Ctrl+Shift+Tab"), *_bindings(QKeySequence.StandardKey.PreviousChild)])
    )
    window.action_previous_tab.triggered.connect(lambda: _step_tab(window, -1))
    for a in (window.action_next_tab, window.action_previous_tab):
        window.addAction(a)
        if go_menu is not None:
            go_menu.addAction(a)
    if go_menu is not None:
        go_menu.insertSeparator(window.action_next_tab)


def _step_tab(window: Any, step: int) -> None:
    """The next (or previous) tab of the window, whatever has the focus (a tab's own tab widget too)."""
    count = window.tab_widget.count()
    if window.ctx is not None and count:
        window.tab_widget.setCurrentIndex((window.tab_widget.currentIndex() + step) % count)


def _update_tab_actions(window: Any, find_keys: list[QKeySequence]) -> None:
    """The tab actions named after the tabs there are; Find's keys unless the tab has its own."""
    has = window.ctx is not None
    count = window.tab_widget.count() if has else 0
    for i, a in enumerate(window.tab_actions):
        title = window.tab_widget.tabText(i) if i < count else ""
        a.setText(
            QCoreApplication.translate("HelpDialog", "Tab {0}: {1}").format(i + 1, _plain(title))
            if title
            else QCoreApplication.translate("HelpDialog", "Tab {0}").format(i + 1)
        )
        a.setEnabled(i < count)
        a.setVisible(i < count or not has)
    window.action_next_tab.setEnabled(has)
    window.action_previous_tab.setEnabled(has)
    current = window.tab_widget.currentWidget() if has else None
    own = _tab_has_own(current, find_keys)
    # A tab with its own Find key keeps it; a window-wide one would make both ambiguous.
    window.action_find.setShortcuts([] if own else find_keys)
    window.action_find.setEnabled(has)


def _show_mcp(window: Any) -> Any:
    from philont_desktop import mcp_dialog

    return mcp_dialog.show_mcp_help(window)


def _go_to_tab(window: Any, index: int) -> None:
    if 0 <= index < window.tab_widget.count():
        window.tab_widget.setCurrentIndex(index)


# --------------------------------------------------------------------------------------------------
# Collecting and showing them
# --------------------------------------------------------------------------------------------------


def _menu_path(action: QAction) -> str | None:
    for obj in action.associatedObjects():
        if isinstance(obj, QMenu):
            titles = []
            m: Any = obj
            while isinstance(m, QMenu):
                if m.title():
                    titles.append(_plain(m.title()))
                parent = m.menuAction().associatedObjects() if m.menuAction() else []
                m = next((p for p in parent if isinstance(p, QMenu)), None)
            return " › ".join(reversed(titles)) if titles else None
    return None


def _tab_of(widget: Any, window: Any) -> str | None:
    from philont_desktop.tabs.base import BaseTab

    w = widget
    while w is not None and w is not window:
        if isinstance(w, BaseTab):
            return w.title()
        w = w.parent()
    return None


def _standard_names() -> dict[str, str]:
    """Readable names of the standard keys, for tab shortcuts that do not describe themselves."""
    sk = QKeySequence.StandardKey
    names = {
        sk.Find: QCoreApplication.translate("HelpDialog", "Find in this tab"),
        sk.FindNext: QCoreApplication.translate("HelpDialog", "Next match"),
        sk.FindPrevious: QCoreApplication.translate("HelpDialog", "Previous match"),
        sk.Save: QCoreApplication.translate("HelpDialog", "Save the edit"),
        sk.Delete: QCoreApplication.translate("HelpDialog", "Delete the selection"),
        sk.Copy: QCoreApplication.translate("HelpDialog", "Copy"),
        sk.Cancel: QCoreApplication.translate("HelpDialog", "Cancel"),
        sk.Refresh: QCoreApplication.translate("HelpDialog", "Refresh"),
        sk.SelectAll: QCoreApplication.translate("HelpDialog", "Select all"),
        sk.ZoomIn: QCoreApplication.translate("HelpDialog", "Zoom in"),
        sk.ZoomOut: QCoreApplication.translate("HelpDialog", "Zoom out"),
        sk.InsertParagraphSeparator: QCoreApplication.translate("HelpDialog", "Open / confirm"),
    }
    out: dict[str, str] = {}
    for key, text in names.items():
        for seq in QKeySequence.keyBindings(key):
            out.setdefault(seq.toString(QKeySequence.SequenceFormat.PortableText), text)
    out.setdefault("Esc", QCoreApplication.translate("HelpDialog", "Cancel"))
    out.setdefault("Del", QCoreApplication.translate("HelpDialog", "Delete the selection"))
    return out


def _shortcut_text(sc: QShortcut) -> str:
    """A tab shortcut's description: its ``whatsThis``, else the standard key's name, else its key."""
    if sc.whatsThis():
        return sc.whatsThis()
    key = sc.key().toString(QKeySequence.SequenceFormat.PortableText)
    return (
        _standard_names().get(key)
        or sc.objectName()
        or QCoreApplication.translate("HelpDialog", "Shortcut of this tab")
    )


def collect_shortcuts(window: Any) -> list[ShortcutEntry]:
    """Every shortcut registered in ``window`` now: menu actions, window actions, tab shortcuts."""
    out: list[ShortcutEntry] = []
    seen: set[tuple[str, str]] = set()

    def add(group: str, text: str, seqs: list[QKeySequence], enabled: bool) -> None:
        keys = tuple(key_text(s) for s in _unique([s for s in seqs if typeable(s)]))
        if not keys or not text:
            return
        sig = (text, keys[0])
        if sig in seen:
            return
        seen.add(sig)
        out.append(ShortcutEntry(group, text, keys, enabled))

    menus = [a.menu() for a in window.menuBar().actions() if a.menu() is not None]
    order: list[QAction] = []

    def walk(menu: QMenu) -> None:
        for a in menu.actions():
            if a.menu() is not None:
                walk(a.menu())
            elif not a.isSeparator():
                order.append(a)

    for m in menus:
        walk(m)
    others = [a for a in window.findChildren(QAction) if is_valid(a) and a not in order]
    for a in order + others:
        if not is_valid(a) or not a.shortcuts() or not a.isVisible():
            continue
        group = (
            _tab_of(a.parent(), window) or _menu_path(a) or QCoreApplication.translate("HelpDialog", "Window")
        )
        add(group, _plain(a.text()), a.shortcuts(), a.isEnabled())
    for sc in window.findChildren(QShortcut):
        if not is_valid(sc):
            continue
        group = _tab_of(sc.parent(), window) or QCoreApplication.translate("HelpDialog", "Window")
        add(group, _shortcut_text(sc), [sc.key()], sc.isEnabled())
    return out


class HelpDialog(QDialog):
    """The keyboard shortcuts of the window, grouped by menu and tab, with a filter."""

    def __init__(self, window: Any, parent: QWidget | None = None):
        super().__init__(parent if parent is not None else window)
        self.setObjectName("helpDialog")
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        self.window_ref = window
        intro = QLabel(
            self.tr(
                "Shortcuts of the menus and of the tabs that are open. Keys of a tab work while that tab "
                "is shown; greyed entries are not available right now."
            )
        )
        intro.setWordWrap(True)
        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText(self.tr("Filter…"))
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.textChanged.connect(self._fill)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels([self.tr("Action"), self.tr("Shortcut")])
        self.tree.setRootIsDecorated(False)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.header().setStretchLastSection(False)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.filter_edit)
        layout.addWidget(self.tree, 1)
        layout.addWidget(buttons)
        self.resize(560, 620)
        self.entries: list[ShortcutEntry] = []
        self.reload()

    def reload(self) -> None:
        self.entries = collect_shortcuts(self.window_ref)
        self._fill()

    def _fill(self, *_: Any) -> None:
        needle = self.filter_edit.text().strip().lower()
        self.tree.clear()
        groups: dict[str, QTreeWidgetItem] = {}
        muted = self.palette().color(self.palette().ColorRole.PlaceholderText)
        for e in self.entries:
            keys = ", ".join(e.keys)
            if needle and needle not in f"{e.group} {e.text} {keys}".lower():
                continue
            g = groups.get(e.group)
            if g is None:
                g = QTreeWidgetItem(self.tree, [e.group, ""])
                f = g.font(0)
                f.setBold(True)
                g.setFont(0, f)
                g.setFirstColumnSpanned(True)
                groups[e.group] = g
            item = QTreeWidgetItem(g, [e.text, keys])
            if not e.enabled:
                item.setForeground(0, muted)
                item.setForeground(1, muted)
        self.tree.expandAll()

    def texts(self) -> list[tuple[str, str, str]]:
        """``(group, action, keys)`` as listed (tests)."""
        return [(e.group, e.text, ", ".join(e.keys)) for e in self.entries]


def show_help(window: Any) -> HelpDialog:
    dlg = HelpDialog(window)
    dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dlg.open()
    return dlg
