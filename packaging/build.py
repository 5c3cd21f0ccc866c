"""Build the desktop bundle: ``python packaging/build.py``.

Leaves ``dist/philont-desktop/`` with the executable ``philont-desktop`` (``philont-desktop.exe`` on
Windows; macOS also gets ``dist/philont-desktop.app``). Needs the ``package`` extra
(``python -m pip install -e '.[package]'``: PySide6, pyqtgraph and PyInstaller).

Steps: compile the Qt Linguist ``.ts`` files of ``resources/`` into ``.qm`` next to them (with
``pyside6-lrelease``, which PySide6-Essentials ships), run PyInstaller on ``packaging/philont-desktop.spec``
(work files in ``build/pyinstaller``), then print the build time and the bundle's size and write them to
``dist/philont-desktop-build.json``.

Options: ``--clean`` empties PyInstaller's cache first (slower, for a from-scratch build). ``--deb``
(Debian/Ubuntu) also packs the bundle into ``dist/philont-desktop_<version>_<arch>.deb``
(``packaging/deb.py``; staging tree in ``build/deb``); with ``--skip-bundle`` the bundle already in
``dist/philont-desktop/`` is packed as it is, without running PyInstaller again.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "packaging" / "philont-desktop.spec"
DIST = ROOT / "dist"
WORK = ROOT / "build" / "pyinstaller"
APP = "philont-desktop"
EXE_NAME = APP + (".exe" if sys.platform == "win32" else "")


class BuildError(RuntimeError):
    pass


def project_version() -> str:
    with open(ROOT / "pyproject.toml", "rb") as fh:
        return tomllib.load(fh)["project"]["version"]


def find_lrelease() -> list[str] | None:
    """``pyside6-lrelease`` on PATH, else the ``lrelease`` binary inside the PySide6 package, else Qt's."""
    found = shutil.which("pyside6-lrelease")
    if found:
        return [found]
    try:
        import PySide6

        base = Path(PySide6.__file__).parent
        for name in ("lrelease", "lrelease.exe", "Qt/bin/lrelease", "Qt/libexec/lrelease"):
            candidate = base / name
            if candidate.is_file() and os.access(candidate, os.X_OK):
                return [str(candidate)]
    except ImportError:
        pass
    for name in ("lrelease", "lrelease-qt6"):
        found = shutil.which(name)
        if found:
            return [found]
    return None


def compile_translations(resources: Path = ROOT / "resources") -> list[Path]:
    """Compile every ``resources/**/*.ts`` into the ``.qm`` beside it; returns the ``.qm`` files."""
    sources = sorted(resources.rglob("*.ts"))
    if not sources:
        return []
    tool = find_lrelease()
    if tool is None:
        raise BuildError(
            "translations exist but no lrelease tool was found; install PySide6-Essentials "
            "(it provides pyside6-lrelease)"
        )
    out = []
    for ts in sources:
        qm = ts.with_suffix(".qm")
        proc = subprocess.run([*tool, "-silent", str(ts), "-qm", str(qm)], capture_output=True, text=True)
        if proc.returncode != 0 or not qm.is_file():
            raise BuildError(f"lrelease failed on {ts}:\n{proc.stdout}{proc.stderr}")
        out.append(qm)
    return out


def tree_size(path: Path) -> tuple[int, int]:
    """(bytes, files) of a folder, not following symlinks."""
    total = files = 0
    for dirpath, _dirs, names in os.walk(path):
        for name in names:
            p = Path(dirpath, name)
            if p.is_symlink():
                continue
            total += p.stat().st_size
            files += 1
    return total, files


def run_pyinstaller(clean: bool = False) -> None:
    try:
        import PyInstaller  # noqa: F401
    except ImportError as exc:
        raise BuildError("PyInstaller is not installed: python -m pip install -e '.[package]'") from exc
    cmd = [
        sys.executable,
        "-m",
        "PyInstaller",
        "--noconfirm",
        "--log-level",
        "WARN",
        "--distpath",
        str(DIST),
        "--workpath",
        str(WORK),
        str(SPEC),
    ]
    if clean:
        cmd.insert(3, "--clean")
    proc = subprocess.run(cmd, cwd=ROOT)
    if proc.returncode != 0:
        raise BuildError(f"PyInstaller failed (exit code {proc.returncode})")


