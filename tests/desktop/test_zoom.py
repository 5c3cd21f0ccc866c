"""View › Zoom In / Zoom Out / Actual Size: every font scales (tables, fixed-pitch panes, plots), the
level is remembered and used at the next start."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from philont_desktop import zoom
from philont_desktop.app import build_parser, settle, startup_zoom
from philont_desktop.qt import QApplication, QKeySequence, QPlainTextEdit, QtTest


@pytest.fixture(autouse=True)
def normal_size(qapp):
    zoom.reset_for_tests()
    yield
    zoom.reset_for_tests()


def test_steps_go_up_and_down_and_back_to_normal():
    assert zoom.step(100, 1) == 110 and zoom.step(110, 1) == 125
    assert zoom.step(100, -1) == 90 and zoom.step(50, -1) == 50 and zoom.step(300, 1) == 300
    assert zoom.step(175, 0) == 100
    assert zoom.clamp(1000) == 300 and zoom.clamp(10) == 50


def _press(w, sequence: str) -> None:
    combo = QKeySequence(sequence)[0]
    QtTest.QTest.keyClick(w.tab_widget.currentWidget(), combo.key(), combo.keyboardModifiers())
    QApplication.processEvents()


def test_keys_scale_every_font_and_the_level_is_remembered(open_window, demo_db_path):
    w = open_window(demo_db_path)
    w.persist = True
    w.activateWindow()
    actions = w.show_tab("actions")
    assert settle(w, actions, 20_000)
    params = actions.findChild(QPlainTextEdit, "actionParamsEdit")
    table = actions.table
    base_app = QApplication.font().pointSizeF()
    base_mono = params.font().pointSizeF()
    base_row = table.verticalHeader().defaultSectionSize()
    chart = actions.chart.plot
    base_tick = chart.getAxis("bottom").style["tickFont"]
    assert base_tick is None  # pyqtgraph's own font at 100 %

    _press(w, "Ctrl++")
    _press(w, "Ctrl++")
    assert zoom.level() == 125 and w.settings.zoom == 125
    assert QApplication.font().pointSizeF() == pytest.approx(base_app * 1.25, abs=0.05)
    assert params.font().pointSizeF() == pytest.approx(base_mono * 1.25, abs=0.1)
    assert table.verticalHeader().defaultSectionSize() >= round(base_row * 1.2)
    tick = chart.getAxis("bottom").style["tickFont"]
    assert tick is not None and tick.pointSizeF() == pytest.approx(base_app * 1.25, abs=0.05)
    assert chart.getAxis("bottom").label.font().pointSizeF() == pytest.approx(base_app * 1.25, abs=0.05)

    _press(w, "Ctrl+-")
    assert zoom.level() == 110 and w.settings.zoom == 110
    _press(w, "Ctrl+0")
    assert zoom.level() == 100 and w.settings.zoom == 100
    assert QApplication.font().pointSizeF() == pytest.approx(base_app, abs=0.05)
    assert params.font().pointSizeF() == pytest.approx(base_mono, abs=0.1)
    assert table.verticalHeader().defaultSectionSize() == pytest.approx(base_row, abs=1)
    assert chart.getAxis("bottom").style["tickFont"] is None


def test_the_remembered_level_is_used_at_start_and_zoom_overrides_it(tmp_path, monkeypatch):
    from philont_desktop.settings import Settings

    monkeypatch.setenv("PHILONT_DESKTOP_SETTINGS_DIR", str(tmp_path))
    settings = Settings()
    settings.zoom = 150
    assert startup_zoom(build_parser().parse_args([]), settings) == 150
    assert startup_zoom(build_parser().parse_args(["--zoom", "200"]), settings) == 200
    assert startup_zoom(build_parser().parse_args(["--zoom", "9000"]), settings) == 300


def test_the_review_columns_grow_with_the_text(open_window, demo_db_path):
    from philont_desktop.review.model import COL_WHEN

    w = open_window(demo_db_path)
    review = w.show_tab("review")
    assert settle(w, review, 20_000)
    tree = review.tree
    before = tree.header().sectionSize(COL_WHEN)  # always shown (the exact time hides in a narrow tree)
    w.menus.zoom(1)
    w.menus.zoom(1)
    assert tree.header().sectionSize(COL_WHEN) >= round(before * 1.2)
    assert tree.header().sectionSize(COL_WHEN) >= tree.fontMetrics().horizontalAdvance("10 days ago")


def test_sizes_given_for_text_follow_the_zoom(open_window, demo_db_path):
    w = open_window(demo_db_path)
    context = w.show_tab("context")
    assert settle(w, context, 20_000)
    message = context.findChild(QPlainTextEdit, "contextMessage")
    height = message.height()
    assert message.minimumHeight() == message.maximumHeight() == height  # three lines of text
    w.menus.zoom(1)
    w.menus.zoom(1)
    assert (
        message.maximumHeight() == round(height * 1.25) or abs(message.maximumHeight() - height * 1.25) <= 2
    )
    w.menus.zoom(0)
    assert abs(message.maximumHeight() - height) <= 2
