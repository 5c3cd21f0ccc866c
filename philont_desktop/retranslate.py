"""Retranslating what is on screen after a language switch, without a restart.

:func:`philont_desktop.i18n.install` delivers ``QEvent.LanguageChange``; while it does, a filter
(:func:`install_filter`) retranslates the static texts of every widget that receives one (labels,
buttons, group boxes, tabs, actions and menus, tool tips, placeholders, window titles, column headers
of item views): the translator remembers which source text produced each translated text
(:func:`philont_desktop.i18n.retranslate_text`). Texts built at run time are rebuilt by their widget:
widgets derive from :class:`Retranslatable` and implement ``retranslate()``, or register a slot with
:func:`on_language_changed`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from philont_desktop.i18n import class_hints, notifier, remembered, retranslate_text
from philont_desktop.qt import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QAction,
    QComboBox,
    QCoreApplication,
    QEvent,
    QGroupBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QModelIndex,
    QObject,
    QPlainTextEdit,
    Qt,
    QTabBar,
    QTabWidget,
    QTextEdit,
    QToolBox,
    QTreeWidget,
    QWidget,
    is_valid,
)

log = logging.getLogger(__name__)
_filter: QObject | None = None
_hints: tuple[str, ...] = ()  # class names around the text being retranslated, nearest first


def _swap(getter: Callable[[], str], setter: Callable[[str], object]) -> bool:
    new = retranslate_text(getter(), _hints)
    if new is None:
        return False
    setter(new)
    return True


def retranslate_action(action: QAction) -> None:
    """The text, tool tip and status tip of ``action`` (a menu's title is its menu action's text)."""
    global _hints
    if not is_valid(action):
        return
    _hints = class_hints(action)
    _swap(action.text, action.setText)
    _swap(action.toolTip, action.setToolTip)
    _swap(action.statusTip, action.setStatusTip)
    _swap(action.whatsThis, action.setWhatsThis)


def retranslate_widget(w: QWidget) -> None:
    """The static texts of one widget (not its children)."""
    global _hints
    _hints = class_hints(w)
    _swap(w.toolTip, w.setToolTip)
    _swap(w.statusTip, w.setStatusTip)
    _swap(w.whatsThis, w.setWhatsThis)
    _swap(w.accessibleName, w.setAccessibleName)
    _swap(w.accessibleDescription, w.setAccessibleDescription)
    if w.isWindow():
        _swap(w.windowTitle, w.setWindowTitle)
    if isinstance(w, (QLabel, QAbstractButton)):
        _swap(w.text, w.setText)
    elif isinstance(w, QGroupBox):
        _swap(w.title, w.setTitle)
    elif isinstance(w, (QLineEdit, QTextEdit, QPlainTextEdit)):
        _swap(w.placeholderText, w.setPlaceholderText)
    elif isinstance(w, QTabWidget) or (
        isinstance(w, QTabBar) and not isinstance(w.parentWidget(), QTabWidget)
    ):
        for i in range(w.count()):
            _swap(lambda i=i: w.tabText(i), lambda t, i=i: w.setTabText(i, t))
            _swap(lambda i=i: w.tabToolTip(i), lambda t, i=i: w.setTabToolTip(i, t))
    elif isinstance(w, QToolBox):
        for i in range(w.count()):
            _swap(lambda i=i: w.itemText(i), lambda t, i=i: w.setItemText(i, t))
    elif isinstance(w, QComboBox):
        _retranslate_combo(w)
    elif isinstance(w, QAbstractSpinBox):
        for get, put in (("prefix", "setPrefix"), ("suffix", "setSuffix")):
            if hasattr(w, get):
                _swap(getattr(w, get), getattr(w, put))
        _swap(w.specialValueText, w.setSpecialValueText)
    if isinstance(w, QAbstractItemView):
        _retranslate_view(w)


def _retranslate_combo(combo: QComboBox) -> None:
    """Only a combo whose every item came from ``tr()`` (a fixed choice list): a combo mixing a choice
    ("All tools") with data (tool names) is left to its owner's ``retranslate()``."""
    if combo.isEditable() and combo.lineEdit() is not None:
        _swap(combo.lineEdit().placeholderText, combo.lineEdit().setPlaceholderText)
    n = combo.count()
    if n == 0 or any(not remembered(combo.itemText(i)) for i in range(n)):
        _swap(combo.placeholderText, combo.setPlaceholderText)
        return
    for i in range(n):
        _swap(lambda i=i: combo.itemText(i), lambda t, i=i: combo.setItemText(i, t))
    _swap(combo.placeholderText, combo.setPlaceholderText)


