"""The window opens within the screen's available area, at the first launch and when a geometry saved
on a larger screen is restored; its layout fits a 1024×640 screen on every tab."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from philont_desktop.app import settle
from philont_desktop.qt import QByteArray, QRect
from philont_desktop.shell import placement
from philont_desktop.tabs import tab_names


def test_fit_size_keeps_what_fits_and_shrinks_what_does_not():
    assert placement.fit_size((1280, 820), (1920, 1050), (0, 30)) == (1280, 820)
    assert placement.fit_size((1280, 820), (1024, 610), (0, 30)) == (1024, 580)
    assert placement.fit_size((1280, 820), (800, 800), (10, 40)) == (790, 760)


def test_the_window_fits_a_small_screen_on_every_tab(open_window, demo_db_path):
    w = open_window(demo_db_path)
    small = QRect(0, 0, 1024, 640)
    placement.fit_to_screen(w, small)
    assert small.contains(w.frameGeometry()), w.frameGeometry()
    for name in tab_names():
        tab = w.show_tab(name)
        assert settle(w, tab, 20_000)
        need = w.minimumSizeHint()
        assert need.width() <= 1024 and need.height() <= 640, (name, need)
        assert small.contains(w.frameGeometry()), (name, w.frameGeometry())


def test_a_geometry_saved_on_a_larger_screen_is_fitted_when_restored(qtbot, tmp_path, monkeypatch):
    from philont_desktop.main_window import MainWindow
    from philont_desktop.settings import Settings
    from philont_desktop.theme import Theme

    monkeypatch.setenv("PHILONT_DESKTOP_SETTINGS_DIR", str(tmp_path / "settings"))
    big = MainWindow(Settings(), Theme("light"), interactive=False)
    qtbot.addWidget(big)
    big.setGeometry(100, 80, 2400, 1500)  # on a larger screen than this one
    settings = Settings()
    settings.geometry = bytes(QByteArray(big.saveGeometry()))
    w = MainWindow(settings, Theme("light"), interactive=True, live_interval_ms=60_000)
    w.persist = False
    qtbot.addWidget(w)
    area = placement.available_area(w)
    assert area is not None and area.width() < 2400
    assert area.contains(w.frameGeometry()), (w.frameGeometry(), area)


def test_at_the_first_launch_the_window_fits_the_screen(qtbot, tmp_path, monkeypatch):
    from philont_desktop.main_window import MainWindow
    from philont_desktop.settings import Settings
    from philont_desktop.theme import Theme

    monkeypatch.setenv("PHILONT_DESKTOP_SETTINGS_DIR", str(tmp_path / "settings"))
    w = MainWindow(Settings(), Theme("light"), interactive=True, live_interval_ms=60_000)
    w.persist = False
    qtbot.addWidget(w)
    area = placement.available_area(w)
    assert area is not None
    if area.width() >= 1280 and area.height() >= 820:
        assert (w.width(), w.height()) == placement.PREFERRED
    else:  # the offscreen screen (800×800) is smaller than the preferred size
        assert area.contains(w.frameGeometry()), (w.frameGeometry(), area)
