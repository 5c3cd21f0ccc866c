"""Packaging: the icon set, where resources are found, the wheel, a fresh venv, the Linux desktop files
and the rules of the PyInstaller bundle.

The bundle itself is built and smoke-tested by ``packaging/ci_smoke.sh`` (build + ``packaging/smoke.py``),
not here: a build takes about a minute.
"""

from __future__ import annotations

import ast
import configparser
import importlib.util
import os
import shutil
import struct
import subprocess
import sys
import tomllib
import venv
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
ICONS = ROOT / "resources" / "icons"
APP = "philont-desktop"
APP_ID = "io.philont.Desktop"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
UI_ICONS = ("open", "backup", "edit", "undo", "redo", "search", "pin", "forget", "refresh", "export")

with open(ROOT / "pyproject.toml", "rb") as _fh:
    PYPROJECT = tomllib.load(_fh)
VERSION = PYPROJECT["project"]["version"]


def load_script(name: str):
    """Import a module of packaging/ by path (the folder is not a package: it would hide PyPA's)."""
    spec = importlib.util.spec_from_file_location(f"_philont_packaging_{name}", PACKAGING / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_REQUIRE", "VIRTUAL_ENV"))}
    env["QT_QPA_PLATFORM"] = "offscreen"
    env.update(extra)
    return env


# --------------------------------------------------------------------------------------------------
# The icon set


def test_app_icon_pngs_have_their_sizes():
    for size in PNG_SIZES:
        data = (ICONS / f"{APP}-{size}.png").read_bytes()
        assert png_size(data) == (size, size), size


def test_ico_and_icns_hold_every_size():
    make_icons = load_script("make_icons")
    ico = make_icons.parse_ico((ICONS / f"{APP}.ico").read_bytes())
    assert [size for size, _ in ico] == [16, 24, 32, 48, 64, 128, 256]
    assert [png_size(data)[0] for _, data in ico] == [16, 24, 32, 48, 64, 128, 256]

    icns = dict(make_icons.parse_icns((ICONS / f"{APP}.icns").read_bytes()))
    expected = {b"icp4": 16, b"icp5": 32, b"icp6": 64, b"ic07": 128, b"ic08": 256, b"ic09": 512}
    expected |= {b"ic10": 1024, b"ic11": 32, b"ic12": 64, b"ic13": 256, b"ic14": 512}
    assert {code: png_size(data)[0] for code, data in icns.items()} == expected


def test_make_icons_renders_files_that_qt_reads(qapp, tmp_path):
    from philont_desktop.qt import QImage, QImageReader

    make_icons = load_script("make_icons")
    written = make_icons.make_icons(ICONS, tmp_path)
    names = sorted(p.name for p in written)
    assert names == sorted([f"{APP}-{s}.png" for s in PNG_SIZES] + [f"{APP}.ico", f"{APP}.icns"])
    for size in PNG_SIZES:
        image = QImage(str(tmp_path / f"{APP}-{size}.png"))
        assert (image.width(), image.height()) == (size, size)
        assert image.pixelColor(size // 2, size // 2).alpha() == 255  # the tile is opaque in the middle
        assert image.pixelColor(0, 0).alpha() < 255  # rounded corners are transparent
    # Qt's own ICO reader (an independent parser) sees every entry.
    reader = QImageReader(str(tmp_path / f"{APP}.ico"))
    assert reader.imageCount() == 7
    assert not reader.read().isNull()
    # A second run writes nothing: re-running the script leaves a clean tree.
    assert make_icons.make_icons(ICONS, tmp_path) == []


def test_ui_icons_are_currentcolor_line_drawings():
    for name in UI_ICONS:
        path = ICONS / "ui" / f"{name}.svg"
        root = ET.parse(path).getroot()
        assert root.tag == "{http://www.w3.org/2000/svg}svg", name
        assert root.get("viewBox") == "0 0 24 24", name
        text = path.read_text(encoding="utf-8")
        assert 'stroke="currentColor"' in text, name
        colours = [
            el.get(attr)
            for el in root.iter()
            for attr in ("fill", "stroke")
            if el.get(attr) not in (None, "none", "currentColor")
        ]
        assert colours == [], f"{name} has fixed colours {colours}"


# --------------------------------------------------------------------------------------------------
# philont_desktop.resources


@pytest.fixture
def fresh_resources():
    from philont_desktop import resources

    resources.clear_icon_cache()
    yield resources
    resources.clear_icon_cache()


def test_resources_dir_is_the_checkout_here(fresh_resources):
    assert fresh_resources.resources_dir() == ROOT / "resources"
    assert fresh_resources.translations_dir() == ROOT / "resources" / "translations"
    assert fresh_resources.icon_names() == sorted(UI_ICONS)
    assert sorted(fresh_resources.app_icon_files()) == list(PNG_SIZES)


def test_bundle_location_comes_first(fresh_resources, monkeypatch, tmp_path):
    bundled = tmp_path / "resources"
    shutil.copytree(ROOT / "resources" / "icons", bundled / "icons")
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert fresh_resources.candidate_dirs()[0] == bundled
    assert fresh_resources.resources_dir() == bundled


def test_a_bundle_without_resources_falls_through(fresh_resources, monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert fresh_resources.resources_dir() == ROOT / "resources"


def test_missing_resources_is_a_clear_error(fresh_resources, monkeypatch, tmp_path):
    monkeypatch.setattr(fresh_resources, "candidate_dirs", lambda: [tmp_path / "a", tmp_path / "b"])
    with pytest.raises(fresh_resources.ResourcesNotFoundError, match=r"looked in: .*a, .*b"):
        fresh_resources.resources_dir()


def _opaque_colours(pixmap) -> set[str]:
    image = pixmap.toImage()
    return {
        image.pixelColor(x, y).name()
        for x in range(image.width())
        for y in range(image.height())
        if image.pixelColor(x, y).alpha() == 255
    }


def test_icons_follow_the_palette_at_every_scale(qapp, fresh_resources):
    from philont_desktop.qt import QColor, QIcon, QPalette, QSize

    original = qapp.palette()
    try:
        palette = QPalette(original)
        palette.setColor(QPalette.ColorGroup.Active, QPalette.ColorRole.ButtonText, QColor("#123456"))
        palette.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText, QColor("#999999"))
        qapp.setPalette(palette)
        undo = fresh_resources.icon("undo")
        assert undo is fresh_resources.icon("undo")  # cached
        assert undo.name() == "undo"

        hidpi = undo.pixmap(QSize(24, 24), 2.0)
        assert (hidpi.width(), hidpi.height(), hidpi.devicePixelRatio()) == (48, 48, 2.0)
        normal = undo.pixmap(QSize(24, 24))
        assert (normal.width(), normal.height()) == (24, 24)
        assert _opaque_colours(normal) == {"#123456"}
        assert _opaque_colours(undo.pixmap(QSize(24, 24), QIcon.Mode.Disabled)) == {"#999999"}

        palette.setColor(QPalette.ColorGroup.Active, QPalette.ColorRole.ButtonText, QColor("#fedcba"))
        qapp.setPalette(palette)  # a theme switch: the same icon repaints in the new colour
        assert _opaque_colours(undo.pixmap(QSize(24, 24))) == {"#fedcba"}

        red = fresh_resources.icon("pin", "#ff0000")
        assert _opaque_colours(red.pixmap(QSize(32, 32))) == {"#ff0000"}
    finally:
        qapp.setPalette(original)


def test_unknown_icon_names_the_known_ones(qapp, fresh_resources):
    with pytest.raises(KeyError, match=r"unknown icon 'nope'.*undo"):
        fresh_resources.icon("nope")


def test_resources_self_test_passes(qapp, fresh_resources):
    assert fresh_resources.self_test() == []
    assert sorted(s.width() for s in fresh_resources.app_icon().availableSizes()) == list(PNG_SIZES)


# --------------------------------------------------------------------------------------------------
# The wheel and a fresh virtual environment


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(out)],
        capture_output=True,
        text=True,
        env=clean_env(PIP_DISABLE_PIP_VERSION_CHECK="1"),
        cwd=out,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    wheels = list(out.glob("philont_desktop-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def test_wheel_holds_both_packages_and_the_resources(wheel):
    assert wheel.name == f"philont_desktop-{VERSION}-py3-none-any.whl"
    names = set(zipfile.ZipFile(wheel).namelist())
    for module in ("core/__init__.py", "core/db.py", "philont_desktop/__init__.py", "philont_desktop/app.py"):
        assert module in names, module
    assert "philont_desktop/resources.py" in names
    demo_data = sorted((ROOT / "core" / "demo" / "data").rglob("*.toml"))
    assert demo_data, "the demo generator's data files"
    for path in demo_data:  # package data: the demo generator reads them with importlib.resources
        rel = path.relative_to(ROOT).as_posix()
        assert rel in names, f"{rel} is missing from the wheel"
    data = "philont_desktop/_resources/"
    assert f"{data}icons/{APP}.svg" in names
    for size in PNG_SIZES:
        assert f"{data}icons/{APP}-{size}.png" in names
    for icon in UI_ICONS:
        assert f"{data}icons/ui/{icon}.svg" in names
    assert not [n for n in names if n.endswith(".ts")], "Linguist sources belong in the compiled .qm"
    for ts in (ROOT / "resources").rglob("*.ts"):
        rel = ts.relative_to(ROOT / "resources").with_suffix(".qm").as_posix()
        assert f"{data}{rel}" in names, f"{rel} was not compiled into the wheel"
    assert not [n for n in names if n.startswith(("packaging/", "tests/", "resources/"))]
    entry_points = (
        zipfile.ZipFile(wheel).read(f"philont_desktop-{VERSION}.dist-info/entry_points.txt").decode()
    )
    assert "philont-desktop = philont_desktop.app:main" in entry_points
    assert "philont-memory = core.cli:main" in entry_points


def test_wheel_finds_its_resources_in_a_fresh_venv(wheel, tmp_path):
    # --system-site-packages: Qt, pydantic and sqlean come from this machine, not from a download.
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=True, symlinks=os.name != "nt").create(env_dir)
    bindir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    python = bindir / ("python.exe" if os.name == "nt" else "python")
    env = clean_env(PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INDEX="1", HOME=str(tmp_path))
    proc = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    probe = (
        "import philont_desktop, philont_desktop.resources as r\n"
        "print(philont_desktop.__file__)\n"
        "print(r.resources_dir())\n"
        "print(','.join(r.icon_names()))\n"
        "from philont_desktop.qt import QGuiApplication\n"
        "app = QGuiApplication([])\n"
        "print(r.self_test())\n"
    )
    proc = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    package_file, res_dir, icons, problems = proc.stdout.strip().splitlines()[-4:]
    site = Path(package_file).resolve().parent.parent
    assert Path(package_file).resolve().is_relative_to(env_dir.resolve()), package_file
    assert Path(res_dir) == site / "philont_desktop" / "_resources"
    assert not Path(res_dir).resolve().is_relative_to(ROOT)
    assert icons == ",".join(sorted(UI_ICONS))
    assert problems == "[]"
    # The gui-script works from the venv.
    exe = bindir / (f"{APP}.exe" if os.name == "nt" else APP)
    proc = subprocess.run([str(exe), "--version"], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith(f"{APP} {VERSION} ")


# --------------------------------------------------------------------------------------------------
# Linux desktop files


def read_desktop_entry(path: Path) -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # keys are case-sensitive
    parser.read(path, encoding="utf-8")
    assert parser.sections()[0] == "Desktop Entry"
    return dict(parser["Desktop Entry"])


def test_desktop_entry_has_the_required_keys():
    path = PACKAGING / "linux" / f"{APP_ID}.desktop"
    entry = read_desktop_entry(path)
    assert entry["Type"] == "Application"
    assert entry["Name"] == "Philont Desktop"
    assert entry["Icon"] == APP_ID
    assert entry["Exec"].split()[0] == APP
    assert APP in PYPROJECT["project"]["gui-scripts"]
    assert entry["Terminal"] == "false"
    assert entry["Categories"].endswith(";") and "Development" in entry["Categories"].split(";")
    assert entry["Comment"] and entry["Name[zh_CN]"] and entry["Comment[zh_CN]"]
    tool = shutil.which("desktop-file-validate")
    if tool:
        proc = subprocess.run([tool, str(path)], capture_output=True, text=True)
        assert proc.returncode == 0 and not proc.stdout.strip(), proc.stdout + proc.stderr


def test_metainfo_matches_the_project():
    path = PACKAGING / "linux" / f"{APP_ID}.metainfo.xml"
    root = ET.parse(path).getroot()
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == APP_ID
    assert root.findtext("metadata_license") == "CC0-1.0"
    assert root.findtext("project_license") == PYPROJECT["project"]["license"]["text"]
    assert root.findtext("name") == "Philont Desktop"
    assert root.findtext("summary")
    assert root.find("description/p") is not None
    launchable = root.find("launchable")
    assert launchable.get("type") == "desktop-id" and launchable.text == f"{APP_ID}.desktop"
    assert root.findtext("provides/binary") == APP
    releases = root.findall("releases/release")
    assert releases and releases[0].get("version") == VERSION, "add a <release> for the new version"
    tool = shutil.which("appstreamcli")
    if tool:
        proc = subprocess.run([tool, "validate", "--no-net", str(path)], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.skipif(os.name != "posix", reason="the installer is a POSIX shell script")
def test_install_linux_puts_entry_and_icons_under_xdg_data_home(tmp_path):
    bundle = tmp_path / "my apps" / APP
    bundle.mkdir(parents=True)
    exe = bundle / APP
    exe.write_text("#!/bin/sh\nexit 0\n")
    exe.chmod(0o755)
    data = tmp_path / "data"
    env = clean_env(XDG_DATA_HOME=str(data), HOME=str(tmp_path))
    script = PACKAGING / "install-linux.sh"
    proc = subprocess.run(["bash", str(script), str(bundle)], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr

    entry = read_desktop_entry(data / "applications" / f"{APP_ID}.desktop")
    assert entry["Exec"] == f'"{exe}"'  # quoted: the path has a space
    assert entry["TryExec"] == str(exe)
    assert (data / "metainfo" / f"{APP_ID}.metainfo.xml").is_file()
    assert (data / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg").is_file()
    for size in PNG_SIZES:
        png = data / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        assert png_size(png.read_bytes()) == (size, size)

    proc = subprocess.run(["bash", str(script), "--uninstall"], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    left = [p for p in data.rglob(f"{APP_ID}*") if p.is_file()]
    assert left == []


@pytest.mark.skipif(os.name != "posix", reason="the installer is a POSIX shell script")
def test_install_linux_refuses_a_missing_bundle(tmp_path):
    env = clean_env(XDG_DATA_HOME=str(tmp_path / "data"), HOME=str(tmp_path))
    proc = subprocess.run(
        ["bash", str(PACKAGING / "install-linux.sh"), str(tmp_path / "nothing")],
        capture_output=True,
        text=True,
        env=env,
    )
    assert proc.returncode != 0
    assert "no bundle at" in proc.stderr and "python packaging/build.py" in proc.stderr
    assert not (tmp_path / "data").exists()


# --------------------------------------------------------------------------------------------------
# Bundle rules, build and smoke scripts (without running PyInstaller)


def test_bundle_keeps_only_the_platform_plugins_each_system_needs():
    rules = load_script("bundle_rules")
    plugins = "PySide6/Qt/plugins/platforms/"
    linux = {n for n in ("offscreen", "xcb", "wayland", "eglfs", "vnc", "linuxfb") if
             rules.keep_entry(f"{plugins}libq{n}.so", "linux")}  # fmt: skip
    assert linux == {"offscreen", "xcb", "wayland"}
    assert rules.keep_entry(f"{plugins}qwindows.dll", "win32")
    assert rules.keep_entry(f"{plugins}qoffscreen.dll", "win32")
    assert not rules.keep_entry(f"{plugins}qdirect2d.dll", "win32")
    assert rules.keep_entry(f"{plugins}libqcocoa.dylib", "darwin")
    assert rules.keep_entry(f"{plugins}libqoffscreen.dylib", "darwin")
    assert not rules.keep_entry("PySide6/Qt/plugins/wayland-shell-integration/libxdg-shell.dylib", "darwin")


def test_bundle_drops_unused_qt_parts():
    rules = load_script("bundle_rules")
    keep = rules.keep_entry
    assert keep("PySide6/Qt/plugins/imageformats/libqsvg.so", "linux")  # the UI icons need it
    assert not keep("PySide6/Qt/plugins/imageformats/libqpdf.so", "linux")
    assert not keep("PySide6/Qt/plugins/sqldrivers/libqsqlite.so", "linux")
    assert not keep("PySide6/Qt/plugins/platformthemes/libqgtk3.so", "linux")
    for lib in (
        "libQt6Qml.so.6",
        "libQt6Quick.so.6",
        "libQt6Pdf.so.6",
        "libQt6Network.so.6",
        "Qt6WebEngineCore.dll",
    ):
        assert not keep(f"PySide6/Qt/lib/{lib}", "linux"), lib
    for lib in (
        "libQt6Core.so.6",
        "libQt6Gui.so.6",
        "libQt6Widgets.so.6",
        "libQt6Svg.so.6",
        "libQt6DBus.so.6",
        "libQt6OpenGL.so.6",
        "libQt6OpenGLWidgets.so.6",
        "libQt6XcbQpa.so.6",
        "libQt6WaylandClient.so.6",
    ):
        assert keep(f"PySide6/Qt/lib/{lib}", "linux"), lib  # fmt: skip
    assert keep("PySide6/Qt/translations/qtbase_zh_CN.qm", "linux")
    assert not keep("PySide6/Qt/translations/qtbase_de.qm", "linux")
    assert keep("resources/translations/philont_desktop_zh_CN.qm", "linux")
    for used in rules.USED_QT:
        assert f"PySide6.{used}" not in rules.EXCLUDES
    for unused in (
        "PySide6.QtWebEngineCore",
        "PySide6.Qt3DCore",
        "PySide6.QtMultimedia",
        "PySide6.QtQuick",
        "PySide6.QtQml",
        "PySide6.QtNetwork",
    ):
        assert unused in rules.EXCLUDES  # fmt: skip
    assert set(rules.HIDDEN_QT_IMPORTS) >= {"PySide6.QtOpenGL", "PySide6.QtOpenGLWidgets", "PySide6.QtSvg"}


def test_bundle_leaves_out_the_mcp_server_sdk():
    """The desktop bundle runs the app, not ``philont-memory mcp``: the SDK and its web stack stay out
    (core imports it only when a server is started, so the app works without it)."""
    rules = load_script("bundle_rules")
    for name in ("mcp", "mcp_types", "starlette", "uvicorn", "httpx2"):
        assert name in rules.EXCLUDES
    modules = sorted((ROOT / "core" / "mcp_server").glob("*.py"))
    tree = ast.Module([n for p in modules for n in ast.parse(p.read_text(encoding="utf-8")).body], [])
    top_level = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    imported = {a.name.split(".")[0] for n in top_level if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module.split(".")[0] for n in top_level if isinstance(n, ast.ImportFrom) and n.module}
    assert not imported & {"mcp", "mcp_types", "anyio", "uvicorn", "starlette"}


def test_bundle_has_the_core_command_line_as_a_second_executable():
    """``philont-memory`` is a console executable of its own in the bundle (the desktop one has no
    console on Windows and macOS), started by entry_memory.py, analysed without Qt."""
    rules = load_script("bundle_rules")
    assert rules.CLI == "philont-memory" and rules.CLI in PYPROJECT["project"]["scripts"]
    assert PYPROJECT["project"]["scripts"][rules.CLI] == "core.cli:main"
    assert "from core.cli import main" in (PACKAGING / "entry_memory.py").read_text(encoding="utf-8")
    assert {"PySide6", "philont_desktop"} <= set(rules.CLI_EXCLUDES)
    tree = ast.parse((PACKAGING / "philont-desktop.spec").read_text(encoding="utf-8"))
    calls = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            calls.setdefault(node.func.id, []).append(node)
    names = [next(ast.unparse(k.value) for k in c.keywords if k.arg == "name") for c in calls["EXE"]]
    assert names == ["APP", "CLI"]
    cli = calls["EXE"][1]
    assert ast.unparse(next(k.value for k in cli.keywords if k.arg == "console")) == "True"
    collected = [ast.unparse(a) for a in calls["COLLECT"][0].args]
    assert collected[:2] == ["exe", "cli_exe"] and "cli.binaries" in collected


def test_windows_version_file_carries_the_package_version():
    rules = load_script("bundle_rules")
    assert rules.version_tuple("0.1.0") == (0, 1, 0, 0)
    assert rules.version_tuple("1.2.3rc4") == (1, 2, 3, 4)
    text = rules.windows_version_info(VERSION, "desc")
    tree = ast.parse(text, mode="eval")  # PyInstaller evaluates this text
    assert isinstance(tree.body, ast.Call) and tree.body.func.id == "VSVersionInfo"
    assert f"filevers={rules.version_tuple(VERSION)}" in text
    assert f"StringStruct('ProductVersion', '{VERSION}')" in text
    assert f"StringStruct('OriginalFilename', '{APP}.exe')" in text


def test_bundle_takes_the_package_data_the_wheel_ships():
    rules = load_script("bundle_rules")
    pairs = rules.package_data(ROOT)
    expected = sorted((ROOT / "core" / "demo" / "data").rglob("*.toml"))
    assert sorted(Path(src) for src, _dest in pairs) == expected
    for src, dest in pairs:
        assert dest == Path(src).parent.relative_to(ROOT).as_posix()
        assert rules.keep_entry(f"{dest}/{Path(src).name}", "linux")
    assert "package_data(ROOT)" in (PACKAGING / "philont-desktop.spec").read_text(encoding="utf-8")


def test_spec_and_scripts_are_valid_python():
    scripts = ("philont-desktop.spec", "build.py", "smoke.py", "entry.py", "entry_memory.py")
    for name in (*scripts, "setuptools_hooks.py", "deb.py"):
        compile((PACKAGING / name).read_text(encoding="utf-8"), name, "exec")
    for name in ("install-linux.sh", "ci_smoke.sh"):
        if shutil.which("bash"):
            proc = subprocess.run(["bash", "-n", str(PACKAGING / name)], capture_output=True, text=True)
            assert proc.returncode == 0, proc.stderr


def test_translations_compile_with_pyside6_lrelease(tmp_path):
    build = load_script("build")
    if build.find_lrelease() is None:
        pytest.skip("no lrelease tool (PySide6-Essentials ships pyside6-lrelease)")
    resources = tmp_path / "resources"
    (resources / "translations").mkdir(parents=True)
    (resources / "translations" / "demo_zh_CN.ts").write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n<TS version="2.1" language="zh_CN">\n'
        "<context><name>Main</name><message><source>Open</source><translation>打开</translation></message>"
        "</context>\n</TS>\n",
        encoding="utf-8",
    )
    made = build.compile_translations(resources)
    assert made == [resources / "translations" / "demo_zh_CN.qm"]
    assert made[0].read_bytes()[:16] == bytes.fromhex("3cb86418caef9c95cd211cbf60a1bddd")  # .qm magic

    # The wheel hook compiles into its build folder and copies an up-to-date .qm as is.
    hooks = load_script("setuptools_hooks")
    out = tmp_path / "out"
    assert hooks.compile_translations(resources, out) == [out / "translations" / "demo_zh_CN.qm"]
    assert (out / "translations" / "demo_zh_CN.qm").read_bytes() == made[0].read_bytes()
    assert hooks.resource_files(resources) == [Path("translations/demo_zh_CN.qm")]


def test_smoke_reports_a_missing_bundle(tmp_path):
    smoke = load_script("smoke")
    problems = smoke.check_contents(tmp_path / "nothing")
    assert len(problems) == 1 and "python packaging/build.py" in problems[0]


def test_smoke_names_missing_plugins_and_unwanted_qt(tmp_path):
    smoke = load_script("smoke")
    bundle = tmp_path / APP
    (bundle / "_internal" / "PySide6" / "Qt" / "lib").mkdir(parents=True)
    (bundle / smoke.EXE_NAME).write_text("")
    (bundle / "_internal" / "PySide6" / "Qt" / "lib" / "libQt6WebEngineCore.so.6").write_text("")
    problems = "\n".join(smoke.check_contents(bundle))
    assert f"the command line {smoke.EXE_NAME.replace(APP, 'philont-memory')} is missing" in problems
    for name in smoke.NEEDED_PLATFORMS:
        assert f"platform plugin '{name}'" in problems
    assert "SVG image plugin" in problems
    assert "resources folder" in problems
    assert "libQt6WebEngineCore.so.6" in problems
