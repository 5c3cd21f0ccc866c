"""Before the window: is there a GUI toolkit, a display and the system libraries Qt needs?

Qt itself reports a missing display or a missing system library by aborting the process (SIGABRT,
"Reinstalling the application may fix this problem"), and an install without the ``gui`` extra fails
with an ``ImportError`` traceback. Here each of these becomes one message that says what is missing and
how to install it (Debian/Ubuntu and Fedora), and the process exits with :data:`EXIT_CODE`:

* :func:`missing_packages`: PySide6, pyqtgraph or numpy is not installed (``pip install
  'philont-desktop[gui]'``); looked up without importing them;
* :func:`import_problem`: PySide6 is there but cannot load (a missing ``libEGL.so.1``, ...);
* :func:`display_problem`: on Linux, no ``DISPLAY`` / ``WAYLAND_DISPLAY`` for the platform Qt would
  use (checked before Qt starts, costs nothing);
* :func:`fatal_problem`: Qt's own fatal message while it starts (an unknown ``QT_QPA_PLATFORM``, a
  platform plugin that cannot load because a library is missing, a display it cannot connect to),
  caught by the message handler before Qt aborts: the plugin is loaded once more to name the library.

Each problem is a :class:`~core.errors.Notice` (a code, its parameters, the English text). This module
imports no Qt (it runs when Qt may be unusable).
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path

from core.errors import Notice

EXIT_CODE = 1
GUI_PACKAGES = ("PySide6", "pyqtgraph", "numpy")
PIP_GUI = "python3 -m pip install 'philont-desktop[gui]'"

# The libraries Qt's xcb and EGL plugins need beyond a minimal system, as (shared object prefix,
# Debian/Ubuntu package, Fedora package).
LIBRARIES: tuple[tuple[str, str, str], ...] = (
    ("libxcb-cursor.so", "libxcb-cursor0", "xcb-util-cursor"),
    ("libxcb-icccm.so", "libxcb-icccm4", "xcb-util-wm"),
    ("libxcb-keysyms.so", "libxcb-keysyms1", "xcb-util-keysyms"),
    ("libxcb-image.so", "libxcb-image0", "xcb-util-image"),
    ("libxcb-render-util.so", "libxcb-render-util0", "xcb-util-renderutil"),
    ("libxcb-shape.so", "libxcb-shape0", "libxcb"),
    ("libxcb-randr.so", "libxcb-randr0", "libxcb"),
    ("libxcb-xinerama.so", "libxcb-xinerama0", "libxcb"),
    ("libxcb-xkb.so", "libxcb-xkb1", "libxcb"),
    ("libxcb.so", "libxcb1", "libxcb"),
    ("libX11-xcb.so", "libx11-xcb1", "libX11-xcb"),
    ("libxkbcommon-x11.so", "libxkbcommon-x11-0", "libxkbcommon-x11"),
    ("libxkbcommon.so", "libxkbcommon0", "libxkbcommon"),
    ("libEGL.so", "libegl1", "libglvnd-egl"),
    ("libGL.so", "libgl1", "libglvnd-glx"),
    ("libOpenGL.so", "libopengl0", "libglvnd-opengl"),
    ("libfontconfig.so", "libfontconfig1", "fontconfig"),
    ("libfreetype.so", "libfreetype6", "freetype"),
    ("libdbus-1.so", "libdbus-1-3", "dbus-libs"),
    ("libglib-2.0.so", "libglib2.0-0", "glib2"),
    ("libwayland-client.so", "libwayland-client0", "libwayland-client"),
    ("libwayland-cursor.so", "libwayland-cursor0", "libwayland-cursor"),
)
# What a desktop-less Linux usually lacks for the xcb plugin (when the missing library is not known).
DEFAULT_LIBRARIES = (
    "libxcb-cursor.so",
    "libxcb-icccm.so",
    "libxcb-keysyms.so",
    "libxkbcommon-x11.so",
    "libEGL.so",
)
OFFSCREEN_HINT = "--screenshot and --self-test also run without a display, with QT_QPA_PLATFORM=offscreen."
HEADLINE = "philont-desktop cannot start: "


def _notice(code: str, message: str, **params: object) -> Notice:
    return Notice(code, message, params)


def packages_for(libraries: list[str]) -> tuple[list[str], list[str]]:
    """The Debian/Ubuntu and Fedora packages that provide ``libraries`` (shared object names)."""
    deb: list[str] = []
    rpm: list[str] = []
    for lib in libraries:
        for prefix, d, f in LIBRARIES:
            if lib.startswith(prefix):
                deb += [d] if d not in deb else []
                rpm += [f] if f not in rpm else []
                break
    return deb, rpm


def install_lines(libraries: list[str]) -> str:
    """``Debian/Ubuntu: sudo apt install ...`` and ``Fedora: sudo dnf install ...`` for ``libraries``."""
    deb, rpm = packages_for(libraries or list(DEFAULT_LIBRARIES))
    if not deb:
        deb, rpm = packages_for(list(DEFAULT_LIBRARIES))
    return f"  Debian/Ubuntu: sudo apt install {' '.join(deb)}\n  Fedora:        sudo dnf install {' '.join(rpm)}"


def missing_libraries(text: str) -> list[str]:
    """The shared objects named as missing in a loader message (``libEGL.so.1: cannot open ...``)."""
    return list(
        dict.fromkeys(re.findall(r"(lib[\w.+-]+\.so(?:\.\d+)*)\s*:\s*cannot open shared object", text))
    )


# -- before Qt is imported ---------------------------------------------------------------------------------


def missing_packages(names: tuple[str, ...] = GUI_PACKAGES) -> list[str]:
    """The Python packages of the ``gui`` extra that are not installed (found without importing them)."""
    missing = []
    for name in names:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # ValueError: a None entry in sys.modules
            found = False
        if not found:
            missing.append(name)
    return missing


def packages_problem(missing: list[str]) -> Notice:
    return _notice(
        "startup.gui_missing",
        f"{HEADLINE}the graphical user interface is not installed (missing: {', '.join(missing)}).\n"
        f"Install the 'gui' extra:\n  {PIP_GUI}\n"
        "(The command line, philont-memory, works without it.)",
        packages=missing,
    )


def import_problem(exc: BaseException) -> Notice:
    """PySide6 is installed but does not load: which library is missing, and how to install it."""
    text = str(exc)
    libs = missing_libraries(text)
    if isinstance(exc, ModuleNotFoundError) and not libs:
        return packages_problem([exc.name or "PySide6"])
    what = ", ".join(libs) if libs else text
    return _notice(
        "startup.qt_libraries",
        f"{HEADLINE}Qt cannot load: a system library is missing ({what}).\nInstall:\n" + install_lines(libs),
        libraries=libs,
        detail=text,
    )


def platform_name(env: Mapping[str, str]) -> str:
    """The platform plugin Qt will try first ('' for Qt's own choice)."""
    return env.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()


def display_problem(env: Mapping[str, str] | None = None, system: str | None = None) -> Notice | None:
    """On Linux, the display the platform needs is not there (``None``: nothing known to be missing)."""
    env = os.environ if env is None else env
    system = sys.platform if system is None else system
    if not system.startswith("linux"):
        return None
    name = platform_name(env)
    x11, wayland = env.get("DISPLAY", "").strip(), env.get("WAYLAND_DISPLAY", "").strip()
    if (name == "" and not x11 and not wayland) or (name == "xcb" and not x11):
        missing = "DISPLAY" if name == "xcb" else "DISPLAY or WAYLAND_DISPLAY"
    elif name.startswith("wayland") and not wayland:
        missing = "WAYLAND_DISPLAY"
    else:
        return None
    return _notice(
        "startup.no_display",
        f"{HEADLINE}there is no display to show the window on ({missing} is not set).\n"
        "Start it from a desktop session (or over ssh -X).\n" + OFFSCREEN_HINT,
        variable=missing,
        platform=name,
    )


# -- when Qt reports a fatal error while it starts ------------------------------------------------------------


def plugin_dirs() -> list[Path]:
    """Where Qt looks for platform plugins: ``QT_QPA_PLATFORM_PLUGIN_PATH``, then PySide6's own."""
    out = [Path(p) for p in os.environ.get("QT_QPA_PLATFORM_PLUGIN_PATH", "").split(os.pathsep) if p]
    spec = importlib.util.find_spec("PySide6")
    for loc in (spec.submodule_search_locations or []) if spec else []:
        out.append(Path(loc) / "Qt" / "plugins" / "platforms")
    return out


def load_error(plugin: str) -> str | None:
    """Why the platform plugin ``plugin`` cannot be loaded (the dynamic loader's message), or ``None``."""
    import ctypes

    for d in plugin_dirs():
        path = d / f"libq{plugin}.so"
        if path.is_file():
            try:
                ctypes.CDLL(str(path))
            except OSError as exc:
                return str(exc)
            return None
    return None


def fatal_problem(messages: list[str]) -> Notice:
    """The problem behind Qt's fatal start-up message (``messages``: what Qt printed until then)."""
    text = "\n".join(messages)
    m = re.search(r'Qt platform plugin "([^"]*)"', text)
    name = m.group(1) if m else platform_name(os.environ)
    if "could not connect to display" in text or "Failed to create wl_display" in text:
        shown = os.environ.get("DISPLAY" if "wl_display" not in text else "WAYLAND_DISPLAY", "")
        return _notice(
            "startup.display_unreachable",
            f"{HEADLINE}cannot connect to the display {shown!r}: is the desktop session running, and "
            "may this user use it?\n" + OFFSCREEN_HINT,
            display=shown,
            platform=name,
        )
    if "Could not find the Qt platform plugin" in text:
        avail = re.search(r"Available platform plugins are: ([^\n]*?)\.?\s*$", text, re.MULTILINE)
        known = avail.group(1).strip() if avail else ""
        return _notice(
            "startup.unknown_platform",
            f"{HEADLINE}QT_QPA_PLATFORM={name!r} is not a platform Qt knows"
            + (f" (known: {known})" if known else "")
            + ".\nUnset QT_QPA_PLATFORM to use the desktop, or set it to one of those.",
            platform=name,
            known=known,
        )
    detail = load_error(name) if name else None
    libs = missing_libraries(" ".join([detail or "", text]))
    if "xcb-cursor0" in text and "libxcb-cursor.so.0" not in libs:
        libs.append("libxcb-cursor.so.0")
    what = ", ".join(libs) if libs else (detail or "see Qt's message above")
    return _notice(
        "startup.qt_libraries",
        f"{HEADLINE}Qt's {name or 'display'!r} platform plugin cannot load: a system library is missing "
        f"({what}).\nInstall:\n" + install_lines(libs) + "\n" + OFFSCREEN_HINT,
        libraries=libs,
        platform=name,
        detail=detail or "",
    )


def report(problem: Notice) -> int:
    """Print ``problem`` on stderr; the exit code to return."""
    print(problem.message, file=sys.stderr, flush=True)
    return EXIT_CODE
