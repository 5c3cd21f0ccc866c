"""Smoke-test the built bundle: ``python packaging/smoke.py`` (after ``python packaging/build.py``).

Checks, in order, and exits non-zero with a clear message on the first class of failure:

1. the bundle holds what it needs: the executable and the command line ``philont-memory``, the platform
   plugins of this system (``offscreen`` always; ``xcb`` on Linux, ``windows`` on Windows, ``cocoa`` on
   macOS), Qt's SVG image plugin (icons),
   the resources (app icon, UI icons, compiled catalogues for every ``.ts``), and none of the Qt modules
   the application does not use (WebEngine, Quick/QML, Multimedia, 3D, ...);
2. ``philont-desktop --version`` and ``philont-memory --version`` exit 0 and print the package version;
3. on a small demo database made with :mod:`core.demo`, ``philont-desktop --self-test --db DB`` with
   ``QT_QPA_PLATFORM=offscreen`` exits 0 within the timeout (it opens every tab, runs a search, renders
   a plot).

The bundle runs from a temporary folder with a private HOME, so neither the repository nor the user's
settings can leak in.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP = "philont-desktop"

CLI = "philont-memory"
if sys.platform == "win32":
    EXE_NAME, PLUGIN = f"{APP}.exe", "q{}.dll"
    NEEDED_PLATFORMS = ("offscreen", "windows")
elif sys.platform == "darwin":
    EXE_NAME, PLUGIN = APP, "libq{}.dylib"
    NEEDED_PLATFORMS = ("offscreen", "cocoa")
else:
    EXE_NAME, PLUGIN = APP, "libq{}.so"
    NEEDED_PLATFORMS = ("offscreen", "xcb")

# Qt parts that must not be in the bundle (the spec leaves them out).
UNWANTED = re.compile(
    r"Qt6?(WebEngine|Quick|Qml|Multimedia|3D|Pdf|Designer|Charts|Graphs|DataVisualization|VirtualKeyboard)",
    re.IGNORECASE,
)


class SmokeFailure(Exception):
    pass


def project_version() -> str:
    with open(ROOT / "pyproject.toml", "rb") as fh:
        return tomllib.load(fh)["project"]["version"]


def find_plugin(bundle: Path, kind: str, name: str) -> Path | None:
    filename = PLUGIN.format(name)
    for path in bundle.rglob(filename):
        if path.parent.name == kind:
            return path
    return None


def check_contents(bundle: Path) -> list[str]:
    """Problems with the bundle's files (empty when fine)."""
    problems = []
    exe = bundle / EXE_NAME
    if not exe.is_file():
        return [f"the executable {exe} is missing: run `python packaging/build.py` first"]
    cli = exe.with_name(EXE_NAME.replace(APP, CLI))
    if not cli.is_file():
        problems.append(f"the command line {cli.name} is missing from the bundle")
    for name in NEEDED_PLATFORMS:
        if find_plugin(bundle, "platforms", name) is None:
            problems.append(f"the Qt platform plugin '{name}' ({PLUGIN.format(name)}) is not in the bundle")
    if find_plugin(bundle, "imageformats", "svg") is None:
        problems.append(
            f"Qt's SVG image plugin ({PLUGIN.format('svg')}) is not in the bundle: icons would be blank"
        )
    res = next((p for p in bundle.rglob("resources") if (p / "icons" / f"{APP}.svg").is_file()), None)
    if res is None:
        problems.append("the resources folder (icons) is not in the bundle")
    else:
        if not list((res / "icons" / "ui").glob("*.svg")):
            problems.append(f"no UI icons in {res / 'icons' / 'ui'}")
        for ts in sorted((ROOT / "resources").rglob("*.ts")):
            rel = ts.relative_to(ROOT / "resources").with_suffix(".qm")
            if not (res / rel).is_file():
                problems.append(f"the compiled catalogue {rel} is not in the bundle")
    unwanted = sorted({p.name for p in bundle.rglob("*") if p.is_file() and UNWANTED.search(p.name)})
    if unwanted:
        problems.append(
            "Qt modules the application does not use are in the bundle: " + ", ".join(unwanted[:10])
        )
    return problems


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "QT_", "MEMORY_DB"))}
    env["QT_QPA_PLATFORM"] = "offscreen"
    env["HOME"] = str(home)
    env["USERPROFILE"] = str(home)
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"):
        d = home / var.lower()
        d.mkdir(mode=0o700, exist_ok=True)
        env[var] = str(d)
    env["PHILONT_DESKTOP_SETTINGS_DIR"] = str(home / "settings")
    return env