def _retranslate_view(view: QAbstractItemView) -> None:
    """Item widgets' fixed texts, and headers/cells of models that call ``tr()`` in ``data()``."""
    if isinstance(view, QTreeWidget):
        header = view.headerItem()
        for c in range(view.columnCount()):
            _swap(lambda c=c: header.text(c), lambda t, c=c: header.setText(c, t))
        stack = [view.topLevelItem(i) for i in range(view.topLevelItemCount())]
        while stack:
            item = stack.pop()
            for c in range(view.columnCount()):
                _swap(lambda c=c, it=item: it.text(c), lambda t, c=c, it=item: it.setText(c, t))
                _swap(lambda c=c, it=item: it.toolTip(c), lambda t, c=c, it=item: it.setToolTip(c, t))
            stack.extend(item.child(i) for i in range(item.childCount()))
    elif isinstance(view, QListWidget):
        for i in range(view.count()):
            item = view.item(i)
            _swap(item.text, item.setText)
            _swap(item.toolTip, item.setToolTip)
    model = view.model()
    if model is None:
        return
    cols, rows = _count(model.columnCount), _count(model.rowCount)
    if cols > 0:
        model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, cols - 1)
    if rows > 0:
        model.headerDataChanged.emit(Qt.Orientation.Vertical, 0, rows - 1)
    view.viewport().update()


def _count(method: Callable[..., int]) -> int:
    """A model's row or column count; list models hide ``columnCount`` (it is always 1 there)."""
    try:
        return int(method(QModelIndex()))
    except (TypeError, AttributeError):
        return 1


def retranslate_tree(root: QWidget) -> None:
    """Retranslate the static texts of ``root``, every widget and every action inside it."""
    global _hints
    if not is_valid(root):
        return
    try:
        _retranslate_tree(root)
    finally:
        _hints = ()


def _retranslate_tree(root: QWidget) -> None:
    widgets = [root, *root.findChildren(QWidget)]
    for w in widgets:
        if is_valid(w):
            retranslate_widget(w)
    seen: set[int] = set()
    for action in [*root.actions(), *root.findChildren(QAction)]:
        if id(action) not in seen:
            seen.add(id(action))
            retranslate_action(action)
    for w in widgets:  # actions added to a widget but owned elsewhere (shared menus, tool buttons)
        if is_valid(w) and w is not root:
            for action in w.actions():
                if id(action) not in seen:
                    seen.add(id(action))
                    retranslate_action(action)


class _LanguageChangeFilter(QObject):
    """Retranslates each window's static texts just before the window (and then its children) receives
    ``LanguageChange``, so that ``retranslate()`` hooks see the static texts already switched."""

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LanguageChange and isinstance(obj, QWidget) and obj.isWindow():
            try:
                retranslate_tree(obj)
            except Exception:  # a retranslation problem must never break the event
                log.exception("retranslating %s failed", type(obj).__name__)
        return False


def install_filter(app: QCoreApplication) -> None:
    """Filter the application's events while a language switch delivers ``LanguageChange`` (only then:
    an application-wide filter in Python would see every event of every widget, paints and timers)."""
    global _filter
    if _filter is None or not is_valid(_filter):
        _filter = _LanguageChangeFilter(app)
    app.installEventFilter(_filter)


def remove_filter(app: QCoreApplication) -> None:
    if _filter is not None and is_valid(_filter):
        app.removeEventFilter(_filter)


class Retranslatable:
    """Mixin for widgets whose run-time texts must follow a language switch.

    ``class MyTab(Retranslatable, QWidget)``; implement :meth:`retranslate` to rebuild the texts made
    with ``tr(...).format(...)`` (static ``tr()`` texts are switched automatically before it runs).
    """

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            try:
                self.retranslate()
            except Exception:
                log.exception("%s.retranslate() failed", type(self).__name__)
        super().changeEvent(event)  # type: ignore[misc]

    def retranslate(self) -> None:
        """Rebuild texts built at run time in the current language (default: nothing)."""


class _Relay(QObject):
    """A child of the receiver: the connection goes away with it (no dangling closures)."""

    def __init__(self, parent: QObject, slot: Callable[[], object]):
        super().__init__(parent)
        self._slot = slot

    def fire(self, _code: str) -> None:
        self._slot()


def on_language_changed(receiver: QObject, slot: Callable[[], object]) -> None:
    """Call ``slot()`` after every language switch while ``receiver`` exists (a one-liner for widgets
    that rebuild a text or two; bigger ones derive from :class:`Retranslatable`)."""
    notifier().languageChanged.connect(_Relay(receiver, slot).fire)
