"""Colours that tell curves and namespaces apart, on a light or a dark background."""

from __future__ import annotations

from philont_desktop.qt import QColor

_PALETTE_LIGHT = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#9467bd",
    "#ff7f0e",
    "#17becf",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#0b5394",
    "#a61c00",
)
_PALETTE_DARK = (
    "#58a6ff",
    "#ff7b72",
    "#56d364",
    "#d2a8ff",
    "#ffa657",
    "#39c5cf",
    "#e3b341",
    "#f778ba",
    "#a5b1bd",
    "#bdd55c",
    "#79c0ff",
    "#ffa198",
)


def palette(n: int, dark: bool) -> list[QColor]:
    """``n`` distinguishable colours: a fixed palette up to 12; beyond, evenly spaced hues whose
    neighbours alternate in brightness and saturation (adjacent hues stay apart)."""
    base = _PALETTE_DARK if dark else _PALETTE_LIGHT
    if n <= len(base):
        return [QColor(c) for c in base[:n]]
    out = []
    for i in range(n):
        level = i % 3
        sat = (0.5, 0.75, 0.35)[level] if dark else (0.85, 0.6, 0.95)[level]
        val = (0.98, 0.8, 0.9)[level] if dark else (0.8, 0.55, 0.65)[level]
        out.append(QColor.fromHsvF((0.58 + i * 0.618034) % 1.0, sat, val))
    return out
