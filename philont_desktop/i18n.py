"""Languages: translators for the application and Qt's own dialogs, switching without a restart, and
fonts that render Chinese on every platform.

Catalogues
    ``resources/translations/philont_desktop_<lang>.ts`` (Qt Linguist source, in the repository) is
    compiled into ``.qm`` by the build (``packaging/build.py``, the wheel's build hook). In a source
    checkout a missing or stale ``.qm`` is compiled on first use into the user cache folder with
    ``pyside6-lrelease``; without that tool the interface stays English and a log line says why.
    Qt's own catalogue (``qtbase_<lang>.qm``, shipped with PySide6) translates ``QFileDialog``,
    ``QMessageBox`` buttons, ``QUndoStack`` texts and the other dialogs Qt draws.

Switching at run time
    :func:`install` replaces the translators and delivers ``QEvent.LanguageChange`` at once. For every
    window, the static texts set with ``tr()`` (labels, buttons, group boxes, tabs, actions and menus,
    tool tips, placeholders, window titles, column headers of item views, pyqtgraph axis labels) are
    retranslated automatically: the translator remembers which source text produced each translated
    text. Texts built at run time (``tr("{0} rows").format(n)``) are rebuilt by the widget itself:
    widgets derive from :class:`Retranslatable` (``BaseTab`` does) and implement ``retranslate()``,
    which ``changeEvent(LanguageChange)`` calls.

Updating the catalogue (developers)
    ``python -m philont_desktop.i18n update`` runs ``pyside6-lupdate`` over every GUI source and keeps
    the existing translations; ``python -m philont_desktop.i18n check`` lists what is unfinished.

Runtime lookups try the caller's context first, then the global (empty) context, where lupdate files
the strings of module-level functions and of helper aliases such as ``_tr(text)``.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from philont_desktop.qt import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QAction,
    QApplication,
    QComboBox,
    QCoreApplication,
    QEvent,
    QFont,
    QFontDatabase,
    QGroupBox,
    QLabel,
    QLibraryInfo,
    QLineEdit,
    QListWidget,
    QLocale,
    QModelIndex,
    QObject,
    QPlainTextEdit,
    QStandardPaths,
    Qt,
    QTabBar,
    QTabWidget,
    QTextEdit,
    QToolBox,
    QTranslator,
    QTreeWidget,
    QWidget,
    Signal,
    is_valid,
)

log = logging.getLogger(__name__)

APP_CATALOGUE = "philont_desktop"
QT_CATALOGUES = ("qtbase",)
#: Languages offered in View › Language, by code, named in their own language.
LANGUAGES = {"en": "English", "zh_CN": "简体中文"}
SOURCE_LANGUAGE = "en"
#: ``python -m philont_desktop.i18n update`` passes these to lupdate: helpers spelled like ``tr``.
TR_ALIASES = ("_tr", "tr_static")

_installed: list[QTranslator] = []
_current = SOURCE_LANGUAGE
_original_locale: QLocale | None = None
_loaded_files: list[str] = []


# --------------------------------------------------------------------------------------------------
# Which language
# --------------------------------------------------------------------------------------------------


def _match(code: str) -> str | None:
    code = code.replace("-", "_")
    if code in LANGUAGES:
        return code
    parts = code.split("_")
    if parts[0] == "zh":
        # One Chinese catalogue: Simplified. Readers of Traditional Chinese get it too rather than English.
        return "zh_CN"
    return parts[0] if parts[0] in LANGUAGES else None


def system_language() -> str:
    """The first of the system's preferred UI languages we have a catalogue for (else English)."""
    locale = QLocale.system()
    for code in [*locale.uiLanguages(), locale.name()]:
        found = _match(code)
        if found:
            return found
    return SOURCE_LANGUAGE


def resolve_language(lang: str | None) -> str:
    """``""``/``None``/``"system"`` means the system language; the result is a key of :data:`LANGUAGES`."""
    if not lang or lang == "system":
        return system_language()
    return _match(lang) or SOURCE_LANGUAGE