def strip_python_runtime(bundle: Path) -> int:
    """Strip debugging symbols from the bundled Python runtime on Linux; returns the bytes saved.

    Python builds such as pyenv's keep symbols in libpython (~17 MB) and in the standard library's
    extension modules (~7 MB). Only these files of the Python installation are stripped: the wheels'
    libraries (Qt, numpy) were rewritten by patchelf, which ``strip`` can damage, and come stripped.
    """
    tool = shutil.which("strip")
    if not sys.platform.startswith("linux") or tool is None:
        return 0
    internal = bundle / "_internal"
    files = [*internal.glob("libpython3*.so*"), *internal.glob("python3*/lib-dynload/*.so")]
    saved = 0
    for lib in sorted(files):
        if lib.is_symlink() or not lib.is_file():
            continue
        before = lib.stat().st_size
        if subprocess.run([tool, "--strip-unneeded", str(lib)], capture_output=True).returncode == 0:
            saved += before - lib.stat().st_size
    return saved


def build(clean: bool = False) -> dict:
    started = time.monotonic()
    qms = compile_translations()
    for qm in qms:
        print(f"compiled {qm.relative_to(ROOT)}")
    run_pyinstaller(clean=clean)
    bundle = DIST / APP
    exe = bundle / EXE_NAME
    if not exe.is_file():
        raise BuildError(f"the build finished but {exe} is missing")
    saved = strip_python_runtime(bundle)
    if saved:
        print(f"stripped {saved / 1048576:.1f} MiB of debugging symbols from the Python runtime")
    if sys.platform.startswith("linux"):
        shutil.copy2(ROOT / "packaging" / "install-linux.sh", bundle / "install-linux.sh")
    seconds = time.monotonic() - started
    size, files = tree_size(bundle)
    import PyInstaller

    info = {
        "version": project_version(),
        "platform": f"{platform.system()} {platform.machine()}",
        "python": platform.python_version(),
        "pyinstaller": PyInstaller.__version__,
        "build_seconds": round(seconds, 1),
        "bundle_bytes": size,
        "bundle_files": files,
        "executable": str(exe.relative_to(ROOT)),
    }
    (DIST / f"{APP}-build.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    return info


def build_deb() -> Path:
    """Pack ``dist/philont-desktop/`` into a ``.deb`` in ``dist/`` (see ``packaging/deb.py``)."""
    sys.path.insert(0, str(ROOT / "packaging"))
    import deb

    started = time.monotonic()
    try:
        out = deb.build_deb(DIST / APP, DIST, ROOT / "build" / "deb")
    except deb.DebError as exc:
        raise BuildError(str(exc)) from exc
    mib = out.stat().st_size / (1024 * 1024)
    print(f"built {out.relative_to(ROOT)} ({mib:.1f} MiB, {time.monotonic() - started:.1f} s)")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the philont-desktop one-folder bundle.")
    parser.add_argument("--clean", action="store_true", help="empty PyInstaller's cache first")
    parser.add_argument("--deb", action="store_true", help="also pack the bundle into a Debian package")
    parser.add_argument(
        "--skip-bundle", action="store_true", help="with --deb: pack the bundle already in dist/"
    )
    args = parser.parse_args(argv)
    if args.skip_bundle and not args.deb:
        parser.error("--skip-bundle goes with --deb")
    try:
        if not args.skip_bundle:
            info = build(clean=args.clean)
            mib = info["bundle_bytes"] / (1024 * 1024)
            print(f"built {info['executable']} (version {info['version']}, {info['platform']})")
            print(f"build time: {info['build_seconds']:.1f} s")
            print(f"bundle size: {mib:.1f} MiB in {info['bundle_files']} files ({DIST / APP})")
        if args.deb:
            build_deb()
    except BuildError as exc:
        print(f"build failed: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
