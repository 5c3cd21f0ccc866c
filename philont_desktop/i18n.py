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
    the existing translations; ``python -m philont_desktop.i18n check`` lists what is unfinished (the
    commands live in :mod:`philont_desktop.i18n_tools`).

Beside this module: :mod:`philont_desktop.retranslate` (widgets on screen after a switch) and
:mod:`philont_desktop.fonts` (fonts that render Chinese).

Runtime lookups try the caller's context first, then the global (empty) context, where lupdate files
the strings of module-level functions and of helper aliases such as ``_tr(text)``.
"""

from __future__ import annotations

import logging
import os
import re
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

from philont_desktop.qt import (
    QApplication,
    QCoreApplication,
    QEvent,
    QLibraryInfo,
    QLocale,
    QObject,
    QStandardPaths,
    QTranslator,
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
    import shutil

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
    import subprocess

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
    import hashlib  # here: not imported before the window's first paint

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

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        # What this catalogue answered, by (context, source, disambiguation, n): a view asks for the
        # same few texts hundreds of times (headers, roles, section titles), and each lookup below is
        # two calls into the catalogue. A language switch installs a new translator: a new cache.
        self._answers: dict[tuple[str, str, str | None, int], str | None] = {}

    def translate(self, context, source_text, disambiguation=None, n=-1):
        if not source_text or _is_qt_context(context):
            return None  # Qt's own contexts (QFileDialog, QShortcut...): Qt's catalogue answers those
        key = (context, source_text, disambiguation, n)
        answer = self._answers.get(key, self)
        if answer is not self:
            return answer
        result = super().translate(context, source_text, disambiguation, n)
        if not result and context:
            result = super().translate("", source_text, disambiguation, n)
        if not result and n >= 0 and "(" in source_text:
            result = english_plural(source_text, n)
        _remember(result or source_text, context, source_text, disambiguation, n)
        if len(self._answers) < _MAX_REMEMBERED:
            self._answers[key] = result or None
        return result or None


def remembered(text: str) -> bool:
    """Was ``text`` produced by a translation lookup (so that it can be retranslated)?"""
    return bool(_origins.get(text))


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
        ranked = hints or ()
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
    from philont_desktop import retranslate

    retranslate.install_filter(app)
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
    from philont_desktop import fonts

    fonts.apply_fonts()
    if isinstance(app, QApplication):
        app.setLayoutDirection(QLocale(code).textDirection())
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LanguageChange)
    retranslate.remove_filter(app)
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


if __name__ == "__main__":  # pragma: no cover - ``python -m philont_desktop.i18n update|check|compile``
    from philont_desktop.i18n_tools import main

    logging.basicConfig(level=logging.INFO)
    raise SystemExit(main(sys.argv[1:]))
