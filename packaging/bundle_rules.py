"""What goes into the PyInstaller bundle: the rules that ``philont-desktop.spec`` applies, kept here so
that tests can check them without running PyInstaller.

- :data:`EXCLUDES`: Python modules left out (the Qt modules the application does not use, other Qt
  bindings, heavy optional imports of pyqtgraph and numpy, development tools, the MCP server's SDK);
- :func:`keep_entry`: whether a collected file stays (platform plugins of the target system only, a few
  image formats, no plugins or Qt libraries of the dropped modules, Qt's own catalogues of English and
  Chinese only);
- :func:`windows_version_info`: the text of the Windows version resource for a package version;
- :func:`package_data`: the data files of the Python packages (the demo generator's ``.toml`` files),
  as ``(source, destination folder)`` pairs.
"""

from __future__ import annotations

import re
from pathlib import Path

APP = "philont-desktop"
APP_ID = "io.philont.Desktop"
CLI = "philont-memory"  # the bundle's second executable: the core's command line

# Qt modules the application uses: QtCore, QtGui, QtWidgets, QtSvg, QtTest (imported by
# philont_desktop.qt), and QtOpenGL/QtOpenGLWidgets (pyqtgraph imports them at run time).
USED_QT = ("QtCore", "QtGui", "QtWidgets", "QtSvg", "QtTest", "QtOpenGL", "QtOpenGLWidgets")
HIDDEN_QT_IMPORTS = [f"PySide6.{name}" for name in ("QtSvg", "QtOpenGL", "QtOpenGLWidgets", "QtTest")]

UNUSED_QT = (
    "Qt3DAnimation", "Qt3DCore", "Qt3DExtras", "Qt3DInput", "Qt3DLogic", "Qt3DRender",
    "QtAxContainer", "QtBluetooth", "QtCharts", "QtConcurrent", "QtDataVisualization", "QtDBus",
    "QtDesigner", "QtGraphs", "QtGraphsWidgets", "QtHelp", "QtHttpServer", "QtLabsStyleKit",
    "QtLocation", "QtMultimedia", "QtMultimediaWidgets", "QtNetwork", "QtNetworkAuth", "QtNfc", "QtPdf",
    "QtPdfWidgets", "QtPositioning", "QtPrintSupport", "QtQml", "QtQmlFeatures", "QtQuick",
    "QtQuick3D", "QtQuickControls2", "QtQuickTest", "QtQuickWidgets", "QtRemoteObjects", "QtScxml",
    "QtSensors", "QtSerialBus", "QtSerialPort", "QtSpatialAudio", "QtSql", "QtStateMachine",
    "QtSvgWidgets", "QtTextToSpeech", "QtUiTools", "QtWebChannel", "QtWebEngineCore",
    "QtWebEngineQuick", "QtWebEngineWidgets", "QtWebSockets", "QtWebView", "QtXml",
)  # fmt: skip

EXCLUDES = [f"PySide6.{name}" for name in UNUSED_QT] + [
    # other Qt bindings
    "PyQt5", "PyQt6", "PySide2", "tkinter", "_tkinter",
    # optional imports of pyqtgraph / numpy the application never uses
    "scipy", "matplotlib", "pandas", "IPython", "jupyter_client", "ipykernel", "h5py", "cupy", "numba",
    "OpenGL", "pyqtgraph.opengl", "pyqtgraph.examples", "pyqtgraph.jupyter", "colorcet",
    "yaml", "numpy.f2py", "numpy.distutils",  # numpy.__config__ imports yaml only to print its config
    # development tools that may be importable on the build machine
    "pytest", "_pytest", "hypothesis", "pytestqt", "ruff", "setuptools", "pip",
    # the MCP server's SDK and web stack: `philont-memory mcp` is not part of the desktop bundle
    "mcp", "mcp_types", "starlette", "sse_starlette", "uvicorn", "httpx2", "httpcore2", "jwt",
]  # fmt: skip

# Left out of the analysis of philont-memory: the core never imports Qt or the GUI's packages.
CLI_EXCLUDES = ["PySide6", "shiboken6", "pyqtgraph", "numpy", "philont_desktop"]

# Platform plugins kept per system ("offscreen" everywhere: headless runs and the CI smoke test).
PLATFORMS = {
    "linux": {"offscreen", "minimal", "xcb", "wayland", "wayland-egl", "wayland-generic"},
    "win32": {"offscreen", "minimal", "windows"},
    "darwin": {"offscreen", "minimal", "cocoa"},
}
DROP_PLUGIN_DIRS = {
    "designer", "egldeviceintegrations", "networkinformation", "qmltooling", "sqldrivers", "tls",
    "printsupport", "vectorimageformats", "scenegraph", "renderers", "multimedia", "position",
    "sensors", "texttospeech", "webview", "geoservices", "canbus", "qmllint", "qmlls",
}  # fmt: skip
KEEP_IMAGEFORMATS = {"svg", "ico", "icns", "jpeg", "gif"}
KEEP_QT_TRANSLATIONS = {"qtbase_en.qm", "qtbase_zh_CN.qm", "qt_en.qm", "qt_zh_CN.qm"}

