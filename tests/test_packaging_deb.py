"""The Debian package (``packaging/deb.py``): control file, dependencies, staging tree, maintainer
scripts, copyright and lintian overrides, checked without PyInstaller on a stand-in bundle.

The real package is built, linted, installed, run and purged by ``packaging/ci_deb.sh`` in CI.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import itertools
import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from philont_desktop import preflight

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
APP_ID = "io.philont.Desktop"
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
posix_only = pytest.mark.skipif(os.name != "posix", reason="Debian packages are built on Linux")


def load_deb():
    spec = importlib.util.spec_from_file_location("_philont_packaging_deb", PACKAGING / "deb.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def parse_control(text: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    key = ""
    for line in text.splitlines():
        if line.startswith(" "):
            fields[key] += "\n" + line
        else:
            key, _, value = line.partition(": ")
            fields[key] = value
    return fields


def fake_bundle(path: Path) -> Path:
    """A stand-in for dist/philont-desktop: both executables, a library, a data file, the user script."""
    (path / "_internal" / "resources").mkdir(parents=True)
    for name in ("philont-desktop", "philont-memory", "install-linux.sh"):
        (path / name).write_text("#!/bin/sh\nexit 0\n")
        (path / name).chmod(0o755)
    (path / "_internal" / "libQt6Core.so.6").write_bytes(b"\x7fELF")
    (path / "_internal" / "libQt6Core.so.6").chmod(0o755)  # as the wheels ship them
    (path / "_internal" / "resources" / "data.txt").write_text("data")
    (path / "_internal" / "resources" / "data.txt").chmod(0o600)
    return path


def test_debian_version_keeps_the_order_of_python_versions():
    deb = load_deb()
    assert deb.debian_version("0.1.0") == "0.1.0-1"
    assert deb.debian_version("1.2rc1") == "1.2~rc1-1"
    assert deb.debian_version("1.2.0b3") == "1.2.0~b3-1"
    assert deb.debian_version("1.2.dev4") == "1.2~~dev4-1"
    assert deb.debian_version("1.2.post1") == "1.2+post1-1"
    if shutil.which("dpkg"):
        ordered = ["1.2.dev4", "1.2a1", "1.2rc1.dev1", "1.2rc1", "1.2", "1.2.post1", "1.3"]
        versions = [deb.debian_version(v) for v in ordered]
        for low, high in itertools.pairwise(versions):
            proc = subprocess.run(["dpkg", "--compare-versions", low, "lt", high])
            assert proc.returncode == 0, (low, high)


def test_depends_are_the_libraries_the_preflight_names():
    deb = load_deb()
    depends = deb.depends("2.36")
    assert depends[0] == "libc6 (>= 2.36)"
    expected = list(dict.fromkeys(d for _so, d, _rpm in preflight.LIBRARIES))
    assert depends[1:] == expected
    # What the preflight suggests installing on a desktop-less system is among them.
    suggested, _rpm = preflight.packages_for(list(preflight.DEFAULT_LIBRARIES))
    assert set(suggested) <= set(depends)
    assert {"libxcb-cursor0", "libxcb-icccm4", "libegl1", "libxkbcommon-x11-0"} <= set(depends)
    assert deb.depends(None) == expected


def test_control_file_fields():
    deb = load_deb()
    text = deb.control("0.1.0-1", "amd64", 1234, ["libc6 (>= 2.36)", "libxcb1"], "a summary")
    fields = parse_control(text)
    assert fields["Package"] == "philont-desktop"
    assert fields["Version"] == "0.1.0-1"
    assert fields["Architecture"] == "amd64"
    assert fields["Installed-Size"] == "1234"
    assert fields["Depends"] == "libc6 (>= 2.36), libxcb1"
    assert re.fullmatch(r".+ <[^@\s]+@[^@\s]+>", fields["Maintainer"])
    assert fields["Section"] and fields["Priority"] == "optional"
    summary, *long = fields["Description"].split("\n")
    assert summary == "a summary" and long
    for line in long:
        assert line.startswith(" ") and len(line) <= 80, line
    assert text.endswith("\n") and "\n\n" not in text


@posix_only
def test_staging_tree_layout(tmp_path):
    deb = load_deb()
    root = tmp_path / "root"
    version = deb.stage(fake_bundle(tmp_path / "bundle"), root, "amd64", "2.36")
    assert version == deb.debian_version(VERSION)
    opt = root / "opt" / "philont-desktop"
    mode = lambda p: p.lstat().st_mode & 0o7777  # noqa: E731
    assert mode(opt / "philont-desktop") == mode(opt / "philont-memory") == 0o755
    assert mode(opt / "_internal" / "libQt6Core.so.6") == 0o644  # a library is not a program
    assert mode(opt / "_internal" / "resources" / "data.txt") == 0o644
    assert not (opt / "install-linux.sh").exists()  # the per-user installer has no place here
    for command in ("philont-desktop", "philont-memory"):
        link = root / "usr" / "bin" / command
        assert link.is_symlink() and os.readlink(link) == f"/opt/philont-desktop/{command}"
        page = root / "usr" / "share" / "man" / "man1" / f"{command}.1.gz"
        assert gzip.decompress(page.read_bytes()).startswith(b".TH ")
    share = root / "usr" / "share"
    entry = (share / "applications" / f"{APP_ID}.desktop").read_text(encoding="utf-8")
    assert re.search(r"^Exec=philont-desktop\b", entry, re.M)
    assert (share / "metainfo" / f"{APP_ID}.metainfo.xml").is_file()
    assert (share / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg").is_file()
    for size in deb.ICON_SIZES:
        assert (share / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png").is_file()
    doc = share / "doc" / "philont-desktop"
    assert (doc / "copyright").read_text(encoding="utf-8") == deb.copyright_text()
    changelog = gzip.decompress((doc / "changelog.Debian.gz").read_bytes()).decode()
    assert changelog.startswith(f"philont-desktop ({version}) unstable; urgency=medium\n")
    assert (share / "lintian" / "overrides" / "philont-desktop").is_file()
    every_dir = [p for p in root.rglob("*") if p.is_dir() and not p.is_symlink()]
    assert all(mode(d) == 0o755 for d in every_dir), [d for d in every_dir if mode(d) != 0o755]

    fields = parse_control((root / "DEBIAN" / "control").read_text(encoding="utf-8"))
    assert fields["Version"] == version and fields["Architecture"] == "amd64"
    assert fields["Depends"].split(", ") == deb.depends("2.36")
    assert int(fields["Installed-Size"]) == deb.installed_size(root) > 0
    sums = dict(
        reversed(line.split("  ", 1)) for line in (root / "DEBIAN" / "md5sums").read_text().splitlines()
    )
    files = [p for p in root.rglob("*") if p.is_file() and not p.is_symlink() and "DEBIAN" not in p.parts]
    assert sorted(sums) == sorted(p.relative_to(root).as_posix() for p in files)
    assert sums["opt/philont-desktop/philont-memory"] == hashlib.md5(b"#!/bin/sh\nexit 0\n").hexdigest()
    for script in ("postinst", "postrm"):
        assert mode(root / "DEBIAN" / script) == 0o755


def test_installed_size_counts_kib_per_file_and_one_per_directory_and_link(tmp_path):
    deb = load_deb()
    (tmp_path / "DEBIAN").mkdir()
    (tmp_path / "DEBIAN" / "control").write_bytes(b"x" * 5000)  # not counted
    (tmp_path / "usr" / "bin").mkdir(parents=True)
    (tmp_path / "usr" / "a").write_bytes(b"x" * 1025)  # 2 KiB
    (tmp_path / "usr" / "b").write_bytes(b"")  # 0 KiB
    if os.name == "posix":
        (tmp_path / "usr" / "bin" / "c").symlink_to("/opt/x")  # 1
    links = 1 if os.name == "posix" else 0
    assert deb.installed_size(tmp_path) == 2 + 2 + links  # usr, usr/bin, the files, the link


def run_script(text: str, tmp_path: Path, arg: str, tools: bool) -> tuple[int, list[str]]:
    """Run a maintainer script with stand-ins for the cache tools (or without them on the PATH)."""
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    log = tmp_path / "calls.log"
    log.write_text("")
    for name in ("update-desktop-database", "gtk-update-icon-cache"):
        stub = bindir / name
        stub.unlink(missing_ok=True)
        if tools:
            stub.write_text(f'#!/bin/sh\necho "{name} $*" >> "{log}"\n')
            stub.chmod(0o755)
    script = tmp_path / "script"
    script.write_text(text)
    script.chmod(0o755)
    # Only the stand-ins on the PATH: the script needs nothing but the shell's built-ins.
    proc = subprocess.run(
        [shutil.which("sh"), str(script), arg], env={"PATH": str(bindir)}, capture_output=True, text=True
    )
    return proc.returncode, log.read_text().splitlines()


@posix_only
def test_maintainer_scripts_refresh_the_caches_only_when_the_tools_exist(tmp_path):
    deb = load_deb()
    index_theme = Path("/usr/share/icons/hicolor/index.theme").is_file()
    for name, script, acts, ignores in (
        ("postinst", deb.postinst(), ["configure"], ["triggered"]),
        ("postrm", deb.postrm(), ["remove", "purge"], ["upgrade", "failed-upgrade"]),
    ):
        assert script.startswith("#!/bin/sh\nset -e\n"), name
        assert script.rstrip().endswith("exit 0"), name
        for arg in acts:
            code, calls = run_script(script, tmp_path, arg, tools=True)
            assert code == 0, (name, arg)
            assert calls[0] == "update-desktop-database -q /usr/share/applications", (name, arg)
            # The icon cache only where the hicolor theme is installed: else it would leave a file no
            # package owns.
            icon = ["gtk-update-icon-cache -q -t -f /usr/share/icons/hicolor"] if index_theme else []
            assert calls[1:] == icon, (name, arg)
            assert run_script(script, tmp_path, arg, tools=False) == (0, []), (name, arg)
        for arg in ignores:
            assert run_script(script, tmp_path, arg, tools=True) == (0, []), (name, arg)


def test_copyright_is_machine_readable_and_defines_every_license():
    text = (PACKAGING / "debian" / "copyright").read_text(encoding="utf-8")
    paragraphs = [p for p in text.split("\n\n") if p.strip()]
    assert paragraphs[0].startswith(
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
    )
    assert "Upstream-Name: philont-desktop" in paragraphs[0]
    files = [p for p in paragraphs if p.startswith("Files:")]
    assert files[0].startswith("Files: *\n") and "License: Expat" in files[0]  # the project: MIT
    used = {re.search(r"^License: (\S+)", p, re.M).group(1) for p in files}
    stand_alone = {p.split("\n")[0].removeprefix("License: ") for p in paragraphs if p.startswith("License:")}
    with_text = {
        re.search(r"^License: (\S+)", p, re.M).group(1)
        for p in files
        if re.search(r"^License: .+\n ", p, re.M)
    }
    assert used <= stand_alone | with_text, used - stand_alone - with_text


def test_every_lintian_override_says_why():
    lines = (PACKAGING / "debian" / "lintian-overrides").read_text(encoding="utf-8").splitlines()
    overrides = [i for i, line in enumerate(lines) if line and not line.startswith("#")]
    assert overrides
    for i in overrides:
        assert lines[i].startswith("philont-desktop: "), lines[i]
        above = i - 1
        while above >= 0 and lines[above] and not lines[above].startswith("#"):
            above -= 1  # overrides grouped under one reason
        assert above >= 0 and lines[above].startswith("# "), f"no reason above: {lines[i]}"


def test_build_takes_deb_options():
    spec = importlib.util.spec_from_file_location("_philont_packaging_build", PACKAGING / "build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    with pytest.raises(SystemExit) as exc:
        build.main(["--skip-bundle"])
    assert exc.value.code == 2


@posix_only
def test_ci_deb_script_is_valid_and_wired_into_ci():
    for name in ("ci_deb.sh", "ci_smoke.sh"):
        proc = subprocess.run(["bash", "-n", str(PACKAGING / name)], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert run.index("packaging/ci_smoke.sh") < run.index("packaging/ci_deb.sh")
