"""Fonts that render Chinese on every platform: the interface's family list (the system's font first,
then Latin choices and CJK fallbacks) and a fixed-pitch font for JSON, diffs and tool output."""

from __future__ import annotations

import sys
from collections.abc import Iterable

from philont_desktop.qt import QApplication, QFont, QFontDatabase

#: Families that cover Simplified Chinese, per platform, best first.
CJK_UI_FAMILIES: dict[str, tuple[str, ...]] = {
    "win32": ("Microsoft YaHei UI", "Microsoft YaHei", "DengXian", "SimSun"),
    "darwin": ("PingFang SC", "Hiragino Sans GB", "Heiti SC", "STHeiti"),
    "linux": (
        "Noto Sans CJK SC",
        "Noto Sans SC",
        "Source Han Sans SC",
        "WenQuanYi Micro Hei",
        "WenQuanYi Zen Hei",
        "Droid Sans Fallback",
    ),
}
#: Families tried first for Latin text when the system's default is unknown.
LATIN_UI_FAMILIES: dict[str, tuple[str, ...]] = {
    "win32": ("Segoe UI",),
    "darwin": (".AppleSystemUIFont", "Helvetica Neue"),
    "linux": ("Noto Sans", "Cantarell", "DejaVu Sans"),
}
MONO_FAMILIES: dict[str, tuple[str, ...]] = {
    "win32": ("Cascadia Mono", "Consolas", "Microsoft YaHei UI", "Microsoft YaHei", "SimSun"),
    "darwin": ("SF Mono", "Menlo", "PingFang SC", "Hiragino Sans GB"),
    "linux": (
        "DejaVu Sans Mono",
        "Noto Sans Mono",
        "Noto Sans Mono CJK SC",
        "WenQuanYi Micro Hei Mono",
        "Source Han Sans SC",
        "Noto Sans CJK SC",
        "Droid Sans Fallback",
    ),
}


def platform_key(platform: str | None = None) -> str:
    """``win32``, ``darwin`` or ``linux`` (every other Unix uses the Linux fonts)."""
    p = platform or sys.platform
    if p.startswith("win"):
        return "win32"
    if p == "darwin":
        return "darwin"
    return "linux"


def _dedupe(families: Iterable[str]) -> list[str]:
    out: list[str] = []
    for f in families:
        if f and f not in out:
            out.append(f)
    return out


def ui_font_families(platform: str | None = None, system_family: str | None = None) -> list[str]:
    """The interface font's family list: the system's default first (it is what the platform's other
    programs use for Latin text), then the platform's Latin choices and the CJK fallbacks."""
    key = platform_key(platform)
    generic = {"", "Sans Serif", "sans-serif", "MS Shell Dlg 2", "Sans"}
    first = [system_family] if system_family and system_family not in generic else []
    return _dedupe([*first, *LATIN_UI_FAMILIES[key], *CJK_UI_FAMILIES[key]])


def monospace_families(platform: str | None = None, system_family: str | None = None) -> list[str]:
    """The family list of JSON, diff and tool-output views: the system's fixed font, then fallbacks."""
    key = platform_key(platform)
    generic = {"", "monospace", "Monospace"}
    first = [system_family] if system_family and system_family not in generic else []
    return _dedupe([*first, *MONO_FAMILIES[key]])


def _system_family(kind: QFontDatabase.SystemFont) -> str:
    return QFontDatabase.systemFont(kind).family()


_fonts_applied = False


def apply_fonts(force: bool = False) -> None:
    """Set the application font's family list (once); Chinese then renders in a proper CJK face."""
    global _fonts_applied
    app = QApplication.instance()
    if not isinstance(app, QApplication) or (_fonts_applied and not force):
        return
    _fonts_applied = True
    font = QFont(app.font())
    font.setFamilies(ui_font_families(system_family=_system_family(QFontDatabase.SystemFont.GeneralFont)))
    app.setFont(font)
    system_mono = _system_family(QFontDatabase.SystemFont.FixedFont)
    if system_mono:
        # Widgets that take QFontDatabase.systemFont(FixedFont) directly still find CJK glyphs.
        QFont.insertSubstitutions(system_mono, monospace_families()[1:])


def monospace_font(point_size: float | None = None) -> QFont:
    """A fixed-pitch font whose family list renders Chinese too (JSON, diffs, tool output)."""
    font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    font.setFamilies(monospace_families(system_family=font.family()))
    font.setStyleHint(QFont.StyleHint.Monospace)
    if point_size:
        font.setPointSizeF(point_size)
    else:
        from philont_desktop import zoom

        if zoom.factor() != 1.0 and font.pointSizeF() > 0:  # made after a zoom: at the zoomed size
            font.setPointSizeF(round(font.pointSizeF() * zoom.factor(), 2))
    return font


#: Text drawn once by :func:`warm_glyphs`: Chinese and the symbols the cards and tables draw.
WARM_TEXT = "数据库迁移，上次讨论过 ✓ ✗ ● … → ≈ ∞"


def warm_glyphs() -> None:
    """Draw :data:`WARM_TEXT` once, offscreen, in the interface font (regular and bold) and the
    fixed-pitch one. The first Chinese text a process draws in a font makes the font engine find the
    fallback family and load it (~7 ms warm, ~11 ms with the font file not in the page cache); done
    while a file opens, it is not part of the first page's paint."""
    from philont_desktop.qt import QImage, QPainter

    image = QImage(8, 8, QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(image)
    try:
        bold = QFont(QApplication.font())
        bold.setBold(True)
        for font in (QApplication.font(), bold, monospace_font()):
            painter.setFont(font)
            painter.drawText(0, 6, WARM_TEXT)
    finally:
        painter.end()


def has_cjk(families: Iterable[str], platform: str | None = None) -> bool:
    """Does the list name a family known to cover Simplified Chinese on ``platform``?"""
    known = set(CJK_UI_FAMILIES[platform_key(platform)]) | {
        f for f in MONO_FAMILIES[platform_key(platform)] if "CJK" in f or "Hei" in f or "Han" in f
    }
    known |= {"SimSun", "Microsoft YaHei UI", "Microsoft YaHei", "PingFang SC", "Hiragino Sans GB"}
    return any(f in known for f in families)