def current_language() -> str:
    """The language whose translators are installed (a key of :data:`LANGUAGES`)."""
    return _current


def loaded_catalogues() -> list[str]:
    """The ``.qm`` files loaded by the last :func:`install`."""
    return list(_loaded_files)


# --------------------------------------------------------------------------------------------------
# Catalogues: find, and compile when needed
# --------------------------------------------------------------------------------------------------


def translation_dirs() -> list[Path]:
    """Where the application's catalogues are looked for, in order."""
    dirs: list[Path] = []
    try:
        from philont_desktop.resources import translations_dir

        dirs.append(translations_dir())
    except (ImportError, FileNotFoundError):
        pass
    fallback = Path(__file__).resolve().parent.parent / "resources" / "translations"
    if fallback not in dirs:
        dirs.append(fallback)
    return dirs


def catalogue_source(lang: str) -> Path | None:
    """The ``.ts`` file of ``lang`` (a source checkout has it; bundles and wheels do not)."""
    for d in translation_dirs():
        ts = d / f"{APP_CATALOGUE}_{lang}.ts"
        if ts.is_file():
            return ts
    return None


def _find_tool(stem: str, on_path: tuple[str, ...]) -> list[str] | None:
    """A Qt Linguist tool: the one inside PySide6, else the first of ``on_path`` found on PATH."""
    from philont_desktop.qt import PYSIDE_DIR

    for name in (stem, f"{stem}.exe", f"Qt/bin/{stem}", f"Qt/libexec/{stem}"):
        candidate = PYSIDE_DIR / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return [str(candidate)]
    for name in on_path:
        found = shutil.which(name)
        if found:
            return [found]
    return None


def find_lrelease() -> list[str] | None:
    """The Qt Linguist release tool: the one inside PySide6, else ``pyside6-lrelease``/``lrelease``."""
    return _find_tool("lrelease", ("pyside6-lrelease", "lrelease", "lrelease-qt6"))


def find_lupdate() -> list[str] | None:
    """``lupdate`` as PySide6-Essentials ships it (it reads Python sources)."""
    return _find_tool("lupdate", ("pyside6-lupdate",))


