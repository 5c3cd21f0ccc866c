"""The application's plots (``widgets/plots.py``): pyqtgraph's plot item without its "Plot Options" form,
axes that rebuild their label only when it changes, axes laid out before the first paint."""

from __future__ import annotations

from itertools import pairwise

import pytest

pytest.importorskip("pytestqt")

from philont_desktop.qt import QAbstractButton, QAbstractSlider, QApplication, QGroupBox, QSpinBox, QWidget


@pytest.fixture
def theme(qapp):
    from philont_desktop.theme import Theme

    t = Theme("light")
    t.apply()
    return t


def _state(form) -> dict[str, tuple]:
    """What pyqtgraph's plot item reads of its form: every check, choice and number with its range."""
    out: dict[str, tuple] = {}
    for name, value in vars(form).items():
        if isinstance(value, QGroupBox):
            out[name] = ("group", value.isCheckable() and value.isChecked())
        elif isinstance(value, QAbstractButton):
            out[name] = ("check", value.isChecked())
        elif isinstance(value, QAbstractSlider | QSpinBox):
            out[name] = ("number", value.minimum(), value.maximum(), value.value())
        elif hasattr(value, "isChecked"):
            out[name] = ("group" if isinstance(value, QWidget) else "check", value.isChecked())
        elif hasattr(value, "maximum"):
            out[name] = ("number", value.minimum(), value.maximum(), value.value())
    return out


def test_the_light_form_starts_as_pyqtgraphs_form_does(qapp) -> None:
    """The stand-in has every control of pyqtgraph's form the plot item reads, in the same state."""
    from pyqtgraph.graphicsItems.PlotItem import plotConfigTemplate_generic as template

    from philont_desktop.widgets.plots import _Form

    real = template.Ui_Form()
    holder = QWidget()
    real.setupUi(holder)
    light = _Form()
    light.setupUi(None)
    expected = _state(real)
    assert _state(light) == expected
    assert {"peakRadio", "downsampleSpin", "gridAlphaSlider", "averageGroup"} <= set(expected)
    assert light.avgParamList.count() == 0


def test_a_light_plot_item_keeps_what_the_plot_items_controls_do(theme, qtbot) -> None:
    """Grid, downsampling, clipping and curves work as on pyqtgraph's own plot item."""
    from philont_desktop.widgets.plots import LightPlotItem, ThemedPlotWidget, pg

    plot = ThemedPlotWidget(theme)
    qtbot.addWidget(plot)
    item = plot.getPlotItem()
    assert isinstance(item, LightPlotItem)
    assert item.getAxis("left").grid == int(0.15 * 255)  # restyle(): y grid at 15%
    assert item.getAxis("bottom").grid is False
    item.showGrid(x=True, alpha=0.5)
    assert item.getAxis("bottom").grid == 127 and item.getAxis("left").grid == 127
    curve = pg.PlotDataItem([1, 2, 3, 4], [4, 3, 2, 1])
    plot.addItem(curve)
    item.setDownsampling(auto=True, mode="mean")
    item.setClipToView(True)
    assert curve.opts["autoDownsample"] and curve.opts["downsampleMethod"] == "mean"
    assert curve.opts["clipToView"]
    assert item.downsampleMode() == (1, True, "mean") and item.clipToViewMode()
    item.setDownsampling(ds=3, auto=False, mode="peak")
    assert curve.opts["downsample"] == 3 and curve.opts["downsampleMethod"] == "peak"
    assert not curve.opts["autoDownsample"]
    assert not item.ctrl.meanRadio.isChecked() and item.ctrl.peakRadio.isChecked()
    item.ctrl.peakRadio.setChecked(False)  # a choice cannot be unchecked, only replaced
    assert item.ctrl.peakRadio.isChecked()
    assert not plot.getAxis("top").isVisible() and not plot.getAxis("right").isVisible()
    assert item.getContextMenus(None) is None  # no menu is offered
    plot.resize(300, 200)
    plot.show()
    image = plot.grab().toImage()
    assert not image.isNull()


def test_an_axis_label_follows_its_text_and_colour(theme, qtbot) -> None:
    from philont_desktop.widgets.plots import Axis, DateAxis, ThemedPlotWidget

    plot = ThemedPlotWidget(theme, date_axis=True)
    qtbot.addWidget(plot)
    left, bottom = plot.getAxis("left"), plot.getAxis("bottom")
    assert isinstance(left, Axis) and isinstance(bottom, DateAxis)
    plot.getPlotItem().setLabel("left", "score")
    assert left.label.toPlainText().strip() == "score"
    theme.set_mode("dark")
    assert theme.plot_foreground().name() in left.label.toHtml()
    plot.getPlotItem().setLabel("left", "days")
    assert left.label.toPlainText().strip() == "days"
    theme.set_mode("light")
    assert theme.plot_foreground().name() in left.label.toHtml()


