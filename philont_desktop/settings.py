"""Typed settings over ``QSettings``: one registry of every key the application stores.

Storage: an INI file in ``$PHILONT_DESKTOP_SETTINGS_DIR`` when that variable is set (the tests set it, so
they never touch the user's real settings), else the platform's native place for
``Philont/philont-desktop``.

The file is checked before ``QSettings`` reads it (:mod:`core.sidefiles`): a FIFO there would hang the
start, a device or a huge file would never end loading. Such a file is set aside as
``<name>.bad-YYYYMMDDTHHmmss`` and reported (the status bar says so); when it cannot be moved the settings
of this run live in a private temporary file. A value of the wrong shape reads as its default (a list
value is JSON text, parsed with a depth limit).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from core import sidefiles
from core.damage import loads_json
from philont_desktop import APP_NAME, ORG_NAME
from philont_desktop.qt import QByteArray, QSettings, QStandardPaths

ENV_DIR = "PHILONT_DESKTOP_SETTINGS_DIR"
MAX_RECENT = 10
THEMES = ("system", "light", "dark", "high-contrast")
LANGUAGES = ("", "en", "zh_CN")  # "" = follow the system
#: The largest settings file read (window states, a few paths: some kB).
MAX_SETTINGS_BYTES = 1024 * 1024

T = TypeVar("T")


@dataclass(frozen=True)
class Key(Generic[T]):
    """One setting: its key, type and default. Values of the wrong type read back as the default."""

    name: str
    type: type
    default: T
    choices: tuple[Any, ...] | None = None


# The registry: every key the application stores.
GEOMETRY: Key[bytes] = Key("window/geometry", bytes, b"")
WINDOW_STATE: Key[bytes] = Key("window/state", bytes, b"")
CURRENT_TAB: Key[str] = Key("window/current_tab", str, "")
RECENT_FILES: Key[list] = Key("files/recent", list, [])
LAST_DATABASE: Key[str] = Key("files/last_database", str, "")
LAST_DIRECTORY: Key[str] = Key("files/last_directory", str, "")
THEME: Key[str] = Key("appearance/theme", str, "system", THEMES)
LANGUAGE: Key[str] = Key("appearance/language", str, "", LANGUAGES)
ZOOM: Key[int] = Key("appearance/zoom", int, 100)  # percent of the normal text size
SPLITTER_PREFIX = "splitters/"
HEADER_PREFIX = "headers/"

KEYS: tuple[Key[Any], ...] = (
    GEOMETRY,
    WINDOW_STATE,
    CURRENT_TAB,
    RECENT_FILES,
    LAST_DATABASE,
    LAST_DIRECTORY,
    THEME,
    LANGUAGE,
    ZOOM,
)


def settings_location() -> Path | None:
    """The directory from ``$PHILONT_DESKTOP_SETTINGS_DIR``, or ``None`` for the platform default."""
    d = os.environ.get(ENV_DIR)
    return Path(d).expanduser() if d else None


def settings_files() -> list[Path]:
    """The files ``QSettings`` reads the settings from: the INI file of :func:`settings_location`, or on
    Linux and other Unix systems the native ``Philont/philont-desktop.conf`` and its organisation-wide
    ``Philont.conf`` (Windows keeps them in the registry, macOS in its preferences service)."""
    d = settings_location()
    if d is not None:
        return [d / f"{APP_NAME}.ini"]
    if sys.platform in ("win32", "darwin"):
        return []
    config = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericConfigLocation)
    if not config:
        return []
    return [Path(config) / ORG_NAME / f"{APP_NAME}.conf", Path(config) / f"{ORG_NAME}.conf"]


def _unusable_settings_file() -> bool:
    """Set aside every settings file that must not be read; whether one is still there."""
    stuck = False
    for path in settings_files():
        problem = sidefiles.check(path, MAX_SETTINGS_BYTES)
        if problem is not None and sidefiles.set_aside(path, problem) is None:
            stuck = True
    return stuck


def _make_qsettings() -> QSettings:
    d = settings_location()
    if d is not None:
        d.mkdir(parents=True, exist_ok=True)
    if _unusable_settings_file():  # never read it: this run's settings live in a private file
        private = Path(tempfile.mkdtemp(prefix="philont-desktop-settings-"))
        return QSettings(str(private / f"{APP_NAME}.ini"), QSettings.Format.IniFormat)
    if d is not None:
        return QSettings(str(d / f"{APP_NAME}.ini"), QSettings.Format.IniFormat)
    return QSettings(ORG_NAME, APP_NAME)


class Settings:
    """The application's settings. ``Settings(qsettings=None)`` uses :func:`settings_location`."""

    def __init__(self, qsettings: QSettings | None = None):
        self.q = qsettings if qsettings is not None else _make_qsettings()

    # -- generic typed access ---------------------------------------------------------------------------
    def get(self, key: Key[T]) -> T:
        raw = self.q.value(key.name)
        if raw is None:
            return _copy(key.default)
        try:
            value = _decode(key.type, raw)
        except (TypeError, ValueError):
            return _copy(key.default)
        if key.choices is not None and value not in key.choices:
            return _copy(key.default)
        return value

    def set(self, key: Key[T], value: T) -> None:
        if key.choices is not None and value not in key.choices:
            raise ValueError(f"{key.name}: {value!r} is not one of {key.choices}")
        self.q.setValue(key.name, _encode(key.type, value))

    def remove(self, key: Key[Any]) -> None:
        self.q.remove(key.name)

    def sync(self) -> None:
        self.q.sync()

    @property
    def file_name(self) -> str:
        return self.q.fileName()

    # -- named accessors ----------------------------------------------------------------------------------
    @property
    def theme(self) -> str:
        return self.get(THEME)

    @theme.setter
    def theme(self, value: str) -> None:
        self.set(THEME, value)

    @property
    def language(self) -> str:
        return self.get(LANGUAGE)

    @language.setter
    def language(self, value: str) -> None:
        self.set(LANGUAGE, value)

    @property
    def zoom(self) -> int:
        return self.get(ZOOM)

    @zoom.setter
    def zoom(self, value: int) -> None:
        self.set(ZOOM, int(value))

    @property
    def last_database(self) -> str:
        return self.get(LAST_DATABASE)

    @last_database.setter
    def last_database(self, value: str | os.PathLike[str]) -> None:
        self.set(LAST_DATABASE, str(value))

    @property
    def last_directory(self) -> str:
        return self.get(LAST_DIRECTORY)

    @last_directory.setter
    def last_directory(self, value: str | os.PathLike[str]) -> None:
        self.set(LAST_DIRECTORY, str(value))

    @property
    def geometry(self) -> bytes:
        return self.get(GEOMETRY)

    @geometry.setter
    def geometry(self, value: bytes | QByteArray) -> None:
        self.set(GEOMETRY, bytes(value))

    @property
    def window_state(self) -> bytes:
        return self.get(WINDOW_STATE)

    @window_state.setter
    def window_state(self, value: bytes | QByteArray) -> None:
        self.set(WINDOW_STATE, bytes(value))

    @property
    def current_tab(self) -> str:
        return self.get(CURRENT_TAB)

    @current_tab.setter
    def current_tab(self, value: str) -> None:
        self.set(CURRENT_TAB, value)

    # -- recent files -----------------------------------------------------------------------------------
    @property
    def recent_files(self) -> list[str]:
        return [p for p in self.get(RECENT_FILES) if isinstance(p, str) and p][:MAX_RECENT]

    def add_recent_file(self, path: str | os.PathLike[str]) -> list[str]:
        """Put ``path`` first (absolute, without duplicates), keeping at most ``MAX_RECENT``."""
        p = str(Path(path).expanduser().absolute())
        files = [p, *(f for f in self.recent_files if f != p)][:MAX_RECENT]
        self.set(RECENT_FILES, files)
        return files

    def remove_recent_file(self, path: str | os.PathLike[str]) -> None:
        p = str(Path(path).expanduser().absolute())
        self.set(RECENT_FILES, [f for f in self.recent_files if f != p])

    def clear_recent_files(self) -> None:
        self.set(RECENT_FILES, [])

    # -- per-widget states (splitters, table headers) ------------------------------------------------------
    def splitter_state(self, name: str) -> bytes:
        return self.get(Key(SPLITTER_PREFIX + name, bytes, b""))

    def set_splitter_state(self, name: str, state: bytes | QByteArray) -> None:
        self.set(Key(SPLITTER_PREFIX + name, bytes, b""), bytes(state))

    def header_state(self, name: str) -> bytes:
        return self.get(Key(HEADER_PREFIX + name, bytes, b""))

    def set_header_state(self, name: str, state: bytes | QByteArray) -> None:
        self.set(Key(HEADER_PREFIX + name, bytes, b""), bytes(state))


def _copy(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value


def _encode(kind: type, value: Any) -> Any:
    if kind is bytes:
        return QByteArray(bytes(value))
    if kind is list:
        # JSON text: QSettings' INI lists lose their type for zero or one element.
        return json.dumps(list(value), ensure_ascii=False)
    if kind is bool:
        return bool(value)
    return kind(value)


def _decode(kind: type, raw: Any) -> Any:
    if kind is bytes:
        if isinstance(raw, QByteArray):
            return bytes(raw.data())
        if isinstance(raw, (bytes, bytearray)):
            return bytes(raw)
        raise TypeError("not bytes")
    if kind is list:
        value = raw
        if isinstance(raw, str):
            value, problem, _message = loads_json(raw)  # depth-limited: 100,000 brackets are no list
            if problem is not None:
                raise ValueError(problem)
        if not isinstance(value, list):
            raise TypeError("not a list")
        return [v for v in value if isinstance(v, str | int | float | bool) or v is None]
    if kind is bool:
        if isinstance(raw, str):
            return raw.strip().lower() in ("1", "true", "yes", "on")
        return bool(raw)
    if kind is int:
        return int(raw)
    if kind is str:
        if not isinstance(raw, str):
            raise TypeError("not a string")
        return raw
    return kind(raw)