def cache_dir() -> Path:
    """Where catalogues compiled at run time go (the user's cache folder)."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericCacheLocation)
    if not base:
        base = str(Path.home() / ".cache")
    return Path(base) / "philont-desktop" / "translations"


def compile_catalogue(ts: Path, out: Path, tool: list[str] | None = None) -> bool:
    """Compile ``ts`` into ``out`` with lrelease; ``False`` (and a log line) when that is impossible."""
    tool = tool or find_lrelease()
    if tool is None:
        log.warning("no lrelease tool found to compile %s; the interface stays in English", ts.name)
        return False
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    try:
        proc = subprocess.run(
            [*tool, "-silent", str(ts), "-qm", str(tmp)], capture_output=True, text=True, timeout=60
        )
        if proc.returncode != 0 or not tmp.is_file():
            log.warning("lrelease failed on %s: %s", ts, (proc.stderr or proc.stdout).strip())
            return False
        os.replace(tmp, out)
        return True
    except (OSError, subprocess.SubprocessError) as exc:
        log.warning("cannot compile %s: %s", ts, exc)
        return False
    finally:
        if tmp.exists():
            tmp.unlink(missing_ok=True)


def catalogue_file(lang: str, *, compile_if_needed: bool = True) -> Path | None:
    """The application's ``.qm`` for ``lang``: built beside its ``.ts``, or compiled into the cache.

    A ``.qm`` older than the ``.ts`` next to it is stale (someone edited the translation); the cache is
    keyed by the ``.ts`` content, so an edit never reuses an old compilation.
    """
    if lang == SOURCE_LANGUAGE:
        return None
    name = f"{APP_CATALOGUE}_{lang}"
    ts = None
    for d in translation_dirs():
        qm, candidate_ts = d / f"{name}.qm", d / f"{name}.ts"
        if qm.is_file() and (
            not candidate_ts.is_file() or qm.stat().st_mtime >= candidate_ts.stat().st_mtime
        ):
            return qm
        if ts is None and candidate_ts.is_file():
            ts = candidate_ts
    if ts is None:
        log.warning("no catalogue for %s was found in %s", lang, ", ".join(map(str, translation_dirs())))
        return None
    digest = hashlib.sha256(ts.read_bytes()).hexdigest()[:16]
    cached = cache_dir() / f"{name}-{digest}.qm"
    if cached.is_file():
        return cached
    if not compile_if_needed:
        return None
    if not compile_catalogue(ts, cached):
        return None
    for old in cached.parent.glob(f"{name}-*.qm"):  # earlier versions of the catalogue
        if old != cached:
            old.unlink(missing_ok=True)
    return cached


def qt_translations_dir() -> Path:
    return Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))


# --------------------------------------------------------------------------------------------------
# The translator: lookups with a global fallback, remembering what produced each text
# --------------------------------------------------------------------------------------------------

_MAX_REMEMBERED = 50_000


@dataclass
class _Origin:
    source: str
    disambiguation: str | None
    n: int
    contexts: list[str] = field(default_factory=list)


_origins: dict[str, list[_Origin]] = {}
_origins_lock = threading.Lock()
_MAX_SOURCES_PER_TEXT = 8  # "得分" comes from "Score" and "score": keep every source, up to a few


def _remember(text: str, context: str, source: str, disambiguation: str | None, n: int) -> None:
    if not text or len(text) > 2000:
        return
    found = _origins.get(text)
    if found is None and len(_origins) >= _MAX_REMEMBERED:
        return
    with _origins_lock:
        found = _origins.setdefault(text, [])
        origin = next((o for o in found if o.source == source and o.disambiguation == disambiguation), None)
        if origin is None:
            if len(found) >= _MAX_SOURCES_PER_TEXT:
                return
            origin = _Origin(source, disambiguation, n)
            found.append(origin)
        if context not in origin.contexts:
            origin.contexts.append(context)


def _is_qt_context(context: str) -> bool:
    return len(context) > 1 and context[0] == "Q" and context[1].isupper()


_PLURAL_MARK = re.compile(r"\((e?s)\)")


def english_plural(source: str, n: int) -> str:
    """The English form of a ``%n``-text for ``n``: ``%n version(s)`` → ``%n version`` / ``%n versions``
    (``(s)`` and ``(es)`` mark the plural ending). Catalogues give the other languages' forms."""
    return _PLURAL_MARK.sub("" if n == 1 else r"\1", source)


class AppTranslator(QTranslator):
    """The application's catalogue (may be empty: English). Looks up the caller's context, then the
    global one, and remembers the source of every text it hands out so that :func:`retranslate_text`
    can translate a text already on screen into the next language."""

    def translate(self, context, source_text, disambiguation=None, n=-1):
        if not source_text or _is_qt_context(context):
            return None  # Qt's own contexts (QFileDialog, QShortcut...): Qt's catalogue answers those
        result = super().translate(context, source_text, disambiguation, n)
        if not result and context:
            result = super().translate("", source_text, disambiguation, n)
        if not result and n >= 0 and "(" in source_text:
            result = english_plural(source_text, n)
        _remember(result or source_text, context, source_text, disambiguation, n)
        return result or None


_hints: tuple[str, ...] = ()  # class names around the text being retranslated, nearest first


def class_hints(obj: QObject | None) -> tuple[str, ...]:
    """Class names of ``obj`` and its parents (nearest first): the contexts its texts likely came from."""
    names: list[str] = []
    while obj is not None:
        for cls in type(obj).__mro__:
            name = cls.__name__
            if name in ("QObject", "Object", "object") or _is_qt_context(name):
                continue
            if name not in names:
                names.append(name)
        obj = obj.parent()
    return tuple(names)


