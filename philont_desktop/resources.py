"""Where the application's resources are, and its icons.

The single source of the resources is the top-level ``resources/`` folder of the repository. It reaches
the three kinds of install as follows, and :func:`resources_dir` looks in the same order:

1. the PyInstaller bundle: ``<bundle>/_internal/resources`` (``sys._MEIPASS``), placed by
   ``packaging/philont-desktop.spec``;
2. an installed wheel: ``philont_desktop/_resources`` in site-packages, copied there at build time by
   ``packaging/setuptools_hooks.py``;
3. a source checkout or an editable install: ``resources/`` next to the ``philont_desktop`` package.

UI icons are line drawings in ``resources/icons/ui/*.svg`` whose strokes are ``currentColor``.
:func:`icon` returns a ``QIcon`` that renders them on demand, at the exact device-pixel size asked for
(HiDPI), in the current palette's button-text colour (disabled and selected modes use the palette's
disabled and highlighted-text colours), so the same icon follows a switch between light and dark.
"""

from __future__ import annotations

import sys
from functools import cache, lru_cache
from pathlib import Path

APP_ICON_NAME = "philont-desktop"
APP_ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
PACKAGED_DIRNAME = "_resources"  # the copy inside an installed wheel
_MARKER = Path("icons") / f"{APP_ICON_NAME}.svg"  # a file every resources folder has


class ResourcesNotFoundError(FileNotFoundError):
    """No folder with the application's resources was found (a broken install)."""


def candidate_dirs() -> list[Path]:
    """The places :func:`resources_dir` looks at, in order."""
    here = Path(__file__).resolve().parent
    out = []
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        out.append(Path(bundle) / "resources")
    out.append(here / PACKAGED_DIRNAME)
    out.append(here.parent / "resources")
    return out


@lru_cache(maxsize=1)
def resources_dir() -> Path:
    """The folder holding ``icons/``, ``translations/`` and the other resources of this install."""
    tried = candidate_dirs()
    for path in tried:
        if (path / _MARKER).is_file():
            return path
    raise ResourcesNotFoundError(
        "the application's resources were not found; looked in: " + ", ".join(str(p) for p in tried)
    )


def resource_path(*parts: str) -> Path:
    """A path inside the resources folder (it may not exist, e.g. an optional file)."""
    return resources_dir().joinpath(*parts)


def translations_dir() -> Path:
    """Where the ``.ts`` sources and the compiled ``.qm`` catalogues are (the bundle has only ``.qm``)."""
    return resources_dir() / "translations"


def icon_names() -> list[str]:
    """Names accepted by :func:`icon`, sorted."""
    return sorted(p.stem for p in (resources_dir() / "icons" / "ui").glob("*.svg"))


def app_icon_files() -> dict[int, Path]:
    """The application icon's PNG files by pixel size (those that exist)."""
    icons = resources_dir() / "icons"
    files = {size: icons / f"{APP_ICON_NAME}-{size}.png" for size in APP_ICON_SIZES}
    return {size: path for size, path in files.items() if path.is_file()}


# --------------------------------------------------------------------------------------------------
# Qt parts (imported lazily so that resources_dir() works without Qt, e.g. from build scripts)


def app_icon():
    """The application icon as a ``QIcon`` with every PNG size (window icon, About dialog)."""
    from philont_desktop.qt import QIcon, QSize

    result = QIcon()
    for size, path in app_icon_files().items():
        result.addFile(str(path), QSize(size, size))
    if result.isNull():
        result.addFile(str(resources_dir() / _MARKER))
    return result


@cache
def _svg_source(name: str) -> bytes:
    path = resources_dir() / "icons" / "ui" / f"{name}.svg"
    if not path.is_file():
        known = ", ".join(icon_names())
        raise KeyError(f"unknown icon {name!r} (known: {known})")
    return path.read_bytes()


def render_svg(svg: bytes, pixel_size: int, color) -> object:
    """Render a ``currentColor`` SVG into a square ``QImage`` of ``pixel_size`` pixels in ``color``.

    Uses Qt's SVG image-format plugin (``imageformats/qsvg``), which every install ships. Returns a null
    image when the SVG cannot be read.
    """
    from philont_desktop.qt import (
        QBuffer,
        QByteArray,
        QColor,
        QImage,
        QImageReader,
        QIODevice,
        QPainter,
        QSize,
    )

    color = QColor(color)
    data = QByteArray(svg.replace(b"currentColor", color.name(QColor.NameFormat.HexRgb).encode()))
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QImageReader(buffer, QByteArray(b"svg"))
    reader.setScaledSize(QSize(pixel_size, pixel_size))
    image = reader.read()
    buffer.close()
    if image.isNull():
        return image
    image = image.convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
    if color.alpha() < 255:
        faded = QImage(image.size(), QImage.Format.Format_ARGB32_Premultiplied)
        faded.fill(0)
        painter = QPainter(faded)
        painter.setOpacity(color.alphaF())
        painter.drawImage(0, 0, image)
        painter.end()
        image = faded
    return image


def _engine_class():
    """The QIconEngine subclass, imported on first use (Qt is imported only then)."""
    from philont_desktop.icon_engine import TintedSvgIconEngine

    return TintedSvgIconEngine


_engine = lru_cache(maxsize=1)(_engine_class)
_icons: dict[tuple[str, int | None], object] = {}


def icon(name: str, color=None):
    """The UI icon ``name`` (see :func:`icon_names`) as a ``QIcon``, cached.

    Without ``color`` it follows the application palette at paint time (light/dark switches need no new
    icon). With ``color`` (anything ``QColor`` accepts) it is drawn in that colour. Raises ``KeyError``
    for an unknown name.
    """
    from philont_desktop.qt import QColor, QIcon

    fixed = QColor(color) if color is not None else None
    cache_key = (name, fixed.rgba() if fixed is not None else None)
    cached = _icons.get(cache_key)
    if cached is None:
        cached = QIcon(_engine()(name, _svg_source(name), fixed))
        _icons[cache_key] = cached
    return cached


def clear_icon_cache() -> None:
    """Forget cached icons and sources (tests; after the resources folder changed)."""
    _icons.clear()
    _svg_source.cache_clear()
    resources_dir.cache_clear()


def self_test() -> list[str]:
    """Problems with this install's resources (empty when fine): every UI icon and the app icon render."""
    from philont_desktop.qt import QColor

    try:
        base = resources_dir()
    except ResourcesNotFoundError as exc:
        return [str(exc)]
    errors = []
    names = icon_names()
    if not names:
        errors.append(f"no UI icons in {base / 'icons' / 'ui'}")
    for name in names:
        image = render_svg(_svg_source(name), 32, QColor("#000000"))
        if image.isNull():
            errors.append(f"the UI icon {name!r} cannot be rendered (is Qt's SVG image plugin missing?)")
        elif not any(image.pixelColor(x, y).alpha() for x in range(32) for y in range(32)):
            errors.append(f"the UI icon {name!r} renders empty")
    if app_icon().isNull():
        errors.append("the application icon is missing")
    return errors
