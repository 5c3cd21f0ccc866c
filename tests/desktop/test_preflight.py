"""Starting without a display, without Qt's system libraries or without PySide6: one clear message and a
non-zero exit, never Qt's SIGABRT."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from philont_desktop import preflight

ROOT = Path(__file__).resolve().parents[2]
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux display variables")


def _run(tmp_path: Path, env_changes: dict[str, str | None], *args: str, code: str | None = None):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    env["PHILONT_DESKTOP_SETTINGS_DIR"] = str(tmp_path / "settings")
    for k, v in env_changes.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    cmd = [sys.executable, "-c", code] if code else [sys.executable, "-m", "philont_desktop", *args]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path)


def _assert_clear_failure(p: subprocess.CompletedProcess) -> None:
    assert p.returncode == preflight.EXIT_CODE, (p.returncode, p.stderr)  # not -6 (SIGABRT)
    assert p.stderr.startswith(preflight.HEADLINE), p.stderr
    assert "Traceback" not in p.stderr
    assert "Reinstalling the application" not in p.stderr  # Qt's misleading advice is held back


def test_an_unknown_platform_is_named_with_the_known_ones(tmp_path):
    p = _run(tmp_path, {"QT_QPA_PLATFORM": "bogus", "DISPLAY": ":0"}, "--db", str(tmp_path / "none.sqlite"))
    _assert_clear_failure(p)
    assert "QT_QPA_PLATFORM='bogus'" in p.stderr and "offscreen" in p.stderr


@linux_only
def test_no_display_at_all_says_so_before_qt_starts(tmp_path):
    p = _run(
        tmp_path,
        {"QT_QPA_PLATFORM": None, "DISPLAY": None, "WAYLAND_DISPLAY": None},
        "--db",
        str(tmp_path / "none.sqlite"),
    )
    _assert_clear_failure(p)
    assert "no display" in p.stderr and "DISPLAY or WAYLAND_DISPLAY" in p.stderr


@linux_only
def test_an_x11_display_that_cannot_be_used_gets_a_message_not_an_abort(tmp_path):
    # Either the xcb plugin's libraries are missing on this machine (named, with the packages to
    # install), or they are there and the display :987 cannot be reached.
    p = _run(tmp_path, {"QT_QPA_PLATFORM": "xcb", "DISPLAY": ":987"}, "--db", str(tmp_path / "x.sqlite"))
    _assert_clear_failure(p)
    if "system library is missing" in p.stderr:
        assert "sudo apt install lib" in p.stderr and "sudo dnf install " in p.stderr
    else:
        assert "cannot connect to the display ':987'" in p.stderr


@linux_only
def test_a_batch_run_without_a_display_runs_offscreen(tmp_path):
    shots = tmp_path / "shots"
    p = _run(
        tmp_path,
        {"QT_QPA_PLATFORM": None, "DISPLAY": None, "WAYLAND_DISPLAY": None},
        "--db",
        str(tmp_path / "none.sqlite"),
        "--screenshot",
        str(shots),
    )
    assert p.returncode == 0, p.stderr
    assert (shots / "start.png").is_file()


def test_without_pyside6_the_gui_extra_is_named(tmp_path):
    code = (
        "import sys; sys.modules['PySide6'] = None\n"
        "from philont_desktop.app import main\n"
        "raise SystemExit(main(['--version']))"
    )
    p = _run(tmp_path, {}, code=code)
    _assert_clear_failure(p)
    assert "missing: PySide6" in p.stderr
    assert "pip install 'philont-desktop[gui]'" in p.stderr


def test_a_missing_system_library_is_named_with_its_packages(tmp_path):
    # A PySide6 whose Qt cannot load because libEGL is missing, as the dynamic loader says it.
    fake = tmp_path / "fake"
    (fake / "PySide6").mkdir(parents=True)
    (fake / "PySide6" / "__init__.py").write_text("__version__ = '6.0'\n", encoding="utf-8")
    (fake / "PySide6" / "QtCore.py").write_text(
        "raise ImportError('libEGL.so.1: cannot open shared object file: No such file or directory')\n",
        encoding="utf-8",
    )
    code = (
        f"import sys; sys.path.insert(0, {str(fake)!r})\n"
        "from philont_desktop.app import main\n"
        "raise SystemExit(main([]))"
    )
    p = _run(tmp_path, {"DISPLAY": ":0"}, code=code)
    _assert_clear_failure(p)
    assert "libEGL.so.1" in p.stderr
    assert "sudo apt install libegl1" in p.stderr and "sudo dnf install libglvnd-egl" in p.stderr


# -- the pieces, without a process --------------------------------------------------------------------------


def test_loader_messages_name_the_libraries():
    text = (
        "libxcb-cursor.so.0: cannot open shared object file: No such file or directory; "
        "libxkbcommon-x11.so.0: cannot open shared object file"
    )
    assert preflight.missing_libraries(text) == ["libxcb-cursor.so.0", "libxkbcommon-x11.so.0"]
    deb, rpm = preflight.packages_for(preflight.missing_libraries(text))
    assert deb == ["libxcb-cursor0", "libxkbcommon-x11-0"]
    assert rpm == ["xcb-util-cursor", "libxkbcommon-x11"]


def test_an_unknown_library_still_gets_the_usual_install_lines():
    lines = preflight.install_lines(["libnothing.so.3"])
    assert "sudo apt install libxcb-cursor0" in lines and "sudo dnf install xcb-util-cursor" in lines


@pytest.mark.parametrize(
    ("env", "problem"),
    [
        ({}, "startup.no_display"),
        ({"DISPLAY": ":0"}, None),
        ({"WAYLAND_DISPLAY": "wayland-0"}, None),
        ({"QT_QPA_PLATFORM": "xcb", "WAYLAND_DISPLAY": "wayland-0"}, "startup.no_display"),
        ({"QT_QPA_PLATFORM": "wayland", "DISPLAY": ":0"}, "startup.no_display"),
        ({"QT_QPA_PLATFORM": "offscreen"}, None),
        ({"QT_QPA_PLATFORM": "minimal"}, None),
    ],
)
def test_display_problem(env, problem):
    found = preflight.display_problem(env, system="linux")
    assert (found.code if found else None) == problem
    assert preflight.display_problem(env, system="win32") is None


def test_qt_fatal_messages_become_problems():
    unknown = preflight.fatal_problem(
        [
            'qt.qpa.plugin: Could not find the Qt platform plugin "nope" in ""',
            "This application failed to start because no Qt platform plugin could be initialized. "
            "Reinstalling the application may fix this problem.\n\n"
            "Available platform plugins are: minimal, offscreen, xcb.\n",
        ]
    )
    assert unknown.code == "startup.unknown_platform"
    assert unknown.params == {"platform": "nope", "known": "minimal, offscreen, xcb"}
    unreachable = preflight.fatal_problem(["qt.qpa.xcb: could not connect to display :5"])
    assert unreachable.code == "startup.display_unreachable"
    cursor = preflight.fatal_problem(
        [
            "qt.qpa.plugin: From 6.5.0, xcb-cursor0 or libxcb-cursor0 is needed to load the Qt xcb "
            "platform plugin.",
            'qt.qpa.plugin: Could not load the Qt platform plugin "nosuchplugin" in "" even though it was found.',
        ]
    )
    assert cursor.code == "startup.qt_libraries"
    assert "libxcb-cursor.so.0" in cursor.params["libraries"]
    assert "sudo apt install libxcb-cursor0" in cursor.message