def run(cmd: list[str], env: dict[str, str], cwd: Path, timeout: float) -> tuple[int, str, float]:
    """Run ``cmd``; returns (exit code, combined output, seconds). Kills the whole group on timeout."""
    started = time.monotonic()
    kwargs: dict = {"start_new_session": True} if os.name == "posix" else {}
    proc = subprocess.Popen(
        cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kwargs
    )
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
        out, _ = proc.communicate()
        raise SmokeFailure(
            f"`{' '.join(cmd[1:])}` did not finish within {timeout:.0f} s; its output:\n{_tail(out)}"
        ) from None
    return proc.returncode, out or "", time.monotonic() - started


def _tail(text: str, lines: int = 40) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])


def make_demo_db(path: Path, messages: int) -> None:
    sys.path.insert(0, str(ROOT))
    try:
        from core import demo
    except ImportError as exc:
        raise SmokeFailure(f"cannot make the demo database: core.demo is not importable ({exc})") from exc
    demo.generate(path, messages=messages, seed=1)
    if not path.is_file():
        raise SmokeFailure(f"core.demo.generate did not create {path}")


def smoke(bundle: Path, timeout: float, messages: int) -> list[str]:
    """Run every check; returns the names of those that passed. Raises SmokeFailure on the first failure."""
    passed = []
    problems = check_contents(bundle)
    if problems:
        raise SmokeFailure("bundle contents:\n  - " + "\n  - ".join(problems))
    passed.append("contents")
    print(f"ok: bundle contents ({', '.join(NEEDED_PLATFORMS)} platform plugins, svg plugin, resources)")

    exe = str((bundle / EXE_NAME).resolve())
    with tempfile.TemporaryDirectory(prefix="philont-smoke-") as tmp:
        tmp_path = Path(tmp)
        home = tmp_path / "home"
        home.mkdir(mode=0o700)
        env = _env(home)

        version = project_version()
        code, out, secs = run([exe, "--version"], env, tmp_path, timeout=min(timeout, 60))
        if code != 0:
            raise SmokeFailure(f"`--version` exited with {code}:\n{_tail(out)}")
        if version not in out:
            raise SmokeFailure(f"`--version` printed {out.strip()!r}, which lacks the version {version}")
        passed.append("version")
        print(f"ok: --version -> {out.strip().splitlines()[0] if out.strip() else ''} ({secs:.1f} s)")
        cli = str((bundle / EXE_NAME.replace(APP, CLI)).resolve())
        code, out, secs = run([cli, "--version"], env, tmp_path, timeout=min(timeout, 60))
        if code != 0 or out.strip() != f"{CLI} {version}":
            raise SmokeFailure(f"`{CLI} --version` exited with {code} and printed:\n{_tail(out)}")
        passed.append("cli-version")
        print(f"ok: {CLI} --version -> {out.strip()} ({secs:.1f} s)")

        db = tmp_path / "demo" / "memory.sqlite"
        db.parent.mkdir(mode=0o700)
        make_demo_db(db, messages)
        code, out, secs = run([exe, "--self-test", "--db", str(db)], env, tmp_path, timeout=timeout)
        if code != 0:
            raise SmokeFailure(f"`--self-test --db DEMO` exited with {code}:\n{_tail(out)}")
        passed.append("self-test")
        last = out.strip().splitlines()[-1] if out.strip() else "no output"
        print(f"ok: --self-test on a demo database of {messages} messages: {last} ({secs:.1f} s, offscreen)")
    return passed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Smoke-test the built philont-desktop bundle.")
    parser.add_argument("--bundle", type=Path, default=ROOT / "dist" / APP, help="the one-folder bundle")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds allowed for the self-test")
    parser.add_argument("--messages", type=int, default=2000, help="messages in the demo database")
    args = parser.parse_args(argv)
    started = time.monotonic()
    try:
        passed = smoke(args.bundle, args.timeout, args.messages)
    except SmokeFailure as exc:
        print(f"SMOKE TEST FAILED: {exc}", file=sys.stderr)
        return 1
    print(f"bundle smoke took {time.monotonic() - started:.1f} s")
    print(f"smoke: {len(passed)} passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