# Qt libraries that only the dropped modules and plugins pull in (matched on the file name).
DROP_LIB = re.compile(
    r"^(lib)?Qt6(Qml|Quick|Pdf|Network|VirtualKeyboard|EglFs|EglFSDeviceIntegration|Sql|Designer|Help"
    r"|Multimedia|WebEngine|WebChannel|WebSockets|WebView|3D|Charts|Graphs|DataVisualization|Labs"
    r"|ShaderTools|Concurrent|UiTools|Xml|Positioning|SerialPort|Sensors|SpatialAudio|TextToSpeech"
    r"|PrintSupport|Location|RemoteObjects|Scxml|StateMachine|HttpServer|Nfc|Bluetooth)",
    re.IGNORECASE,
)


def _platform_key(platform: str) -> str:
    if platform.startswith("linux"):
        return "linux"
    return platform if platform in PLATFORMS else "linux"


def _plugin_stem(name: str) -> str:
    """``libqxcb.so`` / ``qwindows.dll`` / ``libqcocoa.dylib`` -> ``xcb`` / ``windows`` / ``cocoa``."""
    stem = name.split(".")[0]
    stem = stem[3:] if stem.startswith("lib") else stem
    return stem[1:] if stem.startswith("q") else stem


def keep_entry(dest: str, platform: str) -> bool:
    """Whether a collected file (its destination path inside the bundle) stays in the bundle."""
    parts = [p for p in re.split(r"[/\\]", dest) if p]
    if not parts:
        return True
    name = parts[-1]
    if "plugins" in parts:
        i = parts.index("plugins")
        kind = parts[i + 1] if i + 1 < len(parts) - 1 else ""
        if kind in DROP_PLUGIN_DIRS:
            return False
        if kind == "platforms":
            return _plugin_stem(name) in PLATFORMS[_platform_key(platform)]
        if kind == "imageformats":
            return _plugin_stem(name) in KEEP_IMAGEFORMATS
        if kind.startswith("wayland") and _platform_key(platform) != "linux":
            return False
        # the GTK theme plugin pulls in GTK; Fusion with the application's palettes is the look
        return not (kind == "platformthemes" and "gtk" in name.lower())
    if "translations" in parts and name.endswith(".qm") and "resources" not in parts:
        return name in KEEP_QT_TRANSLATIONS
    return not DROP_LIB.search(name)


def version_tuple(version: str) -> tuple[int, int, int, int]:
    """``"0.1.0"`` -> ``(0, 1, 0, 0)``; ``"1.2.0rc1"`` -> ``(1, 2, 0, 1)`` (the numbers in order)."""
    numbers = [int(x) for x in re.findall(r"\d+", version)[:4]]
    return tuple(numbers + [0] * (4 - len(numbers)))  # type: ignore[return-value]


def windows_version_info(version: str, description: str) -> str:
    """The text of a PyInstaller version file (``EXE(version=...)``) for this package version."""
    numbers = version_tuple(version)
    strings = {
        "CompanyName": "Philont",
        "FileDescription": description,
        "FileVersion": version,
        "InternalName": APP,
        "LegalCopyright": "MIT License",
        "OriginalFilename": f"{APP}.exe",
        "ProductName": APP,
        "ProductVersion": version,
    }
    table = ",\n".join(f"          StringStruct({k!r}, {v!r})" for k, v in strings.items())
    return f"""# UTF-8
# Windows version resource of {APP} {version}; generated by packaging/bundle_rules.py.
VSVersionInfo(
  ffi=FixedFileInfo(
    filevers={numbers},
    prodvers={numbers},
    mask=0x3f,
    flags=0x0,
    OS=0x40004,
    fileType=0x1,
    subtype=0x0,
    date=(0, 0)
  ),
  kids=[
    StringFileInfo([
      StringTable(
        '040904B0',
        [
{table}
        ])
    ]),
    VarFileInfo([VarStruct('Translation', [1033, 1200])])
  ]
)
"""


# Data files of the Python packages: what the wheel ships as package data (pyproject.toml) goes into the
# bundle at the same place, where importlib.resources finds it.
PACKAGE_DATA = {"core/demo": ("data/*.toml", "data/dialogues/*.toml")}


def package_data(root: Path) -> list[tuple[str, str]]:
    """``(source file, destination folder inside the bundle)`` of every package data file under ``root``."""
    out = []
    for package, patterns in PACKAGE_DATA.items():
        base = root / package
        for pattern in patterns:
            for path in sorted(base.glob(pattern)):
                out.append((str(path), path.parent.relative_to(root).as_posix()))
    return out