def retranslate_text(text: str, hints: tuple[str, ...] | None = None) -> str | None:
    """``text`` (shown in the previous language) in the current language; ``None`` when it was not made
    by ``tr()`` in this run or does not change.

    When several sources gave the same text (Chinese has no capitals or plurals: "Score" and "score"
    are both "得分"), the one whose context is nearest in ``hints`` (class names, nearest first) wins.
    """
    if not text:
        return None
    found = _origins.get(text)
    if not found:
        return None
    origin = found[0]
    if len(found) > 1:
        ranked = hints if hints is not None else _hints
        origin = next((o for h in ranked for o in found if h in o.contexts), found[0])
    result = origin.source
    for context in origin.contexts or [""]:
        r = QCoreApplication.translate(context, origin.source, origin.disambiguation, origin.n)
        if r != origin.source:
            result = r
            break
    return result if result != text else None


# --------------------------------------------------------------------------------------------------
# Installing a language
# --------------------------------------------------------------------------------------------------


class _Notifier(QObject):
    languageChanged = Signal(str)


_notifier: _Notifier | None = None
_filter: QObject | None = None


def notifier() -> _Notifier:
    """``notifier().languageChanged(code)`` is emitted after :func:`install` switched the language."""
    global _notifier
    if _notifier is None or not is_valid(_notifier):
        _notifier = _Notifier()
    return _notifier


def install(lang: str | None) -> list[str]:
    """Switch the interface to ``lang`` (``""``/``None``: the system's) now; returns the ``.qm`` loaded.

    Removes the previous translators, installs Qt's and the application's for the new language (the
    application's is always installed, also for English, so texts on screen can be retranslated) and
    delivers the ``LanguageChange`` events before returning.
    """
    global _current, _original_locale
    app = QCoreApplication.instance()
    code = resolve_language(lang)
    if _original_locale is None:
        _original_locale = QLocale()
    if app is not None:
        for t in _installed:
            app.removeTranslator(t)
    _installed.clear()
    _loaded_files.clear()
    _current = code
    QLocale.setDefault(QLocale(code))
    if app is None:
        return []
    _install_filter(app)
    translators: list[QTranslator] = []
    if code != SOURCE_LANGUAGE:
        for name in QT_CATALOGUES:
            qt_file = qt_translations_dir() / f"{name}_{code}.qm"
            t = QTranslator(app)
            if qt_file.is_file() and t.load(str(qt_file)):
                translators.append(t)
                _loaded_files.append(str(qt_file))
            else:
                log.info("Qt's catalogue %s is not available; Qt's dialogs stay in English", qt_file.name)
    own = AppTranslator(app)
    qm = catalogue_file(code)
    if qm is not None:
        if own.load(str(qm)):
            _loaded_files.append(str(qm))
        else:
            log.warning("cannot load %s; the interface stays in English", qm)
    elif code != SOURCE_LANGUAGE:
        log.warning("no %s catalogue could be loaded; the interface stays in English", code)
    translators.append(own)  # installed last: asked first
    for t in translators:
        app.installTranslator(t)
        _installed.append(t)
    apply_fonts()
    if isinstance(app, QApplication):
        app.setLayoutDirection(QLocale(code).textDirection())
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LanguageChange)
    _remove_filter(app)
    notifier().languageChanged.emit(code)
    return list(_loaded_files)


def uninstall() -> None:
    """Remove every translator this module installed (back to the source texts; tests use it)."""
    global _current
    app = QCoreApplication.instance()
    if app is not None:
        for t in _installed:
            app.removeTranslator(t)
    _installed.clear()
    _loaded_files.clear()
    _current = SOURCE_LANGUAGE
    if _original_locale is not None:
        QLocale.setDefault(_original_locale)
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LanguageChange)


