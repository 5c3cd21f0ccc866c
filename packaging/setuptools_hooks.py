"""Build hook that puts the top-level ``resources/`` folder into the wheel.

pyproject.toml names it (``[tool.setuptools.cmdclass] build_py = "packaging.setuptools_hooks.BuildPy"``).
``resources/`` stays the single source in the repository; a wheel gets a copy as
``philont_desktop/_resources`` (package data), where :func:`philont_desktop.resources.resources_dir`
finds it after installation. Qt Linguist sources (``.ts``) are compiled to ``.qm`` catalogues on the way
when ``pyside6-lrelease`` (or ``lrelease``) is available; an up-to-date ``.qm`` already next to its
``.ts`` is copied as is. Editable installs copy nothing: they read ``resources/`` in place.

The sdist carries ``resources/`` and this file too, so a wheel can be built from it.

This file is loaded by setuptools from its path; it must not import anything from the project.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from pathlib import Path

from setuptools.command.build_py import build_py as _build_py

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "resources"
TARGET = ("philont_desktop", "_resources")
SKIP_DIRS = {"__pycache__"}
SKIP_NAMES = {".DS_Store", "Thumbs.db"}
# .ts: the compiled .qm goes in instead; .ico/.icns: only the PyInstaller build uses them.
SKIP_SUFFIXES = {".ts", ".tmp", ".pyc", ".ico", ".icns"}


def lrelease_command() -> list[str] | None:
    """The Qt Linguist release tool found on this machine, or None."""
    for name in ("pyside6-lrelease", "lrelease", "lrelease-qt6"):
        found = shutil.which(name)
        if found:
            return [found]
    return None


def resource_files(source: Path = SOURCE) -> list[Path]:
    """Every file of ``resources/`` that belongs in a build, relative to ``source``, sorted."""
    out = []
    for dirpath, dirnames, filenames in os.walk(source):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for name in filenames:
            path = Path(dirpath, name)
            if name in SKIP_NAMES or name.startswith(".") or path.suffix in SKIP_SUFFIXES:
                continue
            out.append(path.relative_to(source))
    return sorted(out)


def _tool_env() -> dict[str, str]:
    """The environment for an external tool: without the isolated build environment's Python paths.

    pip builds a wheel with ``PYTHONPATH``/``PYTHONNOUSERSITE`` pointing at a private environment; a
    ``pyside6-lrelease`` script found on PATH belongs to the machine's Python and needs its own
    site-packages (where PySide6 is) to start.
    """
    env = dict(os.environ)
    for var in ("PYTHONPATH", "PYTHONNOUSERSITE", "PYTHONHOME", "PYTHONSAFEPATH"):
        env.pop(var, None)
    return env


def compile_translations(source: Path, dest: Path, log=print) -> list[Path]:
    """Compile each ``source/**/*.ts`` into ``dest`` (same relative path, ``.qm``); returns the files made.

    A ``.qm`` next to its ``.ts`` that is newer is copied instead (built earlier by packaging/build.py).
    Without a release tool the catalogue is skipped with a warning: the application then runs in English.
    """
    made = []
    tool = None
    for ts in sorted(source.rglob("*.ts")):
        rel = ts.relative_to(source).with_suffix(".qm")
        out = dest / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        beside = ts.with_suffix(".qm")
        if beside.is_file() and beside.stat().st_mtime >= ts.stat().st_mtime:
            shutil.copyfile(beside, out)
            made.append(out)
            continue
        tool = tool or lrelease_command()
        if tool is None:
            log(f"warning: no lrelease tool found; {ts.name} is not compiled (the UI falls back to English)")
            continue
        proc = subprocess.run(
            [*tool, "-silent", str(ts), "-qm", str(out)], capture_output=True, text=True, env=_tool_env()
        )
        if proc.returncode != 0 or not out.is_file():
            # An lrelease found on PATH may belong to another Python (an isolated build environment
            # has no PySide6). The app compiles the catalogue at run time then, or stays in English.
            detail = (proc.stderr.strip() or proc.stdout.strip()).splitlines()[-1:] or ["no output"]
            log(f"warning: lrelease failed on {ts.name} ({detail[0]}); it is not compiled into this build")
            with contextlib.suppress(OSError):
                out.unlink()
            continue
        made.append(out)
    return made


class BuildPy(_build_py):
    """``build_py`` that also copies ``resources/`` into ``philont_desktop/_resources``."""

    def _resources_target(self) -> Path:
        return Path(self.build_lib, *TARGET)

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False) or not SOURCE.is_dir():
            return
        target = self._resources_target()
        if target.exists():
            shutil.rmtree(target)
        for rel in resource_files():
            out = target / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(SOURCE / rel, out)
        compile_translations(SOURCE, target, log=lambda msg: self.announce(msg, level=3))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = list(super().get_outputs(include_bytecode))
        if getattr(self, "editable_mode", False) or not SOURCE.is_dir():
            return outputs
        target = self._resources_target()
        outputs += [str(target / rel) for rel in resource_files()]
        return outputs

    def get_source_files(self) -> list[str]:
        files = list(super().get_source_files())
        if SOURCE.is_dir():
            rels = [
                Path(dirpath, name).relative_to(ROOT)
                for dirpath, _dirs, names in os.walk(SOURCE)
                for name in names
                if "__pycache__" not in dirpath and Path(name).suffix not in {".qm", ".pyc", ".tmp"}
            ]
            files += sorted(str(p) for p in rels)
        files.append(str(Path(__file__).resolve().relative_to(ROOT)))
        return files
