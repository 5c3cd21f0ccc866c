"""Render the application icon set from its SVG source.

    python packaging/make_icons.py            # writes into resources/icons/
    python packaging/make_icons.py --out DIR  # writes somewhere else (tests)

From ``resources/icons/philont-desktop.svg`` (and ``philont-desktop-small.svg``, a simplified drawing used
for the sizes of 32 px and below, where thin details would blur) it writes:

- ``philont-desktop-<N>.png`` for N in 16, 24, 32, 48, 64, 128, 256, 512;
- ``philont-desktop.ico`` (Windows: PNG-compressed entries of 16 to 256 px);
- ``philont-desktop.icns`` (macOS: PNG entries of 16 to 1024 px, including the @2x types).

Rendering uses Qt's own SVG renderer (QtSvg ships with PySide6-Essentials); the ICO and ICNS containers
are simple enough to write here, so no imaging library is needed. Files are only rewritten when their
bytes change, so re-running the script leaves a clean git tree.
"""

from __future__ import annotations

import argparse
import os
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ICONS = ROOT / "resources" / "icons"
NAME = "philont-desktop"

PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# (type code, pixel size). The ic11-ic14 codes are the @2x variants of 16, 32, 128 and 256 pt.
ICNS_TYPES = (
    (b"icp4", 16),
    (b"icp5", 32),
    (b"icp6", 64),
    (b"ic07", 128),
    (b"ic08", 256),
    (b"ic09", 512),
    (b"ic10", 1024),
    (b"ic11", 32),
    (b"ic12", 64),
    (b"ic13", 256),
    (b"ic14", 512),
)
SMALL_MAX = 32  # sizes up to this use the simplified drawing when it exists


def _qt():
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6 import QtCore, QtGui, QtSvg

    if QtGui.QGuiApplication.instance() is None:
        _qt.app = QtGui.QGuiApplication(sys.argv[:1])  # kept alive for the process
    return QtCore, QtGui, QtSvg


def render_png(svg: Path, size: int) -> bytes:
    """Render ``svg`` into a square PNG of ``size`` pixels (straight alpha) and return its bytes."""
    QtCore, QtGui, QtSvg = _qt()
    renderer = QtSvg.QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"error: {svg} is not a valid SVG for Qt's renderer")
    image = QtGui.QImage(size, size, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QtCore.Qt.GlobalColor.transparent)
    painter = QtGui.QPainter(image)
    painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QtGui.QPainter.RenderHint.SmoothPixmapTransform, True)
    renderer.render(painter, QtCore.QRectF(0, 0, size, size))
    painter.end()
    image = image.convertToFormat(QtGui.QImage.Format.Format_ARGB32)
    data = QtCore.QByteArray()
    buffer = QtCore.QBuffer(data)
    buffer.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise SystemExit(f"error: could not encode a {size} px PNG")
    buffer.close()
    return bytes(data.data())


def build_ico(pngs: dict[int, bytes]) -> bytes:
    """An ICO container with one PNG-compressed 32-bit entry per size (Windows Vista and later)."""
    sizes = sorted(pngs)
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(header) + 16 * len(sizes)
    entries, blobs = [], []
    for size in sizes:
        blob = pngs[size]
        dim = 0 if size >= 256 else size  # 0 means 256 in the directory entry
        entries.append(struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(blob), offset))
        blobs.append(blob)
        offset += len(blob)
    return header + b"".join(entries) + b"".join(blobs)


def build_icns(pngs: dict[int, bytes]) -> bytes:
    """An ICNS container of PNG entries (macOS 10.7 and later read every type used here)."""
    body = b"".join(code + struct.pack(">I", 8 + len(pngs[size])) + pngs[size] for code, size in ICNS_TYPES)
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def parse_ico(data: bytes) -> list[tuple[int, bytes]]:
    """(size, image bytes) of each entry of an ICO file; raises ValueError if it is malformed."""
    reserved, kind, count = struct.unpack_from("<HHH", data, 0)
    if reserved != 0 or kind != 1 or count == 0:
        raise ValueError("not an icon file")
    out = []
    for i in range(count):
        w, _h, _c, _r, _planes, _bits, length, offset = struct.unpack_from("<BBBBHHII", data, 6 + 16 * i)
        if offset + length > len(data):
            raise ValueError("entry runs past the end of the file")
        out.append((w or 256, data[offset : offset + length]))
    return out


def parse_icns(data: bytes) -> list[tuple[bytes, bytes]]:
    """(type code, image bytes) of each entry of an ICNS file; raises ValueError if it is malformed."""
    if data[:4] != b"icns" or struct.unpack_from(">I", data, 4)[0] != len(data):
        raise ValueError("not an icns file")
    out, pos = [], 8
    while pos < len(data):
        code, length = data[pos : pos + 4], struct.unpack_from(">I", data, pos + 4)[0]
        if length < 8 or pos + length > len(data):
            raise ValueError("entry runs past the end of the file")
        out.append((code, data[pos + 8 : pos + length]))
        pos += length
    return out


def _write_if_changed(path: Path, data: bytes) -> bool:
    if path.exists() and path.read_bytes() == data:
        return False
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    return True


def make_icons(src_dir: Path = ICONS, out_dir: Path | None = None) -> list[Path]:
    """Render every output into ``out_dir`` (default: next to the sources); returns the files written."""
    out_dir = out_dir or src_dir
    out_dir.mkdir(parents=True, exist_ok=True)
    big = src_dir / f"{NAME}.svg"
    small = src_dir / f"{NAME}-small.svg"
    if not big.is_file():
        raise SystemExit(f"error: the icon source {big} is missing")

    cache: dict[int, bytes] = {}

    def png(size: int) -> bytes:
        if size not in cache:
            source = small if size <= SMALL_MAX and small.is_file() else big
            cache[size] = render_png(source, size)
        return cache[size]

    written = []
    for size in PNG_SIZES:
        path = out_dir / f"{NAME}-{size}.png"
        if _write_if_changed(path, png(size)):
            written.append(path)
    outputs = {
        out_dir / f"{NAME}.ico": build_ico({s: png(s) for s in ICO_SIZES}),
        out_dir / f"{NAME}.icns": build_icns({s: png(s) for _, s in ICNS_TYPES}),
    }
    for path, data in outputs.items():
        if _write_if_changed(path, data):
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="output folder (default: resources/icons)")
    args = parser.parse_args(argv)
    written = make_icons(ICONS, args.out)
    where = args.out or ICONS
    print(
        f"{len(written)} icon file(s) updated in {where}" if written else f"icons in {where} are up to date"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
