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
    "#6a3d9a",
    "#b15928",
    "#1b9e77",
    "#e7298a",
    "#66a61e",
    "#c79100",
    "#386cb0",
    "#5d6d7e",
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
    "#b392f0",
    "#ffab70",
    "#7ee787",
    "#ff9bce",
    "#a5d6ff",
    "#f2cc60",
    "#d29922",
    "#8ddb8c",
)


def palette(n: int, dark: bool) -> list[QColor]:
    """``n`` distinguishable colours: a fixed palette made for many categories up to 20; beyond, evenly spaced hues whose
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


def namespace_colours(namespaces: list[str], dark: bool) -> list[QColor]:
    """A colour for each namespace: one hue per top-level namespace (``project``), shades of it for its
    sub-namespaces (``project.billing``), so 20 namespaces read as a few families rather than 20 hues."""
    roots = sorted({ns.split(".", 1)[0] for ns in namespaces})
    base = dict(zip(roots, palette(len(roots), dark), strict=True))
    out: list[QColor] = []
    seen: dict[str, int] = {}
    for ns in namespaces:
        root = ns.split(".", 1)[0]
        k = seen.get(root, 0)
        seen[root] = k + 1
        c = QColor(base[root])
        if k:
            shade = 100 + 25 * ((k + 1) // 2)
            c = c.lighter(shade) if (k % 2) == (0 if dark else 1) else c.darker(shade)
        out.append(c)
    return out


def namespace_families(namespaces: list[str]) -> dict[str, list[str]]:
    """The namespaces grouped under their top-level namespace, in order."""
    out: dict[str, list[str]] = {}
    for ns in namespaces:
        out.setdefault(ns.split(".", 1)[0], []).append(ns)
    return out
