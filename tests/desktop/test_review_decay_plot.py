"""The Review tab's decay plot: the curve is computed at once, the plot widget made when first shown."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from tests.support import FIXED_NOW as NOW

DAY = 86_400_000


def test_the_decay_curve_is_drawn_when_its_page_is_first_shown(qtbot):
    from philont_desktop.review.widgets.decay_plot import DecayPlot
    from philont_desktop.theme import Theme

    plot = DecayPlot(Theme("light"))
    qtbot.addWidget(plot)
    fact = {
        "namespace": "user",
        "confidence": 0.9,
        "createdAt": NOW - 30 * DAY,
        "lastAccessedAt": NOW - 3 * DAY,
    }
    plot.show_fact(fact, NOW - DAY, NOW)
    assert plot.points > 100 and plot.plot is None  # nothing built while the page is hidden
    plot.show()
    qtbot.waitExposed(plot)
    assert plot.plot is not None and plot.plot.isVisible()
    curves = plot.plot.getPlotItem().listDataItems()
    assert len(curves) == 1 and len(curves[0].getData()[0]) == plot.points
    plot.show_fact(None, None, NOW)
    assert plot.points == 0 and not plot.plot.getPlotItem().listDataItems()
