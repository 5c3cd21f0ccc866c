"""The overview: every active fact as a point, score at the view time against days since its anchor.

ONE ``ScatterPlotItem`` (per-point brushes shared per namespace) holds every point; moving the view
time moves the points in place. Drag selects a rectangle, a click picks the nearest point (numpy), both
ask for the facts to be selected in the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from core.decay import DEFAULT_FORGET_THRESHOLD
from philont_desktop.facts.curves import drawable_confidence, scores_at, y_top
from philont_desktop.facts.data import DAY_MS, FactRow
from philont_desktop.facts.widgets.decay_plot import invalid_note
from philont_desktop.facts.widgets.palette import namespace_colours, namespace_families
from philont_desktop.qt import (
    QColor,
    QGraphicsRectItem,
    QLabel,
    QPointF,
    QRectF,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.widgets import accessible, plain
from philont_desktop.widgets.plots import ThemedPlotWidget, pg

PICK_RADIUS_PX = 8


class SelectViewBox(pg.ViewBox):
    """Left drag selects a rectangle, left click picks a point, wheel zooms, middle drag pans."""

    sigRectSelected = Signal(object, object)  # QRectF in data coordinates, keyboard modifiers
    sigPointClicked = Signal(object, object)  # QPointF in data coordinates, keyboard modifiers

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.band = QGraphicsRectItem(0, 0, 1, 1)
        self.band.setPen(pg.mkPen((80, 140, 255), width=1))
        self.band.setBrush(pg.mkBrush(80, 140, 255, 50))
        self.band.setZValue(1e9)
        self.band.hide()
        self.addItem(self.band, ignoreBounds=True)

    def mouseDragEvent(self, ev: Any, axis: Any = None) -> None:
        if ev.button() != Qt.MouseButton.LeftButton or axis is not None:
            super().mouseDragEvent(ev, axis)
            return
        ev.accept()
        p0 = self.mapToView(ev.buttonDownPos())
        p1 = self.mapToView(ev.pos())
        rect = QRectF(p0, p1).normalized()
        if ev.isFinish():
            self.band.hide()
            self.sigRectSelected.emit(rect, ev.modifiers())
        else:
            self.band.setRect(rect)
            self.band.show()

    def mouseClickEvent(self, ev: Any) -> None:
        if ev.button() == Qt.MouseButton.LeftButton:
            ev.accept()
            self.sigPointClicked.emit(self.mapToView(ev.pos()), ev.modifiers())
            return
        super().mouseClickEvent(ev)

    def mouseDoubleClickEvent(self, ev: Any) -> None:
        self.autoRange()


class _PassiveScatter(pg.ScatterPlotItem):
    """Points that leave clicks to the view box, which picks the nearest point itself (numpy)."""

    def mouseClickEvent(self, ev: Any) -> None:
        ev.ignore()


class OverviewPlot(QWidget):
    """All active facts as points: score at the view time against days since their decay anchor."""

    selectionRequested = Signal(list, bool)  # fact ids, add to the current selection

    def __init__(self, theme: Any, parent: QWidget | None = None):
        super().__init__(parent)
        self._theme = theme
        self.vb = SelectViewBox(enableMenu=False)  # no context menu: not built at all (ThemedPlotWidget)
        self.plot = ThemedPlotWidget(theme, self, viewBox=self.vb)
        self.plot.setObjectName("factsOverview")
        pi = self.plot.getPlotItem()
        pi.setLabel("left", self.tr("score"))
        pi.setLabel("bottom", self.tr("days since last read (or since stored)"))
        self.scatter = _PassiveScatter(pxMode=True, size=5, pen=None, hoverable=False)
        self.scatter.opts["useCache"] = True
        self.selected = _PassiveScatter(pxMode=True, size=10, brush=None)
        self.selected.setZValue(3)
        self.threshold_line = pg.InfiniteLine(pos=DEFAULT_FORGET_THRESHOLD, angle=0, movable=False)
        self.plot.addItem(self.scatter)
        self.plot.addItem(self.selected)
        self.plot.addItem(self.threshold_line, ignoreBounds=True)
        self.legend = QLabel(self)
        self.legend.setObjectName("overviewLegend")
        self.legend.setWordWrap(True)
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.hint = QLabel(
            self.tr(
                "Drag: select a rectangle · Click: one point · Ctrl/Shift: add · Wheel: zoom · Double-click: fit"
            ),
            self,
        )
        self.hint.setObjectName("overviewHint")
        self.hint.setWordWrap(True)  # large text in a narrow window: a second line
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(self.plot, 1)
        lay.addWidget(self.legend)
        lay.addWidget(self.hint)
        self.vb.sigRectSelected.connect(self._on_rect)
        self.vb.sigPointClicked.connect(self._on_click)

        self.ids: np.ndarray = np.empty(0, dtype=object)
        self.conf = np.empty(0)
        self.anchor = np.empty(0)
        self.tau = np.empty(0)
        self.ns_index = np.empty(0, dtype=np.int32)
        self.namespaces: list[str] = []
        self.invalid_ids: list[str] = []  # active facts left out: their confidence cannot be drawn
        self.x = np.empty(0)
        self.y = np.empty(0)
        self._brushes: list[Any] = []
        self._point_brushes: np.ndarray = np.empty(0, dtype=object)
        self.view_time = 0.0
        self._selected_ids: set[str] = set()
        self._drawn_ok: np.ndarray | None = None
        self.focus: str | None = None
        self._fitted = False
        theme.changed.connect(self._restyle)
        self._restyle()
        accessible.prepare(self)  # built after the tab: named here

    def _restyle(self) -> None:
        err = self._theme.status_color("error")
        self.threshold_line.setPen(pg.mkPen(err, width=1.2, style=Qt.PenStyle.DashLine))
        self.selected.setPen(pg.mkPen(self._theme.plot_foreground(), width=1.6))
        if self.namespaces:
            self._make_brushes()
            self._draw(refit=False)

    def _make_brushes(self) -> None:
        colors = namespace_colours(list(self.namespaces), bool(getattr(self._theme, "is_dark", False)))
        self._colors = colors
        self._brushes = [pg.mkBrush(c) for c in colors]
        table = np.empty(len(self._brushes), dtype=object)
        for i, b in enumerate(self._brushes):
            table[i] = b
        focus = self.focus
        muted = QColor(self._theme.muted_text())
        muted.setAlpha(90)
        other = pg.mkBrush(muted)
        shown: dict[str, str] = {}
        for i, (ns, c) in enumerate(zip(self.namespaces, colors)):
            inside = focus is None or ns == focus or ns.startswith(focus + ".")
            if not inside:
                table[i] = other
            shown[ns] = c.name() if inside else muted.name()
        items = [
            self._family_entry(members, shown)
            for members in namespace_families(list(self.namespaces)).values()
        ]
        if focus is not None and self.ids.size:
            # draw the focused namespace last, on top of the grey points
            inside_ns = np.array(
                [ns == focus or ns.startswith(focus + ".") for ns in self.namespaces], dtype=bool
            )
            order = np.argsort(inside_ns[self.ns_index], kind="stable")
            for name in ("ids", "conf", "anchor", "tau", "ns_index"):
                setattr(self, name, getattr(self, name)[order])
        self._point_brushes = table[self.ns_index] if len(table) else np.empty(0, dtype=object)
        self._drawn_ok = None  # the point order may have changed: the next draw is a full one
        if self.invalid_ids:
            err = self._theme.status_color("error").name()
            items.append(invalid_note(len(self.invalid_ids), err, left_out=True))
        self.legend.setText("&nbsp;&nbsp; ".join(items))

    @staticmethod
    def _family_entry(members: list[str], colours: dict[str, str]) -> str:
        """``● project ● billing ● mycox``: a top-level namespace and its sub-namespaces, each with its
        colour, kept together on one line."""
        root = members[0].split(".", 1)[0]
        parts = []
        for ns in members:
            label = ns if ns == root or "." not in ns else ns[len(root) + 1 :]
            parts.append(f'<span style="color:{colours[ns]}">●</span>&nbsp;{plain.html(label)}')
        if members[0] != root:
            parts.insert(0, f"{plain.html(root)}:")
        return "<span style='white-space:nowrap'>" + "&nbsp;".join(parts) + "</span>"

    def set_focus(self, namespace: str | None) -> None:
        """Colour only ``namespace`` (and its sub-namespaces); the other points turn grey."""
        if namespace == self.focus:
            return
        self.focus = namespace
        if self.namespaces:
            self._make_brushes()
            self._draw(refit=False)

    def set_rows(self, rows: Sequence[FactRow], view_time: float) -> None:
        """The points: active facts (not superseded, not forgotten) of ``rows``."""
        active = [r for r in rows if r.fact.superseded_by is None and r.fact.forgotten_at is None]
        # a confidence that is not a finite number >= 0 has no place on a score axis: left out, with a note
        drawable = [r for r in active if drawable_confidence(r.fact.confidence)]
        self.invalid_ids = [r.fact.id for r in active if not drawable_confidence(r.fact.confidence)]
        active = drawable
        self.namespaces = sorted({r.fact.namespace for r in active})
        index = {ns: i for i, ns in enumerate(self.namespaces)}
        n = len(active)
        self.ids = np.array([r.fact.id for r in active], dtype=object) if n else np.empty(0, dtype=object)
        self.conf = np.fromiter((r.fact.confidence for r in active), dtype=float, count=n)
        self.anchor = np.fromiter((r.anchor for r in active), dtype=float, count=n)
        self.tau = np.fromiter((r.tau_eff for r in active), dtype=float, count=n)
        self.ns_index = np.fromiter((index[r.fact.namespace] for r in active), dtype=np.int32, count=n)
        self.view_time = float(view_time)
        self._make_brushes()
        self._draw(refit=not self._fitted)
        self._fitted = self._fitted or n > 0

    def set_view_time(self, view_time: float) -> None:
        self.view_time = float(view_time)
        self._draw(refit=False, positions_only=True)

    def _draw(self, refit: bool, positions_only: bool = False) -> None:
        self.x = np.maximum(0.0, (self.view_time - self.anchor) / DAY_MS)
        self.y = scores_at(self.conf, self.anchor, self.tau, self.view_time)
        ok = np.isfinite(self.y)
        if positions_only and self._drawn_ok is not None and np.array_equal(ok, self._drawn_ok):
            # Same points, same styles: move them in place (getData() returns views of the item's
            # record array), which skips re-resolving 10,000 per-point brushes.
            xs, ys = self.scatter.getData()
            xs[:] = self.x[ok]
            ys[:] = self.y[ok]
            self.scatter.prepareGeometryChange()
            self.scatter.bounds = [None, None]
            self.scatter.informViewBoundsChanged()
            self.scatter.invalidate()
        elif ok.all():
            self.scatter.setData(x=self.x, y=self.y, brush=self._point_brushes)
        else:
            self.scatter.setData(x=self.x[ok], y=self.y[ok], brush=self._point_brushes[ok])
        self._drawn_ok = ok
        self._draw_selected()
        if refit and self.x.size:
            xs = self.x[np.isfinite(self.x)]
            xmax = min(float(xs.max()), 1e9) if xs.size else 1.0
            self.plot.setXRange(0, xmax * 1.03 + 0.5, padding=0)
            self.plot.setYRange(0, y_top(self.conf) * 1.05, padding=0)

    def set_selected(self, ids: set[str]) -> None:
        self._selected_ids = set(ids)
        self._draw_selected()

    def _draw_selected(self) -> None:
        if not self._selected_ids or self.ids.size == 0:
            self.selected.setData([], [])
            return
        mask = np.fromiter((i in self._selected_ids for i in self.ids), dtype=bool, count=self.ids.size)
        mask &= np.isfinite(self.y)
        self.selected.setData(x=self.x[mask], y=self.y[mask])

    # -- picking ------------------------------------------------------------------------------------------------
    def ids_in_rect(self, rect: QRectF) -> list[str]:
        if self.x.size == 0:
            return []
        m = (
            (self.x >= rect.left())
            & (self.x <= rect.right())
            & (self.y >= rect.top())
            & (self.y <= rect.bottom())
        )
        return [str(i) for i in self.ids[m]]

    def id_near(self, pos: QPointF, radius_px: float = PICK_RADIUS_PX) -> str | None:
        if self.x.size == 0:
            return None
        sx, sy = self.vb.viewPixelSize()
        if not sx or not sy:
            return None
        with np.errstate(invalid="ignore"):
            d2 = ((self.x - pos.x()) / sx) ** 2 + ((self.y - pos.y()) / sy) ** 2
        d2 = np.where(np.isfinite(d2), d2, np.inf)
        k = int(np.argmin(d2))
        return str(self.ids[k]) if d2[k] <= radius_px**2 else None

    def data_to_scene(self, x: float, y: float) -> QPointF:
        return self.vb.mapViewToScene(QPointF(x, y))

    def _adds(self, modifiers: Any) -> bool:
        return bool(modifiers & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier))

    def _on_rect(self, rect: QRectF, modifiers: Any) -> None:
        self.selectionRequested.emit(self.ids_in_rect(rect), self._adds(modifiers))

    def _on_click(self, pos: QPointF, modifiers: Any) -> None:
        fid = self.id_near(pos)
        if fid is not None:
            self.selectionRequested.emit([fid], self._adds(modifiers))