# --------------------------------------------------------------------------------------------------
# Retranslating what is on screen
# --------------------------------------------------------------------------------------------------


def _swap(getter: Callable[[], str], setter: Callable[[str], object]) -> bool:
    new = retranslate_text(getter())
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
    if n == 0 or any(not _origins.get(combo.itemText(i)) for i in range(n)):
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


def _install_filter(app: QCoreApplication) -> None:
    """Filter the application's events while a language switch delivers ``LanguageChange`` (only then:
    an application-wide filter in Python would see every event of every widget, paints and timers)."""
    global _filter
    if _filter is None or not is_valid(_filter):
        _filter = _LanguageChangeFilter(app)
    app.installEventFilter(_filter)


def _remove_filter(app: QCoreApplication) -> None:
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


# --------------------------------------------------------------------------------------------------
# Fonts
# --------------------------------------------------------------------------------------------------

#: Families that cover Simplified Chinese, per platform, best first.
CJK_UI_FAMILIES: dict[str, tuple[str, ...]] = {
    "win32": ("Microsoft YaHei UI", "Microsoft YaHei", "DengXian", "SimSun"),
    "darwin": ("PingFang SC", "Hiragino Sans GB", "Heiti SC", "STHeiti"),
    "linux": (
        "Noto Sans CJK SC",
        "Noto Sans SC",
        "Source Han Sans SC",
        "WenQuanYi Micro Hei",
        "WenQuanYi Zen Hei",
        "Droid Sans Fallback",
    ),
}
#: Families tried first for Latin text when the system's default is unknown.
LATIN_UI_FAMILIES: dict[str, tuple[str, ...]] = {
    "win32": ("Segoe UI",),
    "darwin": (".AppleSystemUIFont", "Helvetica Neue"),
    "linux": ("Noto Sans", "Cantarell", "DejaVu Sans"),
}
MONO_FAMILIES: dict[str, tuple[str, ...]] = {
    "win32": ("Cascadia Mono", "Consolas", "Microsoft YaHei UI", "Microsoft YaHei", "SimSun"),
    "darwin": ("SF Mono", "Menlo", "PingFang SC", "Hiragino Sans GB"),
    "linux": (
        "DejaVu Sans Mono",
        "Noto Sans Mono",
        "Noto Sans Mono CJK SC",
        "WenQuanYi Micro Hei Mono",
        "Source Han Sans SC",
        "Noto Sans CJK SC",
        "Droid Sans Fallback",
    ),
}


def platform_key(platform: str | None = None) -> str:
    """``win32``, ``darwin`` or ``linux`` (every other Unix uses the Linux fonts)."""
    p = platform or sys.platform
    if p.startswith("win"):
        return "win32"
    if p == "darwin":
        return "darwin"
    return "linux"


def _dedupe(families: Iterable[str]) -> list[str]:
    out: list[str] = []
    for f in families:
        if f and f not in out:
            out.append(f)
    return out


def ui_font_families(platform: str | None = None, system_family: str | None = None) -> list[str]:
    """The interface font's family list: the system's default first (it is what the platform's other
    programs use for Latin text), then the platform's Latin choices and the CJK fallbacks."""
    key = platform_key(platform)
    generic = {"", "Sans Serif", "sans-serif", "MS Shell Dlg 2", "Sans"}
    first = [system_family] if system_family and system_family not in generic else []
    return _dedupe([*first, *LATIN_UI_FAMILIES[key], *CJK_UI_FAMILIES[key]])


def monospace_families(platform: str | None = None, system_family: str | None = None) -> list[str]:
    """The family list of JSON, diff and tool-output views: the system's fixed font, then fallbacks."""
    key = platform_key(platform)
    generic = {"", "monospace", "Monospace"}
    first = [system_family] if system_family and system_family not in generic else []
    return _dedupe([*first, *MONO_FAMILIES[key]])