def test_fitted_axes_are_sized_before_the_first_paint(theme, qtbot) -> None:
    """An axis sized to its ticks by fit_axes() is not resized by the plot's first paint."""
    from philont_desktop.widgets.plots import ThemedPlotWidget

    plot = ThemedPlotWidget(theme)
    qtbot.addWidget(plot)
    plot.resize(400, 250)
    plot.setUpdatesEnabled(False)
    plot.show()
    plot.setYRange(0, 123_456, padding=0)  # wide tick labels
    QApplication.processEvents()
    plot.fit_axes()
    width = plot.getAxis("left").width()
    plot.setUpdatesEnabled(True)
    plot.grab()
    QApplication.processEvents()
    assert plot.getAxis("left").width() == width


def test_no_plot_of_the_application_builds_a_context_menu(theme, qtbot, monkeypatch) -> None:
    """The menus are off; their forms (the view box's, ~5-15 ms each) are not even made."""
    import sys

    from philont_desktop.actions.chart import FailureRateChart
    from philont_desktop.facts.widgets.decay_plot import DecayCurvePlot
    from philont_desktop.facts.widgets.overview import OverviewPlot
    from philont_desktop.timeline.widgets.chart import ActivityChart
    from philont_desktop.widgets.plots import pg

    view_box_module = sys.modules[pg.ViewBox.__module__]
    made: list[object] = []
    real = view_box_module.ViewBoxMenu
    monkeypatch.setattr(view_box_module, "ViewBoxMenu", lambda *a: made.append(a) or real(*a))
    for cls in (FailureRateChart, DecayCurvePlot, OverviewPlot, ActivityChart):
        widget = cls(theme)
        qtbot.addWidget(widget)
        item = widget.plot.getPlotItem()
        assert item.getViewBox().menu is None and item.getContextMenus(None) is None, cls.__name__
    assert made == []


def test_the_activity_chart_is_made_once_the_tabs_reads_are_done_or_after_a_while(
    theme, qtbot, monkeypatch
) -> None:
    from philont_desktop.timeline.widgets import activity
    from philont_desktop.timeline.widgets.activity import ActivityPane

    pane = ActivityPane(theme, 0)
    qtbot.addWidget(pane)
    pane.show()
    reads = [True]
    pane.reads_running = lambda: reads[0]
    pane.build_later()
    qtbot.wait(150)
    assert not pane.built and pane.loading_label.isVisible()  # not beside the tab's reads
    reads[0] = False
    qtbot.waitUntil(lambda: pane.built, timeout=2000)

    monkeypatch.setattr(activity, "QUIET_WAIT_S", 0.1)
    busy_for_ever = ActivityPane(theme, 0)
    qtbot.addWidget(busy_for_ever)
    busy_for_ever.reads_running = lambda: True
    busy_for_ever.build_later()
    qtbot.waitUntil(lambda: busy_for_ever.built, timeout=2000)  # made anyway, a little later


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_date_axis_labels_never_touch(theme, qtbot, lang) -> None:
    """Narrow plots over days, weeks and a year: no two tick labels overlap ("Dec 01Dec 03", "12月2027")."""
    from philont_desktop import i18n
    from philont_desktop.widgets.plots import ThemedPlotWidget

    day, start = 86_400, 1_796_000_000
    i18n.install(lang)
    try:
        for width in (200, 320, 600, 900):
            for days in (3, 14, 30, 60, 400):
                plot = ThemedPlotWidget(theme, date_axis=True)
                qtbot.addWidget(plot)
                plot.resize(width, 200)
                plot.setXRange(start, start + days * day, padding=0)
                plot.show()
                plot.grab()  # lays the axis out with its font
                axis = plot.getAxis("bottom")
                lo, hi = axis.range
                size = axis.geometry().width()
                boxes = []
                for spacing, values in axis.tickValues(lo, hi, size):
                    for value, text in zip(values, axis.tickStrings(values, 1, spacing), strict=True):
                        x = (value - lo) / (hi - lo) * size
                        w = axis.fontMetrics.horizontalAdvance(text)
                        boxes.append((x - w / 2, x + w / 2, text))
                boxes.sort()
                assert len(boxes) >= (2 if width >= 320 else 1), (width, days)
                touching = [(a[2], b[2]) for a, b in pairwise(boxes) if b[0] < a[1] + 4]
                assert touching == [], (width, days, touching)
                plot.hide()
    finally:
        i18n.uninstall()


@pytest.mark.parametrize("zoom", [100, 200])
def test_the_decay_plots_now_label_stays_above_the_threshold_label_in_a_short_plot(theme, qtbot, zoom):
    from philont_desktop.facts.widgets.decay_plot import DecayCurvePlot

    theme.set_zoom(zoom)
    try:
        w = DecayCurvePlot(theme)
        qtbot.addWidget(w)
        w.resize(420, 200)  # a short plot: the Facts tab at 1024×640 in large text
        w.show()
        qtbot.waitExposed(w)
        QApplication.processEvents()
        now, threshold = w.now_line.label, w.threshold_line.label
        now.setVisible(True)
        (x0, x1), _ = w.plot.getViewBox().viewRange()
        w.now_line.setPos(x0 + 0.1 * (x1 - x0))  # over the threshold's text, at the plot's left
        QApplication.processEvents()
        assert not now.sceneBoundingRect().intersects(threshold.sceneBoundingRect())
    finally:
        theme.set_zoom(100)
