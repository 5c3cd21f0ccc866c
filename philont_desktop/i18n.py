"""Language switching: installs Qt's and the application's translators for a language.

The application's catalogues are ``philont_desktop_<lang>.qm`` in ``resources/translations`` (built from
the ``.ts`` sources); Qt's own (``qtbase_<lang>.qm``) come with PySide6. A missing catalogue is not an
error: the English source strings are shown.
"""

from __future__ import annotations

from pathlib import Path

from philont_desktop.qt import QCoreApplication, QLibraryInfo, QLocale, QTranslator

APP_CATALOGUE = "philont_desktop"
LANGUAGES = {"en": "English", "zh_CN": "简体中文"}

_installed: list[QTranslator] = []
_current = "en"


def translation_dirs() -> list[Path]:
    """Where the application's ``.qm`` files are looked for, in order."""
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


def resolve_language(lang: str | None) -> str:
    """``""``/``None`` means the system language; the result is a key of :data:`LANGUAGES` or ``en``."""
    if not lang:
        lang = QLocale.system().name()
    if lang in LANGUAGES:
        return lang
    base = lang.split("_")[0]
    if base == "zh":
        return "zh_CN"
    return base if base in LANGUAGES else "en"


def current_language() -> str:
    return _current


def install(lang: str | None) -> list[str]:
    """Install the translators for ``lang`` (replacing earlier ones); returns the catalogues loaded."""
    global _current
    app = QCoreApplication.instance()
    code = resolve_language(lang)
    for t in _installed:
        if app is not None:
            app.removeTranslator(t)
    _installed.clear()
    _current = code
    QLocale.setDefault(QLocale(code))
    loaded: list[str] = []
    if app is None or code == "en":
        return loaded
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    candidates = [(f"qtbase_{code}", qt_dir)] + [
        (f"{APP_CATALOGUE}_{code}", str(d)) for d in translation_dirs()
    ]
    seen: set[str] = set()
    for name, directory in candidates:
        if name in seen or not (Path(directory) / f"{name}.qm").is_file():
            continue
        t = QTranslator()
        if t.load(name, directory):
            app.installTranslator(t)
            _installed.append(t)
            loaded.append(str(Path(directory) / f"{name}.qm"))
            seen.add(name)
    return loaded