def _system_family(kind: QFontDatabase.SystemFont) -> str:
    return QFontDatabase.systemFont(kind).family()


_fonts_applied = False


def apply_fonts(force: bool = False) -> None:
    """Set the application font's family list (once); Chinese then renders in a proper CJK face."""
    global _fonts_applied
    app = QApplication.instance()
    if not isinstance(app, QApplication) or (_fonts_applied and not force):
        return
    _fonts_applied = True
    font = QFont(app.font())
    font.setFamilies(ui_font_families(system_family=_system_family(QFontDatabase.SystemFont.GeneralFont)))
    app.setFont(font)
    system_mono = _system_family(QFontDatabase.SystemFont.FixedFont)
    if system_mono:
        # Widgets that take QFontDatabase.systemFont(FixedFont) directly still find CJK glyphs.
        QFont.insertSubstitutions(system_mono, monospace_families()[1:])


def monospace_font(point_size: float | None = None) -> QFont:
    """A fixed-pitch font whose family list renders Chinese too (JSON, diffs, tool output)."""
    font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    font.setFamilies(monospace_families(system_family=font.family()))
    font.setStyleHint(QFont.StyleHint.Monospace)
    if point_size:
        font.setPointSizeF(point_size)
    return font


def has_cjk(families: Iterable[str], platform: str | None = None) -> bool:
    """Does the list name a family known to cover Simplified Chinese on ``platform``?"""
    known = set(CJK_UI_FAMILIES[platform_key(platform)]) | {
        f for f in MONO_FAMILIES[platform_key(platform)] if "CJK" in f or "Hei" in f or "Han" in f
    }
    known |= {"SimSun", "Microsoft YaHei UI", "Microsoft YaHei", "PingFang SC", "Hiragino Sans GB"}
    return any(f in known for f in families)


# --------------------------------------------------------------------------------------------------
# Developer commands: python -m philont_desktop.i18n update|check|compile
# --------------------------------------------------------------------------------------------------


def gui_sources(root: Path | None = None) -> list[Path]:
    """Every Python source of the GUI package (what lupdate reads)."""
    base = root or Path(__file__).resolve().parent
    return sorted(p for p in base.rglob("*.py") if "__pycache__" not in p.parts)


@dataclass(frozen=True)
class SourceMessage:
    """A literal passed to ``tr()``/``translate()`` in the GUI sources, with the context Qt looks up."""

    context: str
    source: str
    path: str
    line: int


_TR_NAMES = {"tr", "_tr", "_t", *TR_ALIASES}


def extract_messages(paths: Iterable[Path] | None = None) -> list[SourceMessage]:
    """Every translatable literal in ``paths`` (default: the GUI sources), found with ``ast``.

    lupdate's Python reader misses calls inside f-strings and loses the class after a nested function;
    this extractor is the reference the catalogue is checked and completed against. The context is the
    enclosing class for ``self.tr``/``cls.tr`` (PySide looks up the object's classes), the first argument
    of ``translate(context, text)``, and the global context ``""`` for helpers and aliases (the
    translator falls back to it).
    """
    import ast

    out: list[SourceMessage] = []
    package = Path(__file__).resolve().parent
    for path in list(paths) if paths is not None else gui_sources(package):
        try:
            rel = str(path.resolve().relative_to(package.parent))
        except ValueError:
            rel = str(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))

        def literal(node: ast.AST) -> str | None:
            return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None

        def visit(node: ast.AST, cls: str, rel: str = rel) -> None:
            if isinstance(node, ast.ClassDef):
                cls = node.name
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
                args = node.args
                if name in ("translate", "QT_TRANSLATE_NOOP") and len(args) >= 2:
                    ctx, text = literal(args[0]), literal(args[1])
                    if ctx is not None and text:
                        out.append(SourceMessage(ctx, text, rel, node.lineno))
                elif name in _TR_NAMES and args and literal(args[0]):
                    owner = func.value if isinstance(func, ast.Attribute) else None
                    own = isinstance(owner, ast.Name) and owner.id in ("self", "cls") and name == "tr"
                    out.append(SourceMessage(cls if own else "", literal(args[0]) or "", rel, node.lineno))
                elif name == "QT_TR_NOOP" and args and literal(args[0]):
                    out.append(SourceMessage(cls, literal(args[0]) or "", rel, node.lineno))
            for child in ast.iter_child_nodes(node):
                visit(child, cls)

        visit(tree, "")
    return out


