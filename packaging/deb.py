"""The Debian package of the Linux bundle: ``python packaging/build.py --deb``.

From the one-folder bundle ``dist/philont-desktop/`` a staging tree is laid out and packed with
``dpkg-deb --build --root-owner-group`` (no debhelper) into
``dist/philont-desktop_<version>_<arch>.deb``:

- ``/opt/philont-desktop/``: the bundle (both executables, ``_internal/``);
- ``/usr/bin/philont-desktop`` and ``/usr/bin/philont-memory``: symbolic links to the executables;
- ``/usr/share/applications/io.philont.Desktop.desktop``, the hicolor icons (PNG of every size and the
  scalable SVG) and ``/usr/share/metainfo/io.philont.Desktop.metainfo.xml``;
- ``/usr/share/doc/philont-desktop/``: ``copyright`` and ``changelog.Debian.gz``; the manual pages of
  both commands; the lintian overrides (``packaging/debian/lintian-overrides``, each with its reason)
  in ``/usr/share/lintian/overrides/``;
- ``DEBIAN/``: ``control`` (version from ``pyproject.toml``, architecture from ``dpkg
  --print-architecture``, ``Depends`` on the system libraries the start-up preflight names, the
  ``Installed-Size``), ``md5sums``, and ``postinst``/``postrm`` that refresh the desktop and icon caches.

The functions that make text (control file, maintainer scripts, copyright, changelog) and the staging
tree are separate from the call of ``dpkg-deb`` so that tests can check them without a bundle.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tomllib
from datetime import UTC, datetime
from email.utils import format_datetime
from pathlib import Path
from xml.etree import ElementTree as ET

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
PACKAGE = "philont-desktop"
APP_ID = "io.philont.Desktop"
COMMANDS = ("philont-desktop", "philont-memory")
PREFIX = "/opt/philont-desktop"
DEB_REVISION = "1"  # the packaging's own revision: raise it for a new package of the same version
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
MAINTAINER = "Philont maintainers <maintainers@philont.io>"
HOMEPAGE = "https://philont.io"
# Files of the bundle that belong to the per-user install, not to the system package.
BUNDLE_SKIP = ("install-linux.sh",)


class DebError(RuntimeError):
    pass


# -- versions and fields --------------------------------------------------------------------------------


def project() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as fh:
        return tomllib.load(fh)["project"]


def debian_version(version: str, revision: str = DEB_REVISION) -> str:
    """A PEP 440 version as a Debian version: pre-releases sort before the release (``1.0rc1`` ->
    ``1.0~rc1-1``), development releases before those (``~~dev``), post-releases after (``+post``)."""
    v = re.sub(r"\.?(dev)(\d*)", r"~~\1\2", version)
    v = re.sub(r"(?<=\d)\.?(a|b|rc)(\d*)", r"~\1\2", v)
    v = re.sub(r"\.?(post)(\d*)", r"+\1\2", v)
    return f"{v}-{revision}"


def host_arch() -> str:
    """The Debian architecture of this machine (the bundle holds this machine's binaries)."""
    try:
        out = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        raise DebError("dpkg --print-architecture failed: a .deb is built on Debian or Ubuntu") from exc
    return out.stdout.strip()


def glibc_version() -> str | None:
    """The C library version of the build machine: the bundle needs this one or newer."""
    found = re.fullmatch(r"glibc (\d+\.\d+)", os.confstr("CS_GNU_LIBC_VERSION") or "")
    return found.group(1) if found else None


def preflight_packages() -> list[str]:
    """The Debian packages of the system libraries the start-up preflight names, in its order."""
    sys.path.insert(0, str(ROOT))
    try:
        from philont_desktop.preflight import LIBRARIES
    finally:
        sys.path.remove(str(ROOT))
    return list(dict.fromkeys(deb for _so, deb, _rpm in LIBRARIES))


def depends(glibc: str | None) -> list[str]:
    libc = [f"libc6 (>= {glibc})"] if glibc else []
    return libc + preflight_packages()


def control(version: str, arch: str, installed_kib: int, depends: list[str], summary: str) -> str:
    """The text of ``DEBIAN/control``."""
    fields = [
        ("Package", PACKAGE),
        ("Version", version),
        ("Architecture", arch),
        ("Maintainer", os.environ.get("PHILONT_DEB_MAINTAINER", MAINTAINER)),
        ("Installed-Size", str(installed_kib)),
        ("Depends", ", ".join(depends)),
        ("Section", "utils"),
        ("Priority", "optional"),
        ("Homepage", HOMEPAGE),
        ("Description", summary),
    ]
    long = (
        "Philont keeps its long-term memory in one SQLite file. This package installs\n"
        "the desktop application that reads it safely while the agent runs (timeline,\n"
        "action log, notes, facts, skills; English and Simplified Chinese), and the\n"
        "philont-memory command line.\n"
        ".\n"
        "The application is a self-contained bundle (Python, Qt and the libraries\n"
        f"they need) in {PREFIX}; it uses the system's X11/Wayland, EGL and\n"
        "font libraries."
    )
    text = "".join(f"{k}: {v}\n" for k, v in fields)
    return text + "".join(f" {line}\n" for line in long.splitlines())


# -- maintainer scripts ---------------------------------------------------------------------------------

_CACHES = """\
refresh_caches() {
\tif command -v update-desktop-database >/dev/null 2>&1; then
\t\tupdate-desktop-database -q /usr/share/applications || true
\tfi
\tif command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f /usr/share/icons/hicolor/index.theme ]; then
\t\tgtk-update-icon-cache -q -t -f /usr/share/icons/hicolor || true
\tfi
}
"""


def postinst() -> str:
    return (
        "#!/bin/sh\nset -e\n\n" + _CACHES + '\ncase "$1" in\n'
        "\tconfigure|abort-upgrade|abort-deconfigure|abort-remove)\n\t\trefresh_caches\n\t\t;;\n"
        "esac\n\nexit 0\n"
    )


def postrm() -> str:
    return (
        "#!/bin/sh\nset -e\n\n" + _CACHES + '\ncase "$1" in\n'
        "\tremove|purge|abort-install|abort-upgrade|disappear)\n\t\trefresh_caches\n\t\t;;\n"
        "esac\n\nexit 0\n"
    )


# -- documentation ---------------------------------------------------------------------------------------


def release_date(version: str) -> datetime:
    """The date of ``version`` in the AppStream metainfo (so the changelog is the same on every build)."""
    root = ET.parse(PACKAGING / "linux" / f"{APP_ID}.metainfo.xml").getroot()
    for release in root.findall("releases/release"):
        if release.get("version") == version and release.get("date"):
            return datetime.strptime(release.get("date"), "%Y-%m-%d").replace(tzinfo=UTC)
    return datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


def changelog(deb_version: str, upstream: str) -> str:
    maintainer = os.environ.get("PHILONT_DEB_MAINTAINER", MAINTAINER)
    when = format_datetime(release_date(upstream))
    return (
        f"{PACKAGE} ({deb_version}) unstable; urgency=medium\n\n"
        f"  * Package of the philont-desktop {upstream} bundle.\n\n"
        f" -- {maintainer}  {when}\n"
    )


def copyright_text() -> str:
    return (PACKAGING / "debian" / "copyright").read_text(encoding="utf-8")


# -- the staging tree ------------------------------------------------------------------------------------


def _write(path: Path, text: str | bytes, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    path.chmod(mode)


SHARED_OBJECT = re.compile(r"\.so(\.[\d.]+)?$")


def file_mode(path: Path) -> int:
    """0755 for programs (executable by their owner), 0644 for shared libraries and everything else."""
    if SHARED_OBJECT.search(path.name):
        return 0o644
    return 0o755 if path.stat().st_mode & 0o100 else 0o644


def copy_bundle(bundle: Path, dest: Path) -> None:
    """The bundle under ``dest``: directories 0755, files as :func:`file_mode` says."""
    shutil.copytree(bundle, dest, symlinks=True, ignore=shutil.ignore_patterns(*BUNDLE_SKIP))
    for dirpath, dirs, files in os.walk(dest):
        for name in dirs:
            Path(dirpath, name).chmod(0o755)
        for name in files:
            p = Path(dirpath, name)
            if not p.is_symlink():
                p.chmod(file_mode(p))
    dest.chmod(0o755)


def desktop_files(root: Path, resources: Path = ROOT / "resources") -> None:
    """The desktop entry, icons and AppStream metainfo under ``root/usr/share``."""
    share = root / "usr" / "share"
    linux = PACKAGING / "linux"
    _write(share / "applications" / f"{APP_ID}.desktop", (linux / f"{APP_ID}.desktop").read_bytes())
    _write(share / "metainfo" / f"{APP_ID}.metainfo.xml", (linux / f"{APP_ID}.metainfo.xml").read_bytes())
    icons = resources / "icons"
    hicolor = share / "icons" / "hicolor"
    _write(hicolor / "scalable" / "apps" / f"{APP_ID}.svg", (icons / f"{PACKAGE}.svg").read_bytes())
    for size in ICON_SIZES:
        png = (icons / f"{PACKAGE}-{size}.png").read_bytes()
        _write(hicolor / f"{size}x{size}" / "apps" / f"{APP_ID}.png", png)


def doc_files(root: Path, deb_version: str, upstream: str) -> None:
    share = root / "usr" / "share"
    doc = share / "doc" / PACKAGE
    _write(doc / "copyright", copyright_text())
    packed = gzip.compress(changelog(deb_version, upstream).encode("utf-8"), compresslevel=9, mtime=0)
    _write(doc / "changelog.Debian.gz", packed)
    overrides = (PACKAGING / "debian" / "lintian-overrides").read_bytes()
    _write(share / "lintian" / "overrides" / PACKAGE, overrides)
    for command in COMMANDS:
        page = (PACKAGING / "debian" / f"{command}.1").read_bytes()
        _write(share / "man" / "man1" / f"{command}.1.gz", gzip.compress(page, compresslevel=9, mtime=0))


def installed_size(root: Path) -> int:
    """Installed-Size in KiB, counted as dpkg-gencontrol does: each file rounded up to a KiB, plus one
    KiB for every directory and symbolic link (``DEBIAN/`` not counted)."""
    total = 0
    for dirpath, dirs, files in os.walk(root):
        rel = Path(dirpath).relative_to(root)
        if rel.parts[:1] == ("DEBIAN",):
            continue
        for name in dirs + files:
            p = Path(dirpath, name)
            if rel == Path(".") and name == "DEBIAN":
                continue
            if p.is_symlink() or p.is_dir():
                total += 1
            else:
                total += (p.stat().st_size + 1023) // 1024
    return total


def md5sums(root: Path) -> str:
    lines = []
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root)
        if rel.parts[0] == "DEBIAN" or p.is_symlink() or not p.is_file():
            continue
        lines.append(f"{hashlib.md5(p.read_bytes()).hexdigest()}  {rel.as_posix()}\n")
    return "".join(lines)


def stage(bundle: Path, root: Path, arch: str, glibc: str | None) -> str:
    """Lay out the package's tree in ``root`` (which must not exist); returns the Debian version."""
    meta = project()
    version = debian_version(meta["version"])
    copy_bundle(bundle, root / PREFIX.lstrip("/"))
    bindir = root / "usr" / "bin"
    bindir.mkdir(parents=True)
    for command in COMMANDS:
        (bindir / command).symlink_to(f"{PREFIX}/{command}")
    desktop_files(root)
    doc_files(root, version, meta["version"])
    for d in [root / "usr", *(p for p in (root / "usr").rglob("*") if p.is_dir() and not p.is_symlink())]:
        d.chmod(0o755)
    summary = "inspector and curation tool for the Philont agent's memory"
    size = installed_size(root)
    debian = root / "DEBIAN"
    debian.mkdir(mode=0o755)
    _write(debian / "control", control(version, arch, size, depends(glibc), summary))
    _write(debian / "md5sums", md5sums(root))
    _write(debian / "postinst", postinst(), 0o755)
    _write(debian / "postrm", postrm(), 0o755)
    return version


def deb_name(version: str, arch: str) -> str:
    return f"{PACKAGE}_{version}_{arch}.deb"


def build_deb(bundle: Path, out_dir: Path, work: Path) -> Path:
    """Stage the bundle in ``work`` and pack it with dpkg-deb; returns the ``.deb``."""
    for command in COMMANDS:
        if not (bundle / command).is_file():
            raise DebError(
                f"{bundle / command} is missing: build the bundle first (python packaging/build.py)"
            )
    if shutil.which("dpkg-deb") is None:
        raise DebError("dpkg-deb is not installed (apt-get install dpkg-dev)")
    if work.exists():
        shutil.rmtree(work)
    root = work / "root"
    arch = host_arch()
    old_umask = os.umask(0o022)
    try:
        version = stage(bundle, root, arch, glibc_version())
    finally:
        os.umask(old_umask)
    out = out_dir / deb_name(version, arch)
    # gzip: several times faster to pack than xz for a package a quarter larger
    cmd = ["dpkg-deb", "--build", "--root-owner-group", "-Zgzip", str(root), str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise DebError(f"dpkg-deb failed:\n{proc.stdout}{proc.stderr}")
    return out