def _complete_catalogue(ts: Path, messages: list[SourceMessage], *, keep_obsolete: bool) -> int:
    """Add to ``ts`` the messages lupdate did not see (reviving their old translations); returns how many.

    Unless ``keep_obsolete``, messages that are in no source any more are dropped afterwards.
    """
    import xml.etree.ElementTree as ET

    tree = ET.parse(ts)
    root = tree.getroot()
    contexts = {c.findtext("name") or "": c for c in root.iter("context")}

    def state(m: ET.Element) -> str:
        t = m.find("translation")
        return (t.get("type") if t is not None else None) or "finished"

    active: set[tuple[str, str]] = set()
    retired: dict[tuple[str, str], ET.Element] = {}
    anywhere: dict[str, str] = {}
    for name, c in contexts.items():
        for m in c.findall("message"):
            src = m.findtext("source") or ""
            t = m.find("translation")
            if state(m) in ("vanished", "obsolete"):
                retired[(name, src)] = m
            else:
                active.add((name, src))
            if t is not None and (t.text or "").strip() and state(m) != "unfinished":
                anywhere.setdefault(src, t.text or "")
    added = 0
    for msg in messages:
        if (msg.context, msg.source) in active or ("", msg.source) in active:
            continue
        key = (msg.context, msg.source)
        old = retired.pop(key, None) or retired.pop(("", msg.source), None)
        if old is not None:
            t = old.find("translation")
            if t is not None:
                t.attrib.pop("type", None)
                if not (t.text or "").strip():
                    t.set("type", "unfinished")
            active.add(key)
            continue
        c = contexts.get(msg.context)
        if c is None:
            c = ET.SubElement(root, "context")
            ET.SubElement(c, "name").text = msg.context
            contexts[msg.context] = c
        m = ET.SubElement(c, "message")
        loc = ET.SubElement(m, "location")
        loc.set("filename", os.path.relpath(Path(__file__).resolve().parent.parent / msg.path, ts.parent))
        loc.set("line", str(msg.line))
        ET.SubElement(m, "source").text = msg.source
        t = ET.SubElement(m, "translation", {"type": "unfinished"})
        t.text = anywhere.get(msg.source, "")
        active.add(key)
        added += 1
    if not keep_obsolete:
        for c in list(root.iter("context")):
            for m in c.findall("message"):
                if state(m) in ("vanished", "obsolete"):
                    c.remove(m)
            if not c.findall("message"):
                root.remove(c)
    _write_ts(root, ts)
    return added


def _xml_escape(text: str) -> str:
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&apos;")
    )


def _write_ts(root, path: Path) -> None:
    """Write a TS tree the way lupdate does, so that the next lupdate run changes nothing by itself."""

    def attrs(el) -> str:
        return "".join(f' {k}="{_xml_escape(v)}"' for k, v in el.attrib.items())

    def element(el, indent: str) -> list[str]:
        children = list(el)
        if not children:
            if el.tag == "location" or (el.text is None and el.tag not in ("translation", "name")):
                return [f"{indent}<{el.tag}{attrs(el)}/>"]
            return [f"{indent}<{el.tag}{attrs(el)}>{_xml_escape(el.text or '')}</{el.tag}>"]
        lines = [f"{indent}<{el.tag}{attrs(el)}>"]
        for child in children:
            lines += element(child, indent + "    ")
        lines.append(f"{indent}</{el.tag}>")
        return lines

    out = ['<?xml version="1.0" encoding="utf-8"?>', "<!DOCTYPE TS>", f"<TS{attrs(root)}>"]
    for context in root.findall("context"):
        out.append("<context>")
        for child in context:
            out += element(child, "    ")
        out.append("</context>")
    out.append("</TS>")
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def update_catalogues(langs: Iterable[str] = ("zh_CN",), *, keep_obsolete: bool = False) -> list[Path]:
    """Run lupdate over the GUI sources into ``resources/translations/philont_desktop_<lang>.ts``, then
    add what lupdate's Python reader missed (see :func:`extract_messages`). Translations are kept."""
    tool = find_lupdate()
    if tool is None:
        raise RuntimeError("pyside6-lupdate was not found (it comes with PySide6-Essentials)")
    out_dir = Path(__file__).resolve().parent.parent / "resources" / "translations"
    out_dir.mkdir(parents=True, exist_ok=True)
    package = Path(__file__).resolve().parent
    sources = [str(p.relative_to(package.parent)) for p in gui_sources(package)]
    aliases = ",".join(f"tr+={a}" for a in TR_ALIASES)
    messages = extract_messages()
    made = []
    for lang in langs:
        ts = out_dir / f"{APP_CATALOGUE}_{lang}.ts"
        cmd = [
            *tool,
            "-locations",
            "relative",
            "-tr-function-alias",
            aliases,
            "-source-language",
            "en",
            "-target-language",
            lang,
            *sources,
            "-ts",
            str(ts),
        ]
        proc = subprocess.run(cmd, cwd=package.parent, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"lupdate failed:\n{proc.stdout}{proc.stderr}")
        print((proc.stdout + proc.stderr).strip())
        added = _complete_catalogue(ts, messages, keep_obsolete=keep_obsolete)
        if added:
            print(f"    Added {added} source text(s) that lupdate did not find (f-strings, nested functions)")
        made.append(ts)
    return made


def unfinished(ts: Path) -> list[tuple[str, str]]:
    """``(context, source)`` of every message of ``ts`` without a finished translation."""
    import xml.etree.ElementTree as ET

    out = []
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name") or ""
        for m in context.iter("message"):
            tr = m.find("translation")
            kind = tr.get("type") if tr is not None else "unfinished"
            if kind in ("vanished", "obsolete"):
                continue
            text = "".join(tr.itertext()).strip() if tr is not None else ""
            if kind == "unfinished" or not text:
                out.append((name, m.findtext("source") or ""))
    return out


def _main(argv: list[str]) -> int:
    import argparse

    p = argparse.ArgumentParser(prog="python -m philont_desktop.i18n", description=__doc__.split("\n")[0])
    p.add_argument("command", choices=("update", "check", "compile"))
    p.add_argument("--lang", action="append", help="language code (default: every catalogue)")
    args = p.parse_args(argv)
    langs = args.lang or [lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE]
    if args.command == "update":
        update_catalogues(langs)
        args.command = "check"
    if args.command == "check":
        missing = 0
        for lang in langs:
            ts = catalogue_source(lang)
            if ts is None:
                print(f"{lang}: no catalogue")
                missing += 1
                continue
            todo = unfinished(ts)
            missing += len(todo)
            for ctx, src in todo:
                print(f"{lang}: unfinished [{ctx}] {src!r}")
            print(f"{lang}: {len(todo)} unfinished")
        return 1 if missing else 0
    for lang in langs:  # compile
        ts = catalogue_source(lang)
        if ts is None or not compile_catalogue(ts, ts.with_suffix(".qm")):
            return 1
        print(ts.with_suffix(".qm"))
    return 0


if __name__ == "__main__":  # pragma: no cover
    logging.basicConfig(level=logging.INFO)
    raise SystemExit(_main(sys.argv[1:]))
